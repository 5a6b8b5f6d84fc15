"""The exact-cover model of a puzzle under its rules: a 0/1 matrix whose covers are the solutions; solves nothing.

One row per (cell, digit) (Knuth's options); primary columns, covered exactly once, for each cell
and each (complete group, digit); secondary columns, covered at most once (generalized exact
cover), for each (partial group, digit), each (differing pair, digit), and the forbidden pairs of
placements the lowering states for thermometers, cages and any other kind. ``row_columns`` is the
one place a row's columns are computed. Givens are pre-covered, so the matrix left is exactly the
search that remains; givens that break a rule leave no rows (``conflict``). A cage whose allowed
sets are not pairwise cannot be said this way: ``refusal`` names it.

From D. E. Knuth, "Dancing Links", in *Millennial Perspectives in Computer Science* (Palgrave,
2000), 187-214, arXiv:cs/0011047, and *The Art of Computer Programming* 4B (2022), 7.2.2.1. The
solver is ``sudokulab.solvers.exact_cover.solver``. The column layout and why givens are
pre-covered: docs/solvers.md; what exact cover can say of each rule kind: docs/rules.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from ...core import variables
from ...core.cells import cell_label
from ...core.grid import Shape
from ...core.puzzle import Puzzle
from ...core.rules import ALL_DIFFERENT, DIFFER, Rules, standard
from .. import lowering as placement_pairs
from ..base import Deadline
from ..building import Kept

NATIVE = frozenset({ALL_DIFFERENT, DIFFER})
"""The rule kinds the matrix states natively: complete groups (primary columns), partial groups and
differing pairs (secondary). Every other kind comes through the lowering (``solvers.lowering``):
ruled-out placements and forbidden pairs as columns, allowed sets as pairs where they are pairwise
(``refusal`` names a set, such as a cage's sum, that is not)."""

FORMS = placement_pairs.FORMS
"""The lowering's forms the matrix states (sets only where pairwise: ``refusal``)."""

KINDS_WHY = ("exact cover says 'exactly once' and 'at most once': a cage is said as forbidden pairs of "
             "digits, so only a cage whose pairs say its sum")
"""What it cannot say, in one line (the solver's ``kinds_why``)."""

refusal = placement_pairs.refusal


def _rules(rules: Rules | Shape) -> Rules:
    return standard(rules) if isinstance(rules, Shape) else rules


@dataclass(frozen=True)
class Layout:
    """The columns of one rule set: how many of each sort, their names, and each cell's columns.

    ``bases[cell]`` lists, ascending, the first column (digit 1) of every group or pair the cell
    is in; the row "cell holds d" fills ``cell`` and ``base + d-1`` for each base.
    """

    rules: Rules
    primary: int
    secondary: int
    bases: tuple[tuple[int, ...], ...]
    families: tuple[tuple[int, str], ...]
    """Per column family (cells, then groups of one kind, then pairs of one name), its first column and
    its kind word; ``to_text`` splits a row's marks between families."""
    pair_names: tuple[str, ...]
    extra: dict[tuple[int, int], tuple[int, ...]] = field(default_factory=dict)
    """Per (cell, digit), the forbidden-pair columns of cages and thermometers its row fills."""
    ruled_out: int | None = None
    """The column every placement a cage or thermometer rules out fills (pre-covered), or None."""

    @property
    def columns(self) -> int:
        return self.primary + self.secondary


@lru_cache(maxsize=16)
def layout(rules: Rules | Shape) -> Layout:
    """The column layout of a rule set (a shape means standard rules), built once per rule set.

    >>> from sudokulab.core.rules import build
    >>> x = layout(build(Shape(3, 3), ["x"]))
    >>> x.primary, x.secondary, len(x.bases[0]), len(x.bases[1])
    (342, 0, 4, 3)
    """
    rules = _rules(rules)
    n, cells = rules.n, rules.shape.cells
    bases: list[list[int]] = [[] for _ in range(cells)]
    families: list[tuple[int, str]] = [(0, "cell")]
    column = cells

    def family(word: str) -> None:
        if families[-1][1] != word:
            families.append((column, word))

    for group in rules.complete_groups:
        family(group.kind)
        for cell in group.cells:
            bases[cell].append(column)
        column += n
    primary = column
    for group in rules.partial_groups:
        family(group.kind)
        for cell in group.cells:
            bases[cell].append(column)
        column += n
    owner = {pair: d.name for d in reversed(rules.differ) for pair in d.pairs}
    owner.update({(b, a): name for (a, b), name in list(owner.items())})
    pair_names = tuple(owner[pair] for pair in rules.pairs)
    for pair, name in zip(rules.pairs, pair_names):
        family(name)
        for cell in pair:
            bases[cell].append(column)
        column += n
    said = placement_pairs.placements(rules, NATIVE)
    extra: dict[tuple[int, int], list[int]] = {}
    for name, p, q in said.pairs:
        family(name.split(" ", 1)[0])
        extra.setdefault(p, []).append(column)
        extra.setdefault(q, []).append(column)
        column += 1
    ruled_out = None
    if said.ruled_out:
        family("ruled out")
        ruled_out, column = column, column + 1
        for p in said.ruled_out:
            extra.setdefault(p, []).append(ruled_out)
    return Layout(rules, primary, column - primary, tuple(tuple(sorted(b)) for b in bases), tuple(families),
                  pair_names, {p: tuple(c) for p, c in extra.items()}, ruled_out)


def row_columns(rules: Rules | Shape, cell: int, digit: int) -> tuple[int, ...]:
    """The columns the row "``cell`` holds ``digit``" fills, ascending: the only place they are computed.

    >>> row_columns(Shape(2, 2), 5, 4)
    (5, 23, 39, 51)
    """
    table = layout(rules)
    return (cell, *(base + digit - 1 for base in table.bases[cell]), *table.extra.get((cell, digit), ()))


_MATRICES: Kept[tuple[tuple[int, ...], ...]] = Kept(16)


def matrix_columns(rules: Rules | Shape, deadline: Deadline | None = None) -> tuple[tuple[int, ...], ...]:
    """The columns of every row of the empty board, indexed by ``variables.index(n, cell, digit)``.

    The whole matrix of a rule set (n³ rows), built once per rule set for solvers; a puzzle's
    matrix is this one with its givens pre-covered. Built under ``deadline`` when given (``TimeUp``
    cuts it short, and then nothing is kept: ``solvers.building``).
    """
    rules = _rules(rules)
    return _MATRICES.get(rules, lambda: _matrix(rules, deadline))


def _matrix(rules: Rules, deadline: Deadline | None) -> tuple[tuple[int, ...], ...]:
    n = rules.n
    rows: list[tuple[int, ...]] = [()] * variables.count(n)
    for cell in range(rules.shape.cells):
        if deadline is not None and not cell % 64:
            deadline.check()
        for digit in range(1, n + 1):
            rows[variables.index(n, cell, digit)] = row_columns(rules, cell, digit)
    return tuple(rows)


def column_name(rules: Rules | Shape, column: int) -> str:
    """The 1-based name of a column, e.g. ``row 1 has 3`` or ``r1c1 and r2c3 not both 3 (anti-knight)``.

    >>> column_name(Shape(2, 2), 0), column_name(Shape(2, 2), 63)
    ('cell r1c1', 'box 4 has 4')
    """
    rules = _rules(rules)
    table = layout(rules)
    n = rules.n
    if not 0 <= column < table.columns:
        raise ValueError(f"a {n}x{n} board under these rules has columns 0..{table.columns - 1}, not {column}")
    cells = rules.shape.cells
    if column < cells:
        return f"cell {cell_label(column, n)}"
    if column < table.primary:
        g, d = divmod(column - cells, n)
        return f"{rules.complete_groups[g].name} has {d + 1}"
    k, d = divmod(column - table.primary, n)
    if k < len(rules.partial_groups):
        return f"{rules.partial_groups[k].name} has {d + 1} at most once"
    k -= len(rules.partial_groups)
    if k < len(rules.pairs):
        a, b = (cell_label(cell, n) for cell in rules.pairs[k])
        return f"{a} and {b} not both {d + 1} ({table.pair_names[k]})"
    if column == table.ruled_out:
        return "ruled out by a cage or thermometer" if rules.constraints == () else "ruled out through the lowering"
    first = table.primary + n * (len(rules.partial_groups) + len(rules.pairs))
    name, p, q = placement_pairs.placements(rules, NATIVE).pairs[column - first]
    return placement_pairs.pair_name(n, name, p, q)


def column_names(rules: Rules | Shape) -> list[str]:
    """The names of all columns, primary then secondary, in index order.

    >>> shape = Shape(3, 3)
    >>> len(column_names(shape)), [column_name(shape, i) for i in row_columns(shape, 1, 3)]
    (324, ['cell r1c2', 'row 1 has 3', 'column 2 has 3', 'box 1 has 3'])
    """
    return [column_name(rules, i) for i in range(layout(rules).columns)]


def row_name(shape: Shape | Rules, cell: int, digit: int) -> str:
    """The 1-based name of a row, e.g. ``r1c2=3``."""
    return f"{cell_label(cell, shape.n)}={digit}"


@dataclass(frozen=True)
class ExactCover:
    """The matrix of one puzzle with its givens pre-covered: open columns and candidate rows.

    ``rows`` holds (cell, digit) pairs in row-number order (reading order, digits ascending);
    ``given`` the rows the givens took; ``columns`` the open primary column indices and
    ``secondary`` the open secondary ones, ascending. ``conflict`` names the rule the givens break
    (then there are no rows), else it is None.
    """

    rules: Rules
    columns: tuple[int, ...]
    rows: tuple[tuple[int, int], ...]
    given: tuple[tuple[int, int], ...]
    conflict: str | None = None
    secondary: tuple[int, ...] = ()

    @property
    def shape(self) -> Shape:
        return self.rules.shape

    @classmethod
    def of(cls, puzzle: Puzzle) -> ExactCover:
        """Build the matrix of a puzzle: every row of its rules, less those the givens cover.

        >>> from sudokulab.core.puzzle import Puzzle
        >>> model = ExactCover.of(Puzzle.empty(Shape(3, 3)))
        >>> len(model.columns), len(model.rows), model.row_names()[:3]
        (324, 729, ['r1c1=1', 'r1c1=2', 'r1c1=3'])
        """
        rules = puzzle.rules
        table = layout(rules)
        given = tuple((cell, digit) for cell, digit in enumerate(puzzle.givens) if digit)
        covered = {column for cell, digit in given for column in row_columns(rules, cell, digit)}
        if table.ruled_out is not None:
            covered.add(table.ruled_out)
        columns = tuple(i for i in range(table.primary) if i not in covered)
        secondary = tuple(i for i in range(table.primary, table.columns) if i not in covered)
        conflict = rules.first_conflict(puzzle.givens)
        if conflict is not None:
            return cls(rules, columns, (), given, conflict, secondary)
        n = rules.n
        rows = tuple(
            (cell, digit)
            for cell in range(rules.shape.cells)
            for digit in range(1, n + 1)
            if covered.isdisjoint(row_columns(rules, cell, digit))
        )
        return cls(rules, columns, rows, given, None, secondary)

    def column_names(self) -> list[str]:
        """The names of the open primary columns."""
        return [column_name(self.rules, i) for i in self.columns]

    def secondary_names(self) -> list[str]:
        """The names of the open secondary columns."""
        return [column_name(self.rules, i) for i in self.secondary]

    def row_names(self) -> list[str]:
        return [row_name(self.shape, cell, digit) for cell, digit in self.rows]

    def row_columns(self, row: int) -> tuple[int, ...]:
        """The columns the ``row``-th row (an index into ``rows``) fills, primary and secondary."""
        return row_columns(self.rules, *self.rows[row])

    def empty_columns(self) -> list[str]:
        """Open primary columns that no row can fill: each proves there is no solution.

        >>> ExactCover.of(Puzzle.from_rows([[1, 2, 0, 0], [0, 0, 3, 0], [0, 0, 4, 0], [0, 0, 0, 0]])).empty_columns()
        ['cell r1c3', 'row 1 has 3', 'box 1 has 3']
        """
        filled = {column for cell, digit in self.rows for column in row_columns(self.rules, cell, digit)}
        return [column_name(self.rules, i) for i in self.columns if i not in filled]

    def to_text(self) -> str:
        """The whole matrix for a reader: a legend of the open columns, then one line per row.

        A row shows ``1`` under each column it fills and ``.`` elsewhere, one family of columns
        (cells, rows, columns, boxes, ...) split from the next by a space, and the secondary
        columns, if any, after a ``|``.

        >>> grid = [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 0, 0]]
        >>> print(ExactCover.of(Puzzle.from_rows(grid)).to_text())
        4x4 board with 2x2 boxes: 14 givens pre-covered, 8 open columns, 2 rows
        column 1: cell r4c3
        column 2: cell r4c4
        column 3: row 4 has 1
        column 4: row 4 has 2
        column 5: column 3 has 2
        column 6: column 4 has 1
        column 7: box 4 has 1
        column 8: box 4 has 2
        r4c3=2  1. .1 1. .1
        r4c4=1  .1 1. .1 1.
        """
        if self.conflict is not None:
            return f"{self.shape}: no rows, the givens break a rule: {self.conflict}"
        table = layout(self.rules)
        extra = f" and {len(self.secondary)} secondary" if self.secondary else ""
        lines = [f"{self.shape}: {len(self.given)} givens pre-covered, {len(self.columns)} open columns{extra}, "
                 f"{len(self.rows)} rows"]
        lines += [f"column {i}: {name}" for i, name in enumerate(self.column_names(), 1)]
        lines += [f"secondary column {i}: {name}"
                  for i, name in enumerate(self.secondary_names(), len(self.columns) + 1)]
        width = max((len(name) for name in self.row_names()), default=0)
        starts = [start for start, _ in table.families] + [table.columns]

        def split(columns: tuple[int, ...]) -> list[list[int]]:
            return [part for a, b in zip(starts, starts[1:]) if (part := [i for i in columns if a <= i < b])]

        primary, secondary = split(self.columns), split(self.secondary)
        for (cell, digit), name in zip(self.rows, self.row_names()):
            filled = set(row_columns(self.rules, cell, digit))
            marks = " ".join("".join("1" if i in filled else "." for i in part) for part in primary)
            if secondary:
                marks += " | " + " ".join("".join("1" if i in filled else "." for i in part) for part in secondary)
            lines.append(f"{name:<{width}}  {marks}")
        return "\n".join(lines)
