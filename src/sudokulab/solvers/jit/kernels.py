"""The compiled kernels of ``backtrack-jit`` (numba, ``cache=True``): propagation, search, batch loop.

This is the code numba compiles and caches on disk, together, its kernels calling one another by
name inside compiled code; it is written in the subset of Python numba compiles (arrays, integers,
no objects), with the intrinsics it needs (popcount, lowest bit, and ``clock_gettime`` for
per-puzzle times inside the batch loop). ``numba_search`` drives it from Python: tables per rule
set, resumable runs, time limits, Ctrl-C, results. The algorithm: ``solver`` and docs/jit.md.
"""

from __future__ import annotations

import numba  # noqa: F401 - the optional extra: a missing numba is an ImportError naming it
import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

ONE = np.uint64(1)
ZERO = np.uint64(0)
EXPAND, NEXT = 0, 1
"""Search modes: settle on a branching cell for the top state, or try the next digit of a level."""
FOUND, EXHAUSTED, PAUSED, GROW = 0, 1, 2, 3
SETTLED = -1
"""What ``_propagate`` returns when no contradiction was met."""
"""What a slice of search ends with: a solution, no more, the node budget spent, the stack full."""
DEPTH, MODE, NODES, BACKTRACKS, SOLUTION = range(5)
"""Slots of the search's integer state (``ivars``)."""


@intrinsic
def _popcount(typingctx, x):
    """The number of set bits, as one machine instruction."""
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return types.uint64(types.uint64), codegen


@intrinsic
def _lowest(typingctx, x):
    """The index of the lowest set bit (x != 0)."""
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))
    return types.uint64(types.uint64), codegen


@intrinsic
def _highest(typingctx, x):
    """The index of the highest set bit (x != 0)."""
    def codegen(context, builder, signature, args):
        zeros = builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))
        return builder.sub(ir.Constant(ir.IntType(64), 63), zeros)
    return types.uint64(types.uint64), codegen


@intrinsic
def _clock(typingctx, clock_id):
    """``clock_gettime(clock_id)`` in seconds, called by symbol name (so the compiled code caches)."""
    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        timespec = ir.LiteralStructType([i64, i64])
        fnty = ir.FunctionType(ir.IntType(32), [ir.IntType(32), timespec.as_pointer()])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "clock_gettime")
        spec = cgutils.alloca_once(builder, timespec)
        builder.call(fn, [builder.trunc(args[0], ir.IntType(32)), spec])
        sec = builder.sitofp(builder.load(cgutils.gep_inbounds(builder, spec, 0, 0)), ir.DoubleType())
        nsec = builder.sitofp(builder.load(cgutils.gep_inbounds(builder, spec, 0, 1)), ir.DoubleType())
        return builder.fadd(sec, builder.fmul(nsec, ir.Constant(ir.DoubleType(), 1e-9)))
    return types.float64(types.int64), codegen


@njit(cache=True, nogil=True, inline="always")
def _below(b):
    """The mask of digits 1..b (bits 0..b-1), for any b (none below 1, all 64 from 64 on)."""
    if b <= 0:
        return ZERO
    if b >= 64:
        return ~ZERO
    return (ONE << np.uint64(b)) - ONE


@njit(cache=True, nogil=True, inline="always")
def _drain(cand, queue, head, queued, peers, peer_count, peer_group):
    """Remove the digit of every queued cell from its peers, queueing the naked singles this makes.

    Returns (queued, SETTLED) when the queue ran dry, or (queued, group) for a peer left with no digit.
    """
    while head < queued:
        cell = queue[head]
        head += 1
        keep = ~cand[cell]
        for j in range(peer_count[cell]):
            peer = peers[cell, j]
            mask = cand[peer]
            left = mask & keep
            cand[peer] = left  # written whether or not it changed: no branch to mispredict (30% faster)
            if left & (left - ONE) == ZERO and left != mask:
                if left == ZERO:
                    return queued, np.int64(peer_group[cell, j])
                queue[queued] = peer
                queued += 1
    return queued, np.int64(SETTLED)


HEADER = 6
"""The counts at the head of ``more`` (``numba_search._pack``): groups, cages, thermometers, ruled-out
placements, forbidden pairs, and the length of the sets part."""


