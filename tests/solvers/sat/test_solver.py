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
from sudokulab import Puzzle, Shape, Status, UsageError, first_conflict, format_grid, is_solution, parse_puzzle
from sudokulab.cli import main as cli
from sudokulab.errors import UnsupportedFeature
from sudokulab.solvers.sat import size as cnf_size
from sudokulab.solvers.sat import solver as sat
from sudokulab.solvers.sat.solver import SatSolver

from ...conftest import EXAMPLES, random_puzzle

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


@pytest.mark.slow
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


@pytest.mark.slow
def test_a_time_limit_stops_a_long_search():
    """A 25x25 puzzle that the weak minimal + sequential-counter encoding takes many seconds on."""
    puzzle, _ = random_puzzle(25, 0.45, 1)
    with SatSolver(encoding="minimal", amo="seqcounter") as solver:
        clash = Puzzle(Shape(5, 5), (1, 1) + (0,) * 623)  # load the 25x25 rules first (loading counts against a
        assert solver.solve(clash).status is Status.NO_SOLUTION  # limit): givens that clash need no search
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
    assert result.stats["clauses"] < cnf_size.counts(25, "extended")[1] // 10  # auto: reduced above 16x16


def test_auto_is_extended_up_to_16x16_and_reduced_above():
    with SatSolver() as solver:
        assert [solver.encoding_for(n) for n in (4, 9, 16, 25, 36)] == ["extended"] * 3 + ["reduced"] * 2
        puzzle, _ = random_puzzle(16, 0.5, 1)
        assert solver.solve(puzzle).stats["clauses"] == cnf_size.counts(16, "extended")[1]
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


@pytest.mark.slow
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
        with pytest.raises(UsageError, match="solver 'sat': unknown engine 'cryptosat'; choose one of"):
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


# --- rules as data ------------------------------------------------------------------------------------

from sudokulab.core.rules import KINDS, build  # noqa: E402 - the rules tests' own imports

from .test_cnf import PRESETS4, S4, brute_force, random_rules  # noqa: E402


def test_the_sat_solver_declares_every_kind():
    assert SatSolver.capabilities.kinds == frozenset(KINDS)
    with SatSolver(engine="glucose4") as solver:
        assert solver.capabilities.kinds == frozenset(KINDS)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(PRESETS4))
def test_every_preset_on_4x4_counts_solves_and_gives_the_first_solution(solver, name):
    empty = Puzzle.empty(S4).with_rules(PRESETS4[name])
    expected = brute_force(empty)
    assert solver.count(empty, limit=1000).count == len(expected)
    for clues in (0, 2, 5):
        first = min(expected, default=(1,) * 16)
        puzzle = Puzzle(S4, tuple(first[c] if c % 3 == 0 and c < 3 * clues else 0 for c in range(16)), empty.rules)
        solutions = brute_force(puzzle)
        result, canonical = solver.solve(puzzle), solver.solve(puzzle, canonical=True)
        if not solutions:
            assert result.status is canonical.status is Status.NO_SOLUTION
            continue
        assert is_solution(result.grid, puzzle) and result.grid in solutions
        assert canonical.grid == min(solutions) and is_solution(canonical.grid, puzzle)
        assert solver.count(puzzle, limit=1000).count == len(solutions)


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(rules=random_rules(), data=st.data())
def test_random_rule_sets_count_as_the_brute_force(rules, data):
    givens = tuple(data.draw(st.integers(0, 4)) if data.draw(st.integers(0, 5)) == 0 else 0 for _ in range(16))
    puzzle = Puzzle(S4, givens, rules)
    expected = brute_force(puzzle)
    with SatSolver(**data.draw(st.sampled_from(CONFIGS[:6]))) as solver:
        assert solver.count(puzzle, limit=1000).count == len(expected)
        result = solver.solve(puzzle, canonical=True)
        assert result.grid == min(expected, default=None)


