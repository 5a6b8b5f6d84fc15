"""Every limit is the whole call (issue 47): every solver on empty boards, how far past its time limit it returns.

Part 1: each installed solver on the empty 16x16, 25x25, 36x36, 49x49 and 64x64 boards under time
limits of 1, 2 and 5 s, each run in a fresh process (``python -c``) so that nothing one run built
helps the next. The process times its own start-up apart (importing sudokulab, building the solver:
imports and probing, what ``--time-limit`` does not cover) and then the call ``solver.solve(empty,
time_limit=T)``: building the model, grounding, flattening, loading and searching. A call is within
its limit when it returns in at most ``1.1 T + 0.5 s``; a refusal up front (one line, before any
work) is within it too, and is listed as such.

Part 3 (``--capacity``): what the refusals became: ``sat`` and ``mip`` on the empty 36x36, 49x49 and
64x64 boards under a long limit (``--capacity-limit``, 120 s), with the peak memory of the run (its
process and the child it may run the call in).

Part 2: ``sudokulab compare EMPTY49 --time-limit 2`` as a whole command (every installed solver, the
oracle included), against N x 2 s plus the start-up of those N solvers (the sum of part 1's start-ups
on that board at 2 s, a fresh process each).

    .venv/bin/python benchmarks/time_limits.py                       # writes results/time-limits.md
    .venv/bin/python benchmarks/time_limits.py --sizes 16,64 --limits 1 --parts 1 --out -   # a quick look
    .venv/bin/python benchmarks/time_limits.py --parts 3 --out time-limits-capacity.md
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from harness import RESULTS, command_line, machine, write_results

from sudokulab import Puzzle, solvers
from sudokulab.formats.boj import format_puzzle

ONE_RUN = """
import json, sys, time
started = time.perf_counter()
from sudokulab import Puzzle, solvers
name, n, limit = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
try:
    solver = solvers.get(name)
except Exception as exc:
    print(json.dumps({"status": "unavailable", "why": str(exc)}))
    raise SystemExit
puzzle = Puzzle.empty(n)
built = time.perf_counter()
try:
    result = solver.solve(puzzle, time_limit=limit)
    status, why = result.status.value, ""
    child = bool(result.stats.get("child_process"))
except solvers.UnsupportedFeature as exc:
    status, why, child = "refused", str(exc), False
