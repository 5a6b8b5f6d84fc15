"""The grader for a student's model of Sudoku: a SAT encoding (``encode``/``decode``) or a CP-SAT model (``build``).

A formula that misses a constraint still solves puzzles that have one solution, and an
over-constrained one only shows as "wrong answer" somewhere: so the grader looks at the model
itself. Its checks, each passed or failed with its reason in Sudoku words: the models of the empty
4x4 board (enumerated over the variables the student's ``decode`` reads, so auxiliary variables
never inflate the count), unsatisfiable puzzles, answers checked by ``grid.solution_error``, unit
propagation beside the shipped encodings (SAT only), and the size. The student's code runs in a
sandboxed process of its own (``student_process``; ``SatModel`` and ``CpModel`` here are proxies
that exchange data with it), and the student's formula is solved by the grader's own engines in a
second sandboxed process (``formula_worker``, through ``Solving``), each solve under the time limit
of a call.

The checks, their puzzles and the sandboxes: docs/grading.md ("check-encoding: a model").
"""

from __future__ import annotations

import contextlib
import operator
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.cells import cell_label
from ..core.grid import Grid, Shape
from ..core.puzzle import Puzzle
from . import contract
from .student_code import StudentError
from .student_process import StudentFailure, StudentLimits, StudentProcess, StudentRaised, puzzle_document

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


def _ask(student: StudentProcess, call: str, what: str, **arguments: Any) -> Any:
    """One call to the student's worker; the student's exception is one line (StudentError, exit 2),
    as it always was; a failure of the process is a StudentFailure (the check fails)."""
    try:
        return student.call(call, what, **arguments)
    except StudentRaised as raised:
        raise StudentError(raised.line) from None


def _size(puzzle: Puzzle) -> str:
    return f"a {puzzle.n}x{puzzle.n} puzzle"


class Solving:
    """The grader's engines in a process of their own (``formula_worker``), each call under the time
    limit of one call; a context manager (``close`` stops the process)."""

    WORKER = "sudokulab.grading.formula_worker"

    def __init__(self, limits: StudentLimits):
        self.process = StudentProcess("hello", {}, "the grader's engines", limits, worker=self.WORKER,
                                      who="the grader's solver")
        self.limits = limits

    def __enter__(self) -> Solving:
        self.process.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.process.close()

    def call(self, name: str, what: str, **arguments: Any) -> Any:
        """One call; a failure of the process (the time limit above all) is a StudentFailure: the check fails."""
        try:
            return self.process.call(name, what, **arguments)
        except StudentRaised as raised:  # not the student's: the worker refused what it was sent
            raise StudentFailure(f"{what}: {raised.line}") from None

    @contextlib.contextmanager
    def sat(self, clauses: list[list[int]], what: str) -> Iterator[SatEngine]:
        """A SAT engine holding ``clauses``, deleted on leaving (if its process still holds it)."""
        handle = self.call("sat_new", what, clauses=clauses)
        yield SatEngine(self, handle, what)
        if self.process.launched is not None:  # not stopped meanwhile (a failed call stops the process)
            self.call("sat_close", what, handle=handle)

    def cp_solutions(self, model: str, limit: int, what: str) -> list[list[int]]:
        found = self.call("cp_solutions", what, model=model, limit=limit, seconds=0.9 * self.limits.seconds)
        if isinstance(found, str):
            raise StudentFailure(f"{what}: {found}")
        if not (isinstance(found, dict) and isinstance(found.get("solutions"), list)):
            raise StudentFailure(f"{what}: the grader's solver answered {str(found)[:60]}")
        if not found.get("complete"):
            raise StudentFailure(f"{what}: still enumerating your model's solutions at the time limit of "
                                 f"{self.limits.seconds:g} s per call (--time-limit)")
        return found["solutions"]


class SatEngine:
    """One formula loaded in the grader's solving process: solve, add clauses, propagate, by handle."""

    def __init__(self, solving: Solving, handle: int, what: str):
        self.solving, self.handle, self.what = solving, handle, what

    def _call(self, name: str, **arguments: Any) -> Any:
        return self.solving.call(name, self.what, handle=self.handle, **arguments)

    def solve(self, assumptions: Sequence[int] = ()) -> list[int] | None:
        model = self._call("sat_solve", assumptions=list(assumptions))
        if model is not None and not (isinstance(model, list) and all(isinstance(v, int) for v in model)):
            raise StudentFailure(f"{self.what}: the grader's solver answered {str(model)[:60]}")
        return model

    def add_clause(self, clause: Sequence[int]) -> None:
        self._call("sat_add", clause=list(clause))

    def propagate(self, assumptions: Sequence[int]) -> tuple[bool, list[int]]:
        consistent, implied = self._call("sat_propagate", assumptions=list(assumptions))
        return bool(consistent), list(implied)


