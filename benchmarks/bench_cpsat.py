"""Benchmark of the CP-SAT paradigm beside the others, in one process and one run.

What it measures, each on the whole path (parse the 81-character line, set the givens, solve,
decode, check with ``is_solution``), one solver instance reused over a whole set:

1. puzzles/s on the shared 9x9 sets for ``cpsat`` and, in the same run, ``backtrack-fast`` (and
   ``sat`` when registered); every puzzle must be solved;
2. what the prepared model saves: ``cpsat`` against the same solver building a fresh model for each
   puzzle, plus the model-setup cost alone (microseconds per puzzle);
3. 25x25 boards with 45% of the cells given (random grids made here: a pattern grid under a
   random relabelling and row, column, band and stack shuffles, then 55% of the cells blanked).

Rates are given by wall time and by this process's CPU time: on a shared machine the CPU figure
is the steadier one. Datasets default to ``../shared/data`` beside the repository; a missing set
is skipped with a note. Example::

    .venv/bin/python benchmarks/bench_cpsat.py --limit 2000 --out benchmarks/results/cpsat.md
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import ortools

from sudokulab import Puzzle, Shape, Status, is_solution, parse_puzzle, solvers
from sudokulab.datasets import puzzle_lines
from sudokulab.models.cpsat import Prepared, build_model
from sudokulab.solvers.cpsat import CpSatSolver

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = ROOT.parent / "shared" / "data"
SETS = ("17_clue.txt", "forum_hardest_1106.txt")


class FreshCpSatSolver(CpSatSolver):
    """``cpsat`` with the prepared model swapped for a model built from scratch per puzzle."""

    name = "cpsat-fresh"

    def _model(self, puzzle, canonical):
        built = build_model(puzzle, canonical)
        return built.model, built


class DefaultsCpSatSolver(CpSatSolver):
    """``cpsat`` with CP-SAT's default parameters (one worker), to show what the tuning buys."""

    name = "cpsat-defaults"

    def __init__(self) -> None:
        super().__init__()
        self._engines["solve"] = self._engine(num_workers=1)


EXTRA = {"cpsat-fresh": FreshCpSatSolver, "cpsat-defaults": DefaultsCpSatSolver}
"""Benchmark-only variants of ``cpsat``, selectable by name beside the registered solvers."""


def make_solver(name: str):
    return EXTRA[name]() if name in EXTRA else solvers.get(name)


def run_set(name: str, lines: Sequence[str], time_limit: float) -> dict:
    """Solve every line with one solver: wall and CPU seconds, solved, failed, slowest puzzle."""
    solver = make_solver(name)
    solved = failed = 0
    slowest = 0.0
    wall, cpu = time.perf_counter(), time.process_time()
    for line in lines:
        puzzle = parse_puzzle(line)
        result = solver.solve(puzzle, time_limit=time_limit)
        if result.status is Status.SOLVED and is_solution(result.grid, puzzle):
            solved += 1
        else:
            failed += 1
        slowest = max(slowest, result.seconds)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    solver.close()
    return {"solver": name, "puzzles": len(lines), "solved": solved, "failed": failed,
            "wall": wall, "cpu": cpu, "slowest": slowest}


def setup_cost(lines: Sequence[str]) -> tuple[float, float]:
    """Microseconds per puzzle to get a solvable model: fresh build vs prepared (givens rewritten)."""
    puzzles = [parse_puzzle(line) for line in lines]
    started = time.process_time()
    for puzzle in puzzles:
        build_model(puzzle)
    fresh = time.process_time() - started
    prepared = Prepared(puzzles[0].shape)
    started = time.process_time()
    for puzzle in puzzles:
        prepared.set_givens(puzzle.givens)
    return fresh / len(puzzles) * 1e6, (time.process_time() - started) / len(puzzles) * 1e6


