"""``sudokulab rate``: the difficulty of puzzle sets, from the hardest step each puzzle needs (docs/rating.md).

The ratings are ``reasoning.rating``'s; this command picks the entries (all, ``--limit``, or a
reproducible ``--sample``), rates them under a progress bar (here, on ``--jobs N`` processes or on a
``--cluster``: the same rows in the same order) and prints the distribution per set
(with ``--rows`` a line per puzzle first), or one ``--json`` document, and can draw a histogram.
``--output FILE.jsonl`` keeps each puzzle's row as it is rated (``formats.resumable``): a run
stopped by a signal prints what it rated, marked partial, and the next run rates only the rest.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ...ui.console import as_text
from ...ui.tables import Column, print_table, puzzles_word

if TYPE_CHECKING:
    from rich.console import Console

    from ...datasets.reading import Entry

import argparse
import io
import sys
from contextlib import nullcontext
from typing import Any

from ...datasets.reading import Dataset, no_puzzle
from ...errors import ExitCode, UsageError
from ...execution.cluster import check_where, open_executor
from ...execution.executors import pool_size
from ...formats import documents
from ...formats.boj import source_name
from ...formats.outputs import OutputError
from ...formats.resumable import ResumableOutput
from ...reasoning.rating import RATE_BATCH, Distribution, Rated, chosen_entries, rate_entries
from ...ui.console import console, prose
from ...ui.plots import PLOT_SUFFIXES, plot_output, require_matplotlib
from ...ui.progress import progress
from ..options import (
    box,
    dataset_file,
    dataset_rules,
    note,
    positive_float,
    positive_int,
    rule_digests,
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
    parser.add_argument("--scale", choices=("sudokulab", "se"), default="sudokulab",
                        help="sudokulab: the hardest step over our whole catalogue (default); se: Sudoku Explainer's "
                        "ER/EP/ED as serate computes them, standard 9x9 only (docs/rating.md)")
    parser.add_argument("--time-limit", type=positive_float, metavar="SECONDS",
                        help="per puzzle: stop its explanation there (its rating is then a lower bound)")
    parser.add_argument("--rows", action="store_true", help="one line per puzzle before the tables")
    parser.add_argument("--json", action="store_true", help="one JSON document: ratings per puzzle and per dataset")
    parser.add_argument("--output", action="append", metavar="FILE",
                        help="write FILE, the kind from its name: the ratings histogram as .png, .svg or .pdf; "
                        "each puzzle's row as .jsonl, written as it is rated and resumed by the next run with "
                        "the same options (only the puzzles not in it are rated); repeatable")
    parser.add_argument("--plot", help=argparse.SUPPRESS)  # the spelling before --output FILE.png
    parser.add_argument("--box", metavar="RxC", help="box shape of the puzzles (default: from the size)")
    parser.add_argument("--wide", action="store_true", help="tables as wide as they get")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    where_arguments(parser, "rate")
    rules_arguments(parser, "of every puzzle of the datasets")


ROWS_SUFFIX = ".jsonl"


def run(args: argparse.Namespace) -> int:

    if args.seed is not None and args.sample is None:
        raise UsageError("--seed needs --sample N")
    check_where(args.jobs, args.cluster)
    plot_path, rows_path = _outputs(args)
    plot = None
    if plot_path is not None:

        require_matplotlib()  # before the work, not after it
        plot = plot_output(plot_path)
    shape, rules = box(args), dataset_rules(args)
    if args.scale == "se" and rules is not None:
        raise UsageError("rate: Sudoku Explainer's scale (--scale se) is for standard Sudoku: no variant rules")
    datasets = [Dataset.from_path(dataset_file(path), box=shape, limit=args.limit, rules=rules)
                for path in args.datasets]
    chosen = [(d.name, chosen_entries(d, args.sample, args.seed or 0)) for d in datasets]
    for dataset, (_, entries) in zip(datasets, chosen):  # as bench, judge and propagate: bad input
        if not entries:
            raise no_puzzle(source_name(dataset.path) if dataset.path is not None else dataset.name)
    journal = None if rows_path is None else ResumableOutput(rows_path, "rate", _settings(args))
    with journal or nullcontext():
        kept = _kept(journal, chosen)
        done: dict[str, list[Rated]] = {name: [] for name, _ in chosen}
        try:
            _rate(args, chosen, kept, done, journal)
        except KeyboardInterrupt:  # Ctrl-C, SIGTERM, SIGHUP: what was rated is shown, then the signal goes on
            _show(args, done, sum(len(entries) for _, entries in chosen), rows_path)
            raise
    _show(args, done, None, rows_path)
    if plot is not None:
        ratings_histogram({name: [r.rating.rating for r in rows if r.rating] for name, rows in done.items()},
                          plot.path)
    return ExitCode.OK


def _outputs(args: argparse.Namespace) -> tuple[str | None, str | None]:
    """The histogram's file and the rows' file, from ``--output`` (the suffix says which) and ``--plot``."""
    plot, rows = args.plot, None
    for path in args.output or ():
        suffix = Path(path).suffix.lower()
        if suffix == ROWS_SUFFIX and rows is None:
            rows = path
        elif suffix in PLOT_SUFFIXES and plot is None:
            plot = path
        else:
            raise UsageError(f"rate: --output {path}: the name must end in {ROWS_SUFFIX} (each puzzle's row) or "
                             f"{', '.join(PLOT_SUFFIXES)} (the histogram), one of each at most")
    return plot, rows


def _settings(args: argparse.Namespace) -> dict[str, Any]:
    """What decides a puzzle's row, so a results file is resumed only under the same: the version, the time
    limit, the box and the rules."""
    import sudokulab

    return {"version": sudokulab.__version__, "time_limit": args.time_limit, "box": args.box, "scale": args.scale,
            **rule_digests(args)}


def _kept(journal: ResumableOutput | None, chosen: Sequence[tuple[str, Sequence[Entry]]]) -> dict[tuple, Rated]:
    """The rows a run before this one left in ``--output``, by (dataset, index, puzzle), and a note of how
    many of this run's puzzles they spare."""
    if journal is None:
        return {}
    try:
        kept = {(row["dataset"], row["index"], row.get("puzzle", "")): Rated.from_document(row)
                for row in journal.open()}
    except (KeyError, TypeError, ValueError) as exc:
        raise OutputError(f"cannot resume '{journal.name}': a row is not a rating ({type(exc).__name__}: {exc}); "
                          "give another --output, or remove it") from None
    wanted = sum(len(entries) for _, entries in chosen)
    spared = sum((name, entry.index, entry.key) in kept for name, entries in chosen for entry in entries)
    if spared:
        note(f"rate: {spared:,} of {puzzles_word(wanted)} rated already in {journal.name}: rating the other "
             f"{wanted - spared:,}")
    return kept


