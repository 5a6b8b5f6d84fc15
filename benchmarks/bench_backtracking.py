"""Benchmark of the hand-written paradigm: ``backtrack-fast`` beside ``backtrack`` and Norvig's figures.

What it measures, each on the whole path per puzzle (parse the 81-character line with
``parse_puzzle``, solve, check with ``is_solution``), in one process and one run:

1. ``backtrack-fast`` over each set (its first ``--limit`` puzzles, default all): puzzles/s and
   guesses (nodes) per puzzle, and the ratio to the figure of Peter Norvig's published Python
   constraint-propagation solver on the same set, as ``../shared/data/README.md`` gives it for
   this machine kind (2 cores, CPython 3.11, whole set, one process);
2. ``backtrack`` (the classic BOJ 2580 search) and ``backtrack-fast`` side by side on the first
   ``--classic-limit`` puzzles of each set, interleaved puzzle by puzzle so that a change in the
   machine's load hits both alike. The classic search can take 30 s on one puzzle, so it runs
   under ``--classic-time-limit`` seconds a puzzle; a puzzle that runs out is charged that time
   and counted as a timeout, so its rate is an upper bound and the fast/classic ratio a lower one.

Rates are given by wall time and by this process's CPU time: on a shared machine the CPU figure is
the steadier one. Datasets default to the sets of ``../shared/data`` beside the repository that
have a Norvig figure; a missing set is skipped with a note. Example (about 10 minutes)::

    .venv/bin/python benchmarks/bench_backtracking.py --out benchmarks/results/backtracking.md

A quick look: ``--limit 300 --classic-limit 10``.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from sudokulab import Status, is_solution, parse_puzzle, solvers
from sudokulab.datasets import puzzle_lines

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = ROOT.parent / "shared" / "data"
NORVIG = {
    "magictour_top1465.txt": 172,
    "forum_hardest_1106.txt": 39,
    "17_clue.txt": 338,
    "forum_hardest_1905_11plus.txt": 43,
}
"""Puzzles/s of Norvig's solver, whole set, this machine kind: the table in ../shared/data/README.md."""
FAST, CLASSIC = "backtrack-fast", "backtrack"


@dataclass
class Tally:
    """What one solver did over a list of puzzles; seconds are summed over the puzzles."""

    solver: str
    puzzles: int = 0
    solved: int = 0
    timeouts: int = 0
    wrong: int = 0
    nodes: int = 0
    wall: float = 0.0
    cpu: float = 0.0

    def add(self, solver, line: str, time_limit: float | None) -> None:
        """Run the whole path on one line and add it up."""
        wall, cpu = time.perf_counter(), time.process_time()
        puzzle = parse_puzzle(line)
        result = solver.solve(puzzle, time_limit=time_limit)
        correct = result.status is Status.SOLVED and is_solution(result.grid, puzzle)
        self.wall += time.perf_counter() - wall
        self.cpu += time.process_time() - cpu
        self.puzzles += 1
        self.solved += correct
        self.timeouts += result.status is Status.TIME_LIMIT
        self.wrong += not correct and result.status is not Status.TIME_LIMIT
        self.nodes += int(result.stats.get("nodes", 0))

    @property
    def rate(self) -> float:
        return self.puzzles / self.wall if self.wall else 0.0

    @property
    def cpu_rate(self) -> float:
        return self.puzzles / self.cpu if self.cpu else 0.0


def run_fast(lines: Sequence[str], time_limit: float | None, progress: Progress, label: str) -> Tally:
    tally = Tally(FAST)
    task = progress.add_task(f"{label} fast", total=len(lines))
    with solvers.get(FAST) as fast:
        for index, line in enumerate(lines, 1):
            tally.add(fast, line, time_limit)
            if not index % 100:
                progress.update(task, completed=index)
    progress.remove_task(task)
    return tally


def run_side_by_side(
    lines: Sequence[str], classic_limit: float, fast_limit: float | None, progress: Progress, label: str
) -> tuple[Tally, Tally]:
    """Both solvers on the same puzzles, one puzzle at a time, classic under its time limit."""
    classic, fast = Tally(CLASSIC), Tally(FAST)
    task = progress.add_task(f"{label} classic + fast", total=len(lines))
    with solvers.get(CLASSIC) as classic_solver, solvers.get(FAST) as fast_solver:
        for line in lines:
            fast.add(fast_solver, line, fast_limit)
            classic.add(classic_solver, line, classic_limit)
            progress.advance(task)
    progress.remove_task(task)
    return classic, fast


