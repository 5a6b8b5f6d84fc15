"""Reading variant puzzles: a puzzle file and the rule files beside it, turned into one ``Puzzle``.

``read_puzzle`` reads a file (or ``-`` for standard input, at most ``boj.MAX_INPUT_BYTES``) and
tells its kind by its text:

- a JSON object with a ``"grid"`` key is an **f-puzzles export** (see below);
- any other JSON object is a **sudokulab JSON puzzle** (``schemas/puzzle.schema.json``);
- one word of base64 text (or an f-puzzles link, ``https://f-puzzles.com/?load=WORD``) that
  lz-string decompresses to a JSON object is a **compressed f-puzzles export** (base64 or lz-string's
  URI-safe form; at most ``MAX_COMPRESSED`` characters, as its output grows with the square of its input);
- anything else is one of the **BOJ formats** (``boj.parse_puzzle``: standard rules, as before).

Then the options add to whatever the file declared: ``rules`` (``--rules x,anti-knight``, the
names of ``rules.PRESETS``), ``regions``, ``cages`` and ``thermos`` (files, formats below). The
whole is built by ``rules.build``, which checks it. ``read_rules`` is the same without a puzzle
file, for datasets of standard-format puzzles that share one rule set.

Every error is one line naming the file and the place: ``cages.txt: line 3: 'r10c1' is off the
9x9 board``, ``puzzle.json: cages[2].sum: ...``; input that is no puzzle raises
``PuzzleFormatError``, a bad option ``UsageError`` (both exit 2).

**Text rule files.** Blank lines and lines starting with ``#`` are skipped. Cells are written
``rNcM``, 1-based (``r1c1`` is the top left; case does not matter). Cells on one line are
separated by spaces or commas.

- ``--regions FILE`` (a jigsaw: the regions replace the boxes): n lines of n region labels, the
  board's layout. Labels are any words without spaces (``1 1 2 ...`` or ``a a b ...``), or, when
  every line is one word of n characters, one character per cell (``112223333``). Each label
  must cover n cells, and there must be n labels.
- ``--cages FILE`` (killer): one cage per line, its total, a colon, its cells:
  ``15: r1c1 r1c2 r2c1``. A cage's digits differ and add up to its total; no cell is in two cages.
  Cells need not be next to each other. A file with no cage is an error. Or the cages drawn: n lines
  of n cage labels as in a regions file (``.`` for a cell in no cage), and ``label=total`` items
  (``a=15 b=7``) on lines of their own; cages are numbered in the order their labels first appear.
- ``--thermos FILE`` (thermometers): one thermometer per line, its cells from the bulb to the tip,
  each a neighbour of the one before (diagonals too): ``r1c1 r2c2 r3c3``. Digits strictly increase
  from the bulb. Thermometers may share cells. A file with no thermometer is an error.

``--regions`` replaces regions only when the puzzle file has none (both is an error); presets,
cages and thermometers from options are added to the file's.

**sudokulab JSON puzzle** (the schema, ``schemas/puzzle.schema.json``, is the reference)::

    {"size": 9, "box": [3, 3], "givens": "..5..3..." or [[0, 0, 5, ...], ...],
     "rules": ["x", "anti-knight"], "regions": [[1, 1, 2, ...], ...] or ["112...", ...],
     "cages": [{"cells": ["r1c1", "r1c2"], "sum": 15}], "thermometers": [["r1c1", "r2c2"]],
     "groups": [["r1c1", "r2c3", ...]], "title": "...", "author": "...", "source": "...",
     "solution": "..."}

``size`` and ``givens`` are required; ``box`` defaults to the most square split (``grid.box_shape``);
``givens`` is n rows of n numbers (0 blank) or, for n <= 9, one string of n*n characters
(``0`` or ``.`` blank; spaces and line breaks ignored). ``groups`` are extra all-different groups
("group 1", ...). ``title``, ``author``, ``source`` and ``solution`` are for people: ``solution``
is checked for form (a full grid) but not used.

**f-puzzles export** (the JSON behind f-puzzles.com links; sudokupad and most variant solvers read
it): ``size``; ``grid``, n rows of n cells ``{"value": 5, "given": true, "region": 0}``;
``diagonal+`` (bottom left to top right) and ``diagonal-`` (top left to bottom right), ``antiknight``,
``antiking`` (true/false); ``killercage``, ``[{"cells": ["R1C1", ...], "value": "15"}]`` (a cage
without a value is an all-different cage with no sum); ``thermometer``,
``[{"lines": [["R1C1", ...], ...]}]`` (each line a thermometer from its bulb); ``extraregion``,
``[{"cells": [...]}]`` (an extra all-different group). Only cells with ``"given": true`` are givens:
a value without it is a solver's pencilled-in answer, not part of the puzzle. A cell's ``region``
(0-based) replaces its box; when every cell's region is its box, the board is standard; a cell in
no region (``"region": null``) is refused. Both diagonals make the ``x`` preset; one alone is an
extra group ("group 1"). ``title``, ``author``, ``ruleset``, ``solution``, ``highlightConflicts``,
``activeConstraints``, ``disabledlogic`` and ``truecandidatesoptions`` are notes and settings of the
site, not rules, and are ignored, as are cell colours and pencil marks, and cosmetic ``cage`` entries
with no cells (notes such as "title: ..."). Any other non-empty key (``arrow``, ``littlekillersum``,
``odd``, ``difference``, ``xv``, ``nonconsecutive``, a cosmetic ``line``, ``text`` or ``cage``
that may draw a rule, ...) and any cell's ``givenPencilMarks`` are refused with one line naming every
such key: a puzzle read without one of its constraints would have other answers.

Roads not taken: guessing a file's kind from its name (``.json``) rather than its text (standard
input has no name); a JSON Schema validator at run time (one more dependency for messages no
clearer than the hand-written checks here; the tests validate the examples against the schema).
"""

