"""The SAT paradigm: a CNF model from ``models.cnf`` run by a PySAT engine.

Incremental by design. The first puzzle of a shape loads that shape's rules into one engine kept
by the solver instance; every later puzzle of the shape only passes its givens as assumptions.
What the engine learns stays valid from puzzle to puzzle because every learned clause is derived
by resolution from the clauses alone: an assumption is only a decision, so when it takes part in
a conflict, its negation ends up in the learned clause rather than being used as a fact. Such a
clause holds for every puzzle of the shape. The only clauses added later are a count's blocking clauses, each carrying
the negation of an activation literal that is assumed during the count and fixed false after it,
which retires them for good (``enum_models`` would leave its blocking clauses active and make the
next puzzle on the same engine wrongly unsatisfiable).

The ``reduced`` encoding (Kwon & Jain 2006) depends on the givens, so with it every puzzle gets
its own formula and a fresh engine: smaller formulas, no reuse. The default, ``auto``, takes it
only for boards above 16x16, where the shape-wide formula gets too big (see ``SatSolver``).

Engines (any PySAT name or alias) and what each lacks:

- ``cadical195``, the default: fast from Python. Its ``interrupt()`` is not implemented, so time
  limits are conflict-budget slices (``solve_limited``) with a look at the clock between them.
  Every engine that has ``solve_limited`` is run the same way under a time limit.
- ``lingeling`` has no limited solve: a time limit is refused.
- ``kissat404`` ignores assumptions and cannot solve twice: it is run without incrementality, a
  fresh engine per puzzle with the givens as unit clauses, and refused for canonical answers,
  counting and time limits, which all need more than one call on one engine.

Stats: the engine's decisions, conflicts, propagations and restarts for this puzzle (deltas of
its accumulated counters, since the engine is shared), the formula's variables and clauses,
``calls`` to the engine, and ``propagated``: whether unit propagation of the givens alone settled
the puzzle. On a shared engine that propagation also uses the clauses learned on earlier puzzles
(implied by the rules, so still no search): the share of propagated puzzles in a set can grow as
the engine learns and differ between engines; a fresh solver gives the rules-only figure.
On CaDiCaL 1.5.3 and 1.9.5 the stat is read from the counters for free: no decision and no
conflict (CaDiCaL does not count assumptions as decisions, and skips its "lucky" guesses when
there are assumptions; checked against ``propagate()`` in the tests). On the other engines it is
one ``propagate()`` call, which costs about as much as the solve. It is left out for engines
without ``propagate`` and for ``reduced``: there the givens are clauses, not assumptions, so
CaDiCaL's lucky guesses can solve without a decision and ``propagate()`` does not report what the
root level implies. ``cadical300``'s counters stay 0 under assumptions in this PySAT build, and
``kissat404`` has none: neither reports them.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from pysat.solvers import NoSuchSolverError, Solver, SolverNames

from ..errors import UnsupportedFeature, UsageError
from ..grid import Grid, Puzzle, Shape, units
from ..models import cnf
from .base import CountResult, Deadline, SolverBase, SolveResult, Status, TimeUp

_NOT_INCREMENTAL = frozenset({"kissat404"})
_NO_LIMITED_SOLVE = frozenset({"lingeling"})
_NO_PROPAGATE = frozenset({"cadical103", "lingeling", "kissat404"})
_NO_STATS = frozenset({"kissat404", "cadical300"})  # cadical300's counters stay 0 under assumptions
_PROPAGATED_FROM_COUNTERS = frozenset({"cadical153", "cadical195"})
_COUNTERS = ("decisions", "conflicts", "propagations", "restarts")

_FIRST_SLICE = 200  # conflicts in the first slice of a timed solve; the next ones adapt
_SLICE_SECONDS = 0.02  # aim of one slice: the overshoot past a deadline stays about this small


def engine_names() -> list[str]:
    """Every engine name PySAT knows (some may be missing from its build)."""
    return [name for name in vars(SolverNames) if not name.startswith("_")]


def available_engines() -> list[str]:
    """The engines this PySAT build can run."""
    found = []
    for name in engine_names():
        try:
            Solver(name=name).delete()
        except NoSuchSolverError:
            continue
        found.append(name)
    return found


def canonical_engine(name: str) -> str:
    """The PySAT name of an engine given by name or alias (``g4`` -> ``glucose4``)."""
    wanted = name.lower()
    for engine in engine_names():
        if wanted == engine or wanted in getattr(SolverNames, engine):
            return engine
    raise UsageError(f"unknown SAT engine '{name}'; choose one of: {', '.join(available_engines())}")


class _Engine:
    """One PySAT engine loaded with one formula, with the literal tables to drive it."""

    __slots__ = ("solver", "formula", "table", "top", "name")

    def __init__(self, name: str, formula: cnf.Formula, units_: Sequence[int] = ()):
        self.name = name
        self.formula = formula
        self.table = cnf.literal_table(formula.shape.n)
        self.top = formula.top
        self.solver = Solver(name=name)
        add = self.solver.add_clause
        for clause in formula.clauses:
            add(clause)
        for lit in units_:
            add([lit])

    def counters(self) -> dict[str, int]:
        if self.name in _NO_STATS:
            return {}
        return self.solver.accum_stats()

    def run(self, assumptions: list[int], deadline: Deadline | None) -> bool:
        """Solve under assumptions; raise TimeUp when the deadline passes first."""
        solver = self.solver
        if deadline is None or deadline.at is None:
            return solver.solve(assumptions)
        budget = _FIRST_SLICE
        while True:
            remaining = deadline.at - time.perf_counter()
            if remaining <= 0:
                raise TimeUp
            solver.conf_budget(budget)
            started = time.perf_counter()
            answer = solver.solve_limited(assumptions)
            if answer is not None:
                return answer
            spent = max(time.perf_counter() - started, 1e-6)
            aim = min(_SLICE_SECONDS, remaining / 4)
            budget = max(10, min(budget * 4, int(budget * aim / spent)))

    def new_variable(self) -> int:
        self.top += 1
        return self.top

    def close(self) -> None:
        self.solver.delete()


AUTO_REDUCED_ABOVE = 16
"""With ``encoding="auto"``, boards larger than this get ``reduced``, smaller ones ``extended``."""


class SatSolver(SolverBase):
    """``sat``: CNF (``models.cnf``) solved by a PySAT engine, incrementally per board shape.

    Options: ``engine`` (PySAT name or alias; default ``cadical195``, with CaDiCaL 1.5.3 the
    fastest measured here), ``encoding`` (``minimal``, ``efficient``, ``extended``, ``reduced`` or
    ``auto``) and ``amo`` (at-most-one encoding; default ``pairwise``, the fastest measured: no
    auxiliary variables to decide). ``auto``, the default, is ``extended`` up to 16x16: incremental,
    and its extra clauses are the hidden singles that propagation then finds, many times faster
    than ``minimal`` and ``efficient`` on 9x9 sets. Above 16x16 it is ``reduced``: the shape-wide
    pairwise formula grows as n**4 (752,500 clauses at 25x25, about a second to build and load),
    while a 25x25 puzzle with 45% given reduces to some 27,000 clauses and solved faster per
    puzzle too in our measurements.
    """

    name = "sat"

    def __init__(self, engine: str = "cadical195", encoding: str = "auto", amo: str = "pairwise"):
        if encoding not in ("auto", *cnf.ENCODINGS):
            raise UsageError(f"unknown encoding '{encoding}'; choose one of: auto, {', '.join(cnf.ENCODINGS)}")
        cnf.check_options("extended" if encoding == "auto" else encoding, amo)
        self.engine = canonical_engine(engine)
        try:
            Solver(name=self.engine).delete()
        except NoSuchSolverError:
            raise UsageError(
                f"SAT engine '{engine}' is not in this PySAT build; choose one of: {', '.join(available_engines())}"
            ) from None
        self.encoding = encoding
        self.amo = amo
        self._engines: dict[Shape, _Engine] = {}

    def encoding_for(self, n: int) -> str:
        """The encoding used for an n x n board (``auto`` resolved)."""
        if self.encoding != "auto":
            return self.encoding
        return "reduced" if n > AUTO_REDUCED_ABOVE else "extended"

    # --- engines ---------------------------------------------------------------------------------

    def _engine_for(self, puzzle: Puzzle) -> tuple[_Engine, list[int], bool]:
        """The engine for a puzzle, the assumptions to pass, and whether the engine is its own.

        Incremental: the shared engine of the shape and the givens as assumptions. Otherwise a
        fresh engine with this puzzle's formula (``reduced``) or the rules plus the givens as
        unit clauses (an engine without assumptions), which the caller closes.
        """
        engine = self._engines.get(puzzle.shape)
        if engine is not None:
            return engine, engine.table.assumptions(puzzle.givens), False
        encoding = self.encoding_for(puzzle.n)
        if encoding == "reduced":
            return _Engine(self.engine, cnf.reduced_formula(puzzle, self.amo)), [], True
        rules = cnf.rules(puzzle.shape, encoding, self.amo)
        if self.engine in _NOT_INCREMENTAL:
            table = cnf.literal_table(puzzle.n)
            return _Engine(self.engine, rules, table.assumptions(puzzle.givens)), [], True
        engine = self._engines[puzzle.shape] = _Engine(self.engine, rules)
        return engine, engine.table.assumptions(puzzle.givens), False

    def _refuse(self, what: str, time_limit: float | None) -> None:
        if time_limit is not None and self.engine in _NO_LIMITED_SOLVE:
            raise UnsupportedFeature(
                f"SAT engine '{self.engine}' has no limited solve, so it cannot honour a time limit; "
                "use another engine (e.g. cadical195) or no time limit"
            )
        if self.engine in _NOT_INCREMENTAL and (what or time_limit is not None):
            needs = f"give {what}" if what else "honour a time limit"
            raise UnsupportedFeature(
                f"SAT engine '{self.engine}' ignores assumptions and cannot solve twice, so it cannot {needs}; "
                "use an incremental engine (e.g. cadical195)"
            )

    def close(self) -> None:
        for engine in self._engines.values():
            engine.close()
        self._engines.clear()

    # --- solving ---------------------------------------------------------------------------------

    def solve(
        self, puzzle: Puzzle, *, time_limit: float | None = None, canonical: bool = False
    ) -> SolveResult:
        started = time.perf_counter()
        self._refuse("a canonical answer" if canonical else "", time_limit)
        deadline = Deadline(time_limit) if time_limit is not None else None
        engine, assumptions, own = self._engine_for(puzzle)
        try:
            before = engine.counters()
            calls = [0]  # a mutable count, so that a TimeUp keeps it
            try:
                if canonical:
                    grid = _canonical(engine, puzzle, assumptions, deadline, calls)
                else:
                    calls[0] = 1
                    grid = _decode(engine, puzzle) if engine.run(assumptions, deadline) else None
                status = Status.SOLVED if grid is not None else Status.NO_SOLUTION
            except TimeUp:
                grid, status = None, Status.TIME_LIMIT
            stats = self._stats(engine, before, calls[0])
            if not canonical and status is not Status.TIME_LIMIT:
                self._propagated(engine, assumptions, stats)
        finally:
            if own:
                engine.close()
        return SolveResult(self.name, status, grid, time.perf_counter() - started, stats)

    def count(
        self, puzzle: Puzzle, *, limit: int = 2, time_limit: float | None = None
    ) -> CountResult:
        """Count by blocking each model's blank cells behind an activation literal retired after."""
        started = time.perf_counter()
        self._refuse("a count", time_limit)
        deadline = Deadline(time_limit) if time_limit is not None else None
        engine, assumptions, own = self._engine_for(puzzle)
        found = 0
        status = Status.NO_SOLUTION
        try:
            before = engine.counters()
            active = engine.new_variable()
            blanks = [cell for cell, digit in enumerate(puzzle.givens) if not digit]
            given = engine.table.given
            stride = puzzle.n + 1
            try:
                while found < limit and engine.run(assumptions + [active], deadline):
                    grid = _decode(engine, puzzle)
                    engine.solver.add_clause([-active] + [-given[cell * stride + grid[cell]] for cell in blanks])
                    found += 1
                    status = Status.SOLVED
            except TimeUp:
                status = Status.TIME_LIMIT
            finally:
                engine.solver.add_clause([-active])  # retire this count's blocking clauses
            stats = self._stats(engine, before, found + (found < limit))
        finally:
            if own:
                engine.close()
        return CountResult(self.name, found, limit, status, time.perf_counter() - started, stats)

    def _stats(self, engine: _Engine, before: dict[str, int], calls: int) -> dict[str, int | bool | str]:
        after = engine.counters()
        stats: dict[str, int | bool | str] = {key: after[key] - before.get(key, 0) for key in _COUNTERS if key in after}
        stats["variables"] = engine.formula.variables
        stats["clauses"] = len(engine.formula.clauses)
        stats["calls"] = calls
        return stats

    def _propagated(self, engine: _Engine, assumptions: list[int], stats: dict) -> None:
        """Add whether unit propagation of the givens alone settled the puzzle (see the module doc)."""
        if engine.formula.free is not None:
            return  # reduced: see the module docstring
        if self.engine in _PROPAGATED_FROM_COUNTERS:
            stats["propagated"] = stats["decisions"] == 0 and stats["conflicts"] == 0
        elif self.engine not in _NO_PROPAGATE:
            ok, implied = engine.solver.propagate(assumptions=assumptions)
            cell_vars = len(engine.table.digit_of) - 1
            stats["propagated"] = bool(ok) and sum(1 for lit in implied if 0 < lit <= cell_vars) == len(
                engine.table.offsets
            )
            stats["calls"] += 1


