"""A study run: solvers over an instance family swept along a parameter, with repeats, resumable.

Every (instance, configuration, repeat) is one **run**, one row of ``runs.jsonl`` in the study's
folder, appended and flushed as it finishes. A rerun of the same command reads the rows back and
runs only what is missing (a row counts when its instance key and digest, ``families.Instance``,
its configuration, repeat and time limit match), so a stopped study loses at most the runs in
flight and grows by rerunning it with more. Each run builds its solver afresh, so its time does not
depend on what ran before; a repeat r of a solver with a ``seed`` option runs with seed r. Every
answer goes through the independent checker (``checking.check_results``). The work is one task per
(instance, repeat), its configurations taking turns on it, wherever it runs (``execution``).

The rows, resuming, repeats and seeds: docs/study.md.
"""

from __future__ import annotations

import fcntl
import json
import math
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from .. import solvers as registry
from ..errors import UsageError
from ..execution.cluster import check_where, open_executor
from ..execution.executors import STOPPING, signals_held
from ..formats.documents import compact
from ..solvers.base import EFFORT, Status
from ..ui.progress import progress as report_progress
from .configurations import Configuration
from .families import Family, Instance
from .worker import lacks_rules

RUNS = "runs.jsonl"
"""The study's data: one JSON object a line, a run each (docs/study.md lists the fields)."""

LOCK = ".study.lock"

SKIPPED = "skipped"
"""The status of a run not made: its solver cannot honour the instance's rules."""

DECIDED = (Status.SOLVED.value, Status.NO_SOLUTION.value)


@dataclass(frozen=True)
class Task:
    """One instance for one repeat, and the configurations still to run on it."""

    instance: Instance
    configs: tuple[Configuration, ...]
    repeat: int
    time_limit: float


def seeded(config: Configuration, repeat: int) -> tuple[Configuration, int | None]:
    """The configuration as repeat ``repeat`` runs it, and the seed it got: ``seed=repeat`` for a
    solver that declares a ``seed`` option the configuration leaves open; None (unchanged) otherwise."""
    declared = {option.name for option in getattr(registry.solver_class(config.solver), "options", ())}
    if "seed" not in declared or any(key == "seed" for key, _ in config.options):
        given = dict(config.options).get("seed")
        return config, given if isinstance(given, int) else None
    return replace(config, options=(*config.options, ("seed", repeat)), written=config.written), repeat


def run_task(task: Task) -> list[dict[str, Any]]:
    """The worker side: each configuration on the instance, a fresh solver each, every answer checked."""
    import numpy as np

    from ..solvers.batch import DIGITS, solve_each
    from ..verdicts.checking import check_results

    puzzle = task.instance.puzzle
    done: list[tuple[Configuration, int | None, Any, float]] = []
    skipped: list[tuple[Configuration, str]] = []
    givens = np.array([puzzle.givens], dtype=DIGITS)
    for config in task.configs:
        run_as, seed = seeded(config, task.repeat)
        with registry.get(run_as.solver, **run_as.options_dict()) as solver:
            missing = lacks_rules(solver, puzzle.rules)
            if missing:
                skipped.append((config, missing))
                continue
            limited = task.time_limit if solver.capabilities.time_limit else None
            answers = solve_each(solver, givens, puzzle.shape, limited, puzzle.rules)
        done.append((config, seed, answers.result(0, puzzle.shape), float(answers.cpu_seconds[0])))
    verdicts = check_results(puzzle, [result for _, _, result, _ in done])
    worker = f"{os.uname().nodename if hasattr(os, 'uname') else '?'}:{os.getpid()}"
    rows = [_row(task, config, seed, checked.result, cpu, checked.right, checked.problem, worker)
            for (config, seed, _, cpu), checked in zip(done, verdicts)]
    rows += [_row(task, config, None, None, 0.0, None, why, worker) for config, why in skipped]
    return rows


