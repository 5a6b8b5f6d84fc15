"""Run solvers over puzzle sets and report what they did, the way solver competitions do.

Every answer goes through the independent checker (``grid.solution_error``): a wrong grid, a
"no solution" contradicted by another solver's checked grid, or a solver that raises is a *wrong*
answer, reported on stderr with its puzzle, never folded into a statistic.

Memory stays flat however long the dataset: puzzles are streamed, rows are written as they come
(``results.py`` keeps the sums). Each process builds one instance per solver and reuses it over
all puzzles, so a paradigm that prepares per board shape pays for it once.

Times are the solvers' own ``seconds`` (wall time). A timed-out puzzle counts with the time it was
given, so with timeouts the quantiles are lower bounds. ``puzzles/s`` is puzzles over the sum of
per-puzzle times: the rate of one process, whatever ``jobs`` is. Each call is also timed in CPU
seconds of the process (``puzzles/cpu-s``), the steadier figure when other work shares the cores.
"""

from __future__ import annotations

import csv
import json
import os
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from . import solvers as registry
from .boj import format_line, format_puzzle, source_name
from .checking import check_results
from .datasets import Dataset, Entry
from .errors import SudokuError, UsageError
from .grid import Puzzle
from .outputs import OutputFile
from .report import progress as report_progress
from .results import CSV_FIELDS, Answer, BenchReport, BenchSummary, Row, Tally, read_rows, solved_times
from .solvers.base import Solver, SolveResult, Status

__all__ = ["DEFAULT_TIME_LIMIT", "BenchReport", "BenchSummary", "Dataset", "Row", "check_puzzle", "default_solvers",
           "read_rows", "run_bench", "solved_times"]

DEFAULT_TIME_LIMIT = 10.0
LEFT_OUT = {
    "backtrack": "the classic search needs more than 10 s on many published puzzles",
    "dimacs": "it starts a SAT program per puzzle (and per step of canonical answers and counts)",
}
"""Solvers a bench leaves out unless named, and why."""


def default_solvers() -> list[str]:
    """Every installed solver but those ``LEFT_OUT`` (ask for them by name, with a slice)."""
    return [name for name in registry.names() if name not in LEFT_OUT and registry.installed(name)]


def check_puzzle(puzzle: Puzzle, named: Sequence[tuple[str, Solver]], time_limit: float | None) -> list[Answer]:
    """Every solver on one puzzle, each answer checked by ``checking.check_results`` (the one rule).

    A solver that raises is recorded as ``Status.ERROR``: a bug found, reported, not fatal.
    """
    results: list[SolveResult] = []
    cpu: list[float] = []
    for name, solver in named:
        started = time.process_time()
        try:
            results.append(solver.solve(puzzle, time_limit=time_limit))
        except (SudokuError, KeyboardInterrupt, MemoryError):
            raise  # a usage problem (an option the solver lacks), or the user stopping the run
        except Exception as exc:  # noqa: BLE001 - a crash is a bug found: reported, not fatal
            results.append(SolveResult(name, Status.ERROR, None, 0.0, {"error": f"raised {type(exc).__name__}: {exc}"}))
        cpu.append(time.process_time() - started)
    return [
        Answer(name, c.result.status.value, c.result.seconds, c.right is not False,
               {k: v for k, v in c.result.stats.items() if k != "error"}, c.problem, seconds)
        for (name, _), c, seconds in zip(named, check_results(puzzle, results), cpu)
    ]


# --- workers -------------------------------------------------------------------------------------

_WORKER: dict[str, Any] = {}


def _open_solvers(names: Sequence[str], options: Mapping[str, Mapping[str, Any]],
                  time_limit: float | None) -> list[tuple[str, Solver]]:
    """One instance per solver; one that cannot honour a time limit runs without (the report notes it)."""
    opened: list[tuple[str, Solver]] = []
    try:
        for name in names:
            solver = registry.get(name, **options.get(name, {}))
            if time_limit is not None and not solver.capabilities.time_limit:
                solver = _Unlimited(solver)
            opened.append((name, solver))
    except BaseException:
        _close(opened)
        raise
    return opened


