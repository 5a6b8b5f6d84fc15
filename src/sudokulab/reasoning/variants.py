"""The thermometer technique: digits increase from the bulb, so each cell is bounded by its neighbours.

It strikes the digits the rule alone forbids given the cells' pencil marks, so its premises are
the marks of the thermometer's cells. The killer cage techniques are ``cages`` and ``innies``.
"""

from __future__ import annotations

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
