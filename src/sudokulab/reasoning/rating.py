"""Difficulty ratings: how hard a puzzle is for a person, from the hardest step its explanation needs.

A puzzle's explanation (``explain.explain``, premise minimisation off: the rating needs only which
steps are taken, not their smallest premises) takes the cheapest step available each time, so its
hardest step is the least a solver of that toolbox must know. The **rating** is that step's
difficulty on the ``explain`` scale (``docs/rating.md`` lists it), refined by how often the hardest
technique is needed: ``difficulty + 0.1 * (1 - 1 / k)`` for ``k`` steps of that difficulty, so a
puzzle that needs one X-wing rates just below one that needs three, and the refinement never
reaches the next technique (the scale's steps are at least 0.1 apart). A puzzle whose givens
already fill the board rates 0. An explanation cut short (``time_limit``) gives a lower bound,
marked ``stopped``.

``rate_dataset`` rates a dataset's puzzles (all, the first ``limit``, or a reproducible ``sample``),
``Distribution`` sums them up per dataset (count per technique, quartiles of the rating), and
``cmd_rate`` is the ``sudokulab rate`` command.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..datasets.reading import Dataset, Entry, RawLine, parse_lines, read_dataset

if TYPE_CHECKING:
    import argparse

    from ..core.puzzle import Puzzle

REFINEMENT = 0.1
"""The span above a technique's difficulty that the count of its steps may add (never reached)."""


@dataclass(frozen=True)
class Rating:
    """One puzzle's rating: the hardest step's technique and difficulty, the refined rating, the
    number of steps (and of steps at the hardest difficulty), and whether the explanation stopped
    short (then the rating is a lower bound)."""

    technique: str
    difficulty: float
    rating: float
    steps: int
    hardest_steps: int
    stopped: bool
    seconds: float


def rating_of(steps: Sequence[Any], stopped: bool = False, seconds: float = 0.0) -> Rating:
    """The rating of an explanation's steps (each with ``technique`` and ``difficulty``)."""
    if not steps:
        return Rating("", 0.0, 0.0, 0, 0, stopped, seconds)
    hardest = max(steps, key=lambda step: step.difficulty)  # the first of the hardest, for its name
    count = sum(1 for step in steps if step.difficulty == hardest.difficulty)
    rating = hardest.difficulty + REFINEMENT * (1 - 1 / count)
    return Rating(hardest.technique, float(hardest.difficulty), round(rating, 4), len(steps), count, stopped,
                  seconds)


def rate(puzzle: Puzzle, *, time_limit: float | None = None) -> Rating:
    """Explain the puzzle (no premise minimisation) and rate its hardest step."""
    from .explain import explain

    start = time.perf_counter()
    explanation = explain(puzzle, minimal=False, time_limit=time_limit)
    return rating_of(explanation.steps, bool(explanation.stopped), time.perf_counter() - start)


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
        return row | {"technique": r.technique, "difficulty": r.difficulty, "rating": r.rating, "steps": r.steps,
                      "hardest_steps": r.hardest_steps, "stopped": r.stopped, "seconds": round(r.seconds, 6)}


def chosen_entries(dataset: Dataset, sample: int | None = None, seed: int = 0) -> list[Entry]:
    """The entries to rate, in file order: all of ``dataset`` (up to its ``limit``), or ``sample`` of
    them drawn uniformly with ``seed`` (reservoir sampling: one pass, ``sample`` entries kept; the
    one-line puzzles passed over are not even parsed)."""
    if sample is None:
        return list(dataset.entries())
    rng = random.Random(seed)
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


def rate_entries(name: str, entries: Iterable[Entry], *, time_limit: float | None = None,
                 on_rated: Callable[[Rated], None] | None = None) -> Iterator[Rated]:
    """Rate each entry; a bad entry or a puzzle with no solution becomes a row with its reason."""
    from ..errors import NoSolution

    for entry in entries:
        if entry.puzzle is None:
            rated = Rated(name, entry.index, entry.line, None, entry.error)
        else:
            try:
                rated = Rated(name, entry.index, entry.line, rate(entry.puzzle, time_limit=time_limit))
            except NoSolution as exc:
                rated = Rated(name, entry.index, entry.line, None, str(exc))
        if on_rated is not None:
            on_rated(rated)
        yield rated


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


