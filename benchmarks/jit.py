"""The compiled search (``backtrack-jit``) against the references, side by side, in one run.

Measures, in this order, in one process unless said otherwise:

- start-up in child processes: compiling cold (``NUMBA_CACHE_DIR`` set to an empty directory), then
  a warm start from that cache, and a warm start from the default cache (``__pycache__`` beside the
  module): the seconds to import the module, to ``JitSolver.warm_up()``, and the whole process;
- ``solve_batch`` over every puzzle of each set (givens parsed beforehand), with the default
  branching (dom/wdeg) and with ``branching=fewest``: puzzles/s over the wall time of the call,
  per-puzzle median and p99 from the batch's own clock readings;
- the per-puzzle paths on the first ``--reference`` puzzles: a bare Python loop over the compiled
  single-puzzle functions (state allocated once, ``perf_counter`` and ``process_time`` around each
  puzzle: the dispatch overhead the batch loop avoids) and ``JitSolver.solve`` (a ``Puzzle`` each);
- the references on the same puzzles: ``backtrack-fast`` (its ``solve`` in a loop) and ``sat``
  (``batch.solve_batch``, its own batch entry point);

every answer checked by ``checking.grids_valid``. The sets are found by the catalogue (or in ``--data
DIR``). Writes ``benchmarks/results/jit.md``.

    .venv/bin/python benchmarks/jit.py                        # the report
    .venv/bin/python benchmarks/jit.py --sets 17_clue --reference 500 --out-dir /tmp/jit
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import numba
import numpy as np
from harness import RESULTS, command_line, dataset, load, machine, markdown_table, timer, write_results

from sudokulab import solvers
from sudokulab.core.grid import Shape
from sudokulab.core.puzzle import Puzzle
from sudokulab.core.rules import standard
from sudokulab.datasets.reading import puzzle_lines
from sudokulab.solvers.batch import Batch, BatchResults, solve_batch
from sudokulab.solvers.jit import kernels as jit_kernels
from sudokulab.solvers.jit import numba_search as jit_numba
from sudokulab.ui.tables import format_seconds
from sudokulab.verdicts.checking import grids_valid

SETS = ("17_clue", "magictour_top1465", "forum_hardest_1106")
NINE = Shape(3, 3)
START = """
import time
began = time.perf_counter()
from sudokulab.solvers.jit.solver import JitSolver
imported = time.perf_counter()
JitSolver.warm_up()
print(imported - began, JitSolver.compile_seconds)
"""


def read_givens(path: Path) -> np.ndarray:
    """A 9x9 set as a (k, 81) uint8 array (81-character lines, '.' or '0' blank)."""
    lines = [line[:81] for line in puzzle_lines(path)]
    codes = np.frombuffer("".join(lines).encode("ascii"), dtype=np.uint8).reshape(len(lines), 81)
    return np.where(codes == ord("."), 0, codes - ord("0")).astype(np.uint8)


def start_up(cache_dir: str | None) -> tuple[float, float, float]:
    """(import, warm-up, whole process) seconds of a child process that loads the solver."""
    env = dict(os.environ, SUDOKULAB_JIT_BACKEND="numba")  # this report is numba's; benchmarks/compiled.py has C's
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = cache_dir
    with timer() as took:
        done = subprocess.run([sys.executable, "-c", START], env=env, capture_output=True, text=True, check=True)
    imported, warmed = map(float, done.stdout.split())
    return imported, warmed, took[0].wall


def checked(results: BatchResults, givens: np.ndarray) -> int:
    """How many answers are wrong: a SOLVED grid that is no solution (every 9x9 set here is solvable)."""
    solved = results.status == 0
    return int((~solved).sum() + (~grids_valid(results.grids[solved], givens[solved], NINE)).sum())


def bare_loop(givens: np.ndarray) -> BatchResults:
    """The compiled single-puzzle functions called from a Python loop: what the batch loop saves."""
    tables = jit_numba._tables(standard(NINE))
    state = jit_numba._State(NINE.cells, tables.weight0)
    k = len(givens)
    grids = np.zeros_like(givens)
    wall, cpu = np.zeros(k), np.zeros(k)
    status = np.zeros(k, dtype=np.int8)
    for i in range(k):  # the clocks read inline: the harness's timer costs about as much as a puzzle here
        began, began_cpu = time.perf_counter(), time.process_time()
        state.ivars[:] = 0
        state.weight[:] = 3
        code = jit_kernels.EXHAUSTED
        if jit_kernels._start(givens[i], state.cands[0], state.queue, *tables.kernel):
            code = jit_kernels._search(state.cands, state.fcell, state.frest, state.ivars, state.weight, state.queue,
                                       *tables.kernel, False, True, 1 << 40)
        if code == jit_kernels.FOUND:
            jit_kernels._digits(state.cands[state.ivars[jit_kernels.SOLUTION]], grids[i])
        else:
            status[i] = 1
        wall[i], cpu[i] = time.perf_counter() - began, time.process_time() - began_cpu
    return BatchResults("bare loop", status, grids, wall, cpu)


def timed(label: str, run, batch: Batch) -> dict:
    """One path over a batch: its rate, per-puzzle quantiles, effort and wrong answers."""
    givens = batch.givens
    at_start = load()
    with timer() as took:
        results = run(batch)
    wall = took[0].wall
    k = len(givens)
    row = {"path": label, "k": k, "rate": k / wall, "wall": wall, "load": at_start, "wrong": checked(results, givens),
           "median": float(np.median(results.seconds)), "p99": float(np.quantile(results.seconds, 0.99)),
           "cpu": float(results.cpu_seconds.sum())}
    nodes = results.stats.get("nodes")
    row["nodes"] = float(nodes.mean()) if nodes is not None else float("nan")
    print(f"{label}: {k} puzzles, {row['rate']:,.0f}/s, wrong {row['wrong']}", file=sys.stderr)
    return row


class _Loop:
    """A solver seen without its batch entry point, so ``batch.solve_batch`` loops over ``solve``."""

    def __init__(self, solver) -> None:
        self.solver = solver
        self.name = solver.name

    def solve(self, puzzle: Puzzle, **kwargs):
        return self.solver.solve(puzzle, **kwargs)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, help="folder of the sets (default: the catalogue's)")
    parser.add_argument("--sets", default=",".join(SETS), help="the sets, whole (default: %(default)s)")
    parser.add_argument("--reference", type=int, default=2000, help="puzzles per set for the references")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of every path; the best is kept")
    parser.add_argument("--out-dir", type=Path, default=RESULTS, help="where jit.md goes (default: results/)")
    args = parser.parse_args(argv)
    found = {name: dataset(name, None, args.data) for name in args.sets.split(",")}
    files = {name: path for name, path in found.items() if path is not None}
    if not files:
        return 2
    os.environ["SUDOKULAB_JIT_BACKEND"] = "numba"  # the numba kernels' report (C: benchmarks/compiled.py)
    measured_on = machine()

    with tempfile.TemporaryDirectory() as cache:
        cold = start_up(cache)
        warm_own = start_up(cache)
    warm = start_up(None)  # fills the default cache first if it is stale
    warm = start_up(None)
    print(f"cold {cold}, warm {warm}", file=sys.stderr)

    jitted = solvers.get("backtrack-jit")  # branching=wdeg
    plain = solvers.get("backtrack-jit", branching="fewest")
    fast = solvers.get("backtrack-fast")
    sat = solvers.get("sat")
    rows: list[dict] = []
    for name, path in files.items():
        givens = read_givens(path)
        whole = Batch(name, NINE, givens, np.arange(len(givens)), np.arange(1, len(givens) + 1))
        k = min(len(givens), args.reference)
        head = Batch(name, NINE, givens[:k], whole.index[:k], whole.line[:k])
        paths = [
            ("backtrack-jit solve_batch, whole set", lambda b: jitted.solve_batch(b.givens, NINE), whole),
            ("backtrack-jit branching=fewest solve_batch, whole set",
             lambda b: plain.solve_batch(b.givens, NINE), whole),
            ("backtrack-jit solve_batch", lambda b: jitted.solve_batch(b.givens, NINE), head),
            ("backtrack-jit bare Python loop", lambda b: bare_loop(b.givens), head),
            ("backtrack-jit solve()", lambda b: solve_batch(_Loop(jitted), b), head),
            ("backtrack-fast solve()", lambda b: solve_batch(_Loop(fast), b), head),
            ("sat solve_batch", lambda b: solve_batch(sat, b), head),
        ]
        best: dict[str, dict] = {}
        for round_ in range(args.rounds):  # the paths take turns, in reverse order every other round
            for label, run, batch in paths if round_ % 2 == 0 else paths[::-1]:
                row = {"set": name, "head": batch is head, **timed(label, run, batch)}
                if label not in best or row["rate"] > best[label]["rate"]:
                    best[label] = row
        rows += [best[label] for label, _, _ in paths]
    sat.close()

    md = [f"numba {numba.__version__}.", "", "## Start-up (child processes)", "",
          markdown_table(["start", "import s", "warm_up s (compile or load)", "whole process s"], [
              ["cold: empty NUMBA_CACHE_DIR", *(f"{x:.2f}" for x in cold)],
              ["warm: the same NUMBA_CACHE_DIR again", *(f"{x:.2f}" for x in warm_own)],
              ["warm: the default cache (`__pycache__` beside jit.py)", *(f"{x:.2f}" for x in warm)]]),
          "## Rates", ""]
    table = []
    for name in files:
        mine = [r for r in rows if r["set"] == name]
        sat_rate = next(r["rate"] for r in mine if r["path"].startswith("sat"))
        fast_rate = next(r["rate"] for r in mine if r["path"].startswith("backtrack-fast"))
        for r in mine:
            ratios = [f"{r['rate'] / sat_rate:,.1f}x", f"{r['rate'] / fast_rate:,.1f}x"] if r["head"] else ["-", "-"]
            table.append([name, r["path"], f"{r['k']:,}", f"{r['rate']:,.0f}", f"{r['k'] / r['cpu']:,.0f}", *ratios,
                          format_seconds(r["median"]), format_seconds(r["p99"]), f"{r['nodes']:,.1f}", r["wrong"],
                          f"{r['load']:.2f}"])
    md += [markdown_table(["set", "path", "puzzles", "puzzles/s", "puzzles/cpu-s", "vs sat", "vs backtrack-fast",
                           "median", "p99", "mean nodes", "wrong", "load"], table),
           "How measured: puzzles/s = puzzles / wall seconds of the whole call (the givens parsed into an "
           "array beforehand, results checked afterwards by `checking.grids_valid`); puzzles/cpu-s the same over "
           "the sum of the per-puzzle CPU seconds each path records; median and p99 are of the per-puzzle wall "
           "times (the batch loop reads `clock_gettime` inside the compiled code, once per puzzle; the other "
           "paths `perf_counter` and `process_time` around each puzzle). The references ran on the first "
           f"{args.reference:,} puzzles of each set only, so ratios are given for the rows on those same puzzles. "
           f"Every path ran {args.rounds} times in one process, taking turns (reverse order every other round); "
           "the table keeps each path's best round and the 1-minute load average when it started. tdoku's rate "
           "on this machine kind is in ../shared/data/README.md (~211,000-240,000/s on 17_clue)."]
    written = write_results("jit.md", "The compiled search: backtrack-jit", "\n".join(md),
                            how=f"Made by `{command_line()}`.", measured_on=measured_on, folder=args.out_dir)
    print(f"wrote {written}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
