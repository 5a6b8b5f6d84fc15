"""The few exceptions sudokulab raises on purpose; each maps to one exit code of the command.

Every message is one line that says where the problem is, in 1-based terms, so the command can
print it as it stands.
"""

from __future__ import annotations


class SudokuError(Exception):
    """Base of every error sudokulab raises on purpose."""

    exit_code = 2


class PuzzleFormatError(SudokuError):
    """The input is no puzzle: wrong count, not a number, out of range, not text, too large."""

    exit_code = 2


class ContradictoryGivens(SudokuError):
    """The givens already break a rule, so the puzzle has no solution."""

    exit_code = 1


class UsageError(SudokuError):
    """A bad argument: unknown solver, option a solver does not take, box that does not fit."""

    exit_code = 2


class UnsupportedFeature(UsageError):
    """A solver (or its engine) lacks what was asked of it, e.g. a time limit or incrementality."""
