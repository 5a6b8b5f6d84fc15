"""The 0-1 integer programming paradigm: the model's size by formula, its LP and MPS files read back
by a MIP solver, and the ``mip`` solver's answers, canonical runs, counts, statuses and stats, under
standard rules and every variant (rule sets and the 4x4 brute force shared with ``test_cpsat``).
"""

from __future__ import annotations

import dataclasses
import random
import re
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings

from sudokulab import Puzzle, Shape, Status, UsageError, first_conflict, is_solution, parse_puzzle, solvers
from sudokulab.core.rules import KINDS
from sudokulab.errors import UnsupportedFeature
from sudokulab.generation.puzzles import generate
from sudokulab.solvers import export
from sudokulab.solvers.mip.model import build_model, model_size, rules, to_lp, to_mps, var_index, var_name
from sudokulab.solvers.mip.solver import MipSolver

from ..conftest import random_grid, random_puzzle
from .test_cpsat import PRESETS, brute_force, small_puzzles, variant, variant_cases
from .test_cpsat import SHAPES as BOARDS

SHAPES = [Shape(1, 1), Shape(2, 2), Shape(2, 3), Shape(3, 2), Shape(3, 3), Shape(3, 4), Shape(4, 4)]
CLASSIC = parse_puzzle("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")


@pytest.fixture(scope="module")
def mip():
    with MipSolver() as solver:
        yield solver


# --- the model ---------------------------------------------------------------------------------

@pytest.mark.parametrize("shape", SHAPES)
def test_model_size_matches_the_formulas(shape):
    n = shape.n
    built = rules(shape)
    assert len(built.names) == n**3 and len(built.constraints) == 4 * n**2 == model_size(shape)[1]
    assert all(len(c.terms) == n for c in built.constraints)
    occurrences = [0] * n**3
    for constraint in built.constraints:
        for i in constraint.terms:
            occurrences[i] += 1
    assert occurrences == [4] * n**3  # each x[r, c, d] sits in its cell, row, column and box row
    assert len(set(built.names)) == n**3 and len({c.name for c in built.constraints}) == 4 * n**2


@pytest.mark.parametrize("shape", [Shape(2, 2), Shape(2, 3), Shape(3, 3)])
def test_var_index_is_one_to_one_and_names_say_it_1_based(shape):
    n = shape.n
    seen = {var_index(shape, r, c, d) for r in range(n) for c in range(n) for d in range(1, n + 1)}
    assert seen == set(range(n**3))
    assert var_name(shape, var_index(shape, n - 1, 0, n)) == f"x{n}_1_{n}"


def test_givens_are_bounds_not_rows(sample):
    model = build_model(sample)
    assert model.size == model_size(sample.shape)
    assert len(model.fixed) == 81 - sample.blanks
    lower = model.lower_bounds()
    assert sum(lower) == len(model.fixed)
    assert all(lower[cell * 9 + digit - 1] == 1 for cell, digit in enumerate(sample.givens) if digit)
    assert "324 equalities" in model.describe()


# --- the files, read back by a MIP solver --------------------------------------------------------

def solve_mps_with_scip(text: str, puzzle: Puzzle) -> tuple[int, ...] | None:
    """Read MPS with OR-Tools' reader, solve with SCIP, decode by variable name."""
    from ortools.linear_solver.python import model_builder as mb

    model = mb.Model()
    assert model.import_from_mps_string(text)
    assert (model.num_variables, model.num_constraints) == model_size(puzzle.rules)
    engine = mb.Solver("scip")
    if engine.solve(model) not in (mb.SolveStatus.OPTIMAL, mb.SolveStatus.FEASIBLE):
        return None
    return decode({v.name: engine.value(v) for v in model.get_variables()}, puzzle.n)


def decode(values: dict[str, float], n: int) -> tuple[int, ...]:
    grid = [0] * (n * n)
    for name, value in values.items():
        if value > 0.5:
            r, c, d = map(int, name[1:].split("_"))
            grid[(r - 1) * n + c - 1] = d
    return tuple(grid)


