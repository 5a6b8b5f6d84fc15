"""The adapter to the BOJ 2580 text format: read a puzzle, write an answer. Nothing else knows it.

Accepted spellings of a puzzle (n is inferred from how many numbers there are): BOJ form (n lines
of n whitespace-separated integers, 0 for a blank); the same n*n integers over any number of lines;
for n <= 9, one line of n*n characters (``.`` or ``0`` for a blank) or n lines of n digits with no
spaces (BOJ 2239). CRLF line ends, tabs, extra spaces, blank lines, ``#`` comment lines and a
missing final newline are all fine. Input larger than ``MAX_INPUT_BYTES`` is refused before it is
read whole, and boards above ``MAX_SIZE`` x ``MAX_SIZE`` are refused. The answer is n lines of n
numbers separated by one space, a newline after each, nothing else (or, ``compact``, n lines of n
digits, the answer form of BOJ 2239, for n <= 9). docs/formats.md.
"""

from __future__ import annotations

import math
import os
import re
import sys
from collections.abc import Sequence
from typing import BinaryIO

from ..core.grid import Grid, Shape, box_shape
from ..core.puzzle import Puzzle
from ..errors import PuzzleFormatError, UsageError

MAX_INPUT_BYTES = 1 << 20
MAX_SIZE = 64

INTEGER = re.compile(r"[+-]?[0-9]+\Z")
"""A number as the BOJ formats write it: ASCII digits only (int() would also take full-width digits)."""
_COMPACT = re.compile(r"[0-9.]+\Z")


# --- the one-line form: the one place it is read -------------------------------------------------

ONE_LINE_FORMS = {n * n: re.compile(f"[0-{n}.]{{{n * n}}}") for n in range(4, 10)}
"""Length -> the one-line spellings that parse as they stand (n*n characters of 0..n or '.')."""

NOT_A_CELL = 255
"""What ``one_line_bytes`` makes of a character that is neither a digit nor '.'."""

_ONE_LINE_TABLE = bytes(0 if c == ord(".") else c - ord("0") if ord("0") <= c <= ord("9") else NOT_A_CELL
                        for c in range(256))


def one_line_values(chars: str, n: int, where: str = "character") -> list[int]:
    """The cells of the one-line form: a digit 0..n per cell, ``0`` or ``.`` for a blank. A bad
    character is one ``PuzzleFormatError`` naming it: ``<where> <position>: ...`` (1-based).

    >>> one_line_values("1.3.", 4)
    [1, 0, 3, 0]
    """
    values = []
    for position, char in enumerate(chars, 1):
        value = _ONE_LINE_TABLE[ord(char)] if char.isascii() else NOT_A_CELL
        if value == NOT_A_CELL:
            raise PuzzleFormatError(f"{where} {position}: '{char}' is not a digit or '.'")
        if value > n:
            raise PuzzleFormatError(f"{where} {position}: '{char}' is outside 0..{n}")
        values.append(value)
    return values


def one_line_bytes(text: bytes) -> bytes:
    """One-line puzzles as cell values, a byte each (``NOT_A_CELL`` for any other character, line ends
    included), for the readers that convert thousands of lines at once (``datasets``); the same
    reading as ``one_line_values``.

    >>> list(one_line_bytes(b"1.30\\n"))
    [1, 0, 3, 0, 255]
    """
    return text.translate(_ONE_LINE_TABLE)


def parse_box(text: str) -> tuple[int, int]:
    """Parse a ``RxC`` box option such as ``2x3``."""
    match = re.fullmatch(r"\s*(\d+)\s*[xX*]\s*(\d+)\s*", text)
    if not match or int(match[1]) < 1 or int(match[2]) < 1:
        raise UsageError(f"box '{text}' is not of the form RxC, e.g. 2x3")
    return int(match[1]), int(match[2])


