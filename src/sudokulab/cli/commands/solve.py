"""``sudokulab solve``: one puzzle solved, its answer in BOJ form, checked before it is printed;
``solve --all``: every puzzle of datasets, one answer each, in input order (``bench/answers.py``).

Why a flag and not a guess from the input: one BOJ puzzle is nine lines, so "several lines" says
nothing, and a file that is one puzzle must keep meaning one answer and its exit code. Input that is
clearly a dataset given without ``--all`` is refused with one line naming ``solve --all``.

More: docs/solve.md.
"""

from __future__ import annotations

import argparse
import shlex
import sys

from ... import solvers
from ...core.puzzle import first_conflict
from ...errors import ExitCode, NoSolution, PuzzleFormatError, SolverBug, TimeLimitReached, UsageError
from ...formats import documents
from ...formats.boj import format_grid, source_name
from ...solvers import default_solver
from ...solvers.base import Status
from ...ui.console import is_terminal, prose
from ...ui.progress import progress
from ...ui.tables import format_stats
from ...verdicts.checking import check_result
from ..options import (
    box,
    dataset_file,
    dataset_rules,
    from_terminal,
    load,
    positive_int,
    puzzle_arguments,
    read_puzzle_text,
    solver_options,
    where_arguments,
)

FORMATS = ("boj", "compact", "line", "json")


def configure(parser: argparse.ArgumentParser) -> None:
    puzzle_arguments(parser, several="with --all, any number of dataset files or names of fetched sets")
    parser.add_argument("--all", action="store_true",
                        help="solve every puzzle of the datasets (one-line puzzles, or BOJ blocks separated by "
                        "blank lines; # comments allowed): one answer per puzzle, in input order, or a line "
                        "'no solution', 'time limit', 'bad entry: why' in its place (docs/solve.md)")
    parser.add_argument("--canonical", action="store_true",
                        help="the row-major lexicographically first solution (what the classic backtracker prints)")
    parser.add_argument("--format", choices=FORMATS,
                        help="boj: numbers separated by spaces (BOJ 2580; the default for one puzzle); compact: "
                        "digits only (BOJ 2239, boards up to 9x9); line: the answer on one line; json: as --json "
                        "(default with --all: the form of the input, one-line or BOJ blocks)")
    parser.add_argument("--json", action="store_true",
                        help="one JSON document on stdout instead (status, answer, grid, seconds, stats, solver); "
                        "with --all a JSON Lines row per puzzle; the exit code as without it")
    where_arguments(parser, "with --all: solve", "with --all: processes (default: 1)")
    parser.add_argument("--limit", type=positive_int, metavar="K", help="with --all: the first K entries of each "
                        "dataset")
    parser.add_argument("--quiet", action="store_true", help="with --all: no progress bar (shown on a terminal only)")


def run(args: argparse.Namespace) -> int:
    if args.all:
        return run_all(args)
    if args.jobs != 1 or args.cluster is not None or args.limit is not None or args.quiet:
        raise UsageError("--jobs, --cluster, --limit and --quiet are for many puzzles: sudokulab solve --all "
                         "DATASET ...")
    if len(args.puzzle) > 1:
        raise UsageError(f"solve takes one puzzle, not {len(args.puzzle)} files; to solve every puzzle of them: "
                         "sudokulab solve --all FILE ...")
    if args.format == "json":
        args.json = True
    return run_one(args, args.puzzle[0] if args.puzzle else "-")


