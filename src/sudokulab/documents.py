"""The one JSON contract: what ``--json`` prints, for every command.

With ``--json`` a command prints exactly one JSON document on standard output and nothing else
(a command that produces one row per puzzle prints JSON Lines instead: one document per line).
Every command's document is described by ``schemas/<command>.schema.json`` in this package
(draft 2020-12); ``schema(command)`` loads it and the tests validate every command's output,
error cases included, against it. A failed command run with ``--json`` prints
``{"error": "<the one line>", "exit": <code>}`` as its document, the same line it writes to
standard error.

This module is the only place that turns a document into text, so every command's JSON looks the
same: two-space indentation, and a grid's rows kept one to a line so a board stays readable.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Mapping
from functools import cache
from typing import IO, Any

_GRID_KEYS = ("grid", "givens", "puzzle", "answer")


def _rows_placeholder(document: Any, rows: list[list[Any]]) -> Any:
    """Replace every grid (a list of lists of numbers under a grid key) by placeholders."""
    if isinstance(document, Mapping):
        replaced = {}
        for key, value in document.items():
            if (key in _GRID_KEYS and isinstance(value, list) and value
                    and all(isinstance(row, list) for row in value)):
                replaced[key] = []
                for row in value:
                    replaced[key].append(f"\0row{len(rows)}")
                    rows.append(row)
            else:
                replaced[key] = _rows_placeholder(value, rows)
        return replaced
    if isinstance(document, list | tuple):
        return [_rows_placeholder(item, rows) for item in document]
    return document


def dumps(document: Any) -> str:
    """The document as text: indented, each grid row on one line (``[5, 3, 0, ...]``)."""
    rows: list[list[Any]] = []
    text = json.dumps(_rows_placeholder(document, rows), indent=2, default=str, ensure_ascii=False)
    for i, row in enumerate(rows):
        text = text.replace(json.dumps(f"\0row{i}"), json.dumps(row, default=str), 1)
    return text


def emit(document: Mapping[str, Any], stream: IO[str] | None = None) -> None:
    """Print one document (the whole of a command's ``--json`` output) on standard output."""
    (stream or sys.stdout).write(dumps(document) + "\n")


def emit_line(row: Mapping[str, Any], stream: IO[str] | None = None) -> None:
    """Print one JSON Lines row (commands that produce a row per puzzle)."""
    (stream or sys.stdout).write(json.dumps(row, separators=(",", ":"), default=str, ensure_ascii=False) + "\n")


def emit_lines(rows: Iterable[Mapping[str, Any]], stream: IO[str] | None = None) -> None:
    for row in rows:
        emit_line(row, stream)


def error_document(message: str, code: int) -> dict[str, Any]:
    """What a failed ``--json`` run prints: the one error line and the exit code."""
    return {"error": message, "exit": int(code)}


@cache
def schema(command: str) -> dict[str, Any]:
    """The JSON Schema of a command's document (``schemas/<command>.schema.json``)."""
    from importlib.resources import files

    return json.loads(files("sudokulab").joinpath("schemas", f"{command}.schema.json").read_text("utf-8"))
