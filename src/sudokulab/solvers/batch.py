"""Puzzles of one shape solved as a batch: arrays in, arrays out.

Why: a compiled search answers a 9x9 puzzle in less time than Python spends per puzzle on building
a ``Puzzle``, a ``SolveResult``, checking the grid and writing a row. So bench (and the cluster
backend) hand solvers a ``Batch``: the givens of k puzzles of one shape as a (k, cells) array, with
the rules they are solved under (pickled by value, so a worker gets them whole), and get back
``BatchResults``: status codes, grids, times and effort as arrays. ``solve_batch`` uses a solver's
batch entry point when it has one and otherwise loops over ``solve``, so every solver takes
batches; answers are checked by ``checking.check_batch``, vectorised and independent of every
solver. numpy is imported here, so only the paths that batch (bench, cluster) import this module.

More: docs/solvers.md.
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.grid import Shape
from ..core.puzzle import Puzzle
from ..core.rules import Rules, standard
from ..errors import SudokuError
from .base import Solver, SolveResult, Stat, Status

STATUSES: tuple[Status, ...] = (Status.SOLVED, Status.NO_SOLUTION, Status.TIME_LIMIT, Status.ERROR)
"""Status codes in batch arrays: ``STATUSES[code]``."""
CODE = {status: code for code, status in enumerate(STATUSES)}
SOLVED, NO_SOLUTION, TIME_LIMIT, ERROR = range(4)

DIGITS = np.uint8
"""Cell values fit a byte up to 255x255; the parser stops at 64x64."""


def checked_givens(givens: np.ndarray, shape: Shape) -> np.ndarray:
    """Givens as a contiguous (k, cells) uint8 array, or ValueError, as ``Puzzle`` refuses bad ones:
    what every batch entry point (and ``Batch``) checks first, in one place."""
    givens = np.asarray(givens)
    if givens.ndim != 2 or givens.shape[1] != shape.cells or givens.dtype.kind not in "ui":
        raise ValueError(f"givens must be a (k, {shape.cells}) array of integers for {shape}, "
                         f"not {givens.dtype} {givens.shape}")
    if givens.size and (int(givens.min()) < 0 or int(givens.max()) > shape.n):
        raise ValueError(f"givens must lie in 0..{shape.n}")
    return np.ascontiguousarray(givens, dtype=DIGITS)


@dataclass(frozen=True)
class Batch:
    """k puzzles of one shape from one dataset, with where each came from."""

    dataset: str
    shape: Shape
    givens: np.ndarray
    """(k, cells) uint8, row-major, 0 for blank."""
    index: np.ndarray
    """(k,) int64: each puzzle's 0-based entry number in its dataset (rows sort back into order by it)."""
    line: np.ndarray
    """(k,) int64: the 1-based line each puzzle starts on."""
    rules: Rules = None  # type: ignore[assignment]  # None means standard, filled in below
    """The rules every puzzle of the batch is solved under."""

    def __post_init__(self) -> None:
        """Bad givens are refused here, as ``Puzzle`` refuses them, so no solver sees them (a solver
        that raised on them would be recorded as a bug of its own)."""
        if self.rules is None:
            object.__setattr__(self, "rules", standard(self.shape))
        elif self.rules.shape != self.shape:
            raise ValueError(f"the rules are for a {self.rules.shape}, the batch is of a {self.shape}")
        if self.givens.dtype != DIGITS:
            raise ValueError(f"givens must be a (k, {self.shape.cells}) array of uint8 for {self.shape}")
        checked_givens(self.givens, self.shape)
        if not len(self.index) == len(self.line) == len(self.givens):
            raise ValueError("a batch has one index and one line per puzzle")

    def __len__(self) -> int:
        return len(self.givens)

    def puzzle(self, i: int) -> Puzzle:
        return Puzzle(self.shape, tuple(int(v) for v in self.givens[i]), self.rules)

    @classmethod
    def of(cls, dataset: str, puzzles: Sequence[Puzzle], index: Sequence[int] | None = None,
           line: Sequence[int] | None = None) -> Batch:
        """A batch from puzzle objects of one shape and one rule set (tests, notebooks, generated sets)."""
        if not puzzles:
            raise ValueError("a batch holds at least one puzzle")
        shape, rules = puzzles[0].shape, puzzles[0].rules
        if any(p.shape != shape for p in puzzles):
            raise ValueError("a batch holds puzzles of one shape")
        if any(p.rules != rules for p in puzzles):
            raise ValueError("a batch holds puzzles of one rule set")
        k = len(puzzles)
        index = np.arange(k, dtype=np.int64) if index is None else np.asarray(index, dtype=np.int64)
        line = index + 1 if line is None else np.asarray(line, dtype=np.int64)
        givens = np.array([p.givens for p in puzzles], dtype=DIGITS).reshape(k, shape.cells)
        return cls(dataset, shape, givens, index, line, rules)


