"""``backtrack-jit``: a hand-written search on bit sets, compiled by numba (the ``jit`` extra).

Why: the pure-Python searches spend their time in the interpreter, not in the search. Compiled, the
same idea answers a 9x9 puzzle in microseconds, so a whole benchmark set runs as one batch.

The board is one ``uint64`` mask of candidate digits per cell, so any n up to 64 and any box split.
After every placement, singles are propagated to a fixpoint: a cell left with one digit removes it
from its peers (naked single), and a digit with one place left in a row, column or box goes there
(hidden single, found for a whole unit at once from the masks of digits seen once and twice, and
drained at once so the next unit sees it). The search branches on the open cell with the fewest
digits per failure weight of its row, column and box (dom/wdeg, as ``backtrack-fast``: a unit
gains weight each time a contradiction surfaces in it; until the first one, simply the first cell
with the fewest digits), trying its digits one by one; with ``canonical`` on the first open cell
in row-major order, smallest digit first, so the first solution met is the lexicographically first
one, the ``backtrack`` answer. Measured (benchmarks/results/jit.md), dom/wdeg halves the nodes on
forum_hardest_1106 and costs nothing on 17_clue, where most puzzles never fail; on 25x25 boards
with 45% given it solved 6 of 6 within 10 s where fewest-digits solved 2. The stack is a
preallocated array of board states, one row per level; trying a cell's last digit reuses its
level's row. Nothing is allocated in the hot loop; the stack grows (in Python, rarely) only past
its initial depth.

numba code cannot be interrupted, so the search is resumable: it runs for a budget of nodes and
returns, keeping its state in arrays; the Python driver checks the ``Deadline`` and lets Ctrl-C
through between slices, and adapts the budget so a slice lasts about 20 ms on any board size. The
batch kernel loops over the puzzles inside compiled code and reads the clocks itself
(``clock_gettime``, linked by name, so it caches; about 0.45 µs a puzzle for the two clocks), which
gives per-puzzle wall and CPU times without a Python call per puzzle. Measured against a Python
loop over the compiled single-puzzle functions (``perf_counter`` and ``process_time`` around each):
on the first 2,000 17_clue puzzles the batch loop made 98,000 puzzles per CPU-second, the loop
58,000 (the dispatch of a call with a dozen array arguments is a few µs, as long as a puzzle).

Compiled code is cached on disk (``cache=True``): the first process on a machine compiles for
several seconds, later ones load the machine code in a fraction of one (``warm_up`` measures it,
``compile_seconds`` keeps it; benchmarks/results/jit.md has the figures). numba writes the cache to
``__pycache__`` beside this file; when that cannot be written (a system-wide install) it falls back
by itself to a per-user directory, ``~/.cache/numba/<dir>_<hash>`` (``$XDG_CACHE_HOME``), which we
checked: the first run there compiled and saved, the second loaded. ``$NUMBA_CACHE_DIR`` overrides
both. We leave the choice to numba rather than pick a path of our own: its fallback already covers
read-only installs. The cache is keyed on this file's time stamp, so an upgrade compiles once.

``nodes`` counts digits tried at a branching cell; ``backtracks`` counts tries whose propagation
met a contradiction.
"""

from __future__ import annotations

import time
from functools import cache
from typing import ClassVar, NamedTuple

import numba  # noqa: F401 - the optional extra: a missing numba is an ImportError naming it
import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from ..grid import Grid, Puzzle, Shape, units
from .base import Capabilities, CountResult, Deadline, Option, SolverBase, SolveResult, Status, TimeUp, check_limit

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
SLICE_SECONDS = 0.02
"""Aimed length of one slice of compiled search: Ctrl-C and the deadline are seen at least this often."""


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
def _drain(cand, queue, head, queued, peers, peer_unit):
    """Remove the digit of every queued cell from its peers, queueing the naked singles this makes.

    Returns (queued, SETTLED) when the queue ran dry, or (queued, unit) for a peer left with no digit.
    """
    while head < queued:
        cell = queue[head]
        head += 1
        keep = ~cand[cell]
        for j in range(peers.shape[1]):
            peer = peers[cell, j]
            mask = cand[peer]
            left = mask & keep
            cand[peer] = left  # written whether or not it changed: no branch to mispredict (30% faster)
            if left & (left - ONE) == ZERO and left != mask:
                if left == ZERO:
                    return queued, peer_unit[cell, j]
                queue[queued] = peer
                queued += 1
    return queued, SETTLED


