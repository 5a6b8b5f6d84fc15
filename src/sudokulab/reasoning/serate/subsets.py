"""Naked and hidden sets, and SE's direct hidden pair and triple.

A naked set: ``degree`` cells of a region whose candidates together are ``degree`` values (each cell
with at least two), so those values go nowhere else in the region (3.0, 3.6, 5.0 for a pair, triple,
quad; ``NakedSetHint``); SE looks only in regions with at least twice ``degree`` empty cells. A
hidden set: ``degree`` values whose places in a region (at least two each) are ``degree`` cells, so
those cells hold nothing else (3.4, 4.0, 5.4), looked for in regions with more than twice ``degree``
empty cells. SE's *direct* hidden pair and triple (2.0, 2.5) strike nothing: in a region with more
than ``degree`` empty cells, a hidden set whose strikes would leave another value a single place in
the region places that value. Regions are scanned blocks, columns, rows; the cells or values in
SE's subset order (``grid.combinations``).

More: docs/rating.md.
"""

from __future__ import annotations

from collections.abc import Iterator

from .grid import BLOCK, COLUMN, INDEX_IN, KINDS, REGIONS, ROW, Grid, combinations, combinations_with
from .hints import Hint

_NAKED = {2: ("Naked Pair", 3.0), 3: ("Naked Triplet", 3.6), 4: ("Naked Quad", 5.0)}
_HIDDEN = {2: ("Hidden Pair", 3.4), 3: ("Hidden Triplet", 4.0), 4: ("Hidden Quad", 5.4)}
_DIRECT = {2: ("Direct Hidden Pair", 2.0), 3: ("Direct Hidden Triplet", 2.5)}


class NakedSetHint(Hint):
    __slots__ = ("cells", "mask")

    def __init__(self, degree: int, removable: dict[int, int], cells: tuple[int, ...], mask: int):
        super().__init__(*_NAKED[degree], removable)
        self.cells = cells
        self.mask = mask

    def rule_parents(self, initial: Grid, current: Grid) -> list[tuple[int, int]]:
        return [(cell, v) for cell in self.cells for v in range(1, 10)
                if initial.cands[cell] >> v & 1 and not self.mask >> v & 1]


class HiddenSetHint(Hint):
    __slots__ = ("region", "set_values")

    def __init__(self, degree: int, removable: dict[int, int], region: int, set_values: tuple[int, ...]):
        super().__init__(*_HIDDEN[degree], removable)
        self.region = region
        self.set_values = set_values

    def rule_parents(self, initial: Grid, current: Grid) -> list[tuple[int, int]]:
        mine = 0
        for v in self.set_values:
            mine |= current.positions(self.region, v)
        found = []
        for i, cell in enumerate(REGIONS[self.region]):
            if not mine >> i & 1:
                found += [(cell, v) for v in self.set_values if initial.cands[cell] >> v & 1]
        return found


def _common(masks: list[int], degree: int) -> int:
    """SE's ``searchCommonTuple``: the union of the masks when each has two bits or more and the
    union has exactly ``degree``; 0 otherwise."""
    union = 0
    for mask in masks:
        if mask & (mask - 1) == 0:
            return 0
        union |= mask
    return union if union.bit_count() == degree else 0


_PAIR_INDEX = {pair: i for i, pair in enumerate(combinations(2, 9))}


def _equal_pairs(masks: list[int]) -> list[int]:
    """The positions in ``combinations(2, 9)`` of the pairs of equal two-bit masks: the only pairs
    ``_common`` accepts for a degree of two."""
    found = []
    for j in range(9):
        mask = masks[j]
        if mask.bit_count() == 2:
            for i in range(j):
                if masks[i] == mask:
                    found.append(_PAIR_INDEX[(i, j)])
    return found


_SET_MASKS = {k: tuple(sum(1 << i for i in c) for c in combinations(k, 9)) for k in (2, 3, 4)}


def _eligible_sets(masks: list[int], degree: int) -> list[int]:
    """The positions in ``combinations(degree, 9)`` of the sets whose every mask has 2 to ``degree``
    bits: only those can pass ``_common``."""
    eligible = 0
    for i, mask in enumerate(masks):
        if 2 <= mask.bit_count() <= degree:
            eligible |= 1 << i
    return [which for which, chosen in enumerate(_SET_MASKS[degree]) if not chosen & ~eligible]


