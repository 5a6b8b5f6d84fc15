"""``sudokulab propagate --summary`` on 17_clue: puzzles per second up to each level of the ladder.

Issue 23 asks for 1,000 puzzles/s or more up to the all-different level. Two paths are timed, each
on the same first ``--puzzles`` puzzles of 17_clue (found by the catalogue, or in ``--data DIR``; the
script exits cleanly with a note when the set is absent):

- ``command``: the whole command in-process, ``cli.main(["propagate", FILE, "--summary", "--level",
  L, "--limit", K, "--quiet"])``, reading and parsing the file included, its table discarded;
- ``ladder``: ``ladder.summarize`` over puzzles parsed beforehand (the reasoning alone).

Each is run ``--rounds`` times; the table gives the best and the median rate over wall seconds and
the best over CPU seconds of this process (on a shared machine the CPU rate is the steadier
figure). Failed-literal probing, far slower, runs on the first ``--probe`` puzzles only. The
settled counts are printed beside the rates (they must be the same on both paths).

    .venv/bin/python benchmarks/propagate.py                 # writes results/propagate.md
    .venv/bin/python benchmarks/propagate.py --puzzles 500 --rounds 1 --out-dir /tmp/quick   # a quick look
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
import tempfile
from pathlib import Path

from harness import RESULTS, Spread, command_line, dataset, load, machine, markdown_table, timer, write_results

from sudokulab.cli import main as cli
from sudokulab.datasets.reading import load_puzzles, puzzle_lines
from sudokulab.reasoning.ladder import summarize
from sudokulab.reasoning.levels import LEVELS


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
    parser.add_argument("--data", type=Path, help="folder of the sets (default: the catalogue's)")
    parser.add_argument("--puzzles", type=int, default=5000, help="puzzles of 17_clue per level (default 5000)")
    parser.add_argument("--probe", type=int, default=500, help="puzzles for the failed-literal level (default 500)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out-dir", type=Path, default=RESULTS, help="where propagate.md goes (default: results/)")
    args = parser.parse_args()
    source = dataset("17_clue", args.puzzles, args.data)
    if source is None:
        print("nothing measured", file=sys.stderr)
        return 0
    measured_on = machine()
    loads = [load()]
    with timer() as whole, tempfile.TemporaryDirectory() as folder:
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
                    with timer() as took:
                        if path_name == "command":
                            counts = command(sample, level, count)
                        else:
                            counts = [row.settled for row in summarize(chosen, level)]
                    walls.append(took[0].wall)
                    cpus.append(took[0].cpu)
                    if settled is not None and counts != settled:
                        raise SystemExit(f"{level} {path_name}: settled counts changed between rounds")
                    settled = counts
                loads.append(load())
                rows.append((level, path_name, count, count / min(walls), count / Spread.of(walls).median,
                             count / min(cpus), settled))
                print(f"{level:15} {path_name:8} {count:6} best {rows[-1][3]:7.0f}/s  median {rows[-1][4]:7.0f}/s  "
                      f"cpu {rows[-1][5]:7.0f}/s  settled {settled}", file=sys.stderr)
    lines = [
        f"1-minute load average {min(loads):.1f}-{max(loads):.1f} during the run (a machine shared by several "
        f"people: the CPU rate is the steadier figure), {whole[0].wall:.0f} s in all.",
        "",
        f"The first {args.puzzles:,} puzzles of 17_clue (failed-literal: the first {args.probe:,}), {args.rounds} "
        "round(s) each. `command` is the whole `sudokulab propagate FILE --summary --level L --limit K --quiet` "
        "in-process (reading and parsing the file included); `ladder` is `ladder.summarize` over puzzles parsed "
        "beforehand. A row for level L runs every level up to L on each puzzle (as the command does), so its rate "
        "is that of the whole ladder up to L. Rates are puzzles per second over wall time (best and median of the "
        "rounds) and over this process's CPU time (best).",
        "",
        markdown_table(["up to level", "path", "puzzles", "best /s (wall)", "median /s (wall)", "best /s (CPU)",
                        "settled per level"],
                       [[level, path_name, f"{count:,}", f"{best:,.0f}", f"{median:,.0f}", f"{cpu:,.0f}",
                         " / ".join(str(s) for s in settled)]
                        for level, path_name, count, best, median, cpu, settled in rows]),
    ]
    goal = [row for row in rows if row[0] == "all-different" and row[1] == "command"]
    if goal:
        _, _, _, best, _, cpu, _ = goal[0]
        met = {True: "met", False: "not met"}
        lines += [f"Issue 23's goal, 1,000 puzzles/s or more up to the all-different level: the whole command "
                  f"reached {cpu:,.0f}/s over CPU time ({met[cpu >= 1000]} on a core of its own) and {best:,.0f}/s "
                  f"over wall time on this loaded machine ({met[best >= 1000]} while others ran)."]
    body = "\n".join(lines)
    print(body)
    write_results("propagate.md", "propagate --summary on 17_clue: puzzles per second up to each level (issue 23)",
                  body, how=f"Made by `{command_line()}`.", measured_on=measured_on, folder=args.out_dir)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
