"""The CP model of Sudoku for OR-Tools CP-SAT, built from a puzzle's rules (``sudokulab.core.rules``).

Two models of the same rules, one constraint per rule so their sizes follow a formula: the default
**AllDifferent** model (an integer 1..n per cell, ``AllDifferent`` per group, ``!=`` per differing
pair, linear constraints for cages and thermometers) and **Booleans** (``boolean_rules``: n**3
Booleans, exactly-/at-most-ones, the SAT view); any other kind comes through the shared lowering.
``rules`` writes the model proto through OR-Tools' compiled layer (``cp_model_helper``), which keeps
pandas and numpy out of a cold start; ``build_model`` writes the same model through the ``cp_model``
API, as lessons read. Models depend on the rules only, so each is built once per ``Rules`` and
``Prepared`` rewrites a private copy's given domains per puzzle. This module solves nothing;
``sudokulab.solvers.cpsat.solver`` runs the models.

Each model's constraints and sizes: docs/cpsat.md.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ortools.sat.python import cp_model_helper as cmh

from ...core import variables
from ...core.cells import cell_label
from ...core.grid import Grid, Shape
from ...core.puzzle import Puzzle
from ...core.rules import KINDS, Rules, standard
from ...errors import UsageError
from ..lowering import Lowered, Pair, lower

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

INT_MIN, INT_MAX = -(2**63), 2**63 - 1
"""The ends of CP-SAT's domains, as ``cp_model`` writes an open side (``x != y``, ``x < y``)."""

CACHED = 32
"""Rule sets whose models stay built: standard shapes and the variants of a session."""

NATIVE = frozenset(KINDS)
"""The rule kinds both models state natively; any other comes in the lowering's forms."""


def rule_set(what: Rules | Shape) -> Rules:
    """The rules themselves, or a shape's standard rules."""
    return standard(what) if isinstance(what, Shape) else what


def cell_name(shape: Shape, cell: int) -> str:
    """The name of a cell's variable in the model: its ``cell_label`` (``r1c1`` is the top-left corner).

    >>> cell_name(Shape(3, 3), 80)
    'r9c9'
    """
    return cell_label(cell, shape.n)


def model_name(what: Rules | Shape) -> str:
    """The name the model carries: ``sudoku 9x9 (3x3 boxes)``, and the presets of a variant."""
    rules = rule_set(what)
    shape = rules.shape
    name = f"sudoku {shape.n}x{shape.n} ({shape.box_rows}x{shape.box_cols} boxes)"
    return name if rules.is_standard else f"{name}, rules: {', '.join(rules.presets)}"


def pair_names(rules: Rules) -> Iterator[tuple[int, int, str]]:
    """Each differing pair of ``rules.pairs`` (in that order) with its constraint's name: ``anti-knight r1c3 r2c5``."""
    named: dict[tuple[int, int], str] = {}
    for differ in rules.differ:
        for a, b in differ.pairs:
            named.setdefault((min(a, b), max(a, b)), differ.name)
    for a, b in rules.pairs:
        yield a, b, f"{named[a, b]} {cell_name(rules.shape, a)} {cell_name(rules.shape, b)}"


def thermo_steps(rules: Rules) -> Iterator[tuple[int, int, str]]:
    """Each step (lower cell, higher cell) along every thermometer, named ``thermometer 2 step 1``."""
    for thermo in rules.thermos:
        for step, (a, b) in enumerate(zip(thermo.cells, thermo.cells[1:])):
            yield a, b, f"{thermo.name} step {step + 1}"


def pair_tables(forms: Lowered) -> list[tuple[int, int, list[tuple[int, int]], str]]:
    """The forbidden pairs per two cells, as one table each: (a, b, the (digit of a, digit of b) pairs,
    a name), in the order first met; each pair written with its cells in that order."""
    found: dict[tuple[int, int], tuple[list[tuple[int, int]], str]] = {}
    pair: Pair
    for pair in forms.pairs:
        name, (a, x), (b, y) = pair
        if (b, a) in found:
            a, b, x, y = b, a, y, x
        found.setdefault((a, b), ([], name))[0].append((x, y))
    return [(a, b, sorted(values), name) for (a, b), (values, name) in found.items()]


def _intervals(values: Sequence[int]) -> list[int]:
    """Sorted values as the flat [start, end, start, end, ...] of a CP-SAT domain."""
    flat: list[int] = []
    for value in sorted(values):
        if flat and flat[-1] == value - 1:
            flat[-1] = value
        else:
            flat += [value, value]
    return flat


