"""The exact-cover paradigm: Knuth's Algorithm X on the matrix of ``models.exact_cover``, under the puzzle's rules.

Algorithm X (D. E. Knuth, "Dancing Links", 2000, arXiv:cs/0011047) chooses an open column, tries
each row that fills it, covers the row's other columns (removing every row that meets them) and
goes deeper; an open column with no row is a dead end, no open primary column a solution. It
chooses a column with the fewest rows (Knuth's "S heuristic"): one row in a cell column is a naked
single, in a group-digit column a hidden single, both forced moves. So as not to scan every size
at each of the many forced moves, covering notes the columns whose size falls below 2 (see
``_choose``).

The matrix comes from ``puzzle.rules`` (``models.exact_cover``): cells and (complete group,
digit) are primary columns, (partial group, digit) and (differing pair, digit) secondary ones,
Knuth's generalized exact cover (the same paper; TAOCP 4B, 7.2.2.1, Algorithm X with secondary
items): a chosen row covers its secondary columns like any other, hiding every row that would
fill one a second time, but a secondary column is never chosen to branch on and need not be
covered at the end. Here a secondary column's size carries an offset ``_SECONDARY`` that keeps it
out of ``min`` and out of the forced moves. Thermometers and killer cages are forbidden pairs of
placements, a secondary column each (``models.placement_pairs``), and the placements they rule out
alone fill one column covered before the givens. A cage whose pairs do not say its sum is refused
before any work (``capabilities.refuses``, ``models.exact_cover.refusal``), naming it.

Two formulations, the option ``structure``:

- ``links`` (default): dancing links on flat lists. Every 1 of the matrix is a node in the
  up/down list of its column; covering unlinks nodes, uncovering relinks them in reverse order,
  so no state is copied. A node's row mates are a precomputed tuple, so there are no left/right
  links; a covered column gets a huge size instead of leaving a header list, so ``min(size)`` and
  ``size.index`` choose a column in C. When every row fills exactly four primary columns
  (standard Sudoku, jigsaw) the three mates are unrolled (``_four_links_search``); other rules
  run ``_general_links_search``, a loop over the mates, which is slower on standard Sudoku
  (``benchmarks/results/dlx.md``), so the unrolled one stays.
- ``sets``: a set of rows per column, as in Ali Assaf's "Algorithm X in 30 lines!": covering
  removes a row from its other columns' sets, uncovering adds it back. Same size list, same
  column choice; only the order of noted columns differs, so the paths may differ slightly.

Why ``links`` is the default: it solved more puzzles per CPU second than ``sets`` on every shared
set, with the same nodes (``benchmarks/bench_dlx.py``, ``benchmarks/results/dlx.md``): a set's
remove or add is a method call and a hash per update, a link update four list stores. ``sets``
stays as the shorter code to read; its speed does not justify deleting it.

Effort: ``nodes`` counts rows tried (Knuth's nodes); ``updates`` one per node unlinked and one
per column covered (Knuth's "updates"). The givens are covered before the search, counted in neither.

With ``canonical``, forced moves are still taken at once, but otherwise it branches on the first
open cell in reading order, digits ascending. A forced row is in every solution below it, so
solutions still come in row-major lexicographic order and the first is the classic ``backtrack``
answer under the same rules. Each call copies the rule set's matrix (built once per ``Rules``),
so one instance serves many threads; an explicit stack replaces recursion (a 36x36 board is
1,296 levels deep). There is no learning: near the hardness peak some large puzzles take far
longer than others, and on some variant boards the fewest-rows choice is slower than the canonical
order (``benchmarks/results/dlx.md``, notes).

One module: the general search and the unrolled four-column one run on one dancing-links structure
and must count alike (a test checks it).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import ClassVar, NamedTuple

from ..core.grid import Grid
from ..core.puzzle import Puzzle
from ..core.rules import Rules
from ..models.exact_cover import KINDS, KINDS_WHY, layout, matrix_columns, refusal
from ..models.variables import cell_digit, index
from .base import Capabilities, CountResult, Deadline, Option, SolveResult, check_kinds
from .search import SearchSolver

STRUCTURES = ("links", "sets")
"""The two formulations of Algorithm X; see the module docstring."""

_CHECK_EVERY = 1024  # rows tried between two looks at the clock (a mask: a power of two)
_COVERED = 1 << 40
"""Added to a covered column's size: above every open column's size, so ``min`` skips it."""
_SECONDARY = 1 << 30
"""Added to a secondary column's size: above every primary column's, below every covered one's."""


