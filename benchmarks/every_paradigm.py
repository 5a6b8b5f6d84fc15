"""Every paradigm on the same puzzles (issue 36): agreement, counts, time limits, rates, effort, model size.

Four steps, every installed solver (``--solvers`` to choose), one process, writing
``results/every-paradigm.md`` and ``results/every-paradigm.png``:

1. **Agreement**: ``bench.compare.compare`` with every solver on the first ``--agree`` puzzles of
   17_clue, magictour_top1465 and forum_hardest_1106 (shared evenly) and on 20 variant puzzles (the
   published ones of tests/fixtures/variants, the JSON examples, and generated x, windoku,
   anti-knight and anti-king puzzles with one solution). Every answer goes through the independent
   checker; a puzzle whose answers disagree (a wrong grid, or "no solution" beside a grid) is
   listed. Per solver: answered, valid, time limit reached, skipped (rules it refuses), errors.
2. **Counting**: ``--count-puzzles`` puzzles with several solutions (17_clue puzzles with their
   last two givens taken out), each solver that counts against ``sat``, up to ``--count-limit``.
3. **Time limits**: 25x25 boards near their hard region (generated grids cut to 42-48% givens)
   under a 2 s limit: each solver's status and the wall time until ``solve`` returned.
4. **Rates, effort and model size**: ``bench.run.run_bench`` (the ``sudokulab bench`` harness)
   on ``--limit`` puzzles of each published set, generated 16x16 and 25x25 boards, and the killer
   and thermometer fixtures, each solver over each set in turn.

The engines' versions are written with the results (``core.versions`` and each solver's
``describe_backend``). Sets come from ``../shared/data`` or the catalog's folder, else the slices
shipped with the package (the first puzzles of each set).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path

from harness import RESULTS, ROOT, command_line, dataset, machine, write_results

from sudokulab import Puzzle, Shape, is_solution, solvers
from sudokulab.bench import compare
from sudokulab.bench import run as bench
from sudokulab.bench.report import bench_markdown
from sudokulab.core.rules import build
from sudokulab.core.versions import versions
from sudokulab.datasets.reading import Dataset
from sudokulab.formats.puzzle_files import puzzle_from_text, read_puzzle
from sudokulab.generation import puzzles as generate
from sudokulab.solvers.base import Status

SETS = ("17_clue", "magictour_top1465", "forum_hardest_1106")
VARIANT_FILES = sorted((ROOT / "tests" / "fixtures" / "variants").glob("*.json")) + [
    ROOT / "examples" / name for name in ("x.json", "thermo-6x6.json", "fpuzzles-killer.json")]


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--solvers", help="comma-separated (default: every installed solver but backtrack)")
    parser.add_argument("--agree", type=int, default=200, help="published puzzles compared (default: 200)")
    parser.add_argument("--variants", type=int, default=20, help="variant puzzles compared (default: 20)")
    parser.add_argument("--count-puzzles", type=int, default=50, help="puzzles counted (default: 50)")
    parser.add_argument("--count-limit", type=int, default=100, help="count up to this (default: 100)")
    parser.add_argument("--limit", type=int, default=20, help="puzzles per set for the rates (default: 20)")
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds per puzzle (default: 10)")
    parser.add_argument("--out-dir", type=Path, default=RESULTS, help="where it goes (default: results/)")
    parser.add_argument("--skip", default="", help="steps to leave out: agree,count,limits,rates")
    args = parser.parse_args(argv)
    args.solver_list = (args.solvers.split(",") if args.solvers else
                        [name for name in solvers.names() if name != "backtrack" and solvers.installed(name)])
    args.skipped = set(filter(None, args.skip.split(",")))
    return args


def published(name: str, count: int) -> list[Puzzle]:
    """The first ``count`` puzzles of a published set (the whole set here, else its shipped slice)."""
    path = dataset(name, count)
    return [] if path is None else [entry.puzzle for entry in Dataset.from_path(path, limit=count).entries()]


def variant_file(path: Path) -> Puzzle:
    """A variant puzzle file: the examples as they are; the test fixtures (which also say where each
    puzzle was published, in a shape of their own, read by tests/solvers/test_rules_contract.py) in the puzzle
    file format."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if "name" not in data:
        return read_puzzle(path)
    kept = {key: value for key, value in data.items() if key not in ("name", "via", "solution")}
    kept["size"] = data["box"][0] * data["box"][1]
    kept["givens"] = " ".join(data["givens"])
    kept["rules"] = [name for name in data["rules"] if name not in ("jigsaw", "killer", "thermo")]
    def cells(pairs: list[list[int]]) -> list[str]:
        return [f"r{row}c{col}" for row, col in pairs]

    if "cages" in kept:
        kept["cages"] = [{"cells": cells(cage["cells"]), "sum": cage["total"]} for cage in kept["cages"]]
    if "thermos" in kept:
        kept["thermometers"] = [cells(thermo) for thermo in kept.pop("thermos")]
    return puzzle_from_text(json.dumps(kept), path.name)


