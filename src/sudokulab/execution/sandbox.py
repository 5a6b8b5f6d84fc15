"""Run one program under limits, as an online judge does: bounded time, memory, output, files and processes.

Isolation (what the program can see and touch) is bubblewrap's job (``isolation``); this module
bounds what the run may use and makes sure nothing of it survives: no shell, its own session and
process group, output read through a selector up to a bound, and the ``launcher`` in between, a
child subreaper that sets the limits and kills and reaps every descendant when the run ends.
Everything a verdict rests on (limits, peak memory, time, exit status) is set and read from outside
the sandbox, never from anything the program can write. Memory is judged on what the whole process
tree uses, not what it reserves: a memory control group's peak where one can be made, else the
launcher's samples; no rlimit at the limit (runtimes reserve memory they never touch), only an
address-space backstop far above it. Processes: a pids group, else ``RLIMIT_NPROC``; files:
``RLIMIT_FSIZE`` and the sandbox's tmpfs; CPU: ``RLIMIT_CPU`` where asked.

What each limit covers, as root and without root: docs/judge.md.
"""

from __future__ import annotations

import json
import math
import os
import selectors
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO

from ..errors import UsageError
from ..formats.documents import compact
from . import launcher
from .isolation import ISOLATIONS, Channels, bwrap_arguments

OUTPUT_LIMIT = 1 << 20
"""Bytes of a program's standard output read at most by default; more is "output limit exceeded"."""

STDERR_KEPT = 4096
"""Bytes of a program's standard error kept (the last ones), to name its error."""

_CLEANUP_SECONDS = 2.0
"""How long the launcher may take to kill and reap the program's descendants before its group is killed."""

_LIVE: set[subprocess.Popen] = set()
_LIVE_LOCK = threading.Lock()


@dataclass(frozen=True)
class Limits:
    """The limits of one run, as an online judge sets them (BOJ 2580: 1 s, 256 MB), and its isolation."""

    seconds: float = 1.0
    memory_mb: int | None = 256
    """Megabytes of memory the program may use: a run whose peak (resident memory, shared maps
    included, or its memory control group's peak) passes it is "memory limit exceeded", even when it
    exits 0; what a runtime reserves and never touches does not count. None or 0 for no limit."""
    output_bytes: int = OUTPUT_LIMIT
    isolation: str = "bwrap"
    """``bwrap``: the run happens inside bubblewrap (``isolation``); ``none``: the program is trusted."""
    files_mb: int = 64
    """Megabytes the program may write: its private /tmp and its largest file (RLIMIT_FSIZE); 0: no
    file limit (a trusted program outside bubblewrap)."""
    processes: int = 64
    """Processes and threads the program may have at once (a pids control group, else RLIMIT_NPROC);
    0: no limit and no control group (a trusted program: the group's set-up costs every run time)."""
    cpu_seconds: float | None = None
    """CPU seconds each process may use (RLIMIT_CPU, then SIGXCPU), beside the wall time; None: only
    the wall time (a judged run, whose verdict is its wall time). A compiler gets one of its own."""

    def __post_init__(self) -> None:
        if not (self.seconds > 0 and math.isfinite(self.seconds)):
            raise UsageError(f"the time limit must be a positive number of seconds, not {self.seconds}")
        if self.isolation not in ISOLATIONS:
            raise UsageError(f"unknown isolation '{self.isolation}'; choose one of: {', '.join(ISOLATIONS)}")

    def launcher_settings(self) -> str:
        """What the launcher sets before the program starts, as its JSON argument.

        ``memory`` is the memory control group's limit where the launcher makes one; no rlimit is
        set at it. The address space is capped as a backstop that keeps one runaway from taking the
        machine's memory where no control group holds it: at four times the limit plus 4 GiB, since
        runtimes reserve address space they never touch (V8's code range, the JVM's heap, code cache
        and class space). The verdict comes from the peak, which counts shared maps.
        """
        memory = (self.memory_mb or 0) << 20
        return compact({"memory": memory, "address_space": 4 * memory + (4 << 30),
                        "file_bytes": self.files_mb << 20, "processes": self.processes,
                        "cpu_seconds": self.cpu_seconds or 0, "sample_seconds": launcher.SAMPLE_SECONDS,
                        "parent": os.getpid()})


DEFAULT_LIMITS = Limits()
"""BOJ 2580's limits: 1 s, 256 MB."""


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
    """Peak resident memory (ru_maxrss), at least the launcher's own few MB; 0 when not known (killed)."""
    timed_out: bool = False
    output_overflow: bool = False
    memory_exceeded: bool = False
    """The whole tree's memory reached the limit (its memory group's, or the launcher's samples), whatever
    the exit: its processes may have been killed for it, or the program may have lived on without them."""



@dataclass
class Launched:
    """A program started under the launcher (``launch``), not yet finished (``finish``)."""

    process: subprocess.Popen
    """The launcher: its stdin, stdout and stderr are the program's."""
    report_fd: int
    """The launcher's report pipe: "go " when the program starts, its status, peak and time at the end."""
    limits: Limits


