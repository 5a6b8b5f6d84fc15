"""The SAT paradigm: a CNF model from ``solvers.sat.cnf`` run by a PySAT engine.

Every built-in constraint kind is encoded natively and any other in the forms of the shared
lowering, so the solver honours any rule set a puzzle carries. Incremental by design: one engine per
rule set, kept by the solver, and each puzzle's givens passed as assumptions, so what the engine
learns stays valid from puzzle to puzzle (a count's blocking clauses are retired by an activation
literal; ``reduced`` is a fresh formula and engine per puzzle). The formula is sized, and refused
when too large for memory, before it is built, and built under the call's deadline. Time limits and
Ctrl-C are taken between budget slices with PySAT's own handler kept out, except on the engines
that cannot run in slices. Solve, count, canonical answers and batches are the four uses of one
engine session (``sat.engine``) and share its lock, renewal and Ctrl-C handling; the batch's hot
loop is the batch loop below.

Each engine's limits, the reasoning behind the reuse, sizes and stats: docs/sat.md.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ...core.grid import Grid, Shape
from ...core.puzzle import Puzzle
from ...core.rules import Rules, standard
from ...errors import UnsupportedFeature
from .. import stoppable
from ..base import (
    Capabilities,
    CountResult,
    Deadline,
    Option,
    SolutionList,
    SolverBase,
    SolveResult,
    Status,
    TimeUp,
    check_kinds,
    check_limit,
    list_found,
)
from ..canonical import smallest_solution
from ..lowering import FORMS
from . import cnf
from . import encodings as cnf_encodings
from . import size as cnf_size
from .encodings import NATIVE
from .engine import COUNTERS, NO_PROPAGATE, PROPAGATED_FROM_COUNTERS, RENEW_AFTER, Engine, settled_by_propagation
from .engines import available_engines, canonical_engine, probe_engine, repeated_solves
from .literals import LiteralArrays, literal_arrays

if TYPE_CHECKING:
    import numpy as np

    from ..batch import BatchResults

PAIRWISE_CLAUSES = 400_000
"""With ``amo="auto"``, formulas that would pass this many clauses with pairwise AMO use ``seqcounter``."""


AUTO_REDUCED_ABOVE = 16
"""With ``encoding="auto"``, boards larger than this get ``reduced``, smaller ones ``extended``."""

CHILD_ABOVE = 25
"""Boards larger than this, under a time limit and the ``reduced`` encoding, are solved in a child process
(``SatSolver._in_child``)."""

KEEP_ENGINES = 8
"""Shared engines kept at once, one per rule set; a new one closes the oldest (a stream of killer
puzzles, each with its own cages, would otherwise keep an engine per puzzle)."""

ENCODING_CHOICES = ("auto", *cnf_encodings.ENCODINGS)
AMO_CHOICES = ("auto", *cnf_encodings.AMO_ENCODINGS)

CONFIGURABLE = ("cadical153", "cadical195")
"""The engines whose own options PySAT sets (``configure``): ``restarts=false`` needs one. (CaDiCaL's
``seed`` is not offered: it changes nothing without random decisions, which are off by default.)"""


class SatSolver(SolverBase):
    """``sat``: CNF (``solvers.sat.cnf``) of the puzzle's rules solved by a PySAT engine, incrementally per rule set.

    Options: ``engine`` (PySAT name or alias; default ``cadical195``), ``restarts`` (false:
    CaDiCaL's own ``restart`` option off, for the study of heavy tails in docs/study.md),
    ``encoding`` (``minimal``, ``efficient``, ``extended``, ``reduced`` or ``auto``) and ``amo``
    (at-most-one encoding; ``auto``, the default, is ``pairwise``, no auxiliary variables to decide,
    unless the formula grows too large). ``encoding="auto"`` is ``extended`` up to 16x16:
    incremental, and its extra clauses are the hidden singles that propagation then finds. Above
    16x16 it is ``reduced``: the shape-wide pairwise formula grows as n**4, while a puzzle's reduced
    formula is far smaller. Why these defaults, with the figures: docs/sat.md.

    Capabilities depend on the engine (``lingeling``: no time limit; ``kissat404``: no canonical
    answers, counting or time limits); calls on one instance take turns on a lock.
    """

    name = "sat"
    paradigm: ClassVar[str] = "SAT (CNF + PySAT)"
    capabilities: ClassVar[Capabilities] = Capabilities(threads="serialised", kinds=NATIVE, forms=FORMS)
    options: ClassVar[tuple[Option, ...]] = (
        Option("engine", str, "cadical195", "PySAT engine, by name or alias", available_engines, canonical_engine),
        Option("encoding", str, "auto", "CNF encoding (auto: extended up to 16x16, reduced above)", ENCODING_CHOICES),
        Option("amo", str, "auto", "at-most-one encoding (auto: pairwise unless the formula gets too large)",
               AMO_CHOICES),
        Option("restarts", bool, True, "let the engine restart its search (false: CaDiCaL engines only)"),
    )

    def __init__(self, engine: str = "cadical195", encoding: str = "auto", amo: str = "auto", restarts: bool = True):
        super().__init__()  # options checked by SolverBase (base.check_options): engine is a PySAT name here
        self.engine = engine
        self.encoding = encoding
        self.amo = amo
        self.settings = {} if restarts else {"restart": 0}
        """CaDiCaL's own options (``configure``), only those that differ from its defaults."""
        if self.settings and self.engine not in CONFIGURABLE:
            raise UnsupportedFeature(f"solver 'sat' option restarts=false needs a CaDiCaL engine "
                                     f"({', '.join(CONFIGURABLE)}), not '{self.engine}'")
        probed = probe_engine(self.engine)
        incremental = probed["assumptions"]  # engines that ignore assumptions (kissat404) also cannot solve twice
        self.incremental, limited = incremental, probed["time_limit"]
        why = ("" if incremental and limited else
               f"SAT engine '{self.engine}' " + ("has no limited solve" if incremental
                                                  else "ignores assumptions and cannot solve twice"))
        self.capabilities = Capabilities(
            canonical=incremental, count=incremental,
            time_limit=incremental and limited, threads="serialised", why=why, kinds=NATIVE, forms=FORMS,
        )
        self._engines: dict[Rules, Engine] = {}

    @classmethod
    def describe_backend(cls) -> dict[str, Any]:
        """The engines of this PySAT build and what each can do, probed now, for ``sudokulab solvers``."""
        again = repeated_solves(available_engines())
        return {"engines": {name: {**probe_engine(name), "repeated": again[name]} for name in available_engines()}}

    def encoding_for(self, n: int) -> str:
        """The encoding used for an n x n board (``auto`` resolved)."""
        if self.encoding != "auto":
            return self.encoding
        return "reduced" if n > AUTO_REDUCED_ABOVE else "extended"

    def amo_for(self, puzzle: Puzzle, encoding: str, deadline: Deadline | None = None) -> str:
        """The at-most-one encoding for a puzzle (``auto`` resolved); refuses a formula that would not fit in
        the memory available (``cnf_size.check_memory``)."""

        sizes = (cnf_size.reduced_group_sizes(puzzle, deadline) if encoding == "reduced" and puzzle.rules.is_standard
                 else None)
        amo = self.amo
        if amo == "auto":
            pairwise = cnf_size.clause_count(puzzle, encoding, "pairwise", sizes)
            amo = "pairwise" if pairwise <= PAIRWISE_CLAUSES else "seqcounter"
        cnf_size.check_memory(puzzle, encoding, amo, "sat", sizes)
        return amo

    # --- engines ---------------------------------------------------------------------------------

    def _engine_for(self, puzzle: Puzzle, deadline: Deadline | None = None) -> tuple[Engine, list[int], bool]:
        """The engine for a puzzle, the assumptions to pass, and whether the engine is its own.

        Incremental: the shared engine of the rule set and the givens as assumptions. Otherwise a
        fresh engine with this puzzle's formula (``reduced``) or the rules plus the givens as
        unit clauses (an engine without assumptions), which the caller closes.
        """
        key = puzzle.rules
        engine = self._engines.get(key)
        if engine is not None and engine.solves >= RENEW_AFTER:
            engine = self._engines[key] = self._renewed(engine)
        if engine is not None:
            return engine, engine.formula.assumptions(puzzle.givens), False
        encoding = self.encoding_for(puzzle.n)
        amo = self.amo_for(puzzle, encoding, deadline)
        if encoding == "reduced":
            return self._new_engine(cnf.reduced_formula(puzzle, amo, deadline), deadline=deadline), [], True
        rules = cnf.rules(key, encoding, amo, deadline)
        if not self.incremental:
            return self._new_engine(rules, rules.assumptions(puzzle.givens), deadline), [], True
        while len(self._engines) >= KEEP_ENGINES:  # the least recently built goes
            self._engines.pop(next(iter(self._engines))).close()
        engine = self._engines[key] = self._new_engine(rules, deadline=deadline)
        return engine, rules.assumptions(puzzle.givens), False

    def _new_engine(self, formula: cnf.Formula, units: list[int] | None = None,
                    deadline: Deadline | None = None) -> Engine:
        """An engine of this solver's kind, loaded under ``deadline``; it runs in slices when the engine can
        (limited solves, more than one call), which keeps PySAT's SIGINT handler out of it (``sat.engine``)."""
        return Engine(self.engine, formula, units, sliced=self.capabilities.time_limit, settings=self.settings,
                      deadline=deadline)

    def _renewed(self, engine: Engine) -> Engine:
        """A fresh engine with the same rules, for one that has served ``RENEW_AFTER`` solves (closed here)."""
        fresh = self._new_engine(engine.formula)
        engine.close()
        return fresh

    def _in_child(self, puzzle: Puzzle, deadline: Deadline) -> bool:
        """Whether a call runs in a child process the deadline ends (``solvers.stoppable``): a large board's
        per-puzzle formula (``reduced``, never kept) takes seconds to build, and as long to free when the
        deadline cuts it short; a child is ended at once, and loses nothing a later puzzle would reuse."""
        return stoppable.wanted(puzzle.n > CHILD_ABOVE and self.encoding_for(puzzle.n) == "reduced", deadline)

    def shares_engine(self, shape: Shape) -> bool:
        """Whether puzzles of this shape share one engine (givens as assumptions): the batch fast path."""
        return self.incremental and self.encoding_for(shape.n) != "reduced"

    def _refuse(self, canonical: bool, count: bool, time_limit: float | None) -> None:
        missing = self.capabilities.lacks(canonical=canonical, count=count, time_limit=time_limit is not None)
        if missing:
            raise UnsupportedFeature(
                f"{self.capabilities.why}, so it cannot {missing}; use another engine (e.g. cadical195)"
            )

    def close(self) -> None:
        with self._lock:
            for engine in self._engines.values():
                engine.close()
            self._engines.clear()

    @contextmanager
    def _session(self, puzzle: Puzzle, deadline: Deadline | None = None
                 ) -> Iterator[tuple[Engine, list[int]] | None]:
        """Under the lock: the engine for a puzzle and its assumptions, or None when ``deadline`` passed while
        its formula was built or loaded; an engine of its own is closed after, and an engine a Ctrl-C
        jumped out of is dropped without being called again."""
        with self._lock:
            try:
                engine, assumptions, own = self._engine_for(puzzle, deadline)
            except TimeUp:
                yield None
                return
            try:
                yield engine, assumptions
            except KeyboardInterrupt:
                own = self._abandon(engine, own)
                raise
            finally:
                if own:
                    engine.close()

    def _abandon(self, engine: Engine, own: bool) -> bool:
        """After a Ctrl-C: drop an engine the interrupt jumped out of (only one that is not ``sliced``;
        calling it again would abort the process) and keep it referenced so it is never freed; returns
        whether the caller still owns (and should close) the engine."""
        if not engine.broken:
            return own
        if not own:
            self._engines.pop(engine.formula.rules, None)
        _ABANDONED.append(engine)
        return False

    # --- solving ---------------------------------------------------------------------------------

    def solve(
        self, puzzle: Puzzle, *, time_limit: float | None = None, canonical: bool = False
    ) -> SolveResult:
        check_kinds(self, puzzle)
        started = time.perf_counter()
        if canonical or time_limit is not None:
            self._refuse(canonical, False, time_limit)
        deadline = Deadline(time_limit) if time_limit is not None else None
        if deadline is not None and self._in_child(puzzle, deadline):
            with self._lock:  # held across the fork: the child's call takes it again, never waits on it
                return stoppable.solve(self, puzzle, deadline, started, canonical)
        with self._session(puzzle, deadline) as opened:
            if opened is None:  # the time ran out while the formula was built or loaded
                return SolveResult(self.name, Status.TIME_LIMIT, None, time.perf_counter() - started, {"calls": 0})
            engine, assumptions = opened
            before = engine.counters()
            calls = [0]  # a mutable count, so that a TimeUp keeps it
            try:
                if deadline is not None:
                    deadline.check()
                if canonical:
                    grid = _canonical(engine, puzzle, assumptions, deadline, calls)
                else:
                    calls[0] = 1
                    grid = engine.formula.decode(engine.solver.get_model(), puzzle.givens) \
                        if engine.run(assumptions, deadline) else None
                status = Status.SOLVED if grid is not None else Status.NO_SOLUTION
            except TimeUp:
                grid, status = None, Status.TIME_LIMIT
            stats = self._stats(engine, before, calls[0])
            if not canonical and status is not Status.TIME_LIMIT:
                self._propagated(engine, assumptions, stats)
        return SolveResult(self.name, status, grid, time.perf_counter() - started, stats)

    def count(
        self, puzzle: Puzzle, *, limit: int = 2, time_limit: float | None = None
    ) -> CountResult:
        """Count by blocking each model's blank cells behind an activation literal retired after."""
        if time_limit is not None:
            check_kinds(self, puzzle)
            self._refuse(False, True, time_limit)
            deadline = Deadline(time_limit)
            if self._in_child(puzzle, deadline):
                with self._lock:  # held across the fork, as in solve
                    return stoppable.count(self, puzzle, deadline, time.perf_counter(), check_limit(limit))
        found, status, seconds, stats = self._enumerate(puzzle, check_limit(limit), time_limit)
        return CountResult(self.name, found, limit, status, seconds, stats)

    def solutions(self, puzzle: Puzzle, *, limit: int = 10, time_limit: float | None = None) -> SolutionList:
        """The solutions up to ``limit``, by the same blocking clauses as ``count`` (found in the engine's order,
        sorted when the list is complete)."""
        kept: list[Grid] = []
        _, status, seconds, stats = self._enumerate(puzzle, check_limit(limit) + 1, time_limit, kept)
        return list_found(self.name, kept, limit, status, seconds, stats, in_order=False)

    def _enumerate(self, puzzle: Puzzle, limit: int, time_limit: float | None, kept: list[Grid] | None = None
                   ) -> tuple[int, Status, float, dict[str, int | bool | str]]:
        """Models up to ``limit``, each blocked once found (and appended to ``kept``, when given)."""
        check_kinds(self, puzzle)
        started = time.perf_counter()
        self._refuse(False, True, time_limit)
        deadline = Deadline(time_limit) if time_limit is not None else None
        found = 0
        status = Status.NO_SOLUTION
        with self._session(puzzle, deadline) as opened:
            if opened is None:  # the time ran out while the formula was built or loaded
                return 0, Status.TIME_LIMIT, time.perf_counter() - started, {"calls": 0}
            engine, assumptions = opened
            before = engine.counters()
            active = engine.new_variable()
            formula = engine.formula
            try:
                if deadline is not None:
                    deadline.check()
                while found < limit and engine.run(assumptions + [active], deadline):
                    grid = formula.decode(engine.solver.get_model(), puzzle.givens)
                    engine.solver.add_clause([-active] + formula.blocking_clause(grid, puzzle.givens))
                    if kept is not None:
                        kept.append(grid)
                    found += 1
                    status = Status.SOLVED
            except TimeUp:
                status = Status.TIME_LIMIT
            finally:
                if not engine.broken:
                    engine.solver.add_clause([-active])  # retire this count's blocking clauses
            stats = self._stats(engine, before, found + (found < limit))
        return found, status, time.perf_counter() - started, stats

    def _stats(self, engine: Engine, before: dict[str, float], calls: int) -> dict[str, int | float | bool | str]:
        after = engine.counters()
        stats: dict[str, int | float | bool | str] = {key: int(after[key] - before.get(key, 0))
                                                      for key in COUNTERS if key in after}
        stats["calls"] = calls
        stats["solve_seconds"] = after["seconds"] - before.get("seconds", 0.0)
        stats.update(self._constant_stats(engine))
        return stats

    def _constant_stats(self, engine: Engine) -> dict[str, int | str]:
        """The stats that hold for every puzzle on this engine: formula size and configuration."""
        if engine.constant is None:
            formula = engine.formula
            engine.constant = {"variables": formula.variables, "clauses": len(formula.clauses),
                               "engine": self.engine, "encoding": formula.encoding, "amo": formula.amo}
        return engine.constant

    def _propagated(self, engine: Engine, assumptions: list[int], stats: dict) -> None:
        """Add whether unit propagation of the givens alone settled the puzzle (docs/sat.md says on which engines)."""
        if engine.formula.per_puzzle:
            return  # reduced: its givens are clauses (docs/sat.md)
        if self.engine in PROPAGATED_FROM_COUNTERS:
            stats["propagated"] = stats["decisions"] == 0 and stats["conflicts"] == 0
        elif self.engine not in NO_PROPAGATE:
            stats["propagated"] = settled_by_propagation(engine, assumptions)
            stats["calls"] += 1


    # --- batches ---------------------------------------------------------------------------------

    def solve_batch(self, givens: np.ndarray, shape: Shape, *, time_limit: float | None = None,
                    rules: Rules | None = None) -> BatchResults:
        """The batch entry point (``sudokulab.solvers.batch``): k puzzles of one shape, answers as arrays.

        ``rules`` are the batch's rules (all its puzzles share them; None: standard Sudoku).

        Why: around a 17-clue 9x9, whose engine call takes tens of microseconds, each Python step
        counts. Here the assumptions of the whole batch come from one numpy lookup, each model is
        read as its true cell literals and decoded for all puzzles at once, and the counters are
        read once per puzzle and differenced as arrays (the batch loop below): nearer a bare loop's rate
        than ``solve`` (``benchmarks/results/per-call.md``), where reading the whole model
        (``get_model``) is a large part of a bare call.
        The engine, lock, time limits and Ctrl-C are those of ``solve`` (the lock is held for the
        whole batch). Shapes without a shared engine (``reduced``, engines without assumptions) go
        through ``solve`` puzzle by puzzle.
        ``propagated`` is False for a puzzle that ran out of time (``solve`` leaves it out).
        """
        from .. import batch as batches

        rules = standard(shape) if rules is None else rules
        empty = Puzzle(shape, (0,) * shape.cells, rules)  # also checks that the rules fit the shape
        check_kinds(self, empty)
        givens = batches.checked_givens(givens, shape)
        self._refuse(False, False, time_limit)
        if time_limit is not None:
            Deadline(time_limit)  # refuses a limit that is not positive, as solve does
        if not self.shares_engine(shape):  # a fresh formula or engine per puzzle anyway
            if rules.is_standard:
                return batches.solve_each(self, givens, shape, time_limit)
            return solve_each_under(self, givens, rules, time_limit)
        propagate = self.engine not in PROPAGATED_FROM_COUNTERS | NO_PROPAGATE
        with self._session(empty) as opened:
            assert opened is not None  # no deadline while building: never cut short
            engine, _ = opened
            ran = run_batch(engine, givens, shape, time_limit, propagate)
            constant = dict(self._constant_stats(engine))
        return pack_batch(self.name, ran, givens, propagate, self.engine in PROPAGATED_FROM_COUNTERS, constant)


_ABANDONED: list[Engine] = []
"""Engines a Ctrl-C jumped out of, kept referenced so that they are never called (or freed) again."""


def _canonical(
    engine: Engine, puzzle: Puzzle, assumptions: list[int], deadline: Deadline | None, calls: list[int]
) -> Grid | None:
    """The row-major lexicographically first solution, by incremental solving under assumptions
    (``canonical.smallest_solution``: each blank cell in turn fixed to its smallest feasible digit)."""
    formula = engine.formula

    def run(extra: list[int]) -> Grid | None:
        calls[0] += 1
        if not engine.run(assumptions + extra, deadline):
            return None
        return formula.decode(engine.solver.get_model(), puzzle.givens)

    def try_digit(cell: int, digit: int, fixed: Sequence[tuple[int, int]]) -> Grid | None:
        lit = formula.literal(cell, digit)
        if lit is None:  # the reduced encoding has decided it false
            return None
        return run([held for held in (formula.literal(c, d) for c, d in fixed) if held is not None] + [lit])

    first = run([])
    return None if first is None else smallest_solution(puzzle, first, try_digit)


# --- a batch on one engine: the hot loop, and its answers turned into arrays -------------------------

@dataclass
class BatchRun:
    """What the loop gathered: per puzzle its code, wall and CPU seconds, and the engine's counters
    before and after each (k + 1 readings); the models of the solved ones as true cell literals."""

    arrays: LiteralArrays
    formula: cnf.Formula
    codes: list[int]
    seconds: list[float]
    cpu: list[float]
    counts: list[dict[str, int]]
    settled: list[bool]
    positives: list[list[int]]
    solved: list[int]


def run_batch(engine: Engine, givens: np.ndarray, shape: Shape, time_limit: float | None,
              propagate: bool) -> BatchRun:
    """Solve each row of ``givens`` on the engine under the givens' assumptions (the caller holds its session)."""
    from .. import batch as batches

    k = len(givens)
    arrays = literal_arrays(shape.n)
    flat, offsets = arrays.assumptions(givens)
    ran = BatchRun(arrays, engine.formula, [batches.NO_SOLUTION] * k, [0.0] * k, [0.0] * k, [], [], [], [])
    codes, seconds, cpu, counts = ran.codes, ran.seconds, ran.cpu, ran.counts
    settled, positives, solved = ran.settled, ran.positives, ran.solved
    solver, formula = engine.solver, engine.formula
    run, model, accum = engine.run, solver.get_model, engine.counters
    cut = shape.n**3 if formula.top > shape.n**3 else None  # auxiliary variables come after the cells
    clock, cpu_clock = time.perf_counter, time.process_time
    counts.append(accum())
    try:
        for i in range(k):  # the hot loop: what is ours per puzzle is cut to the bone
            assumptions = flat[offsets[i]:offsets[i + 1]]
            started, cpu_started = clock(), cpu_clock()
            try:
                answer = run(assumptions, None if time_limit is None else Deadline(time_limit))
            except TimeUp:
                codes[i] = batches.TIME_LIMIT
            else:
                if answer:
                    codes[i] = batches.SOLVED
                    values = model()
                    positives.append([lit for lit in (values if cut is None else values[:cut]) if lit > 0])
                    solved.append(i)
                if propagate:
                    settled.append(settled_by_propagation(engine, assumptions))
            seconds[i], cpu[i] = clock() - started, cpu_clock() - cpu_started
            counts.append(accum())
    except Exception as exc:  # PySAT's report of a Ctrl-C caught in the engine; TimeUp never gets here
        engine.check_interrupt(exc)
        raise
    return ran


def pack_batch(name: str, ran: BatchRun, givens: np.ndarray, propagate: bool, from_counters: bool,
               constant: dict) -> BatchResults:
    """The ``BatchResults`` of a run: grids decoded at once, counters differenced, ``propagated`` per
    puzzle (from ``propagate()`` calls, or from the counters where the engine's say it for free)."""
    import numpy as np

    from .. import batch as batches

    k, cells = givens.shape
    status = np.array(ran.codes, dtype=np.int8)
    grids = np.zeros((k, cells), dtype=batches.DIGITS)
    if ran.solved:
        grids[ran.solved] = _decoded(ran.arrays, ran.formula, ran.positives, givens[ran.solved])
    stats: dict[str, np.ndarray] = {}
    counted = COUNTERS[0] in ran.counts[0]  # engines without stats (``NO_STATS``) report their seconds alone
    if counted:
        totals = np.array([[c[key] for key in COUNTERS] for c in ran.counts], dtype=np.int64)
        stats = dict(zip(COUNTERS, np.diff(totals, axis=0).T))
    stats["calls"] = np.full(k, 2 if propagate else 1, dtype=np.int64)
    if propagate:
        stats["calls"][status == batches.TIME_LIMIT] = 1
        ran_out = status != batches.TIME_LIMIT
        stats["propagated"] = np.zeros(k, dtype=bool)
        stats["propagated"][ran_out] = ran.settled
    elif counted and from_counters:
        stats["propagated"] = (stats["decisions"] == 0) & (stats["conflicts"] == 0) & (status != batches.TIME_LIMIT)
    stats["solve_seconds"] = np.diff(np.array([c["seconds"] for c in ran.counts], dtype=np.float64))
    return batches.BatchResults(name, status, grids, np.array(ran.seconds), np.array(ran.cpu), stats, constant)


def _decoded(arrays: LiteralArrays, formula: cnf.Formula, positives: list[list[int]],
             givens: np.ndarray) -> np.ndarray:
    """The grids of solved puzzles from their models' true cell literals, all at once when each
    model has one per cell (every model of these encodings does), else one by one (which raises)."""
    import numpy as np

    cells = formula.shape.cells
    if all(len(row) == cells for row in positives):
        grids = arrays.decode(np.array(positives, dtype=np.int32))
        if grids is not None:
            return grids
    return np.array([formula.decode(row, tuple(given)) for row, given in zip(positives, givens.tolist())],
                    dtype=np.uint8)


def solve_each_under(solver: SatSolver, givens: np.ndarray, rules: Rules, time_limit: float | None) -> BatchResults:
    """A batch of puzzles under non-standard rules through ``solve``, one by one (``batch.solve_each``
    builds standard puzzles)."""
    from .. import batch as batches

    results, cpu = [], []
    for row in givens.tolist():
        started = time.process_time()
        results.append(solver.solve(Puzzle(rules.shape, tuple(row), rules), time_limit=time_limit))
        cpu.append(time.process_time() - started)
    return batches.pack_results(solver.name, rules.shape, results, cpu)


