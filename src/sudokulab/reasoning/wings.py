"""Wings: XY-wing, XYZ-wing and W-wing, short chains through cells with two or three digits left.

XY-wing: a pivot {x, y} sees pincers {x, z} and {y, z}; whichever digit the pivot takes, one pincer
holds z, so z leaves every cell that sees both pincers. XYZ-wing: the pivot is {x, y, z} and the
struck cells must see it too. W-wing: two cells {x, y} joined by a strong link on x (each end sees
one of them): one of them holds y, so y leaves the cells that see both. Sound on any rule set: "sees"
is the rules' peers, strong links come from complete groups.
"""

from __future__ import annotations

import itertools

from ..core.cells import cell_label
from .board import Board, Premises, make_step, removed_text
from .candidates import digits_of
from .links import keep_marks, only_places, see_names, seeing_all, sees, strong_links
from .steps import Step


def _open(board: Board, size: int) -> list[int]:
    return [c for c, mask in enumerate(board.marks) if not board.placed[c] and mask.bit_count() == size]


def _marks(board: Board, cell: int) -> str:
    return f"{cell_label(cell, board.n)} {{{', '.join(map(str, digits_of(board.marks[cell])))}}}"


def xy_wing(board: Board, difficulty: float) -> Step | None:
    """A pivot {x, y} and pincers {x, z}, {y, z} it sees: z leaves the cells seeing both pincers."""
    return _wing(board, difficulty, 2, "XY-wing")


def xyz_wing(board: Board, difficulty: float) -> Step | None:
    """A pivot {x, y, z} and pincers {x, z}, {y, z} it sees: z leaves the cells seeing all three."""
    return _wing(board, difficulty, 3, "XYZ-wing")


def _wing(board: Board, difficulty: float, pivot_size: int, name: str) -> Step | None:
    peers = board.cands.puzzle.rules.peers
    marks = board.marks
    pairs = set(_open(board, 2))
    for pivot in _open(board, pivot_size):
        shared = 1 if pivot_size == 2 else 2  # an XY pincer shares one digit with the pivot, an XYZ one both
        pincers = sorted(c for c in peers[pivot] if c in pairs and (marks[c] & marks[pivot]).bit_count() == shared)
        for a, b in itertools.combinations(pincers, 2):
            z_mask = marks[a] & marks[b] & ~(marks[pivot] if pivot_size == 2 else 0)
            if z_mask.bit_count() != 1 or (marks[a] | marks[b] | marks[pivot]).bit_count() != 3:
                continue
            if pivot_size == 2 and marks[a] == marks[b]:
                continue
            if pivot_size == 3 and not z_mask & marks[pivot]:
                continue
            z = z_mask.bit_length()
            wing = (a, b) if pivot_size == 2 else (pivot, a, b)
            targets = [t for t in seeing_all(board, z, wing) if t != pivot]
            if not targets:
                continue
            why = Premises()
            for cell in (pivot, a, b):
                keep_marks(why, board, cell)
            see_names(why, board, pivot, (a, b))
            for target in targets:
                see_names(why, board, target, wing)
            removed = [(t, z) for t in targets]
            text = (f"{removed_text(removed, board.n)}: {name}: pivot {_marks(board, pivot)}, pincers "
                    f"{_marks(board, a)} and {_marks(board, b)} (one of them holds {z})")
            return make_step(name, difficulty, [], removed, why, text)
    return None


def w_wing(board: Board, difficulty: float) -> Step | None:
    """Two cells {x, y} whose ends of a strong link on x each see one: y leaves the cells seeing both."""
    n = board.n
    by_marks: dict[int, list[int]] = {}
    for cell in _open(board, 2):
        by_marks.setdefault(board.marks[cell], []).append(cell)
    for mask, cells in by_marks.items():
        for a, b in itertools.combinations(cells, 2):
            if sees(board, a, b):
                continue
            for x in digits_of(mask):
                y = (mask & ~(1 << (x - 1))).bit_length()
                targets = seeing_all(board, y, (a, b))
                if not targets:
                    continue
                for group, p, q in strong_links(board, x):
                    if {p, q} & {a, b}:
                        continue
                    ends = (p, q) if sees(board, p, a) and sees(board, q, b) else (
                        (q, p) if sees(board, q, a) and sees(board, p, b) else None)
                    if ends is None:
                        continue
                    why = Premises()
                    keep_marks(why, board, a)
                    keep_marks(why, board, b)
                    only_places(why, board, group, x, ends)
                    see_names(why, board, a, (ends[0],))
                    see_names(why, board, b, (ends[1],))
                    for target in targets:
                        see_names(why, board, target, (a, b))
                    removed = [(t, y) for t in targets]
                    text = (f"{removed_text(removed, n)}: W-wing: {_marks(board, a)} and {_marks(board, b)} "
                            f"joined by the strong link on {x} in {group.name} "
                            f"({cell_label(ends[0], n)}, {cell_label(ends[1], n)}): one of them holds {y}")
                    return make_step("W-wing", difficulty, [], removed, why, text)
    return None
