"""The board local search moves on: each block filled with its missing digits, the cost of what is wrong.

R. Lewis's representation ("Metaheuristics can solve sudoku puzzles", 2007): every block (a box, a
jigsaw region, or rows) holds a permutation of its missing digits, so blocks are right by
construction and a move swaps two open cells of one block. The cost and its update on a swap are
what both methods (``annealing``, ``min_conflicts``) read; they differ only in which swap comes next.

More: docs/local-search.md.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache

from ...core.rules import KINDS, Rules
from ...errors import UnsupportedFeature
from ..base import Deadline
from ..lowering import lower

CHECK_EVERY = 1024
"""Moves between two looks at the clock."""

NATIVE = frozenset(KINDS)
"""The rule kinds the cost counts natively (groups, pairs, sums, thermometers); any other is counted in
the lowering's forms (``Tables.lowered``)."""


@dataclass(frozen=True)
class Tables:
    """What the search reads of a rule set, built once per ``Rules``."""

    n: int
    blocks: tuple[tuple[int, ...], ...]
    """The complete groups of one kind that cover the board: boxes, or jigsaw regions, or rows."""
    groups: tuple[tuple[int, ...], ...]
    """Per cell, ``g * (n + 1)`` for each group it is in other than its block (offsets into counts)."""
    group_sets: tuple[frozenset[int], ...]
    partners: tuple[tuple[int, ...], ...]
    """Per cell, the cells it must differ from by a differing pair that no group already covers."""
    extras: tuple[tuple[int, ...], ...]
    """Per cell, the cages, thermometers and lowered forms through it (indices into ``sums`` + ``thermos``
    + ``lowered``)."""
    sums: tuple[tuple[tuple[int, ...], int], ...]
    thermos: tuple[tuple[int, ...], ...]
    group_cells: tuple[tuple[int, ...], ...]
    lowered: tuple[tuple[str, tuple[int, ...], frozenset], ...] = ()
    """The forms of the kinds stated through the lowering (``solvers.lowering``), each as (form, cells,
    data): ``out``, one cell and its ruled-out digits; ``pair``, two cells and their forbidden (digit,
    digit) pairs; ``sets``, the cells and the digit sets they may hold."""


def _blocks(rules: Rules) -> tuple[tuple[int, ...], ...]:
    """The complete groups of one kind that partition the board, boxes or regions first."""
    n = rules.n
    by_kind: dict[str, list[tuple[int, ...]]] = {}
    for group in rules.complete_groups:
        by_kind.setdefault(group.kind, []).append(group.cells)
    order = sorted(by_kind, key=lambda kind: (kind not in ("box", "region"), kind != "row"))
    for kind in order:
        found = by_kind[kind]
        if len(found) == n and len({cell for cells in found for cell in cells}) == n * n:
            return tuple(found)
    raise UnsupportedFeature("local search needs complete groups that cover the board (boxes, regions or rows)")


@lru_cache(maxsize=16)
def board_tables(rules: Rules) -> Tables:
    n, size = rules.n, rules.shape.cells
    blocks = _blocks(rules)
    block_set = set(blocks)
    kept = [g.cells for g in rules.groups if g.cells not in block_set]
    groups: list[list[int]] = [[] for _ in range(size)]
    for index, cells in enumerate(kept):
        for cell in cells:
            groups[cell].append(index * (n + 1))
    mates = [set() for _ in range(size)]
    for cells in (*kept, *blocks):
        for cell in cells:
            mates[cell].update(cells)
    partners: list[list[int]] = [[] for _ in range(size)]
    for a, b in rules.pairs:
        if b not in mates[a]:
            partners[a].append(b)
            partners[b].append(a)
    sums = tuple((cage.cells, cage.total) for cage in rules.cages)
    thermos = tuple(thermo.cells for thermo in rules.thermos)
    lowered = _lowered(rules)
    extras: list[list[int]] = [[] for _ in range(size)]
    for index, cells in enumerate([cells for cells, _ in sums] + list(thermos) + [cells for _, cells, _ in lowered]):
        for cell in dict.fromkeys(cells):
            extras[cell].append(index)
    return Tables(n, blocks, tuple(map(tuple, groups)), tuple(map(frozenset, groups)),
                   tuple(map(tuple, partners)), tuple(map(tuple, extras)), sums, thermos, tuple(kept), lowered)


def _lowered(rules: Rules) -> tuple[tuple[str, tuple[int, ...], frozenset], ...]:
    """The lowering's forms as ``Tables.lowered`` holds them: ruled-out digits per cell, forbidden digit
    pairs per two cells, allowed sets."""
    forms = lower(rules, NATIVE)
    out: dict[int, set[int]] = {}
    for cell, digit in forms.ruled_out:
        out.setdefault(cell, set()).add(digit)
    pairs: dict[tuple[int, int], set[tuple[int, int]]] = {}
    for _, (a, x), (b, y) in forms.pairs:
        if a > b:
            a, b, x, y = b, a, y, x
        pairs.setdefault((a, b), set()).add((x, y))
    return (*(("out", (cell,), frozenset(digits)) for cell, digits in out.items()),
            *(("pair", cells, frozenset(values)) for cells, values in pairs.items()),
            *(("sets", s.cells, frozenset(map(frozenset, s.sets))) for s in forms.sets))


def _matching(cells: list[int], digits: list[int], cand: list[int], rng: random.Random) -> dict[int, int] | None:
    """A random assignment of ``digits`` to ``cells`` within their candidates (Kuhn's augmenting paths)."""
    order = cells[:]
    rng.shuffle(order)
    holder: dict[int, int] = {}  # digit -> cell

    def place(cell: int, seen: set[int]) -> bool:
        options = [d for d in digits if cand[cell] >> (d - 1) & 1 and d not in seen]
        rng.shuffle(options)
        for digit in options:
            seen.add(digit)
            if digit not in holder or place(holder[digit], seen):
                holder[digit] = cell
                return True
        return False

    for cell in order:
        if not place(cell, set()):
            return None
    return {cell: digit for digit, cell in holder.items()}


