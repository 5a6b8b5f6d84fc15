"""Local search against the number of givens: the success rate within a fixed flip budget, 9x9.

Lewis (2007, "Metaheuristics can solve sudoku puzzles") found his annealing struggles most on
puzzles with about 40-45% of the cells given, the phase transition of Sudoku: with fewer givens
there are many solutions to land on, with more, propagation does most of the work; in between
there are few solutions and deep local minima. This script measures that dip for
``local-search``: for each number of givens (0 to 56 by default), ``--puzzles`` puzzles made by
cutting random grids (``generation.puzzles.random_grid`` then ``remove_clues`` without uniqueness,
seeded), each solved with the same flip budget (``max_flips``, a count of moves, so the figures
do not depend on the machine's load), under five option sets (each method with and without the
propagation that fixes forced cells first; without it is Lewis's own method), and the default
method, decision repair, which propagates after every move. It reports the share
solved, the median flips of the solved ones, the share that propagation alone solved, and seconds.

It also runs a hard 25x25 case (a random grid cut to 45% givens) under a 2 s time limit and
reports how long the solver took to come back with "time limit reached".

    .venv/bin/python benchmarks/local_search_givens.py            # writes results/local_search_givens.md
    .venv/bin/python benchmarks/local_search_givens.py --puzzles 5 --out -   # a quick look, on stdout
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

from harness import RESULTS, command_line, machine, write_results

from sudokulab import Shape, is_solution, solvers
from sudokulab.generation.puzzles import random_grid, remove_clues
from sudokulab.solvers.base import Status


def puzzles(givens: int, count: int, seed: int) -> list:
    """``count`` 9x9 puzzles of ``givens`` givens, each cut from its own random grid (seeded)."""
    shape = Shape(3, 3)
    made = []
    for k in range(count):
        rng = random.Random(f"{seed} {givens} {k}")
        made.append(remove_clues(random_grid(shape, rng), shape, givens, rng))
    return made


CONFIGS = {
    "repair (the default: decisions, propagation after every move, tabu, restarts)": {"method": "repair"},
    "annealing": {"method": "annealing"},
    "annealing, no propagation (Lewis's own)": {"method": "annealing", "propagate": False},
    "min-conflicts": {"method": "min-conflicts"},
    "min-conflicts, no propagation": {"method": "min-conflicts", "propagate": False},
}
"""The option sets measured, by the name each row group is shown under."""


def row(options: dict, givens: int, count: int, seed: int, flips: int) -> dict:
    solver = solvers.get("local-search", max_flips=flips, **options)
    solved, used, by_propagation, started = 0, [], 0, time.perf_counter()
    for puzzle in puzzles(givens, count, seed):
        result = solver.solve(puzzle)
        if result.status is Status.SOLVED:
            assert is_solution(result.grid, puzzle)
            solved += 1
            used.append(result.stats["flips"])
            by_propagation += result.stats["free_cells"] == 0
        else:
            assert result.status is Status.TIME_LIMIT, result
    return {"givens": givens, "solved": solved, "count": count, "propagation": by_propagation,
            "median": statistics.median(used) if used else None, "seconds": time.perf_counter() - started}


def hard_25(seed: int) -> tuple[str, float, dict]:
    shape = Shape(5, 5)
    rng = random.Random(f"{seed} 25x25")
    puzzle = remove_clues(random_grid(shape, rng), shape, round(0.45 * shape.cells), rng)
    solver = solvers.get("local-search")
    started = time.perf_counter()
    result = solver.solve(puzzle, time_limit=2.0)
    return result.status.value, time.perf_counter() - started, dict(result.stats)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzzles", type=int, default=20, help="puzzles per number of givens")
    parser.add_argument("--flips", type=int, default=50_000, help="the flip budget of each solve")
    parser.add_argument("--givens", default="0,8,16,20,24,28,32,36,40,44,48,56",
                        help="numbers of givens, comma separated")
    parser.add_argument("--seed", type=int, default=2007)
    parser.add_argument("--out", default="local_search_givens.md", help="the results file's name ('-': stdout)")
    parser.add_argument("--out-dir", type=Path, default=RESULTS, help="where it goes (default: results/)")
    args = parser.parse_args()
    counts = [int(g) for g in args.givens.split(",")]
    measured_on = machine()
    lines = [
        f"{args.puzzles} puzzles per row, each a random "
        f"grid (`random_grid`) cut to the number of givens at random (`remove_clues`, no uniqueness), seed "
        f"{args.seed}; flip budget {args.flips:,} per solve; default options otherwise (seed 2580).",
        "'by propagation' counts the puzzles that propagation alone solved (no flips); 'median flips' is over",
        "the solved puzzles. Seconds are wall time on a shared 2-core machine: a rough guide only.",
        "",
    ]
    for name, options in CONFIGS.items():
        lines += [f"## {name}", "", "| givens | % of cells | solved | by propagation | median flips | seconds |",
                  "|---:|---:|---:|---:|---:|---:|"]
        for givens in counts:
            r = row(options, givens, args.puzzles, args.seed, args.flips)
            median = "-" if r["median"] is None else f"{r['median']:,.0f}"
            lines.append(f"| {givens} | {givens / 81:.0%} | {r['solved']}/{r['count']} | {r['propagation']} | "
                         f"{median} | {r['seconds']:.1f} |")
            print(lines[-1], file=sys.stderr, flush=True)
        lines.append("")
    status, seconds, stats = hard_25(args.seed)
    lines += ["## A hard 25x25 under a 2 s time limit", "",
              f"A random 25x25 grid cut to 45% givens, `local-search` defaults, `time_limit=2`: '{status}' "
              f"after {seconds:.2f} s ({stats.get('flips', 0):,} flips, best cost {stats.get('best_cost')}, "
              f"{stats.get('free_cells')} cells left after propagation).", ""]
    text = "\n".join(lines)
    if args.out == "-":
        print(text)
        return
    written = write_results(args.out, "Local search against the number of givens (9x9)", text,
                            how=f"Made by `{command_line()}`.", measured_on=measured_on, folder=args.out_dir)
    print(f"wrote {written}", file=sys.stderr)


if __name__ == "__main__":
    main()
