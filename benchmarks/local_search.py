"""Local search as the literature does it (issue 47): ``local-search`` on unique variants and hard 9x9 puzzles.

1. **Every rule kind**: 14 unique 9x9 puzzles, two per preset (x, windoku, anti-knight, anti-king,
   jigsaw, killer, thermo): the published ones of ``tests/fixtures/variants`` and
   ``examples/fpuzzles-killer.json``, the rest made by ``sudokulab.generation.puzzles.generate`` with one
   solution and fixed seeds (anti-king has no published puzzle here; the second jigsaw uses Janko's
   regions, the second thermo the UK 2022 thermometers). Each method gets ``--variant-limit`` (20 s)
   per puzzle; every grid is checked against the published or ``sat``'s one solution.
2. **Hard 9x9**: a ``--hard`` (50) puzzle sample of ``forum_hardest_1106`` (seeded), the default method
   with ``--hard-limit`` (60 s) a puzzle, the two full-board methods with ``--other-limit`` (10 s).

Success against the number of givens (random 9x9 puzzles, 0 to 56 givens, each method with a fixed
move budget) is ``local_search_givens.py``'s (``results/local_search_givens.md``).

    .venv/bin/python benchmarks/local_search.py                      # writes results/local-search.md
    .venv/bin/python benchmarks/local_search.py --hard 5 --methods repair --out -   # a quick look
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

from every_paradigm import variant_file
from harness import RESULTS, ROOT, command_line, dataset, machine, write_results

from sudokulab import Puzzle, Shape, Status, is_solution, solvers
from sudokulab.core.rules import build
from sudokulab.datasets.reading import Dataset
from sudokulab.generation.puzzles import generate

METHODS = ("repair", "annealing", "min-conflicts")
FIXTURES = ROOT / "tests" / "fixtures" / "variants"


def unique_variants() -> list[tuple[str, str, Puzzle]]:
    """(name, preset, puzzle): 14 unique 9x9 puzzles, two per preset (module docstring)."""
    published = {path.stem: variant_file(path) for path in sorted(FIXTURES.glob("*.json"))}
    nine = Shape(3, 3)
    found = [
        ("x_sudopedia", "x", published["x_sudopedia"]),
        ("windoku_hypersudoku", "windoku", published["windoku_hypersudoku"]),
        ("anti_knight_funwithpuzzles", "anti-knight", published["anti_knight_funwithpuzzles"]),
        ("jigsaw_janko_108", "jigsaw", published["jigsaw_janko_108"]),
        ("killer_wikipedia", "killer", published["killer_wikipedia"]),
        ("fpuzzles-killer (examples)", "killer", variant_file(ROOT / "examples" / "fpuzzles-killer.json")),
        ("thermo_uk_2022", "thermo", published["thermo_uk_2022"]),
    ]
    made = [("x", build(nine, ["x"]), 1), ("windoku", build(nine, ["windoku"]), 2),
            ("anti-knight", build(nine, ["anti-knight"]), 3), ("anti-king", build(nine, ["anti-king"]), 4),
            ("anti-king", build(nine, ["anti-king"]), 5), ("jigsaw", published["jigsaw_janko_108"].rules, 6),
            ("thermo", published["thermo_uk_2022"].rules, 7)]
    for preset, rules, seed in made:
        (one,) = generate(nine, 1, clues=20, unique=True, seed=47_000 + seed, rules=rules)
        found.append((f"{preset} (generated, seed {47_000 + seed})", preset, one.puzzle))
    return sorted(found, key=lambda item: ("x", "windoku", "anti-knight", "anti-king", "jigsaw", "killer",
                                           "thermo").index(item[1]))


def hard_sample(count: int, seed: int = 47) -> list[Puzzle]:
    """``count`` puzzles of forum_hardest_1106 drawn with ``seed`` (the whole set, or its shipped slice)."""
    path = dataset("forum_hardest_1106", count)
    entries = [] if path is None else [entry.puzzle for entry in Dataset.from_path(path).entries()]
    return random.Random(seed).sample(entries, min(count, len(entries)))


def attempt(method: str, puzzle: Puzzle, limit: float, truth: tuple[int, ...] | None) -> dict:
    solver = solvers.get("local-search", method=method)
    started = time.perf_counter()
    result = solver.solve(puzzle, time_limit=limit)
    took = time.perf_counter() - started
    solved = result.status is Status.SOLVED
    if solved:
        assert is_solution(result.grid, puzzle) and (truth is None or result.grid == truth), (method, puzzle)
    else:
        assert result.status is Status.TIME_LIMIT, result  # never "no solution" on these
    return {"solved": solved, "seconds": took, "flips": result.stats.get("flips", 0),
            "restarts": result.stats.get("restarts", 0)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--methods", default=",".join(METHODS))
    parser.add_argument("--variant-limit", type=float, default=20.0)
    parser.add_argument("--hard", type=int, default=50)
    parser.add_argument("--hard-limit", type=float, default=60.0)
    parser.add_argument("--other-limit", type=float, default=10.0, help="per hard puzzle, annealing and min-conflicts")
    parser.add_argument("--out", default="local-search.md", help="the results file's name ('-': stdout)")
    parser.add_argument("--out-dir", type=Path, default=RESULTS, help="where it goes (default: results/)")
    args = parser.parse_args()
    methods = args.methods.split(",")
    measured_on = machine()
    began = time.perf_counter()
    sat = solvers.get("sat")
    variants = unique_variants()
    lines = ["`local-search` defaults (seed 2580) but the method; wall time of `solve(puzzle, time_limit=...)` on "
             "a shared machine (other work running).",
             "`repair` is decision repair with propagation after every move, tabu and restarts (the default);",
             "`annealing` (Lewis 2007) and `min-conflicts` work on full boards of box permutations.", ""]
    lines += [f"## 1. Every rule kind: 14 unique 9x9 puzzles, {args.variant_limit:g} s each", "",
              "| puzzle | rules | givens | " + " | ".join(methods) + " |",
              "| --- | --- | ---: |" + " --- |" * len(methods)]
    totals = dict.fromkeys(methods, 0)
    for name, preset, puzzle in variants:
        truth = sat.solve(puzzle).grid
        assert sat.count(puzzle, limit=2).count == 1, name
        cells = []
        for method in methods:
            got = attempt(method, puzzle, args.variant_limit, truth)
            totals[method] += got["solved"]
            cells.append(f"{got['seconds']:.2f} s, {got['flips']:,} moves" if got["solved"] else
                         f"not within {args.variant_limit:g} s")
            print(f"{name} {method}: {cells[-1]}", file=sys.stderr)
        lines.append(f"| {name} | {preset} | {puzzle.shape.cells - puzzle.blanks} | " + " | ".join(cells) + " |")
    lines += ["| **solved** | | | " + " | ".join(f"**{totals[m]} of {len(variants)}**" for m in methods) + " |", ""]
    hard = hard_sample(args.hard)
    lines += [f"## 2. Hard 9x9: {len(hard)} puzzles of forum_hardest_1106 (a seeded sample)", "",
              "| method | limit a puzzle | solved | median s | 90th percentile s | max s | median moves | restarts |",
              "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for method in methods:
        limit = args.hard_limit if method == "repair" else args.other_limit
        runs = [attempt(method, puzzle, limit, None) for puzzle in hard]
        solved = [run for run in runs if run["solved"]]
        seconds = sorted(run["seconds"] for run in solved) or [float("nan")]
        print(f"hard {method}: {len(solved)} of {len(runs)}", file=sys.stderr)
        lines.append(f"| {method} | {limit:g} s | {len(solved)} of {len(runs)} | {statistics.median(seconds):.2f} | "
                     f"{seconds[int(0.9 * (len(seconds) - 1))]:.2f} | {seconds[-1]:.2f} | "
                     f"{statistics.median(run['flips'] for run in solved) if solved else 0:,.0f} | "
                     f"{sum(run['restarts'] for run in runs):,} |")
    lines += ["", f"{time.perf_counter() - began:.0f} s in all.", ""]
    text = "\n".join(lines)
    if args.out == "-":
        print(text)
        return
    written = write_results(args.out, "Local search: every rule kind and hard 9x9 puzzles", text,
                            how=f"Made by `{command_line()}`.", measured_on=measured_on, folder=args.out_dir)
    print(f"wrote {written}", file=sys.stderr)


if __name__ == "__main__":
    main()
