"""Simulated annealing over block swaps (Lewis 2007): ``local-search``'s default method.

A random swap in a random block, accepted when it does not raise the cost, else with probability
``exp(-delta / T)``; T cools after each chain of moves, is reheated when no new best cost comes, and
every ``RESTART_AFTER`` reheats the board is filled afresh (``solvers.local_search.solver`` says more).

More: docs/local-search.md.
"""

from __future__ import annotations

import math

from ..base import Deadline
from .board import CHECK_EVERY, Board, Effort, allowed

RESTART_AFTER = 5
"""Reheats of the annealing before it starts again from a fresh random fill."""

SAMPLE = 200
"""Random swaps whose cost changes set the starting temperature (Lewis 2007)."""


def anneal(state: Board, budget: float, deadline: Deadline, effort: Effort, temperature: float | None,
            cooling: float, reheat: int | None) -> bool:
    """Lewis's simulated annealing until cost 0 (True) or the budget or the deadline."""
    rng, cand = state.rng, state.cand
    movable = [cells for cells in state.free if len(cells) >= 2]
    if not movable:
        return state.cost == 0
    random_, exp = rng.random, math.exp
    chain = sum(len(cells) ** 2 for cells in movable)
    patience = reheat if reheat is not None else 20 * chain
    start = temperature if temperature is not None else _spread(state, movable)
    heat, best, since, moves, reheats = start, state.cost, 0, 0, 0
    effort.best_cost = best if effort.best_cost < 0 else min(effort.best_cost, best)
    while state.cost and effort.flips < budget:
        effort.flips += 1
        if not effort.flips % CHECK_EVERY:
            deadline.check()
        cells = movable[int(random_() * len(movable))]
        k = len(cells)
        i = int(random_() * k)
        j = int(random_() * (k - 1))
        c1, c2 = cells[i], cells[j + (j >= i)]
        moves += 1
        if moves >= chain:
            moves, heat = 0, heat * cooling
        since += 1
        if allowed(cand, c1, c2, state.grid):
            change, extra = state.delta(c1, c2)
            if change <= 0 or (heat > 0 and random_() < exp(-change / heat)):
                state.swap(c1, c2, change, extra)
                effort.accepted += 1
                if state.cost < best:
                    best, since = state.cost, 0
                    effort.best_cost = min(effort.best_cost, best)
        if since >= patience:  # frozen in a local minimum: heat up again from where it is
            since, heat, best = 0, start, state.cost
            effort.reheats += 1
            reheats += 1
            if reheats >= RESTART_AFTER:
                reheats = 0
                effort.restarts += 1
                state.fill()
                best = state.cost
    return state.cost == 0


def _spread(state: Board, movable: list[list[int]]) -> float:
    """The standard deviation of the cost changes of random allowed swaps (Lewis's starting temperature)."""
    rng, changes = state.rng, []
    for _ in range(SAMPLE):
        cells = rng.choice(movable)
        c1, c2 = rng.sample(cells, 2)
        if allowed(state.cand, c1, c2, state.grid):
            changes.append(state.delta(c1, c2)[0])
    if len(changes) < 2:
        return 1.0
    mean = sum(changes) / len(changes)
    return max(math.sqrt(sum((c - mean) ** 2 for c in changes) / len(changes)), 0.1)
