"""``sudokulab rate``: the difficulty of puzzle sets, from the hardest step each puzzle needs (docs/rating.md).

The ratings are ``reasoning.rating``'s; this command picks the entries (all, ``--limit``, or a
reproducible ``--sample``), rates them under a progress bar (here, on ``--jobs N`` processes or on a
``--cluster``: the same rows in the same order) and prints the distribution per set
(with ``--rows`` a line per puzzle first), or one ``--json`` document, and can draw a histogram.
"""

from __future__ import annotations

import argparse

from ...errors import ExitCode, UsageError
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

NAME = "rate"
HELP = ("difficulty of puzzle sets: the hardest step each puzzle needs, its rating, the distribution per set "
        "(docs/rating.md)")


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
    parser.add_argument("--output", dest="plot", metavar="FILE", help="the ratings histogram: .png, .svg or .pdf")
    parser.add_argument("--plot", dest="plot", help=argparse.SUPPRESS)  # the spelling before --output
    parser.add_argument("--box", metavar="RxC", help="box shape of the puzzles (default: from the size)")
    parser.add_argument("--wide", action="store_true", help="tables as wide as they get")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    where_arguments(parser, "rate")
    rules_arguments(parser, "of every puzzle of the datasets")


def run(args: argparse.Namespace) -> int:
    from ...datasets.reading import Dataset
    from ...execution.cluster import check_where, open_executor
    from ...formats import documents
    from ...reasoning.rating import Distribution, Rated, chosen_entries, rate_entries
    from ...ui.console import console
    from ...ui.progress import progress
    from ..render import rated_row, ratings_histogram, render_ratings

    if args.seed is not None and args.sample is None:
        raise UsageError("--seed needs --sample N")
    check_where(args.jobs, args.cluster)
    plot = None
    if args.plot is not None:
        from ...ui.plots import plot_output, require_matplotlib

        require_matplotlib()  # before the work, not after it
        plot = plot_output(args.plot)
    shape, rules = box(args), dataset_rules(args)
    if args.scale == "se" and rules is not None:
        raise UsageError("rate: Sudoku Explainer's scale (--scale se) is for standard Sudoku: no variant rules")
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
            rows = list(rate_entries(name, entries, time_limit=args.time_limit, on_rated=advance, executor=executor,
                                     scale=args.scale))
            rows_of[name] = rows
            distributions.append(Distribution.of(name, rows))
    if args.json:
        documents.emit({"datasets": [d.document() for d in distributions],
                        "puzzles": [row.document() for rows in rows_of.values() for row in rows],
                        "time_limit": args.time_limit, "scale": args.scale})
    else:
        render_ratings(distributions, console(wide=args.wide))
    if plot is not None:
        ratings_histogram({name: [r.rating.rating for r in rows if r.rating] for name, rows in rows_of.items()},
                          plot.path)
    return ExitCode.OK
