"""A puzzle file and the rule options beside it, turned into one ``Puzzle``.

``read_puzzle`` reads a file (or ``-`` for standard input, at most ``boj.MAX_INPUT_BYTES``), tells
its kind by its text (a sudokulab JSON puzzle, read here; an f-puzzles export, plain or compressed,
``fpuzzles``; else a BOJ form, ``boj``) and adds what the options declare: ``--rules`` presets and
the ``--regions``, ``--cages`` and ``--thermos`` files (``rule_files``). ``rules.build`` combines and
checks the whole. ``read_rules`` is the same without a puzzle file, for datasets that share one rule
set. The formats, and how a file's kind is told: docs/formats.md.

Every error is one line naming the file and the place (``puzzle.json: cages[2].sum: ...``); input
that is no puzzle raises ``PuzzleFormatError``, a bad option ``UsageError`` (both exit 2).

Roads not taken: guessing a file's kind from its name (``.json``) rather than its text (standard
input has no name); a JSON Schema validator at run time (one more dependency for messages no
clearer than the hand-written checks here; the tests validate the examples against the schema).
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from typing import Any

from ..core.cells import cell_label
from ..core.grid import Shape, box_shape
from ..core.puzzle import Puzzle
from ..core.rules import (
    NEEDS_DATA,
    PRESETS,
    Rules,
    RulesError,
    build,
    check_cage,
    check_thermo,
    parse_presets,
    standard,
)
from ..errors import PuzzleFormatError, UsageError
from . import boj, fpuzzles
from .declared import Declared, is_int, json_cells, json_list, no_constant
from .rule_files import CageData, parse_cages, parse_regions, parse_thermos, region_numbers, reported_at, shown

# --- The public interface. ------------------------------------------------------------------------

def read_puzzle(
    source: str | os.PathLike,
    *,
    box: tuple[int, int] | None = None,
    rules: str | Sequence[str] | None = None,
    regions: str | os.PathLike | None = None,
    cages: str | os.PathLike | None = None,
    thermos: str | os.PathLike | None = None,
) -> Puzzle:
    """A puzzle file (or ``-`` for stdin) of any accepted kind, with the options' rules added: ``rules`` is
    the text of ``--rules`` or the preset names (``rules.parse_presets`` reads both), the others are files.

    The file's kind is told by its text (JSON object, compressed f-puzzles word, or BOJ); see the
    module docstring. Every error is one line naming the file and where.
    """
    return puzzle_from_text(boj.read_text(source), boj.source_name(source), box=box, rules=rules, regions=regions,
                            cages=cages, thermos=thermos)


def puzzle_from_text(
    text: str,
    name: str,
    *,
    box: tuple[int, int] | None = None,
    rules: str | Sequence[str] | None = None,
    regions: str | os.PathLike | None = None,
    cages: str | os.PathLike | None = None,
    thermos: str | os.PathLike | None = None,
) -> Puzzle:
    """``read_puzzle`` of a file's text, read already (``name`` names it in errors)."""
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
    rules: str | Sequence[str] | None = None,
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
    document = fpuzzles.decompressed(stripped, name)
    if document is not None:
        return fpuzzles.from_export(document, name, box)
    try:
        puzzle = boj.parse_puzzle(text, box)
    except PuzzleFormatError as exc:
        if fpuzzles.looks_compressed(stripped):
            raise PuzzleFormatError(
                f"{name}: one word that is neither a puzzle nor an lz-string compressed f-puzzles export") from None
        raise PuzzleFormatError(f"{name}: {exc}") from None
    return puzzle.shape, puzzle.givens, Declared()


# --- Options and text rule files. -----------------------------------------------------------------

def _declared_by_options(
    shape: Shape,
    rules: str | Sequence[str] | None,
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
        return json.loads(text, parse_constant=no_constant)
    except json.JSONDecodeError as exc:
        raise PuzzleFormatError(f"{name}: line {exc.lineno}, column {exc.colno}: not JSON: {exc.msg}") from None
    except RecursionError:
        raise PuzzleFormatError(f"{name}: the JSON is nested too deeply to be a puzzle") from None
    except ValueError as exc:  # a number too long for int(), or NaN / Infinity
        raise PuzzleFormatError(f"{name}: not JSON: {exc}") from None


def _from_document(document: Any, name: str, box: tuple[int, int] | None) -> tuple[Shape, tuple[int, ...], Declared]:
    if not isinstance(document, dict):
        raise PuzzleFormatError(f"{name}: a JSON puzzle is an object")
    if "grid" in document and "givens" not in document:
        return fpuzzles.from_export(document, name, box)
    return _from_sudokulab(document, name, box)


_SUDOKULAB_KEYS = ("$schema", "size", "box", "givens", "rules", "regions", "cages", "thermometers", "groups",
                   "title", "author", "source", "solution")


def _from_sudokulab(doc: dict, name: str, box: tuple[int, int] | None) -> tuple[Shape, tuple[int, ...], Declared]:
    """A sudokulab JSON puzzle (``schemas/puzzle.schema.json``), checked by hand with one-line errors."""
    for key in doc:
        if key not in _SUDOKULAB_KEYS:
            raise PuzzleFormatError(
                f"{name}: unknown key '{shown(key)}'; a puzzle has: {', '.join(_SUDOKULAB_KEYS[1:])}")
    for key in ("size", "givens"):
        if key not in doc:
            raise PuzzleFormatError(f"{name}: '{key}' is missing")
    n = doc["size"]
    if not is_int(n) or not 1 <= n <= boj.MAX_SIZE:
        raise PuzzleFormatError(f"{name}: size: a whole number 1..{boj.MAX_SIZE} expected")
    for key in ("title", "author", "source"):
        if key in doc and not isinstance(doc[key], str):
            raise PuzzleFormatError(f"{name}: {key}: a string expected")
    if "$schema" in doc and not isinstance(doc["$schema"], str):
        raise PuzzleFormatError(f"{name}: $schema: a string expected")
    split = box_shape(n)
    if "box" in doc:
        value = doc["box"]
        if not (isinstance(value, list) and len(value) == 2 and all(is_int(v) and v >= 1 for v in value)):
            raise PuzzleFormatError(f"{name}: box: [rows, columns] expected, e.g. [2, 3]")
        if value[0] * value[1] != n:
            raise PuzzleFormatError(f"{name}: box: {value[0]}x{value[1]} boxes do not fit a {n}x{n} board")
        split = (value[0], value[1])
        if box is not None and tuple(box) != split:
            raise UsageError(f"--box {box[0]}x{box[1]} contradicts {name}, whose boxes are {split[0]}x{split[1]}")
    elif box is not None:
        if box[0] * box[1] != n:
            raise UsageError(f"box {box[0]}x{box[1]} does not fit a {n}x{n} board")
        split = (box[0], box[1])
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
                    f"{name}: rules[{index}]: unknown rules '{shown(word)}'; choose from: {', '.join(PRESETS)}")
        declared.presets = [word.strip().lower() for word in value]
    if "regions" in doc:
        declared.regions = _json_regions(doc["regions"], shape, name)
    if "cages" in doc:
        declared.cages = _json_cages(doc["cages"], n, name)
    if "thermometers" in doc:
        declared.thermos = [_json_thermo(cells, n, name, f"thermometers[{i}]")
                            for i, cells in enumerate(json_list(doc["thermometers"], name, "thermometers"))]
    if "groups" in doc:
        declared.groups = [json_cells(cells, n, name, f"groups[{i}]")
                           for i, cells in enumerate(json_list(doc["groups"], name, "groups"))]
    return shape, givens, declared


