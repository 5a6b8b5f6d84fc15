"""Almost locked sets: ALS-XZ.

An **almost locked set** (ALS) is k cells of one group (any all-different group: rows, boxes,
diagonals, cages) whose candidates are k + 1 digits: take one digit away and the rest are locked.
Two disjoint ALSs A and B with a **restricted common** digit x (in both, and every x of A sees every
x of B, so x is in at most one of them) lock the other: one of them loses x and so holds all its
other digits. For any other common digit z, one of A and B holds z, so z leaves every cell that
sees all the z's of both.
"""

from __future__ import annotations

import itertools

from .board import Board, Premises, cells_text, make_step, removed_text
from .candidates import digits_of
from .steps import Step

MAX_CELLS = 3
"""The largest ALS looked for (a bivalue cell is the smallest)."""


def _sets(board: Board) -> list[tuple[str, tuple[int, ...], int]]:
    """Every ALS up to ``MAX_CELLS`` cells: its group, its cells and its digits, each cell set once."""
    found = []
    seen: set[tuple[int, ...]] = set()
    for group in board.tables.every:
        open_cells = [c for c in board.open_cells(group) if board.marks[c].bit_count() <= MAX_CELLS + 1]
        for size in range(1, MAX_CELLS + 1):
            for cells in itertools.combinations(open_cells, size):
                mask = 0
                for cell in cells:
                    mask |= board.marks[cell]
                if mask.bit_count() == size + 1 and cells not in seen:
                    seen.add(cells)
                    found.append((group.name, cells, mask))
    return found


def als_xz(board: Board, difficulty: float) -> Step | None:
    """Two almost locked sets with a restricted common digit x: another common digit z leaves every
    cell that sees all its places in both."""
    n = board.n
    peers = board.cands.puzzle.rules.peers
    sets = _sets(board)

    def places(cells: tuple[int, ...], digit: int) -> list[int]:
        return [c for c in cells if board.marks[c] >> (digit - 1) & 1]

    for (group_a, a, mask_a), (group_b, b, mask_b) in itertools.combinations(sets, 2):
        common = mask_a & mask_b
        if common.bit_count() < 2 or set(a) & set(b):
            continue
        for x in digits_of(common):
            xa, xb = places(a, x), places(b, x)
            if not all(q in peers[p] for p in xa for q in xb):
                continue
            for z in digits_of(common & ~(1 << (x - 1))):
                zs = places(a, z) + places(b, z)
                seen = set(peers[zs[0]])
                for cell in zs[1:]:
                    seen &= peers[cell]
                targets = sorted(c for c in seen - set(a) - set(b)
                                 if not board.placed[c] and board.marks[c] >> (z - 1) & 1)
                if not targets:
                    continue
                why = Premises(group_a, group_b)
                for cell in a + b:
                    for digit in range(1, n + 1):
                        if not board.marks[cell] >> (digit - 1) & 1:
                            why.why_not(board, cell, digit)
                for p in xa:
                    for q in xb:
                        why.name(board.tables.link(p, q))
                for target in targets:
                    for cell in zs:
                        why.name(board.tables.link(target, cell))
                removed = [(c, z) for c in targets]
                text = (f"{removed_text(removed, n)}: ALS-XZ: {cells_text(a, n)} ({group_a}: "
                        f"{{{', '.join(map(str, digits_of(mask_a)))}}}) and {cells_text(b, n)} ({group_b}: "
                        f"{{{', '.join(map(str, digits_of(mask_b)))}}}) share {x} only where they see each other, "
                        f"so one of them holds {z}, and the struck cells see every {z} of both")
                return make_step("als-xz", difficulty, [], removed, why, text)
    return None