def launch(command: Sequence[str], limits: Limits = DEFAULT_LIMITS, hidden: Sequence[str] = ()) -> Launched:
    """Start a command under the launcher, within the limits (in bubblewrap unless ``isolation="none"``),
    with pipes for its standard streams; the folders of ``hidden`` show empty in the sandbox. The caller
    talks to it, then calls ``finish``; ``stop_all`` stops it too. ``run_program`` is one run of this; a
    grader's session with a student's code another."""
    if not command or shutil.which(command[0]) is None:
        raise UsageError(f"cannot run '{command[0] if command else ''}': no such program, or not executable")
    settings = limits.launcher_settings()
    channels = None
    if limits.isolation == "bwrap":
        try:
            channels = Channels.open()
        except (ImportError, RuntimeError, OSError) as exc:
            raise UsageError(f"cannot start the sandbox: {exc}") from None
        command = bwrap_arguments(command, files_mb=limits.files_mb, channels=channels, hidden=hidden)
        settings = compact({**json.loads(settings), "status_fd": channels.status_read,
                            "sandbox_fds": list(channels.sandbox_fds), "memory_slot": channels.memory})
    report_fd, report_end = os.pipe()
    try:
        process = subprocess.Popen(
            [*launcher.command(report_end, settings), *command],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            start_new_session=True, close_fds=True,
            pass_fds=(report_end, *((channels.status_read, *channels.sandbox_fds) if channels else ())),
        )
    except OSError as exc:
        os.close(report_fd)
        raise UsageError(f"cannot start the judge's launcher: {exc.strerror or exc}") from None
    finally:
        os.close(report_end)
        if channels is not None:
            channels.close()  # the launcher holds its own copies now
    with _LIVE_LOCK:
        _LIVE.add(process)
    return Launched(process, report_fd, limits)


def finish(launched: Launched, report: bytearray) -> int:
    """End a launched program (every descendant killed and reaped) and return the launcher's wait status;
    what is left of its report is added to ``report``. Safe to call once, whatever state it is in."""
    process = launched.process
    try:
        _stop(process)
        status = _reap(process)
    finally:
        with _LIVE_LOCK:
            _LIVE.discard(process)
        _read(launched.report_fd, report, tail=False, budget=256)
        os.close(launched.report_fd)
        for stream in (process.stdin, process.stdout, process.stderr):
            try:
                stream.close()  # type: ignore[union-attr]
            except OSError:
                pass
    return status


def exit_code_of(status: int, timed_out: bool) -> int:
    """The program's exit code (negative: the signal that ended it) from the wait status the launcher
    reports: the program's own, as INIT saw it inside bubblewrap, so no 128 + N to guess from."""
    return -signal.SIGKILL if timed_out else os.waitstatus_to_exitcode(status)  # the launcher kills at the limit


def run_program(command: Sequence[str], stdin: bytes, limits: Limits = DEFAULT_LIMITS) -> Run:
    """Run a command once without a shell, in its own session, within the limits.

    Returns when the program ends, at the time limit, or as soon as its output passes the limit,
    whichever comes first; every process the program started, in its group or not, is killed and
    reaped by then (the launcher is their subreaper), so nothing it forked outlives the run.
    """
    launched = launch(command, limits)
    process, report_fd = launched.process, launched.report_fd
    deadline = time.perf_counter() + limits.seconds + launcher.GRACE
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
            if not going and launcher.started(report):
                going = True
                deadline = time.perf_counter() + limits.seconds
            ended = ended or (exit_fd is None and _has_ended(process.pid))
        if ended:  # take what the program left in the pipes, without waiting for its stragglers
            _read(stdout_fd, out, tail=False, budget=limits.output_bytes + 1 - len(out))
            _read(stderr_fd, err, tail=True, budget=OUTPUT_LIMIT)
    finally:
        selector.close()
        if exit_fd is not None:
            os.close(exit_fd)
        status = finish(launched, report)
    peak, seconds, over = 0, limits.seconds, False
    ended_by_itself = None if timed_out else launcher.ending(report)
    if ended_by_itself is not None:
        status, peak, seconds, over = (ended_by_itself.status, ended_by_itself.peak_kb, ended_by_itself.seconds,
                                       ended_by_itself.over_memory)
    code = exit_code_of(status, timed_out)
    return Run(
        stdout=bytes(out[: limits.output_bytes + 1]), stderr=bytes(err[-STDERR_KEPT:]),
        exit_code=code if code >= 0 else None, signal=-code if code < 0 else None,
        seconds=seconds, peak_rss_kb=peak,
        timed_out=timed_out, output_overflow=not timed_out and len(out) > limits.output_bytes,
        memory_exceeded=over,
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


def _stop(process: subprocess.Popen) -> None:
    """End a run: the launcher kills every descendant (SIGTERM asks it to), then the group goes.

    The launcher has not been reaped yet, so its pid (also its group id) cannot name a stranger.
    """
    if process.returncode is None and not _has_ended(process.pid):
        try:
            os.kill(process.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        _wait_ended(process.pid, _CLEANUP_SECONDS)
    _kill_group(process.pid)


def _wait_ended(pid: int, seconds: float) -> None:
    """Wait until a child has ended (not reaped), at most ``seconds``."""
    deadline = time.perf_counter() + seconds
    while not _has_ended(pid) and time.perf_counter() < deadline:
        time.sleep(0.001)


def stop_all() -> None:
    """Stop every run in progress at once (Ctrl-C): their ``run_program`` calls return promptly."""
    with _LIVE_LOCK:
        running = list(_LIVE)
    for process in running:
        try:
            os.kill(process.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass


def _reap(process) -> int:
    """Wait for the (ended or killed) launcher and take its exit status."""
    _, status = os.waitpid(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)  # so Popen never waits on a reused pid
    return status


