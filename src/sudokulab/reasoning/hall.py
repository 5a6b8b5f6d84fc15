"""Hall sets: k cells of an all-different group holding only k digits between them, found by matching.

The all-different level of the ladder (``levels``) and the explanations that name its steps share
this. A group's open cells are matched to digits (Kuhn's augmenting paths over bit masks); then
J.-C. Régin's filter ("A filtering algorithm for constraints of difference in CSPs", AAAI 1994)
keeps a candidate only when some maximum matching uses it. Each candidate it strikes comes with
the smallest Hall set behind it: "r1c2, r1c5 hold {3, 7} in row 1, so 3 and 7 leave the rest of
row 1" (``HallSet.text``). A cell that cannot be matched names a Hall violation instead: more
cells than digits among them, so the group cannot be filled (``hall_violation``).

Masks are a cell's candidates as bits (bit ``d - 1`` is digit ``d``), as in ``candidates``.
Roads not taken: enumerating the subsets of a group (2^9 per 9-cell group, where the matching and
the closure need about k^2 steps).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..core.cells import cell_label
from ..core.rules import Group
from .candidates import Candidates, digits_of


def maximum_matching(masks: Sequence[int]) -> tuple[list[int], int]:
    """A matching of cells to digits (``masks[i]``: cell i's candidates as bits) covering as many cells
    as possible: per cell the matched digit's bit (0 when unmatched), and the first unmatched cell or -1.

    Augmenting paths (Kuhn's algorithm), tried with a free digit first; enough for groups of
    Sudoku size. Every cell matched means the group can still be filled; a cell left out names a
    Hall violation (``hall_violation``).

    >>> maximum_matching([0b011, 0b001, 0b110])  # {1, 2}, {1}, {2, 3}: 2, 1 and 3
    ([2, 1, 4], -1)
    >>> maximum_matching([0b01, 0b01])[1]  # two cells, one digit between them
    1
    """
    k = len(masks)
    mate = [0] * k
    owner: dict[int, int] = {}
    used = 0
    first_unmatched = -1
    for start in range(k):
        seen = 0

        def augment(cell: int) -> bool:
            nonlocal seen, used
            mask = masks[cell]
            free = mask & ~used
            if free:
                bit = free & -free
                used |= bit
                mate[cell], owner[bit] = bit, cell
                return True
            rest = mask & ~seen
            while rest:
                bit = rest & -rest
                rest ^= bit
                seen |= bit
                if augment(owner[bit]):
                    mate[cell], owner[bit] = bit, cell
                    return True
            return False

        if not augment(start) and first_unmatched < 0:
            first_unmatched = start
    return mate, first_unmatched


def _reach(masks: Sequence[int], mate: Sequence[int]) -> list[int]:
    """Per cell i, the cells reachable from it (itself included) in the alternating graph: i -> j when
    i has the digit matched to j. Warshall's closure on bit sets."""
    k = len(masks)
    owner = {bit: cell for cell, bit in enumerate(mate)}
    reach = []
    for cell in range(k):
        r = 1 << cell
        rest = masks[cell] & ~mate[cell]
        while rest:
            bit = rest & -rest
            rest ^= bit
            if bit in owner:
                r |= 1 << owner[bit]
        reach.append(r)
    for via in range(k):
        bit, through = 1 << via, reach[via]
        for cell in range(k):
            if reach[cell] & bit:
                reach[cell] |= through
    return reach


def unsupported(masks: Sequence[int], mate: Sequence[int]) -> list[tuple[int, int, int]]:
    """Régin's filter on a group whose cells are all matched: (cell, digit bit, Hall set bits) for each
    candidate no maximum matching uses.

    A candidate d of cell x, matched elsewhere to cell y, is kept when y reaches x (an alternating
    cycle: x, y, ... swap digits round it) or reaches a cell with a digit no cell is matched to (an
    alternating path ending there). Otherwise the cells y reaches hold between them exactly the
    digits matched to them, d among them, and none of them is x: a Hall set that takes d from x,
    and the smallest one that does (any Hall set holding d holds y, and with y all it reaches).
    """
    k = len(masks)
    used = 0
    for bit in mate:
        used |= bit
    every = 0
    for mask in masks:
        every |= mask
    free = every & ~used
    owner = {bit: cell for cell, bit in enumerate(mate)}
    reach = _reach(masks, mate)
    with_free = 0
    for cell in range(k):
        if masks[cell] & free:
            with_free |= 1 << cell
    found = []
    for x in range(k):
        rest = masks[x] & ~mate[x] & used
        while rest:
            bit = rest & -rest
            rest ^= bit
            y = owner[bit]
            if reach[y] >> x & 1 or reach[y] & with_free:
                continue
            found.append((x, bit, reach[y]))
    return found


@dataclass(frozen=True)
class HallSet:
    """k cells of a group that hold only k digits between them, so those digits leave the rest of it.

    ``removals`` are the (cell, digit) candidates it strikes in the group's other cells.
    """

    group: Group
    cells: tuple[int, ...]
    digits: tuple[int, ...]
    removals: tuple[tuple[int, int], ...]
    n: int

    def text(self) -> str:
        """"r1c2, r1c5 hold {3, 7} in row 1, so 3 and 7 leave the rest of row 1"."""
        cells = ", ".join(cell_label(cell, self.n) for cell in self.cells)
        verb = "holds" if len(self.cells) == 1 else "hold"
        digits = ", ".join(str(d) for d in self.digits)
        named = [str(d) for d in self.digits]
        said = named[0] if len(named) == 1 else f"{', '.join(named[:-1])} and {named[-1]}"
        leave = "leaves" if len(named) == 1 else "leave"
        return f"{cells} {verb} {{{digits}}} in {self.group.name}, so {said} {leave} the rest of {self.group.name}"


def hall_sets(candidates: Candidates, group: Group) -> list[HallSet]:
    """The Hall sets behind every candidate the all-different level strikes in ``group`` now, each with
    what it strikes (settled cells are left out of the group: their digits are the singles' work)."""
    marks, n = candidates.marks, candidates.n
    cells = [cell for cell in group.cells if marks[cell] & (marks[cell] - 1)]
    masks = [marks[cell] for cell in cells]
    mate, unmatched = maximum_matching(masks)
    if unmatched >= 0:
        return []
    by_set: dict[int, list[tuple[int, int]]] = {}
    for x, bit, hall in unsupported(masks, mate):
        by_set.setdefault(hall, []).append((cells[x], bit.bit_length()))
    found = []
    for hall, removals in by_set.items():
        members = tuple(cells[i] for i in range(len(cells)) if hall >> i & 1)
        digits = 0
        for cell in members:
            digits |= marks[cell]
        found.append(HallSet(group, members, tuple(digits_of(digits)), tuple(sorted(removals)), n))
    return sorted(found, key=lambda h: (len(h.cells), h.cells))


def hall_set(candidates: Candidates, cell: int, digit: int) -> HallSet | None:
    """The smallest Hall set, over the groups of ``cell``, that strikes ``digit`` from it now; None when
    the all-different level keeps the candidate (or it is gone already)."""
    if not candidates.has(cell, digit):
        return None
    rules = candidates.puzzle.rules
    best = None
    for index in rules.cell_groups[cell]:
        for found in hall_sets(candidates, rules.groups[index]):
            if (cell, digit) in found.removals and (best is None or len(found.cells) < len(best.cells)):
                best = found
    return best


def hall_violation(candidates: Candidates, group: Group) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """Cells of ``group`` that hold fewer digits between them than they are (so the group cannot be
    filled), with those digits; None when every open cell can be matched."""
    marks = candidates.marks
    cells = [cell for cell in group.cells if marks[cell] & (marks[cell] - 1) or not marks[cell]]
    masks = [marks[cell] for cell in cells]
    mate, unmatched = maximum_matching(masks)
    return None if unmatched < 0 else violation(masks, mate, unmatched, cells)


def violation(masks: Sequence[int], mate: Sequence[int], unmatched: int, cells: Sequence[int]
               ) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The cells an unmatched cell reaches by alternating paths (more cells than digits), and their digits."""
    reach = _reach(masks, mate)[unmatched]
    members = tuple(cells[i] for i in range(len(cells)) if reach >> i & 1)
    digits = 0
    for i in range(len(cells)):
        if reach >> i & 1:
            digits |= masks[i]
    return members, tuple(digits_of(digits))
