"""The one map between (cell, digit) and a model's variable: every model and solver uses it.

A model of Sudoku has one Boolean per (cell, digit), true when the cell holds the digit. Their
numbering is computed here and nowhere else (as PySAT's ``IDPool`` hands out ids from one place):

- ``index(n, cell, digit) = cell * n + digit - 1``: 0-based, for arrays (CP-SAT, MIP, exact-cover
  rows, numpy tables);
- ``literal(n, cell, digit) = index + 1``: the DIMACS variable (1..n**3), so any auxiliary variable
  of an encoding comes after n**3.

Cells are row-major indices 0..n*n-1, digits 1..n.

>>> index(9, 0, 1), literal(9, 80, 9), cell_digit(9, 728)
(0, 729, (80, 9))
"""

from __future__ import annotations


def index(n: int, cell: int, digit: int) -> int:
    """The 0-based variable of "cell holds digit"."""
    return cell * n + digit - 1


def literal(n: int, cell: int, digit: int) -> int:
    """The DIMACS variable (1-based) of "cell holds digit"."""
    return cell * n + digit


def cell_digit(n: int, index_: int) -> tuple[int, int]:
    """The (cell, digit) of a 0-based variable: the inverse of ``index``."""
    cell, d = divmod(index_, n)
    return cell, d + 1


def count(n: int) -> int:
    """How many (cell, digit) variables an n x n board has: n**3."""
    return n**3
