"""One judged case: a run of the program on one puzzle and its verdict, as an online judge gives it.

Each puzzle is fed in BOJ form on standard input to a run under limits (``sandbox.run_program``,
inside bubblewrap unless the limits say ``isolation="none"``; the judge refuses to start, with one
line, where bubblewrap cannot run), and its output judged by the special judge (``verify.verify``).
The verdicts, in the order decided: time limit exceeded, output limit exceeded, memory limit
exceeded (the tree reached the limit, or a failed run shows evidence that memory ran out: so no
crash is blamed on memory without a sign of it), runtime error, then wrong answer (with the reason
from ``verify``) or accepted.

Each verdict's rule, and what counts as evidence of memory: docs/judge.md.
"""

from __future__ import annotations

import enum
import re
import signal
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.puzzle import Puzzle
from ..datasets.reading import Entry
from ..execution.sandbox import DEFAULT_LIMITS, Limits, Run, run_program
from ..formats.boj import format_puzzle, printable
from ..verdicts.verify import verify


class Outcome(enum.Enum):
    """The verdict on one dataset entry, named as an online judge names it."""

    ACCEPTED = "accepted"
    WRONG_ANSWER = "wrong answer"
    TIME_LIMIT = "time limit exceeded"
    MEMORY_LIMIT = "memory limit exceeded"
    OUTPUT_LIMIT = "output limit exceeded"
    RUNTIME_ERROR = "runtime error"
    INVALID_ENTRY = "invalid dataset entry"
    """Not a verdict on the program: the dataset line is no puzzle, so nothing was run."""


@dataclass(frozen=True)
class Case:
    """One dataset entry judged: where it is, the verdict and why, and the run behind it."""

    index: int
    line: int
    puzzle: Puzzle | None
    outcome: Outcome
    detail: str = ""
    run: Run | None = None

    @property
    def accepted(self) -> bool:
        return self.outcome is Outcome.ACCEPTED

    def __str__(self) -> str:
        return f"{self.outcome.value}: {self.detail}" if self.detail else self.outcome.value


def case_row(case: Case) -> dict[str, Any]:
    """One judged entry as a ``judge --json`` row (``schemas/judge.schema.json``)."""
    run = case.run
    return {"index": case.index, "line": case.line, "outcome": case.outcome.value, "accepted": case.accepted,
            "detail": case.detail or None, "seconds": None if run is None else run.seconds,
            "peak_rss_kb": None if run is None else run.peak_rss_kb,
            "exit_code": None if run is None else run.exit_code, "signal": None if run is None else run.signal}


OUTPUT_KEPT = 4096
"""Bytes of a failed run's standard output a results file keeps (``journal_row``), to show it again."""


def journal_row(case: Case) -> dict[str, Any]:
    """One judged entry as a ``judge --output`` row: its ``--json`` row, the puzzle's key (``Entry.key``),
    and the start of a failed run's output, so a resumed run can show the failure again."""
    row = case_row(case) | {"puzzle": "" if case.puzzle is None else Entry(case.index, case.line, case.puzzle).key}
    if case.run is not None and not case.accepted:
        row["output"] = case.run.stdout[:OUTPUT_KEPT].decode("utf-8", "replace")
    return row


def case_from_row(row: Mapping[str, Any], entry: Entry) -> Case:
    """A judged entry back from its ``journal_row``, for its ``entry``: the verdict, the run's figures
    and the start of its output (the rest of its output and its error output are not kept)."""
    outcome = Outcome(row["outcome"])
    run = None
    if row.get("seconds") is not None:
        run = Run(row.get("output", "").encode(), b"", row.get("exit_code"), row.get("signal"), float(row["seconds"]),
                  int(row.get("peak_rss_kb") or 0), timed_out=outcome is Outcome.TIME_LIMIT,
                  output_overflow=outcome is Outcome.OUTPUT_LIMIT)
    return Case(entry.index, entry.line, entry.puzzle, outcome, row.get("detail") or "", run)


_OUT_OF_MEMORY = re.compile(
    rb"MemoryError|OutOfMemoryError|bad_alloc|heap out of memory|out of memory|Cannot allocate memory", re.I
)


def judge_run(puzzle: Puzzle, run: Run, limits: Limits = DEFAULT_LIMITS) -> tuple[Outcome, str]:
    """The verdict on one run and its reason (the rules and their order: docs/judge.md)."""
    if run.timed_out:
        return Outcome.TIME_LIMIT, f"still running after {limits.seconds:g} s"
    if run.output_overflow:
        return Outcome.OUTPUT_LIMIT, f"more than {limits.output_bytes} bytes of output"
    if limits.memory_mb and run.memory_exceeded:  # the whole tree's memory: its group's, or the launcher's samples
        failure = f"{_failure(run)}; " if run.exit_code != 0 else ""
        return Outcome.MEMORY_LIMIT, (f"{failure}peak memory {run.peak_rss_kb // 1024} MB, limit {limits.memory_mb} "
                                      "MB, reached by its processes together")
    if run.exit_code == 0 and limits.memory_mb and run.peak_rss_kb > limits.memory_mb * 1024:  # shared maps count
        return Outcome.MEMORY_LIMIT, f"peak memory {run.peak_rss_kb // 1024} MB, limit {limits.memory_mb} MB"
    if run.exit_code != 0:
        failure = _failure(run)
        if limits.memory_mb and (
            run.peak_rss_kb >= 0.9 * limits.memory_mb * 1024 or _OUT_OF_MEMORY.search(run.stderr)
        ):
            peak = f"peak memory {run.peak_rss_kb // 1024} MB, limit {limits.memory_mb} MB"
            return Outcome.MEMORY_LIMIT, f"{failure}; {peak}"
        return Outcome.RUNTIME_ERROR, failure
    verdict = verify(puzzle, run.stdout)
    return (Outcome.ACCEPTED, "") if verdict.accepted else (Outcome.WRONG_ANSWER, verdict.reason or "")


def _failure(run: Run) -> str:
    """How a run failed in words: the signal by name, or the exit code and its last error line."""
    if run.signal is not None:
        try:
            name = signal.Signals(run.signal).name
        except ValueError:
            name = f"signal {run.signal}"
        words = signal.strsignal(run.signal)
        return f"killed by signal {run.signal} ({name}{', ' + words.lower() if words else ''})"
    lines = [line.strip() for line in run.stderr.decode("utf-8", "replace").splitlines() if line.strip()]
    last = f" ({printable(lines[-1][:120])})" if lines else ""  # the program's words, shown on a terminal
    return f"exit code {run.exit_code}{last}"


def judge_entry(entry: Entry, command: Sequence[str], limits: Limits = DEFAULT_LIMITS) -> Case:
    """One dataset entry: run the program on its puzzle and judge the run (nothing runs for a bad entry)."""
    if entry.puzzle is None:
        return Case(entry.index, entry.line, None, Outcome.INVALID_ENTRY, entry.error or "")
    run = run_program(command, format_puzzle(entry.puzzle).encode(), limits)
    outcome, detail = judge_run(entry.puzzle, run, limits)
    return Case(entry.index, entry.line, entry.puzzle, outcome, detail, run)
