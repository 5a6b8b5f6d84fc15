"""A hint: the one next step from a student's position, or what is wrong in that position.

A student has filled some cells (``progress``, givens included) and maybe written pencil marks
(``marks``: a mask per cell, None where nothing is written). ``hint`` first looks for mistakes,
since a step reasoned from a wrong position would teach a falsehood: a placed digit no solution
has there, or a cell whose marks strike the digit that belongs there (or leave no mark), each
found by SAT; the message names the cell, never the digit, which would give the answer away. With
no mistake, the board is the progress's digits placed and struck from their peers, narrowed to the
student's marks, and the hint is the step ``explain`` would take there (``explain.next_step``), so
it uses only what the student's marks allow. Nothing of the solution is returned. docs/explain.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..core.cells import cell_label
from ..core.grid import Grid
from ..core.puzzle import Puzzle
from ..errors import NoSolution, UsageError
from .board import Board
from .explain import next_step
from .step_check import checker
from .steps import Fact, Step

__all__ = ["Hint", "Mistake", "hint"]


@dataclass(frozen=True)
class Mistake:
    """Something wrong in a student's position: a placed digit (``kind`` "digit"), a cell's marks
    ("marks"), or digits that are each possible but not together ("digits", no cell)."""

    kind: str
    cell: int | None
    digit: int | None
    """The student's own digit for a "digit" mistake; None otherwise (the right one is not told)."""

    def text(self, n: int) -> str:
        if self.kind == "digit":
            return f"{cell_label(self.cell, n)} = {self.digit} is wrong: no solution has {self.digit} there"
        if self.kind == "marks":
            return f"the marks of {cell_label(self.cell, n)} are wrong: they strike the digit that belongs there"
        return "the placed digits cannot all stand together: no solution has them all"


@dataclass(frozen=True)
class Hint:
    """The next step, or why there is none: mistakes in the position, or ``stopped`` (solved, no step)."""

    step: Step | None
    mistakes: tuple[Mistake, ...]
    stopped: str | None


def _mask_facts(cell: int, mask: int, n: int) -> list[Fact]:
    return [Fact(cell, d, False) for d in range(1, n + 1) if not mask >> (d - 1) & 1]


def hint(puzzle: Puzzle, progress: Grid | None = None, marks: Sequence[int | None] | None = None,
         *, minimal: bool = True) -> Hint:
    """The one next step from ``progress`` (default: the givens) under the student's ``marks`` (module docstring)."""
    n = puzzle.n
    progress = tuple(puzzle.givens if progress is None else progress)
    if len(progress) != n * n:
        raise UsageError(f"the progress has {len(progress)} cells, the puzzle {n * n}")
    for cell, given in enumerate(puzzle.givens):
        if given and progress[cell] not in (0, given):
            raise UsageError(f"the progress changes the given {cell_label(cell, n)}={given} "
                             f"(it has {progress[cell]} there)")
    progress = tuple(given or value for given, value in zip(puzzle.givens, progress, strict=True))
    if marks is not None and len(marks) != n * n:
        raise UsageError(f"the marks have {len(marks)} cells, the puzzle {n * n}")
    check = checker(puzzle.rules)
    givens = [Fact(cell, d, True) for cell, d in enumerate(puzzle.givens) if d]
    if puzzle.rules.first_conflict(puzzle.givens) is not None or not check.consistent(givens):
        raise NoSolution("no solution: no completion of these givens keeps the rules")
    mistakes = [Mistake("digit", cell, d) for cell, d in enumerate(progress)
                if d and not puzzle.givens[cell] and not check.consistent([*givens, Fact(cell, d, True)])]
    digits = [Fact(cell, d, True) for cell, d in enumerate(progress) if d]
    if not mistakes and not check.consistent(digits):
        mistakes.append(Mistake("digits", None, None))
    if not mistakes and marks is not None:
        mistakes += [Mistake("marks", cell, None) for cell, mask in enumerate(marks)
                     if mask is not None and not progress[cell]
                     and not check.consistent([*digits, *_mask_facts(cell, mask, n)])]
    if mistakes:
        return Hint(None, tuple(mistakes), None)
    board = Board.start(Puzzle(puzzle.shape, progress, puzzle.rules))
    for cell, mask in enumerate(marks or ()):
        if mask is not None and not board.placed[cell]:
            board.marks[cell] &= mask
    if board.solved:
        return Hint(None, (), "the grid is complete: nothing is left to do")
    step = next_step(board, check, minimal)
    if step is None:
        return Hint(None, (), "no step is left with cells still open: the puzzle has several solutions")
    return Hint(step, (), None)
