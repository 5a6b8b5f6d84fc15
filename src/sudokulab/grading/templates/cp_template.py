"""A CP-SAT model of Sudoku to start from; grade yours with ``sudokulab check-encoding mine.py``.

The interface the grader calls (docs/grading.md): ``build(puzzle)`` returns ``(model, decode)``:

- ``model`` is an ``ortools.sat.python.cp_model.CpModel`` whose solutions are the puzzle's (the
  givens are part of it);
- ``decode(values)`` returns the grid of a solution: the n*n digits row by row (a flat list, or
  a list of n rows). ``values.Value(x)`` gives a variable's value in that solution (``values`` is
  a ``CpSolver`` after a solve, or a solution callback while solutions are enumerated).

``puzzle`` is a ``sudokulab.core.puzzle.Puzzle``; use only ``puzzle.n``, ``puzzle.shape.box_rows``,
``puzzle.shape.box_cols`` and ``puzzle.givens`` (the n*n digits row by row, 0 for a blank).
"""

from ortools.sat.python import cp_model


def build(puzzle):
    n, box_rows, box_cols = puzzle.n, puzzle.shape.box_rows, puzzle.shape.box_cols
    model = cp_model.CpModel()
    cells = [[model.NewIntVar(1, n, f"r{row + 1}c{col + 1}") for col in range(n)] for row in range(n)]
    for row in range(n):
        model.AddAllDifferent(cells[row])
    for col in range(n):
        model.AddAllDifferent([cells[row][col] for row in range(n)])
    for top in range(0, n, box_rows):
        for left in range(0, n, box_cols):
            model.AddAllDifferent([cells[top + r][left + c] for r in range(box_rows) for c in range(box_cols)])
    for cell, digit in enumerate(puzzle.givens):
        if digit:
            model.Add(cells[cell // n][cell % n] == digit)

    def decode(values):
        return [[values.Value(x) for x in row] for row in cells]

    return model, decode
