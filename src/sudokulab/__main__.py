"""``python -m sudokulab`` and the ``sudokulab`` console script.

A Ctrl-C while the command's own modules load (a second or more on a loaded machine) would
otherwise end in a KeyboardInterrupt traceback before ``cli.run`` can catch anything: until then it
ends the process at once with the usual one line and exit 130. Only the command does this; importing
``sudokulab`` as a library leaves the signal handlers alone.

The command also runs numpy's OpenBLAS with one thread unless the caller chose a number
(``BLAS_THREADS``): no command does linear algebra, and OpenBLAS's idle threads spin on the
other cores each time numpy loads, taking CPU that a bench run's ``--jobs`` workers and the
machine's other users then lack (benchmarks/results/compiled.md). The processes a command starts
inherit the setting (pool and cluster workers, and a program judged with ``--isolation none``; the
sandbox clears the environment).

And it collects young objects every ``YOUNG_OBJECTS`` allocations rather than every 700: what a
command imports (numpy, rich, the package) is tens of thousands of objects that are never garbage,
and sweeping them 700 at a time was a measurable part of a fast command's time (the figures:
benchmarks/results/compiled.md). Cycles are still collected, later.
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