@pytest.mark.parametrize("style", ["free", "fixed"])
def test_mps_round_trip_solves_to_a_valid_grid(sample, style):
    grid = solve_mps_with_scip(to_mps(sample, style=style), sample)
    assert is_solution(grid, sample)


def test_mps_of_broken_givens_is_infeasible():
    broken = Puzzle(Shape(2, 2), (1, 1) + (0,) * 14)
    assert solve_mps_with_scip(to_mps(broken), broken) is None


Row = tuple[dict[str, float], float, float]
"""A row as read back: {column: coefficient}, lower bound, upper bound."""


def lp_rows(text: str) -> tuple[dict[str, Row], set[str], set[str]]:
    """A reader for what ``to_lp`` writes (rows, fixed columns, integer columns), to compare with MPS."""
    sections = re.split(r"^(Minimize|Subject To|Bounds|Binaries|Generals|End)$", text, flags=re.M)
    parts = dict(zip(sections[1::2], sections[2::2]))
    rows = {}
    for statement in re.split(r"\n(?! {3})", parts["Subject To"].strip()):
        name, _, expression = statement.partition(":")
        left, sense, rhs = re.fullmatch(r"(.*) (=|<=|>=) (-?\d+)", " ".join(expression.split())).groups()
        terms: dict[str, float] = {}
        for sign, size, column in re.findall(r"([+-]?) ?(\d+ )?(x\d+_\d+_\d+)", left):
            terms[column] = (-1 if sign == "-" else 1) * float(size or 1)
        bound = float(rhs)
        inf = float("inf")
        rows[name.strip()] = (terms, -inf if sense == "<=" else bound, inf if sense == ">=" else bound)
    fixed = {line.split()[0] for line in parts["Bounds"].strip().splitlines() if line.strip()}
    integers = set(parts["Binaries"].split()) | set(parts.get("Generals", "").split())
    return rows, fixed, integers


def mps_rows(text: str) -> tuple[dict[str, Row], set[str], set[str], list]:
    """The MPS file as OR-Tools reads it: rows, fixed columns, integer columns, and the variables."""
    from ortools.linear_solver.python import model_builder as mb

    model = mb.Model()
    assert model.import_from_mps_string(text)
    proto = model.export_to_proto()
    names = [v.name for v in proto.variable]
    rows = {c.name: ({names[i]: coeff for i, coeff in zip(c.var_index, c.coefficient)}, c.lower_bound, c.upper_bound)
            for c in proto.constraint}
    fixed = {v.name for v in proto.variable if v.lower_bound == 1}
    integers = {v.name for v in proto.variable if v.is_integer}
    return rows, fixed, integers, names


@pytest.mark.parametrize("preset", ("standard",) + PRESETS)
def test_lp_file_says_what_the_mps_file_says(sample, preset):
    """OR-Tools reads no CPLEX LP files, so the LP file is compared with the MPS one, row by row."""
    puzzle = sample if preset == "standard" else sample.with_rules(variant(BOARDS[9], preset))
    rows, fixed, integers = lp_rows(to_lp(puzzle))
    mps, mps_fixed, mps_integers, names = mps_rows(to_mps(puzzle))
    assert mps == rows and len(rows) == model_size(puzzle.rules)[1]
    assert mps_fixed == fixed and len(fixed) == 81 - sample.blanks
    assert mps_integers == integers == set(names)


def test_lp_round_trip_through_highs_when_installed(sample, tmp_path):
    highspy = pytest.importorskip("highspy")
    path = tmp_path / "sample.lp"
    path.write_text(export(sample, "lp"))
    highs = highspy.Highs()
    highs.silent()
    highs.readModel(str(path))
    highs.run()
    values = highs.getSolution().col_value
    grid = decode({highs.getColName(i)[1]: values[i] for i in range(highs.getNumCol())}, 9)
    assert is_solution(grid, sample)


def test_export_options_are_checked():
    with pytest.raises(UsageError, match="style"):
        to_mps(Puzzle.empty(4), style="wide")
    with pytest.raises(UsageError, match="takes no option 'colour'"):
        to_lp(Puzzle.empty(4), colour="red")
    with pytest.raises(UsageError, match="use style=free"):
        to_mps(Puzzle.empty(16), style="fixed")
    with pytest.raises(UsageError, match="too short for the row 'window1_d1'; use style=free"):
        to_mps(Puzzle.empty(9).with_rules(variant(BOARDS[9], "windoku")), style="fixed")
    assert export(Puzzle.empty(4), "mps") == to_mps(Puzzle.empty(4))