@njit(cache=True, nogil=True)
def _propagate(cand, queue, queued, peers, peer_unit, unit_cells, full):
    """Settle singles from the ``queued`` cells at the head of ``queue``: SETTLED, or the unit where a
    contradiction surfaced (rows, columns, boxes numbered 0..3n-1).

    ``cand[cells]`` counts the cells with one digit (each is queued once, when it gets there): when
    it reaches ``cells`` the board is full and the sweep for hidden singles is skipped. Hidden
    singles found in a unit are drained at once, so the units after it see their effect.
    """
    cells = cand.size - 1
    open_cells = np.int64(np.uint64(cells) - cand[cells])  # open before this call; each queued cell closes one
    n = unit_cells.shape[1]
    queued, failed = _drain(cand, queue, 0, queued, peers, peer_unit)
    while failed == SETTLED and queued < open_cells:
        swept = queued
        for u in range(unit_cells.shape[0]):
            once = ZERO
            twice = ZERO
            placed = ZERO
            for j in range(n):
                mask = cand[unit_cells[u, j]]
                twice |= once & mask
                once |= mask
                if mask & (mask - ONE) == ZERO:
                    placed |= mask
            if once != full:
                return u  # a digit with no place left in this unit
            single = once & ~twice & ~placed
            if single:
                head = queued
                for j in range(n):
                    cell = unit_cells[u, j]
                    mask = cand[cell]
                    hit = mask & single
                    if hit:
                        if hit & (hit - ONE):
                            return u  # one cell, the only place of two digits
                        cand[cell] = hit
                        queue[queued] = cell
                        queued += 1
                queued, failed = _drain(cand, queue, head, queued, peers, peer_unit)
                if failed != SETTLED:
                    return failed
        if queued == swept:
            break
    cand[cells] += np.uint64(queued)
    return failed


@njit(cache=True, nogil=True)
def _start(givens, cand, queue, peers, peer_unit, unit_cells, full):
    """The root state: the givens placed and their singles settled; False when they contradict."""
    queued = 0
    cand[cand.size - 1] = ZERO
    for cell in range(cand.size - 1):
        digit = givens[cell]
        cand[cell] = ONE << np.uint64(digit - 1) if digit else full
        if digit or full == ONE:  # a 1x1 board's blank has one digit from the start
            queue[queued] = cell
            queued += 1
    return _propagate(cand, queue, queued, peers, peer_unit, unit_cells, full) == SETTLED


@njit(cache=True, nogil=True)
def _search(cands, fcell, frest, ivars, weight, queue, peers, peer_unit, unit_cells, full, canonical, wdeg, budget):
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
            elif wdeg and backtracks > 0:  # before any failure every weight is equal: the plain scan below
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
        failed = _propagate(row, queue, 1, peers, peer_unit, unit_cells, full)
        if failed == SETTLED:
            depth = target
            mode = EXPAND
        else:
            backtracks += 1
            if wdeg:
                for j in range(unit_cells.shape[1]):
                    weight[unit_cells[failed, j]] += 1
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
def _batch(givens, start, cands, fcell, frest, ivars, weight, queue, peers, peer_unit, unit_cells, full, wdeg,
           status, grids, wall, cpu, nodes, backtracks, times, clocks, limit, check_every, slice_seconds):
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
            weight[:] = 3
            code = EXHAUSTED
            if _start(givens[i], cands[0], queue, peers, peer_unit, unit_cells, full):
                code = PAUSED
        else:
            code = PAUSED
        while code == PAUSED:
            code = _search(cands, fcell, frest, ivars, weight, queue, peers, peer_unit, unit_cells, full, False,
                           wdeg, check_every)
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


class _Tables(NamedTuple):
    """The index tables of one shape: what the compiled search knows of the rules."""

    peers: np.ndarray
    """(cells, peers) int32: every cell's peers (each cell of a regular board has as many)."""
    peer_unit: np.ndarray
    """(cells, peers) int32: a unit each peer shares with the cell (where a contradiction is charged)."""
    unit_cells: np.ndarray
    """(3n, n) int32: the cells of the rows, columns and boxes."""
    full: np.uint64
    """The mask of all n digits."""