class _Unlimited:
    """A solver that cannot honour a time limit, asked without one."""

    def __init__(self, solver: Solver):
        self.solver = solver

    def solve(self, puzzle: Puzzle, *, time_limit: float | None = None, canonical: bool = False) -> SolveResult:
        return self.solver.solve(puzzle, canonical=canonical)

    def close(self) -> None:
        self.solver.close()


def _close(named: Sequence[tuple[str, Solver]]) -> None:
    for _, solver in named:
        solver.close()


def _init_worker(names: Sequence[str], options: Mapping[str, Mapping[str, Any]], time_limit: float | None) -> None:
    """Each worker process builds its own solver instances once and keeps them; Ctrl-C is the parent's."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER["solvers"] = _open_solvers(names, options, time_limit)
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
            raise UsageError(f"cannot read '{source_name(dataset.path)}': no such file")

    notes = []
    for name in names:
        if time_limit is not None and not registry.solver_class(name).capabilities.time_limit:
            notes.append(f"{name} cannot honour a time limit: it runs without one")
    outputs = [OutputFile(path, what=what) for path, what in ((csv_path, "CSV"), (json_path, "JSON Lines"))
               if path is not None]  # checked before any work
    csv_stream = json_stream = None
    for out in outputs:
        out.open()
    if csv_path is not None:
        csv_stream = outputs[0]
    if json_path is not None:
        json_stream = outputs[-1]
    writer = csv.DictWriter(csv_stream, CSV_FIELDS) if csv_stream else None  # type: ignore[arg-type]
    if writer:
        writer.writeheader()
    tallies: dict[tuple[str, str], Tally] = {}
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

    pool = None
    named: list[tuple[str, Solver]] = []
    committed = False
    try:
        named = _open_solvers(names, options, time_limit)  # in this process: checks the options before any work
        if jobs > 1:
            _close(named)
            named = []
            pool = _pool(names, options, time_limit, jobs)
        with report_progress(enabled=progress) as bar:
            for dataset in sets:
                totals.setdefault(dataset.name, 0)
                for name in names:
                    tallies.setdefault((dataset.name, name), Tally())
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
        for out in outputs:
            out.commit()
        committed = True
    finally:
        _close(named)
        if pool is not None:
            if committed:
                pool.close()
            else:
                pool.terminate()
            pool.join()
            pool = None  # the traceback of an interrupt keeps this frame: let the pool's queues go now
        if not committed:
            for out in outputs:
                out.discard()

    summaries = tuple(BenchSummary.of(ds, name, tally) for (ds, name), tally in tallies.items())
    solved = {}
    for (ds, name), tally in tallies.items():
        solved.setdefault(ds, {})[name] = tuple(sorted(tally.solved_times))
    return BenchReport(summaries, solved, totals, bad, tuple(names), time_limit, jobs, os.cpu_count(), load,
                       time.perf_counter() - started, by_solver, tuple(notes))


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

    # spawn: the same behaviour on every platform, and safe beside the progress bar's thread. A
    # multiprocessing Pool rather than a ProcessPoolExecutor: on Ctrl-C or an error it can be
    # terminated at once, leaving no worker to finish its chunk behind our back.
    return multiprocessing.get_context("spawn").Pool(
        jobs, initializer=_init_worker, initargs=(list(names), {k: dict(v) for k, v in options.items()}, time_limit),
    )


def _run_parallel(pool: Any, entries: Iterator[Entry], jobs: int, record: Callable[[Entry, list[Answer]], None],
                  advance: Callable[[int], None]) -> None:
    """Chunks of puzzles over the pool, a bounded number in flight, results in file order."""
    pending: deque = deque()

    def collect() -> None:
        chunk, future = pending.popleft()
        for entry, answers in zip(chunk, future.get()):
            record(entry, answers)
        advance(len(chunk))

    chunk: list[Entry] = []
    for entry in entries:
        assert entry.puzzle is not None
        chunk.append(entry)
        if len(chunk) >= _chunk_size(entry.puzzle):
            pending.append((chunk, pool.apply_async(_work, ([e.puzzle for e in chunk],))))
            chunk = []
            while len(pending) >= 4 * jobs:
                collect()
    if chunk:
        pending.append((chunk, pool.apply_async(_work, ([e.puzzle for e in chunk],))))
    while pending:
        collect()


