"""The 0-1 integer program of Sudoku: one binary per (cell, digit), one equality per "exactly one".

- **Variables**: ``x[r, c, d] = 1`` when row r, column c holds digit d; n**3 of them, numbered by
  ``var_index`` (the one place that maps (row, col, digit) to a column), named ``x{r}_{c}_{d}``
  1-based (``x1_1_5``: row 1, column 1 holds 5).
- **Constraints**: every one is ``sum of some x = 1``, 4 * n**2 of them, n terms each:
  ``cell{r}_{c}`` (a cell holds one digit), ``row{r}_d{d}``, ``col{c}_d{d}``, ``box{b}_d{d}`` (a
  unit holds each digit once). The same rows as the "exactly one" clauses of the SAT encoding,
  written as linear equalities; the classic formulation of e.g. Bartlett et al., "An Integer
  Programming Model for the Sudoku Problem" (J. Online Math. and its Applications, 2008).
- **Givens** are bounds, not rows: a given d in (r, c) sets the lower bound of ``x[r, c, d]`` to 1;
  the equalities then force the cell's other digits and the digit's peers to 0. The rules depend on
  the shape only, so ``rules(shape)`` is built once and a puzzle is the rules plus ``fixed``.
  Road not taken: dropping the decided variables (givens and the digits their peers exclude) makes
  a smaller model, but its size then depends on the puzzle, givens that break a rule need special
  rows, and every MIP presolve removes fixed columns in microseconds anyway.
- **Objective**: none (a feasibility problem; a solver reports any solution as optimal).

``to_lp`` and ``to_mps`` write the model for any MIP solver. This module solves nothing;
``sudokulab.solvers.mip`` runs it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..errors import UsageError
from ..grid import Puzzle, Shape, units


def var_index(shape: Shape, row: int, col: int, digit: int) -> int:
    """The column of ``x[row, col, digit]`` (0-based row and column, digit 1..n): cell-major.

    >>> var_index(Shape(3, 3), 0, 0, 1), var_index(Shape(3, 3), 8, 8, 9)
    (0, 728)
    """
    n = shape.n
    return (row * n + col) * n + digit - 1


def var_name(shape: Shape, index: int) -> str:
    """The 1-based name of a column: ``x{row}_{col}_{digit}``.

    >>> var_name(Shape(3, 3), 4)
    'x1_1_5'
    """
    cell, digit0 = divmod(index, shape.n)
    row, col = divmod(cell, shape.n)
    return f"x{row + 1}_{col + 1}_{digit0 + 1}"


def model_size(shape: Shape) -> tuple[int, int]:
    """(variables, constraints) of the rules: n**3 binaries and 4 * n**2 equalities.

    >>> model_size(Shape(3, 3))
    (729, 324)
    """
    return shape.n**3, 4 * shape.n**2


@dataclass(frozen=True)
class Constraint:
    """One row: the sum of the variables in ``terms`` (coefficient 1 each) equals 1."""

    name: str
    terms: tuple[int, ...]


@dataclass(frozen=True)
class Rules:
    """The rules of a shape: variable names and the equalities, shared by every puzzle of it."""

    shape: Shape
    names: tuple[str, ...]
    constraints: tuple[Constraint, ...]


@cache
def rules(shape: Shape) -> Rules:
    """The variables and equalities of a shape, built once (cells, then rows, columns, boxes)."""
    n = shape.n
    names = tuple(var_name(shape, i) for i in range(n**3))
    made = [
        Constraint(f"cell{r + 1}_{c + 1}", tuple(var_index(shape, r, c, d) for d in range(1, n + 1)))
        for r in range(n)
        for c in range(n)
    ]
    table = units(shape)
    for kind, groups in (("row", table.rows), ("col", table.cols), ("box", table.boxes)):
        for i, unit in enumerate(groups):
            for d in range(1, n + 1):
                made.append(Constraint(f"{kind}{i + 1}_d{d}", tuple((cell * n) + d - 1 for cell in unit)))
    return Rules(shape, names, tuple(made))


@dataclass(frozen=True)
class MipModel:
    """A puzzle's 0-1 program: the shape's rules plus the columns its givens fix to 1."""

    rules: Rules
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
        variables, constraints = self.size
        lines = [f"0-1 model of a {self.shape}: {variables} binaries, {constraints} equalities, "
                 f"{len(self.fixed)} fixed to 1 by givens"]
        seen: set[str] = set()
        for constraint in self.rules.constraints:
            kind = constraint.name.rstrip("0123456789_d")
            if kind not in seen:
                seen.add(kind)
                lines.append(f"  {constraint.name}: {_sum(self.rules.names, constraint.terms)} = 1")
        return "\n".join(lines)


def fixed_columns(puzzle: Puzzle) -> tuple[int, ...]:
    """The columns a puzzle's givens fix to 1, in cell order."""
    n = puzzle.n
    return tuple(cell * n + digit - 1 for cell, digit in enumerate(puzzle.givens) if digit)


