"""The solving techniques a person uses, as finders over pencil marks, each one step at a time.

Vocabulary: a **fact** is one atom of a board state, "r4c5=7" (the cell holds 7) or "r4c5≠7" (7
is struck from it); a **step** is a conclusion (digits placed, candidates struck), the technique
that gives it, the facts it rests on (its *premises*) and the rule constraints it uses, named as
the rules name them ("row 4", "cage 7 (sum 15)", "anti-knight").

Each finder takes a ``Board`` and returns the first step of its technique, or None; ``explain``
tries them cheapest first. A finder reports *natural* premises: the facts its pattern reads, a
placed digit rather than a struck candidate where a placed peer explains the gap (a person's
"r3c5 holds 7, so not here"); ``step_check`` then makes them minimal with SAT.

Every finder works on any rule set: complete groups (rows, columns, boxes, regions, diagonals,
windows) give hidden singles, locked candidates and hidden subsets; every group (cages too) gives
naked subsets; differing pairs (anti-knight, anti-king) strike a placed digit as group mates do,
and they see each other for locked candidates; rows and columns give fish; cage sums strike digits
no combination of the total can use there; thermometers bound each cell by its neighbours.

Fallbacks where no pattern applies: "contradiction" (assume a candidate, place singles until a
cell or a group has nothing left: the place is named) and "search" (assume it and let SAT show no
solution follows), so every puzzle with one solution gets a full explanation.

(About 615 lines, one module on purpose: the finders share the board, the fact and premise
helpers and the text formatting, and a reader compares techniques side by side.)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from ..core.puzzle import Puzzle
from ..core.rules import Group, Rules
from .candidates import Candidates, cell_label, digits_of
from .step_check import checker
from .steps import Fact, Step

# --- The board the finders read. ------------------------------------------------------------------

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


class _Premises:
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


def _removed_text(removed: Sequence[tuple[int, int]], n: int) -> str:
    """``r1c7 ≠ 3, 7; r1c9 ≠ 3``: struck candidates grouped by cell."""
    by_cell: dict[int, list[int]] = {}
    for cell, digit in removed:
        by_cell.setdefault(cell, []).append(digit)
    return "; ".join(f"{cell_label(c, n)} ≠ {', '.join(map(str, sorted(ds)))}" for c, ds in by_cell.items())


def _cells_text(cells: Iterable[int], n: int) -> str:
    return " ".join(cell_label(c, n) for c in cells)


def _step(technique: str, difficulty: float, placed: Sequence[tuple[int, int]], removed: Sequence[tuple[int, int]],
          premises: _Premises, text: str) -> Step:
    return Step(technique, difficulty, tuple(placed), tuple(removed), tuple(premises.facts), tuple(premises.names),
                text)


# --- Singles. --------------------------------------------------------------------------------------

def hidden_single(board: Board, difficulty: float) -> Step | None:
    """A digit with one place left in a complete group."""
    n = board.n
    for group in board.tables.complete:
        done = board.placed_digits(group)
        for digit in range(1, n + 1):
            if done >> (digit - 1) & 1:
                continue
            places = board.places(group, digit)
            if len(places) != 1:
                continue
            cell = places[0]
            why = _Premises(group.name)
            for other in group.cells:
                if other != cell:
                    why.why_not(board, other, digit)
            text = f"{cell_label(cell, n)} = {digit}: hidden single in {group.name} ({digit} has no other place)"
            return _step("hidden single", difficulty, [(cell, digit)], [], why, text)
    return None


def naked_single(board: Board, difficulty: float) -> Step | None:
    """A cell with one digit left."""
    n = board.n
    for cell, mask in enumerate(board.marks):
        if board.placed[cell] or not mask or mask & (mask - 1):
            continue
        digit = mask.bit_length()
        why = _Premises()
        for other in range(1, n + 1):
            if other != digit:
                why.why_not(board, cell, other)
        text = f"{cell_label(cell, n)} = {digit}: naked single (every other digit is ruled out)"
        return _step("naked single", difficulty, [(cell, digit)], [], why, text)
    return None


# --- Intersections, subsets, fish. -----------------------------------------------------------------

def locked_candidates(board: Board, difficulty: float) -> Step | None:
    """A digit's places in a complete group all see some cells outside it: the digit leaves those
    (pointing from a box into a line, claiming from a line into a box, and the same for any group)."""
    n = board.n
    rules = board.cands.puzzle.rules
    for group in board.tables.complete:
        done = board.placed_digits(group)
        inside = board.tables.cell_sets[group.name]
        for digit in range(1, n + 1):
            if done >> (digit - 1) & 1:
                continue
            places = board.places(group, digit)
            if len(places) < 2:
                continue
            seen = set(rules.peers[places[0]])
            for cell in places[1:]:
                seen &= rules.peers[cell]
            targets = sorted(c for c in seen - inside if not board.placed[c] and board.cands.has(c, digit))
            if not targets:
                continue
            why = _Premises(group.name)
            for other in group.cells:
                if other not in places:
                    why.why_not(board, other, digit)
            shared = [g.name for g in board.tables.every
                      if g.name != group.name and set(places) | set(targets) <= board.tables.cell_sets[g.name]]
            for target in targets:
                if shared:
                    why.name(shared[0])
                else:
                    for cell in places:
                        why.name(board.tables.link(target, cell))
            removed = [(c, digit) for c in targets]
            where = f" (all in {shared[0]})" if shared else f" (all see {_cells_text(targets, n)})"
            text = (f"{_removed_text(removed, n)}: locked candidates: in {group.name}, {digit} can only go in "
                    f"{_cells_text(places, n)}{where}")
            return _step("locked candidates", difficulty, [], removed, why, text)
    return None


_SUBSET_NAMES = {2: "pair", 3: "triple", 4: "quad"}


def naked_subset(board: Board, difficulty: float, size: int) -> Step | None:
    """``size`` cells of a group whose candidates are ``size`` digits: those digits leave the group's other cells."""
    n = board.n
    for group in board.tables.every:
        open_cells = board.open_cells(group)
        small = [c for c in open_cells if board.marks[c].bit_count() <= size]
        for cells in itertools.combinations(small, size):
            union = 0
            for cell in cells:
                union |= board.marks[cell]
            if union.bit_count() != size:
                continue
            removed = [(c, d) for c in open_cells if c not in cells for d in digits_of(board.marks[c] & union)]
            if not removed:
                continue
            why = _Premises(group.name)
            for cell in cells:
                for digit in range(1, n + 1):
                    if not union >> (digit - 1) & 1:
                        why.why_not(board, cell, digit)
            name = f"naked {_SUBSET_NAMES[size]}"
            digits = ", ".join(map(str, digits_of(union)))
            text = f"{_removed_text(removed, n)}: {name} {{{digits}}} in {_cells_text(cells, n)} ({group.name})"
            return _step(name, difficulty, [], removed, why, text)
    return None


