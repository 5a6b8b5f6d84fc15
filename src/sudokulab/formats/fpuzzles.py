"""f-puzzles exports, plain JSON or lz-string compressed (one word, or an f-puzzles link), read into
what a puzzle declares.

``puzzle_files.read_puzzle`` tells a file's kind by its text and hands an export here. What is read,
what is ignored and what is refused: docs/formats.md, "f-puzzles exports". A key that may draw a
constraint sudokulab cannot honour is refused with one line naming it: a puzzle read without one of
its constraints would have other answers.
"""

from __future__ import annotations

import json
import re
import urllib.parse
from typing import Any

from ..core.cells import cell_label
from ..core.grid import Shape, box_shape
from ..core.rules import check_cage, check_thermo
from ..errors import PuzzleFormatError, UsageError
from . import boj
from .declared import Declared, is_int, json_cells, json_list, no_constant
from .rule_files import region_numbers, reported_at, shown

_BASE64 = re.compile(r"[A-Za-z0-9+/=$-]+\Z")
MAX_COMPRESSED = 1 << 14
"""The longest compressed f-puzzles word read (16 KiB; real exports are a few kilobytes): lz-string's
output can grow with the square of its input, so a longer word is refused before it is decompressed
rather than filling the memory."""


def looks_compressed(text: str) -> bool:
    """One long word of base64 letters, mixed case: what a compressed export looks like, not a typo'd grid."""
    return (len(text) >= 16 and _BASE64.match(text) is not None and any(c.isupper() for c in text)
            and any(c.islower() for c in text))


_FPUZZLES_IGNORED = {"title", "author", "ruleset", "solution", "highlightConflicts", "disabledlogic",
                     "truecandidatesoptions", "activeConstraints"}
"""Keys of an f-puzzles export that are settings of the site or notes for people, never rules."""
_FPUZZLES_CELL_IGNORED = {"value", "given", "region", "c", "highlight", "centerPencilMarks", "cornerPencilMarks"}
_FPUZZLES_READ = {"size", "grid", "diagonal+", "diagonal-", "antiknight", "antiking", "killercage",
                  "thermometer", "extraregion", "cage"}


def decompressed(text: str, name: str) -> Any:
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
        if not looks_compressed(word):
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
        document = json.loads(plain, parse_constant=no_constant)
    except (ValueError, RecursionError):
        return None
    return document if isinstance(document, dict) else None


def _empty(value: Any) -> bool:
    return value is None or value is False or value == "" or value == [] or value == {}


def from_export(doc: dict, name: str, box: tuple[int, int] | None) -> tuple[Shape, tuple[int, ...], Declared]:
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
                                f"{', '.join(shown(u) for u in unsupported)}")
    n = doc.get("size")
    if not is_int(n) or not 1 <= n <= boj.MAX_SIZE:
        raise PuzzleFormatError(f"{name}: size: a whole number 1..{boj.MAX_SIZE} expected")
    if box is not None and box[0] * box[1] != n:
        raise UsageError(f"box {box[0]}x{box[1]} does not fit a {n}x{n} board")
    shape = Shape(*(box or box_shape(n)))
    rows = json_list(doc.get("grid"), name, "grid")
    if len(rows) != n:
        raise PuzzleFormatError(f"{name}: grid: {n} rows expected, found {len(rows)}")
    givens: list[int] = []
    labels: list[int] = []
    pencilled = []
    for r, row in enumerate(rows):
        row = json_list(row, name, f"grid[{r}]")
        if len(row) != n:
            raise PuzzleFormatError(f"{name}: grid[{r}]: {n} cells expected, found {len(row)}")
        for c, cell in enumerate(row):
            at = f"grid[{r}][{c}] ({cell_label(r * n + c, n)})"
            if cell is None:
                cell = {}
            if not isinstance(cell, dict):
                raise PuzzleFormatError(f"{name}: {at}: a cell is an object")
            if not _empty(cell.get("givenPencilMarks")):
                pencilled.append(cell_label(r * n + c, n))
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
            if not is_int(region):
                raise PuzzleFormatError(f"{name}: {at}.region: a whole number expected")
            labels.append(region)
    if pencilled:
        raise PuzzleFormatError(f"{name}: unsupported constraint: givenPencilMarks ({', '.join(pencilled[:3])}"
                                f"{', ...' if len(pencilled) > 3 else ''})")
    declared = Declared()
    if any(label != shape.box_of(*divmod(cell, n)) for cell, label in enumerate(labels)):
        declared.regions = region_numbers(labels, shape, f"{name}: grid regions")
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
    for index, cage in enumerate(json_list(doc.get("killercage") or [], name, "killercage")):
        at = f"killercage[{index}]"
        if not isinstance(cage, dict):
            raise PuzzleFormatError(f"{name}: {at}: a cage is an object")
        cells = json_cells(cage.get("cells"), n, name, f"{at}.cells")
        for cell in cells:
            if cell in caged:
                raise PuzzleFormatError(f"{name}: {at}: {cell_label(cell, n)} is in killercage[{caged[cell]}] too")
            caged[cell] = index
        if _empty(cage.get("value")):
            declared.groups.append(cells)
            continue
        total = _fpuzzles_number(cage.get("value"), name, f"{at}.value")
        with reported_at(f"{name}: {at}"):
            check_cage(cells, total, n)
        declared.cages.append((cells, total))
    for index, thermo in enumerate(json_list(doc.get("thermometer") or [], name, "thermometer")):
        at = f"thermometer[{index}]"
        if not isinstance(thermo, dict):
            raise PuzzleFormatError(f"{name}: {at}: a thermometer is an object with 'lines'")
        for line_index, line in enumerate(json_list(thermo.get("lines"), name, f"{at}.lines")):
            cells = json_cells(line, n, name, f"{at}.lines[{line_index}]")
            with reported_at(f"{name}: {at}.lines[{line_index}]"):
                check_thermo(cells, n, cell_label)
            declared.thermos.append(cells)
    for index, region in enumerate(json_list(doc.get("extraregion") or [], name, "extraregion")):
        at = f"extraregion[{index}]"
        if not isinstance(region, dict):
            raise PuzzleFormatError(f"{name}: {at}: an extra region is an object with 'cells'")
        declared.groups.append(json_cells(region.get("cells"), n, name, f"{at}.cells"))
    return shape, tuple(givens), declared


def _fpuzzles_number(value: Any, name: str, at: str) -> int:
    """A number f-puzzles writes as a number or a string of digits ("15")."""
    if isinstance(value, str) and boj.INTEGER.match(value.strip()) and boj.small_number(value.strip()) is not None:
        return int(value.strip())
    if is_int(value) and abs(value) < 10**9:
        return value
    raise PuzzleFormatError(f"{name}: {at}: a whole number expected")
