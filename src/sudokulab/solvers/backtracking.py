"""The hand-written paradigm: the classic BOJ 2580 backtracker and an optimised search.

Both are depth-first searches written as generators of solutions, so solving is "take the first"
and counting is "take up to the limit": one search, two uses. Both keep an explicit stack, so a
36x36 board with a thousand blanks needs no recursion-depth limit.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import NamedTuple

from ..grid import Grid, Puzzle, Shape, units
from .base import Deadline
from .search import SearchCounters, SearchSolver

_CHECK_EVERY = 1024  # nodes between two looks at the clock: cheap, and a few ms at worst


def classic_search(
    puzzle: Puzzle, deadline: Deadline, counters: SearchCounters, canonical: bool = True
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
    paradigm = "hand-written search (classic)"
    search = staticmethod(classic_search)


_SETTLED = -1
"""What ``_settle`` returns when the queue ran dry without a contradiction."""
_UNKNOWN = -2
"""What it returns for a contradiction not tied to one unit; otherwise it returns ``u*n`` for the unit u."""


class _Positions(dict):
    """The set bits of a mask as a tuple of positions, computed on first use (boards above 12x12).

    Emptied when it reaches ``LIMIT`` masks, so a long search on a 36x36 board stays in bounds.
    """

    LIMIT = 1 << 17

    def __missing__(self, mask: int) -> tuple[int, ...]:
        if len(self) >= self.LIMIT:
            self.clear()
        positions = self[mask] = tuple(i for i in range(mask.bit_length()) if mask >> i & 1)
        return positions


class _FastTables(NamedTuple):
    """The index tables of ``fast_search`` for one shape.

    Units are numbered rows, columns, boxes (3n of them); the unit-digit pair (u, d) lives at index
    ``u*n + d`` of the ``where`` list, and position p of unit u at index ``u*n + p`` of the tables.
    """

    cell_units: tuple[tuple[int, ...], ...]
    """Per cell, ``(k, bit)`` three times over (row, column, box): ``k = u*n`` and ``bit`` the
    cell's position in that unit as a bit of the ``where`` masks."""
    via: tuple[tuple[int, int, int, int, int], ...]
    """At ``u*n + p``: the cell at position p of unit u and its two *other* units, as
    ``(cell, k1, bit1, k2, bit2)``: removing a digit from it found through u touches only those."""
    unit_cell: tuple[int, ...]
    """At ``u*n + p``: the cell at position p of unit u (to turn a hidden single into a cell)."""
    positions: tuple[tuple[int, ...], ...] | _Positions
    """``positions[mask]``: the set bits of an n-bit mask; a table up to 12x12, a cache above."""
    unit_cells: tuple[tuple[int, ...], ...]
    """The cells of each unit, in unit order (rows, columns, boxes)."""


@cache
def _fast_tables(shape: Shape) -> _FastTables:
    """The tables of ``fast_search`` for a shape, built once per shape."""
    u = units(shape)
    n = shape.n
    all_units = u.rows + u.cols + u.boxes
    places: list[list[tuple[int, int]]] = [[] for _ in range(n * n)]
    for index, unit in enumerate(all_units):
        for pos, cell in enumerate(unit):
            places[cell].append((index * n, 1 << pos))
    via = []
    for index, unit in enumerate(all_units):
        for cell in unit:
            (k1, bit1), (k2, bit2) = (place for place in places[cell] if place[0] != index * n)
            via.append((cell, k1, bit1, k2, bit2))
    positions: tuple[tuple[int, ...], ...] | _Positions = _Positions()
    if n <= 12:
        positions = tuple(tuple(i for i in range(n) if mask >> i & 1) for mask in range(1 << n))
    return _FastTables(
        cell_units=tuple(tuple(x for place in cell_places for x in place) for cell_places in places),
        via=tuple(via),
        unit_cell=tuple(cell for unit in all_units for cell in unit),
        positions=positions,
        unit_cells=all_units,
    )