# --- the solver ---------------------------------------------------------------------------------

def test_boj_sample_and_its_root_relaxation_is_integral(mip, sample):
    """The sample falls to singles, and so does the LP relaxation: no branching at all."""
    result = mip.solve(sample)
    assert result.status is Status.SOLVED and is_solution(result.grid, sample)
    assert result.stats["root_integral"] is True
    assert (result.stats["variables"], result.stats["constraints"]) == (729, 324)
    assert {"nodes", "lp_iterations", "solves"} <= set(result.stats)


def test_root_integral_is_false_when_the_relaxation_is_fractional(mip):
    hardest = parse_puzzle("8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..")
    result = mip.solve(hardest)
    assert is_solution(result.grid, hardest) and result.stats["root_integral"] is False


def test_root_lp_can_be_turned_off(sample):
    result = MipSolver(root_lp=False).solve(sample)
    assert is_solution(result.grid, sample) and "root_integral" not in result.stats


def test_a_16x16_puzzle(mip):
    puzzle = next(generate(16, 1, fraction=0.45, seed=1)).puzzle
    result = mip.solve(puzzle)
    assert result.status is Status.SOLVED and is_solution(result.grid, puzzle)
    assert result.stats["variables"] == 16**3


@pytest.mark.parametrize("seed", range(12))
def test_canonical_is_the_baselines_answer(mip, seed):
    shape = [Shape(2, 2), Shape(2, 3), Shape(3, 2), Shape(3, 3)][seed % 4]
    puzzle, _ = random_puzzle(shape, 0.15 + 0.05 * seed, seed)
    expected = solvers.get("backtrack").solve(puzzle).grid
    result = mip.solve(puzzle, canonical=True)
    assert result.grid == expected and is_solution(result.grid, puzzle)


@pytest.mark.slow
def test_canonical_on_the_empty_9x9_board(mip):
    assert mip.solve(Puzzle.empty(9), canonical=True).grid == solvers.get("backtrack").solve(Puzzle.empty(9)).grid


def test_counting_agrees_with_the_fast_search(mip):
    reference = solvers.get("backtrack-fast")
    for seed in range(3):
        puzzle, _ = random_puzzle(4, 0.25, seed)
        assert mip.count(puzzle, limit=1000).count == reference.count(puzzle, limit=1000).count
    exact = mip.count(CLASSIC, limit=10**30)
    assert exact.count == 1 and exact.exact
    capped = mip.count(Puzzle.empty(9), limit=3)
    assert capped.count == 3 and not capped.exact and capped.stats["solves"] == 3


def test_count_limit_is_checked(mip):
    for bad in (0, -1, True, 2.0):
        with pytest.raises(ValueError, match="limit"):
            mip.count(Puzzle.empty(4), limit=bad)


def test_no_solution(mip):
    broken = Puzzle(Shape(3, 3), (1,) + (0,) * 6 + (1,) + (0,) * 73)
    assert mip.solve(broken).status is Status.NO_SOLUTION
    assert mip.solve(broken, canonical=True).status is Status.NO_SOLUTION
    assert mip.count(broken, limit=5).count == 0
    answer = solvers.get("backtrack").solve(CLASSIC).grid
    cell = CLASSIC.givens.index(0)
    for digit in range(1, 10):
        givens = CLASSIC.givens[:cell] + (digit,) + CLASSIC.givens[cell + 1:]
        if digit != answer[cell] and first_conflict(givens, CLASSIC.shape) is None:
            hidden = Puzzle(CLASSIC.shape, givens)
            break
    result = mip.solve(hidden)
    assert result.status is Status.NO_SOLUTION and result.grid is None


def test_time_limit_statuses(mip, sample):
    result = mip.solve(sample, time_limit=1e-6)
    assert result.status is Status.TIME_LIMIT or is_solution(result.grid, sample)
    counted = mip.count(Puzzle.empty(9), limit=10**9, time_limit=0.3)
    assert counted.status is Status.TIME_LIMIT and not counted.exact


