"""The judge's cluster side: batches of entries judged on Dask workers, each in its own sandbox.

On a Dask cluster (``cluster=``) batches of entries are judged on the workers, each running the
sandbox on its own machine. The files the command names (``sol.py`` in ``python3 sol.py``, a
``./a.out``, a class folder) travel with each batch (``Program``) and are written once per worker
into its own folder; the program itself (``python3``, ``node``, ``java``) must be installed there,
and is resolved on the worker's PATH. With ``shared_fs`` nothing is sent: the command runs as given,
its paths seen by every worker. A command that cannot be found on a worker is refused with one line
before any run.

More: docs/judge.md.
"""

from __future__ import annotations

import os
import shutil
import tarfile
import threading
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..datasets.reading import Entry
from ..errors import UsageError
from ..execution import isolation
from ..execution.sandbox import Limits, stop_all
from .cases import Case, judge_entry
from .program import Program, pack_program, unpack_program

if TYPE_CHECKING:
    from ..execution.executors import Executor


def one_way(jobs: int) -> None:
    """Refuse ``--jobs`` beside ``--cluster``: on a cluster each worker thread judges one run at a time."""
    if jobs > 1:
        raise UsageError("judge: --jobs runs on this machine; with --cluster each worker thread judges one "
                         "run at a time: drop --jobs")


def _worker_name(worker: Any = None) -> str:
    try:
        if worker is None:
            from distributed import get_worker

            worker = get_worker()
        return f"worker {worker.address}"
    except (ImportError, ValueError, AttributeError):
        return f"host {os.uname().nodename}"


def program_problem(program: Program, isolation_asked: str = "none", dask_worker: Any = None) -> str:
    """Run on each worker before any run (Dask's ``client.run`` passes the worker): '' when the command
    can run there, else one line why not."""
    where = _worker_name(dask_worker)
    try:
        command = unpack_program(program, getattr(dask_worker, "local_directory", None))
    except (OSError, tarfile.TarError, StopIteration) as exc:
        return f"judge: cannot unpack the program on {where}: {exc}"
    except UsageError as exc:  # a shim that names no interpreter there
        return f"{exc} (on {where})"
    if shutil.which(command[0]) is None:
        return (f"judge: cannot run '{program.command[0]}' on {where}: no such program there, or not "
                "executable; install it on every worker")
    if isolation_asked == "bwrap" and isolation.bwrap_problem():
        return (f"judge: {isolation.bwrap_problem()} on {where}; {isolation.INSTALL_HINT} there, "
                "or give --isolation none")
    for position in program.shared:
        if not Path(command[position]).exists():
            return (f"judge: '{command[position]}' is missing on {where}: with --shared-fs every worker "
                    "must see it at that path (give absolute paths), or drop --shared-fs to send it")
    return ""


@dataclass(frozen=True)
class JudgeTask:
    """A batch of entries to judge on a worker: its place in the run, the entries, the program, the limits."""

    number: int
    entries: tuple[Entry, ...]
    program: Program
    limits: Limits


_STOPPED = threading.Event()
"""Set in a worker process whose runs were stopped (``stop_runs``): its batches start no new run."""


def stop_runs() -> None:
    """End every run in progress in this process, and start no more: run on each worker of a local cluster
    before it is closed (``DaskExecutor.on_close``)."""
    _STOPPED.set()
    stop_all()


def judge_batch(task: JudgeTask) -> list[Case]:
    """Run on a worker: judge each entry of a batch, one run at a time, in its sandbox."""
    command = unpack_program(task.program)
    cases = []
    try:
        for entry in task.entries:
            if _STOPPED.is_set():  # the run was stopped: this batch's result will not be read
                raise UsageError("judge: stopped")
            cases.append(judge_entry(entry, command, task.limits))
    except UsageError as exc:
        raise UsageError(f"judge on {_worker_name()}: {exc}") from None
    return cases


def judge_on_cluster(entries: Iterable[Entry], command: Sequence[str], limits: Limits,
                      cluster: str | Executor, shared_fs: bool, batch_size: int) -> Iterator[Case]:
    from ..execution.cluster import executor_for

    program = pack_program(command, shared_fs=shared_fs)
    with executor_for(cluster) as executor:
        on_close = getattr(executor, "on_close", None)
        if on_close is not None:  # a local cluster closed mid-run ends the runs in progress on its workers
            on_close(stop_runs)
        run_on_workers = getattr(executor, "run_on_workers", None)
        if run_on_workers is not None:
            for _, problem in sorted(run_on_workers(program_problem, program, limits.isolation).items()):
                if problem:
                    raise UsageError(problem)
        tasks = (JudgeTask(number, tuple(batch), program, limits)
                 for number, batch in enumerate(_batches(entries, max(1, batch_size))))
        waiting: dict[int, list[Case]] = {}
        following = 0
        for task, cases in executor.imap(judge_batch, tasks):
            waiting[task.number] = cases
            while following in waiting:  # back into dataset order
                yield from waiting.pop(following)
                following += 1


def _batches(entries: Iterable[Entry], size: int) -> Iterator[list[Entry]]:
    batch: list[Entry] = []
    for entry in entries:
        batch.append(entry)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch
