"""``sudokulab count``: the solutions of a puzzle counted up to a limit, a claim of 0 or 1 certifiable."""

from __future__ import annotations

import argparse
import sys

from ... import solvers
from ...errors import ExitCode, TimeLimitReached
from ...formats import documents
from ...solvers import default_solver
from ...solvers.base import Status
from ...ui.tables import format_stats
from ..options import (
    certificate,
    certificate_field,
    certified,
    certify_arguments,
    load,
    positive_int,
    puzzle_arguments,
    solver_options,
)


def configure(parser: argparse.ArgumentParser) -> None:
    puzzle_arguments(parser)
    parser.add_argument("--limit", type=positive_int, default=1000, metavar="K",
                        help="stop counting at K solutions (default: 1000)")
    parser.add_argument("--json", action="store_true",
                        help="one JSON document on stdout instead (count, exact, limit, status, seconds, stats, "
                        "solver)")
    certify_arguments(parser)


def run(args: argparse.Namespace) -> int:

    puzzle = load(args)
    name = args.solver or default_solver(puzzle)
    with solvers.get(name, **solver_options(args.option)) as solver:
        solvers.require(solver, count=True, time_limit=args.time_limit is not None, rules=puzzle.rules)
        result = solver.count(puzzle, limit=args.limit, time_limit=args.time_limit)
    if args.stats:
        print(format_stats(result), file=sys.stderr)
    timed_out = result.status is Status.TIME_LIMIT
    made = None
    if args.certify and not timed_out:
        made = certificate(puzzle, result.count if result.exact else None, args.proof, exact=True)
    if args.json:
        documents.emit({**documents.puzzle_fields(puzzle), "solver": result.solver, "status": result.status.value,
                        "count": result.count, "exact": result.exact, "limit": result.limit,
                        "seconds": result.seconds, "stats": dict(result.stats),
                        **certificate_field(args, made)})
    if timed_out:
        raise TimeLimitReached(f"time limit reached after {result.count} solutions "
                               f"(at least {result.count}): {args.time_limit:g} s")
    if not args.json:
        sys.stdout.write(f"{result.count}\n" if result.exact else f"at least {result.count}\n")
    if made is not None:
        certified(made, result.count if result.exact else None, stdout=None if args.json else True)
    return ExitCode.OK
