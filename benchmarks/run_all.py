"""Every figure of the benchmark report, with one command.

1. Every registered solver but the classic ``backtrack`` on ``17_clue``, ``magictour_top1465``,
   ``forum_hardest_1106`` and the first ``--slice`` (2,000) puzzles of ``forum_hardest_1905_11plus``,
   in one run, one process, one solver at a time (``by_solver``): ``paradigms.md`` and ``cactus.png``.
2. Every registered solver, the classic included, on the first ``--classic-limit`` puzzles of
   ``17_clue`` with ``--classic-time-limit``: the classic needs over 10 s on many of them, so it
   only ever runs on a slice. Its panel joins the cactus plot, its table ``paradigms.md``.
3. The scaling study (``benchmarks/scaling.py``): ``scaling.md``, ``scaling.csv``, ``scaling.png``.
4. ``targets.md``: the issue's targets held against the figures of this run.

Per-puzzle CSVs of steps 1 and 2 (tens of thousands of rows) go to ``--csv-dir``
(``benchmarks/out``, not committed); the summaries and pictures go to ``--out-dir``
(``benchmarks/results``). Datasets are read from ``--data`` (default ``../shared/data`` beside the
repository); a missing one is skipped with a note. Exit code 4 if any answer was wrong.

    .venv/bin/python benchmarks/run_all.py                  # the full report (tens of minutes)
    .venv/bin/python benchmarks/run_all.py --limit 300      # a quick first look
"""

from __future__ import annotations

import argparse
import shlex
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
NORVIG = {"magictour_top1465": 172, "forum_hardest_1106": 39}
"""Peter Norvig's published Python solver on this machine kind, puzzles/s (../shared/data/README.md)."""
TARGETS = (  # (solver, dataset, puzzles/s at least, how the goal is phrased)
    ("sat", "17_clue", 4000, "at least 4,000 puzzles/s"),
    ("cpsat", "17_clue", 300, "at least 300 puzzles/s"),
    *(("backtrack-fast", name, 3 * rate, f"3x Norvig's ~{rate}/s") for name, rate in NORVIG.items()),
)


def command(argv: Sequence[str]) -> str:
    """How this run was started, for the report (paths relative to the repository)."""
    return shlex.join([".venv/bin/python", f"benchmarks/{Path(sys.argv[0]).name}", *argv])


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
    parser.add_argument("--jobs", type=int, default=1, help="processes for steps 2 and 3 (default: 1)")
    parser.add_argument("--skip-scaling", action="store_true")
    parser.add_argument("--scaling-args", default="", help="extra arguments for scaling.py, e.g. '--per-size 3'")
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    return args


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
    summaries: list[bench.Summary] = []
    wrong = run_sets(args, datasets, summaries) if datasets else 0
    if not datasets:
        print(f"no dataset found in {args.data}: the reference sets are skipped", file=sys.stderr)
    if not args.skip_scaling:
        sys.path.insert(0, str(HERE))
        import scaling

        code = scaling.main(["--out-dir", str(args.out_dir), "--jobs", str(args.jobs), *args.scaling_args.split()])
        wrong += code == 4
    write_targets(args.out_dir, summaries, args.out_dir / "scaling.csv")  # from this run, or the last
    if wrong:
        print("WRONG answers were found: see above", file=sys.stderr)
        return 4
    return 0


def run_sets(args: argparse.Namespace, datasets: list[bench.Dataset], summaries: list[bench.Summary]) -> int:
    """Steps 1 and 2: the reference sets, then the classic's slice; the number of wrong answers."""
    report = bench.run_bench(datasets, bench.default_solvers(), time_limit=args.time_limit,
                             csv_path=args.csv_dir / "paradigms.csv", by_solver=True)
    bench.print_summary(report)
    summaries.extend(report.summaries)
    sections = ["# Every paradigm on the reference sets\n", f"Command: `{command(args.argv)}`\n",
                bench.summary_markdown(report)]
    labels = {d.name: _label(d, report.totals[d.name]) for d in datasets}
    series = {labels[d.name]: report.solved_times[d.name] for d in datasets}
    totals = {labels[d.name]: report.totals[d.name] for d in datasets}
    limits = {labels[d.name]: args.time_limit for d in datasets}
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


def write_targets(out_dir: Path, summaries: Sequence[bench.Summary], scaling_csv: Path | None) -> None:
    """The issue's targets beside this run's figures (one process; wall and CPU rates)."""
    lines = ["# Targets\n", "| target | measured (wall) | measured (CPU) | met |", "| --- | ---: | ---: | --- |"]
    for solver, dataset, goal, phrase in TARGETS:
        found = next((s for s in summaries if s.solver == solver and s.dataset == dataset), None)
        if found is None:
            lines.append(f"| `{solver}` on {dataset}: {phrase} | not run | | |")
            continue
        met = "yes" if found.per_second >= goal else ("on CPU time only" if found.per_cpu_second >= goal else "no")
        lines.append(f"| `{solver}` on {dataset} ({found.puzzles:,} puzzles): {phrase} (>= {goal:,}/s) | "
                     f"{found.per_second:,.0f}/s | {found.per_cpu_second:,.0f}/s | {met} |")
    rows = [r for r in bench.read_rows([scaling_csv]) if r.dataset == "25x25" and r.solver == "sat"] \
        if scaling_csv is not None and scaling_csv.is_file() else []
    if rows:
        worst = max(r.seconds for r in rows)
        solved = all(r.status == "solved" and r.valid for r in rows)
        lines.append(f"| `sat` on 25x25 boards with 45% clues ({len(rows)} puzzles): under 1 s each | "
                     f"max {worst:.3f} s | max {max(r.cpu_seconds for r in rows):.3f} s | "
                     f"{'yes' if solved and worst < 1 else 'no'} |")
    else:
        lines.append("| `sat` on 25x25 boards with 45% clues: under 1 s | not run | | |")
    (out_dir / "targets.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _label(dataset: bench.Dataset, ran: int) -> str:
    """The panel title: the set's name, and the slice when the limit cut it."""
    return dataset.name if dataset.limit is None or ran < dataset.limit else f"{dataset.name}[:{dataset.limit}]"


if __name__ == "__main__":
    sys.exit(main())
