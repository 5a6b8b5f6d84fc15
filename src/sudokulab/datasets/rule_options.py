"""The variant rules a command line gives the puzzles of a dataset, kept apart from the reading.

A dataset holds givens only; its puzzles are solved under the rules of the command line
(presets and data files), built once per board shape and carried by each puzzle and each
``Batch``. Rules that do not fit a puzzle's board (regions for another size) make that entry a bad
one, named with its line, where the entry is read.

More: docs/datasets.md.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..core.grid import Shape
from ..core.puzzle import Puzzle
from ..core.rules import Rules, parse_presets


@dataclass(frozen=True)
class RuleOptions:
    """The variant rules of a command line for the puzzles of datasets: preset names and the files
    of their data (``--rules``, ``--regions``, ``--cages``, ``--thermos``), turned into a ``Rules``
    per board shape by ``puzzle_files.read_rules``, once per shape."""

    presets: tuple[str, ...] = ()
    regions: str | None = None
    cages: str | None = None
    thermos: str | None = None

    @classmethod
    def of(cls, rules: str | Iterable[str] | None = None, regions: str | None = None, cages: str | None = None,
           thermos: str | None = None) -> RuleOptions:
        presets = parse_presets(rules) if isinstance(rules, str) else tuple(rules or ())
        return cls(tuple(presets), *(None if path is None else str(path) for path in (regions, cages, thermos)))

    @property
    def standard(self) -> bool:
        """True when they declare nothing beyond standard Sudoku."""
        return set(self.presets) <= {"standard"} and not (self.regions or self.cages or self.thermos)

    def for_shape(self, shape: Shape) -> Rules:
        """The rules for puzzles of this shape (``RulesError`` or a ``SudokuError`` when the data do not fit it)."""
        return _rules_for(self, shape)

    def __call__(self, shape: Shape) -> Rules:
        return self.for_shape(shape)


@functools.lru_cache(maxsize=64)
def _rules_for(options: RuleOptions, shape: Shape) -> Rules:
    from ..formats.puzzle_files import read_rules

    return read_rules(shape, rules=options.presets or None, regions=options.regions, cages=options.cages,
                      thermos=options.thermos)


RulesFor = Callable[[Shape], Rules]
"""What gives the rules of a dataset's puzzles by board shape (a ``RuleOptions``, or any function)."""


def with_rules(puzzle: Puzzle, rules: RulesFor | None) -> Puzzle:
    """The puzzle under the rules of its shape, or as it is when no rules are given."""
    return puzzle if rules is None else puzzle.with_rules(rules(puzzle.shape))
