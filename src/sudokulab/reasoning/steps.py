"""The vocabulary of a reasoning step: facts, steps, and a step's conclusion as facts.

A **fact** is one atom of a board state, "r4c5=7" (the cell holds 7) or "r4c5≠7" (7 is struck
from it). A **step** is a conclusion (digits placed, candidates struck), the technique that gives
it, the facts it rests on (its *premises*) and the rule constraints it uses, named as the rules
name them ("row 4", "cage 7 (sum 15)", "anti-knight"). A uniqueness step (unique rectangle, BUG+1)
also carries its deadly pattern: the premises force the pattern unless the conclusion holds, and a
puzzle with one solution cannot hold the pattern (docs/explain.md).

The technique finders write steps, ``step_check`` certifies them and ``explain`` strings them into
a solving path; all three speak this vocabulary, so it depends on none of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.cells import cell_label


@dataclass(frozen=True)
class Fact:
    """One premise or conclusion atom: ``holds`` True is "r4c5=7", False is "r4c5≠7"."""

    cell: int
    digit: int
    holds: bool

    def label(self, n: int) -> str:
        return f"{cell_label(self.cell, n)}{'=' if self.holds else '≠'}{self.digit}"


@dataclass(frozen=True)
class Step:
    """One step of an explanation: what it concludes, by which technique, from which facts and rules."""

    technique: str
    difficulty: float
    placed: tuple[tuple[int, int], ...]
    removed: tuple[tuple[int, int], ...]
    premises: tuple[Fact, ...]
    groups: tuple[str, ...]
    text: str
    pattern: tuple[tuple[int, int], ...] = ()
    """A uniqueness step's deadly pattern, ``(cell, mask)``: the cells and the digits each would keep
    if the conclusion failed. Empty for every other step (their conclusion follows from the rules)."""


def conclusion(step: Step) -> tuple[Fact, ...]:
    """A step's conclusion as facts: each placed digit holds, each struck candidate does not."""
    return (tuple(Fact(cell, digit, True) for cell, digit in step.placed)
            + tuple(Fact(cell, digit, False) for cell, digit in step.removed))
