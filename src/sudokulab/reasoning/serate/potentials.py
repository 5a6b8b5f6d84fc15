"""A potential: "this cell holds (or not) this value" inside a chain, with the potentials it follows from.

SE's chains are graphs of potentials (``Potential``): each knows its parents (the potentials that
force it), why it follows (its *cause*: the cell's last value, a region's last place, or an
advanced rule inside a nested chain, which also keeps that rule's own chain as ``nested``). Two
potentials are the same when cell, value and state are (``code``). A chain's *complexity*, which
its length bonus reads, counts the distinct ancestors of its targets (SE's ``getAncestorCount``);
``ancestors`` keeps them as a bit set per potential, worked out once.

More: docs/rating.md.
"""

from __future__ import annotations

from typing import Any

NAKED_SINGLE, HIDDEN_BLOCK, HIDDEN_ROW, HIDDEN_COLUMN, ADVANCED = range(5)
"""Why a potential follows: the cell's only value left, the only place in a block, row or column, or
an advanced rule applied inside a nested chain."""

HIDDEN_OF_KIND = (HIDDEN_BLOCK, HIDDEN_ROW, HIDDEN_COLUMN)
KIND_OF_HIDDEN = {HIDDEN_BLOCK: 0, HIDDEN_ROW: 1, HIDDEN_COLUMN: 2}


def code(cell: int, value: int, on: bool) -> int:
    """The identity of a potential: equal codes, the same potential."""
    return (cell * 10 + value) << 1 | on


class Potential:
    """One potential of a chain."""

    __slots__ = ("cell", "value", "on", "parents", "cause", "nested", "code", "_anc", "_nested")

    def __init__(self, cell: int, value: int, on: bool, parent: Potential | None = None, cause: int | None = None,
                 nested: Any = None):
        self.cell = cell
        self.value = value
        self.on = on
        self.parents: list[Potential] = [parent] if parent is not None else []
        self.cause = cause
        self.nested = nested
        """The chain hint an advanced potential comes from (SE's ``nestedChain``), or None."""
        self.code = (cell * 10 + value) << 1 | on
        self._anc: int | None = None
        self._nested: dict | None = None

    def __repr__(self) -> str:
        return f"r{self.cell // 9 + 1}c{self.cell % 9 + 1}{'=' if self.on else '!='}{self.value}"


def _resolve(target: Potential) -> None:
    """Work out the ancestor bit sets (and nested chains) of ``target`` and everything above it."""
    stack = [target]
    while stack:
        p = stack[-1]
        if p._anc is not None:
            stack.pop()
            continue
        pending = [q for q in p.parents if q._anc is None]
        if pending:
            stack.extend(pending)
            continue
        stack.pop()
        anc = 1 << p.code
        nested: dict | None = None
        for q in p.parents:
            anc |= q._anc  # type: ignore[operator]
            if q._nested:
                nested = dict(q._nested) if nested is None else nested | q._nested
        if p.nested is not None:
            nested = (nested or {}) | {p.nested.chain_key(): p.nested.complexity}
        p._anc = anc
        p._nested = nested


def ancestor_count(p: Potential) -> int:
    """How many distinct potentials ``p`` follows from, itself included (SE's ``getAncestorCount``)."""
    if p._anc is None:
        _resolve(p)
    return p._anc.bit_count()  # type: ignore[union-attr]


def nested_chains(p: Potential) -> dict:
    """The nested chains among ``p``'s ancestors: each chain's key -> its complexity."""
    if p._anc is None:
        _resolve(p)
    return p._nested or {}


def chain_of(target: Potential) -> list[Potential]:
    """The potentials ``target`` follows from, breadth first, each once (SE's ``getChain``)."""
    result: list[Potential] = []
    done: set[int] = set()
    todo = [target]
    while todo:
        following: list[Potential] = []
        for p in todo:
            if p.code not in done:
                done.add(p.code)
                result.append(p)
                following.extend(p.parents)
        todo = following
    return result
