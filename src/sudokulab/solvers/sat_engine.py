"""One PySAT engine loaded with one of our formulas: time-limited runs, effort counters, Ctrl-C.

Why a module of its own: what an engine of the installed PySAT can and cannot do (slices under a
conflict or propagation budget because CaDiCaL 1.9.5's ``interrupt()`` does nothing, counters some
engines leave at 0, a Ctrl-C that leaves the engine unusable) is the same for every way ``sat``
uses an engine (solve, count, canonical answers, batches), and is kept apart from those uses.

Ctrl-C. Called from the main thread, PySAT installs a SIGINT handler of its own for the length of
each solve and ``longjmp``s out of the C++ engine from it, wherever the engine is. When that is
inside glibc's ``malloc`` or ``free`` (CaDiCaL's inprocessing allocates all the time: 10 of 27
SIGINTs under gdb landed there on an empty 36x36 board), the heap is left half-updated and a later
allocation aborts the process (``malloc(): ... (unsorted)``, exit -6; python-sat 1.9.dev16 and
1.9.dev24 alike). So every engine that can run in slices runs in slices, always, with PySAT told it
is not on the main thread (``_no_longjmp``): its handler is never installed, the signal is taken by
the command's own handler between two slices (SIGTERM and SIGHUP as promptly as SIGINT), and the
engine stays intact and usable. Only engines that cannot run in slices (``lingeling``: no limited
solve; ``kissat404``: cannot solve twice) keep PySAT's handler, and with it ``Engine.broken``.
"""

from __future__ import annotations

import threading
import time

import pysat.solvers
from pysat.solvers import Solver

from ..models import cnf
from .base import Deadline, TimeUp

NO_PROPAGATE = frozenset({"cadical103", "lingeling", "kissat404"})
NO_STATS = frozenset({"kissat404", "cadical300"})  # cadical300's counters stay 0 under assumptions
PROPAGATED_FROM_COUNTERS = frozenset({"cadical153", "cadical195"})
COUNTERS = ("decisions", "conflicts", "propagations", "restarts")

_FIRST_SLICE = 200  # conflicts in the first slice of a timed solve; the next ones adapt
_FIRST_PROPAGATIONS = 200_000  # propagations in the first slice, for engines that take that budget
_SLICE_SECONDS = 0.02  # aim of one slice: the overshoot past a deadline stays about this small
_GROWTH = 2
"""Without a deadline, each slice's budget is this many times the last one's. Every new call costs
CaDiCaL its search state (it starts again in its focused mode, lucky phases and all): 20 ms slices
took an empty 36x36 board from 3.8 s to over 150 s, and three 36x36 puzzles with 45% given from 1.4-3.5 s
to over 60 s each. Doubling makes it a few calls per solve: 1.1-2.3 times the single call's time on
those four, and a signal waits at most for the slice in progress (the longest measured there 0.6-3.4 s,
CaDiCaL's inprocessing being one uninterruptible stretch). Puzzles up to 16x16 mostly need fewer than
``_FIRST_SLICE`` conflicts (one call, as before); 25x25 puzzles with 30-45% given, 62-2,277 conflicts."""

RENEW_AFTER = 5_000
"""Solves after which a shared engine is replaced by a fresh one (checked before each puzzle or batch).

What tens of thousands of puzzles leave in a CaDiCaL engine (learned clauses, its schedules) slows
every later call more than it helps; a fresh engine every few thousand puzzles is faster, and
loading the rules again is cheap (docs/sat.md)."""

def _interrupted(exc: Exception) -> bool:
    """Whether PySAT's error is its report of a Ctrl-C caught inside the engine."""
    return "keyboard interrupt" in str(exc).lower()


class _NotWhileSliced:
    """Stands in for ``pysat.solvers.MainThread``, which PySAT asks before each solve, propagate and
    process call whether to install its SIGINT handler (the ``longjmp`` out of the engine, see the
    module doc): the usual answer, except "no" while ``depth`` says one of our calls from the main
    thread is running (only the main thread changes ``depth``). Other code calling PySAT in this
    process keeps PySAT's handler as before."""

    def __init__(self, original: type) -> None:
        self.original = original
        self.depth = 0

    def check(self) -> bool:
        return self.depth == 0 and self.original.check()


