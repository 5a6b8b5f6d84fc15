"""The grader for a student's model of Sudoku: a SAT encoding (``encode``/``decode``) or a CP-SAT model (``build``).

A formula that misses a constraint still solves puzzles that have one solution, and an
over-constrained one only shows as "wrong answer" somewhere: so the grader looks at the model
itself. Its checks, each passed or failed with its reason in Sudoku words:

1. **models of the empty 4x4 board**: enumerated (up to ``LIMIT``), 288 expected, every one a valid
   grid. SAT models are enumerated with blocking clauses over the variables the student's
   ``decode`` reads: a variable true in a model is one whose flip changes the decoded grid, so
   auxiliary variables never inflate the count. A model that breaks a rule is the counterexample
   ("your formula allows r1c1 = 1 and r2c2 = 1 together, both in box 1"); a grid the formula
   forbids is named when there are too few.
2. **unsatisfiable puzzles**: a 4x4 with no completion, a 9x9 whose givens clash, a classic 9x9 with
   one wrong digit that breaks no rule yet: no model expected.
3. **answers**: random 4x4 and 6x6 puzzles, the BOJ 2580 sample and two 9x9 puzzles solved and
   decoded, each answer checked by ``grid.solution_error`` (the independent checker).
4. **propagation** (SAT only): how many cells unit propagation alone settles from the givens, on
   three 9x9 puzzles, beside the shipped ``minimal`` and ``extended`` encodings; weaker than
   ``minimal`` fails.
5. **size**: clauses and variables of the empty 9x9 beside the shipped encodings (reported, passed).

The student's code runs in this process (``student_code``): it is their own code on their machine.
"""

from __future__ import annotations

import inspect
import operator
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from ..core.cells import cell_label
from ..core.grid import Grid, Shape
from ..core.puzzle import Puzzle
from . import contract
from .student_code import StudentError, call, function

LIMIT = 1000
"""Models of the empty 4x4 counted at most (the 576 Latin squares of a formula without boxes fit)."""

EXPECTED = 288
"""Solutions of the empty 4x4 Sudoku."""


@dataclass(frozen=True)
class Finding:
    """One check's verdict: ``passed``, ``failed`` or ``skipped``, and the reason in words."""

    check: str
    status: str
    reason: str


# --- The student's model, SAT or CP, behind one interface. -----------------------------------------

def _grid(value: Any, puzzle: Puzzle, label: str) -> Grid:
    """A decoded grid as a flat tuple: n*n digits, or n rows of n; anything else is the student's error."""
    n = puzzle.n
    try:
        items = list(value)
        if len(items) == n and all(not isinstance(row, int | str) and len(row) == n for row in items):
            items = [digit for row in items for digit in row]
        digits = tuple(operator.index(digit) for digit in items)
    except TypeError:
        digits = ()
    if len(digits) != n * n:
        raise StudentError(f"{label}: decode returned {str(value)[:60]}, expected {n * n} digits (or {n} rows of {n})")
    return digits


