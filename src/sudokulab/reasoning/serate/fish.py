"""X-wing, swordfish and jellyfish as SE finds them (``Fisherman``): 3.2, 3.8, 5.2.

For each set of ``degree`` base lines (columns first, then rows), in SE's subset order, and each
value placed at most ``9 - 2 * degree`` times: when the value's places in the base lines (at least
two in each) lie in ``degree`` cover lines, it goes nowhere else in the cover lines. The hint is an
intersection hint over the base and cover lines (``intersections.LockingHint``).

More: docs/rating.md.
"""

from __future__ import annotations

from collections.abc import Iterator

from .grid import COLUMN, KINDS, REGIONS, ROW, Grid, combinations
from .intersections import LockingHint
from .subsets import _SET_MASKS, _common, _equal_pairs

_FISH = {2: ("X-Wing", 3.2), 3: ("Swordfish", 3.8), 4: ("Jellyfish", 5.2)}


def fish(grid: Grid, degree: int, changed: set[int] | None = None) -> Iterator[LockingHint]:
    """SE's ``Fisherman``; ``changed`` (inside a nested chain: the ``Grid.pos`` entries the chain has
    changed) passes over the fish whose base lines' places for the value did not change."""
    counts = [0] * 10
    for v in grid.values:
        counts[v] += 1
    every = combinations(degree, 9)
    pos = grid.pos
    for base_kind, cover_kind in ((COLUMN, ROW), (ROW, COLUMN)):
        bases_all, covers_all = KINDS[base_kind], KINDS[cover_kind]
        if degree == 2:
            tried = sorted((which, value) for value in range(1, 10)
                           for which in _equal_pairs([pos[line * 10 + value] for line in bases_all]))
            if changed is not None:
                tried = [(w, v) for w, v in tried if any(bases_all[i] * 10 + v in changed for i in every[w])]
        else:
            tried = []
            for value in range(1, 10):
                eligible = 0
                for i, line in enumerate(bases_all):
                    if 2 <= pos[line * 10 + value].bit_count() <= degree:
                        eligible |= 1 << i
                tried += [(which, value) for which, chosen in enumerate(_SET_MASKS[degree]) if not chosen & ~eligible]
            tried.sort()
            if changed is not None:
                tried = [(w, v) for w, v in tried if any(bases_all[i] * 10 + v in changed for i in every[w])]
        for which, value in tried:
            if counts[value] + 2 * degree > 9:
                continue
            chosen = every[which]
            common = _common([pos[bases_all[i] * 10 + value] for i in chosen], degree)
            if not common:
                continue
            base_mask = sum(1 << i for i in chosen)
            bit = 1 << value
            removable = {}
            covers = []
            for j in range(9):
                if common >> j & 1:
                    covers.append(covers_all[j])
                    outside = pos[covers_all[j] * 10 + value] & ~base_mask
                    cells = REGIONS[covers_all[j]]
                    for i in range(9):
                        if outside >> i & 1:
                            removable[cells[i]] = bit
            if removable:
                yield LockingHint(*_FISH[degree], removable, value, [bases_all[i] for i in chosen], covers)
