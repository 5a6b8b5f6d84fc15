"""A dataset path that names one puzzle file (a JSON document or an f-puzzles export), read whole.

``solve`` and ``explain`` take such files, and every command that reads a set takes them too, as a
set of one puzzle. Telling one from a file of puzzle lines is a look at its first bytes, asked both
by the line reader and by the bulk reader (which leaves such files alone).

More: docs/datasets.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import BinaryIO

from ..core.puzzle import Puzzle
from ..errors import SudokuError
from .rule_options import RulesFor, with_rules

PUZZLE_FILE_MOST = 16 << 20
"""Bytes of a JSON or f-puzzles puzzle file read at most (a dataset file is streamed instead)."""


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


def read_puzzle_file(stream: BinaryIO, name: str, box: tuple[int, int] | None,
                     rules: RulesFor | None) -> Puzzle | str | None:
    """The one puzzle of a file that holds a puzzle with its rules, or why it does not read; None for a
    dataset file (lines of puzzles), which is streamed. Rules given as options replace the file's own,
    as they do for every dataset entry."""
    from ..formats.puzzle_files import puzzle_from_text
    from .text_lines import check_text

    if not _holds_a_puzzle_file(stream.read(4096)):
        return None
    stream.seek(0)
    data = stream.read(PUZZLE_FILE_MOST + 1)
    check_text(data[: 1 << 16], name)  # bytes that merely start with "{" are refused as any non-text set is
    if len(data) > PUZZLE_FILE_MOST:
        return f"a puzzle file of more than {PUZZLE_FILE_MOST >> 20} MB"
    try:
        puzzle = puzzle_from_text(data.decode("utf-8-sig"), name, box=box)
    except (SudokuError, ValueError, UnicodeDecodeError) as exc:
        return str(exc)
    options_say = rules is not None and not getattr(rules, "standard", False)
    return with_rules(puzzle, rules) if options_say else puzzle
