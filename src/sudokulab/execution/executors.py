"""Where work runs: this process, a pool of local processes, or a Dask cluster (``cluster.py``).

bench, judge and generate cut their work into items (a batch of puzzles, a batch of judged runs, a
run of generated puzzles) and hand a module-level function and the items to an ``Executor``. The
executor pulls items lazily and keeps at most ``in_flight`` of them submitted and unfinished, so a
ten-million-line dataset is never read ahead and memory stays flat (backpressure); results come
back as they finish, with their item, and the caller writes them out at once.

State a worker builds once (solver instances) lives in the worker process, in a module-level cache
keyed by what configures it (``bench_worker.solvers_for``), so it is reused across items whatever runs them.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")


JOBS_PER_CPU = 4
"""Processes (or sandboxed runs) at once per CPU this process may use, at most: ``--jobs`` above
that is cut to it. Past a few per CPU more jobs only share the same cores, and a pool's workers all
start before the first item (Ctrl-C is held while they do): ``--jobs 100000`` once started 1,700
processes before it could be stopped."""


def max_jobs() -> int:
    """The most jobs at once on this machine: ``JOBS_PER_CPU`` per CPU this process may run on."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return JOBS_PER_CPU * max(cpus, 1)


class Executor(Protocol):
    """Runs ``fn(item)`` for each item somewhere; ``fn`` must be a module-level function."""

    workers: int
    """How many items run at once (processes, or the cluster's worker threads)."""
    retried: int
    """Items run again because a worker died while running them (0 outside a cluster)."""
    here: bool
    """Whether items also run in this process (this process alone, or beside a local pool's workers):
    what the caller builds for them here (solvers) is then used, and closed by the caller."""

    def describe(self) -> str:
        """Where the work runs, in words for reports ("this process", "2 local processes", an address)."""
        ...

    def imap(self, fn: Callable[[Item], Result], items: Iterable[Item], *,
             in_flight: int | None = None) -> Iterator[tuple[Item, Result]]:
        """Each item with its result, as they finish (not necessarily in input order).

        At most ``in_flight`` items (default: a few per worker) are submitted and not yet
        yielded. An exception raised by ``fn`` is raised here. Closing the iterator early (an
        error or Ctrl-C in the caller) cancels what is still pending.
        """
        ...

    def close(self) -> None:
        """Stop everything this executor started (processes, a local cluster); safe to call twice."""
        ...

    def __enter__(self) -> Executor: ...

    def __exit__(self, *exc_info: object) -> None: ...


class _Closing:
    def __enter__(self):
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        pass


class InProcess(_Closing):
    """Runs each item here, now: ``--jobs 1``."""

    workers = 1
    retried = 0
    here = True

    def describe(self) -> str:
        return "this process"

    def imap(self, fn: Callable[[Item], Result], items: Iterable[Item], *,
             in_flight: int | None = None) -> Iterator[tuple[Item, Result]]:
        for item in items:
            yield item, fn(item)


_END = object()
"""The end of an iterator of items (``next(source, _END)``: an item may be None)."""

STOPPING = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
"""The signals that end a run (Ctrl-C, ``kill``, a closed terminal)."""


def _worker_start(parent: int) -> None:
    """A pool worker's first step: its signals (``_worker_signals``), and its end with ``parent``'s."""
    _worker_signals()
    _end_with(parent)


def _end_with(parent: int) -> None:
    """End this worker when ``parent``, the process that started it, ends, even by SIGKILL.

    Why: a worker at work learns that its parent is gone only when it sends its result; after a
    ``kill -9`` of ``bench --jobs N`` its workers searched on to the end of their batch, minutes with
    a slow solver and a long time limit (an idle one sees its task queue close and ends at once,
    multiprocessing's own doing). On Linux the kernel sends it SIGTERM then (``PR_SET_PDEATHSIG``;
    SIGTERM's default action ends it, see ``_worker_signals``); a parent already gone when this runs
    is seen by the parent pid. Elsewhere nothing is done. The signal follows the thread that started
    the worker: the pool's first workers are started by the caller's thread, a replacement for one
    that died by the pool's own thread, which ends only when the pool is closed, after its last item.
    """
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    PR_SET_PDEATHSIG = 1  # noqa: N806 - the kernel's name
    try:
        asked = ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return
    if asked and os.getppid() != parent:  # gone before the request was made: no signal will come
        os._exit(1)


