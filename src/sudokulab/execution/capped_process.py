"""A grader as a process of its own: a PID namespace, a wall-time cap, an output cap, and no survivor.

Whatever a submission does to the ``sudokulab`` process that grades it, it does to that process
alone (``grading.grader``). Here that process is run: isolated from the folder it starts in
(``python -I``), both streams read up to ``OUTPUT_CAP``, ended at its cap, given SIGTERM by the
kernel when the thread that started it dies (``PR_SET_PDEATHSIG``), and stopped at once on Ctrl-C
(``stop_graders``). Where util-linux's ``unshare`` can make one, the grader runs in a PID namespace
of its own under the sandbox's INIT (``isolation.INIT``), so when it ends every process left in the
namespace ends too; ending one is SIGTERM to its process group, then after ``GRACE`` SIGKILL to
``unshare``. Without ``unshare`` it gets a session of its own, which a process that left it escapes.

Why ``unshare`` and not bubblewrap, and what a grader that fails looks like: docs/grading.md.
"""

from __future__ import annotations

import functools
import os
import selectors
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from .isolation import INIT, read_status

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


@dataclass
class _Running:
    """A grader started: the process we hold (``unshare``, or the grader itself), and where INIT reports."""

    process: subprocess.Popen
    namespace: bool
    """Whether it runs in a PID namespace of its own under INIT (``unshare`` is ``process``)."""
    status_fd: int | None = None
    """Where INIT reports the grader's wait status (in a namespace)."""


_RUNNING: dict[int, _Running] = {}
_LIVE_LOCK = threading.Lock()
_STOPPED = threading.Event()


def stop_graders() -> None:
    """End every grader of this process and start no more (Ctrl-C; a local cluster closed mid-run)."""
    _STOPPED.set()
    with _LIVE_LOCK:
        live = list(_RUNNING.values())
    for running in live:
        _end(running)


def allow_graders() -> None:
    """Graders may start again in this process (a new run after ``stop_graders``)."""
    _STOPPED.clear()


@functools.cache
def pid_namespace() -> tuple[str, ...]:
    """The command prefix that starts a grader in a PID namespace of its own here, or () where none
    can be made (no ``unshare``, or namespaces refused)."""
    if shutil.which("unshare") is None:
        return ()
    prefix = ["unshare", "--pid", "--fork", "--mount-proc", "--kill-child"]
    if os.geteuid() != 0:
        prefix[1:1] = ["--user", "--map-current-user"]
    try:
        done = subprocess.run([*prefix, "--", "/bin/true"], capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return ()
    return (*prefix, "--") if done.returncode == 0 else ()


def _has_ended(pid: int) -> bool:
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def _wait_ended(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not _has_ended(pid):
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.05)
    return True


def _end(running: _Running) -> None:
    """SIGTERM to the grader's process group (it stops its own runs), then after ``GRACE`` seconds
    SIGKILL: to ``unshare``, whose namespace goes with it, or to the grader's process group."""
    pid = running.process.pid
    try:
        os.killpg(pid, signal.SIGTERM)  # unshare and INIT, the namespace's first process, ignore it
    except (ProcessLookupError, PermissionError):
        return
    if _wait_ended(pid, GRACE):
        return
    try:
        if running.namespace:
            os.kill(pid, signal.SIGKILL)
        else:
            os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _death_signal(signum: int) -> Callable[[], None] | None:
    """A ``preexec_fn`` asking the kernel for ``signum`` when the starting thread dies (Linux), resolved
    here so the child only calls it."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    return lambda: prctl(1, int(signum), 0, 0, 0)  # PR_SET_PDEATHSIG


def _start(argv: Sequence[str], cwd: str | Path, env: Mapping[str, str] | None) -> _Running:
    """The grader started: in a PID namespace under INIT where one can be made, else in a session."""
    prefix = pid_namespace()
    options: dict = {"cwd": cwd, "stdin": subprocess.DEVNULL, "stdout": subprocess.PIPE, "stderr": subprocess.PIPE,
                     "start_new_session": True, "env": None if env is None else dict(env)}
    if not prefix:
        return _Running(subprocess.Popen(list(argv), preexec_fn=_death_signal(signal.SIGTERM), **options),
                        namespace=False)
    status_read, status_write = os.pipe()
    nothing = os.open(os.devnull, os.O_WRONLY)  # INIT's memory-group slot: no group here
    try:  # SIGKILL when we die: unshare ignores SIGTERM, and takes the namespace with it only when killed
        process = subprocess.Popen([*prefix, sys.executable, "-I", "-S", "-c", INIT, str(status_write), str(nothing),
                                    *argv], pass_fds=(status_write, nothing),
                                   preexec_fn=_death_signal(signal.SIGKILL), **options)
    except BaseException:
        os.close(status_read)
        raise
    finally:
        os.close(status_write)
        os.close(nothing)
    return _Running(process, namespace=True, status_fd=status_read)


def run_capped(argv: Sequence[str], cwd: str | Path, cap: float, env: Mapping[str, str] | None = None) -> Ended:
    """Run ``argv`` (in a PID namespace of its own, else a session), both streams read up to
    ``OUTPUT_CAP``, ended at ``cap`` seconds; ``env`` replaces the environment when given."""
    if _STOPPED.is_set():
        raise InterruptedError("grading stopped")
    start = time.monotonic()
    running = _start(argv, cwd, env)
    process = running.process
    with _LIVE_LOCK:
        _RUNNING[process.pid] = running
    out, err = bytearray(), bytearray()
    timed_out = overflow = False
    usage = None
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
            _end(running)
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        if running.status_fd is not None:  # INIT's report: the grader's own status, not bubblewrap's
            told = read_status(running.status_fd)
            if told is not None:
                process.returncode = os.waitstatus_to_exitcode(told)
    finally:
        with _LIVE_LOCK:
            _RUNNING.pop(process.pid, None)
        if process.returncode is None:  # an exception here (Ctrl-C): the grader goes too
            _end(running)
            process.wait()
        if running.status_fd is not None:
            os.close(running.status_fd)
        process.stdout.close()
        process.stderr.close()
    return Ended(process.returncode, bytes(out), bytes(err), time.monotonic() - start,
                 usage.ru_maxrss if usage else 0, timed_out, overflow)
