"""How the ``sudokulab`` command takes Ctrl-C, SIGTERM and SIGHUP: each ends a run the same way.

The console script (``cli.run``) installs ``stop_on_signals``: SIGTERM and SIGHUP raise
``errors.Stopped`` where Ctrl-C raises KeyboardInterrupt, so every path that cleans up after Ctrl-C
(pools, clusters, judged programs, part files) cleans up after them too; ``cli`` then ends the run
with one line and 128 + the signal. Two things make that less simple than a handler that raises:
an exception raised inside a native library's teardown can crash the process (``UNSAFE_TEARDOWN``:
such a signal is held until the teardown returns), and libraries sometimes report a signal as an
error of their own (``signal_behind``). A library user's handlers are left alone.

PySAT's own SIGINT handler, which ``longjmp``s out of its engine and can leave the heap corrupt, is
kept out of every PySAT call sudokulab makes (``solvers/pysat_guard.py``): there too these
handlers take the signal, when the call returns, between two budget slices of a ``sat`` solve, or
once CaDiCaL's ``terminate()`` has ended the call in progress (``sat_engine._Terminator``;
docs/sat.md, "Ctrl-C inside PySAT").
"""

from __future__ import annotations

import os
import signal
import sys

from ..errors import Stopped

TYPE_CHECKING = False  # typing itself costs start-up: imported for the type checker only
if TYPE_CHECKING:
    from types import FrameType


taken: list[int] = []
"""The stopping signals the handlers below took during this run (emptied by ``begin``)."""


def begin() -> None:
    """A new run in this process (``cli.main``; tests run many): no signal taken yet."""
    taken.clear()


def signal_behind(exc: BaseException) -> KeyboardInterrupt | None:
    """The Ctrl-C or signal that an error stands in for, if one came during this run.

    Python and extension modules sometimes raise something else in its place: a signal handled
    while a class is being made (``__set_name__``) comes out as a RuntimeError that names it as its
    cause, and one handled while numpy's C modules load, as numpy's ImportError about a broken
    install, which names nothing (both seen sending SIGTERM at chosen times to ``bench --jobs 2``)."""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return cause
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return _raised_for(taken[0]) if taken else None


def _raised_for(signum: int) -> KeyboardInterrupt:
    return KeyboardInterrupt() if signum == signal.SIGINT else Stopped(signum)


def stop(signum: int, frame: FrameType | None) -> None:
    """SIGTERM or SIGHUP: ``errors.Stopped``, raised where Ctrl-C raises KeyboardInterrupt."""
    if _deferred(signum, frame):
        return
    taken.append(signum)
    raise Stopped(signum)


def interrupt(signum: int, frame: FrameType | None) -> None:
    """Ctrl-C, as Python's own handler takes it, and noted (see ``signal_behind``)."""
    if _deferred(signum, frame):
        return
    taken.append(signum)
    raise KeyboardInterrupt


UNSAFE_TEARDOWN = (f"{os.sep}pysat{os.sep}", frozenset({"delete", "__del__", "__exit__"}))
"""Where an exception raised by a signal handler would free a native object twice: PySAT's ``delete``
frees its engine, *then* clears the attribute that says it is gone (``cadical153_del(...)``, then
``self.cadical = None``). A signal handled between the two leaves the attribute set, and the
wrapper's ``__del__`` frees the engine again: a segmentation fault or an abort. Seen in CI as
``generate --unique`` dying with -11 on SIGHUP; ``tests/cli/test_signals.py`` makes it happen within
milliseconds without the hold below."""

held: list[int] = []
"""Signals taken while PySAT freed an engine, to be raised once it is done (``_deferred``)."""


def _deferred(signum: int, frame: FrameType | None) -> bool:
    """Whether the signal came while PySAT frees an engine (``UNSAFE_TEARDOWN``); if so it is held, and
    raised by ``_release`` at the first call or return once no PySAT teardown is left on the stack.

    A profile hook rather than raising the signal again: a signal raised inside the handler is
    handled at the handler's own next step, still inside PySAT's teardown. Python unsets a profile
    hook that raises, so a profiler running the command (cProfile) stops there too; the run is
    ending anyway."""
    if not _in_unsafe_teardown(frame):
        return False
    held.append(signum)
    sys.setprofile(_release)
    return True


def _in_unsafe_teardown(frame: FrameType | None) -> bool:
    """Whether a PySAT teardown is anywhere on the stack: it may have called into more Python (a
    member's ``__del__``), which is then the frame the signal lands in."""
    library, teardown = UNSAFE_TEARDOWN
    while frame is not None:
        if frame.f_code.co_name in teardown and library in frame.f_code.co_filename:
            return True
        frame = frame.f_back
    return False


def _release(frame: FrameType, event: str, arg: object) -> None:
    """The profile hook while a signal is held: raise it at the first event outside PySAT's teardown."""
    if _in_unsafe_teardown(frame) or not held:
        return
    signum = held[0]
    held.clear()  # first: a signal handled during the next steps must not find this one still held
    sys.setprofile(None)
    taken.append(signum)
    raise _raised_for(signum)


def stop_on_signals() -> None:
    """The console script's handlers: SIGTERM and SIGHUP end a run as Ctrl-C does, with their own codes."""
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, stop)
    signal.signal(signal.SIGINT, interrupt)
