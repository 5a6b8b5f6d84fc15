"""Unique loops (rectangles and longer) and the bivalue universal grave, as SE finds them.

Both rest on the puzzle having one solution. A *unique loop* is a closed path of cells holding the
same two values, alternating through blocks, rows and columns so that each region holds two of its
cells: with nothing else in them the two values could swap. SE follows such loops from every
bivalue cell (``UniqueLoops.checkForLoops``, at most two cells with extra values unless the extras
are one value), keeps the valid ones and makes type 1 to 4 hints: 4.5 for a rectangle, +0.1 for 6
cells, +0.2 for 8, +0.5 for 10 or more, type 3 +0.1 per cell (or value) of its naked (hidden) set
beyond one; all the hints sorted by difficulty, then type. The *BUG* (``BivalueUniversalGrave``):
when every unsolved cell but a few would be bivalue and every value in every region would have two
places, without those few cells' extra values; type 1 5.6, types 2 and 4 5.7, type 3 5.7 + 0.1 per
value of its naked set beyond one. Quirks of SE's search are kept, since they decide which hints
exist (the loop search's extra values are gathered over every cell tried at a step, not only the
one followed; a BUG type 2 keeps the first extra cell's value). More: docs/rating.md.
"""

from __future__ import annotations

from collections.abc import Iterator

from .grid import CELL_REGIONS, HOUSE, HOUSE_SET, INDEX_IN, KINDS, REGIONS, Grid, combinations
from .hints import Hint
from .subsets import _common

# --- Unique loops. -----------------------------------------------------------------------------------


class LoopHint(Hint):
    """A unique loop hint: its type, its loop, and for type 3 what tells two of them apart."""

    __slots__ = ("kind", "loop", "extra_key")

    def __init__(self, kind: int, loop: list[int], removable: dict[int, int], add: float = 0.0,
                 extra_key: tuple = ()):
        size = len(loop)
        shape = "Rectangle" if size == 4 else "Loop"
        name = f"Unique {shape} {size} type {kind}" if size > 6 else f"Unique {shape} type {kind}"
        difficulty = 4.5
        if size >= 10:
            difficulty += 0.3
        if size >= 8:
            difficulty += 0.2
        elif size >= 6:
            difficulty += 0.1
        if kind == 3:
            difficulty = difficulty + add
        super().__init__(name, difficulty, removable)
        self.kind = kind
        self.loop = loop
        self.extra_key = extra_key

    def same(self, other: LoopHint) -> bool:
        """SE's ``equals``: the same type (and type-3 set), over the same loop cells."""
        return (self.kind == other.kind and len(self.loop) == len(other.loop)
                and set(self.loop) == set(other.loop) and self.extra_key == other.extra_key)


def unique_loops(grid: Grid) -> Iterator[Hint]:
    cands = grid.cands
    found: list[LoopHint] = []

    def keep(hint: LoopHint | None) -> None:
        if hint is not None and not any(hint.same(h) for h in found) and hint.worth:
            found.append(hint)

    for cell in range(81):
        mask = cands[cell]
        if mask.bit_count() != 2:
            continue
        low = mask & -mask
        v1, v2 = low.bit_length() - 1, (mask & ~low).bit_length() - 1
        loops: list[list[int]] = []
        _loops(grid, cell, v1, v2, [], 2, 0, -1, loops)
        for loop in loops:
            if not _valid(loop):
                continue
            extra = [c for c in loop if cands[c].bit_count() > 2]
            if len(extra) == 1:
                keep(LoopHint(1, loop, {extra[0]: (1 << v1) | (1 << v2)}))
            elif len(extra) > 2:
                keep(_type2(grid, loop, extra, v1, v2))
            elif len(extra) == 2:
                c1, c2 = extra
                rest = (cands[c1] | cands[c2]) & ~((1 << v1) | (1 << v2))
                if rest.bit_count() == 1:
                    keep(_type2(grid, loop, extra, v1, v2))
                elif rest.bit_count() >= 2:
                    for hint in _type3(grid, loop, c1, c2, v1, v2):
                        keep(hint)
                keep(_type4(grid, loop, c1, c2, v1, v2))
    found.sort(key=lambda h: (h.difficulty, h.kind))
    yield from found


