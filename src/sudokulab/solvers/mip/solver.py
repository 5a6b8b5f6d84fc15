"""The 0-1 integer programming paradigm: SCIP (as OR-Tools ships it) runs ``sudokulab.solvers.mip.model``.

SCIP through OR-Tools' ``pywraplp`` is the backend because it is the fastest on hard puzzles in
``benchmarks/results/mip-backends.md`` and adds no dependency (OR-Tools is there for ``cpsat``);
CBC stays as ``backend="cbc"``, for comparison. Every rule kind is honoured through the model's
rows. One ``MipSolver`` keeps one pywraplp model per rule set and sets each puzzle's givens as
lower bounds, so many puzzles build the model once; that model is native state changed by every
call, hence ``threads="serialised"``. Canonical answers come from probing with bounds cell by
cell, counts from no-good cuts, time limits from SCIP's own limit over a shared deadline;
``root_integral`` says whether the root LP relaxation alone solved the puzzle.

Canonical probing, counting and the stats in detail: docs/solvers.md ("Integer programming").
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from ortools.linear_solver import pywraplp

from ...core import variables
from ...core.grid import Grid
from ...core.puzzle import Puzzle
from ...core.rules import Rules
from ...errors import UnsupportedFeature
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
from ..building import available_memory
from ..lowering import FORMS
from ..native import interruptible
from .model import NATIVE, Constraint, MipModel, build_model, fixed_columns, model_size, rules

BACKENDS = {"scip": "SCIP", "cbc": "CBC"}
"""Our backend names -> OR-Tools' (HiGHS through pywraplp prints a banner on every solve: left out)."""

STATUS: dict[int, Status] = {
    pywraplp.Solver.OPTIMAL: Status.SOLVED,  # no objective: any solution is optimal
    pywraplp.Solver.FEASIBLE: Status.SOLVED,
    pywraplp.Solver.INFEASIBLE: Status.NO_SOLUTION,
    # NOT_SOLVED means "stopped by the time limit" only when one was set: see ``_Engine.run``.
    # UNBOUNDED, ABNORMAL and MODEL_INVALID are absent on purpose: bugs, raised as RuntimeError.
}
"""The backend's answer -> ours, for one solve."""

_NAMES = {getattr(pywraplp.Solver, name): name
          for name in ("OPTIMAL", "FEASIBLE", "INFEASIBLE", "UNBOUNDED", "ABNORMAL", "MODEL_INVALID", "NOT_SOLVED")}


@dataclass
class _Effort:
    nodes: int = 0
    lp_iterations: int = 0
    solves: int = 0


KEPT = 8
"""Models a solver keeps (per rule set); the oldest goes first beyond this."""

CHILD_ABOVE = 25
"""Boards larger than this take seconds to build and for SCIP to read, before its clock runs: a call with
a time limit runs in a child process the deadline ends (``solvers.stoppable``)."""

BYTES_PER_BINARY = 14_000
"""Peak memory per binary of the model, about (measured: docs/solvers.md, "The largest boards"); a board
whose estimate is more than the memory this machine has available is refused before any work."""


def _bounds(solver: pywraplp.Solver, constraint: Constraint) -> tuple[float, float]:
    """A row's (lower, upper) bounds in pywraplp's terms."""
    rhs, infinity = constraint.rhs, solver.infinity()
    return {"=": (rhs, rhs), "<=": (-infinity, rhs), ">=": (rhs, infinity)}[constraint.sense]


def _add_rows(solver: pywraplp.Solver, x: list, constraints: tuple[Constraint, ...],
              deadline: Deadline | None = None) -> None:
    """Every row of the model, as ``lower <= sum of coeff * x <= upper`` (the deadline looked at now and then:
    a 25x25 board's rows take a second)."""
    for index, constraint in enumerate(constraints):
        if deadline is not None and not index & 127:
            deadline.check()
        row = solver.Constraint(*_bounds(solver, constraint), constraint.name)
        for i, coeff in zip(constraint.terms, constraint.coefficients):
            row.SetCoefficient(x[i], coeff)


def _columns(n: int, cells: int) -> tuple[tuple[int, ...], ...]:
    """``[cell][digit - 1]``: the column of "cell holds digit", from the one variable map."""
    return tuple(tuple(variables.index(n, cell, digit) for digit in range(1, n + 1)) for cell in range(cells))


