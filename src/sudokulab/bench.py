"""Run solvers over puzzle sets and report what they did, the way solver competitions do.

Every answer goes through the independent checker (``grid.solution_error``): a wrong grid, a
"no solution" contradicted by another solver's checked grid, or a solver that raises is a *wrong*
answer, reported on stderr with its puzzle, never folded into a statistic.

Memory stays flat however long the dataset: puzzles are streamed, rows are written as they come,
and each (dataset, solver) keeps only its per-puzzle times (8 bytes each, for the quantiles) and
running sums of the effort figures. Each process builds one instance per solver and reuses it over
all puzzles, so a paradigm that prepares per board shape pays for it once.

Times are the solvers' own ``seconds`` (wall time). A timed-out puzzle counts with the time it was
given, so with timeouts the quantiles are lower bounds. ``puzzles/s`` is puzzles over the sum of
per-puzzle times: the rate of one process, whatever ``jobs`` is. Each call is also timed in CPU
seconds of the process (``puzzles/cpu-s``), the steadier figure when other work shares the cores.
"""

from __future__ import annotations

import csv
import json
import math
import os
import sys
import time
from array import array
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any

from . import solvers as registry
from .boj import format_line, format_puzzle
from .datasets import Entry, read_dataset
from .errors import SudokuError, UsageError
from .grid import Puzzle, solution_error
from .solvers.base import Solver, Stat, Status

EFFORT_KEYS = ("nodes", "backtracks", "decisions", "conflicts", "propagations", "restarts", "branches")
"""Effort figures that get a CSV column and a column of means in the summary, when reported."""

CSV_FIELDS = (
    "dataset", "index", "line", "solver", "status", "seconds", "cpu_seconds", "valid", *EFFORT_KEYS, "other_stats",
)
ERROR = "error"
"""The status written for a solver that raised instead of answering (counted as wrong)."""

DEFAULT_TIME_LIMIT = 10.0
CLASSIC = "backtrack"
"""Left out of the default solver list: it needs more than 10 s on many published puzzles."""


def default_solvers() -> list[str]:
    """Every registered solver but the classic baseline (ask for it by name, with a slice)."""
    return [name for name in registry.names() if name != CLASSIC]


@dataclass(frozen=True)
class Dataset:
    """A named source of puzzles: a dataset file (streamed) or puzzles in memory (generated)."""

    name: str
    path: Path | None = None
    puzzles: tuple[Puzzle, ...] | None = None
    box: tuple[int, int] | None = None
    limit: int | None = None
    """Only the first ``limit`` entries (bad ones included) are run."""

    @classmethod
    def from_path(cls, path: str | Path, *, name: str | None = None, box: tuple[int, int] | None = None,
                  limit: int | None = None) -> Dataset:
        path = Path(path)
        return cls(name or ("stdin" if str(path) == "-" else path.stem), path=path, box=box, limit=limit)

    @classmethod
    def from_puzzles(cls, name: str, puzzles: Iterable[Puzzle]) -> Dataset:
        return cls(name, puzzles=tuple(puzzles))

    def entries(self) -> Iterator[Entry]:
        if self.puzzles is not None:
            source: Iterable[Entry] = (Entry(i, i + 1, p) for i, p in enumerate(self.puzzles))
        else:
            source = read_dataset(self.path or "-", self.box)
        for entry in source:
            if self.limit is not None and entry.index >= self.limit:
                return
            yield entry

    def estimate(self) -> int | None:
        """A quick count of the entries for the progress bar (exact for one-line files)."""
        if self.puzzles is not None:
            found = len(self.puzzles)
        elif self.path is None or str(self.path) == "-":
            return self.limit
        else:
            found, previous_blank = 0, True
            try:
                with open(self.path, encoding="utf-8", errors="replace") as stream:
                    for raw in stream:
                        text = raw.strip()
                        if text and not text.startswith("#") and (previous_blank or " " not in text):
                            found += 1
                        previous_blank = not text
            except OSError as exc:
                raise UsageError(f"cannot read '{self.path}': {exc.strerror or exc}") from None
        return found if self.limit is None else min(found, self.limit)


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


