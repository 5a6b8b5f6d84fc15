"""Native engine calls that Ctrl-C can still stop.

Python runs signal handlers in the main thread between bytecodes, so a long call into C++ (a
CP-SAT search) holds Ctrl-C back until it returns, and an engine that catches SIGINT itself turns
it into an ordinary "stopped" answer. ``interruptible`` runs such a call in a helper thread while
the main thread waits, where Ctrl-C reaches it at once; the engine is then told to stop, and the
interrupt goes on up as ``KeyboardInterrupt``.

More: docs/solvers.md.
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

_STOP_WAIT = 1.0
"""Seconds to wait for a stopped engine to return before leaving its thread behind."""


class _Helper:
    """One helper thread kept for every call: starting a thread per call costs far more than a hand-off
    through a queue, and is a large part of an easy CP-SAT solve (``benchmarks/results/per-call.md``)."""

    def __init__(self) -> None:
        self.jobs: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        threading.Thread(target=self._serve, name="sudokulab-engine", daemon=True).start()

    def _serve(self) -> None:
        while True:
            self.jobs.get()()


_helper: _Helper | None = None


def _forget_helper() -> None:
    """In a forked child (``stoppable``) the helper thread is gone: the first call there starts its own."""
    global _helper
    _helper = None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_helper)


def interruptible(call: Callable[[], T], stop: Callable[[], None]) -> T:
    """``call()``, made interruptible by Ctrl-C when run from the main thread; ``stop`` ends it early."""
    global _helper
    if threading.current_thread() is not threading.main_thread():
        return call()
    outcome: list = []
    done = threading.Event()

    def run() -> None:
        try:
            outcome.append((True, call()))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread as it is
            outcome.append((False, exc))
        finally:
            done.set()

    if _helper is None:
        _helper = _Helper()
    _helper.jobs.put(run)
    try:
        done.wait()
    except KeyboardInterrupt:
        stop()
        if not done.wait(_STOP_WAIT):
            _helper = None  # still busy with the stopped call: the next call gets a thread of its own
        raise
    ok, value = outcome[0]
    if not ok:
        raise value
    return value
