"""``sudokulab bench``: solvers over puzzle sets; the summary table, per-puzzle rows, a cactus plot (docs/bench.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ...bench import run as bench
from ...bench.report import render_bench, render_runs, runs_csv, runs_document, runs_markdown
from ...bench.results import DEFAULT_TIME_LIMIT
from ...errors import ExitCode, SolverBug, UnsupportedFeature, UsageError
from ...formats.documents import emit_line
from ...formats.outputs import OutputFile
from ...ui.console import as_text, console, prose
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
                        help="repeat the whole run K times and report each solver's rate over the runs (mean ± σ, "
                        "median, min … max), how many times faster each is than the next (paired run by run) "
                        "and runs far from the others; the tables, rows and files are the last run's (default: 1)")
    parser.add_argument("--warmup", type=non_negative_int, default=0, metavar="W",
                        help="whole runs before the measured ones, not counted (caches, compiled code; default: 0)")
    parser.add_argument("--rate", choices=("wall", "cpu"), default="wall",
                        help="the rate --runs compares: puzzles per second of the run's wall clock (what a run gets; "
                        "the default) or of CPU time (steadier on a shared machine)")
    parser.add_argument("--export-markdown", metavar="FILE",
                        help="the runs' table and every run's rate as Markdown (with the versions and machine)")
    parser.add_argument("--export-csv", metavar="FILE", help="every run's rate of every solver as CSV, one row each")
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
    exports = {kind: OutputFile(path, what=what) for kind, path, what in
               (("markdown", args.export_markdown, "Markdown"), ("csv", args.export_csv, "CSV")) if path}

    def show(report: bench.BenchReport) -> None:
        """The tables (and with --json the summary rows) of a whole run, or of what finished before a signal."""
        if args.json:

            for summary in report.summaries:
                emit_line(summary.document(report.jobs, report.where, partial=report.stopped))
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
            on_stopped=show if last and args.runs == 1 else None,
        )

    if args.runs > 1 or args.warmup:
        if any(d.path is not None and str(d.path) == "-" for d in datasets):
            raise UsageError("bench: --runs and --warmup read the datasets again: give files, not stdin")
    reports: list[bench.BenchReport] = []
    try:
        for _ in range(args.warmup):
            one_run(last=False)
        for i in range(args.runs):
            reports.append(one_run(last=i == args.runs - 1))
    except KeyboardInterrupt:  # Ctrl-C, SIGTERM, SIGHUP: the runs that finished are shown, then the signal goes on
        _stopped(args, reports)
        raise
    report = reports[-1]
    if report.skipped and not report.summaries:
        name, why = next(iter(next(iter(report.skipped.values())).items()))
        raise UnsupportedFeature(f"bench: no solver could run: {name} {why}")
    show(report)
    screen = console(stderr=args.json, wide=args.wide)
    if args.runs > 1:

        render_runs(reports, args.warmup, screen, rate=args.rate)
    if args.json:
        emit_line(runs_document(reports, args.warmup, args.rate))
        sys.stdout.flush()
    if "markdown" in exports:
        with exports["markdown"] as out:
            out.write(runs_markdown(reports, args.warmup, args.rate))
    if "csv" in exports:
        with exports["csv"] as out:
            out.write(runs_csv(reports, args.rate))
    if plot is not None:

        cactus_plot(report.solved_times, plot.path, totals=report.totals, time_limit=args.time_limit,
                    counts=report.solved_counts, lines="configuration" if report.configured else "solver")
    if report.wrong:
        raise SolverBug(f"{report.wrong} wrong answers (each shown above on stderr with its puzzle)")
    return ExitCode.OK


def _stopped(args: argparse.Namespace, reports: list[bench.BenchReport]) -> None:
    """``--runs`` stopped by a signal: the runs that finished, compared, marked partial (one run alone
    shows its own finished batches instead, through ``run_bench``'s ``on_stopped``); the exports are
    not written, being incomplete."""
    if args.runs == 1:
        return
    screen = console(stderr=args.json, wide=args.wide)
    if reports:
        render_runs(reports, args.warmup, screen, rate=args.rate, asked=args.runs)
    screen.print(as_text(f"stopped by a signal after {len(reports)} of {args.runs} measured runs"
                         + (f" (and {args.warmup} warm-up)" if args.warmup else "")
                         + (": the figures cover the runs that finished" if reports else ": nothing measured")))
    if args.json:
        emit_line(runs_document(reports, args.warmup, args.rate, asked=args.runs, partial=True))
        sys.stdout.flush()


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
    prose(f"sudokulab: warning: {old} is deprecated: write {new}", stderr=True, indent="  ")
