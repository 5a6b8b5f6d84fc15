"""``backtrack-jit``: a hand-written search on bit sets, compiled ahead of time in C or by numba.

Why: the pure-Python searches spend their time in the interpreter, not in the search; compiled, a
whole benchmark set runs as one batch. The board is one ``uint64`` mask of candidate digits per
cell (any n up to 64); the search knows the rules only as tables (``jit_layout.layout``), so one
compiled code serves every rule set. It propagates singles (and cage and thermometer bounds) to a
fixpoint after every placement and branches by dom/wdeg, or in reading order with ``canonical``
(the ``backtrack`` answer). Compiled code cannot be interrupted, so the search runs in resumable
slices and the driver checks the deadline and Ctrl-C between them. Two backends, chosen per call
(``backend``, ``$SUDOKULAB_JIT_BACKEND``): the C extension ``_search`` (no numpy, no numba, a fast
start) and the numba kernels (``numba_search``, ``kernels``: the ``jit`` extra), the fallback and
the path for cage sums and thermometers.

The search, its slices, numba's cache and how the backends differ: docs/jit.md.
"""

from __future__ import annotations

import os
import time
from array import array
from functools import lru_cache
from importlib.util import find_spec
from typing import ClassVar

from ...core.grid import Grid, Shape
from ...core.puzzle import Puzzle
from ...core.rules import INCREASING, SUM, Rules, standard
from ...errors import UnsupportedFeature, UsageError
from ..base import (
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
from ..lowering import FORMS, lower
from .layout import NATIVE, SLICE_SECONDS, Slices, layout

try:
    from . import _search  # the C extension, built at install time where a compiler exists
except ImportError:
    _search = None

if _search is None and find_spec("numba") is None:  # neither backend: the registry names the extra
    raise ImportError("backtrack-jit needs its C extension or numba", name="numba")

BACKEND_VARIABLE = "SUDOKULAB_JIT_BACKEND"
"""The environment variable that forces a backend: ``c`` or ``numba`` (unset or empty: chosen)."""
STACK_LEVELS = 64
"""Levels of board states a C search allocates at first (it doubles them when a search goes deeper)."""
FOUND, EXHAUSTED = 0, 1
"""What a C run returns (``_search.FOUND``...), as the numba kernels do."""


def backend(rules: Rules) -> str:
    """The backend that runs a search under ``rules``: "c" where the extension was built and the rules
    have no sums, thermometers or kinds stated through the lowering, else "numba"; or as
    ``$SUDOKULAB_JIT_BACKEND`` says."""
    forced = os.environ.get(BACKEND_VARIABLE, "").strip().lower()
    if forced not in ("", "c", "numba"):
        raise UsageError(f"${BACKEND_VARIABLE} must be 'c' or 'numba', not '{forced}'")
    sums = bool(rules.cages or rules.thermos or lower(rules, NATIVE))
    if forced == "c" or (not forced and _search is not None and not sums):
        if _search is None:
            raise UsageError(f"${BACKEND_VARIABLE}=c, but the C extension of backtrack-jit was not built "
                             "(reinstall sudokulab where gcc and the Python headers are)")
        if sums:
            raise UnsupportedFeature("backtrack-jit's C search has no cage sums or thermometers "
                                     f"(unset ${BACKEND_VARIABLE} to run them on numba)")
        return "c"
    if find_spec("numba") is None:
        why = "cage sums and thermometers need" if sums and _search is not None else "backtrack-jit needs"
        raise UnsupportedFeature(f"{why} numba (the 'jit' extra): pip install 'sudokulab[jit]'")
    return "numba"


@lru_cache(maxsize=64)
def c_tables(rules: Rules, specialise: bool = True):
    """The C extension's copy of a rule set's tables (``_search.Tables``). Standard 9x9 tables run on the
    digit-major kernel (``_search9.h``) unless ``specialise`` is False, which the tests and the benchmark
    use to run the general kernel on them side by side."""
    t = layout(rules)
    return _search.Tables(t.n, rules.shape.cells, t.width, array("i", t.peer_count), array("i", t.peers),
                          array("i", t.peer_group), array("i", t.units), array("i", t.group_start),
                          array("i", t.group_cells), array("q", t.weight0), specialise)


class CRun(Slices):
    """One puzzle's search in the C extension."""

    backend = "c"

    def __init__(self, puzzle: Puzzle, canonical: bool, wdeg: bool) -> None:
        super().__init__(canonical, wdeg)
        self.search = _search.Search(c_tables(puzzle.rules), STACK_LEVELS)
        self.done = not self.search.start(bytes(puzzle.givens))

    def step(self, budget: int) -> Grid | bool | None:
        code = self.search.run(self.canonical, self.wdeg, budget)
        if code == FOUND:
            return tuple(self.search.solution())
        return code == EXHAUSTED

    def stats(self) -> dict[str, int]:
        return {"nodes": self.search.nodes, "backtracks": self.search.backtracks}


def search_run(puzzle: Puzzle, canonical: bool, wdeg: bool, deadline: Deadline | None = None) -> Slices:
    """A resumable search of ``puzzle`` on the backend its rules take; the rule set's tables, when not built
    yet, are built under ``deadline`` (``TimeUp``)."""
    layout(puzzle.rules, deadline)
    if backend(puzzle.rules) == "c":
        return CRun(puzzle, canonical, wdeg)
    from .numba_search import SearchRun

    return SearchRun(puzzle, canonical, wdeg)


def c_solve_batch(givens, shape: Shape, time_limit: float | None, wdeg: bool, name: str, rules: Rules,
                  specialise: bool = True):
    """The batch loop in C, in slices of ``SLICE_SECONDS`` so Ctrl-C is seen between them (``specialise``:
    as ``c_tables``)."""
    import numpy as np

    from ..batch import DIGITS, BatchResults

    k = len(givens)
    status = np.zeros(k, dtype=np.int8)
    grids = np.zeros((k, shape.cells), dtype=DIGITS)
    wall, cpu = np.zeros(k), np.zeros(k)
    nodes, backtracks = np.zeros(k, dtype=np.int64), np.zeros(k, dtype=np.int64)
    limit = 0.0 if time_limit is None else float(time_limit)
    check_every = max(1, (1 << 16) // shape.cells)  # about a millisecond of search on any size
    search = _search.Search(c_tables(rules, specialise), STACK_LEVELS)
    search.reset_clock()
    i = 0
    while i < k:
        i = search.batch(givens, i, wdeg, status, grids, wall, cpu, nodes, backtracks, limit, check_every,
                         SLICE_SECONDS)
    return BatchResults(name, status, grids, wall, cpu, {"nodes": nodes, "backtracks": backtracks})


class JitSolver(SolverBase):
    """``backtrack-jit``: bit-set singles and dom/wdeg branching, compiled (C, or numba as the fallback)."""

    name = "backtrack-jit"
    paradigm = "hand-written search (compiled)"
    capabilities: ClassVar[Capabilities] = Capabilities(
        extra=None if _search is not None else "jit",
        kinds=NATIVE if find_spec("numba") is not None else NATIVE - {SUM, INCREASING},
        forms=FORMS if find_spec("numba") is not None else frozenset(),
        kinds_why="" if find_spec("numba") is not None else "its C search has no sums or thermometers without numba",
    )
    options: ClassVar[tuple[Option, ...]] = (
        Option("branching", str, "wdeg", "the cell to branch on: 'wdeg', the fewest digits per failure weight "
               "of its units (dom/wdeg), or 'fewest' digits, the first met", choices=("wdeg", "fewest")),
    )
    compile_seconds: ClassVar[float | None] = None
    """Seconds the first ``warm_up`` in this process took: loading the C tables, or compiling or
    loading numba's disk cache."""

    def __init__(self, branching: str = "wdeg") -> None:
        super().__init__()
        self.wdeg = branching == "wdeg"
        self.warm_up()

    @classmethod
    def describe_backend(cls) -> str:
        """Which backend standard rules run on here (``sudokulab solvers``)."""
        try:
            return backend(standard(Shape(3, 3)))
        except (UsageError, UnsupportedFeature) as exc:
            return str(exc)

    @classmethod
    def warm_up(cls) -> float:
        """Load every kernel once per process (numba: compile or load its cache); the seconds it took."""
        if cls.compile_seconds is None:
            started = time.perf_counter()
            if backend(standard(Shape(3, 3))) == "numba":
                from .numba_search import warm_up

                warm_up()
            cls.compile_seconds = time.perf_counter() - started
        return cls.compile_seconds

    def solve(self, puzzle: Puzzle, *, time_limit: float | None = None, canonical: bool = False) -> SolveResult:
        check_kinds(self, puzzle)
        started = time.perf_counter()
        deadline = Deadline(time_limit)  # the search's set-up, made first, counts against it too
        try:
            run = search_run(puzzle, canonical, self.wdeg, deadline)
        except TimeUp:  # the time ran out while the rule set's tables were built
            return SolveResult(self.name, Status.TIME_LIMIT, None, time.perf_counter() - started,
                               {"nodes": 0, "backtracks": 0})
        try:
            grid = run.next(deadline)
            status = Status.NO_SOLUTION if grid is None else Status.SOLVED
        except TimeUp:
            grid, status = None, Status.TIME_LIMIT
        return SolveResult(self.name, status, grid, time.perf_counter() - started, run.stats())

    def count(self, puzzle: Puzzle, *, limit: int = 2, time_limit: float | None = None) -> CountResult:
        check_kinds(self, puzzle)
        check_limit(limit)
        started = time.perf_counter()
        deadline = Deadline(time_limit)
        try:
            run = search_run(puzzle, False, self.wdeg, deadline)
        except TimeUp:
            return CountResult(self.name, 0, limit, Status.TIME_LIMIT, time.perf_counter() - started,
                               {"nodes": 0, "backtracks": 0})
        found, status = 0, Status.NO_SOLUTION
        try:
            while found < limit and run.next(deadline) is not None:
                found += 1
                status = Status.SOLVED
        except TimeUp:
            status = Status.TIME_LIMIT
        return CountResult(self.name, found, limit, status, time.perf_counter() - started, run.stats())

    def solve_batch(self, givens, shape: Shape, *, time_limit: float | None = None, rules: Rules | None = None):
        """Many puzzles of one shape in one compiled loop (see ``batch.py``): a ``BatchResults``.

        ``rules`` (standard when None) hold for every puzzle of the batch."""
        from ..batch import checked_givens  # numpy-only module: imported where batches are made

        if rules is not None:
            if rules.shape != shape:
                raise ValueError(f"the rules are for a {rules.shape}, the batch is of {shape}")
            check_kinds(self, Puzzle(shape, (0,) * shape.cells, rules))
        givens = checked_givens(givens, shape)
        if time_limit is not None and not float(time_limit) > 0:
            raise ValueError(f"time limit must be positive, not {time_limit}")
        rules = standard(shape) if rules is None else rules
        if backend(rules) == "c":
            return c_solve_batch(givens, shape, time_limit, self.wdeg, self.name, rules)
        from .numba_search import solve_batch

        return solve_batch(givens, shape, time_limit, self.wdeg, self.name, rules)
