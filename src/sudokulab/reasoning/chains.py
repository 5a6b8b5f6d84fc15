"""Alternating inference chains: X-chains, XY-chains, AICs and AICs with grouped nodes.

A **node** is a digit in one cell, or (grouped) in the two or three cells of a box-line
intersection, read "the digit is in one of these cells". A **strong link** says two nodes are not
both false: the only two places (or the only two intersections) of a digit in a complete group, or
the only two digits of a cell. A **weak link** says two nodes are not both true: the same digit in
cells that all see each other (``rules.peers``: group mates, anti-knight and anti-king partners), or
two digits of one cell. A chain S = N1 - N2 = ... = E that alternates strong and weak links, strong
at both ends, proves S or E holds, so any candidate that sees both leaves.

The search is breadth first from every node, shortest chain first, at most ``MAX_NODES`` nodes. An
X-chain uses one digit and group links only; an XY-chain bivalue cells for its strong links; an AIC
both; a grouped AIC group nodes too. Difficulty follows Sudoku Explainer: a base plus 0.1 each time
the chain outgrows 4, 6, 8, 12, 16, 24, ... nodes (``length_difficulty``, after SE's
``ChainingHint.getLengthDifficulty``, diuf/sudoku/solver/rules/chaining/ChainingHint.java).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

from ..core.cells import cell_label
from .board import Board, Premises, make_step, removed_text
from .steps import ChainNode, Step, chain_text

MAX_NODES = 12
"""The longest chain looked for: longer chains cost more than they teach (docs/explain.md)."""

Node = tuple[int, tuple[int, ...]]
"""A digit and the cells it may be in: one cell, or a box-line intersection (a group node)."""


def length_difficulty(nodes: int) -> float:
    """Sudoku Explainer's length bonus: 0.1 for each of the thresholds 4, 6, 8, 12, 16, 24, ... exceeded."""
    added, ceil, odd = 0.0, 4, False
    while nodes > ceil:
        added += 0.1
        ceil = ceil * 4 // 3 if odd else ceil * 3 // 2
        odd = not odd
    return round(added, 1)


@dataclass(frozen=True)
class _Strong:
    """Why two nodes are not both false: a group's only places for a digit, or a bivalue cell."""

    other: Node
    group: str | None
    """The group (None: the cell's only two digits)."""


class _Graph:
    """The strong links of a board, and the weak links between the nodes they touch."""

    def __init__(self, board: Board, groups: bool, cells: bool, grouped: bool):
        self.board = board
        self.cells = cells
        self.strong: dict[Node, list[_Strong]] = {}
        if groups:
            for group, digit, places in board.digit_places():
                for a, b in _two_parts(board, group.cells, places, grouped):
                    self._link((digit, a), (digit, b), group.name)
        if cells:
            for cell, mask in enumerate(board.marks):
                if not board.placed[cell] and mask.bit_count() == 2:
                    low, high = mask & -mask, mask & (mask - 1)
                    self._link((low.bit_length(), (cell,)), (high.bit_length(), (cell,)), None)
        self.by_digit: dict[int, list[Node]] = {}
        for node in self.strong:
            self.by_digit.setdefault(node[0], []).append(node)
        self._weak: dict[Node, list[Node]] = {}

    def _link(self, a: Node, b: Node, group: str | None) -> None:
        if all(s.other != b for s in self.strong.get(a, ())):
            self.strong.setdefault(a, []).append(_Strong(b, group))
            self.strong.setdefault(b, []).append(_Strong(a, group))

    def sees(self, a: Node, b: Node) -> bool:
        """A weak link: the same digit in cells that all see each other, or two digits of one cell."""
        if a[0] != b[0]:
            return len(a[1]) == 1 and a[1] == b[1]
        peers = self.board.cands.puzzle.rules.peers
        return all(y in peers[x] for x in a[1] for y in b[1])

    def weak(self, node: Node) -> list[Node]:
        if node not in self._weak:
            found = [other for other in self.by_digit.get(node[0], ()) if other != node and self.sees(node, other)]
            if self.cells and len(node[1]) == 1:
                found += [other for other in self.strong if other[1] == node[1] and other[0] != node[0]]
            self._weak[node] = found
        return self._weak[node]


