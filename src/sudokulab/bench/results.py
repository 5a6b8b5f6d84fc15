"""What a benchmark run records and sums: one row per (dataset, puzzle, solver), summaries per
(dataset, solver), and the report of the whole run; CSV rows read back for plots drawn later.

Memory stays flat however long the dataset: each (dataset, solver) keeps running sums of the effort
figures and its per-puzzle times in ``Durations``. The rows, the running sums and the summaries are
written and read back by the same field names, so they live together. docs/bench.md.
"""

from __future__ import annotations

import csv
import math
from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..formats.documents import compact
from ..solvers.base import EFFORT as EFFORT_KEYS
from ..solvers.base import Stat, Status

if TYPE_CHECKING:
    import numpy as np

    from ..solvers.batch import BatchResults

CSV_FIELDS = (
    "dataset", "index", "line", "solver", "status", "seconds", "cpu_seconds", "valid", *EFFORT_KEYS, "other_stats",
)

DEFAULT_TIME_LIMIT = 10.0
"""Seconds per puzzle and solver of a bench run (``bench.DEFAULT_TIME_LIMIT``; here so that the
command's parser names it without importing ``bench``, which loads numpy)."""

SKIPPED = "skipped"
"""The status of the one row that says a solver was not run on a dataset (it cannot honour the
rules): no index, line, time or validity; its reason is ``problem`` (``reason`` in the files)."""


@dataclass(frozen=True)
class Row:
    """One solver on one puzzle: a line of the CSV."""

    dataset: str
    index: int
    line: int
    solver: str
    status: str
    seconds: float
    valid: bool
    stats: Mapping[str, Stat] = field(default_factory=dict)
    problem: str | None = None
    """Why the answer is wrong, when ``valid`` is False."""
    cpu_seconds: float = 0.0

    def as_csv(self) -> dict[str, Any]:
        if self.status == SKIPPED:
            return {"dataset": self.dataset, "solver": self.solver, "status": SKIPPED,
                    "other_stats": compact({"reason": self.problem})}
        row: dict[str, Any] = {
            "dataset": self.dataset, "index": self.index, "line": self.line, "solver": self.solver,
            "status": self.status, "seconds": f"{self.seconds:.7f}", "cpu_seconds": f"{self.cpu_seconds:.7f}",
            "valid": int(self.valid),
        }
        for key in EFFORT_KEYS:
            row[key] = self.stats.get(key, "")
        other = {k: v for k, v in self.stats.items() if k not in EFFORT_KEYS}
        row["other_stats"] = compact(other) if other else ""
        return row

    def as_json(self) -> dict[str, Any]:
        if self.status == SKIPPED:
            return {"dataset": self.dataset, "solver": self.solver, "status": SKIPPED, "reason": self.problem}
        data = {
            "dataset": self.dataset, "index": self.index, "line": self.line, "solver": self.solver,
            "status": self.status, "seconds": self.seconds, "cpu_seconds": self.cpu_seconds, "valid": self.valid,
            "stats": dict(self.stats),
        }
        if self.problem:
            data["problem"] = self.problem
        return data


@dataclass(frozen=True)
class Answer:
    """What one solver answered on one puzzle, after the checks (what a worker sends back)."""

    solver: str
    status: str
    seconds: float
    valid: bool
    stats: Mapping[str, Stat]
    problem: str | None = None
    cpu_seconds: float = 0.0