def _settle(
    cand: list[int], where: list[int], queue: list[tuple[int, int]], tables: _FastTables, full: int, done: int
) -> int:
    """Make the placements in ``queue`` and every single they force; ``_SETTLED`` or where it failed.

    ``queue`` holds (cell, digit bit) pairs that must hold. A placement removes the cell's other
    digits from its three units' ``where`` masks, and its digit from the peers that still have
    it, found through the ``where`` masks of the cell's units rather than by visiting all peers.
    Each removal checks at once for a naked single (one digit left in a cell) or a hidden single
    (one place left for a digit in a unit) and queues it, or for an empty mask (contradiction):
    no sweep over the board is needed to reach the fixpoint. Placed cells and finished
    unit-digits hold the ``done`` sentinel bits above ``full``. On a contradiction it returns the
    unit where it surfaced (``u*n``), which the search uses to weight its choices.
    """
    cell_units, via, unit_cell, positions, _ = tables
    pop = queue.pop
    push = queue.append
    while queue:
        cell, bit = pop()
        mask = cand[cell]
        if not mask & bit:
            return _UNKNOWN  # the digit was eliminated after this placement was queued
        if mask > full:
            continue  # already placed
        cand[cell] = bit | done
        k0, p0, k1, p1, k2, p2 = cell_units[cell]
        for d in positions[mask ^ bit]:  # the cell's other digits leave its three units
            i = k0 + d
            w = where[i] ^ p0
            where[i] = w
            if not w & (w - 1):
                if not w:
                    return k0
                push((unit_cell[k0 + w.bit_length() - 1], 1 << d))
            i = k1 + d
            w = where[i] ^ p1
            where[i] = w
            if not w & (w - 1):
                if not w:
                    return k1
                push((unit_cell[k1 + w.bit_length() - 1], 1 << d))
            i = k2 + d
            w = where[i] ^ p2
            where[i] = w
            if not w & (w - 1):
                if not w:
                    return k2
                push((unit_cell[k2 + w.bit_length() - 1], 1 << d))
        d = bit.bit_length() - 1
        for k, own in ((k0, p0), (k1, p1), (k2, p2)):
            i = k + d
            rest = where[i] ^ own  # the cell's peers in this unit that still have the digit
            where[i] = done
            for pos in positions[rest]:
                peer, ka, pa, kb, pb = via[k + pos]
                mask = cand[peer] ^ bit
                cand[peer] = mask
                if not mask & (mask - 1):
                    if not mask:
                        return k  # the peer lost its last digit to this unit
                    push((peer, mask))
                i = ka + d
                w = where[i] ^ pa
                where[i] = w
                if not w & (w - 1):
                    if not w:
                        return ka
                    push((unit_cell[ka + w.bit_length() - 1], bit))
                i = kb + d
                w = where[i] ^ pb
                where[i] = w
                if not w & (w - 1):
                    if not w:
                        return kb
                    push((unit_cell[kb + w.bit_length() - 1], bit))
    return _SETTLED


def _exclude(
    cand: list[int], where: list[int], cell: int, bit: int, tables: _FastTables, full: int, done: int
) -> int:
    """Remove one digit from an open cell (the other side of a guess) and settle what follows."""
    unit_cell = tables.unit_cell
    mask = cand[cell] ^ bit
    cand[cell] = mask
    queue = [] if mask & (mask - 1) else [(cell, mask)]
    d = bit.bit_length() - 1
    k0, p0, k1, p1, k2, p2 = tables.cell_units[cell]
    for k, own in ((k0, p0), (k1, p1), (k2, p2)):
        w = where[k + d] ^ own
        where[k + d] = w
        if not w & (w - 1):
            if not w:
                return k
            queue.append((unit_cell[k + w.bit_length() - 1], bit))
    return _settle(cand, where, queue, tables, full, done)


