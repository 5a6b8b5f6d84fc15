"""A SAT encoding of Sudoku to start from; grade yours with ``sudokulab check-encoding mine.py``.

The interface the grader calls (docs/grading.md): ``encode(puzzle)`` returns the clauses, each a
list of non-zero ints in the DIMACS way (``5`` is variable 5, ``-5`` its negation), or ``(clauses,
variables)`` with the highest variable used; the givens are part of the formula (unit clauses
here), so every model is a solution. ``decode(model, puzzle)`` returns the grid of a model, the n*n
digits row by row (flat, or n rows); ``model`` is what PySAT's ``Solver.get_model()`` returns,
``[±1, ±2, ..., ±top]`` (``decode(model)`` with one parameter works too). Use only ``puzzle.n``,
``puzzle.shape.box_rows``, ``puzzle.shape.box_cols`` and ``puzzle.givens`` (0 for a blank); the
rules are standard Sudoku.

This encoding is the "efficient" one of Lynce and Ouaknine ("Sudoku as a SAT Problem", 2006):
each cell holds exactly one digit, each digit at most once per row, column and box.
"""

from itertools import combinations


def var(n, row, col, digit):
    """The variable "the cell at (row, col) holds digit": rows and columns from 0, digits from 1."""
    return (row * n + col) * n + digit


def at_most_one(literals):
    """At most one of the literals is true: one clause per pair, "not both" (the pairwise encoding)."""
    return [[-a, -b] for a, b in combinations(literals, 2)]


def cell_clauses(n):
    """Each cell holds at least one digit (one clause) and at most one."""
    clauses = []
    for row in range(n):
        for col in range(n):
            digits = [var(n, row, col, d) for d in range(1, n + 1)]
            clauses.append(digits)
            clauses += at_most_one(digits)
    return clauses


def row_clauses(n):
    """Each digit at most once in each row."""
    return [c for row in range(n) for d in range(1, n + 1)
            for c in at_most_one([var(n, row, col, d) for col in range(n)])]


def column_clauses(n):
    """Each digit at most once in each column."""
    return [c for col in range(n) for d in range(1, n + 1)
            for c in at_most_one([var(n, row, col, d) for row in range(n)])]


def box_clauses(n, box_rows, box_cols):
    """Each digit at most once in each box (box_rows x box_cols cells)."""
    clauses = []
    for top in range(0, n, box_rows):
        for left in range(0, n, box_cols):
            cells = [(top + r, left + c) for r in range(box_rows) for c in range(box_cols)]
            for d in range(1, n + 1):
                clauses += at_most_one([var(n, row, col, d) for row, col in cells])
    return clauses


def given_clauses(puzzle):
    """Each given digit as a unit clause: the cell holds it."""
    n = puzzle.n
    return [[var(n, cell // n, cell % n, digit)] for cell, digit in enumerate(puzzle.givens) if digit]


def encode(puzzle):
    n = puzzle.n
    clauses = (cell_clauses(n) + row_clauses(n) + column_clauses(n)
               + box_clauses(n, puzzle.shape.box_rows, puzzle.shape.box_cols) + given_clauses(puzzle))
    return clauses, n ** 3


def decode(model, puzzle):
    """Read each cell's digit off the true variables (the first true one, if a model had two)."""
    n = puzzle.n
    true = {lit for lit in model if lit > 0}
    grid = []
    for row in range(n):
        for col in range(n):
            digits = [d for d in range(1, n + 1) if var(n, row, col, d) in true]
            grid.append(digits[0] if digits else 0)
    return grid
