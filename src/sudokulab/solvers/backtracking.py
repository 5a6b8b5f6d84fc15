"""The hand-written paradigm: the classic BOJ 2580 backtracker and an optimised search.

Both are depth-first searches written as generators of solutions, so solving is "take the first"
and counting is "take up to the limit": one search, two uses. Both keep an explicit stack, so a
36x36 board with a thousand blanks needs no recursion-depth limit.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from functools import cache
from itertools import islice

from ..grid import Grid, Puzzle, Shape, units
from .base import CountResult, Deadline, SolverBase, SolveResult, Status, TimeUp

_CHECK_EVERY = 1024  # nodes between two looks at the clock: cheap, and a few ms at worst


class _Search:
    """Counters shared by the searches; reported as the solver's stats."""

    __slots__ = ("nodes", "backtracks")

    def __init__(self) -> None:
        self.nodes = 0
        self.backtracks = 0

    def stats(self) -> dict[str, int]:
        return {"nodes": self.nodes, "backtracks": self.backtracks}


SearchFunction = Callable[[Puzzle, Deadline, _Search, bool], Iterator[Grid]]


class SearchSolver(SolverBase):
    """Runs a solution generator under a deadline; the subclasses differ only in the search."""

    search: SearchFunction

    def solve(
        self, puzzle: Puzzle, *, time_limit: float | None = None, canonical: bool = False
    ) -> SolveResult:
        started = time.perf_counter()
        counters = _Search()
        try:
            grid = next(self.search(puzzle, Deadline(time_limit), counters, canonical), None)
            status = Status.NO_SOLUTION if grid is None else Status.SOLVED
        except TimeUp:
            grid, status = None, Status.TIME_LIMIT
        return SolveResult(self.name, status, grid, time.perf_counter() - started, counters.stats())

    def count(
        self, puzzle: Puzzle, *, limit: int = 2, time_limit: float | None = None
    ) -> CountResult:
        started = time.perf_counter()
        counters = _Search()
        found = 0
        status = Status.NO_SOLUTION
        try:
            for _ in islice(self.search(puzzle, Deadline(time_limit), counters, False), limit):
                found += 1
                status = Status.SOLVED
        except TimeUp:
            status = Status.TIME_LIMIT
        return CountResult(
            self.name, found, limit, status, time.perf_counter() - started, counters.stats()
        )


def classic_search(
    puzzle: Puzzle, deadline: Deadline, counters: _Search, canonical: bool = True
) -> Iterator[Grid]:
    """The classic BOJ 2580 search: blanks row-major, digits 1..n, used-digit tables per unit.

    A node is one digit placed in a blank; a backtrack is a blank whose digits ran out. Always
    canonical: trying digits in order over blanks in order meets the solutions in lexicographic
    order, which is why the classic solutions print the lexicographically first one.
    """
    shape = puzzle.shape
    n = shape.n
    grid = list(puzzle.givens)
    row_used = [[False] * (n + 1) for _ in range(n)]
    col_used = [[False] * (n + 1) for _ in range(n)]
    box_used = [[False] * (n + 1) for _ in range(n)]
    blanks: list[tuple[int, int, int, int]] = []
    for cell, digit in enumerate(grid):
        r, c = divmod(cell, n)
        b = shape.box_of(r, c)
        if not digit:
            blanks.append((cell, r, c, b))
            continue
        if row_used[r][digit] or col_used[c][digit] or box_used[b][digit]:
            return  # the givens already break a rule
        row_used[r][digit] = col_used[c][digit] = box_used[b][digit] = True

    tried = [0] * len(blanks)  # the digit now placed in each blank, 0 for none
    i = 0
    while i >= 0:
        if i == len(blanks):
            yield tuple(grid)
            i -= 1
            continue
        cell, r, c, b = blanks[i]
        digit = tried[i]
        if digit:
            row_used[r][digit] = col_used[c][digit] = box_used[b][digit] = False
        digit += 1
        while digit <= n and (row_used[r][digit] or col_used[c][digit] or box_used[b][digit]):
            digit += 1
        if digit > n:
            tried[i] = grid[cell] = 0
            counters.backtracks += 1
            i -= 1
            continue
        row_used[r][digit] = col_used[c][digit] = box_used[b][digit] = True
        tried[i] = grid[cell] = digit
        counters.nodes += 1
        if not counters.nodes % _CHECK_EVERY:
            deadline.check()
        i += 1


