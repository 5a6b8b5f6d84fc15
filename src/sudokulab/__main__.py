"""``python -m sudokulab`` and the ``sudokulab`` console script.

Until ``cli.run`` can catch it, a Ctrl-C while the command's own modules load would end in a
KeyboardInterrupt traceback; here it ends the process at once with the usual one line and exit 130.
The command also runs numpy's OpenBLAS with one thread unless the caller chose a number
(``BLAS_THREADS``: no command does linear algebra, and idle OpenBLAS threads take CPU from a run's
workers and the machine's other users), inherited by the processes it starts, and collects young
objects every ``YOUNG_OBJECTS`` allocations rather than every 700 (what a command imports is tens
of thousands of objects that are never garbage). Only the command does these things; importing
``sudokulab`` as a library leaves the signal handlers and the collector alone.

Why, with the figures: docs/startup.md.
"""

import gc
import os
import signal


def _interrupted_early(signum: int, frame: object) -> None:
    os.write(2, b"sudokulab: interrupted\n")
    os._exit(130)


YOUNG_OBJECTS = 50_000
"""The command's gen-0 threshold: more than a bench run's start-up and report allocate."""
BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")
"""The variables OpenBLAS reads for its thread count, in its order: any one set is the caller's choice."""


def run() -> None:
    if not any(name in os.environ for name in BLAS_THREADS):
        os.environ["OPENBLAS_NUM_THREADS"] = "1"
    gc.set_threshold(YOUNG_OBJECTS, *gc.get_threshold()[1:])
    previous = signal.signal(signal.SIGINT, _interrupted_early)
    from .cli.main import run as run_command

    signal.signal(signal.SIGINT, previous)
    run_command()


if __name__ == "__main__":
    run()