def _grid(value: Any, n: int, name: str, at: str) -> tuple[int, ...]:
    """n rows of n numbers 0..n, or (n <= 9) one string of n*n digits and dots (whitespace ignored)."""
    if isinstance(value, str):
        chars = "".join(value.split())
        if n > 9:
            raise PuzzleFormatError(f"{name}: {at}: a {n}x{n} board needs rows of numbers, not a string")
        if len(chars) != n * n:
            raise PuzzleFormatError(f"{name}: {at}: {n * n} characters expected, found {len(chars)}")
        return tuple(boj.one_line_values(chars, n, f"{name}: {at}: character"))
    rows = json_list(value, name, at)
    if len(rows) != n:
        raise PuzzleFormatError(f"{name}: {at}: {n} rows expected, found {len(rows)}")
    values = []
    for r, row in enumerate(rows):
        row = json_list(row, name, f"{at}[{r}]")
        if len(row) != n:
            raise PuzzleFormatError(f"{name}: {at}[{r}]: {n} numbers expected, found {len(row)}")
        for c, v in enumerate(row):
            if not is_int(v) or not 0 <= v <= n:
                raise PuzzleFormatError(f"{name}: {at}[{r}][{c}]: a number 0..{n} expected (0 for a blank)")
            values.append(v)
    return tuple(values)


def _json_regions(value: Any, shape: Shape, name: str) -> list[int]:
    n = shape.n
    rows = json_list(value, name, "regions")
    if len(rows) != n:
        raise PuzzleFormatError(f"{name}: regions: {n} rows expected, found {len(rows)}")
    labels: list[object] = []
    for r, row in enumerate(rows):
        at = f"regions[{r}]"
        if isinstance(row, str):
            row = list(row)
        row = json_list(row, name, at)
        if len(row) != n:
            raise PuzzleFormatError(f"{name}: {at}: {n} labels expected, found {len(row)}")
        for c, label in enumerate(row):
            if not (is_int(label) or isinstance(label, str)):
                raise PuzzleFormatError(f"{name}: {at}[{c}]: a label is a number or a string")
            labels.append(label)
    return region_numbers(labels, shape, name + ": regions")


def _json_cages(value: Any, n: int, name: str) -> list[CageData]:
    found: list[CageData] = []
    caged: dict[int, int] = {}
    for index, cage in enumerate(json_list(value, name, "cages")):
        at = f"cages[{index}]"
        if not isinstance(cage, dict):
            raise PuzzleFormatError(f"{name}: {at}: a cage is {{\"cells\": [...], \"sum\": 15}}")
        for key in cage:
            if key not in ("cells", "sum"):
                raise PuzzleFormatError(f"{name}: {at}: unknown key '{shown(key)}'; a cage has cells and sum")
        if "cells" not in cage or "sum" not in cage:
            raise PuzzleFormatError(f"{name}: {at}: a cage has both 'cells' and 'sum'")
        cells = json_cells(cage["cells"], n, name, f"{at}.cells")
        total = cage["sum"]
        if not is_int(total):
            raise PuzzleFormatError(f"{name}: {at}.sum: a whole number expected")
        with reported_at(f"{name}: {at}"):
            check_cage(cells, total, n)
        for cell in cells:
            if cell in caged:
                raise PuzzleFormatError(f"{name}: {at}: {cell_label(cell, n)} is in cages[{caged[cell]}] too")
            caged[cell] = index
        found.append((cells, total))
    return found


def _json_thermo(value: Any, n: int, name: str, at: str) -> tuple[int, ...]:
    cells = json_cells(value, n, name, at)
    with reported_at(f"{name}: {at}"):
        check_thermo(cells, n, cell_label)
    return cells