def test_an_unexpected_backend_status_is_a_clear_error(monkeypatch, sample):
    from ortools.linear_solver import pywraplp

    solver = MipSolver()
    engine = solver._engine(sample.rules)
    monkeypatch.setattr(engine, "solver", _Abnormal(engine.solver, pywraplp.Solver.ABNORMAL))
    with pytest.raises(RuntimeError, match="SCIP answered ABNORMAL"):
        solver.solve(sample)


class _Abnormal:
    """A backend stand-in that answers one fixed status."""

    def __init__(self, real, status):
        self.real, self.status = real, status

    def Solve(self):  # noqa: N802 - pywraplp's name
        return self.status

    def __getattr__(self, name):
        return getattr(self.real, name)


def test_options_through_the_registry(sample):
    solver = solvers.get("mip", backend="CBC", threads="1", root_lp="false")
    assert solver.backend == "cbc" and solver.threads == 1 and solver.root_lp is False
    assert is_solution(solver.solve(sample).grid, sample)
    with pytest.raises(UsageError, match="choose one of: scip, cbc"):
        solvers.get("mip", backend="gurobi")
    with pytest.raises(UsageError, match="solver 'mip': unknown backend 'gurobi'; choose one of: scip, cbc"):
        MipSolver(backend="gurobi")  # built directly, as a library user would
    assert MipSolver.capabilities.threads == "serialised"


IMPORT_ORDERS = [
    "import sudokulab.solvers.mip.solver, ortools.sat.python.cp_model, pysat.solvers",
    "import pysat.solvers, ortools.sat.python.cp_model, sudokulab.solvers.mip.solver",
]