from __future__ import annotations

import json
import os
import re
import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from . import boj
from .errors import PuzzleFormatError, UsageError
from .grid import Puzzle, Shape, box_shape
from .rules import NEEDS_DATA, PRESETS, Rules, RulesError, build, parse_presets, regions_from_labels, standard

_CELL = re.compile(r"[rR]([0-9]{1,9})[cC]([0-9]{1,9})\Z")
_BASE64 = re.compile(r"[A-Za-z0-9+/=$-]+\Z")
_SEPARATORS = re.compile(r"[\s,]+")
MAX_COMPRESSED = 1 << 14
"""The longest compressed f-puzzles word read (16 KiB; real exports are a few kilobytes): lz-string's
output can grow with the square of its input (5,000 characters can hold 4 MB), so a longer word is
refused before it is decompressed rather than filling the memory."""

CageData = tuple[tuple[int, ...], int]


@dataclass
class Declared:
    """What a puzzle file and the rule files declare, gathered before ``rules.build`` combines it.

    Cells are 0-based indices; ``regions`` has one region number per cell; ``groups`` are extra
    all-different groups.
    """

    presets: list[str] = field(default_factory=list)
    regions: list[int] | None = None
    cages: list[CageData] = field(default_factory=list)
    thermos: list[tuple[int, ...]] = field(default_factory=list)
    groups: list[tuple[int, ...]] = field(default_factory=list)


# --- The public interface. ------------------------------------------------------------------------

def read_puzzle(
    source: str | os.PathLike,
    *,
    box: tuple[int, int] | None = None,
    rules: str | None = None,
    regions: str | os.PathLike | None = None,
    cages: str | os.PathLike | None = None,
    thermos: str | os.PathLike | None = None,
) -> Puzzle:
    """A puzzle file (or ``-`` for stdin) of any accepted kind, with the options' rules added.

    The file's kind is told by its text (JSON object, compressed f-puzzles word, or BOJ); see the
    module docstring. Every error is one line naming the file and where.
    """
    name = boj.source_name(source)
    text = boj.read_text(source)
    shape, givens, declared = parse_declared(text, name, box)
    extra = _declared_by_options(shape, rules, regions, cages, thermos, have_regions=declared.regions is not None)
    declared.presets += extra.presets
    if extra.regions is not None:
        declared.regions = extra.regions
    declared.cages += extra.cages
    declared.thermos += extra.thermos
    declared.groups += extra.groups
    _check_data(extra.presets, declared)
    return Puzzle(shape, givens, _build(shape, declared, name))


def read_rules(
    shape: Shape,
    *,
    rules: str | None = None,
    regions: str | os.PathLike | None = None,
    cages: str | os.PathLike | None = None,
    thermos: str | os.PathLike | None = None,
) -> Rules:
    """The rule set the options declare for a board shape, without a puzzle file (datasets)."""
    declared = _declared_by_options(shape, rules, regions, cages, thermos, have_regions=False)
    _check_data(declared.presets, declared)
    return _build(shape, declared, None)


