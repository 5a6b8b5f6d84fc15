"""One PySAT engine loaded with one of our formulas: time-limited runs, effort counters, Ctrl-C.

Why a module of its own: what an engine of the installed PySAT can and cannot do (slices under a
conflict or propagation budget because CaDiCaL 1.9.5's ``interrupt()`` does nothing, counters some
engines leave at 0, a Ctrl-C that leaves the engine unusable) is the same for every way ``sat``
uses an engine (solve, count, canonical answers, batches), and is kept apart from those uses.
"""

from __future__ import annotations

import time

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

RENEW_AFTER = 5_000
"""Solves after which a shared engine is replaced by a fresh one (checked before each puzzle or batch).

What tens of thousands of puzzles leave in a CaDiCaL engine (learned clauses, its schedules) slows
every later call more than it helps; a fresh engine every few thousand puzzles is faster, and
loading the rules again is cheap (docs/sat.md)."""

def _interrupted(exc: Exception) -> bool:
    """Whether PySAT's error is its report of a Ctrl-C caught inside the engine."""
    return "keyboard interrupt" in str(exc).lower()


class Engine:
    """One PySAT engine loaded with one formula."""

    __slots__ = ("solver", "formula", "top", "name", "propagation_budget", "broken", "constant", "solves")

    def __init__(self, name: str, formula: cnf.Formula, units_: list[int] | None = None):
        self.name = name
        self.formula = formula
        self.top = formula.top
        self.solver = Solver(name=name)
        self.broken = False
        """True once a Ctrl-C jumped out of the engine: any further call would abort the process."""
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
        solver = self.solver
        self.solves += 1
        if deadline is None or deadline.at is None:
            return solver.solve(assumptions)
        conflicts, propagations = _FIRST_SLICE, _FIRST_PROPAGATIONS
        while True:
            remaining = deadline.at - time.perf_counter()
            if remaining <= 0:
                raise TimeUp
            solver.conf_budget(conflicts)
            if self.propagation_budget:
                solver.prop_budget(propagations)
            started = time.perf_counter()
            answer = solver.solve_limited(assumptions)
            if answer is not None:
                return answer
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
    """Whether unit propagation of the givens alone gives every cell its digit (one ``propagate`` call)."""
    ok, implied = engine.solver.propagate(assumptions=assumptions)
    return bool(ok) and engine.formula.settled_by(implied)
