"""Intersections: pointing and claiming, and SE's direct pointing and claiming.

When a value's places in one region all lie in a crossing region, the value goes nowhere else in
the crossing region (``Locking``). Pointing (the first region a block) is 2.6, claiming 2.8. SE's
*direct* form (1.7, 1.9) strikes nothing: it is taken only when those strikes would leave a hidden
single in another region of the first region's kind crossing the second (for pointing, another
block along the line; for claiming, another line through the block), and it places that single.
SE scans block-column, block-row, column-block, row-block pairs, each region pair in index order,
values ascending. ``LockingHint`` also serves the fish (``fish``): its rule parents are the base
regions' candidates gone that no cover region holds.

More: docs/rating.md.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from .grid import BLOCK, COLUMN, KINDS, REGIONS, ROW, Grid, crosses
from .hints import Hint

PAIRS = ((BLOCK, COLUMN), (BLOCK, ROW), (COLUMN, BLOCK), (ROW, BLOCK))

_CROSSING: dict[tuple[int, int], bool] = {(a, b): crosses(a, b) for a in range(27) for b in range(27)}


class LockingHint(Hint):
    """Pointing, claiming or a fish: a value locked in ``bases`` (regions) covered by ``covers``."""

    __slots__ = ("bases", "covers", "locked")

    def __init__(self, name: str, difficulty: float, removable: dict[int, int], locked: int,
                 bases: Sequence[int], covers: Sequence[int]):
        super().__init__(name, difficulty, removable)
        self.locked = locked
        self.bases = tuple(bases)
        self.covers = tuple(covers)

    def rule_parents(self, initial: Grid, current: Grid) -> list[tuple[int, int]]:
        value, bit = self.locked, 1 << self.locked
        covered = {cell for region in self.covers for cell in REGIONS[region]}
        found = []
        for region in self.bases:
            for cell in REGIONS[region]:
                if initial.cands[cell] & bit and not current.cands[cell] & bit and cell not in covered:
                    found.append((cell, value))
        return found


def locking(grid: Grid, direct: bool, changed: set[int] | None = None) -> Iterator[Hint]:
    """SE's ``Locking(isDirectMode)``: every pointing and claiming (or, direct, every single they leave).

    ``changed`` (inside a nested chain: the ``Grid.pos`` entries the chain has changed) passes over
    the first regions whose places for the value did not change: their hints rest on nothing the
    chain did."""
    if changed is not None:
        yield from _changed_locking(grid, changed)
        return
    pos = grid.pos
    for kind1, kind2 in PAIRS:
        for region1 in KINDS[kind1]:
            for region2 in _CROSSED[(region1, kind2)]:
                inside = _INSIDE[(region1, region2)]
                for value in range(1, 10):
                    places = pos[region1 * 10 + value]
                    if places & (places - 1) == 0 or places & ~inside:
                        continue
                    if direct:
                        for region3 in _CROSSED[(region2, kind1)]:
                            if region3 == region1:
                                continue
                            places3 = pos[region3 * 10 + value]
                            if places3 & (places3 - 1) == 0:
                                continue
                            outside = places3 & ~_INSIDE[(region3, region2)]
                            if outside and outside & (outside - 1) == 0:
                                yield _locking_hint(grid, region1, region2, value,
                                                    REGIONS[region3][outside.bit_length() - 1])
                    else:
                        hint = _locking_hint(grid, region1, region2, value, -1)
                        if hint.worth:
                            yield hint


_INSIDE: dict[tuple[int, int], int] = {
    (a, b): sum(1 << i for i, c in enumerate(REGIONS[a]) if c in REGIONS[b]) for a in range(27) for b in range(27)}
"""Which indexes of region a lie in region b."""

_CROSSED: dict[tuple[int, int], tuple[int, ...]] = {
    (a, kind): tuple(b for b in KINDS[kind] if _CROSSING[(a, b)]) for a in range(27) for kind in range(3)}
"""The regions of a kind that cross region a, in index order."""


def _changed_locking(grid: Grid, changed: set[int]) -> Iterator[Hint]:
    """``locking(grid, False)``'s hints whose first region's places for the value changed, in its order."""
    pos = grid.pos
    by_region: dict[int, list[int]] = {}
    for entry in sorted(changed):
        by_region.setdefault(entry // 10, []).append(entry % 10)
    for kind1, kind2 in PAIRS:
        for region1 in KINDS[kind1]:
            values = by_region.get(region1)
            if not values:
                continue
            for region2 in _CROSSED[(region1, kind2)]:
                inside = _INSIDE[(region1, region2)]
                for value in values:
                    places = pos[region1 * 10 + value]
                    if places & (places - 1) == 0 or places & ~inside:
                        continue
                    outside = pos[region2 * 10 + value] & ~_INSIDE[(region2, region1)]
                    if not outside:
                        continue
                    bit = 1 << value
                    cells2 = REGIONS[region2]
                    removable = {cells2[i]: bit for i in range(9) if outside >> i & 1}
                    pointing = region1 < 9
                    yield LockingHint("Pointing" if pointing else "Claiming", 2.6 if pointing else 2.8, removable,
                                      value, (region1,), (region2,))


def _locking_hint(grid: Grid, region1: int, region2: int, value: int, single: int) -> Hint:
    pointing = region1 < 9
    if single >= 0:
        return Hint("Direct Pointing" if pointing else "Direct Claiming", 1.7 if pointing else 1.9, {},
                    single, value)
    bit = 1 << value
    cells1 = set(REGIONS[region1])
    removable = {c: bit for c in REGIONS[region2] if c not in cells1 and grid.cands[c] & bit}
    return LockingHint("Pointing" if pointing else "Claiming", 2.6 if pointing else 2.8, removable, value,
                       (region1,), (region2,))
