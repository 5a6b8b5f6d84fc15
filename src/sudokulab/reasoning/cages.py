"""The killer cage techniques: a one-cell cage, a cage's sum, and a cage's digits meeting a house.

A cage's *fillings* are the sets of different digits adding up to its total that its cells can
hold, given their pencil marks (``fillings``); every technique here reads them. In the order a
person uses them: a one-cell cage, or a cage's last open cell, is a given in all but name
(``one_cell_cage``, ``last_cage_cell``); a cell keeps only the digits some filling puts there
(``cage_sum``); a digit every filling needs leaves every cell that sees all the cage's places for
it (``cage_pointing``); a digit whose places in a complete group all lie in one cage is that
cage's, leaving its other cells and the fillings without it (``cage_claiming``). Premises are the
cage cells' marks and, for the house techniques, what leaves the digit its places. Their ratings:
docs/explain.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..core.cells import cell_label
from ..core.rules import Cage
from .board import Board, Premises, cells_text, make_step, removed_text
from .candidates import digits_of
from .links import only_places, see_names, seeing_all
from .steps import Step

SHOWN = 6
"""Fillings listed in a step's text; more are counted ("or 5 others")."""


@dataclass(frozen=True)
class Fillings:
    """The digit sets (masks) a cage can hold under its cells' marks, and each cell's digits in them."""

    sets: tuple[int, ...]
    supports: tuple[int, ...]

    @property
    def required(self) -> int:
        """The digits every filling holds (a mask; 0 when there is no filling)."""
        mask = -1 if self.sets else 0
        for digits in self.sets:
            mask &= digits
        return mask


def fillings(marks: Sequence[int], total: int, needed: int = 0) -> Fillings:
    """The fillings of cells with these marks by different digits adding up to ``total`` (and holding
    every digit of the mask ``needed``): a pass over the sets of digits used so far, then back for each cell's digits.
    Sets, not orders, so a 9-cell cage costs at most 2**n states per cell, never k! orders."""
    k = len(marks)
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
    good = {used for used in reach[k] if sum(digits_of(used)) == total and used & needed == needed}
    sets = tuple(sorted(good, key=digits_of))
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
    return Fillings(sets, tuple(supports))


def sums_text(combos: Sequence[Sequence[int]]) -> str:
    """``1+2+7, 1+3+6 or 2+3+5``: digit combinations as a killer solver writes them, the first few of many."""
    shown = ["+".join(map(str, digits)) for digits in combos[:SHOWN]]
    if len(combos) > SHOWN:
        more = len(combos) - SHOWN
        return ", ".join(shown) + f" or {more} other{'s' if more > 1 else ''}"
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]


def sets_text(sets: Sequence[int]) -> str:
    """The fillings of a cage (masks) as ``sums_text`` writes them."""
    return sums_text([digits_of(s) for s in sets])


def a_digit(digit: int) -> str:
    """``a 9``, ``an 8``, ``an 11``: the article a digit takes when read aloud."""
    return f"{'an' if str(digit).startswith('8') or digit in (11, 18) else 'a'} {digit}"


def short_name(cage: Cage) -> str:
    """``cage 12`` of ``cage 12 (sum 17)``."""
    return cage.name.split(" (", 1)[0]


def one_cell_cage(board: Board, difficulty: float) -> Step | None:
    """A cage of one cell holds its total."""
    n = board.n
    for cage in board.cands.puzzle.rules.cages:
        cell = cage.cells[0]
        if len(cage.cells) == 1 and not board.placed[cell] and board.cands.has(cell, cage.total):
            text = f"{cage.name} is one cell: {cell_label(cell, n)} = {cage.total}"
            return make_step("one-cell cage", difficulty, [(cell, cage.total)], [], Premises(cage.name), text)
    return None


