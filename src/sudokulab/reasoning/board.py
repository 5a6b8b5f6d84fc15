"""The board the technique finders read, and what every finder uses to write its step.

``Board`` is the pencil marks (``candidates.Candidates``), which cells are placed, and the rule
set's ``Tables`` (groups by kind, who sees whom), built once per rule set since every step of every
puzzle under those rules reads them. A finder reports *natural* premises: ``Board.why_not`` names a
placed peer holding the digit rather than the struck candidate where one explains the gap (a
person's "r3c5 holds 7, so not here"); ``step_check`` later makes them minimal. ``Premises`` collects
facts and constraint names in order, each once, and ``make_step`` turns them, with the conclusion
in words (``removed_text``, ``cells_text``), into a ``steps.Step``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache

from ..core.cells import cell_label
from ..core.puzzle import Puzzle
from ..core.rules import Group, Rules
from .candidates import Candidates
from .steps import ChainNode, Fact, Step


@dataclass(frozen=True)
class Tables:
    """What the finders need of a rule set, computed once: groups by kind and who sees whom."""

    rules: Rules
    complete: tuple[Group, ...]
    """Complete groups, boxes (and regions, windows) first: where a person looks first."""
    every: tuple[Group, ...]
    """Complete groups as above, then the partial ones (cages)."""
    cell_sets: dict[str, frozenset[int]]
    names: tuple[str, ...]
    """Every rule constraint's name: groups, differing sets, thermometers (a cage's sum shares its group's)."""

    @property
    def n(self) -> int:
        return self.rules.n

    def link(self, a: int, b: int) -> str | None:
        """The name of the first constraint that keeps cells a and b apart."""
        return _link(self.rules, min(a, b), max(a, b))


@cache
def tables(rules: Rules) -> Tables:
    order = {"box": 0, "region": 0, "window": 1, "row": 2, "column": 3}
    complete = tuple(sorted(rules.complete_groups, key=lambda g: order.get(g.kind, 4)))
    names = tuple(dict.fromkeys([g.name for g in rules.groups] + [d.name for d in rules.differ]
                                + [t.name for t in rules.thermos]))
    return Tables(rules, complete, complete + rules.partial_groups,
                  {g.name: frozenset(g.cells) for g in rules.groups}, names)


@cache
def _link(rules: Rules, a: int, b: int) -> str | None:
    for index in rules.cell_groups[a]:
        group = rules.groups[index]
        if b in group.cells:
            return group.name
    for differ in rules.differ:
        if (a, b) in _pair_set(differ.pairs):
            return differ.name
    return None


@cache
def _pair_set(pairs: tuple[tuple[int, int], ...]) -> frozenset[tuple[int, int]]:
    return frozenset(pairs)


