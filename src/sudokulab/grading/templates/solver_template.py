"""A solver to start from; check yours with ``sudokulab check-solver mine.py:StudentSolver``.

A plain backtracking search: blank cells in row-major order, digits from 1 up, each digit checked
against the cell's peers. Trying digits in order over cells in order meets the solutions in
lexicographic order, so the first one found is the canonical answer, and counting is taking more.

A solver is any class with the members of ``sudokulab.solvers.Solver`` (docs/grading.md); this one
inherits the plumbing from ``SolverBase`` and declares what it can do in ``capabilities``: the
contract then checks exactly that. Plug it into ``compare`` with
``sudokulab compare PUZZLE --solver-class mine.py:StudentSolver``.
"""

import time

from sudokulab.solvers.base import (
    Capabilities,
    CountResult,
    Deadline,
    SolverBase,
    SolveResult,
    Status,
    TimeUp,
    check_kinds,
    check_limit,
)


class StudentSolver(SolverBase):
    """A plain backtracker (row-major, digits in order)."""

    name = "student"
    paradigm = "hand-written search (student)"
    capabilities = Capabilities(canonical=True, count=True, time_limit=True,
                                kinds=frozenset({"all-different", "differ"}),
                                kinds_why="the search checks peers only, no sums or thermometers")

    def solutions(self, puzzle, deadline):
        """Every solution, in lexicographic order (a generator: take one to solve, more to count)."""
        n, grid, peers = puzzle.n, list(puzzle.givens), puzzle.rules.peers
        if puzzle.rules.first_conflict(grid) is not None:
            return
        blanks = [cell for cell, digit in enumerate(grid) if not digit]

        def place(i):
            if i == len(blanks):
                yield tuple(grid)
                return
            deadline.check()
            cell = blanks[i]
            used = {grid[peer] for peer in peers[cell]}
            for digit in range(1, n + 1):
                if digit not in used:
                    grid[cell] = digit
                    yield from place(i + 1)
            grid[cell] = 0

        yield from place(0)

    def solve(self, puzzle, *, time_limit=None, canonical=False):
        check_kinds(self, puzzle)
        start = time.perf_counter()
        try:
            grid = next(self.solutions(puzzle, Deadline(time_limit)), None)
        except TimeUp:
            return SolveResult(self.name, Status.TIME_LIMIT, None, time.perf_counter() - start)
        status = Status.SOLVED if grid else Status.NO_SOLUTION
        return SolveResult(self.name, status, grid, time.perf_counter() - start)

    def count(self, puzzle, *, limit=2, time_limit=None):
        check_kinds(self, puzzle)
        limit, start, found = check_limit(limit), time.perf_counter(), 0
        status = Status.SOLVED
        try:
            for _ in self.solutions(puzzle, Deadline(time_limit)):
                found += 1
                if found == limit:
                    break
        except TimeUp:
            status = Status.TIME_LIMIT
        if found == 0 and status is Status.SOLVED:
            status = Status.NO_SOLUTION
        return CountResult(self.name, found, limit, status, time.perf_counter() - start)
