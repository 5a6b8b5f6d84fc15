"""The exact-cover paradigm: Knuth's Algorithm X on the matrix of ``exact_cover.model``, under the puzzle's rules.

Algorithm X (D. E. Knuth, "Dancing Links", 2000, arXiv:cs/0011047) chooses an open column, tries
each row that fills it, covers the row's other columns (removing every row that meets them) and
goes deeper; an open column with no row is a dead end, no open primary column a solution. It
chooses a column with the fewest rows (Knuth's "S heuristic"): one row in a cell column is a naked
single, in a group-digit column a hidden single, both forced moves. So as not to scan every size
at each of the many forced moves, covering notes the columns whose size falls below 2 (see
``algorithm_x.choose``).

The matrix comes from ``puzzle.rules`` (``solvers.exact_cover.model``): cells and (complete group,
digit) are primary columns, (partial group, digit) and (differing pair, digit) secondary ones,
Knuth's generalized exact cover (the same paper; TAOCP 4B, 7.2.2.1, Algorithm X with secondary
items): a chosen row covers its secondary columns like any other, hiding every row that would
fill one a second time, but a secondary column is never chosen to branch on and need not be
covered at the end. Here a secondary column's size carries an offset (``algorithm_x.SECONDARY``)
that keeps it out of ``min`` and out of the forced moves. Every other kind (thermometers, killer
cages, any kind added later) comes through the lowering: forbidden pairs of placements, a
secondary column each (``solvers.lowering``), and the placements they rule out alone fill one
column covered before the givens. A cage whose pairs do not say its sum is refused
before any work (``capabilities.refuses``, ``solvers.exact_cover.model.refusal``), naming it.

Two formulations, the option ``structure``:

- ``links`` (default, ``dlx_links``): dancing links on flat lists; covering unlinks nodes,
  uncovering relinks them in reverse order, so no state is copied.
- ``sets`` (``dlx_sets``): a set of rows per column, as in Ali Assaf's "Algorithm X in 30 lines!".
  Same size list, same column choice (``algorithm_x``); only the order of noted columns differs,
  so the paths may differ slightly.

Why ``links`` is the default: it solved more puzzles per CPU second than ``sets`` on every shared
set, with the same nodes (``benchmarks/dlx.py``, ``benchmarks/results/dlx.md``): a set's
remove or add is a method call and a hash per update, a link update four list stores. ``sets``
stays as the shorter code to read; its speed does not justify deleting it.

Effort: ``nodes`` counts rows tried (Knuth's nodes); ``updates`` one per node unlinked and one
per column covered (Knuth's "updates"). The givens are covered before the search, counted in neither.

With ``canonical``, forced moves are still taken at once, but otherwise it branches on the first
open cell in reading order, digits ascending. A forced row is in every solution below it, so
solutions still come in row-major lexicographic order and the first is the classic ``backtrack``
answer under the same rules. Each call copies the rule set's matrix (built once per ``Rules``),
so one instance serves many threads; an explicit stack replaces recursion (a 36x36 board is
1,296 levels deep). There is no learning: near the hardness peak some large puzzles take far
longer than others, and on some variant boards the fewest-rows choice is slower than the canonical
order (``benchmarks/results/dlx.md``, notes).
"""

from __future__ import annotations

from typing import ClassVar

from ...core.puzzle import Puzzle
from ..base import Capabilities, CountResult, Option, SolveResult, check_kinds
from ..search import SearchSolver
from .algorithm_x import DlxCounters
from .links import links_search
from .model import FORMS, KINDS_WHY, NATIVE, refusal
from .sets import sets_search

STRUCTURES = ("links", "sets")
"""The two formulations of Algorithm X; see the module docstring."""


_SEARCHES = {"links": links_search, "sets": sets_search}



class DlxSolver(SearchSolver):
    """``dlx``: Knuth's Algorithm X on the exact-cover matrix, fewest-rows column first.

    >>> from sudokulab.core.puzzle import Puzzle
    >>> DlxSolver().count(Puzzle.empty(4), limit=1000).count, DlxSolver("sets").count(Puzzle.empty(4)).count
    (288, 2)

    It states groups and differing pairs natively (``solvers.exact_cover.model.NATIVE``) and every other
    kind through the lowering, and refuses, before any work, a killer cage whose forbidden pairs would
    not say its sum (``solvers.exact_cover.model.refusal``).
    """

    name = "dlx"
    paradigm: ClassVar[str] = "exact cover (Algorithm X)"
    capabilities: ClassVar[Capabilities] = Capabilities(canonical=True, count=True, time_limit=True, threads="safe",
                                                        kinds=NATIVE, forms=FORMS, kinds_why=KINDS_WHY,
                                                        refuses=refusal)
    counters: ClassVar[type] = DlxCounters
    in_order: ClassVar[bool] = True  # with canonical: first open cell, digits ascending (module docstring)
    options: ClassVar[tuple[Option, ...]] = (
        Option("structure", str, "links", "links (dancing links on flat lists) or sets (a set of rows per column)",
               choices=STRUCTURES),
    )

    def __init__(self, structure: str = "links") -> None:
        super().__init__()  # options checked by SolverBase (base.check_options)
        self.structure = structure
        self.search = _SEARCHES[structure]

    def solve(self, puzzle: Puzzle, *, time_limit: float | None = None, canonical: bool = False) -> SolveResult:
        check_kinds(self, puzzle)
        return super().solve(puzzle, time_limit=time_limit, canonical=canonical)

    def count(self, puzzle: Puzzle, *, limit: int = 2, time_limit: float | None = None) -> CountResult:
        check_kinds(self, puzzle)
        return super().count(puzzle, limit=limit, time_limit=time_limit)
