"""Standard Sudoku before and after "rules as data" (issue 22): each solver's rate on 17_clue, side by side.

Issue 22 made every solver read its constraints from the puzzle's ``Rules`` and refuse what it
cannot express; standard Sudoku must get no slower (within 5%). This script measures that in one
run: the tree before the change (``--before``, default ``c636090``, the parent of the commit that
introduced ``rules.py``) is checked out into a temporary ``git worktree`` (removed at the end), and
two long-lived worker processes, one importing each tree's ``src/``, take turns: for every round,
for every solver, before then after (after then before on every other round), each on the same
first puzzles of 17_clue (found by the catalogue, or in ``--data DIR``; the script exits cleanly
with a note when the set is absent).

Each measurement is a timed loop over puzzles parsed beforehand, one solver instance per worker
reused over all rounds (its per-shape preparation is paid in a warm-up solve, not timed):

- ``solve``: ``solver.solve(puzzle)`` per puzzle, every solver;
- ``batch``: ``solver.solve_batch(givens, shape)`` in batches of 512 (what ``sudokulab bench``
  runs), for the solvers that have a batch entry point.

The table gives, per solver and path, the best and the median rate over ``--rounds`` rounds (puzzles
per wall second of the loop), the same over CPU seconds of the worker (its children included, for
``dimacs``), and after/before ratios of both. Every answer is checked after the loop
(``grid.is_solution``); a wrong answer is reported and makes the exit code 4. Sample sizes per
solver keep the whole run to a few minutes on a 2-core machine. The classic ``backtrack`` takes
over 10 s on most 17-clue puzzles (none of the first 300 in 0.5 s), so it runs on the first
``--classic`` puzzles of the set with 13 more givens each, taken from their solutions at cells
drawn with the puzzle's index as seed (30 givens: 40 of them take about 2 s), the same puzzles
for both trees.

    .venv/bin/python benchmarks/rules_overhead.py                 # writes results/rules-overhead.md
    .venv/bin/python benchmarks/rules_overhead.py --rounds 1 --scale 0.2 --out-dir /tmp/quick   # a quick look
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from harness import RESULTS, ROOT, Spread, command_line, dataset, load, machine, markdown_table, timer, write_results

DEFAULT_BEFORE = "c636090"
SIZES = {
    "backtrack": 40, "backtrack-fast": 2000, "backtrack-jit": 5000, "sat": 5000, "cpsat": 1000, "dlx": 1000,
    "mip": 200, "dimacs": 60,
}
"""Puzzles per measurement (``--scale`` multiplies them; ``backtrack`` takes ``--classic``)."""
BATCH = 512
CLASSIC_FILL = 13
"""The classic ``backtrack`` gets 17_clue puzzles with this many more givens from their solutions (30 in all)."""


# --- The worker: one per tree, answering one measurement per line of standard input. --------------

def worker(data: Path, most: int) -> None:
    """Read 17_clue's first ``most`` puzzles, then answer {"solver", "path", "count"} lines with timings."""
    import resource

    import numpy as np

    import sudokulab
    from sudokulab import Puzzle, Shape, Status, is_solution, solvers

    try:
        from sudokulab.solvers.batch import SOLVED
    except ImportError:  # a tree from before the layer packages, as the default --before
        from sudokulab.batch import SOLVED  # type: ignore[no-redef]

    shape = Shape(3, 3)
    lines = [line.strip() for line in data.read_text().splitlines() if line.strip()][:most]
    givens = np.array([[0 if ch in ".0" else int(ch) for ch in line] for line in lines], dtype=np.uint8)
    puzzles = [Puzzle(shape, tuple(int(v) for v in row)) for row in givens]
    instances: dict[str, object] = {}

    def cpu() -> float:
        own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime

    def instance(name: str):
        if name not in instances:
            instances[name] = solvers.get(name)
            instances[name].solve(puzzles[-1], time_limit=2)  # the warm-up: per-shape preparation, compilation
        return instances[name]

    def filled(puzzle: Puzzle, seed: int, extra: int) -> Puzzle:
        """The puzzle with ``extra`` more givens from its solution, at cells drawn with ``seed``."""
        solution = instance("backtrack-fast").solve(puzzle).grid
        blanks = [cell for cell, value in enumerate(puzzle.givens) if not value]
        added = set(random.Random(seed).sample(blanks, extra))
        return Puzzle(shape, tuple(solution[c] if puzzle.givens[c] or c in added else 0 for c in range(shape.cells)))

    print(json.dumps({"ready": sudokulab.__file__, "puzzles": len(puzzles)}), flush=True)
    for request in sys.stdin:
        ask = json.loads(request)
        name, path = ask["solver"], ask["path"]
        reply: dict = {"solver": name, "path": path}
        try:
            solver = instance(name)
            indices = list(range(ask["count"]))
            chosen_puzzles = [puzzles[i] for i in indices]
            if ask.get("fill"):  # more givens, from the solution: the classic search takes seconds on 17 clues
                chosen_puzzles = [filled(p, i, ask["fill"]) for i, p in zip(indices, chosen_puzzles)]
                block = np.array([p.givens for p in chosen_puzzles], dtype=np.uint8)
            else:
                block = givens[indices]
            at = load()
            started_cpu = cpu()  # children's CPU included (dimacs runs a program): the timer counts this process
            if path == "batch":
                with timer() as took:
                    results = [solver.solve_batch(block[i:i + BATCH], shape) for i in range(0, len(block), BATCH)]
                seconds, spent = took[0].wall, cpu() - started_cpu
                solved = [int(code) == SOLVED for r in results for code in r.status]
                grids = [tuple(int(v) for v in row) for r in results for row in r.grids]
            else:
                with timer() as took:
                    answers = [solver.solve(p) for p in chosen_puzzles]
                seconds, spent = took[0].wall, cpu() - started_cpu
                grids = [a.grid for a in answers]
                solved = [a.status is Status.SOLVED for a in answers]
            wrong = sum(1 for ok, grid, puzzle in zip(solved, grids, chosen_puzzles)
                        if not ok or not is_solution(grid, puzzle))
            reply.update(puzzles=len(chosen_puzzles), seconds=seconds, cpu=spent, wrong=wrong, load=at)
        except Exception as exc:  # noqa: BLE001 - reported to the driver, which says so in the table
            reply["error"] = f"{type(exc).__name__}: {exc}"
        print(json.dumps(reply), flush=True)


