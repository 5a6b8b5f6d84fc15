"""The 0-1 integer program of Sudoku, built from a puzzle's rules: one binary per (cell, digit), one row per rule.

``x[r, c, d] = 1`` when row r, column c holds digit d (numbered by ``core.variables.index``); one
equality per cell and per (complete group, digit), ``<= 1`` rows for partial groups and differing
pairs, a linear equality per cage sum and a linear inequality per thermometer step, written with
``sum_d d * x[c, d]``; any other kind in the forms of the shared lowering. For standard Sudoku that
is the classic formulation (Bartlett et al., "An Integer Programming Model for the Sudoku Problem",
J. Online Math. and its Applications, 2008). Givens are bounds, not rows, so ``rules`` builds the
rows once per ``Rules`` and a puzzle is the rows plus ``fixed``; there is no objective. ``to_lp``
and ``to_mps`` write the model for any MIP solver. This module solves nothing;
``sudokulab.solvers.mip.solver`` runs it.

Each row's form and name, and the road not taken: docs/solvers.md ("Integer programming").
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ...core import variables
from ...core.cells import cell_label
from ...core.grid import Shape
from ...core.puzzle import Puzzle
from ...core.rules import KINDS, Group, Rules, standard
from ...errors import UsageError
from ..lowering import lower

SENSES = ("=", "<=", ">=")
"""A row's relation to its right-hand side."""

SHORT = {"column": "col", "diagonal": "diag"}
"""Row-name stems that differ from the group kind's word (``column 3`` -> ``col3``)."""

CACHED = 32
"""Rule sets whose rows stay built: standard shapes and the variants of a session."""

NATIVE = frozenset(KINDS)
"""The rule kinds the program states natively; any other comes in the lowering's forms."""


def rule_set(what: Rules | Shape) -> Rules:
    """The rules themselves, or a shape's standard rules."""
    return standard(what) if isinstance(what, Shape) else what


def var_index(shape: Shape, row: int, col: int, digit: int) -> int:
    """The column of ``x[row, col, digit]`` (0-based row and column, digit 1..n): ``variables.index``.

    >>> var_index(Shape(3, 3), 0, 0, 1), var_index(Shape(3, 3), 8, 8, 9)
    (0, 728)
    """
    return variables.index(shape.n, row * shape.n + col, digit)


def var_name(shape: Shape, index: int) -> str:
    """The 1-based name of a column: ``x{row}_{col}_{digit}``.

    >>> var_name(Shape(3, 3), 4)
    'x1_1_5'
    """
    cell, digit = variables.cell_digit(shape.n, index)
    row, col = divmod(cell, shape.n)
    return f"x{row + 1}_{col + 1}_{digit}"


def model_size(what: Rules | Shape) -> tuple[int, int]:
    """(variables, rows) by formula: n**3 binaries; n**2 cell rows, n per group and per differing
    pair, one per cage and per thermometer step (4 * n**2 for standard Sudoku); and of the
    lowering's forms, a row per ruled-out placement and per forbidden pair, and per allowed sets of
    m sets, m binaries and n + 1 rows.

    >>> model_size(Shape(3, 3))
    (729, 324)
    """
    rules = rule_set(what)
    n = rules.n
    steps = sum(len(t.cells) - 1 for t in rules.thermos)
    forms = lower(rules, NATIVE)
    lowered = len(forms.ruled_out) + len(forms.pairs) + (n + 1) * len(forms.sets)
    return (n**3 + sum(len(s.sets) for s in forms.sets),
            n * n + n * (len(rules.groups) + len(rules.pairs)) + len(rules.cages) + steps + lowered)


@dataclass(frozen=True)
class Constraint:
    """One row: ``sum of coeffs[i] * x[terms[i]]`` (``sense``) ``rhs``; ``coeffs`` empty means all 1."""

    name: str
    terms: tuple[int, ...]
    sense: str = "="
    rhs: int = 1
    coeffs: tuple[int, ...] = ()

    @property
    def coefficients(self) -> tuple[int, ...]:
        """The coefficient of each term, written out."""
        return self.coeffs or (1,) * len(self.terms)

    def words(self, names: tuple[str, ...]) -> list[str]:
        """The left-hand side as signed terms, in LP-file form: ``x1_1_1``, ``+ 2 x1_1_2``, ``- x2_1_1``."""
        words = []
        for term, coeff in zip(self.terms, self.coefficients):
            size = "" if abs(coeff) == 1 else f"{abs(coeff)} "
            sign = "-" if coeff < 0 else "+"
            words.append(f"{sign} {size}{names[term]}" if words else f"{'-' if coeff < 0 else ''}{size}{names[term]}")
        return words

    def text(self, names: tuple[str, ...]) -> str:
        """The row in the variables' names: ``x1_1_1 + 2 x1_1_2 - x2_1_1 >= 1``."""
        return " ".join(self.words(names)) + f" {self.sense} {self.rhs}"