def parse_puzzle_text(text: str, name: str = "input", box: tuple[int, int] | None = None) -> Puzzle:
    """A puzzle from the text of a puzzle file of any kind, with the rules it declares; errors name ``name``.

    >>> parse_puzzle_text('{"size": 4, "givens": "1...............", "rules": ["x"]}').rules.presets
    ('standard', 'x')
    """
    shape, givens, declared = parse_declared(text, name, box)
    return Puzzle(shape, givens, _build(shape, declared, name))


def parse_declared(
    text: str, name: str = "input", box: tuple[int, int] | None = None
) -> tuple[Shape, tuple[int, ...], Declared]:
    """The shape, givens and declared rule data of a puzzle file's text (any kind), not yet combined."""
    stripped = text.strip().removeprefix("\ufeff")
    if stripped.startswith("{"):
        document = _load_json(stripped, name)
        return _from_document(document, name, box)
    document = _decompressed(stripped, name)
    if document is not None:
        return _from_fpuzzles(document, name, box)
    try:
        puzzle = boj.parse_puzzle(text, box)
    except PuzzleFormatError as exc:
        if _looks_compressed(stripped):
            raise PuzzleFormatError(
                f"{name}: one word that is neither a puzzle nor an lz-string compressed f-puzzles export") from None
        raise PuzzleFormatError(f"{name}: {exc}") from None
    return puzzle.shape, puzzle.givens, Declared()


def _looks_compressed(text: str) -> bool:
    """One long word of base64 letters, mixed case: what a compressed export looks like, not a typo'd grid."""
    return (len(text) >= 16 and _BASE64.match(text) is not None and any(c.isupper() for c in text)
            and any(c.islower() for c in text))


# --- Options and text rule files. -----------------------------------------------------------------

def _declared_by_options(
    shape: Shape,
    rules: str | None,
    regions: str | os.PathLike | None,
    cages: str | os.PathLike | None,
    thermos: str | os.PathLike | None,
    *,
    have_regions: bool,
) -> Declared:
    declared = Declared()
    if rules is not None:
        try:
            declared.presets = parse_presets(rules)
        except RulesError as exc:
            raise UsageError(f"--rules: {exc}") from None
    if regions is not None:
        if have_regions:
            raise UsageError("--regions: the puzzle file declares its regions already")
        declared.regions = parse_regions(boj.read_text(regions), shape, boj.source_name(regions))
    if cages is not None:
        declared.cages = parse_cages(boj.read_text(cages), shape, boj.source_name(cages))
    if thermos is not None:
        declared.thermos = parse_thermos(boj.read_text(thermos), shape, boj.source_name(thermos))
    return declared


def _check_data(presets: Sequence[str], declared: Declared) -> None:
    """``--rules jigsaw``, ``killer`` or ``thermo`` without their data is a bad option (the file may bring it)."""
    have = {"jigsaw": declared.regions is not None, "killer": bool(declared.cages), "thermo": bool(declared.thermos)}
    for preset in presets:
        if preset in NEEDS_DATA and not have[preset]:
            raise UsageError(
                f"--rules {preset} needs its data: {NEEDS_DATA[preset]}, or a JSON puzzle file that has it")


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
        raise ValueError(f"'{_shown(token)}' is not a cell (write r1c1 for row 1, column 1)")
    row, col = int(match[1]), int(match[2])
    if not (1 <= row <= n and 1 <= col <= n):
        raise ValueError(f"'{_shown(token)}' is off the {n}x{n} board")
    return (row - 1) * n + col - 1


def _shown(word: object) -> str:
    """A word from the input for a one-line message: cut to 20 characters, unprintable ones escaped."""
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in boj.clip(str(word)))


def _cells(tokens: Sequence[str], n: int, at: str, name: str) -> tuple[int, ...]:
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
        raise PuzzleFormatError(f"{name}: {at}: '{_shown(twice)}' is named twice")
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
    return _region_numbers(labels, shape, name)


def _region_numbers(labels: Sequence[object], shape: Shape, name: str) -> list[int]:
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
        cells = _cells(_SEPARATORS.split(rest.strip()) if rest.strip() else [], n, at, name)
        _check_cage(cells, total, n, f"{name}: {at}")
        for cell in cells:
            if cell in caged:
                raise PuzzleFormatError(f"{name}: {at}: {_cell_word(cell, n)} is in the cage of line {caged[cell]} too")
            caged[cell] = number
        found.append((cells, total))
    if not found:
        raise PuzzleFormatError(f"{name}: no cages: one a line expected, e.g. '15: r1c1 r1c2 r2c1'")
    return found