def hidden_subset(board: Board, difficulty: float, size: int) -> Step | None:
    """``size`` digits of a complete group with only ``size`` places: those cells keep only these digits."""
    n = board.n
    for group in board.tables.complete:
        done = board.placed_digits(group)
        where = {d: board.places(group, d) for d in range(1, n + 1) if not done >> (d - 1) & 1}
        few = [d for d, places in where.items() if 1 <= len(places) <= size]
        for digits in itertools.combinations(few, size):
            cells = sorted({c for d in digits for c in where[d]})
            if len(cells) != size:
                continue
            keep = sum(1 << (d - 1) for d in digits)
            removed = [(c, d) for c in cells for d in digits_of(board.marks[c] & ~keep)]
            if not removed:
                continue
            why = _Premises(group.name)
            for digit in digits:
                for other in group.cells:
                    if other not in cells:
                        why.why_not(board, other, digit)
            name = f"hidden {_SUBSET_NAMES[size]}"
            text = (f"{_removed_text(removed, n)}: {name} {{{', '.join(map(str, digits))}}} in "
                    f"{_cells_text(cells, n)} ({group.name}: these digits have no other place)")
            return _step(name, difficulty, [], removed, why, text)
    return None


_FISH_NAMES = {2: "x-wing", 3: "swordfish", 4: "jellyfish"}


