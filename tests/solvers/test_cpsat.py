"""The CP paradigm: the CP-SAT models (prepared per rule set, exported as text proto) and its solver.

Every grid a test accepts goes through ``is_solution``. No test asserts how long anything takes.
The variant section also holds the helpers ``test_mip`` shares: rule sets for every preset, and a
brute-force count and lexicographic minimum on 4x4 boards (every Latin square of order 4, filtered
by the independent checker, ``Rules.first_conflict``).
"""

from __future__ import annotations

import dataclasses
import random
import subprocess
import sys

import pytest
from google.protobuf import text_format
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from ortools.sat import cp_model_pb2
from ortools.sat.python import cp_model

from sudokulab import Puzzle, Shape, Status, UsageError, first_conflict, format_grid, is_solution, solvers
from sudokulab.cli.main import main
from sudokulab.core.rules import KINDS, Rules, RulesError, build, standard
from sudokulab.errors import UnsupportedFeature
from sudokulab.solvers.base import Deadline
from sudokulab.solvers.cpsat.model import Prepared, boolean_rules, build_model, model_size, rules, to_cpsat_text
from sudokulab.solvers.cpsat.solver import STATUS, CpSatSolver, ModelInvalid

from ..conftest import EXAMPLES, brute_force, latin_squares, random_grid, random_puzzle

STATS = {"branches", "conflicts", "booleans", "wall_time", "variables", "constraints", "workers"}


@pytest.fixture(scope="module")
def cpsat():
    with solvers.get("cpsat") as solver:
        yield solver


def decode(model: cp_model.CpModel, canonical: bool = False) -> tuple[int, ...] | None:
    """Solve a model read back from text with a plain CpSolver; the canonical way if asked."""
    engine = cp_model.CpSolver()
    engine.parameters.num_workers = 1
    if canonical:
        engine.parameters.cp_model_presolve = False
        engine.parameters.search_branching = cp_model.FIXED_SEARCH
    status = engine.solve(model)
    return tuple(engine.response_proto.solution) if status in (cp_model.OPTIMAL, cp_model.FEASIBLE) else None


# --- the model ---------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [Shape(2, 2), Shape(2, 3), Shape(3, 3), Shape(4, 4)])
def test_model_size_follows_the_formula(shape):
    built = build_model(shape)
    n = shape.n
    assert built.size == (n * n, 3 * n)  # a variable per cell, an AllDifferent per unit
    assert [c.name for c in built.cells[:2]] == ["r1c1", "r1c2"]
    assert all(len(c.all_diff.exprs) == n for c in built.model.proto.constraints)


def test_rules_are_built_once_per_shape_and_prepared_equals_fresh(sample):
    assert rules(Shape(3, 3)) is rules(Shape(3, 3))
    assert rules(Shape(3, 3), True) is not rules(Shape(3, 3))
    for canonical in (False, True):
        prepared = Prepared(sample.shape, canonical).set_givens(sample.givens)
        assert str(prepared) == str(build_model(sample, canonical).model.proto)


@pytest.mark.parametrize("shape", [Shape(2, 2), Shape(2, 3), Shape(3, 2), Shape(4, 4)])
@pytest.mark.parametrize("canonical", [False, True])
def test_the_proto_written_field_by_field_is_what_the_cp_model_api_builds(shape, canonical):
    assert str(rules(shape, canonical)) == str(build_model(shape, canonical).model.proto)