def _total(text: str, where: str) -> int:
    text = text.strip()
    if not boj.INTEGER.match(text) or boj.small_number(text) is None:
        raise PuzzleFormatError(f"{where}: the total '{_shown(text)}' is not a number")
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
                raise PuzzleFormatError(f"{name}: line {number}: '{_shown(item)}' is not label=total, e.g. a=15")
            if label in totals:
                raise PuzzleFormatError(f"{name}: line {number}: cage '{_shown(label)}' has a total already")
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
        where = f"{name}: cage '{_shown(label)}'"
        if label not in totals:
            raise PuzzleFormatError(f"{where} has no total (write {_shown(label)}=15 on a line of its own)")
        if len(members) > n:
            raise PuzzleFormatError(f"{where}: {len(members)} cells, more than the {n} digits")
        _check_cage(tuple(members), totals[label][0], n, where)
        found.append((tuple(members), totals[label][0]))
    for label, (_, number) in totals.items():
        if label not in cells:
            raise PuzzleFormatError(f"{name}: line {number}: cage '{_shown(label)}' is not in the grid")
    return found


def _check_cage(cells: tuple[int, ...], total: int, n: int, where: str) -> None:
    k = len(cells)
    low, high = k * (k + 1) // 2, k * (2 * n - k + 1) // 2
    if not low <= total <= high:
        raise PuzzleFormatError(f"{where}: {k} different digits of 1..{n} add up to {low}..{high}, never {total}")


def parse_thermos(text: str, shape: Shape, name: str = "thermos") -> list[tuple[int, ...]]:
    """Thermometers from lines of cells, bulb first (``r1c1 r2c2 r3c3``), checked line by line.

    >>> parse_thermos("r1c1 r1c2 r2c3\\n", Shape(2, 2))
    [(0, 1, 6)]
    """
    n = shape.n
    found = []
    for number, line in _lines(text):
        at = f"line {number}"
        cells = _cells(_SEPARATORS.split(line), n, at, name)
        _check_thermo(cells, n, f"{name}: {at}")
        found.append(cells)
    if not found:
        raise PuzzleFormatError(f"{name}: no thermometers: one a line expected, cells from the bulb, e.g. 'r1c1 r2c2'")
    return found


def _check_thermo(cells: tuple[int, ...], n: int, where: str) -> None:
    if len(cells) < 2:
        raise PuzzleFormatError(f"{where}: a thermometer needs at least 2 cells")
    for a, b in zip(cells, cells[1:]):
        (ra, ca), (rb, cb) = divmod(a, n), divmod(b, n)
        if max(abs(ra - rb), abs(ca - cb)) != 1:
            raise PuzzleFormatError(f"{where}: {_cell_word(a, n)} and {_cell_word(b, n)} are not neighbours")


def _cell_word(cell: int, n: int) -> str:
    row, col = divmod(cell, n)
    return f"r{row + 1}c{col + 1}"


def _build(shape: Shape, declared: Declared, name: str | None) -> Rules:
    """``rules.build`` of everything declared; its complaints become one line naming the puzzle.

    Plain Sudoku comes back as the one cached ``rules.standard(shape)``, which solvers key their caches on
    (without building it again when nothing is declared: on 64x64 a build takes a second).
    """
    if not (declared.presets or declared.regions is not None or declared.cages or declared.thermos
            or declared.groups):
        return standard(shape)
    try:
        rules = build(
            shape,
            declared.presets or ("standard",),
            regions=declared.regions,
            cages=declared.cages,
            thermos=declared.thermos,
            extra_groups=declared.groups,
        )
    except RulesError as exc:
        if name is None:
            raise UsageError(str(exc)) from None
        raise PuzzleFormatError(f"{name}: {exc}") from None
    return standard(shape) if rules == standard(shape) else rules


# --- JSON: the sudokulab puzzle and the f-puzzles export. -------------------------------------------

def _load_json(text: str, name: str) -> Any:
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise PuzzleFormatError(f"{name}: line {exc.lineno}, column {exc.colno}: not JSON: {exc.msg}") from None
    except RecursionError:
        raise PuzzleFormatError(f"{name}: the JSON is nested too deeply to be a puzzle") from None
    except ValueError as exc:  # a number too long for int(), or NaN / Infinity
        raise PuzzleFormatError(f"{name}: not JSON: {exc}") from None


def _no_constant(word: str) -> Any:
    raise ValueError(f"{word} is not a JSON number")


