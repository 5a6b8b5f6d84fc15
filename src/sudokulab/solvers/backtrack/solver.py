"""The hand-written paradigm: the classic BOJ 2580 backtracker and an optimised search, under any rules.

Both are depth-first searches written as generators of solutions, so solving is "take the first"
and counting is "take up to the limit": one search, two uses. Both keep an explicit stack, so a
36x36 board with a thousand blanks needs no recursion-depth limit.

More: docs/solvers.md.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...core.grid import Grid
from ...core.puzzle import Puzzle
from ...core.rules import KINDS
from ..base import Capabilities, Deadline
from ..lowering import FORMS, lower
from ..propagation import propagator
from ..propagation.tables import SETTLED
from ..search import SearchCounters, SearchSolver

_CHECK_EVERY = 1024  # nodes between two looks at the clock: cheap, and soon enough past a deadline

NATIVE = frozenset(KINDS)
"""The rule kinds both searches state natively (the classic one's checks, the fast one's propagation,
``propagation.NATIVE``); any other comes in the forms of the shared lowering."""


def classic_search(
    puzzle: Puzzle, deadline: Deadline, counters: SearchCounters, canonical: bool = True
) -> Iterator[Grid]:
    """The classic BOJ 2580 search: blanks row-major, digits 1..n, used-digit tables per group.

    A node is one digit placed in a blank; a backtrack is a blank whose digits ran out. Always
    canonical: trying digits in order over blanks in order meets the solutions in lexicographic
    order, which is why the classic solutions print the lexicographically first one. Every check
    only refuses a digit that no completion could keep, so that order survives any rule set.

    Rules of exactly three complete groups per cell (standard Sudoku, jigsaw) keep the classic
    three tables; any other rule set goes through ``_classic_any`` (``puzzle.rules``), which runs
    standard Sudoku at about half the speed (docs/solvers.md, "Behind the hand-written searches"),
    hence the two paths.
    """
    rules = puzzle.rules
    if rules.partial_groups or rules.pairs or rules.cages or rules.thermos or rules.constraints or any(
            len(groups) != 3 for groups in rules.cell_groups):
        yield from _classic_any(puzzle, deadline, counters)
        return
    n = puzzle.n
    grid = list(puzzle.givens)
    used = [[False] * (n + 1) for _ in rules.groups]  # one used-digit table per group
    blanks: list[tuple[int, list[bool], list[bool], list[bool]]] = []
    for cell, digit in enumerate(grid):
        row, col, box = (used[g] for g in rules.cell_groups[cell])
        if not digit:
            blanks.append((cell, row, col, box))
            continue
        if row[digit] or col[digit] or box[digit]:
            return  # the givens already break a rule
        row[digit] = col[digit] = box[digit] = True

    tried = [0] * len(blanks)  # the digit now placed in each blank, 0 for none
    i = 0
    while i >= 0:
        if i == len(blanks):
            yield tuple(grid)
            i -= 1
            continue
        cell, row, col, box = blanks[i]
        digit = tried[i]
        if digit:
            row[digit] = col[digit] = box[digit] = False
        digit += 1
        while digit <= n and (row[digit] or col[digit] or box[digit]):
            digit += 1
        if digit > n:
            tried[i] = grid[cell] = 0
            counters.backtracks += 1
            i -= 1
            continue
        row[digit] = col[digit] = box[digit] = True
        tried[i] = grid[cell] = digit
        counters.nodes += 1
        if not counters.nodes % _CHECK_EVERY:
            deadline.check()
        i += 1


def _classic_any(puzzle: Puzzle, deadline: Deadline, counters: SearchCounters) -> Iterator[Grid]:
    """The classic search under any rule set: the same order, the same tables, more checks per digit.

    A digit goes in a blank when it is unused in every group of the cell (any number of groups, of
    any length), differs from every differing partner, keeps each cage it is in reachable (the
    partial sum plus the least and the most the cage's remaining blanks can add with distinct
    unused digits must bracket the total) and keeps each thermometer it is on in order (digits
    ``i`` places apart differ by at least ``i``; place ``i`` of ``k`` holds ``i+1 .. n-(k-1-i)``).
    Any other kind comes in the lowering's forms (``solvers.lowering``): the digit is not ruled out
    there, no placed cell holds a digit it forms a forbidden pair with, and each allowed-sets
    constraint through the cell still has a set holding its placed digits and this one.
    """
    rules = puzzle.rules
    n = puzzle.n
    grid = list(puzzle.givens)
    if rules.first_conflict(puzzle.givens) is not None:
        return  # the givens already break a rule
    used = [[False] * (n + 1) for _ in rules.groups]
    for cell, digit in enumerate(grid):
        if digit:
            for g in rules.cell_groups[cell]:
                used[g][digit] = True
    partners: list[list[int]] = [[] for _ in grid]
    for a, b in rules.pairs:
        partners[a].append(b)
        partners[b].append(a)
    cage_sum = [0] * len(rules.cages)  # the placed digits' sum of each cage
    cage_open = [0] * len(rules.cages)  # its blanks
    cage_used = [0] * len(rules.cages)  # its placed digits as bits (bit d for digit d)
    cell_cages: list[list[int]] = [[] for _ in grid]
    for index, cage in enumerate(rules.cages):
        for cell in cage.cells:
            cell_cages[cell].append(index)
            if grid[cell]:
                cage_sum[index] += grid[cell]
                cage_used[index] |= 1 << grid[cell]
            else:
                cage_open[index] += 1
    totals = [cage.total for cage in rules.cages]
    cell_thermos: list[list[tuple[tuple[int, ...], int, int, int]]] = [[] for _ in grid]
    for thermo in rules.thermos:
        k = len(thermo.cells)
        for place, cell in enumerate(thermo.cells):
            cell_thermos[cell].append((thermo.cells, place, place + 1, n - (k - 1 - place)))
    forms = lower(rules, NATIVE)
    ruled = [0] * len(grid)  # per cell, the digits ruled out there as bits (bit d for digit d)
    for cell, digit in forms.ruled_out:
        ruled[cell] |= 1 << digit
    forbidden: list[dict[int, list[tuple[int, int]]]] = [{} for _ in grid]  # per cell and digit: (cell, digit)
    for _, (a, x), (b, y) in forms.pairs:
        forbidden[a].setdefault(x, []).append((b, y))
        forbidden[b].setdefault(y, []).append((a, x))
    set_masks = [[sum(1 << d for d in digits) for digits in s.sets] for s in forms.sets]
    set_used = [0] * len(forms.sets)  # the placed digits of each allowed-sets constraint as bits
    cell_sets: list[list[int]] = [[] for _ in grid]
    for index, allowed in enumerate(forms.sets):
        for cell in allowed.cells:
            cell_sets[cell].append(index)
            if grid[cell]:
                set_used[index] |= 1 << grid[cell]
    if forms and not _givens_keep(grid, ruled, forbidden, set_used, set_masks, forms.sets):
        return  # the givens break a form of the lowering (a ruled-out digit the checker cannot see yet)
    blanks = [(cell, [used[g] for g in rules.cell_groups[cell]], partners[cell], cell_cages[cell],
               cell_thermos[cell], ruled[cell], forbidden[cell], cell_sets[cell])
              for cell, digit in enumerate(grid) if not digit]
    digits = range(1, n + 1)

    def lowered_fits(digit: int, pairs: dict[int, list[tuple[int, int]]], sets: list[int]) -> bool:
        for other, value in pairs.get(digit, ()):
            if grid[other] == value:
                return False
        bit = 1 << digit
        for index in sets:
            placed = set_used[index]
            if placed & bit or not any(not (placed | bit) & ~mask for mask in set_masks[index]):
                return False
        return True

    def fits(digit: int, cages: list[int], thermos: list[tuple[tuple[int, ...], int, int, int]]) -> bool:
        for index in cages:
            placed = cage_sum[index] + digit
            left = cage_open[index] - 1
            free = [d for d in digits if d != digit and not cage_used[index] >> d & 1]
            if left > len(free):
                return False
            if not placed + sum(free[:left]) <= totals[index] <= placed + sum(free[len(free) - left:]):
                return False
        for cells, place, low, high in thermos:
            if not low <= digit <= high:
                return False
            for other, cell in enumerate(cells):
                value = grid[cell]
                if value and other != place and (value - digit) * (1 if other > place else -1) < abs(other - place):
                    return False
        return True

    tried = [0] * len(blanks)
    i = 0
    while i >= 0:
        if i == len(blanks):
            yield tuple(grid)
            i -= 1
            continue
        cell, tables, mates, cages, thermos, out, pairs, sets = blanks[i]
        digit = tried[i]
        if digit:
            for table in tables:
                table[digit] = False
            for index in cages:
                cage_sum[index] -= digit
                cage_open[index] += 1
                cage_used[index] ^= 1 << digit
            for index in sets:
                set_used[index] ^= 1 << digit
            grid[cell] = 0
        digit += 1
        checked = bool(cages or thermos)
        lowered_checks = bool(out or pairs or sets)
        while digit <= n:  # the first digit that passes every check (for-else: no check refused it)
            for table in tables:
                if table[digit]:
                    break
            else:
                for mate in mates:
                    if grid[mate] == digit:
                        break
                else:
                    if (not checked or fits(digit, cages, thermos)) and (
                            not lowered_checks or (not out >> digit & 1 and lowered_fits(digit, pairs, sets))):
                        break
            digit += 1
        if digit > n:
            tried[i] = 0
            counters.backtracks += 1
            i -= 1
            continue
        for table in tables:
            table[digit] = True
        for index in cages:
            cage_sum[index] += digit
            cage_open[index] -= 1
            cage_used[index] |= 1 << digit
        for index in sets:
            set_used[index] |= 1 << digit
        tried[i] = grid[cell] = digit
        counters.nodes += 1
        if not counters.nodes % _CHECK_EVERY:
            deadline.check()
        i += 1


def _givens_keep(grid: list[int], ruled: list[int], forbidden: list[dict[int, list[tuple[int, int]]]],
                 set_used: list[int], set_masks: list[list[int]], sets: tuple) -> bool:
    """Whether the givens keep the lowering's forms: no ruled-out digit, no forbidden pair, each
    allowed-sets constraint's given digits distinct and inside one of its sets."""
    for cell, digit in enumerate(grid):
        if digit and (ruled[cell] >> digit & 1 or any(grid[o] == v for o, v in forbidden[cell].get(digit, ()))):
            return False
    for index, allowed in enumerate(sets):
        placed = [grid[cell] for cell in allowed.cells if grid[cell]]
        if len(set(placed)) < len(placed) or not any(not set_used[index] & ~mask for mask in set_masks[index]):
            return False
    return True


