"""Every paradigm held against the others on one puzzle: run them all, check each answer, judge.

How agreement is judged (``compare``), in this order:

1. A solver that reached its time limit is reported but not counted: it said nothing about the
   puzzle, so it can neither agree nor disagree. When every solver timed out there is no verdict.
2. Every answer goes through the independent checker (``grid.solution_error``); a wrong one is a
   disagreement.
3. A valid answer proves the puzzle solvable, so a solver that said "no solution" beside it
   disagrees. All solvers saying "no solution" is agreement on that.
4. Otherwise every answer is valid. With ``canonical`` all must be byte-identical; one that is not
   the lexicographically smallest of the answers disagrees (a smaller valid solution exists, so it
   is not the first). Without ``canonical``, answers may differ only when the puzzle has several
   solutions: the oracle counts them up to two. Two different valid answers prove several
   solutions by themselves, so an oracle that counts one (or none) is the one caught wrong.

The ``sudokulab compare`` command keeps stdout reading as BOJ output: the table and the verdict go
to standard error; standard output gets the agreed answer alone (exactly what ``solve`` prints) or,
when answers differ, each distinct answer once after a ``# solver, solver`` label line, blocks
separated by a blank line, a form ``datasets.read_dataset`` reads back. ``--json`` prints one
document on stdout instead (``Comparison.to_json``).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import judge, solvers
from .boj import format_grid, format_puzzle
from .grid import Puzzle, first_conflict, solution_error
from .solvers.base import Solver, SolveResult, Status

if TYPE_CHECKING:
    from rich.console import Console

class Agreement(enum.Enum):
    """The verdict of a comparison."""

    AGREED = "agreed"
    """Every counted solver gave the same valid answer."""
    SEVERAL = "agreed, answers differ"
    """The puzzle has several solutions; the answers differ and each is valid."""
    NO_SOLUTION = "agreed: no solution"
    """Every counted solver said the puzzle has no solution."""
    ALL_TIMED_OUT = "every solver timed out"
    """Nobody answered in time: no verdict."""
    DISAGREE = "disagree"
    """A wrong answer, or answers that cannot all be right: a bug found."""


@dataclass(frozen=True)
class SolverRun:
    """One solver's result on the puzzle, checked: the rows of the table."""

    result: SolveResult
    answer: str | None
    """The grid in BOJ form, as ``solve`` would print it (None without a grid)."""
    problem: str | None
    """Why the grid is no solution (None when it is one, or there is no grid)."""
    agrees: bool | None
    """None when not counted (timed out)."""

    @property
    def solver(self) -> str:
        return self.result.solver

    @property
    def valid(self) -> bool | None:
        """Whether the answer passed the checker; None when there is no answer."""
        return None if self.result.grid is None else self.problem is None

    def to_json(self) -> dict[str, Any]:
        r = self.result
        return {
            "solver": r.solver, "status": r.status.value, "seconds": r.seconds, "stats": dict(r.stats),
            "answer": self.answer, "valid": self.valid, "problem": self.problem, "agrees": self.agrees,
        }


@dataclass(frozen=True)
class Comparison:
    """Every solver's result on one puzzle, and the verdict on whether they agree."""

    puzzle: Puzzle
    runs: tuple[SolverRun, ...]
    agreement: Agreement
    reason: str
    """One line on why, for a person."""
    canonical: bool
    oracle: str | None
    solutions: int | None
    """The oracle's count: 0, 1, or 2 meaning "two or more"; None when unknown."""

    @property
    def agreed(self) -> bool:
        return self.agreement in (Agreement.AGREED, Agreement.SEVERAL)

    @property
    def answers(self) -> dict[str, list[str]]:
        """Each distinct answer text and the solvers that gave it, in the order first given."""
        found: dict[str, list[str]] = {}
        for run in self.runs:
            if run.answer is not None:
                found.setdefault(run.answer, []).append(run.solver)
        return found

    @property
    def answer(self) -> str | None:
        """The agreed answer, when the verdict is AGREED."""
        return next(iter(self.answers)) if self.agreement is Agreement.AGREED else None

    def to_json(self) -> dict[str, Any]:
        """The whole comparison as plain JSON values (``solutions`` 2 means two or more)."""
        return {
            "puzzle": format_puzzle(self.puzzle),
            "size": self.puzzle.n,
            "box": [self.puzzle.shape.box_rows, self.puzzle.shape.box_cols],
            "canonical": self.canonical,
            "oracle": self.oracle,
            "solutions": self.solutions,
            "agreement": self.agreement.value,
            "agreed": self.agreed,
            "reason": self.reason,
            "answer": self.answer,
            "runs": [run.to_json() for run in self.runs],
        }