def _loops(grid: Grid, cell: int, v1: int, v2: int, loop: list[int], allowed: int, extra: int, last_kind: int,
           results: list[list[int]]) -> None:
    """SE's ``checkForLoops``: every loop through ``cell`` on v1 and v2, by depth-first search."""
    loop.append(cell)
    both = (1 << v1) | (1 << v2)
    cands = grid.cands
    for kind in range(3):
        if kind == last_kind:
            continue
        for other in REGIONS[CELL_REGIONS[cell][kind]]:
            if other == loop[0] and len(loop) >= 4:
                results.append(list(loop))
            elif other not in loop:
                mask = cands[other]
                if mask & both == both:
                    extra = (extra | mask) & ~both
                    size = mask.bit_count()
                    if size == 2 or extra.bit_count() == 1 or allowed > 0:
                        _loops(grid, other, v1, v2, loop, allowed - (1 if size > 2 else 0), extra, kind, results)
    loop.pop()


def _valid(loop: list[int]) -> bool:
    """SE's ``isValidLoop``: the odd and the even cells each visit every region at most once, and the
    same regions."""
    odd: set[int] = set()
    even: set[int] = set()
    for i, cell in enumerate(loop):
        visited = odd if i % 2 else even
        for region in CELL_REGIONS[cell]:
            if region in visited:
                return False
            visited.add(region)
    return odd == even


def _type2(grid: Grid, loop: list[int], extra: list[int], v1: int, v2: int) -> LoopHint:
    cands = grid.cands
    rest = cands[extra[0]] & ~((1 << v1) | (1 << v2))
    bit = rest & -rest
    common = [c for c in HOUSE[extra[0]] if all(c in HOUSE_SET[e] for e in extra[1:])]
    removable = {c: bit for c in common if c not in extra and cands[c] & bit}
    return LoopHint(2, loop, removable)


def _type3(grid: Grid, loop: list[int], c1: int, c2: int, v1: int, v2: int) -> list[LoopHint]:
    cands = grid.cands
    both = (1 << v1) | (1 << v2)
    extra = (cands[c1] | cands[c2]) & ~both
    found = []
    for degree in range(extra.bit_count(), 8):
        for kind in range(3):
            region = CELL_REGIONS[c1][kind]
            if region != CELL_REGIONS[c2][kind]:
                continue
            cells = REGIONS[region]
            empty = grid.empty_count(region)
            index1, index2 = INDEX_IN[region][c1], INDEX_IN[region][c2]
            if degree * 2 <= empty:
                for indexes in combinations(degree, 9):
                    if index1 not in indexes or index2 in indexes:
                        continue
                    naked = extra & cands[c1] & cands[c2]
                    masks, others = [], []
                    for i in indexes:
                        if i == index1:
                            masks.append(extra)
                        else:
                            masks.append(cands[cells[i]])
                            naked |= cands[cells[i]]
                            others.append(cells[i])
                    if naked.bit_count() != degree:
                        continue
                    common = _common(masks, degree)
                    if not common:
                        continue
                    removable = {c: cands[c] & common for c in cells
                                 if c not in others and c != c1 and c != c2 and cands[c] & common}
                    found.append(LoopHint(3, loop, removable, (common.bit_count() - 1) * 0.1,
                                          ("naked", region, common, tuple(others))))
            if degree * 2 < empty:
                rest = [v for v in range(1, 10) if v != v1 and v != v2 and not extra >> v & 1]
                if degree - 2 <= len(rest):
                    for chosen in combinations(degree - 2, len(rest)):
                        hidden_values = [rest[i] for i in chosen] + [v1, v2]
                        union, ok = 0, True
                        for v in hidden_values:
                            where = grid.positions(region, v) & ~(1 << index2)
                            if not where:
                                ok = False
                            union |= where
                        if not ok or union.bit_count() != degree:
                            continue
                        hidden = sum(1 << v for v in hidden_values)
                        where = union & ~(1 << index1) & ~(1 << index2)
                        removable = {}
                        for i in range(9):
                            if where >> i & 1:
                                c = cells[i]
                                if c != c1 and c != c2 and cands[c] & ~hidden:
                                    removable[c] = cands[c] & ~hidden
                        indexes = tuple(i for i in range(9) if where >> i & 1)
                        found.append(LoopHint(3, loop, removable, (len(indexes) - 1) * 0.1,
                                              ("hidden", region, hidden, indexes)))
    return found


