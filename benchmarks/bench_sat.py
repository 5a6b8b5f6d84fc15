"""Benchmark of the SAT paradigm beside the baseline, in one process and one run.

What it measures, each on the whole path (parse the 81-character line, assumptions, solve, decode,
check with ``is_solution``), one solver instance reused over a whole set:

1. puzzles/s on the shared 9x9 sets for each asked (engine, encoding, amo) of ``sat`` and, in the
   same run, ``backtrack-fast``; every puzzle must be solved and checked;
2. where the time of one puzzle goes (parse, solve, check), in microseconds of CPU;
3. 25x25 boards with 45% of the cells given (random grids made here: a pattern grid under a random
   relabelling and row, column, band and stack shuffles, then 55% of the cells blanked), solved by
   a fresh solver (rules built and loaded, then solved) and by a warm one (rules already loaded).

Rates are given by wall time and by this process's CPU time: on a shared machine the CPU figure
is the steadier one. Configurations without incrementality (``reduced``, which builds a formula
per puzzle, and the ``kissat404`` engine) run at most ``--fresh-limit`` puzzles a set, and the
baseline at most ``--baseline-limit``. Datasets default to ``../shared/data`` beside the
repository; a missing set is skipped with a note. Example::

    .venv/bin/python benchmarks/bench_sat.py --limit 5000 --encodings extended,reduced \\
        --engines cadical195,glucose4 --out benchmarks/results/sat.md
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from collections.abc import Sequence
from importlib.metadata import version
from pathlib import Path

from sudokulab import Puzzle, Shape, Status, is_solution, parse_puzzle, solvers
from sudokulab.datasets import puzzle_lines
from sudokulab.solvers.sat import SatSolver, canonical_engine

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = ROOT.parent / "shared" / "data"
SETS = ("17_clue.txt", "magictour_top1465.txt", "forum_hardest_1106.txt")
GOALS = {"17_clue.txt": 4000, "magictour_top1465.txt": 1200, "forum_hardest_1106.txt": 300}
"""The issue's goals in puzzles/s for the default configuration."""


def run_set(label: str, solver, lines: Sequence[str]) -> dict:
    """Solve every line with one solver instance: wall and CPU seconds, solved, failed, propagated."""
    solved = failed = propagated = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for line in lines:
        puzzle = parse_puzzle(line)
        result = solver.solve(puzzle)
        if result.status is Status.SOLVED and is_solution(result.grid, puzzle):
            solved += 1
        else:
            failed += 1
        propagated += bool(result.stats.get("propagated"))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    solver.close()
    return {"label": label, "puzzles": len(lines), "solved": solved, "failed": failed, "wall": wall, "cpu": cpu,
            "propagated": propagated}


def breakdown(lines: Sequence[str]) -> dict[str, float]:
    """CPU microseconds per puzzle of each step of the path, default ``sat`` configuration."""
    started = time.process_time()
    puzzles = [parse_puzzle(line) for line in lines]
    parse = time.process_time() - started
    with SatSolver() as solver:
        solver.solve(puzzles[0])  # the rules load once, outside the figure
        started = time.process_time()
        results = [solver.solve(puzzle) for puzzle in puzzles]
        solve = time.process_time() - started
    started = time.process_time()
    for result, puzzle in zip(results, puzzles):
        is_solution(result.grid, puzzle)
    check = time.process_time() - started
    per = 1e6 / len(lines)
    return {"parse": parse * per, "solve": solve * per, "check": check * per}