def check_puzzle(puzzle: Puzzle, named: Sequence[tuple[str, Solver]], time_limit: float | None) -> list[Answer]:
    """Every solver on one puzzle, each answer checked.

    A grid must pass the checker. "No solution" is wrong when another solver found a checked grid,
    and stands otherwise (nothing cheap can confirm it); a time limit claims nothing.
    """
    out: list[Answer] = []
    for name, solver in named:
        cpu = time.process_time()
        try:
            result = solver.solve(puzzle, time_limit=time_limit)
            cpu = time.process_time() - cpu
        except SudokuError:
            raise  # a usage problem (an option the solver lacks), not a wrong answer
        except Exception as exc:  # noqa: BLE001 - a crash is a bug found: reported, not fatal
            out.append(Answer(name, ERROR, 0.0, False, {}, f"raised {type(exc).__name__}: {exc}"))
            continue
        problem = solution_error(result.grid, puzzle) if result.status is Status.SOLVED else None
        out.append(Answer(name, result.status.value, result.seconds, problem is None, dict(result.stats), problem, cpu))
    found = next((a.solver for a in out if a.status == Status.SOLVED.value and a.valid), None)
    if found is not None:
        for i, a in enumerate(out):
            if a.status == Status.NO_SOLUTION.value:
                out[i] = replace(a, valid=False, problem=f"said no solution, but {found} found a checked one")
    return out


class _Tally:
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
class Summary:
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
    def of(cls, dataset: str, solver: str, tally: _Tally) -> Summary:
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

    summaries: tuple[Summary, ...]
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

    @property
    def wrong(self) -> int:
        return sum(s.wrong for s in self.summaries)

    def how_measured(self) -> str:
        limit = "none" if self.time_limit is None else f"{self.time_limit:g} s per puzzle"
        load = "" if self.load is None else f", load average {self.load:.2f} at start"
        order = "one solver at a time" if self.by_solver else "solvers taking turns on each puzzle"
        return (f"{order}, jobs {self.jobs}, time limit {limit}, {self.cores or '?'} cores (os.cpu_count){load}; "
                f"wall {self.wall_seconds:.1f} s; puzzles/s = puzzles / sum of per-puzzle wall times (one process), "
                f"puzzles/cpu-s the same over the process's CPU time")


# --- workers -------------------------------------------------------------------------------------

_WORKER: dict[str, Any] = {}


def _open_solvers(names: Sequence[str], options: Mapping[str, Mapping[str, Any]]) -> list[tuple[str, Solver]]:
    opened: list[tuple[str, Solver]] = []
    try:
        for name in names:
            opened.append((name, registry.get(name, **options.get(name, {}))))
    except BaseException:
        _close(opened)
        raise
    return opened


def _close(named: Sequence[tuple[str, Solver]]) -> None:
    for _, solver in named:
        solver.close()


def _init_worker(names: Sequence[str], options: Mapping[str, Mapping[str, Any]], time_limit: float | None) -> None:
    """Each worker process builds its own solver instances once and keeps them."""
    _WORKER["solvers"] = _open_solvers(names, options)
    _WORKER["time_limit"] = time_limit


def _work(chunk: Sequence[Puzzle]) -> list[list[Answer]]:
    return [check_puzzle(puzzle, _WORKER["solvers"], _WORKER["time_limit"]) for puzzle in chunk]


