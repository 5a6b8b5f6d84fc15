"""The batch entry points of ``sat`` and ``cpsat`` (``solve_batch``, see ``sudokulab.solvers.batch``): the
same answers as ``solve`` puzzle by puzzle, per-puzzle time limits, stats, and Ctrl-C."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

from sudokulab import Puzzle, Shape, Status, is_solution, parse_puzzle
from sudokulab.solvers import batch as batches
from sudokulab.solvers.cpsat.solver import CpSatSolver
from sudokulab.solvers.sat.solver import SatSolver

from ..conftest import HANG, random_puzzle

HARD = parse_puzzle("1.......9..67...2..8....4......75.3...5..2....6.3......9....8..6...4...1..25...6.")
CLASSIC = parse_puzzle("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
SEVENTEEN = parse_puzzle(".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...")
BROKEN_9 = Puzzle(Shape(3, 3), (1,) + (0,) * 6 + (1,) + (0,) * 73)  # two 1s in row 1
STUCK_4 = Puzzle.from_rows([[0, 1, 2, 0], [3, 0, 0, 0], [4, 0, 0, 0], [0, 0, 0, 0]])  # r1c1 has no digit left
BROKEN_4 = Puzzle.from_rows([[1, 0, 0, 1], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])


def sets() -> dict[Shape, list[Puzzle]]:
    """Puzzles per shape: solvable (unique and many solutions), without a solution, givens in conflict."""
    out: dict[Shape, list[Puzzle]] = {
        Shape(2, 2): [random_puzzle(4, 0.4, 1)[0], Puzzle.empty(4), STUCK_4, BROKEN_4, random_puzzle(4, 0.6, 2)[0]],
        Shape(3, 3): [CLASSIC, HARD, SEVENTEEN, BROKEN_9, Puzzle.empty(9), random_puzzle(9, 0.3, 3)[0]],
        Shape(2, 3): [random_puzzle(6, 0.4, 4)[0]],
        Shape(4, 4): [random_puzzle(16, 0.5, 5)[0], random_puzzle(16, 0.4, 6)[0]],
    }
    return out


CONFIGS = [
    (SatSolver, {}),
    (SatSolver, {"engine": "glucose4"}),  # "propagated" from a propagate() call, not the counters
    (SatSolver, {"amo": "seqcounter"}),  # auxiliary variables after the cells
    (SatSolver, {"encoding": "reduced"}),  # no shared engine: solve puzzle by puzzle
    (CpSatSolver, {}),
    (CpSatSolver, {"model": "booleans"}),
]


def config_id(config) -> str:
    cls, options = config
    return cls.name + "".join(f",{k}={v}" for k, v in options.items())


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_solve_batch_answers_as_solve_does(config):
    cls, options = config
    with cls(**options) as by_batch, cls(**options) as by_solve:
        for shape, puzzles in sets().items():
            batch = batches.Batch.of("test", puzzles)
            got = by_batch.solve_batch(batch.givens, shape)
            assert got.solver == cls.name and len(got.status) == len(got.grids) == len(puzzles)
            assert got.grids.dtype == np.uint8 and got.grids.shape == (len(puzzles), shape.cells)
            assert (got.seconds > 0).all() and (got.cpu_seconds >= 0).all()
            for i, puzzle in enumerate(puzzles):
                expected = by_solve.solve(puzzle)
                result = got.result(i, shape)
                assert result.status is expected.status, (shape, i)
                if result.status is Status.SOLVED:
                    assert is_solution(result.grid, puzzle)
                assert set(result.stats) == set(expected.stats), (shape, i)
                for key in ("variables", "clauses", "constraints", "engine", "encoding", "workers"):
                    assert result.stats.get(key) == expected.stats.get(key)


def test_unsolvable_and_conflicting_givens_are_no_solution():
    for solver in (SatSolver(), CpSatSolver()):
        with solver:
            for puzzles in ([STUCK_4, BROKEN_4], [BROKEN_9]):
                batch = batches.Batch.of("test", puzzles)
                got = solver.solve_batch(batch.givens, batch.shape)
                assert (got.status == batches.NO_SOLUTION).all() and not got.grids.any()


def test_sat_stats_are_per_puzzle_arrays_and_constants():
    puzzles = [CLASSIC, HARD, SEVENTEEN, BROKEN_9]
    with SatSolver() as solver:
        got = solver.solve_batch(batches.Batch.of("test", puzzles).givens, Shape(3, 3))
    assert {"decisions", "conflicts", "propagations", "restarts", "calls", "propagated"} <= set(got.stats)
    assert got.constant == {"variables": 729, "clauses": 11988, "engine": "cadical195", "encoding": "extended",
                            "amo": "pairwise"}
    assert got.stats["propagated"].tolist() == [True, False, False, True]  # BROKEN_9 dies at once
    with SatSolver() as fresh:  # the same engine work in the same order: the same counters
        for i, puzzle in enumerate(puzzles):
            alone = dict(fresh.solve(puzzle).stats)
            timed = got.stats_of(i)  # the engine's own seconds: a clock, the same key both ways
            assert timed.pop("solve_seconds") >= 0 and alone.pop("solve_seconds") >= 0
            assert timed == alone
    assert got.stats["decisions"][1] > 0 and got.stats["conflicts"][1] > 0 and (got.stats["calls"] == 1).all()
    assert got.stats["propagations"].dtype == np.int64 and (got.stats["propagations"][:3] > 0).all()


def test_cpsat_stats_are_per_puzzle_arrays_and_constants():
    with CpSatSolver(model="booleans") as solver:
        got = solver.solve_batch(batches.Batch.of("test", [CLASSIC, HARD]).givens, Shape(3, 3))
    assert set(got.stats) == {"branches", "conflicts", "booleans", "wall_time"}
    assert got.constant == {"variables": 729, "constraints": 324, "workers": 1}
    assert (got.stats["wall_time"] > 0).all() and (got.stats["wall_time"] <= got.seconds).all()


def test_through_the_batch_module():
    """``batch.solve_batch`` takes the solvers' own entry points (no loop over ``solve``)."""
    puzzles = [CLASSIC, SEVENTEEN]
    for solver in (SatSolver(), CpSatSolver()):
        with solver:
            got = batches.solve_batch(solver, batches.Batch.of("test", puzzles))
            assert (got.status == batches.SOLVED).all()
            assert all(is_solution(got.result(i, CLASSIC.shape).grid, p) for i, p in enumerate(puzzles))