class SatModel:
    """``encode(puzzle) -> clauses`` (or ``(clauses, variables)``) and ``decode(model[, puzzle]) -> grid``."""

    kind = "sat"
    stuck = False
    """Set when a model had no true variable that decode reads: it was blocked whole, auxiliaries
    included, so the count is of models rather than of grids (said as "at least")."""

    def __init__(self, module: ModuleType, label: str):
        self.module, self.label = module, label
        encode, decode = function(module, "encode"), function(module, "decode")
        if encode is None or decode is None:
            missing = " and ".join(name for name, f in (("encode(puzzle)", encode), ("decode(model, puzzle)", decode))
                                   if f is None)
            raise StudentError(f"{label}: defines no {missing} (see 'sudokulab check-encoding --template')")
        self.encode = encode
        try:
            takes_puzzle = len(inspect.signature(decode).parameters) >= 2
        except (TypeError, ValueError):
            takes_puzzle = True
        self._decode = decode if takes_puzzle else (lambda model, puzzle: decode(model))

    def formula(self, puzzle: Puzzle) -> tuple[list[list[int]], int]:
        """The student's clauses and their top variable, checked to be DIMACS clauses."""
        found = call(self.module, "encode", self.encode, puzzle)
        declared = None
        if isinstance(found, tuple) and len(found) == 2 and isinstance(found[1], int):
            found, declared = found
        try:
            clauses = [[operator.index(lit) for lit in clause] for clause in found]
        except TypeError:
            raise StudentError(f"{self.label}: encode must return a list of clauses (lists of ints)") from None
        for number, clause in enumerate(clauses, 1):
            if 0 in clause:
                raise StudentError(f"{self.label}: clause {number} of encode holds 0 (DIMACS ints are non-zero)")
        top = max((abs(lit) for clause in clauses for lit in clause), default=0)
        return clauses, max(top, declared or 0)

    def decode(self, model: list[int], puzzle: Puzzle) -> Grid:
        return _grid(call(self.module, "decode", self._decode, model, puzzle), puzzle, self.label)

    def decoded_variables(self, model: list[int], grid: Grid, puzzle: Puzzle) -> list[int]:
        """The true variables whose flip changes the decoded grid: the cell-digit variables decode reads."""
        found = []
        for index, lit in enumerate(model):
            if lit > 0:
                flipped = list(model)
                flipped[index] = -lit
                try:
                    changed = _grid(self._decode(flipped, puzzle), puzzle, self.label) != grid
                except Exception:  # noqa: BLE001 - a decode that fails without this variable reads it
                    changed = True
                if changed:
                    found.append(lit)
        return found

    def grids(self, puzzle: Puzzle, limit: int) -> Iterator[Grid]:
        """Decoded grids of distinct models, blocking each on the variables decode reads (up to ``limit``)."""
        from pysat.solvers import Solver

        clauses, top = self.formula(puzzle)
        with Solver(name="cadical153", bootstrap_with=clauses) as engine:
            for _ in range(2 * limit):
                if not engine.solve():
                    return
                model = engine.get_model() or []
                model = model + [-v for v in range(len(model) + 1, top + 1)]
                grid = self.decode(model, puzzle)
                yield grid
                read = self.decoded_variables(model, grid, puzzle)
                if not read:  # decode reads no true variable here (an empty grid): block the whole model
                    self.stuck = True
                    read = list(model)
                engine.add_clause([-v for v in read])

    def settled(self, puzzle: Puzzle) -> int:
        """Cells unit propagation settles from the unit clauses (the givens), on one solution's variables."""
        from pysat.solvers import Solver

        clauses, top = self.formula(puzzle)
        units = [clause[0] for clause in clauses if len(clause) == 1]
        with Solver(name="cadical153", bootstrap_with=[c for c in clauses if len(c) > 1]) as engine:
            consistent, implied = engine.propagate(assumptions=units)
            if not engine.solve(assumptions=units):
                return 0
            model = engine.get_model() or []
        model = model + [-v for v in range(len(model) + 1, top + 1)]
        grid = self.decode(model, puzzle)
        true = set(implied or ()) if consistent else set()
        return sum(1 for lit in self.decoded_variables(model, grid, puzzle) if lit in true)

    def size(self, puzzle: Puzzle) -> tuple[int, int]:
        clauses, top = self.formula(puzzle)
        return top, len(clauses)


class CpModel:
    """``build(puzzle) -> (cp_model.CpModel, decode)``, ``decode(values) -> grid`` (``values.Value(x)``)."""

    kind = "cp"

    def __init__(self, module: ModuleType, label: str):
        self.module, self.label = module, label
        self.build = function(module, "build")
        if self.build is None:
            raise StudentError(f"{label}: defines no build(puzzle) (see 'sudokulab check-encoding --template cp')")

    def model(self, puzzle: Puzzle) -> tuple[Any, Callable[[Any], Any]]:
        built = call(self.module, "build", self.build, puzzle)
        if not (isinstance(built, tuple) and len(built) == 2 and callable(built[1])):
            raise StudentError(f"{self.label}: build must return (model, decode), not {str(built)[:60]}")
        return built

    def grids(self, puzzle: Puzzle, limit: int) -> Iterator[Grid]:
        from ortools.sat.python import cp_model

        model, decode = self.model(puzzle)
        found: list[Grid] = []
        failure: list[StudentError] = []
        grader = self

        class Collector(cp_model.CpSolverSolutionCallback):
            def on_solution_callback(self) -> None:
                try:
                    found.append(_grid(call(grader.module, "decode", decode, self), puzzle, grader.label))
                except StudentError as exc:
                    failure.append(exc)
                if failure or len(found) >= limit:
                    self.StopSearch()

        solver = cp_model.CpSolver()
        solver.parameters.enumerate_all_solutions = True
        solver.parameters.num_workers = 1
        solver.Solve(model, Collector())
        if failure:
            raise failure[0]
        yield from found

    def settled(self, puzzle: Puzzle) -> int | None:
        return None

    def size(self, puzzle: Puzzle) -> tuple[int, int]:
        proto = self.model(puzzle)[0].Proto()
        return len(proto.variables), len(proto.constraints)


