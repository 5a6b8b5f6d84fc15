"""What a puzzle file declares, gathered before the rules are built, and the JSON checks its readers share.

``puzzle_files`` (sudokulab JSON puzzles) and ``fpuzzles`` (f-puzzles exports) each fill a
``Declared`` and check the values of their JSON with these functions, so that every error is one
line naming the file and the place: ``puzzle.json: cages[2].cells: a list expected``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeGuard

from ..errors import PuzzleFormatError
from .rule_files import CageData, parse_cells


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


def no_constant(word: str) -> Any:
    """``json.loads``'s ``parse_constant``: NaN and Infinity are no numbers of a puzzle."""
    raise ValueError(f"{word} is not a JSON number")


def is_int(value: Any) -> TypeGuard[int]:
    """A JSON whole number (``true`` is not one, though Python's bool is an int)."""
    return isinstance(value, int) and not isinstance(value, bool)


def json_list(value: Any, name: str, at: str) -> list:
    """``value`` when it is a JSON list, else one line naming the file and the place."""
    if not isinstance(value, list):
        raise PuzzleFormatError(f"{name}: {at}: a list expected")
    return value


def json_cells(value: Any, n: int, name: str, at: str) -> tuple[int, ...]:
    """A list of ``rNcM`` strings as 0-based cells, checked as a rule file's cells are (``parse_cells``)."""
    tokens = json_list(value, name, at)
    for index, token in enumerate(tokens):
        if not isinstance(token, str):
            raise PuzzleFormatError(f"{name}: {at}[{index}]: a cell is a string such as \"r1c1\"")
    return parse_cells(tokens, n, at, name)
