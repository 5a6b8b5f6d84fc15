"""Algorithm X with dancing links on flat lists: ``dlx``'s default formulation (``structure=links``).

Every 1 of the exact-cover matrix is a node in the up/down list of its column; covering unlinks
nodes, uncovering relinks them in reverse order, so no state is copied. A node's row mates are a
precomputed tuple, so there are no left/right links; a covered column gets a huge size instead of
leaving a header list, so ``min(size)`` and ``size.index`` choose a column in C. When every row
fills exactly four primary columns (standard Sudoku, jigsaw) the three mates are unrolled
(``_four_links_search``); other rules run ``_general_links_search``, a loop over the mates, which is
slower on standard Sudoku (``benchmarks/results/dlx.md``), so the unrolled one stays.

The general search and the unrolled four-column one run on one structure and must count alike
(a test checks it).

More: docs/solvers.md.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from ...core.grid import Grid
from ...core.puzzle import Puzzle
from ...core.rules import Rules
from ...core.variables import cell_digit, index
from ..base import Deadline
from ..building import Kept
from .algorithm_x import CHECK_EVERY, COVERED, SECONDARY, SOLVED, DlxCounters, choose
from .model import layout, matrix_columns


class _Links(NamedTuple):
    """The dancing-links matrix of one rule set: columns are nodes 0..C-1, then each row's nodes in turn.

    ``mates`` is, per node, the other nodes of its row each followed by its column (empty for a
    header); ``choices`` per node its row's (cell, digit) (``variables.cell_digit``); ``four`` is True when every
    row fills exactly four primary columns (standard Sudoku and jigsaw), where the unrolled search runs.
    """

    columns: int
    up: list[int]
    down: list[int]
    size: list[int]
    mates: tuple[tuple[int, ...], ...]
    pairs: tuple[tuple[tuple[int, int], ...], ...]
    """Per node, its row mates as (node, column) pairs, for the general search."""
    backwards: tuple[tuple[tuple[int, int], ...], ...]
    """The same in reverse order: uncovering undoes covering backwards."""
    choices: tuple[tuple[int, int] | None, ...]
    four: bool


_LINKS: Kept[_Links] = Kept(8)


def _links(rules: Rules, deadline: Deadline | None = None) -> _Links:
    """The links of the empty board of a rule set, built once (under ``deadline``: a build cut short is
    not kept); each search copies the mutable lists.

    A secondary column starts at ``SECONDARY`` plus its number of rows, so it is never chosen and
    never looks forced; when all that is left below ``SECONDARY`` is covered, the cover is exact.
    """
    return _LINKS.get(rules, lambda: _build_links(rules, deadline))


def _build_links(rules: Rules, deadline: Deadline | None) -> _Links:
    matrix = matrix_columns(rules, deadline)
    table = layout(rules)
    ncols = table.columns
    chains: list[list[int]] = [[c] for c in range(ncols)]
    mates: list[tuple[int, ...]] = [()] * ncols
    choices: list[tuple[int, int] | None] = [None] * ncols
    n = rules.n
    base = ncols
    for r, cols in enumerate(matrix):
        if deadline is not None and not r & 4095:
            deadline.check()
        width = len(cols)
        for k, col in enumerate(cols):
            chains[col].append(base + k)
            mates.append(tuple(x for m in range(width) if m != k for x in (base + m, cols[m])))
            choices.append(cell_digit(n, r))
        base += width
    up = [0] * len(mates)
    down = [0] * len(mates)
    for c, chain in enumerate(chains):
        if deadline is not None and not c & 1023:
            deadline.check()
        for i, node in enumerate(chain):
            down[node] = chain[(i + 1) % len(chain)]
            up[node] = chain[i - 1]
    size = [len(chain) - 1 + (SECONDARY if c >= table.primary else 0) for c, chain in enumerate(chains)]
    four = not table.secondary and all(len(cols) == 4 for cols in matrix)
    pairs: list[tuple[tuple[int, int], ...]] = []
    for node, m in enumerate(mates):
        if deadline is not None and not node & 16383:
            deadline.check()
        pairs.append(tuple(zip(m[::2], m[1::2])))
    backwards = tuple(row[::-1] for row in pairs)
    return _Links(ncols, up, down, size, tuple(mates), tuple(pairs), backwards, tuple(choices), four)


def links_search(puzzle: Puzzle, deadline: Deadline, counters: DlxCounters, canonical: bool) -> Iterator[Grid]:
    """Algorithm X with dancing links: yields every solution (the first is canonical if asked).

    Rows of exactly four primary columns (standard Sudoku, jigsaw) run the unrolled search below;
    any other rule set the general one (``_general_links_search``), which also takes secondary
    columns. The general one is slower on standard Sudoku (see the module docstring).
    """
    table = _links(puzzle.rules, deadline)
    if not table.four:
        return _general_links_search(puzzle, table, deadline, counters, canonical)
    return _four_links_search(puzzle, table, deadline, counters, canonical)


def _four_links_search(puzzle: Puzzle, table: _Links, deadline: Deadline, counters: DlxCounters,
                       canonical: bool) -> Iterator[Grid]:
    """The search for rows of exactly four primary columns: a row's three mates are unrolled."""
    n = puzzle.n
    mates, choices, matrix = table.mates, table.choices, matrix_columns(puzzle.rules)
    up, down, size = table.up[:], table.down[:], table.size[:]
    fresh: list[int] = []  # columns whose size fell below 2 since the last choice (see algorithm_x.choose)
    small: list[int] = []  # and those of earlier choices, not yet looked at
    push = fresh.append

    def cover(c: int) -> int:
        """Unlink column c's rows from their other columns; returns the updates it made."""
        s = size[c]
        size[c] = s + COVERED
        i = down[c]
        while i != c:
            a, ka, b, kb, e, ke = mates[i]  # unrolled: a row has exactly three mates
            u = up[a]
            d = down[a]
            down[u] = d
            up[d] = u
            left = size[ka] - 1
            size[ka] = left
            if left < 2:
                push(ka)
            u = up[b]
            d = down[b]
            down[u] = d
            up[d] = u
            left = size[kb] - 1
            size[kb] = left
            if left < 2:
                push(kb)
            u = up[e]
            d = down[e]
            down[u] = d
            up[d] = u
            left = size[ke] - 1
            size[ke] = left
            if left < 2:
                push(ke)
            i = down[i]
        return 3 * s + 1

    def uncover(c: int) -> None:
        """Relink what ``cover(c)`` unlinked, in reverse order."""
        i = up[c]
        while i != c:
            a, ka, b, kb, e, ke = mates[i]
            size[ke] += 1
            up[down[e]] = e
            down[up[e]] = e
            size[kb] += 1
            up[down[b]] = b
            down[up[b]] = b
            size[ka] += 1
            up[down[a]] = a
            down[up[a]] = a
            i = up[i]
        size[c] -= COVERED

    for cell, digit in enumerate(puzzle.givens):
        if digit:
            given = matrix[index(n, cell, digit)]
            if any(size[c] >= COVERED for c in given):
                return  # a rule is broken: an earlier given covered one of this row's columns
            for c in given:
                cover(c)

    nodes = updates = 0
    columns: list[int] = []  # the column chosen at each level
    chosen: list[int] = []  # the row (its node in that column) now tried at each level
    starts: list[int] = []  # canonical: the first cell that may be open at each level
    down_next = True
    try:
        while True:
            if down_next:
                c = choose(size, fresh, small, starts, canonical)
                if c < 0:
                    if c == SOLVED:
                        counters.nodes, counters.updates = nodes, updates
                        values = list(puzzle.givens)
                        for node in chosen:
                            cell, digit = choices[node]
                            values[cell] = digit
                        yield tuple(values)
                    down_next = False
                    continue
                updates += cover(c)
                r = down[c]
                columns.append(c)
                chosen.append(r)
            else:
                if not chosen:
                    return
                r, c = chosen[-1], columns[-1]
                _, ka, _, kb, _, ke = mates[r]
                uncover(ke)
                uncover(kb)
                uncover(ka)
                r = down[r]
                if r == c:
                    uncover(c)
                    columns.pop()
                    chosen.pop()
                    starts.pop()
                    continue
                chosen[-1] = r
            nodes += 1
            if not nodes & (CHECK_EVERY - 1):
                counters.nodes, counters.updates = nodes, updates
                deadline.check()
            _, ka, _, kb, _, ke = mates[r]
            updates += cover(ka) + cover(kb) + cover(ke)
            down_next = True
    finally:
        counters.nodes, counters.updates = nodes, updates


