"""X-wing, swordfish and jellyfish as SE finds them (``Fisherman``): 3.2, 3.8, 5.2.

For each set of ``degree`` base lines (columns first, then rows), in SE's subset order, and each
value placed at most ``9 - 2 * degree`` times: when the value's places in the base lines (at least
two in each) lie in ``degree`` cover lines, it goes nowhere else in the cover lines. The hint is an
intersection hint over the base and cover lines (``intersections.LockingHint``).
"""

from __future__ import annotations

from collections.abc import Iterator

from .grid import COLUMN, KINDS, REGIONS, ROW, Grid, combinations
from .intersections import LockingHint
from .subsets import _common

_FISH = {2: ("X-Wing", 3.2), 3: ("Swordfish", 3.8), 4: ("Jellyfish", 5.2)}


def fish(grid: Grid, degree: int) -> Iterator[LockingHint]:
    counts = [0] * 10
    for v in grid.values:
        counts[v] += 1
    for base_kind, cover_kind in ((COLUMN, ROW), (ROW, COLUMN)):
        bases_all, covers_all = KINDS[base_kind], KINDS[cover_kind]
        for chosen in combinations(degree, 9):
            base_mask = sum(1 << i for i in chosen)
            for value in range(1, 10):
                if counts[value] + 2 * degree > 9:
                    continue
                common = _common([grid.positions(bases_all[i], value) for i in chosen], degree)
                if not common:
                    continue
                bit = 1 << value
                removable = {}
                covers = []
                for j in range(9):
                    if common >> j & 1:
                        covers.append(covers_all[j])
                        for i, cell in enumerate(REGIONS[covers_all[j]]):
                            if not base_mask >> i & 1 and grid.cands[cell] & bit:
                                removable[cell] = bit
                if removable:
                    yield LockingHint(*_FISH[degree], removable, value, [bases_all[i] for i in chosen], covers)
