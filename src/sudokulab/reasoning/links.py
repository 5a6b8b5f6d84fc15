"""What the pattern finders share: who sees whom, strong links, and the premises a pattern reads.

A *strong link* on a digit is a complete group where the digit has exactly two places left: one of
them holds it. Two cells *see* each other when a group or a differing pair keeps them apart (the
rules' peers), so every helper works on any rule set; the finders say where their pattern is sound.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..core.rules import Group
from .board import Board, Premises


def sees(board: Board, a: int, b: int) -> bool:
    return b in board.cands.puzzle.rules.peers[a]


def open_with(board: Board, digit: int) -> list[int]:
    """The open cells that still have the digit."""
    bit = 1 << (digit - 1)
    return [c for c, mask in enumerate(board.marks) if mask & bit and not board.placed[c]]


def seeing_all(board: Board, digit: int, cells: Iterable[int]) -> list[int]:
    """Open cells, not among ``cells``, that have the digit and see every one of ``cells``."""
    cells = list(cells)
    peers = board.cands.puzzle.rules.peers
    seen = set(peers[cells[0]])
    for cell in cells[1:]:
        seen &= peers[cell]
    bit = 1 << (digit - 1)
    return sorted(c for c in seen - set(cells) if board.marks[c] & bit and not board.placed[c])


def strong_links(board: Board, digit: int) -> list[tuple[Group, int, int]]:
    """Every complete group where the digit has exactly two places, with the two places."""
    found = []
    for group in board.tables.complete:
        if board.placed_digits(group) >> (digit - 1) & 1:
            continue
        places = board.places(group, digit)
        if len(places) == 2:
            found.append((group, places[0], places[1]))
    return found


def keep_marks(why: Premises, board: Board, cell: int) -> None:
    """The premises that leave a cell its pencil marks: each digit it no longer has."""
    mask = board.marks[cell]
    for digit in range(1, board.n + 1):
        if not mask >> (digit - 1) & 1:
            why.why_not(board, cell, digit)


def only_places(why: Premises, board: Board, group: Group, digit: int, places: Iterable[int]) -> None:
    """The premises that leave a digit only these places in a group."""
    why.name(group.name)
    places = set(places)
    for cell in group.cells:
        if cell not in places:
            why.why_not(board, cell, digit)


def see_names(why: Premises, board: Board, cell: int, others: Iterable[int]) -> None:
    """The constraints that keep a cell apart from each of some others."""
    for other in others:
        why.name(board.tables.link(cell, other))


def box_like(group: Group) -> bool:
    """Boxes, jigsaw regions and windows: where Sudoku Explainer's cheaper box variants apply."""
    return group.kind in ("box", "region", "window")