@dataclass
class BatchResults:
    """What one solver did with a batch: one entry per puzzle in every array."""

    solver: str
    status: np.ndarray
    """(k,) int8 codes into ``STATUSES``."""
    grids: np.ndarray
    """(k, cells) uint8: the answer where status is SOLVED, anything elsewhere (zeros by convention)."""
    seconds: np.ndarray
    """(k,) float64: wall seconds per puzzle, as ``SolveResult.seconds``."""
    cpu_seconds: np.ndarray
    """(k,) float64: CPU seconds of the process per puzzle."""
    stats: dict[str, np.ndarray] = field(default_factory=dict)
    """Numeric stats, one array per key (NaN where a puzzle did not report it: float arrays only)."""
    constant: dict[str, Stat] = field(default_factory=dict)
    """Stats with one value for the whole batch (encoding, engine, model size)."""
    other: list[dict[str, Stat]] | None = None
    """Per-puzzle stats that fit neither (rare), or None."""
    errors: dict[int, str] = field(default_factory=dict)
    """Position in the batch -> what the solver raised, for status ERROR."""

    def stats_of(self, i: int) -> dict[str, Stat]:
        """Puzzle i's stats as ``SolveResult.stats`` would hold them."""
        out: dict[str, Stat] = {}
        for key, values in self.stats.items():
            value = values[i]
            if values.dtype.kind == "f":
                if value == value:  # not NaN
                    out[key] = float(value)
            else:
                out[key] = bool(value) if values.dtype.kind == "b" else int(value)
        out.update(self.constant)
        if self.other is not None:
            out.update(self.other[i])
        return out

    def result(self, i: int, shape: Shape) -> SolveResult:
        """Puzzle i's answer as a ``SolveResult`` (for messages and the one-puzzle paths)."""
        status = STATUSES[int(self.status[i])]
        grid = tuple(int(v) for v in self.grids[i]) if status is Status.SOLVED else None
        stats = self.stats_of(i)
        if status is Status.ERROR:
            stats["error"] = self.errors.get(i, "the solver raised")
        return SolveResult(self.solver, status, grid, float(self.seconds[i]), stats)


def pack_results(solver: str, shape: Shape, results: Sequence[SolveResult], cpu: Sequence[float]) -> BatchResults:
    """Per-puzzle ``SolveResult``s as one ``BatchResults`` (the loop for solvers without a batch entry point)."""
    k = len(results)
    status = np.fromiter((CODE[r.status] for r in results), dtype=np.int8, count=k)
    grids = np.zeros((k, shape.cells), dtype=DIGITS)
    for i, r in enumerate(results):
        if r.grid is not None and r.status is Status.SOLVED:
            grids[i] = r.grid
    seconds = np.fromiter((r.seconds for r in results), dtype=np.float64, count=k)
    stats, constant, other = pack_stats([{k2: v for k2, v in r.stats.items() if k2 != "error"} for r in results])
    errors = {i: str(r.stats.get("error", "the solver raised")) for i, r in enumerate(results)
              if r.status is Status.ERROR}
    return BatchResults(solver, status, grids, seconds, np.asarray(cpu, dtype=np.float64), stats, constant, other,
                        errors)


def pack_stats(per_puzzle: Sequence[Mapping[str, Stat]]
               ) -> tuple[dict[str, np.ndarray], dict[str, Stat], list[dict[str, Stat]] | None]:
    """Split per-puzzle stats into arrays (numeric), constants (one value everywhere) and the rest."""
    keys: dict[str, None] = {}
    for stats in per_puzzle:
        keys.update(dict.fromkeys(stats))
    arrays: dict[str, np.ndarray] = {}
    constant: dict[str, Stat] = {}
    rest: dict[str, list[Any]] = {}
    missing = object()
    for key in keys:
        values = [stats.get(key, missing) for stats in per_puzzle]
        first = values[0]
        if first is not missing and all(v == first and type(v) is type(first) for v in values):
            constant[key] = first
        elif all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            arrays[key] = np.array(values, dtype=np.int64)
        elif all(v is missing or (isinstance(v, (int, float)) and not isinstance(v, bool)) for v in values):
            arrays[key] = np.array([np.nan if v is missing else v for v in values], dtype=np.float64)
        else:
            rest[key] = values
    other = None
    if rest:
        other = [{key: values[i] for key, values in rest.items() if values[i] is not missing}
                 for i in range(len(per_puzzle))]
    return arrays, constant, other


