"""``backtrack-jit``'s numba backend: the kernels of ``jit_kernels`` driven from Python with numpy arrays.

Why a module of its own: ``jit.py`` chooses a backend without importing numpy or numba, so the C
extension (``_search.c``) runs in a process that never loads them; this is the fallback where no
compiler built that extension, and the path for cage sums, thermometers and the lowering's forms,
which the C search leaves out. The search itself is described in ``jit.py``; the tables and the slice driver both
backends share are ``jit_layout``'s.

More: docs/jit.md.
"""

from __future__ import annotations

import time
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from ...core.grid import Grid, Shape
from ...core.puzzle import Puzzle
from ...core.rules import INCREASING, SUM, Rules, build, standard
from ..lowering import lowered
from .kernels import BACKTRACKS, DEPTH, EXHAUSTED, FOUND, GROW, MODE, NODES, SOLUTION, _batch, _digits, _search, _start
from .layout import SLICE_SECONDS, Layout, Slices, layout


class _Tables(NamedTuple):
    """The index tables of one rule set as numpy arrays: all the compiled search knows of the rules.

    The peers are padded to the longest list, with a count; the complete groups (all n long) are
    one matrix; everything read only on a failure or for sums and thermometers is packed into one
    array, ``more`` (``_pack``), since each array argument adds to a compiled call's dispatch; padded
    tables ran faster than flat lists with offsets (docs/jit.md, "Behind the design").
    """

    peers: np.ndarray
    """(cells, most peers) int32: each cell's peers (``rules.peers``, sorted), padded with -1."""
    peer_count: np.ndarray
    """(cells,) int32: how many peers each cell has."""
    peer_group: np.ndarray
    """(cells, most peers) int32: a group the peer shares with the cell (where a contradiction is charged)."""
    units: np.ndarray
    """(complete groups, n) int32: the groups that hold every digit once (they give hidden singles)."""
    more: np.ndarray
    """int32: every group's cells, the cages and the thermometers, packed by ``_pack``."""
    full: np.uint64
    """The mask of all n digits."""
    weight0: np.ndarray
    """(cells,) int64: each cell's starting weight for dom/wdeg, the number of groups it is in."""

    @property
    def kernel(self) -> tuple:
        """What ``_start`` and ``_search`` take: all but ``weight0``."""
        return self[:-1]


def _pack(tables: Layout) -> np.ndarray:
    """One int32 array: [groups, cages, thermometers, ruled-out placements, forbidden pairs, length of the
    sets part], then the offsets of each group's cells (groups + 1 of them), the cells of every group,
    three numbers per cage (its group, its total, 1 when its digits differ), one per thermometer (its
    group), two per ruled-out placement (cell, digit), five per forbidden pair (group, a, x, b, y), and
    per allowed-sets constraint its group, its number of sets m, then m sets of as many digits as it has
    cells. ``jit_kernels._unpack`` and ``_unpack_lowered`` read it back as views."""
    sets = [x for group, chosen in tables.sets for x in (group, len(chosen), *(d for digits in chosen for d in digits))]
    parts = [[len(tables.group_start) - 1, len(tables.cages), len(tables.thermos), len(tables.ruled_out),
              len(tables.pairs), len(sets)], tables.group_start, tables.group_cells,
             [x for cage in tables.cages for x in cage], tables.thermos,
             [x for placement in tables.ruled_out for x in placement], [x for pair in tables.pairs for x in pair], sets]
    return np.array([x for part in parts for x in part], dtype=np.int32)


@lru_cache(maxsize=64)
def _tables(rules: Rules) -> _Tables:
    """The numpy tables of a rule set, built once per ``Rules`` from its ``jit_layout.layout``."""
    t = layout(rules)
    cells = len(t.peer_count)
    return _Tables(np.array(t.peers, dtype=np.int32).reshape(cells, t.width),
                   np.array(t.peer_count, dtype=np.int32),
                   np.array(t.peer_group, dtype=np.int32).reshape(cells, t.width),
                   np.array(t.units, dtype=np.int32).reshape(-1, t.n),
                   _pack(t), np.uint64((1 << t.n) - 1), np.array(t.weight0, dtype=np.int64))


