"""How long a large SAT solve takes to end after SIGINT, SIGTERM or SIGHUP, and what the slicing costs.

The task behind it: SIGTERM (``timeout``, ``docker stop``, CI runners) should end a 36x36
``--canonical`` SAT solve as promptly as Ctrl-C, within a second. This starts the real command
(``python -m sudokulab solve EMPTY36 --solver sat --canonical``) ``--runs`` times per signal, waits
until the engine is working (PySAT's extension mapped and ``--warm`` CPU seconds spent, then a seeded
random extra of up to ``--spread`` seconds), sends the signal and times the exit; every run must end
with 128 + the signal, one line on stderr and nothing on stdout. Then it times ``sat`` (one process,
no signal) on the empty 36x36 board and on ``--puzzles`` (36x36, 45% given), wall and CPU, with the
longest single engine call: the longest a signal can wait. The one-minute load goes with the figures.
Writes ``results/signal-latency.md``.

    .venv/bin/python benchmarks/signal_latency.py --runs 20
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from harness import RESULTS, Spread, command_line, load, machine, markdown_table, timer, write_results

LINES = {signal.SIGINT: "sudokulab: interrupted\n", signal.SIGTERM: "sudokulab: terminated\n",
         signal.SIGHUP: "sudokulab: hung up\n"}


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def under_way(process: subprocess.Popen, warm: float) -> bool:
    """Wait until PySAT's extension is loaded and ``warm`` CPU seconds are spent; False if it ended first."""
    while process.poll() is None:
        try:
            if "pysolvers" in Path(f"/proc/{process.pid}/maps").read_text() and cpu_seconds(process.pid) >= warm:
                return True
        except (FileNotFoundError, ProcessLookupError):
            return False
        time.sleep(0.02)
    return False


def one_signal(board: Path, signum: int, delay: float, warm: float) -> dict:
    process = subprocess.Popen([sys.executable, "-m", "sudokulab", "solve", str(board), "--solver", "sat",
                                "--canonical"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               start_new_session=True)
    if not under_way(process, warm):
        out, err = process.communicate()
        return {"ok": False, "why": f"ended before the signal: {process.returncode} {err[-200:]!r}"}
    time.sleep(delay)
    if process.poll() is not None:
        return {"ok": False, "why": "ended before the signal"}
    with timer() as took:
        process.send_signal(signum)
        out, err = process.communicate(timeout=600)
    ok = process.returncode == 128 + signum and err.decode() == LINES[signum] and out == b""
    return {"ok": ok, "took": took[0].wall,
            "why": "" if ok else f"exit {process.returncode}, {err[-300:]!r}, {len(out)} B out"}


def latencies(board: Path, runs: int, warm: float, spread: float, seed: int) -> dict[str, dict]:
    rng = random.Random(seed)
    plan = [signum for _ in range(runs) for signum in LINES]  # the signals in turns: load hits each alike
    found: dict[str, dict] = {signal.Signals(s).name: {"took": [], "failed": []} for s in LINES}
    for signum in plan:
        got = one_signal(board, signum, rng.uniform(0, spread), warm)
        row = found[signal.Signals(signum).name]
        if got["ok"]:
            row["took"].append(got["took"])
        else:
            row["failed"].append(got["why"])
        print(signal.Signals(signum).name, got, file=sys.stderr, flush=True)
    return found


SOLVE_TIMES = """
import json, sys, time
from pysat.solvers import Solver
import sudokulab
from sudokulab import Puzzle, solvers
calls = []
plain = Solver.solve_limited
def timed(self, *args, **kwargs):
    started = time.perf_counter()
    try:
        return plain(self, *args, **kwargs)
    finally:
        calls.append(time.perf_counter() - started)
Solver.solve_limited = timed
boards = [("empty 36x36", Puzzle.empty(36))]
if sys.argv[1]:
    blocks = [b for b in open(sys.argv[1]).read().split("\\n\\n") if b.strip()]
    boards += [(f"36x36 45% #{i + 1}", sudokulab.parse_puzzle(b)) for i, b in enumerate(blocks)]
for name, puzzle in boards:
    calls.clear()
    wall, cpu = time.perf_counter(), time.process_time()
    with solvers.get("sat") as solver:
        status = solver.solve(puzzle).status.name
    print(json.dumps({"board": name, "status": status, "wall": time.perf_counter() - wall,
                      "cpu": time.process_time() - cpu, "calls": len(calls), "longest": max(calls, default=0)}),
          flush=True)
"""


def solve_times(puzzles: Path | None) -> list[dict]:
    import json

    done = subprocess.run([sys.executable, "-c", SOLVE_TIMES, str(puzzles or "")], capture_output=True, text=True,
                          check=True)
    return [json.loads(line) for line in done.stdout.splitlines()]


def markdown(found: dict[str, dict], times: list[dict], args: argparse.Namespace, after: float) -> str:
    rows = []
    for name, row in found.items():
        took = Spread.of(row["took"]) if row["took"] else None
        shown = [f"{took.median:.2f} s", f"{took.high:.2f} s"] if took else ["-", "-"]
        rows.append([name, len(row["took"]), *shown, "; ".join(row["failed"]) or "none"])
    lines = [f"`solve EMPTY36 --solver sat --canonical`, {args.runs} runs a signal (`--warm {args.warm} --spread "
             f"{args.spread}`), one-minute load {after:.1f} after. Wall seconds from the signal to the exit.", "",
             markdown_table(["signal", "runs ended cleanly", "median", "max", "failed"], rows)]
    if times:
        lines += ["Solve times (`sat`, default engine, one process, no signal):", "",
                  markdown_table(["board", "status", "wall", "CPU", "engine calls", "longest call"],
                                 [[t["board"], t["status"], f"{t['wall']:.2f} s", f"{t['cpu']:.2f} s", t["calls"],
                                   f"{t['longest']:.2f} s"] for t in times])]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="runs per signal")
    parser.add_argument("--warm", type=float, default=2.5, help="CPU seconds the command spends before the wait")
    parser.add_argument("--spread", type=float, default=4.0, help="the random extra wait, up to this many seconds")
    parser.add_argument("--seed", type=int, default=2580)
    parser.add_argument("--puzzles", type=Path, help="36x36 puzzles to time (BOJ blocks, blank-line separated)")
    parser.add_argument("--no-solve-times", action="store_true")
    parser.add_argument("--out-dir", type=Path, default=RESULTS,
                        help="where signal-latency.md goes (default: results/)")
    args = parser.parse_args()
    from sudokulab import Puzzle
    from sudokulab.formats.boj import format_puzzle

    measured_on = machine()
    with tempfile.TemporaryDirectory() as folder:
        board = Path(folder) / "empty36.txt"
        board.write_text(format_puzzle(Puzzle.empty(36)))
        found = latencies(board, args.runs, args.warm, args.spread, args.seed)
    times = [] if args.no_solve_times else solve_times(args.puzzles)
    body = markdown(found, times, args, load())
    print(body)
    write_results("signal-latency.md", "Signal to exit during a 36x36 canonical SAT solve", body,
                  how=f"Made by `{command_line()}`.", measured_on=measured_on, folder=args.out_dir)


if __name__ == "__main__":
    main()