def model_size(what: Rules | Shape, booleans: bool = False) -> tuple[int, int]:
    """(variables, constraints) of a model by formula, before CP-SAT's presolve.

    AllDifferent: n**2 integers, one constraint per group, differing pair, cage and thermometer
    step. Booleans: n**3 variables, an exactly-one per cell, one constraint per (group, digit) and
    (pair, digit), and one per cage and thermometer step. The lowering's forms: one constraint per
    ruled-out placement; per two cells with forbidden pairs one table (AllDifferent) or one per pair
    (Booleans); per allowed sets of k cells and m sets, m Booleans and 2 + m*k constraints
    (AllDifferent) or 1 + m*k + k*n (Booleans).

    >>> model_size(Shape(3, 3)), model_size(Shape(3, 3), booleans=True)
    ((81, 27), (729, 324))
    """
    rules = rule_set(what)
    n = rules.n
    linear = len(rules.cages) + sum(len(t.cells) - 1 for t in rules.thermos)
    forms = lower(rules, NATIVE)
    selectors = sum(len(s.sets) for s in forms.sets)
    spread = sum(len(s.sets) * len(s.cells) for s in forms.sets)
    if booleans:
        lowered = len(forms.ruled_out) + len(forms.pairs) + sum(1 + len(s.cells) * n for s in forms.sets) + spread
        return n**3 + selectors, n * n + n * (len(rules.groups) + len(rules.pairs)) + linear + lowered
    lowered = len(forms.ruled_out) + len(pair_tables(forms)) + 2 * len(forms.sets) + spread
    return n * n + selectors, len(rules.groups) + len(rules.pairs) + linear + lowered


@dataclass(frozen=True)
class CpSatModel:
    """A model built with the ``cp_model`` API and its cell variables (``cells[i]`` is the variable of cell i)."""

    rules: Rules
    model: cp_model.CpModel
    cells: tuple[cp_model.IntVar, ...]

    @property
    def shape(self) -> Shape:
        return self.rules.shape

    @property
    def size(self) -> tuple[int, int]:
        """(variables, constraints) of the model as built, before CP-SAT's presolve."""
        proto = self.model.proto
        return len(proto.variables), len(proto.constraints)


def build_model(puzzle: Puzzle | Rules | Shape, canonical: bool = False) -> CpSatModel:
    """Build the AllDifferent model anew with the ``cp_model`` API: the givens are the domains of their variables.

    Rules (or a Shape, for standard Sudoku) instead of a Puzzle give the bare rules (every cell
    1..n). This is the plain way, and what the prepared path saves; see docs/cpsat.md.
    """
    from ortools.sat.python import cp_model  # pandas and numpy come with it: only for this way

    rules = puzzle.rules if isinstance(puzzle, Puzzle) else rule_set(puzzle)
    shape = rules.shape
    givens = puzzle.givens if isinstance(puzzle, Puzzle) else (0,) * shape.cells
    n = shape.n
    model = cp_model.CpModel()
    model.name = model_name(rules)
    cells = tuple(
        model.new_int_var(given or 1, given or n, cell_name(shape, cell)) for cell, given in enumerate(givens)
    )
    for group in rules.groups:
        model.add_all_different([cells[cell] for cell in group.cells]).with_name(group.name)
    for a, b, name in pair_names(rules):
        model.add(cells[a] != cells[b]).with_name(name)
    for cage in rules.cages:
        model.add(sum(cells[cell] for cell in cage.cells) == cage.total).with_name(cage.name)
    for a, b, name in thermo_steps(rules):
        model.add(cells[a] < cells[b]).with_name(name)
    forms = lower(rules, NATIVE)
    for cell, digit in forms.ruled_out:
        model.add(cells[cell] != digit).with_name(f"ruled out {cell_name(shape, cell)}={digit}")
    for a, b, values, name in pair_tables(forms):
        model.add_forbidden_assignments([cells[a], cells[b]], values).with_name(f"{name} {cell_name(shape, a)} "
                                                                                 f"{cell_name(shape, b)}")
    for allowed in forms.sets:
        chosen = [model.new_bool_var(f"{allowed.name} set {i + 1}") for i in range(len(allowed.sets))]
        model.add_exactly_one(chosen).with_name(allowed.name)
        model.add_all_different([cells[cell] for cell in allowed.cells]).with_name(f"{allowed.name} digits differ")
        for flag, digits in zip(chosen, allowed.sets):
            domain = cp_model.Domain.from_values(digits)
            for cell in allowed.cells:
                model.add_linear_expression_in_domain(cells[cell], domain).only_enforce_if(flag)
    if canonical:
        model.add_decision_strategy(cells, cp_model.CHOOSE_FIRST, cp_model.SELECT_MIN_VALUE)
    return CpSatModel(rules, model, cells)


