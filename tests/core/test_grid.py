"""The vocabulary and the independent checker."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sudokulab import Puzzle, Shape, first_conflict, is_solution, solution_error
from sudokulab.core.grid import box_shape, units

from ..conftest import random_grid


@pytest.mark.parametrize(
    "n, shape", [(1, (1, 1)), (4, (2, 2)), (6, (2, 3)), (8, (2, 4)), (9, (3, 3)), (12, (3, 4)),
                 (16, (4, 4)), (25, (5, 5)), (36, (6, 6)), (10, (2, 5)), (7, (1, 7))],
)
def test_box_shape_is_the_most_square_split(n, shape):
    assert box_shape(n) == shape


@pytest.mark.parametrize("shape", [Shape(2, 2), Shape(2, 3), Shape(3, 3), Shape(3, 4), Shape(4, 4)])
def test_units_partition_the_board(shape):
    u = units(shape)
    n = shape.n
    for group in (u.rows, u.cols, u.boxes):
        assert sorted(c for unit in group for c in unit) == list(range(n * n))
        assert all(len(unit) == n for unit in group)
    # each cell has (n-1) row peers + (n-1) column peers + box peers outside its row and column
    assert {len(p) for p in u.peers} == {2 * (n - 1) + (shape.box_rows - 1) * (shape.box_cols - 1)}


@given(st.sampled_from([Shape(2, 2), Shape(2, 3), Shape(3, 3), Shape(3, 4), Shape(4, 4)]), st.integers(0, 2**32))
def test_checker_accepts_valid_grids_and_rejects_any_swap(shape, seed):
    rng = random.Random(seed)
    grid = random_grid(shape, rng)
    puzzle = Puzzle.empty(shape)
    assert is_solution(grid, puzzle)
    a, b = rng.sample(range(shape.cells), 2)
    if grid[a] != grid[b]:
        broken = list(grid)
        broken[a], broken[b] = broken[b], broken[a]
        assert not is_solution(tuple(broken), puzzle)


def test_checker_reasons_are_in_one_based_words():
    shape = Shape(2, 2)
    good = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)
    puzzle = Puzzle(shape, (0, 0, 0, 0, 0, 3) + (0,) * 10)
    assert solution_error(good, Puzzle.empty(shape)) is None
    assert solution_error(good, puzzle) == "row 2, column 2 is given 3 but the answer has 4"
    assert solution_error(good[:-1], puzzle) == "16 cells expected, found 15"
    assert solution_error(None, puzzle) == "there is no grid"
    assert solution_error((0,) + good[1:], Puzzle.empty(shape)) == "row 1, column 1 holds 0, outside 1..4"
    col = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 3, 4, 2, 1)  # rows fine, column 1 holds 3 twice
    assert first_conflict(col, shape) == "column 1 holds 3 twice (rows 2 and 4)"


def test_first_conflict_names_rows_columns_and_boxes():
    shape = Shape(3, 3)
    row = [0] * 81
    row[0] = row[7] = 1
    assert first_conflict(tuple(row), shape) == "row 1 holds 1 twice (columns 1 and 8)"
    col = [0] * 81
    col[3] = col[6 * 9 + 3] = 6
    assert first_conflict(tuple(col), shape) == "column 4 holds 6 twice (rows 1 and 7)"
    box = [0] * 81
    box[0] = box[10] = 5
    assert first_conflict(tuple(box), shape) == "box 1 holds 5 twice (row 1 column 1 and row 2 column 2)"
    assert first_conflict((0,) * 81, shape) is None


def test_puzzle_refuses_cells_that_do_not_fit():
    with pytest.raises(ValueError):
        Puzzle(Shape(2, 2), (0,) * 15)
    with pytest.raises(ValueError):
        Puzzle(Shape(2, 2), (5,) + (0,) * 15)
