"""Sudoku Explainer's scale held to serate: the sample, serate's own ratings and times, the fixture, the comparison.

serate is Sudoku Explainer 1.2.1's command-line rater (gsf's 1.2.1.3, as published in the public
repository github.com/1to9only/SudokuExplainer, commit 729c00e). It is not part of sudokulab and never
committed: build it yourself from that commit (``javac -sourcepath src -d classes
src/diuf/sudoku/test/serate.java``, Java 17 works) and give the class folder with ``--classpath``.

    draw        the sample: N puzzles of each set (``--sizes``), drawn with ``--seed`` as ``sudokulab
                rate --sample N --seed S`` draws them (``rating.chosen_entries``)
    serate      serate on the sample, one JVM per puzzle (``java -Xrs -Xmx500m``, its documented
                invocation), each under a CPU cap (``--cap`` seconds, ``prlimit``); one row per
                puzzle appended to ``--runs`` (set, line, puzzle, ER/EP/ED or ``-`` when it did not
                finish, CPU seconds, wall seconds, cap); a puzzle already there is skipped, so a run
                can be stopped and resumed, and two runs on one file share the work
    fixture     the fixture: every finished row of ``--runs`` (tests/fixtures/serate_ratings.tsv)
    ours        ours (``reasoning.serate``, compiled where built) on the sample, one puzzle after
                another in this process, each timed (``time.process_time``); one row per puzzle
                appended to ``--ours`` (set, line, puzzle, ER/EP/ED, CPU seconds), resumable as
                ``serate`` is, so it can run beside serate and the comparison need not rate again
    compare     every row of ``--runs`` against ours: from ``--ours`` where it has the puzzle, else
                rated and timed here as ``ours`` does; agreement per set, and the speed side by
                side; Markdown to ``--out`` (what follows its NOTES line there is kept)

    .venv/bin/python benchmarks/serate.py serate --classpath ../serate-build/classes --cap 300
    .venv/bin/python benchmarks/serate.py --sizes forum_hardest_1905_11plus=100 serate \\
        --classpath ../serate-build/classes --cap 60
    .venv/bin/python benchmarks/serate.py ours
    .venv/bin/python benchmarks/serate.py fixture
    .venv/bin/python benchmarks/serate.py compare --out benchmarks/results/serate.md

``--runs`` (default benchmarks/results/serate-runs.tsv), ``--ours`` (default
benchmarks/results/serate-ours.tsv), ``--sizes`` and ``--seed`` come before the subcommand.
"""

from __future__ import annotations

import argparse
import datetime
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from harness import machine, whole_set

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "serate_ratings.tsv"
SEED = 45
SIZES = {"17_clue": 70, "norvig_top95": 50, "magictour_top1465": 50, "forum_hardest_1106": 20,
         "forum_hardest_1905_11plus": 100}
SOURCES = {
    "17_clue": "Gordon Royle's 17-clue collection (shared/data/17_clue.txt, as published with tdoku)",
    "norvig_top95": "magictour top95, from Norvig's essay (shared/data/norvig_top95.txt)",
    "magictour_top1465": "magictour.free.fr top1465 (shared/data/magictour_top1465.txt)",
    "forum_hardest_1106": "enjoysudoku forum HardestDatabase110626 (shared/data/forum_hardest_1106.txt)",
    "forum_hardest_1905_11plus": "enjoysudoku forum hardest, SE 11+, 2019 (shared/data/forum_hardest_1905_11plus.txt)",
}
COLUMNS = ("set", "line", "puzzle", "serate", "cpu", "wall", "cap")
OURS_COLUMNS = ("set", "line", "puzzle", "ours", "cpu")
NOTES = "<!-- notes by hand: compare keeps what follows this line -->"
"""In ``--out``: the hand-written account of a run (caps, load) stays when compare writes the file again."""


def set_rank(name: str) -> int:
    """A set's place in SIZES (a set not there comes last): the order of the fixture and the tables."""
    order = list(SIZES)
    return order.index(name) if name in order else len(order)


def shown(path: Path) -> Path:
    """A path as a report names it: relative to the repository where it is inside it."""
    return path.relative_to(ROOT) if path.is_relative_to(ROOT) else path


def draw(data: Path | None, sizes: dict[str, int], seed: int) -> list[tuple[str, int, str]]:
    from sudokulab.datasets.reading import Dataset
    from sudokulab.reasoning.rating import chosen_entries

    rows = []
    for name, size in sizes.items():
        path = whole_set(name, data)
        if path is None:
            sys.exit(f"serate.py: the whole {name} set is not on this machine: give --data FOLDER")
        for entry in chosen_entries(Dataset.from_path(path), size, seed):
            assert entry.puzzle is not None
            rows.append((name, entry.line, "".join(str(v) if v else "." for v in entry.puzzle.givens)))
    return rows


def read_runs(path: Path, columns: tuple[str, ...] = COLUMNS) -> list[dict[str, str]]:
    if not path.exists():
        return []
    rows = []
    for text in path.read_text().splitlines():
        if text and not text.startswith("#"):
            rows.append(dict(zip(columns, text.split("\t"), strict=True)))
    return rows


