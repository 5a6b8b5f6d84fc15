"""Scaling study: every paradigm on growing boards, 4x4 to 64x64, at a fixed share of clues.

For each size, ``--per-size`` puzzles are generated (``sudokulab.generation.puzzles``: a randomised search
of the empty board, random symmetries, then random cells blanked down to ``--fraction`` of the
cells given; seeded per size, so a size's puzzles do not depend on which other sizes run) and each
solver runs on them through ``sudokulab.bench.run`` with a time limit, every answer checked. A solver
that solves none of a size's puzzles in time is not run on the larger sizes (it is said so), and
one that refuses a board size (a formula over its size limit) is dropped there with its reason.
The puzzles need not have a unique solution (``--unique`` asks for that, slowly on large boards):
the measure is how long each paradigm takes to find a checked completion.

From ``--fast-grids`` on (49 by default), generate's pure-Python randomised fill takes minutes a
grid (210 s for two 49x49 grids), so the complete grid is instead ``backtrack-jit``'s answer to
the empty board under ``generate.random_symmetry``: one orbit of grids, less varied than
generate's, then clues removed by ``generate.remove_clues`` as usual.

After the sizes: how each solver's median time grows with n (the slope of a least-squares line
through log median against log n, over the sizes from 9 on where it solved more than half the
puzzles, so the median is a time and not the limit), and each solver's peak memory on the largest
size asked for, whether or not it was still running there: a child process per solver builds it
and solves one puzzle of that size under the time limit (or is refused), and its maximum resident
set size is its own ``VmHWM`` (Linux), read after building the solver and at the end.

Writes, under ``--out-dir``: ``scaling.csv`` (one row per puzzle and solver), ``scaling.md`` (the
summary tables and how they were measured) and ``scaling.png`` (median time against size).

    .venv/bin/python benchmarks/scaling.py                      # the report's figure
    .venv/bin/python benchmarks/scaling.py --sizes 16,25,36,49,64 --fraction 0.7 --per-size 2 \\
        --solvers backtrack-fast,backtrack-jit,sat,cpsat --stem scaling-70   # large boards past the hard region
    .venv/bin/python benchmarks/scaling.py --sizes 4,9,16 --per-size 2 --out-dir /tmp/quick
"""

from __future__ import annotations

import argparse
import json
import math
import random
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from harness import RESULTS, command_line, machine, timer, write_results

from sudokulab import solvers
from sudokulab.bench import run as bench
from sudokulab.bench.report import bench_markdown, render_bench
from sudokulab.core.grid import Shape
from sudokulab.core.puzzle import Puzzle
from sudokulab.errors import SudokuError
from sudokulab.formats.boj import MAX_SIZE
from sudokulab.generation import puzzles as generate
from sudokulab.ui import plots
from sudokulab.ui.console import console

SIZES = tuple(n for n in (4, 6, 9, 12, 16, 20, 25, 36, 49, 64) if n <= MAX_SIZE)
CHILD = """
import json, sys
from sudokulab import Puzzle, Shape, solvers
from sudokulab.errors import SudokuError

def peak_kib():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))

name, box, puzzles, limit = json.loads(sys.stdin.read())
shape = Shape(*box)
with solvers.get(name) as solver:
    built = peak_kib()
    status = "refused"
    try:
        for givens in puzzles:
            status = solver.solve(Puzzle(shape, tuple(givens)), time_limit=limit).status.value.replace(" ", "_")
    except SudokuError as exc:
        print(exc, file=sys.stderr)
    print(built, peak_kib(), status)
"""


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
    parser.add_argument("--fast-grids", type=int, default=49,
                        help="from this size on, grids are backtrack-jit's empty-board answer under random symmetries")
    parser.add_argument("--out-dir", type=Path, default=RESULTS, help="where the results go (default: results/)")
    parser.add_argument("--stem", default="scaling", help="output file names: STEM.md, .csv, .png (default: scaling)")
    return parser.parse_args(argv)


