"""Propagation for rules of exactly three complete groups per cell (standard Sudoku, jigsaw): unrolled.

The same fixpoint as ``propagation_any`` reaches on these rules (``tests/solvers/test_propagation.py`` checks
it), with the loops over a cell's groups written out three times: on 9x9 that is what makes the fast
searches fast (docs/rules.md, "Each paradigm"). ``propagation`` chooses the path.
"""

from __future__ import annotations

from ...core.rules import Rules
from .tables import SETTLED, UNKNOWN, ThreeTables, positions_table


def three_tables(rules: Rules) -> ThreeTables:
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
        positions=positions_table(n),
    )


# --- three complete groups per cell: the specialised, unrolled code ---------------------------------

def settle_three(
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


def exclude_three(
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
    return settle_three(cand, where, queue, tables, full, done)
