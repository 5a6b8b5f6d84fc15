"""``sudokulab judge``: a program run on every puzzle of a dataset and judged as an online judge does.

More: docs/judge.md.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from statistics import fmean, median

from ...datasets.reading import no_puzzle, read_dataset
from ...errors import ExitCode, UsageError, WrongAnswer
from ...execution.isolation import check
from ...execution.sandbox import Limits
from ...formats import documents
from ...formats.boj import format_puzzle, printable, source_name
from ...formats.outputs import OutputError
from ...formats.resumable import ResumableOutput
from ...judge import cases
from ...judge import run as judging
from ...judge.cases import Outcome
from ...judge.program import program_digest
from ...ui.console import as_text, console, prose
from ...ui.progress import progress
from ...ui.tables import Column, print_table
from ...verdicts.oracle import Oracle
from ..options import (
    dataset_file,
    dataset_rules,
    json_argument,
    memory_mb,
    non_negative_int,
    positive_float,
    positive_int,
    rule_digests,
    rules_arguments,
    where_arguments,
)

USAGE = "sudokulab judge DATASET [options] -- COMMAND [ARG ...]"

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from rich.console import Console

    from ...datasets.reading import Entry
    from ...execution.sandbox import Limits
    from ...judge.cases import Case
    from ...judge.run import Failure, JudgeSummary


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
    parser.add_argument("--output", metavar="FILE.jsonl",
                        help="each entry's row (as --json prints it), written as it is judged; the next run with "
                        "the same program (its files' bytes), limits and options judges only the entries not in it")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--wide", action="store_true", help="tables as wide as they get")
    rules_arguments(parser, "of every puzzle of the dataset")
    json_argument(parser, "one JSON Lines row per entry on stdout instead (the tables go to stderr)")
    parser.set_defaults(program=[])  # what follows --: cli.main puts it here (parser.split_program)


def run(args: argparse.Namespace) -> int:

    if not args.program:
        raise UsageError("judge: name the program after --, e.g. sudokulab judge set.txt -- python3 solution.py")
    if args.shared_fs and not args.cluster:
        raise UsageError("judge: --shared-fs goes with --cluster")
    args.dataset = dataset_file(args.dataset)
    limits = Limits(args.time_limit, args.memory_limit or None, isolation=args.isolation)
    if args.isolation == "none":
        prose("sudokulab: warning: --isolation none: the program is trusted; it runs with your rights, "
              "sees your files and the network", stderr=True, indent="  ")
    elif not args.cluster:

        check(args.isolation)  # before any output: where bubblewrap cannot run, one line and exit 2
    show = not args.quiet and sys.stderr.isatty()
    total = None
    rules = dataset_rules(args)
    if show and args.dataset != "-":  # a first pass to size the bar: parsing costs little beside running
        total = sum(1 for entry in judging.first_puzzles(read_dataset(args.dataset, rules=rules), args.limit)
                    if entry.ok)
    journal = None
    if args.output is not None:
        if not args.output.lower().endswith(".jsonl"):
            raise UsageError(f"judge: --output {args.output}: the name must end in .jsonl (a row per entry)")
        journal = ResumableOutput(args.output, "judge", {
            "version": _version(), "program": program_digest(args.program), "time_limit": limits.seconds,
            "memory_limit": limits.memory_mb, "isolation": limits.isolation, **rule_digests(args)})
    entries = judging.first_puzzles(read_dataset(args.dataset, rules=rules), args.limit)
    with journal or nullcontext(), judge_progress(total, source_name(args.dataset), enabled=show) as on_case, \
            Oracle(None) as oracle:
        kept: dict[int, Case] = {}
        if journal is not None:
            entries, kept = _kept(journal, list(entries))
            on_case = _also_journal(on_case, journal, kept)
        stopped: list[judging.JudgeReport] = []
        try:
            report = judging.judge_dataset(
                entries, args.program, limits, oracle=oracle, failures_shown=args.show_failures, jobs=args.jobs,
                on_case=_also_json_lines(on_case, cases.case_row) if args.json else on_case,
                cluster=args.cluster, shared_fs=args.shared_fs, on_note=_note, kept=kept,
                on_stopped=stopped.append)
        except KeyboardInterrupt:  # Ctrl-C, SIGTERM, SIGHUP: what was judged is shown, then the signal goes on
            if stopped:
                _show(args, stopped[0], limits, oracle.name)
            raise
    summary = report.summary
    if not summary.runs and not summary.counts[judging.Outcome.INVALID_ENTRY]:
        raise no_puzzle(source_name(args.dataset))
    _show(args, report, limits, oracle.name)
    if not summary.all_accepted:
        accepted = summary.counts[judging.Outcome.ACCEPTED]
        raise WrongAnswer(f"{sum(summary.counts.values()) - accepted} of {sum(summary.counts.values())} "
                          "entries not accepted")
    return ExitCode.OK


def _show(args: argparse.Namespace, report: judging.JudgeReport, limits: Limits, oracle_name: str) -> None:
    """The failures and the summary table (on stderr with --json); a stopped run's marked partial, and with
    --json its last row the partial summary."""
    screen = console(stderr=args.json, wide=args.wide)
    render_failures(report.failures, oracle_name, screen)
    render_judge_summary(report.summary, limits, screen)
    if args.cluster:
        prose(f"ran on {report.where}; batches run again after a worker died: {report.retried}", stderr=args.json)
    if report.stopped:
        decided = sum(report.summary.counts.values())
        resume = f"; the same command resumes from {args.output}" if args.output else ""
        prose(f"stopped by a signal after {decided:,} entries: the summary covers the entries judged{resume}",
              stderr=args.json)
        if args.json:
            documents.emit_line(summary_row(report))
            sys.stdout.flush()


def summary_row(report: judging.JudgeReport) -> dict[str, Any]:
    """The last ``--json`` row of a stopped run (``schemas/judge.schema.json``, ``summary``)."""
    summary = report.summary
    return {"summary": True, "partial": report.stopped, "entries": sum(summary.counts.values()),
            "counts": {outcome.value: count for outcome, count in summary.counts.items()}, "runs": summary.runs,
            "seconds": round(sum(summary.seconds), 6), "peak_rss_kb": summary.peak_rss_kb}


def _kept(journal: ResumableOutput, entries: list[Entry]) -> tuple[list[Entry], dict[int, Case]]:
    """The entries, and the cases an earlier run left in ``--output`` for those of them whose puzzle is the
    same (by index), with a note of how many are spared."""
    try:
        rows = {row["index"]: row for row in journal.open()}
        kept = {entry.index: cases.case_from_row(rows[entry.index], entry) for entry in entries
                if entry.index in rows and rows[entry.index].get("puzzle") == entry.key}
    except (KeyError, TypeError, ValueError) as exc:
        raise OutputError(f"cannot resume '{journal.name}': a row is not a judged entry ({type(exc).__name__}: "
                          f"{exc}); give another --output, or remove it") from None
    if kept:
        _note(f"judge: {len(kept):,} of {len(entries):,} entries judged already in {journal.name}: judging the "
              f"other {len(entries) - len(kept):,}")
    return entries, kept


def _also_journal(on_case: Any, journal: ResumableOutput, kept: dict[int, Case]) -> Any:
    """``on_case`` that also writes each case judged now to the results file."""

    def both(case: Case) -> None:
        if kept.get(case.index) is not case:
            journal.write(cases.journal_row(case))
        on_case(case)

    return both


def _version() -> str:
    import sudokulab

    return sudokulab.__version__


def _note(text: str) -> None:
    """What the judge did to the command (flags for its runtime): one line on stderr, before the runs."""
    prose(f"sudokulab: note: {text}", stderr=True, indent="  ")


def _also_json_lines(on_case: Any, row_of: Any) -> Any:
    """``on_case`` (the progress bar's) that also prints each case as a JSON Lines row on stdout."""

    def both(case: Any) -> None:
        documents.emit_line(row_of(case))
        sys.stdout.flush()
        on_case(case)

    return both


@contextmanager
def judge_progress(total: int | None, dataset: str, *, enabled: bool = True) -> Iterator[Callable[[Case], None]]:
    """A progress bar while judging; yields the ``on_case`` hook for ``judge.judge_dataset``.

    Invalid dataset entries are reported above the bar as they come, with their line numbers.
    """

    with progress(total, enabled=enabled, label="judging") as bar:
        task = bar.task_ids[0]
        accepted = 0

        def on_case(case: Case) -> None:
            nonlocal accepted
            accepted += case.accepted
            bar.update(task, advance=1, tally=f"{accepted} accepted")
            if case.outcome is Outcome.INVALID_ENTRY:
                bar.console.print(as_text(f"sudokulab: {dataset}: {case.detail}"))

        yield on_case


def render_judge_summary(summary: JudgeSummary, limits: Limits, out: Console) -> None:
    """The verdict counts and time figures as a table."""

    shown = [(outcome, count) for outcome, count in summary.counts.items()
             if count or outcome is not Outcome.INVALID_ENTRY]
    print_table(out, [Column("verdict"), Column("count", "right")],
                [[outcome.value, str(count)] for outcome, count in shown], title="judge summary",
                styles=["green" if outcome is Outcome.ACCEPTED else ("red" if count else "dim")
                        for outcome, count in shown])
    if summary.seconds:

        times = summary.seconds
        memory = f"{limits.memory_mb} MB" if limits.memory_mb else "none"
        out.print(as_text(
            f"runs: {len(times)}; time per run: min {min(times):.3f} s, median {median(times):.3f} s, "
            f"mean {fmean(times):.3f} s, max {max(times):.3f} s; total {sum(times):.2f} s "
            f"(limit {limits.seconds:g} s)\npeak memory: {summary.peak_rss_kb / 1024:.1f} MB (limit {memory})"
        ))


def render_failures(failures: Sequence[Failure], oracle_name: str, out: Console) -> None:
    """Each failure: the puzzle, the program's output and the oracle's answer side by side."""
    for failure in failures:
        case = failure.case
        if case.puzzle is None:
            continue
        n = case.puzzle.n
        # the detail quotes the program: escaped where it is made, and again here
        out.print(as_text(f"puzzle {case.index + 1} (dataset line {case.line}): {printable(str(case))}"))
        output = clip_output(case.run.stdout if case.run else b"", n, cut=bool(case.run and case.run.output_overflow))
        print_table(out, [Column("puzzle"), Column("program output"), Column(f"oracle ({oracle_name})")],
                    [[format_puzzle(case.puzzle).rstrip("\n"), output, failure.oracle_answer.rstrip("\n")]])


def clip_output(data: bytes, n: int, *, cut: bool = False) -> str:
    """A program's output for display: at most n + 2 lines of at most 3n characters, control characters
    shown, then how many lines were left out, counted over all of ``data`` ("at least" when ``cut``:
    the output passed the output limit and was read no further).

    >>> clip_output(b"1 2\\x1b[31m\\n", 9)
    '1 2\\\\x1b[31m'
    >>> clip_output(b"7\\n" * 1000, 1)
    '7\\n7\\n7\\n… (997 more lines)'
    """
    text = data[: 64 * 1024].decode("utf-8", "replace").replace("\r", "")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    shown = [printable(line if len(line) <= 3 * n else line[: 3 * n - 1] + "…") for line in lines[: n + 2]]
    total = data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)  # all of them, not the first 64 KB's
    if cut:
        shown.append(f"… (at least {max(total - len(shown), 0)} more lines)")  # read no further than the limit
    elif total > len(shown):
        shown.append(f"… ({total - len(shown)} more lines)")
    return "\n".join(shown) if shown else "(no output)"
