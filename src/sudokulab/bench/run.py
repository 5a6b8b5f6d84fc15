"""Run solvers over puzzle sets and report what they did, the way solver competitions do.

Every answer goes through the independent checker (``checking.check_batch``): a wrong grid, a "no
solution" contradicted by another solver's checked grid, or a solver that raises is a *wrong*
answer, reported on stderr with its puzzle, never folded into a statistic. Puzzles travel in
batches of one board shape (``batch.Batch``) carrying their rules, so batch solvers answer with no
Python per puzzle and the check is vectorised; puzzles are streamed and rows written as they come,
so memory stays flat. A solver that cannot honour a batch's rules is skipped for it, and says so.
The worker side is ``bench_worker``, what the run records ``results``; this module is the run loop
over executors.

The three rates, skipped solvers and how times are counted: docs/bench.md.
"""

from __future__ import annotations

import csv
import os
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from .. import solvers as registry
from ..core.grid import Shape
from ..core.puzzle import Puzzle
from ..datasets.reading import Dataset, Entry, no_puzzle
from ..errors import UsageError
from ..execution import executors
from ..execution.cluster import check_where, open_executor
from ..execution.executors import Executor
from ..formats.boj import check_readable, format_line, format_puzzle, source_name
from ..formats.documents import emit_line
from ..formats.outputs import OutputFile
from ..formats.prose import prose
from ..solvers.batch import STATUSES, Batch
from ..ui.progress import bar_shown
from ..ui.progress import progress as report_progress
from .configurations import Configuration, plain
from .results import (
    CSV_FIELDS,
    DEFAULT_TIME_LIMIT,
    SKIPPED,
    BenchReport,
    BenchSummary,
    BenchTally,
    Row,
    read_rows,
    solved_times,
)
from .worker import BatchOutcome, WorkSpec, batch_sizer, release, run_batch, solvers_for, work_of

__all__ = ["DEFAULT_TIME_LIMIT", "BenchReport", "BenchSummary", "Dataset", "Row", "default_solvers", "read_rows",
           "run_bench", "solved_times"]

LEFT_OUT = {
    "backtrack": "the classic search needs more than 10 s on many published puzzles",
    "dimacs": "it starts a SAT program per puzzle (and per step of canonical answers and counts)",
    "minizinc": "it starts the MiniZinc program per puzzle (a few tenths of a second each)",
}
"""Solvers a bench leaves out unless named, and why."""


def entries_word(count: int) -> str:
    """``1 bad entry``, ``2 bad entries``."""
    return f"{count:,} bad {'entry' if count == 1 else 'entries'}"


def default_solvers() -> list[str]:
    """Every installed solver but those ``LEFT_OUT`` (ask for them by name, with a slice)."""
    return [name for name in registry.names() if name not in LEFT_OUT and registry.installed(name)]


# --- the run -------------------------------------------------------------------------------------