def _worker_signals() -> None:
    """A pool worker's signals: Ctrl-C is the parent's, SIGTERM and SIGHUP end it as usual.

    Workers are born with the three held (``signals_held``). Ctrl-C at a terminal reaches the whole
    process group: the parent handles it and stops its workers, so here it gets a handler that does
    nothing (a worker that takes it while still importing dies with a traceback; a handler rather
    than SIG_IGN, which a program the judge starts from here would inherit). SIGTERM and SIGHUP go
    back to their defaults, so that ``Pool.terminate`` (which sends SIGTERM) still stops a worker.
    """
    signal.signal(signal.SIGINT, _do_nothing)
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPPING)


def _do_nothing(signum: int, frame: Any) -> None:
    """Ctrl-C in a pool worker (see ``_worker_signals``)."""


@contextlib.contextmanager
def signals_held(signums: Iterable[int]) -> Iterator[None]:
    """``signums`` held back while processes start: what starts meanwhile (processes, and threads
    that start more) is born with them blocked (a blocked signal stays blocked across fork and
    exec), and one that comes meanwhile is acted on here, as the ``with`` statement exits.

    Both halves are needed. A signal to the process group reaches only the processes that exist
    when it is sent, so a worker started after it, before this thread acted on it, was left running
    after the command ended, holding the terminal's (or a caller's pipe's) end open, and whatever
    read the command's output waited on after ``kill -TERM -PGID``. Blocking the signal in
    this thread alone does not defer it: the kernel gives it to another thread (numpy's BLAS
    threads), and Python still runs the handler here, in the middle of the pool's start; so the
    Python handlers only note it until the end. One the kernel delivers after the end is handled
    after it, as any signal is: by then the caller holds what was started, and closes it.

    Blocked, not ignored: an ignored signal is discarded, and a SIGHUP that came while a local
    cluster started was lost (the run went on to the end and exited 0).
    """
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
        yield
        return
    signums = set(signums)
    came: list[int] = []
    handlers = {signum: signal.getsignal(signum) for signum in signums}
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, signums)
    for signum, handler in handlers.items():
        if callable(handler):
            signal.signal(signum, lambda signum, frame: came.append(signum))
    try:
        yield
    finally:
        for signum, handler in handlers.items():
            if callable(handler):
                signal.signal(signum, handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)  # one pending on this thread is handled here
        for signum in dict.fromkeys(came):
            handler = handlers[signum]
            if callable(handler):
                handler(signum, None)  # as it would have run: errors.Stopped, KeyboardInterrupt


def hangups_held() -> contextlib.AbstractContextManager[None]:
    """SIGHUP held back while a local cluster starts (``cluster.connect``; see ``signals_held``)."""
    return signals_held({signal.SIGHUP})


