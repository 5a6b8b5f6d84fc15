"""Following an assumption through singles, remembering why each consequence follows.

A ``Trial`` starts from a board, takes assumptions ("r4c4=3", or "r4c4≠3") and places singles
until nothing moves or something breaks: placing a digit strikes it from the cell's peers and the
cell's other digits; a cell with one digit left holds it (naked single); a digit with one place
left in a complete group goes there (hidden single); a cell with no digit, or a digit with no place
in a group, is a contradiction. Every consequence is an ``Event`` that records the earlier events
and the board facts it follows from, so ``Trial.trace`` gives exactly the part of the propagation a
conclusion needs: the chain a person reads, and the premises a step rests on. Contradiction steps,
forcing chains and the case splits of ``search`` all read trials; the first event found first
(breadth first) keeps chains short.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, replace
from functools import cache

from ..core.cells import cell_label
from ..core.rules import Rules
from .board import Board, Premises
from .candidates import digits_of
from .steps import ChainNode, Fact


@cache
def _sorted_peers(rules: Rules) -> tuple[tuple[int, ...], ...]:
    """Each cell's peers in order (a trial walks them at every placed digit)."""
    return tuple(tuple(sorted(peers)) for peers in rules.peers)


@dataclass(frozen=True)
class Event:
    """One consequence: ``cell`` holds ``digit`` (or not); ``digit`` 0 with ``holds`` False is a
    contradiction at ``where``. ``parents`` are earlier events, ``facts`` board facts it reads."""

    cell: int
    digit: int
    holds: bool
    why: str
    parents: tuple[int, ...]
    facts: tuple[Fact, ...]
    names: tuple[str, ...]
    where: str = ""
    lazy: tuple | None = None
    """A single's reasons not worked out yet (``Trial._resolved``): most trials are never traced, and
    working out why each single follows was half of a forcing chain's time."""