def _stderr(message: str) -> None:
    prose(message, stderr=True, indent="  ")


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
    json_lines: IO[str] | None = None,
    progress: bool = True,
    warn: Callable[[str], None] = _stderr,
    by_solver: bool = False,
    cluster: str | None = None,
    batch_size: int | None = None,
    configs: Sequence[Configuration] | None = None,
    on_stopped: Callable[[BenchReport], None] | None = None,
) -> BenchReport:
    """Run each solver on each puzzle of each dataset and sum it up (see the module docstring).

    ``on_stopped``: when Ctrl-C or SIGTERM stops the run, it is given the report of the batches that
    finished (``BenchReport.stopped`` True) before the signal goes on, as pytest and hyperfine show
    what finished; the output files are dropped all the same, being incomplete.

    ``options`` maps a solver name to its keyword options. Each per-puzzle row goes to the CSV file
    ``csv_path``, the JSON Lines file ``json_path`` and the stream ``json_lines`` (``bench --json``:
    standard output), those given. ``warn`` receives each wrong answer
    (with its puzzle) and each dataset's bad-entry count as one message.

    Work goes in batches of puzzles of one shape (``batch_size``, default ``batch_size_for``) to
    this process (``jobs`` 1), a pool of ``jobs`` local processes, or the Dask cluster at
    ``cluster`` (an address, or ``local:N``; ``cluster.connect``). Rows are written as batches
    come back, each with its dataset index: with several workers the files are not in dataset
    order, and sort back by (dataset, index, solver).

    By default the solvers take turns on each batch, so a change of load hits them alike and a
    "no solution" is held against the other solvers' grids. ``by_solver`` runs each solver over a
    whole dataset in turn (the file is read once per solver; not from stdin), for the rate each
    reaches alone: taking turns, each call finds the CPU caches full of the other solvers' data
    (docs/bench.md). Every grid is still checked; a "no solution" then stands unless it is a wrong grid.

    ``configs`` (``configurations.Configuration``, instead of ``solver_names`` and ``options``)
    runs solvers under option sets of their own, one solver under several among them: each is a
    row named after its options, in the same turns as different solvers.
    """
    if configs:
        if solver_names or options:
            raise UsageError("give configurations (--configs) or solvers with options (--solvers, -o), not both")
        chosen = tuple(configs)
    else:
        chosen = plain(list(solver_names) if solver_names else default_solvers(), options)
    for config in chosen:
        registry.solver_class(config.solver)  # unknown names fail before any work
    names = [config.name for config in chosen]
    if len(set(names)) != len(names):
        raise UsageError(f"a configuration is named twice in {', '.join(names)}")
    check_where(jobs, cluster)
    if batch_size is not None and batch_size < 1:
        raise UsageError(f"batch size must be a positive whole number, not {batch_size}")
    sets = _unique_names([d if isinstance(d, Dataset) else Dataset.from_path(d) for d in datasets])
    for dataset in sets:
        if dataset.path is not None:
            check_readable(dataset.path)

    notes = []
    for config in chosen:
        if time_limit is not None and not registry.solver_class(config.solver).capabilities.time_limit:
            notes.append(f"{config.name} cannot honour a time limit: it runs without one")
    outputs = [OutputFile(path, what=what) for path, what in ((csv_path, "CSV"), (json_path, "JSON Lines"))
               if path is not None]  # checked before any work
    csv_stream = None
    json_streams: list[Any] = [json_lines] if json_lines is not None else []
    for out in outputs:
        out.open()
    if csv_path is not None:
        csv_stream = outputs[0]
    if json_path is not None:
        json_streams.append(outputs[-1])
    writer = csv.DictWriter(csv_stream, CSV_FIELDS) if csv_stream else None  # type: ignore[arg-type]
    if writer:
        writer.writeheader()
    tallies: dict[tuple[str, str], BenchTally] = {}
    totals: dict[str, int] = {}
    bad: dict[str, int] = {}
    skipped: dict[str, dict[str, str]] = {}  # dataset -> solver -> why (said once each)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    started = time.perf_counter()
    walls: dict[str, float] = {}  # dataset -> wall seconds from its first batch to its last

    def record(batch: Batch, outcome: BatchOutcome, first: bool) -> None:
        if first:
            totals[batch.dataset] = totals.get(batch.dataset, 0) + len(batch)
        for results, verdicts in outcome.answers:
            tallies[batch.dataset, results.solver].add_batch(results, verdicts.valid)
        for name, why in (outcome.skipped or {}).items():
            said = skipped.setdefault(batch.dataset, {})
            if name in said:
                continue
            said[name] = why
            warn(f"sudokulab: skipped {name} on {batch.dataset}: {why}")
            row = Row(batch.dataset, -1, 0, name, SKIPPED, 0.0, True, {}, why)
            if writer:
                writer.writerow(row.as_csv())
            for stream in json_streams:
                emit_line(row.as_json(), stream)
        if writer or json_streams:
            for row in _rows(batch, outcome):
                if writer:
                    writer.writerow(row.as_csv())
                for stream in json_streams:
                    emit_line(row.as_json(), stream)
        for results, verdicts in outcome.answers:
            for i, problem in sorted(verdicts.problems.items()):
                warn(f"WRONG: solver {results.solver} on {batch.dataset} line {int(batch.line[i])} "
                     f"(puzzle {int(batch.index[i]) + 1}): {problem}; puzzle: {_puzzle_text(batch.puzzle(i))}")

    def _report(stopped: bool = False) -> BenchReport:
        """The report of every batch recorded so far (all of them, unless ``stopped``)."""
        said_notes = list(notes) + [f"{name} skipped on {ds}: {why}" for ds, said in skipped.items()
                                    for name, why in said.items()]
        if stopped:
            said_notes.append(f"stopped by a signal after {sum(totals.values()):,} puzzles: the figures cover "
                              "the batches that finished")
        recorded = {key: tally for key, tally in tallies.items() if len(tally.times) or not stopped}
        summaries = tuple(BenchSummary.of(ds, name, tally, walls.get(ds), _share(tallies, ds, name))
                          for (ds, name), tally in recorded.items()
                          if len(tally.times) or name not in skipped.get(ds, {}))
        solved, counts = {}, {}
        for (ds, name), tally in recorded.items():
            if not len(tally.times) and name in skipped.get(ds, {}):
                continue
            solved.setdefault(ds, {})[name] = tally.solved_times.sample()
            counts.setdefault(ds, {})[name] = len(tally.solved_times)
        where = executor.describe() if executor is not None else "this process"
        ran_jobs = executor.workers if isinstance(executor, (executors.InProcess, executors.ProcessPool)) else jobs
        return BenchReport(summaries, solved, totals, bad, tuple(names), time_limit, ran_jobs, os.cpu_count(), load,
                           time.perf_counter() - started, by_solver, tuple(said_notes), where,
                           executor.retried if executor is not None else 0, batch_size, counts, skipped,
                           configured=bool(configs), stopped=stopped)

    specs: list[WorkSpec] = []
    committed = False
    executor: Executor | None = None
    try:
        whole = WorkSpec(chosen, time_limit)
        specs.append(whole)
        solvers_for(whole)  # in this process: checks the options before any work (and serves what runs here)
        if cluster is not None:
            release(whole)
            specs.clear()
        estimates: dict[str, int | None] = {}
        size = None
        if cluster is None and jobs > 1:  # the pool fits the work: no more processes than batches
            estimates = {dataset.name: dataset.estimate() for dataset in sets}  # names are unique here
            batches, work = work_of(sets, batch_size, list(estimates.values()))
            turns = len(names) if by_solver and all(d.path is None or str(d.path) != "-" for d in sets) else 1
            size = executors.pool_size(jobs, None if batches is None else batches * turns, work)
        executor = open_executor(jobs, cluster, size=size, note=lambda line: warn(f"sudokulab: note: {line}"))
        with report_progress(enabled=progress) as bar:
            for dataset in sets:
                dataset_started = time.perf_counter()
                totals.setdefault(dataset.name, 0)
                for name in names:
                    tallies.setdefault((dataset.name, name), BenchTally())
                # counted for the bar, or to spread the work: not for a silent run in this process
                estimate = estimates[dataset.name] if dataset.name in estimates else \
                    dataset.estimate() if bar_shown(bar) or executor.workers > 1 else None
                task = bar.add_task(dataset.name, total=None if estimate is None else estimate * len(names))
                rereadable = dataset.path is None or str(dataset.path) != "-"
                groups = [[name] for name in names] if by_solver and rereadable else [names]
                for turn, group in enumerate(groups):
                    spec = whole if len(group) == len(names) else whole.only(group)
                    if executor.here and spec not in specs:  # built here: closed here
                        specs.append(spec)
                    size = batch_sizer(batch_size, estimate, executor.workers)
                    tasks = _tasks(dataset, spec, size, bad if turn == 0 else {},
                                   warn if turn == 0 else (lambda _message: None))
                    for (_, batch), outcome in executor.imap(run_batch, tasks):
                        # a batch is recorded whole (counts, tables, rows) or not at all: a signal in
                        # between once left the note "stopped after 7 puzzles" over rows of 6
                        with executors.signals_held(executors.STOPPING):
                            record(batch, outcome, first=turn == 0)
                        bar.advance(task, len(batch) * len(group))
                bar.update(task, completed=totals[dataset.name] * len(names), total=totals[dataset.name] * len(names))
                walls[dataset.name] = time.perf_counter() - dataset_started
                if bad.get(dataset.name):
                    warn(f"{dataset.name}: {entries_word(bad[dataset.name])} skipped (not puzzles)")
                if not totals[dataset.name]:  # no rate to give: not "0 puzzles, inf puzzles/s"
                    where = source_name(dataset.path) if dataset.path is not None else dataset.name
                    raise no_puzzle(where, bad.get(dataset.name, 0))
        for out in outputs:
            out.commit()
        committed = True
    except KeyboardInterrupt:  # Ctrl-C, SIGTERM, SIGHUP: what finished is shown, then the signal goes on
        if on_stopped is not None:
            current = next((d.name for d in sets if d.name not in walls and totals.get(d.name)), None)
            if current is not None:
                walls[current] = time.perf_counter() - started - sum(walls.values())
            on_stopped(_report(stopped=True))
        raise
    finally:
        for spec in specs:
            release(spec)
        if executor is not None:
            executor.close()
        if not committed:
            for out in outputs:
                out.discard()

    return _report()


