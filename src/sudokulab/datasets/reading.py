"""Puzzle sets read one puzzle at a time, so a 50,000-puzzle file never sits in memory whole.

A dataset file holds, in any mix, one puzzle a line in the one-line form (the form of the community
benchmark sets) and puzzles in BOJ form separated by blank lines; ``#`` lines and blank lines are
ignored. A puzzle that does not parse becomes an entry with an ``error`` naming its line, and
reading goes on: one bad line must not cost a benchmark run its other puzzles. A dataset holds
givens only; the rules come from the command line (``RuleOptions``) and travel with each puzzle and
each ``Batch``. Beside this reader: the rules of the command line (``rule_options``), the bulk
reader of one-line files (``one_line_files``), a file's bytes as text lines (``text_lines``) and a
path naming one puzzle file (``puzzle_file``).

The dataset file format: docs/datasets.md.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from ..core.grid import Shape, box_shape
from ..core.puzzle import Puzzle
from ..core.rules import Rules, RulesError, standard
from ..errors import PuzzleFormatError, SudokuError, UsageError
from ..formats.boj import (
    MAX_INPUT_BYTES,
    ONE_LINE_FORMS,
    cannot_read,
    one_line_bytes,
    parse_puzzle,
    source_name,
    standard_input,
)
from .one_line_files import BulkPrefix, count_one_line_file
from .puzzle_file import is_puzzle_file, read_puzzle_file
from .rule_options import RulesFor, with_rules
from .text_lines import text_lines

if TYPE_CHECKING:
    from ..solvers.batch import Batch


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

    @property
    def key(self) -> str:
        """What names the entry's puzzle in a results file a later run resumes (``rate --output``,
        ``judge --output``), so a line that changed in between is done again: a digest of its givens
        ('' for an entry that is no puzzle, which costs nothing to read again)."""
        if self.puzzle is None:
            return ""
        import hashlib

        return hashlib.sha256(bytes(self.puzzle.givens)).hexdigest()[:16]


ONE_LINE_MIN = 10
"""A line that is one word of at least this many characters is a whole entry (the one-line form,
or a broken one): no line of the no-space BOJ 2239 form (n <= 9 digits) is that long."""



class RawLine(NamedTuple):
    """A one-line puzzle known to parse, left as text for a batch reader to convert in bulk."""

    index: int
    line: int
    text: str


def parse_lines(lines: Iterable[str], box: tuple[int, int] | None = None, *,
                raw: bool = False, first_line: int = 1, first_index: int = 0,
                rules: RulesFor | None = None) -> Iterator[Entry | RawLine]:
    """Entries from the lines of a dataset (see the module docstring for the format), each puzzle
    under ``rules`` of its shape (default: standard Sudoku; ``RawLine``s get theirs in ``batches``).

    With ``raw``, a one-line puzzle that certainly parses is yielded as a ``RawLine`` instead of
    being parsed here: ``batches`` converts thousands of them at once (the entry is the same).

    Where an entry ends is decided line by line, so one bad line costs one entry and no more:

    - a line that is one word of ``ONE_LINE_MIN`` or more characters is an entry of its own;
    - otherwise lines gather into a block, which ends at a blank line, at a line with another
      count of words than the block's first line (that line starts the next block), or when it
      holds k lines of k words (a whole BOJ board, k >= 2) or grows past ``MAX_INPUT_BYTES``.
    """
    index = first_index
    block: list[str] = []
    block_start = width = size = 0

    def flush() -> Entry:
        nonlocal index, block, size
        text = "\n".join(block)
        try:
            entry = Entry(index, block_start, with_rules(parse_puzzle(text, box), rules))
        except (PuzzleFormatError, UsageError) as exc:
            entry = Entry(index, block_start, None, _relative(str(exc), block_start))
        except (RulesError, SudokuError) as exc:
            entry = Entry(index, block_start, None, f"line {block_start}: rules: {exc}")
        index += 1
        block, size = [], 0
        return entry

    for number, source in enumerate(lines, first_line):
        if len(source) > MAX_INPUT_BYTES:  # cut there by text_lines: no puzzle is that long
            if block:
                yield flush()
            why = f"line {number}: longer than {MAX_INPUT_BYTES} bytes; no puzzle is that big"
            yield Entry(index, number, None, why)
            index += 1
            continue
        text = source.strip()
        if raw and not block:  # the common case of the benchmark sets, before any splitting
            form = ONE_LINE_FORMS.get(len(text))
            if form is not None and form.fullmatch(text) and (box is None or (box[0] * box[1]) ** 2 == len(text)):
                yield RawLine(index, number, text)
                index += 1
                continue
        if text.startswith("#"):
            continue
        if not text:
            if block:
                yield flush()
            continue
        words = len(text.split())
        if words == 1 and len(text) >= ONE_LINE_MIN:
            if block:
                yield flush()
            form = ONE_LINE_FORMS.get(len(text)) if raw else None
            if form is not None and form.fullmatch(text) and (box is None or (box[0] * box[1]) ** 2 == len(text)):
                yield RawLine(index, number, text)  # reached after a block: the block was flushed above
                index += 1
                continue
            block, block_start = [text], number
            yield flush()
            continue
        if block and words != width:
            yield flush()
        if not block:
            block_start, width = number, words
        if size + len(text) > MAX_INPUT_BYTES:
            yield Entry(index, block_start, None, f"line {block_start}: puzzle larger than {MAX_INPUT_BYTES} bytes")
            index += 1
            block, size = [], 0
            continue
        block.append(text)
        size += len(text) + 1
        if width >= 2 and len(block) == width:
            yield flush()
    if block:
        yield flush()


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
    rules: RulesFor | None = None
    """The rules of a file's puzzles by shape (None: standard Sudoku); puzzles in memory keep their own."""

    @classmethod
    def from_path(cls, path: str | Path, *, name: str | None = None, box: tuple[int, int] | None = None,
                  limit: int | None = None, rules: RulesFor | None = None) -> Dataset:
        path = Path(path)
        return cls(name or ("stdin" if str(path) == "-" else path.stem), path=path, box=box, limit=limit,
                   rules=rules)

    @classmethod
    def from_puzzles(cls, name: str, puzzles: Iterable[Puzzle]) -> Dataset:
        return cls(name, puzzles=tuple(puzzles))

    def entries(self) -> Iterator[Entry]:
        for entry in self._source(raw=False):
            assert isinstance(entry, Entry)
            yield entry

    def _source(self, raw: bool) -> Iterator[Entry | RawLine]:
        if self.puzzles is not None:
            source: Iterable[Entry | RawLine] = (Entry(i, i + 1, p) for i, p in enumerate(self.puzzles))
        else:
            source = read_dataset(self.path or "-", self.box, raw=raw, rules=self.rules)
        yield from _limited(source, self.limit)

    def batches(self, size: int | Callable[[Shape], int], *, in_order: bool = False) -> Iterator[Batch | Entry]:
        """The puzzles in ``Batch``es of one shape, at most ``size`` each, and the bad entries as they come.

        Memory holds one partial batch per board shape. One-line puzzles are converted to arrays a
        batch at a time (``RawLine``), so reading costs well under a microsecond per cell.

        ``in_order``: a shape's partial batch is sent as soon as a puzzle of another shape (or rule
        set) comes, so no puzzle waits for the end of the file behind later ones: what ``solve
        --all`` needs to print answers in input order with a bounded buffer.
        """
        size_for = size if callable(size) else (lambda _shape: size)
        gathered: dict[tuple[Shape, Rules], _Gathered] = {}
        last: _Gathered | None = None  # the group of the latest puzzle (``in_order``)
        one_line: dict[int, _Gathered | str] = {}  # by line length: no Shape built or hashed per line

        def group_of(shape: Shape, rules: Rules | None) -> _Gathered:
            rules = standard(shape) if rules is None else rules
            group = gathered.get((shape, rules))
            if group is None:
                group = gathered[shape, rules] = _Gathered(shape, size_for(shape), rules)
            return group

        def rules_of(shape: Shape) -> Rules | str | None:
            """The rules for one-line puzzles of a shape, or why they do not fit it."""
            if self.rules is None:
                return None
            try:
                return self.rules(shape)
            except (RulesError, SudokuError) as exc:
                return f"rules: {exc}"

        source: Iterable[Entry | RawLine]
        bulk_shape = Shape(*(self.box or (3, 3)))
        if self.puzzles is None and self.path is not None and str(self.path) != "-" \
                and (self.box is None or self.box[0] * self.box[1] == 9) and not is_puzzle_file(self.path) \
                and not isinstance(rules_of(bulk_shape), str):
            bulk = BulkPrefix(self.path, bulk_shape, self.limit, rules_of(bulk_shape))  # type: ignore[arg-type]
            yield from bulk.batches(self.name, size_for(bulk.shape))
            source = _limited(parse_lines(bulk.rest(), self.box, raw=True, first_line=bulk.index + 1,
                                          first_index=bulk.index, rules=self.rules), self.limit)
        else:
            source = self._source(raw=True)
        for entry in source:
            if isinstance(entry, RawLine):
                found = one_line.get(len(entry.text))
                if found is None:
                    shape = Shape(*(self.box or box_shape(math.isqrt(len(entry.text)))))
                    rules = rules_of(shape)
                    found = one_line[len(entry.text)] = rules if isinstance(rules, str) else group_of(shape, rules)
                if isinstance(found, str):
                    yield Entry(entry.index, entry.line, None, f"line {entry.line}: {found}")
                    continue
                group = found
                group.cells.append(one_line_bytes(entry.text.encode("ascii")))
            elif entry.puzzle is None:
                yield entry
                continue
            else:
                group = group_of(entry.puzzle.shape, entry.puzzle.rules)
                group.cells.append(bytes(entry.puzzle.givens))
            if in_order and group is not last:
                if last is not None and last.cells:
                    yield last.flush(self.name)
                last = group
            group.index.append(entry.index)
            group.line.append(entry.line)
            if len(group.cells) >= group.size:
                yield group.flush(self.name)
        for group in gathered.values():
            if group.cells:
                yield group.flush(self.name)

    def first_shape(self) -> Shape | None:
        """The board shape of the first puzzle (None: no puzzle, or standard input, which is read once)."""
        if self.puzzles is None and (self.path is None or str(self.path) == "-"):
            return None
        return next((entry.puzzle.shape for entry in self.entries() if entry.puzzle is not None), None)

    def estimate(self) -> int | None:
        """A quick count of the entries for the progress bar (exact for one-line files)."""
        if self.puzzles is not None:
            found = len(self.puzzles)
        elif self.path is None or str(self.path) == "-":
            return self.limit
        else:
            found = count_one_line_file(self.path)
            if found is None:
                found = _count_entries(self.path)
        return found if self.limit is None else min(found, self.limit)


