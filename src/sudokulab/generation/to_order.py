"""Puzzles made to order: a rating range on Sudoku Explainer's scale, a technique the path needs,
symmetric givens, minimal puzzles.

A request (``Order``) is met by trying candidates one after another, each from its own random
stream (``"{seed}/{k}"``, so the same seed gives the same puzzles wherever they are tried): a random
complete grid, from which givens are taken away an *orbit* at a time (a cell and its images under
the symmetry) while the puzzle keeps one solution; then the checks, cheapest first: ``minimal``, a
rating range (serate's ER, its path stopped at the first step above the range), ``needs`` (a path
that uses a technique needs it, since serate takes the first rule in its order that has a hint; a
test checks it). Rating is the cost, so candidates are tried in batches on the executor and the
first ``count`` accepted in candidate order kept. ``Tally`` counts what each request tried and why
candidates were turned away.

How a request is met, and what one costs: docs/generate.md ("Puzzles made to order").
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..core.grid import Shape
from ..core.puzzle import Puzzle
from ..errors import UsageError

if TYPE_CHECKING:
    from ..execution.executors import Executor
    from ..verdicts.oracle import Oracle

SYMMETRIES = ("none", "rotational", "mirror")
"""The symmetries of the givens: none, the 180-degree turn, the left-right mirror."""

TECHNIQUES = (
    "hidden single", "direct pointing", "direct claiming", "direct hidden pair", "naked single",
    "direct hidden triplet", "pointing", "claiming", "naked pair", "x-wing", "hidden pair", "naked triplet",
    "swordfish", "hidden triplet", "xy-wing", "xyz-wing", "unique rectangle", "unique loop", "naked quad",
    "jellyfish", "hidden quad", "bug", "aligned pair exclusion", "turbot fish", "forcing x-chain",
    "forcing chain", "bidirectional x-cycle", "bidirectional y-cycle", "bidirectional cycle",
    "generalized x-wing", "aligned triplet exclusion", "nishio forcing chains", "cell forcing chains",
    "region forcing chains", "dynamic contradiction forcing chains", "dynamic double forcing chains",
    "dynamic cell forcing chains", "dynamic region forcing chains",
)
"""What ``--needs`` takes: the names serate gives its hints (case, spaces and hyphens aside); a family
(unique rectangle, unique loop, bug) matches each of its types and sizes."""

BATCH = 4
"""Candidates per task on ``--jobs`` or a cluster: a candidate takes from a tenth of a second to seconds."""


def technique_name(text: str) -> str:
    """A technique as ``--needs`` gives it, checked against ``TECHNIQUES``: lower case, one space."""
    name = re.sub(r"[\s_-]+", " ", text.strip().lower())
    known = {re.sub(r"[\s_-]+", " ", t) for t in TECHNIQUES}
    if name not in known:
        raise UsageError(f"unknown technique '{text}': one of {', '.join(t.replace(' ', '-') for t in TECHNIQUES)}")
    return name


def uses(step_name: str, needed: str) -> bool:
    """Whether a serate step of this name is the technique ``needed`` (a ``technique_name``)."""
    name = re.sub(r"[\s_-]+", " ", step_name.lower())
    return name == needed or name.startswith(needed + " ") and needed in ("unique rectangle", "unique loop", "bug")


def rating_range(text: str) -> tuple[float, float]:
    """``LO..HI`` (or one value) as a closed range of ratings."""
    parts = text.split("..")
    try:
        low, high = (float(parts[0]), float(parts[-1])) if len(parts) <= 2 else (None, None)
    except ValueError:
        low = high = None
    if low is None or high is None or low > high or low < 0:
        raise UsageError(f"--rating takes LO..HI with 0 <= LO <= HI, not '{text}'")
    return low, high


@dataclass(frozen=True)
class Order:
    """What the puzzles must be: ``rating`` (ER range on serate's scale), ``needs`` (a technique of the
    path), ``symmetry`` of the givens, ``minimal``; always with one solution."""

    rating: tuple[float, float] | None = None
    needs: str | None = None
    symmetry: str = "none"
    minimal: bool = False

    def __post_init__(self) -> None:
        if self.symmetry not in SYMMETRIES:
            raise UsageError(f"unknown symmetry '{self.symmetry}': one of {', '.join(SYMMETRIES)}")

    @property
    def rates(self) -> bool:
        return self.rating is not None or self.needs is not None


@dataclass(frozen=True)
class Candidate:
    """One candidate tried: its number, its puzzle, serate's numbers when it was rated (``er`` None
    otherwise), and why it was turned away ("" when accepted)."""

    index: int
    puzzle: Puzzle
    solution: tuple[int, ...]
    er: float | None
    ep: float | None
    ed: float | None
    rejected: str
    seconds: float

    @property
    def accepted(self) -> bool:
        return not self.rejected

    @property
    def clues(self) -> int:
        return sum(1 for v in self.puzzle.givens if v)

    def to_json(self, number: int) -> dict[str, Any]:
        from ..formats.boj import format_line

        return {"number": number, "candidate": self.index, "puzzle": format_line(self.puzzle), "clues": self.clues,
                "er": self.er, "ep": self.ep, "ed": self.ed}


@dataclass
class Tally:
    """What a request cost: candidates tried, accepted, and turned away by each check."""

    tried: int = 0
    accepted: int = 0
    reasons: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    def add(self, candidate: Candidate) -> None:
        self.tried += 1
        self.seconds += candidate.seconds
        if candidate.accepted:
            self.accepted += 1
        else:
            key = candidate.rejected.split(":")[0]
            self.reasons[key] = self.reasons.get(key, 0) + 1


def orbits(symmetry: str, n: int = 9) -> list[tuple[int, ...]]:
    """The cells grouped by the symmetry's images, each orbit once (smallest cell first)."""
    seen: set[int] = set()
    found = []
    for cell in range(n * n):
        if cell in seen:
            continue
        r, c = divmod(cell, n)
        images = {cell}
        if symmetry == "rotational":
            images.add((n - 1 - r) * n + (n - 1 - c))
        elif symmetry == "mirror":
            images.add(r * n + (n - 1 - c))
        seen |= images
        found.append(tuple(sorted(images)))
    return found


