"""The consoles that every table and message a person reads is printed on.

A console never reads markup from data: a program's output, a file name, puzzle text or an error
message is shown as it is (``as_text``). On a terminal a console takes the terminal's width; on a
file or a pipe it is ``WIDTH`` columns whatever ``COLUMNS`` says, so a file gets the same bytes from
any terminal (``WIDE`` with ``--wide``). rich is imported when a console is made, not before.
"""

from __future__ import annotations

import re
import sys
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console

WIDTH = 80
"""Columns of a table written to a file or a pipe (a terminal uses its own width)."""
WIDE = 400
"""Columns of a ``--wide`` table written to a file or a pipe: as wide as its cells make it."""


def console(stream: IO[str] | None = None, *, stderr: bool = False, wide: bool = False) -> Console:
    """A rich console that never reads markup from data: the terminal's width on a terminal,
    ``WIDTH`` off one whatever ``COLUMNS`` says, ``WIDE`` with ``wide``."""
    target = stream if stream is not None else (sys.stderr if stderr else sys.stdout)
    width = None if target.isatty() else (WIDE if wide else WIDTH)
    if width is not None:  # a file or a pipe: rich pads titles and cells to the width; drop that padding
        target = NoTrailingSpaces(target)
    return _console_class()(file=target, width=width, highlight=False, markup=False, emoji=False)


class NoTrailingSpaces:
    r"""A text stream that writes each line without the spaces at its end: what rich pads a table's
    title and last cells with, which a file or a pipe should not get (``diff`` and ``grep $`` see them).

    >>> import io
    >>> out = io.StringIO()
    >>> stream = NoTrailingSpaces(out)
    >>> _ = stream.write("title   \nrow  |  x  "); _ = stream.write("\n"); stream.flush()
    >>> out.getvalue()
    'title\nrow  |  x\n'
    """

    def __init__(self, stream: IO[str]):
        self.stream = stream
        self.pending = ""

    def write(self, text: str) -> int:
        *whole, self.pending = (self.pending + text).split("\n")
        if whole:
            self.stream.write("".join(line.rstrip(" ") + "\n" for line in whole))
        return len(text)

    def flush(self) -> None:
        if self.pending:  # a line without its end yet: written as it is, or it could be lost
            self.stream.write(self.pending)
            self.pending = ""
        self.stream.flush()

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        return self.stream.fileno()

    def __getattr__(self, name: str) -> Any:  # encoding, errors, ...: the stream's
        return getattr(self.stream, name)


_CLASS: list[type] = []


def _console_class() -> type[Console]:
    """rich's Console, less its own end for a reader that went away: rich answers a broken pipe with
    ``SystemExit(1)``, past the command's handler, so ``sudokulab solvers | head -1`` exited 1; here it
    is the ``BrokenPipeError`` the command ends with 141 for, as every other write to a closed pipe."""
    if not _CLASS:
        from rich.console import Console

        class PipeAwareConsole(Console):
            def on_broken_pipe(self) -> None:
                raise BrokenPipeError("the reader of this console's output went away")

            def print(self, *objects: Any, **kwargs: Any) -> None:
                """Prose (one ``Text``) wrapped at the terminal's width without parting a number from its
                unit, and not wrapped at all in a file or a pipe (a line stays a line for grep)."""
                from rich.text import Text

                if len(objects) == 1 and type(objects[0]) is Text and "soft_wrap" not in kwargs:
                    text = objects[0]
                    if self.is_terminal:
                        text = Text(wrap_prose(text.plain, self.width), style=text.style)
                    kwargs["soft_wrap"] = True
                    objects = (text,)
                super().print(*objects, **kwargs)

        _CLASS.append(PipeAwareConsole)
    return _CLASS[0]


_UNIT = re.compile(r"(?<=\d) (?=(?:µs|us|ms|s|min|h|MB|KB|kB|GB|B|%|x|×|puzzles|cores|runs)\b)")
_GLUE = "\x00"


def wrap_prose(text: str, width: int, indent: str = "") -> str:
    """Text wrapped at ``width`` between words, a number never parted from its unit (``5.9 s``), and
    no word broken (a long path overflows rather than being cut); lines after a paragraph's first
    begin with ``indent``.

    >>> wrap_prose("the run took 5.9 s in all", 16)
    'the run took\\n5.9 s in all'
    """
    import textwrap

    lines = []
    for paragraph in text.split("\n"):
        glued = _UNIT.sub(_GLUE, paragraph)
        lines += [line.replace(_GLUE, " ") for line in textwrap.wrap(
            glued, max(width, 10), break_long_words=False, break_on_hyphens=False,
            subsequent_indent=indent)] or [""]
    return "\n".join(lines)


def as_text(value: object, style: str = "") -> Any:
    """Any value as rich text shown as it is: no markup, no emoji codes read from it."""
    from rich.text import Text

    return Text(str(value), style=style)