class DlxCounters:
    """The effort Algorithm X reports: ``nodes`` (rows tried) and ``updates`` (removals)."""

    __slots__ = ("nodes", "updates")

    def __init__(self) -> None:
        self.nodes = 0
        self.updates = 0

    def stats(self) -> dict[str, int]:
        return {"nodes": self.nodes, "updates": self.updates}


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


@lru_cache(maxsize=8)
def _links(rules: Rules) -> _Links:
    """The links of the empty board of a rule set, built once; each search copies the mutable lists.

    A secondary column starts at ``_SECONDARY`` plus its number of rows, so it is never chosen and
    never looks forced; when all that is left below ``_SECONDARY`` is covered, the cover is exact.
    """
    matrix = matrix_columns(rules)
    table = layout(rules)
    ncols = table.columns
    chains: list[list[int]] = [[c] for c in range(ncols)]
    mates: list[tuple[int, ...]] = [()] * ncols
    choices: list[tuple[int, int] | None] = [None] * ncols
    n = rules.n
    base = ncols
    for r, cols in enumerate(matrix):
        width = len(cols)
        for k, col in enumerate(cols):
            chains[col].append(base + k)
            mates.append(tuple(x for m in range(width) if m != k for x in (base + m, cols[m])))
            choices.append(cell_digit(n, r))
        base += width
    up = [0] * len(mates)
    down = [0] * len(mates)
    for chain in chains:
        for i, node in enumerate(chain):
            down[node] = chain[(i + 1) % len(chain)]
            up[node] = chain[i - 1]
    size = [len(chain) - 1 + (_SECONDARY if c >= table.primary else 0) for c, chain in enumerate(chains)]
    pairs = tuple(tuple(zip(m[::2], m[1::2])) for m in mates)
    four = not table.secondary and all(len(cols) == 4 for cols in matrix)
    backwards = tuple(row[::-1] for row in pairs)
    return _Links(ncols, up, down, size, tuple(mates), pairs, backwards, tuple(choices), four)


def _links_search(puzzle: Puzzle, deadline: Deadline, counters: DlxCounters, canonical: bool) -> Iterator[Grid]:
    """Algorithm X with dancing links: yields every solution (the first is canonical if asked).

    Rows of exactly four primary columns (standard Sudoku, jigsaw) run the unrolled search below;
    any other rule set the general one (``_general_links_search``), which also takes secondary
    columns. The general one is slower on standard Sudoku (see the module docstring).
    """
    table = _links(puzzle.rules)
    if not table.four:
        return _general_links_search(puzzle, table, deadline, counters, canonical)
    return _four_links_search(puzzle, table, deadline, counters, canonical)