class _Engine:
    """One pywraplp model of a rule set's rows (or of one puzzle, for counting); not thread-safe."""

    def __init__(self, backend: str, model: MipModel, threads: int, deadline: Deadline | None = None):
        solver = pywraplp.Solver.CreateSolver(BACKENDS[backend])
        if solver is None:
            raise backend_failed("mip", f"backend '{backend}'", f"OR-Tools has no {BACKENDS[backend]} in this build")
        solver.SuppressOutput()
        if backend == "scip":  # Ctrl-C is ours (see ``native.interruptible``): SCIP must not swallow it
            solver.SetSolverSpecificParametersAsString("misc/catchctrlc = FALSE\n")
        if not solver.SetNumThreads(threads):
            solver.SetNumThreads(1)
        self.backend, self.solver, self.n = backend, solver, model.shape.n
        self.x = [solver.BoolVar(name) for name in model.rules.names]
        self.columns = _columns(self.n, model.shape.cells)
        _add_rows(solver, self.x, model.rules.constraints, deadline)
        self.fixed: tuple[int, ...] = ()
        self.set_fixed(model.fixed)

    def set_fixed(self, fixed: tuple[int, ...]) -> None:
        """Point the model at a puzzle: lower bound 1 on its givens' columns, 0 elsewhere."""
        for i in self.fixed:
            self.x[i].SetLb(0)
        for i in fixed:
            self.x[i].SetLb(1)
        self.fixed = fixed

    def fix(self, column: int) -> None:
        """Fix one more column to 1 (undone by the next ``set_fixed``)."""
        self.x[column].SetLb(1)
        self.fixed += (column,)

    def run(self, deadline: Deadline, effort: _Effort) -> Status:
        """One solve under what is left of the deadline; a status the mapping lacks is a bug."""
        remaining = None if deadline.at is None else deadline.at - time.perf_counter()
        if remaining is not None and remaining <= 0:
            return Status.TIME_LIMIT
        # pywraplp reads a limit of 0 ms as "no limit"; a real limit is at least 1 ms
        self.solver.SetTimeLimit(0 if remaining is None else max(1, math.ceil(1000 * remaining)))
        answer = interruptible(self.solver.Solve, self.solver.InterruptSolve)
        effort.solves += 1
        effort.nodes += self.solver.nodes()
        effort.lp_iterations += self.solver.iterations()
        status = STATUS.get(answer)
        if status is None and answer == pywraplp.Solver.NOT_SOLVED and remaining is not None:
            status = Status.TIME_LIMIT
        if status is None:
            raise RuntimeError(f"{BACKENDS[self.backend]} answered {_NAMES.get(answer, answer)}: a bug in the model "
                               "or the solver, not in the puzzle")
        return status

    def grid(self) -> Grid:
        x, digits = self.x, range(self.n)
        return tuple(max(digits, key=lambda d: x[columns[d]].solution_value()) + 1 for columns in self.columns)


class _Relaxation:
    """The LP relaxation of a rule set's rows (GLOP, continuous 0..1 columns), for ``root_integral``."""

    def __init__(self, rule_set: Rules):
        program = rules(rule_set)
        self.solver = solver = pywraplp.Solver.CreateSolver("GLOP")
        self.x = [solver.NumVar(0, 1, name) for name in program.names]
        _add_rows(solver, self.x, program.constraints)
        self.fixed: tuple[int, ...] = ()

    def integral(self, fixed: tuple[int, ...], left: float | None = None) -> bool | None:
        """True when the relaxation with these columns fixed has an integral optimal vertex; None when
        ``left`` seconds ran out first."""
        for i in self.fixed:
            self.x[i].SetLb(0)
        for i in fixed:
            self.x[i].SetLb(1)
        self.fixed = fixed
        self.solver.SetTimeLimit(0 if left is None else max(1, math.ceil(1000 * left)))
        answer = self.solver.Solve()
        if answer == pywraplp.Solver.INFEASIBLE:
            return False  # an infeasible relaxation proves "no solution" without branching, but is no grid
        if answer != pywraplp.Solver.OPTIMAL:
            return None
        return all(min(v.solution_value(), 1 - v.solution_value()) < 1e-6 for v in self.x)