def _rate(args: argparse.Namespace, chosen: Sequence[tuple[str, Sequence[Entry]]], kept: dict[tuple, Rated],
          done: dict[str, list[Rated]], journal: ResumableOutput | None) -> None:
    """Rate what ``kept`` lacks, each row into ``done`` (in file order, kept ones in their place), the
    journal and ``--rows`` as it comes."""
    todo = {name: [e for e in entries if (name, e.index, e.key) not in kept] for name, entries in chosen}
    total = sum(len(entries) for entries in todo.values())
    size = pool_size(args.jobs, -(-total // RATE_BATCH), f"{puzzles_word(total)}, {RATE_BATCH} a batch")
    with open_executor(args.jobs, args.cluster, size=size, note=note) as executor, \
            progress(total, enabled=not args.quiet, label="rating") as bar:
        task = bar.task_ids[0]

        def rated_now(rated: Rated) -> None:
            bar.update(task, advance=1, tally=rated.dataset)

        for name, entries in chosen:
            keys = {e.index: e.key for e in entries}
            fresh = rate_entries(name, todo[name], time_limit=args.time_limit, on_rated=rated_now, executor=executor,
                                 scale=args.scale)
            for entry in entries:
                key = (name, entry.index, keys[entry.index])
                rated = kept[key] if key in kept else next(fresh)
                if key not in kept and journal is not None:
                    journal.write({**rated.document(), "puzzle": key[2]})
                done[name].append(rated)
                if args.rows and not args.json:
                    print(rated_row(rated), flush=True)
            next(fresh, None)  # to its end, so the executor knows the work is done


def _show(args: argparse.Namespace, done: dict[str, list[Rated]], wanted: int | None, rows_path: str | None) -> None:
    """The distributions and rows of what was rated; ``wanted`` (a stopped run: how many were asked for)
    marks them partial."""
    rated = sum(len(rows) for rows in done.values())
    distributions = [Distribution.of(name, rows) for name, rows in done.items() if rows or wanted is None]
    stopped = None
    if wanted is not None:
        stopped = (f"stopped by a signal after {rated:,} of {puzzles_word(wanted)}: the figures cover the puzzles "
                   "rated" + (f"; the same command resumes from {rows_path}" if rows_path else ""))
    if args.json:
        documents.emit({"datasets": [d.document() for d in distributions],
                        "puzzles": [row.document() for rows in done.values() for row in rows],
                        "time_limit": args.time_limit, "partial": wanted is not None, "scale": args.scale})
    else:
        render_ratings(distributions, console(wide=args.wide))
        if stopped is not None:
            prose(stopped)
            sys.stdout.flush()


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
    value = f"{r.rating:.2f}" if r.ep is None else f"ER/EP/ED {r.rating:.1f}/{r.ep:.1f}/{r.ed:.1f}"
    return f"{where}\t{value}\t{r.technique or 'givens only'}{bound}\t{r.steps} steps"


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
