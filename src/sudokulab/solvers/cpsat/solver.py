"""The CP paradigm: OR-Tools CP-SAT runs a model of ``sudokulab.solvers.cpsat.model`` (Booleans or AllDifferent).

Every rule kind is honoured, natively or through the shared lowering. One ``CpSatSolver`` keeps,
per rule set, a prepared model (givens rewritten per puzzle) and one set of parameters per kind of
run (solve, canonical, count), so many puzzles pay the set-up once; ``solve_batch`` runs a whole
batch in one helper thread. The default model is AllDifferent with presolve on, since ``cpsat``
stands for constraint programming in every comparison; ``model="booleans"`` (exactly-ones, presolve
off) is an option. Calls on one instance take turns on a lock (a CpSolver running two searches at
once aborts the process), and the search runs in a helper thread with CP-SAT's SIGINT handler off,
so Ctrl-C stops it at once. Canonical answers come from a fixed search, counts from one worker. It
talks to CP-SAT's compiled layer (``cp_model_helper``) to keep pandas and numpy out of a cold start,
hence the ``ortools`` bounds.

The parameters, the models' trade-offs and the start-up: docs/cpsat.md.
"""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING, ClassVar

from ortools.sat.python import cp_model_helper as cmh

from ...core.grid import Grid, Shape
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
    check_kinds,
    check_limit,
)
from ..lowering import FORMS
from ..native import interruptible
from .model import MODELS, NATIVE, Prepared

if TYPE_CHECKING:
    import numpy as np

    from ..batch import BatchResults

OPTIMAL, FEASIBLE, INFEASIBLE, UNKNOWN, MODEL_INVALID = (
    cmh.CpSolverStatus.OPTIMAL,
    cmh.CpSolverStatus.FEASIBLE,
    cmh.CpSolverStatus.INFEASIBLE,
    cmh.CpSolverStatus.UNKNOWN,
    cmh.CpSolverStatus.MODEL_INVALID,
)  # the same objects as ``cp_model.OPTIMAL``...

STATUS: dict[object, Status] = {
    OPTIMAL: Status.SOLVED,  # a pure satisfaction model: OPTIMAL means a grid was found
    FEASIBLE: Status.SOLVED,
    INFEASIBLE: Status.NO_SOLUTION,
    UNKNOWN: Status.TIME_LIMIT,  # stopped by a limit before an answer either way
    # MODEL_INVALID is absent on purpose: it is a bug in the model and raises ModelInvalid.
}
"""CP-SAT's answer -> ours, for a solve."""

TUNED = {
    "linearization_level": 0,
    "symmetry_level": 0,
    "use_sat_inprocessing": False,
    "max_presolve_iterations": 1,
    "cp_model_probing_level": 1,
}
"""Changes to CP-SAT's defaults measured to help on 9x9 models (docs/cpsat.md)."""


KEPT = 16
"""Prepared models a solver keeps (per rule set and kind of run); the oldest goes first beyond this."""

CHILD_ABOVE = 25
"""Boards larger than this take CP-SAT seconds to load before it first looks at the clock (nor does it
take a stop call then), so a call with a time limit runs in a child process the deadline ends
(``solvers.stoppable``; docs/solvers.md, "The largest boards")."""


def _check_parameters(text: str) -> str:
    """The text of CP-SAT parameters; refused when it does not parse, with the protobuf library's message.

    (``SatParameters.merge_text_format`` only answers False, with the message on stderr.)
    """
    from google.protobuf import text_format
    from ortools.sat import sat_parameters_pb2

    try:
        text_format.Parse(text, sat_parameters_pb2.SatParameters())
    except text_format.ParseError as exc:
        raise UsageError(f"CP-SAT parameters '{text}' do not parse: {exc}") from None
    return text


class ModelInvalid(RuntimeError):
    """CP-SAT refused the model: a bug in the model builder, never the user's puzzle."""


class _Counter(cmh.SolutionCallback):
    """Counts solutions and stops the search at the limit (what ``cp_model.CpSolverSolutionCallback`` wraps)."""

    def __init__(self, limit: int):
        super().__init__()
        self.limit = limit
        self.found = 0

    def OnSolutionCallback(self) -> None:  # the name CP-SAT calls
        if self.found < self.limit:
            self.found += 1
        if self.found >= self.limit:
            self.StopSearch()


