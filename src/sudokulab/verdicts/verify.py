"""The BOJ special judge for one answer: accepted, or the first reason it is wrong.

It reads an answer the way the BOJ judge compares output: line by line, where the only differences
forgiven are those BOJ forgives. Exactly tolerated:

- spaces, tabs and carriage returns at the end of a line (so CRLF line ends are fine);
- a missing newline after the last line;
- blank (or whitespace-only) lines after the board.

Everything else is a wrong answer, with the first reason in reading order: a blank line inside the
board, a line that starts with a space, two spaces or a tab between numbers, a line with the wrong
count of numbers, a word that is no number, a number outside 1..n, fewer or more than n lines, then
the rules (a given changed, a digit twice in a row, column or box: ``grid.solution_error``, the one
independent checker). Any completion is accepted, as BOJ 2580 does; the oracle (``oracle.py``) then tells a
valid-but-different answer from the canonical one. More: docs/verify.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.grid import Grid
from ..core.puzzle import Puzzle, solution_error
from ..errors import PuzzleFormatError
from ..formats.boj import INTEGER, clip, decode, small_number

MAX_ANSWER_BYTES = 1 << 20
"""An answer longer than this is wrong without reading it (a 64x64 board takes under 20 KB)."""

_TRAILING = " \t\r"
_SPACE_NAMES = {" ": "a space", "\t": "a tab", "\r": "a carriage return", "\f": "a form feed", "\v": "a vertical tab"}


@dataclass(frozen=True)
class Verdict:
    """The special judge's word on one answer: accepted, or the first reason it is wrong."""

    reason: str | None = None
    grid: Grid | None = None
    """The answer as a board, when it read as n lines of n numbers in 1..n (even if wrong)."""

    @property
    def accepted(self) -> bool:
        return self.reason is None

    def __str__(self) -> str:
        return "accepted" if self.reason is None else f"wrong answer: {self.reason}"


def verify(puzzle: Puzzle, answer: str | bytes) -> Verdict:
    """Judge an answer text against the puzzle as BOJ 2580's special judge does.

    >>> from sudokulab.core.puzzle import Puzzle
    >>> p = Puzzle.from_rows([[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 0]])
    >>> str(verify(p, "1 2 3 4\\n3 4 1 2\\n2 1 4 3\\n4 3 2 1  \\r\\n\\n"))
    'accepted'
    >>> str(verify(p, "1 2 3 4\\n3 4 1 2\\n2 1 4 3\\n4 3 2\\n"))
    'wrong answer: line 4 has 3 numbers'
    """
    if len(answer) > MAX_ANSWER_BYTES:
        return Verdict(f"the output is larger than {MAX_ANSWER_BYTES} bytes")
    if isinstance(answer, bytes):
        try:
            answer = decode(answer, "the output")
        except PuzzleFormatError as exc:
            return Verdict(str(exc))
    n = puzzle.n
    lines = [line.rstrip(_TRAILING) for line in answer.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    if not lines:
        return Verdict("the output is empty")
    values: list[int] = []
    for number, line in enumerate(lines, 1):
        if number > n:
            return Verdict(f"line {number}: extra output")
        problem = _line_problem(number, line, n, values)
        if problem:
            return Verdict(problem)
    if len(lines) < n:
        return Verdict(f"expected {n} lines, found {len(lines)}")
    grid = tuple(values)
    return Verdict(solution_error(grid, puzzle), grid)


def _line_problem(number: int, line: str, n: int, values: list[int]) -> str | None:
    """Why one line of an answer is not n numbers in 1..n separated by single spaces, or None.

    The numbers of a good line are appended to ``values``.
    """
    if not line:
        return f"line {number} is empty"
    if line[0].isspace():
        return f"line {number} starts with {_SPACE_NAMES.get(line[0], 'a space character')}"
    for column, char in enumerate(line[1:], 2):
        if char.isspace() and (char != " " or line[column - 2] == " "):
            what = "two spaces" if char == " " else _SPACE_NAMES.get(char, "a space character")
            return f"line {number}, column {column}: {what} between numbers"
    tokens = line.split(" ")
    if len(tokens) != n:
        return f"line {number} has {len(tokens)} number{'s' if len(tokens) != 1 else ''}"
    for position, token in enumerate(tokens, 1):
        if not INTEGER.match(token):
            return f"line {number}, number {position}: '{clip(token)}' is not a number"
        value = small_number(token)
        if value is None or not 1 <= value <= n:
            return f"line {number}, number {position}: {clip(token) if value is None else value} is outside 1..{n}"
        values.append(value)
    return None