def _row(task: Task, config: Configuration, seed: int | None, result: Any, cpu: float, right: bool | None,
         problem: str | None, worker: str) -> dict[str, Any]:
    instance = task.instance
    row: dict[str, Any] = {
        "instance": instance.key, "digest": instance.digest, **instance.point.document(), "n": instance.puzzle.n,
        "k": instance.k, "clues_given": instance.puzzle.shape.cells - instance.puzzle.blanks,
        "solver": config.name, "repeat": task.repeat, "seed": seed, "time_limit": task.time_limit,
    }
    if result is None:
        return {**row, "status": SKIPPED, "seconds": None, "cpu_seconds": None, "valid": None, "stats": {},
                "reason": problem, "worker": worker}
    stats = {key: value for key, value in result.stats.items()
             if isinstance(value, (int, float, str, bool)) and (not isinstance(value, float) or math.isfinite(value))}
    row.update(status=result.status.value, seconds=result.seconds, cpu_seconds=cpu,
               valid=None if right is None else bool(right), stats=stats, worker=worker)
    if problem and right is False:
        row["problem"] = problem
    return row


DEAD_ENDS = ("backtracks", "conflicts", "failures")
"""The effort figures that count dead ends (a search's backtracks, a learning solver's conflicts, a CP
solver's failed nodes): hardness itself, where a count of nodes also grows with the cells to fill."""
HARDNESS = (*DEAD_ENDS, *(key for key in EFFORT if key not in DEAD_ENDS))


def effort_of(row: dict[str, Any]) -> tuple[str, float] | None:
    """The row's effort in its solver's own unit: the first figure of ``HARDNESS`` it reports, or None."""
    stats = row.get("stats") or {}
    return next(((key, float(stats[key])) for key in HARDNESS if isinstance(stats.get(key), (int, float))
                 and not isinstance(stats.get(key), bool)), None)


# --- the folder ----------------------------------------------------------------------------------

