"""The exceptions sudokulab raises on purpose, and the exit code each one means for the command.

Every message is one line that says where the problem is, in 1-based terms, so the command can
print it as it stands. The exit codes are the README's table; this is the only place they live.
An unknown name (a solver, an option, a command, a set) ends its line with ``did_you_mean``.
"""

from __future__ import annotations

import enum

TYPE_CHECKING = False  # typing itself costs start-up: imported for the type checker only
if TYPE_CHECKING:
    from collections.abc import Iterable


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


def did_you_mean(word: str, names: Iterable[str], *, otherwise: str = "") -> str:
    """What an "unknown NAME" line ends with: the nearest names (a misspelling, or the start of a
    longer name), or ``otherwise`` (the list of choices, a pointer to ``--help``) when none is near.

    >>> did_you_mean("dxl", ["backtrack", "dlx", "sat"])
    "; did you mean 'dlx'?"
    >>> did_you_mean("--solv", ["--solver", "--solvers", "--stats"])
    "; did you mean '--solver' or '--solvers'?"
    """
    import difflib

    bare = {name.lstrip("-"): name for name in names}  # the dashes of options would make any two look alike
    stem = word.lstrip("-")
    near = [name for key, name in bare.items() if len(stem) >= 2 and key.startswith(stem)][:3] or \
        [bare[key] for key in difflib.get_close_matches(stem, bare, n=3, cutoff=0.6)]
    if near:
        return f"; did you mean {' or '.join(repr(name) for name in near)}?"
    return f"; {otherwise}" if otherwise else ""
