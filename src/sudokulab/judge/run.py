"""Judge a program over a dataset, as an online judge does: one run per puzzle, one verdict each.

Each puzzle is fed in BOJ form on standard input to a run under limits (``sandbox.run_program``,
inside bubblewrap unless ``isolation="none"``), and its output judged by the special judge
(``verify.verify``). The program judged is fixed before the first run (``judged_program``: its
files copied read-only, its interpreter the one the user's shell would run), a runtime that sizes
its memory from the machine gets flags sized from the limit (``runtime_flags``), and what a program
writes reaches every detail escaped (``formats.boj.printable``). On a Dask cluster (``cluster=``)
batches of entries are judged on the workers by the same verdict loop as a local run, so the
verdict of one run, the cases of a dataset and their spread over executors live together.

The verdicts in the order decided, memory evidence, variant rules and clusters: docs/judge.md.
"""

from __future__ import annotations

import enum
import os
import re
import shutil
import signal
import tarfile
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.puzzle import Puzzle
from ..datasets.reading import Entry
from ..errors import UsageError
from ..execution import isolation
from ..execution.sandbox import DEFAULT_LIMITS, Limits, Run, run_program, stop_all
from ..formats.boj import format_puzzle, printable
from ..verdicts.oracle import Oracle
from ..verdicts.verify import verify
from .program import Program, fixed_program, pack_program, unpack_program
from .runtime_flags import sized_for

if TYPE_CHECKING:
    from ..execution.executors import Executor


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
    """The verdict on one run and its reason (see the module docstring for the rules and order)."""
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


def first_puzzles(entries: Iterable[Entry], limit: int | None) -> Iterator[Entry]:
    """The entries up to and including the ``limit``-th puzzle (bad entries on the way included)."""
    taken = 0
    for entry in entries:
        if limit is not None and taken >= limit:
            return
        taken += entry.ok
        yield entry


def judge_entry(entry: Entry, command: Sequence[str], limits: Limits = DEFAULT_LIMITS) -> Case:
    """One dataset entry: run the program on its puzzle and judge the run (nothing runs for a bad entry)."""
    if entry.puzzle is None:
        return Case(entry.index, entry.line, None, Outcome.INVALID_ENTRY, entry.error or "")
    run = run_program(command, format_puzzle(entry.puzzle).encode(), limits)
    outcome, detail = judge_run(entry.puzzle, run, limits)
    return Case(entry.index, entry.line, entry.puzzle, outcome, detail, run)


def judge_cases(
    entries: Iterable[Entry], command: Sequence[str], limits: Limits = DEFAULT_LIMITS, *, jobs: int = 1,
    cluster: str | Executor | None = None, shared_fs: bool = False, batch_size: int = 4,
    on_note: Callable[[str], None] | None = None,
) -> Iterator[Case]:
    """Run the program on every puzzle of the entries and judge each run, in dataset order.

    With ``jobs`` > 1 that many runs go at once (wall times then include the contention). With
    ``cluster`` (an address, ``local:N``, or an executor from ``cluster.connect``), batches of
    ``batch_size`` entries run on the cluster's workers, one run at a time per worker thread
    (see the module docstring for how the program gets there). ``on_note`` hears, before the first
    run, the flags added for the program's runtime, if any.
    """
    sized = sized_for(command, limits.memory_mb)
    if sized.note and on_note is not None:
        on_note(sized.note)
    if cluster is not None:
        _one_way(jobs)
        yield from _judge_on_cluster(entries, sized.command, limits, cluster, shared_fs, batch_size)
        return
    isolation.check(limits.isolation)
    with fixed_program(sized.command) as fixed:
        yield from _judge_here(entries, fixed, limits, jobs)


def _judge_here(entries: Iterable[Entry], command: Sequence[str], limits: Limits, jobs: int) -> Iterator[Case]:
    def judge_one(entry: Entry) -> Case:
        return judge_entry(entry, command, limits)

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


# --- on a cluster --------------------------------------------------------------------------------