def student_model(module: ModuleType, label: str) -> SatModel | CpModel:
    """A CP-SAT model when the file defines ``build``, a SAT encoding otherwise."""
    return CpModel(module, label) if function(module, "build") is not None else SatModel(module, label)


# --- Counterexamples in Sudoku words. -----------------------------------------------------------------

def what_is_wrong(grid: Grid, puzzle: Puzzle) -> str | None:
    """What a decoded grid does that no solution may, in Sudoku words, or None if it is a solution."""
    n = puzzle.n
    for cell, digit in enumerate(grid):
        if not 1 <= digit <= n:
            return f"{cell_label(cell, n)} without a digit (your decode gives {digit})"
    for cell, (given, digit) in enumerate(zip(puzzle.givens, grid)):
        if given and given != digit:
            return f"{cell_label(cell, n)} = {digit} where the puzzle gives {given}"
    for group in puzzle.rules.groups:
        seen: dict[int, int] = {}
        for cell in group.cells:
            digit = grid[cell]
            if digit in seen:
                return (f"{cell_label(seen[digit], n)} = {digit} and {cell_label(cell, n)} = {digit} together, "
                        f"both in {group.name}")
            seen[digit] = cell
    conflict = puzzle.rules.first_conflict(grid)
    return f"a grid where {conflict}" if conflict else None


def _compact(grid: Grid, n: int) -> str:
    return "/".join("".join(str(d) for d in grid[r * n:(r + 1) * n]) for r in range(n))


def reference_grids(shape: Shape) -> set[Grid]:
    """Every solution of the empty board, from the shipped encoding (a 4x4 has 288)."""
    from pysat.solvers import Solver

    from ..models import cnf

    formula = cnf.rules(shape, "extended")
    table = cnf.literal_table(shape.n)
    found: set[Grid] = set()
    with Solver(name="cadical153", bootstrap_with=list(formula.clauses)) as engine:
        while engine.solve():
            grid = table.decode(engine.get_model())
            found.add(grid)
            engine.add_clause([-table.given[cell * (shape.n + 1) + digit] for cell, digit in enumerate(grid)])
    return found


# --- The checks. ---------------------------------------------------------------------------------------

def check_empty_board(student: SatModel | CpModel) -> Finding:
    empty = Puzzle.empty(4)
    grids: set[Grid] = set()
    wrong: str | None = None
    for grid in student.grids(empty, LIMIT):
        grids.add(grid)
        if wrong is None:
            wrong = what_is_wrong(grid, empty)
        if len(grids) >= LIMIT:
            break
    count = len(grids)
    at_least = "at least " if count >= LIMIT or getattr(student, "stuck", False) else ""
    counted = f"{at_least}{count} model{'s' if count != 1 else ''}"
    if wrong is not None:
        return Finding("empty-4x4", "failed", f"{counted} on the empty 4x4 board, expected {EXPECTED}: "
                       f"your formula allows {wrong}")
    if count != EXPECTED:
        missing = sorted(reference_grids(empty.shape) - grids)
        example = f"e.g. {_compact(missing[0], 4)} (rows, top to bottom)" if missing else ""
        return Finding("empty-4x4", "failed", f"{counted} on the empty 4x4 board, expected {EXPECTED}: your formula "
                       f"forbids valid grids, {example}".rstrip(", "))
    return Finding("empty-4x4", "passed", f"{EXPECTED} models on the empty 4x4 board, each a valid grid")


def unsatisfiable_puzzles() -> list[tuple[str, Puzzle]]:
    from .. import solvers

    answer = solvers.get("backtrack-fast").solve(contract.CLASSIC).grid
    return [("the 4x4 whose r1c3 and r1c4 have no digit left", contract.CORNER),
            ("the 9x9 whose givens put 1 twice in row 1", contract.BROKEN),
            ("the classic 9x9 with one wrong digit (no rule broken yet)",
             contract.unsolvable_without_a_broken_rule(contract.CLASSIC, answer))]


def check_unsatisfiable(student: SatModel | CpModel) -> Finding:
    for what, puzzle in unsatisfiable_puzzles():
        grid = next(iter(student.grids(puzzle, 1)), None)
        if grid is not None:
            return Finding("unsatisfiable", "failed", f"{what} has no solution, but your formula has a model: "
                           f"it allows {what_is_wrong(grid, puzzle)}")
    return Finding("unsatisfiable", "passed", "no model for each of 3 puzzles without a solution (4x4 and 9x9)")