def run_one(args: argparse.Namespace, source: str) -> int:

    puzzle = read_one(args, source)
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
        prose(format_stats(result), stderr=True, indent="  ")
    verdict = check_result(puzzle, result)
    if verdict.right is False:
        raise SolverBug(f"solver '{result.solver}' returned a wrong answer ({verdict.problem}); nothing printed")
    answer = None
    if result.status is Status.SOLVED:
        grid = result.grid
        if args.format == "line":
            answer = ("" if puzzle.n <= 9 else " ").join(map(str, grid)) + "\n"  # type: ignore[arg-type]
        else:
            answer = format_grid(grid, puzzle.n, compact=args.format == "compact")  # type: ignore[arg-type]
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
        within = f"{args.time_limit:g} s" if args.time_limit is not None else "the solver's own budget"
        raise TimeLimitReached(f"time limit reached: no answer within {within}")
    raise NoSolution("no solution: no completion of these givens keeps the rules")


def read_one(args: argparse.Namespace, source: str):
    """The one puzzle, read once; input that is clearly a dataset is refused naming ``solve --all``."""

    try:
        text = read_puzzle_text(source, _all_hint(source))
    except PuzzleFormatError as exc:
        if "larger than" in str(exc):
            raise PuzzleFormatError(f"{exc}; a dataset? {_all_hint(source)}") from None
        raise
    return load(args, source, text, dataset_hint=_all_hint(source))


def _all_hint(source: str) -> str:

    return f"solve each puzzle with 'sudokulab solve --all {shlex.quote(source)}'"


def run_all(args: argparse.Namespace) -> int:
    # here, not at the top: --all runs on bench's worker, which loads numpy; one puzzle needs none of it
    from ...bench.answers import BAD, NO_SOLUTION, TIME_LIMIT, WRONG, AnswerTally, input_form, solve_all
    from ...bench.run import Dataset
    from ...datasets.reading import no_puzzle

    if args.canonical:
        raise UsageError("--canonical is for one puzzle; solve --all gives the answer each solver finds first")
    if args.stats:
        raise UsageError("--stats is for one puzzle; solve --all --format json gives each puzzle's seconds")
    if args.json and args.format not in (None, "json"):
        raise UsageError(f"--json and --format {args.format} ask for two forms: give one")
    files = args.puzzle or ["-"]
    if files.count("-") > 1:
        raise UsageError("standard input (-) is named twice: it can be read once")
    rules = dataset_rules(args)
    datasets = [Dataset.from_path(dataset_file(path), box=box(args), rules=rules, limit=args.limit) for path in files]
    form = "json" if args.json else args.format
    if "-" in files:
        from_terminal("-", "puzzles, one a line,", "them")
    show = not args.quiet and is_terminal(sys.stderr)
    total = sum(d.estimate() or 0 for d in datasets) if show and "-" not in files else None

    def stopped(tally: AnswerTally) -> None:
        """What a signal leaves: the answers written are every entry up to the first unanswered one; the
        tally says so on stderr, and with JSON a last row marked partial."""
        sys.stdout.flush()
        if form == "json":
            documents.emit_line(tally.document(partial=True))
            sys.stdout.flush()
        prose(f"stopped by a signal: {tally.summary()}; the answers are those of the first {tally.entries:,} "
              "entries, in order", stderr=True)

    with progress(total or None, enabled=show, label="solving") as bar:
        task = bar.task_ids[0]
        tally = solve_all(datasets, solver=args.solver, options=solver_options(args.option),
                          time_limit=args.time_limit, jobs=args.jobs, cluster=args.cluster,
                          form=form or (lambda dataset: input_form(dataset.path)),
                          on_stopped=stopped, on_answered=lambda count: bar.advance(task, count))
    summary = tally.summary()
    if not tally.entries:
        raise no_puzzle(", ".join(map(source_name, files)))
    sys.stdout.flush()
    if tally.counts[WRONG]:
        raise SolverBug(f"{summary}: a wrong answer is a bug found")
    if tally.counts[BAD]:
        raise PuzzleFormatError(summary)
    if tally.counts[TIME_LIMIT]:
        raise TimeLimitReached(summary)
    if tally.counts[NO_SOLUTION]:
        raise NoSolution(summary)
    prose(summary, stderr=True, indent="  ")
    return ExitCode.OK
