"""``sudokulab bench``: solvers over puzzle sets; the summary table, per-puzzle rows, a cactus plot."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ...bench import run as bench
from ...bench.report import render_bench, render_runs
from ...bench.results import DEFAULT_TIME_LIMIT
from ...errors import ExitCode, SolverBug, UnsupportedFeature, UsageError
from ...formats.documents import emit_line
from ...ui.console import console
from ...ui.plots import cactus_plot, plot_output, require_matplotlib
from ..options import (
    box,
    configurations,
    dataset_file,
    dataset_rules,
    json_argument,
    many_solver_arguments,
    non_negative_int,
    per_solver_options,
    positive_float,
    positive_int,
    rules_arguments,
    solver_names,
    where_arguments,
)

BENCH_SUFFIXES = {".csv": "csv", ".jsonl": "jsonl", ".png": "plot", ".svg": "plot", ".pdf": "plot"}
"""``bench --output FILE``: what the file's suffix makes it (per-puzzle rows as CSV or JSON Lines, the cactus plot)."""


def configure(parser: argparse.ArgumentParser) -> None:

    parser.add_argument("datasets", nargs="+", metavar="DATASET",
                        help="dataset files (one-line puzzles, BOJ blocks) or names of fetched sets, e.g. 17_clue")
    many_solver_arguments(parser, "every installed one but backtrack, dimacs and minizinc, slow on a whole set")
    parser.add_argument("--time-limit", type=positive_float, default=DEFAULT_TIME_LIMIT, metavar="SECONDS",
                        help=f"per puzzle and solver (default: {DEFAULT_TIME_LIMIT:g})")
    parser.add_argument("--limit", type=positive_int, metavar="K", help="the first K puzzles of each dataset")
    where_arguments(parser, "solve", "processes (default: 1, for clean timings)")
    parser.add_argument("--batch-size", type=positive_int, metavar="N",
                        help="puzzles per task handed to a process or cluster worker (default: 512 up to 9x9, "
                        "fewer on larger boards; on a big cluster give thousands: benchmarks/results/cluster.md)")
    parser.add_argument("--by-solver", action="store_true",
                        help="each solver over a whole dataset in turn (its rate alone; default: turns per puzzle)")
    parser.add_argument("--box", metavar="RxC", help="box shape of the puzzles (default: from the size)")
    parser.add_argument("--output", action="append", metavar="FILE",
                        help="write FILE, the format from its name: per-puzzle results as .csv or .jsonl (JSON "
                        "Lines), the cactus plot as .png, .svg or .pdf (needs matplotlib); repeatable")
    parser.add_argument("--out", help=argparse.SUPPRESS)  # deprecated: --output FILE.csv
    parser.add_argument("--plot", help=argparse.SUPPRESS)  # deprecated: --output FILE.png
    json_argument(parser, "per-puzzle results as JSON Lines on stdout (the tables go to stderr)")
    parser.add_argument("--runs", type=positive_int, default=1, metavar="K",
                        help="repeat the whole run K times and report each solver's rate over the runs (median, "
                        "quartiles) and how many times faster each is than the next, paired run by run; the "
                        "tables, rows and files are the last run's (default: 1)")
    parser.add_argument("--warmup", type=non_negative_int, default=0, metavar="W",
                        help="whole runs before the measured ones, not counted (caches, compiled code; default: 0)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    rules_arguments(parser, "of every puzzle of the datasets")


def run(args: argparse.Namespace) -> int:

    shape = box(args)
    files = bench_outputs(args)
    plot = None
    if files.get("plot") is not None:

        require_matplotlib()  # before the run, not after an hour of it
        plot = plot_output(files["plot"])
    rules = dataset_rules(args)
    datasets = [bench.Dataset.from_path(dataset_file(path), box=shape, limit=args.limit, rules=rules)
                for path in args.datasets]
    def show(report: bench.BenchReport) -> None:
        """The tables (and with --json the summary rows) of a whole run, or of what finished before a signal."""
        if args.json:

            for summary in report.summaries:
                emit_line(summary.document(report.jobs, report.where))
            sys.stdout.flush()
        render_bench(report, console(stderr=args.json, wide=args.wide), wide=args.wide)

    def one_run(last: bool) -> bench.BenchReport:
        """A whole run; only the last measured one writes rows, files and (when stopped) its tables."""
        return bench.run_bench(
            datasets, solver_names(args.solvers), time_limit=args.time_limit, jobs=args.jobs,
            options=per_solver_options(args.option), csv_path=files.get("csv") if last else None,
            json_path=files.get("jsonl") if last else None,
            json_lines=sys.stdout if args.json and last else None, progress=not args.quiet,
            by_solver=args.by_solver, cluster=args.cluster, batch_size=args.batch_size, configs=configurations(args),
            on_stopped=show if last else None,
        )

    if args.runs > 1 or args.warmup:
        if any(d.path is not None and str(d.path) == "-" for d in datasets):
            raise UsageError("bench: --runs and --warmup read the datasets again: give files, not stdin")
    for _ in range(args.warmup):
        one_run(last=False)
    reports = [one_run(last=i == args.runs - 1) for i in range(args.runs)]
    report = reports[-1]
    if report.skipped and not report.summaries:
        name, why = next(iter(next(iter(report.skipped.values())).items()))
        raise UnsupportedFeature(f"bench: no solver could run: {name} {why}")
    show(report)
    if args.runs > 1:

        render_runs(reports, args.warmup, console(stderr=args.json, wide=args.wide))
    if plot is not None:

        cactus_plot(report.solved_times, plot.path, totals=report.totals, time_limit=args.time_limit,
                    counts=report.solved_counts, lines="configuration" if report.configured else "solver")
    if report.wrong:
        raise SolverBug(f"{report.wrong} wrong answers (each shown above on stderr with its puzzle)")
    return ExitCode.OK


def bench_outputs(args: argparse.Namespace) -> dict[str, str]:
    """``bench``'s output files by kind ("csv", "jsonl", "plot"), from ``--output`` (the suffix says the
    format) and the deprecated spellings ``--out FILE`` (CSV) and ``--plot FILE``."""

    files: dict[str, str] = {}
    for path in args.output or ():
        kind = BENCH_SUFFIXES.get(Path(path).suffix.lower())
        if kind is None:
            raise UsageError(f"bench: --output {path}: the name must end in {', '.join(BENCH_SUFFIXES)} "
                             "(per-puzzle rows as CSV or JSON Lines, or the cactus plot)")
        if kind in files:
            raise UsageError(f"bench: two --output files of the same kind: {files[kind]} and {path}")
        files[kind] = path
    for old, kind in (("out", "csv"), ("plot", "plot")):
        path = getattr(args, old, None)
        if path is not None:
            _deprecated(f"--{old} FILE", f"--output {path if kind != 'csv' or path.endswith('.csv') else 'FILE.csv'}")
            if kind in files:
                raise UsageError(f"bench: --{old} {path} and --output {files[kind]} name the same output")
            files[kind] = path
    return files


def _deprecated(old: str, new: str) -> None:
    print(f"sudokulab: warning: {old} is deprecated: write {new}", file=sys.stderr)
