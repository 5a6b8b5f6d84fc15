"""Prose for a person, the one wrapper of it: wrapped between words at a terminal's width, whole elsewhere.

Every line a person reads that is not a table (a summary, a note, a warning, the closing
``sudokulab: <why>`` line, an explanation's steps) goes through ``wrap_prose``: on a terminal it wraps
between words at the terminal's width, so that the terminal never folds a line inside a word; in a
file or a pipe it does not wrap at all, so that a line stays a line for ``grep``, whatever ``COLUMNS``
says. It sits this low because the layers below the consoles say things too (the compiled search's
first compilation, a Dask warning); ``ui.console`` hands it to the commands with the consoles, whose
``print`` wraps the same way (docs/terminal.md).
"""

from __future__ import annotations

import re
import sys

TYPE_CHECKING = False  # typing itself costs start-up: imported for the type checker only
if TYPE_CHECKING:
    from typing import IO

UNKNOWN_WIDTH = 80
"""A terminal's width when it cannot be read."""


def is_terminal(stream: IO[str] | None) -> bool:
    """Whether ``stream`` is a terminal (False for a closed, detached or missing stream)."""
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def terminal_width(stream: IO[str] | None) -> int | None:
    """The width of the terminal ``stream`` writes to (``COLUMNS`` first, as rich and argparse read it),
    or None when it is no terminal."""
    if not is_terminal(stream):
        return None
    import os

    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    try:
        return os.get_terminal_size(stream.fileno()).columns or UNKNOWN_WIDTH  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return UNKNOWN_WIDTH


def prose(text: str, *, stderr: bool = False, stream: IO[str] | None = None, indent: str = "") -> None:
    """Write ``text`` (lines a person reads; a newline added) to stdout, stderr or ``stream``: wrapped
    between words at the terminal's width on a terminal (``wrap_prose``, lines after a paragraph's
    first starting with ``indent``), each line whole in a file or a pipe."""
    target = stream if stream is not None else (sys.stderr if stderr else sys.stdout)
    if target is None:
        return
    width = terminal_width(target)
    target.write((text if width is None else wrap_prose(text, width, indent)) + "\n")
    if stderr or target is sys.stderr:
        target.flush()


_UNIT = r"(?<=\d) (?=(?:µs|us|ms|s|min|h|MB|KB|kB|GB|B|%|x|×|puzzles|cores|runs)\b)"
"""A space between a number and its unit (compiled on first use, by ``re``'s cache: not at start-up)."""
_GLUE = "\x00"


def wrap_prose(text: str, width: int, indent: str = "") -> str:
    """Text wrapped at ``width`` between words, a number never parted from its unit (``5.9 s``), and
    no word broken (a long path overflows rather than being cut); lines after a paragraph's first
    begin with ``indent``, and a paragraph that starts with spaces keeps them on its later lines too
    (an indented line stays indented). The one wrapper of every text a person reads.

    >>> wrap_prose("the run took 5.9 s in all", 16)
    'the run took\\n5.9 s in all'
    """
    import textwrap

    lines = []
    for paragraph in text.split("\n"):
        glued = re.sub(_UNIT, _GLUE, paragraph)
        own = paragraph[:len(paragraph) - len(paragraph.lstrip(" "))]
        lines += [line.replace(_GLUE, " ") for line in textwrap.wrap(
            glued, max(width, 10), break_long_words=False, break_on_hyphens=False,
            subsequent_indent=own + indent)] or [""]
    return "\n".join(lines)
