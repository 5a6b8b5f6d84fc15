"""SE's board: values and candidate masks of the 81 cells, its regions and its scanning order.

Sudoku Explainer's rules scan in fixed orders, and which hint a rule finds first decides the path a
rating takes, so the order is part of the scale: cells row-major (``cell = 9 * row + column``);
regions as three kinds, blocks, rows and columns (``BLOCK``, ``ROW``, ``COLUMN``: 0-8, 9-17, 18-26;
``KINDS``), blocks numbered row-major and their cells row-major; a cell's house cells its block's,
then its row's, then its column's, itself left out (``HOUSE``). A candidate mask keeps value ``v``
in bit ``v`` (bits 1-9), as SE's bit sets do.

More: docs/rating.md.
"""

from __future__ import annotations

from collections.abc import Iterable

BLOCK, ROW, COLUMN = 0, 1, 2
KIND_NAMES = ("block", "row", "column")

REGIONS: tuple[tuple[int, ...], ...] = tuple(
    [tuple(9 * (3 * (b // 3) + i // 3) + 3 * (b % 3) + i % 3 for i in range(9)) for b in range(9)]
    + [tuple(9 * r + i for i in range(9)) for r in range(9)]
    + [tuple(9 * i + c for i in range(9)) for c in range(9)])
"""The 27 regions: blocks 0-8, rows 9-17, columns 18-26, each its cells in SE's order."""

KINDS: tuple[tuple[int, ...], ...] = (tuple(range(0, 9)), tuple(range(9, 18)), tuple(range(18, 27)))
"""The regions of each kind (``KINDS[BLOCK]`` the blocks)."""

CELL_REGIONS: tuple[tuple[int, int, int], ...] = tuple(
    ((c // 27) * 3 + (c % 9) // 3, 9 + c // 9, 18 + c % 9) for c in range(81))
"""Each cell's block, row and column."""

INDEX_IN: tuple[dict[int, int], ...] = tuple({cell: i for i, cell in enumerate(region)} for region in REGIONS)
"""Each region's cell -> its index there."""


def _house(cell: int) -> tuple[int, ...]:
    seen: dict[int, None] = {}
    for region in CELL_REGIONS[cell]:
        for other in REGIONS[region]:
            seen.setdefault(other)
    del seen[cell]
    return tuple(seen)


HOUSE: tuple[tuple[int, ...], ...] = tuple(_house(c) for c in range(81))
"""Each cell's 20 house cells: its block's, then its row's, then its column's (SE's ``getHouseCells``)."""

HOUSE_SET: tuple[frozenset[int], ...] = tuple(frozenset(h) for h in HOUSE)

ALL = 0b1111111110
"""Every value 1-9 as a mask."""


def crosses(a: int, b: int) -> bool:
    """Whether two regions share a cell (SE's ``Region.crosses``)."""
    return bool(set(REGIONS[a]) & set(REGIONS[b]))


def kind(region: int) -> int:
    return region // 9


def values_of(mask: int) -> list[int]:
    """The values of a mask, ascending."""
    return [v for v in range(1, 10) if mask >> v & 1]


def cell_name(cell: int) -> str:
    """``r4c5``, as the rest of sudokulab names a cell."""
    return f"r{cell // 9 + 1}c{cell % 9 + 1}"


def region_name(region: int) -> str:
    number = region % 9 + 1
    return f"{KIND_NAMES[kind(region)] if kind(region) else 'box'} {number}"


CELL_PLACES: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((region * 10, INDEX_IN[region][c]) for region in CELL_REGIONS[c]) for c in range(81))
"""Each cell's three regions, as (region * 10, the cell's index there): where its bits sit in ``Grid.pos``."""


class Grid:
    """The 81 values (0: empty) and candidate masks SE's rules read and change, and, kept with them,
    where each value can go in each region (``pos[10 * region + value]``, a 9-bit mask of indexes in
    the region): the rules ask that far more often than the grid changes."""

    __slots__ = ("values", "cands", "pos")

    def __init__(self, values: list[int], cands: list[int], pos: list[int] | None = None):
        self.values = values
        self.cands = cands
        if pos is None:
            pos = [0] * 270
            for cell, mask in enumerate(cands):
                for base, i in CELL_PLACES[cell]:
                    for v in range(1, 10):
                        if mask >> v & 1:
                            pos[base + v] |= 1 << i
        self.pos = pos

    @classmethod
    def of(cls, givens: Iterable[int]) -> Grid:
        """The givens placed and every empty cell's candidates narrowed by its house (SE's
        ``rebuildPotentialValues``)."""
        values = list(givens)
        if len(values) != 81:
            raise ValueError("Sudoku Explainer's scale is for 9x9 Sudoku")
        cands = [0 if v else ALL for v in values]
        for cell, v in enumerate(values):
            if v:
                for other in HOUSE[cell]:
                    cands[other] &= ~(1 << v)
        return cls(values, cands)

    def copy(self) -> Grid:
        return Grid(list(self.values), list(self.cands), list(self.pos))

    def key(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return tuple(self.values), tuple(self.cands)

    def strike(self, cell: int, value: int) -> None:
        """Take a candidate away (if it is there)."""
        bit = 1 << value
        if self.cands[cell] & bit:
            self.cands[cell] &= ~bit
            pos = self.pos
            for base, i in CELL_PLACES[cell]:
                pos[base + value] &= ~(1 << i)

    def place(self, cell: int, value: int) -> None:
        """Put a value in a cell and strike it from the cell's house (SE's ``setValueAndCancel``)."""
        for v in values_of(self.cands[cell]):
            self.strike(cell, v)
        self.values[cell] = value
        for other in HOUSE[cell]:
            self.strike(other, value)

    def positions(self, region: int, value: int) -> int:
        """Where a value can go in a region: a 9-bit mask of indexes in the region."""
        return self.pos[region * 10 + value]

    def empty_count(self, region: int) -> int:
        values = self.values
        return sum(1 for cell in REGIONS[region] if not values[cell])

    def solved(self) -> bool:
        return all(self.values)


_COMBINATIONS: dict[tuple[int, int], tuple[tuple[int, ...], ...]] = {}


def combinations(k: int, n: int) -> tuple[tuple[int, ...], ...]:
    """The k-subsets of range(n) in SE's order (its ``Permutations``: the subsets as bit masks, in
    increasing value of the mask), each ascending."""
    found = _COMBINATIONS.get((k, n))
    if found is None:
        from itertools import combinations as all_of

        found = tuple(sorted(all_of(range(n), k), key=lambda c: sum(1 << i for i in c)))
        _COMBINATIONS[(k, n)] = found
    return found


_WITH: dict[tuple[int, int, int], tuple[int, ...]] = {}


def combinations_with(k: int, n: int, member: int) -> tuple[int, ...]:
    """The positions in ``combinations(k, n)`` of the subsets that hold ``member``."""
    found = _WITH.get((k, n, member))
    if found is None:
        found = tuple(i for i, c in enumerate(combinations(k, n)) if member in c)
        _WITH[(k, n, member)] = found
    return found