def random_grid(shape: Shape, rng: random.Random) -> tuple[int, ...]:
    """A valid grid: the pattern grid, digits relabelled, rows/columns shuffled within bands/stacks."""
    br, bc, n = shape.box_rows, shape.box_cols, shape.n

    def pattern(r: int, c: int) -> int:
        return (bc * (r % br) + r // br + c) % n

    def lines(bands: int, per_band: int) -> list[int]:
        return [band * per_band + i for band in rng.sample(range(bands), bands) for i in rng.sample(range(per_band),
                                                                                                   per_band)]

    rows, cols = lines(bc, br), lines(br, bc)
    labels = rng.sample(range(1, n + 1), n)
    return tuple(labels[pattern(r, c)] for r in rows for c in cols)


def big_puzzles(count: int, n: int = 25, given: float = 0.45, seed: int = 2580) -> list[Puzzle]:
    rng = random.Random(seed)
    shape = Shape.of_size(n)
    found = []
    for _ in range(count):
        grid = random_grid(shape, rng)
        keep = set(rng.sample(range(shape.cells), round(given * shape.cells)))
        found.append(Puzzle(shape, tuple(v if i in keep else 0 for i, v in enumerate(grid))))
    return found


def big_boards(puzzles: Sequence[Puzzle], configs: Sequence[dict]) -> list[dict]:
    """Per configuration: seconds of the first puzzle on a fresh solver, and of the others warm."""
    rows = []
    for config in configs:
        with SatSolver(**config) as solver:
            started = time.perf_counter()
            first = solver.solve(puzzles[0])
            cold = time.perf_counter() - started
            ok = first.solved and is_solution(first.grid, puzzles[0])
            warm = []
            for puzzle in puzzles[1:]:
                started = time.perf_counter()
                result = solver.solve(puzzle)
                warm.append(time.perf_counter() - started)
                ok = ok and result.solved and is_solution(result.grid, puzzle)
        rows.append({"config": describe(config), "cold": cold, "warm": warm, "ok": ok})
    return rows


def describe(config: dict) -> str:
    engine, encoding = config.get("engine", "cadical195"), config.get("encoding", "auto")
    return f"{engine} / {encoding} / {config.get('amo', 'pairwise')}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("datasets", nargs="*", type=Path, help=f"puzzle sets (default: {', '.join(SETS)})")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder of the default sets")
    parser.add_argument("--limit", type=int, help="puzzles per set (default: all)")
    parser.add_argument("--baseline-limit", type=int, default=5000, help="puzzles per set for backtrack-fast")
    parser.add_argument("--fresh-limit", type=int, default=1000, help="puzzles per set without incrementality")
    parser.add_argument("--engines", default="cadical195", help="comma-separated PySAT engines")
    parser.add_argument("--encodings", default="auto", help="comma-separated encodings")
    parser.add_argument("--amo", default="pairwise", help="comma-separated at-most-one encodings")
    parser.add_argument("--big", type=int, default=4, help="25x25 boards to solve (0: none)")
    parser.add_argument("--out", type=Path, help="also write the report here (markdown)")
    args = parser.parse_args(argv)

    configs = [
        {"engine": engine, "encoding": encoding, "amo": amo}
        for engine in args.engines.split(",") for encoding in args.encodings.split(",") for amo in args.amo.split(",")
    ]
    paths = args.datasets or [args.data / name for name in SETS]
    report = [
        "# SAT benchmark",
        "",
        f"`{' '.join([Path(sys.argv[0]).name, *(argv if argv is not None else sys.argv[1:])])}`",
        "",
        f"Python {platform.python_version()}, python-sat {version('python-sat')}, {os.cpu_count()} cores, "
        f"load average at start {os.getloadavg()[0]:.2f}. Whole path per puzzle: parse, solve, decode, "
        "is_solution. One solver instance per set. puzzles/s by wall time and by CPU time.",
        "",
        "| set | solver (engine / encoding / amo) | puzzles | solved | wall /s | CPU /s | propagated |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    failures = 0
    for path in paths:
        if not path.exists():
            report.append(f"| {path.name} | skipped: {path} is absent | | | | | |")
            continue
        for config in configs:
            fresh = config["encoding"] == "reduced" or canonical_engine(config["engine"]) == "kissat404"
            limit = min(x for x in (args.limit, args.fresh_limit if fresh else None) if x) if (
                args.limit or fresh) else None
            row = run_set(describe(config), SatSolver(**config), puzzle_lines(path, limit))
            report.append(table_row(path.name, "sat " + row["label"], row))
            failures += row["failed"]
            print(report[-1], flush=True)
        lines = puzzle_lines(path, min(x for x in (args.limit, args.baseline_limit) if x))
        row = run_set("backtrack-fast", solvers.get("backtrack-fast"), lines)
        report.append(table_row(path.name, "backtrack-fast (baseline)", row))
        failures += row["failed"]
        print(report[-1], flush=True)

    first = next((p for p in paths if p.exists()), None)
    if first is not None:
        steps = breakdown(puzzle_lines(first, min(args.limit or 10000, 10000)))
        report += ["", f"CPU microseconds per puzzle on {first.name}, default `sat`: "
                   + ", ".join(f"{k} {v:.1f}" for k, v in steps.items()) + "."]

    if args.big:
        puzzles = big_puzzles(args.big)
        report += ["", f"25x25, 45% given, {len(puzzles)} boards (seed 2580). Cold: a fresh solver, rules built and "
                   "loaded, then the first board solved (seconds wall). Warm: each other board on the same solver.", "",
                   "| configuration | cold s | warm s (each) | all checked |", "| --- | ---: | --- | --- |"]
        big = [{}, {"encoding": "extended"}, {"encoding": "extended", "amo": "seqcounter"}]
        for row in big_boards(puzzles, big):
            warm = ", ".join(f"{s:.3f}" for s in row["warm"])
            report.append(f"| {row['config']} | {row['cold']:.3f} | {warm} | {row['ok']} |")
            print(report[-1], flush=True)
            failures += not row["ok"]

    report += ["", f"Load average at end {os.getloadavg()[0]:.2f}."]
    text = "\n".join(report) + "\n"
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text)
    print(text)
    return 1 if failures else 0


def table_row(name: str, label: str, row: dict) -> str:
    return (f"| {name} | {label} | {row['puzzles']} | {row['solved']} | {row['puzzles'] / row['wall']:,.0f} | "
            f"{row['puzzles'] / row['cpu']:,.0f} | {row['propagated']} |")


if __name__ == "__main__":
    sys.exit(main())
