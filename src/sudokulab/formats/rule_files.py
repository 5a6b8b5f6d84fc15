"""Text rule files beside a puzzle: ``--regions``, ``--cages`` and ``--thermos`` (docs/formats.md, "Rule files").

A file is parsed here and its cells (``rNcM``) checked line by line; what the rules require (a
cage's total within reach, a thermometer's cells neighbours) is checked by ``core.rules`` alone,
and its complaint becomes one line naming the file and the line (``cages.txt: line 3: 'r10c1' is
off the 9x9 board``), raised as ``PuzzleFormatError``. The cell parsing and that mapping serve the
JSON readers too (``declared``, ``puzzle_files``, ``fpuzzles``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from ..core.cells import cell_label
from ..core.grid import Shape
from ..core.rules import RulesError, check_cage, check_thermo, regions_from_labels
from ..errors import PuzzleFormatError
from . import boj

_CELL = re.compile(r"[rR]([0-9]{1,9})[cC]([0-9]{1,9})\Z")
_SEPARATORS = re.compile(r"[\s,]+")

CageData = tuple[tuple[int, ...], int]
"""A cage as read: its cells (0-based) and its total."""


@contextmanager
def reported_at(where: str) -> Iterator[None]:
    """A ``RulesError`` of a check in ``core.rules`` as the one-line ``PuzzleFormatError`` ``where: why``."""
    try:
        yield
    except RulesError as exc:
        raise PuzzleFormatError(f"{where}: {exc}") from None


def _lines(text: str) -> list[tuple[int, str]]:
    """The (1-based number, stripped text) of each line that is neither blank nor a ``#`` comment."""
    found = []
    for number, line in enumerate(text.removeprefix("\ufeff").splitlines(), 1):
        line = line.strip()
        if line and not line.startswith("#"):
            found.append((number, line))
    return found


def parse_cell(token: str, n: int) -> int:
    """The 0-based cell index of ``rNcM`` (1-based row N, column M) on an n x n board.

    >>> parse_cell("r1c2", 9), parse_cell("R9C9", 9)
    (1, 80)
    """
    match = _CELL.match(token)
    if not match:
        raise ValueError(f"'{shown(token)}' is not a cell (write r1c1 for row 1, column 1)")
    row, col = int(match[1]), int(match[2])
    if not (1 <= row <= n and 1 <= col <= n):
        raise ValueError(f"'{shown(token)}' is off the {n}x{n} board")
    return (row - 1) * n + col - 1


def shown(word: object) -> str:
    """A word from the input for a one-line message: cut to 20 characters, unprintable ones escaped."""
    return boj.clip(str(word))


def parse_cells(tokens: Sequence[str], n: int, at: str, name: str) -> tuple[int, ...]:
    """Cells from ``rNcM`` words, checked to be on the board, distinct and at most n."""
    cells = []
    for token in tokens:
        try:
            cells.append(parse_cell(token, n))
        except ValueError as exc:
            raise PuzzleFormatError(f"{name}: {at}: {exc}") from None
    if not cells:
        raise PuzzleFormatError(f"{name}: {at}: no cells")
    if len(set(cells)) != len(cells):
        twice = next(t for i, t in enumerate(tokens) if cells.index(cells[i]) != i)
        raise PuzzleFormatError(f"{name}: {at}: '{shown(twice)}' is named twice")
    if len(cells) > n:
        raise PuzzleFormatError(f"{name}: {at}: {len(cells)} cells, more than the {n} digits")
    return tuple(cells)


def parse_regions(text: str, shape: Shape, name: str = "regions") -> list[int]:
    """Region labels, one per cell row-major, from n lines of n labels (or n words of n characters).

    Labels become numbers in the order they first appear; each region is checked to have n cells.

    >>> parse_regions("aabb\\naabb\\nccdd\\nccdd\\n", Shape(2, 2))
    [0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3]
    """
    n = shape.n
    lines = _lines(text)
    if not lines:
        raise PuzzleFormatError(f"{name}: no regions: {n} lines of {n} labels expected")
    rows = [(number, line.split()) for number, line in lines]
    if n > 1 and all(len(tokens) == 1 for _, tokens in rows):
        rows = [(number, list(tokens[0])) for number, tokens in rows]
    if len(rows) != n:
        raise PuzzleFormatError(
            f"{name}: {n} lines of {n} labels expected for the {n}x{n} board, found {len(rows)} lines")
    labels: list[str] = []
    for number, tokens in rows:
        if len(tokens) != n:
            raise PuzzleFormatError(f"{name}: line {number}: {n} labels expected, found {len(tokens)}")
        labels.extend(tokens)
    return region_numbers(labels, shape, name)


def region_numbers(labels: Sequence[object], shape: Shape, name: str) -> list[int]:
    """Labels to region numbers in order of first appearance, checked by ``rules.regions_from_labels``."""
    numbers: dict[object, int] = {}
    result = [numbers.setdefault(label, len(numbers)) for label in labels]
    try:
        regions_from_labels(result, shape)
    except RulesError as exc:
        raise PuzzleFormatError(f"{name}: {str(exc).removeprefix('regions: ')}") from None
    return result


