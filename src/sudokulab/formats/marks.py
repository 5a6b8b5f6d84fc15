"""A student's pencil marks as a file: ``explain --next --marks FILE``.

n lines (blank lines and ``#`` comments skipped), each with n words separated by spaces, one per
cell, row by row. A word is the cell's candidates: on boards up to 9x9 its digits written together
(``137``); on any board digits separated by commas (``1,3,10``; a lone number on a board past 9x9 is
one digit); ``.`` when nothing is written there (a placed cell, or a cell not pencilled yet: every
digit still open). A cell's marks are a mask (bit d-1 is digit d), the form ``candidates`` uses.
"""

from __future__ import annotations

from ..errors import PuzzleFormatError
from .boj import clip

NOTHING = "."
"""The word of a cell with no marks written."""


def _word(word: str, n: int, where: str) -> int | None:
    if word == NOTHING:
        return None
    parts = word.split(",") if "," in word or n > 9 else list(word)
    mask = 0
    for part in parts:
        if not part.isdigit() or not 1 <= int(part) <= n:
            raise PuzzleFormatError(
                f"{where}: '{clip(word)}' is not a cell's marks (digits 1..{n}, or {NOTHING} for none)")
        mask |= 1 << (int(part) - 1)
    return mask


def parse_marks(text: str, n: int, name: str = "marks") -> list[int | None]:
    """One mask per cell (None: nothing written), row-major; each error one line naming line and word.

    >>> parse_marks("12 . 3,4 4\\n. . . .\\n. . . .\\n. . . .\\n", 4)[:5]
    [3, None, 12, 8, None]
    """
    rows = [(number, line.split()) for number, line in enumerate(text.removeprefix("\ufeff").splitlines(), 1)
            if line.strip() and not line.lstrip().startswith("#")]
    if len(rows) != n:
        raise PuzzleFormatError(f"{name}: {len(rows)} lines of marks, {n} expected (one per row of the {n}x{n} board)")
    found: list[int | None] = []
    for number, words in rows:
        if len(words) != n:
            raise PuzzleFormatError(f"{name}, line {number}: {len(words)} words, {n} expected (one per cell)")
        found += [_word(word, n, f"{name}, line {number}, word {column}") for column, word in enumerate(words, 1)]
    return found