def variant_puzzles(count: int) -> list[tuple[str, Puzzle]]:
    """Published and example variant puzzles, then generated ones with one solution, ``count`` in all."""
    found = [(path.stem, variant_file(path)) for path in VARIANT_FILES if path.is_file()]
    presets = ("x", "windoku", "anti-knight", "anti-king")
    seed = 0
    while len(found) < count:
        preset = presets[seed % len(presets)]
        rules = build(Shape(3, 3), [preset])
        (made,) = generate.generate(9, 1, clues=30, unique=True, seed=seed, rules=rules)
        found.append((f"{preset} (generated, seed {seed})", made.puzzle))
        seed += 1
    return found[:count]


def several_solutions(count: int) -> list[Puzzle]:
    """17_clue puzzles with their last two givens taken out: each has several solutions."""
    made = []
    for puzzle in published("17_clue", count):
        givens = list(puzzle.givens)
        for cell in [i for i, v in enumerate(givens) if v][-2:]:
            givens[cell] = 0
        made.append(Puzzle(puzzle.shape, tuple(givens)))
    return made


def step_agreement(args: argparse.Namespace) -> list[str]:
    share = [args.agree // len(SETS) + (i < args.agree % len(SETS)) for i in range(len(SETS))]
    cases = [(f"{name} {i + 1}", puzzle) for name, k in zip(SETS, share) for i, puzzle in enumerate(published(name, k))]
    cases += variant_puzzles(args.variants)
    tally: dict[str, Counter] = defaultdict(Counter)
    verdicts: Counter = Counter()
    disagreements = []
    started = time.perf_counter()
    for i, (label, puzzle) in enumerate(cases, 1):
        result = compare.compare(puzzle, args.solver_list, time_limit=args.time_limit)
        verdicts[result.agreement.value] += 1
        if result.agreement is compare.Agreement.DISAGREE:
            disagreements.append(f"- {label}: {result.reason}")
        for run in result.runs:
            counted = tally[run.solver]
            if run.skipped:
                counted["skipped"] += 1
                continue
            status = run.result.status
            counted[status.value] += 1
            if run.result.grid is not None:
                counted["valid" if is_solution(run.result.grid, puzzle) else "INVALID"] += 1
        print(f"\ragreement: {i}/{len(cases)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    lines = ["## 1. Agreement\n",
             f"`compare` on {len(cases) - args.variants} published puzzles "
             f"({', '.join(f'{k} of {n}' for n, k in zip(SETS, share))}) "
             f"and {args.variants} variant puzzles, {args.time_limit:g} s per solver and puzzle; "
             f"{time.perf_counter() - started:.0f} s in all.\n",
             "Verdicts: " + ", ".join(f"{verdict} {k}" for verdict, k in verdicts.most_common()) + ".\n",
             "| solver | solved | valid | no solution | time limit | skipped (rules) | error | invalid |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for name in args.solver_list:
        c = tally[name]
        lines.append(f"| {name} | {c['solved']} | {c['valid']} | {c['no solution']} | {c['time limit reached']} "
                     f"| {c['skipped']} | {c['error']} | {c['INVALID']} |")
    lines.append("")
    lines += ["Disagreements:", *disagreements, ""] if disagreements else ["No disagreement.", ""]
    return lines


def step_counting(args: argparse.Namespace) -> list[str]:
    puzzles = several_solutions(args.count_puzzles)
    counters = [name for name in args.solver_list if solvers.solver_class(name).capabilities.count]
    truth = []
    with solvers.get("sat") as sat:
        truth = [sat.count(p, limit=args.count_limit).count for p in puzzles]
    lines = ["## 2. Counting\n",
             f"{len(puzzles)} 17_clue puzzles with their last two givens taken out, counted up to "
             f"{args.count_limit} (`sat`'s counts: median {statistics.median(truth):g}, "
             f"{sum(t >= args.count_limit for t in truth)} at the limit).\n",
             "| solver | agrees with sat | differs | time limit | seconds in all |",
             "| --- | ---: | ---: | ---: | ---: |"]
    for name in counters:
        agree = differ = limit = 0
        started = time.perf_counter()
        with solvers.get(name) as solver:
            for puzzle, expected in zip(puzzles, truth):
                result = solver.count(puzzle, limit=args.count_limit, time_limit=args.time_limit)
                if result.status is Status.TIME_LIMIT:
                    limit += 1
                elif result.count == expected:
                    agree += 1
                else:
                    differ += 1
        lines.append(f"| {name} | {agree} | {differ} | {limit} | {time.perf_counter() - started:.1f} |")
        print(f"counting: {name} done", file=sys.stderr)
    return [*lines, ""]


HARD_FRACTIONS = (0.42, 0.45, 0.48)
"""Shares of givens of the 25x25 boards of step 3: near the hard region of a 25x25 (the fast search
times out on 0.45 under 2 s; 0.3 and 0.6 are easy for every complete solver)."""


def hard_25x25(fraction: float) -> Puzzle:
    (made,) = generate.generate(25, 1, fraction=fraction, seed=2580)
    return made.puzzle


def step_time_limits(args: argparse.Namespace) -> list[str]:
    puzzles = [hard_25x25(fraction) for fraction in HARD_FRACTIONS]
    lines = ["## 3. The time limit on hard 25x25 boards\n",
             f"Generated 25x25 boards cut to {', '.join(f'{f:.0%}' for f in HARD_FRACTIONS)} of givens (seed 2580), "
             "`solve(time_limit=2)` after building the solver: the status and the wall time until `solve` "
             "returned.\n",
             "| solver | " + " | ".join(f"{f:.0%} givens" for f in HARD_FRACTIONS) + " | longest return (s) |",
             "| --- |" + " --- |" * len(HARD_FRACTIONS) + " ---: |"]
    for name in args.solver_list:
        if not solvers.solver_class(name).capabilities.time_limit:
            lines.append(f"| {name} |" + " (declares no time limit) |" * len(HARD_FRACTIONS) + " |")
            continue
        cells, longest = [], 0.0
        for puzzle in puzzles:
            try:
                with solvers.get(name) as solver:
                    started = time.perf_counter()
                    result = solver.solve(puzzle, time_limit=2)
                    took = time.perf_counter() - started
                cells.append(f"{result.status.value}, {took:.2f} s")
                longest = max(longest, took)
            except Exception as exc:  # noqa: BLE001 - a refusal (a board too large for it) is a result here
                cells.append(f"refused: {exc}")
        lines.append(f"| {name} | " + " | ".join(cells) + f" | {longest:.2f} |")
        print(f"time limit: {name} done", file=sys.stderr)
    return [*lines, ""]


def rate_sets(args: argparse.Namespace) -> list[Dataset]:
    sets = [Dataset.from_puzzles(f"{name}[:{args.limit}]", published(name, args.limit)) for name in SETS]
    for n, fraction in ((16, 0.5), (25, 0.6)):
        made = [g.puzzle for g in generate.generate(n, max(3, args.limit // 4), fraction=fraction, seed=n)]
        sets.append(Dataset.from_puzzles(f"generated {n}x{n}, {fraction:.0%} givens", made))
    for stem in ("killer_wikipedia", "thermo_uk_2022"):
        path = ROOT / "tests" / "fixtures" / "variants" / f"{stem}.json"
        sets.append(Dataset.from_puzzles(stem, [variant_file(path)]))
    return sets


def step_rates(args: argparse.Namespace) -> tuple[list[str], bench.BenchReport]:
    report = bench.run_bench(rate_sets(args), args.solver_list, time_limit=args.time_limit, by_solver=True,
                             progress=False)
    lines = ["## 4. Rates, effort and model size\n",
             "`run_bench` (the `sudokulab bench` harness), each solver over each set in turn; times are each "
             "solver's own `solve` time, every answer checked.\n", bench_markdown(report), ""]
    sizes = ["Model size (mean over the puzzles of the set; what each paradigm counts):\n",
             "| set | solver | size |", "| --- | --- | --- |"]
    size_keys = ("variables", "constraints", "clauses", "atoms", "rules", "assertions", "fzn_variables",
                 "fzn_constraints", "columns", "rows")
    for summary in report.summaries:
        shown = ", ".join(f"{key} {summary.means[key]:,.0f}" for key in size_keys if key in summary.means)
        if shown:
            sizes.append(f"| {summary.dataset} | {summary.solver} | {shown} |")
    return [*lines, *sizes, ""], report


def draw(report: bench.BenchReport, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sets = list(dict.fromkeys(s.dataset for s in report.summaries))
    names = list(dict.fromkeys(s.solver for s in report.summaries))
    fig, ax = plt.subplots(figsize=(11, 5))
    width = 0.8 / max(1, len(names))
    colours = plt.get_cmap("tab20").colors  # twelve solvers and more: the default cycle repeats after ten
    for j, name in enumerate(names):
        medians = []
        for label in sets:
            found = [s for s in report.summaries if s.dataset == label and s.solver == name and s.solved]
            medians.append(found[0].median * 1000 if found else float("nan"))
        ax.bar([i + j * width for i in range(len(sets))], medians, width, label=name, color=colours[j % 20])
    ax.set_yscale("log")
    ax.set_ylabel("median solve time (ms, log scale)")
    ax.set_xticks([i + 0.4 - width / 2 for i in range(len(sets))], sets, rotation=20, ha="right", fontsize=8)
    ax.legend(fontsize=7, ncols=4)
    ax.set_title("every paradigm: median time per puzzle solved")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def engine_versions(names: Sequence[str]) -> list[str]:
    lines = ["## Versions\n", "| what | version |", "| --- | --- |"]
    lines += [f"| {name} | {version or 'not installed'} |" for name, version in versions().items()]
    for name in names:
        backend = solvers.describe(name).get("backend")
        if isinstance(backend, dict) and backend.get("version"):
            lines.append(f"| {name}'s engine | {backend['version']} |")
    return [*lines, ""]


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    measured_on = machine()
    text = [f"Solvers: {', '.join(args.solver_list)}.\n"]
    wrong = False
    if "agree" not in args.skipped:
        part = step_agreement(args)
        wrong |= any("INVALID" in line or "Disagreements" in line for line in part)
        text += part
    if "count" not in args.skipped:
        text += step_counting(args)
    if "limits" not in args.skipped:
        text += step_time_limits(args)
    if "rates" not in args.skipped:
        part, report = step_rates(args)
        text += part
        draw(report, args.out_dir / "every-paradigm.png")
        text.append("![median time per set and solver](every-paradigm.png)\n")
        wrong |= report.wrong > 0
    text += engine_versions(args.solver_list)
    written = write_results("every-paradigm.md", "Every paradigm on the same puzzles", "\n".join(text),
                            how=f"Made by `{command_line(argv=argv)}`.", measured_on=measured_on,
                            folder=args.out_dir)
    print(f"wrote {written}", file=sys.stderr)
    return 4 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
