"""The vocabulary of the puzzle, shared by every paradigm.

- **Digit**: 1..n; 0 marks a blank cell.
- **Shape**: the board size n = box_rows * box_cols and the box split. The rules of Sudoku depend
  on the shape only, so models and solvers that encode the rules once per shape key on it.
- **Cell**: an index 0..n*n-1 in row-major order; ``(row, col)`` pairs are 0-based in code and
  1-based in every message a person reads.
- **Unit**: the n cells of one row, column or box, which must hold 1..n once each.
- **Peers**: the cells that share a unit with a cell.
- **Grid**: a flat row-major tuple of n*n digits (0 for blank); flat because every solver walks
  it by index and a tuple is hashable and cheap to compare.
- **Puzzle**: a shape, the givens as a grid, and the rules (``rules.Rules``: standard Sudoku unless
  declared otherwise). Units, peers and the checker for any rule set live in ``rules``; ``units``
  here is the standard rows/columns/boxes view of a shape.

Roads not taken: a 2-D list of lists (mutable, not hashable, slower to compare) and a dict keyed by
square names as in Norvig's essay (pretty for 9x9, awkward for 25x25).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .rules import Rules

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


@dataclass(frozen=True)
class Puzzle:
    """A board shape, its givens (a row-major grid with 0 for blank) and its rules.

    ``rules`` defaults to standard Sudoku for the shape (``rules.standard``); a variant passes its
    own ``rules.Rules``, whose shape must be this one.
    """

    shape: Shape
    givens: Grid
    rules: Rules = None  # type: ignore[assignment]  # None means standard, filled in below

    def __post_init__(self) -> None:
        n = self.shape.n
        if len(self.givens) != n * n:
            raise ValueError(f"{n * n} cells expected for {self.shape}, got {len(self.givens)}")
        if any(not 0 <= v <= n for v in self.givens):
            raise ValueError(f"givens must lie in 0..{n}")
        if self.rules is None:
            from .rules import standard

            object.__setattr__(self, "rules", standard(self.shape))
        elif self.rules.shape != self.shape:
            raise ValueError(f"the rules are for a {self.rules.shape}, the puzzle is a {self.shape}")

    def with_rules(self, rules: Rules) -> Puzzle:
        """The same givens under other rules."""
        return Puzzle(self.shape, self.givens, rules)

    @classmethod
    def from_rows(cls, rows: Sequence[Sequence[int]], box: tuple[int, int] | None = None) -> Puzzle:
        """Build a puzzle from n rows of n digits (0 blank); the box split defaults by size.

        >>> Puzzle.from_rows([[1, 0, 0, 0], [0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 1]]).shape
        Shape(box_rows=2, box_cols=2)
        """
        n = len(rows)
        shape = Shape(*box) if box else Shape.of_size(n)
        return cls(shape, tuple(v for row in rows for v in row))

    @classmethod
    def empty(cls, shape: Shape | int) -> Puzzle:
        """The board with no givens (many solutions: useful for canonical and counting tests)."""
        shape = shape if isinstance(shape, Shape) else Shape.of_size(shape)
        return cls(shape, (0,) * shape.cells)

    @property
    def n(self) -> int:
        return self.shape.n

    @property
    def blanks(self) -> int:
        return self.givens.count(0)


def first_conflict(grid: Grid, rules: Shape | Rules) -> str | None:
    """The first rule a (possibly partial) grid breaks, in 1-based words, or None.

    ``rules`` is a rule set, or a shape for standard Sudoku. Blanks (0) break nothing; the message
    names the group, the digit and both positions (see ``Rules.first_conflict``).

    >>> first_conflict((1, 0, 0, 1) + (0,) * 12, Shape(2, 2))
    'row 1 holds 1 twice (columns 1 and 4)'
    """
    if isinstance(rules, Shape):
        from .rules import standard

        rules = standard(rules)
    return rules.first_conflict(grid)


def solution_error(grid: Grid | None, puzzle: Puzzle) -> str | None:
    """Why a grid is not a solution of the puzzle (first reason, 1-based words), or None if it is.

    Independent of every solver: it checks only the definition (complete, digits in range, givens
    kept, every rule of ``puzzle.rules`` kept).
    """
    n = puzzle.n
    if grid is None:
        return "there is no grid"
    if len(grid) != n * n:
        return f"{n * n} cells expected, found {len(grid)}"
    for cell, (given, value) in enumerate(zip(puzzle.givens, grid)):
        r, c = divmod(cell, n)
        if not 1 <= value <= n:
            return f"row {r + 1}, column {c + 1} holds {value}, outside 1..{n}"
        if given and given != value:
            return f"row {r + 1}, column {c + 1} is given {given} but the answer has {value}"
    return puzzle.rules.first_conflict(grid)


def is_solution(grid: Grid | None, puzzle: Puzzle) -> bool:
    """True when ``grid`` completes ``puzzle`` by the rules: the independent checker.

    >>> p = Puzzle.from_rows([[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 0]])
    >>> is_solution((1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1), p)
    True
    >>> is_solution((1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 1, 2), p)
    False
    """
    return solution_error(grid, puzzle) is None
