"""One model, many engines: the CPMpy model's text, and the ``cpmpy`` solver on every backend CPMpy
supports here, checked against ``sat`` (answers, counts) and ``backtrack`` (canonical answers).
"""

from __future__ import annotations

import time

import pytest

from sudokulab import Puzzle, Shape, Status, UsageError, is_solution, parse_puzzle, solution_error, solvers
from sudokulab.core.rules import ALL_DIFFERENT, DIFFER, INCREASING, KINDS, SUM, build
from sudokulab.errors import UnsupportedFeature
from sudokulab.grading import contract
from sudokulab.solvers import export
from sudokulab.solvers.cpmpy.backends import available_backends, installed_traits
from sudokulab.solvers.cpmpy.model import rule_model, to_cpmpy_text
from sudokulab.solvers.cpmpy.solver import CpmpySolver

from ..conftest import FIXTURES, random_puzzle
from .test_cpsat import variant
from .test_rules_contract import load_variant

VARIANTS = FIXTURES / "variants"
BACKENDS = available_backends()
SAMPLE = parse_puzzle("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
KILLER = load_variant(VARIANTS / "killer_wikipedia.json")[0]
THERMO = load_variant(VARIANTS / "thermo_uk_2022.json")[0]
SEVERAL = Puzzle(Shape(2, 2), (1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4))
"""A 4x4 puzzle with several solutions (12), to count."""


@pytest.fixture(scope="module", params=BACKENDS)
def engine(request):
    with CpmpySolver(backend=request.param) as solver:
        yield solver


@pytest.fixture(scope="module")
def ortools():
    with CpmpySolver() as solver:
        yield solver


# --- the model ---------------------------------------------------------------------------------

def test_the_model_says_each_rule_as_a_person_writes_it():
    rules = build(Shape(2, 2), ["anti-knight"], cages=[([0, 1], 3)], thermos=[[4, 5, 6]])
    text = to_cpmpy_text(Puzzle(Shape(2, 2), (1,) + (0,) * 15, rules))
    header, *lines = text.splitlines()
    groups, pairs = len(rules.groups), len(rules.pairs)
    assert header.startswith("# sudokulab CPMpy model:") and header.endswith(
        f"1 givens; 16 variables, {groups + pairs + 1 + 2 + 1} constraints")
    assert "    alldifferent(x[0,0],x[0,1],x[0,2],x[0,3])" in lines  # row 1
    assert "    (x[0,0]) + (x[0,1]) == 3" in lines  # the cage, with its total
    assert "    (x[1,0]) < (x[1,1])" in lines and "    (x[1,1]) < (x[1,2])" in lines  # the thermometer
    assert "    (x[0,0]) != (x[1,2])" in lines  # an anti-knight pair
    assert "    x[0,0] == 1" in lines  # the given


def test_export_writes_the_model_and_refuses_options(sample):
    text = export(sample, "cpmpy")
    givens = sample.shape.cells - sample.blanks
    assert text.count("alldifferent(") == 27 and text.count(" == ") == givens
    assert text.splitlines()[0].endswith(f"{givens} givens; 81 variables, {27 + givens} constraints")
    with pytest.raises(UsageError, match="the cpmpy format takes no option 'canonical'"):
        export(sample, "cpmpy", canonical=True)


def test_each_solver_gets_its_own_variables():
    """CPMpy stores a solved value in the variable object: two solvers must never share one."""
    rules = build(Shape(2, 2))
    assert rule_model(rules).cells[0, 0] is not rule_model(rules).cells[0, 0]


# --- every backend -----------------------------------------------------------------------------

@pytest.mark.slow
def test_every_backend_solves_the_boj_sample_a_killer_and_a_thermo_as_sat_does(engine, sat, sample, sample_answer):
    result = engine.solve(sample)
    assert result.status is Status.SOLVED and "\n".join(
        " ".join(map(str, result.grid[r * 9:r * 9 + 9])) for r in range(9)) + "\n" == sample_answer
    for puzzle in (KILLER, THERMO):
        if not puzzle.rules.kinds <= engine.capabilities.honoured:
            with pytest.raises(UnsupportedFeature, match="solver 'cpmpy' cannot honour"):
                engine.solve(puzzle, time_limit=1e-9)  # refused before any work
            continue
        result = engine.solve(puzzle)
        assert result.status is Status.SOLVED and result.grid == sat.solve(puzzle).grid  # both have one solution
        assert result.stats["backend"] == engine.backend and result.stats["solves"] == 1
        assert result.stats["transform_seconds"] >= 0 and result.stats["solve_seconds"] > 0


@pytest.mark.slow
def test_every_backend_counts_and_gives_canonical_answers(engine, sat, backtrack):
    counted = engine.count(SEVERAL, limit=100)
    assert (counted.count, counted.status) == (sat.count(SEVERAL, limit=100).count, Status.SOLVED) and counted.exact
    assert engine.count(SEVERAL, limit=5).count == 5
    assert engine.solve(SEVERAL, canonical=True).grid == backtrack.solve(SEVERAL).grid
    puzzle, _ = random_puzzle(Shape(2, 3), 0.3, 4)
    assert engine.solve(puzzle, canonical=True).grid == backtrack.solve(puzzle).grid


@pytest.mark.slow
def test_no_solution_on_every_backend(engine):
    """Row 1 needs a 3 or a 4 in column 3, where box 2 holds the 3 and column 3 the 4: no rule broken, no solution."""
    givens = [0] * 16
    givens[0], givens[1], givens[6], givens[10] = 1, 2, 3, 4
    dead = Puzzle(Shape(2, 2), tuple(givens))
    assert engine.solve(dead).status is Status.NO_SOLUTION
    counted = engine.count(dead, limit=3)
    assert (counted.count, counted.status) == (0, Status.NO_SOLUTION)


# --- a contract over backends: every kind a backend declares, run on it (CPMpy's test_constraints) --------

KIND_PUZZLES = {ALL_DIFFERENT: "x 4x4", DIFFER: "anti-knight 6x6", SUM: "killer 6x6", INCREASING: "thermo 6x6"}
"""For each kind, the contract's small puzzle that uses it (with all-different groups beside it, as a
Sudoku always has: CPMpy's PySAT backend once crashed on differing pairs only beside an AllDifferent,
a pseudo-Boolean constraint it could not post without PBLib)."""


@pytest.fixture(scope="module")
def kind_puzzles(backtrack):
    return dict(contract.variant_puzzles(backtrack))


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("backend", BACKENDS)
def test_every_declared_kind_runs_on_every_installed_backend(backend, kind, kind_puzzles, backtrack):
    """Each backend, each way of giving it the givens: every kind, stated natively or lowered as the backend
    declares, is solved (the answer checked, the canonical answer and the count those of ``backtrack``); a
    kind it could take neither way would be refused before any work."""
    puzzle = kind_puzzles[KIND_PUZZLES[kind]]
    canonical, count = backtrack.solve(puzzle, canonical=True).grid, backtrack.count(puzzle, limit=3).count
    ways = ("post", "assume") if installed_traits(backend).assumptions else ("post",)
    for givens in ways:
        with CpmpySolver(backend=backend, givens=givens) as solver:
            if solver.capabilities.unsupported(puzzle.rules) is not None:
                contract.check_refused(solver, puzzle)
                continue
            result = solver.solve(puzzle, time_limit=120)
            assert result.status is Status.SOLVED and is_solution(result.grid, puzzle), (givens, result)
            assert solver.solve(puzzle, canonical=True, time_limit=120).grid == canonical, givens
            assert solver.count(puzzle, limit=3, time_limit=120).count == count, givens


@pytest.mark.slow
def test_an_anti_king_puzzle_on_pysat_is_solved_counted_and_canonical(tmp_path, capsys, backtrack):
    """The issue's case: ``-o backend=pysat`` on anti-king rules once printed CPMpy's PBLib traceback and exited 1."""
    from sudokulab.formats.boj import format_puzzle

    from ..conftest import run_cli

    puzzle = Puzzle(Shape(3, 3), (0,) * 80 + (1,)).with_rules(build(Shape(3, 3), ["anti-king"]))
    path = tmp_path / "anti-king.txt"
    path.write_text(format_puzzle(puzzle))
    common = (str(path), "--rules", "anti-king", "--solver", "cpmpy", "-o", "backend=pysat")
    code, out, err = run_cli(capsys, "solve", *common)
    assert (code, err) == (0, "") and is_solution(parse_puzzle(out).givens, puzzle)
    code, out, _ = run_cli(capsys, "solve", *common, "--canonical")
    assert code == 0 and parse_puzzle(out).givens == backtrack.solve(puzzle, canonical=True).grid
    code, out, _ = run_cli(capsys, "count", *common, "--limit", "2")
    assert (code, out.strip()) == (0, "at least 2")


def test_a_backend_that_fails_at_run_time_is_exit_2_in_one_line(tmp_path, capsys, monkeypatch, sample):
    """An engine that raises (an import it lacks, a transformation, native code): never read as "no solution"."""
    from sudokulab.formats.boj import format_puzzle
    from sudokulab.solvers.cpmpy import solver as cpmpy_solver

    from ..conftest import run_cli

    class Broken:
        def __iadd__(self, constraints):
            raise RuntimeError("native failure\nsecond line")

    monkeypatch.setattr(cpmpy_solver.SolverLookup, "get", lambda *args, **kwargs: Broken())
    path = tmp_path / "sample.txt"
    path.write_text(format_puzzle(sample))
    for command in (("solve",), ("solve", "--canonical"), ("count",)):
        code, out, err = run_cli(capsys, command[0], str(path), *command[1:], "--solver", "cpmpy")
        assert (code, out) == (2, ""), command
        assert err == "sudokulab: error: solver 'cpmpy': CPMpy backend 'ortools' failed: RuntimeError: native failure\n"


@pytest.mark.slow
def test_pysat_takes_pairs_sums_and_thermometers_through_the_lowering_without_pblib(sat):
    """Without PBLib, CPMpy's PySAT backend cannot post ``!=`` between cells, sums or ``<`` (each needs a
    pseudo-Boolean constraint): it states groups natively and the rest in the lowering's forms, clauses
    it does take. Each answer is checked by the checker, each count against ``sat``."""
    solver = CpmpySolver(backend="pysat")
    if solver.capabilities.kinds == frozenset(KINDS):
        pytest.skip("PBLib is installed here: PySAT takes every kind natively")
    assert solver.capabilities.kinds == {ALL_DIFFERENT}
    assert {DIFFER, SUM, INCREASING} <= solver.capabilities.lowered
    for puzzle in (KILLER, THERMO):
        result = solver.solve(puzzle)
        assert result.status is Status.SOLVED and is_solution(result.grid, puzzle), solution_error(result.grid, puzzle)
    for preset in ("anti-knight", "killer", "thermo"):
        puzzle = Puzzle.empty(Shape(2, 2)).with_rules(variant(Shape(2, 2), preset))
        assert solver.count(puzzle, limit=50).count == sat.count(puzzle, limit=50).count


# --- the default backend (OR-Tools) --------------------------------------------------------------

@pytest.mark.parametrize("shape, fraction, seed", [(Shape(2, 2), 0.3, 1), (Shape(2, 3), 0.4, 2),
                                                   (Shape(3, 3), 0.4, 3), (Shape(4, 4), 0.5, 4)])
def test_boards_of_every_size_agree_with_sat(ortools, sat, shape, fraction, seed):
    puzzle, _ = random_puzzle(shape, fraction, seed)
    result = ortools.solve(puzzle)
    assert result.status is Status.SOLVED and is_solution(result.grid, puzzle)
    assert ortools.count(puzzle, limit=3).count == sat.count(puzzle, limit=3).count


@pytest.mark.parametrize("preset", ["x", "jigsaw", "anti-knight", "killer", "thermo"])
def test_variants_agree_with_sat(ortools, sat, backtrack, preset):
    puzzle = Puzzle.empty(Shape(2, 3)).with_rules(variant(Shape(2, 3), preset))
    assert ortools.count(puzzle, limit=20).count == sat.count(puzzle, limit=20).count
    assert ortools.solve(puzzle, canonical=True).grid == sat.solve(puzzle, canonical=True).grid


def test_stats_keep_the_modelling_layer_apart_from_the_engine(ortools):
    stats = ortools.solve(SAMPLE).stats
    assert (stats["backend"], stats["givens"], stats["variables"], stats["constraints"]) == ("ortools", "post", 81,
                                                                                             27 + 30)
    assert {"transform_seconds", "solve_seconds", "branches", "conflicts"} <= set(stats)


@pytest.mark.slow
def test_a_time_limit_on_a_hard_25x25(ortools):
    puzzle, _ = random_puzzle(25, 0.45, 1)
    started = time.perf_counter()
    result = ortools.count(Puzzle.empty(25), limit=10**9, time_limit=1.0)
    assert result.status is Status.TIME_LIMIT and not result.exact
    solved = ortools.solve(puzzle, time_limit=1e-3)
    assert solved.status is Status.TIME_LIMIT and solved.grid is None
    assert time.perf_counter() - started < 60  # a hang guard, not a speed test


def test_an_engine_that_stops_short_on_its_own_is_a_time_limit_not_ctrl_c(monkeypatch):
    """CP-SAT stops ahead of its time limit by the longest gap between two looks at its clock, which a
    busy machine makes long (an empty 64x64 board under ``--time-limit 2`` once exited 130, "interrupted").
    Its own deterministic-time limit makes the real engine stop so, seconds before the deadline."""
    import dataclasses

    with CpmpySolver() as solver:
        monkeypatch.setattr(solver, "traits", dataclasses.replace(
            solver.traits, settings={**solver.traits.settings, "max_deterministic_time": 1e-6}))
        started = time.perf_counter()
        solved = solver.solve(Puzzle.empty(25), time_limit=60)
        counted = solver.count(Puzzle.empty(25), limit=10**9, time_limit=60)
    assert time.perf_counter() - started < 50  # both stopped short of the deadline...
    assert solved.status is Status.TIME_LIMIT and solved.grid is None  # ...and neither reads as Ctrl-C
    assert counted.status is Status.TIME_LIMIT and not counted.exact


@pytest.mark.slow
@pytest.mark.parametrize("backend", [b for b in ("ortools", "pysat", "z3") if b in BACKENDS])
def test_ctrl_c_while_counting_on_a_backend(tmp_path, backend):
    """A real SIGINT to the command stops the backends that can be stopped (Z3 takes the signal itself and
    answers "unknown": read as Ctrl-C). Not exact nor choco: they may take SIGINT and run on (docs/cpmpy.md)."""
    from sudokulab.formats.boj import format_puzzle

    from ..cli.test_hardening import HANG, interrupt

    empty = tmp_path / "empty.txt"
    empty.write_text(format_puzzle(Puzzle.empty(16)))
    code, err, took = interrupt(["count", str(empty), "--solver", "cpmpy", "-o", f"backend={backend}",
                                 "--limit", str(10**12)], after=3.0)
    assert (code, err) == (130, b"sudokulab: interrupted\n") and took < HANG


# --- options -------------------------------------------------------------------------------------

def test_options_are_checked_with_one_line():
    with pytest.raises(UsageError, match="unknown backend 'nope'; choose one of: ortools"):
        solvers.get("cpmpy", backend="nope")
    with pytest.raises(UsageError, match="CPMpy backend 'gurobi' is not installed here"):
        solvers.get("cpmpy", backend="gurobi")
    with pytest.raises(UsageError, match="unknown givens 'some'"):
        solvers.get("cpmpy", givens="some")
    if "choco" in BACKENDS:
        with pytest.raises(UsageError, match="backend 'choco' cannot be kept for assumptions"):
            solvers.get("cpmpy", backend="choco", givens="assume")
    assert solvers.get("cpmpy", backend=" Z3 ", givens="assume").backend == "z3"


def test_minizinc_is_named_when_cpmpy_finds_it_too_old():
    from cpmpy.solvers.minizinc import CPM_minizinc

    if CPM_minizinc.supported():
        pytest.skip("CPMpy takes this MiniZinc")
    with pytest.raises(UsageError, match="backend 'minizinc' is not installed here: CPMpy finds the MiniZinc"):
        solvers.get("cpmpy", backend="minizinc")


@pytest.mark.slow
def test_givens_posted_or_assumed_give_the_same_answers(sat):
    with CpmpySolver(givens="assume") as assumed:
        for puzzle in (SAMPLE, KILLER):
            result = assumed.solve(puzzle)
            assert result.grid == sat.solve(puzzle).grid and result.stats["givens"] == "assume"
        assert assumed.solve(SAMPLE).stats["transform_seconds"] == 0  # the kept backend: nothing posted


def test_describe_names_cpmpy_and_its_backends():
    described = solvers.describe("cpmpy")
    assert described["installed"] and described["paradigm"] == "constraint programming (one model, many engines: CPMpy)"
    assert described["backend"]["backends"]["ortools"]["supported"] is True
    assert described["options"][0]["choices"] == list(BACKENDS)