def _general_links_search(puzzle: Puzzle, table: _Links, deadline: Deadline, counters: DlxCounters,
                          canonical: bool) -> Iterator[Grid]:
    """Algorithm X with secondary columns (Knuth 2000, section "Applications"; TAOCP 7.2.2.1).

    The same search as ``_four_links_search`` with rows of any width. A secondary column is
    covered when a chosen row fills it (so no other row may fill it: "at most once"), but it is
    never chosen to branch on, and the search succeeds when every primary column is covered,
    whatever secondary columns are left open (``SECONDARY`` keeps them out of ``min``).
    """
    n = puzzle.n
    pairs, choices, matrix = table.pairs, table.choices, matrix_columns(puzzle.rules)
    backwards = table.backwards
    up, down, size = table.up[:], table.down[:], table.size[:]
    fresh: list[int] = []
    small: list[int] = []
    push = fresh.append

    def cover(c: int) -> int:
        """Unlink column c's rows from their other columns; returns the updates it made."""
        size[c] += COVERED
        made = 1
        i = down[c]
        while i != c:
            row = pairs[i]
            made += len(row)
            for j, k in row:
                u = up[j]
                d = down[j]
                down[u] = d
                up[d] = u
                left = size[k] - 1
                size[k] = left
                if left < 2:
                    push(k)
            i = down[i]
        return made

    def uncover(c: int) -> None:
        """Relink what ``cover(c)`` unlinked, in reverse order."""
        i = up[c]
        while i != c:
            for j, k in backwards[i]:
                size[k] += 1
                up[down[j]] = j
                down[up[j]] = j
            i = up[i]
        size[c] -= COVERED

    ruled_out = layout(puzzle.rules).ruled_out
    if ruled_out is not None:  # what a cage or thermometer rules out alone, gone before the givens
        cover(ruled_out)
    for cell, digit in enumerate(puzzle.givens):
        if digit:
            given = matrix[index(n, cell, digit)]
            if any(size[c] >= COVERED for c in given):
                return  # a rule is broken: an earlier given covered one of this row's columns
            for c in given:
                cover(c)

    nodes = updates = 0
    columns: list[int] = []
    chosen: list[int] = []
    starts: list[int] = []
    down_next = True
    try:
        while True:
            if down_next:
                c = choose(size, fresh, small, starts, canonical)
                if c < 0:
                    if c == SOLVED:
                        counters.nodes, counters.updates = nodes, updates
                        values = list(puzzle.givens)
                        for node in chosen:
                            cell, digit = choices[node]
                            values[cell] = digit
                        yield tuple(values)
                    down_next = False
                    continue
                updates += cover(c)
                r = down[c]
                columns.append(c)
                chosen.append(r)
            else:
                if not chosen:
                    return
                r, c = chosen[-1], columns[-1]
                for _, k in backwards[r]:
                    uncover(k)
                r = down[r]
                if r == c:
                    uncover(c)
                    columns.pop()
                    chosen.pop()
                    starts.pop()
                    continue
                chosen[-1] = r
            nodes += 1
            if not nodes & (CHECK_EVERY - 1):
                counters.nodes, counters.updates = nodes, updates
                deadline.check()
            for _, k in pairs[r]:
                updates += cover(k)
            down_next = True
    finally:
        counters.nodes, counters.updates = nodes, updates
