"""Min-conflicts with a tabu list over block swaps: ``local-search``'s second method.

A cell in conflict takes the best swap within its block that is not tabu (unless it reaches a new
best cost), with an occasional random step to leave plateaus; it restarts from a fresh fill when no
new best cost comes (``solvers.local_search.solver`` says more).

More: docs/local-search.md.
"""

from __future__ import annotations

from ..base import Deadline
from .board import Board, Effort, allowed

WALK = 0.1
"""Share of min-conflicts moves that are a random allowed swap of the chosen cell instead of the best one."""


def min_conflicts(state: Board, budget: float, deadline: Deadline, effort: Effort, tenure: int,
                   reheat: int | None) -> bool:
    """Min-conflicts with a tabu list until cost 0 (True) or the budget or the deadline."""
    rng, cand = state.rng, state.cand
    block_of = {cell: cells for cells in state.free if len(cells) >= 2 for cell in cells}
    cells_in = list(block_of)
    if not cells_in:
        return state.cost == 0
    patience = reheat if reheat is not None else 50 * len(cells_in)
    tabu: dict[tuple[int, int], int] = {}  # (cell, digit) -> the step until which it may not come back
    best, since, step = state.cost, 0, 0
    pool: list[int] = []
    effort.best_cost = best if effort.best_cost < 0 else min(effort.best_cost, best)
    while state.cost and effort.flips < budget:
        step += 1
        if not step % 64:
            deadline.check()
            if len(tabu) > 64 * len(cells_in):
                tabu = {key: until for key, until in tabu.items() if until > step}
        cell = None
        while cell is None and pool:  # cells found in conflict by the last scan, each checked again
            candidate = pool.pop(int(rng.random() * len(pool)))
            if state.conflicted(candidate):
                cell = candidate
        if cell is None:
            pool = [c for c in cells_in if state.conflicted(c)]
            if not pool:  # the conflicts are among cells no swap can change: start again
                effort.restarts += 1
                effort.flips += 1  # a restart is work too: the budget still ends the search
                state.fill()
                best, since = state.cost, 0
                continue
            cell = pool.pop(int(rng.random() * len(pool)))
        grid, chosen, lowest = state.grid, [], None
        if rng.random() < WALK:  # a random step, to leave plateaus the best swaps keep it on
            other = rng.choice(block_of[cell])
            if other != cell and allowed(cand, cell, other, grid):
                effort.flips += 1
                change, extra = state.delta(cell, other)
                state.swap(cell, other, change, extra)
                effort.accepted += 1
                if state.cost < best:
                    best, since = state.cost, 0
                    effort.best_cost = min(effort.best_cost, best)
                continue
        for other in block_of[cell]:
            if other == cell or not allowed(cand, cell, other, grid):
                continue
            effort.flips += 1
            change, extra = state.delta(cell, other)
            banned = tabu.get((cell, grid[other]), 0) > step or tabu.get((other, grid[cell]), 0) > step
            if banned and state.cost + change >= best:
                continue
            if lowest is None or change < lowest:
                lowest, chosen = change, [(other, extra)]
            elif change == lowest:
                chosen.append((other, extra))
        since += 1
        if chosen and lowest is not None:
            other, extra = rng.choice(chosen)
            tabu[(cell, grid[cell])] = tabu[(other, grid[other])] = step + tenure
            state.swap(cell, other, lowest, extra)
            effort.accepted += 1
            if state.cost < best:
                best, since = state.cost, 0
                effort.best_cost = min(effort.best_cost, best)
        if since >= patience:
            effort.restarts += 1
            state.fill()
            tabu.clear()
            pool.clear()
            best, since = state.cost, 0
    return state.cost == 0
