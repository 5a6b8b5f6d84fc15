"""A batch of puzzles on one ``sat`` engine: the hot loop, and its answers turned into arrays.

Where an engine call is short (an easy 9x9), each Python step per puzzle counts, so what is ours per
puzzle is cut to the bone: the assumptions of the whole batch from one numpy lookup, each model read
as its true cell literals, the counters read once per puzzle; decoding and stats are numpy over the
whole batch (why, and how near a bare loop's rate it comes: ``SatSolver.solve_batch``).
``SatSolver.solve_batch`` checks the batch and holds the engine's session (lock, Ctrl-C) around
``run_batch``; ``pack_batch`` makes the ``BatchResults`` after.

More: docs/sat.md.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...core.grid import Shape
from ...core.puzzle import Puzzle
from ...core.rules import Rules
from ..base import Deadline, TimeUp
from .cnf import Formula
from .engine import COUNTERS, Engine, settled_by_propagation
from .literals import LiteralArrays, literal_arrays

if TYPE_CHECKING:
    import numpy as np

    from ..batch import BatchResults
    from .solver import SatSolver


@dataclass
class BatchRun:
    """What the loop gathered: per puzzle its code, wall and CPU seconds, and the engine's counters
    before and after each (k + 1 readings); the models of the solved ones as true cell literals."""

    arrays: LiteralArrays
    formula: Formula
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
    if ran.counts[0]:
        totals = np.array([[c[key] for key in COUNTERS] for c in ran.counts], dtype=np.int64)
        stats = dict(zip(COUNTERS, np.diff(totals, axis=0).T))
    stats["calls"] = np.full(k, 2 if propagate else 1, dtype=np.int64)
    if propagate:
        stats["calls"][status == batches.TIME_LIMIT] = 1
        ran_out = status != batches.TIME_LIMIT
        stats["propagated"] = np.zeros(k, dtype=bool)
        stats["propagated"][ran_out] = ran.settled
    elif ran.counts[0] and from_counters:
        stats["propagated"] = (stats["decisions"] == 0) & (stats["conflicts"] == 0) & (status != batches.TIME_LIMIT)
    return batches.BatchResults(name, status, grids, np.array(ran.seconds), np.array(ran.cpu), stats, constant)


def _decoded(arrays: LiteralArrays, formula: Formula, positives: list[list[int]],
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