def naked_sets(grid: Grid, degree: int, changed_cells: set[int] | None = None) -> Iterator[Hint]:
    """SE's ``NakedSet``; ``changed_cells`` (inside a nested chain: the cells the chain has changed)
    passes over the sets of unchanged cells, whose hints rest on nothing the chain did."""
    values, cands = grid.values, grid.cands
    every = combinations(degree, 9)
    for kind in (BLOCK, COLUMN, ROW):
        for region in KINDS[kind]:
            cells = REGIONS[region]
            if degree == 2:
                chosen_sets = _equal_pairs([cands[c] for c in cells])
                if changed_cells is not None:
                    chosen_sets = [w for w in chosen_sets if any(cells[i] in changed_cells for i in every[w])]
            else:
                chosen_sets = _eligible_sets([cands[c] for c in cells], degree)
                if changed_cells is not None:
                    touched = [INDEX_IN[region][c] for c in changed_cells if c in INDEX_IN[region]]
                    allowed = {i for t in touched for i in combinations_with(degree, 9, t)}
                    chosen_sets = [w for w in chosen_sets if w in allowed]
            if not chosen_sets or sum(1 for c in cells if not values[c]) < 2 * degree:
                continue
            for which in chosen_sets:
                chosen = tuple(cells[i] for i in every[which])
                common = _common([cands[c] for c in chosen], degree)
                if not common:
                    continue
                removable = {}
                for other in cells:
                    if other not in chosen and cands[other] & common:
                        removable[other] = cands[other] & common
                if removable:
                    yield NakedSetHint(degree, removable, chosen, common)


def hidden_sets(grid: Grid, degree: int, direct: bool, changed: set[int] | None = None) -> Iterator[Hint]:
    """SE's ``HiddenSet``; ``changed`` (inside a nested chain: the ``Grid.pos`` entries the chain has
    changed) passes over the sets of values whose places did not change."""
    values = grid.values
    every = combinations(degree, 9)
    for kind in (BLOCK, COLUMN, ROW):
        for region in KINDS[kind]:
            cells = REGIONS[region]
            if degree == 2:
                chosen_sets = _equal_pairs(grid.pos[region * 10 + 1: region * 10 + 10])
                if changed is not None:
                    chosen_sets = [w for w in chosen_sets if any(region * 10 + v + 1 in changed for v in every[w])]
            else:
                chosen_sets = _eligible_sets(grid.pos[region * 10 + 1: region * 10 + 10], degree)
                if changed is not None:
                    touched = [v - 1 for v in range(1, 10) if region * 10 + v in changed]
                    allowed = {i for t in touched for i in combinations_with(degree, 9, t)}
                    chosen_sets = [w for w in chosen_sets if w in allowed]
            if not chosen_sets:
                continue
            empty = sum(1 for c in cells if not values[c])
            if not (empty > 2 * degree or (direct and empty > degree)):
                continue
            places = grid.pos[region * 10 + 1: region * 10 + 10]
            for which in chosen_sets:
                set_values = tuple(v + 1 for v in every[which])
                common = _common([places[v - 1] for v in set_values], degree)
                if not common:
                    continue
                hint = _hidden_set_hint(grid, region, set_values, common, direct, places)
                if hint is not None and (direct or hint.worth):
                    yield hint


def _hidden_set_hint(grid: Grid, region: int, set_values: tuple[int, ...], common: int, direct: bool,
                     places: list[int]) -> Hint | None:
    cells = REGIONS[region]
    value_mask = sum(1 << v for v in set_values)
    if direct:
        for value in range(1, 10):
            if value_mask >> value & 1:
                continue
            where = places[value - 1]
            if where.bit_count() > 1:
                rest = where & ~common
                if rest.bit_count() == 1:
                    name, difficulty = _DIRECT[len(set_values)]
                    return Hint(name, difficulty, {}, cells[rest.bit_length() - 1], value)
        return None
    removable = {}
    for i, cell in enumerate(cells):
        if common >> i & 1 and grid.cands[cell] & ~value_mask:
            removable[cell] = grid.cands[cell] & ~value_mask
    return HiddenSetHint(len(set_values), removable, region, set_values)
