"""The SMT paradigm: z3 reads the SMT-LIB text of ``sudokulab.solvers.smt.model`` and decides it.

Every rule kind is honoured: groups and differing pairs as ``distinct``, cage sums as linear sums,
thermometers as chained ``<``, any other kind in the forms of the shared lowering. The model's text
is parsed once per rule set into a z3 solver kept in a ``Context`` of this solver's own, and a
puzzle's givens go to each check as assumptions, which also serve the canonical search
(``canonical.smallest_solution``). Options choose the ``theory`` (``bitvector``, the default, or
``int``) and the ``tactic`` (``qffd``, the default, z3's finite-domain solver). Counting blocks each
grid under a fresh assumed Boolean, so the kept solver answers later puzzles as before; a check cut
short (time limit, Ctrl-C through ``native.interruptible``) rebuilds its solver, and every grid is
checked against the rules before it is returned. A z3 context is not thread-safe, hence
``threads="serialised"``.

The options, why these defaults, the stats: docs/smt.md.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import z3

from ...core.grid import Grid
from ...core.puzzle import Puzzle
from ...core.rules import Rules
from ...errors import UsageError
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
from .model import NATIVE, THEORIES, SmtModel, rules

TACTICS = ("auto", "qflia", "qfbv", "qffd", "sat")
"""How z3 is asked: its default solver, ``SolverFor`` a logic, or the bit-blasting tactic."""

NEEDS = {"qflia": "int", "qfbv": "bitvector", "sat": "bitvector"}
"""Tactics that hold for one theory only."""

KEPT = 8
"""Rule sets whose z3 solvers a ``SmtSolver`` keeps; the oldest goes first beyond this."""

CHILD_ABOVE = 25
"""Boards larger than this take z3 seconds to parse and preprocess before its timeout runs: a call with a
time limit that must build the rule set's solver runs in a child process (``solvers.stoppable``)."""

EFFORT = {"decisions": ("decisions", "sat decisions"), "conflicts": ("conflicts", "sat conflicts"),
          "propagations": ("propagations", "sat propagations 2ary", "sat propagations nary"),
          "restarts": ("restarts", "sat restarts")}
"""Our effort stat -> the z3 statistics that count it (SMT core, SAT core), summed where several."""

COUNTED = frozenset(key for keys in EFFORT.values() for key in keys)


@dataclass
class _Effort:
    counters: dict[str, int] = field(default_factory=lambda: dict.fromkeys(EFFORT, 0))
    checks: int = 0

    def add(self, before: dict[str, int], after: dict[str, int]) -> None:
        """One check's effort: the counters' growth (some of z3's solvers count over their lifetime)."""
        self.checks += 1
        for ours, theirs in EFFORT.items():
            grown = sum(after.get(key, 0) for key in theirs) - sum(before.get(key, 0) for key in theirs)
            self.counters[ours] += grown if grown >= 0 else sum(after.get(key, 0) for key in theirs)


def _counters(solver: z3.Solver) -> dict[str, int]:
    statistics = solver.statistics()
    return {key: int(statistics.get_key_value(key)) for key in statistics.keys() if key in COUNTED}


