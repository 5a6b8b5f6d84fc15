"""The oracle: the one place that asks how many solutions a puzzle has and which is the canonical one.

``verify`` tells a valid-but-different answer from the canonical one with it, ``compare`` counts
solutions with it to decide whether different answers may all be right, ``judge`` shows its
answer beside a failed run, and ``generate`` keeps a removal only when it leaves one solution.
The oracle is a registered solver that can count and give canonical answers (SAT by default);
its engine, options and time limit are the caller's to choose. Every question is asked under the
puzzle's own rules (``puzzle.rules``): the default oracle asks SAT when SAT honours them, else the
first registered solver that does (``oracle_for``); a named oracle that cannot honour them refuses
(``UnsupportedFeature``), never answers for other rules.

More: docs/verify.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from typing import Any

from .. import solvers
from ..core.cells import cell_words
from ..core.grid import Grid
from ..core.puzzle import Puzzle
from ..core.rules import Rules
from ..errors import UnsupportedFeature, UsageError
from ..solvers.base import Solver, Status

DEFAULT_SOLVER = "sat"
"""SAT counts and finds canonical answers fastest on every board size we measured."""
DEFAULT_TIME_LIMIT = 10.0
"""Seconds per question; None means no limit."""


@dataclass(frozen=True)
class OracleReport:
    """What the oracle knows of a puzzle: its solutions counted up to two, and the canonical one."""

    solver: str
    solutions: int | None
    """0, 1, or 2 meaning "two or more"; None when the oracle ran out of time."""
    canonical: Grid | None
    """The lexicographically first solution, when there is one and the oracle found it in time."""

    def lines(self, answer: Grid | None, accepted: bool) -> list[str]:
        """Two lines for a person: how many solutions, and whether ``answer`` is the canonical one."""
        words = ("none", "exactly one", "two or more")
        count = "unknown (out of time)" if self.solutions is None else words[min(self.solutions, 2)]
        return [f"solutions: {count} (oracle: {self.solver})", f"canonical: {self._canonical_words(answer, accepted)}"]

    def _canonical_words(self, answer: Grid | None, accepted: bool) -> str:
        if self.solutions == 0:
            return "there is no solution, so no canonical one"
        if self.canonical is None:
            return "unknown (out of time)"
        if answer == self.canonical:
            return "yes, the answer is the lexicographically first solution"
        if accepted:
            return "no, a valid answer but not the lexicographically first solution"
        if answer is None or len(answer) != len(self.canonical):
            return "no"
        n = math.isqrt(len(self.canonical))
        cell = next(i for i, (a, b) in enumerate(zip(answer, self.canonical)) if a != b)
        return (
            f"no, first difference at {cell_words(cell, n, comma=True)}: "
            f"the canonical solution has {self.canonical[cell]}, the answer {answer[cell]}"
        )


def oracle_for(rules: Rules, time_limit: bool = True) -> str:
    """The solver the default oracle asks about puzzles under ``rules``: SAT when it honours them,
    else the first installed solver (in ``solvers.PREFERENCE`` order) that counts, gives canonical answers
    and honours them.

    >>> from sudokulab.core.grid import Shape
    >>> from sudokulab.core.rules import build
    >>> oracle_for(build(Shape(3, 3)))
    'sat'
    """
    name = _oracle_for_kinds(rules.kinds, time_limit)
    if name is None:
        missing = solvers.solver_class(DEFAULT_SOLVER).capabilities.lacks(rules=rules)
        raise UnsupportedFeature(f"no solver can be the oracle under these rules (solver '{DEFAULT_SOLVER}' "
                                 f"cannot {missing})")
    return name


@cache
def _oracle_for_kinds(kinds: frozenset[str], time_limit: bool) -> str | None:
    return solvers.first_honouring(kinds, canonical=True, count=True, time_limit=time_limit)


class Oracle:
    """A solver asked for the truth about puzzles; build once, ask many times, close (or ``with``).

    ``solver`` None (or the default, "sat") picks per puzzle a solver that honours its rules
    (``oracle_for``); a named solver other than that, or a solver instance, is asked every question.
    """

    def __init__(self, solver: str | Solver | None = DEFAULT_SOLVER, *,
                 time_limit: float | None = DEFAULT_TIME_LIMIT, **options: Any):
        self._own = solver is None or isinstance(solver, str)
        self._choose = solver is None or (solver == DEFAULT_SOLVER and not options)
        self.solver: Solver = (solvers.get(solver or DEFAULT_SOLVER, **options) if self._own
                               else solver)  # type: ignore[assignment]
        missing = self.solver.capabilities.lacks(canonical=True, count=True, time_limit=time_limit is not None)
        if missing:
            if self._own:
                self.solver.close()
            raise UsageError(f"solver '{self.solver.name}' cannot be the oracle: it cannot {missing}")
        self.time_limit = time_limit
        self._others: dict[str, Solver] = {}
        self._last = self.solver

    @property
    def name(self) -> str:
        """The solver that answered the last question (the default one before any)."""
        return self._last.name

    def solver_for(self, puzzle: Puzzle) -> Solver:
        """The solver that answers for this puzzle: one that honours its rules, or a refusal."""
        solver = self.solver
        if not puzzle.rules.is_standard:
            missing = solver.capabilities.lacks(rules=puzzle.rules)
            if missing and self._choose:
                name = oracle_for(puzzle.rules, self.time_limit is not None)
                solver = self._others.get(name) or self._others.setdefault(name, solvers.get(name))
            elif missing:
                raise UnsupportedFeature(f"solver '{solver.name}' cannot be the oracle here: it cannot {missing}")
        self._last = solver
        return solver

    def solutions(self, puzzle: Puzzle, limit: int = 2) -> int | None:
        """The number of solutions counted up to ``limit`` (``limit`` means "at least"); None when out of time."""
        counted = self.solver_for(puzzle).count(puzzle, limit=limit, time_limit=self.time_limit)
        if counted.status is Status.TIME_LIMIT and counted.count < limit:
            return None
        return counted.count

    def canonical(self, puzzle: Puzzle) -> tuple[Status, Grid | None]:
        """The lexicographically first solution, with the status of the search for it."""
        result = self.solver_for(puzzle).solve(puzzle, time_limit=self.time_limit, canonical=True)
        return result.status, result.grid if result.solved else None

    def consult(self, puzzle: Puzzle) -> OracleReport:
        """How many solutions (up to two) and the canonical one."""
        solutions = self.solutions(puzzle)
        canonical = None
        if solutions != 0:
            canonical = self.canonical(puzzle)[1]
        return OracleReport(self.name, solutions, canonical)

    def answer_text(self, puzzle: Puzzle) -> str:
        """The canonical answer in BOJ form, or why there is none (for a failure shown to a person)."""
        from ..formats.boj import format_grid

        status, grid = self.canonical(puzzle)
        if grid is not None:
            return format_grid(grid, puzzle.n)
        return "no solution" if status is Status.NO_SOLUTION else "out of time"

    def close(self) -> None:
        if self._own:
            self.solver.close()
        for other in self._others.values():
            other.close()
        self._others.clear()

    def __enter__(self) -> Oracle:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
