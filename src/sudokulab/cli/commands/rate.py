"""``sudokulab rate``: the difficulty of puzzle sets, from the hardest step each puzzle needs (docs/rating.md).

The ratings are ``reasoning.rating``'s; this command picks the entries (all, ``--limit``, or a
reproducible ``--sample``), rates them under a progress bar (here, on ``--jobs N`` processes or on a
``--cluster``: the same rows in the same order) and prints the distribution per set
(with ``--rows`` a line per puzzle first), or one ``--json`` document, and can draw a histogram.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ...ui.console import as_text
from ...ui.tables import Column, print_table, puzzles_word

if TYPE_CHECKING:
    from rich.console import Console

    from ...reasoning.rating import Distribution, Rated

import argparse
import io

from ...datasets.reading import Dataset
from ...errors import ExitCode, UsageError
from ...execution.cluster import check_where, open_executor
from ...formats import documents
from ...reasoning.rating import Distribution, chosen_entries, rate_entries
from ...ui.console import console
from ...ui.plots import plot_output, require_matplotlib
from ...ui.progress import progress
from ..options import (
    box,
    dataset_file,
    dataset_rules,
    positive_float,
    positive_int,
    rules_arguments,
    seed_int,
    where_arguments,
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("datasets", nargs="+", metavar="DATASET",
                        help="dataset files (one-line puzzles, BOJ blocks), - for stdin, or names of fetched sets")
    parser.add_argument("--limit", type=positive_int, metavar="N", help="only the first N puzzles of each dataset")
    parser.add_argument("--sample", type=positive_int, metavar="N", help="N puzzles of each dataset drawn at random")
    parser.add_argument("--seed", type=seed_int, metavar="S", help="random seed of --sample (default 0)")
    parser.add_argument("--time-limit", type=positive_float, metavar="SECONDS",
                        help="per puzzle: stop its explanation there (its rating is then a lower bound)")
    parser.add_argument("--rows", action="store_true", help="one line per puzzle before the tables")
    parser.add_argument("--json", action="store_true", help="one JSON document: ratings per puzzle and per dataset")
    parser.add_argument("--output", dest="plot", metavar="FILE", help="the ratings histogram: .png, .svg or .pdf")
    parser.add_argument("--plot", dest="plot", help=argparse.SUPPRESS)  # the spelling before --output
    parser.add_argument("--box", metavar="RxC", help="box shape of the puzzles (default: from the size)")
    parser.add_argument("--wide", action="store_true", help="tables as wide as they get")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    where_arguments(parser, "rate")
    rules_arguments(parser, "of every puzzle of the datasets")


def run(args: argparse.Namespace) -> int:

    if args.seed is not None and args.sample is None:
        raise UsageError("--seed needs --sample N")
    check_where(args.jobs, args.cluster)
    plot = None
    if args.plot is not None:

        require_matplotlib()  # before the work, not after it
        plot = plot_output(args.plot)
    shape, rules = box(args), dataset_rules(args)
    datasets = [Dataset.from_path(dataset_file(path), box=shape, limit=args.limit, rules=rules)
                for path in args.datasets]
    chosen = [(d.name, chosen_entries(d, args.sample, args.seed or 0)) for d in datasets]
    for name, entries in chosen:  # as bench, judge and propagate: an empty dataset is bad input
        if not entries:
            raise UsageError(f"rate: no puzzles in '{name}'")
    distributions, rows_of = [], {}
    with open_executor(args.jobs, args.cluster) as executor, \
            progress(sum(len(entries) for _, entries in chosen), enabled=not args.quiet, label="rating") as bar:
        task = bar.task_ids[0]

        def advance(rated: Rated) -> None:
            bar.update(task, advance=1, tally=rated.dataset)
            if args.rows and not args.json:
                print(rated_row(rated), flush=True)

        for name, entries in chosen:
            rows = list(rate_entries(name, entries, time_limit=args.time_limit, on_rated=advance, executor=executor))
            rows_of[name] = rows
            distributions.append(Distribution.of(name, rows))
    if args.json:
        documents.emit({"datasets": [d.document() for d in distributions],
                        "puzzles": [row.document() for rows in rows_of.values() for row in rows],
                        "time_limit": args.time_limit})
    else:
        render_ratings(distributions, console(wide=args.wide))
    if plot is not None:
        ratings_histogram({name: [r.rating.rating for r in rows if r.rating] for name, rows in rows_of.items()},
                          plot.path)
    return ExitCode.OK


def render_ratings(distributions: Sequence[Distribution], out: Console) -> None:
    """One table per dataset: puzzles per hardest technique, then the rating's quartiles."""

    for dist in distributions:
        extra = (f", {dist.failed} not rated" if dist.failed else "") + (
            f", {dist.stopped} stopped short (lower bounds)" if dist.stopped else "")
        title = f"{dist.dataset}: {puzzles_word(dist.rated)} rated{extra}"
        if not dist.rated:
            out.print(as_text(title))
            continue
        print_table(out, [Column("hardest technique"), Column("difficulty", "right"), Column("puzzles", "right"),
                          Column("share", "right")],
                    [[name, f"{difficulty:.1f}", str(count), f"{count / dist.rated:.0%}"]
                     for name, difficulty, count in dist.techniques], title=title)
        out.print(as_text(f"rating: median {dist.median:.2f}, quartiles {dist.q1:.2f} .. {dist.q3:.2f}, "
                          f"max {dist.max:.2f}; {dist.per_second:,.1f} puzzles rated per second"))


def rated_row(rated: Rated) -> str:
    """One per-puzzle row of ``rate --rows``: where it is, then its rating and hardest technique."""
    where = f"{rated.dataset}:{rated.line}"
    if rated.rating is None:
        return f"{where}\t-\t{rated.error}"
    r = rated.rating
    bound = " (stopped: at least)" if r.stopped else ""
    return f"{where}\t{r.rating:.2f}\t{r.technique or 'givens only'}{bound}\t{r.steps} steps"


def ratings_histogram(ratings: dict[str, list[float]], path: str | Path) -> None:
    """The ratings of each dataset as one histogram picture, one colour per dataset."""

    from matplotlib import colormaps
    from matplotlib.figure import Figure


    figure = Figure(figsize=(8, 4.5), layout="constrained")
    axes = figure.add_subplot()
    values = [v for vs in ratings.values() for v in vs]
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    bins = [low + (high - low + 0.2) * i / 40 for i in range(41)]
    palette = colormaps["tab10"]
    for i, (name, vs) in enumerate(ratings.items()):
        axes.hist(vs, bins=bins, alpha=0.55, color=palette(i % 10), label=f"{name} ({len(vs)})")
    axes.set_xlabel("rating (hardest step's difficulty)")
    axes.set_ylabel("puzzles")
    axes.legend()
    out = plot_output(path)
    buffer = io.BytesIO()
    figure.savefig(buffer, dpi=120, format=out.path.suffix.lstrip(".").lower())
    with out:
        out.write(buffer.getvalue())