def answer_puzzles() -> list[tuple[str, Puzzle]]:
    cases = [(f"random {n}x{n} puzzle (seed {seed})", contract.random_puzzle(n, fraction, seed)[0])
             for n, fraction, seed in ((4, 0.25, 1), (4, 0.5, 2), (6, 0.4, 3), (9, 0.45, 4))]
    return cases + [("the BOJ 2580 sample", contract.BOJ_SAMPLE), ("the classic 9x9", contract.CLASSIC)]


def check_answers(student: SatModel | CpModel) -> Finding:
    cases = answer_puzzles()
    for what, puzzle in cases:
        grid = next(iter(student.grids(puzzle, 1)), None)
        if grid is None:
            return Finding("answers", "failed", f"{what} has a solution, but your formula has no model")
        wrong = what_is_wrong(grid, puzzle)
        if wrong is not None:
            return Finding("answers", "failed", f"{what}: your decoded answer is wrong: {wrong}")
    return Finding("answers", "passed", f"{len(cases)} puzzles (4x4, 6x6, 9x9 with the BOJ sample) solved right")


PROPAGATION_PUZZLES = (("the BOJ sample", contract.BOJ_SAMPLE),
                       ("random 9x9 puzzle (seed 3)", contract.random_puzzle(9, 0.4, 3)[0]),
                       ("random 9x9 puzzle (seed 4)", contract.random_puzzle(9, 0.4, 4)[0]))
"""Puzzles on which the shipped encodings differ: unit propagation settles 81, 54 and 32 cells in
``minimal`` (naked singles), 81, 75 and 49 in ``extended`` (hidden singles too)."""


def shipped_settled(puzzle: Puzzle, encoding: str) -> int:
    """Cells unit propagation settles from the givens in a shipped encoding."""
    from pysat.solvers import Solver

    from ..models import cnf

    formula, assumptions = cnf.formula(puzzle, encoding)
    with Solver(name="cadical153", bootstrap_with=list(formula.clauses)) as engine:
        consistent, implied = engine.propagate(assumptions=assumptions)
    cells = puzzle.shape.cells
    return sum(1 for lit in implied or () if 0 < lit <= puzzle.n**3) if consistent else cells


def check_propagation(student: SatModel | CpModel) -> Finding:
    if student.kind != "sat":
        return Finding("propagation", "skipped", "measured for SAT encodings only (CP-SAT propagates its own way)")
    said, weaker = [], []
    for what, puzzle in PROPAGATION_PUZZLES:
        theirs = student.settled(puzzle)
        minimal, extended = shipped_settled(puzzle, "minimal"), shipped_settled(puzzle, "extended")
        said.append(f"{what}: {theirs} of {puzzle.shape.cells} cells (minimal {minimal}, extended {extended})")
        if theirs is not None and theirs < minimal:
            weaker.append(what)
    reason = "unit propagation from the givens settles " + "; ".join(said)
    if weaker:
        return Finding("propagation", "failed", f"weaker than the shipped minimal encoding on {', '.join(weaker)}: "
                       + reason)
    return Finding("propagation", "passed", reason)


def check_size(student: SatModel | CpModel) -> Finding:
    from ..models import cnf

    variables, clauses = student.size(Puzzle.empty(9))
    if student.kind == "cp":
        return Finding("size", "passed", f"the empty 9x9: {clauses:,} constraints over {variables:,} variables")
    shipped = "; ".join(f"{e} {cnf.counts(9, e)[1]:,} / {cnf.counts(9, e)[0]:,}" for e in ("minimal", "extended"))
    return Finding("size", "passed", f"the empty 9x9: {clauses:,} clauses / {variables:,} variables (shipped: "
                   f"{shipped})")


CHECKS: tuple[Callable[[SatModel | CpModel], Finding], ...] = (
    check_empty_board, check_unsatisfiable, check_answers, check_propagation, check_size,
)


def grade(module: ModuleType, label: str) -> tuple[str, list[Finding]]:
    """Every check on a student's module: (kind, findings). Raises StudentError when it cannot run."""
    student = student_model(module, label)
    return student.kind, [check(student) for check in CHECKS]


def summary(findings: Sequence[Finding]) -> str:
    counts = {status: sum(1 for f in findings if f.status == status) for status in ("passed", "failed", "skipped")}
    return ", ".join(f"{count} {status}" for status, count in counts.items() if count)
