"""Puzzle sets read one puzzle at a time, so a 50,000-puzzle file never sits in memory whole.

A dataset file holds, in any mix:

- one puzzle a line in the one-line form (n*n characters for n <= 9, ``.`` or ``0`` for a blank,
  the form of the community benchmark sets);
- puzzles in BOJ form (n lines of n numbers, any size), separated by blank lines.

Lines starting with ``#`` and blank lines between puzzles are ignored. A puzzle that does not
parse becomes an entry with an ``error`` naming its line, and reading goes on with the next one:
one bad line must not cost a benchmark run its other 49,999 puzzles.

A dataset holds givens only; the rules its puzzles are solved under come from the command line
(``RuleOptions``: presets and data files, built once per board shape) and travel with each puzzle
and each ``Batch``. Rules that do not fit a puzzle's board (regions for another size) make that
entry a bad one, named with its line.

One module: the line reader, the bulk reader of one-line files and the batching number entries and
lines with one scheme, and the bulk reader hands over to the line reader in the middle of a file.
"""

from __future__ import annotations

import codecs
import functools
import math
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, NamedTuple

from ..core.grid import Shape, box_shape
from ..core.puzzle import Puzzle
from ..core.rules import Rules, RulesError, parse_presets, standard
from ..errors import PuzzleFormatError, SudokuError, UsageError
from ..formats.boj import MAX_INPUT_BYTES, ONE_LINE_FORMS, one_line_bytes, parse_puzzle, refuse_control, source_name

if TYPE_CHECKING:
    import numpy as np

    from ..solvers.batch import Batch


@dataclass(frozen=True)
class RuleOptions:
    """The variant rules of a command line for the puzzles of datasets: preset names and the files
    of their data (``--rules``, ``--regions``, ``--cages``, ``--thermos``), turned into a ``Rules``
    per board shape by ``puzzle_files.read_rules``, once per shape."""

    presets: tuple[str, ...] = ()
    regions: str | None = None
    cages: str | None = None
    thermos: str | None = None

    @classmethod
    def of(cls, rules: str | Iterable[str] | None = None, regions: str | None = None, cages: str | None = None,
           thermos: str | None = None) -> RuleOptions:
        presets = parse_presets(rules) if isinstance(rules, str) else tuple(rules or ())
        return cls(tuple(presets), *(None if path is None else str(path) for path in (regions, cages, thermos)))

    @property
    def standard(self) -> bool:
        """True when they declare nothing beyond standard Sudoku."""
        return set(self.presets) <= {"standard"} and not (self.regions or self.cages or self.thermos)

    def for_shape(self, shape: Shape) -> Rules:
        """The rules for puzzles of this shape (``RulesError`` or a ``SudokuError`` when the data do not fit it)."""
        return _rules_for(self, shape)

    def __call__(self, shape: Shape) -> Rules:
        return self.for_shape(shape)


@functools.lru_cache(maxsize=64)
def _rules_for(options: RuleOptions, shape: Shape) -> Rules:
    from ..formats.puzzle_files import read_rules

    return read_rules(shape, rules=options.presets or None, regions=options.regions, cages=options.cages,
                      thermos=options.thermos)


RulesFor = Callable[[Shape], Rules]
"""What gives the rules of a dataset's puzzles by board shape (a ``RuleOptions``, or any function)."""


def _with_rules(puzzle: Puzzle, rules: RulesFor | None) -> Puzzle:
    return puzzle if rules is None else puzzle.with_rules(rules(puzzle.shape))


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
            entry = Entry(index, block_start, _with_rules(parse_puzzle(text, box), rules))
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
        for entry in source:
            if self.limit is not None and entry.index >= self.limit:
                return
            yield entry

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
            bulk = _Bulk(self.path, bulk_shape, self.limit, rules_of(bulk_shape))  # type: ignore[arg-type]
            yield from bulk.batches(self.name, size_for(bulk.shape))
            source = bulk.rest(self.box, self.rules)
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

    def estimate(self) -> int | None:
        """A quick count of the entries for the progress bar (exact for one-line files)."""
        if self.puzzles is not None:
            found = len(self.puzzles)
        elif self.path is None or str(self.path) == "-":
            return self.limit
        else:
            found = _count_one_line_file(self.path)
            if found is None:
                found = _count_entries(self.path)
        return found if self.limit is None else min(found, self.limit)



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
        raise UsageError(f"cannot read '{source_name(path)}': {exc.strerror or exc}") from None
    return found


ONE_LINE_BYTES = b"0123456789.\n"
"""What a file of one-line puzzles and nothing else is made of."""


def _count_one_line_file(path: Path, most: int = 1 << 26) -> int | None:
    """The lines of a file of up to ``most`` bytes holding only one-line puzzles (digits, dots and
    newlines, no blank line), counted without a Python step per line; None for any other file, which
    ``Dataset.estimate`` then reads line by line, a Python step per line."""
    try:
        if path.stat().st_size > most:
            return None
        data = path.read_bytes()
    except OSError:
        return None  # the line-by-line reader says why
    if not data or data.translate(None, ONE_LINE_BYTES) or data.startswith(b"\n") or b"\n\n" in data:
        return None
    return data.count(b"\n") + (not data.endswith(b"\n"))