def _from_document(document: Any, name: str, box: tuple[int, int] | None) -> tuple[Shape, tuple[int, ...], Declared]:
    if not isinstance(document, dict):
        raise PuzzleFormatError(f"{name}: a JSON puzzle is an object")
    if "grid" in document and "givens" not in document:
        return _from_fpuzzles(document, name, box)
    return _from_sudokulab(document, name, box)


_SUDOKULAB_KEYS = ("$schema", "size", "box", "givens", "rules", "regions", "cages", "thermometers", "groups",
                   "title", "author", "source", "solution")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _from_sudokulab(doc: dict, name: str, box: tuple[int, int] | None) -> tuple[Shape, tuple[int, ...], Declared]:
    """A sudokulab JSON puzzle (``schemas/puzzle.schema.json``), checked by hand with one-line errors."""
    for key in doc:
        if key not in _SUDOKULAB_KEYS:
            raise PuzzleFormatError(
                f"{name}: unknown key '{_shown(key)}'; a puzzle has: {', '.join(_SUDOKULAB_KEYS[1:])}")
    for key in ("size", "givens"):
        if key not in doc:
            raise PuzzleFormatError(f"{name}: '{key}' is missing")
    n = doc["size"]
    if not _is_int(n) or not 1 <= n <= boj.MAX_SIZE:
        raise PuzzleFormatError(f"{name}: size: a whole number 1..{boj.MAX_SIZE} expected")
    for key in ("title", "author", "source"):
        if key in doc and not isinstance(doc[key], str):
            raise PuzzleFormatError(f"{name}: {key}: a string expected")
    if "$schema" in doc and not isinstance(doc["$schema"], str):
        raise PuzzleFormatError(f"{name}: $schema: a string expected")
    split = box_shape(n)
    if "box" in doc:
        value = doc["box"]
        if not (isinstance(value, list) and len(value) == 2 and all(_is_int(v) and v >= 1 for v in value)):
            raise PuzzleFormatError(f"{name}: box: [rows, columns] expected, e.g. [2, 3]")
        if value[0] * value[1] != n:
            raise PuzzleFormatError(f"{name}: box: {value[0]}x{value[1]} boxes do not fit a {n}x{n} board")
        split = (value[0], value[1])
        if box is not None and tuple(box) != split:
            raise UsageError(f"--box {box[0]}x{box[1]} contradicts {name}, whose boxes are {split[0]}x{split[1]}")
    elif box is not None:
        if box[0] * box[1] != n:
            raise UsageError(f"box {box[0]}x{box[1]} does not fit a {n}x{n} board")
        split = tuple(box)
    shape = Shape(*split)
    givens = _grid(doc["givens"], n, name, "givens")
    if "solution" in doc:
        solution = _grid(doc["solution"], n, name, "solution")
        if 0 in solution:
            raise PuzzleFormatError(f"{name}: solution: a full grid expected, it has blanks")
    declared = Declared()
    if "rules" in doc:
        value = doc["rules"]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise PuzzleFormatError(f"{name}: rules: a list of names expected, e.g. [\"x\", \"anti-knight\"]")
        for index, word in enumerate(value):
            if word.strip().lower() not in PRESETS:
                raise PuzzleFormatError(
                    f"{name}: rules[{index}]: unknown rules '{_shown(word)}'; choose from: {', '.join(PRESETS)}")
        declared.presets = [word.strip().lower() for word in value]
    if "regions" in doc:
        declared.regions = _json_regions(doc["regions"], shape, name)
    if "cages" in doc:
        declared.cages = _json_cages(doc["cages"], n, name)
    if "thermometers" in doc:
        declared.thermos = [_json_thermo(cells, n, name, f"thermometers[{i}]")
                            for i, cells in enumerate(_list(doc["thermometers"], name, "thermometers"))]
    if "groups" in doc:
        declared.groups = [_json_cells(cells, n, name, f"groups[{i}]")
                           for i, cells in enumerate(_list(doc["groups"], name, "groups"))]
    return shape, givens, declared


def _list(value: Any, name: str, at: str) -> list:
    if not isinstance(value, list):
        raise PuzzleFormatError(f"{name}: {at}: a list expected")
    return value


