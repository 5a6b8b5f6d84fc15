"""What both backends of ``backtrack-jit`` share: a rule set as flat index tables, and the driver
that runs a compiled search in slices.

``jit`` (the solver, the C backend) and ``jit_numba`` (the numba backend) each turn ``Layout`` into
arrays of their own and implement ``Slices.step``; neither imports the other's module for this.

More: docs/jit.md.
"""

from __future__ import annotations

import time
from typing import ClassVar, NamedTuple

from ...core.grid import Grid
from ...core.rules import KINDS, Rules
from ..base import Deadline
from ..building import Kept
from ..lowering import lower

NATIVE = frozenset(KINDS)
"""The rule kinds the compiled search states natively (sums and thermometers on numba only); any other
comes in the lowering's forms (numba only)."""

SLICE_SECONDS = 0.02
"""Aimed length of one slice of compiled search: Ctrl-C and the deadline are seen at least this often."""


class Layout(NamedTuple):
    """The index tables of one rule set as flat lists: all the compiled search knows of the rules.

    Groups, numbered as the search charges failures to them: the complete all-different groups
    first (group u < len(units) // n is a unit), then the partial ones, then one group per differing
    pair, per cage whose digits may repeat, per thermometer, per two cells with forbidden pairs of the
    lowering and per allowed-sets constraint (so a failure there is charged to its cells). Each backend
    turns these into its own arrays once (``_search.Tables``, ``jit_numba._tables``); the lowering's
    forms only the numba one.
    """

    n: int
    width: int
    """The most peers a cell has: each cell's row of ``peers`` and ``peer_group`` is this long."""
    peers: list[int]
    """(cells * width): each cell's peers (``rules.peers``, sorted), padded with -1."""
    peer_count: list[int]
    peer_group: list[int]
    """(cells * width): a group the peer shares with the cell (where a contradiction is charged)."""
    units: list[int]
    """(complete groups * n): the groups that hold every digit once (they give hidden singles)."""
    group_start: list[int]
    """Offsets of each group's cells in ``group_cells`` (groups + 1 of them)."""
    group_cells: list[int]
    cages: list[tuple[int, int, int]]
    """Per cage: its group, its total, 1 when its digits differ."""
    thermos: list[int]
    """Per thermometer: its group."""
    weight0: list[int]
    """Each cell's starting weight for dom/wdeg: the number of groups it is in."""
    ruled_out: list[tuple[int, int]] = []
    """The lowering's ruled-out placements (``solvers.lowering``), as (cell, digit)."""
    pairs: list[tuple[int, int, int, int, int]] = []
    """The lowering's forbidden pairs, as (group of the two cells, a, x, b, y): not both a = x and b = y."""
    sets: list[tuple[int, tuple[tuple[int, ...], ...]]] = []
    """The lowering's allowed sets, as (group of the cells, the sets)."""


_LAYOUTS: Kept[Layout] = Kept(64)


def layout(rules: Rules, deadline: Deadline | None = None) -> Layout:
    """The tables of a rule set, built once per ``Rules`` (hashable, with a cached hash), under ``deadline``
    when given (a 64x64 board's take a second; cut short, nothing is kept: ``solvers.building``)."""
    return _LAYOUTS.get(rules, lambda: _layout(rules, deadline))


def _layout(rules: Rules, deadline: Deadline | None) -> Layout:
    n, cells = rules.n, rules.shape.cells
    order = sorted(range(len(rules.groups)), key=lambda i: len(rules.groups[i].cells) < n)  # complete first, stable
    where = {index: position for position, index in enumerate(order)}
    members: list[tuple[int, ...]] = [rules.groups[i].cells for i in order]
    complete = sum(len(cs) == n for cs in members)
    pair_group = {}
    for a, b in rules.pairs:
        pair_group[a, b] = len(members)
        members.append((a, b))
    width = max((len(p) for p in rules.peers), default=0)
    peers = [-1] * (cells * width)
    peer_group = [-1] * (cells * width)
    for cell in range(cells):
        if deadline is not None and not cell & 127:
            deadline.check()
        charged: dict[int, int] = {}
        for index in rules.cell_groups[cell]:  # in rules order: rows, columns, boxes, ... (the first shared one)
            for mate in rules.groups[index].cells:
                charged.setdefault(mate, where[index])
        for j, mate in enumerate(sorted(rules.peers[cell])):
            peers[cell * width + j] = mate
            group = charged.get(mate)
            peer_group[cell * width + j] = pair_group[min(cell, mate), max(cell, mate)] if group is None else group
    cages = []
    for cage in rules.cages:
        same = [i for i, g in enumerate(rules.groups) if set(g.cells) == set(cage.cells)]
        if same:
            cages.append((where[same[0]], cage.total, 1))
        else:  # a hand-made Rules whose cage digits may repeat: only its sum is known
            cages.append((len(members), cage.total, 0))
            members.append(cage.cells)
    thermos = []
    for thermo in rules.thermos:
        thermos.append(len(members))
        members.append(thermo.cells)
    forms = lower(rules, NATIVE)
    pair_group: dict[tuple[int, int], int] = {}
    pairs = []
    for _, (a, x), (b, y) in forms.pairs:
        key = (min(a, b), max(a, b))
        if key not in pair_group:
            pair_group[key] = len(members)
            members.append(key)
        pairs.append((pair_group[key], a, x, b, y))
    sets = []
    for allowed in forms.sets:
        sets.append((len(members), allowed.sets))
        members.append(allowed.cells)
    group_start = [0]
    for cs in members:
        group_start.append(group_start[-1] + len(cs))
    weight0 = [0] * cells
    for cs in members:
        for c in cs:
            weight0[c] += 1
    return Layout(n, width, peers, [len(p) for p in rules.peers], peer_group,
                  [c for cs in members[:complete] for c in cs], group_start, [c for cs in members for c in cs],
                  cages, thermos, weight0, list(forms.ruled_out), pairs, sets)


class Slices:
    """A resumable search run in slices of a node budget: ``next`` checks the ``Deadline`` and lets
    Ctrl-C through between slices, and adapts the budget so that a slice lasts about ``SLICE_SECONDS``
    on any board size. A backend implements ``step``."""

    backend: ClassVar[str]

    def __init__(self, canonical: bool, wdeg: bool) -> None:
        self.canonical = canonical
        self.wdeg = wdeg and not canonical
        self.budget = 64
        self.slices = 0
        self.done = False

    def step(self, budget: int) -> Grid | bool | None:
        """Up to ``budget`` nodes: a solution, True when the search is exhausted, else False or None."""
        raise NotImplementedError

    def stats(self) -> dict[str, int]:
        raise NotImplementedError

    def next(self, deadline: Deadline | None) -> Grid | None:
        """The next solution in search order, or None; raises ``TimeUp`` past the deadline."""
        while not self.done:
            if deadline is not None and self.slices:
                deadline.check()
            self.slices += 1
            began = time.perf_counter()
            got = self.step(self.budget)
            if isinstance(got, tuple):
                return got
            if got:
                self.done = True
            else:
                spent = time.perf_counter() - began
                if spent < SLICE_SECONDS / 2:
                    self.budget = min(self.budget * 2, 1 << 40)
                elif spent > SLICE_SECONDS * 2:
                    self.budget = max(1, self.budget // 2)
        return None