def _canonical(
    engine: _Engine, puzzle: Puzzle, assumptions: list[int], deadline: Deadline | None, calls: list[int]
) -> Grid | None:
    """The row-major lexicographically first solution, by incremental solving under assumptions.

    Blank cells in row-major order each get the smallest digit that keeps the fixed prefix
    satisfiable. The current model bounds the search: its digit is feasible, so only smaller
    digits are tried, and digits a given or fixed peer already holds are skipped without a call.
    """
    n = puzzle.n

    def run(extra: list[int]) -> bool:
        calls[0] += 1
        return engine.run(assumptions + extra, deadline)

    if not run([]):
        return None
    grid = _decode(engine, puzzle)
    u = units(puzzle.shape)
    peers = u.peers
    given = engine.table.given
    free = engine.formula.free
    values = list(puzzle.givens)  # givens and the fixed prefix
    fixed: list[int] = []
    for cell in range(n * n):
        if values[cell]:
            continue
        taken = {values[peer] for peer in peers[cell]}
        choice = grid[cell]
        for digit in range(1, choice):
            lit = given[cell * (n + 1) + digit]
            if digit in taken or (free is not None and lit not in free):
                continue
            if run(fixed + [lit]):
                choice = digit
                grid = _decode(engine, puzzle)
                break
        values[cell] = choice
        fixed.append(given[cell * (n + 1) + choice])
    return tuple(values)


def _decode(engine: _Engine, puzzle: Puzzle) -> Grid:
    """The grid of the engine's model: from the flat table, or, for ``reduced``, from the free
    variables and the givens only (the other cell variables are in no clause)."""
    model = engine.solver.get_model()
    if engine.formula.free is not None:
        return engine.formula.decode(model, puzzle.givens)
    grid = engine.table.decode(model)
    if len(grid) != len(puzzle.givens):  # never with these encodings; if it happens, say where
        return cnf.grid_from_model(puzzle.n, model)
    return grid
