"""The BOJ special judge for an answer, the SAT oracle beside it, and a judge of whole programs.

**verify** reads an answer the way the BOJ judge compares output: line by line, where the only
differences forgiven are those BOJ forgives. Exactly tolerated:

- spaces, tabs and carriage returns at the end of a line (so CRLF line ends are fine);
- a missing newline after the last line;
- blank (or whitespace-only) lines after the board.

Everything else is a wrong answer, with the first reason in reading order: a blank line inside the
board, a line that starts with a space, two spaces or a tab between numbers, a line with the wrong
count of numbers, a word that is no number, a number outside 1..n, fewer or more than n lines, and
then the rules: a given changed, a digit twice in a row, column or box (those two messages come from
``grid.solution_error``, the one independent checker). The special judge accepts any completion, as
BOJ 2580 does; the oracle then tells a valid-but-different answer from the canonical one.

**The oracle** is the SAT solver (``ORACLE``): it counts the solutions up to two and finds the
lexicographically first one, the answer of the classic backtracker.

**judge** runs a program once per puzzle with the puzzle in BOJ form on standard input, as an online
judge does. The run is safe by construction: no shell; its own session and process group, killed
whole at the time limit and as soon as the program itself ends (so a forked child that lingers goes
too); output read through a selector up to ``OUTPUT_LIMIT`` bytes; memory bounded by ``RLIMIT_DATA``.
A child that starts a session of its own (``setsid``) escapes the group kill: that takes a container.
A small launcher process starts the program and reports its exit status, wall time and peak
resident memory (see ``_LAUNCHER`` for why); every peak figure includes the launcher's ~7 MB image.

Verdicts, in the order they are decided:

- *time limit exceeded*: still running at the time limit (wall time);
- *output limit exceeded*: more than ``OUTPUT_LIMIT`` bytes on standard output;
- *memory limit exceeded*: the program failed (non-zero exit or signal) and there is evidence that
  memory ran out: its peak resident memory reached 90% of the limit, or its error output names an
  out-of-memory error (Python MemoryError, Java OutOfMemoryError, C++ bad_alloc, V8 "heap out of
  memory", "Cannot allocate memory"). A failure without such evidence is a runtime error, so no
  crash is blamed on memory without a sign of it;
- *runtime error*: non-zero exit code, or killed by a signal (named);
- *wrong answer* (with the reason from ``verify``) or *accepted*.

Why ``RLIMIT_DATA`` and not ``RLIMIT_AS``: the address-space limit counts memory that runtimes
reserve and never touch, so at 256 MB Node.js (V8's code range) and the JVM cannot even start. The
data limit counts the private writable memory a program actually asks for (heap, anonymous maps).
Java still needs a heap flag at 256 MB (``java -Xmx128m ...``) or ``--memory-limit 0`` (no limit).
"""

from __future__ import annotations

import enum
import math
import os
import re
import selectors
import signal
import statistics
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING

from . import solvers
from .boj import INTEGER, decode, format_grid, format_puzzle
from .datasets import Entry
from .errors import PuzzleFormatError, UsageError
from .grid import Grid, Puzzle, solution_error
from .solvers.base import Solver, Status

if TYPE_CHECKING:
    from rich.console import Console

ORACLE = "sat"
"""The registered solver that answers for the truth: counts solutions and finds the canonical one."""

OUTPUT_LIMIT = 1 << 20
"""Bytes of a program's standard output read at most; more is "output limit exceeded"."""

STDERR_KEPT = 4096
"""Bytes of a program's standard error kept (the last ones), to name its error."""

# ---------------------------------------------------------------------------------------------
# verify: the special judge
# ---------------------------------------------------------------------------------------------

_TRAILING = " \t\r"
_SPACE_NAMES = {" ": "a space", "\t": "a tab", "\r": "a carriage return", "\f": "a form feed", "\v": "a vertical tab"}


@dataclass(frozen=True)
class Verdict:
    """The special judge's word on one answer: accepted, or the first reason it is wrong."""

    reason: str | None = None
    grid: Grid | None = None
    """The answer as a board, when it read as n lines of n numbers in 1..n (even if wrong)."""

    @property
    def accepted(self) -> bool:
        return self.reason is None

    def __str__(self) -> str:
        return "accepted" if self.reason is None else f"wrong answer: {self.reason}"