def symmetric(givens: tuple[int, ...], symmetry: str, n: int = 9) -> bool:
    """Whether the given cells (not their values) look the same under the symmetry."""
    return all(all(bool(givens[a]) == bool(givens[orbit[0]]) for a in orbit) for orbit in orbits(symmetry, n))


def unique(puzzle: Puzzle, oracle: Oracle) -> bool:
    return oracle.solutions(puzzle) == 1


def dig(solution: tuple[int, ...], symmetry: str, rng: random.Random, oracle: Oracle) -> Puzzle:
    """Givens taken away from a complete grid an orbit at a time, in random order, each removal kept
    when one solution is left, until none can go."""
    shape = Shape.of_size(9)
    givens = list(solution)
    chosen = orbits(symmetry)
    rng.shuffle(chosen)
    for orbit in chosen:
        for cell in orbit:
            givens[cell] = 0
        if not unique(Puzzle(shape, tuple(givens)), oracle):
            for cell in orbit:
                givens[cell] = solution[cell]
    return Puzzle(shape, tuple(givens))


def is_minimal(puzzle: Puzzle, oracle: Oracle) -> bool:
    """Whether every given is needed: without any one of them, two solutions or more."""
    givens = list(puzzle.givens)
    for cell, value in enumerate(puzzle.givens):
        if value:
            givens[cell] = 0
            if unique(Puzzle(puzzle.shape, tuple(givens), puzzle.rules), oracle):
                return False
            givens[cell] = value
    return True


def candidate(order: Order, seed: int, index: int, oracle: Oracle) -> Candidate:
    """Candidate ``index`` of a request: made from its own stream and checked against the order."""
    from ..reasoning.serate.solver import rate
    from .puzzles import random_grid

    start = time.perf_counter()
    rng = random.Random(f"{seed}/{index}")
    solution = tuple(random_grid(Shape.of_size(9), rng))
    puzzle = dig(solution, order.symmetry, rng, oracle)

    def made(rejected: str, er: float | None = None, ep: float | None = None, ed: float | None = None) -> Candidate:
        return Candidate(index, puzzle, solution, er, ep, ed, rejected, time.perf_counter() - start)

    if order.minimal and not is_minimal(puzzle, oracle):
        return made("not minimal")
    if not order.rates:
        return made("")
    high = order.rating[1] if order.rating is not None else None
    found = rate(puzzle.givens, stop_above=high)
    if found.stopped:
        return made(f"rating above the range: at least {found.er}", found.er)
    numbers = (found.er, found.ep, found.ed)
    if order.rating is not None and found.er < order.rating[0]:
        return made(f"rating below the range: {found.er}", *numbers)
    if order.needs is not None and not any(uses(step.technique, order.needs) for step in found.steps):
        return made(f"path without {order.needs}", *numbers)
    return made("", *numbers)


_ORACLES: list[Any] = []


def _oracle() -> Oracle:
    """A worker's uniqueness oracle, built on first use and kept (a worker tries many candidates)."""
    if not _ORACLES:
        from .puzzles import oracle_for

        _ORACLES.append(oracle_for(None))
    return _ORACLES[0]


def try_batch(task: tuple[tuple[Order, int], list[int]]) -> list[Candidate]:
    """A batch of candidates tried, in order: the work of one task, here or on a worker."""
    (order, seed), indexes = task
    oracle = _oracle()
    return [candidate(order, seed, index, oracle) for index in indexes]


def made_to_order(order: Order, count: int, seed: int, *, executor: Executor | None = None,
                  limit: int | None = None, on_candidate: Callable[[Candidate], None] | None = None
                  ) -> Iterator[Candidate]:
    """The first ``count`` accepted candidates of the request, in candidate order (the same for a seed
    wherever they were tried). ``limit``: give up after that many candidates (fewer puzzles then);
    ``on_candidate`` hears of every candidate tried, accepted or not, in order."""
    indexes = iter(range(limit) if limit is not None else _forever())
    found = 0
    if executor is None or executor.workers <= 1:
        from .puzzles import oracle_for

        oracle = oracle_for(None)  # this run's own, closed at its end
        results: Iterator[Candidate] = (candidate(order, seed, index, oracle) for index in indexes)
    else:
        from ..execution.executors import in_order

        oracle = None
        results = in_order(executor, try_batch, (order, seed), indexes, BATCH)
    try:
        for made in results:
            if on_candidate is not None:
                on_candidate(made)
            if made.accepted:
                found += 1
                yield made
                if found >= count:
                    return
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()
        if oracle is not None:
            oracle.close()


def _forever() -> Iterator[int]:
    k = 0
    while True:
        yield k
        k += 1
