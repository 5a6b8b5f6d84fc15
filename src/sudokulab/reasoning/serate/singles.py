"""Hidden and naked singles, as SE finds them: full houses first, then blocks, columns, rows.

A hidden single is the only place of a value in a region: 1.0 when it is the region's last empty
cell, 1.2 in a block, 1.5 in a row or column (``HiddenSingleHint``). SE looks for the last cells of
a region first (blocks, then columns, then rows), then for the others in the same order. A naked
single (a cell with one candidate, 2.3) is looked for row by row, after direct pointing and the
direct hidden pair (``solver``).

More: docs/rating.md.
"""

from __future__ import annotations

from collections.abc import Iterator

from .grid import BLOCK, COLUMN, KINDS, REGIONS, ROW, Grid
from .hints import Hint


def hidden_singles(grid: Grid) -> Iterator[Hint]:
    values, cands = grid.values, grid.cands
    for alone in (True, False):
        for kind in (BLOCK, COLUMN, ROW):
            for region in KINDS[kind]:
                cells = REGIONS[region]
                empty = sum(1 for c in cells if not values[c])
                if (empty == 1) != alone:
                    continue
                for value in range(1, 10):
                    bit = 1 << value
                    found = [c for c in cells if cands[c] & bit]
                    if len(found) == 1:
                        difficulty = 1.0 if alone else 1.2 if kind == BLOCK else 1.5
                        yield Hint("Hidden Single", difficulty, {}, found[0], value)


def naked_singles(grid: Grid) -> Iterator[Hint]:
    for cell, mask in enumerate(grid.cands):
        if mask and not mask & (mask - 1):
            yield Hint("Naked Single", 2.3, {}, cell, mask.bit_length() - 1)
