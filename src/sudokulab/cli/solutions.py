"""``sudokulab solutions``: the solutions of a puzzle with several, listed in BOJ form up to a limit.

Listing reuses the enumeration each solver already does to count: the hand-written searches
(``backtrack``, ``backtrack-fast``, ``dlx``) take solutions from the same generator as ``count``,
and ``sat`` adds a blocking clause per model as ``count`` does (``solutions`` beside ``count`` on
the solver). A solver without that method cannot list and is refused with one line. The solver
looks for one solution more than the limit, so the list knows whether it is complete; a complete
list is sorted into canonical (row-major lexicographic) order, and ``backtrack``, which enumerates
in that order, gives the first K in canonical order even when there are more.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .. import default_solver, solvers
from ..core.puzzle import Puzzle, first_conflict, solution_error
from ..errors import ExitCode, NoSolution, SolverBug, TimeLimitReached, UnsupportedFeature
from ..formats import documents
from ..formats.boj import format_grid
from ..solvers.base import SolutionList, Solver, Status

DEFAULT_LIMIT = 10
"""Solutions listed when ``--limit`` is not given."""


def can_list(solver: Solver | type) -> bool:
    """Whether a solver lists solutions (it has ``solutions(puzzle, limit=, time_limit=)``)."""
    return callable(getattr(solver, "solutions", None))


def listing_solvers() -> list[str]:
    """The registered solvers that list solutions (those whose class can be loaded here)."""
    names = []
    for name in solvers.names():
        try:
            cls = solvers.solver_class(name)
        except Exception:  # noqa: BLE001 - a solver whose backend is missing is just not offered
            continue
        if can_list(cls):
            names.append(name)
    return names


def list_solutions(solver: Solver, puzzle: Puzzle, limit: int = DEFAULT_LIMIT,
                   time_limit: float | None = None) -> SolutionList:
    """The solutions of ``puzzle`` up to ``limit``, each checked by ``grid.solution_error``."""
    if not can_list(solver):
        raise UnsupportedFeature(f"solver '{solver.name}' cannot list solutions; one of these can: "
                                 f"{', '.join(listing_solvers())}")
    listed: SolutionList = solver.solutions(puzzle, limit=limit, time_limit=time_limit)  # type: ignore[attr-defined]
    for grid in listed.grids:
        problem = solution_error(grid, puzzle)
        if problem:
            raise SolverBug(f"solver '{listed.solver}' listed a wrong solution ({problem}); nothing printed")
    if len(set(listed.grids)) != len(listed.grids):
        raise SolverBug(f"solver '{listed.solver}' listed a solution twice; nothing printed")
    return listed


def to_json(puzzle: Puzzle, listed: SolutionList) -> dict[str, Any]:
    """The ``solutions --json`` document (``schemas/solutions.schema.json``)."""
    n = puzzle.n
    return {**documents.puzzle_fields(puzzle), "solver": listed.solver, "status": listed.status.value,
            "limit": listed.limit, "count": len(listed.grids), "complete": listed.complete,
            "ordered": listed.ordered, "solutions": [format_grid(grid, n) for grid in listed.grids],
            "grids": [documents.grid_rows(grid, n) for grid in listed.grids],
            "seconds": listed.seconds, "stats": dict(listed.stats)}


def cmd_solutions(args: argparse.Namespace) -> int:
    from .handlers import format_stats, load, solver_options

    puzzle = load(args)
    conflict = first_conflict(puzzle.givens, puzzle.rules)
    if conflict:
        raise NoSolution(f"no solution: the givens break a rule: {conflict}")
    name = args.solver or default_solver(puzzle)
    with solvers.get(name, **solver_options(args.option)) as solver:
        solvers.require(solver, count=True, time_limit=args.time_limit is not None, rules=puzzle.rules)
        listed = list_solutions(solver, puzzle, args.limit, args.time_limit)
    if args.stats:
        print(format_stats(listed), file=sys.stderr)
    if args.json:
        documents.emit(to_json(puzzle, listed))
    else:
        sys.stdout.write("\n".join(format_grid(grid, puzzle.n) for grid in listed.grids))
        if not listed.complete and listed.grids and listed.status is not Status.TIME_LIMIT:
            order = "in canonical order" if listed.ordered else f"in the order {listed.solver} found them"
            print(f"sudokulab: the first {len(listed.grids)} solutions listed, {order}; there are more "
                  "(raise --limit)", file=sys.stderr)
    if listed.status is Status.TIME_LIMIT:
        raise TimeLimitReached(f"time limit reached after {len(listed.grids)} solutions (those listed; there may be "
                               f"more): {args.time_limit:g} s")
    if not listed.grids:
        raise NoSolution("no solution: no completion of these givens keeps the rules")
    return ExitCode.OK
