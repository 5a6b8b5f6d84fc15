"""The ``sat`` solver beyond the registry contract: encodings, engines, canonical answers, counting
on a shared engine, time limits, stats, and the pitfalls of the installed PySAT."""

from __future__ import annotations

import subprocess
import sys
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sudokulab
from sudokulab import Puzzle, Shape, Status, UsageError, cli, first_conflict, format_grid, is_solution, parse_puzzle
from sudokulab.errors import UnsupportedFeature
from sudokulab.models import cnf
from sudokulab.solvers import sat
from sudokulab.solvers.sat import SatSolver

from .conftest import EXAMPLES, random_puzzle

SAMPLE = str(EXAMPLES / "boj2580-sample.txt")
# Published puzzles: one from the enjoysudoku "hardest" list (needs search), the Wikipedia example.
HARD = parse_puzzle("1.......9..67...2..8....4......75.3...5..2....6.3......9....8..6...4...1..25...6.")
CLASSIC = parse_puzzle("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
CORNER = Puzzle.from_rows([[1, 2, 0, 0], [0, 0, 3, 0], [0, 0, 4, 0], [0, 0, 0, 0]])  # no rule broken, no solution
BROKEN = Puzzle(Shape(3, 3), (1,) + (0,) * 6 + (1,) + (0,) * 73)  # two 1s in row 1

CONFIGS = [
    {},
    {"encoding": "minimal"},
    {"encoding": "efficient", "amo": "ladder"},
    {"encoding": "extended", "amo": "seqcounter"},
    {"encoding": "reduced"},
    {"encoding": "reduced", "amo": "bitwise"},
    {"engine": "glucose4"},
    {"engine": "minisat22", "encoding": "reduced"},
]
ENGINES = sat.available_engines()


def config_id(config: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in config.items()) or "default"


@pytest.fixture(scope="module", params=CONFIGS, ids=config_id)
def solver(request):
    with SatSolver(**request.param) as instance:
        yield instance


@pytest.fixture(scope="module")
def baseline():
    return sudokulab.solvers.get("backtrack")


def test_boj_sample_through_the_library_call(sample, sample_answer):
    result = sudokulab.solve(sample, "sat")
    assert result.status is Status.SOLVED and result.solver == "sat"
    assert is_solution(result.grid, sample)
    assert format_grid(result.grid) == sample_answer


def test_every_configuration_solves_the_sample_and_a_hard_puzzle(solver, sample, sample_answer):
    result = solver.solve(sample)
    assert is_solution(result.grid, sample) and format_grid(result.grid) == sample_answer
    hard = solver.solve(HARD, time_limit=60)
    assert hard.status is Status.SOLVED and is_solution(hard.grid, HARD)


@pytest.mark.parametrize("shape", [Shape(2, 2), Shape(2, 3), Shape(3, 2), Shape(3, 3), Shape(2, 4)])
def test_canonical_on_empty_boards_is_the_baselines_answer(solver, baseline, shape):
    empty = Puzzle.empty(shape)
    result = solver.solve(empty, canonical=True)
    assert result.status is Status.SOLVED and is_solution(result.grid, empty)
    assert result.grid == baseline.solve(empty).grid


def test_canonical_on_a_puzzle_with_many_solutions(solver, baseline):
    puzzle, _ = random_puzzle(9, 0.3, 10)
    assert baseline.count(puzzle, limit=3, time_limit=30).count == 3
    expected = baseline.solve(puzzle, time_limit=30)
    assert expected.status is Status.SOLVED
    result = solver.solve(puzzle, canonical=True, time_limit=30)
    assert result.grid == expected.grid and is_solution(result.grid, puzzle)
    assert result.stats["calls"] >= 1


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_canonical_agrees_with_the_baseline_on_random_puzzles(baseline, data):
    shape = data.draw(st.sampled_from([Shape(2, 2), Shape(2, 3), Shape(3, 2), Shape(3, 3)]), label="shape")
    fraction = data.draw(st.floats(0.35 if shape.n == 9 else 0.0, 0.8), label="fraction")
    puzzle, _ = random_puzzle(shape, fraction, data.draw(st.integers(0, 2**32), label="seed"))
    config = data.draw(st.sampled_from(CONFIGS[:6]), label="config")
    reference = baseline.solve(puzzle, canonical=True, time_limit=20)
    if reference.status is not Status.SOLVED:
        return  # the classic search can take long on some sparse 9x9 puzzles
    with SatSolver(**config) as solver:
        result = solver.solve(puzzle, canonical=True, time_limit=60)
    assert result.grid == reference.grid and is_solution(result.grid, puzzle)


def test_counting(solver, sample):
    assert solver.count(Puzzle.empty(4), limit=1000).count == 288
    assert solver.count(Puzzle.empty(Shape(2, 3)), limit=10).count == 10
    exact = solver.count(sample, limit=10)
    assert exact.count == 1 and exact.exact and exact.status is Status.SOLVED
    assert solver.count(CORNER, limit=5).count == 0
    assert solver.count(BROKEN, limit=5).count == 0


def test_counting_leaves_a_shared_engine_as_it_was(solver, sample, sample_answer):
    """Blocking clauses are retired after a count: the same puzzles stay satisfiable after."""
    assert solver.count(Puzzle.empty(4), limit=1000).count == 288  # every 4x4 grid blocked...
    result = solver.solve(Puzzle.empty(4))  # ...and retired: the empty board is solvable again
    assert result.status is Status.SOLVED and is_solution(result.grid, Puzzle.empty(4))
    assert solver.count(Puzzle.empty(4), limit=1000).count == 288
    assert solver.count(sample, limit=2).count == 1
    assert format_grid(solver.solve(sample).grid) == sample_answer
    assert solver.solve(Puzzle.empty(4), canonical=True).grid == (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)


def test_no_solution(solver):
    for puzzle in (CORNER, BROKEN):
        result = solver.solve(puzzle)
        assert result.status is Status.NO_SOLUTION and result.grid is None
        assert solver.solve(puzzle, canonical=True).status is Status.NO_SOLUTION
    answer = solver.solve(CLASSIC).grid
    cell = CLASSIC.givens.index(0)
    for digit in range(1, 10):
        givens = list(CLASSIC.givens)
        givens[cell] = digit
        wrong = Puzzle(CLASSIC.shape, tuple(givens))
        if digit != answer[cell] and first_conflict(wrong.givens, wrong.shape) is None:
            assert solver.solve(wrong).status is Status.NO_SOLUTION


def test_a_time_limit_stops_a_long_search():
    """A 25x25 puzzle that the weak minimal + sequential-counter encoding takes many seconds on."""
    puzzle, _ = random_puzzle(25, 0.45, 1)
    with SatSolver(encoding="minimal", amo="seqcounter") as solver:
        solver.solve(Puzzle.empty(25), time_limit=1e-3)  # load the 25x25 rules first
        result = solver.solve(puzzle, time_limit=0.2)
        assert result.status is Status.TIME_LIMIT and result.grid is None
        assert result.stats["conflicts"] > 0  # it was searching, and the slices stopped it
        counted = solver.count(puzzle, limit=2, time_limit=0.1)
        assert counted.status is Status.TIME_LIMIT and not counted.exact


def test_a_tiny_time_limit_and_an_ample_one(sample):
    with SatSolver() as solver:
        assert solver.solve(HARD, time_limit=1e-6).status is Status.TIME_LIMIT
        assert solver.solve(sample, time_limit=1e-6, canonical=True).status is Status.TIME_LIMIT
        result = solver.solve(HARD, time_limit=60)  # the budget-slice path, to the end
        assert result.status is Status.SOLVED and is_solution(result.grid, HARD)
        assert solver.solve(CORNER, time_limit=60).status is Status.NO_SOLUTION


def test_a_25x25_board_with_45_percent_clues():
    puzzle, _ = random_puzzle(25, 0.45, 2)
    result = sudokulab.solve(puzzle, "sat")
    assert result.status is Status.SOLVED and is_solution(result.grid, puzzle)
    assert result.stats["clauses"] < cnf.counts(25, "extended")[1] // 10  # auto: reduced above 16x16


def test_auto_is_extended_up_to_16x16_and_reduced_above():
    with SatSolver() as solver:
        assert [solver.encoding_for(n) for n in (4, 9, 16, 25, 36)] == ["extended"] * 3 + ["reduced"] * 2
        puzzle, _ = random_puzzle(16, 0.5, 1)
        assert solver.solve(puzzle).stats["clauses"] == cnf.counts(16, "extended")[1]
    with SatSolver(encoding="extended") as solver:
        assert solver.encoding_for(25) == "extended"


def test_stats(sample):
    with SatSolver() as solver:
        stats = solver.solve(sample).stats
        assert {"decisions", "conflicts", "propagations", "restarts", "variables", "clauses", "calls",
                "propagated"} <= set(stats)
        assert (stats["variables"], stats["clauses"], stats["calls"]) == (729, 11988, 1)
        assert stats["propagated"] is True  # the sample's blanks are all naked singles
        hard = solver.solve(HARD).stats
        assert hard["propagated"] is False and hard["decisions"] > 0 and hard["conflicts"] > 0
        again = solver.solve(HARD).stats  # per-puzzle deltas, not the shared engine's totals
        assert again["conflicts"] <= hard["conflicts"]
    with SatSolver(encoding="reduced") as solver:
        stats = solver.solve(HARD).stats
        assert stats["variables"] < 729 and stats["clauses"] < 11988
        assert "propagated" not in stats  # givens are clauses there, not assumptions


def test_propagated_from_counters_agrees_with_propagate(sample):
    """CaDiCaL's stat comes from its counters; glucose's from a propagate() call: same answers.

    Fresh solvers each time: on a shared engine, propagation also uses the clauses learned on
    earlier puzzles (implied by the rules, but different from engine to engine)."""
    puzzles = [sample, CLASSIC, HARD] + [random_puzzle(9, f, s)[0] for f, s in ((0.45, 1), (0.6, 2), (0.7, 3))]
    seen = set()
    for puzzle in puzzles:
        with SatSolver() as cadical, SatSolver(engine="glucose4") as glucose:
            propagated = cadical.solve(puzzle).stats["propagated"]
            assert glucose.solve(puzzle).stats["propagated"] == propagated
            seen.add(propagated)
    assert seen == {True, False}


@pytest.mark.parametrize("engine", ENGINES)
def test_each_available_engine(engine, sample, sample_answer):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # e.g. kissat's "assumptions ignored" must never happen
        with SatSolver(engine=engine) as solver:
            assert format_grid(solver.solve(sample).grid) == sample_answer
            assert is_solution(solver.solve(HARD).grid, HARD)
            if engine in ("kissat404",):
                return
            assert solver.count(Puzzle.empty(4), limit=1000).count == 288
            assert solver.solve(Puzzle.empty(Shape(2, 3)), canonical=True).grid == sudokulab.solve(
                Puzzle.empty(Shape(2, 3)), "backtrack").grid
            if engine != "lingeling":
                assert solver.solve(sample, time_limit=30).status is Status.SOLVED


def test_engines_lacking_a_feature_are_refused_with_the_reason(sample):
    with SatSolver(engine="lingeling") as solver:
        with pytest.raises(UnsupportedFeature, match="'lingeling' has no limited solve, so it cannot honour a time"):
            solver.solve(sample, time_limit=1)
        with pytest.raises(UnsupportedFeature, match="no limited solve"):
            solver.count(sample, time_limit=1)
    with SatSolver(engine="kissat") as solver:
        assert solver.engine == "kissat404"
        for call, what in [(lambda: solver.solve(sample, canonical=True), "give a canonical answer"),
                           (lambda: solver.count(sample), "count solutions"),
                           (lambda: solver.solve(sample, time_limit=1), "honour a time limit")]:
            reason = f"ignores assumptions and cannot solve twice, so it cannot {what}"
            with pytest.raises(UnsupportedFeature, match=reason):
                call()


def test_engine_names_and_bad_options():
    assert SatSolver(engine="g4").engine == "glucose4"
    assert SatSolver(engine="CD19").engine == "cadical195"
    with pytest.raises(UsageError, match="unknown SAT engine 'zchaff'; choose one of: cadical103, "):
        sudokulab.solvers.get("sat", engine="zchaff")
    if "cryptosat" not in ENGINES:
        with pytest.raises(UsageError, match="SAT engine 'cryptosat' is not in this PySAT build"):
            SatSolver(engine="cryptosat")
    with pytest.raises(UsageError, match="unknown encoding 'huge'; choose one of: auto, minimal, efficient"):
        sudokulab.solvers.get("sat", encoding="huge")
    with pytest.raises(UsageError, match="unknown amo 'native'"):
        sudokulab.solvers.get("sat", amo="native")


def test_command_line(capsys, tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("0 " * 81)
    assert cli.main(["solve", str(empty), "--solver", "backtrack", "--format", "compact"]) == 0
    expected = capsys.readouterr().out
    assert cli.main(["solve", str(empty), "--solver", "sat", "--canonical", "--format", "compact"]) == 0
    assert capsys.readouterr().out == expected
    options = ["-o", "engine=glucose4", "-o", "encoding=minimal", "-o", "amo=seqcounter"]
    assert cli.main(["solve", SAMPLE, "--solver", "sat", *options, "--canonical", "--stats"]) == 0
    out, err = capsys.readouterr()
    assert out == (EXAMPLES / "boj2580-sample.out").read_text() and "solver: sat" in err
    assert cli.main(["count", str(empty), "--solver", "sat", "--limit", "5"]) == 0
    assert capsys.readouterr().out == "at least 5\n"
    assert cli.main(["solve", SAMPLE, "--solver", "sat", "-o", "engine=lingeling", "--time-limit", "1"]) == 2
    assert "no limited solve" in capsys.readouterr().err


def test_import_sudokulab_does_not_load_pysat():
    code = "import sys, sudokulab; sudokulab.solvers.names(); print('pysat' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
