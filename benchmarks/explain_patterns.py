"""Fallback steps left in explanations: how many steps are "contradiction" or "search" on the first
puzzles of a set, and which techniques the explanations use.

Issue 35 counts trial and error in ``explain``'s output. Run it on two trees (before and after a
change) with each one's ``src`` first on the path, premises not minimised (the same steps, faster):

    PYTHONPATH=OLD/src python benchmarks/explain_patterns.py --label before
    PYTHONPATH=src python benchmarks/explain_patterns.py --label after

It prints markdown: one summary row, then the steps per technique. The set defaults to the first 30
puzzles of ``magictour_top1465`` as the catalogue finds it (the whole set where this machine has it,
else the shipped slice: the same first puzzles either way); ``--data FILE`` reads another file.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from harness import dataset, timer

from sudokulab.datasets.reading import Dataset
from sudokulab.reasoning.explain import explain

FALLBACKS = ("contradiction", "search")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, help="a set's file (default: the catalogue's magictour_top1465)")
    parser.add_argument("--puzzles", type=int, default=30)
    parser.add_argument("--label", default="this tree")
    args = parser.parse_args()
    path = args.data or dataset("magictour_top1465", args.puzzles)
    if path is None:
        sys.exit(2)
    techniques: Counter[str] = Counter()
    steps = fallback = clean = 0
    with timer() as took:
        for entry in Dataset.from_path(path, limit=args.puzzles).entries():
            explanation = explain(entry.puzzle, minimal=False)
            techniques.update(step.technique for step in explanation.steps)
            used = sum(step.technique in FALLBACKS for step in explanation.steps)
            steps += len(explanation.steps)
            fallback += used
            clean += used == 0
    seconds = took[0].cpu
    print("| tree | puzzles | steps | contradiction | search | fallback share | puzzles with no fallback | CPU s |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    print(f"| {args.label} | {args.puzzles} | {steps} | {techniques['contradiction']} | {techniques['search']} | "
          f"{fallback / steps:.1%} | {clean} | {seconds:.1f} |")
    print()
    print(", ".join(f"{name} {count}" for name, count in techniques.most_common()))


if __name__ == "__main__":
    main()