class _Bulk:
    """The prefix of a file of 9x9 one-line puzzles read in blocks of lines, straight into arrays.

    Why: the benchmark sets are such files, and parsing them line by line cost more than solving
    with the compiled search. While every line of a block is 81 digits or dots and a newline, the
    block becomes a batch without a Python step per line; from the first other line on (a comment,
    a blank, another form, a broken line, CRLF), the rest of the file goes through ``parse_lines``,
    numbered on from there, so every entry and error is what the line-by-line reader gives.
    """

    WIDTH = 82
    BLOCK = 1 << 16
    """Bytes read at a time (about 800 lines)."""

    def __init__(self, path: Path, shape: Shape, limit: int | None, rules: Rules | None = None):
        self.path, self.shape, self.limit, self.rules = path, shape, limit, rules
        self.index = self.emitted = 0
        self.left: list[bytes] = []
        self.stream: BinaryIO | None = None

    def batches(self, dataset: str, size: int) -> Iterator[Batch]:
        import numpy as np

        from ..solvers.batch import Batch

        try:
            self.stream = open(self.path, "rb")  # noqa: SIM115 - closed by rest()
        except OSError as exc:
            raise UsageError(f"cannot read '{source_name(self.path)}': {exc.strerror or exc}") from None
        _check_text(self.stream.peek(self.BLOCK)[: self.BLOCK], source_name(self.path))
        pending: list[np.ndarray] = []
        held = 0
        carry = b""  # a line cut at the end of the last block
        while self.limit is None or self.index < self.limit:
            data = carry + self.stream.read(self.BLOCK)  # blocks, not lines: a line may be any length
            if not data:
                break
            cut = data.rfind(b"\n") + 1
            if not cut:  # a block and no line end in it: too long for the prefix, rest() reads it
                self.left, carry = [data], b""
                break
            head, carry = data[:cut], data[cut:]
            lines: list[bytes] | None = None
            if cut % self.WIDTH == 0 and head.count(b"\n") == cut // self.WIDTH and b"\r" not in head:
                good = cut // self.WIDTH  # as many line ends as rows: every line is a row if each ends one
            else:
                lines = head.splitlines(keepends=True)
                good = next((i for i, line in enumerate(lines) if len(line) != self.WIDTH), len(lines))
            if good:
                text = head if lines is None else b"".join(lines[:good])
                rows = np.frombuffer(text, dtype=np.uint8).reshape(good, self.WIDTH)
                values = np.frombuffer(one_line_bytes(text), dtype=np.uint8).reshape(good, self.WIDTH)
                fine = (values[:, :81] <= 9).all(axis=1) & (rows[:, 81] == ord("\n"))
                if not fine.all():  # the rows before the first bad one are lines (each ends with its newline)
                    good = int(np.argmin(fine))
            lines_in_block = cut // self.WIDTH if lines is None else len(lines)
            if self.limit is not None:
                good = min(good, self.limit - self.index)
            if good:
                pending.append(values[:good, :81].copy())
                held += good
                self.index += good
            if good < lines_in_block:
                lines = head.splitlines(keepends=True) if lines is None else lines
                self.left = lines[good:] + [carry] if self.limit is None or self.index < self.limit else []
                carry = b""
                break
            while held >= size:
                joined = np.concatenate(pending)
                yield self._batch(Batch, dataset, joined[:size])
                pending, held = [joined[size:]], held - size
        if carry:  # the file's last line, with no line end
            self.left = [carry] + self.left
        if held:
            yield self._batch(Batch, dataset, np.concatenate(pending))

    def _batch(self, batch: type, dataset: str, givens: np.ndarray) -> Batch:
        import numpy as np

        first, self.emitted = self.emitted, self.emitted + len(givens)  # the prefix has one puzzle a line
        return batch(dataset, self.shape, givens, np.arange(first, first + len(givens), dtype=np.int64),
                     np.arange(first + 1, first + 1 + len(givens), dtype=np.int64), self.rules)

    def rest(self, box: tuple[int, int] | None, rules: RulesFor | None = None) -> Iterator[Entry | RawLine]:
        """The entries after the bulk prefix, line by line (lines and indices numbered on)."""
        stream, self.stream = self.stream, None
        if stream is None:
            return
        with stream:
            if self.limit is not None and self.index >= self.limit:
                return
            lines = text_lines(_Prefixed(b"".join(self.left), stream), source_name(self.path))
            for entry in parse_lines(lines, box, raw=True, first_line=self.index + 1, first_index=self.index,
                                     rules=rules):
                if self.limit is not None and entry.index >= self.limit:
                    return
                yield entry