NINE = Shape(3, 3)
VARIANTS9 = {
    "x": build(NINE, ["x"]),
    "windoku": build(NINE, ["windoku"]),
    "anti-knight": build(NINE, ["anti-knight"]),
    "anti-king": build(NINE, ["anti-king"]),
    "killer": build(NINE, cages=[((0, 1), 3), ((2, 3, 4), 24), ((9, 10, 11, 12), 22), ((80, 79), 17)]),
    "thermo": build(NINE, thermos=[(0, 1, 2, 3, 4), (40, 41, 42), (80, 70, 60)]),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(VARIANTS9))
def test_9x9_and_6x6_variants_solve_by_their_rules(solver, name):
    puzzle = Puzzle.empty(NINE).with_rules(VARIANTS9[name])
    result = solver.solve(puzzle, time_limit=60)
    assert result.status is Status.SOLVED and is_solution(result.grid, puzzle)
    canonical = solver.solve(puzzle, canonical=True, time_limit=60)
    assert is_solution(canonical.grid, puzzle) and canonical.grid <= result.grid
    # half of the answer given back: the answer is still a solution, and counts agree with solve
    half = Puzzle(NINE, tuple(v if i % 2 else 0 for i, v in enumerate(result.grid)), puzzle.rules)
    assert solver.count(half, limit=5).count >= 1
    six = build(Shape(2, 3), [p for p in VARIANTS9[name].presets if p in ("x", "windoku", "anti-knight", "anti-king")])
    small = Puzzle.empty(Shape(2, 3)).with_rules(six)
    assert solver.solve(small, canonical=True).grid == first_by_search(small)


def first_by_search(puzzle: Puzzle) -> tuple[int, ...] | None:
    """The row-major first solution by a plain depth-first search over the rules' peers (groups and
    differing pairs only), independent of every solver."""
    n, peers = puzzle.n, puzzle.rules.peers
    grid = list(puzzle.givens)
    blanks = [cell for cell, v in enumerate(grid) if not v]

    def place(i: int) -> bool:
        if i == len(blanks):
            return True
        cell = blanks[i]
        taken = {grid[p] for p in peers[cell]}
        for digit in range(1, n + 1):
            if digit not in taken:
                grid[cell] = digit
                if place(i + 1):
                    return True
        grid[cell] = 0
        return False

    return tuple(grid) if place(0) and is_solution(tuple(grid), puzzle) else None


@pytest.mark.slow
def test_a_standard_answer_is_not_returned_for_an_x_puzzle(solver):
    """The same givens, two rule sets: two different first solutions, each checked by its rules."""
    plain = Puzzle.empty(NINE)
    x = plain.with_rules(VARIANTS9["x"])
    standard_first = solver.solve(plain, canonical=True).grid
    x_first = solver.solve(x, canonical=True).grid
    assert not is_solution(standard_first, x) and is_solution(x_first, x) and x_first != standard_first


def test_solve_batch_honours_the_batchs_rules():
    import numpy as np

    rules = VARIANTS9["killer"]
    with SatSolver() as solver:
        reference = solver.solve(Puzzle.empty(NINE).with_rules(rules)).grid
        givens = np.zeros((4, 81), dtype=np.uint8)
        for i in range(4):
            givens[i, i * 7:i * 7 + 20] = reference[i * 7:i * 7 + 20]
        for config in ({}, {"encoding": "reduced"}):
            with SatSolver(**config) as one:
                results = one.solve_batch(givens, NINE, rules=rules)
                for row, grid in zip(givens.tolist(), results.grids.tolist()):
                    assert is_solution(tuple(grid), Puzzle(NINE, tuple(row), rules))
        plain = solver.solve_batch(givens[:1] * 0, NINE)  # no rules: standard Sudoku
        assert is_solution(tuple(plain.grids[0].tolist()), Puzzle.empty(NINE))
        with pytest.raises(ValueError, match="the rules are for a"):
            solver.solve_batch(givens, Shape(2, 2), rules=rules)