# --- The driver. -----------------------------------------------------------------------------------

class Worker:
    """A worker process importing one tree's ``src/``."""

    def __init__(self, label: str, tree: Path, data: Path, most: int):
        self.label, self.tree = label, tree
        env = dict(os.environ, PYTHONPATH=str(tree / "src"))
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--worker", "--data", str(data.parent),
             "--most", str(most)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, cwd=tempfile.gettempdir())
        ready = self._read()
        imported = Path(ready["ready"]).resolve()
        if tree.resolve() not in imported.parents:
            self.close()
            raise SystemExit(f"the {label} worker imported {imported}, not the tree at {tree}: "
                             "is sudokulab installed in a way that ignores PYTHONPATH?")

    def _read(self) -> dict:
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"the {self.label} worker died (exit code {self.process.wait()})")
        return json.loads(line)

    def ask(self, **request) -> dict:
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        return self._read()

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.stdin.close()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def has_batch(tree: Path, name: str) -> bool:
    """Whether the solver class has ``solve_batch`` in a tree's sources (read, not imported): a flat module
    before the paradigm folders, the folder's solver module since."""
    files = {"sat": "sat", "cpsat": "cpsat", "backtrack-jit": "jit"}
    if name not in files:
        return False
    solvers = tree / "src" / "sudokulab" / "solvers"
    module = next((path for path in (solvers / f"{files[name]}.py", solvers / files[name] / "solver.py")
                   if path.is_file()), None)
    return module is not None and "def solve_batch" in module.read_text()


