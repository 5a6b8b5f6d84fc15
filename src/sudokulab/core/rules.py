"""The rules of a puzzle as a value: the board shape plus named constraints of a small set of kinds.

Every paradigm reads the rules from here, so a variant is declared once and honoured everywhere: a
solver states some kinds natively (``Capabilities.kinds``) and the others through the shared
lowering (``solvers.lowering``), or refuses them before any work. Vocabulary: a **kind** (a
``Kind`` in ``kind_table``; built in, ``KINDS``: ``all-different`` over a ``Group``, *complete*
with n cells or partial, ``differ`` over pairs, ``sum`` over a ``Cage``, ``increasing`` along a
``Thermo``; more by ``register_kind``, each a ``Constraint`` that checks itself); a **preset**
(``PRESETS``: ``standard``, ``x``, ``windoku``, ``anti-knight``, ``anti-king``, ``jigsaw``,
``killer``, ``thermo``, ``latin``); and **names** in a person's words, 1-based ("row 4", "cage 7
(sum 15)"). The presets live here because ``Rules.is_standard`` compares with ``standard``.

The kinds, the presets and the roads not taken: docs/rules.md; adding a kind: docs/rules.md,
"Adding a rule kind".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import Protocol, runtime_checkable

from .cells import cell_words
from .grid import Grid, Shape

ALL_DIFFERENT, DIFFER, SUM, INCREASING = "all-different", "differ", "sum", "increasing"
KINDS = (ALL_DIFFERENT, DIFFER, SUM, INCREASING)
"""The built-in constraint kinds, in the order the ``solvers`` matrix shows them (``kind_table`` adds the
registered ones after them)."""

PRESETS = ("standard", "x", "windoku", "anti-knight", "anti-king", "jigsaw", "killer", "thermo", "latin")
"""Named rule sets that combine (``standard`` is implied by all but ``jigsaw``, which replaces boxes,
and ``latin``, which drops them)."""

NEEDS_DATA = {"jigsaw": "--regions FILE", "killer": "--cages FILE", "thermo": "--thermos FILE"}
"""Presets that are only names for data the puzzle must bring, and the option that brings it."""


class RulesError(ValueError):
    """Rules that do not make sense for the board (an unknown preset, a region of the wrong size, ...)."""


@dataclass(frozen=True)
class Kind:
    """A constraint kind as people and tables see it.

    ``letter`` names it in the ``solvers`` matrix (upper case where a solver states it natively,
    lower case where through the lowering) and ``legend`` says it under the matrix; ``words`` say it
    in a refusal ("solver 'x' cannot honour <words> (<the constraint's name>)"). A kind with no
    letter is not shown there (the lowering's own forms, ``solvers.lowering.Forms``).
    """

    name: str
    letter: str
    words: str
    legend: str = ""


BUILT_IN = (
    Kind(ALL_DIFFERENT, "A", "all-different groups",
         "all-different groups (rows, columns, boxes, regions, diagonals, windows, cages' cells)"),
    Kind(DIFFER, "D", "differing pairs", "differing pairs (anti-knight, anti-king)"),
    Kind(SUM, "S", "sum constraints", "sums (killer cages)"),
    Kind(INCREASING, "I", "increasing thermometers", "increasing (thermometers)"),
)
"""The four kinds every rule file and preset makes, in ``KINDS`` order."""

_KINDS: dict[str, Kind] = {kind.name: kind for kind in BUILT_IN}


def kind_table() -> tuple[Kind, ...]:
    """Every kind known now: the built-in ones, then those registered, in the order registered."""
    return tuple(_KINDS.values())


def kind_named(name: str) -> Kind:
    """The kind of this name; an unknown one is a ``RulesError`` naming the known ones."""
    try:
        return _KINDS[name]
    except KeyError:
        raise RulesError(f"unknown constraint kind '{name}'; known: {', '.join(_KINDS)}") from None


def register_kind(kind: Kind) -> None:
    """Add a kind (its constraints then go in ``Rules.constraints``); a name or a shown letter taken is refused.

    The lowering that every paradigm without a native encoding needs is registered beside it
    (``solvers.lowering.register``, which calls this)."""
    if kind.name in _KINDS:
        raise RulesError(f"a constraint kind named '{kind.name}' exists already")
    if kind.letter and any(other.letter == kind.letter for other in _KINDS.values()):
        raise RulesError(f"the letter '{kind.letter}' names another kind already")
    _KINDS[kind.name] = kind


def unregister_kind(name: str) -> None:
    """Remove a registered kind (the built-in ones stay)."""
    if any(kind.name == name for kind in BUILT_IN):
        raise RulesError(f"'{name}' is a built-in kind")
    _KINDS.pop(name, None)


@runtime_checkable
class Constraint(Protocol):
    """A constraint of a kind kept in ``Rules.constraints``: frozen, hashable, picklable data.

    ``kind`` is its ``Kind``'s name, ``name`` what messages call it ("whisper 2"), ``cells`` the
    cells it reads. ``broken`` is its part of the one checker: what it breaks in a grid where 0 is
    blank, in 1-based words, or None; blanks break nothing, and it must refuse a full grid it does
    not hold.
    """

    @property
    def kind(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def cells(self) -> tuple[int, ...]: ...

    def broken(self, grid: Grid, n: int) -> str | None: ...


@dataclass(frozen=True)
class Group:
    """Cells that hold no digit twice; ``name`` is what messages call it ("diagonal 1")."""

    name: str
    cells: tuple[int, ...]

    @property
    def kind(self) -> str:
        """The first word of the name: row, column, box, region, diagonal, window, cage, group."""
        return self.name.split(" ", 1)[0]


@dataclass(frozen=True)
class Differ:
    """Pairs of cells that must hold different digits, under one name ("anti-knight")."""

    name: str
    pairs: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Cage:
    """A killer cage: its digits differ (a ``Group`` of the same name says so) and add up to ``total``."""

    name: str
    cells: tuple[int, ...]
    total: int


@dataclass(frozen=True)
class Thermo:
    """A thermometer: digits strictly increase along ``cells``, from the bulb (the first) to the tip."""

    name: str
    cells: tuple[int, ...]


@dataclass(frozen=True)
class Rules:
    """The whole rule set of a puzzle: every paradigm builds its model or tables from this alone.

    ``groups`` lists the all-different groups, complete ones first in the order rows, columns,
    boxes (or regions), then the preset's extra groups, then cage groups. ``constraints`` holds the
    constraints of kinds beyond the built-in four (``Constraint``). ``presets`` records the names it
    was built from, for display and for JSON output.
    """

    shape: Shape
    groups: tuple[Group, ...]
    differ: tuple[Differ, ...] = ()
    cages: tuple[Cage, ...] = ()
    thermos: tuple[Thermo, ...] = ()
    presets: tuple[str, ...] = ("standard",)
    constraints: tuple[Constraint, ...] = ()
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.shape, self.groups, self.differ, self.cages, self.thermos,
                                                self.constraints)))

    def __hash__(self) -> int:  # cached: rules key the caches of every model
        return self._hash

    def __reduce__(self) -> tuple:
        """Pickled by value, so another process (a pool or cluster worker) recomputes the hash."""
        return Rules, (self.shape, self.groups, self.differ, self.cages, self.thermos, self.presets,
                       self.constraints)

    @property
    def n(self) -> int:
        return self.shape.n

    @cached_property
    def kinds(self) -> frozenset[str]:
        """The constraint kinds these rules use (``all-different`` always)."""
        used = {ALL_DIFFERENT}
        if any(d.pairs for d in self.differ):
            used.add(DIFFER)
        if self.cages:
            used.add(SUM)
        if self.thermos:
            used.add(INCREASING)
        used.update(constraint.kind for constraint in self.constraints)
        return frozenset(used)

    def with_constraints(self, *constraints: Constraint) -> Rules:
        """The same rules with more constraints of registered kinds (each kind must be known).

        >>> r = standard(Shape(2, 2))
        >>> r.with_constraints() == r
        True
        """
        for constraint in constraints:
            kind_named(constraint.kind)
            for cell in constraint.cells:
                if not 0 <= cell < self.shape.cells:
                    raise RulesError(f"{constraint.name}: cell {cell} is off the {self.n}x{self.n} board")
        return Rules(self.shape, self.groups, self.differ, self.cages, self.thermos, self.presets,
                     self.constraints + tuple(constraints))

    @cached_property
    def is_standard(self) -> bool:
        """True for plain Sudoku (rows, columns, boxes and nothing else): solvers keep a fast path for it."""
        return self == standard(self.shape)

    @cached_property
    def complete_groups(self) -> tuple[Group, ...]:
        """The groups of n cells: each holds every digit exactly once."""
        return tuple(g for g in self.groups if len(g.cells) == self.n)

    @cached_property
    def partial_groups(self) -> tuple[Group, ...]:
        """The groups of fewer than n cells: their digits only differ."""
        return tuple(g for g in self.groups if len(g.cells) < self.n)

    @cached_property
    def pairs(self) -> tuple[tuple[int, int], ...]:
        """Every differing pair of every ``Differ`` set, each once, smaller cell first."""
        return tuple(sorted({pair for d in self.differ for pair in d.pairs}))

    @cached_property
    def cell_groups(self) -> tuple[tuple[int, ...], ...]:
        """Per cell, the indices (into ``groups``) of the groups it belongs to."""
        found: list[list[int]] = [[] for _ in range(self.shape.cells)]
        for index, group in enumerate(self.groups):
            for cell in group.cells:
                found[cell].append(index)
        return tuple(tuple(f) for f in found)

    @cached_property
    def peers(self) -> tuple[frozenset[int], ...]:
        """Per cell, the cells that may not hold its digit: group mates and differing partners."""
        found: list[set[int]] = [set() for _ in range(self.shape.cells)]
        for group in self.groups:
            for cell in group.cells:
                found[cell].update(group.cells)
        for a, b in self.pairs:
            found[a].add(b)
            found[b].add(a)
        return tuple(frozenset(f - {cell}) for cell, f in enumerate(found))

    def describe(self) -> str:
        """One line for messages: ``9x9 board with 3x3 boxes, rules: x, anti-knight``."""
        return f"{self.shape}, rules: {', '.join(self.presets)}"

    def first_conflict(self, grid: Grid) -> str | None:
        """The first rule a (possibly partial) grid breaks, in 1-based words, or None.

        Blanks (0) break nothing. Groups come first (rows, columns, boxes, then the others), then
        differing pairs, cage sums (a full cage must reach its total, a partial one must not pass
        it), thermometers (digits ``i`` places apart along one must differ by at least ``i``), and
        last the ``constraints`` of other kinds, each by its own ``broken``.
        """
        n = self.n
        for group in self.groups:
            seen: dict[int, int] = {}
            for position, cell in enumerate(group.cells):
                digit = grid[cell]
                if not digit:
                    continue
                if digit in seen:
                    where = _positions(group, seen[digit], position, n)
                    return f"{group.name} holds {digit} twice ({where})"
                seen[digit] = position
        for differ in self.differ:
            for a, b in differ.pairs:
                if grid[a] and grid[a] == grid[b]:
                    return f"{differ.name}: {cell_words(a, n)} and {cell_words(b, n)} both hold {grid[a]}"
        for cage in self.cages:
            digits = [grid[cell] for cell in cage.cells]
            total = sum(digits)
            if all(digits) and total != cage.total:
                return f"{cage.name} adds up to {total}"
            if total > cage.total:
                return f"{cage.name} adds up to more than {cage.total} already"
        for thermo in self.thermos:
            placed = [(i, grid[cell], cell) for i, cell in enumerate(thermo.cells) if grid[cell]]
            for (i, a, cell_a), (j, b, cell_b) in zip(placed, placed[1:]):
                if b - a < j - i:
                    return (f"{thermo.name} does not increase: {cell_words(cell_a, n)} holds {a}, "
                            f"{cell_words(cell_b, n)} holds {b}")
            for i, digit, cell in placed:
                if digit < i + 1 or digit > n - (len(thermo.cells) - 1 - i):
                    place = f"place {i + 1} of {len(thermo.cells)}"
                    return f"{thermo.name} cannot hold {digit} at {cell_words(cell, n)} ({place})"
        for constraint in self.constraints:
            broken = constraint.broken(grid, n)
            if broken is not None:
                return broken
        return None


def _positions(group: Group, first: int, second: int, n: int) -> str:
    """Where a digit repeats in a group: columns of a row, rows of a column, cells otherwise."""
    if group.kind == "row":
        return f"columns {first + 1} and {second + 1}"
    if group.kind == "column":
        return f"rows {first + 1} and {second + 1}"
    return f"{cell_words(group.cells[first], n)} and {cell_words(group.cells[second], n)}"


# --- Building rule sets. ---------------------------------------------------------------------------

def _rows(n: int) -> list[Group]:
    return [Group(f"row {r + 1}", tuple(r * n + c for c in range(n))) for r in range(n)]


def _columns(n: int) -> list[Group]:
    return [Group(f"column {c + 1}", tuple(r * n + c for r in range(n))) for c in range(n)]


def _boxes(shape: Shape) -> list[Group]:
    n = shape.n
    cells: list[list[int]] = [[] for _ in range(n)]
    for r in range(n):
        for c in range(n):
            cells[shape.box_of(r, c)].append(r * n + c)
    return [Group(f"box {b + 1}", tuple(cs)) for b, cs in enumerate(cells)]


def diagonals(n: int) -> list[Group]:
    """Sudoku X: the main diagonal (top left to bottom right) and the anti-diagonal."""
    return [Group("diagonal 1", tuple(i * n + i for i in range(n))),
            Group("diagonal 2", tuple(i * n + (n - 1 - i) for i in range(n)))]


def windows(shape: Shape) -> list[Group]:
    """Windoku's extra boxes: box-sized windows one row and one column in from the top left, one
    empty row and column between windows, as many as fit (four on 9x9, one on 4x4, two on 6x6)."""
    n, h, w = shape.n, shape.box_rows, shape.box_cols
    tops = range(1, n - h + 1, h + 1)
    lefts = range(1, n - w + 1, w + 1)
    found: list[Group] = []
    for top in tops:
        for left in lefts:
            cells = tuple((top + i) * n + left + j for i in range(h) for j in range(w))
            found.append(Group(f"window {len(found) + 1}", cells))
    return found


def _moves(n: int, steps: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    pairs = set()
    for r in range(n):
        for c in range(n):
            for dr, dc in steps:
                rr, cc = r + dr, c + dc
                if 0 <= rr < n and 0 <= cc < n:
                    a, b = r * n + c, rr * n + cc
                    pairs.add((min(a, b), max(a, b)))
    return sorted(pairs)


KNIGHT = ((1, 2), (2, 1), (1, -2), (2, -1))
KING = ((1, 1), (1, -1), (1, 0), (0, 1))


def regions_from_labels(labels: Sequence[int], shape: Shape) -> list[Group]:
    """Jigsaw regions from one label per cell (row-major); each region must have n cells.

    Regions are numbered in the order their first cell appears, row-major, so "region 1" holds
    the top-left cell whatever the labels were.
    """
    n = shape.n
    if len(labels) != shape.cells:
        raise RulesError(f"regions: {shape.cells} labels expected for a {n}x{n} board, found {len(labels)}")
    order: dict[int, list[int]] = {}
    for cell, label in enumerate(labels):
        order.setdefault(label, []).append(cell)
    if len(order) != n:
        raise RulesError(f"regions: {n} regions expected, found {len(order)}")
    groups = []
    for index, cells in enumerate(order.values()):
        if len(cells) != n:
            where = cell_words(cells[0], n)
            raise RulesError(f"regions: region {index + 1} (from {where}) has {len(cells)} cells, not {n}")
        groups.append(Group(f"region {index + 1}", tuple(cells)))
    return groups


def build(
    shape: Shape,
    presets: Sequence[str] = ("standard",),
    *,
    regions: Sequence[int] | None = None,
    cages: Sequence[tuple[Sequence[int], int]] = (),
    thermos: Sequence[Sequence[int]] = (),
    extra_groups: Sequence[Sequence[int]] = (),
) -> Rules:
    """A rule set from preset names and their data; ``build(shape)`` is standard Sudoku.

    ``regions`` (one label per cell) replaces the boxes and implies ``jigsaw``; ``cages`` (cells,
    total) implies ``killer``; ``thermos`` (cells from the bulb) implies ``thermo``;
    ``extra_groups`` adds all-different groups named "group 1", ...; ``latin`` leaves the boxes out
    (a Latin square), and cannot be combined with regions. Data and presets are checked:
    cells on the board, cages and thermometers no longer than n, totals reachable, no cell in two
    cages, a preset that needs data has it.

    >>> r = build(Shape(3, 3), ["x"])
    >>> r.presets, len(r.groups), r.groups[-1].name, r.kinds == {"all-different"}
    (('standard', 'x'), 29, 'diagonal 2', True)
    >>> latin = build(Shape(1, 5), ["latin"])
    >>> latin.presets, len(latin.groups), latin.groups[-1].name
    (('latin',), 10, 'column 5')
    """
    n, size = shape.n, shape.cells
    names = parse_presets([*presets])
    if regions is not None and "jigsaw" not in names:
        names.append("jigsaw")
    if cages and "killer" not in names:
        names.append("killer")
    if thermos and "thermo" not in names:
        names.append("thermo")
    data = {"jigsaw": regions is not None, "killer": bool(cages), "thermo": bool(thermos)}
    for name, what in NEEDS_DATA.items():
        if name in names and not data[name]:
            raise RulesError(f"rules '{name}' need their data: {what}, or a JSON puzzle file")
    ordered = tuple(p for p in PRESETS if p in names and p != "standard")
    if "latin" in ordered and "jigsaw" in ordered:
        raise RulesError("rules 'latin' have no boxes and 'jigsaw' replaces them with regions: choose one")
    groups = _rows(n) + _columns(n)
    if regions is not None:
        groups += regions_from_labels(regions, shape)
    elif "latin" not in ordered:
        groups += _boxes(shape)
    if "x" in ordered:
        groups += diagonals(n)
    if "windoku" in ordered:
        groups += windows(shape)
    for index, cells in enumerate(extra_groups):
        groups.append(Group(f"group {index + 1}", _checked_cells(cells, size, f"group {index + 1}", n)))
    cage_list = []
    caged: dict[int, str] = {}
    for index, (cells, total) in enumerate(cages):
        name = f"cage {index + 1} (sum {total})"
        cells = _checked_cells(cells, size, name, n)
        _named(name, check_cage, cells, total, n)
        for cell in cells:
            if cell in caged:
                raise RulesError(f"{name}: {cell_words(cell, n)} is in {caged[cell]} too")
            caged[cell] = name
        cage_list.append(Cage(name, cells, int(total)))
        groups.append(Group(name, cells))
    thermo_list = []
    for index, cells in enumerate(thermos):
        name = f"thermometer {index + 1}"
        cells = _checked_cells(cells, size, name, n)
        _named(name, check_thermo, cells, n)
        thermo_list.append(Thermo(name, cells))
    differ = []
    together: set[frozenset[int]] = set()  # pairs already in a common group: made only when needed (slow on 64x64)
    for name, steps in (("anti-knight", KNIGHT), ("anti-king", KING)):
        if name in ordered:
            together = together or {frozenset((a, b)) for g in groups
                                    for i, a in enumerate(g.cells) for b in g.cells[i + 1:]}
            pairs = tuple(p for p in _moves(n, steps) if frozenset(p) not in together)
            differ.append(Differ(name, pairs))
    if "latin" in ordered:  # named first: the rule set is a Latin square, with what the other presets add
        shown = ("latin",) + tuple(p for p in ordered if p != "latin")
    else:
        shown = ("standard",) + ordered if "jigsaw" not in ordered else ordered
    return Rules(shape, tuple(groups), tuple(differ), tuple(cage_list), tuple(thermo_list), shown)


def check_cage(cells: Sequence[int], total: int, n: int) -> None:
    """Refuse a cage total that k different digits of 1..n cannot reach (``RulesError``, naming no cage:
    the caller says which, by its name or by the line of a file).

    >>> check_cage((0, 1), 18, 9)
    Traceback (most recent call last):
    ...
    sudokulab.core.rules.RulesError: 2 different digits of 1..9 add up to 3..17, never 18
    """
    k = len(cells)
    low, high = k * (k + 1) // 2, k * (2 * n - k + 1) // 2
    if not low <= total <= high:
        raise RulesError(f"{k} different digits of 1..{n} add up to {low}..{high}, never {total}")


def check_thermo(cells: Sequence[int], n: int, named: Callable[[int, int], str] = cell_words) -> None:
    """Refuse a thermometer of fewer than 2 cells, or with a cell that is no neighbour of the one before
    (diagonals count). ``named`` writes a cell in the caller's words (a rule file's are ``r1c1``).

    >>> check_thermo((0, 10, 3), 9)
    Traceback (most recent call last):
    ...
    sudokulab.core.rules.RulesError: row 2 column 2 and row 1 column 4 are not neighbours
    """
    if len(cells) < 2:
        raise RulesError("a thermometer needs at least 2 cells")
    for a, b in zip(cells, cells[1:]):
        (ra, ca), (rb, cb) = divmod(a, n), divmod(b, n)
        if max(abs(ra - rb), abs(ca - cb)) != 1:
            raise RulesError(f"{named(a, n)} and {named(b, n)} are not neighbours")


def _named(name: str, check: Callable[..., None], *args: object) -> None:
    """``check(*args)``, its ``RulesError`` prefixed with the constraint's name ("cage 2 (sum 15): ...")."""
    try:
        check(*args)
    except RulesError as exc:
        raise RulesError(f"{name}: {exc}") from None


