"""Nested forcing chains: an assumption followed by singles *and* other techniques inside the branch.

A plain trial (``implications.Trial``) follows an assumption by singles only. A **level-k trial**
(``NestedTrial``) does the same, and where singles run dry applies the techniques of its level to
the assumed board, adds what they strike as events whose parents are the branch's own events the
technique read, and goes back to singles, until something breaks or nothing moves. The finders
inside are the catalogue's own (``techniques``), so an inner step is named, worded and certified as
it would be on the board. The levels follow Sudoku Explainer's nested forcing chains (level 1:
pairs, locked candidates and x-wings inside; 2: also x- and xy-chains; 3: also cell and region
forcing chains; 4: also dynamic forcing chains). A step is a candidate whose level-k trial breaks;
the one of smallest complexity among the cells of fewest digits is shown. From level 3 on, ``probe``
finds the candidates that break first and only a few of them are followed here.

Each level's rating, and where ours stop: docs/rating.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from .board import Board
from .candidates import Candidates
from .forcing import Branch, cell_forcing_chain, refutation, refutation_step, region_forcing_chain, trial
from .implications import Event, Trial
from .probe import breaking
from .steps import Step


class Finder(Protocol):
    """A catalogue entry as the trial uses it (``techniques.Technique``)."""

    name: str

    def first(self, board: Board) -> Step | None: ...


class NestedTrial(Trial):
    """A trial that, when singles run dry, applies ``inner`` techniques to the assumed board."""

    def __init__(self, board: Board, inner: Sequence[Finder]):
        super().__init__(board)
        self.inner = tuple(inner)
        self.nested: dict[int, int] = {}
        """Per event an inner chain step gave: that chain's length (it counts into the complexity)."""

    @classmethod
    def following(cls, start: Trial, inner: Sequence[Finder]) -> NestedTrial:
        """A level-k trial that starts where ``start`` (the same assumption at a lower level) stopped."""
        other = cls(start.board, inner)
        other.marks, other.placed, other.value = list(start.marks), list(start.placed), dict(start.value)
        other.events, other.on, other.off = list(start.events), dict(start.on), dict(start.off)
        other.broken = start.broken
        if isinstance(start, NestedTrial):
            other.nested = dict(start.nested)
        return other

    def run(self) -> int | None:
        while super().run() is None and self._inner_step():
            pass
        return self.broken

    def _inner_step(self) -> bool:
        """Apply the first inner technique that finds something on the assumed board; False if none does."""
        puzzle = self.board.cands.puzzle
        view = Board(Candidates(puzzle, list(self.marks)), list(self.placed), self.board.tables)
        for technique in self.inner:
            step = technique.first(view)
            if step is None:
                continue
            parents: list[int] = []
            facts = []
            names = list(step.groups)
            for fact in step.premises:
                if fact.holds:
                    index = self.on.get((fact.cell, fact.digit))
                    if index is None:
                        facts.append(fact)  # placed on the board itself
                    else:
                        parents.append(index)
                else:
                    self._why_off(fact.cell, fact.digit, parents, facts, names)
            where = ", ".join(step.groups[:2]) + (", ..." if len(step.groups) > 2 else "")
            why = f"{step.technique} in {where}, inside the branch" if where else f"{step.technique}, inside the branch"
            events = [Event(c, d, False, why, tuple(parents), tuple(facts), tuple(dict.fromkeys(names)))
                      for c, d in step.removed]
            events += [Event(c, d, True, why, tuple(parents), tuple(facts), tuple(dict.fromkeys(names)))
                       for c, d in step.placed]
            moved = False
            for event in events:
                before = len(self.events)
                index = self._add(event)
                if index is not None and index >= before:
                    moved = True
                    if step.chain:
                        self.nested[index] = len(step.chain)
            return moved
        return False


_cache: dict[tuple, NestedTrial] = {}

PROBE_TRACED = 3
"""How many of the candidates a probe breaks are followed with reasons, to choose the shortest chain
among (each takes seconds at level 4)."""


def nested_trial(board: Board, cell: int, digit: int, levels: Sequence[Sequence[Finder]]) -> NestedTrial:
    """The assumption ``cell = digit`` followed at the last level of ``levels`` (each level's inner
    techniques), started from the level below's result; kept while the board stays the same."""
    key = (*board.key(), cell, digit, len(levels))
    found = _cache.get(key)
    if found is None:
        if len(_cache) > 4000:
            _cache.clear()
        below = trial(board, (cell, digit, True)) if len(levels) == 1 else \
            nested_trial(board, cell, digit, levels[:-1])
        found = NestedTrial.following(below, levels[-1])
        found.run()
        _cache[key] = found
    return found


def complexity(t: NestedTrial, traced: Sequence[int]) -> int:
    """A chain's length as SE counts a nested chain: its nodes plus the nodes of every inner chain."""
    return len(traced) + sum(t.nested.get(index, 0) for index in traced)


def nested_forcing_chain(board: Board, difficulty: float, levels: Sequence[Sequence[Finder]], name: str,
                         probed: bool = False) -> Step | None:
    """A candidate whose level-k trial breaks (k = ``len(levels)``) is struck: in the cell of fewest
    digits where one breaks, the one of smallest complexity. Where none breaks, the same trials as
    cell and region forcing chains: every digit of a cell (every place of a digit in a group) leads
    to the same fact (SE's level-k cell and region reductions).

    ``probed`` (levels 3 and 4): only the candidates whose ``probe`` breaks are followed with reasons,
    and there are no cell and region reductions (each would follow every candidate with reasons)."""

    def follow(board: Board, branch: Branch) -> Trial:
        cell, digit, _ = branch
        return nested_trial(board, cell, digit, levels)

    def size(t: Trial, traced: list[int]) -> int:
        return complexity(t, traced) if isinstance(t, NestedTrial) else len(traced)

    candidates = breaking(board, len(levels))[:PROBE_TRACED] if probed else None
    found = refutation(board, lambda cell, digit: follow(board, (cell, digit, True)), size, candidates)
    if found is not None:
        cost, cell, digit, t, traced = found
        inner = sorted({technique.name for level in levels for technique in level})
        return refutation_step(board, name, difficulty, cell, digit, t, traced, cost,
                               f", followed by singles and, inside the branch, {', '.join(inner)},")
    if probed:
        return None
    steps = [forcing_chain(board, difficulty, name, follow, size)
             for forcing_chain in (region_forcing_chain, cell_forcing_chain)]
    return min((s for s in steps if s is not None), key=lambda s: s.difficulty, default=None)
