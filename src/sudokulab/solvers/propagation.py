"""Candidate propagation over bit sets under any rule set: the one copy the searches and ``generate`` share.

The board is kept twice, as in the exact-cover view of Sudoku: ``cand[cell]`` holds the digits a
cell may take and ``where[g*n + d]`` the places digit ``d+1`` may take in group ``g``, each as the
bits of one int. Placed cells and finished group-digits hold the ``done`` sentinel bits above
``full``, so ``cand[cell] > full`` means "placed". Every elimination updates both views, so:

- a **naked single** (one digit left in a cell) and, in a *complete* group (n cells: rows,
  columns, boxes, jigsaw regions, diagonals, windows), a **hidden single** (one place left for a
  digit) are seen the moment they appear, with no sweep over the board;
- *partial* groups (killer cages' cells) and differing pairs (anti-knight, anti-king) only remove
  a placed digit from their cells: a digit need not appear in them, so no hidden single;
- **cage sums** bound each open cage cell's digits by the partial sum and what the cage's other
  open cells can still add (their smallest and largest candidates, and the smallest and largest
  distinct digits left), and **thermometers** bound each cell by its neighbours along the line
  (above the smallest digit before it, below the largest after it), repeated to a fixpoint.

Propagation only removes digits that are in no solution of the current state, so a search that
branches on the first open cell, smallest digit first, still meets solutions in lexicographic
order (canonical), and both sides of a binary guess still partition the solutions (exact counts).

``propagator(rules)`` builds the tables once per rule set (``Rules`` hashes fast). Rule sets made
of exactly three complete groups per cell and nothing else (standard Sudoku, jigsaw) get the
specialised three-unit code, unrolled: the general loops over any number of groups are slower on
9x9 (docs/rules.md, "Each paradigm").

A contradiction is reported as the group where it surfaced (``g*n`` for group ``g``), which the
fast search uses to weight its choices (dom/wdeg), or ``UNKNOWN`` when no group is to blame;
``SETTLED`` when the fixpoint was reached without one.

Roads not taken: propagating sums by enumerating each cage's allowed digit combinations (exact,
but the tables grow fast with the cage size; the bounds here are what a sum constraint gets from
a CP solver's bounds consistency); hidden singles in partial groups (wrong: a cage need not hold
every digit).

One module: the general propagation and the unrolled three-group path must reach the same fixpoint
(a test checks it), and a reader should see both side by side.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

from ..core.rules import Rules

SETTLED = -1
"""What ``settle`` returns when the queue ran dry without a contradiction."""
UNKNOWN = -2
"""What it returns for a contradiction not tied to one group; otherwise ``g*n`` for the group g."""


class Positions(dict):
    """The set bits of a mask as a tuple of positions, computed on first use (boards above 12x12).

    Emptied when it reaches ``LIMIT`` masks, so a long search on a 36x36 board stays in bounds.
    """

    LIMIT = 1 << 17

    def __missing__(self, mask: int) -> tuple[int, ...]:
        if len(self) >= self.LIMIT:
            self.clear()
        positions = self[mask] = tuple(i for i in range(mask.bit_length()) if mask >> i & 1)
        return positions


def _positions(n: int) -> tuple[tuple[int, ...], ...] | Positions:
    """``positions[mask]``: the set bits of an n-bit mask; a table up to 12x12, a cache above."""
    if n <= 12:
        return tuple(tuple(i for i in range(n) if mask >> i & 1) for mask in range(1 << n))
    return Positions()


class ThreeTables(NamedTuple):
    """The tables for rules of exactly three complete groups per cell and nothing else (standard, jigsaw).

    The group-digit pair (g, d) lives at index ``g*n + d`` of ``where``, position p of group g at
    index ``g*n + p`` of the tables.
    """

    cell_units: tuple[tuple[int, ...], ...]
    """Per cell, ``(k, bit)`` three times over: ``k = g*n`` and ``bit`` the cell's position in
    that group as a bit of the ``where`` masks."""
    via: tuple[tuple[int, int, int, int, int], ...]
    """At ``g*n + p``: the cell at position p of group g and its two *other* groups, as
    ``(cell, k1, bit1, k2, bit2)``: removing a digit from it found through g touches only those."""
    unit_cell: tuple[int, ...]
    """At ``g*n + p``: the cell at position p of group g (to turn a hidden single into a cell)."""
    positions: tuple[tuple[int, ...], ...] | Positions


class AnyTables(NamedTuple):
    """The tables for any rule set: groups of any length, any number per cell, pairs, sums, thermometers."""

    cell_places: tuple[tuple[tuple[int, int], ...], ...]
    """Per cell, ``(k, bit)`` for each *complete* group it is in (``k = g*n``)."""
    via: tuple[tuple[int, tuple[tuple[int, int], ...]], ...]
    """At ``g*n + p`` of a complete group g: the cell at position p and its other complete groups' places."""
    unit_cell: tuple[int, ...]
    """At ``g*n + p`` of a complete group g: the cell at position p (-1 in partial groups' slots)."""
    positions: tuple[tuple[int, ...], ...] | Positions
    others: tuple[tuple[tuple[int, int], ...], ...]
    """Per cell, ``(peer, code)`` for every peer sharing no complete group with it: partial group
    mates (``code = g*n``) and differing partners (``UNKNOWN``)."""
    cages: tuple[tuple[tuple[int, ...], int, int], ...]
    """Each cage as (cells, total, code of its group)."""
    thermos: tuple[tuple[int, ...], ...]
    """Each thermometer's cells from the bulb."""