@dataclass(frozen=True)
class Program:
    """The rows of a rule set: variable names and constraints, shared by every puzzle under those rules."""

    rules: Rules
    names: tuple[str, ...]
    constraints: tuple[Constraint, ...]

    @property
    def shape(self) -> Shape:
        return self.rules.shape


def _stem(group: Group, index: int) -> str:
    """A group's row-name stem: ``row3``, ``col3``, ``box3``, ``diag1``, ``cage7`` (index: its place in ``groups``)."""
    words = group.name.split()
    kind = re.sub(r"[^a-z]", "", words[0].lower())
    number = words[1] if len(words) > 1 and words[1].isdigit() else str(index + 1)
    return f"{SHORT.get(kind, kind) or 'group'}{number}"


def rules(what: Rules | Shape) -> Program:
    """The variables and rows of a rule set, built once per ``Rules`` value (a Shape: its standard rules).

    Rows in the order: cells, then per group (rows, columns, boxes, ...) its digits, then per
    differing pair its digits, cage sums, thermometer steps.
    """
    return _program(rule_set(what))


@lru_cache(maxsize=CACHED)
def _program(rules: Rules) -> Program:
    shape = rules.shape
    n = shape.n
    digits = range(1, n + 1)
    var = variables.index
    names = tuple(var_name(shape, i) for i in range(variables.count(n)))
    made = [
        Constraint(f"cell{r + 1}_{c + 1}", tuple(var(n, r * n + c, d) for d in digits))
        for r in range(n)
        for c in range(n)
    ]
    for index, group in enumerate(rules.groups):
        stem, sense = _stem(group, index), "=" if len(group.cells) == n else "<="
        for d in digits:
            made.append(Constraint(f"{stem}_d{d}", tuple(var(n, cell, d) for cell in group.cells), sense))
    for a, b in rules.pairs:
        stem = f"differ_{cell_label(a, n)}_{cell_label(b, n)}"
        for d in digits:
            made.append(Constraint(f"{stem}_d{d}", (var(n, a, d), var(n, b, d)), "<="))
    for index, cage in enumerate(rules.cages):
        terms = tuple(var(n, cell, d) for cell in cage.cells for d in digits)
        made.append(Constraint(f"sum{index + 1}", terms, "=", cage.total, tuple(d for _ in cage.cells for d in digits)))
    for index, thermo in enumerate(rules.thermos):
        for step, (a, b) in enumerate(zip(thermo.cells, thermo.cells[1:])):
            terms = tuple(var(n, b, d) for d in digits) + tuple(var(n, a, d) for d in digits)
            coeffs = tuple(digits) + tuple(-d for d in digits)
            made.append(Constraint(f"thermo{index + 1}_{step + 1}", terms, ">=", 1, coeffs))
    forms = lower(rules, NATIVE)
    made += [Constraint(f"out_{cell_label(cell, n)}_d{d}", (var(n, cell, d),), "=", 0) for cell, d in forms.ruled_out]
    made += [Constraint(f"pair_{cell_label(a, n)}_d{x}_{cell_label(b, n)}_d{y}", (var(n, a, x), var(n, b, y)), "<=")
             for _, (a, x), (b, y) in forms.pairs]
    more = []
    for k, allowed in enumerate(forms.sets, 1):
        first = len(names) + len(more)
        more += [f"s{k}_{i + 1}" for i in range(len(allowed.sets))]
        made.append(Constraint(f"set{k}", tuple(range(first, first + len(allowed.sets)))))
        for d in digits:
            chosen = tuple(first + i for i, held in enumerate(allowed.sets) if d in held)
            made.append(Constraint(f"set{k}_d{d}", tuple(var(n, cell, d) for cell in allowed.cells) + chosen, "=", 0,
                                   (1,) * len(allowed.cells) + (-1,) * len(chosen)))
    names += tuple(more)
    if len({c.name for c in made}) != len(made):  # group names of a person's making may collide
        made = [Constraint(f"r{i + 1}_{c.name}", c.terms, c.sense, c.rhs, c.coeffs) for i, c in enumerate(made)]
    return Program(rules, names, tuple(made))


