"""One model, many engines: the CPMpy model of ``solvers.cpmpy.model`` run by any backend CPMpy finds here.

The point of this paradigm is the modelling layer: the rules are written once, as a person writes
them (``AllDifferent``, ``!=``, ``sum == total``, ``<``), and CPMpy transforms them for each engine.
The stats keep the two costs apart (``transform_seconds``, ``solve_seconds``), so the layer's price
can be set against sudokulab's own models. Givens reach a backend by ``post`` (a fresh backend per
puzzle) or ``assume`` (one backend per rule set, givens as assumptions); ``auto`` takes the cheaper
per backend (``cpmpy_backends.TRAITS``). Canonical answers come from ``canonical.smallest_solution``,
counts from CPMpy's ``solveAll`` on a fresh backend. The deadline covers both costs (constraints
posted a chunk at a time); Ctrl-C runs through ``native.interruptible``. The backend table is
``cpmpy_backends``; this module is the run loop and the two ways of giving givens.

Which backend takes which way and why, time limits and Ctrl-C per backend: docs/cpmpy.md.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from cpmpy import SolverLookup
from cpmpy.solvers.solver_interface import ExitStatus

from ...core.grid import Grid
from ...core.puzzle import Puzzle
from ...core.rules import Rules
from ...errors import SudokuError, UsageError
from .. import stoppable
from ..base import (
    Capabilities,
    CountResult,
    Deadline,
    Option,
    SolverBase,
    SolveResult,
    Stat,
    Status,
    TimeUp,
    backend_failed,
    check_kinds,
    check_limit,
)
from ..canonical import smallest_solution
from ..lowering import FORMS
from ..native import interruptible
from .backends import available_backends, checked_backend, installed_traits, known_backends
from .model import NATIVE

GIVENS = ("auto", "post", "assume")
KEPT = 8
"""Rule sets whose backend (``assume``) a solver keeps; the oldest goes first beyond this."""
CHILD_ABOVE = 25
"""Boards larger than this run a call with a time limit in a child process the deadline ends
(``solvers.stoppable``): the engines' own set-up there (CP-SAT loading the model, z3 and Exact taking it
in) is seconds that watch no clock."""
NO_LIMIT = 10.0**7
"""The time limit given to a backend that only stops when it has one (``cpmpy_backends.Traits.needs_limit``)."""


_TIME_UP = object()
"""What a run in the helper thread returns when its deadline passed (see ``_interruptible``)."""


@dataclass
class _Effort:
    """What a call cost, summed over its solves."""

    transform: float = 0.0
    solve: float = 0.0
    solves: int = 0
    counters: dict[str, int] = field(default_factory=dict)

    def add(self, counters: dict[str, int]) -> None:
        for key, value in counters.items():
            self.counters[key] = self.counters.get(key, 0) + value


@dataclass
class _Kept:
    """A backend with a rule set and its indicators posted, for ``givens="assume"``."""

    backend: Any
    indicators: Any


class CpmpySolver(SolverBase):
    """``cpmpy``: one CPMpy model of the rules, solved by the CPMpy backend chosen.

    Args:
        backend: a solver CPMpy supports here (``cpmpy.SolverLookup``): ortools (default), pysat,
            z3, exact, choco, pumpkin, pindakaas, as installed.
        givens: ``post`` (a fresh backend per puzzle, givens as equalities), ``assume`` (one backend
            per rule set, givens as assumptions) or ``auto`` (the cheaper measured for the backend).
    """

    name = "cpmpy"
    paradigm: ClassVar[str] = "constraint programming (one model, many engines: CPMpy)"
    capabilities: ClassVar[Capabilities] = Capabilities(threads="serialised", extra="cpmpy", kinds=NATIVE,
                                                        forms=FORMS)
    options: ClassVar[tuple[Option, ...]] = (
        Option("backend", str, "ortools", "CPMpy backend (those CPMpy supports here)", available_backends,
               checked_backend),
        Option("givens", str, "auto", "post (fresh backend, equalities), assume (kept backend, assumptions), "
               "auto (the cheaper for the backend)", GIVENS, lambda value: value.strip().lower()),
    )

    def __init__(self, backend: str = "ortools", givens: str = "auto"):
        super().__init__()  # options checked by SolverBase (base.check_options)
        traits = installed_traits(backend)
        if givens == "assume" and not traits.assumptions:
            raise UsageError(f"solver 'cpmpy': CPMpy backend '{backend}' cannot be kept for assumptions "
                             "(no assumptions, or objects bound to one thread); use givens=post")
        self.backend, self.traits = backend, traits
        self.givens = traits.givens if givens == "auto" else givens
        self.capabilities = Capabilities(threads="serialised", extra="cpmpy", kinds=traits.kinds, forms=FORMS,
                                         kinds_why=traits.kinds_why)
        self._models: dict[Rules, Any] = {}  # RuleModel per rule set
        self._kept: dict[Rules, _Kept] = {}
        self._running: Any = None
        self._stopped = False

    @classmethod
    def describe_backend(cls) -> dict[str, Any]:
        """CPMpy's version and each backend it knows: installed here or not, and its version."""
        import cpmpy

        backends = {}
        for name, solver in known_backends().items():
            try:
                version = solver.version()
            except Exception:  # noqa: BLE001 - a backend's probe may fail in its own way: report none
                version = None
            backends[name] = {"supported": bool(solver.supported()), "version": version}
        return {"cpmpy": cpmpy.__version__, "backends": backends}

    # --- models and backends ---------------------------------------------------------------------

    def _model(self, rules: Rules) -> Any:
        from .model import rule_model

        model = self._models.get(rules)
        if model is None:
            if len(self._models) >= KEPT:
                self._forget(next(iter(self._models)))
            model = self._models[rules] = rule_model(rules, self.capabilities.kinds)
        return model

    def _forget(self, rules: Rules) -> None:
        self._models.pop(rules, None)
        self._kept.pop(rules, None)

    def _fresh(self, constraints: Sequence[Any], deadline: Deadline, effort: _Effort) -> Any:
        """A new backend with ``constraints`` posted ``CHUNK`` at a time (the clock looked at between chunks)."""
        started = time.perf_counter()
        try:
            backend = SolverLookup.get(self.backend)
            chunk = self.traits.chunk
            for first in range(0, len(constraints), chunk):
                deadline.check()
                backend += list(constraints[first:first + chunk])
        finally:
            effort.transform += time.perf_counter() - started
        return backend

    def _kept_for(self, rules: Rules, deadline: Deadline, effort: _Effort) -> _Kept:
        from .model import indicators

        kept = self._kept.get(rules)
        if kept is None:
            model = self._model(rules)
            flags = indicators(model)
            backend = self._fresh((*model.constraints, *flags.constraints), deadline, effort)
            kept = self._kept[rules] = _Kept(backend, flags)  # only a complete one is kept
        return kept

    def _run(self, backend: Any, deadline: Deadline, effort: _Effort, assumptions: list | None = None) -> bool | None:
        """One solve within what is left of the deadline: True, False (no solution), None (time up)."""
        left = None if deadline.at is None else deadline.at - time.perf_counter()
        if left is not None and left <= 0:
            raise TimeUp
        if left is None and self.traits.needs_limit:
            left = NO_LIMIT
        kwargs = dict(self.traits.settings)
        if assumptions is not None:
            kwargs["assumptions"] = assumptions
        before = self.traits.counters(backend) if self.traits.cumulative and self.traits.counters else {}
        self._running = backend
        if self._stopped:
            raise KeyboardInterrupt
        started = time.perf_counter()
        try:
            found = backend.solve(time_limit=left, **kwargs)
        finally:
            self._running = None
            effort.solve += time.perf_counter() - started
            effort.solves += 1
        if self.traits.counters is not None:
            after = self.traits.counters(backend)
            effort.add({key: value - before.get(key, 0) for key, value in after.items()})
        if found:
            return True
        if backend.status().exitstatus is ExitStatus.UNSATISFIABLE:
            return False
        self._interrupted(backend, deadline)
        return None

    def _interrupted(self, backend: Any, deadline: Deadline) -> None:
        """Raise KeyboardInterrupt if an engine that stopped short was stopped by Ctrl-C, not by its time
        limit: this process's Ctrl-C (``_stop``), or one the engine took for itself (Z3 does, during a
        check, and answers "unknown"). A backend that cannot say which is taken as interrupted when
        it stopped well before the deadline; CP-SAT, which stops early on a busy machine, says."""
        took = self.traits.took_ctrl_c
        if self._stopped or deadline.at is None:  # stopped by us, or with no limit to stop at
            raise KeyboardInterrupt
        if took(backend) if took is not None else time.perf_counter() < deadline.at - 0.05:
            raise KeyboardInterrupt

    def _stop(self) -> None:
        self._stopped = True
        running, stop = self._running, self.traits.stop
        if running is not None and stop is not None:
            stop(running)

    def _interruptible(self, rules: Rules, call: Callable[[], Any]) -> Any:
        """``call()`` through ``native.interruptible``; TimeUp raised out of it again in the caller's thread."""
        self._stopped = False

        def run() -> Any:
            try:
                return call()
            except TimeUp:  # caught here so that its frames, which hold the backend, are freed in this thread
                return _TIME_UP

        try:
            answer = interruptible(run, self._stop)
        except KeyboardInterrupt:
            self._forget(rules)  # its variables may still be written by a backend left running
            raise
        except SudokuError:
            raise
        except Exception as exc:  # noqa: BLE001 - the backend failed (an import, a transformation, native code)
            self._forget(rules)
            raise backend_failed(self.name, f"CPMpy backend '{self.backend}'", exc) from exc
        if answer is _TIME_UP:
            raise TimeUp
        return answer

    # --- solving ---------------------------------------------------------------------------------

    def _place(self, puzzle: Puzzle, placed: Sequence[tuple[int, int]], deadline: Deadline,
               effort: _Effort) -> Grid | None | bool:
        """A solution with the givens and ``placed`` in place (a grid), False (none), or None (time up)."""
        model = self._model(puzzle.rules)
        everything = [(cell, digit) for cell, digit in enumerate(puzzle.givens) if digit] + list(placed)
        if self.givens == "assume":
            kept = self._kept_for(puzzle.rules, deadline, effort)
            found = self._run(kept.backend, deadline, effort, kept.indicators.literals(everything))
        else:
            equalities = [model.var(cell) == digit for cell, digit in everything]
            backend = self._fresh((*model.constraints, *equalities), deadline, effort)
            found = self._run(backend, deadline, effort)
        if found is None:
            raise TimeUp
        return model.grid() if found else False

    def _solve(self, puzzle: Puzzle, deadline: Deadline, canonical: bool, effort: _Effort) -> Grid | None:
        grid = self._place(puzzle, (), deadline, effort)
        if not grid or not canonical:
            return grid or None

        def try_digit(cell: int, digit: int, fixed: Sequence[tuple[int, int]]) -> Grid | None:
            return self._place(puzzle, (*fixed, (cell, digit)), deadline, effort) or None

        return smallest_solution(puzzle, grid, try_digit)

    def _stats(self, puzzle: Puzzle, effort: _Effort) -> dict[str, Stat]:
        variables, constraints = self._model(puzzle.rules).size
        constraints += puzzle.shape.cells - puzzle.blanks  # x == d per given, as CPMpy counts them
        return {"backend": self.backend, "givens": self.givens, "variables": variables, "constraints": constraints,
                "transform_seconds": effort.transform, "solve_seconds": effort.solve, "solves": effort.solves,
                **effort.counters}

    def solve(self, puzzle: Puzzle, *, time_limit: float | None = None, canonical: bool = False) -> SolveResult:
        check_kinds(self, puzzle)
        started = time.perf_counter()
        deadline = Deadline(time_limit)
        effort = _Effort()
        with self._lock, warnings.catch_warnings():
            if stoppable.wanted(puzzle.n > CHILD_ABOVE, deadline):
                return stoppable.solve(self, puzzle, deadline, started, canonical)
            warnings.simplefilter("ignore")  # CPMpy's warnings are about its own use, not the puzzle
            try:
                grid = self._interruptible(puzzle.rules, lambda: self._solve(puzzle, deadline, canonical, effort))
                status = Status.SOLVED if grid else Status.NO_SOLUTION
            except TimeUp:
                grid, status = None, Status.TIME_LIMIT
            stats = self._stats(puzzle, effort)
        return SolveResult(self.name, status, grid, time.perf_counter() - started, stats)

    def count(self, puzzle: Puzzle, *, limit: int = 2, time_limit: float | None = None) -> CountResult:
        check_kinds(self, puzzle)
        check_limit(limit)
        started = time.perf_counter()
        deadline = Deadline(time_limit)
        effort = _Effort()
        with self._lock, warnings.catch_warnings():
            if stoppable.wanted(puzzle.n > CHILD_ABOVE, deadline):
                return stoppable.count(self, puzzle, deadline, started, limit)
            warnings.simplefilter("ignore")  # solveAll warns that it spoils the backend: this one is thrown away
            try:
                found, status = self._interruptible(puzzle.rules, lambda: self._count(puzzle, limit, deadline, effort))
            except TimeUp:
                found, status = 0, Status.TIME_LIMIT
            stats = self._stats(puzzle, effort)
        return CountResult(self.name, found, limit, status, time.perf_counter() - started, stats)

    def _count(self, puzzle: Puzzle, limit: int, deadline: Deadline, effort: _Effort) -> tuple[int, Status]:
        model = self._model(puzzle.rules)
        backend = self._fresh((*model.constraints, *model.given_constraints(puzzle.givens)), deadline, effort)
        left = None if deadline.at is None else deadline.at - time.perf_counter()
        if left is not None and left <= 0:
            raise TimeUp
        if left is None and self.traits.needs_limit:
            left = NO_LIMIT
        self._running = backend
        if self._stopped:
            raise KeyboardInterrupt
        solve_started = time.perf_counter()
        try:
            found = backend.solveAll(time_limit=left, solution_limit=limit, **self.traits.settings)
        finally:
            self._running = None
            effort.solve += time.perf_counter() - solve_started
            effort.solves += 1
        if self.traits.counters is not None:
            effort.add(self.traits.counters(backend))
        answer = backend.status().exitstatus
        if found >= limit or (found and answer is ExitStatus.OPTIMAL):
            return found, Status.SOLVED  # stopped at the limit, or every solution found
        if not found and answer is ExitStatus.UNSATISFIABLE:
            return 0, Status.NO_SOLUTION
        if found and answer is ExitStatus.UNSATISFIABLE:
            return found, Status.SOLVED
        self._interrupted(backend, deadline)
        return found, Status.TIME_LIMIT

    def close(self) -> None:
        with self._lock:
            self._models.clear()
            self._kept.clear()