class SatModel:
    """``encode(puzzle) -> clauses`` (or ``(clauses, variables)``) and ``decode(model[, puzzle]) -> grid``,
    called in the student's worker; the clauses and grids come back as data, checked here."""

    kind = "sat"
    stuck = False
    """Set when a model had no true variable that decode reads: it was blocked whole, auxiliaries
    included, so the count is of models rather than of grids (said as "at least")."""

    def __init__(self, student: StudentProcess, label: str, solving: Solving):
        self.student, self.label, self.solving = student, label, solving

    def formula(self, puzzle: Puzzle) -> tuple[list[list[int]], int]:
        """The student's clauses and their top variable, checked to be DIMACS clauses."""
        found = _ask(self.student, "encode", f"encode() of {_size(puzzle)}", puzzle=puzzle_document(puzzle))
        declared = None
        if isinstance(found, list) and len(found) == 2 and isinstance(found[1], int) and isinstance(found[0], list):
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

    def _decoded(self, model: list[int], puzzle: Puzzle, flips: bool) -> dict[str, Any]:
        found = _ask(self.student, "decode", f"decode() of a model of {_size(puzzle)}", model=model,
                     puzzle=puzzle_document(puzzle), flips=flips)
        if not (isinstance(found, dict) and "grid" in found
                and (not flips or isinstance(found.get("flipped"), list))):
            raise StudentFailure(f"decode() of a model of {_size(puzzle)}: its answer came back as "
                                 f"{str(found)[:60]}")
        return found

    def decode(self, model: list[int], puzzle: Puzzle) -> Grid:
        return _grid(self._decoded(model, puzzle, False)["grid"], puzzle, self.label)

    def decode_reading(self, model: list[int], puzzle: Puzzle) -> tuple[Grid, list[int]]:
        """The grid of a model, and the true variables whose flip changes it: the cell-digit variables
        decode reads (a flip decode fails on counts as read)."""
        found = self._decoded(model, puzzle, True)
        grid = _grid(found["grid"], puzzle, self.label)
        true = [lit for lit in model if lit > 0]
        if len(found["flipped"]) != len(true):
            raise StudentFailure(f"decode() of a model of {_size(puzzle)}: {len(found['flipped'])} flipped grids "
                                 f"came back for {len(true)} true variables")
        read = []
        for lit, flipped in zip(true, found["flipped"]):
            try:
                changed = flipped is None or _grid(flipped, puzzle, self.label) != grid
            except StudentError:  # a decode that fails without this variable reads it
                changed = True
            if changed:
                read.append(lit)
        return grid, read

    def grids(self, puzzle: Puzzle, limit: int) -> Iterator[Grid]:
        """Decoded grids of distinct models, blocking each on the variables decode reads (up to ``limit``)."""
        clauses, top = self.formula(puzzle)
        with self.solving.sat(clauses, f"solving your formula of {_size(puzzle)}") as engine:
            for _ in range(2 * limit):
                model = engine.solve()
                if model is None:
                    return
                model = model + [-v for v in range(len(model) + 1, top + 1)]
                grid, read = self.decode_reading(model, puzzle)
                yield grid
                if not read:  # decode reads no true variable here (an empty grid): block the whole model
                    self.stuck = True
                    read = list(model)
                engine.add_clause([-v for v in read])

    def settled(self, puzzle: Puzzle) -> int:
        """Cells unit propagation settles from the unit clauses (the givens), on one solution's variables."""
        clauses, top = self.formula(puzzle)
        units = [clause[0] for clause in clauses if len(clause) == 1]
        with self.solving.sat([c for c in clauses if len(c) > 1], f"propagating your formula of {_size(puzzle)}") \
                as engine:
            consistent, implied = engine.propagate(units)
            model = engine.solve(units)
            if model is None:
                return 0
        model = model + [-v for v in range(len(model) + 1, top + 1)]
        true = set(implied or ()) if consistent else set()
        return sum(1 for lit in self.decode_reading(model, puzzle)[1] if lit in true)

    def size(self, puzzle: Puzzle) -> tuple[int, int]:
        clauses, top = self.formula(puzzle)
        return top, len(clauses)


