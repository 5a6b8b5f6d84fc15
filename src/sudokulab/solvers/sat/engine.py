"""One PySAT engine loaded with one of our formulas: time-limited runs, effort counters, Ctrl-C.

What an engine of the installed PySAT can and cannot do (slices under a conflict or propagation
budget because CaDiCaL 1.9.5's ``interrupt()`` does nothing, counters some engines leave at 0, a
Ctrl-C that leaves the engine unusable) is the same for every way ``sat`` uses an engine (solve,
count, canonical answers, batches), so it is kept here, apart from those uses. PySAT's own SIGINT
handler ``longjmp``s out of the engine and can leave glibc's heap half-updated, so it is never
installed for our calls (``pysat_guard``): engines run in slices and signals are taken between
two, the engine intact; engines that cannot run in slices run one call. Once a solve outlasts its
first slice, ``_Terminator`` has a native thread call CaDiCaL's own ``terminate()`` when a signal
arrives, since one CaDiCaL call can hold the GIL for seconds.

Where each signal landed, what crashed and the fix, as measured: docs/sat.md ("Ctrl-C inside PySAT").
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import platform
import select
import signal
import sys
import threading
import time

from pysat.solvers import Solver

from ..base import Deadline, TimeUp
from ..pysat_guard import without_handler
from . import cnf

NO_PROPAGATE = frozenset({"cadical103", "lingeling", "kissat404"})
NO_STATS = frozenset({"kissat404", "cadical300"})  # cadical300's counters stay 0 under assumptions
PROPAGATED_FROM_COUNTERS = frozenset({"cadical153", "cadical195"})
COUNTERS = ("decisions", "conflicts", "propagations", "restarts")

_FIRST_SLICE = 200  # conflicts in the first slice of a timed solve; the next ones adapt
_FIRST_PROPAGATIONS = 200_000  # propagations in the first slice, for engines that take that budget
_SLICE_SECONDS = 0.02  # aim of one slice: the overshoot past a deadline stays about this small
_GROWTH = 2
"""Without a deadline, each slice's budget is this many times the last one's. Every new call costs
CaDiCaL its search state (it starts again in its focused mode, lucky phases and all), so slices of a
fixed small budget make a large board many times slower; doubling makes it a few calls per solve,
and a signal waits at most for the slice in progress (CaDiCaL's inprocessing being one
uninterruptible stretch). Puzzles up to 16x16 mostly need fewer than ``_FIRST_SLICE`` conflicts
(one call). The figures: docs/sat.md ("Ctrl-C inside PySAT")."""

_LOAD_CHUNK = 20_000
"""Clauses handed to an engine per call while loading a formula, the deadline looked at between two."""

RENEW_AFTER = 5_000
"""Solves after which a shared engine is replaced by a fresh one (checked before each puzzle or batch).

What tens of thousands of puzzles leave in a CaDiCaL engine (learned clauses, its schedules) slows
every later call more than it helps; a fresh engine every few thousand puzzles is faster, and
loading the rules again is cheap (docs/sat.md)."""

def _interrupted(exc: Exception) -> bool:
    """Whether PySAT's error is its report of a Ctrl-C caught inside the engine."""
    return "keyboard interrupt" in str(exc).lower()


class _AioCb(ctypes.Structure):
    """glibc's ``struct aiocb`` on 64-bit Linux, its ``sigevent`` spelled out for ``SIGEV_THREAD``."""

    _fields_ = [("fildes", ctypes.c_int), ("opcode", ctypes.c_int), ("reqprio", ctypes.c_int),
                ("pad", ctypes.c_int), ("buf", ctypes.c_void_p), ("nbytes", ctypes.c_size_t),
                ("value", ctypes.c_void_p), ("signo", ctypes.c_int), ("notify", ctypes.c_int),
                ("function", ctypes.c_void_p), ("attributes", ctypes.c_void_p), ("sigev_pad", ctypes.c_char * 32),
                ("private", ctypes.c_char * 72)]


class _TimeSpec(ctypes.Structure):
    _fields_ = [("seconds", ctypes.c_long), ("nanoseconds", ctypes.c_long)]


class _ITimerSpec(ctypes.Structure):
    _fields_ = [("interval", _TimeSpec), ("value", _TimeSpec)]


_SIGEV_THREAD = 2
_EINPROGRESS = 115
_CLOCK_MONOTONIC = 1  # the clock of time.perf_counter on Linux, so a Deadline's moment is the timer's
_TFD_TIMER_ABSTIME = 1
_TFD_CLOEXEC = 0o2000000
_GRACE = 5.0
"""Seconds a disarmed engine is kept before it is freed: the native thread that calls its ``terminate()``
may still be starting (it takes microseconds; this is the margin, wide for a machine whose cores are
shared many ways)."""