def build_model(puzzle: Puzzle) -> MipModel:
    """The 0-1 program of a puzzle (no objective).

    >>> model = build_model(Puzzle.empty(4))
    >>> model.size, len(model.fixed), model.rules.constraints[0]
    ((64, 64), 0, Constraint(name='cell1_1', terms=(0, 1, 2, 3)))
    """
    return MipModel(rules(puzzle.shape), fixed_columns(puzzle))


def _sum(names: tuple[str, ...], terms: tuple[int, ...]) -> str:
    return " + ".join(names[i] for i in terms)


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


def to_lp(puzzle: Puzzle, **options: Any) -> str:
    """The model in CPLEX LP format, read by SCIP, HiGHS, CBC, Gurobi, CPLEX, OR-Tools and others.

    The objective is an explicit zero (``obj: 0 x1_1_1``: some readers refuse an empty one). A
    given is a ``Bounds`` line ``x = 1``, and its column is declared in ``Generals`` rather than
    ``Binaries``, since readers disagree on whether a binary keeps an explicit bound.

    >>> text = to_lp(Puzzle.from_rows([[1, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4]))
    >>> text.count(" = 1\\n"), "x1_1_1 = 1" in text
    (65, True)
    """
    _check_options("lp", options, {})
    model = build_model(puzzle)
    names, shape = model.rules.names, model.shape
    lines = [f"\\ sudokulab 0-1 model: {shape}, {len(model.fixed)} givens", "Minimize", f" obj: 0 {names[0]}",
             "Subject To"]
    for constraint in model.rules.constraints:
        terms = [f" {constraint.name}:", names[constraint.terms[0]]]
        terms += [f"+ {names[i]}" for i in constraint.terms[1:]]
        terms[-1] += " = 1"
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


def to_mps(puzzle: Puzzle, **options: Any) -> str:
    """The model in MPS format: ``style=free`` (default, names of any length) or ``style=fixed``.

    Fixed MPS puts names in 8-character fields, so it is offered for boards up to 9x9 only (the
    longest names, ``cell9_9`` and ``x9_9_9``, fit). Columns sit between INTORG/INTEND markers with
    ``BV`` bounds (binary); givens get ``FX`` bounds at 1 instead. The objective row ``obj`` is
    empty (all zero).

    >>> text = to_mps(Puzzle.empty(4), style="fixed")
    >>> text.splitlines()[1], text.count(" BV BND ")
    ('NAME          SUDOKU', 64)
    """
    style = _check_options("mps", options, {"style": ("free", "fixed")})["style"]
    model = build_model(puzzle)
    names, shape = model.rules.names, model.shape
    if style == "fixed" and shape.n > 9:
        raise UsageError(f"fixed MPS holds names of 8 characters, too short for a {shape}; use style=free")

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

    rows_of: list[list[str]] = [[] for _ in names]
    for constraint in model.rules.constraints:
        for i in constraint.terms:
            rows_of[i].append(constraint.name)
    lines = [f"* sudokulab 0-1 model: {shape}, {len(model.fixed)} givens", "NAME          SUDOKU", "ROWS",
             card("N", "obj")]
    lines.extend(card("E", constraint.name) for constraint in model.rules.constraints)
    lines.append("COLUMNS")
    lines.append(column_card("MARKER", "'MARKER'", " " * 15 + "'INTORG'" if style == "fixed" else "'INTORG'"))
    for i, name in enumerate(names):
        lines.extend(column_card(name, row, "1") for row in rows_of[i])
    lines.append(column_card("MARKER", "'MARKER'", " " * 15 + "'INTEND'" if style == "fixed" else "'INTEND'"))
    lines.append("RHS")
    lines.extend(column_card("RHS", constraint.name, "1") for constraint in model.rules.constraints)
    lines.append("BOUNDS")
    fixed = set(model.fixed)
    for i, name in enumerate(names):
        lines.append(card("FX", "BND", name, "1") if i in fixed else card("BV", "BND", name))
    lines.append("ENDATA")
    return "\n".join(lines) + "\n"
