"""The exact-cover model of Sudoku: a 0/1 matrix whose exact covers are the solutions; solves nothing.

Vocabulary (n = board size, 1-based in names, 0-based in indices):

- **Column**: a rule that must be met exactly once. There are 4n² of them, in four kinds of n²:

  =====  ======================  ==========================
  kind   name                    index
  =====  ======================  ==========================
  cell   ``cell r1c2``           ``r*n + c``
  row    ``row 1 has 3``         ``n² + r*n + digit-1``
  col    ``column 2 has 3``      ``2n² + c*n + digit-1``
  box    ``box 1 has 3``         ``3n² + b*n + digit-1``
  =====  ======================  ==========================

- **Row**: a choice, "this cell holds this digit", named ``r1c2=3`` and numbered
  ``cell*n + digit-1`` (so reading order, digits ascending). It fills exactly four columns, one of
  each kind; ``row_columns`` computes them and every table here is derived from it.
- **Exact cover**: a set of rows that fills every column exactly once, which is a solved grid.

Givens are *pre-covered*: a given's row is taken at once, so its four columns and every row that
meets them leave the matrix. What is left is exactly the search that remains: ``4(n² - g)`` open
columns for ``g`` givens, and one row per (blank cell, digit) that no given in the cell's row,
column or box rules out. Road not taken: keeping a given cell's one row in the matrix has the
same exact covers, but the printed matrix is larger without saying more, and a search spends a
node on each forced given. Givens that break a rule have no exact cover; the model says so in
``conflict`` and keeps no rows, so a column with no row makes the "no solution" visible too.

The formulation and Algorithm X are from D. E. Knuth, "Dancing Links", in *Millennial
Perspectives in Computer Science* (Palgrave, 2000), 187-214, arXiv:cs/0011047; the solver that
runs it is ``sudokulab.solvers.dlx``.

>>> from sudokulab.grid import Puzzle, Shape
>>> shape = Shape(3, 3)
>>> len(column_names(shape)), [column_name(shape, i) for i in row_columns(shape, 1, 3)]
(324, ['cell r1c2', 'row 1 has 3', 'column 2 has 3', 'box 1 has 3'])
>>> model = ExactCover.of(Puzzle.empty(shape))
>>> len(model.columns), len(model.rows), model.row_names()[:3]
(324, 729, ['r1c1=1', 'r1c1=2', 'r1c1=3'])
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..grid import Puzzle, Shape, first_conflict

KINDS = ("cell", "row", "col", "box")
"""The four kinds of column, in index order."""


def row_columns(shape: Shape, cell: int, digit: int) -> tuple[int, int, int, int]:
    """The four columns the row "``cell`` holds ``digit``" fills: the only place they are computed.

    >>> row_columns(Shape(2, 2), 5, 4)
    (5, 23, 39, 51)
    """
    n = shape.n
    nn = n * n
    r, c = divmod(cell, n)
    d = digit - 1
    return cell, nn + r * n + d, 2 * nn + c * n + d, 3 * nn + shape.box_of(r, c) * n + d


@lru_cache(maxsize=8)
def matrix_columns(shape: Shape) -> tuple[tuple[int, int, int, int], ...]:
    """The columns of every row of the empty board, indexed by row number ``cell*n + digit-1``.

    The whole matrix of a shape (n³ rows of four columns), built once per shape for solvers; a
    puzzle's matrix is this one with its givens pre-covered.
    """
    n = shape.n
    return tuple(row_columns(shape, cell, digit) for cell in range(n * n) for digit in range(1, n + 1))


def column_name(shape: Shape, column: int) -> str:
    """The 1-based name of a column, e.g. ``row 1 has 3``.

    >>> column_name(Shape(2, 2), 0), column_name(Shape(2, 2), 63)
    ('cell r1c1', 'box 4 has 4')
    """
    n = shape.n
    kind, rest = divmod(column, n * n)
    if not 0 <= kind < 4 or column < 0:
        raise ValueError(f"a {n}x{n} board has columns 0..{4 * n * n - 1}, not {column}")
    unit, d = divmod(rest, n)
    if kind == 0:
        return f"cell r{unit + 1}c{d + 1}"
    return f"{('row', 'column', 'box')[kind - 1]} {unit + 1} has {d + 1}"


def column_names(shape: Shape) -> list[str]:
    """The names of all 4n² columns, in index order."""
    return [column_name(shape, i) for i in range(4 * shape.cells)]


def row_name(shape: Shape, cell: int, digit: int) -> str:
    """The 1-based name of a row, e.g. ``r1c2=3``."""
    r, c = divmod(cell, shape.n)
    return f"r{r + 1}c{c + 1}={digit}"


@dataclass(frozen=True)
class ExactCover:
    """The matrix of one puzzle with its givens pre-covered: open columns and candidate rows.

    ``rows`` holds (cell, digit) pairs in row-number order (reading order, digits ascending);
    ``given`` the rows the givens took; ``columns`` the open column indices, ascending.
    ``conflict`` names the rule the givens break (then there are no rows), else it is None.
    """

    shape: Shape
    columns: tuple[int, ...]
    rows: tuple[tuple[int, int], ...]
    given: tuple[tuple[int, int], ...]
    conflict: str | None = None

    @classmethod
    def of(cls, puzzle: Puzzle) -> ExactCover:
        """Build the matrix of a puzzle: every row of the shape, less those the givens cover."""
        shape = puzzle.shape
        given = tuple((cell, digit) for cell, digit in enumerate(puzzle.givens) if digit)
        covered = {column for cell, digit in given for column in row_columns(shape, cell, digit)}
        columns = tuple(i for i in range(4 * shape.cells) if i not in covered)
        conflict = first_conflict(puzzle.givens, shape)
        if conflict is not None:
            return cls(shape, columns, (), given, conflict)
        n = shape.n
        rows = tuple(
            (cell, digit)
            for cell in range(shape.cells)
            for digit in range(1, n + 1)
            if covered.isdisjoint(row_columns(shape, cell, digit))
        )
        return cls(shape, columns, rows, given, None)

    def column_names(self) -> list[str]:
        return [column_name(self.shape, i) for i in self.columns]

    def row_names(self) -> list[str]:
        return [row_name(self.shape, cell, digit) for cell, digit in self.rows]

    def row_columns(self, row: int) -> tuple[int, int, int, int]:
        """The four columns the ``row``-th row (an index into ``rows``) fills."""
        return row_columns(self.shape, *self.rows[row])

    def empty_columns(self) -> list[str]:
        """Open columns that no row can fill: each proves there is no solution.

        >>> ExactCover.of(Puzzle.from_rows([[1, 2, 0, 0], [0, 0, 3, 0], [0, 0, 4, 0], [0, 0, 0, 0]])).empty_columns()
        ['cell r1c3', 'row 1 has 3', 'box 1 has 3']
        """
        filled = {column for cell, digit in self.rows for column in row_columns(self.shape, cell, digit)}
        return [column_name(self.shape, i) for i in self.columns if i not in filled]

    def to_text(self) -> str:
        """The whole matrix for a reader: a legend of the open columns, then one line per row.

        A row shows ``1`` under each column it fills and ``.`` elsewhere, the four kinds of
        column split by a space.

        >>> grid = [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 0, 0]]
        >>> print(ExactCover.of(Puzzle.from_rows(grid)).to_text())
        4x4 board with 2x2 boxes: 14 givens pre-covered, 8 open columns, 2 rows
        column 1: cell r4c3
        column 2: cell r4c4
        column 3: row 4 has 1
        column 4: row 4 has 2
        column 5: column 3 has 2
        column 6: column 4 has 1
        column 7: box 4 has 1
        column 8: box 4 has 2
        r4c3=2  1. .1 1. .1
        r4c4=1  .1 1. .1 1.
        """
        if self.conflict is not None:
            return f"{self.shape}: no rows, the givens break a rule: {self.conflict}"
        nn = self.shape.cells
        lines = [f"{self.shape}: {len(self.given)} givens pre-covered, {len(self.columns)} open columns, "
                 f"{len(self.rows)} rows"]
        lines += [f"column {i}: {name}" for i, name in enumerate(self.column_names(), 1)]
        width = max((len(name) for name in self.row_names()), default=0)
        groups = [group for kind in range(4) if (group := [i for i in self.columns if i // nn == kind])]
        for (cell, digit), name in zip(self.rows, self.row_names()):
            filled = set(row_columns(self.shape, cell, digit))
            marks = " ".join("".join("1" if i in filled else "." for i in group) for group in groups)
            lines.append(f"{name:<{width}}  {marks}")
        return "\n".join(lines)
