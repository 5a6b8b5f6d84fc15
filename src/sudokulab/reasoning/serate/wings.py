"""XY-wing (4.2) and XYZ-wing (4.4) as SE finds them (``XYWing``).

The pivot (two candidates, three for XYZ) is looked for row by row; its two pincers are bivalue
cells of its house (in ``grid.HOUSE`` order) sharing one value each with the pivot and the value z
with each other. z is struck from the cells that see both pincers (and the pivot, for XYZ).

More: docs/rating.md.
"""

from __future__ import annotations

from collections.abc import Iterator

from .grid import HOUSE, HOUSE_SET, Grid
from .hints import Hint


def xy_wings(grid: Grid, xyz: bool) -> Iterator[Hint]:
    cands = grid.cands
    size = 3 if xyz else 2
    for pivot in range(81):
        xy = cands[pivot]
        if xy.bit_count() != size:
            continue
        for first in HOUSE[pivot]:
            xz = cands[first]
            if xz.bit_count() != 2 or (xy & ~xz).bit_count() != 1:
                continue
            for second in HOUSE[pivot]:
                yz = cands[second]
                if yz.bit_count() != 2:
                    continue
                union, inter = xy | xz | yz, xy & xz & yz
                if union.bit_count() != 3 or inter.bit_count() != (1 if xyz else 0):
                    continue
                common = xz & yz
                bit = common & -common
                removable = {}
                seen_second = HOUSE_SET[second]
                for cell in HOUSE[first]:
                    if cell in seen_second and cell not in (pivot, first, second) \
                            and (not xyz or cell in HOUSE_SET[pivot]) and cands[cell] & bit:
                        removable[cell] = bit
                if removable:
                    yield Hint("XYZ-Wing" if xyz else "XY-Wing", 4.4 if xyz else 4.2, removable)