def _install_guard() -> _NotWhileSliced | None:
    original = getattr(pysat.solvers, "MainThread", None)
    if isinstance(original, _NotWhileSliced):  # this module loaded twice (importlib.reload)
        return original
    if original is None or not callable(getattr(original, "check", None)):
        return None  # a PySAT without it: its handler stays (tests/test_signals.py notices)
    guard = _NotWhileSliced(original)
    pysat.solvers.MainThread = guard
    return guard


_GUARD = _install_guard()


class _no_longjmp:
    """Within: PySAT installs no SIGINT handler for calls made from the main thread (``_NotWhileSliced``).
    A class rather than a generator-based context manager: it is entered once per engine call."""

    __slots__ = ("counted",)

    def __enter__(self) -> None:
        self.counted = _GUARD is not None and threading.current_thread() is threading.main_thread()
        if self.counted:
            _GUARD.depth += 1

    def __exit__(self, *exc: object) -> None:
        if self.counted:
            _GUARD.depth -= 1


def longjmp_free() -> bool:
    """Whether PySAT's SIGINT handler can be kept out of our engine calls (``_no_longjmp``)."""
    return _GUARD is not None


class Engine:
    """One PySAT engine loaded with one formula."""

    __slots__ = ("solver", "formula", "top", "name", "propagation_budget", "broken", "constant", "solves", "sliced")

    def __init__(self, name: str, formula: cnf.Formula, units_: list[int] | None = None, sliced: bool = True):
        self.name = name
        self.formula = formula
        self.top = formula.top
        self.solver = Solver(name=name)
        self.sliced = sliced
        """Every solve in budget slices, PySAT's SIGINT handler kept out (the module doc). False for
        engines without a limited solve or that cannot solve twice: one call, PySAT's handler in place."""
        self.broken = False
        """True once a Ctrl-C jumped out of the engine (only an engine that is not ``sliced``): any
        further call would abort the process."""
        self.constant: dict[str, int | str] | None = None
        """The stats that hold for every puzzle on this engine, once the solver has named them."""
        self.solves = 0
        """Calls to solve so far (see ``RENEW_AFTER``)."""
        self.propagation_budget = True
        try:
            self.solver.prop_budget(-1)
        except NotImplementedError:
            self.propagation_budget = False
        self.solver.append_formula(formula.clauses)
        for lit in units_ or ():
            self.solver.add_clause([lit])

    def counters(self) -> dict[str, int]:
        if self.name in NO_STATS:
            return {}
        return self.solver.accum_stats()

    def run(self, assumptions: list[int], deadline: Deadline | None) -> bool:
        """Solve under assumptions; raise TimeUp when the deadline passes first, KeyboardInterrupt on Ctrl-C."""
        try:
            return self._run(assumptions, deadline)
        except Exception as exc:
            self.check_interrupt(exc)
            raise

    def check_interrupt(self, exc: Exception) -> None:
        """Turn PySAT's report of a Ctrl-C caught inside the engine into KeyboardInterrupt (the engine is then
        broken); any other error is left to the caller to raise."""
        if _interrupted(exc):
            self.broken = True
            raise KeyboardInterrupt from None

    def _run(self, assumptions: list[int], deadline: Deadline | None) -> bool:
        """Budget slices until an answer, PySAT's SIGINT handler kept out: a signal is taken between two
        slices by the handler the process has (the module doc). With a deadline the slices aim at
        ``_SLICE_SECONDS``; without one each slice gets twice the budget of the last (``_GROWTH``)."""
        solver = self.solver
        self.solves += 1
        if not self.sliced:  # no time limit reaches such an engine (``SatSolver`` refuses it)
            return solver.solve(assumptions)
        at = None if deadline is None else deadline.at
        conflicts, propagations = _FIRST_SLICE, _FIRST_PROPAGATIONS
        with _no_longjmp():
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
                if at is None:
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
        self.solver.delete()


def settled_by_propagation(engine: Engine, assumptions: list[int]) -> bool:
    """Whether unit propagation of the givens alone gives every cell its digit (one ``propagate`` call,
    with PySAT's SIGINT handler kept out of it too)."""
    with _no_longjmp():
        ok, implied = engine.solver.propagate(assumptions=assumptions)
    return bool(ok) and engine.formula.settled_by(implied)