class _Terminator:
    """Ends a CaDiCaL call within milliseconds of a signal, with no Python code run in between.

    Armed: a one-byte ``aio_read`` on a pipe that is the process's wakeup fd; Python's C-level handler
    writes the signal number there, glibc's AIO thread reads it and starts a thread that calls
    ``CaDiCaL::Solver::terminate(engine)`` (a flag CaDiCaL reads in its search and inprocessing loops,
    documented as callable asynchronously). The call returns "unknown", the main thread is back in
    Python and the command's handler raises as between two slices. Disarmed: a byte of our own
    completes the read, so no request outlives the run; the engine, which may still get that
    ``terminate()``, is then freed no sooner than ``_GRACE`` later. Only where all of it can be checked:
    Linux with glibc, 64-bit x86 or ARM, a CaDiCaL engine whose ``terminate`` the extension exports,
    the main thread, and no wakeup fd of someone else's (asyncio's)."""

    def __init__(self) -> None:
        self.libc: ctypes.CDLL | None = None
        self.pipe: tuple[int, int] | None = None
        self.timer: int | None = None  # a timerfd on CLOCK_MONOTONIC, for deadlines
        self.late: list[tuple[float, object]] = []  # (when disarmed, PySAT solver) awaiting their grace

    def usable(self, engine: Engine) -> int | None:
        """The address of the engine's ``terminate``, or None where this cannot be used."""
        if not sys.platform.startswith("linux") or platform.machine() not in ("x86_64", "aarch64") \
                or platform.libc_ver()[0] != "glibc" or not engine.name.startswith("cadical"):
            return None
        try:
            import pysolvers

            if self.libc is None:
                self.libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
                self.libc.aio_read.argtypes = self.libc.aio_error.argtypes = [ctypes.c_void_p]
            digits = engine.name.removeprefix("cadical")
            return ctypes.cast(getattr(ctypes.CDLL(pysolvers.__file__), f"_ZN10CaDiCaL{digits}6Solver9terminateEv"),
                               ctypes.c_void_p).value
        except (ImportError, OSError, AttributeError):
            return None

    def arm(self, engine: Engine) -> _AioCb | None:
        if threading.current_thread() is not threading.main_thread():
            return None
        function = self.usable(engine)
        capsule = getattr(engine.solver.solver, "cadical", None)
        if function is None or capsule is None:
            return None
        if self.pipe is None:
            self.pipe = os.pipe()
            os.set_blocking(self.pipe[1], False)
        read, write = self.pipe
        while select.select([read], [], [], 0)[0]:  # signals of earlier runs, already taken
            os.read(read, 64)
        try:
            previous = signal.set_wakeup_fd(write)
            if previous != -1:  # someone else's (asyncio's): theirs again, and slices alone
                signal.set_wakeup_fd(previous)
                return None
        except ValueError:  # not the main interpreter
            return None
        get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
        get_pointer.restype, get_pointer.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
        buffer = ctypes.create_string_buffer(1)
        request = _AioCb(fildes=read, buf=ctypes.addressof(buffer), nbytes=1, value=get_pointer(capsule, None),
                         notify=_SIGEV_THREAD, function=function)
        request._buffer = buffer  # kept alive with the request
        if self.libc.aio_read(ctypes.byref(request)) != 0:
            signal.set_wakeup_fd(-1)
            return None
        return request

    def arm_deadline(self, engine: Engine, at: float) -> _AioCb | None:
        """Have ``terminate()`` called on the engine when the clock passes ``at`` (a ``perf_counter`` moment):
        an ``aio_read`` on a timerfd set to that moment, so that one engine call ends at its deadline even
        inside seconds of inprocessing, with no Python code run (None where this cannot be used)."""
        function = self.usable(engine)
        capsule = getattr(engine.solver.solver, "cadical", None)
        if function is None or capsule is None:
            return None
        libc = self.libc
        if self.timer is None:
            fd = libc.timerfd_create(_CLOCK_MONOTONIC, _TFD_CLOEXEC)
            if fd < 0:
                return None
            self.timer = fd
        seconds, fraction = divmod(max(at, 1e-9), 1.0)
        when = _ITimerSpec(_TimeSpec(0, 0), _TimeSpec(int(seconds), int(fraction * 1e9)))
        if libc.timerfd_settime(self.timer, _TFD_TIMER_ABSTIME, ctypes.byref(when), None) != 0:
            return None
        get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
        get_pointer.restype, get_pointer.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
        buffer = ctypes.create_string_buffer(8)
        request = _AioCb(fildes=self.timer, buf=ctypes.addressof(buffer), nbytes=8,
                         value=get_pointer(capsule, None), notify=_SIGEV_THREAD, function=function)
        request._buffer = buffer
        if libc.aio_read(ctypes.byref(request)) != 0:
            return None
        return request

    def disarm_deadline(self, engine: Engine, request: _AioCb) -> None:
        """End a deadline's read that is still waiting: the timer set to expire now completes it (the
        engine may then get one more ``terminate()``, as ``disarm`` leaves it one)."""
        if self.libc.aio_error(ctypes.byref(request)) == _EINPROGRESS:
            now = _ITimerSpec(_TimeSpec(0, 0), _TimeSpec(0, 1))
            self.libc.timerfd_settime(self.timer, 0, ctypes.byref(now), None)
            while self.libc.aio_error(ctypes.byref(request)) == _EINPROGRESS:
                time.sleep(0.0005)
        engine.disarmed = time.perf_counter()

    def disarm(self, engine: Engine, request: _AioCb) -> None:
        signal.set_wakeup_fd(-1)
        if self.libc.aio_error(ctypes.byref(request)) == _EINPROGRESS:
            os.write(self.pipe[1], b"\0")
            while self.libc.aio_error(ctypes.byref(request)) == _EINPROGRESS:
                time.sleep(0.0005)
        engine.disarmed = time.perf_counter()

    def free(self, solver: object, disarmed: float) -> None:
        """Free a PySAT solver, or keep it until ``_GRACE`` has passed since it was last disarmed."""
        now = time.perf_counter()
        self.late.append((disarmed, solver))
        keep = []
        for when, held in self.late:
            if now - when >= _GRACE:
                held.delete()
            else:
                keep.append((when, held))
        self.late = keep