class ProcessPool(_Closing):
    """``jobs`` processes on this machine: this one and ``jobs - 1`` workers beside it (``--jobs N``).

    A multiprocessing Pool with the spawn start method (the same on every platform, and safe beside
    the progress bar's thread) rather than a ProcessPoolExecutor: on Ctrl-C or an error it is
    terminated at once, leaving no worker to finish its item behind our back.

    This process does not wait for its workers: whenever the pool's oldest item is not finished, it
    runs the next item itself, and once every item is handed out it runs the pool's unfinished ones
    too (the first answer of an item is kept, the other dropped). So the run never waits for its
    workers: while they start (a fresh interpreter, the imports, the solvers, numba's compiled code)
    the work goes on here, and work too small to pay for their start is over before they are up. Their
    start still costs CPU time, which on a machine whose cores other work keeps busy comes out of this
    command's share (benchmarks/results/pool.md). This process counts as one of the ``jobs``: a worker more would
    share a core with it, and cost its start-up for nothing. Results come back as they finish, not
    in input order.
    """

    retried = 0
    here = True
    """Items also run in this process (``imap``): what the caller builds for them here is used here."""

    def __init__(self, jobs: int):
        if jobs < 2:
            raise ValueError(f"a pool is this process and at least one worker, not {jobs} process")
        import multiprocessing
        from multiprocessing import resource_tracker

        self.workers = jobs
        self._finished = False
        self._taken_back: list[Any] = []
        """Futures of items this process ran itself after handing them to the pool: their answers are
        dropped, and a pool closed while one still runs is stopped rather than waited for."""
        pool = None
        try:
            with hangups_held():  # the tracker ignores SIGINT and SIGTERM itself, and unblocks them here
                quiet_start(resource_tracker.ensure_running)
            with signals_held(STOPPING):  # the workers, and the pool's threads that start more, inherit it
                pool = multiprocessing.get_context("spawn").Pool(jobs - 1, initializer=_worker_start,
                                                                 initargs=(os.getpid(),))
            self._pool: Any = pool
        except BaseException:  # a signal held back while the pool started is raised as the block lifts
            if pool is not None:
                _stop_now(pool)
            raise

    def __del__(self) -> None:
        """A pool nobody holds any more is stopped: a signal handled just after ``ProcessPool()``
        returned, before the caller kept it, would otherwise leave its workers running."""
        if getattr(self, "_pool", None) is not None:
            self.close()

    def describe(self) -> str:
        return f"{self.workers} local processes"

    def imap(self, fn: Callable[[Item], Result], items: Iterable[Item], *,
             in_flight: int | None = None) -> Iterator[tuple[Item, Result]]:
        """Each item with its result as it finishes: the pool's, oldest first, while this process runs
        the next item whenever the oldest is not done (see the class docstring). At most ``in_flight``
        items (default: two per worker process) wait in the pool."""
        bound = in_flight or 2 * (self.workers - 1)
        pending: deque = deque()  # (item, the pool's future), oldest first
        source = iter(items)
        more = True
        try:
            while more or pending:
                while more and len(pending) < bound:
                    item = next(source, _END)
                    if item is _END:
                        more = False
                    else:
                        pending.append((item, self._pool.apply_async(fn, (item,))))
                if pending and pending[0][1].ready():
                    done, future = pending.popleft()
                    yield done, future.get()
                    continue
                if more:  # the pool is busy: one more item here
                    item = next(source, _END)
                    if item is _END:
                        more = False
                        continue
                    yield item, fn(item)
                    continue
                done, future = pending.popleft()  # nothing left to hand out: the pool's oldest, here too
                self._taken_back.append(future)
                yield done, fn(done)
            self._finished = True
        finally:
            if pending:
                self._finished = False
                self.close()

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        if self._finished and all(future.ready() for future in self._taken_back):
            pool.close()
            pool.join()
        else:  # abandoned work, or items this process did itself still running there
            _stop_now(pool)


def quiet_start(start: Callable[[], None]) -> None:
    """Run ``start`` with standard error pointing at /dev/null, so what it starts inherits that
    (multiprocessing's resource tracker: its one message, about semaphores an interrupted run left,
    which it then removes itself, is not the person's business)."""
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError, AttributeError):
        start()
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 2)
        start()
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)


def _stop_now(pool: Any) -> None:
    """Stop a pool whose work is abandoned (Ctrl-C, a signal, an error): kill its workers and leave.

    Not ``Pool.terminate``: it puts a sentinel on the result queue and drains the task queue, and
    each takes a lock that a worker killed by a signal to the whole process group (the terminal's
    Ctrl-C or hangup, ``kill -TERM -PGID``) may have held as it died; terminate then waited
    forever (seen in test_signals' group SIGTERM with ``--jobs 2``, once on the result queue's lock
    after the task queue's was dealt with). Here no replacement worker is started, every worker is
    killed and reaped, and the pool's own finaliser is cancelled; its three daemon threads are left
    blocked on the abandoned queues (the command exits at once; a library caller keeps them, idle).
    """
    from multiprocessing.pool import TERMINATE

    pool._state = TERMINATE
    pool._worker_handler._state = TERMINATE  # its loop starts no more workers: wake it, let it end
    pool._change_notifier.put(None)
    pool._worker_handler.join(timeout=5)
    workers = list(pool._pool)
    for worker in workers:
        worker.kill()
    for worker in workers:
        worker.join()
    pool._terminate.cancel()


