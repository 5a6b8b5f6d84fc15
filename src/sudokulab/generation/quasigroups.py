"""Random Latin squares and quasigroup-with-holes instances, the same for a seed.

A Latin square of order n holds 1..n once in every row and column: a Sudoku without boxes (the
``latin`` preset of ``core.rules``). **Quasigroup with holes** (QWH; Achlioptas, Gomes, Kautz and
Selman 2000) blanks cells of a random Latin square: completing it is NP-complete, every instance
has a solution, and its hardness peaks between two easy ends, the easy-hard-easy curve ``sudokulab
study`` draws. The square is drawn by the Markov chain of Jacobson and Matthews (1996), which tends
to the uniform distribution the QWH literature draws from, rather than by the randomised search of
``puzzles.random_grid``. The chain and the holes punched in its square are one recipe for one family.

How the chain runs: docs/study.md.
"""

from __future__ import annotations

import random

from ..core.grid import Grid, Shape
from ..core.puzzle import Puzzle
from ..core.rules import Rules, build

MIXING = 1
"""Proper moves of the chain per cell of the square (``MIXING * n**2`` in all)."""


def latin_rules(n: int) -> Rules:
    """The rules of a Latin square of order n: rows and columns (the ``latin`` preset)."""
    return build(Shape.of_size(n), ["latin"])


def random_latin_square(n: int, rng: random.Random, moves: int | None = None) -> Grid:
    """A random Latin square of order n (row-major, symbols 1..n) after ``moves`` proper moves of the
    Jacobson-Matthews chain (default ``MIXING * n**2``; 0: a random isotope of the cyclic square).

    >>> from sudokulab.core.puzzle import is_solution
    >>> square = random_latin_square(7, random.Random(1))
    >>> is_solution(square, Puzzle(Shape.of_size(7), (0,) * 49, latin_rules(7)))
    True
    """
    if n < 1:
        raise ValueError(f"a Latin square has order 1 or more, not {n}")
    moves = (MIXING * n ** 2 if moves is None else moves) if n > 1 else 0  # order 1: one square, no move
    nn = n * n
    rows, columns, symbols = (rng.sample(range(n), n) for _ in range(3))
    cube = [0] * (n * nn)
    for r in range(n):
        for c in range(n):
            cube[rows[r] * nn + columns[c] * n + symbols[(r + c) % n]] = 1

    def along_r(c: int, s: int) -> list[int]:
        return cube[c * n + s::nn]

    def along_c(r: int, s: int) -> list[int]:
        return cube[r * nn + s:(r + 1) * nn:n]

    def along_s(r: int, c: int) -> list[int]:
        return cube[r * nn + c * n:r * nn + c * n + n]

    def either_one(line: list[int]) -> int:
        first = line.index(1)
        return first if rng.random() < 0.5 else line.index(1, first + 1)

    improper: tuple[int, int, int] | None = None
    made = 0
    while made < moves or improper is not None:
        if improper is None:
            while True:  # a random empty entry of the cube: a cell and a symbol it does not hold
                r, c, s = rng.randrange(n), rng.randrange(n), rng.randrange(n)
                if cube[r * nn + c * n + s] == 0:
                    break
            r1, c1, s1 = along_r(c, s).index(1), along_c(r, s).index(1), along_s(r, c).index(1)
        else:  # from the -1 entry, each of its three lines holds two 1s: one of each, at random
            r, c, s = improper
            r1, c1, s1 = either_one(along_r(c, s)), either_one(along_c(r, s)), either_one(along_s(r, c))
        for rr, cc, ss, step in ((r, c, s, 1), (r, c1, s1, 1), (r1, c, s1, 1), (r1, c1, s, 1),
                                 (r, c, s1, -1), (r, c1, s, -1), (r1, c, s, -1), (r1, c1, s1, -1)):
            cube[rr * nn + cc * n + ss] += step
        improper = (r1, c1, s1) if cube[r1 * nn + c1 * n + s1] < 0 else None
        made += improper is None
    return tuple(along_s(r, c).index(1) + 1 for r in range(n) for c in range(n))


def quasigroup_with_holes(n: int, holes: int, rng: random.Random, moves: int | None = None) -> tuple[Puzzle, Grid]:
    """A QWH instance of order n: a random Latin square (``random_latin_square``) with ``holes`` cells
    blanked, chosen uniformly at random; the puzzle (``latin`` rules) and the square it came from.

    >>> puzzle, square = quasigroup_with_holes(5, 10, random.Random(3))
    >>> puzzle.blanks, puzzle.rules.presets, all(g in (0, s) for g, s in zip(puzzle.givens, square))
    (10, ('latin',), True)
    """
    if not 0 <= holes <= n * n:
        raise ValueError(f"an order-{n} square has {n * n} cells: give 0 to {n * n} holes, not {holes}")
    square = random_latin_square(n, rng, moves)
    blank = set(rng.sample(range(n * n), holes))
    givens = tuple(0 if cell in blank else digit for cell, digit in enumerate(square))
    return Puzzle(Shape.of_size(n), givens, latin_rules(n)), square