def decode(data: bytes, what: str = "input") -> str:
    """Bytes to text, refusing binary junk with the offset of the first bad byte."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PuzzleFormatError(
            f"{what} is not text: byte 0x{data[exc.start]:02x} at offset {exc.start}"
        ) from None
    refuse_control(text, what)
    return text


CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f]")
"""A control character that no text holds: below a space, other than tab, line ends and form feed."""


def refuse_control(text: str, what: str = "input") -> None:
    """Refuse text holding a ``CONTROL`` character, naming the first one and its offset: one regex
    search rather than a loop over the characters, since the dataset reader checks a whole block."""
    control = CONTROL.search(text)
    if control:
        raise PuzzleFormatError(f"{what} is not text: control character 0x{ord(control[0]):02x} at offset "
                                f"{control.start()}")


def read_limited(stream: BinaryIO, what: str = "input") -> bytes:
    """Read at most ``MAX_INPUT_BYTES``; refuse more instead of reading gigabytes."""
    data = stream.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise PuzzleFormatError(f"{what} is larger than {MAX_INPUT_BYTES} bytes; no puzzle is that big")
    return data


def source_name(source: str | os.PathLike) -> str:
    """How a file is named in messages: ``<stdin>`` for ``-``, control characters escaped (one line)."""
    return printable("<stdin>" if str(source) == "-" else os.fsdecode(source))


def cannot_read(source: str | os.PathLike, error: OSError | None = None) -> UsageError:
    """The one line for a file that cannot be read, worded alike by every reader: ``no such file``,
    ``it is a directory``, or the system's reason (``permission denied``). Without ``error``, the path
    is looked at to say which.

    >>> str(cannot_read("/"))
    "cannot read '/': it is a directory, not a file"
    """
    name = source_name(source)
    path = os.fspath(source)
    if isinstance(error, IsADirectoryError) or (error is None and os.path.isdir(path)):
        why = "it is a directory, not a file"
    elif isinstance(error, FileNotFoundError) or error is None:
        why = "no such file"
    else:
        reason = error.strerror or str(error)
        why = reason[:1].lower() + reason[1:]
    return UsageError(f"cannot read '{name}': {why}")


def check_readable(source: str | os.PathLike) -> None:
    """Refuse a path that is no file (missing, a directory) with ``cannot_read``'s line; ``-`` is stdin."""
    if str(source) != "-" and not os.path.isfile(source):
        raise cannot_read(source)


class _EndsOnce:
    """Standard input that stays at its end once it got there. A terminal ends input once per Ctrl-D,
    and then reads again: a reader that looks at the input (``peek``) before reading it would make a
    person type Ctrl-D once per look. A file or a pipe ends for good anyway."""

    def __init__(self, stream: BinaryIO):
        self.stream, self.ended = stream, False

    def _read(self, how: str, *args: int) -> bytes:
        if self.ended:
            return b""
        data = getattr(self.stream, how)(*args)
        self.ended = not data and args != (0,)
        return data

    def peek(self, size: int = 0) -> bytes:
        return self._read("peek", size) if hasattr(self.stream, "peek") else b""

    def read(self, size: int = -1) -> bytes:
        return self._read("read", size)

    def readline(self, size: int = -1) -> bytes:
        return self._read("readline", size)

    def isatty(self) -> bool:
        return self.stream.isatty()


_STDIN: list[_EndsOnce] = []


