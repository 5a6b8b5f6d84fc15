"""``sudokulab solutions``: the solutions of a puzzle with several, in BOJ form, up to a limit.

Which solvers list and in what order is ``verdicts.listing``'s; this command prints the list, or its
``--json`` document, and says on stderr when there are more than ``--limit``.
"""

from __future__ import annotations

import argparse
import sys

from ... import solvers
from ...core.puzzle import first_conflict
from ...errors import ExitCode, NoSolution, TimeLimitReached
from ...formats import documents
from ...formats.boj import format_grid
from ...formats.documents import emit
from ...solvers import default_solver
from ...solvers.base import Status
from ...ui.tables import format_stats
from ...verdicts.listing import list_solutions
from ..options import json_argument, load, positive_int, puzzle_arguments, solver_options

DESCRIPTION = ("The solutions of a puzzle in BOJ form, separated by a blank line; exit 1 when there is none. "
               "Solvers that list: backtrack, backtrack-fast and dlx (in canonical order: row-major lexicographic), "
               "sat (in its own order; sorted when the list is complete). Stderr says when there are more than "
               "--limit.")

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ...core.puzzle import Puzzle
    from ...solvers.base import SolutionList


def configure(parser: argparse.ArgumentParser) -> None:
    puzzle_arguments(parser)
    parser.add_argument("--limit", type=positive_int, default=10, metavar="K",
                        help="list at most K solutions (default: 10)")
    json_argument(parser, "one JSON document on stdout instead (solutions, complete, ordered)")


def run(args: argparse.Namespace) -> int:

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
        emit(to_json(puzzle, listed))
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


def to_json(puzzle: Puzzle, listed: SolutionList) -> dict[str, Any]:
    """The ``solutions --json`` document (``schemas/solutions.schema.json``)."""

    n = puzzle.n
    return {**documents.puzzle_fields(puzzle), "solver": listed.solver, "status": listed.status.value,
            "limit": listed.limit, "count": len(listed.grids), "complete": listed.complete,
            "ordered": listed.ordered, "solutions": [format_grid(grid, n) for grid in listed.grids],
            "grids": [documents.grid_rows(grid, n) for grid in listed.grids],
            "seconds": listed.seconds, "stats": dict(listed.stats)}