@dataclass(frozen=True)
class MipModel:
    """A puzzle's 0-1 program: the rows of its rules plus the columns its givens fix to 1."""

    rules: Program
    fixed: tuple[int, ...]

    @property
    def shape(self) -> Shape:
        return self.rules.shape

    @property
    def size(self) -> tuple[int, int]:
        """(variables, constraints), the givens not counted as rows (they are bounds)."""
        return len(self.rules.names), len(self.rules.constraints)

    def lower_bounds(self) -> list[int]:
        """Lower bound of every column: 1 where a given fixes it, else 0 (upper bounds are all 1)."""
        lower = [0] * len(self.rules.names)
        for index in self.fixed:
            lower[index] = 1
        return lower

    def describe(self) -> str:
        """A few readable lines for a lesson: the size and the first constraint of each kind."""
        variables_, _ = self.size
        equalities = sum(c.sense == "=" for c in self.rules.constraints)
        others = len(self.rules.constraints) - equalities
        lines = [f"0-1 model of a {self.shape}: {variables_} binaries, {equalities} equalities"
                 + (f", {others} inequalities" if others else "")
                 + f", {len(self.fixed)} fixed to 1 by givens"]
        seen: set[tuple[str, str]] = set()
        for constraint in self.rules.constraints:
            kind = (re.match(r"[a-z]*", constraint.name).group(), constraint.sense)  # type: ignore[union-attr]
            if kind not in seen:
                seen.add(kind)
                lines.append(f"  {constraint.name}: {constraint.text(self.rules.names)}")
        return "\n".join(lines)


def fixed_columns(puzzle: Puzzle) -> tuple[int, ...]:
    """The columns a puzzle's givens fix to 1, in cell order."""
    n = puzzle.n
    return tuple(variables.index(n, cell, digit) for cell, digit in enumerate(puzzle.givens) if digit)


def build_model(puzzle: Puzzle) -> MipModel:
    """The 0-1 program of a puzzle under its rules (no objective).

    >>> model = build_model(Puzzle.empty(4))
    >>> model.size, len(model.fixed), model.rules.constraints[0]
    ((64, 64), 0, Constraint(name='cell1_1', terms=(0, 1, 2, 3), sense='=', rhs=1, coeffs=()))
    """
    return MipModel(rules(puzzle.rules), fixed_columns(puzzle))


def _check_options(fmt: str, options: dict[str, Any], allowed: dict[str, tuple[str, ...]]) -> dict[str, str]:
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        taken = ", ".join(allowed) or "none"
        raise UsageError(f"the {fmt} format takes no option '{unknown[0]}'; its options: {taken}")
    checked = {}
    for key, choices in allowed.items():
        value = str(options.get(key, choices[0])).strip().lower()
        if value not in choices:
            valid = ", ".join(choices)
            raise UsageError(f"option {key} of the {fmt} format cannot be '{value}'; choose one of: {valid}")
        checked[key] = value
    return checked


def _wrapped(words: list[str], indent: str = "   ", width: int = 100) -> Iterator[str]:
    """Lines of at most ``width`` characters (LP readers limit line length: CPLEX to 510)."""
    line = ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            yield line
            line = indent + word
        else:
            line = f"{line} {word}" if line else word
    if line:
        yield line


def _header(model: MipModel, puzzle: Puzzle) -> str:
    rules_ = puzzle.rules
    about = str(model.shape) if rules_.is_standard else rules_.describe()
    return f"sudokulab 0-1 model: {about}, {len(model.fixed)} givens"


