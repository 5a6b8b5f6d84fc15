"""The catalogue of techniques a person uses: each finder with its name and difficulty, cheapest first.

A finder takes a ``board.Board`` and a difficulty (and a size, for subsets and fish) and returns the
first step of its technique, or None; ``explain`` tries them in this order, so simple reasons come
before clever ones. Every finder works on any rule set: complete groups (rows, columns, boxes,
regions, diagonals, windows) give hidden singles, locked candidates and hidden subsets; every group
(cages too) gives naked subsets; differing pairs (anti-knight, anti-king) strike a placed digit as
group mates do, and see each other for locked candidates; rows and columns give fish; cage sums
strike digits no combination of the total can use there; thermometers bound each cell by its
neighbours. Wings, single-digit patterns, finned fish and colouring (``wings``, ``single_digit``,
``fish``) work on any rule set through its peers and complete groups; the uniqueness techniques
(``uniqueness``) only on puzzles with one solution. The fallbacks last make every puzzle with one
solution explainable to the end.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from .als import als_xz
from .board import Board
from .cages import cage_claiming, cage_pointing, cage_sum, last_cage_cell, one_cell_cage
from .chains import aic, grouped_aic, x_chain, xy_chain
from .fallbacks import contradiction, search
from .fish import finned_fish, fish
from .forcing import cell_forcing_chain, dynamic_forcing_chain, region_forcing_chain
from .innies import forty_five, forty_five_combinations
from .nested import nested_forcing_chain
from .single_digit import empty_rectangle, simple_colouring, two_strong_links
from .singles import hidden_single, naked_single
from .steps import Step
from .subsets import direct_locked_candidates, hidden_subset, locked_candidates, naked_subset
from .uniqueness import bug_plus_one, unique_rectangle
from .variants import thermometer
from .wings import w_wing, xy_wing, xyz_wing


@dataclass(frozen=True)
class Technique:
    """One entry of the catalogue: a finder with its name, its difficulty and its size (0: none);
    ``top`` is the highest difficulty its harder variants reach (0: none harder)."""

    name: str
    difficulty: float
    find: Callable[..., Step | None]
    size: int = 0
    top: float = 0.0

    @property
    def highest(self) -> float:
        return self.top or self.difficulty

    def first(self, board: Board) -> Step | None:
        """The first step this technique finds on the board, or None."""
        if self.size:
            return self.find(board, self.difficulty, self.size)
        return self.find(board, self.difficulty)


_CATALOGUE = (
    Technique("one-cell cage", 1.0, one_cell_cage),  # ours: a given in all but name
    Technique("last cell of a cage", 1.1, last_cage_cell),  # ours: a full house, less what is placed
    Technique("hidden single", 1.2, hidden_single, top=1.5),  # 1.5 in a row, column or diagonal
    Technique("direct pointing", 1.7, direct_locked_candidates, top=1.9),  # SE's direct claiming 1.9
    Technique("thermometer", 1.8, thermometer),
    Technique("45 rule", 1.9, forty_five),  # ours, as the killer techniques below
    Technique("cage sum", 2.0, cage_sum),
    Technique("naked single", 2.3, naked_single),
    Technique("45 rule combinations", 2.5, forty_five_combinations),
    Technique("locked candidates", 2.6, locked_candidates, top=2.8),  # pointing; claiming 2.8
    Technique("cage pointing", 2.7, cage_pointing),
    Technique("cage claiming", 2.9, cage_claiming),
    Technique("naked pair", 3.0, naked_subset, 2),
    Technique("x-wing", 3.2, fish, 2),
    Technique("hidden pair", 3.4, hidden_subset, 2),
    Technique("naked triple", 3.6, naked_subset, 3),
    Technique("swordfish", 3.8, fish, 3),
    Technique("hidden triple", 4.0, hidden_subset, 3),
    Technique("skyscraper", 4.0, partial(two_strong_links, name="skyscraper")),
    Technique("2-string kite", 4.1, partial(two_strong_links, name="2-string kite")),
    Technique("turbot fish", 4.2, partial(two_strong_links, name="turbot fish")),
    Technique("empty rectangle", 4.2, empty_rectangle),
    Technique("finned x-wing", 4.2, finned_fish, 2),  # ours: after the skyscrapers it generalises
    Technique("XY-wing", 4.2, xy_wing),
    Technique("finned swordfish", 4.3, finned_fish, 3),  # ours
    Technique("XYZ-wing", 4.4, xyz_wing),
    Technique("W-wing", 4.4, w_wing),
    Technique("unique rectangle", 4.5, unique_rectangle, top=4.8),  # types 1, 2, 4; type 3 4.6-4.8
    Technique("naked quad", 5.0, naked_subset, 4),
    Technique("jellyfish", 5.2, fish, 4),
    Technique("hidden quad", 5.4, hidden_subset, 4),
    Technique("BUG+1", 5.6, bug_plus_one),
    Technique("simple colouring", 6.5, simple_colouring, top=6.6),  # colour wrap; colour trap 6.6
    Technique("x-chain", 6.6, x_chain),
    Technique("xy-chain", 6.6, xy_chain),
    Technique("aic", 7.0, aic),
    Technique("grouped aic", 7.0, grouped_aic),
    Technique("als-xz", 7.2, als_xz),
    Technique("contradiction", 7.5, contradiction),  # SE's Nishio: one digit followed alone
    Technique("region forcing chain", 8.0, region_forcing_chain),
    Technique("cell forcing chain", 8.0, cell_forcing_chain),
    Technique("dynamic forcing chain", 8.5, dynamic_forcing_chain),  # its contradictions too
)


def _named(*names: str) -> tuple[Technique, ...]:
    return tuple(t for t in _CATALOGUE if t.name in names)


NESTED_LEVELS = (
    _named("locked candidates", "naked pair", "x-wing", "hidden pair"),
    _named("x-chain", "xy-chain"),
    _named("region forcing chain", "cell forcing chain"),
    (Technique("dynamic forcing chain", 8.5, partial(dynamic_forcing_chain, contradiction_first=True)),),
)
"""What a nested trial of level k applies inside its branch, beyond singles: the first k entries
(after Sudoku Explainer's ``Chaining.getAdvancedRules``, levels 1 to 4; level 5, nested level-2 chains inside,
is not run; ``nested``)."""

MAX_NESTED = 4
"""The deepest level ``explain`` tries before ``search`` (docs/rating.md: what a deeper one costs)."""

PROBED = 3
"""From this level on, a sweep follows with reasons only the candidates whose fast ``probe`` breaks."""

TECHNIQUES = _CATALOGUE + (
    Technique("dynamic forcing chain (+)", 9.0, partial(nested_forcing_chain, levels=NESTED_LEVELS[:1],
                                                         name="dynamic forcing chain (+)")),
    *(Technique(f"nested forcing chain {k}", 9.5 + 0.5 * (k - 2),
                partial(nested_forcing_chain, levels=NESTED_LEVELS[:k], name=f"nested forcing chain {k}",
                        probed=k >= PROBED))
      for k in range(2, MAX_NESTED + 1)),
    Technique("search", 9.5 + 0.5 * (MAX_NESTED + 1 - 2), search),  # the next level's base: a lower bound
)
"""Every technique, cheapest first, at Sudoku Explainer's difficulty and in its order (docs/rating.md
has the table with SE's values and where each comes from; the variant techniques, finned fish and
the fallbacks are placed by us). A finder whose variant is harder passes the higher difficulty."""