def _one_way(jobs: int) -> None:
    if jobs > 1:
        raise UsageError("judge: --jobs runs on this machine; with --cluster each worker thread judges one "
                         "run at a time: drop --jobs")


def _worker_name(worker: Any = None) -> str:
    try:
        if worker is None:
            from distributed import get_worker

            worker = get_worker()
        return f"worker {worker.address}"
    except (ImportError, ValueError, AttributeError):
        return f"host {os.uname().nodename}"


def program_problem(program: Program, isolation_asked: str = "none", dask_worker: Any = None) -> str:
    """Run on each worker before any run (Dask's ``client.run`` passes the worker): '' when the command
    can run there, else one line why not."""
    where = _worker_name(dask_worker)
    try:
        command = unpack_program(program, getattr(dask_worker, "local_directory", None))
    except (OSError, tarfile.TarError, StopIteration) as exc:
        return f"judge: cannot unpack the program on {where}: {exc}"
    except UsageError as exc:  # a shim that names no interpreter there
        return f"{exc} (on {where})"
    if shutil.which(command[0]) is None:
        return (f"judge: cannot run '{program.command[0]}' on {where}: no such program there, or not "
                "executable; install it on every worker")
    if isolation_asked == "bwrap" and isolation.bwrap_problem():
        return (f"judge: {isolation.bwrap_problem()} on {where}; {isolation.INSTALL_HINT} there, "
                "or give --isolation none")
    for position in program.shared:
        if not Path(command[position]).exists():
            return (f"judge: '{command[position]}' is missing on {where}: with --shared-fs every worker "
                    "must see it at that path (give absolute paths), or drop --shared-fs to send it")
    return ""


@dataclass(frozen=True)
class JudgeTask:
    """A batch of entries to judge on a worker: its place in the run, the entries, the program, the limits."""

    number: int
    entries: tuple[Entry, ...]
    program: Program
    limits: Limits


_STOPPED = threading.Event()
"""Set in a worker process whose runs were stopped (``stop_runs``): its batches start no new run."""


def stop_runs() -> None:
    """End every run in progress in this process, and start no more: run on each worker of a local cluster
    before it is closed (``DaskExecutor.on_close``)."""
    _STOPPED.set()
    stop_all()


def judge_batch(task: JudgeTask) -> list[Case]:
    """Run on a worker: judge each entry of a batch, one run at a time, in its sandbox."""
    command = unpack_program(task.program)
    cases = []
    try:
        for entry in task.entries:
            if _STOPPED.is_set():  # the run was stopped: this batch's result will not be read
                raise UsageError("judge: stopped")
            cases.append(judge_entry(entry, command, task.limits))
    except UsageError as exc:
        raise UsageError(f"judge on {_worker_name()}: {exc}") from None
    return cases


def _judge_on_cluster(entries: Iterable[Entry], command: Sequence[str], limits: Limits,
                      cluster: str | Executor, shared_fs: bool, batch_size: int) -> Iterator[Case]:
    from ..execution.cluster import executor_for

    program = pack_program(command, shared_fs=shared_fs)
    with executor_for(cluster) as executor:
        on_close = getattr(executor, "on_close", None)
        if on_close is not None:  # a local cluster closed mid-run ends the runs in progress on its workers
            on_close(stop_runs)
        run_on_workers = getattr(executor, "run_on_workers", None)
        if run_on_workers is not None:
            for _, problem in sorted(run_on_workers(program_problem, program, limits.isolation).items()):
                if problem:
                    raise UsageError(problem)
        tasks = (JudgeTask(number, tuple(batch), program, limits)
                 for number, batch in enumerate(_batches(entries, max(1, batch_size))))
        waiting: dict[int, list[Case]] = {}
        following = 0
        for task, cases in executor.imap(judge_batch, tasks):
            waiting[task.number] = cases
            while following in waiting:  # back into dataset order
                yield from waiting.pop(following)
                following += 1