def _term(exprs: Any, variable: int) -> None:
    """Append the linear expression ``1 * variable`` to a repeated ``LinearExpressionProto`` field."""
    expr = exprs.add()
    expr.vars.append(variable)
    expr.coeffs.append(1)


def _linear(proto: cmh.CpModelProto, name: str, terms: Sequence[tuple[int, int]], domain: Sequence[int]) -> None:
    """Append the constraint ``sum of coeff * variable in domain`` (``terms``: (variable, coeff) pairs),
    variables in increasing order as the ``cp_model`` API writes them."""
    terms = sorted(terms)
    constraint = proto.constraints.add()
    constraint.name = name
    linear = constraint.linear
    linear.vars.extend(variable for variable, _ in terms)
    linear.coeffs.extend(coeff for _, coeff in terms)
    linear.domain.extend(domain)


def rules(what: Rules | Shape, canonical: bool = False) -> cmh.CpModelProto:
    """The AllDifferent model of a rule set as a ``CpModelProto``, built once and shared: treat as
    read-only (copy, then change). A Shape stands for its standard rules.

    Cell i is variable i; the proto is the one ``build_model(rules, canonical).model.proto`` holds.

    >>> proto = rules(Shape(2, 2))
    >>> len(proto.variables), len(proto.constraints), proto.constraints[11].name  # no negative indices on these protos
    (16, 12, 'box 4')
    """
    return _alldiff(rule_set(what), canonical)


@lru_cache(maxsize=CACHED)
def _alldiff(rules: Rules, canonical: bool) -> cmh.CpModelProto:
    shape = rules.shape
    n = shape.n
    proto = cmh.CpModelProto()
    proto.name = model_name(rules)
    for cell in range(shape.cells):
        variable = proto.variables.add()
        variable.name = cell_name(shape, cell)
        variable.domain.extend((1, n))
    for group in rules.groups:
        constraint = proto.constraints.add()
        constraint.name = group.name
        exprs = constraint.all_diff.exprs
        for cell in group.cells:
            _term(exprs, cell)
    for a, b, name in pair_names(rules):
        _linear(proto, name, ((a, 1), (b, -1)), (INT_MIN, -1, 1, INT_MAX))  # a - b != 0
    for cage in rules.cages:
        _linear(proto, cage.name, [(cell, 1) for cell in cage.cells], (cage.total, cage.total))
    for a, b, name in thermo_steps(rules):
        _linear(proto, name, ((a, 1), (b, -1)), (INT_MIN, -1))  # a - b <= -1
    forms = lower(rules, NATIVE)
    for cell, digit in forms.ruled_out:
        _linear(proto, f"ruled out {cell_name(shape, cell)}={digit}", ((cell, 1),), (INT_MIN, digit - 1, digit + 1,
                                                                                      INT_MAX))
    for a, b, values, name in pair_tables(forms):
        constraint = proto.constraints.add()
        constraint.name = f"{name} {cell_name(shape, a)} {cell_name(shape, b)}"
        table = constraint.table
        table.values.extend(v for pair in values for v in pair)
        table.negated = True
        _term(table.exprs, a)
        _term(table.exprs, b)
    for allowed in forms.sets:
        first = len(proto.variables)
        for i in range(len(allowed.sets)):
            variable = proto.variables.add()
            variable.name = f"{allowed.name} set {i + 1}"
            variable.domain.extend((0, 1))
        constraint = proto.constraints.add()
        constraint.name = allowed.name
        constraint.exactly_one.literals.extend(range(first, first + len(allowed.sets)))
        constraint = proto.constraints.add()
        constraint.name = f"{allowed.name} digits differ"
        for cell in allowed.cells:
            _term(constraint.all_diff.exprs, cell)
        for i, digits in enumerate(allowed.sets):
            for cell in allowed.cells:
                constraint = proto.constraints.add()
                constraint.enforcement_literal.append(first + i)
                constraint.linear.vars.append(cell)
                constraint.linear.coeffs.append(1)
                constraint.linear.domain.extend(_intervals(digits))
    if canonical:
        strategy = proto.search_strategy.add()
        for cell in range(shape.cells):
            _term(strategy.exprs, cell)
        strategy.variable_selection_strategy = cmh.DecisionStrategyProto.CHOOSE_FIRST
        strategy.domain_reduction_strategy = cmh.DecisionStrategyProto.SELECT_MIN_VALUE
    return proto