class Durations:
    """Per-puzzle seconds in bounded memory: exact up to ``EXACT`` values, then a log histogram.

    Why: a ten-million-puzzle run over twenty configurations would otherwise keep 1.6 GB of times
    for its quantiles. Up to ``EXACT`` values (8 MB) every figure is exact; past it the values fold
    into bins ``RATIO`` wide (a few kilobytes) and a quantile is its bin's geometric middle (within
    half a bin, 0.5%). The count, the sum and the maximum stay exact.
    """

    EXACT = 1_000_000
    RATIO = 1.01
    FLOOR = 1e-9
    """Times at or below a nanosecond share the first bin."""

    __slots__ = ("exact", "bins", "count", "total", "largest", "_ordered")

    def __init__(self) -> None:
        self.exact = array("d")
        self.bins: dict[int, int] | None = None
        self.count = 0
        self.total = 0.0
        self.largest = -math.inf
        self._ordered: tuple[float, ...] | None = None
        """The exact values sorted, kept until the next value: the summary and the plot sort once."""

    def copy(self) -> Durations:
        copied = Durations()
        copied.exact, copied.bins = array("d", self.exact), None if self.bins is None else dict(self.bins)
        copied.count, copied.total, copied.largest = self.count, self.total, self.largest
        copied._ordered = self._ordered
        return copied

    def __len__(self) -> int:
        return self.count

    def append(self, value: float) -> None:
        self._ordered = None
        self.count += 1
        self.total += value
        self.largest = max(self.largest, value)
        if self.bins is None and len(self.exact) < self.EXACT:
            self.exact.append(value)
        else:
            self._fold([value])

    def extend(self, values: np.ndarray) -> None:
        """Many values at once (a batch's times, as a float64 array)."""
        import numpy as np

        if not len(values):
            return
        self._ordered = None
        self.count += len(values)
        self.total += float(np.sum(values))
        self.largest = max(self.largest, float(np.max(values)))
        if self.bins is None and len(self.exact) + len(values) <= self.EXACT:
            self.exact.frombytes(np.ascontiguousarray(values, dtype=np.float64).tobytes())
        else:
            self._fold(values)

    def _fold(self, values: Iterable[float] | np.ndarray) -> None:
        import numpy as np

        if self.bins is None:
            self.bins = {}
            held, self.exact = self.exact, array("d")
            self._fold(np.frombuffer(held, dtype=np.float64) if held else np.zeros(0))
        values = np.asarray(values, dtype=np.float64)
        if not len(values):
            return
        keys = np.floor(np.log(np.maximum(values, self.FLOOR) / self.FLOOR) / math.log(self.RATIO)).astype(np.int64)
        for key, count in zip(*(part.tolist() for part in np.unique(keys, return_counts=True))):
            self.bins[key] = self.bins.get(key, 0) + count

    @property
    def approximate(self) -> bool:
        return self.bins is not None

    def ordered(self) -> tuple[float, ...]:
        """The exact values in ascending order (sorted by numpy: a fifth of ``sorted``'s time on 50,000),
        sorted once until another value comes."""
        if self._ordered is None:
            import numpy as np

            self._ordered = tuple(np.sort(np.frombuffer(self.exact, dtype=np.float64)).tolist()) if self.exact else ()
        return self._ordered

    def quantile(self, q: float) -> float:
        """The q-quantile, as ``quantile`` over the sorted values (NaN when empty)."""
        if self.bins is None:
            return quantile(self.ordered(), q)
        if not self.count:
            return math.nan
        return self._at_ranks([q * (self.count - 1)])[0]

    def _at_ranks(self, ranks: Sequence[float]) -> list[float]:
        """The values at ascending 0-based ranks, from the histogram."""
        assert self.bins is not None
        out: list[float] = []
        seen = 0
        keys = iter(sorted(self.bins.items()))
        key, count = next(keys)
        for rank in ranks:
            while seen + count <= rank:
                seen += count
                key, count = next(keys, (key, count))
                if seen >= self.count:
                    break
            out.append(min(self.FLOOR * self.RATIO ** (key + 0.5), self.largest))
        return out

    def sample(self, points: int | None = None) -> tuple[float, ...]:
        """The values in ascending order: all of them while exact, else ``points`` (default
        ``EXACT``) at evenly spaced ranks, for the cactus plot (see ``BenchReport.solved_counts``)."""
        if self.bins is None:
            return self.ordered()
        points = min(points or self.EXACT, self.count)
        if points <= 1:
            return (self.largest,) if self.count else ()
        values = self._at_ranks([i * (self.count - 1) / (points - 1) for i in range(points)])
        values[-1] = self.largest  # the slowest is known exactly
        return tuple(values)


