"""Scaling study: every paradigm on growing boards, 4x4 to 36x36, at a fixed share of clues.

For each size, ``--per-size`` puzzles are generated (``sudokulab.generate``: a randomised search
of the empty board, random symmetries, then random cells blanked down to ``--fraction`` of the
cells given; seeded per size, so a size's puzzles do not depend on which other sizes run) and each
solver runs on them through ``sudokulab.bench`` with a time limit, every answer checked. A solver
that solves none of a size's puzzles in time is not run on the larger sizes (it is said so).
The puzzles need not have a unique solution (``--unique`` asks for that, slowly on large boards):
the measure is how long each paradigm takes to find a checked completion.

Writes, under ``--out-dir``: ``scaling.csv`` (one row per puzzle and solver), ``scaling.md`` (the
summary tables and how they were measured) and ``scaling.png`` (median time against size).

    .venv/bin/python benchmarks/scaling.py                      # the report's figure
    .venv/bin/python benchmarks/scaling.py --sizes 4,9,16 --per-size 2 --out-dir /tmp/quick
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from sudokulab import bench, generate, plots, solvers
from sudokulab.grid import Shape
from sudokulab.report import bench_markdown, console, render_bench

ROOT = Path(__file__).resolve().parents[1]
SIZES = (4, 6, 9, 12, 16, 20, 25, 36)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)), help="board sizes (default: %(default)s)")
    parser.add_argument("--fraction", type=float, default=0.45, help="share of cells given (default: 0.45)")
    parser.add_argument("--per-size", type=int, default=5, help="puzzles per size (default: 5)")
    parser.add_argument("--solvers", help="comma-separated (default: every registered solver)")
    parser.add_argument("--time-limit", type=float, default=20.0, help="seconds per puzzle (default: 20)")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default: 1, for clean timings)")
    parser.add_argument("--seed", type=int, default=2580, help="base seed (default: 2580)")
    parser.add_argument("--unique", action="store_true", help="generate puzzles with a unique solution")
    parser.add_argument("--out-dir", type=Path, default=ROOT / "benchmarks" / "results")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    active = [s.strip() for s in args.solvers.split(",")] if args.solvers else solvers.names()
    args.out_dir.mkdir(parents=True, exist_ok=True)
    points: list[plots.ScalingPoint] = []
    started_as = " ".join([".venv/bin/python benchmarks/scaling.py", *(sys.argv[1:] if argv is None else argv)])
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    markdown = [f"# Scaling study\n\nCommand: `{started_as}`; started {when}.\n",
                f"{args.per_size} puzzles per size, {args.fraction:.0%} of the cells given, "
                f"seed {args.seed}{', unique solutions' if args.unique else ''}; time limit {args.time_limit:g} s.\n"]
    csv_parts: list[Path] = []
    wrong = 0
    with tempfile.TemporaryDirectory() as scratch:
        for n in sizes:
            if not active:
                print(f"{n}x{n}: no solver left to run", file=sys.stderr)
                break
            shape = Shape.of_size(n)
            started = time.perf_counter()
            made = list(generate.generate(shape, args.per_size, fraction=args.fraction, unique=args.unique,
                                          seed=args.seed * 1000 + n))
            print(f"{n}x{n}: {len(made)} puzzles generated in {time.perf_counter() - started:.1f} s; "
                  f"running {', '.join(active)}", file=sys.stderr)
            part = Path(scratch) / f"{n}.csv"
            report = bench.run_bench(
                [bench.Dataset.from_puzzles(f"{n}x{n}", (m.puzzle for m in made))], active,
                time_limit=args.time_limit, jobs=args.jobs, csv_path=part,
            )
            csv_parts.append(part)
            wrong += report.wrong
            render_bench(report, console())
            markdown.append(bench_markdown(report))
            for s in report.summaries:
                times = sorted(report.solved_times[s.dataset][s.solver])
                points.append(plots.ScalingPoint(s.solver, n, s.puzzles, s.solved, s.timed_out, s.median,
                                                 s.seconds / s.puzzles if s.puzzles else float("nan")))
                if not times:
                    print(f"{s.solver} solved no {n}x{n} puzzle within {args.time_limit:g} s: "
                          "not run on larger boards", file=sys.stderr)
                    markdown.append(f"{s.solver} solved no {n}x{n} puzzle in time and was not run on larger boards.\n")
                    active.remove(s.solver)
        with open(args.out_dir / "scaling.csv", "w", encoding="utf-8") as out:
            for i, part in enumerate(csv_parts):
                lines = part.read_text(encoding="utf-8").splitlines(keepends=True)
                out.writelines(lines if i == 0 else lines[1:])
    (args.out_dir / "scaling.md").write_text("\n".join(markdown), encoding="utf-8")
    if points:
        png = plots.scaling_plot(points, args.out_dir / "scaling.png", time_limit=args.time_limit,
                                 title=f"Median solve time, {args.fraction:.0%} clues, {args.per_size} puzzles a size")
        print(f"wrote {png}, scaling.csv and scaling.md in {args.out_dir}", file=sys.stderr)
    if wrong:
        print(f"{wrong} WRONG answers: see above", file=sys.stderr)
        return 4
    return 0


if __name__ == "__main__":
    sys.exit(main())