class Trial:
    """A copy of the board's marks narrowed by assumptions and singles, with every event's reasons."""

    def __init__(self, board: Board, limit: int = 2000):
        self.board = board
        self.n = board.n
        self.rules = board.cands.puzzle.rules
        self.peers = _sorted_peers(self.rules)
        self.marks = list(board.marks)
        self.placed = list(board.placed)
        self.value: dict[int, int] = {}
        """The digit each cell placed in this trial holds."""
        self.events: list[Event] = []
        self.on: dict[tuple[int, int], int] = {}
        self.off: dict[tuple[int, int], int] = {}
        self.broken: int | None = None
        """The index of the contradiction event, once there is one."""
        self.limit = limit
        self._queue: deque[int] = deque()

    def fork(self) -> Trial:
        """A copy to assume more in (a branch of a case split); the events so far are shared."""
        other = Trial(self.board, self.limit)
        other.marks, other.placed, other.value = list(self.marks), list(self.placed), dict(self.value)
        other.events, other.on, other.off = list(self.events), dict(self.on), dict(self.off)
        other.broken = self.broken
        return other

    def cover(self, cell: int, why: Premises) -> list[int]:
        """Why ``cell`` holds one of its digits left: the events and facts that struck the others
        (the facts and names go into ``why``; the events are returned, to be traced)."""
        parents: list[int] = []
        facts: list[Fact] = []
        names: list[str] = []
        for digit in range(1, self.board.n + 1):
            if not self.marks[cell] >> (digit - 1) & 1:
                self._why_off(cell, digit, parents, facts, names)
        for fact in facts:
            why.add(fact)
        for name in names:
            why.name(name)
        return parents

    # --- Recording. ---------------------------------------------------------------------------------

    def _add(self, event: Event) -> int | None:
        if self.broken is not None or len(self.events) >= self.limit:
            return None
        key = (event.cell, event.digit)
        if event.digit:
            table = self.on if event.holds else self.off
            if key in table:
                return table[key]
            table[key] = len(self.events)
        self.events.append(event)
        index = len(self.events) - 1
        if not event.digit:
            self.broken = index
        else:
            self._queue.append(index)
        return index

    def assume(self, cell: int, digit: int, holds: bool = True) -> None:
        self._add(Event(cell, digit, holds, "", (), (), ()))

    def _why_off(self, cell: int, digit: int, parents: list[int], facts: list[Fact], names: list[str],
                 before: int | None = None) -> None:
        """Why ``cell`` cannot hold ``digit`` now (or when the trial had ``before`` events): an event of
        this trial, or a fact of the board. A digit struck in the trial has its event in ``off`` from
        then on, with a smaller index than any event that read the mark, so ``before`` tells apart
        what was struck by then."""
        index = self.off.get((cell, digit))
        if index is not None and (before is None or index < before):
            parents.append(index)
            return
        fact, name = self.board.why_not(cell, digit)
        facts.append(fact)
        if name:
            names.append(name)

    # --- Propagation. -------------------------------------------------------------------------------

    def run(self) -> int | None:
        """Propagate the queued events; the contradiction's event index, or None when none shows."""
        while self._queue and self.broken is None:
            index = self._queue.popleft()
            event = self.events[index]
            if event.holds:
                self._placed(index, event)
            else:
                self._struck(index, event)
        return self.broken

    def _placed(self, index: int, event: Event) -> None:
        cell, digit = event.cell, event.digit
        n = self.n
        bit = 1 << (digit - 1)
        if not self.marks[cell] & bit or self.value.get(cell, digit) != digit:
            parents, facts, names = [index], [], []
            if cell in self.value:
                parents.append(self.on[(cell, self.value[cell])])
            else:
                self._why_off(cell, digit, parents, facts, names)
            self._add(Event(cell, 0, False, "", tuple(parents), tuple(facts), tuple(names),
                            f"{cell_label(cell, n)} (cannot hold {digit})"))
            return
        self.value[cell] = digit
        self.placed[cell] = True
        for other in digits_of(self.marks[cell] & ~bit):  # struck in turn: each may leave a hidden single
            self._add(Event(cell, other, False, cell_label(cell, n), (index,), (), ()))
        tables = self.board.tables
        for peer in self.peers[cell]:
            if self.marks[peer] & bit:
                held = self.value.get(peer) if peer in self.value else \
                    (self.board.cands.value(peer) if self.board.placed[peer] else 0)
                if held == digit:
                    name = tables.link(cell, peer) or ""
                    parents = [index] + ([self.on[(peer, digit)]] if (peer, digit) in self.on else [])
                    facts = () if (peer, digit) in self.on else (Fact(peer, digit, True),)
                    self._add(Event(peer, 0, False, "", tuple(parents), facts, (name,),
                                    f"{cell_label(peer, n)} and {cell_label(cell, n)} ({name}: both {digit})"))
                    return
                if not held:
                    self._add(Event(peer, digit, False, "", (index,), (), (), lazy=("link", cell, peer)))

    def _struck(self, index: int, event: Event) -> None:
        cell, digit = event.cell, event.digit
        n = self.n
        bit = 1 << (digit - 1)
        if not self.marks[cell] & bit:
            return
        self.marks[cell] &= ~bit
        mask = self.marks[cell]
        if not self.placed[cell] and mask.bit_count() <= 1:
            lazy = ("cell", cell, mask, len(self.events))
            if not mask:
                self._add(Event(cell, 0, False, "", (), (), (), f"{cell_label(cell, n)} (no digit left)", lazy))
                return
            self._add(Event(cell, mask.bit_length(), True, "naked single", (), (), (), lazy=lazy))
        rules = self.rules
        for group_index in rules.cell_groups[cell]:
            group = rules.groups[group_index]
            if len(group.cells) != n:
                continue
            places = []
            done = False
            for other in group.cells:
                if self.marks[other] & bit:
                    if self.placed[other]:
                        if self.value.get(other, digit) == digit and (other in self.value
                                                                      or self.board.cands.value(other) == digit):
                            done = True
                            break
                        continue
                    places.append(other)
            if done or len(places) > 1:
                continue
            lazy = ("group", group_index, digit, tuple(places), len(self.events))
            if not places:
                self._add(Event(cell, 0, False, "", (), (), (), f"{group.name} (no place for {digit})", lazy))
                return
            self._add(Event(places[0], digit, True, group.name, (), (), (), lazy=lazy))

    # --- Reading the result. ------------------------------------------------------------------------

    def _resolved(self, index: int) -> Event:
        """The event with its reasons worked out (a single's are left until a trace reads them)."""
        event = self.events[index]
        if event.lazy is None:
            return event
        parents: list[int] = []
        facts: list[Fact] = []
        names: list[str] = []
        if event.lazy[0] == "link":
            name = self.board.tables.link(event.lazy[1], event.lazy[2]) or ""
            resolved = replace(event, why=name, names=(name,), lazy=None)
            self.events[index] = resolved
            return resolved
        if event.lazy[0] == "cell":
            _, cell, mask, before = event.lazy
            for other in range(1, self.board.n + 1):
                if not mask >> (other - 1) & 1:
                    self._why_off(cell, other, parents, facts, names, before)
        else:
            _, group_index, digit, places, before = event.lazy
            group = self.board.cands.puzzle.rules.groups[group_index]
            names.append(group.name)
            for other in group.cells:
                if other not in places:
                    self._why_off(other, digit, parents, facts, names, before)
        resolved = replace(event, parents=tuple(parents), facts=tuple(facts), names=tuple(names), lazy=None)
        self.events[index] = resolved
        return resolved

    def trace(self, *indices: int) -> list[int]:
        """The events the given ones follow from (themselves included), in the order they happened."""
        seen: set[int] = set()
        todo = list(indices)
        while todo:
            index = todo.pop()
            if index in seen:
                continue
            seen.add(index)
            todo.extend(self._resolved(index).parents)
        return sorted(seen)

    def premises(self, indices: list[int], why: Premises) -> None:
        """Add the board facts and the constraint names the traced events read."""
        for index in indices:
            event = self._resolved(index)
            for fact in event.facts:
                why.add(fact)
            for name in event.names:
                why.name(name)

    def chain(self, indices: list[int]) -> list[ChainNode]:
        """The traced events as chain nodes, each pointing at its latest parent (the contradiction
        last, as a node with digit 0)."""
        position = {index: i for i, index in enumerate(indices)}
        nodes = []
        for index in indices:
            event = self._resolved(index)
            source = max((position[p] for p in event.parents if p in position), default=None)
            why = event.where if not event.digit else event.why
            nodes.append(ChainNode((event.cell,), event.digit, event.holds, why, source))
        return nodes

    def known(self, cell: int, digit: int, holds: bool) -> int | None:
        """The event that gives this fact in the trial, or None."""
        return (self.on if holds else self.off).get((cell, digit))


class DigitTrial(Trial):
    """A trial that follows one digit alone: struck from the assumed cell's peers, hidden singles of
    that digit (Sudoku Explainer's Nishio; events of other digits are not followed)."""

    def __init__(self, board: Board, digit: int):
        super().__init__(board)
        self.digit = digit

    @classmethod
    def following(cls, board: Board, cell: int, digit: int) -> DigitTrial:
        """The assumption ``cell = digit`` followed to its end."""
        found = cls(board, digit)
        found.assume(cell, digit)
        found.run()
        return found

    def _add(self, event: Event) -> int | None:
        if event.digit and event.digit != self.digit:
            return None
        return super()._add(event)
