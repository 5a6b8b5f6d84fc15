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

Variant rules travel with the puzzle (``Puzzle.rules``, standard Sudoku by default); every solver
honours them or refuses with ``UnsupportedFeature``:

>>> x = sudokulab.Puzzle.empty(4).with_rules(sudokulab.build_rules(sudokulab.Shape(2, 2), ["x"]))
>>> grid = sudokulab.solve(x, solver="backtrack", canonical=True).grid
>>> sudokulab.is_solution(grid, x), grid[:4]
(True, (1, 2, 3, 4))

The core import stays light: PySAT and OR-Tools load only when their solver is first used.
"""

from __future__ import annotations

import typing as _typing

from . import solvers
from .boj import format_grid, load_puzzle, parse_puzzle
from .errors import ExitCode, NoSolution, PuzzleFormatError, SudokuError, UnsupportedFeature, UsageError
from .grid import Grid, Puzzle, Shape, first_conflict, is_solution, solution_error
from .rules import Rules, RulesError
from .rules import build as build_rules
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
    "Rules",
    "RulesError",
    "Shape",
    "SolveResult",
    "Status",
    "SudokuError",
    "UnsupportedFeature",
    "UsageError",
    "build_rules",
    "count",
    "default_solver",
    "first_conflict",
    "format_grid",
    "is_solution",
    "load_puzzle",
    "parse_puzzle",
    "read_puzzle",
    "solution_error",
    "solve",
    "solvers",
]


def __getattr__(name: str) -> _typing.Any:
    """``read_puzzle`` (BOJ, JSON puzzle files, f-puzzles) is imported on first use."""
    if name == "read_puzzle":
        from .puzzle_files import read_puzzle

        return read_puzzle
    raise AttributeError(f"module 'sudokulab' has no attribute '{name}'")


def default_solver(puzzle: Puzzle) -> str:
    """The solver used when none is named: ``solvers.default_for(puzzle.shape)`` when it honours the
    puzzle's rules, else the first installed one that does (``oracle.PREFERENCE`` order; when none
    does, the default, which then refuses naming the kind)."""
    name = solvers.default_for(puzzle.shape)
    rules = puzzle.rules
    if rules.is_standard or rules.kinds <= solvers.solver_class(name).capabilities.kinds:
        return name
    from .oracle import first_honouring

    return first_honouring(rules.kinds) or name


def solve(
    puzzle: Puzzle,
    solver: str | None = None,
    *,
    time_limit: float | None = None,
    canonical: bool = False,
    **options: _typing.Any,
) -> SolveResult:
    """Solve one puzzle with a named solver (options go to the solver, e.g. ``engine=``), under the
    puzzle's rules: a solver that cannot honour them raises ``UnsupportedFeature`` before any work.

    The default solver is the command's: ``default_solver(puzzle)``. For many puzzles,
    keep one solver from ``solvers.get(name)`` instead: paradigms that prepare per board shape
    (SAT, CP-SAT) then pay that price once.
    """
    with solvers.get(solver or default_solver(puzzle), **options) as engine:
        solvers.require(engine, canonical=canonical, time_limit=time_limit is not None, rules=puzzle.rules)
        return engine.solve(puzzle, time_limit=time_limit, canonical=canonical)


def count(
    puzzle: Puzzle,
    solver: str | None = None,
    *,
    limit: int = 2,
    time_limit: float | None = None,
    **options: _typing.Any,
) -> CountResult:
    """Count the solutions of a puzzle up to ``limit`` under its rules with a named solver (default as for
    ``solve``)."""
    with solvers.get(solver or default_solver(puzzle), **options) as engine:
        solvers.require(engine, count=True, time_limit=time_limit is not None, rules=puzzle.rules)
        return engine.count(puzzle, limit=limit, time_limit=time_limit)
