"""serate's rating loop: SE's rules in SE's order, the first hint taken each time, ER, EP and ED.

Each step asks the rules in turn (``RULES``: SE's ``Solver`` lists, all of its techniques enabled, as
serate runs it) and applies the first hint of the first rule that has one; a chaining rule gives its
hints sorted, so its first is its easiest. **ER** is the highest difficulty of the steps to the
solution (20.0 if the rules run out, as serate says), **EP** (pearl) the highest up to the first
step that places a value, **ED** (diamond) the first step's. serate prints each rounded half up to
one decimal (``serate_round``).

More: docs/rating.md.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from .chaining import Chaining
from .exclusion import aligned_exclusion
from .fish import fish
from .grid import Grid, cell_name
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
    """One step of serate's path: the hint's name and difficulty, the rule that gave it (SE's technique
    name, as ``Rule.technique``), what it placed and struck."""

    technique: str
    difficulty: float
    rule: str
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
    a time limit, or a step above ``stop_above``; then ER is a lower bound)."""

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


def first_hint(grid: Grid, chosen: tuple[Rule, ...]) -> tuple[Hint, Rule] | None:
    """The first hint of the first rule that has one, with that rule."""
    for rule in chosen:
        for hint in rule.hints(grid):
            return hint, rule
    return None


def steps(givens: Iterable[int], chosen: tuple[Rule, ...] | None = None, deadline: float | None = None
          ) -> Iterator[tuple[Hint | None, Rule | None, Grid]]:
    """serate's loop: each hint taken, with its rule and the grid it was found on (before it is applied:
    the caller must not change it); at the end (None, None, grid) when the rules ran out with the grid
    unsolved, or when ``deadline`` (a ``time.perf_counter`` time) passed."""
    grid = Grid.of(givens)
    chosen = rules() if chosen is None else chosen
    while not grid.solved():
        if deadline is not None and time.perf_counter() > deadline:
            yield None, None, grid
            return
        found = first_hint(grid, chosen)
        if found is None:
            yield None, None, grid
            return
        hint, rule = found
        yield hint, rule, grid
        before = grid.key()
        hint.apply(grid)
        if grid.key() == before:
            raise RuntimeError(f"{hint.name} changed nothing")  # serate would loop here for ever


def path(givens: Iterable[int]) -> Iterator[tuple[Hint, Grid]]:
    """The hints serate's loop takes, one after another, each with the grid it was found on."""
    for hint, _, grid in steps(givens):
        if hint is None:
            return
        yield hint, grid


def solves(givens: Iterable[int], chosen: tuple[Rule, ...]) -> bool:
    """Whether these rules alone take the puzzle to its end."""
    return all(hint is not None for hint, _, _ in steps(givens, chosen))


def rate(givens: Iterable[int], *, time_limit: float | None = None, stop_above: float | None = None) -> SERating:
    """serate's ER/EP/ED of a 9x9 puzzle (``givens``: 81 values, 0 for empty). ``stop_above``: stop at
    the first step harder than that (the ER is then that step's, a lower bound)."""
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    difficulty = -math.inf
    pearl = diamond = 0.0
    found: list[SEStep] = []
    stopped = unsolved = False
    for hint, rule, grid in steps(list(givens), deadline=deadline):
        if hint is None or rule is None:
            stopped = grid.solved() is False and deadline is not None and time.perf_counter() > deadline
            unsolved = not stopped
            break
        difficulty = max(difficulty, hint.difficulty)
        placed = ((hint.cell, hint.value),) if hint.cell >= 0 else ()
        found.append(SEStep(hint.name, hint.difficulty, rule.technique, placed, tuple(hint.removals())))
        if pearl == 0.0:
            if diamond == 0.0:
                diamond = difficulty
            if hint.cell >= 0:
                pearl = difficulty
        if stop_above is not None and difficulty > stop_above:
            stopped = True
            break
    if unsolved:
        difficulty = UNSOLVED
    if difficulty == -math.inf:
        difficulty = 0.0
    return SERating(serate_round(difficulty), serate_round(pearl), serate_round(diamond), tuple(found), stopped,
                    time.perf_counter() - start)


__all__ = ["SERating", "SEStep", "UNSOLVED", "path", "rate", "rules", "serate_round", "solves", "steps"]
