"""Every figure of the benchmark report, with one command, all measured by ``sudokulab.bench.run.run_bench``.

1. The paradigms: ``--solvers`` (default: every registered solver but the classic ``backtrack``)
   on ``17_clue``, ``magictour_top1465``, ``forum_hardest_1106`` and the first ``--slice`` (2,000)
   puzzles of ``forum_hardest_1905_11plus``, one process, one solver at a time (``by_solver``):
   ``paradigms.md`` and ``cactus.png``.
2. The hand-written search: ``backtrack-fast`` against Peter Norvig's published figures (from step
   1), and the classic ``backtrack`` beside the same solvers on the first ``--classic-limit``
   puzzles of each set, the solvers taking turns on each puzzle, the classic stopped at
   ``--classic-time-limit``: ``backtracking.md``, and the 17_clue slice as a panel of ``cactus.png``.
3. The scaling study (``scaling.py``): ``scaling.md``, ``scaling.csv``, ``scaling.png``.
4. Configurations of one solver (``configurations.py``): ``sat-encodings.md``,
   ``sat-engines.md``, ``cpsat-tuning.md``.
5. ``targets.md``: the issue's targets held against the figures of this run.

Per-puzzle CSVs of steps 1 and 2 go to ``--csv-dir`` (``benchmarks/out``, not committed); the
summaries and pictures to ``--out-dir`` (``benchmarks/results``). The whole sets are found by the
catalogue (fetched, or ``../shared/data`` beside the repository), or read from ``--data DIR``; a set
missing there is fetched from its public source (``sudokulab.datasets.catalog``, as ``sudokulab datasets
fetch`` does; ``--no-fetch`` not to), one that cannot be had is skipped with a note, and with none at all
nothing is measured and the exit code is 2. Exit code 4 if any answer was wrong.

    .venv/bin/python benchmarks/run_all.py                  # the full report (about 20 minutes)
    .venv/bin/python benchmarks/run_all.py --limit 300      # a quick first look
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from harness import OUT, RESULTS, command_line, machine, whole_set, write_results

from sudokulab import solvers
from sudokulab.bench import run as bench
from sudokulab.bench.report import bench_markdown, render_bench
from sudokulab.errors import ExitCode
from sudokulab.ui import plots
from sudokulab.ui.console import console

SETS = ("17_clue", "magictour_top1465", "forum_hardest_1106", "forum_hardest_1905_11plus")
SLICED = "forum_hardest_1905_11plus"
CLASSIC, FAST = "backtrack", "backtrack-fast"
CLASSIC_PANEL = "17_clue"
"""The set whose classic slice joins the cactus plot."""
NORVIG = {"17_clue": 338, "magictour_top1465": 172, "forum_hardest_1106": 39, "forum_hardest_1905_11plus": 43}
"""Peter Norvig's published Python solver on this machine kind, puzzles/s, whole set (../shared/data/README.md)."""
TARGETS = (  # (solver, dataset, puzzles/s at least, how the goal is phrased)
    ("sat", "17_clue", 4000, "at least 4,000 puzzles/s"),
    ("cpsat", "17_clue", 300, "at least 300 puzzles/s"),
    *((FAST, name, 3 * NORVIG[name], f"3x Norvig's ~{NORVIG[name]}/s")
      for name in ("magictour_top1465", "forum_hardest_1106")),
)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, help="folder of the sets (default: the catalogue's)")
    parser.add_argument("--no-fetch", action="store_true",
                        help="do not download the sets missing here (default: fetch them, as "
                        "'sudokulab datasets fetch' does, into the user's cache folder)")
    parser.add_argument("--out-dir", type=Path, default=RESULTS, help="where the results go (default: results/)")
    parser.add_argument("--csv-dir", type=Path, default=OUT, help="per-puzzle CSVs (default: out/)")
    parser.add_argument("--solvers", help="comma-separated (default: every registered solver but the classic)")
    parser.add_argument("--limit", type=int, help="the first K puzzles of every set (e.g. 2000; 300 for a quick look)")
    parser.add_argument("--slice", type=int, default=2000, help=f"puzzles of {SLICED} (default: 2000)")
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds per puzzle (default: 10)")
    parser.add_argument("--classic-limit", type=int, default=50,
                        help="puzzles of each set for the classic search (default: 50)")
    parser.add_argument("--classic-time-limit", type=float, default=2.0,
                        help="seconds per puzzle in step 2 (default: 2)")
    parser.add_argument("--jobs", type=int, default=1, help="processes for steps 2 and 3 (default: 1)")
    parser.add_argument("--skip-scaling", action="store_true")
    parser.add_argument("--skip-configurations", action="store_true")
    parser.add_argument("--scaling-args", default="", help="extra arguments for scaling.py, e.g. '--per-size 3'")
    parser.add_argument("--configurations-args", default="",
                        help="extra arguments for configurations.py, e.g. '--studies cpsat-tuning'")
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    args.solver_list = ([s.strip() for s in args.solvers.split(",") if s.strip()] if args.solvers
                        else bench.default_solvers())
    return args


