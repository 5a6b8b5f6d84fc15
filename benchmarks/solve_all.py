"""``sudokulab solve --all`` beside ``sudokulab bench``: throughput on the same solver and set, and
peak memory as the input grows to a million puzzles.

Throughput: both commands as whole processes, one process each (``--jobs 1``), the same solver,
set (17_clue, found by the catalogue, or in ``--data DIR``) and time limit, taking turns over
``--rounds`` rounds so a change of load hits both alike; wall and CPU seconds (user + system of
the child) per run, medians, and the ratio solve/bench. bench writes only its table; solve --all
writes every answer (to /dev/null).

Memory: the peak resident memory of ``solve --all`` (and of bench, for reference) on files of
one-line puzzles (examples/puzzles-20.txt over and over) of growing length, up to a million
puzzles, with ``backtrack-jit``: flat means the same peak at every length.

    .venv/bin/python benchmarks/solve_all.py              # writes results/solve-all.md
    .venv/bin/python benchmarks/solve_all.py --rounds 1 --most 100000   # a quick look
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from harness import RESULTS, ROOT, command_line, dataset, machine, timer, write_results

COMMAND = [sys.executable, "-m", "sudokulab"]
MEASURE = ("import resource, subprocess, sys\n"
           "out = open(sys.argv[2], 'w')\n"
           "code = subprocess.call(sys.argv[3:], stdout=out, stderr=subprocess.DEVNULL)\n"
           "usage = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
           "open(sys.argv[1], 'w').write(f'{usage.ru_maxrss} {usage.ru_utime + usage.ru_stime}')\n"
           "sys.exit(code)\n")
"""A small Python between us and the command, reporting its peak memory (KB) and CPU seconds: a
process forked straight from this one would start with this one's pages counted in its peak."""


def measured(args: list[str]) -> tuple[float, float, float]:
    """Run ``sudokulab ARGS``; (wall seconds, CPU seconds, peak MB). A failure stops the benchmark."""
    with tempfile.NamedTemporaryFile("r", suffix=".usage") as usage:
        with timer() as took:
            code = subprocess.call([sys.executable, "-c", MEASURE, usage.name, os.devnull, *COMMAND, *args])
        wall = took[0].wall
        if code != 0:
            raise SystemExit(f"sudokulab {' '.join(args)} exited {code}")
        peak, cpu = usage.read().split()
    return wall, float(cpu), int(peak) / 1024


def one_line_file(path: Path, count: int) -> Path:
    """``count`` one-line puzzles: examples/puzzles-20.txt over and over."""
    lines = [line for line in (ROOT / "examples" / "puzzles-20.txt").read_text().splitlines()
             if line and not line.startswith("#")]
    with open(path, "w") as out:
        for i in range(count):
            out.write(lines[i % len(lines)] + "\n")
    return path


def first_lines(source: Path, path: Path, count: int) -> Path:
    with open(source) as inp, open(path, "w") as out:
        written = 0
        for line in inp:
            if line.strip() and not line.startswith("#"):
                out.write(line)
                written += 1
                if written == count:
                    break
    return path


def throughput(sets: list[tuple[str, Path, int]], rounds: int) -> list[str]:
    rows = ["| solver | set | puzzles | bench wall s | solve --all wall s | wall ratio | bench CPU s | "
            "solve --all CPU s | CPU ratio |", "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for solver, path, count in sets:
        times: dict[str, list[tuple[float, float]]] = {"bench": [], "solve": []}
        for _ in range(rounds):
            for kind in ("bench", "solve"):
                args = (["bench", str(path), "--solvers", solver, "--quiet"] if kind == "bench" else
                        ["solve", "--all", str(path), "--solver", solver])
                wall, cpu, _ = measured([*args, "--time-limit", "10"])
                times[kind].append((wall, cpu))
                print(f"  {solver} {path.name} {kind}: {wall:.2f} s wall, {cpu:.2f} s CPU", file=sys.stderr)
        med = {kind: (statistics.median(w for w, _ in got), statistics.median(c for _, c in got))
               for kind, got in times.items()}
        rows.append(f"| {solver} | {path.name} | {count:,} | {med['bench'][0]:.2f} | {med['solve'][0]:.2f} | "
                    f"{med['solve'][0] / med['bench'][0]:.3f} | {med['bench'][1]:.2f} | {med['solve'][1]:.2f} | "
                    f"{med['solve'][1] / med['bench'][1]:.3f} |")
    return rows


def memory(folder: Path, counts: list[int]) -> list[str]:
    rows = ["| puzzles | solve --all peak MB | solve --all --jobs 2 peak MB (largest process) | bench peak MB | "
            "solve --all wall s |", "| ---: | ---: | ---: | ---: | ---: |"]
    for count in counts:
        path = one_line_file(folder / f"ones-{count}.txt", count)
        wall, _, peak = measured(["solve", "--all", str(path), "--solver", "backtrack-jit"])
        _, _, peak2 = measured(["solve", "--all", str(path), "--solver", "backtrack-jit", "--jobs", "2"])
        _, _, bench_peak = measured(["bench", str(path), "--solvers", "backtrack-jit", "--quiet"])
        print(f"  {count:,}: {peak:.0f} MB, jobs 2 {peak2:.0f} MB, bench {bench_peak:.0f} MB", file=sys.stderr)
        rows.append(f"| {count:,} | {peak:.0f} | {peak2:.0f} | {bench_peak:.0f} | {wall:.1f} |")
        path.unlink()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="turns of bench and solve --all per row (default: 3)")
    parser.add_argument("--most", type=int, default=1_000_000, help="the longest input (default: 1,000,000)")
    parser.add_argument("--output", default=str(RESULTS / "solve-all.md"), help="the markdown file written")
    parser.add_argument("--data", type=Path, help="folder of the sets (default: the catalogue's)")
    args = parser.parse_args()
    clue = dataset("17_clue", data=args.data)
    if clue is None:
        raise SystemExit(2)
    measured_on = machine()
    with timer() as took, tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        whole = sum(1 for line in open(clue) if line.strip() and not line.startswith("#"))
        fast = min(2000, whole)  # fewer only in a --data folder with a short 17_clue
        fast_set = first_lines(clue, folder / f"17_clue-{fast}.txt", fast)
        rows = throughput([("backtrack-jit", clue, whole), ("backtrack-fast", fast_set, fast)], args.rounds)
        counts = [c for c in (10_000, 100_000, 1_000_000) if c <= args.most]
        mem = memory(folder, counts)
    text = "\n".join([
        f"{took[0].wall:.0f} s in all.",
        "",
        "## Throughput: one process, the same solver and set, whole commands",
        "",
        f"Medians of {args.rounds} runs each, the two commands taking turns; `--time-limit 10` for both; "
        "solve --all writes every answer (to /dev/null), bench its table. The ratio is solve --all over "
        "bench: below 1.10 is within 10%. CPU seconds are the steadier figure on a shared machine.",
        "",
        *rows,
        "",
        "## Memory: peak resident memory as the input grows",
        "",
        "One-line puzzles (examples/puzzles-20.txt repeated), `--solver backtrack-jit`, one run each. "
        "With `--jobs 2` the figure is the largest of the processes (parent or worker: `RUSAGE_CHILDREN`). "
        "bench keeps every solve time for its quantiles, so its peak grows with the input; solve --all keeps none.",
        "",
        *mem,
        "",
    ])
    output = Path(args.output)
    written = write_results(output.name, "solve --all beside bench", text, how=f"Made by `{command_line()}`.",
                            measured_on=measured_on, folder=output.parent)
    print(written.read_text(), end="")


if __name__ == "__main__":
    main()
