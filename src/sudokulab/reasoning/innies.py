"""The 45 rule of killer sudoku: innies and outies of a house, or of two or three adjacent houses.

A complete house holds each digit once, so its digits add up to n(n+1)/2 (45 on 9x9), and m disjoint
houses to m times that. Take the cages wholly inside the houses: the cells they leave (the
*innies*) add up to the houses' total minus theirs. Where the cages that meet the houses cover
them, the cages' cells outside (the *outies*) add up to those cages' totals minus the houses'.
Either is a sum over a few cells; one open cell is placed (``forty_five``), a few have their marks
narrowed to the digits some assignment adding up to the sum puts there (``forty_five_combinations``).
The houses are a row, column, box or jigsaw region, and runs of 2-3 consecutive rows, columns or
boxes of one band or stack, as killer solvers use them. Which cells are innies or outies depends on
the rules alone, so ``sums`` finds them once per rule set; a step subtracts what is placed.

A step names the houses and cages it adds up, and the groups keeping its open cells apart, so
``step_check`` certifies it from those constraints alone.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache

from ..core.cells import cell_label
from ..core.rules import Cage, Group, Rules
from .board import Board, Premises, cells_text, make_step, removed_text
from .cages import short_name, sums_text
from .candidates import digits_of
from .steps import Step

MOST_OPEN = 4
"""Open cells a sum may have for ``forty_five_combinations``: what a person adds up in their head."""


@dataclass(frozen=True)
class KnownSum:
    """Cells whose digits add up to ``total`` by the 45 rule over some houses and cages."""

    side: str
    """"innie" or "outie"."""
    cells: tuple[int, ...]
    total: int
    houses: tuple[Group, ...]
    cages: tuple[Cage, ...]

    @property
    def where(self) -> str:
        """``row 4``, ``rows 4-6``, ``boxes 1, 4 and 7``."""
        if len(self.houses) == 1:
            return self.houses[0].name
        kind = self.houses[0].kind
        numbers = [g.name.split(" ", 1)[1] for g in self.houses]
        plural = kind + ("es" if kind.endswith("x") else "s")
        if all(x.isdigit() for x in numbers) and [int(x) for x in numbers] == list(
                range(int(numbers[0]), int(numbers[0]) + len(numbers))):
            return f"{plural} {numbers[0]}-{numbers[-1]}"
        return f"{plural} {', '.join(numbers[:-1])} and {numbers[-1]}"

    def reason(self, n: int) -> str:
        """Where the sum comes from: the houses' total and the cages' totals."""
        houses = len(self.houses) * n * (n + 1) // 2
        cages = sum(c.total for c in self.cages)
        numbers = [short_name(c).split(" ", 1)[1] for c in self.cages]
        named = ("cage " if len(numbers) == 1 else "cages ") + ", ".join(numbers)
        adds = "adds" if len(self.houses) == 1 else "add"
        if self.side == "innie":
            return f"{self.where} {adds} up to {houses}, the cages wholly inside ({named}) to {cages}"
        return f"the cages covering {self.where} ({named}) add up to {cages}, {self.where} to {houses}"


def _runs(groups: Sequence[Group]) -> Iterator[tuple[Group, ...]]:
    """Runs of 2 and 3 consecutive groups."""
    for size in (2, 3):
        for start in range(len(groups) - size + 1):
            yield tuple(groups[start:start + size])


def _unions(rules: Rules) -> list[tuple[Group, ...]]:
    """Single houses, then runs of 2-3 rows, columns, and boxes side by side in a band or stack."""
    houses = [g for g in rules.complete_groups if g.kind in ("row", "column", "box", "region")]
    unions: list[tuple[Group, ...]] = [(g,) for g in houses]
    for kind in ("row", "column"):
        unions += _runs([g for g in houses if g.kind == kind])
    boxes = [g for g in houses if g.kind == "box"]
    n = rules.n
    for line, across in ((lambda c: c // n, lambda c: c % n), (lambda c: c % n, lambda c: c // n)):
        bands: dict[frozenset[int], list[Group]] = {}
        for box in boxes:
            bands.setdefault(frozenset(map(line, box.cells)), []).append(box)
        for band in bands.values():
            unions += _runs(sorted(band, key=lambda b: min(map(across, b.cells))))
    return unions


@cache
def sums(rules: Rules) -> tuple[KnownSum, ...]:
    """Every innie and outie sum of a rule set, fewest houses first, each set of cells once."""
    n = rules.n
    found: dict[tuple[int, ...], KnownSum] = {}
    for houses in _unions(rules):
        cells = frozenset(c for g in houses for c in g.cells)
        total = len(houses) * n * (n + 1) // 2
        inside = tuple(c for c in rules.cages if cells.issuperset(c.cells))
        touching = tuple(c for c in rules.cages if cells.intersection(c.cells))
        innies = tuple(sorted(cells.difference(*(c.cells for c in inside))))
        if innies and inside:
            found.setdefault(innies, KnownSum("innie", innies, total - sum(c.total for c in inside), houses, inside))
        covered = set().union(*(c.cells for c in touching))
        outies = tuple(sorted(covered - cells))
        if outies and covered >= cells:
            found.setdefault(outies, KnownSum("outie", outies, sum(c.total for c in touching) - total, houses,
                                               touching))
    return tuple(found.values())


def _premises(board: Board, known: KnownSum) -> Premises:
    why = Premises(*(g.name for g in known.houses), *(c.name for c in known.cages))
    for fact in board.cell_facts(c for c in known.cells if board.placed[c]):
        why.add(fact)
    return why


def _held(board: Board, known: KnownSum, total: int) -> str:
    """``; the other innies r4c1 r6c2 hold 11``: the placed cells of the sum, when there are some."""
    placed = [c for c in known.cells if board.placed[c]]
    if not placed:
        return ""
    if len(placed) == 1:
        return f"; the other {known.side} {cells_text(placed, board.n)} holds {known.total - total}"
    return f"; the other {known.side}s {cells_text(placed, board.n)} hold {known.total - total}"


def _open(board: Board, known: KnownSum) -> tuple[list[int], int]:
    """The sum's open cells and what they add up to (the total less the digits placed)."""
    cells = [c for c in known.cells if not board.placed[c]]
    placed = sum(board.cands.value(c) for c in known.cells if board.placed[c])
    return cells, known.total - placed


