"""Propagation under any rule set: groups of any length, differing pairs, cage sums, thermometers, and
the lowering's forms (ruled-out placements, forbidden pairs, allowed sets).

The general path of ``propagation`` (docs/solvers.md says what is propagated and how);
``propagation_three`` is the unrolled path for three complete groups per cell.
"""

from __future__ import annotations

from .tables import SETTLED, UNKNOWN, AnyTables

# --- any rule set ------------------------------------------------------------------------------------

def settle_any(
    cand: list[int], where: list[int], queue: list[tuple[int, int]], tables: AnyTables, full: int, done: int
) -> int:
    """``settle_three`` for any groups and pairs, then sum and thermometer bounds, to a fixpoint."""
    cell_places, via, unit_cell, positions, others, cages, thermos, _, forbid, sets = tables
    bounded = bool(cages or thermos or sets)
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
            if forbid[cell]:  # and what the lowering's forbidden pairs take from other cells
                for peer, other in forbid[cell][d]:
                    mask = cand[peer]
                    if not mask & other:
                        continue
                    if mask > full:
                        return UNKNOWN  # a placed peer holds the forbidden digit
                    failed = _drop(cand, where, peer, other, tables, queue)
                    if failed != SETTLED:
                        return failed
        if not bounded:
            return SETTLED
        failed = _bounds(cand, where, queue, tables, full)
        if failed != SETTLED:
            return failed
        if not queue:
            return SETTLED


def exclude_any(
    cand: list[int], where: list[int], cell: int, bit: int, tables: AnyTables, full: int, done: int
) -> int:
    """Remove one digit from an open cell (the other side of a guess) and settle what follows."""
    queue: list[tuple[int, int]] = []
    failed = _drop(cand, where, cell, bit, tables, queue)
    if failed != SETTLED:
        return failed
    return settle_any(cand, where, queue, tables, full, done)


def rule_out(cand: list[int], where: list[int], queue: list[tuple[int, int]], tables: AnyTables) -> int:
    """Remove the lowering's ruled-out placements from a fresh board; queue what that forces."""
    for cell, bit in tables.ruled_out:
        if cand[cell] & bit:
            failed = _drop(cand, where, cell, bit, tables, queue)
            if failed != SETTLED:
                return failed
    return SETTLED


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
    """Narrow cage, allowed-set and thermometer cells to what their sums, sets and orders still allow,
    to a fixpoint.

    A cage's open cells must add up to ``rest`` (its total less its placed digits): a digit v of
    one open cell is kept only if ``rest - v`` lies between the least and the most the cage's
    other open cells can add (their smallest and largest candidates, and at least the sum of the
    smallest distinct digits still free in the cage, at most that of the largest). A thermometer
    cell keeps only digits above the smallest digit of the cell before it and below the largest
    of the cell after it. An allowed-sets constraint's open cells keep only the digits, not placed
    in it yet, of the sets that hold every digit placed in it. Narrowings may queue singles; the
    caller settles them and calls again.
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
        for cells, masks in tables.sets:
            placed = count = 0
            for cell in cells:
                mask = cand[cell]
                if mask > full:
                    placed |= mask & full
                    count += 1
            if placed.bit_count() < count:
                return UNKNOWN  # a digit placed twice
            allowed = 0
            for digits in masks:
                if not placed & ~digits:
                    allowed |= digits
            if not allowed:
                return UNKNOWN
            allowed &= ~placed
            for cell in cells:
                mask = cand[cell]
                if mask <= full and mask & ~allowed:
                    if not mask & allowed:
                        return UNKNOWN
                    failed = _drop(cand, where, cell, mask & ~allowed, tables, queue)
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
