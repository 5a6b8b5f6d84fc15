"""The exceptions sudokulab raises on purpose, and the exit code each one means for the command.

Every message is one line that says where the problem is, in 1-based terms, so the command can
print it as it stands. The exit codes are the README's table; this is the only place they live.
"""

from __future__ import annotations

import enum


class ExitCode(enum.IntEnum):
    """What the ``sudokulab`` command's exit status means (the README's table)."""

    OK = 0
    """Solved, counted, exported, accepted, or the paradigms agree."""
    NO_SOLUTION = 1
    """No solution (givens that break a rule included); for verify and judge: a wrong answer."""
    BAD_INPUT = 2
    """The input is no puzzle, or a bad argument (unknown solver, bad option, unreadable file)."""
    TIME_LIMIT = 3
    """The time limit was reached before an answer."""
    WRONG = 4
    """A solver gave a wrong answer, or the paradigms disagree: a bug found."""
    INTERRUPTED = 130
    """Ctrl-C (SIGINT), as shells report it."""
    HANGUP = 129
    """SIGHUP (the terminal was closed), handled as Ctrl-C is: 128 + 1, as shells report it."""
    TERMINATED = 143
    """SIGTERM (``kill``, ``timeout``, ``docker stop``), handled as Ctrl-C is: 128 + 15."""
    BROKEN_PIPE = 141
    """The reader of standard output went away (``| head -1``): 128 + SIGPIPE, as shells report it."""


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP, raised where Ctrl-C raises KeyboardInterrupt, so every path that cleans up
    after Ctrl-C (pools, clusters, judged programs, part files) cleans up after them too."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


class SudokuError(Exception):
    """Base of every error sudokulab raises on purpose."""

    exit_code = ExitCode.BAD_INPUT


class PuzzleFormatError(SudokuError):
    """The input is no puzzle: wrong count, not a number, out of range, not text, too large."""


class UsageError(SudokuError):
    """A bad argument: unknown solver, option a solver does not take, box that does not fit."""


class UnsupportedFeature(UsageError):
    """A solver (or its engine) lacks what was asked of it, e.g. a time limit or incrementality."""


class BackendFailed(UnsupportedFeature):
    """A solver's engine failed at run time (a dependency missing, a transformation it lacks, a native
    error): the message names the solver, the engine and the reason. Exit 2, never a verdict: the
    puzzle's answer is unknown, not "no solution"."""


class NoSolution(SudokuError):
    """The puzzle has no solution (the command's answer, not a fault of the input)."""

    exit_code = ExitCode.NO_SOLUTION


class WrongAnswer(SudokuError):
    """A program's answer was judged wrong (verify, judge): the verdict, as an exit status."""

    exit_code = ExitCode.NO_SOLUTION


class TimeLimitReached(SudokuError):
    """The time limit ran out before an answer."""

    exit_code = ExitCode.TIME_LIMIT


class SolverBug(SudokuError):
    """A solver gave a wrong answer or the paradigms disagree: a bug found."""

    exit_code = ExitCode.WRONG
