"""Random complete grids and puzzles of any board shape, deterministic for a seed.

A grid is a randomised search of the empty board (its own search, Las Vegas restarts, since the
solvers' searches are deterministic on purpose) followed by random Sudoku symmetries: close to
uniform, not exactly. Clues are then removed in random order down to a target, each removal kept
only while the puzzle keeps one solution when that is asked (counted by the oracle, SAT by default).
Variant rules are kept throughout (their propagation is ``propagation``'s). One seed gives the same
puzzles in one process or on a cluster (``per_puzzle_seeds``). The random grid, the removal of
givens, the uniqueness check and the seeding are one recipe, so they live together.

How uniform the grids are, variant rules and seeds in detail: docs/generate.md.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.grid import Grid, Shape
from ..core.puzzle import Puzzle
from ..core.rules import Rules, standard
from ..errors import NoSolution, TimeLimitReached
from ..formats.boj import format_line, format_puzzle
from ..solvers.propagation import propagator
from ..solvers.propagation.tables import SETTLED
from ..verdicts.oracle import Oracle

if TYPE_CHECKING:
    from ..execution.executors import Executor

DEFAULT_FRACTION = 0.45
"""Share of the cells given when no clue count is asked for (the scaling study's choice)."""

UNIQUE_FRACTIONS = ((16, 0.45), (25, 0.60), (36, 0.80))
"""With ``unique``, the default share by board size (up to n: fraction; larger boards: 0.90).

Each removal is a SAT count, and counts get hard fast as the givens thin out on large boards
(the times behind these shares: docs/generate.md)."""

LARGE_UNIQUE_FRACTION = 0.90

UNIQUENESS_TIME_LIMIT = 30.0
"""Seconds one uniqueness count may take; a count that runs out keeps the clue (stays safe)."""


def _random_fill(shape: Shape, rng: random.Random, budget: int, rules: Rules | None = None
                 ) -> tuple[Grid | None, int, bool]:
    """One randomised search of the empty board under the rules (standard when None).

    Returns (the grid or None, nodes used, whether the search was exhausted: no grid at all).
    Propagation is the solvers' own (``propagation``), so every rule kind is honoured as it is
    placed; the random choices (cell among the fewest candidates, digit order) are drawn here.
    """
    n = shape.n
    prop = propagator(rules if rules is not None else standard(shape))
    full, done, tables, settle = prop.full, prop.done, prop.tables, prop.settle
    start = prop.start((0,) * shape.cells)
    if start is None:
        return None, 0, True
    cells = range(shape.cells)
    # Each frame: the state before branching, the cell, the digit bits still to try (in order).
    stack: list[tuple[tuple[list[int], list[int]], int, list[int]]] = []
    state: tuple[list[int], list[int]] | None = start
    nodes = 0
    while True:
        if state is not None:
            cand = state[0]
            fewest, best = n + 1, []
            for cell in cells:
                mask = cand[cell]
                if mask <= full:  # open (placed cells carry the done bits above full)
                    size = mask.bit_count()
                    if size > 1:
                        if size < fewest:
                            fewest, best = size, [cell]
                        elif size == fewest:
                            best.append(cell)
            if not best:
                return tuple((mask & full).bit_length() for mask in cand), nodes, False
            cell = rng.choice(best)
            mask = cand[cell]
            digits = [1 << d for d in range(n) if mask >> d & 1]
            rng.shuffle(digits)
            stack.append((state, cell, digits))
            state = None
        if not stack:
            return None, nodes, True  # every branch failed: the rules admit no grid
        (cand, where), cell, digits = stack[-1]
        if not digits:
            stack.pop()
            continue
        nodes += 1
        if nodes > budget:
            return None, nodes, False
        child = cand[:], where[:]
        if settle(child[0], child[1], [(cell, digits.pop())], tables, full, done) == SETTLED:
            state = child


def _shuffled_groups(rng: random.Random, groups: int, size: int) -> list[int]:
    """A random order of groups*size lines that keeps each group (band or stack) together."""
    order = list(range(groups))
    rng.shuffle(order)
    lines = []
    for group in order:
        inside = list(range(group * size, (group + 1) * size))
        rng.shuffle(inside)
        lines.extend(inside)
    return lines


def random_symmetry(grid: Grid, shape: Shape, rng: random.Random) -> Grid:
    """The grid under a random validity-preserving symmetry (listed in docs/generate.md).

    Valid for standard rules only: the moves keep rows, columns and boxes, but not what a variant
    adds. Swapping rows within a band moves cells off a diagonal (X) and out of a window
    (windoku), breaks knight and king neighbourhoods (anti-knight, anti-king), and moves cells
    across irregular regions, cages and thermometers; only relabelling would keep most of those,
    and not cages' sums or thermometers' order. So ``random_grid`` applies it to standard rules
    alone; under other rules the randomised search is the only source of variety.
    """
    n = shape.n
    labels = list(range(1, n + 1))
    rng.shuffle(labels)
    rows = _shuffled_groups(rng, shape.box_cols, shape.box_rows)  # box_cols bands of box_rows rows
    cols = _shuffled_groups(rng, shape.box_rows, shape.box_cols)  # box_rows stacks of box_cols columns
    transpose = shape.box_rows == shape.box_cols and rng.random() < 0.5
    out = []
    for r in range(n):
        for c in range(n):
            cell = rows[c] * n + cols[r] if transpose else rows[r] * n + cols[c]
            out.append(labels[grid[cell] - 1])
    return tuple(out)


def random_grid(shape: Shape | int, rng: random.Random, rules: Rules | None = None) -> Grid:
    """A random complete grid of the shape under the rules: a randomised search, then (standard rules
    only, see ``random_symmetry``) random symmetries.

    Under rules where a random fill often runs into dead ends (anti-knight, cages), a run that
    exceeds its node budget restarts with fresh choices and a larger budget. A rule set that admits
    no grid at all (cage totals no fill meets) is told with ``NoSolution`` instead of a search that
    never ends: once the restarts have spent ``FILL_CHECK_NODES``, the fast search decides within
    ``FILL_CHECK_SECONDS`` whether any grid exists (``TimeLimitReached`` when it cannot tell).

    >>> from sudokulab.core.puzzle import is_solution
    >>> grid = random_grid(9, random.Random(1))
    >>> is_solution(grid, Puzzle.empty(9)), grid == random_grid(9, random.Random(1))
    (True, True)
    """
    shape = shape if isinstance(shape, Shape) else Shape.of_size(shape)
    if rules is not None and rules.is_standard:
        rules = None
    budget = 4 * shape.cells + 100
    spent = 0
    checked = False
    while True:
        grid, nodes, exhausted = _random_fill(shape, rng, budget, rules)
        if grid is not None:
            return random_symmetry(grid, shape, rng) if rules is None else grid
        if exhausted:
            raise NoSolution(f"no complete grid keeps these rules ({_words(rules, shape)})")
        spent += nodes
        if rules is not None and not checked and spent > FILL_CHECK_NODES:
            checked = True
            _check_some_grid(rules)
        budget = budget * 3 // 2  # restart with fresh choices, a little more patient each time


FILL_CHECK_NODES = 20_000
"""Nodes the random restarts may spend under variant rules before the fast search is asked whether
any grid exists at all (a few seconds of restarts on 9x9)."""

FILL_CHECK_SECONDS = 60.0
"""Seconds the fast search may take to find one grid, or prove there is none, for ``random_grid``."""


def _words(rules: Rules | None, shape: Shape) -> str:
    return rules.describe() if rules is not None else str(shape)


def _check_some_grid(rules: Rules) -> None:
    """Raise ``NoSolution`` when no grid keeps the rules, ``TimeLimitReached`` when that is not known in time."""
    from ..solvers.backtrack.solver import fast_search
    from ..solvers.base import Deadline, TimeUp
    from ..solvers.search import SearchCounters

    empty = Puzzle(rules.shape, (0,) * rules.shape.cells, rules)
    try:
        found = next(fast_search(empty, Deadline(FILL_CHECK_SECONDS), SearchCounters(), False), None)
    except TimeUp:
        raise TimeLimitReached(f"no complete grid found in {FILL_CHECK_SECONDS:g} s under these rules "
                               f"({rules.describe()}); they may admit none") from None
    if found is None:
        raise NoSolution(f"no complete grid keeps these rules ({rules.describe()})")


@dataclass(frozen=True)
class Generated:
    """One generated puzzle, its solution, and the clue count that was asked for."""

    puzzle: Puzzle
    solution: Grid
    target: int
    unique: bool

    @property
    def clues(self) -> int:
        return self.puzzle.shape.cells - self.puzzle.blanks

    @property
    def short(self) -> bool:
        """True when uniqueness stopped the removal above the target clue count."""
        return self.clues > self.target

    def to_json(self, number: int) -> dict[str, Any]:
        """The puzzle as a ``generate --json`` row (``schemas/generate.schema.json``); its solution is left
        out, as from the dataset text: a puzzle made unique has only that one."""
        from ..formats.documents import grid_rows, puzzle_fields

        return {"index": number, **puzzle_fields(self.puzzle), "clues": self.clues, "target": self.target,
                "unique": self.unique, "short": self.short, "text": dataset_text(self.puzzle).rstrip("\n"),
                "givens": grid_rows(self.puzzle.givens, self.puzzle.n)}


def default_fraction(shape: Shape | int, unique: bool = False) -> float:
    """The share of the cells given when none is asked for: ``DEFAULT_FRACTION``, and with ``unique``
    more on large boards, so each puzzle takes seconds (``UNIQUE_FRACTIONS``).

    >>> default_fraction(9, unique=True), default_fraction(25), default_fraction(25, unique=True)
    (0.45, 0.45, 0.6)
    """
    n = shape.n if isinstance(shape, Shape) else shape
    if not unique:
        return DEFAULT_FRACTION
    return next((f for size, f in UNIQUE_FRACTIONS if n <= size), LARGE_UNIQUE_FRACTION)


def clues_for(shape: Shape, clues: int | None = None, fraction: float | None = None, unique: bool = False) -> int:
    """The clue count asked for, by number or by share of the cells (default ``default_fraction``)."""
    if clues is not None and fraction is not None:
        raise ValueError("give the clues as a count or as a fraction, not both")
    if clues is None:
        fraction = default_fraction(shape, unique) if fraction is None else fraction
        if not 0 <= fraction <= 1:
            raise ValueError(f"fraction of clues must lie in 0..1, not {fraction}")
        clues = round(fraction * shape.cells)
    if not 0 <= clues <= shape.cells:
        raise ValueError(f"a {shape.n}x{shape.n} board has {shape.cells} cells: "
                         f"give --clues from 0 to {shape.cells}, not {clues}")
    return clues


Progress = Callable[[int, int], None]
"""Told (cells blanked, cells to blank) as a puzzle is made: (0, K) before its grid, then each step."""


def remove_clues(solution: Grid, shape: Shape, clues: int, rng: random.Random,
                 oracle: Oracle | None = None, progress: Progress | None = None,
                 rules: Rules | None = None) -> Puzzle:
    """Blank cells of a complete grid in random order down to ``clues`` givens.

    With an ``oracle`` a removal is kept only if the puzzle keeps exactly one solution under the
    ``rules`` (standard when None; a count that runs out of time keeps the clue: safe); the result
    then may keep more clues than asked (see ``Generated.short``). ``progress`` hears of every cell
    tried. The puzzle carries the rules.
    """
    givens = list(solution)
    order = list(range(shape.cells))
    rng.shuffle(order)
    remaining = shape.cells
    wanted = max(shape.cells - clues, 0)
    for cell in order:
        if remaining <= clues:
            break
        givens[cell] = 0
        if oracle is not None:
            if oracle.solutions(Puzzle(shape, tuple(givens), rules)) != 1:
                givens[cell] = solution[cell]
                continue
        remaining -= 1
        if progress is not None:
            progress(shape.cells - remaining, wanted)
    return Puzzle(shape, tuple(givens), rules)


def generate(shape: Shape | int, count: int = 1, *, clues: int | None = None, fraction: float | None = None,
             unique: bool = False, seed: int | None = None, oracle: Oracle | None = None,
             progress: Progress | None = None, per_puzzle_seeds: bool = False,
             cluster: str | Executor | None = None, chunk: int | None = None,
             rules: Rules | None = None) -> Iterator[Generated]:
    """``count`` random puzzles of a shape, the same ones for the same seed.

    ``rules`` (standard when None) is the fixed rule set every grid keeps and every puzzle carries
    (``Generated.puzzle.rules``). A rule set that admits no grid raises ``NoSolution`` (see ``random_grid``).
    With ``unique`` and no ``oracle``, one ``Oracle`` (``UNIQUENESS_TIME_LIMIT`` per count) serves
    the whole run: SAT, or the fast search when SAT does not declare every kind of the rules
    (``oracle_for``). ``progress`` follows each puzzle as it is made (for a progress bar; not
    on a cluster). ``per_puzzle_seeds`` gives each puzzle its own stream (docs/generate.md);
    ``cluster`` (an address, ``local:N`` or an executor) makes chunks of ``chunk`` puzzles (default
    ``chunk_size``) on its workers, with per-puzzle seeds, and yields them in order.

    >>> [g.clues for g in generate(4, 3, clues=6, seed=7)]
    [6, 6, 6]
    >>> a = [g.puzzle for g in generate(4, 5, clues=6, seed=7, per_puzzle_seeds=True)]
    >>> a[3] == make_chunk(Chunk(Shape.of_size(4), 3, 4, target=6, unique=False, seed=7))[0].puzzle
    True
    """
    shape = shape if isinstance(shape, Shape) else Shape.of_size(shape)
    if rules is not None and rules.shape != shape:
        raise ValueError(f"the rules are for a {rules.shape}, the puzzles for a {shape}")
    if rules is not None and rules.is_standard:
        rules = None
    target = clues_for(shape, clues, fraction, unique)
    if (per_puzzle_seeds or cluster is not None) and seed is None:
        seed = random.SystemRandom().randrange(2**32)
    if cluster is not None:
        yield from _generate_on_cluster(shape, count, target, unique, seed,  # type: ignore[arg-type]
                                        cluster, chunk, rules)
        return
    rng = random.Random(seed)
    own = unique and oracle is None
    if own:
        oracle = oracle_for(rules)
    try:
        for k in range(count):
            if progress is not None:
                progress(0, max(shape.cells - target, 0))
            if per_puzzle_seeds:
                rng = random.Random(puzzle_seed(seed, k))  # type: ignore[arg-type]
            yield _one(shape, target, unique, rng, oracle, progress, rules)
    finally:
        if own and oracle is not None:
            oracle.close()


def _one(shape: Shape, target: int, unique: bool, rng: random.Random, oracle: Oracle | None,
         progress: Progress | None = None, rules: Rules | None = None) -> Generated:
    # without rules, called with two arguments: a test stands in for it with that signature
    solution = random_grid(shape, rng) if rules is None else random_grid(shape, rng, rules)
    puzzle = remove_clues(solution, shape, target, rng, oracle if unique else None, progress, rules)
    return Generated(puzzle, solution, target, unique)


def oracle_for(rules: Rules | None) -> Oracle:
    """The uniqueness oracle of a run: SAT (``UNIQUENESS_TIME_LIMIT`` per count) when it declares
    every kind the rules use, else the fast search, which honours every kind."""
    oracle = Oracle(time_limit=UNIQUENESS_TIME_LIMIT)
    if rules is not None and oracle.solver.capabilities.lacks(rules=rules):
        oracle.close()
        oracle = Oracle("backtrack-fast", time_limit=UNIQUENESS_TIME_LIMIT)
    return oracle


def puzzle_seed(seed: int, k: int) -> str:
    """The seed of puzzle ``k`` (0-based) with per-puzzle seeds: a text, hashed by ``random.Random``."""
    return f"{seed}/{k}"


# --- on a cluster --------------------------------------------------------------------------------

def chunk_size(shape: Shape, unique: bool) -> int:
    """Puzzles per cluster task: about a quarter to one second of work, well above the scheduler's cost
    of a task and small enough to spread a run over many workers (docs/generate.md)."""
    return max(1, (1200 if unique else 6000) // shape.cells)


@dataclass(frozen=True)
class Chunk:
    """Puzzles ``start`` to ``stop - 1`` of a run, to make on a worker."""

    shape: Shape
    start: int
    stop: int
    target: int
    unique: bool
    seed: int
    rules: Rules | None = None
    """The rule set (None: standard)."""


_ORACLES: dict[tuple[float, frozenset[str]], Oracle] = {}
"""Per worker process: one oracle per set of rule kinds, built on first use and kept for every chunk."""


def make_chunk(chunk: Chunk) -> list[Generated]:
    """Run on a worker: the chunk's puzzles, each from its own stream (``puzzle_seed``)."""
    oracle = None
    if chunk.unique:
        key = (UNIQUENESS_TIME_LIMIT, chunk.rules.kinds if chunk.rules is not None else frozenset())
        oracle = _ORACLES.get(key)
        if oracle is None:
            oracle = _ORACLES[key] = oracle_for(chunk.rules)
    return [_one(chunk.shape, chunk.target, chunk.unique, random.Random(puzzle_seed(chunk.seed, k)), oracle,
                 rules=chunk.rules)
            for k in range(chunk.start, chunk.stop)]


def _generate_on_cluster(shape: Shape, count: int, target: int, unique: bool, seed: int,
                         cluster: Any, chunk: int | None, rules: Rules | None = None) -> Iterator[Generated]:
    from ..execution.cluster import executor_for

    size = max(1, chunk or chunk_size(shape, unique))
    chunks = (Chunk(shape, start, min(start + size, count), target, unique, seed, rules)
              for start in range(0, count, size))
    waiting: dict[int, list[Generated]] = {}
    following = 0
    with executor_for(cluster) as executor:
        for done, made in executor.imap(make_chunk, chunks):
            waiting[done.start] = made
            while following in waiting:  # back into order
                batch = waiting.pop(following)
                yield from batch
                following += len(batch)


def dataset_text(puzzle: Puzzle) -> str:
    """One puzzle as a dataset entry: the one-line form for 4 <= n <= 9, else a BOJ block and a blank line.

    ``datasets.read_dataset`` reads both back (give it the same box split when it is not the default).
    """
    if 4 <= puzzle.n <= 9:
        return format_line(puzzle) + "\n"
    return format_puzzle(puzzle) + "\n"
