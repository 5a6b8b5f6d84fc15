"""Benchmark of the exact-cover paradigm: ``dlx``'s two formulations, then ``dlx`` beside ``backtrack-fast``.

Both parts run ``sudokulab.bench.run_bench`` with ``by_solver=True`` (one solver over a whole set
at a time, one process), so each figure is the whole path per puzzle: read and parse the line,
solve, check the answer with the independent checker. Rates are given by wall time and by the
process's CPU time; on a machine shared with other work the CPU figure is the steadier one.

1. ``structure``: ``links`` against ``sets`` on the first 2,000 puzzles of 17_clue, all 375 of
   forum_hardest_1106 and the first 500 of magictour_top1465, in the order links, sets, sets,
   links (so a drift in the machine's load hits both alike), summed over both rounds;
2. ``dlx`` (its default) beside ``backtrack-fast`` on all of forum_hardest_1106, in one run.

Example (about two minutes)::

    .venv/bin/python benchmarks/bench_dlx.py --out benchmarks/results/dlx.md
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from sudokulab.bench import run_bench
from sudokulab.datasets import Dataset
from sudokulab.solvers.dlx import STRUCTURES

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = ROOT.parent / "shared" / "data"
STRUCTURE_SETS = (("17_clue.txt", 2000), ("forum_hardest_1106.txt", None), ("magictour_top1465.txt", 500))
HARDEST = "forum_hardest_1106.txt"


def table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "| --- |" + " ---: |" * (len(header) - 1)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def compare_structures(data: Path, time_limit: float) -> tuple[str, int]:
    """Part 1: the markdown table of links against sets, and how many puzzles went unsolved."""
    totals: dict[tuple[str, str], list[float]] = {}  # (set, structure) -> puzzles, wall, cpu, nodes, updates
    unsolved = 0
    for structure in (*STRUCTURES, *reversed(STRUCTURES)):
        datasets = [Dataset.from_path(data / name, limit=limit) for name, limit in STRUCTURE_SETS]
        report = run_bench(datasets, ["dlx"], time_limit=time_limit, options={"dlx": {"structure": structure}},
                           by_solver=True, progress=False)
        for s in report.summaries:
            unsolved += s.puzzles - s.solved
            sums = totals.setdefault((s.dataset, structure), [0, 0.0, 0.0, 0.0, 0.0])
            for i, value in enumerate((s.puzzles, s.seconds, s.cpu_seconds, s.means.get("nodes", 0) * s.puzzles,
                                       s.means.get("updates", 0) * s.puzzles)):
                sums[i] += value
    rows = []
    for name, limit in STRUCTURE_SETS:
        dataset = Path(name).stem
        cpu = {}
        for structure in STRUCTURES:
            puzzles, wall, cpu_seconds, nodes, updates = totals[(dataset, structure)]
            cpu[structure] = puzzles / cpu_seconds
            rows.append([dataset, "all" if limit is None else f"first {limit}", structure, f"{int(puzzles)}",
                         f"{puzzles / wall:,.1f}", f"{cpu[structure]:,.1f}", f"{nodes / puzzles:,.0f}",
                         f"{updates / puzzles:,.0f}"])
        rows[-2].append("")
        rows[-1].append(f"{cpu['links'] / cpu['sets']:.2f}x")
    header = ["set", "puzzles", "structure", "runs (2 rounds)", "wall /s", "CPU /s", "nodes/puzzle",
              "updates/puzzle", "links/sets (CPU /s)"]
    return table(header, rows), unsolved


def beside_backtrack_fast(data: Path, time_limit: float) -> tuple[str, int]:
    """Part 2: dlx and backtrack-fast on the whole of forum_hardest_1106, one run."""
    report = run_bench([data / HARDEST], ["backtrack-fast", "dlx"], time_limit=time_limit, by_solver=True,
                       progress=False)
    rows = [[s.solver, s.puzzles, s.solved, s.timed_out, s.wrong, f"{s.per_second:,.1f}",
             f"{s.per_cpu_second:,.1f}", f"{s.means.get('nodes', 0):,.0f}"] for s in report.summaries]
    text = table(["solver", "puzzles", "solved", "timed out", "wrong", "wall /s", "CPU /s", "nodes/puzzle"], rows)
    unsolved = sum(s.puzzles - s.solved for s in report.summaries)
    return f"{text}\n\nMeasured: {report.how_measured()}.", unsolved


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help=f"the shared sets (default: {DEFAULT_DATA})")
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds a puzzle, a safety net (default: 60)")
    parser.add_argument("--out", type=Path, help="also write the report as markdown to this file")
    args = parser.parse_args(argv)
    missing = [name for name, _ in STRUCTURE_SETS if not (args.data / name).is_file()]
    if missing:
        print(f"missing in {args.data}: {', '.join(missing)}; nothing measured")
        return 0
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    intro = (f"Python {platform.python_version()} ({platform.python_implementation()}), {os.cpu_count()} cores, "
             f"load average at start {os.getloadavg()[0]:.2f}, at commit {commit.stdout.strip() or '?'} "
             "(plus uncommitted work). Whole path per puzzle (parse, solve, check), one process.")
    print(intro, flush=True)
    structures, unsolved_1 = compare_structures(args.data, args.time_limit)
    print(structures, flush=True)
    beside, unsolved_2 = beside_backtrack_fast(args.data, args.time_limit)
    print(beside, flush=True)
    report = "\n".join([
        "# Exact cover (Algorithm X): `dlx`", "",
        "`" + " ".join(["bench_dlx.py", *(sys.argv[1:] if argv is None else argv)]) + "`", "",
        intro, "",
        "## The two formulations (`structure`)", "",
        "`run_bench(..., [\"dlx\"], options={\"dlx\": {\"structure\": ...}}, by_solver=True)`, in the order "
        "links, sets, sets, links; each row sums both of its rounds.", "",
        structures, "",
        "## `dlx` beside `backtrack-fast` on forum_hardest_1106", "",
        f"`run_bench([{HARDEST}], [\"backtrack-fast\", \"dlx\"], time_limit={args.time_limit:g}, by_solver=True)`.",
        "",
        beside, "",
        f"Load average at end {os.getloadavg()[0]:.2f}.",
    ]) + "\n"
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(report)
    return 1 if unsolved_1 or unsolved_2 else 0


if __name__ == "__main__":
    sys.exit(main())
