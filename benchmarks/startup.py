"""Start-up time of the commands a person runs most, against the interpreter's own.

Issue 25 asks ``sudokulab --help`` within 1.5x of ``python -c "import argparse"``. This runs each
command line ``--runs`` times as a fresh process (stdout and stderr to /dev/null), in turns, and
gives the median wall time, beside ``python -c pass`` and ``python -c "import argparse"``, with the
one-minute load average before and after; then ``python -X importtime`` of ``sudokulab --help``:
the imports that cost most, cumulative (a package with what it imports).

    .venv/bin/python benchmarks/startup.py --runs 21 --markdown benchmarks/results/startup.md
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
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
    started = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - started


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
    parser.add_argument("--markdown", metavar="FILE", help="write the results here as Markdown")
    args = parser.parse_args()
    env_load = os.getloadavg()[0]
    started = datetime.now(timezone.utc)
    times: dict[str, list[float]] = {name: [] for name in LINES}
    for _ in range(args.runs):
        for name, command in LINES.items():  # in turns, so a change of load hits every line alike
            times[name].append(timed(command))
    end_load = os.getloadavg()[0]
    argparse_ms = statistics.median(times['python -c "import argparse"']) * 1000
    lines = [
        "# Start-up time of the commands (issue 25)", "",
        f"Command: `{Path(PY).name} benchmarks/startup.py --runs {args.runs}`; started "
        f"{started:%Y-%m-%d %H:%M} UTC, CPython {platform.python_version()}, {os.cpu_count()} cores, "
        f"one-minute load average {env_load:.2f} at the start, {end_load:.2f} at the end.", "",
        f"How measured: each command line run {args.runs} times as a fresh process, the lines in turns, "
        "stdout and stderr to /dev/null; the median wall time (subprocess start to exit). "
        "`python -m sudokulab` runs what the console script runs.", "",
        "| command line | median ms | min ms | of `import argparse` |", "| --- | ---: | ---: | ---: |",
    ]
    for name, values in times.items():
        median = statistics.median(values) * 1000
        lines.append(f"| `{name}` | {median:.1f} | {min(values) * 1000:.1f} | {median / argparse_ms:.2f}x |")
    lines += ["", "`python -X importtime -m sudokulab --help`, the costliest imports by cumulative time "
              "(one run; importtime's own overhead included):", "",
              "| module | self ms | cumulative ms |", "| --- | ---: | ---: |"]
    for name, own, total in import_breakdown(LINES["sudokulab --help"], args.top):
        lines.append(f"| `{name}` | {own:.1f} | {total:.1f} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.markdown:
        Path(args.markdown).write_text(text)


if __name__ == "__main__":
    main()