@pytest.mark.slow
def test_sat_time_limit_is_per_puzzle():
    """A 25x25 puzzle that the weak minimal + sequential-counter encoding takes many seconds on."""
    long, _ = random_puzzle(25, 0.45, 1)
    easy, _ = random_puzzle(25, 0.8, 2)
    with SatSolver(encoding="minimal", amo="seqcounter") as solver:
        solver.solve(Puzzle.empty(25), time_limit=1e-3)  # load the 25x25 rules first
        givens = batches.Batch.of("test", [long, easy, long]).givens
        started = time.perf_counter()
        got = solver.solve_batch(givens, Shape(5, 5), time_limit=0.2)
        took = time.perf_counter() - started
    assert got.status.tolist() == [batches.TIME_LIMIT, batches.SOLVED, batches.TIME_LIMIT]
    assert is_solution(got.result(1, Shape(5, 5)).grid, easy)
    assert not got.grids[0].any() and got.stats["conflicts"][0] > 0 and not got.stats["propagated"][0]
    assert took < HANG  # it stopped: how soon depends on the machine, so no speed is asserted


def test_cpsat_time_limit_is_per_puzzle():
    big, _ = random_puzzle(25, 0.45, 7)
    with CpSatSolver() as solver:
        got = solver.solve_batch(batches.Batch.of("test", [big, big]).givens, Shape(5, 5), time_limit=1e-6)
        assert set(got.status.tolist()) <= {batches.TIME_LIMIT, batches.SOLVED}
        for i in range(2):  # almost always stopped; never a wrong grid
            result = got.result(i, Shape(5, 5))
            assert result.status is Status.TIME_LIMIT or is_solution(result.grid, big)
        solved = solver.solve_batch(batches.Batch.of("test", [big]).givens, Shape(5, 5))  # the limit does not stick
        assert solved.status.tolist() == [batches.SOLVED]


@pytest.mark.parametrize("solver", [SatSolver, CpSatSolver])
def test_bad_batches_are_refused(solver):
    with solver() as instance:
        with pytest.raises(ValueError):
            instance.solve_batch(np.zeros((2, 81), dtype=np.uint8), Shape(3, 3), time_limit=0)
        with pytest.raises((ValueError, IndexError)):
            instance.solve_batch(np.full((1, 16), 7, dtype=np.uint8), Shape(2, 2))
        with pytest.raises(ValueError):
            instance.solve_batch(np.zeros((1, 80), dtype=np.uint8), Shape(3, 3))
        empty = instance.solve_batch(np.zeros((0, 81), dtype=np.uint8), Shape(3, 3))
        assert len(empty.status) == 0


CTRL_C = """
import sys, numpy as np
from sudokulab import Puzzle, Shape, is_solution, parse_puzzle
from sudokulab.solvers.{module} import {cls}
hard = parse_puzzle("1.......9..67...2..8....4......75.3...5..2....6.3......9....8..6...4...1..25...6.")
givens = np.array([hard.givens] * 1_000_000, dtype=np.uint8)
with {cls}() as solver:
    solver.solve_batch(givens[:2], Shape(3, 3))
    print("started", flush=True)
    try:
        solver.solve_batch(givens, Shape(3, 3))
    except KeyboardInterrupt:
        print("interrupted", flush=True)
    result = solver.solve(hard)  # the solver is still usable (a SAT engine Ctrl-C broke is rebuilt)
    print(is_solution(result.grid, hard))
"""


@pytest.mark.slow
@pytest.mark.parametrize("module, cls", [("sat.solver", "SatSolver"), ("cpsat.solver", "CpSatSolver")])
def test_ctrl_c_stops_a_batch_and_the_solver_goes_on(module, cls):
    code = textwrap.dedent(CTRL_C.format(module=module, cls=cls))
    process = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout.readline().strip() == b"started"
    time.sleep(0.5)
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert time.monotonic() - sent < HANG
    assert process.returncode == 0, err.decode()
    assert out.decode().split() == ["interrupted", "True"]


def test_a_shared_sat_engine_is_renewed_after_many_solves(monkeypatch):
    from sudokulab.solvers.sat import solver as sat

    monkeypatch.setattr(sat, "RENEW_AFTER", 3)
    puzzles = [CLASSIC, HARD, SEVENTEEN, CLASSIC]
    with SatSolver() as solver:
        engines = []
        for puzzle in puzzles:
            assert is_solution(solver.solve(puzzle).grid, puzzle)
            engines.append(solver._engines[puzzle.rules])
        assert engines[0] is engines[2] is not engines[3] and engines[3].solves == 1
        givens = batches.Batch.of("test", puzzles).givens
        for _ in range(2):  # the first batch runs on the engine of one solve, the second on a fresh one
            got = solver.solve_batch(givens, Shape(3, 3))
            assert (got.status == batches.SOLVED).all()
            assert all(is_solution(got.result(i, Shape(3, 3)).grid, p) for i, p in enumerate(puzzles))
        assert solver._engines[CLASSIC.rules].solves == 4
        assert solver.count(SEVENTEEN, limit=2).count == 1
