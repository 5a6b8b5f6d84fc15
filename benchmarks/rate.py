"""Difficulty ratings of the shipped sets: their distribution and how fast puzzles are rated.

For each set, a uniform random sample of K puzzles (``rating.chosen_entries``, seed S) is rated one
after another in one process (``rating.rate``: the ``explain`` engine without premise
minimisation); the table gives the median, quartiles and maximum of the rating, the share of the
sample per hardest technique, and puzzles rated per second (time spent rating only, not reading
the file). Also the time to explain ``examples/no-solution.txt`` (``conflicts.why_no_solution``).

    .venv/bin/python benchmarks/rate.py --sample 100 --out benchmarks/results/rate.md
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

from harness import ROOT, machine, repeat, timer, whole_set

from sudokulab import Puzzle, solvers
from sudokulab.datasets.reading import Dataset
from sudokulab.formats.boj import load_puzzle
from sudokulab.reasoning.conflicts import why_no_solution
from sudokulab.reasoning.rating import Distribution, chosen_entries, rate_entries

SETS = ("17_clue", "magictour_top1465", "forum_hardest_1905_11plus")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, help="folder of the whole sets (default: where this machine has them)")
    parser.add_argument("--sample", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    lines = [f"Ratings of uniform random samples of {args.sample} puzzles per set (seed {args.seed}), rated one "
             f"after another in one process. Measured: {machine()}. Rating = the hardest step's difficulty on "
             f"Sudoku Explainer's scale (docs/rating.md). Puzzles per second count the time spent "
             f"explaining only.", "",
             "| set | rated | median | quartiles | max | puzzles/s | hardest techniques (share of the sample) |",
             "| --- | ---: | ---: | ---: | ---: | ---: | --- |"]
    for name in SETS:
        path = whole_set(name, args.data)
        if path is None:  # a sample of the whole set: a slice would not do
            print(f"rate.py: the whole {name} set is not {f'in {args.data}' if args.data else 'on this machine'}: "
                  "give --data FOLDER", file=sys.stderr)
            return 2
        rows = list(rate_entries(name, chosen_entries(Dataset.from_path(path), args.sample, args.seed)))
        dist = Distribution.of(name, rows)
        shares = ", ".join(f"{technique} {count / dist.rated:.0%}" for technique, _, count in dist.techniques)
        lines.append(f"| {name} | {dist.rated} | {dist.median:.2f} | {dist.q1:.2f} .. {dist.q3:.2f} | "
                     f"{dist.max:.2f} | {dist.per_second:.1f} | {shares} |")
        print(lines[-1], file=sys.stderr)
    puzzle = load_puzzle(ROOT / "examples" / "no-solution.txt")
    conflicts = []
    times = repeat(lambda: conflicts.append(why_no_solution(puzzle)), 5)
    conflict = conflicts[-1]
    median_ms = statistics.median(took.wall for took in times) * 1e3
    lines += ["", f"`examples/no-solution.txt` explained (`why_no_solution`: OptUx smallest conflicting givens, "
              f"deletion over the rule groups, RC2 smallest removal) in a median {median_ms:.0f} ms over 5 runs: "
              f"{len(conflict.givens)} givens, {len(conflict.groups)} groups, "
              f"{len(conflict.removal)} given(s) to remove."]
    lines += ["", _sixteen()]
    text = "\n".join(lines) + "\n"
    if args.out:
        args.out.write_text(text)
    sys.stdout.write(text)
    return 0


def _sixteen() -> str:
    """A 16x16 conflict (``examples/16x16.txt`` with one blank given a wrong digit, seed 3): both modes timed."""
    rng = random.Random(3)
    puzzle = load_puzzle(ROOT / "examples" / "16x16.txt")
    n = puzzle.n
    with solvers.get("sat") as sat:
        solution = sat.solve(puzzle).grid
        while True:
            givens = list(puzzle.givens)
            cell = rng.choice([c for c in range(n * n) if not givens[c]])
            givens[cell] = rng.choice([d for d in range(1, n + 1) if d != solution[cell]
                                       and all(givens[peer] != d for peer in puzzle.rules.peers[cell])])
            broken = Puzzle(puzzle.shape, tuple(givens), puzzle.rules)
            if not sat.solve(broken).solved:
                break
    found = {}
    for smallest in (True, False):
        with timer() as took:
            conflict = why_no_solution(broken, smallest=smallest)
        found[smallest] = (took[0].wall, len(conflict.givens))
    return (f"A 16x16 conflict ({sum(map(bool, broken.givens))} givens, one of them wrong): smallest conflicting "
            f"givens (OptUx) {found[True][1]} in {found[True][0]:.2f} s; minimal by deletion {found[False][1]} in "
            f"{found[False][0]:.2f} s (so `why_no_solution` looks for the smallest only up to 9x9 by default).")


if __name__ == "__main__":
    sys.exit(main())