def _chunk_size(puzzle: Puzzle) -> int:
    """Enough puzzles per task to hide the inter-process cost, few enough to spread the work."""
    return max(1, min(32, 2000 // puzzle.shape.cells))


# --- the run -------------------------------------------------------------------------------------

def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _puzzle_text(puzzle: Puzzle) -> str:
    return format_line(puzzle) if puzzle.n <= 9 else "\n" + format_puzzle(puzzle).rstrip("\n")


def _unique_names(datasets: Sequence[Dataset]) -> list[Dataset]:
    seen: dict[str, int] = {}
    out = []
    for dataset in datasets:
        seen[dataset.name] = seen.get(dataset.name, 0) + 1
        if seen[dataset.name] > 1:
            dataset = Dataset(f"{dataset.name}#{seen[dataset.name]}", dataset.path, dataset.puzzles,
                              dataset.box, dataset.limit)
        out.append(dataset)
    return out


def _open_out(path: str | Path | None) -> IO[str] | None:
    if path is None:
        return None
    try:
        return open(path, "w", encoding="utf-8", newline="")
    except OSError as exc:
        raise UsageError(f"cannot write '{path}': {exc.strerror or exc}") from None


def run_bench(
    datasets: Sequence[Dataset | str | Path],
    solver_names: Sequence[str] | None = None,
    *,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    jobs: int = 1,
    options: Mapping[str, Mapping[str, Any]] | None = None,
    csv_path: str | Path | None = None,
    json_path: str | Path | None = None,
    progress: bool = True,
    warn: Callable[[str], None] = _stderr,
    by_solver: bool = False,
) -> BenchReport:
    """Run each solver on each puzzle of each dataset and sum it up (see the module docstring).

    ``options`` maps a solver name to its keyword options. ``warn`` receives each wrong answer
    (with its puzzle) and each dataset's bad-entry count as one message.

    By default the solvers take turns on each puzzle, so a change of load hits them alike and a
    "no solution" is held against the other solvers' grids. ``by_solver`` runs each solver over a
    whole dataset in turn (the file is read once per solver; not from stdin), for the rate each
    reaches alone: taking turns, each call finds the CPU caches full of the other solvers' data
    (measured on 17_clue: ``sat`` 2,892 puzzles/s beside two others, 7,674/s alone). Every grid
    is still checked; a "no solution" then stands unless it is a wrong grid.
    """
    names = list(solver_names) if solver_names else default_solvers()
    for name in names:
        registry.solver_class(name)  # unknown names fail before any work
    if len(set(names)) != len(names):
        raise UsageError(f"a solver is named twice in {', '.join(names)}")
    if jobs < 1:
        raise UsageError(f"jobs must be a positive whole number, not {jobs}")
    if by_solver and jobs > 1:
        raise UsageError("one solver at a time runs in one process: drop --jobs or --by-solver")
    options = options or {}
    sets = _unique_names([d if isinstance(d, Dataset) else Dataset.from_path(d) for d in datasets])
    for dataset in sets:
        if dataset.path is not None and str(dataset.path) != "-" and not dataset.path.is_file():
            raise UsageError(f"cannot read '{dataset.path}': no such file")

    csv_stream, json_stream = _open_out(csv_path), _open_out(json_path)
    writer = csv.DictWriter(csv_stream, CSV_FIELDS) if csv_stream else None
    if writer:
        writer.writeheader()
    tallies: dict[tuple[str, str], _Tally] = {}
    totals: dict[str, int] = {}
    bad: dict[str, int] = {}
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    started = time.perf_counter()

    def record(dataset: str, index: int, line: int, puzzle: Puzzle, answers: list[Answer], first: bool = True) -> None:
        if first:
            totals[dataset] = totals.get(dataset, 0) + 1
        for a in answers:
            row = Row(dataset, index, line, a.solver, a.status, a.seconds, a.valid, a.stats, a.problem, a.cpu_seconds)
            tallies[dataset, a.solver].add(row)
            if writer:
                writer.writerow(row.as_csv())
            if json_stream:
                json_stream.write(json.dumps(row.as_json(), separators=(",", ":")) + "\n")
            if not row.valid:
                warn(f"WRONG: solver {row.solver} on {dataset} line {line} (puzzle {index + 1}): {row.problem}; "
                     f"puzzle: {_puzzle_text(puzzle)}")

    named = _open_solvers(names, options)  # in this process: also checks the options before any work
    pool = None
    try:
        if jobs > 1:
            _close(named)
            named = []
            pool = _pool(names, options, time_limit, jobs)
        with _progress(progress) as bar:
            for dataset in sets:
                totals.setdefault(dataset.name, 0)
                for name in names:
                    tallies.setdefault((dataset.name, name), _Tally())
                estimate = dataset.estimate()
                task = bar.add_task(dataset.name, total=None if estimate is None else estimate * len(names))
                entries = _good_entries(dataset, bad, warn)
                if pool is None:
                    rereadable = dataset.path is None or str(dataset.path) != "-"
                    groups = [[pair] for pair in named] if by_solver and rereadable else [named]
                    for turn, group in enumerate(groups):
                        if turn:  # the same entries again: their bad ones are already counted
                            entries = _good_entries(dataset, {}, lambda _message: None)
                        for entry in entries:
                            assert entry.puzzle is not None
                            record(dataset.name, entry.index, entry.line, entry.puzzle,
                                   check_puzzle(entry.puzzle, group, time_limit), first=turn == 0)
                            bar.advance(task, len(group))
                else:
                    _run_parallel(pool, entries, jobs,
                                  lambda e, a, ds=dataset.name: record(ds, e.index, e.line, e.puzzle, a),
                                  lambda k, t=task: bar.advance(t, k * len(names)))
                bar.update(task, completed=totals[dataset.name] * len(names), total=totals[dataset.name] * len(names))
                if bad.get(dataset.name):
                    warn(f"{dataset.name}: {bad[dataset.name]} bad entries skipped (not puzzles)")
    finally:
        _close(named)
        if pool is not None:
            pool.shutdown(cancel_futures=True)
        for stream in (csv_stream, json_stream):
            if stream:
                stream.close()

    summaries = tuple(Summary.of(ds, name, tally) for (ds, name), tally in tallies.items())
    solved = {}
    for (ds, name), tally in tallies.items():
        solved.setdefault(ds, {})[name] = tuple(sorted(tally.solved_times))
    return BenchReport(summaries, solved, totals, bad, tuple(names), time_limit, jobs, os.cpu_count(), load,
                       time.perf_counter() - started, by_solver)


def _good_entries(dataset: Dataset, bad: dict[str, int], warn: Callable[[str], None]) -> Iterator[Entry]:
    """The entries that parsed; the others are counted, and the first few named."""
    for entry in dataset.entries():
        if entry.ok:
            yield entry
            continue
        bad[dataset.name] = bad.get(dataset.name, 0) + 1
        if bad[dataset.name] <= 3:
            warn(f"{dataset.name}: bad entry skipped: {entry.error}")


def _pool(names: Sequence[str], options: Mapping[str, Mapping[str, Any]], time_limit: float | None,
          jobs: int) -> Any:
    """``jobs`` worker processes, each with its own solver instances for the whole run."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # spawn: the same behaviour on every platform, and safe beside the progress bar's thread.
    return ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"), initializer=_init_worker,
                               initargs=(list(names), {k: dict(v) for k, v in options.items()}, time_limit))


def _run_parallel(pool: Any, entries: Iterator[Entry], jobs: int, record: Callable[[Entry, list[Answer]], None],
                  advance: Callable[[int], None]) -> None:
    """Chunks of puzzles over the pool, a bounded number in flight, results in file order."""
    pending: deque = deque()

    def collect() -> None:
        chunk, future = pending.popleft()
        for entry, answers in zip(chunk, future.result()):
            record(entry, answers)
        advance(len(chunk))

    chunk: list[Entry] = []
    for entry in entries:
        assert entry.puzzle is not None
        chunk.append(entry)
        if len(chunk) >= _chunk_size(entry.puzzle):
            pending.append((chunk, pool.submit(_work, [e.puzzle for e in chunk])))
            chunk = []
            while len(pending) >= 4 * jobs:
                collect()
    if chunk:
        pending.append((chunk, pool.submit(_work, [e.puzzle for e in chunk])))
    while pending:
        collect()


def _progress(enabled: bool):
    """A transient rich progress bar on stderr; a silent stand-in when disabled or not a terminal."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    return Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=console, transient=True, disable=not enabled or not console.is_terminal,
    )


# --- reports -------------------------------------------------------------------------------------

def format_seconds(seconds: float) -> str:
    """A time with three significant figures in a readable unit.

    >>> format_seconds(0.000123), format_seconds(0.0456), format_seconds(12.345)
    ('123 µs', '45.6 ms', '12.3 s')
    """
    if math.isnan(seconds):
        return "-"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.3g} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.3g} ms"
    return f"{seconds:.3g} s"