def rate_timed(puzzle: str) -> tuple[str, float]:
    """Ours on one puzzle: ER/EP/ED as serate prints them, and the CPU seconds of this process."""
    from sudokulab.reasoning.serate.solver import rate

    givens = [int(c) if c.isdigit() else 0 for c in puzzle]
    start = time.process_time()
    found = rate(givens)
    return f"{found.er:.1f}/{found.ep:.1f}/{found.ed:.1f}", time.process_time() - start


def run_ours(args: argparse.Namespace) -> int:
    done = {(r["set"], r["line"], r["puzzle"]) for r in read_runs(args.ours, OURS_COLUMNS)}
    if not args.ours.exists():
        args.ours.write_text("# " + "\t".join(OURS_COLUMNS) + "\n")
    for name, line, puzzle in draw(args.data, _sizes(args.sizes), args.seed):
        if (name, str(line), puzzle) in done:
            continue
        ours, seconds = rate_timed(puzzle)
        with args.ours.open("a") as out:
            out.write(f"{name}\t{line}\t{puzzle}\t{ours}\t{seconds:.2f}\n")
        print(f"{name}:{line}\t{ours}\t{seconds:.1f} s", file=sys.stderr, flush=True)
    return 0


def run_serate(args: argparse.Namespace) -> int:
    if shutil.which("java") is None:
        sys.exit("serate.py: no java here")
    prlimit = shutil.which("prlimit")
    done = {(r["set"], r["line"]) for r in read_runs(args.runs)}
    args.runs.parent.mkdir(parents=True, exist_ok=True)
    if not args.runs.exists():
        args.runs.write_text("# " + "\t".join(COLUMNS) + "\n")
    for name, line, puzzle in draw(args.data, _sizes(args.sizes), args.seed):
        if (name, str(line)) in done:
            continue
        claim = args.runs.with_name(f"{args.runs.name}.{name}.{line}.claim")
        try:  # two runs on one file share the work
            os.close(os.open(claim, os.O_CREAT | os.O_EXCL))
        except FileExistsError:
            continue
        command = ["java", "-Xrs", "-Xmx500m", "-cp", str(args.classpath), "diuf.sudoku.test.serate",
                   "--format=%r/%p/%d", puzzle]
        if prlimit:
            command = [prlimit, f"--cpu={args.cap}", *command]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.time()
        done_run = subprocess.run(command, capture_output=True, text=True)
        wall = time.time() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        rating = done_run.stdout.strip() if done_run.returncode == 0 and done_run.stdout.strip() else "-"
        with args.runs.open("a") as out:
            out.write(f"{name}\t{line}\t{puzzle}\t{rating}\t{cpu:.2f}\t{wall:.2f}\t{args.cap}\n")
        claim.unlink(missing_ok=True)
        print(f"{name}:{line}\t{rating}\t{cpu:.1f} s", file=sys.stderr, flush=True)
    return 0


def write_fixture(args: argparse.Namespace) -> int:
    rows = [r for r in read_runs(args.runs) if r["serate"] != "-"]
    sizes = _sizes(args.sizes)
    rows.sort(key=lambda r: (set_rank(r["set"]), int(r["line"])))
    lines = [
        "# serate's ratings of a sample, the contract reasoning.serate is held to (tests/reasoning/test_serate.py).",
        "# serate: Sudoku Explainer 1.2.1.3 (gsf's command-line rater), github.com/1to9only/SudokuExplainer commit",
        "# 729c00e, built with javac 17, run as `java -Xrs -Xmx500m -cp classes diuf.sudoku.test.serate",
        "# --format=%r/%p/%d PUZZLE`, one JVM per puzzle under a CPU cap (benchmarks/serate.py serate).",
        f"# The sample: `sudokulab rate --sample N --seed {args.seed}`'s draw (rating.chosen_entries) of each set;",
        "# rows only for the puzzles serate finished within its cap. Sets, N, rows and sources:",
        *(f"#   {name} (N {sizes.get(name, 0)}, {sum(1 for r in rows if r['set'] == name)} rows): {source}"
          for name, source in SOURCES.items()),
        "# set\tline\tpuzzle\tER/EP/ED",
        *(f"{r['set']}\t{r['line']}\t{r['puzzle']}\t{r['serate']}" for r in rows),
    ]
    args.out.write_text("\n".join(lines) + "\n")
    print(f"{len(rows)} rows in {args.out}", file=sys.stderr)
    return 0