def _grid(value: Any, n: int, name: str, at: str) -> tuple[int, ...]:
    """n rows of n numbers 0..n, or (n <= 9) one string of n*n digits and dots (whitespace ignored)."""
    if isinstance(value, str):
        chars = "".join(value.split())
        if n > 9:
            raise PuzzleFormatError(f"{name}: {at}: a {n}x{n} board needs rows of numbers, not a string")
        if len(chars) != n * n:
            raise PuzzleFormatError(f"{name}: {at}: {n * n} characters expected, found {len(chars)}")
        values = []
        for position, char in enumerate(chars, 1):
            if char == ".":
                values.append(0)
            elif char in "0123456789" and int(char) <= n:
                values.append(int(char))
            else:
                raise PuzzleFormatError(f"{name}: {at}: character {position}: '{char}' is not a digit 0..{n} or '.'")
        return tuple(values)
    rows = _list(value, name, at)
    if len(rows) != n:
        raise PuzzleFormatError(f"{name}: {at}: {n} rows expected, found {len(rows)}")
    values = []
    for r, row in enumerate(rows):
        row = _list(row, name, f"{at}[{r}]")
        if len(row) != n:
            raise PuzzleFormatError(f"{name}: {at}[{r}]: {n} numbers expected, found {len(row)}")
        for c, v in enumerate(row):
            if not _is_int(v) or not 0 <= v <= n:
                raise PuzzleFormatError(f"{name}: {at}[{r}][{c}]: a number 0..{n} expected (0 for a blank)")
            values.append(v)
    return tuple(values)


def _json_regions(value: Any, shape: Shape, name: str) -> list[int]:
    n = shape.n
    rows = _list(value, name, "regions")
    if len(rows) != n:
        raise PuzzleFormatError(f"{name}: regions: {n} rows expected, found {len(rows)}")
    labels: list[object] = []
    for r, row in enumerate(rows):
        at = f"regions[{r}]"
        if isinstance(row, str):
            row = list(row)
        row = _list(row, name, at)
        if len(row) != n:
            raise PuzzleFormatError(f"{name}: {at}: {n} labels expected, found {len(row)}")
        for c, label in enumerate(row):
            if not (_is_int(label) or isinstance(label, str)):
                raise PuzzleFormatError(f"{name}: {at}[{c}]: a label is a number or a string")
            labels.append(label)
    return _region_numbers(labels, shape, name + ": regions")


def _json_cells(value: Any, n: int, name: str, at: str) -> tuple[int, ...]:
    tokens = _list(value, name, at)
    for index, token in enumerate(tokens):
        if not isinstance(token, str):
            raise PuzzleFormatError(f"{name}: {at}[{index}]: a cell is a string such as \"r1c1\"")
    return _cells(tokens, n, at, name)


def _json_cages(value: Any, n: int, name: str) -> list[CageData]:
    found: list[CageData] = []
    caged: dict[int, int] = {}
    for index, cage in enumerate(_list(value, name, "cages")):
        at = f"cages[{index}]"
        if not isinstance(cage, dict):
            raise PuzzleFormatError(f"{name}: {at}: a cage is {{\"cells\": [...], \"sum\": 15}}")
        for key in cage:
            if key not in ("cells", "sum"):
                raise PuzzleFormatError(f"{name}: {at}: unknown key '{_shown(key)}'; a cage has cells and sum")
        if "cells" not in cage or "sum" not in cage:
            raise PuzzleFormatError(f"{name}: {at}: a cage has both 'cells' and 'sum'")
        cells = _json_cells(cage["cells"], n, name, f"{at}.cells")
        total = cage["sum"]
        if not _is_int(total):
            raise PuzzleFormatError(f"{name}: {at}.sum: a whole number expected")
        _check_cage(cells, total, n, f"{name}: {at}")
        for cell in cells:
            if cell in caged:
                raise PuzzleFormatError(f"{name}: {at}: {_cell_word(cell, n)} is in cages[{caged[cell]}] too")
            caged[cell] = index
        found.append((cells, total))
    return found


def _json_thermo(value: Any, n: int, name: str, at: str) -> tuple[int, ...]:
    cells = _json_cells(value, n, name, at)
    _check_thermo(cells, n, f"{name}: {at}")
    return cells


# --- f-puzzles. -----------------------------------------------------------------------------------

_FPUZZLES_IGNORED = {"title", "author", "ruleset", "solution", "highlightConflicts", "disabledlogic",
                     "truecandidatesoptions", "activeConstraints"}
"""Keys of an f-puzzles export that are settings of the site or notes for people, never rules."""
_FPUZZLES_CELL_IGNORED = {"value", "given", "region", "c", "highlight", "centerPencilMarks", "cornerPencilMarks"}
_FPUZZLES_READ = {"size", "grid", "diagonal+", "diagonal-", "antiknight", "antiking", "killercage",
                  "thermometer", "extraregion", "cage"}