def _limited(entries: Iterable[Entry | RawLine], limit: int | None) -> Iterator[Entry | RawLine]:
    """The entries before index ``limit`` (bad ones count), read no further than that."""
    for entry in entries:
        if limit is not None and entry.index >= limit:
            return
        yield entry


def _count_entries(path: Path) -> int:
    """The entries of a dataset file, line by line: one-line puzzles, and blocks (a line with spaces
    after a blank one)."""
    found, previous_blank = 0, True
    try:
        with open(path, encoding="utf-8", errors="replace") as stream:
            for raw in stream:
                text = raw.strip()
                if text and not text.startswith("#") and (previous_blank or " " not in text):
                    found += 1
                previous_blank = not text
    except OSError as exc:
        raise cannot_read(path, exc) from None
    return found


class _Gathered:
    """One shape's puzzles waiting for their batch: digits as ASCII bytes, converted in one go."""

    __slots__ = ("shape", "size", "rules", "cells", "index", "line")

    def __init__(self, shape: Shape, size: int, rules: Rules | None = None):
        self.shape, self.size, self.rules = shape, size, rules
        self.cells: list[bytes] = []
        self.index: list[int] = []
        self.line: list[int] = []

    def flush(self, dataset: str) -> Batch:
        import numpy as np

        from ..solvers.batch import Batch

        k, cells = len(self.cells), self.shape.cells
        givens = np.frombuffer(b"".join(self.cells), dtype=np.uint8).reshape(k, cells)
        batch = Batch(dataset, self.shape, givens, np.array(self.index, dtype=np.int64),
                      np.array(self.line, dtype=np.int64), self.rules)
        self.cells, self.index, self.line = [], [], []
        return batch


