"""The fallbacks where no pattern applies: assume a candidate and see it fail.

"contradiction" places singles after the assumption until a cell or a group has nothing left (the
place is named); "search" lets SAT show that no solution follows. With them every puzzle with one
solution gets a full explanation. Their premises are everything known and every rule constraint.
"""

from __future__ import annotations

from ..core.cells import cell_label
from .board import Board, Premises, make_step
from .candidates import digits_of
from .step_check import checker
from .steps import Fact, Step


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
        why = Premises(*board.tables.names)
        for fact in board.facts():
            why.add(fact)
        text = (f"{cell_label(cell, n)} ≠ {digit}: assuming {cell_label(cell, n)} = {digit} leads to a "
                f"contradiction in {where}")
        return make_step("contradiction", difficulty, [], [(cell, digit)], why, text)
    return None


def search(board: Board, difficulty: float) -> Step | None:
    """Assuming a candidate leaves no solution, as a SAT search shows (the last resort)."""
    n = board.n
    check = checker(board.cands.puzzle.rules)
    facts = board.facts()
    for cell, digit in _open_candidates(board):
        if check.refutes(facts, Fact(cell, digit, True)):
            why = Premises(*board.tables.names)
            for fact in facts:
                why.add(fact)
            text = (f"{cell_label(cell, n)} ≠ {digit}: assuming {cell_label(cell, n)} = {digit} leaves no "
                    "solution (a search shows it)")
            return make_step("search", difficulty, [], [(cell, digit)], why, text)
    return None