def _limit(*limits: int | None) -> int | None:
    given = [k for k in limits if k is not None]
    return min(given) if given else None


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    measured_on = machine()
    found = find_datasets(args)
    where = args.data or "the catalogue's folders"
    if not found:
        print(f"run_all: no dataset found, nothing measured: put {', '.join(f'{n}.txt' for n in SETS)} "
              f"(see ../shared/data/README.md) in {where}, pass --data DIR, or fetch them with "
              f"'sudokulab datasets fetch {' '.join(SETS)}'", file=sys.stderr)
        return ExitCode.BAD_INPUT
    for name in SETS:
        if name not in found:
            print(f"skipped {name}: not in {where}", file=sys.stderr)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    args.csv_dir.mkdir(parents=True, exist_ok=True)

    datasets = [bench.Dataset.from_path(path, limit=_limit(args.limit, args.slice if name == SLICED else None))
                for name, path in found.items()]
    paradigms = run_paradigms(args, datasets)
    classic = run_backtracking(args, found, paradigms)
    draw_cactus(args, datasets, paradigms, classic)
    wrong = paradigms.wrong + (classic.wrong if classic else 0)
    if not args.skip_scaling:
        import scaling  # a script beside this one (their folder is on the path)

        classic = [CLASSIC] if CLASSIC in solvers.names() and CLASSIC not in args.solver_list else []
        code = scaling.main(["--out-dir", str(args.out_dir), "--jobs", str(args.jobs),
                             "--solvers", ",".join(classic + args.solver_list), *args.scaling_args.split()])
        wrong += code == ExitCode.WRONG
    if not args.skip_configurations:
        import configurations

        overridden = "--limit" in args.configurations_args.split()
        limit = [] if args.limit is None or overridden else ["--limit", str(args.limit)]
        data = ["--data", str(args.data)] if args.data is not None else []
        code = configurations.main([*data, "--out-dir", str(args.out_dir), *limit, *args.configurations_args.split()])
        wrong += code == ExitCode.WRONG
    # scaling.csv: this run's, or the last one's under --skip-scaling
    write_targets(args, paradigms.summaries, args.out_dir / "scaling.csv", measured_on)
    if wrong:
        print("WRONG answers were found: see above", file=sys.stderr)
        return ExitCode.WRONG
    return ExitCode.OK


def find_datasets(args: argparse.Namespace) -> dict[str, Path]:
    """The reference sets, whole: in ``--data`` or where the catalogue finds them, else fetched by it.

    When none comes from ``--data``, ``args.data`` is dropped, so that the configuration study reads the
    catalogue's sets too.
    """
    found = {name: path for name in SETS if (path := whole_set(name, args.data)) is not None}
    missing = [name for name in SETS if name not in found]
    if missing and not args.no_fetch:
        from sudokulab.datasets import catalog
        from sudokulab.errors import SudokuError

        unreachable: set[str] = set()
        for name in missing:  # one by one: a set that fails its check does not cost the others
            known = catalog.SETS.get(name)
            if known is None or known.url in unreachable:
                continue
            url = known.url
            try:
                (fetched,) = catalog.fetch([name])
            except SudokuError as exc:
                print(f"run_all: {name}: {exc}", file=sys.stderr)
                if isinstance(exc, catalog.DownloadFailed):
                    unreachable.add(url)
                continue
            found[name] = fetched.path
        if found and not any(path.parent == args.data for path in found.values()):
            args.data = None
    return {name: found[name] for name in SETS if name in found}


def run_paradigms(args: argparse.Namespace, datasets: list[bench.Dataset]) -> bench.BenchReport:
    """Step 1: the reference sets, each solver over all of them in turn."""
    measured_on = machine()
    report = bench.run_bench(datasets, args.solver_list, time_limit=args.time_limit,
                             csv_path=args.csv_dir / "paradigms.csv", by_solver=True)
    render_bench(report, console())
    text = ["Times are each solver's own `solve` time on a parsed puzzle (every answer checked); "
            "a slice is named in its table's title by its puzzle count.\n",
            bench_markdown(report)]
    write_results("paradigms.md", "Every paradigm on the reference sets", "\n".join(text),
                  how=f"Made by `{command_line(__file__, args.argv)}`.", measured_on=measured_on, folder=args.out_dir)
    return report