def compare(args: argparse.Namespace) -> int:
    from sudokulab.reasoning.serate.chaining import _compiled

    runs = read_runs(args.runs)
    if args.sets:
        runs = [r for r in runs if r["set"] in args.sets.split(",")]
    runs.sort(key=lambda r: set_rank(r["set"]))  # stable: file order within a set
    kept = {(r["set"], r["line"], r["puzzle"]): (r["ours"], float(r["cpu"]))
            for r in read_runs(args.ours, OURS_COLUMNS)}
    by_set: dict[str, list[tuple[dict[str, str], str, float]]] = {}
    for row in runs:
        ours, seconds = kept.get((row["set"], row["line"], row["puzzle"])) or rate_timed(row["puzzle"])
        by_set.setdefault(row["set"], []).append((row, ours, seconds))
        print(f"{row['set']}:{row['line']}\tserate {row['serate']}\tours {ours}\t{seconds:.2f} s "
              f"(serate {row['cpu']} s)", file=sys.stderr, flush=True)
    backend = "compiled" if _compiled() is not None else "Python"
    out = [f"## serate against `reasoning.serate`, {datetime.date.today().isoformat()}", "",
           f"The rows of `{shown(args.runs)}` "
           f"(serate's ratings and CPU seconds, one JVM per puzzle under a CPU cap), each puzzle rated again "
           f"here by `reasoning.serate.solver.rate` ({backend} chaining rules), one after another in one "
           f"process, CPU seconds of this process per puzzle (`time.process_time`; the rows of "
           f"`{shown(args.ours)}` where it has "
           f"the puzzle, made by `serate.py ours`); compared on "
           f"{machine()}. serate ran on the same machine. A puzzle serate "
           f"did not finish within its cap counts its cap as its "
           f"time (a lower bound) and is left out of the agreement.", "",
           "| set | puzzles | serate finished | ER equal | ER within 0.1 | EP equal | ED equal |",
           "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    totals = [0, 0, 0, 0, 0, 0]
    for name, rows in by_set.items():
        finished = [(r, o) for r, o, _ in rows if r["serate"] != "-"]
        er = sum(1 for r, o in finished if r["serate"].split("/")[0] == o.split("/")[0])
        near = sum(1 for r, o in finished if abs(float(r["serate"].split("/")[0]) - float(o.split("/")[0])) <= 0.1001)
        ep = sum(1 for r, o in finished if r["serate"].split("/")[1] == o.split("/")[1])
        ed = sum(1 for r, o in finished if r["serate"].split("/")[2] == o.split("/")[2])
        counts = [len(rows), len(finished), er, near, ep, ed]
        totals = [a + b for a, b in zip(totals, counts, strict=True)]
        out.append(f"| {name} | " + " | ".join(str(c) for c in counts) + " |")
    out.append("| all | " + " | ".join(str(c) for c in totals) + " |")
    disagreements = [(name, r, o) for name, rows in by_set.items() for r, o, _ in rows
                     if r["serate"] != "-" and r["serate"] != o]
    out += ["", "Disagreements: " + ("none." if not disagreements else ", ".join(
        f"{name}:{r['line']} serate {r['serate']} ours {o}" for name, r, o in disagreements)), "",
        "| set | puzzles | serate CPU s (sum) | serate median | ours CPU s (sum) | ours median "
        "| serate / ours (sums) |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for name, rows in by_set.items():
        theirs = [float(r["cpu"]) for r, _, _ in rows]
        ours_s = [s for _, _, s in rows]
        capped = sum(1 for r, _, _ in rows if r["serate"] == "-")
        note = f" ({capped} at their cap)" if capped else ""
        out.append(f"| {name} | {len(rows)} | {sum(theirs):.1f}{note} | {statistics.median(theirs):.2f} | "
                   f"{sum(ours_s):.1f} | {statistics.median(ours_s):.2f} | "
                   f"{'at least ' if capped else ''}{sum(theirs) / sum(ours_s):.1f} |")
    text = "\n".join(out) + "\n"
    if args.out:
        before = args.out.read_text() if args.out.exists() else ""
        notes = before[before.index(NOTES):] if NOTES in before else ""
        args.out.write_text(text + ("\n" + notes if notes else ""))
    print(text)
    return 0


def _sizes(text: str | None) -> dict[str, int]:
    if not text:
        return dict(SIZES)
    return {name: int(size) for name, size in (part.split("=") for part in text.split(","))}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, help="the folder of the sets (default: where this machine has them)")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--sizes", help="set=N,... (default: " + ",".join(f"{k}={v}" for k, v in SIZES.items()) + ")")
    parser.add_argument("--runs", type=Path, default=ROOT / "benchmarks" / "results" / "serate-runs.tsv")
    parser.add_argument("--ours", type=Path, default=ROOT / "benchmarks" / "results" / "serate-ours.tsv")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("draw")
    run = commands.add_parser("serate")
    run.add_argument("--classpath", type=Path, required=True, help="the folder of serate's compiled classes")
    run.add_argument("--cap", type=int, default=300, help="CPU seconds per puzzle")
    commands.add_parser("ours")
    fixture = commands.add_parser("fixture")
    fixture.add_argument("--out", type=Path, default=FIXTURE)
    comparing = commands.add_parser("compare")
    comparing.add_argument("--out", type=Path)
    comparing.add_argument("--sets", help="only these sets (comma-separated)")
    args = parser.parse_args()
    if args.command == "draw":
        for name, line, puzzle in draw(args.data, _sizes(args.sizes), args.seed):
            print(f"{name}\t{line}\t{puzzle}")
        return 0
    return {"serate": run_serate, "ours": run_ours, "fixture": write_fixture, "compare": compare}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