def boolean_literal(n: int, cell: int, digit: int) -> int:
    """The variable of "cell holds digit" (1..n) in the Boolean model: ``core.variables.index``.

    >>> boolean_literal(9, 0, 1), boolean_literal(9, 80, 9)
    (0, 728)
    """
    return variables.index(n, cell, digit)


def boolean_rules(what: Rules | Shape) -> cmh.CpModelProto:
    """The rules as n**3 Booleans (exactly-ones, at-most-ones and linear constraints:
    docs/cpsat.md), built once per rule set. A Shape stands for its standard rules.

    For standard Sudoku, the SAT view: what CP-SAT's presolve makes of the AllDifferent model
    anyway (each AllDifferent of n variables over n values expanded into exactly-ones), given to it
    directly so that presolve has less to do. Treat as read-only, as ``rules``.
    """
    return _booleans(rule_set(what))


@lru_cache(maxsize=CACHED)
def _booleans(rules: Rules) -> cmh.CpModelProto:
    shape = rules.shape
    n = shape.n
    digits = range(1, n + 1)
    var = variables.index
    proto = cmh.CpModelProto()
    proto.name = model_name(rules) + ", Booleans"
    for cell in range(shape.cells):
        name = cell_name(shape, cell)
        for digit in digits:
            variable = proto.variables.add()
            variable.name = f"{name}={digit}"
            variable.domain.extend((0, 1))
    for cell in range(shape.cells):
        constraint = proto.constraints.add()
        constraint.name = cell_name(shape, cell)
        constraint.exactly_one.literals.extend(var(n, cell, digit) for digit in digits)
    for group in rules.groups:
        complete = len(group.cells) == n
        for digit in digits:
            constraint = proto.constraints.add()
            constraint.name = f"{group.name} digit {digit}"
            literals = constraint.exactly_one.literals if complete else constraint.at_most_one.literals
            literals.extend(var(n, cell, digit) for cell in group.cells)
    for a, b, name in pair_names(rules):
        for digit in digits:
            constraint = proto.constraints.add()
            constraint.name = f"{name} digit {digit}"
            constraint.at_most_one.literals.extend((var(n, a, digit), var(n, b, digit)))
    for cage in rules.cages:
        terms = [(var(n, cell, digit), digit) for cell in cage.cells for digit in digits]
        _linear(proto, cage.name, terms, (cage.total, cage.total))
    for a, b, name in thermo_steps(rules):
        terms = [(var(n, b, digit), digit) for digit in digits] + [(var(n, a, digit), -digit) for digit in digits]
        _linear(proto, name, terms, (1, INT_MAX))  # digit of b - digit of a >= 1
    forms = lower(rules, NATIVE)
    for cell, digit in forms.ruled_out:
        constraint = proto.constraints.add()
        constraint.name = f"ruled out {cell_name(shape, cell)}={digit}"
        constraint.bool_or.literals.append(-var(n, cell, digit) - 1)  # not x (CP-SAT's negation: -index - 1)
    for name, (a, x), (b, y) in forms.pairs:
        constraint = proto.constraints.add()
        constraint.name = f"{name} {cell_name(shape, a)}={x} {cell_name(shape, b)}={y}"
        constraint.at_most_one.literals.extend((var(n, a, x), var(n, b, y)))
    for allowed in forms.sets:
        first = len(proto.variables)
        for i in range(len(allowed.sets)):
            variable = proto.variables.add()
            variable.name = f"{allowed.name} set {i + 1}"
            variable.domain.extend((0, 1))
        constraint = proto.constraints.add()
        constraint.name = allowed.name
        constraint.exactly_one.literals.extend(range(first, first + len(allowed.sets)))
        for i, chosen in enumerate(allowed.sets):  # a chosen set's digits all appear in the cells
            for digit in chosen:
                constraint = proto.constraints.add()
                constraint.enforcement_literal.append(first + i)
                constraint.bool_or.literals.extend(var(n, cell, digit) for cell in allowed.cells)
        for cell in allowed.cells:  # and a cell's digit is in the chosen set
            for digit in digits:
                constraint = proto.constraints.add()
                constraint.bool_or.literals.append(-var(n, cell, digit) - 1)
                constraint.bool_or.literals.extend(first + i for i, chosen in enumerate(allowed.sets)
                                                   if digit in chosen)
    return proto