def describe_tree(tree: Path) -> str:
    head = subprocess.run(["git", "-C", str(tree), "log", "-1", "--format=%h %s"], capture_output=True, text=True)
    dirty = subprocess.run(["git", "-C", str(tree), "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
    return head.stdout.strip()[:100] + (" (with uncommitted changes)" if dirty else "")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, help="folder of the sets (default: the catalogue's)")
    parser.add_argument("--before", default=DEFAULT_BEFORE, help="the commit before the change")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (best and median over them)")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every sample size")
    parser.add_argument("--classic", type=int, default=40, help="puzzles for the classic backtrack")
    parser.add_argument("--solvers", default="", help="comma-separated names (default: every registered one)")
    parser.add_argument("--out-dir", type=Path, default=RESULTS,
                        help="where rules-overhead.md goes (default: results/)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--most", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:  # the driver hands the worker the set's folder
        worker(args.data / "17_clue.txt", args.most)
        return 0
    from sudokulab import solvers  # this tree's, for the registry and availability

    names = [n.strip() for n in args.solvers.split(",") if n.strip()] or solvers.names()
    skipped = {name: why for name in names if (why := solvers.unavailable(name))}
    names = [name for name in names if name not in skipped]
    sizes = {name: max(1, round(SIZES.get(name, 500) * args.scale)) if name != "backtrack" else args.classic
             for name in names}
    most = max(sizes.values(), default=1)
    data = dataset("17_clue", most, args.data)
    if data is None:
        print("rules_overhead.py: nothing measured", file=sys.stderr)
        return 0
    measured_on = machine()

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so that the worktree is removed on a kill too
    scratch = Path(tempfile.mkdtemp(prefix="rules-overhead-"))
    before_tree = scratch / "before"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(before_tree), args.before],
                   check=True)
    trees = {"before": describe_tree(before_tree), "after": describe_tree(ROOT)}
    workers: dict[str, Worker] = {}
    rows: dict[tuple[str, str], dict[str, list[dict]]] = {}
    with timer() as elapsed:
        try:
            workers["before"] = Worker("before", before_tree, data, most)
            workers["after"] = Worker("after", ROOT, data, most)
            paths = [(name, "solve") for name in names] + [
                (name, "batch") for name in names if has_batch(before_tree, name) and has_batch(ROOT, name)]
            for round_ in range(args.rounds):
                order = ["before", "after"] if round_ % 2 == 0 else ["after", "before"]
                for name, path in paths:
                    for label in order:
                        reply = workers[label].ask(solver=name, path=path, count=sizes[name],
                                                  fill=CLASSIC_FILL if name == "backtrack" else 0)
                        rows.setdefault((name, path), {"before": [], "after": []})[label].append(reply)
                        shown = reply.get("error") or f"{reply['puzzles'] / reply['seconds']:.0f}/s"
                        print(f"round {round_ + 1} {name:15} {path:5} {label:6} {shown}", file=sys.stderr, flush=True)
        finally:
            for w in workers.values():
                w.close()
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(before_tree)], check=False)
            shutil.rmtree(scratch, ignore_errors=True)

    wrong = 0
    table = []
    slower = []
    loads = []
    for (name, path), by in rows.items():
        errors = [r["error"] for side in by.values() for r in side if "error" in r]
        if errors:
            table.append([name, path, "-", errors[0][:60], "", "", "", "", "", "", ""])
            continue
        wrong += sum(r["wrong"] for side in by.values() for r in side)
        loads += [r["load"] for side in by.values() for r in side]
        rate = {side: [r["puzzles"] / r["seconds"] for r in by[side]] for side in by}
        cpu = {side: [r["puzzles"] / max(r["cpu"], 1e-9) for r in by[side]] for side in by}
        best = {side: max(rate[side]) for side in rate}
        median = {side: Spread.of(rate[side]).median for side in rate}
        puzzles = by["after"][0]["puzzles"]
        ratios = (best["after"] / best["before"], median["after"] / median["before"],
                  max(cpu["after"]) / max(cpu["before"]))
        within = max(ratios) >= 0.95  # one of the three measures within 5%: the rest is the machine's noise
        if not within:
            slower.append(f"{name} ({path})")
        table.append([name, path, f"{puzzles:,}", f"{best['before']:,.0f}", f"{best['after']:,.0f}",
                      f"{ratios[0]:.3f}", f"{median['before']:,.0f}", f"{median['after']:,.0f}", f"{ratios[1]:.3f}",
                      f"{ratios[2]:.3f}", "yes" if within else "**no**"])
    report = [
        f"Load average {min(loads, default=0):.1f}-{max(loads, default=0):.1f} during the measurements "
        f"(a shared machine: read the ratios, not the absolute rates), {elapsed[0].wall:.0f} s in all.",
        "",
        f"- before: `{args.before}` ({trees['before']}), checked out into a temporary git worktree;",
        f"- after: this tree, {trees['after']}.",
        "",
        f"Both trees ran in turns in two long-lived worker processes, before then after for each solver "
        f"(after then before every other round), {args.rounds} round(s), on the first puzzles of 17_clue "
        f"(the classic `backtrack` on the first {args.classic}, each with {CLASSIC_FILL} more givens from its "
        "solution: it needs seconds on most 17-clue puzzles). Rates are puzzles over the wall seconds of the "
        "timed loop (answers parsed beforehand, each solver warmed up on one puzzle first); CPU ratios over "
        "the worker's CPU seconds, its children's included. `solve` is one call per puzzle, `batch` is "
        f"`solve_batch` in batches of {BATCH}. Every answer was checked: {wrong} wrong.",
        "",
        markdown_table(["solver", "path", "puzzles", "before best /s", "after best /s", "after/before best",
                        "before median /s", "after median /s", "after/before median", "after/before CPU (best)",
                        "within 5%"], table),
        "\"Within 5%\" is yes when the best, the median or the CPU ratio reaches 0.95 (on a shared machine one "
        "measure alone swings by more than that between rounds). "
        + (f"Slower by more than 5% on every measure: {', '.join(slower)}. " if slower else
           "No solver is slower by more than 5% on every measure. ")
        + "Everything that changed between the two commits counts, not only issue 22: `dimacs` runs its "
        "program through `sandbox.run_program`, whose launcher changed with the judge's isolation work.",
    ]
    if skipped:
        report += ["", "Not measured (not available here): " + "; ".join(f"{k}: {v}" for k, v in skipped.items())]
    text = "\n".join(report)
    print(text)
    write_results("rules-overhead.md", "Standard Sudoku before and after rules as data (issue 22)", text,
                  how=f"Made by `{command_line()}`.", measured_on=measured_on, folder=args.out_dir)
    return 4 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