def forty_five(board: Board, difficulty: float) -> Step | None:
    """An innie or outie sum with one open cell places its digit."""
    n = board.n
    for known in sums(board.cands.puzzle.rules):
        cells, total = _open(board, known)
        if len(cells) != 1 or not 1 <= total <= n or not board.cands.has(cells[0], total):
            continue
        cell = cells[0]
        text = (f"45 rule: the {known.side} {cell_label(cell, n)} of {known.where} is {total} "
                f"({known.reason(n)}{_held(board, known, total)})")
        return make_step("45 rule", difficulty, [(cell, total)], [], _premises(board, known), text)
    return None


def assignments(board: Board, cells: Sequence[int], total: int) -> list[tuple[int, ...]]:
    """Every way to put digits from their marks in the cells adding up to ``total``, cells that see
    each other holding different digits (a search: a few cells only)."""
    peers = board.cands.puzzle.rules.peers
    marks = [digits_of(board.marks[c]) for c in cells]
    found: list[tuple[int, ...]] = []
    low = [sum(m[0] for m in marks[i:] if m) for i in range(len(cells) + 1)]  # least the cells from i can add
    high = [sum(m[-1] for m in marks[i:] if m) for i in range(len(cells) + 1)]

    def extend(chosen: list[int], left: int) -> None:
        i = len(chosen)
        if not low[i] <= left <= high[i]:
            return
        if i == len(cells):
            found.append(tuple(chosen))
            return
        for digit in marks[i]:
            if digit <= left and not any(d == digit and cells[j] in peers[cells[i]] for j, d in enumerate(chosen)):
                extend([*chosen, digit], left - digit)

    extend([], total)
    return found


def forty_five_combinations(board: Board, difficulty: float) -> Step | None:
    """An innie or outie sum over a few open cells keeps in each the digits some assignment puts there."""
    n = board.n
    for known in sums(board.cands.puzzle.rules):
        cells, total = _open(board, known)
        if not 2 <= len(cells) <= MOST_OPEN:
            continue
        ways = assignments(board, cells, total)
        if not ways:
            continue
        removed = [(c, d) for i, c in enumerate(cells) for d in digits_of(board.marks[c])
                   if all(way[i] != d for way in ways)]
        if not removed:
            continue
        why = _premises(board, known)
        for fact in board.cell_facts(cells):
            why.add(fact)
        for a, b in itertools.combinations(cells, 2):
            why.name(board.tables.link(a, b))
        combos = sorted({tuple(sorted(way)) for way in ways})
        text = (f"{removed_text(removed, n)}: 45 rule: the {known.side}s {cells_text(cells, n)} of {known.where} "
                f"add up to {total} ({known.reason(n)}{_held(board, known, total)}): {sums_text(combos)}")
        return make_step("45 rule combinations", difficulty, [], removed, why, text)
    return None
