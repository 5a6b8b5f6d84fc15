"""The exact-cover model (sizes against their formulas, a whole 4x4 matrix) and the dlx solver.

Both formulations (``structure`` links and sets) run every solver test; every answer goes through
the independent checker. Under variant rules (x, windoku, anti-knight, anti-king, jigsaw and extra
partial groups) counts and canonical answers on 4x4 boards are checked against a brute force over
all 576 Latin squares of order 4; sums and thermometers must be refused. No test asserts a speed.
"""

from __future__ import annotations

import json
import random
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudokulab import Puzzle, Shape, Status, UsageError, is_solution, parse_puzzle, solvers
from sudokulab.core.grid import units
from sudokulab.core.rules import Cage, Rules, build
from sudokulab.datasets.reading import puzzle_lines
from sudokulab.errors import UnsupportedFeature
from sudokulab.solvers.base import Deadline
from sudokulab.solvers.exact_cover.links import _general_links_search, _links
from sudokulab.solvers.exact_cover.model import (
    ExactCover,
    column_name,
    column_names,
    layout,
    matrix_columns,
    row_columns,
)
from sudokulab.solvers.exact_cover.solver import STRUCTURES, DlxSolver
from sudokulab.solvers.lowering import cage_witness, placements

from ..conftest import ROOT, brute_force, dataset, latin_squares, random_puzzle

SHAPES = [Shape(1, 1), Shape(2, 2), Shape(2, 3), Shape(3, 2), Shape(3, 3), Shape(3, 4), Shape(4, 4), Shape(5, 5)]
CLASSIC = parse_puzzle("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")


@pytest.fixture(scope="module", params=STRUCTURES)
def dlx(request) -> DlxSolver:
    return solvers.get("dlx", structure=request.param)


@pytest.fixture(scope="module")
def baseline():
    return solvers.get("backtrack")


# --- the model ------------------------------------------------------------------------------------