def _effort(summary: Summary) -> str:
    """A solver's mean effort figures as one cell: each paradigm counts different things, so one
    column per figure would be mostly empty."""
    figures = [(k, summary.means[k]) for k in EFFORT_KEYS if k in summary.means]
    return ", ".join(f"{k} {v:,.0f}" if v >= 100 else f"{k} {v:.1f}" for k, v in figures) or "-"


def _cells(summary: Summary, show_no_solution: bool) -> list[str]:
    cells = [summary.solver, f"{summary.solved}/{summary.puzzles}"]
    if show_no_solution:
        cells.append(str(summary.no_solution))
    cells += [str(summary.timed_out), str(summary.wrong), f"{summary.per_second:,.1f}",
              f"{summary.per_cpu_second:,.1f}"]
    cells += [format_seconds(t) for t in (summary.median, summary.p90, summary.p99, summary.max)]
    cells.append(_effort(summary))
    return cells


def _headers(show_no_solution: bool) -> list[str]:
    return (["solver", "solved"] + (["no solution"] if show_no_solution else [])
            + ["timed out", "wrong", "puzzles/s", "puzzles/cpu-s", "median", "p90", "p99", "max",
               "mean effort per puzzle"])


def _by_dataset(report: BenchReport) -> dict[str, list[Summary]]:
    grouped: dict[str, list[Summary]] = {}
    for summary in report.summaries:
        grouped.setdefault(summary.dataset, []).append(summary)
    return grouped