def _decompressed(text: str, name: str) -> Any:
    """The JSON object in an lz-string compressed base64 word (or an f-puzzles link), else None.

    A word that does not decompress to a JSON object is left to the BOJ reader (``abc`` is a bad
    grid, not a bad export); a link (``...?load=WORD``) that does not is an error here.
    """
    if any(ch.isspace() for ch in text):
        return None
    link = "?load=" in text
    word = urllib.parse.unquote(text.split("?load=", 1)[1].split("&", 1)[0]) if link else text
    if not _BASE64.match(word) or word.isdigit():
        if link:
            raise PuzzleFormatError(f"{name}: the link's ?load= data is not lz-string compressed base64")
        return None
    if len(word) > MAX_COMPRESSED:
        raise PuzzleFormatError(
            f"{name}: a compressed f-puzzles word of {len(word)} characters is longer than the {MAX_COMPRESSED} read; "
            "save the export as plain JSON instead")
    document = _lz_json(word, name)
    if document is None and link:
        raise PuzzleFormatError(f"{name}: the link's ?load= data does not decompress to an f-puzzles export")
    return document


def _lz_json(word: str, name: str) -> dict | None:
    """lz-string's base64 (or URI-safe, with ``-`` and ``$``) decompression of a word, parsed as a JSON object."""
    try:
        from lzstring import LZString
    except ImportError:  # pragma: no cover - a declared dependency
        if not _looks_compressed(word):
            return None  # a short word ("abc") is a bad grid for the BOJ reader to name
        raise UsageError(
            "reading a compressed f-puzzles export needs the lzstring package (pip install lzstring)") from None
    try:
        if "-" in word or "$" in word:
            plain = LZString().decompressFromEncodedURIComponent(word)
        else:
            plain = LZString().decompressFromBase64(word)
    except Exception:  # lz-string's decoder fails in many ways on words it did not write (IndexError,
        return None  # KeyError, UnboundLocalError, ...): any of them means "not a compressed export"
    if not isinstance(plain, str) or not plain.lstrip().startswith("{"):
        return None
    if len(plain) > boj.MAX_INPUT_BYTES:
        raise PuzzleFormatError(
            f"{name}: the decompressed f-puzzles export is larger than {boj.MAX_INPUT_BYTES} characters")
    try:
        document = json.loads(plain, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        return None
    return document if isinstance(document, dict) else None


def _empty(value: Any) -> bool:
    return value is None or value is False or value == "" or value == [] or value == {}


def _from_fpuzzles(doc: dict, name: str, box: tuple[int, int] | None) -> tuple[Shape, tuple[int, ...], Declared]:
    """An f-puzzles export: givens, regions and the constraint kinds of ``rules``; anything else refused."""
    name = f"{name} (f-puzzles)"
    if "grid" not in doc:
        raise PuzzleFormatError(f"{name}: 'grid' is missing: not an f-puzzles export")
    unsupported = sorted(str(key) for key, value in doc.items()
                         if key not in _FPUZZLES_READ and key not in _FPUZZLES_IGNORED and not _empty(value))
    notes = doc.get("cage")  # cosmetic cages; those with no cells only carry notes (sudokupad's title: ...)
    if not _empty(notes) and not (isinstance(notes, list)
                                  and all(isinstance(c, dict) and _empty(c.get("cells")) for c in notes)):
        unsupported = sorted(unsupported + ["cage"])
    if unsupported:
        raise PuzzleFormatError(f"{name}: unsupported constraint{'s' if len(unsupported) > 1 else ''}: "
                                f"{', '.join(_shown(u) for u in unsupported)}")
    n = doc.get("size")
    if not _is_int(n) or not 1 <= n <= boj.MAX_SIZE:
        raise PuzzleFormatError(f"{name}: size: a whole number 1..{boj.MAX_SIZE} expected")
    if box is not None and box[0] * box[1] != n:
        raise UsageError(f"box {box[0]}x{box[1]} does not fit a {n}x{n} board")
    shape = Shape(*(box or box_shape(n)))
    rows = _list(doc.get("grid"), name, "grid")
    if len(rows) != n:
        raise PuzzleFormatError(f"{name}: grid: {n} rows expected, found {len(rows)}")
    givens: list[int] = []
    labels: list[int] = []
    pencilled = []
    for r, row in enumerate(rows):
        row = _list(row, name, f"grid[{r}]")
        if len(row) != n:
            raise PuzzleFormatError(f"{name}: grid[{r}]: {n} cells expected, found {len(row)}")
        for c, cell in enumerate(row):
            at = f"grid[{r}][{c}] (r{r + 1}c{c + 1})"
            if cell is None:
                cell = {}
            if not isinstance(cell, dict):
                raise PuzzleFormatError(f"{name}: {at}: a cell is an object")
            if not _empty(cell.get("givenPencilMarks")):
                pencilled.append(f"r{r + 1}c{c + 1}")
            given = cell.get("given", False)
            if not isinstance(given, bool):
                raise PuzzleFormatError(f"{name}: {at}: 'given' is true or false")
            value = cell.get("value")
            digit = 0
            if given:
                digit = _fpuzzles_number(value, name, f"{at}.value")
                if not 1 <= digit <= n:
                    raise PuzzleFormatError(f"{name}: {at}: the given {digit} is outside 1..{n}")
            givens.append(digit)
            region = cell["region"] if "region" in cell else shape.box_of(r, c)
            if region is None:
                raise PuzzleFormatError(f"{name}: {at}: the cell is in no region: unsupported constraint")
            if not _is_int(region):
                raise PuzzleFormatError(f"{name}: {at}.region: a whole number expected")
            labels.append(region)
    if pencilled:
        raise PuzzleFormatError(f"{name}: unsupported constraint: givenPencilMarks ({', '.join(pencilled[:3])}"
                                f"{', ...' if len(pencilled) > 3 else ''})")
    declared = Declared()
    if any(label != shape.box_of(*divmod(cell, n)) for cell, label in enumerate(labels)):
        declared.regions = _region_numbers(labels, shape, f"{name}: grid regions")
    flags = {}
    for key in ("diagonal+", "diagonal-", "antiknight", "antiking"):
        flags[key] = doc.get(key) or False
        if not isinstance(flags[key], bool):
            raise PuzzleFormatError(f"{name}: {key}: true or false expected")
    plus, minus = flags["diagonal+"], flags["diagonal-"]
    if plus and minus:
        declared.presets.append("x")
    elif minus:
        declared.groups.append(tuple(i * n + i for i in range(n)))
    elif plus:
        declared.groups.append(tuple((n - 1 - i) * n + i for i in range(n)))
    if flags["antiknight"]:
        declared.presets.append("anti-knight")
    if flags["antiking"]:
        declared.presets.append("anti-king")
    caged: dict[int, int] = {}
    for index, cage in enumerate(_list(doc.get("killercage") or [], name, "killercage")):
        at = f"killercage[{index}]"
        if not isinstance(cage, dict):
            raise PuzzleFormatError(f"{name}: {at}: a cage is an object")
        cells = _fpuzzles_cells(cage.get("cells"), n, name, f"{at}.cells")
        for cell in cells:
            if cell in caged:
                raise PuzzleFormatError(f"{name}: {at}: {_cell_word(cell, n)} is in killercage[{caged[cell]}] too")
            caged[cell] = index
        if _empty(cage.get("value")):
            declared.groups.append(cells)
            continue
        total = _fpuzzles_number(cage.get("value"), name, f"{at}.value")
        _check_cage(cells, total, n, f"{name}: {at}")
        declared.cages.append((cells, total))
    for index, thermo in enumerate(_list(doc.get("thermometer") or [], name, "thermometer")):
        at = f"thermometer[{index}]"
        if not isinstance(thermo, dict):
            raise PuzzleFormatError(f"{name}: {at}: a thermometer is an object with 'lines'")
        for line_index, line in enumerate(_list(thermo.get("lines"), name, f"{at}.lines")):
            cells = _fpuzzles_cells(line, n, name, f"{at}.lines[{line_index}]")
            _check_thermo(cells, n, f"{name}: {at}.lines[{line_index}]")
            declared.thermos.append(cells)
    for index, region in enumerate(_list(doc.get("extraregion") or [], name, "extraregion")):
        at = f"extraregion[{index}]"
        if not isinstance(region, dict):
            raise PuzzleFormatError(f"{name}: {at}: an extra region is an object with 'cells'")
        declared.groups.append(_fpuzzles_cells(region.get("cells"), n, name, f"{at}.cells"))
    return shape, tuple(givens), declared


def _fpuzzles_number(value: Any, name: str, at: str) -> int:
    """A number f-puzzles writes as a number or a string of digits ("15")."""
    if isinstance(value, str) and boj.INTEGER.match(value.strip()) and boj.small_number(value.strip()) is not None:
        return int(value.strip())
    if _is_int(value) and abs(value) < 10**9:
        return value
    raise PuzzleFormatError(f"{name}: {at}: a whole number expected")


def _fpuzzles_cells(value: Any, n: int, name: str, at: str) -> tuple[int, ...]:
    return _json_cells(value, n, name, at)