@njit(cache=True, nogil=True, inline="always")
def _unpack(more):
    """The four tables packed in ``more`` (see ``numba_search._pack``), as views: group_start,
    group_cells, cages (three numbers each: group, total, digits differ) and thermos (their groups)."""
    groups = more[0]
    a = HEADER + groups + 1
    group_start = more[HEADER:a]
    b = a + group_start[groups]
    c = b + 3 * more[1]
    return group_start, more[a:b], more[b:c], more[c:c + more[2]]


@njit(cache=True, nogil=True, inline="always")
def _unpack_lowered(more):
    """The lowering's three tables packed in ``more``, as views: ruled-out placements (cell, digit),
    forbidden pairs (group, a, x, b, y) and the sets part (``numba_search._pack``)."""
    groups = more[0]
    a = HEADER + groups + 1
    c = a + more[a - 1] + 3 * more[1] + more[2]
    d = c + 2 * more[3]
    e = d + 5 * more[4]
    return more[c:d], more[d:e], more[e:e + more[5]]


@njit(cache=True, nogil=True, inline="always")
def _narrow(cand, queue, queued, cell, mask, new):
    """Write a narrowed mask; queue the cell when it is left with one digit. The new ``queued``."""
    cand[cell] = new
    if new & (new - ONE) == ZERO and mask & (mask - ONE) != ZERO:
        queue[queued] = cell
        queued += 1
    return queued


