"""A solver's call run in a forked child process that its deadline ends: for engines whose set-up watches no clock.

Some engines spend seconds in a phase that looks at no clock and takes no stop call (CP-SAT loading
a large board's model, clingo grounding one, z3 parsing one, SCIP reading a large program), so a
time limit that only reaches the search overshoots. ``run`` forks: the child makes the call and
sends its result back through a pipe; the parent ends the child at the deadline (``None``: the time
limit) or on Ctrl-C, SIGTERM or SIGHUP, so the whole call is held to the limit. What the child
builds dies with it, so a solver does this only where the set-up is the larger cost (large boards,
``wanted``). A solver whose calls take turns on a lock forks holding it, and the child's call, on
the same thread, takes it again. Roads not taken: a thread (the native phase holds on behind the
answer, eating the next call's time); multiprocessing's spawn (a fresh interpreter imports every
engine again). Which solvers, and from which board: docs/solvers.md ("The largest boards").
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, TypeVar

from .base import CountResult, Deadline, SolveResult, Status, backend_failed

if TYPE_CHECKING:
    from ..core.puzzle import Puzzle
    from .base import Solver

T = TypeVar("T")

_IN_CHILD = False
"""True inside the child: its own call runs here, never in a child of its own."""


def wanted(large: bool, deadline: Deadline) -> bool:
    """Whether a call should run in a child: a time limit, a board whose set-up costs seconds, and
    not already in a child (nor on a system without ``fork``)."""
    return large and deadline.at is not None and not _IN_CHILD and hasattr(os, "fork")


def solve(solver: Solver, puzzle: Puzzle, deadline: Deadline, started: float, canonical: bool) -> SolveResult:
    """``solver.solve`` of the puzzle in a child, under what is left of ``deadline`` (the call's, started at
    ``started``); "time limit reached" when the child had to be ended. Stats say ``child_process``."""
    found = run(lambda: solver.solve(puzzle, time_limit=_left(deadline), canonical=canonical), deadline, solver.name)
    seconds = time.perf_counter() - started
    if found is None:
        return SolveResult(solver.name, Status.TIME_LIMIT, None, seconds, {"child_process": True})
    return replace(found, seconds=seconds, stats={**found.stats, "child_process": True})


def count(solver: Solver, puzzle: Puzzle, deadline: Deadline, started: float, limit: int) -> CountResult:
    """``solver.count`` in a child, as ``solve`` does (a count the deadline ended found nothing known)."""
    found = run(lambda: solver.count(puzzle, limit=limit, time_limit=_left(deadline)), deadline, solver.name)
    seconds = time.perf_counter() - started
    if found is None:
        return CountResult(solver.name, 0, limit, Status.TIME_LIMIT, seconds, {"child_process": True})
    return replace(found, seconds=seconds, stats={**found.stats, "child_process": True})


def _left(deadline: Deadline) -> float:
    """What is left of a deadline, as the child's own time limit (the same moment: one monotonic clock)."""
    assert deadline.at is not None
    return max(deadline.at - time.perf_counter(), 1e-6)


def run(call: Callable[[], T], deadline: Deadline, solver: str) -> T | None:
    """``call()`` in a forked child, its answer, or None when ``deadline`` passed first (the child ended).

    An exception the call raises is raised here too; a child that dies without an answer (killed by
    the kernel for memory, a crash in native code) is ``errors.BackendFailed`` naming ``solver``.
    """
    if deadline.at is None:
        return call()
    read, write = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        os.close(read)
        _child(call, write)
    os.close(write)
    chunks: list[bytes] = []
    try:
        while True:
            left = deadline.at - time.perf_counter()
            if left <= 0:
                _end(pid)
                return None
            ready, _, _ = select.select([read], [], [], left)
            if ready:
                chunk = os.read(read, 1 << 20)
                if not chunk:
                    break
                chunks.append(chunk)
    except BaseException:  # Ctrl-C, SIGTERM, SIGHUP: the child goes, the signal goes on
        _end(pid)
        raise
    finally:
        os.close(read)
    _, status = os.waitpid(pid, 0)
    if not chunks:
        how = (f"killed by signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status)
               else f"exit code {os.WEXITSTATUS(status)}")
        raise backend_failed(solver, "its child process", f"ended without an answer ({how})")
    ok, value = pickle.loads(b"".join(chunks))
    if not ok:
        raise value
    return value


def _end(pid: int) -> None:
    """End the child at once and reap it."""
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    os.waitpid(pid, 0)


def _child(call: Callable[[], object], write: int) -> None:
    """The child's side: the call, its pickled outcome on the pipe, and ``os._exit`` (no cleanup of the
    parent's objects, no flush of its buffers). Signals are the parent's to take: it ends this process."""
    global _IN_CHILD
    code = 0
    try:
        _IN_CHILD = True
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, signal.SIG_IGN)
        _end_with_parent()
        try:
            outcome: tuple[bool, object] = (True, call())
        except BaseException as exc:  # noqa: BLE001 - handed to the parent as it is
            outcome = (False, exc)
        try:
            data = pickle.dumps(outcome)
        except Exception as exc:  # noqa: BLE001 - an answer that does not pickle is a failure to report
            data = pickle.dumps((False, RuntimeError(f"the answer could not be sent back: {exc}")))
        view = memoryview(data)
        while view:
            view = view[os.write(write, view):]
    except BaseException:  # noqa: BLE001 - nothing may escape into the parent's code in this process
        code = 1
    finally:
        os._exit(code)


def _end_with_parent() -> None:
    """Have the kernel end this child when its parent ends, even by SIGKILL (Linux; elsewhere nothing)."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