class Board:
    """Pencil marks and which cells are placed (a given, or a digit a step put there)."""

    __slots__ = ("cands", "marks", "placed", "tables")

    def __init__(self, cands: Candidates, placed: list[bool], tables_: Tables):
        self.cands = cands
        self.marks = cands.marks
        """The cells' masks (the candidates' own list: the finders' hot loops read it directly)."""
        self.placed = placed
        self.tables = tables_

    @classmethod
    def start(cls, puzzle: Puzzle) -> Board:
        """The givens placed and struck from their peers: what a person writes before the first step."""
        return cls(Candidates.start(puzzle), [bool(v) for v in puzzle.givens], tables(puzzle.rules))

    @property
    def n(self) -> int:
        return self.cands.n

    @property
    def solved(self) -> bool:
        return all(self.placed)

    def copy(self) -> Board:
        return Board(self.cands.copy(), list(self.placed), self.tables)

    def key(self) -> tuple:
        """What the trial caches key a position by: its rule set and its marks and placings.

        The rule set goes in by identity, which is safe because ``tables`` keeps every ``Tables`` it
        made for the process's life, so no other rule set's tables can take a freed one's id."""
        return id(self.tables), tuple(self.marks), tuple(self.placed)

    def place(self, cell: int, digit: int) -> None:
        """Put a digit in a cell and strike it from every peer (bookkeeping, not a step of its own)."""
        self.cands.place(cell, digit)
        self.placed[cell] = True
        for peer in self.cands.puzzle.rules.peers[cell]:
            if not self.placed[peer]:
                self.cands.remove(peer, digit)

    def apply(self, step: Step) -> None:
        for cell, digit in step.removed:
            self.cands.remove(cell, digit)
        for cell, digit in step.placed:
            self.place(cell, digit)

    def facts(self) -> list[Fact]:
        """Everything known: the placed digits, and the candidates struck from open cells."""
        found = []
        for cell, mask in enumerate(self.marks):
            if self.placed[cell]:
                found.append(Fact(cell, self.cands.value(cell), True))
            else:
                found += [Fact(cell, d, False) for d in range(1, self.n + 1) if not mask >> (d - 1) & 1]
        return found

    def cell_facts(self, cells: Iterable[int]) -> list[Fact]:
        """The facts of some cells: a placed digit, or the struck candidates."""
        found = []
        for cell in cells:
            if self.placed[cell]:
                found.append(Fact(cell, self.cands.value(cell), True))
            else:
                found += [Fact(cell, d, False) for d in range(1, self.n + 1) if not self.marks[cell] >> (d - 1) & 1]
        return found

    def open_cells(self, group: Group) -> list[int]:
        return [cell for cell in group.cells if not self.placed[cell]]

    def placed_digits(self, group: Group) -> int:
        """The digits placed in a group, as a mask."""
        mask = 0
        marks, placed = self.marks, self.placed
        for cell in group.cells:
            if placed[cell]:
                mask |= marks[cell]
        return mask

    def digit_places(self) -> Iterator[tuple[Group, int, list[int]]]:
        """Each complete group with each digit not yet placed in it, and that digit's open places there:
        where hidden singles, locked candidates, cage claiming, region forcing chains and strong links start."""
        for group in self.tables.complete:
            done = self.placed_digits(group)
            for digit in range(1, self.n + 1):
                if not done >> (digit - 1) & 1:
                    yield group, digit, self.places(group, digit)

    def places(self, group: Group, digit: int) -> list[int]:
        bit = 1 << (digit - 1)
        marks, placed = self.marks, self.placed
        return [cell for cell in group.cells if marks[cell] & bit and not placed[cell]]

    def why_not(self, cell: int, digit: int) -> tuple[Fact, str | None]:
        """Why a cell cannot hold a digit, as a person says it: the digit it holds, a placed peer
        holding the digit (and the constraint between them), or the struck candidate itself."""
        if self.placed[cell]:
            return Fact(cell, self.cands.value(cell), True), None
        for peer in sorted(self.cands.puzzle.rules.peers[cell]):
            if self.placed[peer] and self.cands.value(peer) == digit:
                return Fact(peer, digit, True), self.tables.link(cell, peer)
        return Fact(cell, digit, False), None


# --- Writing a step. ---------------------------------------------------------------------------------

class Premises:
    """Premises and constraint names collected in order, each once."""

    def __init__(self, *names: str):
        self.facts: dict[Fact, None] = {}
        self.names: dict[str, None] = dict.fromkeys(names)

    def add(self, fact: Fact, name: str | None = None) -> None:
        self.facts[fact] = None
        if name:
            self.names[name] = None

    def why_not(self, board: Board, cell: int, digit: int) -> None:
        self.add(*board.why_not(cell, digit))

    def name(self, name: str | None) -> None:
        if name:
            self.names[name] = None


def removed_text(removed: Sequence[tuple[int, int]], n: int) -> str:
    """``r1c7 ≠ 3, 7; r1c9 ≠ 3``: struck candidates grouped by cell."""
    by_cell: dict[int, list[int]] = {}
    for cell, digit in removed:
        by_cell.setdefault(cell, []).append(digit)
    return "; ".join(f"{cell_label(c, n)} ≠ {', '.join(map(str, sorted(ds)))}" for c, ds in by_cell.items())


def cells_text(cells: Iterable[int], n: int) -> str:
    return " ".join(cell_label(c, n) for c in cells)


def make_step(technique: str, difficulty: float, placed: Sequence[tuple[int, int]],
              removed: Sequence[tuple[int, int]], premises: Premises, text: str,
              chain: Sequence[ChainNode] = ()) -> Step:
    """The finished step: the conclusion, and the premises and constraint names in the order collected."""
    return Step(technique, difficulty, tuple(placed), tuple(removed), tuple(premises.facts), tuple(premises.names),
                text, chain=tuple(chain))
