"""Text for a terminal, file or pipe that cannot show every character: ASCII spellings, never a crash.

Explanations say ``r1c1 ≠ 5``, bench says ``µs``, tables are drawn with box characters. Where standard
output or standard error cannot encode them (``PYTHONIOENCODING=ascii``, ``LC_ALL=C PYTHONUTF8=0``, an
old terminal's code page), the command line sets ``fit_streams``: each such character is written in
an ASCII spelling a person reads the same (``!=``, ``u``, ``...``, ``-`` and ``|`` for box lines), and
what has none becomes ``?``. JSON is not spelled differently: ``formats.documents`` escapes it
(``\\u2260``), which any JSON reader takes back as the same character.
"""

from __future__ import annotations

import sys
from typing import IO, Any

ERRORS = "sudokulab-ascii"
"""The codec error handler that ``fit_streams`` sets on a stream that cannot encode a character."""

SPELLINGS = {
    "≠": "!=", "≤": "<=", "≥": ">=", "→": "->", "←": "<-", "⇒": "=>", "×": "x", "·": ".", "…": "...",
    "—": "--", "–": "-", "±": "+/-", "µ": "u", "μ": "u", "²": "^2", "³": "^3", "¬": "~", "∨": " v ",
    "∧": " ^ ", "⌈": "ceil(", "⌉": ")", "✓": "ok", "✗": "x", "•": "*", "‘": "'", "’": "'", "“": '"', "”": '"',
}
"""Characters sudokulab and rich print, and their ASCII spellings."""

_PROBE = "≠µ…─"


def ascii_spelling(char: str) -> str:
    """One character as ASCII: its spelling, the letter under an accent, a box line as - | +, else '?'.

    >>> [ascii_spelling(c) for c in "≠é─│┼█"]
    ['!=', 'e', '-', '|', '+', '#']
    """
    if char in SPELLINGS:
        return SPELLINGS[char]
    import unicodedata

    base = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
    if base.isascii() and base:
        return base
    name = unicodedata.name(char, "")
    if name.startswith("BOX DRAWINGS"):
        across, down = "HORIZONTAL" in name, "VERTICAL" in name
        return "-" if across and not down else "|" if down and not across else "+"
    if "BLOCK" in name or "SHADE" in name:
        return "#"
    return "?"


def _spell(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    return "".join(ascii_spelling(c) for c in error.object[error.start:error.end]), error.end


def shows_unicode(stream: IO[str] | Any) -> bool:
    """Whether the stream's encoding can write the characters sudokulab prints."""
    try:
        _PROBE.encode(getattr(stream, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def fit_streams() -> None:
    """Standard output and error written in ASCII spellings where they cannot encode Unicode (once a run)."""
    import codecs

    try:
        codecs.lookup_error(ERRORS)
    except LookupError:
        codecs.register_error(ERRORS, _spell)
    for stream in (sys.stdout, sys.stderr):
        if stream is not None and not shows_unicode(stream) and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors=ERRORS)