def make_puzzles(shape: Shape, args: argparse.Namespace) -> list[Puzzle]:
    """``--per-size`` puzzles of a shape, seeded by size (see the module docstring for large sizes)."""
    seed = args.seed * 1000 + shape.n
    if shape.n < args.fast_grids or args.unique:
        made = generate.generate(shape, args.per_size, fraction=args.fraction, unique=args.unique, seed=seed)
        return [m.puzzle for m in made]
    base = solvers.get("backtrack-jit").solve(Puzzle.empty(shape)).grid
    rng = random.Random(seed)
    clues = generate.clues_for(shape, fraction=args.fraction)
    return [generate.remove_clues(generate.random_symmetry(base, shape, rng), shape, clues, rng)
            for _ in range(args.per_size)]


def refusing(active: list[str], puzzle: Puzzle, time_limit: float) -> dict[str, str]:
    """The solvers that refuse this board size under the time limit (a model over its size limit, a load
    slower than the limit), with the reason; asked with one real solve each, which may take the limit."""
    refused = {}
    for name in active:
        try:
            with solvers.get(name) as solver:
                solver.solve(puzzle, time_limit=time_limit)
        except SudokuError as exc:
            refused[name] = str(exc)
    return refused


def slopes(points: list[plots.ScalingPoint]) -> list[str]:
    """Markdown rows: per solver, the exponent k of median time ~ n^k (least squares on log-log)."""
    rows = []
    for solver in dict.fromkeys(p.solver for p in points):
        usable = [p for p in points if p.solver == solver and p.n >= 9 and 2 * p.solved > p.puzzles and p.median > 0]
        if len(usable) < 2:
            rows.append(f"| {solver} | - | {', '.join(str(p.n) for p in usable) or 'none'} | too few sizes |")
            continue
        xs = [math.log(p.n) for p in usable]
        ys = [math.log(p.median) for p in usable]
        mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
        k = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
        top = usable[-1]
        rows.append(f"| {solver} | {k:.1f} | {', '.join(str(p.n) for p in usable)} | "
                    f"{top.median:.3g} s at {top.n}x{top.n} |")
    return rows


