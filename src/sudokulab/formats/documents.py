"""The one JSON contract: what ``--json`` prints, for every command.

With ``--json`` a command prints exactly one JSON document on standard output and nothing else (or
JSON Lines, one document per puzzle); every command's document is described by
``schemas/<command>.schema.json`` in this package (draft 2020-12, named by ``$id``
``urn:sudokulab:schema:<name>``, resolved by ``validator``), and the tests validate every command's
output against it. A failed run prints ``{"error": "<the one line>", "exit": <code>}``
(``emit_error``, from ``cli.main``, unless the command printed its own, as ``solve`` with no solution does). This is
the only place that turns a document into text, so every command's JSON looks the same (two-space
indentation, lists of numbers on one line so a board stays readable; ``compact`` for JSON Lines
rows, CSV cells and exported headers). The schemas: docs/json.md.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import IO, TYPE_CHECKING, Any

from ..core.cells import cell_label

if TYPE_CHECKING:
    from ..core.puzzle import Puzzle
    from ..core.rules import Rules

def _is_row(value: Any) -> bool:
    """A list of numbers (a grid's row, a box shape): printed on one line."""
    return isinstance(value, list | tuple) and bool(value) and all(
        isinstance(item, int | float) or item is None for item in value)


def _rows_placeholder(document: Any, rows: list[Any]) -> Any:
    """Replace every list of numbers by a placeholder string, kept in ``rows``."""
    if isinstance(document, Mapping):
        return {key: _rows_placeholder(value, rows) for key, value in document.items()}
    if _is_row(document):
        rows.append(list(document))
        return f"\0row{len(rows) - 1}"
    if isinstance(document, list | tuple):
        return [_rows_placeholder(item, rows) for item in document]
    return document


def dumps(document: Any) -> str:
    """The document as text: indented, each list of numbers on one line (a grid's row ``[5, 3, 0, ...]``)."""
    import json  # here, not at the top: every command imports this module, few print JSON

    rows: list[Any] = []
    text = json.dumps(_rows_placeholder(document, rows), indent=2, default=str, ensure_ascii=False)
    for i, row in enumerate(rows):
        text = text.replace(json.dumps(f"\0row{i}"), json.dumps(row, default=str), 1)
    return text


class _Printed:
    """Whether this run has printed a document on standard output yet: a run that printed its
    document and then fails (``solve`` with no solution, exit 1) must not print a second one."""

    on_stdout = False


def begin() -> None:
    """A new run (``cli.main``): nothing printed yet."""
    _Printed.on_stdout = False


def printed() -> bool:
    """Whether a document (or a JSON Lines row) went to standard output in this run."""
    return _Printed.on_stdout


def _target(stream: IO[str] | None) -> IO[str]:
    if stream is None or stream is sys.stdout:
        _Printed.on_stdout = True
        return sys.stdout
    return stream


def emit(document: Mapping[str, Any], stream: IO[str] | None = None) -> None:
    """Print one document (the whole of a command's ``--json`` output) on standard output."""
    _write(_target(stream), dumps(document) + "\n")


def _write(target: IO[str], text: str) -> None:
    """JSON text as it is, or with every character past ASCII escaped (``\\u2260``) where the stream
    cannot encode it (``PYTHONIOENCODING=ascii``): the same document to any JSON reader."""
    if not text.isascii():
        try:
            text.encode(getattr(target, "encoding", None) or "utf-8")
        except (UnicodeEncodeError, LookupError):
            text = "".join(c if c.isascii() else _escaped(c) for c in text)
    target.write(text)


def _escaped(char: str) -> str:
    code = ord(char)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def compact(value: Any) -> str:
    """A value as one line of JSON (a JSON Lines row, a CSV cell, a formula's header comment)."""
    import json

    return json.dumps(value, separators=(",", ":"), default=str, ensure_ascii=False)


def emit_line(row: Mapping[str, Any], stream: IO[str] | None = None) -> None:
    """Print one JSON Lines row (commands that produce a row per puzzle)."""
    _write(_target(stream), compact(row) + "\n")


def error_document(message: str, code: int) -> dict[str, Any]:
    """What a failed ``--json`` run prints: the one error line and the exit code."""
    return {"error": message, "exit": int(code)}


def emit_error(message: str, code: int) -> None:
    """A failed ``--json`` run's document, on one line whatever the command (a JSON Lines stream's
    reader takes it as one more row), unless the run printed its own already (it says why)."""
    if not printed():
        emit_line(error_document(message, code))


JSON_FLAG = "--json"


def asked_for_json(argv: Iterable[str], parsed: Any = None) -> bool:
    """Whether a run asked for JSON: the parsed ``--json`` flag or ``--format json``, or (when the
    arguments did not parse) either among the raw arguments, so a usage error is a JSON document too."""
    if parsed is not None and hasattr(parsed, "json"):
        return bool(parsed.json) or getattr(parsed, "format", None) == "json"
    words = list(argv)
    return JSON_FLAG in words or "--format=json" in words or any(
        word == "--format" and following == "json" for word, following in zip(words, words[1:]))


def grid_rows(grid: Iterable[int] | None, n: int) -> list[list[int]] | None:
    """A grid as n rows of n numbers (0 blank), the form every document gives a board in."""
    if grid is None:
        return None
    cells = list(grid)
    return [cells[r * n:(r + 1) * n] for r in range(n)]


def rules_fields(rules: Rules) -> dict[str, Any]:
    """A rule set as the fields of a JSON puzzle file (``schemas/puzzle.schema.json``), for the
    documents that describe a puzzle: ``rules`` (its presets) and, when it has them,
    ``regions`` (n rows of region numbers), ``cages`` (``rNcM`` cells and ``sum``),
    ``thermometers`` and ``groups`` (extra all-different groups).

    >>> from sudokulab.core.grid import Shape
    >>> from sudokulab.core.rules import build
    >>> rules_fields(build(Shape(2, 2), ["x"]))
    {'rules': ['standard', 'x']}
    >>> rules_fields(build(Shape(2, 2), cages=[((0, 1), 3)]))["cages"]
    [{'cells': ['r1c1', 'r1c2'], 'sum': 3}]
    """
    n = rules.n

    def cells(indices: tuple[int, ...]) -> list[str]:
        return [cell_label(cell, n) for cell in indices]

    document: dict[str, Any] = {"rules": list(rules.presets)}
    regions = [group for group in rules.groups if group.kind == "region"]
    if regions:
        labels = [0] * rules.shape.cells
        for number, group in enumerate(regions, 1):
            for cell in group.cells:
                labels[cell] = number
        document["regions"] = [labels[r * n:(r + 1) * n] for r in range(n)]
    if rules.cages:
        document["cages"] = [{"cells": cells(cage.cells), "sum": cage.total} for cage in rules.cages]
    if rules.thermos:
        document["thermometers"] = [cells(thermo.cells) for thermo in rules.thermos]
    extra = [cells(group.cells) for group in rules.groups if group.kind == "group"]
    if extra:
        document["groups"] = extra
    return document


def puzzle_fields(puzzle: Puzzle) -> dict[str, Any]:
    """The fields that say which board a document is about: size, box shape and rules."""
    return {"size": puzzle.n, "box": [puzzle.shape.box_rows, puzzle.shape.box_cols], **rules_fields(puzzle.rules)}


SCHEMA_ID = "urn:sudokulab:schema:"
"""How the schemas name each other: ``$id`` ``urn:sudokulab:schema:<name>``, so a command's schema
refers to ``urn:sudokulab:schema:error`` and ``...:common`` (see ``validator``)."""


def schema_name(command: Sequence[str] | str) -> str:
    """The schema file's name of a command: ``solve``, or ``datasets-list`` for ``datasets list``."""
    return command if isinstance(command, str) else "-".join(command)


@cache
def schema(command: str) -> dict[str, Any]:
    """The JSON Schema of a command's document (``schemas/<command>.schema.json``)."""
    import json
    from importlib.resources import files

    return json.loads((files("sudokulab") / "schemas" / f"{command}.schema.json").read_text("utf-8"))


def schema_names() -> list[str]:
    """Every schema in the package (command documents, ``error``, ``common``, ``puzzle``)."""
    from importlib.resources import files

    return sorted(entry.name.removesuffix(".schema.json") for entry in files("sudokulab").joinpath("schemas").iterdir()
                  if entry.name.endswith(".schema.json"))


def validator(command: str) -> Any:
    """A ``jsonschema`` validator of a command's document, its references to the other schemas of the
    package resolved (needs the test extra: jsonschema)."""
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

    registry = Registry().with_resources(
        (found["$id"], Resource.from_contents(found)) for found in map(schema, schema_names()) if "$id" in found)
    return Draft202012Validator(schema(command), registry=registry)


def validate(command: str, document: Any) -> None:
    """Raise ``jsonschema.ValidationError`` unless ``document`` is what ``command --json`` may print."""
    validator(command).validate(document)
