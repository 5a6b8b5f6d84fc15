"""The techniques of the variant rules with arithmetic: thermometers and killer cages' sums.

Each strikes the digits its rule alone forbids given the cells' pencil marks, so its premises are
the marks of the thermometer's or the cage's cells.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.cells import cell_label
from .board import Board, Premises, make_step, removed_text
from .candidates import digits_of
from .steps import Step


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
            why = Premises(thermo.name)
            for fact in board.cell_facts(cells):
                why.add(fact)
            text = (f"{removed_text(removed, n)}: {thermo.name} (digits increase from the bulb "
                    f"{cell_label(cells[0], n)} to the tip {cell_label(cells[-1], n)})")
            return make_step("thermometer", difficulty, [], removed, why, text)
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
            why = Premises(cage.name)
            for fact in board.cell_facts(cage.cells):
                why.add(fact)
            text = (f"{removed_text(removed, n)}: {cage.name}: no {len(cage.cells)} different digits adding up "
                    f"to {cage.total} that fit the cage put them there")
            return make_step("cage sum", difficulty, [], removed, why, text)
    return None
