"""The CNF encodings of Sudoku: clauses only, no solver.

Vocabulary:

- **Literal** of (row, col, digit): a DIMACS variable, true when the cell holds the digit. It is
  computed by ``literal`` and read back by ``decode_literal``, and nowhere else: every table below
  is derived from ``literal``. Rows and columns are 0-based, digits 1..n, and
  ``literal = row*n*n + col*n + digit``, so variables 1..n**3 are the cells and any auxiliary
  variable of a cardinality encoding comes after them.
- **Group**: the literals of which exactly one (ALO: at least one; AMO: at most one) must hold:
  the n digits of a cell, or the n cells of a unit that may hold one digit.
- **Encoding** (which groups get which half):

  ============  =====================  ===========================
  name          at least one (ALO)     at most one (AMO)
  ============  =====================  ===========================
  ``minimal``   cells                  row/column/box digits
  ``efficient`` cells                  cells, row/column/box digits
  ``extended``  cells, units' digits   cells, row/column/box digits
  ``reduced``   ``extended`` with what the givens decide removed
  ============  =====================  ===========================

  The first three are from I. Lynce and J. Ouaknine, "Sudoku as a SAT Problem", ISAIM 2006; their
  9x9 counts (8,829, 11,745 and 11,988 clauses with pairwise AMO) are what ``counts`` gives.
  ``reduced`` is the optimised encoding of G. Kwon and H. Jain, "Optimized CNF Encoding for Sudoku
  Puzzles", LPAR 2006: the extended encoding with the literals the givens make true or false
  substituted away, so satisfied clauses and false literals are dropped.
- **AMO encoding**: ``pairwise`` (one binary clause per pair, no new variables) or any
  ``pysat.card`` encoding of "at most one" (``seqcounter``, ``ladder``, ``bitwise``, ...), which
  adds auxiliary variables to use fewer clauses.

The rules of a shape depend on the shape alone, so ``rules`` builds them once per (shape,
encoding, amo) and a puzzle's givens are assumptions (or unit clauses in a DIMACS file). Only
``reduced`` depends on the givens, so it is a formula per puzzle, built by ``reduced_formula``.

How big a formula will be, from closed forms and before anything is built, is ``models.cnf_size``
(its functions are importable from here too); DIMACS text, in and out, is ``models.dimacs``.

>>> from sudokulab.grid import Shape
>>> f = rules(Shape(3, 3), "extended")
>>> f.variables, len(f.clauses), counts(9, "extended")
(729, 11988, (729, 11988))
>>> decode_literal(9, literal(9, 8, 8, 9))
(8, 8, 9)
"""

from __future__ import annotations

import gc
import itertools
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from ..errors import UsageError
from ..grid import Grid, Puzzle, Shape, first_conflict, units
from .cnf_size import MAX_CLAUSES as MAX_CLAUSES  # the sizes are re-exported: callers say cnf.counts(...)
from .cnf_size import amo_cost as amo_cost
from .cnf_size import check_size as check_size
from .cnf_size import clause_count as clause_count
from .cnf_size import counts as counts
from .cnf_size import reduced_counts as reduced_counts
from .cnf_size import reduced_group_sizes as reduced_group_sizes

ENCODINGS = ("minimal", "efficient", "extended", "reduced")
"""Every encoding, weakest first."""

AMO_ENCODINGS = (
    "pairwise", "seqcounter", "ladder", "bitwise", "kmtotalizer", "totalizer", "mtotalizer", "sortnetwrk",
    "cardnetwrk",
)
"""At-most-one encodings: ``pairwise`` built here, the others by ``pysat.card`` under these names."""

if TYPE_CHECKING:
    import numpy as np

Clause = list[int]


# --- The literal map: the only place a literal is computed. ---------------------------------------

def literal(n: int, row: int, col: int, digit: int) -> int:
    """The variable true when the cell at 0-based (row, col) holds ``digit`` (1..n).

    >>> literal(9, 0, 0, 1), literal(9, 0, 1, 1), literal(9, 8, 8, 9)
    (1, 10, 729)
    """
    return (row * n + col) * n + digit