def compare(
    puzzle: Puzzle,
    names: Sequence[str] | None = None,
    *,
    time_limit: float | None = None,
    canonical: bool = False,
    oracle: Solver | str | None = None,
    count: bool = True,
) -> Comparison:
    """Run the solvers (default: every registered one) on the puzzle and judge their agreement.

    ``oracle`` counts the solutions: a built solver (reused across many comparisons), a registered
    name, or None for ``judge.ORACLE``; ``count=False`` skips counting.
    """
    names = list(names) if names else solvers.names()
    for name in names:
        solvers.solver_class(name)  # an unknown name fails before anything runs
    results = []
    for name in names:
        with solvers.get(name) as solver:
            results.append(solver.solve(puzzle, time_limit=time_limit, canonical=canonical))
    solutions, oracle_name = None, None
    if count and any(r.status is not Status.TIME_LIMIT for r in results):
        solutions, oracle_name = _count(puzzle, oracle or judge.ORACLE, time_limit)
    return judge_results(puzzle, results, canonical=canonical, solutions=solutions, oracle=oracle_name)


def _count(puzzle: Puzzle, oracle: Solver | str, time_limit: float | None) -> tuple[int | None, str]:
    if isinstance(oracle, str):
        with solvers.get(oracle) as built:
            return _count(puzzle, built, time_limit)
    counted = oracle.count(puzzle, limit=2, time_limit=time_limit)
    known = counted.status is not Status.TIME_LIMIT or counted.count >= 2
    return (counted.count if known else None), oracle.name


def judge_results(
    puzzle: Puzzle,
    results: Sequence[SolveResult],
    *,
    canonical: bool = False,
    solutions: int | None = None,
    oracle: str | None = None,
) -> Comparison:
    """The verdict on results already in hand (the rules are in the module docstring)."""
    problems = [solution_error(r.grid, puzzle) if r.grid is not None else None for r in results]
    valid = [r.grid for r, p in zip(results, problems) if r.grid is not None and p is None]
    smallest = min(valid) if valid else None
    notes: list[str] = []

    def agrees(result: SolveResult, problem: str | None) -> bool | None:
        if result.status is Status.TIME_LIMIT:
            return None
        if result.status is Status.NO_SOLUTION:
            if valid:
                notes.append(f"{result.solver} says no solution, but a valid answer exists")
            return not valid
        if result.grid is None or problem is not None:
            notes.append(f"{result.solver} gave a wrong answer ({problem or 'solved without a grid'})")
            return False
        if canonical and result.grid != smallest:
            notes.append(f"{result.solver} did not give the lexicographically first of the answers")
            return False
        return True

    runs = tuple(
        SolverRun(r, format_grid(r.grid, puzzle.n) if r.grid is not None else None, p, agrees(r, p))
        for r, p in zip(results, problems)
    )
    counted = [run for run in runs if run.agrees is not None]
    distinct = {run.answer for run in counted if run.agrees}
    if not counted:
        agreement, reason = Agreement.ALL_TIMED_OUT, "every solver reached its time limit"
    elif notes:
        agreement, reason = Agreement.DISAGREE, "; ".join(notes)
    elif all(run.result.status is Status.NO_SOLUTION for run in counted):
        if solutions:
            agreement = Agreement.DISAGREE
            reason = f"every solver says no solution, but the oracle {oracle} counts {_solutions(solutions)}"
        else:
            agreement = Agreement.NO_SOLUTION
            conflict = first_conflict(puzzle.givens, puzzle.shape)
            reason = f"the givens break a rule: {conflict}" if conflict else "no completion keeps the rules"
    elif solutions is not None and solutions < min(len(distinct), 2):
        agreement = Agreement.DISAGREE
        reason = f"the oracle {oracle} counts {_solutions(solutions)}, but {len(distinct)} valid answers differ"
    elif len(distinct) == 1:
        agreement = Agreement.AGREED
        reason = f"one answer; the puzzle has {_solutions(solutions)}" + (f" (oracle: {oracle})" if oracle else "")
        if canonical:
            reason += "; canonical: all byte-identical"
    else:
        agreement = Agreement.SEVERAL
        reason = (
            f"the puzzle has several solutions; {len(distinct)} different answers, each valid"
            + (f" (oracle: {oracle})" if oracle else "")
        )
    skipped = [run.solver for run in runs if run.agrees is None]
    if skipped and counted:
        reason += f"; timed out, not counted: {', '.join(skipped)}"
    return Comparison(puzzle, runs, agreement, reason, canonical, oracle, solutions)


