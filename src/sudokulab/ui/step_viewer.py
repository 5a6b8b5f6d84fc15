"""``explain --html FILE``: one self-contained HTML page that steps through an explanation.

The page is the ``explain --json`` document itself (``schemas/explain.schema.json``), inline, plus
what a browser cannot work out alone: the givens, the pencil marks before every step (replayed here
with ``board.Board``, as ``explain`` itself applies steps, so the page shows the engine's marks, not
a second bookkeeping in JavaScript), and the rule set's cells (group cells by name, the box or
jigsaw region of every cell, cages, thermometers). The HTML, CSS and JavaScript live in
``templates/step_viewer.html`` (package data): no network, no server, every text put on the page
through ``textContent``, and the data escaped so no ``</script>`` in it can end its element.

A step's ``chain`` (nodes with ``cells``, ``digit``, ``holds``, ``why``, ``source``), when the
document has one, is drawn as arrows from node ``source`` to each node.
"""

from __future__ import annotations

import html
import json
import os
from importlib.resources import files
from typing import Any

from ..core.cells import cell_label
from ..core.puzzle import Puzzle
from ..formats.documents import grid_rows
from ..formats.outputs import write_text
from ..formats.rule_files import parse_cell

PLACEHOLDER_DATA = "@@DATA@@"
PLACEHOLDER_TITLE = "@@TITLE@@"


def template() -> str:
    """The page's HTML, CSS and JavaScript (package data)."""
    return (files("sudokulab") / "ui" / "templates" / "step_viewer.html").read_text("utf-8")


def _cell(label: str, n: int) -> int:
    return parse_cell(label, n)


def states(puzzle: Puzzle, steps: list[dict[str, Any]]) -> list[list[int]]:
    """The board before each step and after the last: per cell its candidate mask (bit d-1 is d) while
    open, ``-d`` once digit d is placed. Replayed from the document's ``placed`` and ``removed``."""
    from ..reasoning.board import Board

    board = Board.start(puzzle)
    n = puzzle.n

    def snapshot() -> list[int]:
        return [-board.cands.value(cell) if board.placed[cell] else mask for cell, mask in enumerate(board.marks)]

    found = [snapshot()]
    for step in steps:
        for pair in step["removed"]:
            board.cands.remove(_cell(pair["cell"], n), pair["digit"])
        for pair in step["placed"]:
            board.place(_cell(pair["cell"], n), pair["digit"])
        found.append(snapshot())
    return found


def layout(puzzle: Puzzle) -> dict[str, Any]:
    """What the page draws of the rules: each cell's box or jigsaw region (thick borders between
    different ones), the shaded extra groups (diagonals, windows, extra groups), cages with their
    sums, thermometers from the bulb, every named constraint's cells and the differing rules' names."""
    rules = puzzle.rules
    n = puzzle.n
    areas = [0] * (n * n)
    kind = "region" if any(g.kind == "region" for g in rules.groups) else "box"
    for number, group in enumerate((g for g in rules.groups if g.kind == kind), 1):
        for cell in group.cells:
            areas[cell] = number
    return {
        "areas": areas,
        "shaded": [{"name": g.name, "kind": g.kind, "cells": list(g.cells)}
                   for g in rules.groups if g.kind in ("diagonal", "window", "group")],
        "cages": [{"name": c.name, "sum": c.total, "cells": list(c.cells)} for c in rules.cages],
        "thermometers": [{"name": t.name, "cells": list(t.cells)} for t in rules.thermos],
        "named": {**{g.name: list(g.cells) for g in rules.groups}, **{t.name: list(t.cells) for t in rules.thermos}},
        "differ": [d.name for d in rules.differ],
    }


def page_data(puzzle: Puzzle, document: dict[str, Any]) -> dict[str, Any]:
    """Everything the page shows: the document, the givens, the marks before each step, the rules' cells."""
    n = puzzle.n
    return {
        "document": document,
        "givens": grid_rows(puzzle.givens, n),
        "box": [puzzle.shape.box_rows, puzzle.shape.box_cols],
        "states": states(puzzle, document["steps"]),
        "layout": layout(puzzle),
        "labels": [cell_label(cell, n) for cell in range(n * n)],
    }


def script_json(data: Any) -> str:
    """JSON safe inside ``<script type="application/json">``: ``<``, ``>`` and ``&`` as ``\\u`` escapes,
    so no text in it (a file name, a step's words) can close the element or open a comment."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def render(puzzle: Puzzle, document: dict[str, Any], title: str = "sudokulab explain") -> str:
    """The whole page as text."""
    page = template()
    page = page.replace(PLACEHOLDER_TITLE, html.escape(title))
    return page.replace(PLACEHOLDER_DATA, script_json(page_data(puzzle, document)))


def write_page(path: str | os.PathLike, puzzle: Puzzle, document: dict[str, Any],
               title: str = "sudokulab explain") -> None:
    """Write the page whole (``outputs.write_text``: a failed write leaves no half page)."""
    write_text(path, render(puzzle, document, title), what="page")
