"""Benchmark of the exact-cover paradigm: ``dlx``'s two formulations, then ``dlx`` beside ``backtrack-fast``.

Both parts run ``sudokulab.bench.run.run_bench`` with ``by_solver=True`` (one solver over a whole set
at a time, one process), so each figure is the whole path per puzzle: read and parse the line,
solve, check the answer with the independent checker. Rates are given by wall time and by the
process's CPU time; on a machine shared with other work the CPU figure is the steadier one.

1. ``structure``: ``links`` against ``sets`` on the first 2,000 puzzles of 17_clue, all 375 of
   forum_hardest_1106 and the first 500 of magictour_top1465, in the order links, sets, sets,
   links (so a drift in the machine's load hits both alike), summed over both rounds;
2. ``dlx`` (its default) beside ``backtrack-fast`` on all of forum_hardest_1106, in one run;
3. with ``--before SRC`` (another checkout's ``src``, e.g. main's): both structures on the first
   ``--sample`` puzzles of 17_clue, that code against this checkout's, each run a fresh process
   (``PYTHONPATH`` set to one ``src``), alternated before, after, after, before, ... for
   ``--rounds`` rounds; the median CPU rate of each and their ratio. This is how a change (rules
   as data, issue 22) shows that standard Sudoku got no slower. ``--only-before`` runs part 3 alone.

The sets are found by the catalogue (or in ``--data DIR``). Writes ``results/dlx.md``. Example (about
two minutes)::

    .venv/bin/python benchmarks/dlx.py
    .venv/bin/python benchmarks/dlx.py --before ../main/src --only-before
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from harness import RESULTS, ROOT, Spread, command_line, dataset, load, machine, markdown_table, write_results

from sudokulab.bench.run import run_bench
from sudokulab.datasets.reading import Dataset
from sudokulab.solvers.exact_cover.solver import STRUCTURES

STRUCTURE_SETS = (("17_clue", 2000), ("forum_hardest_1106", None), ("magictour_top1465", 500))
HARDEST = "forum_hardest_1106"
SAMPLE_SET = "17_clue"
"""Part 3's set."""


def compare_structures(paths: Mapping[str, Path], time_limit: float) -> tuple[str, int]:
    """Part 1: the markdown table of links against sets, and how many puzzles went unsolved."""
    totals: dict[tuple[str, str], list[float]] = {}  # (set, structure) -> puzzles, wall, cpu, nodes, updates
    unsolved = 0
    for structure in (*STRUCTURES, *reversed(STRUCTURES)):
        datasets = [Dataset.from_path(paths[name], name=name, limit=limit) for name, limit in STRUCTURE_SETS]
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
        cpu = {}
        for structure in STRUCTURES:
            puzzles, wall, cpu_seconds, nodes, updates = totals[(name, structure)]
            cpu[structure] = puzzles / cpu_seconds
            rows.append([name, "all" if limit is None else f"first {limit}", structure, f"{int(puzzles)}",
                         f"{puzzles / wall:,.1f}", f"{cpu[structure]:,.1f}", f"{nodes / puzzles:,.0f}",
                         f"{updates / puzzles:,.0f}"])
        rows[-2].append("")
        rows[-1].append(f"{cpu['links'] / cpu['sets']:.2f}x")
    header = ["set", "puzzles", "structure", "runs (2 rounds)", "wall /s", "CPU /s", "nodes/puzzle",
              "updates/puzzle", "links/sets (CPU /s)"]
    return markdown_table(header, rows), unsolved


def beside_backtrack_fast(path: Path, time_limit: float) -> tuple[str, int]:
    """Part 2: dlx and backtrack-fast on the whole of forum_hardest_1106, one run."""
    report = run_bench([Dataset.from_path(path, name=HARDEST)], ["backtrack-fast", "dlx"], time_limit=time_limit,
                       by_solver=True, progress=False)
    rows = [[s.solver, s.puzzles, s.solved, s.timed_out, s.wrong, f"{s.per_second:,.1f}",
             f"{s.per_cpu_second:,.1f}", f"{s.means.get('nodes', 0):,.0f}"] for s in report.summaries]
    text = markdown_table(["solver", "puzzles", "solved", "timed out", "wrong", "wall /s", "CPU /s", "nodes/puzzle"],
                          rows)
    unsolved = sum(s.puzzles - s.solved for s in report.summaries)
    return f"{text}\nMeasured: {report.how_measured()}.", unsolved


def worker(structure: str, path: Path, sample: int, time_limit: float) -> None:
    """One run of part 3, in a process of its own: prints puzzles, solved, CPU and wall seconds as JSON."""
    report = run_bench([Dataset.from_path(path, limit=sample)], ["dlx"], time_limit=time_limit,
                       options={"dlx": {"structure": structure}}, by_solver=True, progress=False)
    (s,) = report.summaries
    print(json.dumps({"puzzles": s.puzzles, "solved": s.solved, "cpu": s.cpu_seconds, "wall": s.seconds,
                      "nodes": s.means.get("nodes", 0)}))


