"""Single-digit patterns: skyscraper, 2-string kite, turbot fish, empty rectangle, simple colouring.

Each follows one digit along strong links (a group where it has two places: one holds it).
Two strong links whose near ends see each other (skyscraper: two rows or two columns; 2-string
kite: a row and a column; turbot fish: any other complete groups) leave the digit in one far end,
so it leaves every cell that sees both. Empty rectangle: a group (a box) whose places of the digit lie on one
row and one column, and a strong link with one end on that row: the far end's column meets the
box's column in a cell that would leave the box no place. Simple colouring: a digit's strong links
coloured alternately; two cells of one colour that see each other strike that colour (colour
wrap), a cell that sees both colours loses the digit (colour trap). Sound on any rule set: strong
links come from complete groups, "sees" is the rules' peers; the empty rectangle needs rows and
columns. Their ratings: docs/explain.md.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from ..core.cells import cell_label
from ..core.rules import Group
from .board import Board, Premises, cells_text, make_step, removed_text
from .links import box_like, only_places, see_names, seeing_all, sees, strong_links
from .steps import Step

TWO_LINKS = ("skyscraper", "2-string kite", "turbot fish")
"""The names of two strong links joined by a weak one, by the groups they lie in."""


def _kind(first: Group, second: Group) -> str:
    kinds = {first.kind, second.kind}
    if len(kinds) == 1 and kinds <= {"row", "column"}:
        return "skyscraper"
    if kinds == {"row", "column"}:
        return "2-string kite"
    return "turbot fish"


def two_strong_links(board: Board, difficulty: float, name: str) -> Step | None:
    """Two strong links on a digit whose near ends see each other (only the variant ``name``, one of
    ``TWO_LINKS``): the digit leaves the cells that see both far ends."""
    n = board.n
    for digit in range(1, n + 1):
        links = strong_links(board, digit)
        for (g1, a1, b1), (g2, a2, b2) in itertools.combinations(links, 2):
            if _kind(g1, g2) != name or len({a1, b1, a2, b2}) < 4:
                continue
            for (far1, near1), (near2, far2) in itertools.product(((a1, b1), (b1, a1)), ((a2, b2), (b2, a2))):
                if not sees(board, near1, near2):
                    continue
                targets = seeing_all(board, digit, (far1, far2))
                targets = [t for t in targets if t not in (near1, near2)]
                if not targets:
                    continue
                why = Premises()
                only_places(why, board, g1, digit, (a1, b1))
                only_places(why, board, g2, digit, (a2, b2))
                see_names(why, board, near1, (near2,))
                for target in targets:
                    see_names(why, board, target, (far1, far2))
                removed = [(t, digit) for t in targets]
                text = (f"{removed_text(removed, n)}: {name} on {digit}: strong links {cell_label(far1, n)}-"
                        f"{cell_label(near1, n)} ({g1.name}) and {cell_label(near2, n)}-{cell_label(far2, n)} "
                        f"({g2.name}); {cell_label(near1, n)} and {cell_label(near2, n)} see each other, so "
                        f"{cell_label(far1, n)} or {cell_label(far2, n)} holds {digit}")
                return make_step(name, difficulty, [], removed, why, text)
    return None


def empty_rectangle(board: Board, difficulty: float) -> Step | None:
    """A box whose places of a digit lie on one row and one column, and a strong link in a column
    (row) with one end on that row (column): the digit leaves the cell where the link's far end's
    row (column) crosses the box's column (row)."""
    n = board.n
    groups = board.cands.puzzle.rules.groups
    rows, columns = groups[:n], groups[n:2 * n]
    for digit in range(1, n + 1):
        links = [link for link in strong_links(board, digit) if link[0].kind in ("row", "column")]
        for box in (g for g in board.tables.complete if box_like(g)):
            places = board.places(box, digit)
            inside = set(box.cells)
            if len(places) < 2 or board.placed_digits(box) >> (digit - 1) & 1:
                continue
            for r, c in itertools.product(sorted({p // n for p in places}), sorted({p % n for p in places})):
                if any(p // n != r and p % n != c for p in places):
                    continue
                for group, p, q in links:
                    for near, far in ((p, q), (q, p)):
                        if near in inside or far in inside:
                            continue
                        if group.kind == "column" and near // n == r:
                            target = (far // n) * n + c  # the far end's row crosses the box's column
                        elif group.kind == "row" and near % n == c:
                            target = r * n + far % n  # the far end's column crosses the box's row
                        else:
                            continue
                        if (target in inside or target in (near, far) or board.placed[target]
                                or not board.cands.has(target, digit)):
                            continue
                        why = Premises()
                        only_places(why, board, box, digit, places)
                        only_places(why, board, group, digit, (p, q))
                        why.name(rows[r].name)
                        why.name(columns[c].name)
                        see_names(why, board, target, (far,))
                        removed = [(target, digit)]
                        text = (f"{removed_text(removed, n)}: empty rectangle on {digit}: in {box.name} it lies "
                                f"on {rows[r].name} or {columns[c].name}, and with the strong link "
                                f"{cell_label(near, n)}-{cell_label(far, n)} ({group.name}) "
                                f"{cell_label(target, n)} = {digit} would leave {box.name} no place for it")
                        return make_step("empty rectangle", difficulty, [], removed, why, text)
    return None


def simple_colouring(board: Board, difficulty: float) -> Step | None:
    """One digit's strong links coloured alternately: a colour that sees itself is struck (wrap,
    ``difficulty``); a cell that sees both colours loses the digit (trap, ``difficulty + 0.1``:
    Sudoku Explainer's forcing X-chain against its X-cycle)."""
    n = board.n
    for digit in range(1, n + 1):
        links = strong_links(board, digit)
        edges: dict[int, list[tuple[int, Group]]] = {}
        for group, p, q in links:
            edges.setdefault(p, []).append((q, group))
            edges.setdefault(q, []).append((p, group))
        seen: set[int] = set()
        for start in sorted(edges):
            if start in seen:
                continue
            colour = {start: 0}
            used: list[tuple[Group, int, int]] = []
            queue = [start]
            while queue:
                cell = queue.pop(0)
                for other, group in edges[cell]:
                    if other not in colour:
                        colour[other] = 1 - colour[cell]
                        used.append((group, cell, other))
                        queue.append(other)
            seen |= set(colour)
            if len(colour) < 3:
                continue
            step = _wrap(board, difficulty, digit, colour, used) or _trap(board, round(difficulty + 0.1, 1), digit,
                                                                          colour, used)
            if step is not None:
                return step
    return None


def _chain(board: Board, digit: int, used: Sequence[tuple[Group, int, int]]) -> Premises:
    why = Premises()
    for group, p, q in used:
        only_places(why, board, group, digit, (p, q))
    return why


def _wrap(board: Board, difficulty: float, digit: int, colour: dict[int, int],
          used: Sequence[tuple[Group, int, int]]) -> Step | None:
    n = board.n
    for a, b in itertools.combinations(sorted(colour), 2):
        if colour[a] == colour[b] and sees(board, a, b):
            struck = sorted(c for c in colour if colour[c] == colour[a])
            why = _chain(board, digit, used)
            see_names(why, board, a, (b,))
            removed = [(c, digit) for c in struck]
            text = (f"{removed_text(removed, n)}: simple colouring on {digit} (colour wrap): "
                    f"{cell_label(a, n)} and {cell_label(b, n)} have one colour and see each other, so "
                    f"that colour ({cells_text(struck, n)}) does not hold {digit}")
            return make_step("simple colouring", difficulty, [], removed, why, text)
    return None


def _trap(board: Board, difficulty: float, digit: int, colour: dict[int, int],
          used: Sequence[tuple[Group, int, int]]) -> Step | None:
    n = board.n
    ones = [c for c in sorted(colour) if colour[c] == 0]
    others = [c for c in sorted(colour) if colour[c] == 1]
    for a, b in itertools.product(ones, others):
        targets = [t for t in seeing_all(board, digit, (a, b)) if t not in colour]
        if not targets:
            continue
        why = _chain(board, digit, used)
        for target in targets:
            see_names(why, board, target, (a, b))
        removed = [(t, digit) for t in targets]
        text = (f"{removed_text(removed, n)}: simple colouring on {digit} (colour trap): "
                f"{cell_label(a, n)} and {cell_label(b, n)} have opposite colours, so one of them holds {digit}")
        return make_step("simple colouring", difficulty, [], removed, why, text)
    return None
