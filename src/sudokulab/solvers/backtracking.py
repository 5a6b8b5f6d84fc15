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
def _fast_tables(shape: Shape) -> tuple[tuple, tuple, tuple]:
    """The index tables of ``fast_search`` for one shape, built once per shape.

    Units are numbered rows, columns, boxes (3n of them) and a unit-digit pair (u, d) lives at
    index ``u*n + d`` of the ``where`` list. Returns:

    - ``cell_units[cell]``: ``(k, bit)`` three times over, for its row, column and box: ``k = u*n``
      and ``bit`` is the cell's position in that unit as a bit of the ``where`` masks;
    - ``via[u*n + pos]``: the cell at that position of unit u and its two *other* units as
      ``(cell, k1, bit1, k2, bit2)``, so eliminating a digit from it touches only those two;
    - ``unit_cell[u*n + pos]``: the cell at that position, to turn a hidden single into a cell.
    """
    u = units(shape)
    n = shape.n
    all_units = u.rows + u.cols + u.boxes
    unit_cell = tuple(cell for unit in all_units for cell in unit)
    places: list[list[tuple[int, int]]] = [[] for _ in range(n * n)]
    for index, unit in enumerate(all_units):
        for pos, cell in enumerate(unit):
            places[cell].append((index * n, 1 << pos))
    cell_units = tuple(tuple(x for place in cell_places for x in place) for cell_places in places)
    via = []
    for index, unit in enumerate(all_units):
        for cell in unit:
            (k1, bit1), (k2, bit2) = (place for place in places[cell] if place[0] != index * n)
            via.append((cell, k1, bit1, k2, bit2))
    return cell_units, tuple(via), unit_cell


def _settle(cand: list[int], where: list[int], queue: list[tuple[int, int]], tables, full: int, done: int) -> bool:
    """Make the placements in ``queue`` and every single they force; False on a contradiction.

    ``queue`` holds (cell, digit bit) pairs that must hold. A placement removes the cell's other
    digits from its three units' ``where`` masks and the digit from the peers that still have it,
    found through the ``where`` masks of the cell's units (not by scanning all peers). Each removal
    checks at once whether it left a naked single (one digit in a cell) or a hidden single (one
    place for a digit in a unit) and queues it, so the fixpoint needs no sweep over the board.
    Placed cells and finished unit-digits hold the sentinel ``done`` bits above ``full``.
    """
    cell_units, via, unit_cell = tables
    pop = queue.pop
    push = queue.append
    while queue:
        cell, bit = pop()
        mask = cand[cell]
        if not mask & bit:
            return False  # the digit was eliminated after this placement was queued
        if mask > full:
            continue  # already placed
        cand[cell] = bit | done
        k0, p0, k1, p1, k2, p2 = cell_units[cell]
        others = mask ^ bit
        while others:
            other = others & -others
            others ^= other
            d = other.bit_length() - 1
            w = where[k0 + d] ^ p0
            if not w:
                return False
            where[k0 + d] = w
            if not w & (w - 1):
                push((unit_cell[k0 + w.bit_length() - 1], other))
            w = where[k1 + d] ^ p1
            if not w:
                return False
            where[k1 + d] = w
            if not w & (w - 1):
                push((unit_cell[k1 + w.bit_length() - 1], other))
            w = where[k2 + d] ^ p2
            if not w:
                return False
            where[k2 + d] = w
            if not w & (w - 1):
                push((unit_cell[k2 + w.bit_length() - 1], other))
        d = bit.bit_length() - 1
        for k, own in ((k0, p0), (k1, p1), (k2, p2)):
            rest = where[k + d] ^ own  # the peers in this unit that still have the digit
            where[k + d] = done
            while rest:
                low = rest & -rest
                rest ^= low
                peer, ka, pa, kb, pb = via[k + low.bit_length() - 1]
                mask = cand[peer] ^ bit
                if not mask:
                    return False
                cand[peer] = mask
                if not mask & (mask - 1):
                    push((peer, mask))
                w = where[ka + d] ^ pa
                if not w:
                    return False
                where[ka + d] = w
                if not w & (w - 1):
                    push((unit_cell[ka + w.bit_length() - 1], bit))
                w = where[kb + d] ^ pb
                if not w:
                    return False
                where[kb + d] = w
                if not w & (w - 1):
                    push((unit_cell[kb + w.bit_length() - 1], bit))
    return True