def last_cage_cell(board: Board, difficulty: float) -> Step | None:
    """A cage with one open cell left holds in it its total less the digits placed."""
    n = board.n
    for cage in board.cands.puzzle.rules.cages:
        open_cells = [c for c in cage.cells if not board.placed[c]]
        if len(cage.cells) < 2 or len(open_cells) != 1:
            continue
        placed = sum(board.cands.value(c) for c in cage.cells if board.placed[c])
        cell, digit = open_cells[0], cage.total - placed
        if 1 <= digit <= n and board.cands.has(cell, digit):
            text = f"{cage.name} has one open cell left: {cell_label(cell, n)} = {cage.total} − {placed} = {digit}"
            why = Premises(cage.name)
            for fact in board.cell_facts(c for c in cage.cells if c != cell):
                why.add(fact)
            return make_step("last cell of a cage", difficulty, [(cell, digit)], [], why, text)
    return None


def _cage_premises(board: Board, cage: Cage) -> Premises:
    why = Premises(cage.name)
    for fact in board.cell_facts(cage.cells):
        why.add(fact)
    return why


def cage_sum(board: Board, difficulty: float) -> Step | None:
    """Digits no filling of a cage puts in a cell (one-cell cages are ``one_cell_cage``'s)."""
    n = board.n
    for cage in board.cands.puzzle.rules.cages:
        if len(cage.cells) < 2:
            continue
        marks = [board.marks[cell] for cell in cage.cells]
        found = fillings(marks, cage.total)
        removed = [(c, d) for c, mask, keep in zip(cage.cells, marks, found.supports) for d in digits_of(mask & ~keep)]
        if removed and found.sets:
            text = (f"{removed_text(removed, n)}: {cage.name} holds {sets_text(found.sets)} "
                    f"({len(cage.cells)} different digits adding up to {cage.total} that fit its cells)")
            return make_step("cage sum", difficulty, [], removed, _cage_premises(board, cage), text)
    return None


def cage_pointing(board: Board, difficulty: float) -> Step | None:
    """A digit in every filling of a cage leaves the cells outside it that see all its places there."""
    n = board.n
    for cage in board.cands.puzzle.rules.cages:
        marks = [board.marks[cell] for cell in cage.cells]
        found = fillings(marks, cage.total)
        for digit in digits_of(found.required):
            bit = 1 << (digit - 1)
            if any(board.placed[c] and board.marks[c] == bit for c in cage.cells):
                continue
            places = sorted(c for c in cage.cells if board.marks[c] & bit)
            targets = seeing_all(board, digit, places) if places else []
            targets = [c for c in targets if c not in cage.cells]
            if not targets:
                continue
            why = _cage_premises(board, cage)
            for target in targets:
                see_names(why, board, target, places)
            removed = [(c, digit) for c in targets]
            needs = "its only filling" if len(found.sets) == 1 else "every filling"
            text = (f"{removed_text(removed, n)}: {cage.name} needs {a_digit(digit)} "
                    f"({needs}: {sets_text(found.sets)}), "
                    f"and its {digit} goes in {cells_text(places, n)}: a cell that sees them all cannot hold it")
            return make_step("cage pointing", difficulty, [], removed, why, text)
    return None


def cage_claiming(board: Board, difficulty: float) -> Step | None:
    """A digit's places in a complete group all lie in one cage: the cage holds it there, so it leaves
    the cage's other cells, and the fillings without it go."""
    n = board.n
    rules = board.cands.puzzle.rules
    if not rules.cages:
        return None
    cage_of = {cell: cage for cage in rules.cages for cell in cage.cells}
    for group, digit, places in board.digit_places():
        inside = board.tables.cell_sets[group.name]
        cages = {cage_of.get(c) for c in places}
        if not places or len(cages) != 1 or None in cages:
            continue
        cage = cages.pop()
        bit = 1 << (digit - 1)
        marks = [board.marks[c] if c in inside or board.placed[c] else board.marks[c] & ~bit for c in cage.cells]
        found = fillings(marks, cage.total, needed=bit)
        removed = [(c, d) for c, mask, keep in zip(cage.cells, marks, found.supports)
                   for d in digits_of(board.marks[c] & ~keep) if not board.placed[c]]
        if not removed or not found.sets:
            continue
        why = _cage_premises(board, cage)
        only_places(why, board, group, digit, places)
        text = (f"{removed_text(removed, n)}: in {group.name}, {digit} can only go in {cells_text(places, n)} "
                f"of {cage.name}, so the cage holds its {digit} there ({sets_text(found.sets)})")
        return make_step("cage claiming", difficulty, [], removed, why, text)
    return None