def fish(board: Board, difficulty: float, size: int) -> Step | None:
    """A digit whose places in ``size`` rows lie in ``size`` columns (or the other way round): it
    leaves those columns' other cells."""
    n = board.n
    groups = board.cands.puzzle.rules.groups
    rows, columns = groups[:n], groups[n:2 * n]
    name = _FISH_NAMES[size]
    for digit in range(1, n + 1):
        for base, cover in ((rows, columns), (columns, rows)):
            lines = []
            for index, line in enumerate(base):
                if board.placed_digits(line) >> (digit - 1) & 1:
                    continue
                positions = [i for i, cell in enumerate(line.cells) if not board.placed[cell]
                             and board.cands.has(cell, digit)]
                if 2 <= len(positions) <= size:
                    lines.append((index, positions))
            for chosen in itertools.combinations(lines, size):
                covered = sorted({i for _, positions in chosen for i in positions})
                if len(covered) != size:
                    continue
                bases = {index for index, _ in chosen}
                removed = [(cell, digit) for i in covered for j, cell in enumerate(cover[i].cells)
                           if j not in bases and not board.placed[cell] and board.cands.has(cell, digit)]
                if not removed:
                    continue
                why = _Premises(*(base[index].name for index in sorted(bases)), *(cover[i].name for i in covered))
                for index in sorted(bases):
                    for i, cell in enumerate(base[index].cells):
                        if i not in covered:
                            why.why_not(board, cell, digit)
                text = (f"{_removed_text(removed, n)}: {name} on {digit} in "
                        f"{', '.join(base[index].name for index in sorted(bases))} "
                        f"(only in {', '.join(cover[i].name for i in covered)})")
                return _step(name, difficulty, [], sorted(removed), why, text)
    return None


# --- Variant rules: thermometers and cage sums. -----------------------------------------------------

def thermometer(board: Board, difficulty: float) -> Step | None:
    """Digits increase from the bulb: a cell's digit is above the smallest one the cell before can
    hold and below the largest the cell after can hold."""
    n = board.n
    for thermo in board.cands.puzzle.rules.thermos:
        marks = {cell: board.marks[cell] for cell in thermo.cells}
        cells = thermo.cells
        changed = True
        while changed:
            changed = False
            for a, b in zip(cells, cells[1:]):
                if marks[a]:
                    low = (marks[a] & -marks[a]).bit_length()  # smallest digit a can hold
                    trimmed = marks[b] & ~((1 << low) - 1)
                    changed |= trimmed != marks[b]
                    marks[b] = trimmed
                if marks[b]:
                    high = marks[b].bit_length()  # largest digit b can hold
                    trimmed = marks[a] & ((1 << (high - 1)) - 1)
                    changed |= trimmed != marks[a]
                    marks[a] = trimmed
        removed = [(c, d) for c in cells for d in digits_of(board.marks[c] & ~marks[c])]
        if removed:
            why = _Premises(thermo.name)
            for fact in board.cell_facts(cells):
                why.add(fact)
            text = (f"{_removed_text(removed, n)}: {thermo.name} (digits increase from the bulb "
                    f"{cell_label(cells[0], n)} to the tip {cell_label(cells[-1], n)})")
            return _step("thermometer", difficulty, [], removed, why, text)
    return None


def cage_supports(marks: Sequence[int], total: int) -> list[int]:
    """For each cell of a cage, the digits it can hold in some filling with different digits adding
    up to ``total``: a pass over the sets of digits used so far (their sum is the sum so far)."""
    k = len(marks)

    def digit_sum(mask: int) -> int:
        return sum(digits_of(mask))

    reach: list[set[int]] = [{0}]
    for mask in marks:
        nxt = set()
        for used in reach[-1]:
            free = mask & ~used
            while free:
                low = free & -free
                nxt.add(used | low)
                free ^= low
        reach.append(nxt)
    good = {used for used in reach[k] if digit_sum(used) == total}
    supports = [0] * k
    for i in range(k - 1, -1, -1):
        before = set()
        for used in reach[i]:
            free = marks[i] & ~used
            while free:
                low = free & -free
                if used | low in good:
                    supports[i] |= low
                    before.add(used)
                free ^= low
        good = before
    return supports


def cage_sum(board: Board, difficulty: float) -> Step | None:
    """Digits no combination of a cage's total can put in a cell (different digits, that sum)."""
    n = board.n
    for cage in board.cands.puzzle.rules.cages:
        marks = [board.marks[cell] for cell in cage.cells]
        supports = cage_supports(marks, cage.total)
        removed = [(c, d) for c, mask, keep in zip(cage.cells, marks, supports) for d in digits_of(mask & ~keep)]
        if removed:
            why = _Premises(cage.name)
            for fact in board.cell_facts(cage.cells):
                why.add(fact)
            text = (f"{_removed_text(removed, n)}: {cage.name}: no {len(cage.cells)} different digits adding up "
                    f"to {cage.total} that fit the cage put them there")
            return _step("cage sum", difficulty, [], removed, why, text)
    return None