def verify(puzzle: Puzzle, answer: str | bytes) -> Verdict:
    """Judge an answer text against the puzzle as BOJ 2580's special judge does.

    >>> from sudokulab.grid import Puzzle
    >>> p = Puzzle.from_rows([[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 0]])
    >>> str(verify(p, "1 2 3 4\\n3 4 1 2\\n2 1 4 3\\n4 3 2 1  \\r\\n\\n"))
    'accepted'
    >>> str(verify(p, "1 2 3 4\\n3 4 1 2\\n2 1 4 3\\n4 3 2\\n"))
    'wrong answer: line 4 has 3 numbers'
    """
    if isinstance(answer, bytes):
        if len(answer) > OUTPUT_LIMIT:
            return Verdict(f"the output is larger than {OUTPUT_LIMIT} bytes")
        try:
            answer = decode(answer, "the output")
        except PuzzleFormatError as exc:
            return Verdict(str(exc))
    n = puzzle.n
    lines = [line.rstrip(_TRAILING) for line in answer.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    if not lines:
        return Verdict("the output is empty")
    values: list[int] = []
    for number, line in enumerate(lines, 1):
        if number > n:
            return Verdict(f"line {number}: extra output")
        problem = _line_problem(number, line, n)
        if problem:
            return Verdict(problem)
        values.extend(int(token) for token in line.split(" "))
    if len(lines) < n:
        return Verdict(f"expected {n} lines, found {len(lines)}")
    grid = tuple(values)
    return Verdict(solution_error(grid, puzzle), grid)


def _line_problem(number: int, line: str, n: int) -> str | None:
    """Why one line of an answer is not n numbers in 1..n separated by single spaces, or None."""
    if not line:
        return f"line {number} is empty"
    if line[0].isspace():
        return f"line {number} starts with {_SPACE_NAMES.get(line[0], 'a space character')}"
    for column, char in enumerate(line[1:], 2):
        if char.isspace() and (char != " " or line[column - 2] == " "):
            what = "two spaces" if char == " " else _SPACE_NAMES.get(char, "a space character")
            return f"line {number}, column {column}: {what} between numbers"
    tokens = line.split(" ")
    if len(tokens) != n:
        return f"line {number} has {len(tokens)} number{'s' if len(tokens) != 1 else ''}"
    for position, token in enumerate(tokens, 1):
        if not INTEGER.match(token):
            shown = token if len(token) <= 20 else token[:17] + "..."
            return f"line {number}, number {position}: '{shown}' is not a number"
        if not 1 <= int(token) <= n:
            return f"line {number}, number {position}: {int(token)} is outside 1..{n}"
    return None


# ---------------------------------------------------------------------------------------------
# The oracle
# ---------------------------------------------------------------------------------------------


def oracle_solver(name: str | None = None) -> Solver:
    """The oracle solver, built once per command run (SAT prepares its formula per board shape)."""
    return solvers.get(name or ORACLE)


@dataclass(frozen=True)
class OracleReport:
    """What the oracle knows of a puzzle: its solutions counted up to two, and the canonical one."""

    solver: str
    solutions: int | None
    """0, 1, or 2 meaning "two or more"; None when the oracle ran out of time."""
    canonical: Grid | None
    """The lexicographically first solution, when there is one and the oracle found it in time."""

    def lines(self, verdict: Verdict) -> list[str]:
        """Two lines for a person: how many solutions, and whether the answer is the canonical one."""
        words = ("none", "exactly one", "two or more")
        count = "unknown (out of time)" if self.solutions is None else words[min(self.solutions, 2)]
        return [f"solutions: {count} (oracle: {self.solver})", f"canonical: {self._canonical_words(verdict)}"]

    def _canonical_words(self, verdict: Verdict) -> str:
        if self.solutions == 0:
            return "there is no solution, so no canonical one"
        if self.canonical is None:
            return "unknown (out of time)"
        if verdict.grid == self.canonical:
            return "yes, the answer is the lexicographically first solution"
        if verdict.accepted:
            return "no, a valid answer but not the lexicographically first solution"
        if verdict.grid is None:
            return "no"
        n = math.isqrt(len(self.canonical))
        cell = next(i for i, (a, b) in enumerate(zip(verdict.grid, self.canonical)) if a != b)
        return (
            f"no, first difference at row {cell // n + 1}, column {cell % n + 1}: "
            f"the canonical solution has {self.canonical[cell]}, the answer {verdict.grid[cell]}"
        )


def consult(puzzle: Puzzle, oracle: Solver, time_limit: float | None = None) -> OracleReport:
    """Ask the oracle how many solutions the puzzle has (up to two) and for the canonical one."""
    counted = oracle.count(puzzle, limit=2, time_limit=time_limit)
    solutions = None if counted.status is Status.TIME_LIMIT and counted.count < 2 else counted.count
    canonical = None
    if solutions != 0:
        result = oracle.solve(puzzle, time_limit=time_limit, canonical=True)
        canonical = result.grid if result.solved else None
    return OracleReport(oracle.name, solutions, canonical)


# ---------------------------------------------------------------------------------------------
# Running a program
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Limits:
    """The limits of one run, as an online judge sets them (BOJ 2580: 1 s, 256 MB)."""

    seconds: float = 1.0
    memory_mb: int | None = 256
    """Megabytes of private writable memory (RLIMIT_DATA); None or 0 for no limit."""
    output_bytes: int = OUTPUT_LIMIT


@dataclass(frozen=True)
class Run:
    """What one run of a program did, before its output is judged."""

    stdout: bytes
    stderr: bytes
    """The last ``STDERR_KEPT`` bytes of standard error."""
    exit_code: int | None
    """The exit code, or None when a signal ended the program."""
    signal: int | None
    seconds: float
    """Wall time from the start of the program to its end (the limit when it timed out)."""
    peak_rss_kb: int
    """Peak resident memory (ru_maxrss), at least the launcher's ~7 MB; 0 when not known (killed)."""
    timed_out: bool = False
    output_overflow: bool = False


# The launcher between the judge and the program. A process's peak memory as the kernel reports it
# (ru_maxrss) includes the memory of the process it was forked from, taken over before exec: run
# straight from the judge, a 5 MB program reports the judge's 300 MB when the judge runs inside a
# large process (a test session, a notebook). So a small Python process forks the program and
# reports its status, peak memory and time on a pipe of its own; its few MB are the floor of every
# peak figure. It also sets the limits (no preexec_fn in the judge, which is unsafe with threads)
# and says "go" just before the fork, so the time limit does not count its own start-up.
_LAUNCHER = r"""
import os, resource, sys, time
report, memory, command = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
if memory:
    hard = resource.getrlimit(resource.RLIMIT_DATA)[1]
    cap = memory if hard == resource.RLIM_INFINITY else min(memory, hard)
    resource.setrlimit(resource.RLIMIT_DATA, (cap, cap))
os.write(report, b"go ")
started = time.perf_counter()
pid = os.fork()
if not pid:
    os.close(report)
    try:
        os.execvp(command[0], command)
    except OSError as exc:
        os.write(2, ("cannot run %r: %s\n" % (command[0], exc.strerror)).encode())
    os._exit(127)
_, status, usage = os.wait4(pid, 0)
os.write(report, b"%d %d %.6f" % (status, usage.ru_maxrss, time.perf_counter() - started))
os._exit(0)
"""
_LAUNCHER_GRACE = 5.0  # seconds the launcher may take to start before the time limit runs anyway


def run_program(command: Sequence[str], stdin: bytes, limits: Limits = Limits()) -> Run:
    """Run a command once without a shell, in its own process group, within the limits.

    Returns when the program ends (its whole group is then killed, so forked children go with it),
    at the time limit, or as soon as its output passes the limit, whichever comes first.
    """
    import shutil
    import subprocess
    import sys

    if not command or shutil.which(command[0]) is None:
        raise UsageError(f"cannot run '{command[0] if command else ''}': no such program, or not executable")
    report_fd, report_end = os.pipe()
    launcher = [sys.executable, "-I", "-S", "-c", _LAUNCHER, str(report_end), str((limits.memory_mb or 0) << 20)]
    try:
        process = subprocess.Popen(
            [*launcher, *command], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            start_new_session=True, close_fds=True, pass_fds=(report_end,),
        )
    except OSError as exc:
        os.close(report_fd)
        raise UsageError(f"cannot start the judge's launcher: {exc.strerror or exc}") from None
    finally:
        os.close(report_end)
    deadline = time.perf_counter() + limits.seconds + _LAUNCHER_GRACE
    stdin_fd, stdout_fd, stderr_fd = (s.fileno() for s in (process.stdin, process.stdout, process.stderr))  # type: ignore[union-attr]
    out, err, report = bytearray(), bytearray(), bytearray()
    buffers = {stdout_fd: out, stderr_fd: err, report_fd: report}
    pending = memoryview(stdin)
    exit_fd = _pidfd(process.pid)
    timed_out = ended = going = False
    selector = selectors.DefaultSelector()
    try:
        for fd in (stdin_fd, stdout_fd, stderr_fd, report_fd):
            os.set_blocking(fd, False)
        selector.register(stdin_fd, selectors.EVENT_WRITE)
        for fd in buffers:
            selector.register(fd, selectors.EVENT_READ)
        if exit_fd is not None:
            selector.register(exit_fd, selectors.EVENT_READ)
        while not ended and len(out) <= limits.output_bytes:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                timed_out = True
                break
            # Without a pidfd nothing signals the end of the program: look every 5 ms.
            for key, _ in selector.select(remaining if exit_fd is not None else min(remaining, 0.005)):
                if key.fd == exit_fd:
                    ended = True
                elif key.fd == stdin_fd:
                    pending = _feed(selector, process.stdin, pending)  # type: ignore[arg-type]
                elif not _read(key.fd, buffers[key.fd], tail=key.fd == stderr_fd, budget=1 << 16):
                    selector.unregister(key.fd)
            if not going and report.startswith(b"go "):
                going = True
                deadline = time.perf_counter() + limits.seconds
            ended = ended or (exit_fd is None and _has_ended(process.pid))
        if ended:  # take what the program left in the pipes, without waiting for its stragglers
            _read(stdout_fd, out, tail=False, budget=limits.output_bytes + 1 - len(out))
            _read(stderr_fd, err, tail=True, budget=OUTPUT_LIMIT)
    finally:
        _kill_group(process.pid)
        status = _reap(process)
        _read(report_fd, report, tail=False, budget=256)
        selector.close()
        for fd in (report_fd, exit_fd):
            if fd is not None:
                os.close(fd)
        for stream in (process.stdin, process.stdout, process.stderr):
            try:
                stream.close()  # type: ignore[union-attr]
            except OSError:
                pass
    fields = report.split()
    peak, seconds = 0, limits.seconds
    if len(fields) == 4 and not timed_out:  # "go STATUS PEAK SECONDS": the program ended by itself
        status, peak, seconds = int(fields[1]), int(fields[2]), float(fields[3])
    code = os.waitstatus_to_exitcode(status)
    return Run(
        stdout=bytes(out[: limits.output_bytes + 1]), stderr=bytes(err[-STDERR_KEPT:]),
        exit_code=code if code >= 0 else None, signal=-code if code < 0 else None,
        seconds=seconds, peak_rss_kb=peak,
        timed_out=timed_out, output_overflow=not timed_out and len(out) > limits.output_bytes,
    )


def _pidfd(pid: int) -> int | None:
    """A descriptor that turns readable when the process ends (Linux 5.3+), else None: then poll."""
    try:
        return os.pidfd_open(pid)  # type: ignore[attr-defined]
    except (AttributeError, OSError):
        return None


def _has_ended(pid: int) -> bool:
    """Whether the process has ended, without reaping it: its pid, which is also its process group
    id, stays taken until the group is killed and the leader reaped, so the kill hits no stranger."""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def _feed(selector: selectors.BaseSelector, stream: IO[bytes], pending: memoryview) -> memoryview:
    """Write what the pipe takes of the input; close it (end of file for the program) when done."""
    fd = stream.fileno()
    try:
        pending = pending[os.write(fd, pending):]
    except BlockingIOError:
        return pending
    except OSError:  # BrokenPipeError: the program exited or closed its input; fine
        pending = pending[len(pending):]
    if not pending:
        selector.unregister(fd)
        stream.close()
    return pending


def _read(fd: int, buffer: bytearray, *, tail: bool, budget: int) -> bool:
    """Read up to ``budget`` bytes of what a non-blocking pipe holds now; False at end of file.

    The budget bounds the work, so a program that writes without pause cannot keep the judge
    reading past its deadline. With ``tail`` only the last ``STDERR_KEPT`` bytes are kept.
    """
    while budget > 0:
        try:
            chunk = os.read(fd, min(budget, 1 << 16))
        except BlockingIOError:
            return True
        except OSError:
            return False
        if not chunk:
            return False
        budget -= len(chunk)
        buffer += chunk
        if tail and len(buffer) > 2 * STDERR_KEPT:
            del buffer[:-STDERR_KEPT]
    return True


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _reap(process) -> int:
    """Wait for the (ended or killed) launcher and take its exit status."""
    _, status = os.waitpid(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)  # so Popen never waits on a reused pid
    return status


# ---------------------------------------------------------------------------------------------
# Judging a program over a dataset
# ---------------------------------------------------------------------------------------------


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


def judge_run(puzzle: Puzzle, run: Run, limits: Limits = Limits()) -> tuple[Outcome, str]:
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
    entries: Iterable[Entry], command: Sequence[str], limits: Limits = Limits(), *, jobs: int = 1
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
    with ThreadPoolExecutor(jobs) as pool:
        window: deque = deque()
        for entry in entries:
            window.append(pool.submit(judge_one, entry))
            if len(window) >= 2 * jobs:
                yield window.popleft().result()
        while window:
            yield window.popleft().result()


@dataclass(frozen=True)
class Summary:
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

    summary: Summary
    failures: tuple[Failure, ...] = field(default_factory=tuple)


def judge_dataset(
    entries: Iterable[Entry],
    command: Sequence[str],
    limits: Limits = Limits(),
    *,
    oracle: Solver | None = None,
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
            failures.append(Failure(case, oracle_answer(case.puzzle, oracle) if oracle else ""))
        if on_case:
            on_case(case)
    return JudgeReport(Summary(counts, tuple(seconds), peak), tuple(failures))


def oracle_answer(puzzle: Puzzle, oracle: Solver, time_limit: float = 10.0) -> str:
    """The oracle's canonical answer in BOJ form, or why there is none."""
    result = oracle.solve(puzzle, time_limit=time_limit, canonical=True)
    if result.solved and result.grid is not None:
        return format_grid(result.grid, puzzle.n)
    return "no solution" if result.status is Status.NO_SOLUTION else "out of time"


# ---------------------------------------------------------------------------------------------
# Reports for a person (rich)
# ---------------------------------------------------------------------------------------------


@contextmanager
def progress_bar(
    console: Console, total: int | None, dataset: str, *, show: bool = True
) -> Iterator[Callable[[Case], None]]:
    """A progress bar on ``console`` while judging; yields the ``on_case`` hook for ``judge_dataset``.

    Invalid dataset entries are reported above the bar as they come, with their line numbers.
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("judging"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TextColumn("{task.fields[tally]}"))
    with Progress(*columns, console=console, disable=not show) as progress:
        task = progress.add_task("judging", total=total, tally="")
        accepted = 0

        def on_case(case: Case) -> None:
            nonlocal accepted
            accepted += case.accepted
            progress.update(task, advance=1, tally=f"{accepted} accepted")
            if case.outcome is Outcome.INVALID_ENTRY:
                progress.console.print(
                    f"sudokulab: {dataset}: {case.detail}", highlight=False, markup=False, soft_wrap=True
                )

        yield on_case


def render_summary(summary: Summary, limits: Limits, console: Console) -> None:
    """The verdict counts and time figures as a table."""
    from rich.table import Table

    table = Table(title="judge summary", title_justify="left")
    table.add_column("verdict")
    table.add_column("count", justify="right")
    for outcome, count in summary.counts.items():
        if count or outcome is not Outcome.INVALID_ENTRY:
            style = "green" if outcome is Outcome.ACCEPTED else ("red" if count else "dim")
            table.add_row(outcome.value, str(count), style=style)
    console.print(table)
    if summary.seconds:
        times = summary.seconds
        memory = f"{limits.memory_mb} MB" if limits.memory_mb else "none"
        console.print(
            f"runs: {len(times)}  time per run: min {min(times):.3f} s, median {statistics.median(times):.3f} s, "
            f"mean {statistics.fmean(times):.3f} s, max {max(times):.3f} s; total {sum(times):.2f} s  "
            f"(limit {limits.seconds:g} s)\npeak memory: {summary.peak_rss_kb / 1024:.1f} MB (limit {memory})",
            highlight=False, soft_wrap=True,
        )


def render_failures(failures: Sequence[Failure], oracle_name: str, console: Console) -> None:
    """Each failure: the puzzle, the program's output and the oracle's answer side by side."""
    from rich.table import Table

    for failure in failures:
        case = failure.case
        if case.puzzle is None:
            continue
        n = case.puzzle.n
        console.print(f"puzzle {case.index + 1} (dataset line {case.line}): {case}", highlight=False,
                      markup=False, soft_wrap=True)
        table = Table()
        table.add_column("puzzle")
        table.add_column("program output")
        table.add_column(f"oracle ({oracle_name})")
        output = _clip_output(case.run.stdout if case.run else b"", n)
        table.add_row(format_puzzle(case.puzzle).rstrip("\n"), output, failure.oracle_answer.rstrip("\n"))
        console.print(table)


def _clip_output(data: bytes, n: int) -> str:
    """A program's output for display: at most n + 2 lines of at most 3n characters."""
    text = data.decode("utf-8", "replace").replace("\r", "")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    shown = [line if len(line) <= 3 * n else line[: 3 * n - 1] + "…" for line in lines[: n + 2]]
    if len(lines) > n + 2:
        shown.append(f"… ({len(lines) - n - 2} more lines)")
    return "\n".join(shown) if shown else "(no output)"