def peak_memory(name: str, shape: Shape, puzzles: list[Puzzle], time_limit: float) -> tuple[int, int, str] | None:
    """(KiB after building the solver, peak KiB, how the last solve ended) of a child process that solves
    ``puzzles``; None if the child failed.

    The child reads its own high-water mark (``VmHWM``, Linux): ``getrusage``'s ``ru_maxrss`` for a
    child keeps the parent's size at the fork, so it would report this (large) process instead.
    """
    payload = json.dumps([name, [shape.box_rows, shape.box_cols], [list(p.givens) for p in puzzles], time_limit])
    done = subprocess.run([sys.executable, "-c", CHILD], input=payload, capture_output=True, text=True)
    if done.returncode != 0:
        print(f"{name}: the memory child failed: {done.stderr.strip()[-300:]}", file=sys.stderr)
        return None
    built, peak, status = done.stdout.split()[-3:]
    return int(built), int(peak), status.replace("_", " ")


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    active = [s.strip() for s in args.solvers.split(",")] if args.solvers else solvers.names()
    for name in list(active):
        why = solvers.unavailable(name)
        if why:
            print(f"{name} skipped: {why}", file=sys.stderr)
            active.remove(name)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    points: list[plots.ScalingPoint] = []
    how = f"Made by `{command_line(__file__, argv)}`."
    measured_on = machine()
    markdown = [f"{args.per_size} puzzles per size, {args.fraction:.0%} of the cells given, "
                f"seed {args.seed}{', unique solutions' if args.unique else ''}; time limit {args.time_limit:g} s. "
                f"From {args.fast_grids}x{args.fast_grids} on, grids are backtrack-jit's answer to the empty board "
                "under random symmetries (generate's own fill takes minutes a grid there).\n"]
    csv_parts: list[Path] = []
    wrong = 0
    requested = list(active)
    made_by_size: dict[int, list[Puzzle]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        for n in sizes:
            if not active:
                print(f"{n}x{n}: no solver left to run", file=sys.stderr)
                break
            shape = Shape.of_size(n)
            with timer() as making:
                made = made_by_size[n] = make_puzzles(shape, args)
            if n > 36:  # only the largest boards meet the size limits of some models
                for name, why in refusing(active, made[0], args.time_limit).items():
                    print(f"{name} refuses {n}x{n}: {why}", file=sys.stderr)
                    markdown.append(f"{name} refuses {n}x{n} boards ({why}) and was not run on them.\n")
                    active.remove(name)
            print(f"{n}x{n}: {len(made)} puzzles made in {making[0].wall:.1f} s; "
                  f"running {', '.join(active)}", file=sys.stderr)
            part = Path(scratch) / f"{n}.csv"
            report = bench.run_bench(
                [bench.Dataset.from_puzzles(f"{n}x{n}", made)], active,
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
        with open(args.out_dir / f"{args.stem}.csv", "w", encoding="utf-8") as out:
            for i, part in enumerate(csv_parts):
                lines = part.read_text(encoding="utf-8").splitlines(keepends=True)
                out.writelines(lines if i == 0 else lines[1:])
    markdown += ["## How time grows with n\n",
                 "Median time ~ n^k: k is the slope of log median against log n (least squares) over the sizes "
                 "listed, from 9x9 on where more than half the puzzles were solved. Cells grow as n^2, so k = 2 "
                 "is linear in the cells; a solver whose tail runs into the limit has a k that says little.\n",
                 "| solver | k | sizes fitted | median at the largest |", "| --- | ---: | --- | ---: |",
                 *slopes(points), ""]
    if sizes and requested:
        shape = Shape.of_size(max(sizes))
        made = made_by_size.get(shape.n) or make_puzzles(shape, args)
        markdown += [f"## Peak memory on {shape.n}x{shape.n}\n",
                     f"A child process per solver builds it and solves one {shape.n}x{shape.n} puzzle (time limit "
                     f"{args.time_limit:g} s), whether or not the solver was still in the study at that size, and "
                     "reads its own peak resident set size (`VmHWM` in /proc/self/status: "
                     "`getrusage(RUSAGE_CHILDREN)` keeps the parent's size at the fork, so every child would show "
                     "this harness's). 'Built' is that peak after importing sudokulab and building the solver, "
                     "before any solve.\n",
                     "| solver | built MiB | peak MiB | the solve |", "| --- | ---: | ---: | --- |"]
        for name in requested:
            measured = peak_memory(name, shape, made[:1], args.time_limit)
            if measured is None:
                markdown.append(f"| {name} | failed | failed | |")
                continue
            built, peak, status = measured
            print(f"{name}: peak {peak / 1024:.0f} MiB on {shape.n}x{shape.n} ({status})", file=sys.stderr)
            markdown.append(f"| {name} | {built / 1024:,.0f} | {peak / 1024:,.0f} | {status} |")
        markdown.append("")
    write_results(f"{args.stem}.md", "Scaling study", "\n".join(markdown), how=how, measured_on=measured_on,
                  folder=args.out_dir)
    if points:
        png = plots.scaling_plot(points, args.out_dir / f"{args.stem}.png", time_limit=args.time_limit,
                                 title=f"Median solve time, {args.fraction:.0%} clues, {args.per_size} puzzles a size")
        print(f"wrote {png}, {args.stem}.csv and {args.stem}.md in {args.out_dir}", file=sys.stderr)
    if wrong:
        print(f"{wrong} WRONG answers: see above", file=sys.stderr)
        return 4
    return 0


if __name__ == "__main__":
    sys.exit(main())
