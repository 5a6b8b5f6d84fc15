"""generate: valid grids of every shape, clue counts honoured, unique when asked, same seed same puzzles."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokulab import cli, generate, solvers
from sudokulab.datasets import read_dataset
from sudokulab.grid import Puzzle, Shape, is_solution

SHAPES = [Shape.of_size(n) for n in (1, 4, 6, 9, 12, 16, 25)] + [Shape(3, 2), Shape(1, 5), Shape(2, 5)]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_random_grids_are_solutions(shape):
    rng = random.Random(42)
    for _ in range(2 if shape.n >= 16 else 5):
        assert is_solution(generate.random_grid(shape, rng), Puzzle.empty(shape))


def test_random_symmetry_keeps_grids_valid_for_every_box_split():
    rng = random.Random(3)
    for shape in (Shape(2, 3), Shape(3, 2), Shape(3, 3), Shape(2, 4)):
        grid = generate.random_grid(shape, rng)
        for _ in range(20):
            grid = generate.random_symmetry(grid, shape, rng)
            assert is_solution(grid, Puzzle.empty(shape))


def test_the_search_reaches_every_4x4_grid():
    """4x4 has 288 grids; a symmetry-only generator would meet few of them from one base."""
    rng = random.Random(0)
    seen = {generate.random_grid(4, rng) for _ in range(3000)}
    assert len(seen) == 288


def test_same_seed_same_puzzles_other_seed_others():
    def run(seed):
        return [(g.puzzle, g.solution) for g in generate.generate(9, 3, clues=30, seed=seed)]

    assert run(11) == run(11)
    assert run(11) != run(12)


@pytest.mark.parametrize("n", [4, 6, 9, 12, 16])
def test_clue_count_honoured_and_givens_come_from_the_solution(n):
    for made in generate.generate(n, 3, fraction=0.45, seed=n):
        assert made.clues == round(0.45 * n * n) and not made.short
        assert all(g in (0, s) for g, s in zip(made.puzzle.givens, made.solution))
        assert is_solution(made.solution, made.puzzle)


@pytest.mark.parametrize("n", [4, 6, 9])
def test_unique_puzzles_have_exactly_one_solution(n):
    checker = solvers.get("backtrack-fast")  # not the generator's own counter (sat)
    for made in generate.generate(n, 4, clues=0, unique=True, seed=n):
        assert checker.count(made.puzzle, limit=2).count == 1
        assert checker.solve(made.puzzle).grid == made.solution
        assert made.short  # 0 clues is never unique: it stopped at a minimal puzzle


def test_unique_stops_where_it_must_and_says_so(tmp_path, capsys):
    out = tmp_path / "p.txt"
    code = cli.main(["generate", "--size", "4", "--clues", "1", "--unique", "--count", "3", "--seed", "1",
                     "--output", str(out)])
    err = capsys.readouterr().err
    assert code == 0 and "warning: 3 of 3 puzzles cannot go below 1 clues and stay unique" in err


@pytest.mark.parametrize(("size", "box"), [(4, None), (6, "3x2"), (9, None), (16, None), (12, "4x3")])
def test_output_reads_back_as_the_same_puzzles(tmp_path, capsys, size, box):
    out = tmp_path / "set.txt"
    argv = ["generate", "--size", str(size), "--count", "3", "--seed", "5", "--output", str(out)]
    assert cli.main(argv + (["--box", box] if box else [])) == 0
    shape = Shape(*map(int, box.split("x"))) if box else Shape.of_size(size)
    expected = [g.puzzle for g in generate.generate(shape, 3, seed=5)]
    entries = list(read_dataset(out, (shape.box_rows, shape.box_cols)))
    assert [e.puzzle for e in entries] == expected


def test_stdout_output_and_seed_note(capsys):
    assert cli.main(["generate", "--size", "9", "--clues", "30"]) == 0
    out, err = capsys.readouterr()
    assert len(out.strip()) == 81 and out.count(".") == 51 and "--seed" in err


@pytest.mark.parametrize("argv", [
    ["--size", "9", "--clues", "82"], ["--size", "6", "--box", "3x3"], ["--size", "9", "--fraction", "1.5"],
    ["--size", "4", "--clues", "3", "--fraction", "0.2"], ["--size", "0"], ["--size", "65"],
])
def test_bad_arguments_exit_2(capsys, argv):
    assert cli.main(["generate", *argv]) == 2
    assert capsys.readouterr().err.startswith("sudokulab: error:")


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), shape=st.sampled_from([Shape(2, 2), Shape(2, 3), Shape(3, 2)]),
       fraction=st.floats(0, 1))
def test_any_seed_gives_a_valid_puzzle(seed, shape, fraction):
    (made,) = generate.generate(shape, 1, fraction=fraction, seed=seed)
    assert is_solution(made.solution, Puzzle.empty(shape)) and is_solution(made.solution, made.puzzle)
    assert made.clues == round(fraction * shape.cells)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_any_seed_gives_a_unique_puzzle_when_asked(seed):
    (made,) = generate.generate(6, 1, clues=10, unique=True, seed=seed)
    assert solvers.get("backtrack-fast").count(made.puzzle, limit=2).count == 1
