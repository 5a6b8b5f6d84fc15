"""Decision repair: local search over partial assignments, propagation after every move, tabu and restarts.

The state is a set of *decisions* ("cell = digit") that the rules' propagation does not refute. A
move takes the open cell with the fewest candidates for its weight (dom/wdeg: Boussemart, Hemery,
Lecoutre and Sais, ECAI 2004) and keeps the first of its digits, in random order, that propagation
does not refute. At a dead end the search does not backtrack: it *repairs*, dropping one decision
near the conflict and making it tabu for ``tenure`` moves; without a new lowest count of open cells
for ``patience`` moves it restarts from the givens (the weights are kept). This is the local search
over partial assignments of N. Jussien and O. Lhomme (Artificial Intelligence 139, 2002) and S.
Prestwich's incomplete dynamic backtracking (Annals of Operations Research 115, 2002): no search
tree is kept and nothing is proved, so a run that finds nothing says "time limit reached".

Why this hybrid for Sudoku, beside Lewis's annealing: docs/local-search.md.
"""

from __future__ import annotations

import random

from ..base import Deadline
from ..propagation import Propagator
from ..propagation.tables import SETTLED
from .board import Effort

NOISE = 0.1
"""Share of repairs that drop a decision chosen at random among all, not near the dead end: a way out
when the decisions near it are not the culprits."""

PATIENCE_PER_CELL = 20
"""Moves without a new lowest count of open cells before a restart, per cell open after the givens."""


def repair(prop: Propagator, givens: tuple[int, ...], rng: random.Random, budget: float, deadline: Deadline,
           effort: Effort, tenure: int, patience: int | None) -> tuple[int, ...] | None:
    """Decision repair until every cell is placed (the grid) or the budget or the deadline (None).

    ``effort.flips`` counts digits tried (each one propagated), ``accepted`` decisions made, ``restarts``
    the fresh starts; ``best_cost`` is the lowest count of open cells reached (0: solved).
    """
    n, full, done, tables, settle = prop.n, prop.full, prop.done, prop.tables, prop.settle
    start = prop.start(givens)
    if start is None:
        return None
    cells = len(givens)
    groups_of: list[list[int]] = [[] for _ in range(cells)]
    for index, members in enumerate(prop.group_cells):
        for cell in members:
            groups_of[cell].append(index)
    group_cells = prop.group_cells
    weight = list(prop.weights)
    count_bits = int.bit_count
    cand, where = start[0][:], start[1][:]
    open_count = sum(1 for mask in cand if mask <= full)
    patience = patience if patience is not None else max(100, PATIENCE_PER_CELL * open_count)
    decisions: dict[int, int] = {}  # cell -> digit bit, in the order made
    tabu: dict[tuple[int, int], int] = {}  # (cell, bit) -> the move until which it may not be decided again
    best, since, step = open_count, 0, 0
    effort.best_cost = best if effort.best_cost < 0 else min(effort.best_cost, best)
    while effort.flips < budget:
        step += 1
        since += 1
        cell, fewest = -1, float(n + 1)
        ties = 0
        for i, mask in enumerate(cand):
            if mask <= full:
                score = count_bits(mask) / weight[i]
                if score < fewest:
                    cell, fewest, ties = i, score, 1
                elif score == fewest:
                    ties += 1
                    if rng.random() * ties < 1:  # a tie broken at random, each equally likely
                        cell = i
        if cell < 0:  # every cell placed
            return tuple((mask & full).bit_length() for mask in cand)
        mask = cand[cell]
        bits = [1 << d for d in range(n) if mask >> d & 1]
        rng.shuffle(bits)
        blamed: list[int] = []
        for bit in bits:
            if tabu.get((cell, bit), 0) > step:
                continue
            if effort.flips >= budget:
                return None
            deadline.check()  # a propagation costs milliseconds on a large board: the clock before each
            effort.flips += 1
            trial, trial_where = cand[:], where[:]
            failed = settle(trial, trial_where, [(cell, bit)], tables, full, done)
            if failed == SETTLED:
                decisions[cell] = bit
                cand, where = trial, trial_where
                effort.accepted += 1
                break
            if failed >= 0:
                blamed.append(failed // n)
                for member in group_cells[failed // n]:
                    weight[member] += 1
        else:  # a dead end: repair instead of backtracking
            if not decisions:  # nothing to drop: only tabu digits were left untried
                tabu.clear()
                continue
            near = {member for group in (*groups_of[cell], *blamed) for member in group_cells[group]}
            culprits = [c for c in decisions if c in near]
            dropped = rng.choice(culprits if culprits and rng.random() >= NOISE else list(decisions))
            tabu[(dropped, decisions.pop(dropped))] = step + tenure
            state = prop.start(tuple(_placed(givens, decisions)))
            if state is None:  # cannot happen (fewer decisions refute less), but never loop on it
                decisions.clear()
                state = start
            cand, where = state[0][:], state[1][:]
        open_count = sum(1 for m in cand if m <= full)
        if open_count < best:
            best, since = open_count, 0
            effort.best_cost = min(effort.best_cost, best)
        elif since >= patience:
            effort.restarts += 1
            decisions.clear()
            tabu.clear()
            cand, where = start[0][:], start[1][:]
            best, since = sum(1 for m in cand if m <= full), 0
    return None


def _placed(givens: tuple[int, ...], decisions: dict[int, int]) -> list[int]:
    """The givens with the decisions written in as digits."""
    grid = list(givens)
    for cell, bit in decisions.items():
        grid[cell] = bit.bit_length()
    return grid