def before_and_after(before: Path, path: Path, sample: int, rounds: int, time_limit: float) -> tuple[str, int]:
    """Part 3: dlx under another checkout's code and under this one, alternated, one process a run."""
    sources = {"before": before.resolve(), "after": ROOT / "src"}
    runs: dict[tuple[str, str], list[dict]] = {}
    for structure in STRUCTURES:
        for round_ in range(rounds):
            for label in ("before", "after") if round_ % 2 == 0 else ("after", "before"):
                env = dict(os.environ, PYTHONPATH=str(sources[label]))
                done = subprocess.run([sys.executable, __file__, "--worker", structure, "--data", str(path.parent),
                                       "--sample", str(sample), "--time-limit", str(time_limit)],
                                      env=env, capture_output=True, text=True, check=True)
                runs.setdefault((structure, label), []).append(json.loads(done.stdout.splitlines()[-1]))
    rows = []
    unsolved = 0
    for structure in STRUCTURES:
        median = {}
        for label in ("before", "after"):
            got = runs[(structure, label)]
            unsolved += sum(r["puzzles"] - r["solved"] for r in got)
            rates = [r["puzzles"] / r["cpu"] for r in got]
            median[label] = Spread.of(rates).median
            rows.append([structure, label, str(sources[label]), len(got), f"{median[label]:,.1f}",
                         " ".join(f"{rate:,.0f}" for rate in rates), f"{got[0]['nodes']:,.1f}"])
        rows[-1].append(f"{median['after'] / median['before']:.3f}")
        rows[-2].append("")
    header = ["structure", "code", "src", "runs", "CPU /s (median)", "each run", "nodes/puzzle", "after/before"]
    return markdown_table(header, rows), unsolved


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, help="folder of the sets (default: the catalogue's)")
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds a puzzle, a safety net (default: 60)")
    parser.add_argument("--out-dir", type=Path, default=RESULTS, help="where dlx.md goes (default: results/)")
    parser.add_argument("--before", type=Path, help="part 3: another checkout's src folder to compare against")
    parser.add_argument("--only-before", action="store_true", help="run part 3 alone")
    parser.add_argument("--sample", type=int, default=2000, help="part 3: first puzzles of 17_clue (default: 2000)")
    parser.add_argument("--rounds", type=int, default=6, help="part 3: runs of each code (default: 6)")
    parser.add_argument("--worker", choices=STRUCTURES, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.worker, args.data / f"{SAMPLE_SET}.txt", args.sample, args.time_limit)
        return 0
    if args.only_before and not args.before:
        parser.error("--only-before needs --before SRC")
    wanted = [] if args.only_before else [*STRUCTURE_SETS, (HARDEST, None)]
    if args.before:
        wanted.append((SAMPLE_SET, args.sample))
    paths = {name: dataset(name, limit, args.data) for name, limit in wanted}
    if None in paths.values():
        print("nothing measured", file=sys.stderr)
        return 0
    measured_on = machine()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    intro = (f"At commit {commit.stdout.strip() or '?'} (plus uncommitted work). Whole path per puzzle (parse, "
             "solve, check), one process.")
    print(intro, flush=True)
    sections = [intro, ""]
    unsolved = 0
    if not args.only_before:
        structures, unsolved_1 = compare_structures(paths, args.time_limit)
        print(structures, flush=True)
        beside, unsolved_2 = beside_backtrack_fast(paths[HARDEST], args.time_limit)
        print(beside, flush=True)
        unsolved += unsolved_1 + unsolved_2
        sections += [
            "## The two formulations (`structure`)", "",
            "`run_bench(..., [\"dlx\"], options={\"dlx\": {\"structure\": ...}}, by_solver=True)`, in the order "
            "links, sets, sets, links; each row sums both of its rounds.", "",
            structures,
            f"## `dlx` beside `backtrack-fast` on {HARDEST}", "",
            f"`run_bench([{HARDEST}], [\"backtrack-fast\", \"dlx\"], time_limit={args.time_limit:g}, by_solver=True)`.",
            "",
            beside, "",
        ]
    if args.before:
        compared, unsolved_3 = before_and_after(args.before, paths[SAMPLE_SET], args.sample, args.rounds,
                                                args.time_limit)
        print(compared, flush=True)
        unsolved += unsolved_3
        sections += [
            "## Before and after, standard Sudoku", "",
            f"`run_bench([17_clue first {args.sample}], [\"dlx\"], by_solver=True)` in a fresh process a run, "
            f"{args.rounds} runs of each code alternated (before, after, after, before, ...); CPU time of the process.",
            "",
            compared,
        ]
    sections.append(f"Load average at end {load():.2f}.")
    write_results("dlx.md", "Exact cover (Algorithm X): `dlx`", "\n".join(sections), how=f"Made by `{command_line()}`.",
                  measured_on=measured_on, folder=args.out_dir)
    return 1 if unsolved else 0


if __name__ == "__main__":
    sys.exit(main())