def _batches(entries: Iterable[Entry], size: int) -> Iterator[list[Entry]]:
    batch: list[Entry] = []
    for entry in entries:
        batch.append(entry)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


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
    where: str = "this process"
    """Where the runs ran (``Executor.describe()`` on a cluster)."""
    retried: int = 0
    """Batches run again because a cluster worker died while holding them."""
    notes: tuple[str, ...] = ()
    """What the judge did to the command before the first run (``judge_cases``' ``on_note``)."""
    stopped: bool = False
    """A signal stopped the run: the summary covers the entries decided before it."""


def judge_dataset(
    entries: Iterable[Entry],
    command: Sequence[str],
    limits: Limits = DEFAULT_LIMITS,
    *,
    oracle: Oracle | None = None,
    failures_shown: int = 3,
    jobs: int = 1,
    on_case: Callable[[Case], None] | None = None,
    cluster: str | Executor | None = None,
    shared_fs: bool = False,
    on_note: Callable[[str], None] | None = None,
    kept: Mapping[int, Case] | None = None,
    on_stopped: Callable[[JudgeReport], None] | None = None,
) -> JudgeReport:
    """Judge a program over dataset entries; ``on_case`` sees each case as it is decided, ``on_note``
    each note on the command (flags added for its runtime) before the first run.

    ``cluster``: an address or ``local:N`` (connected here and closed at the end), or an executor
    (left open); see ``judge_cases``. ``kept``: cases decided by an earlier run, by entry index, not
    run again (``judge --output``); they count and are seen by ``on_case`` in their place.
    ``on_stopped``: when Ctrl-C or a stopping signal ends the run, it is given the report of the
    entries decided so far (``stopped`` True) before the signal goes on.
    """
    from contextlib import nullcontext

    opened: Any = nullcontext(None)
    if cluster is not None:
        from ..execution.cluster import executor_for

        _one_way(jobs)  # before a local cluster is started for nothing
        opened = executor_for(cluster)
    with opened as executor:
        counts = dict.fromkeys(Outcome, 0)
        seconds: list[float] = []
        peak = 0
        failures: list[Failure] = []
        notes: list[str] = []

        def note(text: str) -> None:
            notes.append(text)
            if on_note is not None:
                on_note(text)

        def judged(todo: Iterable[Entry]) -> Iterator[Case]:
            return judge_cases(todo, command, limits, jobs=jobs, cluster=executor, shared_fs=shared_fs, on_note=note)

        def report(stopped: bool = False) -> JudgeReport:
            where = executor.describe() if executor is not None else ("this process" if jobs <= 1 else
                                                                        f"{jobs} runs at once on this machine")
            retried = executor.retried if executor is not None else 0
            return JudgeReport(JudgeSummary(counts, tuple(seconds), peak), tuple(failures), where, retried,
                               tuple(notes), stopped)

        try:
            for case in judged(entries) if not kept else _with_kept(list(entries), kept, judged):
                counts[case.outcome] += 1
                if case.run is not None:
                    seconds.append(case.run.seconds)
                    peak = max(peak, case.run.peak_rss_kb)
                if case.puzzle is not None and not case.accepted and len(failures) < failures_shown:
                    failures.append(Failure(case, oracle.answer_text(case.puzzle) if oracle else ""))
                if on_case:
                    on_case(case)
        except KeyboardInterrupt:  # Ctrl-C, SIGTERM, SIGHUP: what was decided is shown, then the signal goes on
            if on_stopped is not None:
                on_stopped(report(stopped=True))
            raise
        done = report()
    return done


def _with_kept(entries: Sequence[Entry], kept: Mapping[int, Case],
               judged: Callable[[Iterable[Entry]], Iterator[Case]]) -> Iterator[Case]:
    """Every entry's case in dataset order: an earlier run's where ``kept`` has it, else judged now."""
    fresh = judged([entry for entry in entries if entry.index not in kept])
    for entry in entries:
        yield kept[entry.index] if entry.index in kept else next(fresh)
    next(fresh, None)  # to its end, so its pool or cluster knows the work is done
