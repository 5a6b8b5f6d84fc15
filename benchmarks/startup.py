"""Start-up time of the commands a person runs most, against the interpreter's own.

Issue 25 asks ``sudokulab --help`` within 1.5x of ``python -c "import argparse"``. This runs each
command line ``--runs`` times as a fresh process (stdout and stderr to /dev/null), in turns, and
gives the median wall time, beside ``python -c pass`` and ``python -c "import argparse"``, with the
one-minute load average before and after; then ``python -X importtime`` of ``sudokulab --help``:
the imports that cost most, cumulative (a package with what it imports).

    .venv/bin/python benchmarks/startup.py --runs 21          # writes results/startup.md
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from harness import RESULTS, ROOT, Spread, command_line, load, machine, markdown_table, timer, write_results

SAMPLE = str(ROOT / "examples" / "boj2580-sample.txt")
ANSWER = str(ROOT / "examples" / "boj2580-sample.out")
PY = sys.executable
LINES = {
    "python -c pass": [PY, "-c", "pass"],
    'python -c "import argparse"': [PY, "-c", "import argparse"],
    "sudokulab --help": [PY, "-m", "sudokulab", "--help"],
    "sudokulab solve sample": [PY, "-m", "sudokulab", "solve", SAMPLE],
    "sudokulab verify --no-oracle sample answer": [PY, "-m", "sudokulab", "verify", "--no-oracle", SAMPLE, ANSWER],
    "sudokulab verify sample answer": [PY, "-m", "sudokulab", "verify", SAMPLE, ANSWER],
    "sudokulab solvers": [PY, "-m", "sudokulab", "solvers"],
}


def timed(command: list[str]) -> float:
    with timer() as took:
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return took[0].wall


def import_breakdown(command: list[str], top: int) -> list[tuple[str, float, float]]:
    """(module, self ms, cumulative ms) of the ``top`` costliest imports by cumulative time."""
    done = subprocess.run([command[0], "-X", "importtime", *command[1:]], capture_output=True, text=True)
    rows = []
    for line in done.stderr.splitlines():
        if line.startswith("import time:") and "|" in line and "self [us]" not in line:
            own, total, name = line.removeprefix("import time:").split("|")
            rows.append((name.strip(), int(own) / 1000, int(total) / 1000, len(name) - len(name.lstrip())))
    rows.sort(key=lambda row: -row[2])
    return [(("  " * (depth - 1)) + name, own, total) for name, own, total, depth in rows[:top]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11, help="runs of each command line (default: 11)")
    parser.add_argument("--top", type=int, default=15, help="imports listed (default: 15)")
    parser.add_argument("--out-dir", type=Path, default=RESULTS, help="where startup.md goes (default: results/)")
    args = parser.parse_args()
    measured_on = machine()
    times: dict[str, list[float]] = {name: [] for name in LINES}
    for _ in range(args.runs):
        for name, command in LINES.items():  # in turns, so a change of load hits every line alike
            times[name].append(timed(command))
    argparse_ms = Spread.of(times['python -c "import argparse"']).median * 1000
    rows = []
    for name, values in times.items():
        spread = Spread.of(values)
        rows.append([f"`{name}`", f"{spread.median * 1000:.1f}", f"{spread.low * 1000:.1f}",
                     f"{spread.median * 1000 / argparse_ms:.2f}x"])
    imports = [[f"`{name}`", f"{own:.1f}", f"{total:.1f}"]
               for name, own, total in import_breakdown(LINES["sudokulab --help"], args.top)]
    body = "\n".join([
        f"How measured: each command line run {args.runs} times as a fresh process, the lines in turns, "
        "stdout and stderr to /dev/null; the median wall time (subprocess start to exit). "
        f"`python -m sudokulab` runs what the console script runs. Load average at the end: {load():.2f}.", "",
        markdown_table(["command line", "median ms", "min ms", "of `import argparse`"], rows),
        "`python -X importtime -m sudokulab --help`, the costliest imports by cumulative time "
        "(one run; importtime's own overhead included):", "",
        markdown_table(["module", "self ms", "cumulative ms"], imports)])
    print(body)
    write_results("startup.md", "Start-up time of the commands (issue 25)", body,
                  how=f"Made by `{command_line()}`.", measured_on=measured_on, folder=args.out_dir)


if __name__ == "__main__":
    main()