def _share(tallies: Mapping[tuple[str, str], BenchTally], dataset: str, solver: str) -> float:
    """The solver's share of the dataset's summed per-puzzle times: the part of the dataset's wall time
    counted as its own when the solvers took turns (1 with one solver)."""
    total = sum(tally.times.total for (ds, _), tally in tallies.items() if ds == dataset)
    mine = tallies[dataset, solver].times.total
    return mine / total if total > 0 else 0.0


def _tasks(dataset: Dataset, spec: WorkSpec, size: Callable[[Shape], int], bad: dict[str, int],
           warn: Callable[[str], None]) -> Iterator[tuple[WorkSpec, Batch]]:
    """The dataset's batches, read lazily; the bad entries are counted, and the first few named."""
    for item in dataset.batches(size):
        if isinstance(item, Entry):
            bad[dataset.name] = bad.get(dataset.name, 0) + 1
            if bad[dataset.name] <= 3:
                warn(f"{dataset.name}: bad entry skipped: {item.error}")
            continue
        yield spec, item


def _rows(batch: Batch, outcome: BatchOutcome) -> Iterator[Row]:
    """A batch's rows, puzzle by puzzle and the solvers in turn on each (the order of one process)."""
    statuses = [status.value for status in STATUSES]
    for i in range(len(batch)):
        index, line = int(batch.index[i]), int(batch.line[i])
        for results, verdicts in outcome.answers:
            yield Row(batch.dataset, index, line, results.solver, statuses[int(results.status[i])],
                      float(results.seconds[i]), bool(verdicts.valid[i]), results.stats_of(i),
                      verdicts.problems.get(i), float(results.cpu_seconds[i]))


