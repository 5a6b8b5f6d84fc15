"""Algorithm X on a set of rows per column: ``dlx``'s second formulation (``structure=sets``).

As in Ali Assaf's "Algorithm X in 30 lines!": covering removes a row from its other columns' sets,
uncovering adds it back. Same size list and column choice as ``dlx_links`` (``algorithm_x``); only
the order of noted columns differs, so the paths may differ slightly. It stays as the shorter code
to read beside the links, which are faster (``benchmarks/results/dlx.md``).

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


class _Sets(NamedTuple):
    """The set-per-column matrix of one rule set, built once; each search copies the sets."""

    rows: tuple[frozenset[int], ...]
    """Per column, its rows (by ``variables.index``)."""
    others: tuple[dict[int, tuple[int, ...]] | tuple[tuple[int, ...], ...], ...]
    """Per column j, ``others[j][row]``: the row's columns but j."""
    size: tuple[int, ...]
    choices: tuple[tuple[int, int], ...]
    """Per row, its (cell, digit)."""
    four: bool
    """Every row fills four primary columns, the j // n²-th of them being j: ``others`` by kind."""


_SETS: Kept[_Sets] = Kept(8)


def _sets(rules: Rules, deadline: Deadline | None = None) -> _Sets:
    """The set-per-column matrix of a rule set, built once (under ``deadline``: cut short, nothing is kept)."""
    return _SETS.get(rules, lambda: _build_sets(rules, deadline))


def _build_sets(rules: Rules, deadline: Deadline | None) -> _Sets:
    """The rows of each column, each row's other columns, the starting sizes.

    When every row fills four primary columns, column ``j`` is always the ``j // n²``-th of its
    rows (cell, then the three groups of a cell in the order rows, columns, boxes or regions), so
    ``others[j]`` is one tuple indexed by row shared by the n² columns of that kind, the fast case;
    otherwise it is a dict per column.
    """
    matrix = matrix_columns(rules, deadline)
    table = layout(rules)
    cells = rules.shape.cells
    rows_of: list[list[int]] = [[] for _ in range(table.columns)]
    for r, cols in enumerate(matrix):
        if deadline is not None and not r & 4095:
            deadline.check()
        for col in cols:
            rows_of[col].append(r)
    four = not table.secondary and all(len(cols) == 4 and all(col // cells == k for k, col in enumerate(cols))
                                       for cols in matrix)
    if four:
        by_kind = [tuple(tuple(c for i, c in enumerate(cols) if i != kind) for cols in matrix) for kind in range(4)]
        others: list = [by_kind[j // cells] for j in range(table.columns)]
    else:
        others = [{r: tuple(c for c in matrix[r] if c != j) for r in rows} for j, rows in enumerate(rows_of)]
    size = tuple(len(rows) + (SECONDARY if c >= table.primary else 0) for c, rows in enumerate(rows_of))
    choices = tuple(cell_digit(rules.n, r) for r in range(len(matrix)))
    return _Sets(tuple(map(frozenset, rows_of)), tuple(others), size, choices, four)


def sets_search(puzzle: Puzzle, deadline: Deadline, counters: DlxCounters, canonical: bool) -> Iterator[Grid]:
    """Algorithm X on a set of rows per column, with the column choice of ``dlx_links.links_search``.

    Secondary columns as there: covered by a row that fills them, never chosen.
    """
    n = puzzle.n
    column_rows, others, sizes, choices, four = _sets(puzzle.rules, deadline)
    row_columns = matrix_columns(puzzle.rules)
    rows_of = [set(rows) for rows in column_rows]
    size = list(sizes)  # len(rows_of[c]) (plus SECONDARY for a secondary column, COVERED once covered)
    fresh: list[int] = []
    small: list[int] = []
    push = fresh.append

    def cover_four(j: int) -> int:
        """Remove column j's rows from their other columns (j keeps its set, untouched while covered)."""
        s = size[j]
        size[j] = s + COVERED
        other = others[j]
        for i in rows_of[j]:
            for k in other[i]:  # unrolling this loop, as in the links, gained 2%
                rows = rows_of[k]
                rows.remove(i)
                left = size[k] = len(rows)
                if left < 2:
                    push(k)
        return 3 * s + 1

    def cover_any(j: int) -> int:
        """The same for rows of any width, and secondary columns (whose size is offset)."""
        size[j] += COVERED
        other = others[j]
        made = 1
        for i in rows_of[j]:
            mates = other[i]
            made += len(mates)
            for k in mates:
                rows_of[k].remove(i)
                left = size[k] - 1
                size[k] = left
                if left < 2:
                    push(k)
        return made

    cover = cover_four if four else cover_any

    def uncover(j: int) -> None:
        other = others[j]
        for i in rows_of[j]:
            for k in other[i]:
                rows_of[k].add(i)
                size[k] += 1
        size[j] -= COVERED

    ruled_out = layout(puzzle.rules).ruled_out
    if ruled_out is not None:  # what a cage or thermometer rules out alone, gone before the givens
        cover(ruled_out)
    for cell, digit in enumerate(puzzle.givens):
        if digit:
            r = index(n, cell, digit)
            if any(size[j] >= COVERED for j in row_columns[r]):
                return  # a rule is broken: an earlier given covered one of this row's columns
            for j in row_columns[r]:
                cover(j)

    nodes = updates = 0
    stack: list[tuple[int, list[int], int]] = []  # per level: column, its rows (ascending), the one tried
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
                        for _, candidates, tried in stack:
                            cell, digit = choices[candidates[tried]]
                            values[cell] = digit
                        yield tuple(values)
                    down_next = False
                    continue
                updates += cover(c)
                candidates = sorted(rows_of[c])
                tried = 0
            else:
                if not stack:
                    return
                c, candidates, tried = stack.pop()
                for j in reversed(row_columns[candidates[tried]]):
                    if j != c:
                        uncover(j)
                tried += 1
                if tried == len(candidates):
                    uncover(c)
                    starts.pop()
                    continue
            r = candidates[tried]
            nodes += 1
            if not nodes & (CHECK_EVERY - 1):
                counters.nodes, counters.updates = nodes, updates
                deadline.check()
            for j in row_columns[r]:
                if j != c:
                    updates += cover(j)
            stack.append((c, candidates, tried))
            down_next = True
    finally:
        counters.nodes, counters.updates = nodes, updates
