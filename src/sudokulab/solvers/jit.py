"""``backtrack-jit``: a hand-written search on bit sets, compiled by numba (the ``jit`` extra).

Why: the pure-Python searches spend their time in the interpreter, not in the search. Compiled, the
same idea answers a 9x9 puzzle in microseconds, so a whole benchmark set runs as one batch.

The board is one ``uint64`` mask of candidate digits per cell, so any n up to 64 and any box split.
The search knows the rules only as tables built from ``puzzle.rules`` (``_tables``, once per rule
set), so one compiled code serves every rule set and every kind of ``rules.KINDS``. After every
placement, singles are propagated to a fixpoint: a cell left with one digit removes it from its
peers (naked single; peers are group mates and differing partners, ``Rules.peers``), and a digit
with one place left in a complete group (rows, columns, boxes or jigsaw regions, diagonals,
windows) goes there (hidden single, found for a whole group at once from the masks of digits seen
once and twice, and drained at once so the next group sees it); partial groups and differing pairs
only eliminate. Then cage sums and thermometers narrow their cells by bounds (a cage: its placed
digits plus the least and most its open cells can add, distinct digits, must reach its total; a
thermometer: each cell above the lowest digit possible before it, below the highest after it), in
turn with the singles until nothing changes, so a sum or an order is checked during the search, not
only at the end. The search branches on the open cell with the fewest digits per failure weight
(dom/wdeg, as ``backtrack-fast``: a cell starts with the number of groups it is in, and every cell
of a group gains weight each time a contradiction surfaces there; until the first one, simply the
first cell with the fewest digits), trying its digits one by one; with ``canonical`` on the first
open cell in row-major order, smallest digit first, so the first solution met is the
lexicographically first one under the puzzle's rules, the ``backtrack`` answer. Measured
(benchmarks/results/jit.md), dom/wdeg halves the nodes on forum_hardest_1106 and costs nothing on
17_clue, where most puzzles never fail; on 25x25 boards with 45% given it solved 6 of 6 within
10 s where fewest-digits solved 2. The stack is a
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
A process that is about to compile (``cache_is_warm`` reads numba's index) says so on a terminal:
"compiling the search once (about 10 s); later runs load it from <folder>"; docs/terminal.md.

``nodes`` counts digits tried at a branching cell; ``backtracks`` counts tries whose propagation
met a contradiction.

Standard Sudoku runs the same code with tables of the same shape as before rules were data (27
complete groups, 20 peers a cell, no sums), and the same nodes: measured on 17_clue against the
standard-only search, within 2-3% (noise on a shared machine) both through ``solve_batch`` and
``solve``. Sums and thermometers live in a function of their own that standard rules never call.
"""

from __future__ import annotations

import time
from functools import lru_cache
from typing import ClassVar, NamedTuple

import numpy as np

from ..grid import Grid, Puzzle, Shape
from ..rules import KINDS, Rules, build, standard
from .base import (
    Capabilities,
    CountResult,
    Deadline,
    Option,
    SolverBase,
    SolveResult,
    Status,
    TimeUp,
    check_kinds,
    check_limit,
)
from .jit_kernels import (  # numba's: a missing numba is an ImportError naming it
    BACKTRACKS,
    DEPTH,
    EXHAUSTED,
    FOUND,
    GROW,
    MODE,
    NODES,
    SLICE_SECONDS,
    SOLUTION,
    _batch,
    _digits,
    _search,
    _start,
)