class MipSolver(SolverBase):
    """``mip``: the 0-1 integer program (one binary per cell and digit) solved by SCIP.

    Args:
        backend: "scip" (default, measured fastest) or "cbc", both shipped inside OR-Tools.
        threads: threads the backend may use (SCIP in OR-Tools runs one whatever is asked).
        root_lp: also solve the root LP relaxation once per call to report ``root_integral``.
    """

    name = "mip"
    paradigm = "integer programming (0-1)"
    capabilities = Capabilities(canonical=True, count=True, time_limit=True, threads="serialised",
                                kinds=NATIVE, forms=FORMS)
    options = (
        Option("backend", str, "scip", "MIP backend inside OR-Tools", choices=tuple(BACKENDS),
               normalise=lambda value: value.strip().lower()),
        Option("threads", int, 1, "threads the backend may use", minimum=1),
        Option("root_lp", bool, True, "solve the root LP relaxation once to report root_integral"),
    )

    def __init__(self, backend: str = "scip", threads: int = 1, root_lp: bool = True):
        super().__init__()  # options checked by SolverBase (base.check_options)
        self.backend, self.threads, self.root_lp = backend, threads, root_lp
        self._engines: dict[Rules, _Engine] = {}
        self._relaxations: dict[Rules, _Relaxation] = {}

    @classmethod
    def describe_backend(cls) -> str:
        return f"{pywraplp.Solver.CreateSolver('SCIP').SolverVersion()} via OR-Tools pywraplp"

    def _engine(self, rule_set: Rules, deadline: Deadline | None = None) -> _Engine:
        """The kept model of a rule set, built on first use under ``deadline`` (``TimeUp``: nothing kept)."""
        engine = self._engines.get(rule_set)
        if engine is None:
            built = _Engine(self.backend, MipModel(rules(rule_set), ()), self.threads, deadline)
            _forget_oldest(self._engines)
            engine = self._engines[rule_set] = built
        return engine

    def _stats(self, puzzle: Puzzle, effort: _Effort, fixed: tuple[int, ...], status: Status,
               deadline: Deadline) -> dict[str, Stat]:
        """Effort and size; ``root_integral`` too unless turned off or the time ran out (the relaxation is
        solved under what is left of the call's limit, and left out when that runs out)."""
        columns, rows = model_size(puzzle.rules)
        stats: dict[str, Stat] = {"nodes": effort.nodes, "lp_iterations": effort.lp_iterations,
                                  "solves": effort.solves, "variables": columns, "constraints": rows,
                                  "backend": self.backend}
        left = None if deadline.at is None else deadline.at - time.perf_counter()
        if self.root_lp and status is not Status.TIME_LIMIT and (left is None or left > 0):
            relaxation = self._relaxations.get(puzzle.rules)
            if relaxation is None:
                _forget_oldest(self._relaxations)
                relaxation = self._relaxations[puzzle.rules] = _Relaxation(puzzle.rules)
            left = None if deadline.at is None else deadline.at - time.perf_counter()
            integral = relaxation.integral(fixed, left) if left is None or left > 0 else None
            if integral is not None:
                stats["root_integral"] = integral
        return stats

    def _large(self, puzzle: Puzzle, deadline: Deadline) -> bool:
        """Refuse a board whose model would not fit in the memory available; whether this call runs in a child."""
        check_memory(puzzle.n)
        return stoppable.wanted(puzzle.n > CHILD_ABOVE and puzzle.rules not in self._engines, deadline)

    def solve(self, puzzle: Puzzle, *, time_limit: float | None = None, canonical: bool = False) -> SolveResult:
        check_kinds(self, puzzle)
        started = time.perf_counter()
        deadline = Deadline(time_limit)
        effort = _Effort()
        fixed = fixed_columns(puzzle)
        with self._lock:
            if self._large(puzzle, deadline):
                return stoppable.solve(self, puzzle, deadline, started, canonical)
            try:
                engine = self._engine(puzzle.rules, deadline)
            except TimeUp:  # the time ran out while the model was built
                return SolveResult(self.name, Status.TIME_LIMIT, None, time.perf_counter() - started,
                                   {"solves": 0, "backend": self.backend})
            engine.set_fixed(fixed)
            try:
                status = engine.run(deadline, effort)
                grid = engine.grid() if status is Status.SOLVED else None
                if canonical and grid is not None:
                    grid = self._first(puzzle, engine, grid, deadline, effort)
                    status = Status.TIME_LIMIT if grid is None else Status.SOLVED
            finally:
                engine.set_fixed(())
            stats = self._stats(puzzle, effort, fixed, status, deadline)
        return SolveResult(self.name, status, grid, time.perf_counter() - started, stats)

    def _first(self, puzzle: Puzzle, engine: _Engine, grid: Grid, deadline: Deadline, effort: _Effort) -> Grid | None:
        """The lexicographically first solution, from any solution ``grid``, by probing (see module)."""
        n, x, columns = puzzle.n, engine.x, engine.columns
        peers = puzzle.rules.peers
        decided = list(puzzle.givens)
        for cell, given in enumerate(puzzle.givens):
            if given:
                continue
            digit = grid[cell]
            while True:
                taken = {decided[peer] for peer in peers[cell]}
                smaller = [d for d in range(1, digit) if d not in taken]
                if not smaller:
                    break
                for d in range(digit, n + 1):
                    x[columns[cell][d - 1]].SetUb(0)
                try:
                    status = engine.run(deadline, effort)
                    found = engine.grid() if status is Status.SOLVED else None
                finally:
                    for d in range(digit, n + 1):
                        x[columns[cell][d - 1]].SetUb(1)
                if status is Status.TIME_LIMIT:
                    return None
                if found is None:
                    break
                grid, digit = found, found[cell]
            decided[cell] = digit
            engine.fix(columns[cell][digit - 1])
        return grid

    def count(self, puzzle: Puzzle, *, limit: int = 2, time_limit: float | None = None) -> CountResult:
        check_kinds(self, puzzle)
        check_limit(limit)
        started = time.perf_counter()
        deadline = Deadline(time_limit)
        check_memory(puzzle.n)
        if stoppable.wanted(puzzle.n > CHILD_ABOVE, deadline):
            return stoppable.count(self, puzzle, deadline, started, limit)
        effort = _Effort()
        model = build_model(puzzle)
        try:
            engine = _Engine(self.backend, model, self.threads, deadline)  # cuts accumulate: a model of its own
        except TimeUp:
            return CountResult(self.name, 0, limit, Status.TIME_LIMIT, time.perf_counter() - started,
                               {"solves": 0, "backend": self.backend})
        blanks = [cell for cell, given in enumerate(puzzle.givens) if not given]
        found, status = 0, Status.NO_SOLUTION
        while found < limit:
            answer = engine.run(deadline, effort)
            if answer is not Status.SOLVED:
                status = answer if answer is Status.TIME_LIMIT else status
                break
            found, status = found + 1, Status.SOLVED
            grid = engine.grid()
            if not blanks:
                break  # the givens are the whole grid: it is the one solution
            cut = engine.solver.Sum([engine.x[engine.columns[cell][grid[cell] - 1]] for cell in blanks])
            engine.solver.Add(cut <= len(blanks) - 1)
        with self._lock:
            stats = self._stats(puzzle, effort, model.fixed, status, deadline)
        return CountResult(self.name, found, limit, status, time.perf_counter() - started, stats)

    def close(self) -> None:
        with self._lock:
            self._engines.clear()
            self._relaxations.clear()


def check_memory(n: int) -> None:
    """Refuse, before any work, an n x n board whose model's estimated peak memory is more than this machine
    has available now (``BYTES_PER_BINARY``; Linux's MemAvailable, unchecked where it cannot be read)."""
    needed = n**3 * BYTES_PER_BINARY
    available = available_memory()
    if available is not None and needed > available:
        raise UnsupportedFeature(
            f"the 0-1 model of a {n}x{n} board has {n ** 3:,} binaries and needs about {needed / 2**30:.1f} GiB; "
            f"this machine has {available / 2**30:.1f} GiB available: use backtrack-fast, sat or cpsat")


def _forget_oldest(kept: dict) -> None:
    """Make room for one more kept model: drop the oldest beyond ``KEPT``."""
    if len(kept) >= KEPT:
        del kept[next(iter(kept))]
