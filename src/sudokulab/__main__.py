"""``python -m sudokulab`` and the ``sudokulab`` console script.

A Ctrl-C while the command's own modules load (a second or more on a loaded machine) would
otherwise end in a KeyboardInterrupt traceback before ``cli.run`` can catch anything: until then it
ends the process at once with the usual one line and exit 130. Only the command does this; importing
``sudokulab`` as a library leaves the signal handlers alone.
"""

import os
import signal


def _interrupted_early(signum: int, frame: object) -> None:
    os.write(2, b"sudokulab: interrupted\n")
    os._exit(130)


def run() -> None:
    previous = signal.signal(signal.SIGINT, _interrupted_early)
    from .cli import run as run_command

    signal.signal(signal.SIGINT, previous)
    run_command()


if __name__ == "__main__":
    run()