_TERMINATOR = _Terminator()


class Engine:
    """One PySAT engine loaded with one formula."""

    __slots__ = ("solver", "formula", "top", "name", "propagation_budget", "broken", "constant", "solves", "sliced",
                 "disarmed", "seconds")

    def __init__(self, name: str, formula: cnf.Formula, units_: list[int] | None = None, sliced: bool = True,
                 settings: dict[str, int] | None = None, deadline: Deadline | None = None):
        self.name = name
        self.formula = formula
        self.top = formula.top
        self.solver = Solver(name=name)
        if settings:  # the engine's own options (CaDiCaL's restart, seed), set before any clause
            self.solver.configure(settings)
        self.sliced = sliced
        """Every solve in budget slices (the module doc). False for engines without a limited solve or
        that cannot solve twice: one call, a signal taken when it returns."""
        self.broken = False
        """True once a Ctrl-C jumped out of the engine, which only a PySAT without ``MainThread`` (whose
        handler ``pysat_guard`` cannot keep out) does: any further call would abort the process."""
        self.constant: dict[str, int | str] | None = None
        """The stats that hold for every puzzle on this engine, once the solver has named them."""
        self.solves = 0
        """Calls to solve so far (see ``RENEW_AFTER``)."""
        self.seconds = 0.0
        """Wall seconds spent in solves so far: the engine's own time, apart from building the formula."""
        self.disarmed: float | None = None
        """When ``_Terminator`` last disarmed on this engine (its solver is then freed late)."""
        self.propagation_budget = True
        try:
            self.solver.prop_budget(-1)
        except NotImplementedError:
            self.propagation_budget = False
        clauses = formula.clauses
        try:  # loaded a chunk at a time, the deadline looked at between chunks: loading counts against it
            for first in range(0, len(clauses), _LOAD_CHUNK):
                if deadline is not None:
                    deadline.check()
                self.solver.append_formula(clauses[first:first + _LOAD_CHUNK])
        except TimeUp:
            self.solver.delete()
            raise
        for lit in units_ or ():
            self.solver.add_clause([lit])

    def counters(self) -> dict[str, float]:
        """The engine's accumulated counters (none for ``NO_STATS`` engines) and ``seconds`` spent solving."""
        found: dict[str, float] = {} if self.name in NO_STATS else dict(self.solver.accum_stats())
        found["seconds"] = self.seconds
        return found

    def run(self, assumptions: list[int], deadline: Deadline | None) -> bool:
        """Solve under assumptions; raise TimeUp when the deadline passes first, KeyboardInterrupt on Ctrl-C."""
        started = time.perf_counter()
        try:
            return self._run(assumptions, deadline)
        except Exception as exc:
            self.check_interrupt(exc)
            raise
        finally:
            self.seconds += time.perf_counter() - started

    def check_interrupt(self, exc: Exception) -> None:
        """Turn PySAT's report of a Ctrl-C caught inside the engine into KeyboardInterrupt (the engine is then
        broken); any other error is left to the caller to raise."""
        if _interrupted(exc):
            self.broken = True
            raise KeyboardInterrupt from None

    def _run(self, assumptions: list[int], deadline: Deadline | None) -> bool:
        """One budget slice, then, for a solve that outlasts it, one engine call to the answer where native
        threads end it on a signal and at the deadline (``_Terminator``, ``_whole``): every new call costs
        CaDiCaL its search state (docs/sat.md has the figures).
        Elsewhere budget slices, PySAT's SIGINT handler kept out: a signal is taken between two slices by
        the handler the process has (the module doc); each slice gets twice the budget of the last
        (``_GROWTH``), or, with a deadline no timer watches, aims at ``_SLICE_SECONDS``."""
        solver = self.solver
        self.solves += 1
        if not self.sliced:  # no time limit reaches such an engine (``SatSolver`` refuses it)
            with without_handler():
                return solver.solve(assumptions)
        at = None if deadline is None else deadline.at
        armed: _AioCb | None = None
        timer: _AioCb | None = None
        with without_handler():
            try:
                return self._slices(assumptions, at, _FIRST_SLICE, _FIRST_PROPAGATIONS, first_only=True)
            except _Longer:
                armed = _TERMINATOR.arm(self)
                timer = None if at is None else _TERMINATOR.arm_deadline(self, at)
                signals_taken = armed is not None or threading.current_thread() is not threading.main_thread()
                if signals_taken and (at is None or timer is not None):
                    return self._whole(assumptions, at)
                return self._slices(assumptions, at, _FIRST_SLICE * _GROWTH, _FIRST_PROPAGATIONS * _GROWTH,
                                    grow=at is None or timer is not None)
            finally:
                if timer is not None:
                    _TERMINATOR.disarm_deadline(self, timer)
                if armed is not None:
                    _TERMINATOR.disarm(self, armed)

    def _whole(self, assumptions: list[int], at: float | None) -> bool:
        """One engine call with no budget, for a solve whose signals and deadline native threads end
        (``_Terminator``): CaDiCaL keeps its search state to the answer (each new call would cost it).
        A call ended early is a signal (raised here by the command's handler), the deadline, or a
        ``terminate()`` left over from an earlier disarm (then the call is made again)."""
        solver = self.solver
        while True:
            if at is not None and at - time.perf_counter() <= 0:
                raise TimeUp
            solver.conf_budget(-1)
            if self.propagation_budget:
                solver.prop_budget(-1)
            answer = solver.solve_limited(assumptions)
            if answer is not None:
                return answer

    def _slices(self, assumptions: list[int], at: float | None, conflicts: int, propagations: int,
                first_only: bool = False, grow: bool = True) -> bool:
        """The slice loop of ``_run``. ``first_only``: raise ``_Longer`` when the first slice ends without
        an answer, so that ``_Terminator`` is armed only for solves that outlast one slice (puzzles up to
        16x16 mostly do not, and arming costs system calls). ``grow``: each slice gets twice the budget of
        the last (no deadline, or a native timer that ends the call at it); else slices aim at
        ``_SLICE_SECONDS``, the deadline looked at between two."""
        solver = self.solver
        while True:
            if at is not None:
                remaining = at - time.perf_counter()
                if remaining <= 0:
                    raise TimeUp
            solver.conf_budget(conflicts)
            if self.propagation_budget:
                solver.prop_budget(propagations)
            started = time.perf_counter()
            answer = solver.solve_limited(assumptions)
            if answer is not None:
                return answer
            if first_only:
                raise _Longer
            if at is None or grow:
                conflicts, propagations = conflicts * _GROWTH, propagations * _GROWTH
                continue
            spent = max(time.perf_counter() - started, 1e-6)
            scale = min(4.0, min(_SLICE_SECONDS, remaining / 4) / spent)
            conflicts = max(10, int(conflicts * scale))
            propagations = max(10_000, int(propagations * scale))

    def new_variable(self) -> int:
        self.top += 1
        return self.top

    def close(self) -> None:
        if self.disarmed is None:
            self.solver.delete()
        else:
            _TERMINATOR.free(self.solver, self.disarmed)

    def __del__(self) -> None:
        """An engine dropped without ``close()`` (a solver a caller never closed) still waits out the grace:
        freed at once, a ``terminate()`` on its way would write into freed memory. Two suite runs died of
        it (SIGSEGV and SIGABRT in a thread Python never started) while a test dropped a ``sat`` solver
        it had not closed. PySAT's ``delete`` may run twice, so a closed engine passing here is harmless."""
        disarmed = getattr(self, "disarmed", None)
        solver = getattr(self, "solver", None)
        if disarmed is not None and solver is not None:
            _TERMINATOR.free(solver, disarmed)


class _Longer(Exception):
    """The first slice of a solve without a deadline ended without an answer (``Engine._slices``)."""


def settled_by_propagation(engine: Engine, assumptions: list[int]) -> bool:
    """Whether unit propagation of the givens alone gives every cell its digit (one ``propagate`` call,
    with PySAT's SIGINT handler kept out of it too)."""
    with without_handler():
        ok, implied = engine.solver.propagate(assumptions=assumptions)
    return bool(ok) and engine.formula.settled_by(implied)