class BacktrackSolver(SearchSolver):
    """``backtrack``: the baseline, exactly the classic published BOJ 2580 solution, iterative."""

    name = "backtrack"
    search = staticmethod(classic_search)


@cache
def _tables(shape: Shape) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """Peers and units of a shape as plain tuples, the fastest form for the inner loops."""
    u = units(shape)
    peers = tuple(tuple(sorted(p)) for p in u.peers)
    return peers, u.rows + u.cols + u.boxes


def _propagate(cand: list[int], queue: list[int], peers, all_units, full: int) -> bool:
    """Apply naked and hidden singles to a fixpoint; False on a contradiction.

    ``cand`` holds one bit set per cell (bit d-1 for digit d). ``queue`` lists cells that have just
    become single-valued and whose digit is still to be removed from their peers.
    """
    while True:
        while queue:
            cell = queue.pop()
            bit = cand[cell]
            for peer in peers[cell]:
                mask = cand[peer]
                if mask & bit:
                    mask ^= bit
                    if not mask:
                        return False
                    cand[peer] = mask
                    if not mask & (mask - 1):
                        queue.append(peer)
        for unit in all_units:
            once = twice = 0
            for cell in unit:
                mask = cand[cell]
                twice |= once & mask
                once |= mask
            if once != full:
                return False  # some digit has no place left in this unit
            only = once & ~twice
            if not only:
                continue
            for cell in unit:
                mask = cand[cell]
                hidden = mask & only
                if hidden and hidden != mask:
                    if hidden & (hidden - 1):
                        return False  # two digits can only go in this one cell
                    cand[cell] = hidden
                    queue.append(cell)
        if not queue:
            return True


def fast_search(
    puzzle: Puzzle, deadline: Deadline, counters: _Search, canonical: bool = False
) -> Iterator[Grid]:
    """Bit-set candidates, singles propagation and most-constrained-cell branching.

    Each cell holds its candidate digits as bits of one int. After every placement, naked singles
    (a cell with one candidate left) and hidden singles (a digit with one place left in a unit) are
    propagated to a fixpoint, which alone solves most published puzzles without a guess. Then the
    search branches on the cell with the fewest candidates (fail first), smallest digit first, on
    a copy of the candidate list (copying 81 ints is cheaper in Python than undoing changes).

    With ``canonical`` it branches on the first open cell in row-major order instead: propagation
    only removes values that lead to no solution, so the first solution met is still the
    lexicographically first one, as the classic search finds it, with far fewer nodes.
    """
    n = puzzle.n
    full = (1 << n) - 1
    peers, all_units = _tables(puzzle.shape)
    cand = [1 << (d - 1) if d else full for d in puzzle.givens]
    queue = [cell for cell, d in enumerate(puzzle.givens) if d]
    if not _propagate(cand, queue, peers, all_units, full):
        return
    cells = range(len(cand))
    stack: list[tuple[list[int], int, int]] = []
    state: list[int] | None = cand
    while True:
        if state is not None:
            chosen, fewest = -1, n + 1
            for cell in cells:
                mask = state[cell]
                if mask & (mask - 1):
                    if canonical:
                        chosen = cell
                        break
                    size = mask.bit_count()
                    if size < fewest:
                        chosen, fewest = cell, size
                        if size == 2:
                            break
            if chosen < 0:
                yield tuple(mask.bit_length() for mask in state)
            else:
                stack.append((state, chosen, state[chosen]))
            state = None
        if not stack:
            return
        parent, cell, untried = stack[-1]
        if not untried:
            stack.pop()
            counters.backtracks += 1
            continue
        bit = untried & -untried
        stack[-1] = (parent, cell, untried ^ bit)
        child = parent[:]
        child[cell] = bit
        counters.nodes += 1
        if not counters.nodes % 64:
            deadline.check()
        if _propagate(child, [cell], peers, all_units, full):
            state = child


class FastBacktrackSolver(SearchSolver):
    """``backtrack-fast``: the optimised hand-written search (see ``fast_search``)."""

    name = "backtrack-fast"
    search = staticmethod(fast_search)
