"""generate: valid grids of every shape and rule set, clue counts honoured, unique when asked, same seed same
puzzles."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokulab import solvers
from sudokulab.cli import main as cli
from sudokulab.core.grid import Shape
from sudokulab.core.puzzle import Puzzle, is_solution
from sudokulab.core.rules import Rules, build
from sudokulab.datasets.reading import read_dataset
from sudokulab.errors import NoSolution
from sudokulab.generation import puzzles as generate

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
    expected = [g.puzzle for g in generate.generate(shape, 3, seed=5, unique=True)]  # the command's default
    entries = list(read_dataset(out, (shape.box_rows, shape.box_cols)))
    assert [e.puzzle for e in entries] == expected
    assert cli.main(argv + ["--several"] + (["--box", box] if box else [])) == 0  # the library's default
    several = [g.puzzle for g in generate.generate(shape, 3, seed=5)]
    assert [e.puzzle for e in read_dataset(out, (shape.box_rows, shape.box_cols))] == several


def test_the_command_makes_puzzles_with_one_solution_unless_told_otherwise(capsys):
    """Every puzzle of a plain ``generate`` has exactly one solution (counted by a solver that is not
    generate's oracle); ``--several`` blanks cells without that check, and at 20 clues some of its
    puzzles have more."""
    from sudokulab import solvers
    from sudokulab.formats.boj import parse_puzzle

    def counts(*options: str) -> list[int]:
        assert cli.main(["generate", "--count", "8", "--seed", "11", "--clues", "24", *options]) == 0
        lines = capsys.readouterr().out.split()
        with solvers.get("dlx") as counter:
            return [counter.count(parse_puzzle(line), limit=2).count for line in lines]

    assert counts() == [1] * 8
    assert counts("--unique") == [1] * 8
    assert max(counts("--several")) == 2


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


# --- under rules ------------------------------------------------------------------------------------

JIGSAW = {
    Shape(2, 3): (0, 0, 0, 1, 1, 1, 0, 0, 2, 1, 1, 1, 0, 2, 2, 3, 3, 3,
                  2, 2, 2, 5, 3, 3, 4, 4, 4, 5, 3, 5, 4, 4, 4, 5, 5, 5),
    Shape(3, 3): (0, 0, 0, 1, 1, 1, 2, 2, 2, 0, 0, 0, 0, 1, 1, 2, 2, 2, 0, 3, 1, 1, 1, 1, 2, 2, 2,
                  0, 3, 3, 4, 4, 4, 5, 5, 5, 3, 3, 3, 4, 4, 4, 5, 5, 5, 3, 3, 3, 4, 4, 7, 5, 5, 5,
                  6, 6, 6, 4, 7, 7, 8, 8, 8, 6, 6, 6, 7, 7, 7, 8, 8, 8, 6, 6, 6, 7, 7, 7, 8, 8, 8),
}


def variant(shape: Shape, name: str) -> Rules:
    if name == "jigsaw":
        return build(shape, regions=JIGSAW[shape])
    if name == "killer":
        return build(shape, cages=[((0, 1), 2 * shape.n - 1), ((shape.n + 2, 2 * shape.n + 2, 2 * shape.n + 3), 6)])
    if name == "thermo":
        return build(shape, thermos=[(0, 1, 2), (shape.cells - 1, shape.cells - 2)])
    return build(shape, [name])


@pytest.mark.parametrize("shape", [Shape(2, 3), Shape(3, 3)], ids=str)
@pytest.mark.parametrize("name", ["x", "windoku", "anti-king", "anti-knight", "jigsaw", "killer", "thermo"])
def test_puzzles_under_rules_are_valid_and_unique_when_asked(shape, name):
    rules = variant(shape, name)
    fast, classic = solvers.get("backtrack-fast"), solvers.get("backtrack")
    for made in generate.generate(shape, 3, fraction=0.5, seed=shape.n, rules=rules):
        assert made.puzzle.rules is rules and made.clues == round(0.5 * shape.cells)
        assert is_solution(made.solution, made.puzzle)
        assert all(g in (0, s) for g, s in zip(made.puzzle.givens, made.solution))
    for made in generate.generate(shape, 3, clues=0, unique=True, seed=shape.n, rules=rules):
        assert made.puzzle.rules is rules and is_solution(made.solution, made.puzzle)
        assert fast.count(made.puzzle, limit=2).count == 1
        assert fast.solve(made.puzzle).grid == made.solution
        if shape.n == 6:  # a second paradigm of counting, cheap enough on 6x6
            assert classic.count(made.puzzle, limit=2, time_limit=60).count == 1


def test_rules_that_no_grid_keeps_are_an_error_not_a_hang():
    with pytest.raises(NoSolution, match="no complete grid keeps these rules"):
        next(generate.generate(4, 1, rules=build(Shape(2, 2), ["anti-king"])))
    # each cage alone is fine, but row 1 would need three cells of 1 and 2
    cages = build(Shape(3, 3), cages=[((0, 1), 3), ((2, 11), 3)])
    with pytest.raises(NoSolution, match="no complete grid"):
        next(generate.generate(9, 1, rules=cages))


def test_standard_rules_given_make_the_same_puzzles_as_none():
    plain = [g.puzzle for g in generate.generate(9, 3, clues=30, seed=4)]
    assert [g.puzzle for g in generate.generate(9, 3, clues=30, seed=4, rules=build(Shape(3, 3)))] == plain


def test_variant_grids_are_not_shuffled_by_symmetries(monkeypatch):
    """A symmetry would break the diagonals: random_grid must not call it under variant rules."""
    def refuse(*_args):
        raise AssertionError("random_symmetry applied under variant rules")

    monkeypatch.setattr(generate, "random_symmetry", refuse)
    rules = build(Shape(3, 3), ["x"])
    grid = generate.random_grid(Shape(3, 3), random.Random(1), rules)
    assert is_solution(grid, Puzzle.empty(Shape(3, 3)).with_rules(rules))


def test_output_is_the_givens_alone_and_chunks_carry_the_rules():
    rules = build(Shape(3, 3), ["windoku"])
    (made,) = generate.generate(9, 1, clues=30, seed=8, rules=rules, per_puzzle_seeds=True)
    text = generate.dataset_text(made.puzzle)
    assert len(text.strip()) == 81 and text.count(".") == 51
    chunk = generate.Chunk(Shape(3, 3), 0, 1, target=30, unique=False, seed=8, rules=rules)
    assert generate.make_chunk(chunk)[0].puzzle == made.puzzle


def test_rules_for_another_shape_are_refused():
    with pytest.raises(ValueError, match="rules are for"):
        next(generate.generate(6, 1, rules=build(Shape(3, 3), ["x"])))
