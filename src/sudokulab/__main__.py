"""``python -m sudokulab``: the same as the ``sudokulab`` command."""

from .cli import run

if __name__ == "__main__":
    run()