def _solutions(count: int | None) -> str:
    return {None: "an unknown number of solutions", 0: "no solution", 1: "exactly one solution"}.get(
        count, "two or more solutions"
    )


def format_answers(comparison: Comparison) -> str:
    """What the command prints on stdout: the agreed answer alone, or each answer labelled."""
    answers = comparison.answers
    if comparison.agreement is Agreement.AGREED:
        return comparison.answer or ""
    problems = {run.answer: run.problem for run in comparison.runs if run.answer is not None}
    blocks = []
    for answer, names in answers.items():
        wrong = f" (wrong: {problems[answer]})" if problems[answer] else ""
        blocks.append(f"# {', '.join(names)}{wrong}\n{answer}")
    return "\n".join(blocks)


EFFORT = ("nodes", "backtracks", "decisions", "conflicts", "propagations", "branches", "restarts")
"""The stats that measure search effort, shown in the table; model sizes and settings stay in --json."""


def effort(result: SolveResult) -> str:
    """A solver's own effort figures in one cell: nodes and backtracks; decisions, conflicts, ...

    Falls back to every stat for a solver that reports none of the ``EFFORT`` names.
    """
    shown = [key for key in result.stats if key in EFFORT] or list(result.stats)
    return ", ".join(f"{key} {_figure(result.stats[key])}" for key in shown)


def _figure(value: object) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    return f"{value:,}" if isinstance(value, int) else f"{value:.4g}"


def _seconds(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms" if seconds < 1 else f"{seconds:.2f} s"


def render(comparison: Comparison, console: Console) -> None:
    """The comparison as a table, then the verdict line."""
    from rich.table import Table

    table = Table(title=f"compare on a {comparison.puzzle.shape}", title_justify="left")
    for column, justify in (("solver", "left"), ("status", "left"), ("time", "right"), ("effort", "left"),
                            ("valid", "left"), ("agrees", "left")):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    for run in comparison.runs:
        valid = {None: "—", True: "yes"}.get(run.valid, f"no: {run.problem}")  # type: ignore[arg-type]
        agrees = {None: "not counted", True: "yes", False: "no"}[run.agrees]
        style = "red" if run.agrees is False else ("dim" if run.agrees is None else "")
        table.add_row(run.solver, run.result.status.value, _seconds(run.result.seconds), effort(run.result),
                      valid, agrees, style=style)
    console.print(table)
    colour = "green" if comparison.agreed else "red"
    console.print(f"[{colour}]{comparison.agreement.value}[/]: {comparison.reason}", highlight=False, soft_wrap=True)