class _Tables(NamedTuple):
    """The index tables of one rule set: all the compiled search knows of the rules.

    The peers are padded to the longest list, with a count; the complete groups (all n long) are
    one matrix; everything read only on a failure or for sums and thermometers is packed into one
    array, ``more`` (``_pack``), since each array argument costs a compiled call about 0.2 µs of
    dispatch. Measured on 17_clue: with peers and complete groups as flat lists with offsets (CSR)
    the standard search ran at 0.72 of the rectangular tables' rate; padded, as fast.
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


def _pack(members: list[tuple[int, ...]], cages: list[tuple[int, int, int]], thermos: list[int]) -> np.ndarray:
    """One int32 array: [groups, cages, thermometers], then the offsets of each group's cells (groups
    + 1 of them), the cells of every group, three numbers per cage (its group, its total, 1 when its
    digits differ) and one per thermometer (its group). ``jit_kernels._unpack`` reads it back as views."""
    starts = np.zeros(len(members) + 1, dtype=np.int64)
    starts[1:] = np.cumsum([len(cs) for cs in members])
    parts = [[len(members), len(cages), len(thermos)], starts.tolist(), [c for cs in members for c in cs],
             [x for cage in cages for x in cage], thermos]
    return np.array([x for part in parts for x in part], dtype=np.int32)


@lru_cache(maxsize=64)
def _tables(rules: Rules) -> _Tables:
    """The tables of a rule set, built once per ``Rules`` (hashable, with a cached hash).

    Groups, numbered as the kernels charge failures to them: the complete all-different groups
    first (group u < len(units) is units[u]), then the partial ones, then one group per differing
    pair and per thermometer (so that a failure there can be charged to its cells).
    """
    n, cells = rules.n, rules.shape.cells
    order = sorted(range(len(rules.groups)), key=lambda i: len(rules.groups[i].cells) < n)  # complete first, stable
    where = {index: position for position, index in enumerate(order)}
    members: list[tuple[int, ...]] = [rules.groups[i].cells for i in order]
    complete = sum(len(cs) == n for cs in members)
    pair_group = {}
    for a, b in rules.pairs:
        pair_group[a, b] = len(members)
        members.append((a, b))
    width = max((len(p) for p in rules.peers), default=0)
    peers = np.full((cells, width), -1, dtype=np.int32)
    peer_group = np.full((cells, width), -1, dtype=np.int32)
    peer_count = np.array([len(p) for p in rules.peers], dtype=np.int32)
    for cell in range(cells):
        charged: dict[int, int] = {}
        for index in rules.cell_groups[cell]:  # in rules order: rows, columns, boxes, ... (the first shared one)
            for mate in rules.groups[index].cells:
                charged.setdefault(mate, where[index])
        for j, mate in enumerate(sorted(rules.peers[cell])):
            peers[cell, j] = mate
            group = charged.get(mate)
            peer_group[cell, j] = pair_group[min(cell, mate), max(cell, mate)] if group is None else group
    cages = []
    for cage in rules.cages:
        same = [i for i, g in enumerate(rules.groups) if set(g.cells) == set(cage.cells)]
        if same:
            cages.append((where[same[0]], cage.total, 1))
        else:  # a hand-made Rules whose cage digits may repeat: only its sum is known
            cages.append((len(members), cage.total, 0))
            members.append(cage.cells)
    thermos = []
    for thermo in rules.thermos:
        thermos.append(len(members))
        members.append(thermo.cells)
    units = np.array([cs for cs in members[:complete]], dtype=np.int32).reshape(complete, n)
    weight0 = np.bincount(np.array([c for cs in members for c in cs], dtype=np.int64), minlength=cells)
    full = np.uint64((1 << n) - 1)
    return _Tables(peers, peer_count, peer_group, units, _pack(members, cages, thermos), full, weight0.astype(np.int64))


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


class JitSolver(SolverBase):
    """``backtrack-jit``: bit-set singles and dom/wdeg branching, compiled by numba."""

    name = "backtrack-jit"
    paradigm = "hand-written search (compiled)"
    capabilities: ClassVar[Capabilities] = Capabilities(extra="jit", kinds=frozenset(KINDS))
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
        """Compile (or load from the cache) every kernel once per process; the seconds it took.

        When the disk cache does not hold them yet and stderr is a terminal, one line there says so
        first: the wait is seconds, and silent it looks like a hang. Never on stdout, never when the
        cache is warm, and not into files and pipes (as progress bars: a person waits at a terminal)."""
        if cls.compile_seconds is None:
            import sys

            if sys.stderr is not None and sys.stderr.isatty() and not cache_is_warm():
                print(f"sudokulab: compiling the search once (about {COMPILE_SECONDS} s); later runs load it "
                      f"from {cache_folder()}", file=sys.stderr, flush=True)
            started = time.perf_counter()
            puzzle = Puzzle.empty(Shape(1, 2))
            for canonical, wdeg in ((False, False), (True, False), (False, True)):
                SearchRun(puzzle, canonical, wdeg).next(None)
            _solve_batch(np.zeros((1, 4), dtype=np.uint8), puzzle.shape, None, False)
            SearchRun(Puzzle(puzzle.shape, (0,) * 4, build(puzzle.shape, cages=[((0, 1), 3)], thermos=[(2, 3)])),
                      False, True).next(None)  # the same compiled code: only the tables differ
            cls.compile_seconds = time.perf_counter() - started
        return cls.compile_seconds

    def solve(self, puzzle: Puzzle, *, time_limit: float | None = None, canonical: bool = False) -> SolveResult:
        check_kinds(self, puzzle)
        started = time.perf_counter()
        run = SearchRun(puzzle, canonical, self.wdeg)
        try:
            grid = run.next(Deadline(time_limit))
            status = Status.NO_SOLUTION if grid is None else Status.SOLVED
        except TimeUp:
            grid, status = None, Status.TIME_LIMIT
        return SolveResult(self.name, status, grid, time.perf_counter() - started, run.state.stats())

    def count(self, puzzle: Puzzle, *, limit: int = 2, time_limit: float | None = None) -> CountResult:
        check_kinds(self, puzzle)
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

    def solve_batch(self, givens: np.ndarray, shape: Shape, *, time_limit: float | None = None,
                    rules: Rules | None = None):
        """Many puzzles of one shape in one compiled loop (see ``batch.py``): a ``BatchResults``.

        ``rules`` (standard when None) hold for every puzzle of the batch."""
        if rules is not None:
            if rules.shape != shape:
                raise ValueError(f"the rules are for a {rules.shape}, the batch is of {shape}")
            check_kinds(self, Puzzle(shape, (0,) * shape.cells, rules))
        return _solve_batch(givens, shape, time_limit, self.wdeg, self.name, rules)


COMPILE_SECONDS = 10
"""About how long compiling the kernels takes, as the compile message says (8-15 s on the 2-core
machine of benchmarks/results/jit.md, by load)."""
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


class SearchRun:
    """One puzzle's search, resumable: ``next`` gives its solutions one by one, then None."""

    def __init__(self, puzzle: Puzzle, canonical: bool, wdeg: bool) -> None:
        self.tables = _tables(puzzle.rules)
        self.state = _State(puzzle.shape.cells, self.tables.weight0)
        self.canonical = canonical
        self.wdeg = wdeg and not canonical
        self.budget = 64
        self.slices = 0
        givens = np.array(puzzle.givens, dtype=np.uint8)
        tables, state = self.tables, self.state
        self.done = not _start(givens, state.cands[0], state.queue, *tables.kernel)

    def next(self, deadline: Deadline | None) -> Grid | None:
        """The next solution in search order, or None; raises ``TimeUp`` past the deadline."""
        tables, state = self.tables, self.state
        while not self.done:
            if deadline is not None and self.slices:
                deadline.check()
            self.slices += 1
            began = time.perf_counter()
            code = _search(state.cands, state.fcell, state.frest, state.ivars, state.weight, state.queue,
                           *tables.kernel, self.canonical, self.wdeg, self.budget)
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
                 name: str = JitSolver.name, rules: Rules | None = None):
    """The batch entry point's work: slices of the compiled batch loop, Ctrl-C seen between them."""
    from ..batch import DIGITS, BatchResults, checked_givens  # numpy-only module: imported where batches are made

    givens = checked_givens(givens, shape)
    k = len(givens)
    limit = 0.0 if time_limit is None else float(time_limit)
    if time_limit is not None and not limit > 0:
        raise ValueError(f"time limit must be positive, not {time_limit}")
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
