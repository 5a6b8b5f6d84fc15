"""The runner for hand-written searches: a generator of solutions under a deadline.

A search written as a generator of grids serves both questions: solving takes the first grid and
counting takes grids up to the limit. ``SearchSolver`` turns any such generator into a solver;
``SearchCounters`` is what the generator counts (nodes placed, dead ends met), reported as stats.
The classic and the fast backtracker use it, and so can a student's own search in a notebook.

More: docs/solvers.md.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import ClassVar

from ..core.grid import Grid
from ..core.puzzle import Puzzle
from .base import (
    Capabilities,
    CountResult,
    Deadline,
    SolutionList,
    SolverBase,
    SolveResult,
    Status,
    TimeUp,
    check_kinds,
    check_limit,
    list_found,
)


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
    """A solver made of a search generator (``search``); each call has its own state: thread-safe.

    ``counters`` is the class of what the search counts (``SearchCounters`` or one with more
    figures); the generator is closed before its counters are read, so a search may settle its
    figures in a ``finally``.
    """

    paradigm: ClassVar[str] = "hand-written search"
    capabilities: ClassVar[Capabilities] = Capabilities()
    counters: ClassVar[type] = SearchCounters
    search: SearchFunction
    in_order: ClassVar[bool] = False
    """Whether the search, asked for canonical answers, yields every solution in row-major
    lexicographic order (cells in row-major order, digits upward), so a partial list is canonical too."""

    def solve(
        self, puzzle: Puzzle, *, time_limit: float | None = None, canonical: bool = False
    ) -> SolveResult:
        grid, _, status, seconds, stats = self._take(puzzle, time_limit, canonical, 1)
        return SolveResult(self.name, status, grid, seconds, stats)

    def count(
        self, puzzle: Puzzle, *, limit: int = 2, time_limit: float | None = None
    ) -> CountResult:
        _, found, status, seconds, stats = self._take(puzzle, time_limit, False, check_limit(limit))
        return CountResult(self.name, found, limit, status, seconds, stats)

    def solutions(self, puzzle: Puzzle, *, limit: int = 10, time_limit: float | None = None) -> SolutionList:
        """The solutions up to ``limit``, from the same search as ``count`` (asked for canonical order)."""
        kept: list[Grid] = []
        _, _, status, seconds, stats = self._take(puzzle, time_limit, True, check_limit(limit) + 1, kept)
        return list_found(self.name, kept, limit, status, seconds, stats, in_order=self.in_order)

    def _take(self, puzzle: Puzzle, time_limit: float | None, canonical: bool, limit: int,
              kept: list[Grid] | None = None) -> tuple[Grid | None, int, Status, float, dict[str, int]]:
        """Solutions up to ``limit``: the first, how many, the status, the seconds and the stats (and
        each solution appended to ``kept``, when given)."""
        check_kinds(self, puzzle)
        started = time.perf_counter()
        counters = self.counters()
        first, found, status = None, 0, Status.NO_SOLUTION
        search = None
        try:
            search = self.search(puzzle, Deadline(time_limit), counters, canonical)  # may build under the deadline
            for grid in search:
                first = first or grid
                if kept is not None:
                    kept.append(grid)
                found += 1
                status = Status.SOLVED
                if found >= limit:
                    break
        except TimeUp:
            status = Status.TIME_LIMIT
        finally:
            if search is not None:
                search.close()
        return first, found, status, time.perf_counter() - started, counters.stats()
