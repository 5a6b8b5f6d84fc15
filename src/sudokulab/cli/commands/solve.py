"""``sudokulab solve``: one puzzle solved, its answer in BOJ form, checked before it is printed."""

from __future__ import annotations

import argparse
import sys

from ...errors import ExitCode, NoSolution, SolverBug, TimeLimitReached, UsageError
from ..options import load, puzzle_arguments, solver_options

NAME = "solve"
HELP = "solve one puzzle and print the BOJ answer"


def configure(parser: argparse.ArgumentParser) -> None:
    puzzle_arguments(parser)
    parser.add_argument("--canonical", action="store_true",
                        help="the row-major lexicographically first solution (what the classic backtracker prints)")
    parser.add_argument("--format", choices=("boj", "compact"), default="boj",
                        help="boj: numbers separated by spaces (BOJ 2580; the default); compact: digits only "
                        "(BOJ 2239, boards up to 9x9)")
    parser.add_argument("--json", action="store_true",
                        help="one JSON document on stdout instead (status, answer, grid, seconds, stats, solver); "
                        "the exit code as without it")


def run(args: argparse.Namespace) -> int:
    from ... import solvers
    from ...core.puzzle import first_conflict
    from ...formats import documents
    from ...formats.boj import format_grid
    from ...solvers import default_solver
    from ...solvers.base import Status
    from ...verdicts.checking import check_result
    from ..render import format_stats

    puzzle = load(args)
    if args.format == "compact" and puzzle.n > 9:
        raise UsageError(f"the compact form has one digit per cell, so it cannot show a {puzzle.n}x{puzzle.n} board")
    conflict = first_conflict(puzzle.givens, puzzle.rules)
    if conflict:
        if args.json:
            documents.emit({**documents.puzzle_fields(puzzle), "solver": None, "status": Status.NO_SOLUTION.value,
                            "reason": f"the givens break a rule: {conflict}", "answer": None, "grid": None,
                            "seconds": 0.0, "stats": {}})
        raise NoSolution(f"no solution: the givens break a rule: {conflict}")
    name = args.solver or default_solver(puzzle)
    with solvers.get(name, **solver_options(args.option)) as solver:
        solvers.require(solver, canonical=args.canonical, time_limit=args.time_limit is not None,
                        rules=puzzle.rules)
        result = solver.solve(puzzle, time_limit=args.time_limit, canonical=args.canonical)
    if args.stats:
        print(format_stats(result), file=sys.stderr)
    verdict = check_result(puzzle, result)
    if verdict.right is False:
        raise SolverBug(f"solver '{result.solver}' returned a wrong answer ({verdict.problem}); nothing printed")
    answer = None
    if result.status is Status.SOLVED:
        answer = format_grid(result.grid, puzzle.n, compact=args.format == "compact")  # type: ignore[arg-type]
    if args.json:
        grid = result.grid if result.status is Status.SOLVED else None
        documents.emit({**documents.puzzle_fields(puzzle), "solver": result.solver, "status": result.status.value,
                        "canonical": args.canonical, "answer": answer, "grid": documents.grid_rows(grid, puzzle.n),
                        "seconds": result.seconds, "stats": dict(result.stats)})
    elif answer is not None:
        sys.stdout.write(answer)
    if result.status is Status.SOLVED:
        return ExitCode.OK
    if result.status is Status.TIME_LIMIT:
        raise TimeLimitReached(f"time limit reached: no answer within {args.time_limit:g} s")
    raise NoSolution("no solution: no completion of these givens keeps the rules")
