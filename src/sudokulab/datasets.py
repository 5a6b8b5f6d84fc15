"""Puzzle sets read one puzzle at a time, so a 50,000-puzzle file never sits in memory whole.

A dataset file holds, in any mix:

- one puzzle a line in the one-line form (n*n characters for n <= 9, ``.`` or ``0`` for a blank,
  the form of the community benchmark sets);
- puzzles in BOJ form (n lines of n numbers, any size), separated by blank lines.

Lines starting with ``#`` and blank lines between puzzles are ignored. A puzzle that does not
parse becomes an entry with an ``error`` naming its line, and reading goes on with the next one:
one bad line must not cost a benchmark run its other 49,999 puzzles.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from .boj import MAX_INPUT_BYTES, parse_puzzle
from .errors import PuzzleFormatError, UsageError
from .grid import Puzzle

_ONE_LINE = re.compile(r"[0-9.]{16,81}\Z")
_ONE_LINE_SIZES = {n * n for n in range(4, 10)}


@dataclass(frozen=True)
class Entry:
    """One puzzle of a dataset: its 0-based index, the 1-based line it starts on, and the puzzle
    or, when it does not parse, the reason."""

    index: int
    line: int
    puzzle: Puzzle | None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.puzzle is not None


def _is_one_line(text: str) -> bool:
    return len(text) in _ONE_LINE_SIZES and bool(_ONE_LINE.match(text))


def parse_lines(lines: Iterable[str], box: tuple[int, int] | None = None) -> Iterator[Entry]:
    """Entries from the lines of a dataset (see the module docstring for the format)."""
    index = 0
    block: list[str] = []
    block_start = 0

    def flush() -> Entry:
        text = "\n".join(block)
        try:
            return Entry(index, block_start, parse_puzzle(text, box))
        except (PuzzleFormatError, UsageError) as exc:
            return Entry(index, block_start, None, _relative(str(exc), block_start))

    for number, raw in enumerate(lines, 1):
        text = raw.strip()
        if text.startswith("#"):
            continue
        if not text or (not block and len(text.split()) == 1 and _looks_like_one_line(text)):
            if block:
                yield flush()
                index += 1
                block = []
            if text:
                block, block_start = [text], number
                yield flush()
                index += 1
                block = []
            continue
        if not block:
            block_start = number
        block.append(text)
        if sum(map(len, block)) > MAX_INPUT_BYTES:
            yield Entry(index, block_start, None, f"line {block_start}: puzzle larger than {MAX_INPUT_BYTES} bytes")
            index += 1
            block = []
    if block:
        yield flush()


def _looks_like_one_line(text: str) -> bool:
    """A single word of 16..81 characters: meant as a one-line puzzle, even when malformed."""
    return 16 <= len(text) <= 81 and (_is_one_line(text) or not text.lstrip("-+").isdigit())


def _relative(message: str, start: int) -> str:
    """Turn "line k" of a parsed block into the line number in the whole file."""
    return re.sub(r"\bline (\d+)", lambda m: f"line {start + int(m[1]) - 1}", message, count=1) \
        if message.startswith("line ") else f"line {start}: {message}"


@dataclass(frozen=True)
class Dataset:
    """A named source of puzzles: a dataset file (streamed) or puzzles in memory (generated)."""

    name: str
    path: Path | None = None
    puzzles: tuple[Puzzle, ...] | None = None
    box: tuple[int, int] | None = None
    limit: int | None = None
    """Only the first ``limit`` entries (bad ones included) are run."""

    @classmethod
    def from_path(cls, path: str | Path, *, name: str | None = None, box: tuple[int, int] | None = None,
                  limit: int | None = None) -> Dataset:
        path = Path(path)
        return cls(name or ("stdin" if str(path) == "-" else path.stem), path=path, box=box, limit=limit)

    @classmethod
    def from_puzzles(cls, name: str, puzzles: Iterable[Puzzle]) -> Dataset:
        return cls(name, puzzles=tuple(puzzles))

    def entries(self) -> Iterator[Entry]:
        if self.puzzles is not None:
            source: Iterable[Entry] = (Entry(i, i + 1, p) for i, p in enumerate(self.puzzles))
        else:
            source = read_dataset(self.path or "-", self.box)
        for entry in source:
            if self.limit is not None and entry.index >= self.limit:
                return
            yield entry

    def estimate(self) -> int | None:
        """A quick count of the entries for the progress bar (exact for one-line files)."""
        if self.puzzles is not None:
            found = len(self.puzzles)
        elif self.path is None or str(self.path) == "-":
            return self.limit
        else:
            found, previous_blank = 0, True
            try:
                with open(self.path, encoding="utf-8", errors="replace") as stream:
                    for raw in stream:
                        text = raw.strip()
                        if text and not text.startswith("#") and (previous_blank or " " not in text):
                            found += 1
                        previous_blank = not text
            except OSError as exc:
                raise UsageError(f"cannot read '{self.path}': {exc.strerror or exc}") from None
        return found if self.limit is None else min(found, self.limit)



def read_dataset(path: str | Path, box: tuple[int, int] | None = None) -> Iterator[Entry]:
    """Stream the entries of a dataset file (``-`` reads standard input)."""
    if str(path) == "-":
        yield from parse_lines(sys.stdin, box)
        return
    try:
        with open(path, encoding="utf-8", errors="replace") as stream:
            yield from parse_lines(stream, box)
    except OSError as exc:
        raise UsageError(f"cannot read '{path}': {exc.strerror or exc}") from None


def puzzle_lines(path: str | Path, limit: int | None = None) -> list[str]:
    """The raw entries of a one-puzzle-a-line file (comments and blank lines skipped), unparsed.

    Benchmarks time the parse as part of the solve path, so they start from the text.
    """
    lines: list[str] = []
    with open(path, encoding="utf-8", errors="replace") as stream:
        for raw in stream:
            if limit is not None and len(lines) >= limit:
                break
            line = raw.strip()
            if line and not line.startswith("#"):
                lines.append(line)
    return lines


def load_puzzles(path: str | Path, limit: int | None = None) -> list[Puzzle]:
    """The puzzles of a small dataset as a list (bad entries skipped), for notebooks and tests."""
    puzzles = []
    for entry in read_dataset(path):
        if limit is not None and len(puzzles) >= limit:
            break
        if entry.puzzle is not None:
            puzzles.append(entry.puzzle)
    return puzzles
