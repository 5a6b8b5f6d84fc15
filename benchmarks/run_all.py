"""Every figure of the benchmark report, with one command.

1. Every registered solver but the classic ``backtrack`` on ``17_clue``, ``magictour_top1465``,
   ``forum_hardest_1106`` and the first ``--slice`` (2,000) puzzles of ``forum_hardest_1905_11plus``,
   in one run, one process: ``paradigms.md`` (summary tables) and ``cactus.png``.
2. Every registered solver, the classic included, on the first ``--classic-limit`` puzzles of
   ``17_clue`` with ``--classic-time-limit``: the classic needs over 10 s on many of them, so it
   only ever runs on a slice. Its panel joins the cactus plot, its table ``paradigms.md``.
3. The scaling study (``benchmarks/scaling.py``): ``scaling.md``, ``scaling.csv``, ``scaling.png``.

Per-puzzle CSVs of steps 1 and 2 (tens of thousands of rows) go to ``--csv-dir``
(``benchmarks/out``, not committed); the summaries and pictures go to ``--out-dir``
(``benchmarks/results``). Datasets are read from ``--data`` (default ``../shared/data`` beside the
repository); a missing one is skipped with a note. Exit code 4 if any answer was wrong.

    .venv/bin/python benchmarks/run_all.py                  # the full report (tens of minutes)
    .venv/bin/python benchmarks/run_all.py --limit 300      # a quick first look
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from sudokulab import bench, plots, solvers

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DEFAULT_DATA = ROOT.parent / "shared" / "data"
SETS = ("17_clue", "magictour_top1465", "forum_hardest_1106", "forum_hardest_1905_11plus")
SLICED = "forum_hardest_1905_11plus"
CLASSIC_SET = "17_clue"


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder of the datasets")
    parser.add_argument("--out-dir", type=Path, default=HERE / "results")
    parser.add_argument("--csv-dir", type=Path, default=HERE / "out")
    parser.add_argument("--limit", type=int, help="the first K puzzles of every set (a quick run)")
    parser.add_argument("--slice", type=int, default=2000, help=f"puzzles of {SLICED} (default: 2000)")
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds per puzzle (default: 10)")
    parser.add_argument("--classic-limit", type=int, default=100, help=f"puzzles of {CLASSIC_SET} for the classic")
    parser.add_argument("--classic-time-limit", type=float, default=5.0, help="seconds per puzzle for the classic")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default: 1, for clean timings)")
    parser.add_argument("--skip-scaling", action="store_true")
    parser.add_argument("--scaling-args", default="", help="extra arguments for scaling.py, e.g. '--per-size 3'")
    return parser.parse_args(argv)


def _limit(*limits: int | None) -> int | None:
    given = [k for k in limits if k is not None]
    return min(given) if given else None


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    args.csv_dir.mkdir(parents=True, exist_ok=True)
    datasets = []
    for name in SETS:
        path = args.data / f"{name}.txt"
        if not path.is_file():
            print(f"skipped {name}: {path} is absent", file=sys.stderr)
            continue
        limit = _limit(args.limit, args.slice if name == SLICED else None)
        datasets.append(bench.Dataset.from_path(path, limit=limit))
    wrong = run_sets(args, datasets) if datasets else 0
    if not datasets:
        print(f"no dataset found in {args.data}: the reference sets are skipped", file=sys.stderr)
    if not args.skip_scaling:
        sys.path.insert(0, str(HERE))
        import scaling

        code = scaling.main(["--out-dir", str(args.out_dir), "--jobs", str(args.jobs), *args.scaling_args.split()])
        wrong += code == 4
    if wrong:
        print("WRONG answers were found: see above", file=sys.stderr)
        return 4
    return 0


def run_sets(args: argparse.Namespace, datasets: list[bench.Dataset]) -> int:
    """Steps 1 and 2: the reference sets, then the classic's slice; the number of wrong answers."""
    report = bench.run_bench(datasets, bench.default_solvers(), time_limit=args.time_limit, jobs=args.jobs,
                             csv_path=args.csv_dir / "paradigms.csv")
    bench.print_summary(report)
    sections = ["# Every paradigm on the reference sets\n", bench.summary_markdown(report)]
    series = {_label(d): report.solved_times[d.name] for d in datasets}
    totals = {_label(d): report.totals[d.name] for d in datasets}
    limits = {_label(d): args.time_limit for d in datasets}
    wrong = report.wrong

    classic_path = args.data / f"{CLASSIC_SET}.txt"
    if "backtrack" in solvers.names() and classic_path.is_file():
        count = _limit(args.limit, args.classic_limit)
        classic = bench.Dataset.from_path(classic_path, name=f"{CLASSIC_SET}[:{count}]", limit=count)
        slice_report = bench.run_bench([classic], solvers.names(), time_limit=args.classic_time_limit,
                                       jobs=args.jobs, csv_path=args.csv_dir / "classic.csv")
        bench.print_summary(slice_report)
        sections += [f"\n## The classic backtracker beside the others, on a slice of {CLASSIC_SET}\n",
                     bench.summary_markdown(slice_report)]
        series[classic.name] = slice_report.solved_times[classic.name]
        totals[classic.name] = slice_report.totals[classic.name]
        limits[classic.name] = args.classic_time_limit
        wrong += slice_report.wrong
    (args.out_dir / "paradigms.md").write_text("\n".join(sections), encoding="utf-8")
    png = plots.cactus_plot(series, args.out_dir / "cactus.png", totals=totals, time_limit=limits)
    print(f"wrote {png} and paradigms.md; per-puzzle CSVs in {args.csv_dir}", file=sys.stderr)
    return wrong


def _label(dataset: bench.Dataset) -> str:
    """The panel title: the set's name, and the slice when only part of it ran."""
    return dataset.name if dataset.limit is None else f"{dataset.name}[:{dataset.limit}]"


if __name__ == "__main__":
    sys.exit(main())