def fast_search(
    puzzle: Puzzle, deadline: Deadline, counters: SearchCounters, canonical: bool = False
) -> Iterator[Grid]:
    """Singles propagated on both views of the board, and a binary fail-first search.

    The board is kept twice, as in the exact-cover view of Sudoku: ``cand[cell]`` holds the digits
    a cell may take and ``where[unit, digit]`` the places a digit may take in a unit, each as the
    bits of one int. Every elimination updates both, so a naked single (one digit left in a cell)
    and a hidden single (one place left for a digit in a unit) are seen the moment they appear,
    with no sweep over the board (see ``_settle``). That is what makes it fast in CPython: a few
    list and int operations per affected peer, and C-level ``map``/``min`` to choose a branch.

    It branches on the open cell with the fewest digits relative to its record of failures,
    "dom/wdeg" (Boussemart, Hemery, Lecoutre and Sais, ECAI 2004): each unit starts at weight 1 and
    gains 1 whenever a contradiction surfaces in it, and the cell with the smallest
    ``digits / (weight of its row + column + box)`` is chosen, the first one on a tie. The search
    so learns where the puzzle is hard and goes there first: on forum_hardest_1106 it makes 48%
    fewer guesses than the first cell with the fewest digits (85 against 162 a puzzle); on twelve
    25x25 boards with 45% given, near the hardness peak of random puzzles, it solved 10 within
    20 s (median 0.5 s) where plain fewest-digits solved 6. The rest stay out of reach: with no
    learning beyond these weights, a depth-first search has a heavy tail there (SAT does not).

    Each guess is binary: "cell = digit", then, once that subtree is done, "cell != digit"
    propagated in the parent, so a refuted guess still narrows the parent. The two sides
    partition the solutions, so every solution is met exactly once and counting is exact. A state
    is copied (two flat int lists) per guess: cheaper in Python than undoing changes.

    With ``canonical`` it branches on the first open cell in row-major order, smallest digit
    first: propagation only removes values that lead to no solution, so solutions come in
    lexicographic order and the first is the one the classic search finds, with far fewer nodes.

    ``nodes`` counts guesses ("cell = digit" tried); ``backtracks`` counts dead ends, guesses or
    exclusions whose propagation met a contradiction.

    Roads not taken, measured on forum_hardest_1106: branching also on a unit-digit when it has
    fewer places than the smallest cell has digits (Knuth's column choice in Algorithm X) made
    more guesses here, not fewer (122 against 85 with dom/wdeg, 203 against 162 without);
    locked candidates (pointing and claiming) checked after each fixpoint cut guesses by about a
    quarter but cost a third more time; Algorithm X on dicts of sets does several set operations
    per candidate per placement, more than the handful of int operations here; restarts (keeping
    the weights) only moved the heavy tail of 25x25 puzzles to other puzzles.
    """
    n = puzzle.n
    size = n * n
    full = (1 << n) - 1
    done = ((1 << (n + 1)) - 1) << n  # n+1 bits above the digits: more than any real mask has
    tables = _fast_tables(puzzle.shape)
    unit_cells = tables.unit_cells
    cand = [full] * size
    where = [full] * (3 * size)
    givens = [(cell, 1 << (d - 1)) for cell, d in enumerate(puzzle.givens) if d]
    if _settle(cand, where, givens, tables, full, done) != _SETTLED:
        return
    count_bits = int.bit_count
    weight = [3] * size  # per cell, the summed failure weights of its row, column and box
    # A frame is (parent cand, parent where, cell, bit): the guess "cell = digit" now explored.
    # When its subtree is finished, the parent takes "cell != digit" instead.
    stack: list[tuple[list[int], list[int], int, int]] = []
    open_from = 0  # canonical: every cell before this one is placed in the current state
    alive = True  # the current state is settled and still to be branched on
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
            else:
                counts = list(map(count_bits, cand))
                fewest = min(counts)
                if fewest > n:  # every cell placed
                    yield tuple((mask & full).bit_length() for mask in cand)
                    alive = False
                    continue
                best = float(n)  # above every open cell's digits / weight (weights start at 3)
                for i, count in enumerate(counts):
                    if count <= n and count < best * weight[i]:
                        best = count / weight[i]
                        cell = i
                mask = cand[cell]
            bit = mask & -mask
            stack.append((cand, where, cell, bit))
            counters.nodes += 1
            deadline.check()
            cand = cand[:]
            where = where[:]
            open_from = cell
            failed = _settle(cand, where, [(cell, bit)], tables, full, done)
        else:
            if not stack:
                return
            cand, where, cell, bit = stack.pop()
            open_from = cell
            failed = _exclude(cand, where, cell, bit, tables, full, done)
        alive = failed == _SETTLED
        if not alive:
            counters.backtracks += 1
            if failed >= 0 and not canonical:
                for i in unit_cells[failed // n]:
                    weight[i] += 1


class FastBacktrackSolver(SearchSolver):
    """``backtrack-fast``: the optimised hand-written search (see ``fast_search``)."""

    name = "backtrack-fast"
    search = staticmethod(fast_search)
