"""``python -m sudokulab`` and the ``sudokulab`` console script.

A Ctrl-C while the command's own modules load (a second or more on a loaded machine) would
otherwise end in a KeyboardInterrupt traceback before ``cli.run`` can catch anything: until then it
ends the process at once with the usual one line and exit 130. Only the command does this; importing
``sudokulab`` as a library leaves the signal handlers alone.

The command also runs numpy's OpenBLAS with one thread unless the caller chose a number
(``BLAS_THREADS``): no command does linear algebra, and OpenBLAS's idle thread spins on the
other core for about 0.1 s of CPU each time numpy loads (benchmarks/results/compiled.md), which a
bench run with ``--jobs``, or the machine's other users, then lack. The processes a command starts
inherit the setting (pool and cluster workers, and a program judged with ``--isolation none``; the
sandbox clears the environment).
"""

import os
import signal


def _interrupted_early(signum: int, frame: object) -> None:
    os.write(2, b"sudokulab: interrupted\n")
    os._exit(130)


BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")
"""The variables OpenBLAS reads for its thread count, in its order: any one set is the caller's choice."""


def run() -> None:
    if not any(name in os.environ for name in BLAS_THREADS):
        os.environ["OPENBLAS_NUM_THREADS"] = "1"
    previous = signal.signal(signal.SIGINT, _interrupted_early)
    from .cli import run as run_command

    signal.signal(signal.SIGINT, previous)
    run_command()


if __name__ == "__main__":
    run()
