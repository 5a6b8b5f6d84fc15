"""The vocabulary of the puzzle, shared by every paradigm.

- **Digit**: 1..n; 0 marks a blank cell.
- **Shape**: the board size n = box_rows * box_cols and the box split; the rules of standard Sudoku
  depend on the shape only, so models and solvers that encode them once per shape key on it.
- **Cell**: an index 0..n*n-1 in row-major order; ``(row, col)`` is 0-based in code, 1-based in
  every message a person reads.
- **Unit**: the n cells of one row, column or box, which hold 1..n once each; **Peers**: the cells
  that share a unit with a cell. ``units`` is the standard view; any rule set's are ``core.rules``'.
- **Grid**: a flat row-major tuple of n*n digits (0 for blank): every solver walks it by index, and
  a tuple is hashable and cheap to compare.
- **Puzzle** (``core.puzzle``): a shape, the givens as a grid, and the rules (``core.rules.Rules``).

Roads not taken: a 2-D list of lists (mutable, not hashable, slower to compare) and a dict keyed by
square names as in Norvig's essay (pretty for 9x9, awkward for 25x25).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

Grid = tuple[int, ...]


def box_shape(n: int) -> tuple[int, int]:
    """The box split of an n x n board: the most square (rows, cols) with rows <= cols.

    >>> box_shape(9), box_shape(6), box_shape(12), box_shape(7)
    ((3, 3), (2, 3), (3, 4), (1, 7))
    """
    if n < 1:
        raise ValueError(f"board size must be positive, not {n}")
    rows = math.isqrt(n)
    while n % rows:
        rows -= 1
    return rows, n // rows


@dataclass(frozen=True)
class Shape:
    """The size and box split of a board; everything the rules depend on."""

    box_rows: int
    box_cols: int

    @classmethod
    def of_size(cls, n: int) -> Shape:
        return cls(*box_shape(n))

    @property
    def n(self) -> int:
        return self.box_rows * self.box_cols

    @property
    def cells(self) -> int:
        return self.n * self.n

    def box_of(self, row: int, col: int) -> int:
        """The 0-based box index of a cell, boxes numbered row-major."""
        return (row // self.box_rows) * self.box_rows + col // self.box_cols

    def __str__(self) -> str:
        return f"{self.n}x{self.n} board with {self.box_rows}x{self.box_cols} boxes"


@dataclass(frozen=True)
class Units:
    """The units of a shape as cell-index tuples, named for messages."""

    rows: tuple[tuple[int, ...], ...]
    cols: tuple[tuple[int, ...], ...]
    boxes: tuple[tuple[int, ...], ...]
    peers: tuple[frozenset[int], ...]

    def named(self) -> list[tuple[str, int, tuple[int, ...]]]:
        """Every unit as (kind, 0-based index, cells), rows first, then columns, then boxes."""
        return (
            [("row", i, u) for i, u in enumerate(self.rows)]
            + [("column", i, u) for i, u in enumerate(self.cols)]
            + [("box", i, u) for i, u in enumerate(self.boxes)]
        )


@cache
def units(shape: Shape) -> Units:
    """Rows, columns, boxes and peers of a shape, computed once per shape."""
    n = shape.n
    rows = tuple(tuple(r * n + c for c in range(n)) for r in range(n))
    cols = tuple(tuple(r * n + c for r in range(n)) for c in range(n))
    boxes_list: list[list[int]] = [[] for _ in range(n)]
    for r in range(n):
        for c in range(n):
            boxes_list[shape.box_of(r, c)].append(r * n + c)
    boxes = tuple(tuple(b) for b in boxes_list)
    peers = []
    for cell in range(n * n):
        r, c = divmod(cell, n)
        peers.append(frozenset(rows[r] + cols[c] + boxes[shape.box_of(r, c)]) - {cell})
    return Units(rows, cols, boxes, tuple(peers))