@pytest.mark.parametrize("shape", [Shape(2, 2), Shape(2, 3), Shape(3, 3)])
def test_boolean_model_size_and_prepared_givens(shape):
    n = shape.n
    proto = boolean_rules(shape)
    assert len(proto.variables) == n**3 and len(proto.constraints) == 4 * n * n
    assert all(len(c.exactly_one.literals) == n for c in proto.constraints)
    puzzle, solution = random_puzzle(shape, 0.4, 5)
    prepared = Prepared(shape, booleans=True)
    model = prepared.set_givens(puzzle.givens)
    fixed = [i for i, v in enumerate(model.variables) if tuple(v.domain) == (1, 1)]
    assert fixed == [cell * n + given - 1 for cell, given in enumerate(puzzle.givens) if given]
    model = prepared.set_givens(Puzzle.empty(shape).givens)  # the previous givens are reset
    assert all(tuple(v.domain) == (0, 1) for v in model.variables)
    vector = [int(solution[i // n] == i % n + 1) for i in range(n**3)]
    assert prepared.decode(vector) == prepared.decode(vector, puzzle.givens) == solution
    with pytest.raises(ValueError):
        Prepared(shape, canonical=True, booleans=True)


@pytest.mark.parametrize("model, presolve", [("alldiff", None), ("alldiff", False), ("booleans", True)])
def test_both_models_with_and_without_presolve(model, presolve, sample):
    puzzle, _ = random_puzzle(Shape(4, 4), 0.5, 9)
    with CpSatSolver(model=model, presolve=presolve) as solver:
        assert solver.presolve is (model == "alldiff" if presolve is None else presolve)
        for p in (sample, puzzle):
            assert is_solution(solver.solve(p).grid, p)
        assert solver.count(Puzzle.empty(4), limit=1000).count == 288


def test_prepared_resets_the_previous_givens(sample):
    prepared = Prepared(sample.shape)
    prepared.set_givens(sample.givens)
    empty = Puzzle.empty(9)
    assert str(prepared.set_givens(empty.givens)) == str(build_model(empty).model.proto)
    assert str(rules(Shape(3, 3))) == str(build_model(Shape(3, 3)).model.proto)  # untouched
    assert prepared.decode(range(81)) == tuple(range(81)) and prepared.indices == tuple(range(81))


# --- the solver --------------------------------------------------------------------------------


def test_boj_sample_gives_the_published_answer(cpsat, sample, sample_answer):
    result = cpsat.solve(sample)
    assert result.status is Status.SOLVED and is_solution(result.grid, sample)
    assert format_grid(result.grid) == sample_answer == (EXAMPLES / "boj2580-sample.out").read_text()
    assert STATS <= set(result.stats)
    # the default model: an integer per cell (81) and an AllDifferent per unit (27)
    assert result.stats["variables"] == 81 and result.stats["constraints"] == 27 and result.stats["workers"] == 1
    with CpSatSolver(model="booleans") as booleans:
        stats = booleans.solve(sample).stats
        assert (stats["variables"], stats["constraints"]) == (729, 324)  # exactly one per cell, per unit and digit


@pytest.mark.parametrize(
    "shape, fraction, seed", [(Shape(2, 2), 0.25, 1), (Shape(2, 3), 0.4, 2), (Shape(4, 4), 0.5, 3)]
)
def test_other_sizes(cpsat, shape, fraction, seed):
    puzzle, _ = random_puzzle(shape, fraction, seed)
    result = cpsat.solve(puzzle)
    assert result.status is Status.SOLVED and is_solution(result.grid, puzzle)
    assert result.stats["variables"] == shape.cells  # the AllDifferent model: one integer per cell
    with CpSatSolver(model="booleans") as booleans:
        answer = booleans.solve(puzzle)
    assert is_solution(answer.grid, puzzle) and answer.stats["variables"] == shape.cells * shape.n


def test_one_solver_serves_many_shapes(cpsat, sample):
    for n, canonical in [(4, False), (9, True), (6, False), (16, False), (4, True), (6, True)]:
        puzzle, _ = random_puzzle(n, 0.5, n)
        result = cpsat.solve(puzzle, canonical=canonical)
        assert is_solution(result.grid, puzzle)
    assert is_solution(cpsat.solve(sample).grid, sample)


def test_status_table_covers_every_answer_but_model_invalid():
    assert STATUS[cp_model.OPTIMAL] is STATUS[cp_model.FEASIBLE] is Status.SOLVED
    assert STATUS[cp_model.INFEASIBLE] is Status.NO_SOLUTION
    assert STATUS[cp_model.UNKNOWN] is Status.TIME_LIMIT
    assert cp_model.MODEL_INVALID not in STATUS


def test_no_solution_although_no_rule_is_broken(cpsat):
    # r1c1 sees 1 and 2 in its row and 3 and 4 in its column: no digit is left for it.
    stuck = Puzzle.from_rows([[0, 1, 2, 0], [3, 0, 0, 0], [4, 0, 0, 0], [0, 0, 0, 0]])
    assert first_conflict(stuck.givens, stuck.shape) is None
    result = cpsat.solve(stuck)
    assert result.status is Status.NO_SOLUTION and result.grid is None
    assert cpsat.solve(stuck, canonical=True).status is Status.NO_SOLUTION
    counted = cpsat.count(stuck, limit=3)
    assert counted.status is Status.NO_SOLUTION and counted.count == 0 and counted.exact


def test_time_limit(cpsat):
    """What a limit does, whatever the machine's load: how far the search got before it is not asserted."""
    big, _ = random_puzzle(25, 0.45, 7)
    result = cpsat.solve(big, time_limit=1e-6)  # almost always stopped; never a wrong grid
    assert (result.status, result.grid) == (Status.TIME_LIMIT, None) or is_solution(result.grid, big)
    counted = cpsat.count(Puzzle.empty(9), limit=10**9, time_limit=0.2)  # 6.67e21 grids: cannot finish
    assert counted.status is Status.TIME_LIMIT and counted.count < 10**9 and not counted.exact
    with pytest.raises(ValueError):
        cpsat.solve(big, time_limit=0)
    solved = cpsat.solve(big)  # the limit of one call does not stick to the next
    assert solved.status is Status.SOLVED and is_solution(solved.grid, big)


def test_model_invalid_raises_with_the_validation_message(cpsat):
    broken = cp_model.CpModel()
    broken.new_int_var(5, 1, "r1c1")  # an empty domain
    with pytest.raises(ModelInvalid, match="r1c1"):
        cpsat._run(broken.proto, cpsat._settings["solve"], Deadline(None))


def test_counting(cpsat, sample):
    full = cpsat.count(Puzzle.empty(4), limit=1000)
    assert full.count == 288 and full.exact and full.status is Status.SOLVED
    capped = cpsat.count(Puzzle.empty(4), limit=100)
    assert capped.count == 100 and not capped.exact  # "at least 100"
    unique = cpsat.count(sample, limit=2)
    assert unique.count == 1 and unique.exact
    assert STATS <= set(full.stats) and full.stats["workers"] == 1


def test_counting_uses_one_worker_whatever_the_option():
    # Several CP-SAT workers enumerate some grids twice and miss others (see the solver's docstring).
    with CpSatSolver(workers=4) as parallel:
        assert parallel.count(Puzzle.empty(4), limit=1000).count == 288
        puzzle, _ = random_puzzle(9, 0.5, 11)
        result = parallel.solve(puzzle)
        assert is_solution(result.grid, puzzle) and result.stats["workers"] == 4


def test_options(sample):
    with solvers.get("cpsat", seed=7, presolve=False, parameters="cp_model_probing_level: 0") as solver:
        assert is_solution(solver.solve(sample).grid, sample)
    for bad in ({"workers": 0}, {"workers": 1.5}, {"seed": "x"}, {"presolve": "maybe"}, {"parameters": "bogus: 1"}):
        with pytest.raises(UsageError):
            solvers.get("cpsat", **bad)
    with pytest.raises(UsageError, match="unknown model 'sat'; choose one of: booleans, alldiff"):
        solvers.get("cpsat", model="sat")
    with pytest.raises(UsageError, match="its options: workers, seed, model, presolve, parameters"):
        solvers.get("cpsat", colour="red")


def test_import_sudokulab_does_not_load_ortools():
    code = "import sys, sudokulab; sudokulab.solvers.names(); print('ortools' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_solving_and_exporting_load_neither_pandas_nor_cp_model(tmp_path):
    """The solver and the export write the proto directly; ``cp_model`` would bring pandas and numpy."""
    code = (
        "import sys, sudokulab\n"
        "from sudokulab.solvers.cpsat.model import to_cpsat_text\n"
        "with sudokulab.solvers.get('cpsat') as s: assert s.count(sudokulab.Puzzle.empty(4), limit=3).count == 3\n"
        "to_cpsat_text(sudokulab.Puzzle.empty(4))\n"
        "print(sorted({'pandas', 'numpy', 'ortools.sat.python.cp_model'} & set(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# --- canonical: the row-major lexicographically first solution -----------------------------------


@pytest.mark.parametrize("shape", [Shape(2, 2), Shape(2, 3), Shape(3, 2), Shape(3, 3)])
def test_canonical_on_empty_boards_is_the_baselines_answer(cpsat, backtrack, shape):
    empty = Puzzle.empty(shape)
    result = cpsat.solve(empty, canonical=True)
    assert result.grid == backtrack.solve(empty).grid
    assert is_solution(result.grid, empty)


def test_canonical_ignores_workers(backtrack):
    puzzle, _ = random_puzzle(9, 0.3, 5)
    with CpSatSolver(workers=3, seed=9) as parallel:
        result = parallel.solve(puzzle, canonical=True)
    assert result.grid == backtrack.solve(puzzle, time_limit=30).grid and is_solution(result.grid, puzzle)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    shape=st.sampled_from([Shape(2, 2), Shape(2, 3), Shape(3, 2), Shape(3, 3)]),
    fraction=st.floats(0.0, 0.6),
    seed=st.integers(0, 2**32),
)
def test_canonical_agrees_with_the_baseline_on_puzzles_with_many_solutions(cpsat, backtrack, shape, fraction, seed):
    if shape.n == 9:
        fraction = 0.2 + fraction / 2  # fewer givens than this and the classic search may take long
    puzzle, _ = random_puzzle(shape, fraction, seed)
    reference = backtrack.solve(puzzle, time_limit=5)
    assume(reference.status is Status.SOLVED)
    result = cpsat.solve(puzzle, canonical=True)
    assert result.grid == reference.grid and is_solution(result.grid, puzzle)
    assert cpsat.count(puzzle, limit=2).count == backtrack.count(puzzle, limit=2, time_limit=30).count


@pytest.mark.slow
def test_canonical_on_known_multi_solution_puzzles(cpsat, backtrack):
    """Deterministic cases that do have several solutions, so canonical is a real choice."""
    checked = 0
    for seed in range(25):
        puzzle, _ = random_puzzle(9, 0.35, seed)
        if cpsat.count(puzzle, limit=2).count < 2:
            continue
        reference = backtrack.solve(puzzle, time_limit=10)
        if reference.status is not Status.SOLVED:
            continue
        assert cpsat.solve(puzzle, canonical=True).grid == reference.grid
        checked += 1
    assert checked >= 15


# --- export: CP-SAT text proto, read back by OR-Tools --------------------------------------------


def test_export_reads_back_and_solves_to_the_same_grid(cpsat, sample):
    text = to_cpsat_text(sample)
    parsed = text_format.Parse(text, cp_model_pb2.CpModelProto())  # the protobuf library's reader
    assert len(parsed.variables) == 81 and len(parsed.constraints) == 27 and not parsed.search_strategy
    model = cp_model.CpModel()
    assert model.proto.parse_text_format(text)  # OR-Tools' own reader
    assert decode(model) == cpsat.solve(sample).grid
    assert is_solution(decode(model), sample)


def test_canonical_export_solves_to_the_baselines_answer(backtrack):
    puzzle, _ = random_puzzle(6, 0.2, 3)
    text = to_cpsat_text(puzzle, canonical=True)
    assert len(text_format.Parse(text, cp_model_pb2.CpModelProto()).search_strategy) == 1
    model = cp_model.CpModel()
    assert model.proto.parse_text_format(text)
    grid = decode(model, canonical=True)
    assert grid == backtrack.solve(puzzle).grid and is_solution(grid, puzzle)


def test_export_command(capsys, tmp_path, sample, sample_answer):
    path = str(EXAMPLES / "boj2580-sample.txt")
    assert main(["export", path, "--format", "cpsat"]) == 0
    out = capsys.readouterr().out
    model = cp_model.CpModel()
    assert model.proto.parse_text_format(out)
    assert format_grid(decode(model)) == sample_answer
    target = tmp_path / "model.txtpb"
    assert main(["export", path, "--format", "cpsat", "-o", "canonical=true", "--output", str(target)]) == 0
    assert text_format.Parse(target.read_text(), cp_model_pb2.CpModelProto()).search_strategy
    assert main(["export", path, "--format", "cpsat", "--encoding", "extended"]) == 2
    assert "takes no option 'encoding'" in capsys.readouterr().err
    with pytest.raises(UsageError, match="true or false"):
        to_cpsat_text(sample, canonical="maybe")


# --- variants: every rule kind, in both models ---------------------------------------------------
# Helpers shared with test_mip: rule sets per preset, and brute force on 4x4 boards.

PRESETS = ("x", "windoku", "anti-knight", "anti-king", "jigsaw", "killer", "thermo")
SHAPES = {4: Shape(2, 2), 6: Shape(2, 3), 9: Shape(3, 3)}
JIGSAW = {  # region labels, row-major; made by moving cells between boxes, each checked solvable
    4: "0001201122312333",
    6: "000111000113222133242533442535444555",
    9: "000011222001111222003111222033444555333444555363474555663774888666777888666777888",
}


def cages_from(grid: tuple[int, ...], n: int, count: int) -> list[tuple[tuple[int, ...], int]]:
    """``count`` disjoint cages of 2 or 3 cells along rows, totals read off ``grid`` (which then keeps them)."""
    cages, start = [], 0
    for index in range(count):
        size = 2 + index % 2
        row, col = divmod(start, n)
        if col + size > n:
            start, (row, col) = (row + 1) * n, (row + 1, 0)
        cells = tuple(range(start, start + size))
        cages.append((cells, sum(grid[c] for c in cells)))
        start += size + 1
    return cages


def thermos_from(grid: tuple[int, ...], n: int, count: int, rng: random.Random) -> list[tuple[int, ...]]:
    """Up to ``count`` thermometers of 2 to 4 cells that ``grid`` keeps: neighbour steps to a larger digit."""
    found: list[tuple[int, ...]] = []
    for start in rng.sample(range(n * n), n * n):
        path = [start]
        while len(path) < 4:
            row, col = divmod(path[-1], n)
            up = [r * n + c for r in (row - 1, row, row + 1) for c in (col - 1, col, col + 1)
                  if 0 <= r < n and 0 <= c < n and grid[r * n + c] > grid[path[-1]]]
            if not up:
                break
            path.append(rng.choice(up))
        if len(path) >= 2:
            found.append(tuple(path))
        if len(found) == count:
            break
    return found


def variant(shape: Shape, preset: str, seed: int = 0) -> Rules:
    """The rules of one preset; jigsaw regions from ``JIGSAW``, cages and thermometers made to fit a
    random standard grid (so the killer and thermo rules have at least that solution)."""
    rng = random.Random(seed)
    grid = random_grid(shape, rng)
    if preset == "jigsaw":
        return build(shape, regions=[int(label) for label in JIGSAW[shape.n]])
    if preset == "killer":
        return build(shape, cages=cages_from(grid, shape.n, shape.n // 2 + 1))
    if preset == "thermo":
        return build(shape, thermos=thermos_from(grid, shape.n, 3, rng))
    return build(shape, [preset])


@st.composite
def small_puzzles(draw: st.DrawFn) -> Puzzle:
    """A 4x4 puzzle under a random rule set: presets, maybe jigsaw regions (any partition into four
    4-cell regions), then cages, thermometers and givens fitted to one solution of those (to a
    Latin square when they have none), so that most puzzles have solutions and some do not."""
    shape = SHAPES[4]
    presets = draw(st.lists(st.sampled_from(["x", "windoku", "anti-knight", "anti-king"]), unique=True, max_size=2))
    regions = draw(st.permutations([0] * 4 + [1] * 4 + [2] * 4 + [3] * 4)) if draw(st.booleans()) else None
    grids = brute_force(Puzzle.empty(shape).with_rules(build(shape, presets, regions=regions)))
    grid = draw(st.sampled_from(grids or latin_squares(4)))
    rng = random.Random(draw(st.integers(0, 2**32)))
    cages = []
    free = rng.sample(range(16), 16)
    for _ in range(draw(st.integers(0, 2))):
        cells = []
        while free and len(cells) < rng.choice((2, 3)):
            cell = free.pop()
            if all(grid[cell] != grid[c] for c in cells):
                cells.append(cell)
        if cells:
            cages.append((tuple(cells), sum(grid[c] for c in cells)))
    thermos = thermos_from(grid, 4, draw(st.integers(0, 2)), rng)
    try:
        rules_ = build(shape, presets, regions=regions, cages=cages, thermos=thermos)
    except RulesError:
        assume(False)  # e.g. a cage whose digits (not distinct under the regions) cannot add up
    givens = set(rng.sample(range(16), draw(st.integers(0, 5))))
    return Puzzle(shape, tuple(grid[c] if c in givens else 0 for c in range(16)), rules_)


def readable(proto) -> cp_model_pb2.CpModelProto:
    """The protobuf library's copy of a compiled-layer proto (which lacks ``WhichOneof``)."""
    return text_format.Parse(str(proto), cp_model_pb2.CpModelProto())


def variant_cases() -> list[tuple[int, str]]:
    return [(n, preset) for n in (4, 6, 9) for preset in PRESETS]


@pytest.fixture(scope="module")
def booleans():
    with CpSatSolver(model="booleans") as solver:
        yield solver


def test_the_solver_declares_every_kind():
    assert CpSatSolver.capabilities.kinds == set(KINDS) and solvers.get("cpsat").capabilities.lacks(
        rules=variant(SHAPES[9], "killer")) is None


@pytest.mark.parametrize("n, preset", variant_cases())
def test_model_sizes_per_kind_follow_their_formulas(n, preset):
    r = variant(SHAPES[n], preset)
    groups, complete, partial = len(r.groups), len(r.complete_groups), len(r.partial_groups)
    pairs, cages, steps = len(r.pairs), len(r.cages), sum(len(t.cells) - 1 for t in r.thermos)
    assert {"jigsaw": complete == 3 * n, "killer": partial == cages > 0, "thermo": steps >= 3,
            "anti-knight": pairs > 0, "anti-king": pairs > 0}.get(preset, complete > 3 * n)
    # AllDifferent: an integer per cell; an AllDifferent per group, a != per pair, a sum per cage, a < per step
    proto = readable(rules(r))
    kinds = [c.WhichOneof("constraint") for c in proto.constraints]
    assert len(proto.variables) == n * n and kinds.count("all_diff") == groups
    linear = [c.linear for c in proto.constraints if c.HasField("linear")]
    assert sum(list(c.domain) == [-(2**63), -1, 1, 2**63 - 1] for c in linear) == pairs
    assert sum(len(c.domain) == 2 and c.domain[0] == c.domain[1] for c in linear) == cages
    assert sum(list(c.domain) == [-(2**63), -1] for c in linear) == steps
    assert len(proto.constraints) == groups + pairs + cages + steps and model_size(r) == (n * n, len(proto.constraints))
    # Booleans: exactly one per cell and (complete group, digit); at most one per (partial group or pair, digit)
    proto = readable(boolean_rules(r))
    kinds = [c.WhichOneof("constraint") for c in proto.constraints]
    assert len(proto.variables) == n**3
    assert kinds.count("exactly_one") == n * n + n * complete
    assert kinds.count("at_most_one") == n * (partial + pairs)
    assert kinds.count("linear") == cages + steps
    assert model_size(r, booleans=True) == (n**3, len(proto.constraints))
    # the proto written field by field is what the cp_model API builds
    for canonical in (False, True):
        assert str(rules(r, canonical)) == str(build_model(r, canonical).model.proto)


def test_models_are_built_once_per_rule_set():
    r = variant(SHAPES[6], "x")
    assert rules(r) is rules(build(SHAPES[6], ["x"])) and boolean_rules(r) is boolean_rules(r)
    assert rules(SHAPES[6]) is rules(standard(SHAPES[6])) and rules(r) is not rules(SHAPES[6])
    assert Prepared(r).rules is r and Prepared(SHAPES[6]).rules is standard(SHAPES[6])


@pytest.mark.parametrize("n, preset", variant_cases())
def test_every_preset_solves_in_both_models_and_canonically(cpsat, booleans, n, preset):
    shape = SHAPES[n]
    r = variant(shape, preset, seed=n)
    solutions = brute_force(Puzzle.empty(shape).with_rules(r)) if n == 4 else None
    grid = random_grid(shape, random.Random(n)) if preset in ("killer", "thermo") else None
    for fraction in (0.0, 0.3):
        if grid is not None and fraction:
            puzzle = Puzzle(shape, tuple(v if i % 3 == 0 else 0 for i, v in enumerate(grid)), r)  # that grid solves it
        else:
            puzzle = Puzzle.empty(shape).with_rules(r)
        answers = [solver.solve(puzzle, time_limit=60) for solver in (cpsat, booleans)]
        first = cpsat.solve(puzzle, canonical=True, time_limit=60)
        if solutions == []:  # 4x4 anti-king: no grid at all
            assert all(a.status is Status.NO_SOLUTION for a in answers + [first])
            continue
        for answer in answers + [first]:
            assert answer.status is Status.SOLVED and is_solution(answer.grid, puzzle), (preset, answer)
        if n == 4 and not fraction:
            assert first.grid == solutions[0]


@pytest.mark.parametrize("preset", ["x", "anti-knight", "killer", "thermo", "jigsaw"])
def test_counts_on_4x4_equal_the_brute_force_count(cpsat, booleans, preset):
    puzzle = Puzzle.empty(SHAPES[4]).with_rules(variant(SHAPES[4], preset))
    expected = len(brute_force(puzzle))
    for solver in (cpsat, booleans):
        counted = solver.count(puzzle, limit=1000)
        assert counted.count == expected and counted.exact


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(puzzle=small_puzzles())
def test_random_rule_sets_on_4x4_agree_with_brute_force(cpsat, booleans, puzzle):
    solutions = brute_force(puzzle)
    for solver in (cpsat, booleans):
        assert solver.count(puzzle, limit=1000).count == len(solutions)
        answer = solver.solve(puzzle)
        assert is_solution(answer.grid, puzzle) if solutions else answer.status is Status.NO_SOLUTION
    first = cpsat.solve(puzzle, canonical=True)
    assert first.grid == (solutions[0] if solutions else None)


def test_a_grid_that_breaks_a_variant_rule_is_never_an_answer(cpsat, booleans):
    """An ordinary Sudoku answer is no answer to the X puzzle of the same givens."""
    x = variant(SHAPES[9], "x")
    plain, _ = random_puzzle(9, 0.0, 1)
    ordinary = cpsat.solve(plain, canonical=True).grid
    assert x.first_conflict(ordinary) is not None  # the first standard grid repeats a digit on a diagonal
    for solver in (cpsat, booleans):
        answer = solver.solve(plain.with_rules(x))
        assert is_solution(answer.grid, plain.with_rules(x)) and answer.grid != ordinary


def test_every_entry_point_checks_the_kinds_first(sample):
    class AllDifferentOnly(CpSatSolver):
        capabilities = dataclasses.replace(CpSatSolver.capabilities, kinds=frozenset({"all-different"}),
                                           forms=frozenset(), kinds_why="a test")

    killer = Puzzle.empty(9).with_rules(variant(SHAPES[9], "killer"))
    import numpy as np

    with AllDifferentOnly() as narrow:
        for call in (lambda: narrow.solve(killer), lambda: narrow.count(killer),
                     lambda: narrow.solve_batch(np.zeros((1, 81), np.uint8), SHAPES[9], rules=killer.rules)):
            with pytest.raises(UnsupportedFeature, match="solver 'cpsat' cannot honour sum constraints .*: a test"):
                call()
        assert is_solution(narrow.solve(sample).grid, sample)


@pytest.mark.parametrize("model", ["alldiff", "booleans"])
def test_the_batch_entry_point_takes_rules(model):
    import numpy as np

    r = variant(SHAPES[6], "thermo", seed=6)
    grid = random_grid(SHAPES[6], random.Random(6))
    puzzles = [Puzzle(SHAPES[6], tuple(v if (i + k) % 4 == 0 else 0 for i, v in enumerate(grid)), r) for k in range(3)]
    with CpSatSolver(model=model) as solver:
        results = solver.solve_batch(np.array([p.givens for p in puzzles], np.uint8), SHAPES[6], rules=r)
        assert all(is_solution(tuple(int(v) for v in row), p) for row, p in zip(results.grids, puzzles))
        assert results.constant["constraints"] == model_size(r, booleans=model == "booleans")[1]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("model", ["alldiff", "booleans"])
def test_export_of_a_variant_reads_back_and_solves(preset, model):
    shape = SHAPES[6]
    puzzle = Puzzle.empty(shape).with_rules(variant(shape, preset, seed=6))
    text = to_cpsat_text(puzzle, model=model)
    assert text.startswith("# sudokulab CP-SAT model (CpModelProto text format): 6x6 board with 2x3 boxes, rules: ")
    parsed = text_format.Parse(text, cp_model_pb2.CpModelProto())
    assert (len(parsed.variables), len(parsed.constraints)) == model_size(puzzle.rules, booleans=model == "booleans")
    built = cp_model.CpModel()
    assert built.proto.parse_text_format(text)
    values = decode(built)
    if model == "booleans":
        grid = [0] * shape.cells
        for variable, value in zip(parsed.variables, values):
            if value:
                cell, digit = variable.name.split("=")
                row, col = map(int, cell[1:].split("c"))
                grid[(row - 1) * shape.n + col - 1] = int(digit)
        values = tuple(grid)
    assert is_solution(values, puzzle)
    with pytest.raises(UsageError, match="needs model=alldiff"):
        to_cpsat_text(puzzle, model="booleans", canonical=True)
    with pytest.raises(UsageError, match="choose one of: booleans, alldiff"):
        to_cpsat_text(puzzle, model="sat")
