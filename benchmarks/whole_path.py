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

The sets are found by the catalogue (or in ``--data DIR``). Writes results/whole-path.md (and prints it).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from harness import RESULTS, Spread, command_line, dataset, load, machine, markdown_table, timer, write_results

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
    with timer() as took:
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    wall = took[0].wall
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
    return Spread.of([bench(path, solver, 1)[1] for _ in range(5)]).median


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, help="folder of the sets (default: the catalogue's)")
    parser.add_argument("--solvers", default=",".join(SOLVERS))
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("--limit", type=int, default=None, help="first K puzzles of every set")
    parser.add_argument("--out-dir", type=Path, default=RESULTS, help="where whole-path.md goes (default: results/)")
    args = parser.parse_args()
    solvers = args.solvers.split(",")
    sets = [path for name in args.sets.split(",") if (path := dataset(name, args.limit, args.data)) is not None]
    if not sets:
        print("whole_path.py: no set found: nothing measured", file=sys.stderr)
        return 2
    measured_on = machine()
    lines = ["Each figure is one `sudokulab bench SET --solvers S --by-solver --quiet` process, timed from start to "
             "exit (whole), beside the puzzles/s that the same run reports from its solver's own per-puzzle times "
             "(solve).", ""]
    first = solvers[0]
    if "backtrack-jit" in solvers:
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            cold = bench(sets[0], "backtrack-jit", 1, env)[1]
            warm = bench(sets[0], "backtrack-jit", 1, env)[1]
        lines += [f"`backtrack-jit` compile: `bench --limit 1` took {cold:.2f} s with an empty numba cache "
                  f"(NUMBA_CACHE_DIR emptied) and {warm:.2f} s the next time, from the cache.", ""]
    lines += ["Start-up, `bench --limit 1`, median of 5:", "",
              markdown_table(["solver", "seconds"],
                             [[solver, f"{startup(solver, sets[0]):.2f}"] for solver in solvers])]
    rows = []
    for path in sets:
        reference = None
        for solver in solvers:
            limit = args.limit
            if solver in SLOW:
                limit = min(limit or SLOW[solver], SLOW[solver])
            puzzles, wall, rate = bench(path, solver, limit)
            whole = puzzles / wall
            reference = reference or whole
            rows.append([path.stem, solver, f"{puzzles:,}", f"{wall:.2f}", f"{whole:,.0f}", f"{rate:,.0f}",
                         f"{whole / rate:.0%}", f"{whole / reference:.2f}"])
            print(" | ".join(rows[-1]), file=sys.stderr, flush=True)
    lines += [markdown_table(["set", "solver", "puzzles", "whole s", "whole puzzles/s", "solve puzzles/s",
                              "whole / solve", f"whole / {first} whole"], rows),
              f"Load average at the end: {load():.2f}."]
    body = "\n".join(lines)
    print(body)
    write_results("whole-path.md", "The whole path against the solve", body, how=f"Made by `{command_line()}`.",
                  measured_on=measured_on, folder=args.out_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
