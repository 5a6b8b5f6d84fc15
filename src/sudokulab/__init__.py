"""sudokulab: one Sudoku (BOJ 2580), several solving paradigms, one answer format.

The public face: ``solve``, ``count``, ``parse_puzzle``, ``is_solution``, ``format_grid`` and the
vocabulary (``Puzzle``, ``Shape``, ``build_rules``, ...); ``solve`` shows them at work. Variant
rules travel with the puzzle (``Puzzle.rules``, standard Sudoku by default); every solver honours
them or refuses with ``UnsupportedFeature``. The core import stays light: every public name is
imported on first use (``_LAZY``), and PySAT and OR-Tools load only when their solver is first
used. The layers and every module: docs/design.md.
"""

from __future__ import annotations

from importlib import import_module as _import_module

_TYPE_CHECKING = False  # typing costs start-up: imported for the type checker only
if _TYPE_CHECKING:
    from typing import Any

    from . import solvers
    from .core.grid import Grid, Shape
    from .core.puzzle import Puzzle, first_conflict, is_solution, solution_error
    from .core.rules import Rules, RulesError
    from .core.rules import build as build_rules
    from .errors import ExitCode, NoSolution, PuzzleFormatError, SudokuError, UnsupportedFeature, UsageError
    from .formats.boj import format_grid, load_puzzle, parse_puzzle
    from .formats.puzzle_files import read_puzzle
    from .solvers import default_solver
    from .solvers.base import Capabilities, CountResult, SolveResult, Status

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


_LAZY = {
    "solvers": ("solvers", None),
    "default_solver": ("solvers", "default_solver"),
    **{name: ("formats.boj", name) for name in ("format_grid", "load_puzzle", "parse_puzzle")},
    **{name: ("errors", name) for name in ("ExitCode", "NoSolution", "PuzzleFormatError", "SudokuError",
                                            "UnsupportedFeature", "UsageError")},
    **{name: ("core.grid", name) for name in ("Grid", "Shape")},
    **{name: ("core.puzzle", name) for name in ("Puzzle", "first_conflict", "is_solution", "solution_error")},
    "Rules": ("core.rules", "Rules"), "RulesError": ("core.rules", "RulesError"),
    "build_rules": ("core.rules", "build"),
    **{name: ("solvers.base", name) for name in ("Capabilities", "CountResult", "SolveResult", "Status")},
    "read_puzzle": ("formats.puzzle_files", "read_puzzle"),
}
"""Where each public name lives, imported on first use: ``import sudokulab`` (and so the command's
start-up, ``--help`` included) loads none of them until asked (benchmarks/results/startup.md)."""


def __getattr__(name: str) -> Any:
    """A public name (``_LAZY``), imported on first use and kept; ``__version__`` read from the installed
    package's metadata, where pyproject.toml writes it (the one place the version is written)."""
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            value = version("sudokulab")
        except PackageNotFoundError:  # run from a source tree that was never installed
            value = "0+unknown"
        globals()[name] = value
        return value
    if name not in _LAZY:
        raise AttributeError(f"module 'sudokulab' has no attribute '{name}'")
    module, attribute = _LAZY[name]
    value = _import_module(f".{module}", __name__)
    if attribute is not None:
        value = getattr(value, attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


def solve(
    puzzle: Puzzle,
    solver: str | None = None,
    *,
    time_limit: float | None = None,
    canonical: bool = False,
    **options: Any,
) -> SolveResult:
    """Solve one puzzle with a named solver (options go to the solver, e.g. ``engine=``), under the
    puzzle's rules: a solver that cannot honour them raises ``UnsupportedFeature`` before any work.

    The default solver is the command's: ``solvers.default_solver(puzzle)``. For many puzzles,
    keep one solver from ``solvers.get(name)`` instead: paradigms that prepare per board shape
    (SAT, CP-SAT) then pay that price once.

    >>> import sudokulab
    >>> puzzle = sudokulab.parse_puzzle(open("examples/boj2580-sample.txt").read())
    >>> result = sudokulab.solve(puzzle, solver="backtrack")
    >>> result.status.value, sudokulab.is_solution(result.grid, puzzle)
    ('solved', True)
    >>> print(sudokulab.format_grid(result.grid), end="")  # doctest: +ELLIPSIS
    1 3 5 4 6 9 2 7 8
    7 8 2 1 3 5 6 4 9
    ...

    Variant rules travel with the puzzle:

    >>> x = sudokulab.Puzzle.empty(4).with_rules(sudokulab.build_rules(sudokulab.Shape(2, 2), ["x"]))
    >>> grid = sudokulab.solve(x, solver="backtrack", canonical=True).grid
    >>> sudokulab.is_solution(grid, x), grid[:4]
    (True, (1, 2, 3, 4))
    """
    from . import solvers

    with solvers.get(solver or solvers.default_solver(puzzle), **options) as engine:
        solvers.require(engine, canonical=canonical, time_limit=time_limit is not None, rules=puzzle.rules)
        return engine.solve(puzzle, time_limit=time_limit, canonical=canonical)


def count(
    puzzle: Puzzle,
    solver: str | None = None,
    *,
    limit: int = 2,
    time_limit: float | None = None,
    **options: Any,
) -> CountResult:
    """Count the solutions of a puzzle up to ``limit`` under its rules with a named solver (default as for
    ``solve``)."""
    from . import solvers

    with solvers.get(solver or solvers.default_solver(puzzle), **options) as engine:
        solvers.require(engine, count=True, time_limit=time_limit is not None, rules=puzzle.rules)
        return engine.count(puzzle, limit=limit, time_limit=time_limit)