def decode_literal(n: int, lit: int) -> tuple[int, int, int]:
    """The (row, col, digit) a cell variable stands for; the inverse of ``literal``.

    >>> decode_literal(9, 10)
    (0, 1, 1)
    """
    if not 1 <= lit <= n**3:
        raise ValueError(f"{lit} is not a cell variable of a {n}x{n} board (1..{n**3})")
    cell, digit = divmod(lit - 1, n)
    row, col = divmod(cell, n)
    return row, col, digit + 1


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
    """The flat literal tables of an n x n board, derived from ``literal`` once per size."""
    given = [0] * (n * n * (n + 1))
    digit_of = [0] * (n**3 + 1)
    for row in range(n):
        for col in range(n):
            for digit in range(1, n + 1):
                lit = literal(n, row, col, digit)
                given[(row * n + col) * (n + 1) + digit] = lit
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
    true = {lit for lit in model if 0 < lit <= n**3 and (free is None or lit in free)}
    grid = []
    for cell in range(n * n):
        row, col = divmod(cell, n)
        if givens is not None and givens[cell]:
            grid.append(givens[cell])
            continue
        digits = [d for d in range(1, n + 1) if literal(n, row, col, d) in true]
        if len(digits) != 1:
            raise ValueError(f"the model gives row {row + 1}, column {col + 1} the digits {digits}")
        grid.append(digits[0])
    return tuple(grid)


# --- Groups and at-most-one encodings. -----------------------------------------------------------

def _cell_groups(n: int) -> list[list[int]]:
    return [[literal(n, r, c, d) for d in range(1, n + 1)] for r in range(n) for c in range(n)]


def _unit_groups(shape: Shape) -> list[list[int]]:
    """For each unit (rows, then columns, then boxes) and digit: the literals of that digit there."""
    n = shape.n
    u = units(shape)
    return [
        [literal(n, *divmod(cell, n), d) for cell in unit]
        for unit in u.rows + u.cols + u.boxes
        for d in range(1, n + 1)
    ]


def check_options(encoding: str, amo: str) -> None:
    """Refuse an unknown encoding or AMO encoding, naming the valid ones."""
    if encoding not in ENCODINGS:
        raise UsageError(f"unknown encoding '{encoding}'; choose one of: {', '.join(ENCODINGS)}")
    if amo not in AMO_ENCODINGS:
        raise UsageError(f"unknown at-most-one encoding '{amo}'; choose one of: {', '.join(AMO_ENCODINGS)}")


def at_most_one(lits: Sequence[int], amo: str, top: int) -> tuple[list[Clause], int]:
    """Clauses saying at most one of ``lits`` holds, and the new top variable (aux vars after top)."""
    if amo == "pairwise":
        return [[a, b] for a, b in itertools.combinations([-lit for lit in lits], 2)], top
    if len(lits) < 2:
        return [], top
    from pysat.card import CardEnc, EncType  # a model needs pysat.card only off the default path

    cnf = CardEnc.atmost(list(lits), bound=1, top_id=top, encoding=getattr(EncType, amo))
    return cnf.clauses, max(top, cnf.nv)


# --- Formulas. ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Formula:
    """Clauses over the literal map plus auxiliary variables numbered from n**3 + 1 to ``top``.

    ``variables`` counts the variables that occur in some clause: ``top`` for the shape-wide
    encodings, fewer for ``reduced``, which leaves the decided cell variables out; its ``free``
    names the cell variables it keeps (None: all of them), the only ones a model may be read on.
    """

    shape: Shape
    encoding: str
    amo: str
    clauses: tuple[Sequence[int], ...]
    top: int
    variables: int
    free: frozenset[int] | None = None

    @property
    def per_puzzle(self) -> bool:
        """True when the formula already holds one puzzle's givens (``reduced``): no assumptions."""
        return self.free is not None

    def assumptions(self, givens: Grid) -> list[int]:
        """The literals to assume for a puzzle's givens (none when the formula holds them)."""
        return [] if self.per_puzzle else literal_table(self.shape.n).assumptions(givens)

    def literal(self, cell: int, digit: int) -> int | None:
        """The literal of "cell holds digit", or None when the formula has decided it false."""
        n = self.shape.n
        lit = literal_table(n).given[cell * (n + 1) + digit]
        return lit if self.free is None or lit in self.free else None

    def decode(self, model: Sequence[int], givens: Grid) -> Grid:
        """The grid of a model of this formula (plus the givens' assumptions, if any)."""
        if self.free is None:
            grid = literal_table(self.shape.n).decode(model)
            if len(grid) == len(givens):
                return grid
        return grid_from_model(self.shape.n, model, givens, self.free)

    def blocking_clause(self, grid: Grid, givens: Grid) -> list[int]:
        """The clause that excludes this solution's digits in the blank cells (for counting)."""
        n = self.shape.n
        given = literal_table(n).given
        return [-given[cell * (n + 1) + grid[cell]] for cell, digit in enumerate(givens) if not digit]

    def settled_by(self, implied: Sequence[int]) -> bool:
        """Whether literals implied by propagation give every cell its digit (shape-wide formulas)."""
        cells = self.shape.n ** 3
        return sum(1 for lit in implied if 0 < lit <= cells) == self.shape.cells


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause the garbage collector: the 750,000 small lists of a 25x25 formula would otherwise set
    off collections that free nothing and cost twice the build itself."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _build(
    shape: Shape, encoding: str, amo: str, alo: list[list[int]], amo_groups: list[list[int]], reduced: bool = False
) -> Formula:
    n = shape.n
    top = n**3
    clauses: list[Sequence[int]] = list(alo)
    with _collector_paused():
        for group in amo_groups:
            more, top = at_most_one(group, amo, top)
            clauses += more
    free = frozenset(lit for group in alo for lit in group) if reduced else None
    variables = top if free is None else len(free) + top - n**3
    return Formula(shape, encoding, amo, tuple(clauses), top, variables, free)


