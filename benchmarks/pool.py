"""``solve --all --jobs 2`` beside one process, on a small and a large set: does the pool fit the work?

The pool is sized to the work (``execution.executors.pool_size``): no more processes than batches,
so the README's 20 puzzles (one batch) run in the command's own process, and 10,000 puzzles (20
batches of 512) get the two processes asked for. Each case runs the whole command (``python -m
sudokulab``, answers to /dev/null), ``--jobs 1`` and ``--jobs 2`` taking turns over ``--rounds``
rounds so that a change of load hits both alike; wall seconds and CPU seconds (user + system of the
command and its workers) per run, medians, and the ratio jobs 2 / jobs 1 run by run (below 1:
faster with the pool). The sets are examples/puzzles-20.txt and the same 20 puzzles 500 times over.

    .venv/bin/python benchmarks/pool.py                      # writes results/pool.md
    .venv/bin/python benchmarks/pool.py --rounds 3           # a quick look
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from harness import ROOT, command_line, machine, markdown_table, write_results

COMMAND = [sys.executable, "-m", "sudokulab"]
PUZZLES_20 = ROOT / "examples" / "puzzles-20.txt"


def run(args: list[str]) -> tuple[float, float, str]:
    """The command once: (wall seconds, CPU seconds of it and its children, its last stderr line)."""
    before = os.times()
    started = time.perf_counter()
    done = subprocess.run([*COMMAND, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - started
    after = os.times()
    if done.returncode != 0:
        raise SystemExit(f"sudokulab {' '.join(args)} exited {done.returncode}: {done.stderr}")
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return wall, cpu, done.stderr.strip().splitlines()[-1]


def autogroup() -> str:
    """Whether the kernel shares CPU time between sessions (``1``), as read here ('unknown' elsewhere)."""
    try:
        return Path("/proc/sys/kernel/sched_autogroup_enabled").read_text().strip()
    except OSError:
        return "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--solvers", default="backtrack-fast,backtrack-jit")
    options = parser.parse_args()
    measured_on = machine()
    lines = [line for line in PUZZLES_20.read_text().splitlines() if line and not line.startswith("#")]
    with tempfile.TemporaryDirectory() as folder:
        large = Path(folder) / "puzzles-10000.txt"
        large.write_text("\n".join(lines[i % len(lines)] for i in range(10_000)) + "\n")
        sets = [(PUZZLES_20, 20), (large, 10_000)]
        rows = []
        for solver in options.solvers.split(","):
            for path, count in sets:
                walls: dict[int, list[float]] = {1: [], 2: []}
                cpus: dict[int, list[float]] = {1: [], 2: []}
                where = {}
                for _ in range(options.rounds):
                    for jobs in (1, 2):
                        wall, cpu, last = run(["solve", "--all", str(path), "--solver", solver, "--jobs", str(jobs)])
                        walls[jobs].append(wall)
                        cpus[jobs].append(cpu)
                        where[jobs] = last.rsplit(", ", 1)[-1].rstrip(")")
                ratios = sorted(b / a for a, b in zip(walls[1], walls[2]))
                quartiles = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else ratios * 3
                rows.append([solver, f"{count:,}", where[2], f"{statistics.median(walls[1]):.2f}",
                             f"{statistics.median(walls[2]):.2f}", f"{statistics.median(ratios):.2f}",
                             f"{quartiles[0]:.2f}-{quartiles[2]:.2f}", f"{statistics.median(cpus[1]):.2f}",
                             f"{statistics.median(cpus[2]):.2f}"])
                print(rows[-1], file=sys.stderr, flush=True)
    body = (f"Medians of {options.rounds} runs each, `--jobs 1` and `--jobs 2` taking turns; whole commands, "
            "answers to /dev/null. *ratio* is jobs 2 wall / jobs 1 wall, run by run (its median and quartiles): "
            "below 1 the pool is faster. *jobs 2 ran on* is where `solve --all --jobs 2` says it ran: with one "
            "batch of work, this process alone (and a note on stderr says why).\n\n")
    body += markdown_table(["solver", "puzzles", "jobs 2 ran on", "jobs 1 wall s", "jobs 2 wall s", "ratio",
                            "ratio IQR", "jobs 1 CPU s", "jobs 2 CPU s"], rows)
    body += ("\nHow to read it on a shared machine: with the kernel's autogroup scheduling on "
             f"(`/proc/sys/kernel/sched_autogroup_enabled` is {autogroup()} here), CPU time is shared between "
             "sessions, not processes, so when other sessions keep the cores busy (the load average above) a "
             "command's worker processes share the one part its session gets, and a pool cannot be faster than one "
             "process; it can only cost its workers' start-up. What a pool buys needs idle cores.\n")
    print(write_results("pool.md", "solve --all with a pool that fits the work", body, how=command_line(),
                        measured_on=measured_on))


if __name__ == "__main__":
    main()