def solve_batch(solver: Solver, batch: Batch, time_limit: float | None = None) -> BatchResults:
    """``solver``'s answers to every puzzle of ``batch``, through its batch entry point if it has one.

    The optional entry point a solver may implement::

        solve_batch(givens: ndarray[k, cells] uint8, shape: Shape, *, time_limit: float | None)
            -> BatchResults

    (``time_limit`` is per puzzle, as in ``solve``). An entry point that takes variant rules says so
    with a ``rules`` keyword parameter, and is then given the batch's; otherwise a batch under
    variant rules goes puzzle by puzzle through ``solve``, which reads them from each ``Puzzle``,
    as does every solver without the entry point.

    A batch entry point times each puzzle itself; what the call spends outside those clocks is
    shared out evenly (``_share_the_rest``), so times mean the same on both paths.

    A solver that raises on a puzzle has that puzzle recorded as ERROR (a bug found, not fatal);
    usage errors, Ctrl-C and running out of memory stop the run, as ``compare`` and ``bench`` always have.
    """
    own = getattr(solver, "solve_batch", None)
    variant = {} if batch.rules.is_standard else {"rules": batch.rules}
    if callable(own) and (not variant or _takes_rules(own)):
        started, wall_started = time.process_time(), time.perf_counter()
        try:
            results = own(batch.givens, batch.shape, time_limit=time_limit, **variant)
            _share_the_rest(results, time.perf_counter() - wall_started, time.process_time() - started)
            return results
        except (SudokuError, KeyboardInterrupt, MemoryError):
            raise
        except Exception as exc:  # noqa: BLE001 - the whole batch is the solver's bug, each puzzle an ERROR
            failed = SolveResult(getattr(solver, "name", "?"), Status.ERROR, None, 0.0,
                                 {"error": f"raised {type(exc).__name__}: {exc}"})
            spent = (time.process_time() - started) / len(batch)
            return pack_results(failed.solver, batch.shape, [failed] * len(batch), [spent] * len(batch))
    return solve_each(solver, batch.givens, batch.shape, time_limit, batch.rules)


def _takes_rules(entry_point: Any) -> bool:
    """Whether a batch entry point takes variant rules (a ``rules`` keyword parameter)."""
    try:
        return "rules" in inspect.signature(entry_point).parameters
    except (TypeError, ValueError):
        return False


def _share_the_rest(results: BatchResults, wall: float, cpu: float) -> None:
    """Spread the batch call's time outside its per-puzzle clocks (preparing assumptions, decoding,
    stats) evenly over its puzzles, so that a puzzle's time is all the time spent in the solver for
    it, as it is for ``solve``, and solve-time rates stay comparable with the one-puzzle path."""
    k = len(results.seconds)
    if not k:
        return
    rest, rest_cpu = wall - float(results.seconds.sum()), cpu - float(results.cpu_seconds.sum())
    if rest > 0:
        results.seconds = results.seconds + rest / k
    if rest_cpu > 0:
        results.cpu_seconds = results.cpu_seconds + rest_cpu / k


def solve_each(solver: Solver, givens: np.ndarray, shape: Shape, time_limit: float | None = None,
               rules: Rules | None = None) -> BatchResults:
    """A batch puzzle by puzzle through ``solver.solve`` (under ``rules``, standard by default): the
    loop for solvers without a batch entry point, and for a batch entry point's cases that need one
    call a puzzle anyway."""
    results: list[SolveResult] = []
    cpu: list[float] = []
    for row in givens.tolist():
        puzzle = Puzzle(shape, tuple(row), rules)
        started = time.process_time()
        try:
            results.append(solver.solve(puzzle, time_limit=time_limit))
        except (SudokuError, KeyboardInterrupt, MemoryError):
            raise
        except Exception as exc:  # noqa: BLE001 - a crash is a bug found: reported, not fatal
            results.append(SolveResult(getattr(solver, "name", "?"), Status.ERROR, None, 0.0,
                                       {"error": f"raised {type(exc).__name__}: {exc}"}))
        cpu.append(time.process_time() - started)
    return pack_results(getattr(solver, "name", "?"), shape, results, cpu)
