"""Locked candidates and naked and hidden subsets: a few cells of a group, or a few places of a digit,
that take digits from the cells around them.

Locked candidates work on complete groups and see through any group or differing pair (pointing,
claiming, and the same for diagonals, cages and knight moves); naked subsets on every group, cages
too; hidden subsets on complete groups, since only there must every digit have a place.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from ..core.rules import Group
from .board import Board, Premises, cells_text, make_step, removed_text
from .candidates import digits_of
from .links import box_like
from .steps import Step

CLAIMING_EXTRA = 0.2
"""What claiming (from a row, column or diagonal) adds to pointing from a box (Sudoku Explainer: 2.6, 2.8)."""


def locked_candidates(board: Board, difficulty: float) -> Step | None:
    """A digit's places in a complete group all see some cells outside it: the digit leaves those
    (pointing from a box into a line, claiming from a line into a box, and the same for any group)."""
    return next((found[0] for found in _locked(board, difficulty)), None)


def direct_locked_candidates(board: Board, difficulty: float) -> Step | None:
    """Locked candidates that leave the digit one place in a complete group, as one step placing it
    (Sudoku Explainer's direct pointing, 1.7, and direct claiming, 1.9: a single the eye finds with
    the locked places, before naked singles)."""
    n = board.n
    for step, group, digit, struck in _locked(board, difficulty):
        for other in board.tables.complete:
            inside = board.tables.cell_sets[other.name]
            if other.name == group.name or not inside & struck or board.placed_digits(other) >> (digit - 1) & 1:
                continue
            left = [c for c in board.places(other, digit) if c not in struck]
            if len(left) != 1:
                continue
            why = Premises(*step.groups, other.name)
            for fact in step.premises:
                why.add(fact)
            for cell in other.cells:
                if cell not in struck and cell != left[0]:
                    why.why_not(board, cell, digit)
            name = "direct pointing" if box_like(group) else "direct claiming"
            level = difficulty if box_like(group) else round(difficulty + CLAIMING_EXTRA, 1)
            text = (f"{cells_text(left, n)} = {digit}: {name}: {step.text.split(': ', 2)[2]}; then in {other.name}, "
                    f"{digit} has no other place")
            return make_step(name, level, [(left[0], digit)], [], why, text)
    return None


def _locked(board: Board, difficulty: float) -> Iterator[tuple[Step, Group, int, frozenset[int]]]:
    """Every locked candidates step, with its group, digit and struck cells."""
    n = board.n
    rules = board.cands.puzzle.rules
    for group, digit, places in board.digit_places():
        inside = board.tables.cell_sets[group.name]
        if len(places) < 2:
            continue
        seen = set(rules.peers[places[0]])
        for cell in places[1:]:
            seen &= rules.peers[cell]
        targets = sorted(c for c in seen - inside if not board.placed[c] and board.cands.has(c, digit))
        if not targets:
            continue
        why = Premises(group.name)
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
        where = f" (all in {shared[0]})" if shared else f" (all see {cells_text(targets, n)})"
        text = (f"{removed_text(removed, n)}: locked candidates: in {group.name}, {digit} can only go in "
                f"{cells_text(places, n)}{where}")
        level = difficulty if box_like(group) else round(difficulty + CLAIMING_EXTRA, 1)
        yield make_step("locked candidates", level, [], removed, why, text), group, digit, frozenset(targets)

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
            why = Premises(group.name)
            for cell in cells:
                for digit in range(1, n + 1):
                    if not union >> (digit - 1) & 1:
                        why.why_not(board, cell, digit)
            name = f"naked {_SUBSET_NAMES[size]}"
            digits = ", ".join(map(str, digits_of(union)))
            text = f"{removed_text(removed, n)}: {name} {{{digits}}} in {cells_text(cells, n)} ({group.name})"
            return make_step(name, difficulty, [], removed, why, text)
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
            why = Premises(group.name)
            for digit in digits:
                for other in group.cells:
                    if other not in cells:
                        why.why_not(board, other, digit)
            name = f"hidden {_SUBSET_NAMES[size]}"
            text = (f"{removed_text(removed, n)}: {name} {{{', '.join(map(str, digits))}}} in "
                    f"{cells_text(cells, n)} ({group.name}: these digits have no other place)")
            return make_step(name, difficulty, [], removed, why, text)
    return None