def _checked_cells(cells: Sequence[int], size: int, name: str, n: int) -> tuple[int, ...]:
    cells = tuple(int(c) for c in cells)
    if not cells:
        raise RulesError(f"{name} has no cells")
    for cell in cells:
        if not 0 <= cell < size:
            raise RulesError(f"{name}: cell {cell} is off the {n}x{n} board")
    if len(set(cells)) != len(cells):
        raise RulesError(f"{name} names a cell twice")
    if len(cells) > n:
        raise RulesError(f"{name} has {len(cells)} cells, more than the {n} digits")
    return cells


@cache
def standard(shape: Shape) -> Rules:
    """Plain Sudoku for a shape (rows, columns, boxes), built once per shape: the default everywhere."""
    return build(shape)


def parse_presets(text: str | Iterable[str]) -> list[str]:
    """Preset names in lower case, checked against ``PRESETS``: from the text of ``--rules x,anti-knight``
    (names between commas or spaces), or from names one by one (a blank one skipped).

    >>> parse_presets("X, anti-knight windoku"), parse_presets([" x ", ""])
    (['x', 'anti-knight', 'windoku'], ['x'])
    """
    words = text.replace(",", " ").split() if isinstance(text, str) else [word.strip() for word in text]
    names = [word.lower() for word in words if word]
    for name in names:
        if name not in PRESETS:
            raise RulesError(f"unknown rules '{name}'; choose from: {', '.join(PRESETS)}")
    return names


def unsupported(rules: Rules, kinds: Iterable[str]) -> str | None:
    """The first kind these rules use that is not among ``kinds``, with an example constraint, or None.

    >>> r = build(Shape(2, 2), cages=[((0, 1), 3)])
    >>> unsupported(r, {"all-different"})
    'sum constraints (cage 1 (sum 3))'
    """
    have = set(kinds)
    examples = {
        DIFFER: lambda: rules.differ[0].name,
        SUM: lambda: rules.cages[0].name,
        INCREASING: lambda: rules.thermos[0].name,
        ALL_DIFFERENT: lambda: rules.groups[0].name,
    }
    for kind in [*KINDS, *dict.fromkeys(c.kind for c in rules.constraints)]:
        if kind in rules.kinds and kind not in have:
            example = examples[kind]() if kind in examples else next(c.name for c in rules.constraints
                                                                      if c.kind == kind)
            words = _KINDS[kind].words if kind in _KINDS else f"'{kind}' constraints"
            return f"{words} ({example})"
    return None
