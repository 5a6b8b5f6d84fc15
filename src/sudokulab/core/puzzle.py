"""A puzzle (a shape, its givens and its rules) and the one independent checker of an answer.

The checker reads only the definition (complete, digits in range, givens kept, every rule kept), so
every solver's answer is judged by code no solver shares.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cells import cell_words
from .grid import Grid, Shape
from .rules import Rules, standard


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
        if not 1 <= value <= n:
            return f"{cell_words(cell, n, comma=True)} holds {value}, outside 1..{n}"
        if given and given != value:
            return f"{cell_words(cell, n, comma=True)} is given {given} but the answer has {value}"
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
