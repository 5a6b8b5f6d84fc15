"""Issue 35, chains: how many contradiction and search steps explanations need, per puzzle.

For the chosen puzzles of a set (one puzzle a line), runs ``explain(puzzle, minimal=False)`` (the
rating path: the same steps as the default, premises not minimised), certifies every step with
``check_step``, and prints one line per puzzle: seconds, steps, contradiction and search steps, the
first step that is not a single, and how many steps failed their certificate (always 0); then the
totals: the share of contradiction and search steps, the puzzles explained with named techniques
alone, the count of every technique, and of each first non-single technique (``--first-step``: only
that, each puzzle followed through its singles to that step). ``--every 14`` takes
lines 1, 15, 29, ... (issue 35's magictour selection); ``--jobs N`` explains on N processes (the
results do not depend on it, only the wall time). Run it on a tree before and after a change to
compare (results/explain-chains.md; DATA is where the whole sets are, /work/shared/data here):

    PYTHONPATH=src python benchmarks/explain_chains.py DATA/magictour_top1465.txt --every 14 --count 100 --jobs 2
    PYTHONPATH=src python benchmarks/explain_chains.py DATA/forum_hardest_1106.txt --first-step --jobs 2
"""

from __future__ import annotations

import argparse
import collections
import multiprocessing

from harness import machine, timer

from sudokulab import parse_puzzle
from sudokulab.reasoning.board import Board
from sudokulab.reasoning.explain import explain, next_step
from sudokulab.reasoning.step_check import check_step, checker

TRIAL = ("contradiction", "search")
"""The techniques issue 35 counts as trial and error."""


def explained(item: tuple[int, str]) -> dict:
    """One puzzle explained and every step certified: what the summary needs."""
    line, text = item
    puzzle = parse_puzzle(text[:81])
    with timer() as took:
        found = explain(puzzle, minimal=False)
    seconds = took[0].wall
    first = next((s.technique for s in found.steps if "single" not in s.technique), None)
    return {"line": line, "seconds": seconds, "steps": [s.technique for s in found.steps], "first": first,
            "hardest": max((s.difficulty for s in found.steps), default=0.0), "stopped": found.stopped,
            "dynamic contradictions": sum(s.technique == "dynamic forcing chain" and "contradiction" in s.text
                                          for s in found.steps),
            "bad": sum(not check_step(puzzle, s) for s in found.steps)}


def first_step(item: tuple[int, str]) -> dict:
    """One puzzle followed through its singles to its first other step, that step certified."""
    line, text = item
    puzzle = parse_puzzle(text[:81])
    with timer() as took:
        board, check = Board.start(puzzle), checker(puzzle.rules)
        steps = []
        while not board.solved:
            step = next_step(board, check, minimal=False)
            if step is None:
                break
            steps.append(step)
            if "single" not in step.technique:
                break
            board.apply(step)
    other = steps[-1] if steps and "single" not in steps[-1].technique else None
    return {"line": line, "seconds": took[0].wall, "steps": [s.technique for s in steps],
            "first": other and other.technique, "hardest": other.difficulty if other else 0.0, "stopped": None,
            "dynamic contradictions": 0, "bad": sum(not check_step(puzzle, s) for s in steps)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path")
    parser.add_argument("--every", type=int, default=1, help="take every k-th puzzle, from the first")
    parser.add_argument("--count", type=int, help="at most this many puzzles")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--first-step", action="store_true",
                        help="follow each puzzle only to its first step that is not a single")
    args = parser.parse_args()
    lines = [(number, line.strip()) for number, line in enumerate(open(args.path), 1)
             if line.strip() and not line.startswith("#")]
    chosen = lines[::args.every][:args.count]
    print(f"{args.path}: {len(chosen)} puzzles (every {args.every}), {args.jobs} jobs; measured: {machine()}",
          flush=True)
    total: collections.Counter = collections.Counter()
    firsts: collections.Counter = collections.Counter()
    clean = bad = dynamic = 0
    seconds = []
    with timer() as whole, multiprocessing.Pool(args.jobs) as pool:
        for row in pool.imap(first_step if args.first_step else explained, chosen):
            counts = collections.Counter(row["steps"])
            total.update(counts)
            firsts[row["first"]] += 1
            clean += not any(counts[t] for t in TRIAL)
            bad += row["bad"]
            dynamic += row["dynamic contradictions"]
            seconds.append(row["seconds"])
            print(row["line"], f"{row['seconds']:.1f}s", len(row["steps"]), "contra", counts["contradiction"],
                  "search", counts["search"], "first", row["first"], "hardest", f"{row['hardest']:.1f}",
                  "BAD", row["bad"], row["stopped"] or "", flush=True)
    steps = sum(total.values())
    trial = sum(total[t] for t in TRIAL)
    seconds.sort()
    print(f"steps {steps}, contradiction {total['contradiction']}, search {total['search']}, "
          f"share {trial / steps:.2%}; named techniques alone {clean}/{len(chosen)}; certificate failures {bad}; "
          f"dynamic forcing chains ending in a contradiction {dynamic}")
    print(f"seconds: total {sum(seconds):.0f}, median {seconds[len(seconds) // 2]:.1f}, max {seconds[-1]:.1f}; "
          f"wall {whole[0].wall:.0f}")
    print("first non-single step:", dict(firsts.most_common()))
    print("techniques:", dict(total.most_common()))


if __name__ == "__main__":
    main()