def no_puzzle(name: str, bad: int = 0) -> PuzzleFormatError:
    """The one line every command gives for a dataset that holds no puzzle (``bad``: its entries that
    are no puzzle), naming it as ``source_name`` does."""
    return PuzzleFormatError(f"'{name}' holds no puzzle" + (
        f" ({bad:,} bad {'entry' if bad == 1 else 'entries'})" if bad else ""))


def read_dataset(path: str | Path, box: tuple[int, int] | None = None, *, raw: bool = False,
                 rules: RulesFor | None = None) -> Iterator[Entry | RawLine]:
    """Stream the entries of a dataset file (``-`` reads standard input); ``raw`` and ``rules`` as in
    ``parse_lines``."""
    name = source_name(path)
    if str(path) == "-":
        yield from parse_lines(text_lines(standard_input(), name), box, raw=raw, rules=rules)  # stdin stays open
        return
    try:
        with open(path, "rb") as stream:
            whole = read_puzzle_file(stream, name, box, rules)
            if whole is not None:
                yield Entry(0, 1, whole) if isinstance(whole, Puzzle) else Entry(0, 1, None, whole)
                return
            stream.seek(0)
            yield from parse_lines(text_lines(stream, name), box, raw=raw, rules=rules)
    except OSError as exc:
        raise cannot_read(path, exc) from None



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
