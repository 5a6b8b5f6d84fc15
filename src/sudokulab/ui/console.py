"""The consoles that every table and message a person reads is printed on, and the one wrapper of prose.

A console never reads markup from data: a program's output, a file name, puzzle text or an error
message is shown as it is (``as_text``). On a terminal a console takes the terminal's width; on a
file or a pipe it is ``WIDTH`` columns whatever ``COLUMNS`` says, so a file gets the same bytes from
any terminal (``WIDE`` with ``--wide``). rich is imported when a console is made, not before.

Every line of prose a person reads goes through one wrapper, ``formats.prose.wrap_prose`` (here
as well, for the commands): wrapped between words at the terminal's width on a terminal (so the
terminal never breaks a word), and not wrapped at all in a file or a pipe (a line stays a line for
grep). A console's ``print`` of one ``Text`` does it for the tables' commands; ``prose`` does it for
text written straight to standard output or error.
Colour follows ``--color`` (``use_color``): ``auto`` colours a terminal unless ``NO_COLOR`` is set,
``never`` writes no style at all, ``always`` colours files and pipes too (docs/terminal.md).
"""

from __future__ import annotations

import sys

from ..formats.prose import is_terminal, prose, terminal_width, wrap_prose

__all__ = ["COLORS", "WIDE", "WIDTH", "NoTrailingSpaces", "as_text", "console", "is_terminal", "prose",
           "terminal_width", "use_color", "wrap_prose"]

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

            def print(self, *objects: Any, indent: str = "", **kwargs: Any) -> None:
                """Prose (one ``Text``) wrapped at the terminal's width without parting a number from its
                unit, the lines after the first starting with ``indent``, and not wrapped at all in a
                file or a pipe (a line stays a line for grep)."""
                from rich.text import Text

                if len(objects) == 1 and type(objects[0]) is Text and "soft_wrap" not in kwargs:
                    text = objects[0]
                    if is_terminal(self.file):
                        text = Text(wrap_prose(text.plain, self.width, indent), style=text.style)
                    kwargs["soft_wrap"] = True
                    objects = (text,)
                super().print(*objects, **kwargs)

        _CLASS.append(PipeAwareConsole)
    return _CLASS[0]


def as_text(value: object, style: str = "") -> Any:
    """Any value as rich text shown as it is: no markup, no emoji codes read from it."""
    from rich.text import Text

    return Text(str(value), style=style)