class StudyFolder:
    """The study's folder, held for one run: its lock, the stored rows, the rows appended."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        if self.path.exists() and not self.path.is_dir():
            raise UsageError(f"study: --output '{path}' is a file, not a folder")
        self._lock: int | None = None
        self._stream: Any = None
        self.torn = False
        """A torn last line (a run killed while writing it) was cut off."""

    def __enter__(self) -> StudyFolder:
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise UsageError(f"study: cannot use the folder '{self.path}': {exc.strerror or exc}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise UsageError(f"study: another study run is using '{self.path}': wait for it, or give another "
                             "--output folder") from None
        self._lock = fd
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._stream is not None:
            self._stream.close()
            self._stream = None
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None

    @property
    def runs(self) -> Path:
        return self.path / RUNS

    def stored(self) -> list[dict[str, Any]]:
        """The rows of earlier runs; a last line without its newline (torn) is cut off the file."""
        if not self.runs.exists():
            return []
        data = self.runs.read_bytes()
        if data and not data.endswith(b"\n"):
            cut = data.rfind(b"\n") + 1
            with open(self.runs, "r+b") as stream:
                stream.truncate(cut)
            data = data[:cut]
            self.torn = True
        rows = []
        for number, line in enumerate(data.decode("utf-8", errors="replace").splitlines(), start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                raise UsageError(f"study: {self.runs} line {number} is not JSON: this folder's data is "
                                 "damaged; give another --output folder") from None
            if isinstance(row, dict) and "instance" in row and "solver" in row:
                rows.append(row)
        return rows

    def append(self, rows: Sequence[dict[str, Any]]) -> None:
        """Rows written and flushed at once: a run stopped after this keeps them."""
        if self._stream is None:
            self._stream = open(self.runs, "a", encoding="utf-8")
        self._stream.write("".join(compact(row) + "\n" for row in rows))
        self._stream.flush()


def run_key(row: dict[str, Any]) -> tuple[Any, ...]:
    """What makes a stored row the run a plan needs: instance, digest, configuration, repeat, time limit."""
    return row["instance"], row.get("digest"), row["solver"], row.get("repeat", 0), row.get("time_limit")


# --- the run ---------------------------------------------------------------------------------------

def check_configurations(configs: Sequence[Configuration]) -> None:
    """Refuse, before any work, no configuration, a name given twice, an unknown solver, or options a
    solver refuses when it is built (``sat``'s ``restarts=false`` on an engine it cannot configure)."""
    if not configs:
        raise UsageError("study: no solver to run")
    names = [config.name for config in configs]
    if len(set(names)) != len(names):
        raise UsageError(f"study: a configuration is named twice in {', '.join(names)}")
    for config in configs:
        with registry.get(config.solver, **seeded(config, 0)[0].options_dict()):
            pass


@dataclass
class StudyRun:
    """What a study run did: every row of its plan (stored and new), in plan order, and how it went."""

    rows: list[dict[str, Any]]
    reused: int
    ran: int
    notes: list[str]
    where: str
    wall_seconds: float


def run_study(family: Family, configs: Sequence[Configuration], folder: StudyFolder, *, time_limit: float,
              repeats: int = 1, jobs: int = 1, cluster: str | None = None, progress: bool = True,
              warn: Callable[[str], None] = lambda message: print(message, file=sys.stderr, flush=True),
              on_stopped: Callable[[int, int], None] | None = None) -> StudyRun:
    """Run every (instance, configuration, repeat) of the plan that ``folder`` does not hold yet.

    ``on_stopped(kept, planned)`` is told, when Ctrl-C or SIGTERM stops the run, how many runs of the
    plan are in the folder, before the signal goes on.
    """
    check_configurations(configs)
    for config in configs:
        if not registry.solver_class(config.solver).capabilities.time_limit:
            warn(f"sudokulab: warning: {config.name} cannot honour a time limit: a run past "
                 f"{time_limit:g} s counts as timed out")
    if repeats < 1:
        raise UsageError("study: --repeats must be 1 or more")
    check_where(jobs, cluster)
    started = time.perf_counter()
    stored: dict[tuple[Any, ...], dict[str, Any]] = {}
    for row in folder.stored():
        stored[run_key(row)] = row
    if folder.torn:
        warn(f"sudokulab: {folder.runs}: a torn last line (a run stopped while writing it) was cut off")
    points = family.points()
    planned = len(points) * family.instances * repeats * len(configs)
    kept: dict[tuple[Any, ...], dict[str, Any]] = {}
    order: list[tuple[Any, ...]] = []

    def tasks() -> Iterator[Task]:
        for point in points:
            for instance in family.instances_of(point):
                for repeat in range(repeats):
                    missing = []
                    for config in configs:
                        key = (instance.key, instance.digest, config.name, repeat, time_limit)
                        order.append(key)
                        if key in stored:
                            kept[key] = stored[key]
                        else:
                            missing.append(config)
                    if missing:
                        yield Task(instance, tuple(missing), repeat, time_limit)

    reused_before = len(stored)
    ran = 0
    executor = None
    try:
        executor = open_executor(jobs, cluster)
        with report_progress(planned, enabled=progress, label="runs") as bar:
            for _, rows in executor.imap(run_task, tasks()):
                with signals_held(STOPPING):  # the rows of an instance are written whole or not at all
                    folder.append(rows)
                    for row in rows:
                        kept[run_key(row)] = row
                    ran += len(rows)
                bar.update(bar.task_ids[0], completed=len(kept))
            bar.update(bar.task_ids[0], completed=len(kept))
    except KeyboardInterrupt:
        if on_stopped is not None:
            on_stopped(len(kept), planned)
        raise
    finally:
        where = executor.describe() if executor is not None else "this process"
        if executor is not None:
            executor.close()
    rows = [kept[key] for key in order if key in kept]
    notes = []
    unused = reused_before - (len(rows) - ran)
    if unused > 0:
        notes.append(f"{unused:,} stored runs are not part of this plan (another seed, time limit, solver or "
                     f"instance): kept in {RUNS}, left out of the figures")
    return StudyRun(rows, len(rows) - ran, ran, notes, where, time.perf_counter() - started)
