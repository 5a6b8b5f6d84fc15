"""Difficulty ratings: how hard a puzzle is for a person, from the hardest step its explanation needs.

Two scales (``SCALES``). **sudokulab**'s, the default: ``explain``'s path over the whole catalogue
takes the cheapest step available each time, so its hardest step is the least a solver of that
toolbox must know, and the rating is that step's difficulty on Sudoku Explainer's scale (no bonus
for how often it is needed; the count is kept, ``hardest_steps``). **se**, Sudoku Explainer's:
serate's ER, EP and ED from SE 1.2.1's own rules in its order (``serate``), standard 9x9 only. A
full board rates 0; an explanation cut short gives a lower bound, marked ``stopped``.
``chosen_entries`` picks a dataset's puzzles, ``rate_entries`` rates them (here, or in batches on
``--jobs``/``--cluster`` workers, rows in input order either way), ``Distribution`` sums them up
per dataset; ``sudokulab rate`` prints them (``cli.commands.rate``).

The scales and each technique's difficulty: docs/rating.md.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..datasets.reading import Dataset, Entry, RawLine, parse_lines, read_dataset

if TYPE_CHECKING:
    from ..core.puzzle import Puzzle
    from ..execution.executors import Executor
    from .serate.solver import SERating

SCALES = ("sudokulab", "se")
"""The rating scales: ours (the hardest step of ``explain``'s path) and Sudoku Explainer's (serate's)."""


@dataclass(frozen=True)
class Rating:
    """One puzzle's rating: the hardest step's technique and difficulty (the rating), the number of
    steps (and of steps at the hardest difficulty), and whether the explanation stopped short (then
    the rating is a lower bound). On SE's scale ``rating`` is the ER and ``ep``, ``ed`` serate's
    pearl and diamond (None on ours)."""

    technique: str
    difficulty: float
    rating: float
    steps: int
    hardest_steps: int
    stopped: bool
    seconds: float
    ep: float | None = None
    ed: float | None = None


def rating_of(steps: Sequence[Any], stopped: bool = False, seconds: float = 0.0) -> Rating:
    """The rating of an explanation's steps (each with ``technique`` and ``difficulty``)."""
    if not steps:
        return Rating("", 0.0, 0.0, 0, 0, stopped, seconds)
    hardest = max(steps, key=lambda step: step.difficulty)  # the first of the hardest, for its name
    count = sum(1 for step in steps if step.difficulty == hardest.difficulty)
    return Rating(hardest.technique, float(hardest.difficulty), float(hardest.difficulty), len(steps), count,
                  stopped, seconds)


def rate(puzzle: Puzzle, *, time_limit: float | None = None, scale: str = "sudokulab") -> Rating:
    """Explain the puzzle (no premise minimisation) and rate its hardest step; on SE's scale
    (``scale="se"``), serate's ER/EP/ED."""
    if scale == "se":
        return se_rate(puzzle, time_limit=time_limit)
    from .explain import explain

    start = time.perf_counter()
    explanation = explain(puzzle, minimal=False, time_limit=time_limit)
    return rating_of(explanation.steps, bool(explanation.stopped), time.perf_counter() - start)


def se_path(puzzle: Puzzle, *, time_limit: float | None = None) -> SERating:
    """serate's path and ER/EP/ED of a standard 9x9 puzzle (``serate.solver.rate``). Refused for other
    boards and rules, which SE does not know; ``NoSolution`` as ``explain`` raises it."""
    from ..errors import UsageError
    from .serate.solver import rate as serate

    if puzzle.n != 9 or not puzzle.rules.is_standard:
        raise UsageError("Sudoku Explainer's scale (--scale se) is for standard 9x9 Sudoku only")
    _solvable(puzzle)
    return serate(puzzle.givens, time_limit=time_limit)


def se_rate(puzzle: Puzzle, *, time_limit: float | None = None) -> Rating:
    """serate's ER/EP/ED of a standard 9x9 puzzle (``se_path``) as a ``Rating``: the technique is the
    first step at the ER."""
    found = se_path(puzzle, time_limit=time_limit)
    hardest = found.hardest
    count = sum(1 for step in found.steps if step.difficulty == (hardest.difficulty if hardest else -1))
    return Rating(hardest.technique if hardest else "", hardest.difficulty if hardest else 0.0, found.er,
                  len(found.steps), count, found.stopped, found.seconds, found.ep, found.ed)


def _solvable(puzzle: Puzzle) -> None:
    """Raise ``NoSolution`` as ``explain`` does when the givens have no completion."""
    from ..errors import NoSolution
    from .board import Board
    from .step_check import checker

    conflict = puzzle.rules.first_conflict(puzzle.givens)
    if conflict is not None:
        raise NoSolution(f"no solution: the givens break a rule: {conflict}")
    if not checker(puzzle.rules).consistent(Board.start(puzzle).facts()):
        raise NoSolution("no solution: no completion of these givens keeps the rules")


@dataclass(frozen=True)
class Rated:
    """A dataset entry and its rating (``error`` instead for an entry that is no puzzle or has no solution)."""

    dataset: str
    index: int
    line: int
    rating: Rating | None
    error: str | None = None

    def document(self) -> dict[str, Any]:
        """The JSON row of this entry (``rate --json``'s ``puzzles``)."""
        row: dict[str, Any] = {"dataset": self.dataset, "index": self.index, "line": self.line}
        if self.rating is None:
            return row | {"error": self.error}
        r = self.rating
        row |= {"technique": r.technique, "difficulty": r.difficulty, "rating": r.rating, "steps": r.steps,
                "hardest_steps": r.hardest_steps, "stopped": r.stopped, "seconds": round(r.seconds, 6)}
        if r.ep is not None:
            row |= {"ep": r.ep, "ed": r.ed}
        return row


    @classmethod
    def from_document(cls, row: dict[str, Any]) -> Rated:
        """The entry back from its JSON row (``document``): what ``rate --output`` reads to resume."""
        if "error" in row:
            return cls(row["dataset"], row["index"], row["line"], None, row["error"])
        rating = Rating(row["technique"], float(row["difficulty"]), float(row["rating"]), int(row["steps"]),
                        int(row["hardest_steps"]), bool(row["stopped"]), float(row["seconds"]))
        return cls(row["dataset"], row["index"], row["line"], rating)


def chosen_entries(dataset: Dataset, sample: int | None = None, seed: int = 0) -> list[Entry]:
    """The entries to rate, in file order: all of ``dataset`` (up to its ``limit``), or ``sample`` of
    them drawn uniformly with ``seed`` (reservoir sampling: one pass, ``sample`` entries kept; the
    one-line puzzles passed over are not even parsed). The draw is seeded with the seed and the
    dataset's name, so each set gets its own lines."""
    if sample is None:
        return list(dataset.entries())
    rng = random.Random(f"{seed}:{dataset.name}")
    kept: list[Entry | RawLine] = []
    for seen, item in enumerate(_unparsed(dataset)):
        if seen < sample:
            kept.append(item)
        else:
            slot = rng.randrange(seen + 1)
            if slot < sample:
                kept[slot] = item
    return [_parsed(item, dataset) for item in sorted(kept, key=lambda item: item.index)]


def _unparsed(dataset: Dataset) -> Iterator[Entry | RawLine]:
    """The dataset's entries, its one-line puzzles left as text (``datasets.RawLine``)."""
    if dataset.path is None:
        yield from dataset.entries()
        return
    for item in read_dataset(dataset.path, dataset.box, raw=True, rules=dataset.rules):
        if dataset.limit is not None and item.index >= dataset.limit:
            return
        yield item


def _parsed(item: Entry | RawLine, dataset: Dataset) -> Entry:
    if isinstance(item, Entry):
        return item
    (entry,) = parse_lines([item.text], dataset.box, first_line=item.line, first_index=item.index,
                           rules=dataset.rules)
    assert isinstance(entry, Entry)
    return entry


RATE_BATCH = 8
"""Puzzles per task handed to a process or cluster worker: a rating takes milliseconds to seconds, so
a few puzzles hide a task's cost and still spread a set's hard puzzles over the workers."""


def rate_entries(name: str, entries: Iterable[Entry], *, time_limit: float | None = None,
                 on_rated: Callable[[Rated], None] | None = None, executor: Executor | None = None,
                 scale: str = "sudokulab") -> Iterator[Rated]:
    """Rate each entry; a bad entry or a puzzle with no solution becomes a row with its reason.

    ``executor`` (``execution.executors``: a pool of ``--jobs N``, a Dask cluster) rates them in
    batches elsewhere; the rows come back in the entries' order all the same, each rated exactly as
    here, so nothing but the seconds depends on how the work was split."""
    from ..execution.executors import InProcess, batch_size, in_order

    executor = executor or InProcess()
    total = len(entries) if isinstance(entries, Sequence) else None
    size = batch_size(RATE_BATCH, total, executor.workers)
    for rated in in_order(executor, rate_batch, (name, time_limit, scale), entries, size):
        if on_rated is not None:
            on_rated(rated)
        yield rated


def rate_batch(task: tuple[tuple[str, float | None, str], list[Entry]]) -> list[Rated]:
    """A batch of entries rated, in order: the work of one task, here or on a worker."""
    from ..errors import NoSolution, UsageError

    (name, time_limit, scale), entries = task
    rows = []
    for entry in entries:
        if entry.puzzle is None:
            rows.append(Rated(name, entry.index, entry.line, None, entry.error))
            continue
        try:
            rows.append(Rated(name, entry.index, entry.line,
                              rate(entry.puzzle, time_limit=time_limit, scale=scale)))
        except NoSolution as exc:
            rows.append(Rated(name, entry.index, entry.line, None, str(exc)))
        except UsageError as exc:  # a puzzle that is no standard 9x9 one, on SE's scale
            rows.append(Rated(name, entry.index, entry.line, None, str(exc)))
    return rows


@dataclass(frozen=True)
class Distribution:
    """The ratings of one dataset summed up: per technique (the hardest step's) how many puzzles,
    easiest technique first; the rating's quartiles and maximum; puzzles rated per second."""

    dataset: str
    rated: int
    failed: int
    stopped: int
    techniques: tuple[tuple[str, float, int], ...]
    median: float
    q1: float
    q3: float
    max: float
    seconds: float

    @classmethod
    def of(cls, dataset: str, rows: Sequence[Rated]) -> Distribution:
        ratings = [row.rating for row in rows if row.rating is not None]
        values = sorted(r.rating for r in ratings)
        counts: dict[tuple[str, float], int] = {}
        for r in ratings:
            key = (r.technique or "givens only", r.difficulty)
            counts[key] = counts.get(key, 0) + 1
        techniques = tuple((name, difficulty, count) for (name, difficulty), count
                           in sorted(counts.items(), key=lambda item: (item[0][1], item[0][0])))
        if len(values) >= 2:
            q1, median, q3 = statistics.quantiles(values, n=4, method="inclusive")
        else:
            q1 = median = q3 = values[0] if values else float("nan")
        return cls(dataset, len(ratings), len(rows) - len(ratings), sum(r.stopped for r in ratings), techniques,
                   median, q1, q3, values[-1] if values else float("nan"), sum(r.seconds for r in ratings))

    @property
    def per_second(self) -> float:
        return self.rated / self.seconds if self.seconds else float("nan")

    def document(self) -> dict[str, Any]:
        def number(value: float) -> float | None:
            return None if value != value else round(value, 4)

        return {"dataset": self.dataset, "rated": self.rated, "failed": self.failed, "stopped": self.stopped,
                "techniques": [{"technique": name, "difficulty": difficulty, "puzzles": count}
                               for name, difficulty, count in self.techniques],
                "median": number(self.median), "q1": number(self.q1), "q3": number(self.q3),
                "max": number(self.max), "seconds": round(self.seconds, 6), "per_second": number(self.per_second)}
