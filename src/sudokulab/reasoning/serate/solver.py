"""serate's rating loop: SE's rules in SE's order, the first hint taken each time, ER, EP and ED.

Each step asks the rules in turn (``RULES``: SE's ``Solver`` lists, all of its techniques enabled, as
serate runs it) and applies the first hint of the first rule that has one; a chaining rule gives its
hints sorted, so its first is its easiest. **ER** is the highest difficulty of the steps to the
solution (20.0 if the rules run out, as serate says), **EP** (pearl) the highest up to the first
step that places a value, **ED** (diamond) the first step's. serate prints each rounded half up to
one decimal (``serate_round``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from .chaining import Chaining
from .exclusion import aligned_exclusion
from .fish import fish
from .grid import Grid, cell_name, values_of
from .hints import Hint
from .intersections import locking
from .singles import hidden_singles, naked_singles
from .subsets import hidden_sets, naked_sets
from .uniqueness import bug, unique_loops
from .wings import xy_wings

UNSOLVED = 20.0
"""serate's rating of a puzzle its rules cannot finish."""


@dataclass(frozen=True)
class Rule:
    """One of SE's rules: its technique name (SE's ``SolvingTechnique``) and its hints on a grid."""

    technique: str
    hints: Callable[[Grid], Iterable[Hint]]


def _chaining(technique: str, multiple: bool, dynamic: bool, nishio: bool, level: int) -> Rule:
    rule = Chaining(multiple, dynamic, nishio, level)
    return Rule(technique, rule.hints)


def rules() -> tuple[Rule, ...]:
    """SE's rules in its order (``Solver``'s producer lists: direct, indirect, chaining, chaining 2,
    advanced, experimental). Each call builds fresh chaining rules (they keep a grid's hints)."""
    return (
        Rule("Hidden Single", hidden_singles),
        Rule("Direct Pointing", lambda g: locking(g, True)),
        Rule("Direct Hidden Pair", lambda g: hidden_sets(g, 2, True)),
        Rule("Naked Single", naked_singles),
        Rule("Direct Hidden Triplet", lambda g: hidden_sets(g, 3, True)),
        Rule("Pointing & Claiming", lambda g: locking(g, False)),
        Rule("Naked Pair", lambda g: naked_sets(g, 2)),
        Rule("X-Wing", lambda g: fish(g, 2)),
        Rule("Hidden Pair", lambda g: hidden_sets(g, 2, False)),
        Rule("Naked Triplet", lambda g: naked_sets(g, 3)),
        Rule("Swordfish", lambda g: fish(g, 3)),
        Rule("Hidden Triplet", lambda g: hidden_sets(g, 3, False)),
        Rule("XY-Wing", lambda g: xy_wings(g, False)),
        Rule("XYZ-Wing", lambda g: xy_wings(g, True)),
        Rule("Unique Rectangle / Loop", unique_loops),
        Rule("Naked Quad", lambda g: naked_sets(g, 4)),
        Rule("Jellyfish", lambda g: fish(g, 4)),
        Rule("Hidden Quad", lambda g: hidden_sets(g, 4, False)),
        Rule("Bivalue Universal Grave", bug),
        Rule("Aligned Pair Exclusion", lambda g: aligned_exclusion(g, 2)),
        _chaining("Forcing Chains & Cycles", False, False, False, 0),
        Rule("Aligned Triplet Exclusion", lambda g: aligned_exclusion(g, 3)),
        _chaining("Nishio Forcing Chains", False, True, True, 0),
        _chaining("Multiple Forcing Chains", True, False, False, 0),
        _chaining("Dynamic Forcing Chains", True, True, False, 0),
        _chaining("Dynamic Forcing Chains (+)", True, True, False, 1),
        _chaining("Nested Forcing Chains", True, True, False, 2),
        _chaining("Nested Forcing Chains", True, True, False, 3),
        _chaining("Nested Forcing Chains", True, True, False, 4),
        _chaining("Nested Forcing Chains", True, True, False, 5),
    )


