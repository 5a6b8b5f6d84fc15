"""Candidate propagation over bit sets under any rule set: the one copy the searches and ``generate`` share.

The board is kept twice, as candidates per cell and places per (group, digit), each as the bits of
one int, so naked and hidden singles are seen the moment they appear; partial groups and differing
pairs only eliminate, cage sums and thermometers narrow by bounds, and any other kind comes through
the shared lowering, all to one fixpoint. Propagation removes only digits in no solution, so
canonical answers and exact counts survive it. ``propagator(rules)`` builds the tables once per
rule set and chooses the path: ``propagation_three`` (unrolled, for three complete groups per cell)
or ``propagation_any`` (any rule set), over ``propagation_tables``; both must reach the same
fixpoint (a test checks it). A contradiction names the group where it surfaced, for dom/wdeg.

The two views, each rule kind's propagation and the roads not taken: docs/solvers.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from ...core.rules import KINDS, Rules
from ..lowering import lower
from .general import exclude_any, rule_out, settle_any
from .tables import SETTLED, UNKNOWN, AnyTables, ThreeTables, positions_table
from .three import exclude_three, settle_three, three_tables

Settle = Callable[[list[int], list[int], list[tuple[int, int]], "ThreeTables | AnyTables", int, int], int]
Exclude = Callable[[list[int], list[int], int, int, "ThreeTables | AnyTables", int, int], int]


@dataclass(frozen=True)
class Propagator:
    """Everything a search needs to propagate under one rule set (see ``propagator``).

    ``settle(cand, where, queue, tables, full, done)`` makes the (cell, digit bit) placements in
    ``queue`` and everything they force; ``exclude(cand, where, cell, bit, tables, full, done)``
    removes one digit from an open cell and settles what follows. Both return ``SETTLED`` or where
    the contradiction surfaced. ``start(givens)`` is the settled state of a puzzle, or None.
    """

    n: int
    full: int
    done: int
    tables: ThreeTables | AnyTables
    settle: Settle
    exclude: Exclude
    group_cells: tuple[tuple[int, ...], ...]
    """The cells of each group, in ``rules.groups`` order (``code // n`` indexes it)."""
    weights: tuple[int, ...]
    """Per cell, how many groups it is in: the starting dom/wdeg weight."""
    three: bool
    """True for the specialised three-complete-groups code (standard Sudoku, jigsaw)."""

    def start(self, givens: tuple[int, ...]) -> tuple[list[int], list[int]] | None:
        """The settled (cand, where) of a puzzle's givens, or None when they contradict the rules."""
        n, full = self.n, self.full
        cand = [full] * (n * n)
        where = [full] * (len(self.group_cells) * n)
        queue = [(cell, 1 << (d - 1)) for cell, d in enumerate(givens) if d]
        if not self.three and self.tables.ruled_out and rule_out(cand, where, queue, self.tables) != SETTLED:
            return None
        if self.settle(cand, where, queue, self.tables, full, self.done) != SETTLED:
            return None
        return cand, where


NATIVE = frozenset(KINDS)
"""The rule kinds the propagation states natively (groups, pairs, sum and thermometer bounds); any other
comes in the lowering's forms."""


@cache
def propagator(rules: Rules) -> Propagator:
    """The propagation tables of a rule set, built once per ``Rules`` (it hashes fast)."""
    return build_propagator(rules)


def build_propagator(rules: Rules, specialise: bool = True) -> Propagator:
    """The tables of a rule set, uncached; ``specialise=False`` takes the general code even where
    the three-group code applies (to measure the one against the other)."""
    n = rules.n
    size = n * n
    full = (1 << n) - 1
    done = ((1 << (n + 1)) - 1) << n  # n+1 bits above the digits: more than any real mask has
    groups = rules.groups
    group_cells = tuple(g.cells for g in groups)
    weights = tuple(len(g) for g in rules.cell_groups)
    forms = lower(rules, NATIVE)
    three = specialise and not (rules.partial_groups or rules.pairs or rules.cages or rules.thermos or forms) and all(
        len(g) == 3 for g in rules.cell_groups)
    if three:
        return Propagator(n, full, done, three_tables(rules), settle_three, exclude_three,
                          group_cells, weights, True)
    places: list[list[tuple[int, int]]] = [[] for _ in range(size)]
    unit_cell = [-1] * (len(groups) * n)
    for index, group in enumerate(groups):
        if len(group.cells) == n:
            for pos, cell in enumerate(group.cells):
                places[cell].append((index * n, 1 << pos))
                unit_cell[index * n + pos] = cell
    via: list[tuple[int, tuple[tuple[int, int], ...]]] = [(-1, ())] * (len(groups) * n)
    for index, group in enumerate(groups):
        if len(group.cells) == n:
            for pos, cell in enumerate(group.cells):
                via[index * n + pos] = (cell, tuple(p for p in places[cell] if p[0] != index * n))
    complete_mates: list[set[int]] = [set() for _ in range(size)]
    for group in rules.complete_groups:
        for cell in group.cells:
            complete_mates[cell].update(group.cells)
    others: list[dict[int, int]] = [{} for _ in range(size)]
    for index, group in enumerate(groups):
        if len(group.cells) < n:
            for cell in group.cells:
                for peer in group.cells:
                    if peer != cell and peer not in complete_mates[cell]:
                        others[cell].setdefault(peer, index * n)
    for a, b in rules.pairs:
        if b not in complete_mates[a]:
            others[a].setdefault(b, UNKNOWN)
            others[b].setdefault(a, UNKNOWN)
    cage_code = {g.name: index * n for index, g in enumerate(groups)}
    forbid: list[list[list[tuple[int, int]]]] = [[] for _ in range(size)]
    for _, (a, x), (b, y) in forms.pairs:
        for cell, digit, peer, other in ((a, x, b, y), (b, y, a, x)):
            forbid[cell] = forbid[cell] or [[] for _ in range(n)]
            forbid[cell][digit - 1].append((peer, 1 << (other - 1)))
    tables = AnyTables(
        cell_places=tuple(tuple(p) for p in places),
        via=tuple(via),
        unit_cell=tuple(unit_cell),
        positions=positions_table(n),
        others=tuple(tuple(sorted(o.items())) for o in others),
        cages=tuple((c.cells, c.total, cage_code.get(c.name, UNKNOWN)) for c in rules.cages),
        thermos=tuple(t.cells for t in rules.thermos),
        ruled_out=tuple((cell, 1 << (digit - 1)) for cell, digit in forms.ruled_out),
        forbid=tuple(tuple(map(tuple, per_digit)) for per_digit in forbid),
        sets=tuple((s.cells, tuple(sum(1 << (d - 1) for d in digits) for digits in s.sets)) for s in forms.sets),
    )
    return Propagator(n, full, done, tables, settle_any, exclude_any, group_cells, weights, False)