class CpModel:
    """``build(puzzle) -> (cp_model.CpModel, decode)``, ``decode(values) -> grid`` (``values.Value(x)``):
    built in the student's worker, which sends the model as protobuf text; solved here, each
    solution's values sent back for the student's decode to read."""

    kind = "cp"

    MODEL_BYTES = 32 << 20
    """Characters of a model's text parsed at most."""

    def __init__(self, student: StudentProcess, label: str, solving: Solving):
        self.student, self.label, self.solving = student, label, solving

    def model(self, puzzle: Puzzle) -> tuple[Any, int, str]:
        """The student's model, parsed here from its text, the worker's handle on its decode, and the text."""
        from ortools.sat.python import cp_model

        what = f"build() of {_size(puzzle)}"
        built = _ask(self.student, "build", what, puzzle=puzzle_document(puzzle))
        if not (isinstance(built, dict) and isinstance(built.get("model"), str) and isinstance(built.get("handle"), int)
                and len(built["model"]) <= self.MODEL_BYTES):
            raise StudentFailure(f"{what}: its answer came back as {str(built)[:60]}, not a model")
        model = cp_model.CpModel()
        try:
            parsed = model.Proto().parse_text_format(built["model"])
        except Exception:  # noqa: BLE001 - whatever the protobuf parser raises on text it refuses
            parsed = False
        if not parsed:
            raise StudentFailure(f"{what}: the model that came back is no CP-SAT model")
        return model, built["handle"], built["model"]

    def grids(self, puzzle: Puzzle, limit: int) -> Iterator[Grid]:
        _, handle, text = self.model(puzzle)
        solutions = self.solving.cp_solutions(text, limit, f"solving your model of {_size(puzzle)}")
        what = f"decode() of {len(solutions)} solutions of {_size(puzzle)}"
        found = _ask(self.student, "decode_values", what, handle=handle, solutions=solutions) if solutions else []
        if not isinstance(found, list) or len(found) != len(solutions):
            raise StudentFailure(f"{what}: its answer came back as {str(found)[:60]}")
        yield from (_grid(value, puzzle, self.label) for value in found)

    def settled(self, puzzle: Puzzle) -> int | None:
        return None

    def size(self, puzzle: Puzzle) -> tuple[int, int]:
        proto = self.model(puzzle)[0].Proto()
        return len(proto.variables), len(proto.constraints)


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

    from ..solvers.pysat_guard import guarded  # no PySAT SIGINT handler (docs/sat.md)
    from ..solvers.sat import cnf
    from ..solvers.sat.literals import literal_table

    formula = cnf.rules(shape, "extended")
    table = literal_table(shape.n)
    found: set[Grid] = set()
    with guarded(Solver(name="cadical153", bootstrap_with=list(formula.clauses))) as engine:
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

    from ..solvers.pysat_guard import guarded  # no PySAT SIGINT handler (docs/sat.md)
    from ..solvers.sat import cnf

    formula, assumptions = cnf.formula(puzzle, encoding)
    with guarded(Solver(name="cadical153", bootstrap_with=list(formula.clauses))) as engine:
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
    from ..solvers.sat.size import counts

    variables, clauses = student.size(Puzzle.empty(9))
    if student.kind == "cp":
        return Finding("size", "passed", f"the empty 9x9: {clauses:,} constraints over {variables:,} variables")
    shipped = "; ".join(f"{e} {counts(9, e)[1]:,} / {counts(9, e)[0]:,}" for e in ("minimal", "extended"))
    return Finding("size", "passed", f"the empty 9x9: {clauses:,} clauses / {variables:,} variables (shipped: "
                   f"{shipped})")


CHECKS: tuple[tuple[str, Callable[[SatModel | CpModel], Finding]], ...] = (
    ("empty-4x4", check_empty_board), ("unsatisfiable", check_unsatisfiable), ("answers", check_answers),
    ("propagation", check_propagation), ("size", check_size),
)
"""Every check, by the name its finding carries, in the order run."""


def grade(student: StudentProcess, kind: str, label: str, solving: Solving) -> list[Finding]:
    """Every check on the model the student's worker loaded (``kind``: sat or cp), solved by ``solving``.
    A call that fails the student's process (or the grader's solver: its time limit) fails its check,
    and the next check starts it again; a StudentError (the student's code raised, or broke the
    interface) ends the grading: exit 2."""
    model = SatModel(student, label, solving) if kind == "sat" else CpModel(student, label, solving)
    findings = []
    for name, check in CHECKS:
        for process in (student, solving.process):  # the check's calls share its own time limit too
            process.limit_check(student.limits.check_seconds)
        try:
            findings.append(check(model))
        except StudentFailure as failure:
            findings.append(Finding(name, "failed", str(failure)))
    return findings


def failed_everywhere(reason: str) -> list[Finding]:
    """Every check failed for one reason: the student's file could not be loaded in its process."""
    return [Finding(name, "failed", reason) for name, _ in CHECKS]


def summary(findings: Sequence[Finding]) -> str:
    counts = {status: sum(1 for f in findings if f.status == status) for status in ("passed", "failed", "skipped")}
    return ", ".join(f"{count} {status}" for status, count in counts.items() if count)
