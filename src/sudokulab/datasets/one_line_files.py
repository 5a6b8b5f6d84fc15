"""Files of 9x9 one-line puzzles read in blocks of bytes straight into arrays, and counted so.

The benchmark sets are such files; reading them without a Python step per line is a concern of its
own beside the line reader, which ``reading.Dataset.batches`` hands the rest of a file to where
this prefix stops.

More: docs/datasets.md.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from ..core.grid import Shape
from ..core.rules import Rules
from ..formats.boj import cannot_read, one_line_bytes, source_name
from .text_lines import check_text, text_lines

if TYPE_CHECKING:
    import numpy as np

    from ..solvers.batch import Batch

ONE_LINE_BYTES = b"0123456789.\n"
"""What a file of one-line puzzles and nothing else is made of."""


def count_one_line_file(path: Path, most: int = 1 << 26) -> int | None:
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


class BulkPrefix:
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
            raise cannot_read(self.path, exc) from None
        check_text(self.stream.peek(self.BLOCK)[: self.BLOCK], source_name(self.path))
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

    def rest(self) -> Iterator[str]:
        """The lines after the bulk prefix as text (the file closed when they end or are dropped)."""
        stream, self.stream = self.stream, None
        if stream is None:
            return
        with stream:
            if self.limit is not None and self.index >= self.limit:
                return
            yield from text_lines(_Prefixed(b"".join(self.left), stream), source_name(self.path))


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

