"""A dataset file's bytes as lines of text, with memory flat whatever a line's length.

Both readers of a set, the line-by-line one and the bulk reader of one-line files, start here, so a
file that is not text is refused in the same words (those of ``solve``) whichever reads it.

More: docs/datasets.md.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterator
from typing import BinaryIO

from ..errors import PuzzleFormatError
from ..formats.boj import MAX_INPUT_BYTES, refuse_control


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
        check_text(first, name)
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


def check_text(data: bytes, name: str) -> None:
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
