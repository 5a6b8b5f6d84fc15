"""sudokulab: one Sudoku (BOJ 2580), three solving paradigms, one answer format.

>>> import sudokulab
>>> puzzle = sudokulab.parse_puzzle(open("examples/boj2580-sample.txt").read())
>>> result = sudokulab.solve(puzzle, solver="backtrack")
>>> result.status.value, sudokulab.is_solution(result.grid, puzzle)
('solved', True)
>>> print(sudokulab.format_grid(result.grid), end="")  # doctest: +ELLIPSIS
1 3 5 4 6 9 2 7 8
7 8 2 1 3 5 6 4 9
...

The core import stays light: PySAT and OR-Tools load only when their solver is first used.
"""

from __future__ import annotations

from typing import Any

from . import solvers
from .boj import format_grid, parse_puzzle
from .errors import ContradictoryGivens, PuzzleFormatError, SudokuError, UsageError
from .grid import Grid, Puzzle, Shape, first_conflict, is_solution, solution_error
from .solvers.base import CountResult, SolveResult, Status

__all__ = [
    "ContradictoryGivens",
    "CountResult",
    "Grid",
    "Puzzle",
    "PuzzleFormatError",
    "Shape",
    "SolveResult",
    "Status",
    "SudokuError",
    "UsageError",
    "count",
    "first_conflict",
    "format_grid",
    "is_solution",
    "parse_puzzle",
    "solution_error",
    "solve",
    "solvers",
]
__version__ = "0.1.0"


def solve(
    puzzle: Puzzle,
    solver: str = "backtrack-fast",
    *,
    time_limit: float | None = None,
    canonical: bool = False,
    **options: Any,
) -> SolveResult:
    """Solve one puzzle with a named solver (options go to the solver, e.g. ``engine=``).

    For many puzzles, keep one solver from ``solvers.get(name)`` instead: paradigms that prepare
    per board shape (SAT, CP-SAT) then pay that price once.
    """
    with solvers.get(solver, **options) as engine:
        return engine.solve(puzzle, time_limit=time_limit, canonical=canonical)


def count(
    puzzle: Puzzle,
    solver: str = "backtrack-fast",
    *,
    limit: int = 2,
    time_limit: float | None = None,
    **options: Any,
) -> CountResult:
    """Count the solutions of a puzzle up to ``limit`` with a named solver."""
    with solvers.get(solver, **options) as engine:
        return engine.count(puzzle, limit=limit, time_limit=time_limit)
