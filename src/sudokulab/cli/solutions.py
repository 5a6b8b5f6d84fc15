"""``sudokulab solutions``: the solutions of a puzzle with several, listed in BOJ form up to a limit.

Which solvers list, in what order, and the check of each listed grid are ``verdicts.listing``'s.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .. import default_solver, solvers
from ..core.puzzle import Puzzle, first_conflict
from ..errors import ExitCode, NoSolution, TimeLimitReached
from ..formats import documents
from ..formats.boj import format_grid
from ..solvers.base import SolutionList, Status
from ..verdicts.listing import list_solutions


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
