"""Step-by-step explanations: the solving path as a person's steps, each with minimal, SAT-checked premises.

``explain(puzzle)`` starts from the pencil marks a person writes first (``board.Board.start``:
givens placed, struck from their peers) and repeatedly takes the *cheapest* step any technique
offers (``techniques.TECHNIQUES``, tried in difficulty order: simple reasons before clever ones),
until every cell is placed. Each step's premises are then made minimal with SAT
(``step_check.Checker.minimise``): no premise can be dropped and the step still follow from the
constraints it names. The order of steps does not depend on the minimisation, so ``minimal=False``
(for rating whole datasets fast) gives the same steps with the finders' own, larger, premises.

Where it stops early, ``Explanation.stopped`` says why: the toolbox ended (``max_level``), the time
ran out, or no step is left although cells are open (the puzzle has several solutions). A puzzle
with no solution raises ``errors.NoSolution`` before any step. docs/explain.md has the techniques,
the certificate, and the roads not taken.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from ..core.grid import Grid
from ..core.puzzle import Puzzle
from ..errors import NoSolution, SolverBug, TimeLimitReached, UsageError
from .board import Board
from .step_check import Checker, checker
from .steps import Step, conclusion
from .techniques import TECHNIQUES

__all__ = ["Explanation", "ExplanationStopped", "explain", "level", "next_step"]


class ExplanationStopped(TimeLimitReached):
    """The explanation stopped before the solution: the toolbox ended (``--max-level``), the time ran
    out, or the puzzle has several solutions. Exit 3, as a time limit: an answer not reached."""


@dataclass(frozen=True)
class Explanation:
    puzzle: Puzzle
    steps: tuple[Step, ...]
    grid: Grid | None
    """The solution when the steps reach it."""
    stopped: str | None
    """Why the steps stop before the solution, in one line; None when they reach it."""

    @property
    def hardest(self) -> Step | None:
        """The step of highest difficulty (the first of them), None for a puzzle with no blank."""
        return max(self.steps, key=lambda s: s.difficulty, default=None)


def level(max_level: str | float | None) -> float | None:
    """A toolbox limit as a difficulty: a number, or a technique's name (the highest difficulty its
    variants reach: "hidden-single" admits hidden singles in rows, 1.5, not only in boxes, 1.2)."""
    if max_level is None:
        return None
    if isinstance(max_level, int | float):
        return float(max_level)
    text = str(max_level).strip().lower().replace("-", " ").replace("_", " ")
    for technique in TECHNIQUES:
        if technique.name.lower() == text or technique.name.lower().replace("-", " ") == text:
            return technique.highest
    try:
        return float(text)
    except ValueError:
        names = ", ".join(t.name.replace(" ", "-") for t in TECHNIQUES)
        raise UsageError(f"unknown level '{max_level}': a difficulty or one of: {names}") from None


def explain(puzzle: Puzzle, *, max_level: str | float | None = None, minimal: bool = True,
            time_limit: float | None = None) -> Explanation:
    """The steps from the givens to the solution, cheapest technique first (module docstring)."""
    limit = level(max_level)
    conflict = puzzle.rules.first_conflict(puzzle.givens)
    if conflict is not None:
        raise NoSolution(f"no solution: the givens break a rule: {conflict}")
    check = checker(puzzle.rules)
    board = Board.start(puzzle)
    if not check.consistent(board.facts()):
        raise NoSolution("no solution: no completion of these givens keeps the rules")
    deadline = None if time_limit is None else time.monotonic() + time_limit
    steps: list[Step] = []
    stopped = None
    while not board.solved:
        if deadline is not None and time.monotonic() > deadline:
            stopped = f"time limit reached after {len(steps)} steps ({time_limit:g} s)"
            break
        step = _cheapest(board)
        if step is None:
            stopped = ("no step is left with cells still open: the puzzle has several solutions "
                       f"({len(board.marks) - sum(board.placed)} cells open)")
            break
        if limit is not None and step.difficulty > limit:
            stopped = (f"stopped where the toolbox ends: the next step needs {step.technique} "
                       f"(difficulty {step.difficulty:g}), above the limit {limit:g}")
            break
        if minimal:
            step = _minimised(check, step)
        steps.append(step)
        board.apply(step)
    grid = board.cands.grid() if board.solved else None
    return Explanation(puzzle, tuple(steps), grid, stopped)


def _cheapest(board: Board) -> Step | None:
    for technique in TECHNIQUES:
        step = technique.first(board)
        if step is not None:
            return step
    return None


def _minimised(check: Checker, step: Step) -> Step:
    """The step with premises no one of which can be dropped, and only the constraints still needed."""
    found = check.minimise(step.premises, step.groups, conclusion(step), step.pattern)
    if found is None:  # the finder's premises do not entail its step: a bug, never hidden
        raise SolverBug(f"the step '{step.text}' does not follow from its premises")
    premises, groups = found
    return replace(step, premises=premises, groups=groups)


def next_step(board: Board, check: Checker, minimal: bool = True) -> Step | None:
    """The step ``explain`` would take next on this board (its premises minimal unless ``minimal`` is
    False); None when no technique has one. ``hint`` gives a student this one step alone."""
    step = _cheapest(board)
    return _minimised(check, step) if step is not None and minimal else step
