"""What a benchmark run records and sums: one row per (dataset, puzzle, solver), summaries per
(dataset, solver), and the report of the whole run; CSV rows read back for plots drawn later.

Memory stays flat however long the dataset: each (dataset, solver) keeps only its per-puzzle
times (8 bytes each, for the quantiles) and running sums of the effort figures.
"""

from __future__ import annotations

import csv
import json
import math
from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .solvers.base import EFFORT as EFFORT_KEYS
from .solvers.base import Stat, Status

if TYPE_CHECKING:
    import numpy as np

    from .batch import BatchResults

CSV_FIELDS = (
    "dataset", "index", "line", "solver", "status", "seconds", "cpu_seconds", "valid", *EFFORT_KEYS, "other_stats",
)


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
        row: dict[str, Any] = {
            "dataset": self.dataset, "index": self.index, "line": self.line, "solver": self.solver,
            "status": self.status, "seconds": f"{self.seconds:.7f}", "cpu_seconds": f"{self.cpu_seconds:.7f}",
            "valid": int(self.valid),
        }
        for key in EFFORT_KEYS:
            row[key] = self.stats.get(key, "")
        other = {k: v for k, v in self.stats.items() if k not in EFFORT_KEYS}
        row["other_stats"] = json.dumps(other, separators=(",", ":")) if other else ""
        return row

    def as_json(self) -> dict[str, Any]:
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


class Tally:
    """What one (dataset, solver) keeps: times for the quantiles, counts and running sums."""

    __slots__ = ("times", "solved_times", "cpu", "counts", "wrong", "sums", "reported")

    def __init__(self) -> None:
        self.times = array("d")
        self.cpu = 0.0
        self.solved_times = array("d")
        self.counts: dict[str, int] = {}
        self.wrong = 0
        self.sums: dict[str, float] = {}
        self.reported: dict[str, int] = {}

    def add_batch(self, results: BatchResults, valid: np.ndarray) -> None:
        """A batch's answers at once: the same sums as ``add`` for each of its rows."""
        import numpy as np

        from .batch import SOLVED, STATUSES

        self.times.frombytes(np.ascontiguousarray(results.seconds, dtype=np.float64).tobytes())
        self.cpu += float(results.cpu_seconds.sum())
        for code, count in enumerate(np.bincount(results.status, minlength=len(STATUSES)).tolist()):
            if count:
                key = STATUSES[code].value
                self.counts[key] = self.counts.get(key, 0) + count
        self.wrong += int((~valid).sum())
        right = (results.status == SOLVED) & valid
        self.solved_times.frombytes(np.ascontiguousarray(results.seconds[right], dtype=np.float64).tobytes())
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
        self.times.append(row.seconds)
        self.cpu += row.cpu_seconds
        self.counts[row.status] = self.counts.get(row.status, 0) + 1
        if not row.valid:
            self.wrong += 1
        elif row.status == Status.SOLVED.value:
            self.solved_times.append(row.seconds)
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

    @property
    def per_second(self) -> float:
        return self.puzzles / self.seconds if self.seconds > 0 else math.inf

    @property
    def per_cpu_second(self) -> float:
        return self.puzzles / self.cpu_seconds if self.cpu_seconds > 0 else math.inf

    @classmethod
    def of(cls, dataset: str, solver: str, tally: Tally) -> BenchSummary:
        ordered = sorted(tally.times)
        return cls(
            dataset, solver, len(ordered),
            solved=len(tally.solved_times),
            no_solution=tally.counts.get(Status.NO_SOLUTION.value, 0),
            timed_out=tally.counts.get(Status.TIME_LIMIT.value, 0),
            wrong=tally.wrong,
            seconds=math.fsum(ordered), cpu_seconds=tally.cpu,
            median=quantile(ordered, 0.5), p90=quantile(ordered, 0.9), p99=quantile(ordered, 0.99),
            max=ordered[-1] if ordered else math.nan,
            means={k: tally.sums[k] / tally.reported[k] for k in tally.sums},
        )


@dataclass(frozen=True)
class BenchReport:
    """Everything a bench run measured, and how it was measured."""

    summaries: tuple[BenchSummary, ...]
    solved_times: Mapping[str, Mapping[str, tuple[float, ...]]]
    """dataset -> solver -> times of the puzzles solved (checked), ascending: the cactus plot's data."""
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
    """Puzzles per batch asked for (None: chosen per board size, see ``bench.batch_size_for``)."""

    @property
    def wrong(self) -> int:
        return sum(s.wrong for s in self.summaries)

    def how_measured(self) -> str:
        limit = "none" if self.time_limit is None else f"{self.time_limit:g} s per puzzle"
        load = "" if self.load is None else f", load average {self.load:.2f} at start"
        order = "one solver at a time" if self.by_solver else "solvers taking turns on each batch"
        retried = f", {self.retried} batches retried after a worker died" if self.retried else ""
        return (f"{order}, where: {self.where}{retried}, time limit {limit}, {self.cores or '?'} cores here "
                f"(os.cpu_count){load}; "
                f"wall {self.wall_seconds:.1f} s; puzzles/s = puzzles / sum of per-puzzle wall times (one process), "
                f"puzzles/cpu-s the same over the process's CPU time")


# --- reading results back ------------------------------------------------------------------------

def read_rows(paths: Iterable[str | Path]) -> Iterator[Row]:
    """Rows back from bench CSV files (for plots drawn after the run)."""
    for path in paths:
        with open(path, encoding="utf-8", newline="") as stream:
            for raw in csv.DictReader(stream):
                stats: dict[str, Stat] = {}
                for key in EFFORT_KEYS:
                    if raw.get(key):
                        stats[key] = float(raw[key]) if "." in raw[key] else int(raw[key])
                if raw.get("other_stats"):
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
