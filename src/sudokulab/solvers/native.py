"""Native engine calls that Ctrl-C can still stop.

Python runs signal handlers in the main thread between bytecodes, so a long call into C++ (a
CP-SAT search) holds Ctrl-C back until it returns, and an engine that catches SIGINT itself turns
it into an ordinary "stopped" answer. ``interruptible`` runs such a call in a helper thread while
the main thread waits, where Ctrl-C reaches it at once; the engine is then told to stop, and the
interrupt goes on up as ``KeyboardInterrupt``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

_STOP_WAIT = 1.0
"""Seconds to wait for a stopped engine to return before leaving its thread behind."""


def interruptible(call: Callable[[], T], stop: Callable[[], None]) -> T:
    """``call()``, made interruptible by Ctrl-C when run from the main thread; ``stop`` ends it early."""
    if threading.current_thread() is not threading.main_thread():
        return call()
    outcome: list = []

    def run() -> None:
        try:
            outcome.append((True, call()))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread as it is
            outcome.append((False, exc))

    worker = threading.Thread(target=run, name="sudokulab-engine", daemon=True)
    worker.start()
    try:
        worker.join()
    except KeyboardInterrupt:
        stop()
        worker.join(_STOP_WAIT)
        raise
    ok, value = outcome[0]
    if not ok:
        raise value
    return value