@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_the_empty_board_has_4n2_columns_and_n3_rows_of_four_columns(shape):
    n = shape.n
    model = ExactCover.of(Puzzle.empty(shape))
    assert len(model.columns) == len(column_names(shape)) == 4 * n * n
    assert len(model.rows) == len(matrix_columns(shape)) == n**3
    assert model.given == () and model.conflict is None
    every = [column for cell, digit in model.rows for column in row_columns(shape, cell, digit)]
    assert sorted(every) == sorted(list(range(4 * n * n)) * n)  # each column has n rows, one per digit
    assert all(len({column // (n * n) for column in row_columns(shape, c, d)}) == 4 for c, d in model.rows)


@pytest.mark.parametrize("shape", SHAPES[1:], ids=str)
def test_one_given_removes_its_cell_and_its_digit_from_its_peers(shape):
    n, br, bc = shape.n, shape.box_rows, shape.box_cols
    givens = [0] * shape.cells
    givens[n + 1] = 2
    model = ExactCover.of(Puzzle(shape, tuple(givens)))
    peers = 3 * n - 1 - br - bc
    assert peers == len(units(shape).peers[n + 1])
    assert len(model.rows) == n**3 - n - peers
    assert len(model.columns) == 4 * n * n - 4
    assert model.given == ((n + 1, 2),)


@settings(max_examples=30, deadline=None)
@given(shape=st.sampled_from(SHAPES[1:6]), fraction=st.floats(0, 1), seed=st.integers(0, 2**32))
def test_counts_follow_their_formulas_on_random_puzzles(shape, fraction, seed):
    puzzle, _ = random_puzzle(shape, fraction, seed)
    n, peers = shape.n, units(shape).peers
    model = ExactCover.of(puzzle)
    g = len(puzzle.givens) - puzzle.blanks
    assert len(model.columns) == 4 * (n * n - g)
    candidates = [n - len({puzzle.givens[p] for p in peers[cell]} - {0})
                  for cell in range(shape.cells) if not puzzle.givens[cell]]
    assert len(model.rows) == sum(candidates)
    assert {c for row in range(len(model.rows)) for c in model.row_columns(row)} <= set(model.columns)


def test_the_whole_matrix_of_a_4x4_puzzle():
    puzzle = Puzzle.from_rows([[1, 0, 3, 0], [0, 4, 0, 2], [2, 0, 4, 0], [0, 3, 0, 1]])
    model = ExactCover.of(puzzle)
    assert model.row_names() == ["r1c2=2", "r1c4=4", "r2c1=3", "r2c3=1", "r3c2=1", "r3c4=3", "r4c1=4", "r4c3=2"]
    assert model.column_names() == [
        "cell r1c2", "cell r1c4", "cell r2c1", "cell r2c3", "cell r3c2", "cell r3c4", "cell r4c1", "cell r4c3",
        "row 1 has 2", "row 1 has 4", "row 2 has 1", "row 2 has 3", "row 3 has 1", "row 3 has 3",
        "row 4 has 2", "row 4 has 4",
        "column 1 has 3", "column 1 has 4", "column 2 has 1", "column 2 has 2", "column 3 has 1", "column 3 has 2",
        "column 4 has 3", "column 4 has 4",
        "box 1 has 2", "box 1 has 3", "box 2 has 1", "box 2 has 4", "box 3 has 1", "box 3 has 4",
        "box 4 has 2", "box 4 has 3",
    ]
    text = model.to_text().splitlines()
    assert text[0] == "4x4 board with 2x2 boxes: 8 givens pre-covered, 32 open columns, 8 rows"
    assert text[1:33] == [f"column {i}: {name}" for i, name in enumerate(model.column_names(), 1)]
    assert text[33:] == [
        "r1c2=2  1....... 1....... ...1.... 1.......",
        "r1c4=4  .1...... .1...... .......1 ...1....",
        "r2c1=3  ..1..... ...1.... 1....... .1......",
        "r2c3=1  ...1.... ..1..... ....1... ..1.....",
        "r3c2=1  ....1... ....1... ..1..... ....1...",
        "r3c4=3  .....1.. .....1.. ......1. .......1",
        "r4c1=4  ......1. .......1 .1...... .....1..",
        "r4c3=2  .......1 ......1. .....1.. ......1.",
    ]


def test_givens_that_break_a_rule_make_a_model_with_no_rows():
    broken = Puzzle(Shape(2, 2), (1, 0, 0, 1) + (0,) * 12)
    model = ExactCover.of(broken)
    assert model.conflict == "row 1 holds 1 twice (columns 1 and 4)"
    assert model.rows == () and model.empty_columns()
    assert "break a rule" in model.to_text()


def test_a_hidden_contradiction_shows_as_a_column_with_no_row():
    corner = Puzzle.from_rows([[1, 2, 0, 0], [0, 0, 3, 0], [0, 0, 4, 0], [0, 0, 0, 0]])
    model = ExactCover.of(corner)
    assert model.conflict is None
    assert model.empty_columns() == ["cell r1c3", "row 1 has 3", "box 1 has 3"]


def test_column_names_are_checked():
    assert column_name(Shape(3, 3), 323) == "box 9 has 9"
    with pytest.raises(ValueError, match="columns 0..323"):
        column_name(Shape(3, 3), 324)


# --- the solver -----------------------------------------------------------------------------------

def test_registered_with_what_it_claims():
    solver = solvers.get("dlx")
    assert solver.name == "dlx" and solver.paradigm == "exact cover (Algorithm X)"
    assert solver.structure == "links"  # the measured faster one
    assert solver.capabilities.canonical and solver.capabilities.count and solver.capabilities.threads == "safe"
    with pytest.raises(UsageError, match="choose one of: links, sets"):
        solvers.get("dlx", structure="lists")


@pytest.mark.slow
@pytest.mark.parametrize("shape, fraction, seed", [
    (Shape(1, 1), 0.0, 0), (Shape(2, 2), 0.0, 1), (Shape(2, 3), 0.3, 2), (Shape(3, 2), 0.3, 3),
    (Shape(3, 3), 0.3, 4), (Shape(3, 4), 0.5, 5), (Shape(4, 4), 0.55, 6), (Shape(5, 5), 0.45, 0),
], ids=str)
def test_every_board_size(dlx, shape, fraction, seed):
    puzzle, _ = random_puzzle(shape, fraction, seed)
    result = dlx.solve(puzzle, time_limit=60)
    assert result.status is Status.SOLVED and is_solution(result.grid, puzzle)
    assert result.stats["nodes"] >= 0 and result.stats["updates"] >= 0


@pytest.mark.slow
def test_a_36x36_board_under_a_time_limit(dlx):
    puzzle, _ = random_puzzle(36, 0.7, 3)
    result = dlx.solve(puzzle, time_limit=20)
    assert result.status in (Status.SOLVED, Status.TIME_LIMIT)  # deep, but no recursion limit met
    assert result.status is Status.TIME_LIMIT or is_solution(result.grid, puzzle)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=st.sampled_from([Shape(2, 2), Shape(2, 3), Shape(3, 2), Shape(3, 3)]),
       fraction=st.floats(0, 0.8), seed=st.integers(0, 2**32))
def test_canonical_is_the_classic_answer(dlx, baseline, shape, fraction, seed):
    if shape.n == 9:
        fraction = max(fraction, 0.35)  # the classic search is slow on nearly empty 9x9 boards
    puzzle, _ = random_puzzle(shape, fraction, seed)
    expected = baseline.solve(puzzle, canonical=True, time_limit=30)
    result = dlx.solve(puzzle, canonical=True, time_limit=30)
    assert is_solution(result.grid, puzzle)
    if expected.status is Status.SOLVED:
        assert result.grid == expected.grid


@pytest.mark.slow
def test_both_structures_agree_on_counts():
    links, sets = DlxSolver("links"), DlxSolver("sets")
    for seed in range(5):
        puzzle, _ = random_puzzle(6, 0.2, seed)
        assert links.count(puzzle, limit=10**6).count == sets.count(puzzle, limit=10**6).count


def test_counting(dlx):
    exact = dlx.count(Puzzle.empty(4), limit=10**6)
    assert exact.count == 288 and exact.exact and exact.status is Status.SOLVED
    assert exact.stats["nodes"] > 288 and exact.stats["updates"] > exact.stats["nodes"]
    assert dlx.count(CLASSIC, limit=5).count == 1


def test_a_huge_count_limit(dlx):
    result = dlx.count(Puzzle.empty(4), limit=2**63)
    assert result.count == 288 and result.exact and result.limit == 2**63
    with pytest.raises(ValueError):
        dlx.count(Puzzle.empty(4), limit=0)


def test_no_solution(dlx):
    broken = Puzzle(Shape(3, 3), (1,) + (0,) * 6 + (1,) + (0,) * 73)
    assert dlx.solve(broken).status is Status.NO_SOLUTION
    assert dlx.count(broken, limit=5).count == 0
    corner = Puzzle.from_rows([[1, 2, 0, 0], [0, 0, 3, 0], [0, 0, 4, 0], [0, 0, 0, 0]])
    result = dlx.solve(corner)
    assert result.status is Status.NO_SOLUTION and result.grid is None


def test_a_hidden_contradiction_found_by_search(dlx, baseline):
    answer = baseline.solve(CLASSIC).grid
    cell = CLASSIC.givens.index(0)
    for digit in range(1, 10):  # a wrong digit in the first blank that breaks no rule yet
        givens = list(CLASSIC.givens)
        givens[cell] = digit
        puzzle = Puzzle(CLASSIC.shape, tuple(givens))
        if digit != answer[cell] and not ExactCover.of(puzzle).conflict:
            assert dlx.solve(puzzle).status is Status.NO_SOLUTION
            assert dlx.count(puzzle).count == 0


def test_the_time_limit_status_on_the_empty_16x16(dlx):
    # long enough for the matrix and links to be built (under the same deadline) and counting to begin
    result = dlx.count(Puzzle.empty(16), limit=2**63, time_limit=2.0)
    assert result.status is Status.TIME_LIMIT and not result.exact
    assert 0 < result.count < 2**63
    assert result.stats["nodes"] > 0


def test_two_threads_share_one_instance(dlx):
    puzzles = [random_puzzle(9, 0.4, seed)[0] for seed in range(6)] + [random_puzzle(16, 0.6, 7)[0]]
    answers: dict[int, list] = {0: [], 1: []}

    def work(index: int) -> None:
        answers[index] = [dlx.solve(p, canonical=bool(index)) for p in puzzles]

    threads = [threading.Thread(target=work, args=(i,)) for i in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for results in answers.values():
        assert [is_solution(r.grid, p) for r, p in zip(results, puzzles)] == [True] * len(puzzles)


@pytest.mark.slow
def test_the_first_50_of_forum_hardest(dlx):
    lines = puzzle_lines(dataset("forum_hardest_1106.txt", 50))[:50]
    for line in lines:
        puzzle = parse_puzzle(line)
        result = dlx.solve(puzzle, time_limit=60)
        assert result.status is Status.SOLVED and is_solution(result.grid, puzzle), line


# --- rules as data: groups, differing pairs, thermometers, pairwise cages; other cages refused -------

JIGSAW = {  # regions we made: irregular, connected, each with solutions (one label per cell, row-major)
    4: (0, 1, 1, 1,
        0, 0, 0, 1,
        2, 3, 3, 3,
        2, 2, 2, 3),
    6: (0, 0, 1, 1, 1, 1,
        0, 0, 0, 0, 1, 1,
        2, 2, 3, 3, 3, 3,
        4, 2, 2, 2, 3, 3,
        4, 2, 5, 5, 5, 5,
        4, 4, 4, 4, 5, 5),
    9: (0, 0, 0, 1, 1, 1, 2, 2, 2,
        0, 0, 0, 1, 1, 2, 2, 2, 2,
        0, 0, 3, 4, 1, 1, 1, 2, 2,
        3, 0, 3, 4, 1, 4, 5, 5, 5,
        3, 3, 3, 4, 4, 4, 5, 5, 5,
        3, 3, 6, 4, 4, 4, 8, 5, 5,
        3, 6, 6, 7, 7, 8, 8, 8, 5,
        6, 6, 6, 7, 7, 7, 8, 8, 8,
        6, 6, 6, 7, 7, 7, 7, 8, 8),
}
PRESET_NAMES = ("x", "windoku", "anti-knight", "anti-king", "jigsaw")
FOUR = Shape(2, 2)


def variant(shape: Shape, name: str) -> Rules:
    if name == "jigsaw":
        return build(shape, regions=JIGSAW[shape.n])
    return build(shape, [name])


def empty(rules: Rules) -> Puzzle:
    return Puzzle(rules.shape, (0,) * rules.shape.cells, rules)


def test_the_brute_force_knows_standard_sudoku():
    assert len(latin_squares(4)) == 576 and len(set(latin_squares(4))) == 576
    assert len(brute_force(Puzzle.empty(4))) == 288


def test_it_declares_the_kinds_exact_cover_can_say():
    """Groups and differing pairs are columns of their own; sums and thermometers come through the lowering."""
    solver = solvers.get("dlx")
    assert solver.capabilities.kinds == {"all-different", "differ"}
    assert {"sum", "increasing"} <= solver.capabilities.lowered
    assert {"all-different", "differ", "sum", "increasing"} <= solver.capabilities.honoured
    assert "exactly once" in solver.capabilities.kinds_why and solver.capabilities.refuses is not None


@pytest.mark.parametrize("shape", [FOUR, Shape(2, 3), Shape(3, 3)], ids=str)
@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_preset_on_every_size(dlx, shape, name):
    rules = variant(shape, name)
    first = dlx.solve(empty(rules), canonical=True, time_limit=60)
    if shape.n == 4 and name == "anti-king":  # a 4x4 board has no anti-king Sudoku: the brute force agrees
        assert first.status is Status.NO_SOLUTION and brute_force(empty(rules)) == []
        assert dlx.count(empty(rules)).count == 0
        return
    assert first.status is Status.SOLVED and is_solution(first.grid, empty(rules))
    if shape.n == 4:
        assert first.grid == brute_force(empty(rules))[0]
    rng = random.Random(shape.n)
    keep = set(rng.sample(range(shape.cells), round(0.4 * shape.cells)))
    puzzle = Puzzle(shape, tuple(v if i in keep else 0 for i, v in enumerate(first.grid)), rules)
    for canonical in (False, True):
        result = dlx.solve(puzzle, canonical=canonical, time_limit=60)
        assert result.status is Status.SOLVED and is_solution(result.grid, puzzle)
    counted = dlx.count(puzzle, limit=10**6, time_limit=60)
    assert counted.exact and counted.count >= 1
    if shape.n == 4:
        assert counted.count == len(brute_force(puzzle))


def test_a_standard_answer_is_not_an_x_answer(dlx):
    standard_answer = dlx.solve(Puzzle.empty(9), canonical=True).grid
    x = empty(variant(Shape(3, 3), "x"))
    assert not is_solution(standard_answer, x)  # the first standard grid repeats a digit on a diagonal
    assert dlx.solve(x, canonical=True).grid != standard_answer


@st.composite
def rule_sets_4x4(draw) -> Rules:
    """Random rule sets on a 4x4 board: presets, perhaps jigsaw regions (any partition into four
    groups of four, connected or not), perhaps extra partial groups (secondary columns)."""
    presets = draw(st.lists(st.sampled_from(["x", "windoku", "anti-knight", "anti-king"]), unique=True, max_size=3))
    regions = draw(st.none() | st.permutations([0] * 4 + [1] * 4 + [2] * 4 + [3] * 4))
    extra = draw(st.lists(st.lists(st.integers(0, 15), min_size=2, max_size=3, unique=True), max_size=2))
    return build(FOUR, presets, regions=regions, extra_groups=extra)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rules=rule_sets_4x4(), fraction=st.floats(0, 0.6), seed=st.integers(0, 2**32), any_latin=st.booleans())
def test_counts_and_canonical_answers_equal_a_brute_force_on_4x4(dlx, rules, fraction, seed, any_latin):
    rng = random.Random(seed)
    solutions = brute_force(empty(rules))
    source = rng.choice(latin_squares(4) if any_latin or not solutions else solutions)  # may break a rule
    keep = set(rng.sample(range(16), round(fraction * 16)))
    puzzle = Puzzle(FOUR, tuple(v if i in keep else 0 for i, v in enumerate(source)), rules)
    expected = brute_force(puzzle)
    counted = dlx.count(puzzle, limit=10**6)
    assert counted.count == len(expected) and counted.exact
    first = dlx.solve(puzzle, canonical=True)
    if expected:
        assert first.status is Status.SOLVED and first.grid == expected[0]
        answer = dlx.solve(puzzle)
        assert answer.status is Status.SOLVED and is_solution(answer.grid, puzzle)
    else:
        assert first.status is Status.NO_SOLUTION and first.grid is None
    model = ExactCover.of(puzzle)
    assert model.conflict == rules.first_conflict(puzzle.givens)
    used = {(cell, digit) for g in expected for cell, digit in enumerate(g) if not puzzle.givens[cell]}
    assert used <= set(model.rows)  # pre-covering removes no row that a solution uses


@pytest.mark.parametrize("seed", range(4))
def test_the_general_search_agrees_with_the_unrolled_one(seed):
    """Standard and jigsaw rows have four primary columns and run the unrolled search; the general
    search, run on the same matrix, must count the same."""
    for rules in (build(Shape(2, 3)), variant(Shape(2, 3), "jigsaw")):
        table = _links(rules)
        assert table.four
        puzzle = Puzzle(rules.shape, random_puzzle(rules.shape, 0.25, seed)[0].givens, rules)
        if rules.first_conflict(puzzle.givens):
            continue
        solved = DlxSolver().count(puzzle, limit=10**6)
        general = list(_general_links_search(puzzle, table, Deadline(None), DlxSolver.counters(), False))
        assert len(general) == solved.count and all(is_solution(g, puzzle) for g in general)


def test_both_structures_agree_on_variant_counts():
    links, sets = DlxSolver("links"), DlxSolver("sets")
    for name in PRESET_NAMES:
        rules = variant(Shape(2, 3), name)
        first = links.solve(empty(rules), canonical=True).grid
        puzzle = Puzzle(rules.shape, tuple(v if i % 3 == 0 else 0 for i, v in enumerate(first)), rules)
        assert links.count(puzzle, limit=10**6).count == sets.count(puzzle, limit=10**6).count >= 1


THERMO_EXAMPLE = ROOT / "examples" / "thermo-6x6.json"
PAIRWISE = [  # thermometers and cages whose allowed digit sets are pairwise: forbidden pairs say them exactly
    build(FOUR, cages=[((0, 1), 3)]),
    build(Shape(2, 3), cages=[((0, 1), 7), ((8, 9, 15), 6), ((20,), 4)]),
    build(Shape(3, 3), ["x"], cages=[((0, 1, 2), 6), ((30, 31, 40), 24), ((60, 61), 10)]),
    build(FOUR, thermos=[(0, 1, 2)]),
    build(Shape(2, 3), thermos=[(0, 7, 14, 21), (35, 34)]),
    build(Shape(3, 3), ["anti-knight"], thermos=[(0, 10, 20)]),
]


@pytest.mark.slow
@pytest.mark.parametrize("rules", PAIRWISE, ids=["killer-2", "killer-6x6", "killer-x", "thermo", "thermo-6x6",
                                                 "thermo-anti-knight"])
def test_thermometers_and_pairwise_cages_solve_count_and_agree_with_sat(dlx, baseline, rules):
    """Solved, counted and canonical answers as SAT's (which encodes sums and orders its own way), on a
    puzzle with a third of a solution's cells given, and the 4x4 empty boards counted in full."""
    sat = solvers.get("sat")
    first = dlx.solve(empty(rules), canonical=True)
    assert first.status is Status.SOLVED and first.grid == sat.solve(empty(rules), canonical=True).grid
    puzzle = Puzzle(rules.shape, tuple(v if i % 3 == 0 else 0 for i, v in enumerate(first.grid)), rules)
    solved = dlx.solve(puzzle)
    assert solved.status is Status.SOLVED and is_solution(solved.grid, puzzle)
    assert dlx.count(puzzle, limit=50).count == sat.count(puzzle, limit=50).count
    if rules.n == 4:
        assert dlx.count(empty(rules), limit=1000).count == sat.count(empty(rules), limit=1000).count


def test_the_thermometer_example_is_solved_uniquely_with_a_secondary_column_per_forbidden_pair(dlx):
    from sudokulab.formats.puzzle_files import read_puzzle

    puzzle = read_puzzle(THERMO_EXAMPLE)
    counted = dlx.count(puzzle, limit=10)
    assert counted.status is Status.SOLVED and counted.count == 1
    published = json.loads(THERMO_EXAMPLE.read_text())["solution"]
    assert dlx.solve(puzzle).grid == tuple(digit for row in published for digit in row)
    said = placements(puzzle.rules)
    table = layout(puzzle.rules)
    assert table.secondary == len(said.pairs) + 1  # a column per forbidden pair, one for the ruled-out placements
    assert all(len(pair[1:]) == 2 and pair[0].startswith("thermometer") for pair in said.pairs)
    model = ExactCover.of(puzzle)
    assert table.ruled_out not in model.secondary and not {p for p in said.ruled_out} & set(model.rows)
    assert column_name(puzzle.rules, table.ruled_out) == "ruled out by a cage or thermometer"
    name = column_name(puzzle.rules, table.primary)
    assert " not both (thermometer " in name and name.count("=") == 2


def test_which_three_cell_cages_are_pairwise_on_9x9():
    pairwise = [total for total in range(6, 25) if cage_witness(Cage("c", (0, 1, 2), total), 9) is None]
    assert pairwise == [6, 7, 8, 22, 23, 24]
    assert all(cage_witness(Cage("c", (0, 1), total), 9) is None for total in range(3, 18))  # two cells: always
    assert cage_witness(Cage("c", (0, 1, 2), 9), 9) == (1, 2, 3)


@pytest.mark.parametrize("total", [9, 15, 20])
def test_a_cage_that_is_not_pairwise_is_refused_naming_it_and_its_sum(dlx, total):
    rules = build(Shape(3, 3), cages=[((0, 1), 5), ((9, 10, 11), total)])
    witness = cage_witness(rules.cages[1], 9)
    puzzle = empty(rules)
    for call in (lambda: dlx.solve(puzzle), lambda: dlx.count(puzzle), lambda: dlx.solve(puzzle, canonical=True),
                 lambda: dlx.solve(puzzle, time_limit=1e-9)):
        with pytest.raises(UnsupportedFeature) as refused:
            call()
        message = str(refused.value)
        assert message.startswith(f"solver 'dlx' cannot honour cage 2 (sum {total}): digits ")
        assert f"adding up to {total} (" in message and f"but add up to {sum(witness)}" in message
        assert "\n" not in message
    assert solvers.get("dlx").capabilities.unsupported(rules).startswith(f"cage 2 (sum {total})")


SIZE_CASES = [(shape, name) for shape in (FOUR, Shape(2, 3), Shape(3, 3)) for name in ("standard", *PRESET_NAMES)]


@pytest.mark.parametrize("shape, name", SIZE_CASES, ids=lambda v: str(v))
def test_matrix_sizes_follow_their_formulas(shape, name):
    rules = build(shape) if name == "standard" else variant(shape, name)
    n, complete, partial, pairs = shape.n, rules.complete_groups, rules.partial_groups, rules.pairs
    model = ExactCover.of(empty(rules))
    assert len(model.rows) == n**3  # one row per (cell, digit)
    assert len(model.columns) == n * n + n * len(complete)  # primary: cells, (complete group, digit)
    assert len(model.secondary) == n * (len(partial) + len(pairs))  # secondary: (partial group | pair, digit)
    assert len(column_names(rules)) == len(model.columns) + len(model.secondary)
    in_pairs = [sum(cell in pair for pair in pairs) for cell in range(shape.cells)]
    for cell, digit in model.rows:
        assert len(row_columns(rules, cell, digit)) == 1 + len(rules.cell_groups[cell]) + in_pairs[cell]
    filled = [column for cell, digit in model.rows for column in row_columns(rules, cell, digit)]
    per_column = {column: filled.count(column) for column in set(filled)}
    assert all(per_column[c] == n for c in model.columns)  # a cell or a complete group: n rows each
    secondary_sizes = sorted(per_column[c] for c in model.secondary)
    assert secondary_sizes == sorted([len(g.cells) for g in partial for _ in range(n)] + [2] * (n * len(pairs)))
    table = _links(rules)
    assert table.four == (len(complete) == 3 * n and not pairs)  # rows of four: standard and jigsaw


def test_sizes_of_the_9x9_variants_by_hand():
    nine = Shape(3, 3)
    x, window, knight, king = (layout(variant(nine, name)) for name in ("x", "windoku", "anti-knight", "anti-king"))
    assert (x.primary, x.secondary) == (324 + 2 * 9, 0)  # two diagonals
    assert (window.primary, window.secondary) == (324 + 4 * 9, 0)  # four windows, each complete
    # a knight's move from (r, c) to (r+1, c±2) or (r+2, c±1): 2*8*7 + 2*7*8 = 224 pairs, less those inside one box
    assert len(variant(nine, "anti-knight").pairs) == 224 - 2 * 9 * 2 * 2 and knight.secondary == 9 * 152
    # a king's diagonal step: 2*8*8 = 128 pairs, less the 2*2*2 inside each of the 9 boxes
    assert len(variant(nine, "anti-king").pairs) == 128 - 72 and king.secondary == 9 * 56
    extra = layout(build(nine, extra_groups=[(0, 40, 80)]))
    assert (extra.primary, extra.secondary) == (324, 9)  # a partial group: secondary columns


def test_names_of_secondary_columns_and_the_matrix_with_them():
    rules = build(FOUR, ["anti-knight"], extra_groups=[(0, 15)])
    table = layout(rules)
    assert column_name(rules, table.primary) == "group 1 has 1 at most once"
    pair_column = table.primary + 4
    a, b = rules.pairs[0]
    names = f"r{a // 4 + 1}c{a % 4 + 1} and r{b // 4 + 1}c{b % 4 + 1}"
    assert column_name(rules, pair_column + 2) == f"{names} not both 3 (anti-knight)"
    with pytest.raises(ValueError, match=f"columns 0..{table.columns - 1}"):
        column_name(rules, table.columns)
    first = brute_force(empty(rules))[0]
    puzzle = Puzzle(FOUR, first[:6] + (0,) * 10, rules)
    model = ExactCover.of(puzzle)
    text = model.to_text().splitlines()
    sizes = f"{len(model.columns)} open columns and {len(model.secondary)} secondary, {len(model.rows)} rows"
    assert text[0].endswith(sizes)
    assert f"secondary column {len(model.columns) + 1}: {model.secondary_names()[0]}" in text
    assert all(" | " in line for line in text[-len(model.rows):]) and model.rows


def test_givens_that_break_a_rule_are_refused_in_the_rules_words(dlx):
    x = variant(FOUR, "x")
    diagonal = Puzzle(FOUR, (1,) + (0,) * 14 + (1,), x)  # r1c1 and r4c4: different row, column and box
    assert ExactCover.of(diagonal).conflict == "diagonal 1 holds 1 twice (row 1 column 1 and row 4 column 4)"
    knight = variant(FOUR, "anti-knight")
    jump = Puzzle(FOUR, (1, 0, 0, 0, 0, 0, 1) + (0,) * 9, knight)  # r1c1 and r2c3: a knight's move apart
    model = ExactCover.of(jump)
    assert model.conflict == "anti-knight: row 1 column 1 and row 2 column 3 both hold 1"
    assert model.rows == () and "break a rule: anti-knight" in model.to_text()
    for puzzle in (diagonal, jump):  # the search finds the broken column (primary, then secondary) by itself
        assert dlx.solve(puzzle).status is Status.NO_SOLUTION and dlx.count(puzzle).count == 0
        assert dlx.solve(puzzle, canonical=True).grid is None
