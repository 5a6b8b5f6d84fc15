"""The one interface every paradigm implements, and the results everything downstream reads.

A solver is built once with its options (engine, encoding, workers, ...) and then asked to solve or
count many puzzles, so a paradigm that prepares per board shape (the SAT formula, the CP-SAT model)
pays that price once. ``SolveResult`` and ``CountResult`` are all that the BOJ adapter, compare,
judge and bench ever read.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from ..grid import Grid, Puzzle

Stat = int | float | bool | str


class Status(enum.Enum):
    """How a solve ended."""

    SOLVED = "solved"
    """A grid was found; ``SolveResult.grid`` holds it (CP-SAT's OPTIMAL and FEASIBLE both map here)."""
    NO_SOLUTION = "no solution"
    """The search space was exhausted: the puzzle has no completion (SAT's UNSAT, CP's INFEASIBLE)."""
    TIME_LIMIT = "time limit reached"
    """The time limit ran out before an answer either way; nothing is known about the puzzle."""


@dataclass(frozen=True)
class SolveResult:
    """What one solver did with one puzzle: the only thing adapters and reports read."""

    solver: str
    status: Status
    grid: Grid | None
    seconds: float
    stats: Mapping[str, Stat] = field(default_factory=dict)

    @property
    def solved(self) -> bool:
        return self.status is Status.SOLVED


@dataclass(frozen=True)
class CountResult:
    """How many solutions a solver found, up to a limit.

    ``count == limit`` means "at least limit": the search stopped there. ``status`` is TIME_LIMIT
    when the time ran out first, in which case ``count`` is a lower bound too.
    """

    solver: str
    count: int
    limit: int
    status: Status
    seconds: float
    stats: Mapping[str, Stat] = field(default_factory=dict)

    @property
    def exact(self) -> bool:
        """True when ``count`` is the exact number of solutions."""
        return self.count < self.limit and self.status is not Status.TIME_LIMIT


@runtime_checkable
class Solver(Protocol):
    """A configured solver of one paradigm.

    ``canonical=True`` asks for the row-major lexicographically first solution, the answer of the
    classic BOJ 2580 backtracker and of BOJ 2239. ``time_limit`` is in seconds of wall time; when it
    runs out the result says TIME_LIMIT rather than hanging.
    """

    name: str

    def solve(
        self, puzzle: Puzzle, *, time_limit: float | None = None, canonical: bool = False
    ) -> SolveResult: ...

    def count(
        self, puzzle: Puzzle, *, limit: int = 2, time_limit: float | None = None
    ) -> CountResult: ...

    def close(self) -> None: ...


class TimeUp(Exception):
    """Raised inside a search when its deadline passes; solvers turn it into TIME_LIMIT."""


class Deadline:
    """A wall-clock deadline; ``None`` means no limit."""

    __slots__ = ("limit", "at")

    def __init__(self, limit: float | None):
        if limit is not None and limit <= 0:
            raise ValueError(f"time limit must be positive, not {limit}")
        self.limit = limit
        self.at = None if limit is None else time.perf_counter() + limit

    def remaining(self) -> float | None:
        return None if self.at is None else self.at - time.perf_counter()

    def expired(self) -> bool:
        return self.at is not None and time.perf_counter() >= self.at

    def check(self) -> None:
        if self.at is not None and time.perf_counter() >= self.at:
            raise TimeUp


class SolverBase:
    """Shared plumbing: context-manager use, and a close() that does nothing by default."""

    name = "base"

    def close(self) -> None:
        """Release native resources (SAT engines); safe to call twice."""

    def __enter__(self):
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"
