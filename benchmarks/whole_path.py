"""The whole path against the solve: `sudokulab bench` timed from process start to exit, beside the
rate the same run reports from its solvers' own per-puzzle times, every solver in one run.

Why: a paradigm comparison should compare solvers, not harnesses. For each set and solver this
runs `python -m sudokulab bench SET --solvers S --by-solver --quiet` in a fresh process, times it
end to end (interpreter start, imports, reading, solving, checking, the report) and reads the
report's own "puzzles/s" (puzzles over the sum of per-puzzle solve times). The ratio of the two is
the share of the run spent solving. `sat` is the reference the other rates are held against.
Start-up is `bench --limit 1`, the median of five runs.

    .venv/bin/python benchmarks/whole_path.py                     # 17_clue whole, two hard sets
    .venv/bin/python benchmarks/whole_path.py --limit 5000 --solvers sat,backtrack-jit

Writes results/whole-path.md (and prints it).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE.parent.parent / "shared" / "data"
SETS = ("17_clue", "magictour_top1465", "forum_hardest_1106")
SOLVERS = ("sat", "backtrack-jit", "backtrack-fast", "cpsat")
SLOW = {"cpsat": 5000, "backtrack-fast": 20000}
"""Solvers run on a prefix of the large sets only (puzzles), to keep the run in minutes."""


def bench(path: Path, solver: str, limit: int | None, env: dict[str, str] | None = None) -> tuple[int, float, float]:
    """(puzzles, whole-process seconds, the report's puzzles/s) of one bench process."""
    command = [sys.executable, "-m", "sudokulab", "bench", str(path), "--solvers", solver, "--by-solver", "--quiet",
               "--wide"]
    if limit is not None:
        command += ["--limit", str(limit)]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    wall = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} exited {done.returncode}: {done.stderr.strip()[-300:]}")
    # the table's columns: two spaces or more apart (report.print_table), or ruled (older tables)
    split = re.compile(r"\s*[┃│]\s*|\s{2,}")
    header = next(line for line in done.stdout.splitlines() if "puzzles/s" in line)
    columns = [c for c in split.split(header.strip()) if c]
    row = next(line for line in done.stdout.splitlines() if split.split(line.strip())[0] == solver
               or re.match(rf"[│|]\s*{re.escape(solver)}\s*[│|]", line))
    cells = [c for c in split.split(row.strip()) if c]
    solved = cells[columns.index("solved")].split("/")
    rate = float(cells[columns.index("puzzles/s")].replace(",", ""))
    return int(solved[1]), wall, rate


def startup(solver: str, path: Path) -> float:
    walls = [bench(path, solver, 1)[1] for _ in range(5)]
    return statistics.median(walls)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--solvers", default=",".join(SOLVERS))
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("--limit", type=int, default=None, help="first K puzzles of every set")
    parser.add_argument("--out", type=Path, default=HERE / "results" / "whole-path.md")
    args = parser.parse_args()
    solvers = args.solvers.split(",")
    sets = [args.data / f"{name}.txt" for name in args.sets.split(",") if (args.data / f"{name}.txt").is_file()]
    if not sets:
        print(f"no set found in {args.data}", file=sys.stderr)
        return 2
    load = os.getloadavg()[0]
    lines = [f"# The whole path against the solve ({date.today().isoformat()})", "",
             "Made by `benchmarks/whole_path.py`: each figure is one `sudokulab bench SET --solvers S --by-solver "
             "--quiet` process, timed from start to exit (whole), beside the puzzles/s that the same run reports "
             "from its solver's own per-puzzle times (solve). 2 cores, CPython "
             f"{sys.version.split()[0]}; load average {load:.2f} at the start.", ""]

    first = solvers[0]
    if "backtrack-jit" in solvers:
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            cold = bench(sets[0], "backtrack-jit", 1, env)[1]
            warm = bench(sets[0], "backtrack-jit", 1, env)[1]
        lines += [f"`backtrack-jit` compile: `bench --limit 1` took {cold:.2f} s with an empty numba cache "
                  f"(NUMBA_CACHE_DIR emptied) and {warm:.2f} s the next time, from the cache.", ""]
    lines += ["Start-up, `bench --limit 1`, median of 5:", "", "| solver | seconds |", "| --- | ---: |"]
    for solver in solvers:
        lines.append(f"| {solver} | {startup(solver, sets[0]):.2f} |")
    lines += ["", "| set | solver | puzzles | whole s | whole puzzles/s | solve puzzles/s | whole / solve | "
              f"whole / {first} whole |", "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for path in sets:
        reference = None
        for solver in solvers:
            limit = args.limit
            if solver in SLOW:
                limit = min(limit or SLOW[solver], SLOW[solver])
            puzzles, wall, rate = bench(path, solver, limit)
            whole = puzzles / wall
            reference = reference or whole
            lines.append(f"| {path.stem} | {solver} | {puzzles:,} | {wall:.2f} | {whole:,.0f} | {rate:,.0f} | "
                         f"{whole / rate:.0%} | {whole / reference:.2f} |")
            print(lines[-1], flush=True)
    lines += ["", f"Load average at the end: {os.getloadavg()[0]:.2f}."]
    args.out.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
