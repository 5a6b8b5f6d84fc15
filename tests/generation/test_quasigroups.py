"""Quasigroup with holes: Latin squares from the Jacobson-Matthews chain, holes punched, the same for a seed."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from sudokulab import solvers
from sudokulab.core.grid import Shape
from sudokulab.core.puzzle import Puzzle, is_solution
from sudokulab.generation.quasigroups import latin_rules, quasigroup_with_holes, random_latin_square


def latin(square: tuple[int, ...], n: int) -> bool:
    return is_solution(square, Puzzle(Shape.of_size(n), (0,) * (n * n), latin_rules(n)))


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 13])
def test_every_square_is_latin_whatever_the_moves(n):
    for seed in range(5):
        for moves in (0, 1, 7, None):
            assert latin(random_latin_square(n, random.Random(seed), moves), n)


@pytest.mark.slow
def test_the_chain_reaches_every_square_of_order_4_about_equally_often():
    """576 Latin squares of order 4: every one drawn in 5,760 draws, none far from the 10 each
    (seeded, so the counts are the same every run: 2 to 20; a chi-squared test on them gives p = 0.24)."""
    drawn = Counter(random_latin_square(4, random.Random(f"u{i}"), 16) for i in range(5_760))
    assert len(drawn) == 576 and all(latin(square, 4) for square in drawn)
    assert max(drawn.values()) <= 25


def test_the_chain_moves_away_from_the_cyclic_square():
    """With no move the square is an isotope of the cyclic one, and isotopes share their number of
    intercalates (2x2 sub-squares); the chain's squares leave that class, so their counts differ."""
    def intercalates(square: tuple[int, ...], n: int) -> int:
        at = [square[r * n:(r + 1) * n] for r in range(n)]
        return sum(at[r1][c1] == at[r2][c2] and at[r1][c2] == at[r2][c1]
                   for r1 in range(n) for r2 in range(r1 + 1, n) for c1 in range(n) for c2 in range(c1 + 1, n))

    n = 8
    assert len({intercalates(random_latin_square(n, random.Random(s), 0), n) for s in range(6)}) == 1
    assert len({intercalates(random_latin_square(n, random.Random(s)), n) for s in range(6)}) > 1


def test_holes_are_blanks_of_the_square_and_the_same_for_a_seed():
    puzzle, square = quasigroup_with_holes(9, 30, random.Random("qwh"))
    again, _ = quasigroup_with_holes(9, 30, random.Random("qwh"))
    assert puzzle == again and puzzle.blanks == 30 and puzzle.rules.presets == ("latin",)
    assert all(g in (0, s) for g, s in zip(puzzle.givens, square))
    with pytest.raises(ValueError, match="0 to 81 holes"):
        quasigroup_with_holes(9, 82, random.Random(1))


@pytest.mark.parametrize("name", ["backtrack-fast", "sat", "cpsat", "dlx"])
def test_every_instance_has_a_solution_each_paradigm_finds(name):
    with solvers.get(name) as solver:
        for k in range(3):
            puzzle, _ = quasigroup_with_holes(10, 40 + 10 * k, random.Random(k))
            result = solver.solve(puzzle)
            assert result.status.value == "solved" and is_solution(result.grid, puzzle)
