"""The local-search paradigm: simulated annealing over box permutations, or min-conflicts with a tabu list.

An *incomplete* search: it finds grids, never proves there is none. Where it finds no grid within
its time limit, or within its flip budget when no time limit is given, it answers "time limit
reached" (nothing known). It answers "no solution" only where that is proved before searching: the
givens break a rule (``Rules.first_conflict``), the solvers' own sound propagation
(``solvers.propagation``: naked and hidden singles, cage and thermometer bounds) leaves a cell with
no digit, a block's open cells cannot take its missing digits at all (no matching), or no block
has two open cells left and the one fill there is breaks a rule.

The method is R. Lewis, "Metaheuristics can solve sudoku puzzles", Journal of Heuristics 13
(2007): each *block* (a box, or a jigsaw region: the complete groups of one kind that cover the
board) is filled with its missing digits, so every block is right by construction and stays so,
since a move swaps two open cells of one block. The cost counts what is still wrong:

- **all-different groups** (rows, columns, diagonals, windows, cages' cells): per group, the digits
  it holds more than once, counted with repeats (in a complete group, the digits it misses);
- **differing pairs** (anti-knight, anti-king): the pairs holding one digit;
- **cage sums**: ``|sum - total|`` per cage;
- **thermometers**: per step along one, ``max(0, a - b + 1)`` for the digit a before b.

A grid of cost 0 is a solution. Unlike Lewis, a cell only ever holds a digit left in its candidates
after propagation (fills are random matchings of open cells to missing digits, and swaps that would
put a digit outside a cell's candidates are tried and refused), which removes most of the search
space of an easy puzzle before it starts.

Methods (option ``method``):

- ``annealing`` (default): a random swap in a random block, accepted when it does not raise the
  cost, else with probability ``exp(-delta / T)``. T starts at ``temperature`` (by default the
  spread of the cost changes of 200 random swaps, as Lewis does) and is multiplied by ``cooling``
  after each chain of moves (the sum over blocks of the square of their open cells, Lewis's chain
  length). After ``reheat`` moves without a new best cost, T goes back to its start (a reheat);
  every ``RESTART_AFTER`` reheats the search starts again from a fresh random fill (a restart).
- ``min-conflicts``: pick a cell in conflict, try swapping it with each other open cell of its
  block, take the best swap that is not tabu (a swap puts back a digit a cell held within the last
  ``tabu`` moves) unless it reaches a new best cost (aspiration), ties broken at random. After
  ``reheat`` moves without a new best cost, it restarts from a fresh random fill.

Why local search struggles with Sudoku: near the phase transition (Lewis: around 40-45% givens on
9x9) there are few solutions and many grids of cost 2 or 4 far from all of them; the cost
landscape is a plateau with deep local minima, which reheats and restarts only partly escape
(``benchmarks/results/local_search_givens.md``).

Every random choice draws from ``random.Random(seed)``, a new one per call: the same puzzle with the
same options gives the same answer and the same stats, and ``max_flips`` bounds the work in moves
tried, not in seconds, so a run without a time limit does not depend on the machine's load.

Stats: ``flips`` (swaps tried, also those refused by the candidates), ``accepted`` (swaps made),
``reheats``, ``restarts``, ``best_cost`` (the lowest cost reached: 0 when solved), ``propagated``
(cells fixed by propagation beyond the givens), ``free_cells`` (cells left to the search),
``proof`` (why "no solution": givens, propagation, matching, or forced: no block has two open cells
to swap and the one fill left breaks a rule).

One module: the annealing and the min-conflicts loops share the board tables, the cost and its
incremental update, and differ only in how the next swap is chosen.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from functools import lru_cache

from ..core.puzzle import Puzzle
from ..core.rules import KINDS, Rules
from ..errors import UnsupportedFeature
from .base import (
    Capabilities,
    CountResult,
    Deadline,
    Option,
    SolverBase,
    SolveResult,
    Stat,
    Status,
    TimeUp,
    check_kinds,
)
from .propagation import propagator

METHODS = ("annealing", "min-conflicts")

DEFAULT_FLIPS = 2_000_000
"""Moves tried before giving up when no time limit is given (docs/local-search.md says how chosen)."""

RESTART_AFTER = 5
"""Reheats of the annealing before it starts again from a fresh random fill."""

SAMPLE = 200
"""Random swaps whose cost changes set the starting temperature (Lewis 2007)."""

WALK = 0.1
"""Share of min-conflicts moves that are a random allowed swap of the chosen cell instead of the best one."""

CHECK_EVERY = 1024
"""Moves between two looks at the clock."""


@dataclass(frozen=True)
class _Tables:
    """What the search reads of a rule set, built once per ``Rules``."""

    n: int
    blocks: tuple[tuple[int, ...], ...]
    """The complete groups of one kind that cover the board: boxes, or jigsaw regions, or rows."""
    groups: tuple[tuple[int, ...], ...]
    """Per cell, ``g * (n + 1)`` for each group it is in other than its block (offsets into counts)."""
    group_sets: tuple[frozenset[int], ...]
    partners: tuple[tuple[int, ...], ...]
    """Per cell, the cells it must differ from by a differing pair that no group already covers."""
    extras: tuple[tuple[int, ...], ...]
    """Per cell, the cages and thermometers through it (indices into ``sums`` + ``thermos``)."""
    sums: tuple[tuple[tuple[int, ...], int], ...]
    thermos: tuple[tuple[int, ...], ...]
    group_cells: tuple[tuple[int, ...], ...]


def _blocks(rules: Rules) -> tuple[tuple[int, ...], ...]:
    """The complete groups of one kind that partition the board, boxes or regions first."""
    n = rules.n
    by_kind: dict[str, list[tuple[int, ...]]] = {}
    for group in rules.complete_groups:
        by_kind.setdefault(group.kind, []).append(group.cells)
    order = sorted(by_kind, key=lambda kind: (kind not in ("box", "region"), kind != "row"))
    for kind in order:
        found = by_kind[kind]
        if len(found) == n and len({cell for cells in found for cell in cells}) == n * n:
            return tuple(found)
    raise UnsupportedFeature("local search needs complete groups that cover the board (boxes, regions or rows)")


@lru_cache(maxsize=16)
def _tables(rules: Rules) -> _Tables:
    n, size = rules.n, rules.shape.cells
    blocks = _blocks(rules)
    block_set = set(blocks)
    kept = [g.cells for g in rules.groups if g.cells not in block_set]
    groups: list[list[int]] = [[] for _ in range(size)]
    for index, cells in enumerate(kept):
        for cell in cells:
            groups[cell].append(index * (n + 1))
    mates = [set() for _ in range(size)]
    for cells in (*kept, *blocks):
        for cell in cells:
            mates[cell].update(cells)
    partners: list[list[int]] = [[] for _ in range(size)]
    for a, b in rules.pairs:
        if b not in mates[a]:
            partners[a].append(b)
            partners[b].append(a)
    sums = tuple((cage.cells, cage.total) for cage in rules.cages)
    thermos = tuple(thermo.cells for thermo in rules.thermos)
    extras: list[list[int]] = [[] for _ in range(size)]
    for index, cells in enumerate([cells for cells, _ in sums] + list(thermos)):
        for cell in dict.fromkeys(cells):
            extras[cell].append(index)
    return _Tables(n, blocks, tuple(map(tuple, groups)), tuple(map(frozenset, groups)),
                   tuple(map(tuple, partners)), tuple(map(tuple, extras)), sums, thermos, tuple(kept))


def _matching(cells: list[int], digits: list[int], cand: list[int], rng: random.Random) -> dict[int, int] | None:
    """A random assignment of ``digits`` to ``cells`` within their candidates (Kuhn's augmenting paths)."""
    order = cells[:]
    rng.shuffle(order)
    holder: dict[int, int] = {}  # digit -> cell

    def place(cell: int, seen: set[int]) -> bool:
        options = [d for d in digits if cand[cell] >> (d - 1) & 1 and d not in seen]
        rng.shuffle(options)
        for digit in options:
            seen.add(digit)
            if digit not in holder or place(holder[digit], seen):
                holder[digit] = cell
                return True
        return False

    for cell in order:
        if not place(cell, set()):
            return None
    return {cell: digit for digit, cell in holder.items()}


class _Unsolvable(Exception):
    """A block whose open cells cannot take its missing digits: proof that there is no solution."""


class _State:
    """One filled board, its cost, and the counts that update the cost on a swap."""

    def __init__(self, tables: _Tables, grid: list[int], free: list[list[int]], cand: list[int],
                 rng: random.Random):
        self.t, self.cand, self.rng = tables, cand, rng
        self.fixed = list(grid)
        self.free = free
        self.fill()

    def fill(self) -> None:
        """A fresh random fill: each block's missing digits on its open cells, within their candidates."""
        t, grid = self.t, list(self.fixed)
        for block, cells in zip(t.blocks, self.free):
            missing = sorted(set(range(1, t.n + 1)) - {grid[c] for c in block if grid[c]})
            matched = _matching(cells, missing, self.cand, self.rng)
            if matched is None:
                raise _Unsolvable
            for cell, digit in matched.items():
                grid[cell] = digit
        self.grid = grid
        width = t.n + 1
        self.counts = counts = [0] * (len(t.group_cells) * width)
        for index, cells in enumerate(t.group_cells):
            for cell in cells:
                counts[index * width + grid[cell]] += 1
        self.penalties = [self.penalty(k) for k in range(len(t.sums) + len(t.thermos))]
        cost = sum(max(0, c - 1) for c in counts) + sum(self.penalties)
        cost += sum(grid[a] == grid[b] for a, partners in enumerate(t.partners) for b in partners) // 2
        self.cost = cost

    def penalty(self, k: int) -> int:
        """How far cage or thermometer k is from holding: ``|sum - total|``, or the thermometer's drops."""
        grid, sums = self.grid, self.t.sums
        if k < len(sums):
            cells, total = sums[k]
            return abs(sum(grid[c] for c in cells) - total)
        line = [grid[c] for c in self.t.thermos[k - len(sums)]]
        return sum(max(0, a - b + 1) for a, b in zip(line, line[1:]))

    def delta(self, c1: int, c2: int) -> tuple[int, dict[int, int] | None]:
        """The cost change of swapping the digits of two cells of one block, and the new extra penalties."""
        t, grid, counts = self.t, self.grid, self.counts
        a, b = grid[c1], grid[c2]
        change = 0
        in2, in1 = t.group_sets[c2], t.group_sets[c1]
        for base in t.groups[c1]:
            if base not in in2:
                if counts[base + a] > 1:
                    change -= 1
                if counts[base + b]:
                    change += 1
        for base in t.groups[c2]:
            if base not in in1:
                if counts[base + b] > 1:
                    change -= 1
                if counts[base + a]:
                    change += 1
        for cell, old, new, other in ((c1, a, b, c2), (c2, b, a, c1)):
            for p in t.partners[cell]:
                if p != other:
                    change += (grid[p] == new) - (grid[p] == old)
        touched = t.extras[c1] + t.extras[c2]
        if not touched:
            return change, None
        grid[c1], grid[c2] = b, a
        new_penalties = {k: self.penalty(k) for k in touched}
        grid[c1], grid[c2] = a, b
        change += sum(new_penalties.values()) - sum(self.penalties[k] for k in new_penalties)
        return change, new_penalties

    def swap(self, c1: int, c2: int, change: int, new_penalties: dict[int, int] | None) -> None:
        t, grid, counts = self.t, self.grid, self.counts
        a, b = grid[c1], grid[c2]
        for base in t.groups[c1]:
            counts[base + a] -= 1
            counts[base + b] += 1
        for base in t.groups[c2]:
            counts[base + b] -= 1
            counts[base + a] += 1
        grid[c1], grid[c2] = b, a
        if new_penalties:
            for k, value in new_penalties.items():
                self.penalties[k] = value
        self.cost += change

    def conflicted(self, cell: int) -> bool:
        """Whether the cell's digit breaks a group, a pair, a cage or a thermometer it is in."""
        t, grid, counts = self.t, self.grid, self.counts
        digit = grid[cell]
        return (any(counts[base + digit] > 1 for base in t.groups[cell])
                or any(grid[p] == digit for p in t.partners[cell])
                or any(self.penalties[k] for k in t.extras[cell]))


@dataclass
class _Effort:
    flips: int = 0
    accepted: int = 0
    reheats: int = 0
    restarts: int = 0
    best_cost: int = -1


def _allowed(cand: list[int], c1: int, c2: int, grid: list[int]) -> bool:
    """Whether each cell's new digit is among its candidates."""
    return bool(cand[c1] >> (grid[c2] - 1) & 1 and cand[c2] >> (grid[c1] - 1) & 1)


def _anneal(state: _State, budget: float, deadline: Deadline, effort: _Effort, temperature: float | None,
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
        if _allowed(cand, c1, c2, state.grid):
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


def _spread(state: _State, movable: list[list[int]]) -> float:
    """The standard deviation of the cost changes of random allowed swaps (Lewis's starting temperature)."""
    rng, changes = state.rng, []
    for _ in range(SAMPLE):
        cells = rng.choice(movable)
        c1, c2 = rng.sample(cells, 2)
        if _allowed(state.cand, c1, c2, state.grid):
            changes.append(state.delta(c1, c2)[0])
    if len(changes) < 2:
        return 1.0
    mean = sum(changes) / len(changes)
    return max(math.sqrt(sum((c - mean) ** 2 for c in changes) / len(changes)), 0.1)


def _min_conflicts(state: _State, budget: float, deadline: Deadline, effort: _Effort, tenure: int,
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
            if other != cell and _allowed(cand, cell, other, grid):
                effort.flips += 1
                change, extra = state.delta(cell, other)
                state.swap(cell, other, change, extra)
                effort.accepted += 1
                if state.cost < best:
                    best, since = state.cost, 0
                    effort.best_cost = min(effort.best_cost, best)
                continue
        for other in block_of[cell]:
            if other == cell or not _allowed(cand, cell, other, grid):
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


class LocalSearchSolver(SolverBase):
    """``local-search``: simulated annealing (or min-conflicts) over box permutations; finds, never proves.

    Args:
        method: "annealing" (Lewis 2007) or "min-conflicts" (with a tabu list).
        seed: the seed of every random choice (same seed, same answer and stats).
        max_flips: moves tried before giving up; by default DEFAULT_FLIPS without a time limit, none with one.
        temperature: the annealing's starting temperature (default: the spread of random swaps' cost changes).
        cooling: the factor the temperature is multiplied by after each chain of moves.
        reheat: moves without a new best cost before a reheat (annealing) or a restart (min-conflicts).
        tabu: moves a cell may not take back a digit it gave up (min-conflicts).
        propagate: fix what propagation decides first (False: Lewis's own method, for comparison).
    """

    name = "local-search"
    paradigm = "local search (simulated annealing, min-conflicts)"
    capabilities = Capabilities(
        canonical=False, count=False, time_limit=True, complete=False, kinds=frozenset(KINDS),
        why="local search is incomplete: it finds grids but neither enumerates nor orders them",
    )
    options = (
        Option("method", str, "annealing", "how the next swap is chosen", choices=METHODS,
               normalise=lambda value: value.strip().lower()),
        Option("seed", int, 2580, "the seed of every random choice"),
        Option("max_flips", int, None, f"moves tried before giving up (default {DEFAULT_FLIPS:,} without a time "
               "limit, unbounded with one)", minimum=1),
        Option("temperature", float, None, "starting temperature (default: from random swaps)", minimum=0.001),
        Option("cooling", float, 0.95, "temperature factor after each chain of moves", minimum=0.5, maximum=1.0),
        Option("reheat", int, None, "moves without a new best cost before a reheat (default: 20 chains)",
               minimum=1),
        Option("propagate", bool, True, "fix the cells propagation decides before searching (False: Lewis's "
               "own, only the givens)"),
        Option("tabu", int, 10, "moves a cell may not take back a digit it gave up (min-conflicts)", minimum=0),
    )

    def __init__(self, method: str = "annealing", seed: int = 2580, max_flips: int | None = None,
                 temperature: float | None = None, cooling: float = 0.95, reheat: int | None = None,
                 tabu: int = 10, propagate: bool = True):
        super().__init__()  # options checked by SolverBase (base.check_options)
        self.method, self.seed, self.max_flips = method, seed, max_flips
        self.temperature, self.cooling, self.reheat, self.tabu = temperature, cooling, reheat, tabu
        self.propagate = propagate

    @classmethod
    def describe_backend(cls) -> str:
        import platform

        return f"pure Python {platform.python_version()} (no engine)"

    def _refuse(self, what: str) -> None:
        raise UnsupportedFeature(f"{self.capabilities.why}, so solver '{self.name}' cannot {what}")

    def solve(self, puzzle: Puzzle, *, time_limit: float | None = None, canonical: bool = False) -> SolveResult:
        check_kinds(self, puzzle)
        if canonical:
            self._refuse("give a canonical answer")
        started = time.perf_counter()
        deadline = Deadline(time_limit)
        effort = _Effort()
        stats: dict[str, Stat] = {"method": self.method, "seed": self.seed}
        status, grid = self._search(puzzle, deadline, effort, stats)
        stats.update(flips=effort.flips, accepted=effort.accepted, reheats=effort.reheats, restarts=effort.restarts)
        if effort.best_cost >= 0:  # a search ran (none when propagation decided or proved "no solution")
            stats["best_cost"] = effort.best_cost
        return SolveResult(self.name, status, grid, time.perf_counter() - started, stats)

    def _search(self, puzzle: Puzzle, deadline: Deadline, effort: _Effort,
                stats: dict[str, Stat]) -> tuple[Status, tuple[int, ...] | None]:
        rules = puzzle.rules
        if rules.first_conflict(puzzle.givens) is not None:
            stats["proof"] = "givens"
            return Status.NO_SOLUTION, None
        if self.propagate:
            prop = propagator(rules)
            state = prop.start(puzzle.givens)
            if state is None:
                stats["proof"] = "propagation"
                return Status.NO_SOLUTION, None
            cand, full = state[0], prop.full
            grid = [(mask & full).bit_length() if mask > full else 0 for mask in cand]
        else:  # Lewis's own: the givens alone are fixed, every digit open elsewhere
            grid, cand = list(puzzle.givens), [(1 << puzzle.n) - 1] * len(puzzle.givens)
        stats["propagated"] = sum(1 for v in grid if v) - sum(1 for v in puzzle.givens if v)
        if all(grid) and rules.first_conflict(tuple(grid)) is None:
            stats["free_cells"] = 0
            return Status.SOLVED, tuple(grid)
        tables = _tables(rules)
        free = [[cell for cell in block if not grid[cell]] for block in tables.blocks]
        stats["free_cells"] = sum(map(len, free))
        rng = random.Random(self.seed)
        budget: float = self.max_flips or (DEFAULT_FLIPS if deadline.limit is None else math.inf)
        try:
            board = _State(tables, grid, free, cand, rng)
            if board.cost and all(len(cells) < 2 for cells in free):  # the one fill the blocks allow is wrong
                stats["proof"] = "forced"
                return Status.NO_SOLUTION, None
            if self.method == "annealing":
                found = _anneal(board, budget, deadline, effort, self.temperature, self.cooling, self.reheat)
            else:
                found = _min_conflicts(board, budget, deadline, effort, self.tabu, self.reheat)
        except _Unsolvable:
            stats["proof"] = "matching"
            return Status.NO_SOLUTION, None
        except TimeUp:
            return Status.TIME_LIMIT, None
        if found and rules.first_conflict(tuple(board.grid)) is None:
            return Status.SOLVED, tuple(board.grid)
        return Status.TIME_LIMIT, None

    def count(self, puzzle: Puzzle, *, limit: int = 2, time_limit: float | None = None) -> CountResult:
        check_kinds(self, puzzle)
        self._refuse("count solutions")
        raise AssertionError("unreachable")