class CpSatSolver(SolverBase):
    """``cpsat``: the AllDifferent model solved by OR-Tools CP-SAT.

    Args:
        workers: CP-SAT search workers for ``solve`` (canonical solving and counting use one).
        seed: CP-SAT's random seed; with one worker the same seed gives the same answer and stats.
        model: ``alldiff`` (default: one integer per cell, AllDifferent per group) or ``booleans``
            (exactly-ones over n**3 Booleans, faster) for solving and counting; canonical runs use ``alldiff``.
        presolve: run CP-SAT's presolve; None (default) is on for ``alldiff``, off for ``booleans``,
            the faster of each measured (docs/cpsat.md).
        parameters: more CP-SAT parameters in text form, e.g. ``"cp_model_probing_level: 0"``, for
            experiments; applied last, to ordinary solves only (canonical runs and counts keep the
            settings their correctness rests on).
    """

    name = "cpsat"
    paradigm: ClassVar[str] = "constraint programming (OR-Tools CP-SAT)"
    capabilities: ClassVar[Capabilities] = Capabilities(threads="serialised", kinds=NATIVE, forms=FORMS)
    options: ClassVar[tuple[Option, ...]] = (
        Option("workers", int, 1, "CP-SAT search workers for a plain solve", minimum=1),
        Option("seed", int, 0, "CP-SAT's random seed (32 bits)", minimum=-2**31, maximum=2**31 - 1),
        Option("model", str, "alldiff", "model: alldiff (AllDifferent) or booleans (exactly-ones, faster)", MODELS),
        Option("presolve", bool, None, "run CP-SAT's presolve (default: on for model=alldiff, off for booleans)"),
        Option("parameters", str, "", "more CP-SAT parameters in text form, e.g. 'cp_model_probing_level: 0'",
               normalise=_check_parameters),
    )

    def __init__(self, workers: int = 1, seed: int = 0, presolve: bool | None = None, parameters: str | None = None,
                 model: str = "alldiff"):
        super().__init__()  # options checked by SolverBase (base.check_options)
        if presolve is None:
            presolve = model == "alldiff"
        self.workers, self.seed, self.presolve, self.model = workers, seed, presolve, model
        self.parameters = "" if parameters is None else parameters
        self._settings = {
            "solve": self._parameters(self.parameters, num_workers=workers, cp_model_presolve=presolve, **TUNED),
            "canonical": self._parameters(
                num_workers=1, cp_model_presolve=False, symmetry_level=0,
                search_branching=cmh.SatParameters.FIXED_SEARCH, linearization_level=0,
            ),
            "count": self._parameters(
                num_workers=1, cp_model_presolve=presolve, enumerate_all_solutions=True,
                keep_all_feasible_solutions_in_presolve=True, **TUNED,
            ),
        }
        self._prepared: dict[tuple[Rules, bool], Prepared] = {}
        self._running: cmh.SolveWrapper | None = None
        self._stopped = False

    def _parameters(self, extra: str = "", **settings: object) -> cmh.SatParameters:
        """The CP-SAT parameters kept for one kind of run, so they are set once."""
        params = cmh.SatParameters()
        params.random_seed = self.seed
        params.log_search_progress = False
        params.catch_sigint_signal = False  # Ctrl-C is ours: see ``native.interruptible``
        for key, value in settings.items():
            setattr(params, key, value)
        if extra and not params.merge_text_format(extra):
            raise UsageError(f"CP-SAT parameters '{extra}' do not parse")  # checked before: not expected
        return params

    def _model(self, puzzle: Puzzle, canonical: bool) -> tuple[cmh.CpModelProto, Prepared]:
        prepared = self._prepared_for(puzzle.rules, canonical)
        return prepared.set_givens(puzzle.givens), prepared

    def _prepared_for(self, rules: Rules, canonical: bool) -> Prepared:
        """The prepared model of a rule set, built on first use and kept (``Rules`` hash is cached)."""
        key = (rules, canonical)
        prepared = self._prepared.get(key)
        if prepared is None:
            booleans = not canonical and self.model == "booleans"
            if len(self._prepared) >= KEPT:
                del self._prepared[next(iter(self._prepared))]
            prepared = self._prepared[key] = Prepared(rules, canonical, booleans)
        return prepared

    def _run(
        self,
        model: cmh.CpModelProto,
        params: cmh.SatParameters,
        deadline: Deadline,
        callback: cmh.SolutionCallback | None = None,
    ) -> cmh.CpSolverResponse:
        """One run in a helper thread that Ctrl-C stops (``native.interruptible``)."""
        self._stopped = False
        return interruptible(lambda: self._search(model, params, deadline, callback), self._stop)

    def _search(
        self,
        model: cmh.CpModelProto,
        params: cmh.SatParameters,
        deadline: Deadline,
        callback: cmh.SolutionCallback | None = None,
    ) -> cmh.CpSolverResponse:
        """Solve a model within what is left of the deadline (building the model counts against it),
        as ``cp_model.CpSolver.solve`` does: one ``SolveWrapper`` per run. MODEL_INVALID raises with
        CP-SAT's validation message."""
        left = math.inf if deadline.at is None else max(deadline.at - time.perf_counter(), 1e-3)
        params.max_time_in_seconds = left
        wrapper = self._running = cmh.SolveWrapper()
        wrapper.set_parameters(params)
        if callback is not None:
            wrapper.add_solution_callback(callback)
        if self._stopped:  # a Ctrl-C came between two runs of a batch
            wrapper.stop_search()
        response = wrapper.solve(model)
        self._running = None
        if callback is not None:
            wrapper.clear_solution_callback(callback)
        if response.status == MODEL_INVALID:
            raise ModelInvalid(f"CP-SAT refused the model: {cmh.CpSatHelper.validate_model(model)}")
        return response

    def _stop(self) -> None:
        """Ctrl-C: stop the search running now and any a batch would start after it."""
        self._stopped = True
        running = self._running
        if running is not None:
            running.stop_search()

    def _stats(self, response: cmh.CpSolverResponse, prepared: Prepared, workers: int) -> dict[str, Stat]:
        variables, constraints = prepared.size
        return {
            "branches": response.num_branches,
            "conflicts": response.num_conflicts,
            "booleans": response.num_booleans,
            "wall_time": response.wall_time,
            "variables": variables,
            "constraints": constraints,
            "workers": workers,
        }

    def solve(self, puzzle: Puzzle, *, time_limit: float | None = None, canonical: bool = False) -> SolveResult:
        check_kinds(self, puzzle)
        started = time.perf_counter()
        deadline = Deadline(time_limit)
        with self._lock:
            if stoppable.wanted(puzzle.n > CHILD_ABOVE, deadline):
                return stoppable.solve(self, puzzle, deadline, started, canonical)
            model, prepared = self._model(puzzle, canonical)
            response = self._run(model, self._settings["canonical" if canonical else "solve"], deadline)
            status = STATUS[response.status]
            grid: Grid | None = prepared.decode(response.solution, puzzle.givens) if status is Status.SOLVED else None
            stats = self._stats(response, prepared, 1 if canonical else self.workers)
        return SolveResult(self.name, status, grid, time.perf_counter() - started, stats)

    def count(self, puzzle: Puzzle, *, limit: int = 2, time_limit: float | None = None) -> CountResult:
        check_kinds(self, puzzle)
        check_limit(limit)
        started = time.perf_counter()
        deadline = Deadline(time_limit)
        with self._lock:
            if stoppable.wanted(puzzle.n > CHILD_ABOVE, deadline):
                return stoppable.count(self, puzzle, deadline, started, limit)
            model, prepared = self._model(puzzle, False)
            counter = _Counter(limit)
            response = self._run(model, self._settings["count"], deadline, counter)
            stats = self._stats(response, prepared, 1)
        answer = response.status
        if counter.found >= limit or (answer == OPTIMAL and counter.found):
            status = Status.SOLVED  # stopped at the limit, or the enumeration is complete
        elif answer in (OPTIMAL, INFEASIBLE):
            status = Status.NO_SOLUTION
        else:
            status = Status.TIME_LIMIT  # FEASIBLE or UNKNOWN below the limit: a limit stopped it
        return CountResult(self.name, counter.found, limit, status, time.perf_counter() - started, stats)

    def solve_batch(self, givens: np.ndarray, shape: Shape, *, time_limit: float | None = None,
                    rules: Rules | None = None) -> BatchResults:
        """The batch entry point (``sudokulab.solvers.batch``): k puzzles of one shape, answers and stats as arrays.

        ``rules`` (of ``shape``; standard Sudoku when None) are the rules of every puzzle of the batch.

        The puzzles run one after another in one helper thread (one thread per batch instead of
        one per puzzle), each with its own ``time_limit``, under the lock for the whole batch; a
        Ctrl-C stops the search running and the batch, as in ``solve``. Results equal ``solve``'s.
        """
        import numpy as np

        from .. import batch as batches

        empty = Puzzle.empty(shape) if rules is None else Puzzle.empty(shape).with_rules(rules)
        check_kinds(self, empty)
        givens = batches.checked_givens(givens, shape)
        Deadline(time_limit)  # refuses a limit that is not positive, as solve does
        k = len(givens)
        rows = givens.tolist()
        status = np.full(k, batches.NO_SOLUTION, dtype=np.int8)
        grids = np.zeros((k, shape.cells), dtype=batches.DIGITS)
        seconds, cpu, wall = (np.zeros(k, dtype=np.float64) for _ in range(3))
        branches, conflicts, booleans = (np.zeros(k, dtype=np.int64) for _ in range(3))
        code = {answer: batches.CODE[ours] for answer, ours in STATUS.items()}
        params = self._settings["solve"]

        def run_all() -> None:
            clock, cpu_clock, search = time.perf_counter, time.process_time, self._search
            for i in range(k):
                started, cpu_started = clock(), cpu_clock()
                response = search(prepared.set_givens(rows[i]), params, Deadline(time_limit))
                answer = code[response.status]
                status[i] = answer
                if answer == batches.SOLVED:
                    grids[i] = prepared.decode(response.solution, rows[i])
                branches[i], conflicts[i] = response.num_branches, response.num_conflicts
                booleans[i], wall[i] = response.num_booleans, response.wall_time
                seconds[i], cpu[i] = clock() - started, cpu_clock() - cpu_started
                if self._stopped:
                    return

        with self._lock:
            prepared = self._prepared_for(empty.rules, False)
            self._stopped = False
            interruptible(run_all, self._stop)
            variables, constraints = prepared.size
        stats = {"branches": branches, "conflicts": conflicts, "booleans": booleans, "wall_time": wall}
        constant: dict[str, Stat] = {"variables": variables, "constraints": constraints, "workers": self.workers}
        return batches.BatchResults(self.name, status, grids, seconds, cpu, stats, constant)

    def close(self) -> None:
        with self._lock:
            self._prepared.clear()
