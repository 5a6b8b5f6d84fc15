"""The commands of ``sudokulab``, one module each, in the order ``sudokulab --help`` lists them.

Each module holds one command: ``NAME`` (the word on the command line), ``HELP`` (its line in the
top-level help), optionally ``DESCRIPTION`` and ``USAGE`` for its own help, ``configure(parser)``
(its arguments) and ``run(args) -> int`` (its exit code, or a ``SudokuError`` that ``cli.main``
turns into one). A module imports only argparse and ``cli.options`` at its top, so that the parser
can import every command; what ``run`` needs is imported inside it, when the command runs.
"""

from . import (
    bench,
    check_encoding,
    check_solver,
    compare,
    completion,
    count,
    datasets,
    decode,
    encoding,
    explain,
    export,
    generate,
    grade,
    judge,
    propagate,
    rate,
    solutions,
    solve,
    solvers,
    verify,
)

ALL = (solve, count, export, decode, solvers, compare, verify, judge, bench, rate, generate, propagate, datasets,
       explain, encoding, check_encoding, check_solver, grade, solutions,
       completion)
"""Every command module, in the order of ``sudokulab --help``."""
