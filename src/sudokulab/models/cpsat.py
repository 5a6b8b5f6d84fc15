"""The CP model of Sudoku for OR-Tools CP-SAT: one integer variable per cell, AllDifferent per unit.

- **Variables**: cell ``i`` (row-major) is integer variable ``i`` of the model, domain 1..n, named
  ``r1c1``..``rNcN`` (1-based, as in every message). A given fixes its cell's domain to one value.
- **Constraints**: one ``AllDifferent`` per row, column and box (3n of them), named after the unit.
  With n variables over n values each is a permutation; CP-SAT's presolve notices and expands it
  into Boolean "exactly one" constraints (cell has one digit, digit has one place), the SAT view.
- **Canonical search** (optional): a decision strategy over the cells in row-major order, smallest
  value first; the solver uses it to reproduce the classic backtracker's answer.

Two ways to write the same model. ``rules(shape)`` writes the ``CpModelProto`` (OR-Tools' model
schema, ``ortools/sat/cp_model.proto``) field by field with the compiled protos of
``ortools.sat.python.cp_model_helper``, the layer under the ``cp_model`` API. ``build_model`` uses
the ``cp_model`` API itself (``CpModel``, ``new_int_var``, ``add_all_different``), the way lessons
and OR-Tools' samples read. Both give the same proto text (tested). The solver and ``export`` use
the first because importing ``cp_model`` also imports pandas and numpy, several times the cost of
a 9x9 solve (README, "Start-up time"); ``build_model`` imports it when called.

The rules depend on the board shape only, so ``rules(shape)`` builds them once per shape and
``Prepared`` re-points a private copy at each puzzle by rewriting the domains of the given cells,
instead of rebuilding 81 variables and 27 constraints through Python every time (``build_model``,
the fresh-per-puzzle way, stays for comparison and for lessons). This module builds models and
solves nothing; ``sudokulab.solvers.cpsat`` runs them.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from ortools.sat.python import cp_model_helper as cmh

from ..errors import UsageError
from ..grid import Grid, Puzzle, Shape, units

if TYPE_CHECKING:
    from ortools.sat.python import cp_model


def cell_name(shape: Shape, cell: int) -> str:
    """The variable name of a cell, 1-based: ``r1c1`` is the top-left corner.

    >>> cell_name(Shape(3, 3), 80)
    'r9c9'
    """
    row, col = divmod(cell, shape.n)
    return f"r{row + 1}c{col + 1}"


def model_name(shape: Shape) -> str:
    """The name the model carries, e.g. ``sudoku 9x9 (3x3 boxes)``."""
    return f"sudoku {shape.n}x{shape.n} ({shape.box_rows}x{shape.box_cols} boxes)"


@dataclass(frozen=True)
class CpSatModel:
    """A model built with the ``cp_model`` API and its cell variables (``cells[i]`` is the variable of cell i)."""

    shape: Shape
    model: cp_model.CpModel
    cells: tuple[cp_model.IntVar, ...]

    @property
    def size(self) -> tuple[int, int]:
        """(variables, constraints) of the model as built, before CP-SAT's presolve."""
        proto = self.model.proto
        return len(proto.variables), len(proto.constraints)


def build_model(puzzle: Puzzle | Shape, canonical: bool = False) -> CpSatModel:
    """Build the model from scratch with the ``cp_model`` API: the givens are the domains of their variables.

    A Shape instead of a Puzzle gives the bare rules (every cell 1..n). This is the plain way, and
    what the prepared path saves; see the module docstring.
    """
    from ortools.sat.python import cp_model  # pandas and numpy come with it: only for this way

    shape = puzzle if isinstance(puzzle, Shape) else puzzle.shape
    givens = (0,) * shape.cells if isinstance(puzzle, Shape) else puzzle.givens
    n = shape.n
    model = cp_model.CpModel()
    model.name = model_name(shape)
    cells = tuple(
        model.new_int_var(given or 1, given or n, cell_name(shape, cell)) for cell, given in enumerate(givens)
    )
    for kind, index, unit in units(shape).named():
        model.add_all_different([cells[cell] for cell in unit]).with_name(f"{kind} {index + 1}")
    if canonical:
        model.add_decision_strategy(cells, cp_model.CHOOSE_FIRST, cp_model.SELECT_MIN_VALUE)
    return CpSatModel(shape, model, cells)


