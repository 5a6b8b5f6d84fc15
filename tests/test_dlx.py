"""The exact-cover model (sizes against their formulas, a whole 4x4 matrix) and the dlx solver.

Both formulations (``structure`` links and sets) run every solver test; every answer goes through
the independent checker. No test asserts a speed.
"""

from __future__ import annotations

import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudokulab import Puzzle, Shape, Status, UsageError, is_solution, parse_puzzle, solvers
from sudokulab.datasets import puzzle_lines
from sudokulab.grid import units
from sudokulab.models.exact_cover import ExactCover, column_name, column_names, matrix_columns, row_columns
from sudokulab.solvers.dlx import STRUCTURES, DlxSolver

from .conftest import random_puzzle, shared_dataset

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


@pytest.mark.parametrize("shape, fraction, seed", [
    (Shape(1, 1), 0.0, 0), (Shape(2, 2), 0.0, 1), (Shape(2, 3), 0.3, 2), (Shape(3, 2), 0.3, 3),
    (Shape(3, 3), 0.3, 4), (Shape(3, 4), 0.5, 5), (Shape(4, 4), 0.55, 6), (Shape(5, 5), 0.45, 0),
], ids=str)
def test_every_board_size(dlx, shape, fraction, seed):
    puzzle, _ = random_puzzle(shape, fraction, seed)
    result = dlx.solve(puzzle, time_limit=60)
    assert result.status is Status.SOLVED and is_solution(result.grid, puzzle)
    assert result.stats["nodes"] >= 0 and result.stats["updates"] >= 0


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
    result = dlx.count(Puzzle.empty(16), limit=2**63, time_limit=0.05)
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
    lines = puzzle_lines(shared_dataset("forum_hardest_1106.txt"))[:50]
    for line in lines:
        puzzle = parse_puzzle(line)
        result = dlx.solve(puzzle, time_limit=60)
        assert result.status is Status.SOLVED and is_solution(result.grid, puzzle), line
