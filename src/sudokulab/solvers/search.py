"""The runner for hand-written searches: a generator of solutions under a deadline.

A search written as a generator of grids serves both questions: solving takes the first grid and
counting takes grids up to the limit. ``SearchSolver`` turns any such generator into a solver;
``SearchCounters`` is what the generator counts (nodes placed, dead ends met), reported as stats.
The classic and the fast backtracker use it, and so can a student's own search in a notebook.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import ClassVar

from ..grid import Grid, Puzzle
from .base import Capabilities, CountResult, Deadline, SolverBase, SolveResult, Status, TimeUp, check_limit


class SearchCounters:
    """The effort a search reports: ``nodes`` (placements tried) and ``backtracks`` (dead ends)."""

    __slots__ = ("nodes", "backtracks")

    def __init__(self) -> None:
        self.nodes = 0
        self.backtracks = 0

    def stats(self) -> dict[str, int]:
        return {"nodes": self.nodes, "backtracks": self.backtracks}


SearchFunction = Callable[[Puzzle, Deadline, SearchCounters, bool], Iterator[Grid]]
"""``search(puzzle, deadline, counters, canonical)`` yields solutions; it calls ``deadline.check()``
now and then, which raises ``TimeUp`` when the time is up."""


class SearchSolver(SolverBase):
    """A solver made of a search generator (``search``); each call has its own state: thread-safe."""

    paradigm: ClassVar[str] = "hand-written search"
    capabilities: ClassVar[Capabilities] = Capabilities()
    search: SearchFunction

    def solve(
        self, puzzle: Puzzle, *, time_limit: float | None = None, canonical: bool = False
    ) -> SolveResult:
        started = time.perf_counter()
        counters = SearchCounters()
        try:
            grid = next(self.search(puzzle, Deadline(time_limit), counters, canonical), None)
            status = Status.NO_SOLUTION if grid is None else Status.SOLVED
        except TimeUp:
            grid, status = None, Status.TIME_LIMIT
        return SolveResult(self.name, status, grid, time.perf_counter() - started, counters.stats())

    def count(
        self, puzzle: Puzzle, *, limit: int = 2, time_limit: float | None = None
    ) -> CountResult:
        check_limit(limit)
        started = time.perf_counter()
        counters = SearchCounters()
        found = 0
        status = Status.NO_SOLUTION
        try:
            for _ in self.search(puzzle, Deadline(time_limit), counters, False):
                found += 1
                status = Status.SOLVED
                if found >= limit:
                    break
        except TimeUp:
            status = Status.TIME_LIMIT
        return CountResult(self.name, found, limit, status, time.perf_counter() - started, counters.stats())