class _Engine:
    """One z3 solver holding a rule set's assertions, and the cells' constants to state givens with."""

    def __init__(self, model: SmtModel, tactic: str, seed: int, context: z3.Context):
        self.model, self.context = model, context
        if tactic == "auto":
            solver = z3.Solver(ctx=context)
        elif tactic == "sat":
            blast = z3.With("simplify", blast_distinct=True, ctx=context)
            solver = z3.Then(blast, "bit-blast", "sat", ctx=context).solver()
        else:
            solver = z3.SolverFor({"qflia": "QF_LIA", "qfbv": "QF_BV", "qffd": "QF_FD"}[tactic], ctx=context)
        solver.set("random_seed", seed)
        solver.set("ctrl_c", False)  # Ctrl-C is ours: see ``native.interruptible``
        solver.add(z3.parse_smt2_string(model.text, ctx=context))
        self.solver, self.guards, self.spent = solver, 0, False
        if model.theory == "int":
            self.cells = [z3.Int(name, context) for name in model.names]
        else:
            self.cells = [z3.BitVec(name, model.width, context) for name in model.names]

    def guard(self) -> z3.BoolRef:
        """A fresh Boolean that a count's blocking clauses are conditioned on."""
        self.guards += 1
        return z3.Bool(f"counting!{self.guards}", self.context)

    def equals(self, cell: int, digit: int) -> z3.BoolRef:
        return self.cells[cell] == digit

    def givens(self, puzzle: Puzzle) -> list[z3.BoolRef]:
        return [self.equals(cell, digit) for cell, digit in enumerate(puzzle.givens) if digit]

    def check(self, assumptions: Sequence[z3.BoolRef], deadline: Deadline, effort: _Effort) -> Grid | None:
        """A grid under the assumptions, or None when there is none; ``TimeUp`` when the time ran out."""
        if deadline.at is None:
            timeout = 0  # z3 reads 0 as no limit
        else:
            left = deadline.at - time.perf_counter()
            if left <= 0:
                raise TimeUp
            timeout = max(1, int(left * 1000))
        solver = self.solver
        solver.set("timeout", timeout)
        before = _counters(solver)
        try:
            answer = interruptible(lambda: solver.check(*assumptions), self.context.interrupt)
        except KeyboardInterrupt:
            self.spent = True
            raise
        effort.add(before, _counters(solver))
        if answer == z3.unsat:
            return None
        if answer == z3.unknown:
            self.spent = True  # a check cut short can leave z3's incremental state unsound: rebuilt next time
            if deadline.at is not None:
                raise TimeUp
            raise backend_failed("smt", "z3", f"answered unknown without a time limit ({solver.reason_unknown()})")
        found = solver.model()
        grid = tuple(found.eval(cell, model_completion=True).as_long() for cell in self.cells)
        broken = self.model.rules.first_conflict(grid)
        if broken is not None:  # never seen; a wrong answer must not pass as a solution
            self.spent = True
            raise RuntimeError(f"z3 gave a grid that breaks the rules ({broken}): a bug in the engine")
        return grid


def _lower(value: str) -> str:
    return value.strip().lower()