def _four_links_search(puzzle: Puzzle, table: _Links, deadline: Deadline, counters: DlxCounters,
                       canonical: bool) -> Iterator[Grid]:
    """The search for rows of exactly four primary columns: a row's three mates are unrolled."""
    n = puzzle.n
    mates, choices, matrix = table.mates, table.choices, matrix_columns(puzzle.rules)
    up, down, size = table.up[:], table.down[:], table.size[:]
    fresh: list[int] = []  # columns whose size fell below 2 since the last choice (see _choose)
    small: list[int] = []  # and those of earlier choices, not yet looked at
    push = fresh.append

    def cover(c: int) -> int:
        """Unlink column c's rows from their other columns; returns the updates it made."""
        s = size[c]
        size[c] = s + _COVERED
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
        size[c] -= _COVERED

    for cell, digit in enumerate(puzzle.givens):
        if digit:
            given = matrix[index(n, cell, digit)]
            if any(size[c] >= _COVERED for c in given):
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
                c = _choose(size, fresh, small, starts, canonical)
                if c < 0:
                    if c == _SOLVED:
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
            if not nodes & (_CHECK_EVERY - 1):
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
    whatever secondary columns are left open (``_SECONDARY`` keeps them out of ``min``).
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
        size[c] += _COVERED
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
        size[c] -= _COVERED

    ruled_out = layout(puzzle.rules).ruled_out
    if ruled_out is not None:  # what a cage or thermometer rules out alone, gone before the givens
        cover(ruled_out)
    for cell, digit in enumerate(puzzle.givens):
        if digit:
            given = matrix[index(n, cell, digit)]
            if any(size[c] >= _COVERED for c in given):
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
                c = _choose(size, fresh, small, starts, canonical)
                if c < 0:
                    if c == _SOLVED:
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
            if not nodes & (_CHECK_EVERY - 1):
                counters.nodes, counters.updates = nodes, updates
                deadline.check()
            for _, k in pairs[r]:
                updates += cover(k)
            down_next = True
    finally:
        counters.nodes, counters.updates = nodes, updates


_SOLVED, _DEAD = -1, -2
"""What ``_choose`` returns when no column is open, or when an open column has no row."""


def _choose(size: list[int], fresh: list[int], small: list[int], starts: list[int], canonical: bool) -> int:
    """The column to branch on (pushing the canonical scan start), or ``_SOLVED`` or ``_DEAD``.

    ``fresh`` holds the columns whose size fell below 2 since the last choice, ``small`` those of
    earlier choices not yet looked at; some have since been covered or grown again, so each is
    checked. An open one of size 0 ends the branch (all of ``fresh`` is checked for one, in C),
    one of size 1 is a forced move taken without looking at all 4n² sizes. Only when none is
    left does it take ``min(size)``: Knuth's S heuristic, the first column on a tie; canonical
    then takes the first open cell instead of a column with two or more rows.
    """
    if fresh:
        if 0 in map(size.__getitem__, fresh):
            fresh.clear()
            return _DEAD
        small += fresh
        fresh.clear()
    while small:
        k = small.pop()
        s = size[k]
        if s < 2:
            if not s:
                return _DEAD
            starts.append(starts[-1] if starts else 0)
            return k
    smallest = min(size)
    if smallest >= _SECONDARY:
        return _SOLVED  # every primary column is covered
    if not smallest:
        return _DEAD
    if smallest == 1 or not canonical:
        starts.append(starts[-1] if starts else 0)
        return size.index(smallest)
    c = starts[-1] if starts else 0
    while size[c] >= _COVERED:
        c += 1
    starts.append(c)
    return c


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