def render(distributions: Sequence[Distribution], out: Any) -> None:
    """One table per dataset: puzzles per hardest technique, then the rating's quartiles."""
    from rich.table import Table
    from rich.text import Text

    for dist in distributions:
        extra = (f", {dist.failed} not rated" if dist.failed else "") + (
            f", {dist.stopped} stopped short (lower bounds)" if dist.stopped else "")
        title = f"{dist.dataset}: {dist.rated} puzzles rated{extra}"
        if not dist.rated:
            out.print(Text(title))
            continue
        table = Table(title=title, title_justify="left")
        for header, justify in (("hardest technique", "left"), ("difficulty", "right"), ("puzzles", "right"),
                                ("share", "right")):
            table.add_column(header, justify=justify)
        for name, difficulty, count in dist.techniques:
            table.add_row(Text(name), f"{difficulty:.1f}", str(count), f"{count / dist.rated:.0%}")
        out.print(table)
        out.print(Text(f"rating: median {dist.median:.2f}, quartiles {dist.q1:.2f} .. {dist.q3:.2f}, "
                       f"max {dist.max:.2f}; {dist.per_second:,.1f} puzzles rated per second"))


def histogram(ratings: dict[str, list[float]], path: str | Path) -> None:
    """The ratings of each dataset as one histogram picture, one colour per dataset."""
    import io

    from matplotlib import colormaps
    from matplotlib.figure import Figure

    from ..ui.plots import plot_output

    figure = Figure(figsize=(8, 4.5), layout="constrained")
    axes = figure.add_subplot()
    values = [v for vs in ratings.values() for v in vs]
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    bins = [low + (high - low + 0.2) * i / 40 for i in range(41)]
    palette = colormaps["tab10"]
    for i, (name, vs) in enumerate(ratings.items()):
        axes.hist(vs, bins=bins, alpha=0.55, color=palette(i % 10), label=f"{name} ({len(vs)})")
    axes.set_xlabel("rating (hardest step's difficulty, refined by its count)")
    axes.set_ylabel("puzzles")
    axes.legend()
    out = plot_output(path)
    buffer = io.BytesIO()
    figure.savefig(buffer, dpi=120, format=out.path.suffix.lstrip(".").lower())
    with out:
        out.write(buffer.getvalue())


def cmd_rate(args: argparse.Namespace) -> int:
    """``sudokulab rate``: rate the datasets, print the distribution tables (and rows, JSON, a picture)."""
    from ..cli.handlers import _box, _dataset_file, dataset_rules
    from ..errors import ExitCode, UsageError
    from ..formats import documents
    from ..ui.console import console
    from ..ui.progress import progress

    if args.seed is not None and args.sample is None:
        raise UsageError("--seed needs --sample N")
    plot = None
    if args.plot is not None:
        from ..ui.plots import plot_output, require_matplotlib

        require_matplotlib()  # before the work, not after it
        plot = plot_output(args.plot)
    box, rules = _box(args), dataset_rules(args)
    datasets = [Dataset.from_path(_dataset_file(path), box=box, limit=args.limit, rules=rules)
                for path in args.datasets]
    chosen = [(d.name, chosen_entries(d, args.sample, args.seed or 0)) for d in datasets]
    distributions, rows_of = [], {}
    with progress(sum(len(entries) for _, entries in chosen), enabled=not args.quiet, label="rating") as bar:
        task = bar.task_ids[0]

        def advance(rated: Rated) -> None:
            bar.update(task, advance=1, tally=rated.dataset)
            if args.rows and not args.json:
                print(_row_text(rated), flush=True)

        for name, entries in chosen:

            rows = list(rate_entries(name, entries, time_limit=args.time_limit, on_rated=advance))
            rows_of[name] = rows
            distributions.append(Distribution.of(name, rows))
    if args.json:
        documents.emit({"datasets": [d.document() for d in distributions],
                        "puzzles": [row.document() for rows in rows_of.values() for row in rows],
                        "time_limit": args.time_limit})
    else:
        render(distributions, console(wide=args.wide))
    if plot is not None:
        histogram({name: [r.rating.rating for r in rows if r.rating] for name, rows in rows_of.items()}, plot.path)
    return ExitCode.OK


def _row_text(rated: Rated) -> str:
    """One per-puzzle row for ``--rows``: where it is, then its rating and hardest technique."""
    where = f"{rated.dataset}:{rated.line}"
    if rated.rating is None:
        return f"{where}\t-\t{rated.error}"
    r = rated.rating
    bound = " (stopped: at least)" if r.stopped else ""
    return f"{where}\t{r.rating:.2f}\t{r.technique or 'givens only'}{bound}\t{r.steps} steps"