def _two_parts(board: Board, cells: Iterable[int], places: list[int], grouped: bool
               ) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The ways a group's places of a digit split into two nodes: two cells, or two intersections."""
    if len(places) == 2:
        return [((places[0],), (places[1],))]
    if not grouped or len(places) < 3:
        return []
    n, shape = board.n, board.cands.puzzle.shape
    keys = (lambda c: c // n, lambda c: c % n,
            lambda c: (c // n // shape.box_rows, c % n // shape.box_cols))
    found = []
    for key in keys:
        parts: dict[object, list[int]] = {}
        for cell in places:
            parts.setdefault(key(cell), []).append(cell)
        if len(parts) == 2:
            a, b = parts.values()
            if _is_node(board, a) and _is_node(board, b):
                found.append((tuple(a), tuple(b)))
    return found


def _is_node(board: Board, cells: list[int]) -> bool:
    """One cell, or cells that share a box and a line (a digit goes in at most one of them)."""
    if len(cells) == 1:
        return True
    peers = board.cands.puzzle.rules.peers
    return all(b in peers[a] for i, a in enumerate(cells) for b in cells[i + 1:])


def _seen_by(graph: _Graph, node: Node) -> set[tuple[int, int]]:
    """The open candidates a node, when true, strikes."""
    board = graph.board
    digit, cells = node
    bit = 1 << (digit - 1)
    peers = board.cands.puzzle.rules.peers
    common = set(peers[cells[0]])
    for cell in cells[1:]:
        common &= peers[cell]
    found = {(c, digit) for c in common if not board.placed[c] and board.marks[c] & bit}
    if len(cells) == 1:
        found |= {(cells[0], d) for d in range(1, board.n + 1)
                  if d != digit and board.marks[cells[0]] >> (d - 1) & 1}
    return found


def _search(graph: _Graph, start: Node, best: int) -> tuple[list[Node], list[tuple[int, int]]] | None:
    """The shortest chain from ``start`` (assumed false) that ends on a strong link and strikes
    something, shorter than ``best`` nodes; the chain and what it strikes."""
    seen_start = _seen_by(graph, start)
    if not seen_start:
        return None
    previous: dict[tuple[Node, bool], tuple[Node, bool] | None] = {(start, False): None}
    queue = deque([(start, False, 1)])
    while queue:
        node, on, length = queue.popleft()
        if length + 1 >= best or length >= MAX_NODES:
            break
        following = [s.other for s in graph.strong.get(node, ())] if not on else graph.weak(node)
        for other in following:
            state = (other, not on)
            if state in previous or any(other[0] == n[0] and set(other[1]) & set(n[1])
                                        for n in _path(previous, (node, on))):
                continue
            previous[state] = (node, on)
            if not on and length + 1 >= 4:
                path = _path(previous, state)
                struck = sorted(seen_start & _seen_by(graph, other) - {(c, d) for d, cells in path for c in cells})
                if struck:
                    return path, struck
            queue.append((other, not on, length + 1))
    return None


def _path(previous: dict, state: tuple[Node, bool]) -> list[Node]:
    found = []
    current = state
    while current is not None:
        found.append(current[0])
        current = previous[current]
    return found[::-1]


def _strong_reason(graph: _Graph, a: Node, b: Node) -> str | None:
    for link in graph.strong.get(a, ()):
        if link.other == b:
            return link.group
    raise AssertionError("not a strong link")  # the search only follows links it found


def _step(graph: _Graph, name: str, difficulty: float, path: list[Node], struck: list[tuple[int, int]]) -> Step:
    board = graph.board
    n = board.n
    tables = board.tables
    why = Premises()
    nodes: list[ChainNode] = []
    for index, node in enumerate(path):
        on = index % 2 == 1
        if not index:
            reason = ""
        elif on:  # a strong link from the node before
            group = _strong_reason(graph, path[index - 1], node)
            if group is None:
                cell = node[1][0]
                reason = f"{cell_label(cell, n)} has two digits"
                mask = board.marks[cell]
                for digit in range(1, n + 1):
                    if not mask >> (digit - 1) & 1:
                        why.why_not(board, cell, digit)
            else:
                reason = group
                why.name(group)
                inside = set(node[1]) | set(path[index - 1][1])
                for cell in tables.cell_sets[group]:
                    if cell not in inside:
                        why.why_not(board, cell, node[0])
        else:
            reason = _weak_reason(board, path[index - 1], node, why)
        nodes.append(ChainNode(node[1], node[0], on, reason, index - 1 if index else None))
    ends = (path[0], path[-1])
    for cell, digit in struck:
        for end in ends:
            _weak_reason(board, end, (digit, (cell,)), why)
    digits = sorted({d for d, _ in path})
    text = (f"{removed_text(struck, n)}: {name} on {', '.join(map(str, digits))}: {chain_text(tuple(nodes), n)}; "
            f"so {_on_label(path[0], n)} or {_on_label(path[-1], n)}, and the struck candidates see both")
    return make_step(name, round(difficulty + length_difficulty(len(path)), 1), [], struck, why, text, nodes)


def _on_label(node: Node, n: int) -> str:
    return ChainNode(node[1], node[0], True).label(n)


def _weak_reason(board: Board, a: Node, b: Node, why: Premises) -> str:
    """The constraints behind a weak link, added to the premises; in words."""
    if a[0] != b[0]:
        return cell_label(a[1][0], board.n)
    names = []
    for x in a[1]:
        for y in b[1]:
            name = board.tables.link(x, y)
            why.name(name)
            if name and name not in names:
                names.append(name)
    return ", ".join(names)


def _find(board: Board, difficulty: float, name: str, *, groups: bool, cells: bool, grouped: bool = False,
          one_digit: bool = False) -> Step | None:
    graph = _Graph(board, groups, cells, grouped)
    found = None
    best = MAX_NODES + 1
    for start in sorted(graph.strong, key=lambda node: (len(node[1]), node[1], node[0])):
        result = _search(graph, start, best)
        if result is None:
            continue
        path, struck = result
        if one_digit and len({d for d, _ in path}) != 1:
            continue
        if grouped and all(len(cells_) == 1 for _, cells_ in path):
            continue
        found, best = result, len(path)
        if best <= 4:
            break
    return None if found is None else _step(graph, name, difficulty, *found)


def x_chain(board: Board, difficulty: float) -> Step | None:
    """One digit, strong links from groups where it has two places: the ends' common peers lose it."""
    return _find(board, difficulty, "x-chain", groups=True, cells=False, one_digit=True)


def xy_chain(board: Board, difficulty: float) -> Step | None:
    """Bivalue cells linked by a shared digit: the digit the chain starts and ends with leaves the
    cells that see both ends."""
    return _find(board, difficulty, "xy-chain", groups=False, cells=True)


def aic(board: Board, difficulty: float) -> Step | None:
    """An alternating inference chain mixing group and cell links."""
    return _find(board, difficulty, "aic", groups=True, cells=True)


def grouped_aic(board: Board, difficulty: float) -> Step | None:
    """An alternating inference chain with group nodes (a digit's cells in a box-line intersection)."""
    return _find(board, difficulty, "grouped aic", groups=True, cells=True, grouped=True)