def run_backtracking(args: argparse.Namespace, found: dict[str, Path],
                     paradigms: bench.BenchReport) -> bench.BenchReport | None:
    """Step 2: Norvig's figures against step 1, then the classic's slices (their report, if run)."""
    measured_on = machine()
    text = ["## `backtrack-fast` against Norvig's published figures\n",
            "From step 1 (`paradigms.md`): solve time of `backtrack-fast` on a parsed puzzle, one process. "
            "Norvig: his published Python solver, whole set, this machine kind (`../shared/data/README.md`).\n",
            "| set | puzzles | solved | puzzles/s | puzzles/cpu-s | nodes/puzzle | Norvig /s | x Norvig | "
            "x Norvig (CPU) |", "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for s in paradigms.summaries:
        if s.solver == FAST and s.dataset in NORVIG:
            rate = NORVIG[s.dataset]
            text.append(f"| {s.dataset} | {s.puzzles:,} | {s.solved:,} | {s.per_second:,.0f} | "
                        f"{s.per_cpu_second:,.0f} | {s.means.get('nodes', float('nan')):.1f} | {rate} | "
                        f"{s.per_second / rate:.1f}x | {s.per_cpu_second / rate:.1f}x |")
    report = None
    if CLASSIC in solvers.names():
        count = _limit(args.limit, args.classic_limit)
        sets = [bench.Dataset.from_path(path, name=f"{name}[:{count}]", limit=count) for name, path in found.items()]
        names = [CLASSIC, *(s for s in args.solver_list if s != CLASSIC)]
        report = bench.run_bench(sets, names, time_limit=args.classic_time_limit, jobs=args.jobs,
                                 csv_path=args.csv_dir / "classic.csv")
        render_bench(report, console())
        by = {(s.dataset, s.solver): s for s in report.summaries}
        text += ["", f"## `backtrack-fast` against the classic `backtrack`, {count} puzzles a set\n",
                 f"The first {count} puzzles of each set, the solvers taking turns on each puzzle, every solver "
                 f"stopped at {args.classic_time_limit:g} s a puzzle. A timeout counts with its limit, so the "
                 "classic's rate is an upper bound and the ratio a lower bound.\n",
                 "| set | classic solved | classic timed out | classic /s | fast /s | fast : classic | "
                 "fast : classic (CPU) |", "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
        for dataset in sets:
            classic, fast = by.get((dataset.name, CLASSIC)), by.get((dataset.name, FAST))
            if classic is None or fast is None:
                continue
            text.append(f"| {dataset.name} | {classic.solved}/{classic.puzzles} | {classic.timed_out} | "
                        f"{classic.per_second:,.2f} | {fast.per_second:,.0f} | "
                        f"{fast.per_second / classic.per_second:,.0f}x | "
                        f"{fast.per_cpu_second / classic.per_cpu_second:,.0f}x |")
        text += ["", "Every solver on these slices:\n", bench_markdown(report)]
    write_results("backtracking.md", "The hand-written search", "\n".join(text),
                  how=f"Made by `{command_line(__file__, args.argv)}`.", measured_on=measured_on, folder=args.out_dir)
    return report


def draw_cactus(args: argparse.Namespace, datasets: Sequence[bench.Dataset], paradigms: bench.BenchReport,
                classic: bench.BenchReport | None) -> None:
    """One panel per reference set (step 1) and one for the classic's 17_clue slice (step 2)."""
    labels = {d.name: _label(d, paradigms.totals[d.name]) for d in datasets}
    series = {labels[d.name]: paradigms.solved_times[d.name] for d in datasets}
    totals = {labels[d.name]: paradigms.totals[d.name] for d in datasets}
    limits = {labels[d.name]: args.time_limit for d in datasets}
    panel = next((name for name in (classic.totals if classic else {}) if name.startswith(f"{CLASSIC_PANEL}[")), None)
    if classic is not None and panel is not None:
        series[panel], totals[panel], limits[panel] = (classic.solved_times[panel], classic.totals[panel],
                                                       args.classic_time_limit)
    png = plots.cactus_plot(series, args.out_dir / "cactus.png", totals=totals, time_limit=limits)
    print(f"wrote {png}, paradigms.md and backtracking.md; per-puzzle CSVs in {args.csv_dir}", file=sys.stderr)


def write_targets(args: argparse.Namespace, summaries: Sequence[bench.BenchSummary], scaling_csv: Path | None,
                  measured_on: str) -> None:
    """The issue's targets beside this run's figures (one process; wall and CPU rates)."""
    lines = ["| target | measured (wall) | measured (CPU) | met |", "| --- | ---: | ---: | --- |"]
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
    write_results("targets.md", "Targets", "\n".join(lines), how=f"Made by `{command_line(__file__, args.argv)}`.",
                  measured_on=measured_on, folder=args.out_dir)


def _label(dataset: bench.Dataset, ran: int) -> str:
    """The panel title: the set's name, and the slice when the limit cut it."""
    return dataset.name if dataset.limit is None or ran < dataset.limit else f"{dataset.name}[:{dataset.limit}]"


if __name__ == "__main__":
    sys.exit(main())