def standard_input() -> _EndsOnce:
    """Standard input as bytes, the same reader for every look at it in a run (``_EndsOnce``);
    closed standard input is one line, as an unreadable file is."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise UsageError("cannot read <stdin>: it is closed")
    if not _STDIN or _STDIN[0].stream is not stream:
        _STDIN[:] = [_EndsOnce(stream)]
    return _STDIN[0]


def read_bytes(source: str | os.PathLike, limit: int = MAX_INPUT_BYTES) -> bytes:
    """At most ``limit`` + 1 raw bytes of a file, or of standard input for ``-``, so callers can tell "too long".

    The one reader of files and standard input; every failure is one ``UsageError`` line.
    """
    name = source_name(source)
    try:
        if str(source) == "-":
            return standard_input().read(limit + 1)
        with open(source, "rb") as file:
            return file.read(limit + 1)
    except OSError as exc:
        raise cannot_read(source, exc) from None
    except ValueError as exc:  # a closed standard input
        raise UsageError(f"cannot read '{name}': {exc}") from None


def read_text(source: str | os.PathLike, limit: int = MAX_INPUT_BYTES) -> str:
    """The text of a file (or stdin for ``-``): at most ``limit`` bytes (a puzzle's cap by default),
    checked to be text."""
    name = source_name(source)
    data = read_bytes(source, limit)
    if len(data) > limit:
        what = "no puzzle is that big" if limit == MAX_INPUT_BYTES else "too large to read"
        raise PuzzleFormatError(f"{name} is larger than {limit} bytes; {what}")
    return decode(data, name)


def load_puzzle(source: str | os.PathLike, box: tuple[int, int] | None = None) -> Puzzle:
    """Read and parse a puzzle file (or stdin for ``-``); every error names the file first."""
    name = source_name(source)
    text = read_text(source)
    try:
        return parse_puzzle(text, box)
    except PuzzleFormatError as exc:
        raise PuzzleFormatError(f"{name}: {exc}") from None


def parse_puzzle(source: str | bytes, box: tuple[int, int] | None = None) -> Puzzle:
    """Parse any accepted spelling of a puzzle; raise PuzzleFormatError naming where it is wrong.

    >>> parse_puzzle("1 0 0 0\\n0 0 1 0\\n0 1 0 0\\n0 0 0 1\\n").givens[:4]
    (1, 0, 0, 0)
    >>> parse_puzzle("1...\\n..1.\\n.1..\\n...1").n
    4
    """
    text = decode(source) if isinstance(source, bytes) else source.removeprefix("\ufeff")
    if len(text) > MAX_INPUT_BYTES:
        raise PuzzleFormatError(f"input is larger than {MAX_INPUT_BYTES} bytes; no puzzle is that big")
    lines = [(number, line.split()) for number, line in enumerate(text.splitlines(), 1)]
    lines = [(number, tokens) for number, tokens in lines if tokens and not tokens[0].startswith("#")]
    if not lines:
        raise PuzzleFormatError("the input is empty: no puzzle to read")
    digits = _compact_digits(lines)
    if digits is not None:
        return _build(digits, math.isqrt(len(digits)), box)
    return _parse_numbers(lines, box)


def _compact_digits(lines: list[tuple[int, list[str]]]) -> list[int] | None:
    """The digits of a no-space spelling (one 81-character line, or n lines of n digits)."""
    if any(len(tokens) != 1 for _, tokens in lines):
        return None
    words = [tokens[0] for _, tokens in lines]
    _check_compact_lines(lines, words)
    if len(words) == 1:
        n = math.isqrt(len(words[0]))
        if n * n != len(words[0]) or not 2 <= n <= 9:
            if len(words[0]) >= 10 and _COMPACT.match(words[0]):
                raise PuzzleFormatError(
                    f"line {lines[0][0]}: a one-line puzzle has n*n characters (16, 25, 36, 49, 64 or 81), "
                    f"this one {len(words[0])}"
                )
            return None
    elif not (len(words) <= 9 and all(len(w) == len(words) for w in words)):
        return None
    elif not all(_COMPACT.match(w) for w in words):
        return None
    n = math.isqrt(sum(map(len, words)))
    result = []
    for (number, _), word in zip(lines, words):
        result += one_line_values(word, n, f"line {number}, column")
    return result


def _parse_numbers(lines: list[tuple[int, list[str]]], box: tuple[int, int] | None) -> Puzzle:
    total = sum(len(tokens) for _, tokens in lines)
    n = math.isqrt(total)
    if n * n != total:
        _check_rows([len(tokens) for _, tokens in lines], [number for number, _ in lines], "numbers")
        nearest = max(1, round(math.sqrt(total)))
        raise PuzzleFormatError(
            f"{nearest * nearest} numbers expected for {board(nearest)}, found {total}"
        )
    if n > MAX_SIZE:
        raise PuzzleFormatError(f"a {n}x{n} board is larger than the {MAX_SIZE}x{MAX_SIZE} supported")
    values = []
    for number, tokens in lines:
        for position, token in enumerate(tokens, 1):
            if not INTEGER.match(token):
                raise PuzzleFormatError(f"line {number}: '{clip(token)}' is not a number")
            value = small_number(token)
            if value is None or not 0 <= value <= n:
                raise PuzzleFormatError(
                    f"line {number}, number {position}: '{clip(token)}' is outside 0..{n}"
                )
            values.append(value)
    return _build(values, n, box)


def _check_rows(counts: list[int], numbers: list[int], what: str) -> None:
    """Name the fault of a board whose rows (``counts`` items on the lines ``numbers``) do not make a
    square, as a person would: a line too short, or a line missing ("9 lines expected, found 8"), not
    the board size its item count happens to be nearest to. Returns when the rows show no such pattern
    (the statement's spelling, all on one line, or lines of any length)."""
    usual = max(set(counts), key=counts.count)
    if usual < 2 or counts.count(usual) < max(2, len(counts) - 1):
        return  # no common row length to measure the others by
    if len(counts) == usual:
        number, found = next((nb, c) for nb, c in zip(numbers, counts) if c != usual)
        raise PuzzleFormatError(f"line {number}: expected {usual} {what}, found {found}")
    odd = next(((nb, c) for nb, c in zip(numbers, counts) if c != usual), None)
    raise PuzzleFormatError(f"{usual} lines expected, found {len(counts)}" + (
        f"; line {odd[0]} has {odd[1]} {what}, the others {usual}" if odd else ""))


def _check_compact_lines(lines: list[tuple[int, list[str]]], words: list[str]) -> None:
    """The rows of a no-space spelling that cannot make a board (lines of digits, one short or one
    missing), named as ``_check_rows`` names them. Words of one to three characters may be the numbers
    of the spread-out spelling (one number a line), so only longer ones, or any with a ``.``, are rows."""
    if len(words) < 2 or not all(_COMPACT.match(w) for w in words):
        return
    if not any("." in w for w in words) and max(map(len, words)) < 4:
        return
    counts = [len(w) for w in words]
    if len(set(counts)) == 1 and len(words) == counts[0]:
        return  # a square: read on
    _check_rows(counts, [number for number, _ in lines], "digits")


def board(n: int) -> str:
    """'a 9x9 board', 'an 8x8 board': the article a reader says.

    >>> board(9), board(8), board(11), board(18)
    ('a 9x9 board', 'an 8x8 board', 'an 11x11 board', 'an 18x18 board')
    """
    spoken_with_vowel = str(n).startswith("8") or n in (11, 18) or 80 <= n <= 89
    return f"{'an' if spoken_with_vowel else 'a'} {n}x{n} board"


_SMALL_DIGITS = 9


def small_number(token: str) -> int | None:
    """The value of an INTEGER token, or None when it has more than 9 significant digits.

    No board number comes near that, and ``int()`` of a 5,000-digit word raises (Python's
    integer-string limit), so long words are out of range without being converted.

    >>> small_number("007"), small_number("-3"), small_number("1" * 5000)
    (7, -3, None)
    """
    digits = token.lstrip("+-").lstrip("0")
    return None if len(digits) > _SMALL_DIGITS else int(token)


def _build(values: list[int], n: int, box: tuple[int, int] | None) -> Puzzle:
    if box is not None and box[0] * box[1] != n:
        raise UsageError(f"box {box[0]}x{box[1]} does not fit a {n}x{n} board")
    return Puzzle(Shape(*(box or box_shape(n))), tuple(values))


def printable(text: str) -> str:
    """Text from the input made safe to echo: every character a terminal would act on (escape
    sequences, carriage returns, bells, other controls) written as its escape, so a dataset cannot
    clear the screen or set the window title through an error message."""
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)


def clip(token: str, width: int = 20) -> str:
    """A word from the input, cut to ``width`` characters and made printable for a one-line message."""
    return printable(token if len(token) <= width else token[: width - 3] + "...")


def format_grid(grid: Grid | Sequence[int], n: int | None = None, compact: bool = False) -> str:
    """The BOJ answer text: n lines of n numbers separated by one space, newline after each.

    >>> print(format_grid((1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)), end="")
    1 2 3 4
    3 4 1 2
    2 1 4 3
    4 3 2 1
    """
    n = n or math.isqrt(len(grid))
    if compact and n > 9:
        raise UsageError(f"the compact form has one digit per cell, so it cannot show a {n}x{n} board")
    sep = "" if compact else " "
    return "".join(
        sep.join(map(str, grid[r * n : (r + 1) * n])) + "\n" for r in range(n)
    )


def format_puzzle(puzzle: Puzzle) -> str:
    """The puzzle in BOJ input form (0 for blanks), as fed to a program under judgement."""
    return format_grid(puzzle.givens, puzzle.n)


def format_line(puzzle: Puzzle) -> str:
    """The one-line 81-character dataset form (``.`` for blanks), for n <= 9."""
    if puzzle.n > 9:
        raise UsageError("the one-line form has one character per cell: n <= 9 only")
    return "".join(str(v) if v else "." for v in puzzle.givens)
