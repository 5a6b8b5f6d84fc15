"""``explain``: seconds for a full explanation, with and without premise minimisation.

Issue 23 asks for a full explanation of the BOJ sample in under a second and of a 17-clue puzzle
in a few seconds (median over 100). Timed here, per puzzle, ``explain.explain(puzzle)`` (premises
minimised with SAT, the default) and ``explain.explain(puzzle, minimal=False)`` (the rating path),
on parsed puzzles (reading files excluded), both wall and CPU seconds of this process (on a shared
machine the CPU figure is the steadier one). The checker's SAT solver is built once per rule set and
shared by every puzzle of it, as in a command's run; its build is timed apart. Sets:

- ``sample``: ``examples/boj2580-sample.txt``, ``--rounds`` times;
- ``17_clue``: the first ``--puzzles`` puzzles of ``17_clue`` (found by the catalogue, or in ``--data DIR``);
- ``magictour_top1465``: its first ``--hard`` puzzles (hard ones, to show where the time goes).

    .venv/bin/python benchmarks/explain.py                    # writes results/explain.md
    .venv/bin/python benchmarks/explain.py --puzzles 20 --out -   # a quick look
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from pathlib import Path

from harness import RESULTS, ROOT, command_line, dataset, load, machine, timer, write_results

from sudokulab.core.puzzle import is_solution
from sudokulab.datasets.reading import load_puzzles
from sudokulab.formats.boj import parse_puzzle
from sudokulab.reasoning.explain import explain
from sudokulab.reasoning.step_check import checker


def timed(puzzles, minimal: bool) -> tuple[list[float], list[float], Counter]:
    walls, cpus, techniques = [], [], Counter()
    for puzzle in puzzles:
        with timer() as took:
            explanation = explain(puzzle, minimal=minimal)
        walls.append(took[0].wall)
        cpus.append(took[0].cpu)
        assert explanation.grid is not None and is_solution(explanation.grid, puzzle), explanation.stopped
        techniques.update(step.technique for step in explanation.steps)
    return walls, cpus, techniques


def row(name: str, count: int, minimal: bool, walls: list[float], cpus: list[float]) -> str:
    return (f"| {name} | {count} | {'yes' if minimal else 'no'} | {statistics.median(walls):.3f} | "
            f"{statistics.median(cpus):.3f} | {max(walls):.3f} | {sum(cpus):.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, help="folder of the sets (default: the catalogue's)")
    parser.add_argument("--puzzles", type=int, default=100, help="17-clue puzzles (default 100)")
    parser.add_argument("--hard", type=int, default=20, help="magictour_top1465 puzzles (default 20)")
    parser.add_argument("--rounds", type=int, default=5, help="runs of the BOJ sample (default 5)")
    parser.add_argument("--out", default=str(RESULTS / "explain.md"), help="report file, or - for stdout")
    args = parser.parse_args()

    measured_on = machine()
    sample = parse_puzzle((ROOT / "examples" / "boj2580-sample.txt").read_text())
    with timer() as took:
        checker(sample.rules)
    build = took[0].wall
    sets = [("BOJ sample", [sample] * args.rounds)]
    for name, count in (("17_clue", args.puzzles), ("magictour_top1465", args.hard)):
        path = dataset(name, count, args.data)
        if path is None:
            continue
        sets.append((name, list(load_puzzles(str(path), limit=count))))
    lines = []
    mix: dict[str, Counter] = {}
    for name, puzzles in sets:
        for minimal in (True, False):
            walls, cpus, techniques = timed(puzzles, minimal)
            lines.append(row(name, len(puzzles), minimal, walls, cpus))
            mix[name] = techniques
            print(lines[-1], file=sys.stderr)
    report = [
        f"A machine shared with other work: load average {load():.1f} at the end (`os.getloadavg`, as `uptime`). "
        "Puzzles parsed beforehand; the SAT checker of the rule set built once "
        f"({build * 1000:.0f} ms, not in the figures). Median and max per puzzle; CPU is this process's.",
        "",
        "| set | puzzles | minimised | median wall s | median CPU s | max wall s | total CPU s |",
        "|---|---:|---|---:|---:|---:|---:|",
        *lines,
        "",
        "Steps by technique (the same with or without minimising):",
        "",
        *[f"- {name}: " + ", ".join(f"{t} {c}" for t, c in mix[name].most_common()) for name, _ in sets],
        "",
    ]
    text = "\n".join(report)
    if args.out == "-":
        print(text)
        return
    out = Path(args.out)
    written = write_results(out.name, "explain: seconds for a full explanation", text,
                            how=f"Made by `{command_line()}`.", measured_on=measured_on, folder=out.parent)
    print(f"wrote {written}", file=sys.stderr)


if __name__ == "__main__":
    main()
