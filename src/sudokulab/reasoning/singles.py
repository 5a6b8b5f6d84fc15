"""Singles, the first techniques a person learns: a digit with one place left in a group (hidden
single), a cell with one digit left (naked single). As in Sudoku Explainer, a hidden single in a
box (region, window) is easier to see than one in a row, column or diagonal (``LINE_EXTRA`` more)."""

from __future__ import annotations

from ..core.cells import cell_label
from .board import Board, Premises, make_step
from .links import box_like
from .steps import Step

LINE_EXTRA = 0.3
"""What a hidden single outside a box adds to the technique's difficulty (Sudoku Explainer: 1.2 in a box, 1.5)."""


def hidden_single(board: Board, difficulty: float) -> Step | None:
    """A digit with one place left in a complete group."""
    n = board.n
    for group, digit, places in board.digit_places():
        if len(places) != 1:
            continue
        cell = places[0]
        why = Premises(group.name)
        for other in group.cells:
            if other != cell:
                why.why_not(board, other, digit)
        text = f"{cell_label(cell, n)} = {digit}: hidden single in {group.name} ({digit} has no other place)"
        level = difficulty if box_like(group) else round(difficulty + LINE_EXTRA, 1)
        return make_step("hidden single", level, [(cell, digit)], [], why, text)
    return None


def naked_single(board: Board, difficulty: float) -> Step | None:
    """A cell with one digit left."""
    n = board.n
    for cell, mask in enumerate(board.marks):
        if board.placed[cell] or not mask or mask & (mask - 1):
            continue
        digit = mask.bit_length()
        why = Premises()
        for other in range(1, n + 1):
            if other != digit:
                why.why_not(board, cell, other)
        text = f"{cell_label(cell, n)} = {digit}: naked single (every other digit is ruled out)"
        return make_step("naked single", difficulty, [(cell, digit)], [], why, text)
    return None