Settle = Callable[[list[int], list[int], list[tuple[int, int]], "ThreeTables | AnyTables", int, int], int]
Exclude = Callable[[list[int], list[int], int, int, "ThreeTables | AnyTables", int, int], int]


@dataclass(frozen=True)
class Propagator:
    """Everything a search needs to propagate under one rule set (see ``propagator``).

    ``settle(cand, where, queue, tables, full, done)`` makes the (cell, digit bit) placements in
    ``queue`` and everything they force; ``exclude(cand, where, cell, bit, tables, full, done)``
    removes one digit from an open cell and settles what follows. Both return ``SETTLED`` or where
    the contradiction surfaced. ``start(givens)`` is the settled state of a puzzle, or None.
    """

    n: int
    full: int
    done: int
    tables: ThreeTables | AnyTables
    settle: Settle
    exclude: Exclude
    group_cells: tuple[tuple[int, ...], ...]
    """The cells of each group, in ``rules.groups`` order (``code // n`` indexes it)."""
    weights: tuple[int, ...]
    """Per cell, how many groups it is in: the starting dom/wdeg weight."""
    three: bool
    """True for the specialised three-complete-groups code (standard Sudoku, jigsaw)."""

    def start(self, givens: tuple[int, ...]) -> tuple[list[int], list[int]] | None:
        """The settled (cand, where) of a puzzle's givens, or None when they contradict the rules."""
        n, full = self.n, self.full
        cand = [full] * (n * n)
        where = [full] * (len(self.group_cells) * n)
        queue = [(cell, 1 << (d - 1)) for cell, d in enumerate(givens) if d]
        if self.settle(cand, where, queue, self.tables, full, self.done) != SETTLED:
            return None
        return cand, where


@cache
def propagator(rules: Rules) -> Propagator:
    """The propagation tables of a rule set, built once per ``Rules`` (it hashes fast)."""
    return build_propagator(rules)


def build_propagator(rules: Rules, specialise: bool = True) -> Propagator:
    """The tables of a rule set, uncached; ``specialise=False`` takes the general code even where
    the three-group code applies (to measure the one against the other)."""
    n = rules.n
    size = n * n
    full = (1 << n) - 1
    done = ((1 << (n + 1)) - 1) << n  # n+1 bits above the digits: more than any real mask has
    groups = rules.groups
    group_cells = tuple(g.cells for g in groups)
    weights = tuple(len(g) for g in rules.cell_groups)
    three = specialise and not (rules.partial_groups or rules.pairs or rules.cages or rules.thermos) and all(
        len(g) == 3 for g in rules.cell_groups)
    if three:
        return Propagator(n, full, done, _three_tables(rules), _settle_three, _exclude_three,
                          group_cells, weights, True)
    places: list[list[tuple[int, int]]] = [[] for _ in range(size)]
    unit_cell = [-1] * (len(groups) * n)
    for index, group in enumerate(groups):
        if len(group.cells) == n:
            for pos, cell in enumerate(group.cells):
                places[cell].append((index * n, 1 << pos))
                unit_cell[index * n + pos] = cell
    via: list[tuple[int, tuple[tuple[int, int], ...]]] = [(-1, ())] * (len(groups) * n)
    for index, group in enumerate(groups):
        if len(group.cells) == n:
            for pos, cell in enumerate(group.cells):
                via[index * n + pos] = (cell, tuple(p for p in places[cell] if p[0] != index * n))
    complete_mates: list[set[int]] = [set() for _ in range(size)]
    for group in rules.complete_groups:
        for cell in group.cells:
            complete_mates[cell].update(group.cells)
    others: list[dict[int, int]] = [{} for _ in range(size)]
    for index, group in enumerate(groups):
        if len(group.cells) < n:
            for cell in group.cells:
                for peer in group.cells:
                    if peer != cell and peer not in complete_mates[cell]:
                        others[cell].setdefault(peer, index * n)
    for a, b in rules.pairs:
        if b not in complete_mates[a]:
            others[a].setdefault(b, UNKNOWN)
            others[b].setdefault(a, UNKNOWN)
    cage_code = {g.name: index * n for index, g in enumerate(groups)}
    tables = AnyTables(
        cell_places=tuple(tuple(p) for p in places),
        via=tuple(via),
        unit_cell=tuple(unit_cell),
        positions=_positions(n),
        others=tuple(tuple(sorted(o.items())) for o in others),
        cages=tuple((c.cells, c.total, cage_code.get(c.name, UNKNOWN)) for c in rules.cages),
        thermos=tuple(t.cells for t in rules.thermos),
    )
    return Propagator(n, full, done, tables, _settle_any, _exclude_any, group_cells, weights, False)