def to_lp(puzzle: Puzzle, **options: Any) -> str:
    """The model under the puzzle's rules in CPLEX LP format, read by SCIP, HiGHS, CBC, Gurobi, CPLEX,
    OR-Tools and others.

    The objective is an explicit zero (``obj: 0 x1_1_1``: some readers refuse an empty one). A
    given is a ``Bounds`` line ``x = 1``, and its column is declared in ``Generals`` rather than
    ``Binaries``, since readers disagree on whether a binary keeps an explicit bound.

    >>> text = to_lp(Puzzle.from_rows([[1, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4]))
    >>> text.count(" = 1\\n"), "x1_1_1 = 1" in text
    (65, True)
    """
    _check_options("lp", options, {})
    model = build_model(puzzle)
    names = model.rules.names
    lines = [f"\\ {_header(model, puzzle)}", "Minimize", f" obj: 0 {names[0]}", "Subject To"]
    for constraint in model.rules.constraints:
        terms = [f" {constraint.name}:", *constraint.words(names)]
        terms[-1] += f" {constraint.sense} {constraint.rhs}"
        lines.extend(_wrapped(terms))
    fixed = set(model.fixed)
    lines.append("Bounds")
    lines.extend(f" {names[i]} = 1" for i in model.fixed)
    lines.append("Binaries")
    lines.extend(_wrapped([names[i] for i in range(len(names)) if i not in fixed], indent=" "))
    if fixed:
        lines.append("Generals")
        lines.extend(_wrapped([names[i] for i in model.fixed], indent=" "))
    lines.append("End")
    return "\n".join(lines) + "\n"


MPS_ROW_TYPE = {"=": "E", "<=": "L", ">=": "G"}
"""A row's sense -> its type in the ROWS section of an MPS file."""


def to_mps(puzzle: Puzzle, **options: Any) -> str:
    """The model under the puzzle's rules in MPS format: ``style=free`` (default, names of any
    length) or ``style=fixed``.

    Fixed MPS puts names in 8-character fields, so it is offered only where every name fits: boards
    up to 9x9 under standard rules (the longest names, ``cell9_9`` and ``x9_9_9``, fit), not the
    longer row names of most variants (``window1_d1``). Columns sit between INTORG/INTEND markers
    with ``BV`` bounds (binary); givens get ``FX`` bounds at 1 instead. The objective row ``obj`` is
    empty (all zero).

    >>> text = to_mps(Puzzle.empty(4), style="fixed")
    >>> text.splitlines()[1], text.count(" BV BND ")
    ('NAME          SUDOKU', 64)
    """
    style = _check_options("mps", options, {"style": ("free", "fixed")})["style"]
    model = build_model(puzzle)
    names, shape = model.rules.names, model.shape
    if style == "fixed":
        if shape.n > 9:
            raise UsageError(f"fixed MPS holds names of 8 characters, too short for a {shape}; use style=free")
        long = next((c.name for c in model.rules.constraints if len(c.name) > 8), None)
        if long is not None:
            raise UsageError(f"fixed MPS holds names of 8 characters, too short for the row '{long}'; use style=free")

    def card(*fields: str) -> str:
        if style == "free":
            return " " + " ".join(fields)
        code, rest = fields[0], fields[1:]
        widths = (10, 10, 15, 10)  # fields start at columns 5, 15, 25 and 40
        return (f" {code:<2} " + "".join(f"{f:<{w}}" for f, w in zip(rest, widths))).rstrip()

    def column_card(name: str, row: str, value: str) -> str:
        if style == "free":
            return f" {name} {row} {value}"
        return f"    {name:<10}{row:<10}{value}"

    rows_of: list[list[tuple[str, int]]] = [[] for _ in names]
    for constraint in model.rules.constraints:
        for i, coeff in zip(constraint.terms, constraint.coefficients):
            rows_of[i].append((constraint.name, coeff))
    lines = [f"* {_header(model, puzzle)}", "NAME          SUDOKU", "ROWS", card("N", "obj")]
    lines.extend(card(MPS_ROW_TYPE[c.sense], c.name) for c in model.rules.constraints)
    lines.append("COLUMNS")
    lines.append(column_card("MARKER", "'MARKER'", " " * 15 + "'INTORG'" if style == "fixed" else "'INTORG'"))
    for i, name in enumerate(names):
        lines.extend(column_card(name, row, str(coeff)) for row, coeff in rows_of[i])
    lines.append(column_card("MARKER", "'MARKER'", " " * 15 + "'INTEND'" if style == "fixed" else "'INTEND'"))
    lines.append("RHS")
    lines.extend(column_card("RHS", constraint.name, str(constraint.rhs)) for constraint in model.rules.constraints)
    lines.append("BOUNDS")
    fixed = set(model.fixed)
    for i, name in enumerate(names):
        lines.append(card("FX", "BND", name, "1") if i in fixed else card("BV", "BND", name))
    lines.append("ENDATA")
    return "\n".join(lines) + "\n"