def _term(exprs: Any, variable: int) -> None:
    """Append the linear expression ``1 * variable`` to a repeated ``LinearExpressionProto`` field."""
    expr = exprs.add()
    expr.vars.append(variable)
    expr.coeffs.append(1)


@cache
def rules(shape: Shape, canonical: bool = False) -> cmh.CpModelProto:
    """The rules of a shape as a ``CpModelProto``, built once and shared: treat as read-only (copy, then change).

    Cell i is variable i; the proto is the one ``build_model(shape, canonical).model.proto`` holds.
    """
    n = shape.n
    proto = cmh.CpModelProto()
    proto.name = model_name(shape)
    for cell in range(shape.cells):
        variable = proto.variables.add()
        variable.name = cell_name(shape, cell)
        variable.domain.extend((1, n))
    for kind, index, unit in units(shape).named():
        constraint = proto.constraints.add()
        constraint.name = f"{kind} {index + 1}"
        exprs = constraint.all_diff.exprs
        for cell in unit:
            _term(exprs, cell)
    if canonical:
        strategy = proto.search_strategy.add()
        for cell in range(shape.cells):
            _term(strategy.exprs, cell)
        strategy.variable_selection_strategy = cmh.DecisionStrategyProto.CHOOSE_FIRST
        strategy.domain_reduction_strategy = cmh.DecisionStrategyProto.SELECT_MIN_VALUE
    return proto


def boolean_literal(n: int, cell: int, digit: int) -> int:
    """The variable of "cell holds digit" (1..n) in the Boolean model: ``cell * n + digit - 1``.

    >>> boolean_literal(9, 0, 1), boolean_literal(9, 80, 9)
    (0, 728)
    """
    return cell * n + digit - 1


@cache
def boolean_rules(shape: Shape) -> cmh.CpModelProto:
    """The rules as n**3 Booleans with ``exactly_one`` per cell and per unit and digit; built once per shape.

    The SAT view: what CP-SAT's presolve makes of the AllDifferent model anyway (each AllDifferent
    of n variables over n values expanded into exactly-ones), given to it directly so that
    presolve has less to do. Treat as read-only, as ``rules``.
    """
    n = shape.n
    proto = cmh.CpModelProto()
    proto.name = model_name(shape) + ", Booleans"
    for cell in range(shape.cells):
        name = cell_name(shape, cell)
        for digit in range(1, n + 1):
            variable = proto.variables.add()
            variable.name = f"{name}={digit}"
            variable.domain.extend((0, 1))
    for cell in range(shape.cells):
        constraint = proto.constraints.add()
        constraint.name = cell_name(shape, cell)
        constraint.exactly_one.literals.extend(boolean_literal(n, cell, digit) for digit in range(1, n + 1))
    for kind, index, unit in units(shape).named():
        for digit in range(1, n + 1):
            constraint = proto.constraints.add()
            constraint.name = f"{kind} {index + 1} digit {digit}"
            constraint.exactly_one.literals.extend(boolean_literal(n, cell, digit) for cell in unit)
    return proto


MODELS = ("booleans", "alldiff")
"""The model shapes a solve can use: ``boolean_rules`` or ``rules`` (AllDifferent)."""