done = time.perf_counter()
print(json.dumps({"status": status, "why": why, "startup": built - started, "call": done - built, "child": child}))
"""


def one(name: str, n: int, limit: float) -> dict:
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    done = subprocess.run([sys.executable, "-c", ONE_RUN, name, str(n), str(limit)], capture_output=True,
                          text=True, timeout=limit + 600)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    lines = done.stdout.strip().splitlines()
    if done.returncode or not lines:
        return {"status": "crashed", "why": (done.stderr.strip().splitlines() or ["?"])[-1]}
    return {**json.loads(lines[-1]), "peak_mb": peak // 1024 if peak > before else None}


def within(row: dict, limit: float) -> bool:
    return row["status"] == "refused" or row.get("call", 1e9) <= 1.1 * limit + 0.5


def compare_run(n: int, limit: float) -> tuple[float, int]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"empty{n}.txt"
        path.write_text(format_puzzle(Puzzle.empty(n)))
        started = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "sudokulab", "compare", str(path), "--time-limit", str(limit),
                               "--json"], capture_output=True, text=True)
        took = time.perf_counter() - started
    runs = json.loads(done.stdout)["runs"] if done.stdout.strip() else []
    return took, len(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="16,25,36,49,64")
    parser.add_argument("--limits", default="1,2,5")
    parser.add_argument("--solvers", default=None, help="comma-separated (default: every installed solver)")
    parser.add_argument("--parts", default="1,2", help="parts to run: 1 (every solver), 2 (compare), 3 (capacity)")
    parser.add_argument("--capacity-limit", type=float, default=120.0)
    parser.add_argument("--out", default="time-limits.md", help="the results file's name ('-': stdout)")
    parser.add_argument("--out-dir", type=Path, default=RESULTS, help="where it goes (default: results/)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    limits = [float(s) for s in args.limits.split(",")]
    names = args.solvers.split(",") if args.solvers else [n for n in solvers.names() if solvers.installed(n)]
    measured_on = machine()
    started = time.perf_counter()
    parts = set(args.parts.split(","))
    rows = []
    for n in sizes if "1" in parts else ():
        for limit in limits:
            for name in names:
                row = {"solver": name, "n": n, "limit": limit, **one(name, n, limit)}
                rows.append(row)
                print(f"{name:15s} {n}x{n} {limit:g} s: {row['status']:20s} "
                      f"call {row.get('call', float('nan')):.2f} s", file=sys.stderr)
    compared = (49, 2.0, *compare_run(49, 2.0)) if "2" in parts else None
    lines = [] if not rows else [
        f"{time.perf_counter() - started:.0f} s in all.",
        "",
        "Each run is a fresh process: start-up (imports, building the solver) is timed apart; **call** is",
        "`solver.solve(empty board, time_limit=T)`, from model building to answer. Within: call <= 1.1 T + 0.5 s",
        "(or refused up front, in one line). `child` marks a call run in a child process the deadline ends",
        "(`solvers.stoppable`). Wall time on a shared machine: other work running.",
        "",
    ]
    misses = [r for r in rows if not within(r, r["limit"])]
    lines += [] if not rows else [f"**{len(rows) - len(misses)} of {len(rows)} calls within their limit.**"
              + (" Outside: " + "; ".join(f"{r['solver']} {r['n']}x{r['n']} at {r['limit']:g} s "
                                        f"({r.get('call', float('nan')):.2f} s, {r['status']})" for r in misses)
                 if misses else ""), ""]
    for limit in limits if rows else ():
        lines += [f"## {limit:g} s", "", "| solver | " + " | ".join(f"{n}x{n}" for n in sizes) + " |",
                  "| --- |" + " ---: |" * len(sizes)]
        for name in names:
            cells = []
            for n in sizes:
                row = next(r for r in rows if r["solver"] == name and r["n"] == n and r["limit"] == limit)
                if row["status"] in ("refused", "unavailable", "crashed"):
                    cells.append(row["status"])
                    continue
                mark = "" if within(row, limit) else " **over**"
                short = {"solved": "solved", "time limit reached": "limit", "no solution": "none"}[row["status"]]
                cells.append(f"{row['call']:.2f} s {short}{' child' if row['child'] else ''}{mark}")
            lines.append(f"| {name} | " + " | ".join(cells) + " |")
        lines.append("")
    refusals = {(r["solver"], r["why"]) for r in rows if r["status"] == "refused"}
    if refusals:
        lines += ["Refusals, as printed:", ""] + [f"- {name}: {why}" for name, why in sorted(refusals)] + [""]
    startup = {name: max((r.get("startup", 0) for r in rows if r["solver"] == name), default=0) for name in names}
    if rows:
        lines += ["## Start-up (not under the limit)", "", "Largest start-up of a run, per solver (import "
                  "sudokulab, build the solver):", "", "| solver | seconds |", "| --- | ---: |"]
        lines += [f"| {name} | {startup[name]:.2f} |" for name in names] + [""]
    if compared:
        n, limit, took, count = compared
        budget = sum(next((r.get("startup", 0) for r in rows if r["solver"] == name and r["n"] == n
                           and r["limit"] == limit), 0) for name in names)
        lines += ["## compare", "",
                  f"`sudokulab compare EMPTY{n}x{n} --time-limit {limit:g} --json` over {count} solvers: "
                  f"{took:.1f} s for the whole command, against {count} x {limit:g} s = {count * limit:g} s plus "
                  f"their start-ups ({budget:.1f} s, summed from part 1): "
                  f"{'within' if took <= count * limit + budget + 1 else 'over'} ({count * limit + budget:.1f} s).",
                  ""]
    if "3" in parts:
        lines += ([] if not rows else ["## The largest boards given time: sat and mip", ""]) + [
                  f"Empty boards under a {args.capacity_limit:g} s limit, a fresh process each; peak memory is the "
                  "largest resident set of the run's processes (the call's child included; '-' where it stayed "
                  "below an earlier run's, which this measure cannot tell apart).", "",
                  "| solver | board | status | call | peak memory |", "| --- | --- | --- | ---: | ---: |"]
        for name in ("sat", "mip"):
            for n in (36, 49, 64):
                row = one(name, n, args.capacity_limit)
                print(f"capacity {name} {n}: {row['status']} {row.get('call', float('nan')):.1f} s", file=sys.stderr)
                peak = f"{row['peak_mb']:,} MB" if row.get("peak_mb") else "-"
                call = f"{row['call']:.1f} s" if "call" in row else "-"
                lines.append(f"| {name} | {n}x{n} | {row['status']} | {call} | {peak} |")
        lines.append("")
    text = "\n".join(lines)
    if args.out == "-":
        print(text)
        return
    title = ("Time limits: every solver on empty boards, the whole call held to the limit" if rows
             else "The largest boards given time: sat and mip")
    written = write_results(args.out, title, text, how=f"Made by `{command_line()}`.", measured_on=measured_on,
                            folder=args.out_dir)
    print(f"wrote {written}", file=sys.stderr)


if __name__ == "__main__":
    main()