class BenchTally:
    """What one (dataset, solver) keeps: times for the quantiles, counts and running sums."""

    __slots__ = ("times", "_solved", "cpu", "counts", "wrong", "sums", "reported")

    def __init__(self) -> None:
        self.times = Durations()
        self.cpu = 0.0
        self._solved: Durations | None = None
        """The times of the right answers once some answer was not (until then: ``times`` itself)."""
        self.counts: dict[str, int] = {}
        self.wrong = 0
        self.sums: dict[str, float] = {}
        self.reported: dict[str, int] = {}

    @property
    def solved_times(self) -> Durations:
        """The times of the puzzles solved with a checked grid: ``times`` while every answer was right
        (the common case, so one sort serves the quantiles and the cactus plot)."""
        return self.times if self._solved is None else self._solved

    def _solved_apart(self) -> Durations:
        if self._solved is None:
            self._solved = self.times.copy()
        return self._solved

    def add_batch(self, results: BatchResults, valid: np.ndarray) -> None:
        """A batch's answers at once: the same sums as ``add`` for each of its rows."""
        import numpy as np

        from ..solvers.batch import SOLVED, STATUSES

        right = (results.status == SOLVED) & valid
        if self._solved is not None or not right.all():
            self._solved_apart().extend(results.seconds[right])
        self.times.extend(results.seconds)
        self.cpu += float(results.cpu_seconds.sum())
        for code, count in enumerate(np.bincount(results.status, minlength=len(STATUSES)).tolist()):
            if count:
                key = STATUSES[code].value
                self.counts[key] = self.counts.get(key, 0) + count
        self.wrong += int((~valid).sum())
        k = len(results.status)
        for key, values in results.stats.items():
            if values.dtype.kind == "b":
                continue
            present = ~np.isnan(values) if values.dtype.kind == "f" else slice(None)
            reported = int(np.count_nonzero(present)) if values.dtype.kind == "f" else k
            if reported:
                self.sums[key] = self.sums.get(key, 0.0) + float(values[present].sum())
                self.reported[key] = self.reported.get(key, 0) + reported
        for key, value in results.constant.items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                self.sums[key] = self.sums.get(key, 0.0) + value * k
                self.reported[key] = self.reported.get(key, 0) + k
        for stats in results.other or ():
            for key, value in stats.items():
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    self.sums[key] = self.sums.get(key, 0.0) + value
                    self.reported[key] = self.reported.get(key, 0) + 1

    def add(self, row: Row) -> None:
        right = row.valid and row.status == Status.SOLVED.value
        if self._solved is not None or not right:
            solved = self._solved_apart()
            if right:
                solved.append(row.seconds)
        self.times.append(row.seconds)
        self.cpu += row.cpu_seconds
        self.counts[row.status] = self.counts.get(row.status, 0) + 1
        if not row.valid:
            self.wrong += 1
        for key, value in row.stats.items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                self.sums[key] = self.sums.get(key, 0.0) + value
                self.reported[key] = self.reported.get(key, 0) + 1


def quantile(ordered: Sequence[float], q: float) -> float:
    """The q-quantile of sorted data, interpolating linearly between ranks (NaN when empty).

    >>> quantile([1.0, 2.0, 3.0, 4.0], 0.5), quantile([5.0], 0.99)
    (2.5, 5.0)
    """
    if not ordered:
        return math.nan
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


