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

import typing as _typing

from . import solvers
from .boj import format_grid, load_puzzle, parse_puzzle
from .errors import ExitCode, NoSolution, PuzzleFormatError, SudokuError, UnsupportedFeature, UsageError
from .grid import Grid, Puzzle, Shape, first_conflict, is_solution, solution_error
from .solvers.base import Capabilities, CountResult, SolveResult, Status

__version__ = "0.1.0"

__all__ = [
    "Capabilities",
    "CountResult",
    "ExitCode",
    "Grid",
    "NoSolution",
    "Puzzle",
    "PuzzleFormatError",
    "Shape",
    "SolveResult",
    "Status",
    "SudokuError",
    "UnsupportedFeature",
    "UsageError",
    "count",
    "first_conflict",
    "format_grid",
    "is_solution",
    "load_puzzle",
    "parse_puzzle",
    "solution_error",
    "solve",
    "solvers",
]


def solve(
    puzzle: Puzzle,
    solver: str | None = None,
    *,
    time_limit: float | None = None,
    canonical: bool = False,
    **options: _typing.Any,
) -> SolveResult:
    """Solve one puzzle with a named solver (options go to the solver, e.g. ``engine=``).

    The default solver is the command's: ``solvers.default_for(puzzle.shape)``. For many puzzles,
    keep one solver from ``solvers.get(name)`` instead: paradigms that prepare per board shape
    (SAT, CP-SAT) then pay that price once.
    """
    with solvers.get(solver or solvers.default_for(puzzle.shape), **options) as engine:
        solvers.require(engine, canonical=canonical, time_limit=time_limit is not None)
        return engine.solve(puzzle, time_limit=time_limit, canonical=canonical)


def count(
    puzzle: Puzzle,
    solver: str | None = None,
    *,
    limit: int = 2,
    time_limit: float | None = None,
    **options: _typing.Any,
) -> CountResult:
    """Count the solutions of a puzzle up to ``limit`` with a named solver (default as for ``solve``)."""
    with solvers.get(solver or solvers.default_for(puzzle.shape), **options) as engine:
        solvers.require(engine, count=True, time_limit=time_limit is not None)
        return engine.count(puzzle, limit=limit, time_limit=time_limit)