class Unsolvable(Exception):
    """A block whose open cells cannot take its missing digits: proof that there is no solution."""


class Board:
    """One filled board, its cost, and the counts that update the cost on a swap."""

    def __init__(self, tables: Tables, grid: list[int], free: list[list[int]], cand: list[int],
                 rng: random.Random, deadline: Deadline | None = None):
        self.t, self.cand, self.rng, self.deadline = tables, cand, rng, deadline
        self.fixed = list(grid)
        self.free = free
        self.fill()

    def fill(self) -> None:
        """A fresh random fill: each block's missing digits on its open cells, within their candidates."""
        t, grid = self.t, list(self.fixed)
        for block, cells in zip(t.blocks, self.free):
            if self.deadline is not None:
                self.deadline.check()  # a fill of a 64x64 board takes about a second
            missing = sorted(set(range(1, t.n + 1)) - {grid[c] for c in block if grid[c]})
            matched = _matching(cells, missing, self.cand, self.rng)
            if matched is None:
                raise Unsolvable
            for cell, digit in matched.items():
                grid[cell] = digit
        self.grid = grid
        width = t.n + 1
        self.counts = counts = [0] * (len(t.group_cells) * width)
        for index, cells in enumerate(t.group_cells):
            for cell in cells:
                counts[index * width + grid[cell]] += 1
        self.penalties = [self.penalty(k) for k in range(len(t.sums) + len(t.thermos) + len(t.lowered))]
        cost = sum(max(0, c - 1) for c in counts) + sum(self.penalties)
        cost += sum(grid[a] == grid[b] for a, partners in enumerate(t.partners) for b in partners) // 2
        self.cost = cost

    def penalty(self, k: int) -> int:
        """How far cage, thermometer or lowered form k is from holding: ``|sum - total|``, the thermometer's
        drops, 1 for a ruled-out digit or a forbidden pair held, and for allowed sets the cells whose digit
        the nearest set lacks (a digit held twice counts too)."""
        grid, sums, thermos = self.grid, self.t.sums, self.t.thermos
        if k < len(sums):
            cells, total = sums[k]
            return abs(sum(grid[c] for c in cells) - total)
        if k < len(sums) + len(thermos):
            line = [grid[c] for c in thermos[k - len(sums)]]
            return sum(max(0, a - b + 1) for a, b in zip(line, line[1:]))
        form, cells, data = self.t.lowered[k - len(sums) - len(thermos)]
        if form == "out":
            return int(grid[cells[0]] in data)
        if form == "pair":
            return int((grid[cells[0]], grid[cells[1]]) in data)
        held = {grid[c] for c in cells}
        return len(cells) - max(len(held & digits) for digits in data)

    def delta(self, c1: int, c2: int) -> tuple[int, dict[int, int] | None]:
        """The cost change of swapping the digits of two cells of one block, and the new extra penalties."""
        t, grid, counts = self.t, self.grid, self.counts
        a, b = grid[c1], grid[c2]
        change = 0
        in2, in1 = t.group_sets[c2], t.group_sets[c1]
        for base in t.groups[c1]:
            if base not in in2:
                if counts[base + a] > 1:
                    change -= 1
                if counts[base + b]:
                    change += 1
        for base in t.groups[c2]:
            if base not in in1:
                if counts[base + b] > 1:
                    change -= 1
                if counts[base + a]:
                    change += 1
        for cell, old, new, other in ((c1, a, b, c2), (c2, b, a, c1)):
            for p in t.partners[cell]:
                if p != other:
                    change += (grid[p] == new) - (grid[p] == old)
        touched = t.extras[c1] + t.extras[c2]
        if not touched:
            return change, None
        grid[c1], grid[c2] = b, a
        new_penalties = {k: self.penalty(k) for k in touched}
        grid[c1], grid[c2] = a, b
        change += sum(new_penalties.values()) - sum(self.penalties[k] for k in new_penalties)
        return change, new_penalties

    def swap(self, c1: int, c2: int, change: int, new_penalties: dict[int, int] | None) -> None:
        t, grid, counts = self.t, self.grid, self.counts
        a, b = grid[c1], grid[c2]
        for base in t.groups[c1]:
            counts[base + a] -= 1
            counts[base + b] += 1
        for base in t.groups[c2]:
            counts[base + b] -= 1
            counts[base + a] += 1
        grid[c1], grid[c2] = b, a
        if new_penalties:
            for k, value in new_penalties.items():
                self.penalties[k] = value
        self.cost += change

    def conflicted(self, cell: int) -> bool:
        """Whether the cell's digit breaks a group, a pair, a cage or a thermometer it is in."""
        t, grid, counts = self.t, self.grid, self.counts
        digit = grid[cell]
        return (any(counts[base + digit] > 1 for base in t.groups[cell])
                or any(grid[p] == digit for p in t.partners[cell])
                or any(self.penalties[k] for k in t.extras[cell]))


@dataclass
class Effort:
    """What a search spent, the stats ``local-search`` reports: moves tried and made, reheats, restarts."""

    flips: int = 0
    accepted: int = 0
    reheats: int = 0
    restarts: int = 0
    best_cost: int = -1


def allowed(cand: list[int], c1: int, c2: int, grid: list[int]) -> bool:
    """Whether each cell's new digit is among its candidates."""
    return bool(cand[c1] >> (grid[c2] - 1) & 1 and cand[c2] >> (grid[c1] - 1) & 1)