@dataclass(frozen=True)
class BenchSummary:
    """One solver on one dataset, summed up."""

    dataset: str
    solver: str
    puzzles: int
    solved: int
    no_solution: int
    timed_out: int
    wrong: int
    seconds: float
    cpu_seconds: float
    median: float
    p90: float
    p99: float
    max: float
    means: Mapping[str, float]
    """Mean of each numeric stat over the puzzles that reported it."""
    wall_seconds: float | None = None
    """This solver's part of the dataset's wall time (the dataset's wall time times its share of the
    summed per-puzzle times; all of it with one solver); None when not measured."""

    @property
    def per_second(self) -> float:
        """Puzzles per second of solving (``puzzles/solve-s``): over the sum of the per-puzzle wall times,
        the solver alone, one process."""
        return self.puzzles / self.seconds if self.seconds > 0 else math.inf

    @property
    def per_wall_second(self) -> float | None:
        """Puzzles per second of the run's wall clock (``puzzles/s``, bench's headline): what a run gets,
        reading, checking and start-up included; with --jobs or a cluster every process at once."""
        if self.wall_seconds is None:
            return None
        return self.puzzles / self.wall_seconds if self.wall_seconds > 0 else math.inf

    def document(self, jobs: int, where: str, partial: bool = False) -> dict[str, Any]:
        """The summary as a ``bench --json`` summary row (``schemas/bench.schema.json``, ``summary``);
        ``partial``: a signal stopped the run, the row covers the batches that finished."""
        def number(value: float | None) -> float | None:
            return None if value is None or not math.isfinite(value) else round(value, 9)

        return {"summary": True, "dataset": self.dataset, "solver": self.solver, "puzzles": self.puzzles,
                "solved": self.solved, "no_solution": self.no_solution, "timed_out": self.timed_out,
                "wrong": self.wrong, "seconds": number(self.seconds), "cpu_seconds": number(self.cpu_seconds),
                "wall_seconds": number(self.wall_seconds), "per_second": number(self.per_second),
                "per_cpu_second": number(self.per_cpu_second), "per_wall_second": number(self.per_wall_second),
                "median": number(self.median), "p90": number(self.p90), "p99": number(self.p99),
                "max": number(self.max), "means": {k: number(v) for k, v in self.means.items()},
                "jobs": jobs, "where": where, "partial": partial}

    @property
    def per_cpu_second(self) -> float:
        return self.puzzles / self.cpu_seconds if self.cpu_seconds > 0 else math.inf

    @classmethod
    def of(cls, dataset: str, solver: str, tally: BenchTally, dataset_wall: float | None = None,
           share: float = 1.0) -> BenchSummary:
        times = tally.times
        ordered = None if times.approximate else times.ordered()
        spread = ((quantile(ordered, 0.5), quantile(ordered, 0.9), quantile(ordered, 0.99)) if ordered is not None
                  else (times.quantile(0.5), times.quantile(0.9), times.quantile(0.99)))
        return cls(
            dataset, solver, len(times),
            solved=len(tally.solved_times),
            no_solution=tally.counts.get(Status.NO_SOLUTION.value, 0),
            timed_out=tally.counts.get(Status.TIME_LIMIT.value, 0),
            wrong=tally.wrong,
            seconds=math.fsum(ordered) if ordered is not None else times.total, cpu_seconds=tally.cpu,
            median=spread[0], p90=spread[1], p99=spread[2],
            max=times.largest if len(times) else math.nan,
            means={k: tally.sums[k] / tally.reported[k] for k in tally.sums},
            wall_seconds=None if dataset_wall is None else dataset_wall * share,
        )