@cache
def _tables(shape: Shape) -> _Tables:
    """The tables of a shape, built once per shape from ``grid.units``."""
    u = units(shape)
    n = shape.n
    peers = np.array([sorted(p) for p in u.peers], dtype=np.int32).reshape(shape.cells, -1)
    unit_cells = np.array(u.rows + u.cols + u.boxes, dtype=np.int32).reshape(3 * n, n)
    cell = np.arange(shape.cells).reshape(-1, 1)
    row, col = cell // n, cell % n
    box = (row // shape.box_rows) * shape.box_rows + col // shape.box_cols
    peer_unit = np.where(peers // n == row, row, np.where(peers % n == col, n + col, 2 * n + box)).astype(np.int32)
    full = np.uint64((1 << n) - 1)
    return _Tables(peers, peer_unit, unit_cells, full)


class _State:
    """One search's arrays: the stack of board states, the frames, the queue and the counters."""

    STACK_BYTES = 1 << 23
    """Initial stack size: every level a 9x9 search can reach; about 800 levels of 36x36."""
    MIN_DEPTH = 64
    """Levels allocated at least (a 64x64 board's 32 KB a level would allow only 256)."""

    def __init__(self, cells: int) -> None:
        depth = min(cells + 1, max(self.MIN_DEPTH, self.STACK_BYTES // (8 * cells)))
        self.cands = np.zeros((depth, cells + 1), dtype=np.uint64)  # a row: the masks, then how many are single
        self.fcell = np.zeros(depth, dtype=np.int32)
        self.frest = np.zeros(depth, dtype=np.uint64)
        self.ivars = np.zeros(8, dtype=np.int64)
        self.weight = np.full(cells, 3, dtype=np.int64)
        self.queue = np.zeros(cells, dtype=np.int32)

    def grow(self) -> None:
        """Twice the stack depth (a deep search on a large board; never on 9x9)."""
        self.cands = np.concatenate([self.cands, np.zeros_like(self.cands)])
        depth = len(self.fcell)
        self.fcell = np.concatenate([self.fcell, np.zeros(depth, dtype=np.int32)])
        self.frest = np.concatenate([self.frest, np.zeros(depth, dtype=np.uint64)])

    def stats(self) -> dict[str, int]:
        return {"nodes": int(self.ivars[NODES]), "backtracks": int(self.ivars[BACKTRACKS])}


class JitSolver(SolverBase):
    """``backtrack-jit``: bit-set singles and dom/wdeg branching, compiled by numba."""

    name = "backtrack-jit"
    paradigm = "hand-written search (compiled)"
    capabilities: ClassVar[Capabilities] = Capabilities(extra="jit")
    options: ClassVar[tuple[Option, ...]] = (
        Option("branching", str, "wdeg", "the cell to branch on: 'wdeg', the fewest digits per failure weight "
               "of its units (dom/wdeg), or 'fewest' digits, the first met", choices=("wdeg", "fewest")),
    )
    compile_seconds: ClassVar[float | None] = None
    """Seconds the first ``warm_up`` in this process took: compiling, or loading the disk cache."""

    def __init__(self, branching: str = "wdeg") -> None:
        super().__init__()
        self.wdeg = branching == "wdeg"
        self.warm_up()

    @classmethod
    def warm_up(cls) -> float:
        """Compile (or load from the cache) every kernel once per process; the seconds it took."""
        if cls.compile_seconds is None:
            started = time.perf_counter()
            puzzle = Puzzle.empty(Shape(1, 2))
            for canonical, wdeg in ((False, False), (True, False), (False, True)):
                SearchRun(puzzle, canonical, wdeg).next(None)
            _solve_batch(np.zeros((1, 4), dtype=np.uint8), puzzle.shape, None, False)
            cls.compile_seconds = time.perf_counter() - started
        return cls.compile_seconds

    def solve(self, puzzle: Puzzle, *, time_limit: float | None = None, canonical: bool = False) -> SolveResult:
        started = time.perf_counter()
        run = SearchRun(puzzle, canonical, self.wdeg)
        try:
            grid = run.next(Deadline(time_limit))
            status = Status.NO_SOLUTION if grid is None else Status.SOLVED
        except TimeUp:
            grid, status = None, Status.TIME_LIMIT
        return SolveResult(self.name, status, grid, time.perf_counter() - started, run.state.stats())

    def count(self, puzzle: Puzzle, *, limit: int = 2, time_limit: float | None = None) -> CountResult:
        check_limit(limit)
        started = time.perf_counter()
        run = SearchRun(puzzle, False, self.wdeg)
        deadline = Deadline(time_limit)
        found, status = 0, Status.NO_SOLUTION
        try:
            while found < limit and run.next(deadline) is not None:
                found += 1
                status = Status.SOLVED
        except TimeUp:
            status = Status.TIME_LIMIT
        return CountResult(self.name, found, limit, status, time.perf_counter() - started, run.state.stats())

    def solve_batch(self, givens: np.ndarray, shape: Shape, *, time_limit: float | None = None):
        """Many puzzles of one shape in one compiled loop (see ``batch.py``): a ``BatchResults``."""
        return _solve_batch(givens, shape, time_limit, self.wdeg, self.name)


class SearchRun:
    """One puzzle's search, resumable: ``next`` gives its solutions one by one, then None."""

    def __init__(self, puzzle: Puzzle, canonical: bool, wdeg: bool) -> None:
        self.tables = _tables(puzzle.shape)
        self.state = _State(puzzle.shape.cells)
        self.canonical = canonical
        self.wdeg = wdeg and not canonical
        self.budget = 64
        self.slices = 0
        givens = np.array(puzzle.givens, dtype=np.uint8)
        tables, state = self.tables, self.state
        self.done = not _start(givens, state.cands[0], state.queue, *tables)

    def next(self, deadline: Deadline | None) -> Grid | None:
        """The next solution in search order, or None; raises ``TimeUp`` past the deadline."""
        tables, state = self.tables, self.state
        while not self.done:
            if deadline is not None and self.slices:
                deadline.check()
            self.slices += 1
            began = time.perf_counter()
            code = _search(state.cands, state.fcell, state.frest, state.ivars, state.weight, state.queue, *tables,
                           self.canonical, self.wdeg, self.budget)
            if code == FOUND:
                out = np.empty(state.cands.shape[1] - 1, dtype=np.uint8)
                _digits(state.cands[state.ivars[SOLUTION]], out)
                return tuple(out.tolist())
            if code == EXHAUSTED:
                self.done = True
            elif code == GROW:
                state.grow()
            else:
                spent = time.perf_counter() - began
                if spent < SLICE_SECONDS / 2:
                    self.budget = min(self.budget * 2, 1 << 40)
                elif spent > SLICE_SECONDS * 2:
                    self.budget = max(1, self.budget // 2)
        return None


def _solve_batch(givens: np.ndarray, shape: Shape, time_limit: float | None, wdeg: bool,
                 name: str = JitSolver.name):
    """The batch entry point's work: slices of the compiled batch loop, Ctrl-C seen between them."""
    from ..batch import DIGITS, BatchResults  # numpy-only module: imported where batches are made

    givens = np.ascontiguousarray(givens, dtype=DIGITS)
    k = len(givens)
    if givens.ndim != 2 or givens.shape[1] != shape.cells:
        raise ValueError(f"givens must be (k, {shape.cells}) for {shape}, not {givens.shape}")
    if k and int(givens.max()) > shape.n:
        raise ValueError(f"givens must lie in 0..{shape.n}")
    limit = 0.0 if time_limit is None else float(time_limit)
    if time_limit is not None and not limit > 0:
        raise ValueError(f"time limit must be positive, not {time_limit}")
    tables = _tables(shape)
    state = _State(shape.cells)
    state.ivars[MODE] = -1
    status = np.zeros(k, dtype=np.int8)
    grids = np.zeros((k, shape.cells), dtype=DIGITS)
    wall = np.zeros(k)
    cpu = np.zeros(k)
    nodes = np.zeros(k, dtype=np.int64)
    backtracks = np.zeros(k, dtype=np.int64)
    clocks = np.array([time.CLOCK_MONOTONIC, time.CLOCK_PROCESS_CPUTIME_ID], dtype=np.int64)
    times = np.array([time.clock_gettime(int(clocks[0])), time.clock_gettime(int(clocks[1]))])
    check_every = max(1, (1 << 16) // shape.cells)  # about a millisecond of search on any size
    i = 0
    while i < k:
        i = _batch(givens, i, state.cands, state.fcell, state.frest, state.ivars, state.weight, state.queue, *tables,
                   wdeg, status, grids, wall, cpu, nodes, backtracks, times, clocks, limit, check_every,
                   SLICE_SECONDS)
        if i < k and state.ivars[MODE] >= 0 and state.cands.shape[0] <= state.ivars[DEPTH] + 1:
            state.grow()
    return BatchResults(name, status, grids, wall, cpu, {"nodes": nodes, "backtracks": backtracks})
