"""The propagation ladder over a set of puzzles: per level, how many puzzles it settles without search.

Each puzzle climbs the ladder once (``levels.climb``), each level from the marks the level below
left (the same fixpoint as starting afresh: a level includes the ones below), so the counts never
fall going up the ladder. ``sudokulab propagate --summary`` prints the rows; ``to_json`` is its
``--json`` row. The puzzles may climb on the workers of ``--jobs`` or ``--cluster``, in batches.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.puzzle import Puzzle
from .candidates import Candidates
from .levels import LEVELS, Rung, check_level, climb

if TYPE_CHECKING:
    from ..execution.executors import Executor


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


LADDER_BATCH = 16
"""Puzzles per task handed to a process or cluster worker (a climb takes milliseconds to a second)."""


def summarize(puzzles: Iterable[Puzzle], top: str = LEVELS[-1],
              on_puzzle: Callable[[], None] | None = None, executor: Executor | None = None,
              total: int | None = None,
              on_stopped: Callable[[list[LevelSummary]], None] | None = None) -> list[LevelSummary]:
    """The ladder table of some puzzles: per level up to ``top``, how many it settles (non-decreasing
    down the ladder), how many it finds contradictory, and the candidates it leaves on average.

    ``executor`` (``--jobs N``, ``--cluster``) climbs them in batches elsewhere; the table is the same
    whoever climbed which puzzle (its sums are of whole numbers). ``total``, when known, lets a
    small set still reach every worker. ``on_stopped``: when Ctrl-C or a stopping signal ends the
    run, it is given the table of the puzzles that climbed before the signal goes on."""
    from ..execution.executors import InProcess, batch_size, in_order

    levels = LEVELS[: check_level(top) + 1]
    settled = [0] * len(levels)
    contradictions = [0] * len(levels)
    remaining = [0] * len(levels)
    count = 0

    def table() -> list[LevelSummary]:
        return [LevelSummary(level, count, settled[i], contradictions[i], remaining[i] / count if count else 0.0)
                for i, level in enumerate(levels)]

    executor = executor or InProcess()
    size = batch_size(LADDER_BATCH, total, executor.workers)
    try:
        for rungs in in_order(executor, climb_batch, top, puzzles, size):
            count += 1
            for rung, step in enumerate(rungs):
                settled[rung] += step.settled
                contradictions[rung] += step.contradiction
                remaining[rung] += step.remaining
            if on_puzzle is not None:
                on_puzzle()
    except KeyboardInterrupt:
        if on_stopped is not None:
            on_stopped(table())
        raise
    return table()


def climb_batch(task: tuple[str, list[Puzzle]]) -> list[list[Rung]]:
    """Each puzzle of a batch up the ladder to the level named: the work of one task, here or on a worker."""
    top, puzzles = task
    return [climb(Candidates.start(puzzle), top) for puzzle in puzzles]