@dataclass(frozen=True)
class BenchReport:
    """Everything a bench run measured, and how it was measured."""

    summaries: tuple[BenchSummary, ...]
    solved_times: Mapping[str, Mapping[str, tuple[float, ...]]]
    """dataset -> solver -> times of the puzzles solved (checked), ascending: the cactus plot's data
    (past a million, a sample at evenly spaced ranks: ``Durations.sample``)."""
    totals: Mapping[str, int]
    """dataset -> puzzles run (bad entries not included)."""
    bad: Mapping[str, int]
    """dataset -> entries that did not parse."""
    solvers: tuple[str, ...]
    time_limit: float | None
    jobs: int
    cores: int | None
    load: float | None
    """One-minute load average when the run started (other work on the machine skews timings)."""
    wall_seconds: float
    by_solver: bool = False
    """Each solver over a whole dataset in turn, rather than every solver on each puzzle in turn."""
    notes: tuple[str, ...] = ()
    """What a reader of the figures must know (a solver that could not honour the time limit, ...)."""
    where: str = "this process"
    """Where the work ran (``executors.Executor.describe``)."""
    retried: int = 0
    """Batches run again because a cluster worker died while running them."""
    batch_size: int | None = None
    """Puzzles per batch asked for (None: chosen per board size, see ``bench_worker.batch_size_for``)."""
    solved_counts: Mapping[str, Mapping[str, int]] | None = None
    """dataset -> solver -> puzzles solved (checked): more than ``len(solved_times[...])`` when sampled."""
    skipped: Mapping[str, Mapping[str, str]] | None = None
    """dataset -> solver -> why it was not run there (it cannot honour the rules); also in ``notes``."""
    configured: bool = False
    """Rows are configurations (``bench --configs``): the tables show each one's model size too."""
    stopped: bool = False
    """A signal stopped the run: the figures cover the batches that finished."""

    @property
    def wrong(self) -> int:
        return sum(s.wrong for s in self.summaries)

    def how_measured(self) -> str:
        limit = "none" if self.time_limit is None else f"{self.time_limit:g} s per puzzle"
        load = "" if self.load is None else f", load average {self.load:.2f} at start"
        order = "one solver at a time" if self.by_solver else "solvers taking turns on each batch"
        retried = f", {self.retried} batches retried after a worker died" if self.retried else ""
        share = "; each solver's part of the wall time in proportion to its summed solve times" \
            if len(self.solvers) > 1 else ""
        return (f"{order}, where: {self.where}{retried}, time limit {limit}, {self.cores or '?'} cores here "
                f"(os.cpu_count){load}; wall {self.wall_seconds:.1f} s{share}")

    @property
    def parallel(self) -> bool:
        """Several processes solved at once (--jobs, --cluster): the aggregate rate tells more than one process's."""
        return self.jobs > 1 or self.where != "this process"


# --- reading results back ------------------------------------------------------------------------

def read_rows(paths: Iterable[str | Path]) -> Iterator[Row]:
    """Rows back from bench CSV files (for plots drawn after the run)."""
    for path in paths:
        with open(path, encoding="utf-8", newline="") as stream:
            for raw in csv.DictReader(stream):
                if raw.get("status") == SKIPPED:
                    continue
                stats: dict[str, Stat] = {}
                for key in EFFORT_KEYS:
                    if raw.get(key):
                        stats[key] = float(raw[key]) if "." in raw[key] else int(raw[key])
                if raw.get("other_stats"):
                    import json

                    stats.update(json.loads(raw["other_stats"]))
                yield Row(raw["dataset"], int(raw["index"]), int(raw["line"]), raw["solver"], raw["status"],
                          float(raw["seconds"]), raw["valid"] == "1", stats,
                          cpu_seconds=float(raw.get("cpu_seconds") or 0.0))


def solved_times(rows: Iterable[Row]) -> dict[str, dict[str, list[float]]]:
    """dataset -> solver -> sorted times of the checked solved puzzles, for ``plots.cactus_plot``."""
    out: dict[str, dict[str, list[float]]] = {}
    for row in rows:
        times = out.setdefault(row.dataset, {}).setdefault(row.solver, [])
        if row.valid and row.status == Status.SOLVED.value:
            times.append(row.seconds)
    for per_solver in out.values():
        for times in per_solver.values():
            times.sort()
    return out
