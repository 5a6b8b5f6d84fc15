"""PySAT's own SIGINT handler kept out of every PySAT call sudokulab makes.

Called from the main thread, PySAT installs a SIGINT handler for each ``solve``, ``solve_limited``,
``propagate`` and cardinality encoding and ``longjmp``s out of the C++ engine from it, which can
leave glibc's heap half-updated and abort the process later. PySAT asks ``MainThread.check()``
whether to install it; ``install`` puts ``Guard`` in its place, which answers "no" while one of our
calls runs (``without_handler``) and PySAT's usual answer otherwise, so a library user's own PySAT
calls are left as they were. A signal is then taken by the command's own handler when the call
returns (the ``sat`` solver's long solves run in budget slices, ``engine``). Every module that
calls PySAT goes through here: ``guarded`` wraps an engine, ``without_handler`` covers calls PySAT
makes on our behalf (RC2, OptUx, cardinality encodings); ``tests/solvers/test_pysat_guard.py``
fails on a call made with the handler in place.

Why, and what crashed without it: docs/sat.md ("Ctrl-C inside PySAT").
"""

from __future__ import annotations

import threading
from typing import Any

import pysat.card
import pysat.solvers


class Guard:
    """Stands in for PySAT's ``MainThread``: "no" while ``depth`` says one of our calls from the main
    thread is running (only the main thread changes ``depth``), PySAT's own answer otherwise."""

    def __init__(self, original: Any) -> None:
        self.original = original
        self.depth = 0

    def check(self) -> bool:
        return self.depth == 0 and self.original.check()


def install() -> Guard | None:
    """Put the one ``Guard`` in place of ``MainThread`` in PySAT's modules (once; a reload finds it)."""
    original = getattr(pysat.solvers, "MainThread", None)
    if isinstance(original, Guard):
        guard = original
    elif original is None or not callable(getattr(original, "check", None)):
        return None  # a PySAT without it: its handler stays (tests/cli/test_signals.py notices)
    else:
        guard = Guard(original)
        pysat.solvers.MainThread = guard
    if hasattr(pysat.card, "MainThread"):
        pysat.card.MainThread = guard
    return guard


GUARD = install()


class without_handler:  # noqa: N801 - used as a function, in ``with`` statements
    """Within: PySAT installs no SIGINT handler for calls made from the main thread. A class rather
    than a generator-based context manager: it is entered once per engine call in hot loops."""

    __slots__ = ("counted",)

    def __enter__(self) -> None:
        self.counted = GUARD is not None and threading.current_thread() is threading.main_thread()
        if self.counted:
            GUARD.depth += 1

    def __exit__(self, *exc: object) -> None:
        if self.counted:
            GUARD.depth -= 1


def longjmp_free() -> bool:
    """Whether PySAT's SIGINT handler can be kept out of our calls (a PySAT with ``MainThread``)."""
    return GUARD is not None


class guarded:  # noqa: N801 - used as a function: guarded(Solver(...))
    """A PySAT engine whose ``solve``, ``solve_limited`` and ``propagate`` run ``without_handler``;
    everything else is the engine's own. ``with guarded(Solver(...)) as engine`` deletes it at the end."""

    __slots__ = ("engine",)

    def __init__(self, engine: Any) -> None:
        self.engine = engine

    def solve(self, *args: Any, **kwargs: Any) -> Any:
        with without_handler():
            return self.engine.solve(*args, **kwargs)

    def solve_limited(self, *args: Any, **kwargs: Any) -> Any:
        with without_handler():
            return self.engine.solve_limited(*args, **kwargs)

    def propagate(self, *args: Any, **kwargs: Any) -> Any:
        with without_handler():
            return self.engine.propagate(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)

    def __enter__(self) -> guarded:
        return self

    def __exit__(self, *exc: object) -> None:
        self.engine.delete()