def parse_cages(text: str, shape: Shape, name: str = "cages") -> list[CageData]:
    """Killer cages from lines ``total: cells`` (``15: r1c1 r1c2 r2c1``), or a grid of cage labels
    and ``label=total`` items; checked line by line.

    >>> parse_cages("# two cages\\n3: r1c1 r1c2\\n7: r2c1, r2c2\\n", Shape(2, 2))
    [((0, 1), 3), ((4, 5), 7)]
    >>> parse_cages("aa..\\nbb..\\n....\\n....\\na=3 b=7\\n", Shape(2, 2))
    [((0, 1), 3), ((4, 5), 7)]
    """
    n = shape.n
    lines = _lines(text)
    if lines and not any(":" in line for _, line in lines) and any("=" in line for _, line in lines):
        return _cage_grid(lines, shape, name)
    found: list[CageData] = []
    caged: dict[int, int] = {}
    for number, line in lines:
        at = f"line {number}"
        total_text, colon, rest = line.partition(":")
        if not colon:
            raise PuzzleFormatError(f"{name}: {at}: a cage is 'total: cells', e.g. '15: r1c1 r1c2 r2c1'")
        total = _total(total_text, f"{name}: {at}")
        cells = parse_cells(_SEPARATORS.split(rest.strip()) if rest.strip() else [], n, at, name)
        with reported_at(f"{name}: {at}"):
            check_cage(cells, total, n)
        for cell in cells:
            if cell in caged:
                raise PuzzleFormatError(f"{name}: {at}: {cell_label(cell, n)} is in the cage of line {caged[cell]} too")
            caged[cell] = number
        found.append((cells, total))
    if not found:
        raise PuzzleFormatError(f"{name}: no cages: one a line expected, e.g. '15: r1c1 r1c2 r2c1'")
    return found


def _total(text: str, where: str) -> int:
    text = text.strip()
    if not boj.INTEGER.match(text) or boj.small_number(text) is None:
        raise PuzzleFormatError(f"{where}: the total '{shown(text)}' is not a number")
    return int(text)


def _cage_grid(lines: list[tuple[int, str]], shape: Shape, name: str) -> list[CageData]:
    """Cages drawn as a grid of labels (``.`` for a cell in no cage) plus ``label=total`` lines."""
    n = shape.n
    totals: dict[str, tuple[int, int]] = {}
    rows = []
    for number, line in lines:
        if "=" not in line:
            rows.append((number, line.split()))
            continue
        for item in _SEPARATORS.split(line):
            label, equals, total = item.partition("=")
            if not equals or not label:
                raise PuzzleFormatError(f"{name}: line {number}: '{shown(item)}' is not label=total, e.g. a=15")
            if label in totals:
                raise PuzzleFormatError(f"{name}: line {number}: cage '{shown(label)}' has a total already")
            totals[label] = (_total(total, f"{name}: line {number}"), number)
    if n > 1 and all(len(tokens) == 1 for _, tokens in rows):
        rows = [(number, list(tokens[0])) for number, tokens in rows]
    if len(rows) != n:
        raise PuzzleFormatError(f"{name}: a grid of {n} lines of {n} cage labels expected, found {len(rows)} lines")
    cells: dict[str, list[int]] = {}
    for r, (number, tokens) in enumerate(rows):
        if len(tokens) != n:
            raise PuzzleFormatError(f"{name}: line {number}: {n} labels expected, found {len(tokens)}")
        for c, label in enumerate(tokens):
            if label != ".":
                cells.setdefault(label, []).append(r * n + c)
    found: list[CageData] = []
    for label, members in cells.items():
        where = f"{name}: cage '{shown(label)}'"
        if label not in totals:
            raise PuzzleFormatError(f"{where} has no total (write {shown(label)}=15 on a line of its own)")
        if len(members) > n:
            raise PuzzleFormatError(f"{where}: {len(members)} cells, more than the {n} digits")
        with reported_at(where):
            check_cage(members, totals[label][0], n)
        found.append((tuple(members), totals[label][0]))
    for label, (_, number) in totals.items():
        if label not in cells:
            raise PuzzleFormatError(f"{name}: line {number}: cage '{shown(label)}' is not in the grid")
    return found


def parse_thermos(text: str, shape: Shape, name: str = "thermos") -> list[tuple[int, ...]]:
    """Thermometers from lines of cells, bulb first (``r1c1 r2c2 r3c3``), checked line by line.

    >>> parse_thermos("r1c1 r1c2 r2c3\\n", Shape(2, 2))
    [(0, 1, 6)]
    """
    n = shape.n
    found = []
    for number, line in _lines(text):
        at = f"line {number}"
        cells = parse_cells(_SEPARATORS.split(line), n, at, name)
        with reported_at(f"{name}: {at}"):
            check_thermo(cells, n, cell_label)
        found.append(cells)
    if not found:
        raise PuzzleFormatError(f"{name}: no thermometers: one a line expected, cells from the bulb, e.g. 'r1c1 r2c2'")
    return found