def random_grid(shape: Shape, rng: random.Random) -> tuple[int, ...]:
    """A valid grid: the pattern grid, digits relabelled, rows/columns shuffled within bands/stacks."""
    br, bc, n = shape.box_rows, shape.box_cols, shape.n

    def pattern(r: int, c: int) -> int:
        return (bc * (r % br) + r // br + c) % n

    def lines(groups: int, size: int) -> list[int]:
        return [g * size + i for g in rng.sample(range(groups), groups) for i in rng.sample(range(size), size)]

    rows, cols = lines(bc, br), lines(br, bc)
    labels = rng.sample(range(1, n + 1), n)
    return tuple(labels[pattern(r, c)] for r in rows for c in cols)


def random_puzzle(shape: Shape, given: float, rng: random.Random) -> Puzzle:
    grid = random_grid(shape, rng)
    keep = set(rng.sample(range(shape.cells), round(given * shape.cells)))
    return Puzzle(shape, tuple(v if i in keep else 0 for i, v in enumerate(grid)))


def big_boards(count: int, seed: int, time_limit: float) -> list[tuple[float, str, int]]:
    """Solve ``count`` random 25x25 puzzles with 45% given: (seconds, status, branches) each."""
    rng = random.Random(seed)
    shape = Shape(5, 5)
    results = []
    with solvers.get("cpsat") as solver:
        for _ in range(count):
            puzzle = random_puzzle(shape, 0.45, rng)
            result = solver.solve(puzzle, time_limit=time_limit)
            ok = result.status is Status.SOLVED and is_solution(result.grid, puzzle)
            results.append((result.seconds, result.status.value if ok or not result.grid else "WRONG",
                            int(result.stats.get("branches", 0))))
    return results


def table(rows: list[dict]) -> list[str]:
    out = ["| solver | puzzles | solved | failed | puzzles/s (wall) | puzzles/s (CPU) | slowest s |",
           "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        out.append(f"| {r['solver']} | {r['puzzles']} | {r['solved']} | {r['failed']} | "
                   f"{r['puzzles'] / r['wall']:.1f} | {r['puzzles'] / r['cpu']:.1f} | {r['slowest']:.3f} |")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help=f"dataset folder (default {DEFAULT_DATA})")
    parser.add_argument("--sets", nargs="+", default=list(SETS), metavar="FILE")
    parser.add_argument("--limit", type=int, help="first N puzzles of each set (default: all)")
    parser.add_argument("--solvers", nargs="+", metavar="NAME",
                        help="default: cpsat, cpsat-fresh, backtrack-fast, sat if registered (also: cpsat-defaults)")
    parser.add_argument("--time-limit", type=float, default=60.0, help="per puzzle, seconds")
    parser.add_argument("--big", type=int, default=5, help="how many 25x25 puzzles (0 to skip)")
    parser.add_argument("--seed", type=int, default=2580)
    parser.add_argument("--out", type=Path, help="also write the report (markdown) here")
    args = parser.parse_args(argv)
    names = args.solvers or ["cpsat", "cpsat-fresh", "backtrack-fast"] + (["sat"] if "sat" in solvers.names() else [])

    report: list[str] = []

    def say(line: str = "") -> None:
        print(line, flush=True)
        report.append(line)

    say("# CP-SAT benchmark")
    say()
    say(f"`{' '.join([Path(sys.argv[0]).name, *(argv if argv is not None else sys.argv[1:])])}`; "
        f"Python {platform.python_version()}, OR-Tools {ortools.__version__}, {platform.machine()}; "
        f"one process, one solver instance per set, whole path (parse, solve, decode, is_solution).")
    for set_name in args.sets:
        path = args.data / set_name
        say()
        if not path.exists():
            say(f"## {set_name}: skipped ({path} is absent)")
            continue
        lines = puzzle_lines(path, args.limit)
        say(f"## {set_name}: {len(lines)} puzzles")
        say()
        rows = []
        for name in names:
            rows.append(run_set(name, lines, args.time_limit))
            print(f"  ... {name} done", file=sys.stderr, flush=True)
        for line in table(rows):
            say(line)
        by_name = {r["solver"]: r for r in rows}
        if "cpsat" in by_name and "cpsat-defaults" in by_name:
            ratio = by_name["cpsat-defaults"]["cpu"] / by_name["cpsat"]["cpu"]
            say()
            say(f"Tuned parameters vs CP-SAT's defaults: {ratio:.2f}x the throughput (CPU time).")
        if "cpsat" in by_name and "cpsat-fresh" in by_name:
            ratio = by_name["cpsat-fresh"]["cpu"] / by_name["cpsat"]["cpu"]
            fresh_us, prepared_us = setup_cost(lines[:2000])
            say()
            say(f"Prepared model vs fresh model per puzzle: {ratio:.2f}x the throughput (CPU time); "
                f"model setup alone {fresh_us:.0f} us fresh vs {prepared_us:.0f} us prepared per puzzle.")
    if args.big:
        say()
        say(f"## 25x25, 45% of cells given: {args.big} random puzzles (seed {args.seed}), cpsat")
        say()
        results = big_boards(args.big, args.seed, args.time_limit)
        times = sorted(t for t, _, _ in results)
        statuses = sorted({s for _, s, _ in results})
        say(f"statuses: {', '.join(statuses)}; seconds: min {times[0]:.3f}, median {times[len(times) // 2]:.3f}, "
            f"max {times[-1]:.3f}; branches: {', '.join(str(b) for _, _, b in results)}")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text("\n".join(report) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