@dataclass(frozen=True)
class SEStep:
    """One step of serate's path: the hint's name and difficulty, what it placed and struck."""

    technique: str
    difficulty: float
    placed: tuple[tuple[int, int], ...]
    removed: tuple[tuple[int, int], ...]

    @property
    def text(self) -> str:
        put = "; ".join(f"{cell_name(c)} = {v}" for c, v in self.placed)
        struck: dict[int, list[int]] = {}
        for c, v in self.removed:
            struck.setdefault(c, []).append(v)
        gone = "; ".join(f"{cell_name(c)} ≠ {', '.join(map(str, vs))}" for c, vs in struck.items())
        return "; ".join(part for part in (put, gone) if part)


@dataclass(frozen=True)
class SERating:
    """serate's three numbers for a puzzle, its path, and whether the path was cut short (``stopped``:
    then ER is a lower bound)."""

    er: float
    ep: float
    ed: float
    steps: tuple[SEStep, ...]
    stopped: bool
    seconds: float

    @property
    def hardest(self) -> SEStep | None:
        """The first step at the ER (None for a puzzle its givens fill)."""
        return next((s for s in self.steps if s.difficulty == self.er), None)


def serate_round(value: float) -> float:
    """A rating as serate prints it: ``(int)((value + 0.05) * 10)`` tenths."""
    return math.floor((value + 0.05) * 10) / 10


def first_hint(grid: Grid, chosen: tuple[Rule, ...]) -> Hint | None:
    for rule in chosen:
        for hint in rule.hints(grid):
            return hint
    return None


def path(givens: Iterable[int]) -> Iterator[tuple[Hint, Grid]]:
    """The hints serate's loop takes, one after another, each with the grid it was found on (before
    it is applied: the caller must not change it)."""
    grid = Grid.of(givens)
    chosen = rules()
    while not grid.solved():
        hint = first_hint(grid, chosen)
        if hint is None:
            return
        yield hint, grid
        before = grid.key()
        hint.apply(grid)
        if grid.key() == before:
            raise RuntimeError(f"{hint.name} changed nothing")  # serate would loop here for ever


def rate(givens: Iterable[int], *, time_limit: float | None = None) -> SERating:
    """serate's ER/EP/ED of a 9x9 puzzle (``givens``: 81 values, 0 for empty)."""
    start = time.perf_counter()
    difficulty = -math.inf
    pearl = diamond = 0.0
    steps: list[SEStep] = []
    stopped = False
    cells = list(givens)
    unsolved = False
    for hint, grid in _path_until(cells, start, time_limit):
        if hint is None:
            stopped = grid is None
            unsolved = grid is not None
            break
        difficulty = max(difficulty, hint.difficulty)
        placed = ((hint.cell, hint.value),) if hint.cell >= 0 else ()
        steps.append(SEStep(hint.name, hint.difficulty, placed, tuple(hint.removals())))
        if pearl == 0.0:
            if diamond == 0.0:
                diamond = difficulty
            if hint.cell >= 0:
                pearl = difficulty
    if unsolved:
        difficulty = UNSOLVED
    if difficulty == -math.inf:
        difficulty = 0.0
    return SERating(serate_round(difficulty), serate_round(pearl), serate_round(diamond), tuple(steps), stopped,
                    time.perf_counter() - start)


def _path_until(cells: list[int], start: float, time_limit: float | None
                ) -> Iterator[tuple[Hint | None, Grid | None]]:
    """``path``, then (None, grid) where the rules run out, or (None, None) where time ran out."""
    grid = Grid.of(cells)
    chosen = rules()
    while not grid.solved():
        if time_limit is not None and time.perf_counter() - start > time_limit:
            yield None, None
            return
        hint = first_hint(grid, chosen)
        if hint is None:
            yield None, grid
            return
        yield hint, grid
        before = grid.key()
        hint.apply(grid)
        if grid.key() == before:
            raise RuntimeError(f"{hint.name} changed nothing")


__all__ = ["SERating", "SEStep", "UNSOLVED", "path", "rate", "rules", "serate_round", "values_of"]