def ratio(numerator: float, denominator: float) -> str:
    return f"{numerator / denominator:.1f}x" if denominator else "-"


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[object]], right_from: int = 1) -> str:
    lines = ["| " + " | ".join(header) + " |"]
    lines.append("| " + " | ".join("---" if i < right_from else "---:" for i in range(len(header))) + " |")
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "datasets", nargs="*", type=Path,
        help=f"puzzle files, one 81-character puzzle a line (default: {', '.join(NORVIG)} in {DEFAULT_DATA})",
    )
    parser.add_argument("--limit", type=int, help="puzzles per set for backtrack-fast (default: the whole set)")
    parser.add_argument("--classic-limit", type=int, default=100,
                        help="puzzles per set run side by side with the classic search (default: 100)")
    parser.add_argument("--classic-time-limit", type=float, default=2.0,
                        help="seconds a puzzle for the classic search (default: 2)")
    parser.add_argument("--fast-time-limit", type=float, default=60.0,
                        help="seconds a puzzle for backtrack-fast, a safety net (default: 60)")
    parser.add_argument("--out", type=Path, help="also write the report as markdown to this file")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    args = parser.parse_args(argv)
    for name in ("limit", "classic_limit"):
        value = getattr(args, name)
        if value is not None and value < 0:
            parser.error(f"--{name.replace('_', '-')} must be at least 0")
    if args.classic_time_limit <= 0 or args.fast_time_limit <= 0:
        parser.error("time limits must be positive")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    paths = args.datasets or [DEFAULT_DATA / name for name in NORVIG]
    present = [path for path in paths if path.is_file()]
    for path in paths:
        if not path.is_file():
            print(f"skipping {path}: not found (the shared sets live in {DEFAULT_DATA}, see its README)")
    if not present:
        print("no dataset to run: nothing measured")
        return 0

    load_start = os.getloadavg()[0]
    intro = (
        f"Python {platform.python_version()}, {os.cpu_count()} cores, load average at start {load_start:.2f}. "
        "Whole path per puzzle: parse_puzzle, solve, is_solution; one process; puzzles/s by wall time "
        "and by CPU time. Norvig: his published Python solver, whole set, this machine kind "
        "(../shared/data/README.md)."
    )
    print(intro)
    fast_rows, classic_rows = [], []
    console = Console(stderr=True)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True,
                  disable=args.no_progress or not console.is_terminal) as progress:
        for path in present:
            name = path.name
            every = puzzle_lines(path)
            lines, total = every[: args.limit], len(every)
            fast = run_fast(lines, args.fast_time_limit, progress, name)
            norvig = NORVIG.get(name)
            share = "whole set" if len(lines) == total else f"first {len(lines)} of {total}"
            fast_rows.append([
                name, share, f"{fast.solved}", f"{fast.timeouts + fast.wrong}", f"{fast.rate:,.0f}",
                f"{fast.cpu_rate:,.0f}", f"{fast.nodes / max(fast.puzzles, 1):.1f}",
                f"{norvig}" if norvig else "-", ratio(fast.rate, norvig or 0), ratio(fast.cpu_rate, norvig or 0),
            ])
            print(f"{name}: backtrack-fast {fast.rate:,.0f}/s wall ({fast.cpu_rate:,.0f}/s CPU), "
                  f"{fast.solved}/{fast.puzzles} solved and checked", flush=True)
            if args.classic_limit:
                classic, beside = run_side_by_side(
                    lines[: args.classic_limit], args.classic_time_limit, args.fast_time_limit, progress, name
                )
                classic_rows.append([
                    name, f"{classic.puzzles}", f"{classic.solved}", f"{classic.timeouts}", f"{classic.rate:,.2f}",
                    f"{classic.cpu_rate:,.2f}", f"{beside.rate:,.0f}", f"{beside.cpu_rate:,.0f}",
                    ratio(beside.rate, classic.rate), ratio(beside.cpu_rate, classic.cpu_rate),
                ])
                print(f"{name}: side by side on {classic.puzzles}: backtrack {classic.rate:,.2f}/s "
                      f"({classic.timeouts} timeouts), backtrack-fast {beside.rate:,.0f}/s", flush=True)

    report = [
        "# Backtracking benchmark",
        "",
        "`" + " ".join(["bench_backtracking.py", *(sys.argv[1:] if argv is None else argv)]) + "`",
        "",
        intro,
        "",
        "## backtrack-fast against Norvig's figures",
        "",
        markdown_table(
            ["set", "puzzles", "solved", "failed", "wall /s", "CPU /s", "nodes/puzzle", "Norvig /s",
             "fast/Norvig (wall)", "fast/Norvig (CPU)"],
            fast_rows, right_from=2,
        ),
    ]
    if classic_rows:
        report += [
            "",
            "## backtrack-fast against the classic backtrack, side by side",
            "",
            f"The first {args.classic_limit} puzzles of each set, both solvers on each puzzle in turn. The classic "
            f"search runs under {args.classic_time_limit:g} s a puzzle; a timeout is charged that time, so its "
            "rate is an upper bound and the ratio a lower bound.",
            "",
            markdown_table(
                ["set", "puzzles", "classic solved", "classic timeouts", "classic wall /s", "classic CPU /s",
                 "fast wall /s", "fast CPU /s", "fast/classic (wall)", "fast/classic (CPU)"],
                classic_rows,
            ),
        ]
    report += ["", f"Load average at end {os.getloadavg()[0]:.2f}."]
    text = "\n".join(report) + "\n"
    print()
    print(text, end="")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text)
    failed = sum(int(row[3]) for row in fast_rows)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