# --- Fallbacks: assume a candidate and see it fail. --------------------------------------------------

def _singles_until_stuck(board: Board) -> str | None:
    """Place naked and hidden singles until none is left; where a contradiction shows, or None."""
    n = board.n
    while True:
        progress = False
        for cell, mask in enumerate(board.marks):
            if board.placed[cell]:
                continue
            if not mask:
                return f"{cell_label(cell, n)} (no digit left)"
            if not mask & (mask - 1):
                board.place(cell, mask.bit_length())
                progress = True
        for group in board.tables.complete:
            done = board.placed_digits(group)
            for digit in range(1, n + 1):
                if done >> (digit - 1) & 1:
                    continue
                places = board.places(group, digit)
                if not places:
                    return f"{group.name} (no place for {digit})"
                if len(places) == 1:
                    board.place(places[0], digit)
                    progress = True
                    done |= 1 << (digit - 1)
        if not progress:
            return None


def _open_candidates(board: Board) -> list[tuple[int, int]]:
    """Every candidate of an open cell, cells with fewest candidates first (the likeliest to fail fast)."""
    cells = sorted((c for c in range(len(board.marks)) if not board.placed[c]),
                   key=lambda c: (board.marks[c].bit_count(), c))
    return [(c, d) for c in cells for d in digits_of(board.marks[c])]


def contradiction(board: Board, difficulty: float) -> Step | None:
    """Assuming a candidate and placing singles runs into a cell or group with nothing left."""
    n = board.n
    for cell, digit in _open_candidates(board):
        trial = board.copy()
        trial.place(cell, digit)
        where = _singles_until_stuck(trial)
        if where is None:
            continue
        why = _Premises(*board.tables.names)
        for fact in board.facts():
            why.add(fact)
        text = (f"{cell_label(cell, n)} ≠ {digit}: assuming {cell_label(cell, n)} = {digit} leads to a "
                f"contradiction in {where}")
        return _step("contradiction", difficulty, [], [(cell, digit)], why, text)
    return None


def search(board: Board, difficulty: float) -> Step | None:
    """Assuming a candidate leaves no solution, as a SAT search shows (the last resort)."""
    n = board.n
    check = checker(board.cands.puzzle.rules)
    facts = board.facts()
    for cell, digit in _open_candidates(board):
        if check.refutes(facts, Fact(cell, digit, True)):
            why = _Premises(*board.tables.names)
            for fact in facts:
                why.add(fact)
            text = (f"{cell_label(cell, n)} ≠ {digit}: assuming {cell_label(cell, n)} = {digit} leaves no "
                    "solution (a search shows it)")
            return _step("search", difficulty, [], [(cell, digit)], why, text)
    return None


# --- The table. --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Technique:
    name: str
    difficulty: float
    find: Callable[..., Step | None]
    size: int = 0

    def first(self, board: Board) -> Step | None:
        if self.size:
            return self.find(board, self.difficulty, self.size)
        return self.find(board, self.difficulty)


TECHNIQUES = (
    Technique("hidden single", 1.5, hidden_single),
    Technique("thermometer", 1.8, thermometer),
    Technique("cage sum", 2.0, cage_sum),
    Technique("naked single", 2.3, naked_single),
    Technique("locked candidates", 2.6, locked_candidates),
    Technique("naked pair", 3.0, naked_subset, 2),
    Technique("x-wing", 3.2, fish, 2),
    Technique("hidden pair", 3.4, hidden_subset, 2),
    Technique("naked triple", 3.6, naked_subset, 3),
    Technique("swordfish", 3.8, fish, 3),
    Technique("hidden triple", 4.0, hidden_subset, 3),
    Technique("naked quad", 5.0, naked_subset, 4),
    Technique("jellyfish", 5.2, fish, 4),
    Technique("hidden quad", 5.4, hidden_subset, 4),
    Technique("contradiction", 7.5, contradiction),
    Technique("search", 10.0, search),
)
"""Every technique, cheapest first, with its difficulty on a Sudoku Explainer-like scale (its
ratings where it has the technique; the two variant techniques and the fallbacks placed by us)."""