def _exclude(cand: list[int], where: list[int], cell: int, bit: int, tables, full: int, done: int) -> bool:
    """Remove one digit from an open cell (the other side of a guess) and settle what follows."""
    cell_units, _, unit_cell = tables
    mask = cand[cell] ^ bit
    cand[cell] = mask
    queue = [(cell, mask)] if not mask & (mask - 1) else []
    d = bit.bit_length() - 1
    k0, p0, k1, p1, k2, p2 = cell_units[cell]
    for k, own in ((k0, p0), (k1, p1), (k2, p2)):
        w = where[k + d] ^ own
        if not w:
            return False
        where[k + d] = w
        if not w & (w - 1):
            queue.append((unit_cell[k + w.bit_length() - 1], bit))
    return _settle(cand, where, queue, tables, full, done)


def fast_search(
    puzzle: Puzzle, deadline: Deadline, counters: _Search, canonical: bool = False
) -> Iterator[Grid]:
    """Singles propagation on both views of the board, and a binary fail-first search.

    The board is kept twice, as in the exact-cover view of Sudoku: ``cand[cell]`` holds the digits
    a cell may take and ``where[unit, digit]`` the places a digit may take in a unit, both as bits
    of one int. Each elimination updates both at once, so a naked single (one digit left in a
    cell) and a hidden single (one place left for a digit) show up the moment they appear, with no
    sweep over the board; placements propagate through a queue to a fixpoint. This is what makes
    it fast in CPython: the work per placement is a few list and int operations per affected peer,
    and finding the branching choice is two C-level ``min`` calls.

    The search branches like Knuth's Algorithm X: on the cell with the fewest digits or, when
    strictly fewer, the unit-digit with the fewest places (a digit that can go in 2 places of a
    row is as good a guess as a 2-digit cell, and often exists when no such cell does). Each guess
    is binary, "cell = digit" and then, once that subtree is done, "cell != digit" propagated in
    the parent, so a refuted guess still teaches the parent something. The two sides partition
    the solutions, so every solution is met exactly once and counting is exact. A state is copied
    (two flat int lists) per guess: cheaper in Python than recording and undoing changes.

    With ``canonical`` it branches on the first open cell in row-major order, smallest digit
    first: propagation only removes values that lead to no solution, so solutions come in
    lexicographic order and the first is the one the classic search finds, with far fewer nodes.

    ``nodes`` counts guesses (each "cell = digit" tried); ``backtracks`` counts dead ends, guesses
    or exclusions whose propagation hit a contradiction.

    Roads not taken: Algorithm X on dicts of sets (several set operations per candidate row per
    placement, slower here), locked candidates on top of singles (about a quarter fewer guesses on
    the hardest sets, but the extra checks on every elimination cost more than that in CPython).
    """
    n = puzzle.n
    full = (1 << n) - 1
    done = ((1 << (n + 1)) - 1) << n  # n+1 bits above the digits: more bits than any real mask
    tables = _fast_tables(puzzle.shape)
    unit_cell = tables[2]
    size = n * n
    cand = [full] * size
    where = [full] * (3 * size)
    givens = [(cell, 1 << (d - 1)) for cell, d in enumerate(puzzle.givens) if d]
    if not _settle(cand, where, givens, tables, full, done):
        return
    count_bits = int.bit_count
    # A frame is (parent cand, parent where, cell, bit): the guess "cell = bit" being explored;
    # when its subtree is finished the parent takes "cell != bit" instead.
    stack: list[tuple[list[int], list[int], int, int]] = []
    open_from = 0  # canonical: every cell before this one is placed in the current state
    alive = True
    while True:
        if alive:
            if canonical:
                cell = open_from
                while cell < size and cand[cell] > full:
                    cell += 1
                if cell == size:
                    yield tuple((mask & full).bit_length() for mask in cand)
                    alive = False
                    continue
                mask = cand[cell]
                bit = mask & -mask
            else:
                mask = min(cand, key=count_bits)
                if mask > full:
                    yield tuple((m & full).bit_length() for m in cand)
                    alive = False
                    continue
                fewest = count_bits(mask)
                w = min(where, key=count_bits) if fewest > 2 else done
                if count_bits(w) < fewest:
                    index = where.index(w)
                    k = index - index % n
                    cell = unit_cell[k + (w & -w).bit_length() - 1]
                    bit = 1 << (index - k)
                else:
                    cell = cand.index(mask)
                    bit = mask & -mask
            stack.append((cand, where, cell, bit))
            counters.nodes += 1
            deadline.check()
            cand = cand[:]
            where = where[:]
            open_from = cell
            if not _settle(cand, where, [(cell, bit)], tables, full, done):
                counters.backtracks += 1
                alive = False
            continue
        if not stack:
            return
        cand, where, cell, bit = stack.pop()
        open_from = cell
        alive = _exclude(cand, where, cell, bit, tables, full, done)
        if not alive:
            counters.backtracks += 1


class FastBacktrackSolver(SearchSolver):
    """``backtrack-fast``: the optimised hand-written search (see ``fast_search``)."""

    name = "backtrack-fast"
    search = staticmethod(fast_search)
