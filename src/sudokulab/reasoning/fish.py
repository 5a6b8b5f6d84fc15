"""Fish (x-wing, swordfish, jellyfish): a digit whose places in k rows lie in k columns, or the other
way round, leaves those columns' other cells. Rows and columns only: each row crosses every column
once, which is what the pattern needs. Finned and sashimi fish add a few places outside the columns
(the fins): the digit then leaves only the cells that also see every fin.
"""
from __future__ import annotations

import itertools

from .board import Board, Premises, cells_text, make_step, removed_text
from .steps import Step

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
                why = Premises(*(base[index].name for index in sorted(bases)), *(cover[i].name for i in covered))
                for index in sorted(bases):
                    for i, cell in enumerate(base[index].cells):
                        if i not in covered:
                            why.why_not(board, cell, digit)
                text = (f"{removed_text(removed, n)}: {name} on {digit} in "
                        f"{', '.join(base[index].name for index in sorted(bases))} "
                        f"(only in {', '.join(cover[i].name for i in covered)})")
                return make_step(name, difficulty, [], sorted(removed), why, text)
    return None


def finned_fish(board: Board, difficulty: float, size: int) -> Step | None:
    """A fish with fins: a digit's places in ``size`` rows lie in ``size`` columns but for a few
    (the fins). Either a fin holds the digit or the fish does, so the digit leaves the cells of those
    columns, outside the rows, that see every fin. Sashimi when a row keeps one place in the columns
    or none. Sound on any rule set with rows and columns ("sees" is the rules' peers)."""
    n = board.n
    groups = board.cands.puzzle.rules.groups
    rows, columns = groups[:n], groups[n:2 * n]
    peers = board.cands.puzzle.rules.peers
    for digit in range(1, n + 1):
        for base, cover in ((rows, columns), (columns, rows)):
            lines = []
            for index, line in enumerate(base):
                if board.placed_digits(line) >> (digit - 1) & 1:
                    continue
                positions = [i for i, cell in enumerate(line.cells) if not board.placed[cell]
                             and board.cands.has(cell, digit)]
                if 2 <= len(positions) <= size + 2:
                    lines.append((index, positions))
            for chosen in itertools.combinations(lines, size):
                union = sorted({i for _, positions in chosen for i in positions})
                if not size < len(union) <= size + 2:
                    continue
                for covered in itertools.combinations(union, size):
                    fins = [base[index].cells[i] for index, positions in chosen for i in positions
                            if i not in covered]
                    bases = {index for index, _ in chosen}
                    removed = [(cell, digit) for i in covered for j, cell in enumerate(cover[i].cells)
                               if j not in bases and not board.placed[cell] and board.cands.has(cell, digit)
                               and all(fin in peers[cell] for fin in fins)]
                    if not removed:
                        continue
                    sashimi = any(len([i for i in positions if i in covered]) <= 1 for _, positions in chosen)
                    name = f"{'sashimi' if sashimi else 'finned'} {_FISH_NAMES[size]}"
                    why = Premises(*(base[index].name for index in sorted(bases)),
                                   *(cover[i].name for i in covered))
                    for index in sorted(bases):
                        for i, cell in enumerate(base[index].cells):
                            if i not in covered and cell not in fins:
                                why.why_not(board, cell, digit)
                    for cell, _ in removed:
                        for fin in fins:
                            why.name(board.tables.link(cell, fin))
                    text = (f"{removed_text(removed, n)}: {name} on {digit} in "
                            f"{', '.join(base[index].name for index in sorted(bases))} "
                            f"(in {', '.join(cover[i].name for i in covered)} but for the fin"
                            f"{'s' if len(fins) > 1 else ''} {cells_text(fins, n)})")
                    return make_step(name, difficulty, [], sorted(removed), why, text)
    return None