@cache
def rules(shape: Shape, encoding: str = "extended", amo: str = "pairwise") -> Formula:
    """The rules of a shape in one of the givens-free encodings; built once per arguments."""
    check_options(encoding, amo)
    if encoding == "reduced":
        raise UsageError("the reduced encoding depends on the givens: use reduced_formula(puzzle)")
    cells, unit_digits = _cell_groups(shape.n), _unit_groups(shape)
    alo = cells + unit_digits if encoding == "extended" else cells
    amo_groups = unit_digits if encoding == "minimal" else cells + unit_digits
    return _build(shape, encoding, amo, alo, amo_groups)


def candidate_groups(puzzle: Puzzle) -> list[list[int]] | None:
    """The groups of the reduced encoding, or None when the givens break a rule.

    A literal is decided by the givens when its cell is given (true for the given digit, false for
    the others) or a peer is given its digit (false). What is left: for each blank cell, its
    candidate digits; for each unit and digit not given in it, the cells that may take the digit.
    """
    if first_conflict(puzzle.givens, puzzle.shape) is not None:
        return None
    n, givens = puzzle.n, puzzle.givens
    u = units(puzzle.shape)
    unit_list = u.rows + u.cols + u.boxes
    placed = [{givens[cell] for cell in unit if givens[cell]} for unit in unit_list]
    placed_near: list[list[set[int]]] = [[] for _ in range(n * n)]
    for unit, digits in zip(unit_list, placed):
        for cell in unit:
            placed_near[cell].append(digits)

    def free(cell: int, digit: int) -> bool:
        return not givens[cell] and all(digit not in digits for digits in placed_near[cell])

    groups = [
        [literal(n, *divmod(cell, n), d) for d in range(1, n + 1) if free(cell, d)]
        for cell in range(n * n) if not givens[cell]
    ]
    groups += [
        [literal(n, *divmod(cell, n), d) for cell in unit if free(cell, d)]
        for unit, digits in zip(unit_list, placed)
        for d in range(1, n + 1) if d not in digits
    ]
    return groups


def reduced_formula(puzzle: Puzzle, amo: str = "pairwise") -> Formula:
    """The Kwon & Jain reduced encoding of one puzzle: the extended encoding minus what the givens decide.

    Every group left gets one ALO clause and an AMO (an empty group is the empty clause: no
    solution). Givens that break a rule give the formula of one empty clause. Given cells have
    no variable in any clause, so decode with their givens (``grid_from_model``).
    """
    check_options("reduced", amo)
    groups = candidate_groups(puzzle)
    if groups is None:
        return Formula(puzzle.shape, "reduced", amo, ((),), puzzle.n**3, 0, frozenset())
    return _build(puzzle.shape, "reduced", amo, groups, groups, reduced=True)


def formula(puzzle: Puzzle, encoding: str = "extended", amo: str = "pairwise") -> tuple[Formula, list[int]]:
    """The formula for a puzzle and the givens' literals to assume (none for ``reduced``)."""
    if encoding == "reduced":
        return reduced_formula(puzzle, amo), []
    return rules(puzzle.shape, encoding, amo), literal_table(puzzle.n).assumptions(puzzle.givens)