class SmtSolver(SolverBase):
    """``smt``: one integer (or bit-vector) per cell, rules as SMT-LIB assertions, decided by z3.

    Args:
        theory: "bitvector" (default, measured faster) or "int" (linear integer arithmetic).
        tactic: how z3 is asked (``TACTICS``; "sat" and "qfbv" need bit-vectors, "qflia" integers).
        seed: z3's random seed.
    """

    name = "smt"
    paradigm = "SMT (z3)"
    capabilities = Capabilities(canonical=True, count=True, time_limit=True, threads="serialised",
                                kinds=NATIVE, forms=FORMS)
    options = (
        Option("theory", str, "bitvector", "cells as bit-vectors (bitvector) or integers (int)", THEORIES,
               normalise=_lower),
        Option("tactic", str, "qffd", "z3's finite-domain solver (qffd), SolverFor another logic (qflia, qfbv), "
               "z3's own choice (auto), or bit-blasting to SAT (sat)", TACTICS, normalise=_lower),
        Option("seed", int, 0, "z3's random seed", minimum=0, maximum=2**32 - 1),
    )

    def __init__(self, theory: str = "bitvector", tactic: str = "qffd", seed: int = 0):
        super().__init__()  # options checked by SolverBase (base.check_options)
        needed = NEEDS.get(tactic)
        if needed is not None and needed != theory:
            raise UsageError(f"solver 'smt': tactic {tactic} needs theory={needed}, not {theory}")
        self.theory, self.tactic, self.seed = theory, tactic, seed
        self._context = z3.Context()
        self._engines: dict[Rules, _Engine] = {}

    @classmethod
    def describe_backend(cls) -> str:
        return f"z3 {z3.get_version_string()}"

    def _engine(self, rule_set: Rules) -> _Engine:
        """The kept solver of a rule set, built on first use (``Rules`` hash is cached)."""
        engine = self._engines.get(rule_set)
        if engine is not None and engine.spent:
            del self._engines[rule_set]
            engine = None
        if engine is None:
            if len(self._engines) >= KEPT:
                del self._engines[next(iter(self._engines))]
            model = rules(rule_set, self.theory)
            engine = self._engines[rule_set] = _Engine(model, self.tactic, self.seed, self._context)
        return engine

    def _in_child(self, puzzle: Puzzle, deadline: Deadline) -> bool:
        """Whether this call builds a large board's solver under a time limit, and so runs in a child process."""
        kept = self._engines.get(puzzle.rules)
        return stoppable.wanted(puzzle.n > CHILD_ABOVE and (kept is None or kept.spent), deadline)

    def _stats(self, puzzle: Puzzle, effort: _Effort) -> dict[str, Stat]:
        constants, assertions = rules(puzzle.rules, self.theory).size(puzzle.shape.cells - puzzle.blanks)
        return {**effort.counters, "checks": effort.checks, "constants": constants, "assertions": assertions,
                "theory": self.theory, "tactic": self.tactic}

    def solve(self, puzzle: Puzzle, *, time_limit: float | None = None, canonical: bool = False) -> SolveResult:
        check_kinds(self, puzzle)
        started = time.perf_counter()
        deadline = Deadline(time_limit)
        effort = _Effort()
        status, grid = Status.NO_SOLUTION, None
        with self._lock:
            if self._in_child(puzzle, deadline):
                return stoppable.solve(self, puzzle, deadline, started, canonical)
            engine = self._engine(puzzle.rules)
            givens = engine.givens(puzzle)
            try:
                grid = engine.check(givens, deadline, effort)
                if canonical and grid is not None:

                    def try_digit(cell: int, digit: int, fixed: Sequence[tuple[int, int]]) -> Grid | None:
                        probe = [*givens, *(engine.equals(c, d) for c, d in fixed), engine.equals(cell, digit)]
                        return engine.check(probe, deadline, effort)

                    grid = smallest_solution(puzzle, grid, try_digit)
                status = Status.NO_SOLUTION if grid is None else Status.SOLVED
            except TimeUp:
                status, grid = Status.TIME_LIMIT, None
            stats = self._stats(puzzle, effort)
        return SolveResult(self.name, status, grid, time.perf_counter() - started, stats)

    def count(self, puzzle: Puzzle, *, limit: int = 2, time_limit: float | None = None) -> CountResult:
        check_kinds(self, puzzle)
        check_limit(limit)
        started = time.perf_counter()
        deadline = Deadline(time_limit)
        effort = _Effort()
        found, status = 0, Status.NO_SOLUTION
        with self._lock:
            if self._in_child(puzzle, deadline):
                return stoppable.count(self, puzzle, deadline, started, limit)
            engine = self._engine(puzzle.rules)
            givens = engine.givens(puzzle)
            blanks = [cell for cell, digit in enumerate(puzzle.givens) if not digit]
            guard = engine.guard()  # the blocking clauses hold while it is assumed, and are retired after
            try:
                while found < limit:
                    grid = engine.check([*givens, guard], deadline, effort)
                    if grid is None:
                        break
                    found, status = found + 1, Status.SOLVED
                    if not blanks:
                        break  # the givens are the whole grid: it is the one solution
                    engine.solver.add(z3.Or(z3.Not(guard), *(engine.cells[cell] != grid[cell] for cell in blanks)))
            except TimeUp:
                status = Status.TIME_LIMIT
            finally:
                engine.solver.add(z3.Not(guard))
            stats = self._stats(puzzle, effort)
        return CountResult(self.name, found, limit, status, time.perf_counter() - started, stats)

    def close(self) -> None:
        with self._lock:
            self._engines.clear()