class _State:
    """One search's arrays: the stack of board states, the frames, the queue and the counters."""

    STACK_BYTES = 1 << 23
    """Initial stack size: every level a 9x9 search can reach; about 800 levels of 36x36."""
    MIN_DEPTH = 64
    """Levels allocated at least (a 64x64 board's 32 KB a level would allow only 256)."""

    def __init__(self, cells: int, weight0: np.ndarray) -> None:
        depth = min(cells + 1, max(self.MIN_DEPTH, self.STACK_BYTES // (8 * cells)))
        self.cands = np.zeros((depth, cells + 1), dtype=np.uint64)  # a row: the masks, then how many are single
        self.fcell = np.zeros(depth, dtype=np.int32)
        self.frest = np.zeros(depth, dtype=np.uint64)
        self.ivars = np.zeros(8, dtype=np.int64)
        self.weight = weight0.copy()  # dom/wdeg's weights, each cell's count of groups to begin with
        self.queue = np.zeros(cells, dtype=np.int32)

    def grow(self) -> None:
        """Twice the stack depth (a deep search on a large board; never on 9x9)."""
        self.cands = np.concatenate([self.cands, np.zeros_like(self.cands)])
        depth = len(self.fcell)
        self.fcell = np.concatenate([self.fcell, np.zeros(depth, dtype=np.int32)])
        self.frest = np.concatenate([self.frest, np.zeros(depth, dtype=np.uint64)])

    def stats(self) -> dict[str, int]:
        return {"nodes": int(self.ivars[NODES]), "backtracks": int(self.ivars[BACKTRACKS])}


class SearchRun(Slices):
    """One puzzle's search on the numba kernels, resumable (``Slices.next``)."""

    backend = "numba"

    def __init__(self, puzzle: Puzzle, canonical: bool, wdeg: bool) -> None:
        super().__init__(canonical, wdeg)
        self.tables = _tables(puzzle.rules)
        self.state = _State(puzzle.shape.cells, self.tables.weight0)
        givens = np.array(puzzle.givens, dtype=np.uint8)
        self.done = not _start(givens, self.state.cands[0], self.state.queue, *self.tables.kernel)

    def step(self, budget: int) -> Grid | bool | None:
        tables, state = self.tables, self.state
        code = _search(state.cands, state.fcell, state.frest, state.ivars, state.weight, state.queue,
                       *tables.kernel, self.canonical, self.wdeg, budget)
        if code == FOUND:
            out = np.empty(state.cands.shape[1] - 1, dtype=np.uint8)
            _digits(state.cands[state.ivars[SOLUTION]], out)
            return tuple(out.tolist())
        if code == GROW:
            state.grow()
        return code == EXHAUSTED

    def stats(self) -> dict[str, int]:
        return self.state.stats()


COMPILE_SECONDS = 10
"""About how long compiling the kernels takes, as the compile message says (docs/jit.md, "Behind the design")."""
ENTRY_KERNELS = (_search, _start, _digits, _batch)
"""The kernels Python calls (the others are compiled into them and cached with them)."""


def cache_folder() -> str:
    """Where numba keeps the compiled kernels (``__pycache__`` beside the module, its per-user
    fallback, or ``$NUMBA_CACHE_DIR``)."""
    return str(_search.stats.cache_path)


def cache_is_warm() -> bool:
    """Whether numba's disk cache holds every entry kernel for this very source (its index is keyed
    on the file's time stamp and size), so that ``warm_up`` loads instead of compiling.

    Reads numba's cache index through its internal ``_cache`` (numba 0.5x-0.6x); should that change,
    the answer is True: better no message than a wrong one."""
    try:
        return all(kernel._cache._cache_file._load_index() for kernel in ENTRY_KERNELS)
    except Exception:  # noqa: BLE001 - numba's internals moved: say nothing
        return True


def warm_up() -> None:
    """Compile (or load from numba's disk cache) every kernel once.

    When the disk cache does not hold them yet and stderr is a terminal, one line there says so
    first: the wait is seconds, and silent it looks like a hang. Never on stdout, never when the
    cache is warm, and not into files and pipes (as progress bars: a person waits at a terminal)."""
    import sys

    if sys.stderr is not None and sys.stderr.isatty() and not cache_is_warm():
        from ...formats.prose import prose

        prose(f"sudokulab: compiling the search once (about {COMPILE_SECONDS} s); later runs load it "
              f"from {cache_folder()}", stderr=True, indent="  ")
    puzzle = Puzzle.empty(Shape(1, 2))
    for canonical, wdeg in ((False, False), (True, False), (False, True)):
        SearchRun(puzzle, canonical, wdeg).next(None)
    solve_batch(np.zeros((1, 4), dtype=np.uint8), puzzle.shape, None, False, "backtrack-jit")
    SearchRun(Puzzle(puzzle.shape, (0,) * 4, build(puzzle.shape, cages=[((0, 1), 3)], thermos=[(2, 3)])),
              False, True).next(None)  # the same compiled code: only the tables differ
    SearchRun(Puzzle(puzzle.shape, (0,) * 4, lowered(build(puzzle.shape, cages=[((0, 1), 3)], thermos=[(2, 3)]),
                                                     {SUM, INCREASING})), False, True).next(None)


def solve_batch(givens: np.ndarray, shape: Shape, time_limit: float | None, wdeg: bool, name: str,
                rules: Rules | None = None):
    """The batch entry point's work: slices of the compiled batch loop, Ctrl-C seen between them."""
    from ..batch import DIGITS, BatchResults  # numpy-only module: imported where batches are made

    k = len(givens)
    limit = 0.0 if time_limit is None else float(time_limit)
    tables = _tables(standard(shape) if rules is None else rules)
    state = _State(shape.cells, tables.weight0)
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