def _three_tables(rules: Rules) -> ThreeTables:
    n = rules.n
    all_units = tuple(g.cells for g in rules.groups)
    places: list[list[tuple[int, int]]] = [[] for _ in range(n * n)]
    for index, unit in enumerate(all_units):
        for pos, cell in enumerate(unit):
            places[cell].append((index * n, 1 << pos))
    via = []
    for index, unit in enumerate(all_units):
        for cell in unit:
            (k1, bit1), (k2, bit2) = (place for place in places[cell] if place[0] != index * n)
            via.append((cell, k1, bit1, k2, bit2))
    return ThreeTables(
        cell_units=tuple(tuple(x for place in cell_places for x in place) for cell_places in places),
        via=tuple(via),
        unit_cell=tuple(cell for unit in all_units for cell in unit),
        positions=_positions(n),
    )


# --- three complete groups per cell: the specialised, unrolled code ---------------------------------

def _settle_three(
    cand: list[int], where: list[int], queue: list[tuple[int, int]], tables: ThreeTables, full: int, done: int
) -> int:
    """Make the placements in ``queue`` and every single they force; ``SETTLED`` or where it failed.

    ``queue`` holds (cell, digit bit) pairs that must hold. A placement removes the cell's other
    digits from its three groups' ``where`` masks, and its digit from the peers that still have
    it, found through the ``where`` masks of the cell's groups rather than by visiting all peers.
    Each removal checks at once for a naked single or a hidden single and queues it, or for an
    empty mask (contradiction): no sweep over the board is needed to reach the fixpoint.
    """
    cell_units, via, unit_cell, positions = tables
    pop = queue.pop
    push = queue.append
    while queue:
        cell, bit = pop()
        mask = cand[cell]
        if not mask & bit:
            return UNKNOWN  # the digit was eliminated after this placement was queued
        if mask > full:
            continue  # already placed
        cand[cell] = bit | done
        k0, p0, k1, p1, k2, p2 = cell_units[cell]
        for d in positions[mask ^ bit]:  # the cell's other digits leave its three groups
            i = k0 + d
            w = where[i] ^ p0
            where[i] = w
            if not w & (w - 1):
                if not w:
                    return k0
                push((unit_cell[k0 + w.bit_length() - 1], 1 << d))
            i = k1 + d
            w = where[i] ^ p1
            where[i] = w
            if not w & (w - 1):
                if not w:
                    return k1
                push((unit_cell[k1 + w.bit_length() - 1], 1 << d))
            i = k2 + d
            w = where[i] ^ p2
            where[i] = w
            if not w & (w - 1):
                if not w:
                    return k2
                push((unit_cell[k2 + w.bit_length() - 1], 1 << d))
        d = bit.bit_length() - 1
        for k, own in ((k0, p0), (k1, p1), (k2, p2)):
            i = k + d
            rest = where[i] ^ own  # the cell's peers in this group that still have the digit
            where[i] = done
            for pos in positions[rest]:
                peer, ka, pa, kb, pb = via[k + pos]
                mask = cand[peer] ^ bit
                cand[peer] = mask
                if not mask & (mask - 1):
                    if not mask:
                        return k  # the peer lost its last digit to this group
                    push((peer, mask))
                i = ka + d
                w = where[i] ^ pa
                where[i] = w
                if not w & (w - 1):
                    if not w:
                        return ka
                    push((unit_cell[ka + w.bit_length() - 1], bit))
                i = kb + d
                w = where[i] ^ pb
                where[i] = w
                if not w & (w - 1):
                    if not w:
                        return kb
                    push((unit_cell[kb + w.bit_length() - 1], bit))
    return SETTLED