@njit(cache=True, nogil=True)
def _sums_and_thermos(cand, queue, queued, more):
    """Bounds of every cage sum and every thermometer, narrowed once: (queued, narrowed, failed group).

    A cage's open cell keeps the digits d with fixed + d + (least the other open cells can add) <=
    total <= fixed + d + (most they can add); what they can add is bounded both by their own smallest
    (largest) digits and by the k-1 smallest (largest) distinct digits of their union, as a cage's
    digits differ. A full cage must hit its total. A thermometer's digits strictly increase: one
    pass from the bulb raises each cell above the lowest digit before it, one from the tip lowers
    each below the highest digit after it (bounds consistency for a chain of "<").
    """
    group_start, group_cells, cages, thermos = _unpack(more)
    narrowed = False
    for c in range(cages.size // 3):
        g = cages[3 * c]
        total = np.int64(cages[3 * c + 1])
        fixed = np.int64(0)
        k = 0
        smin = np.int64(0)
        smax = np.int64(0)
        union = ZERO
        for j in range(group_start[g], group_start[g + 1]):
            mask = cand[group_cells[j]]
            if mask & (mask - ONE):
                k += 1
                smin += np.int64(_lowest(mask)) + 1
                smax += np.int64(_highest(mask)) + 1
                union |= mask
            else:
                fixed += np.int64(_lowest(mask)) + 1
        rest = total - fixed
        if k == 0:
            if rest != 0:
                return queued, narrowed, np.int64(g)
            continue
        dlo = np.int64(0)  # the k-1 smallest digits of the union, and the k-1 largest
        dhi = smax
        if cages[3 * c + 2]:  # the cage's digits differ
            if np.int64(_popcount(union)) < k:
                return queued, narrowed, np.int64(g)  # k cells that differ need k digits
            low = union
            for _ in range(k - 1):
                dlo += np.int64(_lowest(low)) + 1
                low &= low - ONE
            dhi = np.int64(0)
            high = union
            for _ in range(k - 1):
                top = _highest(high)
                dhi += np.int64(top) + 1
                high ^= ONE << top
        for j in range(group_start[g], group_start[g + 1]):
            cell = group_cells[j]
            mask = cand[cell]
            if mask & (mask - ONE) == ZERO:
                continue
            others_low = max(smin - (np.int64(_lowest(mask)) + 1), dlo)
            others_high = min(smax - (np.int64(_highest(mask)) + 1), dhi)
            new = mask & _below(rest - others_low) & ~_below(rest - others_high - 1)
            if new != mask:
                if new == ZERO:
                    return queued, narrowed, np.int64(g)
                narrowed = True
                queued = _narrow(cand, queue, queued, cell, mask, new)
    for t in range(thermos.size):
        g = thermos[t]
        floor = ZERO  # the digits at or below the lowest one possible before this cell
        for j in range(group_start[g], group_start[g + 1]):
            cell = group_cells[j]
            mask = cand[cell]
            new = mask & ~floor
            if new == ZERO:
                return queued, narrowed, np.int64(g)
            if new != mask:
                narrowed = True
                queued = _narrow(cand, queue, queued, cell, mask, new)
            floor = _below(np.int64(_lowest(new)) + 1)
        ceiling = ~ZERO  # the digits below the highest one possible after this cell
        for j in range(group_start[g + 1] - 1, group_start[g] - 1, -1):
            cell = group_cells[j]
            mask = cand[cell]
            new = mask & ceiling
            if new == ZERO:
                return queued, narrowed, np.int64(g)
            if new != mask:
                narrowed = True
                queued = _narrow(cand, queue, queued, cell, mask, new)
            ceiling = _below(np.int64(_highest(new)))
    return queued, narrowed, np.int64(SETTLED)


@njit(cache=True, nogil=True)
def _lowered_forms(cand, queue, queued, more):
    """The lowering's forbidden pairs and allowed sets, narrowed once: (queued, narrowed, failed group).

    A cell with one digit takes from the other cell of each forbidden pair the digit the pair names. An
    allowed-sets constraint fails when a digit is placed twice in it or no set holds all its placed
    digits; its open cells keep the digits, not placed yet, of the sets that hold them all.
    """
    group_start, group_cells, _, _ = _unpack(more)
    _, pairs, sets = _unpack_lowered(more)
    narrowed = False
    for p in range(pairs.size // 5):
        g = pairs[5 * p]
        for side in range(2):
            cell = pairs[5 * p + 1 + 2 * side]
            other = pairs[5 * p + 3 - 2 * side]
            bit = ONE << np.uint64(pairs[5 * p + 2 + 2 * side] - 1)
            drop = ONE << np.uint64(pairs[5 * p + 4 - 2 * side] - 1)
            mask = cand[other]
            if cand[cell] == bit and mask & drop:
                new = mask & ~drop
                if new == ZERO:
                    return queued, narrowed, np.int64(g)
                narrowed = True
                queued = _narrow(cand, queue, queued, other, mask, new)
    i = 0
    while i < sets.size:
        g = sets[i]
        m = sets[i + 1]
        k = group_start[g + 1] - group_start[g]
        placed = ZERO
        count = 0
        for j in range(group_start[g], group_start[g + 1]):
            mask = cand[group_cells[j]]
            if mask & (mask - ONE) == ZERO:
                placed |= mask
                count += 1
        if np.int64(_popcount(placed)) < count:
            return queued, narrowed, np.int64(g)  # a digit placed twice
        allowed = ZERO
        for t in range(m):
            digits = ZERO
            for j in range(k):
                digits |= ONE << np.uint64(sets[i + 2 + t * k + j] - 1)
            if placed & ~digits == ZERO:
                allowed |= digits
        if allowed == ZERO:
            return queued, narrowed, np.int64(g)
        allowed &= ~placed
        for j in range(group_start[g], group_start[g + 1]):
            cell = group_cells[j]
            mask = cand[cell]
            if mask & (mask - ONE) == ZERO:
                continue
            new = mask & allowed
            if new != mask:
                if new == ZERO:
                    return queued, narrowed, np.int64(g)
                narrowed = True
                queued = _narrow(cand, queue, queued, cell, mask, new)
        i += 2 + m * k
    return queued, narrowed, np.int64(SETTLED)


@njit(cache=True, nogil=True)
def _propagate(cand, queue, queued, peers, peer_count, peer_group, units, full):
    """Settle singles from the ``queued`` cells at the head of ``queue``: SETTLED, or the group (an
    index into the ``group_start`` table) where a contradiction surfaced.

    ``cand[cells]`` counts the cells with one digit (each is queued once, when it gets there): when
    it reaches ``cells`` the board is full and the sweep for hidden singles is skipped. Hidden
    singles found in one of the complete groups (``units``) are drained at once, so the groups
    after it see their effect.
    """
    cells = cand.size - 1
    open_cells = np.int64(np.uint64(cells) - cand[cells])  # open before this call; each queued cell closes one
    n = units.shape[1]
    queued, failed = _drain(cand, queue, 0, queued, peers, peer_count, peer_group)
    while failed == SETTLED and queued < open_cells:
        swept = queued
        for u in range(units.shape[0]):
            once = ZERO
            twice = ZERO
            placed = ZERO
            for j in range(n):
                mask = cand[units[u, j]]
                twice |= once & mask
                once |= mask
                if mask & (mask - ONE) == ZERO:
                    placed |= mask
            if once != full:
                return np.int64(u)  # a digit with no place left in this group
            single = once & ~twice & ~placed
            if single:
                head = queued
                for j in range(n):
                    cell = units[u, j]
                    mask = cand[cell]
                    hit = mask & single
                    if hit:
                        if hit & (hit - ONE):
                            return np.int64(u)  # one cell, the only place of two digits
                        cand[cell] = hit
                        queue[queued] = cell
                        queued += 1
                queued, failed = _drain(cand, queue, head, queued, peers, peer_count, peer_group)
                if failed != SETTLED:
                    return failed
        if queued == swept:
            break
    cand[cells] += np.uint64(queued)
    return failed


@njit(cache=True, nogil=True, inline="always")
def _settle(cand, queue, queued, peers, peer_count, peer_group, units, more, full):
    """Singles (``_propagate``), then, when the rules have sums, thermometers or the lowering's pairs and
    sets, their bounds (``_sums_and_thermos``, ``_lowered_forms``) and the singles these make, in turn
    until neither settles anything new (on a full board too, where the bounds check the sums, pairs
    and sets): SETTLED or the group where a contradiction surfaced.

    Kept apart from ``_propagate`` so the standard search calls a function of the few tables it
    reads (the cost of passing every table down: docs/jit.md).
    """
    failed = _propagate(cand, queue, queued, peers, peer_count, peer_group, units, full)
    if more[1] + more[2] + more[4] + more[5] > 0:  # cages, thermometers, the lowering's pairs and sets
        while failed == SETTLED:
            queued, narrowed, failed = _sums_and_thermos(cand, queue, 0, more)
            if failed == SETTLED and more[4] + more[5] > 0:
                queued, more_narrowed, failed = _lowered_forms(cand, queue, queued, more)
                narrowed = narrowed or more_narrowed
            if failed != SETTLED or not narrowed:
                break
            failed = _propagate(cand, queue, queued, peers, peer_count, peer_group, units, full)
    return failed


@njit(cache=True, nogil=True)
def _start(givens, cand, queue, peers, peer_count, peer_group, units, more, full):
    """The root state: the givens placed and their singles settled; False when they contradict."""
    queued = 0
    cand[cand.size - 1] = ZERO
    for cell in range(cand.size - 1):
        digit = givens[cell]
        cand[cell] = ONE << np.uint64(digit - 1) if digit else full
        if digit or full == ONE:  # a 1x1 board's blank has one digit from the start
            queue[queued] = cell
            queued += 1
    ruled, _, _ = _unpack_lowered(more)
    for r in range(ruled.size // 2):  # the lowering's ruled-out placements leave the board first
        cell = ruled[2 * r]
        mask = cand[cell]
        new = mask & ~(ONE << np.uint64(ruled[2 * r + 1] - 1))
        if new == ZERO:
            return False
        if new != mask:
            queued = _narrow(cand, queue, queued, cell, mask, new)
    return _settle(cand, queue, queued, peers, peer_count, peer_group, units, more, full) == SETTLED


@njit(cache=True, nogil=True)
def _search(cands, fcell, frest, ivars, weight, queue, peers, peer_count, peer_group, units, more, full, canonical,
            wdeg, budget):
    """Run the search from its saved state for up to ``budget`` nodes; FOUND, EXHAUSTED, PAUSED or GROW.

    ``cands[d]`` is the settled state at level d; ``fcell[d]`` its branching cell and ``frest[d]``
    the digits still to try there. On FOUND the solution is row ``ivars[SOLUTION]`` until the next call.
    """
    cells = cands.shape[1] - 1
    depth = ivars[DEPTH]
    mode = ivars[MODE]
    nodes = ivars[NODES]
    backtracks = ivars[BACKTRACKS]
    spent = 0
    code = PAUSED
    while True:
        if mode == EXPAND:
            row = cands[depth]
            best = -1
            if row[cells] == np.uint64(cells):
                pass  # every cell has its digit: a solution
            elif canonical:
                for cell in range(cells):
                    mask = row[cell]
                    if mask & (mask - ONE):
                        best = cell
                        break
            elif wdeg and backtracks > 0:  # before any failure every weight is as it began: the plain scan below
                fewest = 65  # best digits / best weight, compared by cross-multiplying
                heaviest = 1
                for cell in range(cells):
                    mask = row[cell]
                    if mask & (mask - ONE):
                        count = np.int64(_popcount(mask))
                        if count * heaviest < fewest * weight[cell]:
                            fewest = count
                            heaviest = weight[cell]
                            best = cell
            else:
                fewest = 65
                for cell in range(cells):
                    mask = row[cell]
                    if mask & (mask - ONE):
                        count = np.int64(_popcount(mask))
                        if count < fewest:
                            fewest = count
                            best = cell
                            if count == 2:
                                break
            if best < 0:
                ivars[SOLUTION] = depth
                depth -= 1
                mode = NEXT
                code = FOUND
                break
            fcell[depth] = best
            frest[depth] = row[best]
            mode = NEXT
            continue
        if depth < 0:
            code = EXHAUSTED
            break
        rest = frest[depth]
        if rest == ZERO:
            depth -= 1
            continue
        if spent >= budget:
            break
        bit = rest & (~rest + ONE)
        target = depth
        if rest != bit:
            if depth + 1 >= cands.shape[0]:
                code = GROW
                break
            target = depth + 1
            cands[target] = cands[depth]
        frest[depth] = rest ^ bit
        cell = fcell[depth]
        row = cands[target]
        row[cell] = bit
        queue[0] = cell
        nodes += 1
        spent += 1
        failed = _settle(row, queue, 1, peers, peer_count, peer_group, units, more, full)
        if failed == SETTLED:
            depth = target
            mode = EXPAND
        else:
            backtracks += 1
            if wdeg:
                group_start, group_cells, _, _ = _unpack(more)
                for j in range(group_start[failed], group_start[failed + 1]):
                    weight[group_cells[j]] += 1
            if target == depth:
                depth -= 1  # the level's last digit failed: the level is done
    ivars[DEPTH] = depth
    ivars[MODE] = mode
    ivars[NODES] = nodes
    ivars[BACKTRACKS] = backtracks
    return code


@njit(cache=True, nogil=True)
def _digits(cand, out):
    """A settled board's masks as digits 1..n."""
    for cell in range(out.size):
        out[cell] = _lowest(cand[cell]) + ONE


@njit(cache=True, nogil=True)
def _batch(givens, start, cands, fcell, frest, ivars, weight, queue, peers, peer_count, peer_group, units, more, full,
           weight0, wdeg, status, grids, wall, cpu, nodes, backtracks,
           times, clocks, limit, check_every, slice_seconds):
    """Solve puzzles from ``start`` on until the slice's time is up; the index to resume from.

    Each puzzle's wall and CPU seconds run from the end of the one before (one reading of each
    clock a puzzle); ``times`` holds the current puzzle's start, kept across slices. A puzzle is
    TIME_LIMIT (2) when ``limit`` > 0 seconds pass before its answer; NO_SOLUTION is 1, SOLVED 0.
    """
    slice_end = _clock(clocks[0]) + slice_seconds
    k = givens.shape[0]
    i = start
    while i < k:
        if ivars[MODE] < 0:  # a fresh puzzle
            ivars[DEPTH] = 0
            ivars[MODE] = EXPAND
            ivars[NODES] = 0
            ivars[BACKTRACKS] = 0
            weight[:] = weight0
            code = EXHAUSTED
            if _start(givens[i], cands[0], queue, peers, peer_count, peer_group, units, more, full):
                code = PAUSED
        else:
            code = PAUSED
        while code == PAUSED:
            code = _search(cands, fcell, frest, ivars, weight, queue, peers, peer_count, peer_group, units, more, full,
                           False, wdeg, check_every)
            if code == PAUSED:
                now = _clock(clocks[0])
                if limit > 0.0 and now - times[0] >= limit:
                    break
                if now >= slice_end:
                    return i
            elif code == GROW:
                return i
        if code == FOUND:
            status[i] = 0
            _digits(cands[ivars[SOLUTION]], grids[i])
        elif code == EXHAUSTED:
            status[i] = 1
        else:
            status[i] = 2
        nodes[i] = ivars[NODES]
        backtracks[i] = ivars[BACKTRACKS]
        now = _clock(clocks[0])
        now_cpu = _clock(clocks[1])
        wall[i] = now - times[0]
        cpu[i] = now_cpu - times[1]
        times[0] = now
        times[1] = now_cpu
        ivars[MODE] = -1
        i += 1
        if now >= slice_end:
            break
    return i