class BacktrackSolver(SearchSolver):
    """``backtrack``: the baseline, exactly the classic published BOJ 2580 solution, iterative."""

    name = "backtrack"
    paradigm = "hand-written search (classic)"
    capabilities = Capabilities(kinds=NATIVE, forms=FORMS)
    search = staticmethod(classic_search)
    in_order = True  # cells in row-major order, digits upward: solutions come in canonical order


def fast_search(
    puzzle: Puzzle, deadline: Deadline, counters: SearchCounters, canonical: bool = False
) -> Iterator[Grid]:
    """Singles propagated on both views of the board, and a binary fail-first search.

    The board is kept twice, as in the exact-cover view of Sudoku: ``cand[cell]`` holds the digits
    a cell may take and ``where[group, digit]`` the places a digit may take in a complete group,
    each as the bits of one int. Every elimination updates both, so a naked single (one digit left
    in a cell) and a hidden single (one place left for a digit in a complete group) are seen the
    moment they appear, with no sweep over the board; partial groups and differing pairs remove
    placed digits, cage sums and thermometers bound their cells (see ``sudokulab.solvers.propagation``,
    shared with ``generate``). That is what makes it fast in CPython: a few list and int
    operations per affected peer, and C-level ``map``/``min`` to choose a branch.

    It branches on the open cell with the fewest digits relative to its record of failures,
    "dom/wdeg" (Boussemart, Hemery, Lecoutre and Sais, ECAI 2004): each group starts at weight 1
    and gains 1 whenever a contradiction surfaces in it, and the cell with the smallest
    ``digits / (summed weight of its groups)`` is chosen, the first one on a tie. The search
    so learns where the puzzle is hard and goes there first: fewer guesses on hard puzzles, and
    more large boards solved, than the first cell with the fewest digits (docs/solvers.md, "Behind
    the hand-written searches"). With no learning beyond these weights, a depth-first search still
    has a heavy tail on large boards near the hardness peak (SAT does not).

    Each guess is binary: "cell = digit", then, once that subtree is done, "cell != digit"
    propagated in the parent, so a refuted guess still narrows the parent. The two sides
    partition the solutions, so every solution is met exactly once and counting is exact. A state
    is copied (two flat int lists) per guess: cheaper in Python than undoing changes.

    With ``canonical`` it branches on the first open cell in row-major order, smallest digit
    first: propagation only removes values that lead to no solution, so solutions come in
    lexicographic order and the first is the one the classic search finds, with far fewer nodes.

    ``nodes`` counts guesses ("cell = digit" tried); ``backtracks`` counts dead ends, guesses or
    exclusions whose propagation met a contradiction.

    Roads not taken (measured: docs/solvers.md): branching also on a unit-digit when it has fewer
    places than the smallest cell has digits (Knuth's column choice in Algorithm X) made more
    guesses, not fewer; locked candidates (pointing and claiming) after each fixpoint cut guesses
    but cost more time than they saved; Algorithm X on dicts of sets does several set operations
    per candidate per placement, more than the handful of int operations here; restarts (keeping
    the weights) only moved the heavy tail of large puzzles to other puzzles.
    """
    n = puzzle.n
    size = n * n
    prop = propagator(puzzle.rules)
    full, done, tables, settle, exclude = prop.full, prop.done, prop.tables, prop.settle, prop.exclude
    group_cells = prop.group_cells
    state = prop.start(puzzle.givens)
    if state is None:
        return
    cand, where = state
    count_bits = int.bit_count
    weight = list(prop.weights)  # per cell, the summed failure weights of its groups
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
                best = float(n)  # above every open cell's digits / weight (weights start at 1 or more)
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
            failed = settle(cand, where, [(cell, bit)], tables, full, done)
        else:
            if not stack:
                return
            cand, where, cell, bit = stack.pop()
            open_from = cell
            failed = exclude(cand, where, cell, bit, tables, full, done)
        alive = failed == SETTLED
        if not alive:
            counters.backtracks += 1
            if failed >= 0 and not canonical:
                for i in group_cells[failed // n]:
                    weight[i] += 1


class FastBacktrackSolver(SearchSolver):
    """``backtrack-fast``: the optimised hand-written search (see ``fast_search``)."""

    name = "backtrack-fast"
    capabilities = Capabilities(kinds=NATIVE, forms=FORMS)
    search = staticmethod(fast_search)
    in_order = True  # with canonical: first open cell, smallest digit first (see fast_search)