MODELS = ("booleans", "alldiff")
"""The model shapes a solve can use: ``boolean_rules`` or ``rules`` (AllDifferent)."""


class Prepared:
    """A private copy of a rule set's model whose givens are rewritten for each puzzle.

    Setting a puzzle resets the domains the previous puzzle fixed and fixes the new givens: about
    two writes per given, against building the whole model anew. With ``booleans`` the model is
    ``boolean_rules`` and a given fixes its cell-digit variable to 1; otherwise ``rules`` and a given
    fixes its cell's domain. A Shape stands for its standard rules. One instance is not
    thread-safe; keep one per solver.
    """

    def __init__(self, what: Rules | Shape, canonical: bool = False, booleans: bool = False):
        if canonical and booleans:
            raise ValueError("the canonical search is over the cells' integer variables: use the AllDifferent model")
        self.rules = rule_set(what)
        shape = self.shape = self.rules.shape
        source = boolean_rules(self.rules) if booleans else rules(self.rules, canonical)
        self.booleans = booleans
        self.model = cmh.CpModelProto()
        self.model.copy_from(source)  # a deep copy (``copy.copy`` of these protos returns the same object)
        self.size = len(source.variables), len(source.constraints)
        """(variables, constraints) of the model as built, before CP-SAT's presolve."""
        n = self._n = shape.n
        self.indices = tuple(range(shape.cells))
        """Proto index of each cell's variable, row-major: the model's own variable map (``rules``);
        in the Boolean model, the index of the cell's variable for digit 1."""
        self._variable: tuple[tuple[int, ...], ...] = ()  # Booleans: [cell][digit] -> variable, from the map
        if booleans:
            self._variable = tuple(
                (-1, *(variables.index(n, cell, digit) for digit in range(1, n + 1))) for cell in range(shape.cells)
            )
            self.indices = tuple(row[1] for row in self._variable)
        self._in_order = not booleans and self.indices == tuple(range(len(self.model.variables)))
        model_variables = self.model.variables
        self._domains = [model_variables[index].domain for index in range(len(model_variables))]
        self._fixed: list[int] = []

    def set_givens(self, givens: Grid | Sequence[int]) -> cmh.CpModelProto:
        """Point the model at a puzzle's givens (same shape) and return it."""
        domains, n = self._domains, self._n
        if self.booleans:
            for index in self._fixed:
                domains[index][0] = 0
            table = self._variable
            fixed = [table[cell][given] for cell, given in enumerate(givens) if given]
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
            for row, given in zip(self._variable, givens or itertools.repeat(0, len(self._variable))):
                if not given:
                    given = 1
                    while given < n and not solution[row[given]]:
                        given += 1
                grid.append(given)
            return tuple(grid)
        return tuple(solution[index] for index in self.indices)


EXPORT_OPTIONS = ("canonical", "model")


def to_cpsat_text(puzzle: Puzzle, **options: Any) -> str:
    """The puzzle's model, under its rules, as CP-SAT text proto (``CpModelProto``), for ``sudokulab export``.

    Read it back with ``google.protobuf.text_format.Parse(text, cp_model_pb2.CpModelProto())``
    or ``CpModel().proto.parse_text_format(text)``. The option ``canonical=true`` adds the
    row-major, smallest-value-first decision strategy (the solver then needs FIXED_SEARCH);
    ``model=booleans`` writes the Boolean model instead of the AllDifferent one (``model=alldiff``).

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
    model = str(options.get("model", "alldiff")).strip().lower()
    if model not in MODELS:
        raise UsageError(f"option model of the cpsat format cannot be '{model}'; choose one of: {', '.join(MODELS)}")
    if canonical and model == "booleans":
        raise UsageError("option canonical=true needs model=alldiff: the canonical search is over the cells' integers")
    shape, rules_ = puzzle.shape, puzzle.rules
    about = str(shape) if rules_.is_standard else rules_.describe()
    header = f"# sudokulab CP-SAT model (CpModelProto text format): {about}, {shape.cells - puzzle.blanks} givens\n"
    text = str(Prepared(rules_, canonical, booleans=model == "booleans").set_givens(puzzle.givens))
    return header + text + ("" if text.endswith("\n") else "\n")