def _type4(grid: Grid, loop: list[int], c1: int, c2: int, v1: int, v2: int) -> LoopHint | None:
    cands = grid.cands
    r1 = r2 = -1
    for kind in range(3):
        region = CELL_REGIONS[c1][kind]
        if region != CELL_REGIONS[c2][kind]:
            continue
        others = [c for c in REGIONS[region] if c != c1 and c != c2]
        if not any(cands[c] >> v1 & 1 for c in others):
            r1 = region
        if not any(cands[c] >> v2 & 1 for c in others):
            r2 = region
    if r1 >= 0:
        removed = 1 << v2
    elif r2 >= 0:
        removed = 1 << v1
    else:
        return None
    return LoopHint(4, loop, {c1: removed, c2: removed})


# --- BUG. ----------------------------------------------------------------------------------------------


def bug(grid: Grid) -> Iterator[Hint]:
    """SE's ``BivalueUniversalGrave``: the BUG hints of types 1 to 4, when the grid is one."""
    cands = grid.cands
    temp = list(cands)
    bug_cells: list[int] = []
    bug_values: dict[int, int] = {}
    all_values = 0
    common: list[int] | None = None
    for kind in range(3):
        for region in KINDS[kind]:
            cells = REGIONS[region]
            for value in range(1, 10):
                bit = 1 << value
                places = [c for c in cells if cands[c] & bit]
                if len(places) in (0, 2):
                    continue
                fresh = [c for c in places if cands[c].bit_count() >= 3]
                if len(fresh) == 1:
                    cell = fresh[0]
                    if cell not in bug_cells:
                        bug_cells.append(cell)
                    bug_values[cell] = bug_values.get(cell, 0) | bit
                    all_values |= bit
                    temp[cell] &= ~bit
                    if common is None:
                        common = list(HOUSE[cell])
                    else:
                        common = [c for c in common if c in HOUSE_SET[cell]]
                    common = [c for c in common if c not in bug_cells]
                    if len(bug_cells) > 1 and all_values.bit_count() > 1 and not common:
                        return
                if not fresh:
                    return
    for cell in range(81):
        if not grid.values[cell] and temp[cell].bit_count() != 2:
            return
    for region in range(27):
        for value in range(1, 10):
            if sum(1 for c in REGIONS[region] if temp[c] >> value & 1) not in (0, 2):
                return
    if len(bug_cells) == 1:
        cell = bug_cells[0]
        yield Hint("BUG type 1", 5.6, {cell: cands[cell] & ~all_values})
    elif all_values.bit_count() == 1:
        if common:
            removable = {c: all_values for c in common if cands[c] & all_values}
            if removable:
                yield Hint("BUG type 2", 5.7, removable)
        if len(bug_cells) == 2:
            yield from _bug4(grid, bug_cells, bug_values, all_values)
    elif common:
        if len(bug_cells) == 2:
            yield from _bug4(grid, bug_cells, bug_values, all_values)
        yield from _bug3(grid, bug_cells, all_values, common)


def _shared_region(cells: list[int], kind: int) -> int:
    regions = {CELL_REGIONS[c][kind] for c in cells}
    return regions.pop() if len(regions) == 1 else -1


def _bug3(grid: Grid, bug_cells: list[int], all_values: int, common: list[int]) -> Iterator[Hint]:
    cands = grid.cands
    for kind in range(3):
        region = _shared_region(bug_cells, kind)
        if region < 0:
            continue
        region_cells = [c for c in common if CELL_REGIONS[c][kind] == region]
        for degree in range(2, 7):
            if len(region_cells) < degree:
                continue
            for indexes in combinations(degree - 1, len(region_cells)):
                naked_cells = [region_cells[i] for i in indexes]
                masks = [cands[c] for c in naked_cells]
                others = 0
                for mask in masks:
                    others |= mask
                if others.bit_count() != degree:
                    continue
                naked = _common(masks + [all_values], degree)
                if not naked:
                    continue
                erasable = [c for c in region_cells if c not in naked_cells and c not in bug_cells]
                removable = {c: cands[c] & naked for c in erasable if cands[c] & naked}
                if removable:
                    yield Hint("BUG type 3", 5.7 + (naked.bit_count() - 1) * 0.1, removable)


def _bug4(grid: Grid, bug_cells: list[int], bug_values: dict[int, int], all_values: int) -> Iterator[Hint]:
    cands = grid.cands
    c1, c2 = bug_cells[0], bug_cells[1]
    shared = cands[c1] & cands[c2] & ~all_values
    if shared.bit_count() != 1:
        return
    for kind in range(3):
        if _shared_region(bug_cells, kind) < 0:
            continue
        yield Hint("BUG type 4", 5.7, {c1: cands[c1] & ~bug_values[c1] & ~shared,
                                        c2: cands[c2] & ~bug_values[c2] & ~shared})
