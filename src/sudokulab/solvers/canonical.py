"""Canonical answers by fixing cells: the one loop that engines without a search order of their own use.

The row-major lexicographically first solution of a puzzle is found cell by cell: each blank cell,
in reading order, gets the smallest digit that still leaves a solution with the cells before it
fixed. Any solution bounds the search (its digit in the cell is feasible, so only smaller digits are
tried), and a digit a given or fixed peer holds is skipped without asking the engine. The SAT
solver asks through assumptions, the external-program solver through unit clauses.

More: docs/solvers.md.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..core.grid import Grid
from ..core.puzzle import Puzzle

TryDigit = Callable[[int, int, Sequence[tuple[int, int]]], Grid | None]
"""``try_digit(cell, digit, fixed)``: a solution with ``cell`` holding ``digit`` and every
``(cell, digit)`` of ``fixed`` in place, or None when there is none."""


def smallest_solution(puzzle: Puzzle, solution: Grid, try_digit: TryDigit) -> Grid:
    """The lexicographically first solution, from any ``solution`` and an engine's ``try_digit``."""
    peers = puzzle.rules.peers
    values = list(puzzle.givens)  # givens and the fixed prefix
    fixed: list[tuple[int, int]] = []
    grid = solution
    for cell in range(puzzle.shape.cells):
        if values[cell]:
            continue
        taken = {values[peer] for peer in peers[cell]}
        choice = grid[cell]
        for digit in range(1, choice):
            if digit in taken:
                continue
            found = try_digit(cell, digit, fixed)
            if found is not None:
                choice, grid = digit, found
                break
        values[cell] = choice
        fixed.append((cell, choice))
    return tuple(values)