def _title(report: BenchReport, dataset: str) -> str:
    bad = report.bad.get(dataset, 0)
    return f"{dataset}: {report.totals.get(dataset, 0):,} puzzles" + (f", {bad} bad entries skipped" if bad else "")


def print_summary(report: BenchReport, file: IO[str] | None = None) -> None:
    """The summary tables (one per dataset) and how the figures were measured."""
    from rich.console import Console
    from rich.table import Table

    stream = file or sys.stdout
    console = Console(file=stream, width=None if stream.isatty() else 400)  # files and pipes: never cut
    for dataset, summaries in _by_dataset(report).items():
        show_none = any(s.no_solution for s in summaries)
        table = Table(title=_title(report, dataset), title_justify="left")
        headers = _headers(show_none)
        for i, header in enumerate(headers):
            table.add_column(header, justify="left" if i in (0, len(headers) - 1) else "right")
        for summary in summaries:
            style = "bold red" if summary.wrong else None
            table.add_row(*_cells(summary, show_none), style=style)
        console.print(table)
    console.print(f"measured: {report.how_measured()}", highlight=False, soft_wrap=True)


def summary_markdown(report: BenchReport) -> str:
    """The summary tables as Markdown, for the benchmark report."""
    parts = []
    for dataset, summaries in _by_dataset(report).items():
        show_none = any(s.no_solution for s in summaries)
        headers = _headers(show_none)
        lines = [f"**{_title(report, dataset)}**", "", "| " + " | ".join(headers) + " |",
                 "| --- |" + " ---: |" * (len(headers) - 2) + " --- |"]
        lines += ["| " + " | ".join(_cells(s, show_none)) + " |" for s in summaries]
        parts.append("\n".join(lines))
    parts.append(f"Measured: {report.how_measured()}.")
    return "\n\n".join(parts) + "\n"


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
