"""``sudokulab propagate --summary`` on 17_clue: puzzles per second up to each level of the ladder.

Issue 23 asks for 1,000 puzzles/s or more up to the all-different level. Two paths are timed, each
on the same first ``--puzzles`` puzzles of 17_clue (``--data``, default ``../shared/data``; the script
exits cleanly with a note when the set is absent):

- ``command``: the whole command in-process, ``cli.main(["propagate", FILE, "--summary", "--level",
  L, "--limit", K, "--quiet"])``, reading and parsing the file included, its table discarded;
- ``ladder``: ``ladder.summarize`` over puzzles parsed beforehand (the reasoning alone).

Each is run ``--rounds`` times; the table gives the best and the median rate over wall seconds and
the best over CPU seconds of this process (on a shared machine the CPU rate is the steadier
figure). Failed-literal probing, far slower, runs on the first ``--probe`` puzzles only. The
settled counts are printed beside the rates (they must be the same on both paths).

    .venv/bin/python benchmarks/propagate.py                 # writes results/propagate.md
    .venv/bin/python benchmarks/propagate.py --puzzles 500 --rounds 1 --out -   # a quick look
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import platform
import statistics
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "src"))

from sudokulab.cli import main as cli  # noqa: E402
from sudokulab.datasets.reading import load_puzzles, puzzle_lines  # noqa: E402
from sudokulab.reasoning.ladder import summarize  # noqa: E402
from sudokulab.reasoning.levels import LEVELS  # noqa: E402

DEFAULT_DATA = ROOT.parent / "shared" / "data"


def timed(run, *arguments) -> tuple[float, float, object]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = run(*arguments)
    return time.perf_counter() - wall, time.process_time() - cpu, result


def command(path: Path, level: str, limit: int) -> list[int]:
    """The command's settled counts (parsed back from its table)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli.main(["propagate", str(path), "--summary", "--level", level, "--limit", str(limit), "--quiet"])
    if code:
        raise SystemExit(f"propagate exited {code}")
    return [int(line.split()[1]) for line in out.getvalue().splitlines()[2:]]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--puzzles", type=int, default=5000, help="puzzles of 17_clue per level (default 5000)")
    parser.add_argument("--probe", type=int, default=500, help="puzzles for the failed-literal level (default 500)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", default=str(HERE / "results" / "propagate.md"), help="the report, or - for stdout")
    args = parser.parse_args()
    source = args.data / "17_clue.txt"
    if not source.exists():
        print(f"{source} is absent: nothing measured")
        return 0
    started = time.perf_counter()
    loads = [os.getloadavg()]
    with tempfile.TemporaryDirectory() as folder:
        sample = Path(folder) / "17_clue_sample.txt"
        sample.write_text("\n".join(puzzle_lines(source, args.puzzles)) + "\n")
        puzzles = load_puzzles(sample)
        rows = []
        for level in LEVELS:
            count = args.probe if level == "failed-literal+matching" else args.puzzles
            chosen = puzzles[:count]
            for path_name in ("command", "ladder"):
                walls, cpus, settled = [], [], None
                for _ in range(args.rounds):
                    if path_name == "command":
                        wall, cpu, result = timed(command, sample, level, count)
                        counts = result
                    else:
                        wall, cpu, result = timed(summarize, chosen, level)
                        counts = [row.settled for row in result]
                    walls.append(wall)
                    cpus.append(cpu)
                    if settled is not None and counts != settled:
                        raise SystemExit(f"{level} {path_name}: settled counts changed between rounds")
                    settled = counts
                loads.append(os.getloadavg())
                rows.append((level, path_name, count, count / min(walls), count / statistics.median(walls),
                             count / min(cpus), settled))
                print(f"{level:15} {path_name:8} {count:6} best {rows[-1][3]:7.0f}/s  median {rows[-1][4]:7.0f}/s  "
                      f"cpu {rows[-1][5]:7.0f}/s  settled {settled}", file=sys.stderr)
    seconds = time.perf_counter() - started
    lows = min(load[0] for load in loads)
    highs = max(load[0] for load in loads)
    when = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        "# propagate --summary on 17_clue: puzzles per second up to each level (issue 23)",
        "",
        f"Measured by `benchmarks/propagate.py` on {when}: {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, 1-minute load average {lows:.1f}-{highs:.1f} during the run (a machine shared "
        f"by several people: the CPU rate is the steadier figure), {seconds:.0f} s in all.",
        "",
        f"The first {args.puzzles:,} puzzles of 17_clue (failed-literal: the first {args.probe:,}), {args.rounds} "
        "round(s) each. `command` is the whole `sudokulab propagate FILE --summary --level L --limit K --quiet` "
        "in-process (reading and parsing the file included); `ladder` is `ladder.summarize` over puzzles parsed "
        "beforehand. A row for level L runs every level up to L on each puzzle (as the command does), so its rate "
        "is that of the whole ladder up to L. Rates are puzzles per second over wall time (best and median of the "
        "rounds) and over this process's CPU time (best).",
        "",
        "| up to level | path | puzzles | best /s (wall) | median /s (wall) | best /s (CPU) | settled per level |",
        "| --- | --- | ---: | ---: | ---: | ---: | --- |",
    ]
    for level, path_name, count, best, median, cpu, settled in rows:
        lines.append(f"| {level} | {path_name} | {count:,} | {best:,.0f} | {median:,.0f} | {cpu:,.0f} | "
                     f"{' / '.join(str(s) for s in settled)} |")
    goal = [row for row in rows if row[0] == "all-different" and row[1] == "command"]
    if goal:
        _, _, _, best, _, cpu, _ = goal[0]
        met = {True: "met", False: "not met"}
        lines += ["", f"Issue 23's goal, 1,000 puzzles/s or more up to the all-different level: the whole command "
                  f"reached {cpu:,.0f}/s over CPU time ({met[cpu >= 1000]} on a core of its own) and {best:,.0f}/s "
                  f"over wall time on this loaded machine ({met[best >= 1000]} while others ran)."]
    lines.append("")
    text = "\n".join(lines) + "\n"
    if args.out == "-":
        sys.stdout.write(text)
    else:
        Path(args.out).write_text(text)
        print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
