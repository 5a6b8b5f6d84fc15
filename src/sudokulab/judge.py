"""Judge a program over a dataset, as an online judge does: one run per puzzle, one verdict each.

Each puzzle is fed in BOJ form on standard input to a run under limits (``sandbox.run_program``),
and its output judged by the special judge (``verify.verify``). Verdicts, in the order decided:

- *time limit exceeded*: still running at the time limit (wall time);
- *output limit exceeded*: more than the output limit on standard output;
- *memory limit exceeded*: the program failed (non-zero exit or signal) and there is evidence that
  memory ran out: its peak resident memory reached 90% of the limit, or its error output names an
  out-of-memory error (Python MemoryError, Java OutOfMemoryError, C++ bad_alloc, V8 "heap out of
  memory", "Cannot allocate memory"). A failure without such evidence is a runtime error, so no
  crash is blamed on memory without a sign of it;
- *runtime error*: non-zero exit code, or killed by a signal (named);
- *wrong answer* (with the reason from ``verify``) or *accepted*.

A dataset entry that is no puzzle is an *invalid dataset entry*: counted, named with its line, and
nothing is run for it.
"""

from __future__ import annotations

import enum
import re
import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from .boj import format_puzzle
from .datasets import Entry
from .grid import Puzzle
from .oracle import Oracle
from .sandbox import DEFAULT_LIMITS, Limits, Run, run_program, stop_all
from .verify import verify


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


_OUT_OF_MEMORY = re.compile(
    rb"MemoryError|OutOfMemoryError|bad_alloc|heap out of memory|out of memory|Cannot allocate memory", re.I
)


def judge_run(puzzle: Puzzle, run: Run, limits: Limits = DEFAULT_LIMITS) -> tuple[Outcome, str]:
    """The verdict on one run and its reason (see the module docstring for the rules and order)."""
    if run.timed_out:
        return Outcome.TIME_LIMIT, f"still running after {limits.seconds:g} s"
    if run.output_overflow:
        return Outcome.OUTPUT_LIMIT, f"more than {limits.output_bytes} bytes of output"
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
    last = f" ({lines[-1][:120]})" if lines else ""
    return f"exit code {run.exit_code}{last}"


def first_puzzles(entries: Iterable[Entry], limit: int | None) -> Iterator[Entry]:
    """The entries up to and including the ``limit``-th puzzle (bad entries on the way included)."""
    taken = 0
    for entry in entries:
        if limit is not None and taken >= limit:
            return
        taken += entry.ok
        yield entry


def judge_cases(
    entries: Iterable[Entry], command: Sequence[str], limits: Limits = DEFAULT_LIMITS, *, jobs: int = 1
) -> Iterator[Case]:
    """Run the program on every puzzle of the entries and judge each run, in dataset order.

    With ``jobs`` > 1 that many runs go at once (wall times then include the contention).
    """

    def judge_one(entry: Entry) -> Case:
        if entry.puzzle is None:
            return Case(entry.index, entry.line, None, Outcome.INVALID_ENTRY, entry.error or "")
        run = run_program(command, format_puzzle(entry.puzzle).encode(), limits)
        outcome, detail = judge_run(entry.puzzle, run, limits)
        return Case(entry.index, entry.line, entry.puzzle, outcome, detail, run)

    if jobs <= 1:
        yield from map(judge_one, entries)
        return
    pool = ThreadPoolExecutor(jobs)
    window: deque = deque()
    try:
        for entry in entries:
            window.append(pool.submit(judge_one, entry))
            if len(window) >= 2 * jobs:
                yield window.popleft().result()
        while window:
            yield window.popleft().result()
    except BaseException:  # Ctrl-C or a closed generator: stop the runs in progress, drop the queued
        pool.shutdown(wait=False, cancel_futures=True)
        stop_all()
        raise
    pool.shutdown()


@dataclass(frozen=True)
class JudgeSummary:
    """Counts per verdict and the time figures of a judge run."""

    counts: Mapping[Outcome, int]
    seconds: tuple[float, ...] = ()
    """Wall time of every run, in dataset order (a timed-out run counts the limit)."""
    peak_rss_kb: int = 0

    @property
    def runs(self) -> int:
        return len(self.seconds)

    @property
    def all_accepted(self) -> bool:
        """True when every entry was a puzzle and every run was accepted (and there was one)."""
        return self.runs > 0 and self.counts.get(Outcome.ACCEPTED, 0) == sum(self.counts.values())


@dataclass(frozen=True)
class Failure:
    """A failed case with what the oracle answers for its puzzle, for showing side by side."""

    case: Case
    oracle_answer: str


@dataclass(frozen=True)
class JudgeReport:
    """A judge run: the summary, and the first failures with the oracle's answers."""

    summary: JudgeSummary
    failures: tuple[Failure, ...] = field(default_factory=tuple)


def judge_dataset(
    entries: Iterable[Entry],
    command: Sequence[str],
    limits: Limits = DEFAULT_LIMITS,
    *,
    oracle: Oracle | None = None,
    failures_shown: int = 3,
    jobs: int = 1,
    on_case: Callable[[Case], None] | None = None,
) -> JudgeReport:
    """Judge a program over dataset entries; ``on_case`` sees each case as it is decided."""
    counts = dict.fromkeys(Outcome, 0)
    seconds: list[float] = []
    peak = 0
    failures: list[Failure] = []
    for case in judge_cases(entries, command, limits, jobs=jobs):
        counts[case.outcome] += 1
        if case.run is not None:
            seconds.append(case.run.seconds)
            peak = max(peak, case.run.peak_rss_kb)
        if case.puzzle is not None and not case.accepted and len(failures) < failures_shown:
            failures.append(Failure(case, oracle.answer_text(case.puzzle) if oracle else ""))
        if on_case:
            on_case(case)
    return JudgeReport(JudgeSummary(counts, tuple(seconds), peak), tuple(failures))
