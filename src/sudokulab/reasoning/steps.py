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
class ChainNode:
    """One node of a step's chain: a digit in some cells (one cell, or a group node: the cells of a
    digit in a box-line intersection) said to hold (``holds``) or not, and why it follows.

    ``why`` names what forces it from the node ``source`` (an index into the chain): a group
    ("row 4"), a differing pair ("anti-knight"), the cell itself ("r4c4"); empty for an assumption,
    whose ``source`` is None. Pictures draw an arrow from the source to the node."""

    cells: tuple[int, ...]
    digit: int
    holds: bool
    why: str = ""
    source: int | None = None

    def label(self, n: int) -> str:
        where = cell_label(self.cells[0], n) if len(self.cells) == 1 else \
            "(" + "|".join(cell_label(c, n) for c in self.cells) + ")"
        return f"{where}{'=' if self.holds else '≠'}{self.digit}"


def chain_text(chain: tuple[ChainNode, ...], n: int) -> str:
    """``r4c4=3 → r4c7≠3 (row 4) → r6c7=3 (column 7)``: a chain node by node, each link with its reason;
    a node whose source is not the node before it starts a new line of reasoning after ``;``."""
    parts: list[str] = []
    for index, node in enumerate(chain):
        if not node.digit:  # the contradiction a chain ends in
            text = f"contradiction: {node.why}"
        else:
            text = node.label(n) + (f" ({node.why})" if node.why else "")
        if index and node.source == index - 1:
            parts.append(" → " + text)
        elif index and node.source is not None:
            parts.append(f"; {chain[node.source].label(n)} → {text}")
        else:
            parts.append(("; " if index else "") + text)
    return "".join(parts)


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
    chain: tuple[ChainNode, ...] = ()
    """The chain a chain step follows, node by node (empty for a pattern step)."""


def conclusion(step: Step) -> tuple[Fact, ...]:
    """A step's conclusion as facts: each placed digit holds, each struck candidate does not."""
    return (tuple(Fact(cell, digit, True) for cell, digit in step.placed)
            + tuple(Fact(cell, digit, False) for cell, digit in step.removed))