class Prepared:
    """A private copy of a shape's rules whose givens are rewritten for each puzzle.

    Setting a puzzle resets the domains the previous puzzle fixed and fixes the new givens: about
    two writes per given, against building the whole model anew. With ``booleans`` the model is
    ``boolean_rules`` and a given fixes its cell-digit variable to 1; otherwise ``rules`` and a given
    fixes its cell's domain. One instance is not thread-safe; keep one per solver.
    """

    def __init__(self, shape: Shape, canonical: bool = False, booleans: bool = False):
        if canonical and booleans:
            raise ValueError("the canonical search is over the cells' integer variables: use the AllDifferent model")
        source = boolean_rules(shape) if booleans else rules(shape, canonical)
        self.shape = shape
        self.booleans = booleans
        self.model = cmh.CpModelProto()
        self.model.copy_from(source)  # a deep copy (``copy.copy`` of these protos returns the same object)
        self.size = len(source.variables), len(source.constraints)
        """(variables, constraints) of the model as built, before CP-SAT's presolve."""
        self._n = shape.n
        self.indices = tuple(range(shape.cells))
        """Proto index of each cell's variable, row-major: the model's own variable map (``rules``);
        in the Boolean model, the index of the cell's variable for digit 1."""
        if booleans:
            self.indices = tuple(boolean_literal(shape.n, cell, 1) for cell in range(shape.cells))
        self._in_order = not booleans and self.indices == tuple(range(len(self.model.variables)))
        variables = self.model.variables
        self._domains = [variables[index].domain for index in range(len(variables))]
        self._fixed: list[int] = []

    def set_givens(self, givens: Grid | Sequence[int]) -> cmh.CpModelProto:
        """Point the model at a puzzle's givens (same shape) and return it."""
        domains, n = self._domains, self._n
        if self.booleans:
            for index in self._fixed:
                domains[index][0] = 0
            fixed = [cell * n + given - 1 for cell, given in enumerate(givens) if given]
            for index in fixed:
                domains[index][0] = 1
        else:
            for cell in self._fixed:
                domain = domains[cell]
                domain[0] = 1
                domain[1] = n
            fixed = [cell for cell, given in enumerate(givens) if given]
            for cell in fixed:
                domain = domains[cell]
                domain[0] = domain[1] = givens[cell]
        self._fixed = fixed
        return self.model

    def decode(self, solution: Sequence[int], givens: Grid | Sequence[int] | None = None) -> Grid:
        """The grid of a CP-SAT solution vector (``response.solution``), read through the variable map.

        Boolean model: given cells (``givens``) are not read, and a blank cell's Booleans are read
        in digit order up to the first true one, the last never (a solution has one true per cell):
        each read of ``response.solution`` is a call into the compiled layer, 729 of them more
        than a tenth of a 9x9 solve, and this halves them.
        """
        if self._in_order:
            return tuple(solution)  # the cells are the model's only variables, in cell order
        if self.booleans:
            n = self._n
            grid = []
            base = 0
            for given in givens or itertools.repeat(0, len(self.indices)):
                if not given:
                    given = 1
                    while given < n and not solution[base + given - 1]:
                        given += 1
                grid.append(given)
                base += n
            return tuple(grid)
        return tuple(solution[index] for index in self.indices)


EXPORT_OPTIONS = ("canonical",)


def to_cpsat_text(puzzle: Puzzle, **options: Any) -> str:
    """The puzzle's model as CP-SAT text proto (``CpModelProto``), for ``sudokulab export``.

    Read it back with ``google.protobuf.text_format.Parse(text, cp_model_pb2.CpModelProto())``
    or ``CpModel().proto.parse_text_format(text)``. The option ``canonical=true`` adds the
    row-major, smallest-value-first decision strategy (the solver then needs FIXED_SEARCH).

    >>> text = to_cpsat_text(Puzzle.empty(4))
    >>> text.count("variables {"), text.count("all_diff {")
    (16, 12)
    """
    unknown = sorted(set(options) - set(EXPORT_OPTIONS))
    if unknown:
        raise UsageError(
            f"the cpsat format takes no option '{unknown[0]}'; its options: {', '.join(EXPORT_OPTIONS)}"
        )
    canonical = options.get("canonical", False)
    if not isinstance(canonical, bool):
        raise UsageError(f"option canonical must be true or false, not '{canonical}'")
    shape = puzzle.shape
    header = f"# sudokulab CP-SAT model (CpModelProto text format): {shape}, {shape.cells - puzzle.blanks} givens\n"
    text = str(Prepared(shape, canonical).set_givens(puzzle.givens))
    return header + text + ("" if text.endswith("\n") else "\n")
