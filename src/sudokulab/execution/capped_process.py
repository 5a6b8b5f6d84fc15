"""A grader as a process of its own: a session, a wall-time cap, an output cap, and no survivor.

Whatever a submission does to the ``sudokulab`` process that grades it, it does to that process
alone (``grading.grader``). Here that process is run: in a session of its own, both streams read up
to ``OUTPUT_CAP``, ended at its cap (SIGTERM to its session, SIGKILL after ``GRACE``), given
SIGTERM by the kernel when the thread that started it dies (``PR_SET_PDEATHSIG``), and every one
of them stopped at once on Ctrl-C (``stop_graders``). Compilers run the same way.
"""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

OUTPUT_CAP = 8 << 20
"""Bytes a grader may print on each stream; past it the grader is stopped (a student's print loop)."""

GRACE = 5.0
"""Seconds a grader has to end after SIGTERM before SIGKILL."""


@dataclass(frozen=True)
class Ended:
    """How a process under ``run_capped`` ended."""

    returncode: int
    stdout: bytes
    stderr: bytes
    seconds: float
    peak_kb: int
    timed_out: bool = False
    overflow: bool = False

    def how(self, cap: float) -> str:
        """How it ended, in words, when it did not end by itself with a document."""
        if self.timed_out:
            return f"was still running after its {cap:g} s cap"
        if self.overflow:
            return f"printed more than {OUTPUT_CAP >> 20} MiB"
        if self.returncode < 0:
            name = signal.Signals(-self.returncode).name if -self.returncode in signal.valid_signals() else ""
            return f"was killed by signal {-self.returncode}{f' ({name})' if name else ''}"
        return f"ended with exit code {self.returncode}"

    def last_error_line(self) -> str:
        lines = [line.strip() for line in self.stderr.decode("utf-8", "replace").splitlines() if line.strip()]
        return lines[-1][:200] if lines else ""


_LIVE: set[subprocess.Popen] = set()
_LIVE_LOCK = threading.Lock()
_STOPPED = threading.Event()


def stop_graders() -> None:
    """End every grader of this process and start no more (Ctrl-C; a local cluster closed mid-run)."""
    _STOPPED.set()
    with _LIVE_LOCK:
        live = list(_LIVE)
    for process in live:
        _end(process)


def allow_graders() -> None:
    """Graders may start again in this process (a new run after ``stop_graders``)."""
    _STOPPED.clear()


def _end(process: subprocess.Popen) -> None:
    """SIGTERM to the grader's session (it stops its own runs), SIGKILL after ``GRACE`` seconds."""
    for signum, wait in ((signal.SIGTERM, GRACE), (signal.SIGKILL, 0.0)):
        try:
            os.killpg(process.pid, signum)
        except (ProcessLookupError, PermissionError):
            return
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            try:
                if os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
                    return
            except ChildProcessError:
                return
            time.sleep(0.05)


def _death_signal() -> Callable[[], None] | None:
    """A ``preexec_fn`` asking the kernel for SIGTERM when the starting thread dies (Linux), resolved
    here so the child only calls it."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    return lambda: prctl(1, int(signal.SIGTERM), 0, 0, 0)  # PR_SET_PDEATHSIG


def run_capped(argv: Sequence[str], cwd: str | Path, cap: float) -> Ended:
    """Run ``argv`` in a session of its own, both streams read up to ``OUTPUT_CAP``, ended at ``cap`` seconds."""
    if _STOPPED.is_set():
        raise InterruptedError("grading stopped")
    start = time.monotonic()
    process = subprocess.Popen(list(argv), cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, start_new_session=True, preexec_fn=_death_signal())
    with _LIVE_LOCK:
        _LIVE.add(process)
    out, err = bytearray(), bytearray()
    timed_out = overflow = False
    try:
        with selectors.DefaultSelector() as selector:
            selector.register(process.stdout, selectors.EVENT_READ, out)
            selector.register(process.stderr, selectors.EVENT_READ, err)
            while selector.get_map():
                left = start + cap - time.monotonic()
                if left <= 0:
                    timed_out = True
                    break
                for key, _ in selector.select(min(left, 1.0)):
                    chunk = os.read(key.fd, 1 << 16)
                    if not chunk:
                        selector.unregister(key.fileobj)
                        continue
                    key.data.extend(chunk)
                    if len(key.data) > OUTPUT_CAP:
                        overflow = True
                if overflow:
                    break
        if timed_out or overflow:
            _end(process)
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
    finally:
        with _LIVE_LOCK:
            _LIVE.discard(process)
        if process.returncode is None:  # an exception here (Ctrl-C): the grader goes too
            _end(process)
            process.wait()
        process.stdout.close()
        process.stderr.close()
    return Ended(process.returncode, bytes(out), bytes(err), time.monotonic() - start, usage.ru_maxrss,
                 timed_out, overflow)