@lru_cache(maxsize=8)
def _sets(rules: Rules) -> _Sets:
    """The rows of each column, each row's other columns, the starting sizes.

    When every row fills four primary columns, column ``j`` is always the ``j // n²``-th of its
    rows (cell, then the three groups of a cell in the order rows, columns, boxes or regions), so
    ``others[j]`` is one tuple indexed by row shared by the n² columns of that kind, the fast case;
    otherwise it is a dict per column.
    """
    matrix = matrix_columns(rules)
    table = layout(rules)
    cells = rules.shape.cells
    rows_of: list[list[int]] = [[] for _ in range(table.columns)]
    for r, cols in enumerate(matrix):
        for col in cols:
            rows_of[col].append(r)
    four = not table.secondary and all(len(cols) == 4 and all(col // cells == k for k, col in enumerate(cols))
                                       for cols in matrix)
    if four:
        by_kind = [tuple(tuple(c for i, c in enumerate(cols) if i != kind) for cols in matrix) for kind in range(4)]
        others: list = [by_kind[j // cells] for j in range(table.columns)]
    else:
        others = [{r: tuple(c for c in matrix[r] if c != j) for r in rows} for j, rows in enumerate(rows_of)]
    size = tuple(len(rows) + (_SECONDARY if c >= table.primary else 0) for c, rows in enumerate(rows_of))
    choices = tuple(cell_digit(rules.n, r) for r in range(len(matrix)))
    return _Sets(tuple(map(frozenset, rows_of)), tuple(others), size, choices, four)


def _sets_search(puzzle: Puzzle, deadline: Deadline, counters: DlxCounters, canonical: bool) -> Iterator[Grid]:
    """Algorithm X on a set of rows per column, with the column choice of ``_links_search``.

    Secondary columns as there: covered by a row that fills them, never chosen.
    """
    n = puzzle.n
    column_rows, others, sizes, choices, four = _sets(puzzle.rules)
    row_columns = matrix_columns(puzzle.rules)
    rows_of = [set(rows) for rows in column_rows]
    size = list(sizes)  # len(rows_of[c]) (plus _SECONDARY for a secondary column, _COVERED once covered)
    fresh: list[int] = []
    small: list[int] = []
    push = fresh.append

    def cover_four(j: int) -> int:
        """Remove column j's rows from their other columns (j keeps its set, untouched while covered)."""
        s = size[j]
        size[j] = s + _COVERED
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
        size[j] += _COVERED
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
        size[j] -= _COVERED

    ruled_out = layout(puzzle.rules).ruled_out
    if ruled_out is not None:  # what a cage or thermometer rules out alone, gone before the givens
        cover(ruled_out)
    for cell, digit in enumerate(puzzle.givens):
        if digit:
            r = index(n, cell, digit)
            if any(size[j] >= _COVERED for j in row_columns[r]):
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
                c = _choose(size, fresh, small, starts, canonical)
                if c < 0:
                    if c == _SOLVED:
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
            if not nodes & (_CHECK_EVERY - 1):
                counters.nodes, counters.updates = nodes, updates
                deadline.check()
            for j in row_columns[r]:
                if j != c:
                    updates += cover(j)
            stack.append((c, candidates, tried))
            down_next = True
    finally:
        counters.nodes, counters.updates = nodes, updates


_SEARCHES = {"links": _links_search, "sets": _sets_search}


class DlxSolver(SearchSolver):
    """``dlx``: Knuth's Algorithm X on the exact-cover matrix, fewest-rows column first.

    >>> from sudokulab.core.puzzle import Puzzle
    >>> DlxSolver().count(Puzzle.empty(4), limit=1000).count, DlxSolver("sets").count(Puzzle.empty(4)).count
    (288, 2)

    It takes every rule kind (``models.exact_cover.KINDS``) and refuses, before any work, a killer
    cage whose forbidden pairs would not say its sum (``models.exact_cover.refusal``).
    """

    name = "dlx"
    paradigm: ClassVar[str] = "exact cover (Algorithm X)"
    capabilities: ClassVar[Capabilities] = Capabilities(canonical=True, count=True, time_limit=True, threads="safe",
                                                        kinds=KINDS, kinds_why=KINDS_WHY, refuses=refusal)
    counters: ClassVar[type] = DlxCounters
    in_order: ClassVar[bool] = True  # with canonical: first open cell, digits ascending (module docstring)
    options: ClassVar[tuple[Option, ...]] = (
        Option("structure", str, "links", "links (dancing links on flat lists) or sets (a set of rows per column)",
               choices=STRUCTURES),
    )

    def __init__(self, structure: str = "links") -> None:
        super().__init__()  # options checked by SolverBase (base.check_options)
        self.structure = structure
        self.search = _SEARCHES[structure]

    def solve(self, puzzle: Puzzle, *, time_limit: float | None = None, canonical: bool = False) -> SolveResult:
        check_kinds(self, puzzle)
        return super().solve(puzzle, time_limit=time_limit, canonical=canonical)

    def count(self, puzzle: Puzzle, *, limit: int = 2, time_limit: float | None = None) -> CountResult:
        check_kinds(self, puzzle)
        return super().count(puzzle, limit=limit, time_limit=time_limit)