@pytest.mark.slow
@pytest.mark.parametrize("imports", IMPORT_ORDERS)
def test_backend_imports_beside_ortools_and_pysat(imports):
    code = (f"{imports}\nfrom sudokulab import parse_puzzle, is_solution\n"
            "from pysat.solvers import Solver\nfrom ortools.sat.python import cp_model\n"
            "with Solver(name='g4', bootstrap_with=[[1, 2]]) as s: assert s.solve()\n"
            "assert cp_model.CpSolver().solve(cp_model.CpModel()) == cp_model.OPTIMAL\n"
            "p = parse_puzzle('53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79')\n"
            "assert is_solution(sudokulab.solvers.mip.solver.MipSolver().solve(p).grid, p)\nprint('ok')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "ok"


def test_import_sudokulab_stays_light():
    code = "import sys, sudokulab, sudokulab.solvers; print('ortools.linear_solver' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "False", done.stderr[-2000:]


# --- variants: every rule kind ------------------------------------------------------------------

def test_the_solver_declares_every_kind():
    assert MipSolver.capabilities.kinds == set(KINDS)


@pytest.mark.parametrize("n, preset", variant_cases())
def test_rows_per_kind_follow_their_formulas(n, preset):
    r = variant(BOARDS[n], preset)
    complete, partial, pairs = len(r.complete_groups), len(r.partial_groups), len(r.pairs)
    cages, steps = len(r.cages), sum(len(t.cells) - 1 for t in r.thermos)
    program = rules(r)
    assert len(program.names) == n**3
    ones = [c for c in program.constraints if c.rhs == 1 and set(c.coefficients) == {1}]
    assert sum(c.sense == "=" for c in ones) == n * n + n * complete  # cells; complete groups and digits
    assert sum(c.sense == "<=" for c in ones) == n * (partial + pairs)  # partial groups or pairs, and digits
    sums = [c for c in program.constraints if c.name.startswith("sum")]
    assert len(sums) == cages and all(c.sense == "=" and len(c.terms) == n * len(cage.cells)
                                      for c, cage in zip(sums, r.cages))
    assert [c.rhs for c in sums] == [cage.total for cage in r.cages]
    thermo = [c for c in program.constraints if c.sense == ">="]
    assert len(thermo) == steps and all(c.rhs == 1 and sorted(c.coefficients) == sorted(
        list(range(1, n + 1)) + list(range(-n, 0))) for c in thermo)
    assert len(program.constraints) == model_size(r)[1] == n * n + n * (complete + partial + pairs) + cages + steps
    assert len({c.name for c in program.constraints}) == len(program.constraints)
    assert rules(r) is program  # built once per rule set


@pytest.mark.slow
@pytest.mark.parametrize("n, preset", variant_cases())
def test_every_preset_solves_and_canonically(mip, n, preset):
    shape = BOARDS[n]
    r = variant(shape, preset, seed=n)
    if preset in ("killer", "thermo"):
        grid = random_grid(shape, random.Random(n))  # the grid the cages and thermometers were made from
        puzzle = Puzzle(shape, tuple(v if i % 3 == 0 else 0 for i, v in enumerate(grid)), r)
    elif n == 9:  # an empty 9x9 board costs canonical probing many solves: keep some cells of CP-SAT's answer
        with solvers.get("cpsat") as cpsat:
            grid = cpsat.solve(Puzzle.empty(shape).with_rules(r)).grid
        puzzle = Puzzle(shape, tuple(v if i % 5 < 2 else 0 for i, v in enumerate(grid)), r)
    else:
        puzzle = Puzzle.empty(shape).with_rules(r)
    answer, first = mip.solve(puzzle, time_limit=120), mip.solve(puzzle, canonical=True, time_limit=120)
    if n == 4 and not brute_force(puzzle):  # 4x4 anti-king: no grid at all
        assert answer.status is first.status is Status.NO_SOLUTION
        return
    for result in (answer, first):
        assert result.status is Status.SOLVED and is_solution(result.grid, puzzle)
    assert answer.stats["constraints"] == model_size(r)[1]
    if n == 4:
        assert first.grid == brute_force(puzzle)[0]
    if n == 6:  # another paradigm's canonical answer: CP-SAT's fixed search
        with solvers.get("cpsat") as cpsat:
            assert first.grid == cpsat.solve(puzzle, canonical=True).grid


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["x", "windoku", "anti-knight", "killer", "thermo", "jigsaw"])
def test_counts_on_4x4_equal_the_brute_force_count(mip, preset):
    puzzle = Puzzle.empty(BOARDS[4]).with_rules(variant(BOARDS[4], preset))
    counted = mip.count(puzzle, limit=1000)
    assert counted.count == len(brute_force(puzzle)) and counted.exact


@pytest.mark.slow
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(puzzle=small_puzzles())
def test_random_rule_sets_on_4x4_agree_with_brute_force(mip, puzzle):
    solutions = brute_force(puzzle)
    assert mip.count(puzzle, limit=1000).count == len(solutions)
    assert mip.solve(puzzle, canonical=True).grid == (solutions[0] if solutions else None)
    answer = mip.solve(puzzle)
    assert is_solution(answer.grid, puzzle) if solutions else answer.status is Status.NO_SOLUTION


@pytest.mark.parametrize("preset", PRESETS)
def test_mps_of_a_variant_solves_under_its_rules(preset):
    shape = BOARDS[6]
    puzzle = Puzzle.empty(shape).with_rules(variant(shape, preset, seed=6))
    text = to_mps(puzzle)
    assert text.startswith("* sudokulab 0-1 model: 6x6 board with 2x3 boxes, rules: ")
    assert is_solution(solve_mps_with_scip(text, puzzle), puzzle)


def test_every_entry_point_checks_the_kinds_first(sample):
    class AllDifferentOnly(MipSolver):
        capabilities = dataclasses.replace(MipSolver.capabilities, kinds=frozenset({"all-different"}),
                                           forms=frozenset())

    thermo = Puzzle.empty(9).with_rules(variant(BOARDS[9], "thermo"))
    with AllDifferentOnly() as narrow:
        for call in (lambda: narrow.solve(thermo), lambda: narrow.count(thermo),
                     lambda: narrow.solve(thermo, canonical=True)):
            with pytest.raises(UnsupportedFeature, match="solver 'mip' cannot honour increasing thermometers"):
                call()
        assert not narrow._engines  # refused before any model was built
        assert is_solution(narrow.solve(sample).grid, sample)