class _Prefixed:
    """A stream's ``readline(limit)`` with bytes already read put back in front."""

    def __init__(self, prefix: bytes, stream: BinaryIO):
        self.prefix, self.stream = prefix, stream

    def readline(self, limit: int) -> bytes:
        if not self.prefix:
            return self.stream.readline(limit)
        end = self.prefix.find(b"\n", 0, limit)
        if end >= 0 or len(self.prefix) >= limit:
            cut = end + 1 if end >= 0 else limit
            line, self.prefix = self.prefix[:cut], self.prefix[cut:]
            return line
        line, self.prefix = self.prefix, b""
        return line + self.stream.readline(limit - len(line))


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


def read_dataset(path: str | Path, box: tuple[int, int] | None = None, *, raw: bool = False,
                 rules: RulesFor | None = None) -> Iterator[Entry | RawLine]:
    """Stream the entries of a dataset file (``-`` reads standard input); ``raw`` and ``rules`` as in
    ``parse_lines``."""
    name = source_name(path)
    if str(path) == "-":
        if sys.stdin is None:
            raise UsageError("cannot read <stdin>: it is closed")
        yield from parse_lines(text_lines(sys.stdin.buffer, name), box, raw=raw, rules=rules)  # stdin stays open
        return
    try:
        with open(path, "rb") as stream:
            whole = _puzzle_file(stream, name, box, rules)
            if whole is not None:
                yield whole
                return
            stream.seek(0)
            yield from parse_lines(text_lines(stream, name), box, raw=raw, rules=rules)
    except OSError as exc:
        raise UsageError(f"cannot read '{name}': {exc.strerror or exc}") from None


def _holds_a_puzzle_file(head: bytes) -> bool:
    """Whether a file that starts so is a JSON puzzle document or one compressed f-puzzles word."""
    from ..formats import fpuzzles

    head = head.lstrip().removeprefix(b"\xef\xbb\xbf")
    words = head.split(None, 1)
    return head.startswith(b"{") or (len(words) == 1 and len(words[0]) > 40
                                     and fpuzzles.looks_compressed(words[0].decode("ascii", "replace")))


def is_puzzle_file(path: str | Path) -> bool:
    """Whether a dataset path names a JSON or f-puzzles puzzle file (one puzzle), not lines of puzzles."""
    if str(path) == "-":
        return False
    try:
        with open(path, "rb") as stream:
            return _holds_a_puzzle_file(stream.read(4096))
    except OSError:
        return False


PUZZLE_FILE_MOST = 16 << 20
"""Bytes of a JSON or f-puzzles puzzle file read at most (a dataset file is streamed instead)."""


def _puzzle_file(stream: BinaryIO, name: str, box: tuple[int, int] | None, rules: RulesFor | None) -> Entry | None:
    """A file that holds one puzzle with its rules, a JSON document or an f-puzzles export (what ``solve``
    and ``explain`` read), as the dataset's one entry; None for a dataset file (lines of puzzles), which
    is streamed. Rules given as options replace the file's own, as they do for every dataset entry."""
    from ..formats.puzzle_files import puzzle_from_text

    if not _holds_a_puzzle_file(stream.read(4096)):
        return None
    stream.seek(0)
    data = stream.read(PUZZLE_FILE_MOST + 1)
    if len(data) > PUZZLE_FILE_MOST:
        return Entry(0, 1, None, f"a puzzle file of more than {PUZZLE_FILE_MOST >> 20} MB")
    try:
        puzzle = puzzle_from_text(data.decode("utf-8-sig"), name, box=box)
    except (SudokuError, ValueError, UnicodeDecodeError) as exc:
        return Entry(0, 1, None, str(exc))
    options_say = rules is not None and not getattr(rules, "standard", False)
    return Entry(0, 1, _with_rules(puzzle, rules) if options_say else puzzle)


def text_lines(stream: BinaryIO, name: str) -> Iterator[str]:
    """The lines of a dataset as text, read so that memory stays flat whatever a line's length.

    A file that does not start as text (a NUL or other control byte, UTF-16, bytes that are no
    UTF-8 in its first block) is refused as ``solve`` refuses it, before any entry. Further on, bytes
    that are no UTF-8 become U+FFFD and only their entry fails. A line longer than
    ``MAX_INPUT_BYTES`` is cut there and the rest of it skipped in blocks; ``parse_lines`` reports
    it as one bad entry.
    """
    first = stream.peek(1 << 16)[: 1 << 16] if hasattr(stream, "peek") else b""
    if first:
        _check_text(first, name)
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    start = True
    while True:
        raw = stream.readline(MAX_INPUT_BYTES + 1)
        if not raw:
            return
        if start and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        start = False
        if len(raw) > MAX_INPUT_BYTES and not raw.endswith(b"\n"):
            while True:  # skip the rest of the line, a block at a time
                rest = stream.readline(1 << 16)
                if not rest or rest.endswith(b"\n"):
                    break
        yield decoder.decode(raw)


def _check_text(data: bytes, name: str) -> None:
    """Refuse a dataset whose first block is not text, in the words of ``boj.decode``."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start < len(data) - 3:  # not merely a character cut at the end of the block
            raise PuzzleFormatError(f"{name} is not text: byte 0x{data[exc.start]:02x} at offset {exc.start}") \
                from None
        text = data[: exc.start].decode("utf-8")
    refuse_control(text, name)


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