def test_engines_are_kept_per_rule_set_and_bounded():
    with SatSolver() as solver:
        for total in range(3, 3 + sat.KEEP_ENGINES + 4):
            puzzle = Puzzle.empty(NINE).with_rules(build(NINE, cages=[((0, 1), total)]))
            assert is_solution(solver.solve(puzzle).grid, puzzle)
        assert len(solver._engines) == sat.KEEP_ENGINES
        x = Puzzle.empty(NINE).with_rules(VARIANTS9["x"])
        solver.solve(x)
        engine = solver._engines[VARIANTS9["x"]]
        solver.solve(x.with_rules(build(NINE, ["x"])))  # equal rules share the engine
        assert solver._engines[VARIANTS9["x"]] is engine


def test_a_solver_that_lacks_a_kind_is_refused_before_solving():
    from sudokulab.solvers.base import Capabilities

    with SatSolver() as plain:
        plain.capabilities = Capabilities(threads="serialised")  # as if it knew only all-different
        killer = Puzzle.empty(NINE).with_rules(VARIANTS9["killer"])
        for call in (plain.solve, plain.count):
            with pytest.raises(UnsupportedFeature, match="'sat' cannot honour sum constraints"):
                call(killer)
        assert not plain._engines  # refused before any work


@pytest.mark.parametrize("presets", [["x", "anti-knight"], ["windoku", "anti-king"], ["x"], ["anti-king"]])
def test_combined_presets_on_6x6_match_a_plain_search(presets):
    puzzle = Puzzle.empty(Shape(2, 3)).with_rules(build(Shape(2, 3), presets))
    with SatSolver() as solver:
        result = solver.solve(puzzle, canonical=True)
    assert result.grid == first_by_search(puzzle)
    assert result.grid is None or is_solution(result.grid, puzzle)


ONE_ENGINE = """
import sys
from pysat.solvers import Solver
with Solver(name=sys.argv[1], bootstrap_with=[[1, 2]]) as engine:
    engine.solve()
    engine.add_clause([-1])
    print(bool(engine.solve()) and 2 in (engine.get_model() or ()))
"""


@pytest.mark.slow
def test_repeated_solves_in_one_child_agree_with_a_child_per_engine():
    """``sudokulab solvers`` asks every engine in one child process, going on in a new one after an
    engine that ends its process (kissat404 aborts; an unknown name raises): the answers are those
    of a process per engine."""
    from sudokulab.solvers.sat.engines import repeated_solves

    names = [*ENGINES[:3], "no-such-engine", *ENGINES[3:]]
    alone = {}
    for name in names:
        done = subprocess.run([sys.executable, "-c", ONE_ENGINE, name], capture_output=True, text=True, timeout=60)
        alone[name] = done.returncode == 0 and done.stdout.strip() == "True"
    assert repeated_solves(names) == alone
    assert alone["no-such-engine"] is False and any(alone.values())


def test_restarts_off_leaves_the_answer_and_stops_the_restarts():
    """``restarts=false`` (CaDiCaL's ``restart`` option off): the same checked answer, no restart counted,
    where the default engine restarts on the same QWH instance; an engine PySAT cannot configure is refused."""
    import random

    from sudokulab.generation.quasigroups import quasigroup_with_holes

    puzzle, _ = quasigroup_with_holes(25, 250, random.Random(2))
    results = {}
    for restarts in (True, False):
        with SatSolver(restarts=restarts) as solver:
            results[restarts] = solver.solve(puzzle)
            assert is_solution(results[restarts].grid, puzzle)
    assert results[True].stats["restarts"] > 0 and results[False].stats["restarts"] == 0
    assert results[False].stats["conflicts"] > 0
    with pytest.raises(UnsupportedFeature, match="restarts=false needs a CaDiCaL engine"):
        SatSolver(engine="glucose4", restarts=False)
