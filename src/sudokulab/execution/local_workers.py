"""The worker processes of a ``local:N`` cluster and Ctrl-C: held back while they start, harmless after.

A ``local:N`` cluster is ours alone, started from this process and in its process group, so a Ctrl-C
at the terminal reaches its workers too. They must not die of it on their own (each with a
traceback): the command cancels the work and closes them. Two halves do it, one in this process as
the cluster starts (``ctrl_c_held``), one in each worker as it starts (``dask_setup``, a Dask preload
of this module).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any


@contextlib.contextmanager
def ctrl_c_held() -> Iterator[None]:
    """Hold Ctrl-C back while a local cluster starts, and deliver it once it has started.

    The worker processes are started from Dask's event-loop thread, which this thread creates
    inside ``LocalCluster()``: with SIGINT blocked here it is born with SIGINT blocked, and so is
    every worker process it starts then or later (a blocked signal stays blocked across fork and
    exec). A Ctrl-C at the terminal reaches the whole process group; the workers never see it, and
    this thread takes it when the block is lifted, as a KeyboardInterrupt that closes the cluster
    (a worker interrupted while still importing died with a traceback on the terminal).
    """
    import signal
    from multiprocessing import resource_tracker

    from .executors import quiet_start, signals_held

    # multiprocessing starts its resource tracker with the first worker, and afterwards unblocks
    # SIGINT in the thread that started it (Python 3.11, resource_tracker.ensure_running): start it
    # here first, so that Dask's thread keeps the block for the workers it starts.
    # Its only output is a warning about semaphores left when the command exits at once after a
    # Ctrl-C (which it then cleans up itself): it gets no standard error to print that on.
    quiet_start(resource_tracker.ensure_running)
    with signals_held({signal.SIGINT}):  # a Ctrl-C held back is raised as this ends
        yield


def dask_setup(worker: Any) -> None:
    """Run by each worker of a ``local:N`` cluster as it starts (a Dask preload, in its main thread).

    Ctrl-C at the terminal reaches the whole process group; the command cancels the work and closes
    the workers, which must not die of it on their own (each with a traceback). They are born with
    SIGINT blocked (``ctrl_c_held``); here it gets a handler that does nothing and is unblocked,
    so that a program the judge starts from this worker gets SIGINT as it would from the command
    itself: unblocked and at its default (a handler, unlike SIG_IGN, is not inherited by exec).
    """
    import signal

    signal.signal(signal.SIGINT, _ignore)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _ignore(signum: int, frame: Any) -> None:
    """SIGINT in a local worker: nothing to do (see ``dask_setup``)."""