def _exclude_three(
    cand: list[int], where: list[int], cell: int, bit: int, tables: ThreeTables, full: int, done: int
) -> int:
    """Remove one digit from an open cell (the other side of a guess) and settle what follows."""
    unit_cell = tables.unit_cell
    mask = cand[cell] ^ bit
    cand[cell] = mask
    queue = [] if mask & (mask - 1) else [(cell, mask)]
    d = bit.bit_length() - 1
    k0, p0, k1, p1, k2, p2 = tables.cell_units[cell]
    for k, own in ((k0, p0), (k1, p1), (k2, p2)):
        w = where[k + d] ^ own
        where[k + d] = w
        if not w & (w - 1):
            if not w:
                return k
            queue.append((unit_cell[k + w.bit_length() - 1], bit))
    return _settle_three(cand, where, queue, tables, full, done)


# --- any rule set ------------------------------------------------------------------------------------

def _settle_any(
    cand: list[int], where: list[int], queue: list[tuple[int, int]], tables: AnyTables, full: int, done: int
) -> int:
    """``_settle_three`` for any groups and pairs, then sum and thermometer bounds, to a fixpoint."""
    cell_places, via, unit_cell, positions, others, cages, thermos = tables
    bounded = bool(cages or thermos)
    pop = queue.pop
    push = queue.append
    while True:
        while queue:
            cell, bit = pop()
            mask = cand[cell]
            if not mask & bit:
                return UNKNOWN
            if mask > full:
                continue
            cand[cell] = bit | done
            places = cell_places[cell]
            for d in positions[mask ^ bit]:  # the cell's other digits leave its complete groups
                for k, own in places:
                    i = k + d
                    w = where[i] ^ own
                    where[i] = w
                    if not w & (w - 1):
                        if not w:
                            return k
                        push((unit_cell[k + w.bit_length() - 1], 1 << d))
            d = bit.bit_length() - 1
            for k, own in places:  # the digit leaves the peers in its complete groups
                i = k + d
                rest = where[i] ^ own
                where[i] = done
                for pos in positions[rest]:
                    peer, more = via[k + pos]
                    mask = cand[peer] ^ bit
                    cand[peer] = mask
                    if not mask & (mask - 1):
                        if not mask:
                            return k
                        push((peer, mask))
                    for ka, pa in more:
                        i = ka + d
                        w = where[i] ^ pa
                        where[i] = w
                        if not w & (w - 1):
                            if not w:
                                return ka
                            push((unit_cell[ka + w.bit_length() - 1], bit))
            for peer, code in others[cell]:  # and the peers in partial groups and differing pairs
                mask = cand[peer]
                if not mask & bit:
                    continue
                if mask > full:
                    return code  # a placed peer holds the digit (never after a checked placement)
                mask ^= bit
                cand[peer] = mask
                if not mask & (mask - 1):
                    if not mask:
                        return code
                    push((peer, mask))
                for ka, pa in cell_places[peer]:
                    i = ka + d
                    w = where[i] ^ pa
                    where[i] = w
                    if not w & (w - 1):
                        if not w:
                            return ka
                        push((unit_cell[ka + w.bit_length() - 1], bit))
        if not bounded:
            return SETTLED
        failed = _bounds(cand, where, queue, tables, full)
        if failed != SETTLED:
            return failed
        if not queue:
            return SETTLED


def _exclude_any(
    cand: list[int], where: list[int], cell: int, bit: int, tables: AnyTables, full: int, done: int
) -> int:
    """Remove one digit from an open cell (the other side of a guess) and settle what follows."""
    queue: list[tuple[int, int]] = []
    failed = _drop(cand, where, cell, bit, tables, queue)
    if failed != SETTLED:
        return failed
    return _settle_any(cand, where, queue, tables, full, done)


