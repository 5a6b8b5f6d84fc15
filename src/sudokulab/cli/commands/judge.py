"""``sudokulab judge``: a program run on every puzzle of a dataset and judged as an online judge does."""

from __future__ import annotations

import argparse
import sys

from ...errors import ExitCode, UsageError, WrongAnswer
from ..options import (
    dataset_file,
    dataset_rules,
    json_argument,
    memory_mb,
    non_negative_int,
    positive_float,
    positive_int,
    rules_arguments,
    where_arguments,
)

NAME = "judge"
HELP = "run a program on every puzzle of a dataset and judge it as an online judge does"
USAGE = "sudokulab judge DATASET [options] -- COMMAND [ARG ...]"

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dataset", help="dataset file (one-line puzzles or BOJ blocks), the name of a fetched set "
                        "(see 'sudokulab datasets list'), or - for stdin")
    parser.add_argument("--time-limit", type=positive_float, default=1.0, metavar="SECONDS",
                        help="wall time per puzzle (default: 1, as BOJ 2580)")
    parser.add_argument("--memory-limit", type=memory_mb, default=256, metavar="MB",
                        help="peak memory per run, what the program uses, not what it reserves (default: 256, "
                        "as BOJ 2580); java and node get heap flags sized from it unless you give "
                        "your own")
    parser.add_argument("--isolation", choices=("bwrap", "none"), default="bwrap",
                        help="bwrap: each run inside bubblewrap, no network, no files but its own "
                        "(default); none: trust the program, it runs with your rights")
    parser.add_argument("--limit", type=positive_int, metavar="K", help="judge the first K puzzles only")
    where_arguments(parser, "run the program", "runs at once (default: 1)")
    parser.add_argument("--shared-fs", action="store_true",
                        help="with --cluster: send nothing, the workers see the program's files at the same "
                        "(absolute) paths; by default the files the command names are sent to each worker")
    parser.add_argument("--show-failures", type=non_negative_int, default=3, metavar="K",
                        help="show the first K failures beside the oracle's answer (default: 3)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--wide", action="store_true", help="tables as wide as they get")
    rules_arguments(parser, "of every puzzle of the dataset")
    json_argument(parser, "one JSON Lines row per entry on stdout instead (the tables go to stderr)")
    parser.set_defaults(program=[])  # what follows --: cli.main puts it here (parser.split_program)


def run(args: argparse.Namespace) -> int:
    from ...datasets.reading import read_dataset
    from ...execution.sandbox import Limits
    from ...formats.boj import source_name
    from ...judge import run as judging
    from ...ui.console import console
    from ...verdicts.oracle import Oracle
    from ..render import judge_progress, render_failures, render_judge_summary

    if not args.program:
        raise UsageError("judge: name the program after --, e.g. sudokulab judge set.txt -- python3 solution.py")
    if args.shared_fs and not args.cluster:
        raise UsageError("judge: --shared-fs goes with --cluster")
    args.dataset = dataset_file(args.dataset)
    limits = Limits(args.time_limit, args.memory_limit or None, isolation=args.isolation)
    if args.isolation == "none":
        print("sudokulab: warning: --isolation none: the program is trusted; it runs with your rights, "
              "sees your files and the network", file=sys.stderr)
    elif not args.cluster:
        from ...execution.isolation import check

        check(args.isolation)  # before any output: where bubblewrap cannot run, one line and exit 2
    show = not args.quiet and sys.stderr.isatty()
    total = None
    rules = dataset_rules(args)
    if show and args.dataset != "-":  # a first pass to size the bar: parsing costs little beside running
        total = sum(1 for entry in judging.first_puzzles(read_dataset(args.dataset, rules=rules), args.limit)
                    if entry.ok)
    with judge_progress(total, source_name(args.dataset), enabled=show) as on_case, Oracle(None) as oracle:
        report = judging.judge_dataset(
            judging.first_puzzles(read_dataset(args.dataset, rules=rules), args.limit), args.program, limits,
            oracle=oracle, failures_shown=args.show_failures, jobs=args.jobs,
            on_case=_also_json_lines(on_case, judging.case_row) if args.json else on_case,
            cluster=args.cluster, shared_fs=args.shared_fs, on_note=_note,
        )
    summary = report.summary
    if not summary.runs and not summary.counts[judging.Outcome.INVALID_ENTRY]:
        raise UsageError(f"judge: no puzzles in '{source_name(args.dataset)}'")
    screen = console(stderr=args.json, wide=args.wide)
    render_failures(report.failures, oracle.name, screen)
    render_judge_summary(summary, limits, screen)
    if args.cluster:
        print(f"ran on {report.where}; batches run again after a worker died: {report.retried}",
              file=sys.stderr if args.json else sys.stdout)
    if not summary.all_accepted:
        accepted = summary.counts[judging.Outcome.ACCEPTED]
        raise WrongAnswer(f"{sum(summary.counts.values()) - accepted} of {sum(summary.counts.values())} "
                          "entries not accepted")
    return ExitCode.OK


def _note(text: str) -> None:
    """What the judge did to the command (flags for its runtime): one line on stderr, before the runs."""
    print(f"sudokulab: note: {text}", file=sys.stderr, flush=True)


def _also_json_lines(on_case: Any, row_of: Any) -> Any:
    """``on_case`` (the progress bar's) that also prints each case as a JSON Lines row on stdout."""
    from ...formats import documents

    def both(case: Any) -> None:
        documents.emit_line(row_of(case))
        sys.stdout.flush()
        on_case(case)

    return both
