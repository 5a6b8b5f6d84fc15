"""The local-search paradigm: decision repair with propagation, simulated annealing over box permutations, or
min-conflicts with a tabu list.

An *incomplete* search: it finds grids, never proves there is none, so where it finds no grid within
its time limit or flip budget it answers "time limit reached"; "no solution" only with a proof made
before searching (givens, propagation, matching, forced). The default, ``repair``
(``solvers.local_search.repair``: Jussien and Lhomme 2002, Prestwich 2002), decides cells with
propagation after every move and drops a decision at a dead end instead of backtracking: the hybrid
that solves hard and variant puzzles reliably. ``annealing`` and ``min-conflicts`` work on full
boards after R. Lewis, "Metaheuristics can solve sudoku puzzles", Journal of Heuristics 13 (2007):
every block filled with its missing digits within the cells' candidates, moves that swap two open
cells of a block, a cost that counts what is still wrong. Every random choice draws from
``random.Random(seed)`` and ``max_flips`` counts moves, so a run does not depend on the machine.

The methods, the cost per rule kind, the stats and why Sudoku is hard for it: docs/local-search.md.
"""

from __future__ import annotations

import math
import random
import time

from ...core.puzzle import Puzzle
from ...errors import UnsupportedFeature, UsageError
from ..base import (
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
from ..lowering import FORMS
from ..propagation import propagator
from .annealing import anneal
from .board import NATIVE, Board, Effort, Unsolvable, board_tables
from .min_conflicts import min_conflicts
from .repair import repair

METHODS = ("repair", "annealing", "min-conflicts")

DEFAULT_FLIPS = {"repair": 200_000, "annealing": 2_000_000, "min-conflicts": 2_000_000}
"""Moves tried before giving up when no time limit is given, per method (a repair move is a propagation,
some hundred times a swap's cost): each about a minute at most (docs/local-search.md says how chosen)."""


class LocalSearchSolver(SolverBase):
    """``local-search``: decision repair with propagation, or annealing or min-conflicts; finds, never proves.

    Args:
        method: "repair" (partial assignments, propagation after each move, tabu, restarts), "annealing"
            (Lewis 2007) or "min-conflicts" (with a tabu list).
        seed: the seed of every random choice (same seed, same answer and stats).
        max_flips: moves tried before giving up; by default DEFAULT_FLIPS (per method) without a time limit,
            none with one.
        temperature: the annealing's starting temperature (default: the spread of random swaps' cost changes).
        cooling: the factor the temperature is multiplied by after each chain of moves.
        reheat: moves without a new best cost before a reheat (annealing) or a restart (repair, min-conflicts).
        tabu: moves a dropped decision may not be taken again (repair), or a cell may not take back a digit
            it gave up (min-conflicts).
        propagate: fix what propagation decides first (False: Lewis's own method, for comparison; repair
            propagates after every move, always).
    """

    name = "local-search"
    paradigm = "local search (decision repair, simulated annealing, min-conflicts)"
    capabilities = Capabilities(
        canonical=False, count=False, time_limit=True, complete=False, kinds=NATIVE, forms=FORMS,
        why="local search is incomplete: it finds grids but neither enumerates nor orders them",
    )
    options = (
        Option("method", str, "repair", "repair (decisions, propagation, tabu), annealing or min-conflicts (swaps)",
               choices=METHODS,
               normalise=lambda value: value.strip().lower()),
        Option("seed", int, 2580, "the seed of every random choice"),
        Option("max_flips", int, None, "moves tried before giving up (default without a time limit: "
               + ", ".join(f"{flips:,} for {method}" for method, flips in DEFAULT_FLIPS.items())
               + "; unbounded with one)", minimum=1),
        Option("temperature", float, None, "starting temperature (default: from random swaps)", minimum=0.001),
        Option("cooling", float, 0.95, "temperature factor after each chain of moves", minimum=0.5, maximum=1.0),
        Option("reheat", int, None, "moves without a new best cost before a reheat or restart (default: by method)",
               minimum=1),
        Option("propagate", bool, True, "fix the cells propagation decides before searching (False: Lewis's "
               "own, only the givens; not for repair, which propagates after every move)"),
        Option("tabu", int, 10, "moves a dropped decision (repair) or a given-up digit (min-conflicts) stays tabu",
               minimum=0),
    )

    def __init__(self, method: str = "repair", seed: int = 2580, max_flips: int | None = None,
                 temperature: float | None = None, cooling: float = 0.95, reheat: int | None = None,
                 tabu: int = 10, propagate: bool = True):
        super().__init__()  # options checked by SolverBase (base.check_options)
        if method == "repair" and not propagate:
            raise UsageError("solver 'local-search': method repair propagates after every move; "
                             "propagate=false is for annealing and min-conflicts")
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
        effort = Effort()
        stats: dict[str, Stat] = {"method": self.method, "seed": self.seed}
        status, grid = self._search(puzzle, deadline, effort, stats)
        stats.update(flips=effort.flips, accepted=effort.accepted, reheats=effort.reheats, restarts=effort.restarts)
        if effort.best_cost >= 0:  # a search ran (none when propagation decided or proved "no solution")
            stats["best_cost"] = effort.best_cost
        return SolveResult(self.name, status, grid, time.perf_counter() - started, stats)

    def _search(self, puzzle: Puzzle, deadline: Deadline, effort: Effort,
                stats: dict[str, Stat]) -> tuple[Status, tuple[int, ...] | None]:
        rules = puzzle.rules
        if rules.first_conflict(puzzle.givens) is not None:
            stats["proof"] = "givens"
            return Status.NO_SOLUTION, None
        if self.method == "repair":
            return self._repair(puzzle, deadline, effort, stats)
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
        tables = board_tables(rules)
        free = [[cell for cell in block if not grid[cell]] for block in tables.blocks]
        stats["free_cells"] = sum(map(len, free))
        rng = random.Random(self.seed)
        budget: float = self.max_flips or (DEFAULT_FLIPS[self.method] if deadline.limit is None else math.inf)
        try:
            board = Board(tables, grid, free, cand, rng, deadline)
            if board.cost and all(len(cells) < 2 for cells in free):  # the one fill the blocks allow is wrong
                stats["proof"] = "forced"
                return Status.NO_SOLUTION, None
            if self.method == "annealing":
                found = anneal(board, budget, deadline, effort, self.temperature, self.cooling, self.reheat)
            else:
                found = min_conflicts(board, budget, deadline, effort, self.tabu, self.reheat)
        except Unsolvable:
            stats["proof"] = "matching"
            return Status.NO_SOLUTION, None
        except TimeUp:
            return Status.TIME_LIMIT, None
        if found and rules.first_conflict(tuple(board.grid)) is None:
            return Status.SOLVED, tuple(board.grid)
        return Status.TIME_LIMIT, None

    def _repair(self, puzzle: Puzzle, deadline: Deadline, effort: Effort,
                stats: dict[str, Stat]) -> tuple[Status, tuple[int, ...] | None]:
        prop = propagator(puzzle.rules)
        state = prop.start(puzzle.givens)
        if state is None:
            stats["proof"] = "propagation"
            return Status.NO_SOLUTION, None
        settled = sum(1 for mask in state[0] if mask > prop.full)
        stats["propagated"] = settled - sum(1 for v in puzzle.givens if v)
        stats["free_cells"] = puzzle.shape.cells - settled
        budget: float = self.max_flips or (DEFAULT_FLIPS[self.method] if deadline.limit is None else math.inf)
        try:
            grid = repair(prop, puzzle.givens, random.Random(self.seed), budget, deadline, effort, self.tabu,
                          self.reheat)
        except TimeUp:
            return Status.TIME_LIMIT, None
        if grid is not None and puzzle.rules.first_conflict(grid) is None:
            return Status.SOLVED, grid
        return Status.TIME_LIMIT, None

    def count(self, puzzle: Puzzle, *, limit: int = 2, time_limit: float | None = None) -> CountResult:
        check_kinds(self, puzzle)
        self._refuse("count solutions")
        raise AssertionError("unreachable")
