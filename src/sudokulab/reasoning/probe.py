"""Probes: which assumptions break at nested level 3 or 4, answered fast and without reasons.

A nested trial of level 3 or 4 runs hundreds of singles trials wherever singles run dry in its
branch, too many to follow with reasons over every candidate. A sweep only needs to know *which*
assumptions break, so a probe follows them over the searches' bit-set propagation
(``solvers.propagation``), keeping no reasons: singles, cell and region reductions and, at level
4, contradictions, to a fixpoint. ``nested`` then follows the few that break with reasons, and the
step is what that traced trial shows: a probe never writes a step, so nothing it gets wrong can
reach an explanation. Where only the lower levels' techniques would make a branch break, a probe
misses it; a break that rests on the propagation's sum and thermometer bounds, or on singles the
board has not taken, is not traced into a step.

What this costs in faithfulness, and why it is accepted: docs/rating.md ("How levels 3 and 4 are found").
"""

from __future__ import annotations

from collections.abc import Iterator

from ..solvers.propagation import Propagator, propagator
from ..solvers.propagation.tables import SETTLED
from .board import Board
from .forcing import open_candidates

State = tuple[list[int], list[int]]
"""The propagation's (cand, where) bit sets: see ``solvers.propagation``."""


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low
        mask ^= low


class Probe:
    """One board's candidates as propagation bit sets, and its assumptions followed at a level."""

    def __init__(self, board: Board):
        self.p: Propagator = propagator(board.cands.puzzle.rules)
        p = self.p
        values = tuple(board.cands.value(c) if board.placed[c] else 0 for c in range(len(board.marks)))
        start = p.start(values)
        if start is None:
            raise ValueError("the board's placed digits contradict its rules")
        for cell, mask in enumerate(board.marks):
            if not board.placed[cell] and start[0][cell] <= p.full:
                for bit in _bits(start[0][cell] & ~mask):
                    if start[0][cell] > p.full or not start[0][cell] & bit:
                        continue
                    if p.exclude(*start, cell, bit, p.tables, p.full, p.done) != SETTLED:
                        raise ValueError("the board's candidates contradict its rules")
        self.state: State = start
        self.complete = tuple(cells for cells in p.group_cells if len(cells) == p.n)

    def _follow(self, state: State, cell: int, bit: int, holds: bool) -> State | None:
        """The state after the assumption and its singles, or None where they break."""
        p = self.p
        cand, where = list(state[0]), list(state[1])
        if holds:
            result = p.settle(cand, where, [(cell, bit)], p.tables, p.full, p.done)
        else:
            result = p.exclude(cand, where, cell, bit, p.tables, p.full, p.done)
        return (cand, where) if result == SETTLED else None

    def _candidates(self, cand: list[int]) -> Iterator[tuple[int, int]]:
        full = self.p.full
        for cell, mask in enumerate(cand):
            if mask <= full and mask & (mask - 1):
                for bit in _bits(mask):
                    yield cell, bit

    def _packed(self, cand: list[int], placed_too: bool) -> int:
        """A state's candidates as one int, ``n`` bits a cell (placed cells: their digit, or nothing)."""
        full, n = self.p.full, self.p.n
        packed = 0
        for mask in reversed(cand):
            packed = (packed << n) | (mask & full if mask > full and placed_too else mask if mask <= full else 0)
        return packed

    def _strikes(self, state: State, contradictions: bool) -> list[tuple[int, int]]:
        """What one round of the level's techniques strikes inside a branch: contradictions first
        (at level 4), else the reductions of the first cell or group that gives any."""
        cand = state[0]
        full, n = self.p.full, self.p.n
        states: dict[tuple[int, int], State | None] = {}
        broken = []
        for cell, bit in self._candidates(cand):
            followed = states[(cell, bit)] = self._follow(state, cell, bit, True)
            if followed is None:
                broken.append((cell, bit))
        if contradictions and broken:
            return broken
        branches = {b: None if f is None else self._packed(f[0], True) for b, f in states.items()}
        sets = [[(cell, bit) for bit in _bits(mask)] for cell, mask in enumerate(cand)
                if mask <= full and mask & (mask - 1)]
        for cells in self.complete:
            for bit in _bits(full):
                places = [(cell, bit) for cell in cells if cand[cell] <= full and cand[cell] & bit]
                if len(places) > 1:
                    sets.append(places)
        open_ = self._packed(cand, False)
        for branch_set in sets:
            kept = 0
            for b in branch_set:
                followed = branches[b]
                if followed is None:
                    break
                kept |= followed
            else:
                struck = open_ & ~kept
                if struck:
                    found = []
                    while struck:
                        low = struck & -struck
                        cell, digit = divmod(low.bit_length() - 1, n)
                        found.append((cell, 1 << digit))
                        struck ^= low
                    return found
        return []

    def breaks(self, cell: int, digit: int, level: int) -> bool:
        """Whether assuming ``cell = digit`` breaks when followed as a level-``level`` probe (3 or 4)."""
        full = self.p.full
        state = self._follow(self.state, cell, 1 << (digit - 1), True)
        while state is not None:
            struck = self._strikes(state, level >= 4)
            if not struck:
                return False
            for c, bit in struck:
                if state is None:
                    break
                mask = state[0][c]
                if mask <= full and mask & bit:
                    state = self._follow(state, c, bit, False)
        return True


_last: list[tuple[tuple, Probe | None, dict[int, list[tuple[int, int]]]]] = []
"""The last board probed: its key, its ``Probe`` (None: no solution) and what each level breaks there."""

MAX_N = 9
"""The largest board probed: a sweep follows every candidate inside every candidate's branch, so its
cost grows with the fourth power of the candidates' count; larger boards go to ``search``."""


def breaking(board: Board, level: int) -> list[tuple[int, int]]:
    """The candidates whose level-``level`` probe breaks, in ``forcing.open_candidates`` order, among
    the cells of fewest digits where one does (what ``forcing.refutation`` chooses among).

    Level 3 is probed only on what level 4 breaks there: whatever breaks at level 3 breaks at level 4,
    and a level-4 probe that breaks stops early, where a level-3 sweep follows every candidate to its
    end. So a level-3 break in a cell of more digits than level 4's is not seen, and the step is
    rated at level 4 (docs/rating.md)."""
    key = board.key()
    if not _last or _last[0][0] != key:
        try:
            probe = Probe(board) if board.n <= MAX_N else None
        except ValueError:  # a board with no solution: search says why
            probe = None
        _last[:] = [(key, probe, {})]
    _, probe, found = _last[0]
    if probe is None:
        return []
    if level not in found:
        if level == 3:
            found[3] = [(cell, digit) for cell, digit in breaking(board, 4) if probe.breaks(cell, digit, 3)]
        else:
            found[level] = _sweep(board, probe, level)
    return found[level]


def _sweep(board: Board, probe: Probe, level: int) -> list[tuple[int, int]]:
    found: list[tuple[int, int]] = []
    for cell, digit in open_candidates(board):
        if found and board.marks[cell].bit_count() > board.marks[found[0][0]].bit_count():
            break
        if probe.breaks(cell, digit, level):
            found.append((cell, digit))
    return found
