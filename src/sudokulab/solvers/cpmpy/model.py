"""The declarative model of CPMpy, built from a puzzle's rules: one ``Model``, any CPMpy backend runs it.

One integer per cell, ``intvar(1, n, shape=(n, n))`` named ``x``, so cell (r, c) prints as
``x[r,c]`` (0-based, CPMpy's naming). Each rule kind is one CPMpy expression, as a person writes
it (``AllDifferent``, ``!=``, ``sum == total``, ``<``); any other kind, and any of these a backend
does not take (``native``), comes in the forms of the shared lowering. Givens are kept apart from
the rules: ``given_constraints`` (``x[r,c] == d``) to post with them, or ``Indicators`` (``b -> (x
== d)``) so a backend that takes assumptions is built once per rule set. Which of the two a backend
gets is the solver's choice (``solvers.cpmpy.solver``); this module builds models, once per
``Rules`` value, and solves nothing.

Each kind's expression: docs/cpmpy.md ("The model").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import cpmpy as cp
from cpmpy.transformations.get_variables import get_variables_model

from ...core.grid import Grid
from ...core.puzzle import Puzzle
from ...core.rules import ALL_DIFFERENT, DIFFER, INCREASING, KINDS, SUM, Rules
from ...errors import UsageError
from ..lowering import lower


@dataclass(frozen=True)
class RuleModel:
    """The rules of a puzzle as CPMpy expressions over one grid of integers ``cells`` (n x n)."""

    rules: Rules
    cells: Any  # cpmpy NDVarArray, shape (n, n)
    constraints: tuple[Any, ...]

    def var(self, cell: int) -> Any:
        """The integer variable of a row-major cell index."""
        n = self.rules.n
        return self.cells[cell // n, cell % n]

    @cached_property
    def size(self) -> tuple[int, int]:
        """CPMpy's size of the rules' model: (variables, constraints); each given adds one constraint."""
        return size(self.model())

    def given_constraints(self, givens: Sequence[int]) -> list[Any]:
        """``x[r,c] == d`` for every given of a puzzle."""
        return [self.var(cell) == digit for cell, digit in enumerate(givens) if digit]

    def grid(self) -> Grid:
        """The grid the last solve assigned (row-major)."""
        return tuple(int(v) for v in self.cells.value().flatten())

    def model(self, givens: Sequence[int] = ()) -> cp.Model:
        """The CPMpy ``Model`` of these rules, with the givens as equalities when there are any."""
        return cp.Model(*self.constraints, *self.given_constraints(givens))


def _cells(rules: Rules, grid: Any, cells: Sequence[int]) -> list[Any]:
    n = rules.n
    return [grid[c // n, c % n] for c in cells]


NATIVE = frozenset(KINDS)
"""The rule kinds the model states natively, where the backend takes them (``rule_model``'s ``native``)."""


def rule_model(rules: Rules, native: frozenset[str] = NATIVE) -> RuleModel:
    """The CPMpy expressions of a rule set: one per group, pair, cage and thermometer step of the kinds in
    ``native``, and the lowering's forms of the others (module docstring).

    Built afresh on each call: CPMpy keeps a solved value inside each variable object, so two solver
    instances (two threads, two backends) must never share variables; each keeps its own model.
    """
    n = rules.n
    grid = cp.intvar(1, n, shape=(n, n), name="x")
    native = native & NATIVE
    constraints: list[Any] = [cp.AllDifferent(_cells(rules, grid, group.cells)) for group in rules.groups]
    if DIFFER in native:
        constraints += [grid[a // n, a % n] != grid[b // n, b % n] for a, b in rules.pairs]
    if SUM in native:
        constraints += [cp.sum(_cells(rules, grid, cage.cells)) == cage.total for cage in rules.cages]
    if INCREASING in native:
        for thermo in rules.thermos:
            steps = _cells(rules, grid, thermo.cells)
            constraints += [low < high for low, high in zip(steps, steps[1:])]
    forms = lower(rules, native | {ALL_DIFFERENT})
    constraints += [grid[c // n, c % n] != d for c, d in forms.ruled_out]
    constraints += [(grid[a // n, a % n] != x) | (grid[b // n, b % n] != y) for _, (a, x), (b, y) in forms.pairs]
    for allowed in forms.sets:
        cells = _cells(rules, grid, allowed.cells)
        constraints.append(cp.AllDifferent(cells))
        constraints.append(cp.any([cp.all([cp.InDomain(v, list(digits)) for v in cells]) for digits in allowed.sets]))
    return RuleModel(rules, grid, tuple(constraints))


@dataclass(frozen=True)
class Indicators:
    """One Boolean per (cell, digit) with ``b -> (x == d)``: a given becomes an assumption literal.

    Posted once with the rules; the half-reification leaves a literal that is not assumed free, so
    one solver serves every puzzle of the rule set (and the canonical loop's tries) unchanged.
    """

    flags: Any  # cpmpy NDVarArray of Booleans, shape (cells, n)
    constraints: tuple[Any, ...]

    def literals(self, placed: Sequence[tuple[int, int]]) -> list[Any]:
        """The assumption literals of ``(cell, digit)`` placements."""
        return [self.flags[cell, digit - 1] for cell, digit in placed]


def indicators(model: RuleModel) -> Indicators:
    """The indicator Booleans of a rule model (built fresh: each solver posts its own)."""
    n, cells = model.rules.n, model.rules.shape.cells
    flags = cp.boolvar(shape=(cells, n), name="given")
    links = tuple(flags[cell, digit - 1].implies(model.var(cell) == digit)
                  for cell in range(cells) for digit in range(1, n + 1))
    return Indicators(flags, links)


def size(model: cp.Model) -> tuple[int, int]:
    """CPMpy's own size of a model: (variables, top-level constraints), before any backend transforms it."""
    return len(get_variables_model(model)), len(model.constraints)


EXPORT_OPTIONS = ()


def to_cpmpy_text(puzzle: Puzzle, **options: Any) -> str:
    """The puzzle's CPMpy model as CPMpy prints it (``print(model)``), for ``sudokulab export --format cpmpy``.

    >>> text = to_cpmpy_text(Puzzle.empty(4))
    >>> text.splitlines()[0]
    '# sudokulab CPMpy model: 4x4 board with 2x2 boxes, 0 givens; 16 variables, 12 constraints'
    >>> text.count("alldifferent(")
    12
    """
    if options:
        raise UsageError(f"the cpmpy format takes no option '{sorted(options)[0]}'; it has none")
    rules = puzzle.rules
    model = rule_model(rules).model(puzzle.givens)
    variables, constraints = size(model)
    about = str(puzzle.shape) if rules.is_standard else rules.describe()
    header = (f"# sudokulab CPMpy model: {about}, {puzzle.shape.cells - puzzle.blanks} givens; "
              f"{variables} variables, {constraints} constraints\n")
    return header + str(model) + "\n"
