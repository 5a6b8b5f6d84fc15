"""The consoles that every table and message a person reads is printed on, and the one wrapper of prose.

A console never reads markup from data: a program's output, a file name, puzzle text or an error
message is shown as it is (``as_text``). On a terminal a console takes the terminal's width; on a
file or a pipe it is ``WIDTH`` columns whatever ``COLUMNS`` says, so a file gets the same bytes from
any terminal (``WIDE`` with ``--wide``). rich is imported when a console is made, not before.

Every line of prose a person reads goes through ``wrap_prose``: wrapped between words at the
terminal's width on a terminal (so the terminal never breaks a word), and not wrapped at all in a
file or a pipe (a line stays a line for grep). A console's ``print`` of one ``Text`` does it for the
tables' commands; ``prose`` does it for text written straight to standard output or error.
Colour follows ``--color`` (``use_color``): ``auto`` colours a terminal unless ``NO_COLOR`` is set,
``never`` writes no style at all, ``always`` colours files and pipes too (docs/terminal.md).
"""

from __future__ import annotations

import re
import sys

TYPE_CHECKING = False  # typing itself costs start-up, and the parser reads COLORS: for the type checker only
if TYPE_CHECKING:
    from typing import IO, Any

    from rich.console import Console

WIDTH = 80
"""Columns of a table written to a file or a pipe (a terminal uses its own width)."""
WIDE = 400
"""Columns of a ``--wide`` table written to a file or a pipe: as wide as its cells make it."""


COLORS = ("auto", "never", "always")
"""The choices of ``--color``: a terminal's colours unless ``NO_COLOR`` is set, none, or everywhere."""
_COLOR = ["auto"]


def use_color(mode: str) -> None:
    """Colour every console made from now on as ``--color`` says (one of ``COLORS``)."""
    if mode not in COLORS:
        raise ValueError(f"--color is one of {', '.join(COLORS)}, not {mode!r}")
    _COLOR[0] = mode


def _colors(terminal: bool) -> dict[str, Any]:
    """rich's colour arguments for a console on a terminal or not, as ``--color`` says: ``auto`` is
    ``always`` when ``FORCE_COLOR`` is set, and rich reads ``NO_COLOR`` itself. Whether the console is
    a terminal is stated, not left to rich, so ``FORCE_COLOR`` colours a file without wrapping it."""
    import os

    mode = _COLOR[0]
    if mode == "auto" and os.environ.get("FORCE_COLOR", ""):
        mode = "always"
    if mode == "never":
        return {"color_system": None, "force_terminal": terminal}
    if mode == "always":
        return {"color_system": "auto" if terminal else "standard", "no_color": False, "force_terminal": terminal}
    return {"color_system": "auto" if terminal else None, "force_terminal": terminal}


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
        return os.get_terminal_size(stream.fileno()).columns or WIDTH  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return WIDTH


def console(stream: IO[str] | None = None, *, stderr: bool = False, wide: bool = False) -> Console:
    """A rich console that never reads markup from data: the terminal's width on a terminal,
    ``WIDTH`` off one whatever ``COLUMNS`` says, ``WIDE`` with ``wide``; coloured as ``--color`` says."""
    target = stream if stream is not None else (sys.stderr if stderr else sys.stdout)
    terminal = is_terminal(target)
    width = None if terminal else (WIDE if wide else WIDTH)
    if width is not None:  # a file or a pipe: rich pads titles and cells to the width; drop that padding
        target = NoTrailingSpaces(target)
    return _console_class()(file=target, width=width, highlight=False, markup=False, emoji=False,
                            **_colors(terminal))


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

            @property
            def encoding(self) -> str:
                """UTF-8, whatever the stream's: rich would otherwise draw a second, ASCII table style
                (``|`` and ``+``) on a stream that cannot encode box lines. Such a stream spells each
                character it cannot encode in ASCII itself (``plain_text.fit_streams``), ``─`` as ``-``:
                the one table style, in the same layout."""
                return "utf-8"

            def print(self, *objects: Any, **kwargs: Any) -> None:
                """Prose (one ``Text``) wrapped at the terminal's width without parting a number from its
                unit, and not wrapped at all in a file or a pipe (a line stays a line for grep)."""
                from rich.text import Text

                if len(objects) == 1 and type(objects[0]) is Text and "soft_wrap" not in kwargs:
                    text = objects[0]
                    if is_terminal(self.file):
                        text = Text(wrap_prose(text.plain, self.width), style=text.style)
                    kwargs["soft_wrap"] = True
                    objects = (text,)
                super().print(*objects, **kwargs)

        _CLASS.append(PipeAwareConsole)
    return _CLASS[0]


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


def as_text(value: object, style: str = "") -> Any:
    """Any value as rich text shown as it is: no markup, no emoji codes read from it."""
    from rich.text import Text

    return Text(str(value), style=style)
