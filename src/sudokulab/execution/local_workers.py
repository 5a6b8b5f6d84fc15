"""The worker processes of a ``local:N`` cluster and the signals that end a run: held back while they
start, harmless after.

A ``local:N`` cluster is ours alone, started from this process and in its process group, so a Ctrl-C
at the terminal, a closed terminal's SIGHUP or ``kill -TERM -PGID`` reaches its workers too. They
must not die of it on their own: the command cancels the work and closes them. A worker that died
of it would be started again by its Dask nanny as the command closes, and that new process, cut off
while it reads its start-up data, prints a traceback (``EOFError: Ran out of input``) on the
command's standard error (tests/cli/test_signals.py sends a SIGTERM to a ``bench --cluster local:2``
run's group). Two halves do it, one in this process as the cluster starts
(``stopping_held``), one in each worker as it starts (``dask_setup``, a Dask preload of this module).
A worker still ends with this process however it ends: Dask's own watch on its parent's pipe, and
the nanny's stop message (then SIGKILL) when the cluster closes.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any


@contextlib.contextmanager
def stopping_held() -> Iterator[None]:
    """Hold Ctrl-C, SIGTERM and SIGHUP back while a local cluster starts, and act on them once it has.

    The worker processes are started from Dask's event-loop thread, which this thread creates
    inside ``LocalCluster()``: with the signals blocked here it is born with them blocked, and so is
    every worker process it starts then or later (a blocked signal stays blocked across fork and
    exec). A signal to the whole process group never reaches a worker before its ``dask_setup``, and
    this thread takes it when the block is lifted, as the exception that closes the cluster (a
    worker interrupted while still importing died with a traceback on the terminal).
    """
    from multiprocessing import resource_tracker

    from .executors import STOPPING, quiet_start, signals_held

    # multiprocessing starts its resource tracker with the first worker, and afterwards unblocks
    # SIGINT in the thread that started it (Python 3.11, resource_tracker.ensure_running): start it
    # here first, so that Dask's thread keeps the block for the workers it starts.
    # Its only output is a warning about semaphores left when the command exits at once after a
    # Ctrl-C (which it then cleans up itself): it gets no standard error to print that on.
    quiet_start(resource_tracker.ensure_running)
    with signals_held(STOPPING):  # a signal held back is acted on as this ends
        yield


def dask_setup(worker: Any) -> None:
    """Run by each worker of a ``local:N`` cluster as it starts (a Dask preload, in its main thread).

    A signal that ends the run reaches the whole process group; the command cancels the work and
    closes the workers, which must not die of it on their own (see the module's docstring). They are
    born with the signals blocked (``stopping_held``); here each gets a handler that does nothing
    and is unblocked, so that a program the judge starts from this worker gets them as it would
    from the command itself: unblocked and at their defaults (a handler, unlike SIG_IGN, is not
    inherited by exec).
    """
    import signal

    from .executors import STOPPING

    for signum in STOPPING:
        signal.signal(signum, _ignore)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPPING)


def _ignore(signum: int, frame: Any) -> None:
    """A stopping signal in a local worker: nothing to do (see ``dask_setup``)."""