@dataclass(frozen=True)
class PoolSize:
    """How many processes a run gets for ``--jobs N``, and why fewer than asked when it is fewer."""

    asked: int
    workers: int
    why: str | None = None

    def note(self) -> str | None:
        """The line said on standard error when the pool is smaller than asked; None when it is not."""
        if self.why is None:
            return None
        ran = "this process alone" if self.workers <= 1 else f"{self.workers} processes"
        return f"--jobs {self.asked}: {ran}, since {self.why}"


def pool_size(asked: int, batches: int | None = None, work: str = "", *, most: int | None = None) -> PoolSize:
    """The processes that fit the work: no more than its ``batches`` (None: unknown, a stream), nor
    ``most`` (default ``max_jobs()``: the command line cuts ``--jobs`` to it already, with its own
    note). A worker with no batch is a process started for nothing, and starting one costs far more
    than a small set's work: one batch runs in this process. ``work`` says what the batches hold,
    for the note.

    >>> pool_size(2, 1, "20 puzzles, 512 a batch").note()
    '--jobs 2: this process alone, since the work is 1 batch (20 puzzles, 512 a batch)'
    >>> pool_size(2, 20).workers, pool_size(2, None).workers
    (2, 2)
    >>> pool_size(16, None, most=8).note()
    '--jobs 16: 8 processes, since this machine runs 8 at most (4 per CPU)'
    """
    workers, why = asked, None
    if batches is not None and batches < asked:
        workers = max(1, batches)
        why = f"the work is {batches} batch{'es' if batches != 1 else ''}" + (f" ({work})" if work else "")
    most = max_jobs() if most is None else most
    if workers > most:
        workers = most
        why = f"this machine runs {most} at most ({JOBS_PER_CPU} per CPU)"
    return PoolSize(asked, workers, why)


def local(jobs: int = 1, size: PoolSize | None = None, note: Callable[[str], None] | None = None) -> Executor:
    """The executor for ``--jobs N``: this process when N is 1 or the work fits one (``size``, from
    ``pool_size``), else a pool of as many processes as the work fits; ``note`` hears why when that
    is fewer than asked."""
    size = size or pool_size(jobs)
    line = size.note()
    if line is not None and note is not None:
        note(line)
    return InProcess() if size.workers <= 1 else ProcessPool(size.workers)


def batch_size(preferred: int, total: int | None, workers: int) -> int:
    """Items per task: ``preferred``, cut so that a small run still gives every worker a few tasks
    (four each), since a worker with none is a core left idle. One item per task in this process:
    no task costs anything there, and the progress bar moves item by item."""
    if workers <= 1:
        return 1
    if total:
        return min(preferred, max(1, -(-total // (4 * workers))))
    return preferred


def in_order(executor: Executor, fn: Callable[[tuple[Any, list[Item]]], list[Result]], common: Any,
             items: Iterable[Item], size: int) -> Iterator[Result]:
    """``fn((common, batch))`` over ``items`` cut into batches of ``size``; each result yielded in the
    order of ``items``, whatever ran it and whenever it finished.

    Why: ``imap`` yields results as they finish (a Dask cluster's out of order), and a command whose
    output must not depend on how the work was split (``rate``'s rows and distribution) needs them in
    input order. A batch that finishes early waits here for the ones before it; ``fn`` returns one
    result per item of its batch, in the batch's order. ``common`` is what every batch needs (the
    options), sent with each."""
    def batches() -> Iterator[tuple[int, tuple[Any, list[Item]]]]:
        source = iter(items)
        number = 0
        while True:
            chunk = list(itertools.islice(source, size))
            if not chunk:
                return
            yield number, (common, chunk)
            number += 1

    waiting: dict[int, list[Result]] = {}
    following = 0
    for (number, _), results in executor.imap(_numbered(fn), batches()):
        waiting[number] = results
        while following in waiting:
            yield from waiting.pop(following)
            following += 1


class _numbered:  # noqa: N801 - used as a function
    """``fn`` over a numbered task: the number stays here, the task goes to ``fn`` (picklable as long
    as ``fn`` is a module-level function)."""

    def __init__(self, fn: Callable[[Any], Any]):
        self.fn = fn

    def __call__(self, numbered: tuple[int, Any]) -> Any:
        return self.fn(numbered[1])
