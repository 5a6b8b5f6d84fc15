"""The propagation ladder over a set of puzzles: per level, how many puzzles it settles without search.

Each puzzle climbs the ladder once (``levels.climb``), each level from the marks the level below
left (the same fixpoint as starting afresh: a level includes the ones below), so the counts never
fall going up the ladder. ``sudokulab propagate --summary`` prints the rows; ``to_json`` is its
``--json`` row.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ..core.puzzle import Puzzle
from ..reasoning.candidates import Candidates
from ..reasoning.levels import LEVELS, check_level, climb


@dataclass(frozen=True)
class LevelSummary:
    """One row of the ladder table: a level over a set of puzzles."""

    level: str
    puzzles: int
    settled: int
    contradictions: int
    candidates_mean: float
    """Mean candidates left over the whole board (n*n when settled: 81 on 9x9)."""

    def to_json(self) -> dict[str, Any]:
        return {"level": self.level, "puzzles": self.puzzles, "settled": self.settled,
                "contradictions": self.contradictions, "candidates_mean": round(self.candidates_mean, 3)}


def summarize(puzzles: Iterable[Puzzle], top: str = LEVELS[-1],
              on_puzzle: Callable[[], None] | None = None) -> list[LevelSummary]:
    """The ladder table of some puzzles: per level up to ``top``, how many it settles (non-decreasing
    down the ladder), how many it finds contradictory, and the candidates it leaves on average."""
    levels = LEVELS[: check_level(top) + 1]
    settled = [0] * len(levels)
    contradictions = [0] * len(levels)
    remaining = [0] * len(levels)
    count = 0
    for puzzle in puzzles:
        count += 1
        for rung, step in enumerate(climb(Candidates.start(puzzle), top)):
            settled[rung] += step.settled
            contradictions[rung] += step.contradiction
            remaining[rung] += step.remaining
        if on_puzzle is not None:
            on_puzzle()
    return [LevelSummary(level, count, settled[i], contradictions[i], remaining[i] / count if count else 0.0)
            for i, level in enumerate(levels)]
