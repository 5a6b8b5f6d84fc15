"""Benchmark of the ``cpmpy`` solver on each CPMpy backend, beside ``sat`` and ``cpsat``: the table of docs/cpmpy.md.

Per configuration, one solver instance; per puzzle, the first solve (set-up, the backend's
imports, CPMpy's transformation) and the median of five more solves of the same puzzle, with that
solve's ``transform_seconds`` and ``solve_seconds``. Every answer is checked with ``is_solution``.
Puzzles: the BOJ sample, the "hardest" 9x9 of ``tests/solvers/test_mip.py``, the Wikipedia killer and the
UK 2022 thermo of ``tests/fixtures/variants``. Writes ``results/cpmpy-backends.md``.

    .venv/bin/python benchmarks/cpmpy_backends.py [BACKEND ...]   (default: every backend CPMpy supports here)
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from harness import RESULTS, ROOT, Spread, command_line, machine, markdown_table, write_results

from sudokulab import Puzzle, Shape, is_solution, parse_puzzle, solvers
from sudokulab.core.rules import build
from sudokulab.grading.contract import BOJ_SAMPLE

VARIANTS = ROOT / "tests" / "fixtures" / "variants"
HARDEST = parse_puzzle("8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..")


def variant(name: str) -> Puzzle:
    """A fixture puzzle (the format ``tests/test_rules_contract.load_variant`` reads)."""
    data = json.loads((VARIANTS / name).read_text())
    shape = Shape(*data["box"])

    def cell(pair: list[int]) -> int:
        return (pair[0] - 1) * shape.n + pair[1] - 1

    rules = build(shape, [r for r in data["rules"] if r not in ("killer", "thermo")],
                  cages=[([cell(p) for p in cage["cells"]], cage["total"]) for cage in data.get("cages", ())],
                  thermos=[[cell(p) for p in thermo] for thermo in data.get("thermos", ())])
    givens = tuple(0 if ch == "." else int(ch, 36) for line in data["givens"] for ch in line)
    return Puzzle(shape, givens, rules)


def main(argv: list[str] | None = None) -> int:
    from sudokulab.solvers.cpmpy.backends import available_backends

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("backends", nargs="*", help="CPMpy backends (default: every one CPMpy supports here)")
    parser.add_argument("--out-dir", type=Path, default=RESULTS, help="where the results go (default: results/)")
    args = parser.parse_args(argv)
    measured_on = machine()
    puzzles = [("BOJ sample", BOJ_SAMPLE), ("hardest 9x9", HARDEST), ("killer", variant("killer_wikipedia.json")),
               ("thermo", variant("thermo_uk_2022.json"))]
    configs = [("sat", {}), ("cpsat", {})] + [("cpmpy", {"backend": b}) for b in args.backends or available_backends()]
    rows = []
    for name, options in configs:
        label = f"cpmpy {options['backend']}" if options else name
        for title, puzzle in puzzles:
            solver = solvers.get(name, **options)
            if not puzzle.rules.kinds <= solver.capabilities.kinds:
                rows.append([label, title, "refused", "", "", ""])
                print(rows[-1], file=sys.stderr, flush=True)
                continue
            first = solver.solve(puzzle)
            later = sorted((solver.solve(puzzle) for _ in range(5)), key=lambda r: r.seconds)
            if not all(is_solution(r.grid, puzzle) for r in (first, *later)):
                print(f"cpmpy_backends.py: {label} on {title}: a wrong answer", file=sys.stderr)
                return 4
            middle = later[2]

            def ms(value: float | None) -> str:
                return "" if value is None else f"{value * 1000:.1f}"

            rows.append([label, title, ms(first.seconds), ms(Spread.of([r.seconds for r in later]).median),
                         ms(middle.stats.get("transform_seconds")), ms(middle.stats.get("solve_seconds"))])
            print(rows[-1], file=sys.stderr, flush=True)
    body = ("Seconds are each solve's own (`SolveResult.seconds`); *first*: the first solve of a new solver "
            "instance, *later*: the median of five more solves of the same puzzle, with that solve's "
            "`transform_seconds` and `solve_seconds`. Every answer checked by `is_solution`.\n\n"
            + markdown_table(["solver", "puzzle", "first (ms)", "later (ms)", "later: transform", "later: solve"],
                             rows))
    print(body)
    write_results("cpmpy-backends.md", "The `cpmpy` solver on each CPMpy backend, beside `sat` and `cpsat`", body,
                  how=f"Made by `{command_line()}`.", measured_on=measured_on, folder=args.out_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
