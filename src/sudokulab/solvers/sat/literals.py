"""The literal map of ``core.variables`` as tables, for the hot loops that assume givens and read models.

Solvers assume a puzzle's givens and decode a model for every puzzle they solve; a table lookup
per cell does it where a call to ``variables.literal`` per cell would cost more. The tables are derived from
that one map once per board size, so they cannot disagree with it (``tests/solvers/sat/test_cnf.py`` checks),
and ``grid_from_model`` reads any model, the ``reduced`` encoding's too, back into a grid.

More: docs/sat.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from ...core import variables
from ...core.cells import cell_words
from ...core.grid import Grid

if TYPE_CHECKING:
    import numpy as np


@dataclass(frozen=True)
class LiteralTable:
    """The literal map of one board size as flat lists, for solvers' hot loops.

    ``given[cell * (n + 1) + digit]`` is the literal of that cell holding that digit (0 for digit
    0, a blank), so a puzzle's assumptions are one list comprehension. ``digit_of[var]`` is the
    digit of a cell variable (index 0 unused), so a model decodes by reading its positive literals.
    """

    n: int
    given: tuple[int, ...]
    offsets: tuple[int, ...]
    digit_of: tuple[int, ...]

    def assumptions(self, givens: Grid) -> list[int]:
        """The literals of the givens (true in every solution), row-major."""
        table = self.given
        return [table[offset + digit] for offset, digit in zip(self.offsets, givens) if digit]

    def decode(self, model: Sequence[int]) -> Grid:
        """The grid of a model that sets exactly one digit per cell (every encoding's models do)."""
        digit_of = self.digit_of
        return tuple([digit_of[lit] for lit in model[: len(digit_of) - 1] if lit > 0])


@dataclass(frozen=True)
class LiteralArrays:
    """The literal map of one board size as numpy tables, for batches of puzzles (``solve_batch``).

    ``lit[cell, digit]`` is the literal of that cell holding that digit (0 for digit 0, a blank);
    ``cell_of[var]`` and ``digit_of[var]`` read a cell variable back (index 0 unused).
    """

    n: int
    lit: np.ndarray
    cell_of: np.ndarray
    digit_of: np.ndarray

    def assumptions(self, givens: np.ndarray) -> tuple[list[int], list[int]]:
        """The givens' literals of k puzzles ((k, cells) array) as one flat list, and k + 1 offsets:
        puzzle i assumes ``flat[offsets[i]:offsets[i + 1]]``, row-major as ``LiteralTable.assumptions``."""
        import numpy as np

        mask = givens != 0
        flat = self.lit[np.arange(self.n * self.n), givens.astype(np.intp)][mask]
        offsets = np.zeros(len(givens) + 1, dtype=np.int64)
        np.cumsum(mask.sum(axis=1), out=offsets[1:])
        return flat.tolist(), offsets.tolist()

    def decode(self, positives: np.ndarray) -> np.ndarray | None:
        """The grids of models given as their true cell literals in order ((k, cells) array), or
        None unless every row holds exactly one literal per cell, cell by cell."""
        import numpy as np

        cells = self.n * self.n
        if positives.ndim != 2 or positives.shape[1] != cells or positives.size and (
                positives.min() < 1 or positives.max() > self.n**3):
            return None
        if not (self.cell_of[positives] == np.arange(cells)).all():
            return None
        return self.digit_of[positives]


@cache
def literal_arrays(n: int) -> LiteralArrays:
    """The numpy literal tables of an n x n board, derived from ``literal_table`` (numpy imported here only)."""
    import numpy as np

    table = literal_table(n)
    lit = np.array(table.given, dtype=np.int32).reshape(n * n, n + 1)
    digit_of = np.array(table.digit_of, dtype=np.uint8)
    cell_of = np.full(n**3 + 1, -1, dtype=np.int32)
    cells, digits = np.nonzero(lit)
    cell_of[lit[cells, digits]] = cells
    return LiteralArrays(n, lit, cell_of, digit_of)


@cache
def literal_table(n: int) -> LiteralTable:
    """The flat literal tables of an n x n board, derived from ``variables.literal`` once per size."""
    given = [0] * (n * n * (n + 1))
    digit_of = [0] * (variables.count(n) + 1)
    for cell in range(n * n):
        for digit in range(1, n + 1):
            lit = variables.literal(n, cell, digit)
            given[cell * (n + 1) + digit] = lit
            digit_of[lit] = digit
    offsets = tuple(cell * (n + 1) for cell in range(n * n))
    return LiteralTable(n, tuple(given), offsets, tuple(digit_of))


def grid_from_model(
    n: int, model: Sequence[int] | set[int], givens: Grid | None = None, free: frozenset[int] | None = None
) -> Grid:
    """Decode any model: given cells from the givens, the others from their true cell variables.

    ``free`` limits the variables read (None: every cell variable). The ``reduced`` encoding needs
    it: the variables the givens decide are in no clause, so a solver may set them either way,
    and only the free variables and the givens say what the grid is.
    Raises ValueError when a cell gets no digit or two.
    """
    top = variables.count(n)
    true = {lit for lit in model if 0 < lit <= top and (free is None or lit in free)}
    grid = []
    for cell in range(n * n):
        if givens is not None and givens[cell]:
            grid.append(givens[cell])
            continue
        digits = [d for d in range(1, n + 1) if variables.literal(n, cell, d) in true]
        if len(digits) != 1:
            raise ValueError(f"the model gives {cell_words(cell, n, comma=True)} the digits {digits}")
        grid.append(digits[0])
    return tuple(grid)
