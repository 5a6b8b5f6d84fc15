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

    def describe(self) -> str:
        return "this process"

    def imap(self, fn: Callable[[Item], Result], items: Iterable[Item], *,
             in_flight: int | None = None) -> Iterator[tuple[Item, Result]]:
        for item in items:
            yield item, fn(item)


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
    nothing (a worker that took it while still importing died with a traceback; a handler rather
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
    """``jobs`` worker processes on this machine: ``--jobs N``.

    A multiprocessing Pool with the spawn start method (the same on every platform, and safe beside
    the progress bar's thread) rather than a ProcessPoolExecutor: on Ctrl-C or an error it is
    terminated at once, leaving no worker to finish its item behind our back. Results come back in
    input order, the oldest first.
    """

    retried = 0

    def __init__(self, jobs: int):
        import multiprocessing
        from multiprocessing import resource_tracker

        self.workers = jobs
        self._finished = False
        pool = None
        try:
            with hangups_held():  # the tracker ignores SIGINT and SIGTERM itself, and unblocks them here
                quiet_start(resource_tracker.ensure_running)
            with signals_held(STOPPING):  # the workers, and the pool's threads that start more, inherit it
                pool = multiprocessing.get_context("spawn").Pool(jobs, initializer=_worker_start,
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
        bound = in_flight or 4 * self.workers
        pending: deque = deque()
        try:
            for item in items:
                pending.append((item, self._pool.apply_async(fn, (item,))))
                while len(pending) >= bound:
                    done, future = pending.popleft()
                    yield done, future.get()
            while pending:
                done, future = pending.popleft()
                yield done, future.get()
            self._finished = True
        finally:
            if pending:
                self._finished = False
                self.close()

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        if self._finished:
            pool.close()
            pool.join()
        else:
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


def local(jobs: int = 1) -> Executor:
    """The executor for ``--jobs N`` (this process when N is 1), at most ``max_jobs()`` processes."""
    return InProcess() if jobs <= 1 else ProcessPool(min(jobs, max_jobs()))


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
