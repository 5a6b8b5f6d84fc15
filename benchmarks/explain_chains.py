"""Issue 35, chains: how many contradiction and search steps explanations need, per puzzle.

For each of the first N puzzles of a shipped slice (``src/sudokulab/datasets/slices/``), runs
``explain(puzzle, minimal=False)`` (the rating path: the same steps as the default, premises not
minimised), certifies every step with ``check_step``, and prints one line per puzzle: seconds,
steps, contradiction and search steps, the first step that is not a single, and how many steps
failed their certificate (always 0), then the count of every technique. Run it on a tree before and
after a change to compare (results/explain-chains.md):

    PYTHONPATH=src .venv/bin/python benchmarks/explain_chains.py src/sudokulab/datasets/slices/magictour_top1465.txt 30
"""

from __future__ import annotations

import collections
import sys
import time

from sudokulab import parse_puzzle
from sudokulab.reasoning.explain import explain
from sudokulab.reasoning.step_check import check_step


def main(path: str, first: int) -> None:
    lines = [line.strip() for line in open(path) if line.strip() and not line.startswith("#")][:first]
    total: collections.Counter = collections.Counter()
    for number, line in enumerate(lines, 1):
        puzzle = parse_puzzle(line[:81])
        start = time.time()
        found = explain(puzzle, minimal=False)
        seconds = time.time() - start
        counts = collections.Counter(step.technique for step in found.steps)
        total.update(counts)
        bad = sum(not check_step(puzzle, step) for step in found.steps)
        first_other = next((s.technique for s in found.steps if "single" not in s.technique), None)
        print(number, f"{seconds:.1f}s", len(found.steps), "contra", counts["contradiction"], "search",
              counts["search"], "first", first_other, "BAD", bad, found.stopped, flush=True)
    print(total)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