def _drop(cand: list[int], where: list[int], cell: int, drop: int, tables: AnyTables,
          queue: list[tuple[int, int]]) -> int:
    """Remove the digits ``drop`` (all candidates of the open ``cell``) from it; queue what that forces."""
    unit_cell = tables.unit_cell
    mask = cand[cell] ^ drop
    cand[cell] = mask
    if not mask:
        return UNKNOWN
    if not mask & (mask - 1):
        queue.append((cell, mask))
    places = tables.cell_places[cell]
    for d in tables.positions[drop]:
        for k, own in places:
            w = where[k + d] ^ own
            where[k + d] = w
            if not w & (w - 1):
                if not w:
                    return k
                queue.append((unit_cell[k + w.bit_length() - 1], 1 << d))
    return SETTLED


def _extreme(mask: int, count: int, largest: bool) -> int:
    """The sum of the ``count`` smallest (or largest) digits of ``mask``; a huge number if it has fewer."""
    total = 0
    while count:
        if not mask:
            return 1 << 30
        if largest:
            bit = 1 << (mask.bit_length() - 1)
        else:
            bit = mask & -mask
        total += bit.bit_length()
        mask ^= bit
        count -= 1
    return total


def _bounds(cand: list[int], where: list[int], queue: list[tuple[int, int]], tables: AnyTables, full: int) -> int:
    """Narrow cage and thermometer cells to what their sums and orders still allow, to a fixpoint.

    A cage's open cells must add up to ``rest`` (its total less its placed digits): a digit v of
    one open cell is kept only if ``rest - v`` lies between the least and the most the cage's
    other open cells can add (their smallest and largest candidates, and at least the sum of the
    smallest distinct digits still free in the cage, at most that of the largest). A thermometer
    cell keeps only digits above the smallest digit of the cell before it and below the largest
    of the cell after it. Narrowings may queue singles; the caller settles them and calls again.
    """
    n = full.bit_length()
    changed = True
    while changed:
        changed = False
        for cells, total, code in tables.cages:
            rest = total
            open_cells = []
            low_sum = high_sum = 0
            free = 0
            for cell in cells:
                mask = cand[cell]
                if mask > full:
                    rest -= (mask & full).bit_length()
                else:
                    open_cells.append(cell)
                    low_sum += (mask & -mask).bit_length()
                    high_sum += mask.bit_length()
                    free |= mask
            k = len(open_cells)
            if not k:
                if rest:
                    return code
                continue
            low_free = _extreme(free, k - 1, False)
            high_free = _extreme(free, k - 1, True)
            if rest < max(low_sum, _extreme(free, k, False)) or rest > min(high_sum, _extreme(free, k, True)):
                return code
            for cell in open_cells:
                mask = cand[cell]
                low = (mask & -mask).bit_length()
                high = mask.bit_length()
                least = max(low_sum - low, low_free)  # the others add at least this
                most = min(high_sum - high, high_free)  # and at most this
                top = rest - least  # so this cell's digit lies in rest-most .. rest-least
                bottom = rest - most
                if top < bottom or top < 1:
                    return code
                drop = mask & ~((1 << min(top, n)) - 1)  # digits above top
                if bottom > 1:
                    drop |= mask & ((1 << (bottom - 1)) - 1)  # and below bottom
                if drop:
                    if drop == mask:
                        return code
                    failed = _drop(cand, where, cell, drop, tables, queue)
                    if failed != SETTLED:
                        return failed
                    changed = True
        for cells in tables.thermos:
            below = 0  # the digit before must be more than this
            for cell in cells:
                mask = cand[cell]
                if mask > full:
                    digit = (mask & full).bit_length()
                    if digit <= below:
                        return UNKNOWN
                    below = digit
                    continue
                drop = mask & ((1 << below) - 1)
                if drop:
                    if drop == mask:
                        return UNKNOWN
                    failed = _drop(cand, where, cell, drop, tables, queue)
                    if failed != SETTLED:
                        return failed
                    changed = True
                    mask ^= drop
                below = (mask & -mask).bit_length()
            above = full.bit_length() + 1  # the digit after must be less than this
            for cell in reversed(cells):
                mask = cand[cell]
                if mask > full:
                    digit = (mask & full).bit_length()
                    if digit >= above:
                        return UNKNOWN
                    above = digit
                    continue
                drop = mask & ~((1 << (above - 1)) - 1)
                if drop:
                    if drop == mask:
                        return UNKNOWN
                    failed = _drop(cand, where, cell, drop, tables, queue)
                    if failed != SETTLED:
                        return failed
                    changed = True
                    mask ^= drop
                above = mask.bit_length()
    return SETTLED
