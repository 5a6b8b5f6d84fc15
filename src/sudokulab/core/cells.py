"""Cell names, 1-based: the two forms sudokulab writes a cell in, each made here and nowhere else.

- ``cell_label``, ``r4c5``: the puzzle setters' notation, in rule files, JSON puzzles, explanations,
  answers compared cell by cell and the names in the models (CP-SAT, MIP, exact cover);
- ``cell_words``, ``row 4 column 5``: in the sentence that says which rule a grid breaks, and
  ``row 4, column 5`` where an answer is checked against its puzzle.
"""

from __future__ import annotations


def cell_label(cell: int, n: int) -> str:
    """The 0-based ``cell`` of an n x n board in setters' notation.

    >>> cell_label(0, 9), cell_label(13, 9), cell_label(80, 9)
    ('r1c1', 'r2c5', 'r9c9')
    """
    row, col = divmod(cell, n)
    return f"r{row + 1}c{col + 1}"


def cell_words(cell: int, n: int, *, comma: bool = False) -> str:
    """The 0-based ``cell`` of an n x n board in words; with ``comma`` as the checker of an answer and
    the oracle write it.

    >>> cell_words(13, 9), cell_words(13, 9, comma=True)
    ('row 2 column 5', 'row 2, column 5')
    """
    row, col = divmod(cell, n)
    return f"row {row + 1}{',' if comma else ''} column {col + 1}"
