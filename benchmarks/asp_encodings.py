"""The ASP solver's choices: the group constraints, givens as assumptions or facts, clingo's
configurations, and canonical answers by fixing cells or by a lexicographic ``#minimize``.

Puzzles: the first K (default 200) of forum_hardest_1106, magictour_top1465 and 17_clue, found by the
catalogue (the whole sets where this machine has them, else the slices shipped with the package when
they hold K puzzles; ``--data DIR`` for another folder).

1. Group constraints, each as the whole encoding of ``solvers.asp.model`` with its two group lines replaced,
   one ground program per set with the givens as assumptions: atoms and rules after grounding
   (clasp's program statistics), choices and conflicts summed over the set, clasp's solve time.
2. Givens as assumptions on one ground program against givens as facts, grounded per puzzle (the
   encoding's ``given`` rule): grounding and solving seconds over the set.
3. ``AspSolver`` under each ``configuration``: choices and solver time over the set.
4. Canonical answers: ``AspSolver(canonical=True)`` (``canonical.smallest_solution`` with
   assumptions) against a ``#minimize`` with one priority level per cell, on random 9x9 puzzles
   with 25% givens and on the empty 9x9; both answers are checked equal.
5. Per call, on 17_clue: a bare loop of blocking ``Control.solve`` calls (grid decoded), the
   async solve waited on in the calling thread, the same inside ``native.interruptible`` (a second
   thread), ``AspSolver.solve``, and what ``Control.statistics`` adds per call.

    .venv/bin/python benchmarks/asp_encodings.py --limit 200        # writes results/asp.md
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import clingo
from harness import RESULTS, command_line, dataset, machine, markdown_table, repeat, timer, write_results

from sudokulab import Puzzle
from sudokulab.datasets.reading import load_puzzles
from sudokulab.grading.contract import random_puzzle
from sudokulab.solvers.asp.model import ENCODING, cell_index, given_facts, instance
from sudokulab.solvers.asp.solver import CONFIGURATIONS, AspSolver

SETS = ("forum_hardest_1106", "magictour_top1465", "17_clue")

COMPLETE = ":- complete(G), digit(D), not #count{ C : in(G,C), v(C,D) } = 1.\n"
PARTIAL = ":- group(G), not complete(G), digit(D), #count{ C : in(G,C), v(C,D) } > 1.\n"
GROUPS = {
    "not #count = 1 (used)": COMPLETE + PARTIAL,
    "#count != 1": ":- complete(G), digit(D), #count{ C : in(G,C), v(C,D) } != 1.\n" + PARTIAL,
    "#count > 1 and < 1": (":- complete(G), digit(D), #count{ C : in(G,C), v(C,D) } > 1.\n"
                           ":- complete(G), digit(D), #count{ C : in(G,C), v(C,D) } < 1.\n" + PARTIAL),
    "choice rule per group and digit": "{ v(C,D) : in(G,C) } = 1 :- complete(G), digit(D).\n" + PARTIAL,
    "pairwise + at least once": (":- in(G,A), in(G,B), A < B, v(A,D), v(B,D).\n"
                                 "placed(G,D) :- complete(G), in(G,C), v(C,D).\n"
                                 ":- complete(G), digit(D), not placed(G,D).\n"),
    "pairwise only": ":- in(G,A), in(G,B), A < B, v(A,D), v(B,D).\n",
}


def encoding(groups: str) -> str:
    assert COMPLETE in ENCODING and PARTIAL in ENCODING
    return ENCODING.replace(COMPLETE + PARTIAL, groups)


def literals(control: clingo.Control, n: int) -> dict[tuple[int, int], int]:
    found = {}
    for atom in control.symbolic_atoms.by_signature("v", 2):
        cell, digit = atom.symbol.arguments
        found[(cell_index(cell.arguments[0].number, cell.arguments[1].number, n), digit.number)] = atom.literal
    return found


def grounded(text: str) -> tuple[clingo.Control, float]:
    with timer() as took:
        control = clingo.Control(["--warn=none"])
        control.add("base", [], text)
        control.ground([("base", [])])
    return control, took[0].wall


def effort(control: clingo.Control) -> tuple[int, int, float]:
    s = control.statistics
    return (int(s["solving"]["solvers"]["choices"]), int(s["solving"]["solvers"]["conflicts"]),
            s["summary"]["times"]["solve"])


def by_assumptions(text: str, puzzles: list[Puzzle]) -> dict:
    control, ground = grounded(text)
    lits = literals(control, 9)
    choices = conflicts = 0
    solving = 0.0
    for puzzle in puzzles:
        result = control.solve(assumptions=[lits[(c, d)] for c, d in enumerate(puzzle.givens) if d])
        assert result.satisfiable
        c, f, t = effort(control)
        choices, conflicts, solving = choices + c, conflicts + f, solving + t
    lp = control.statistics["problem"]["lp"]
    return {"atoms": int(lp["atoms"]), "rules": int(lp["rules"]), "choices": choices, "conflicts": conflicts,
            "ground": ground, "solve": solving}


def by_facts(puzzles: list[Puzzle]) -> dict:
    ground = solving = 0.0
    choices = 0
    for puzzle in puzzles:
        control, seconds = grounded(ENCODING + instance(puzzle.rules) + given_facts(puzzle))
        assert control.solve().satisfiable
        c, _, t = effort(control)
        ground, solving, choices = ground + seconds, solving + t, choices + c
    return {"ground": ground, "solve": solving, "choices": choices}


def minimize_canonical(puzzle: Puzzle) -> tuple[tuple[int, ...], float]:
    """The row-major smallest solution by ``#minimize``: digit D of cell i weighs D at priority cells - i."""
    n = puzzle.n
    text = (ENCODING + instance(puzzle.rules) + given_facts(puzzle)
            + f"#minimize{{ D@({n}*{n}-((R-1)*{n}+C-1)),R,C : v((R,C),D) }}.\n")
    best: list[tuple[int, ...]] = []

    def keep(model: clingo.Model) -> None:
        grid = [0] * (n * n)
        for symbol in model.symbols(shown=True):
            cell, digit = symbol.arguments
            grid[cell_index(cell.arguments[0].number, cell.arguments[1].number, n)] = digit.number
        best.append(tuple(grid))

    with timer() as took:
        control = clingo.Control(["--warn=none", "--opt-mode=opt"])
        control.add("base", [], text)
        control.ground([("base", [])])
        control.solve(on_model=keep)
    return best[-1], took[0].wall


def per_call(puzzles: list[Puzzle]) -> dict[str, float]:
    from sudokulab.solvers.native import interruptible

    solver = AspSolver()
    solver.solve(puzzles[0])
    kept = solver._programs[puzzles[0].rules]
    control = kept.control
    assumptions = [kept.assumptions([(c, d) for c, d in enumerate(p.givens) if d]) for p in puzzles]

    def keep(model: clingo.Model) -> bool:
        kept.grid(model)
        return True

    def waited(a: list[int]) -> None:
        with control.solve(assumptions=a, on_model=keep, async_=True) as handle:
            while not handle.wait(0.05):
                pass

    ways = {
        "blocking Control.solve": lambda a: control.solve(assumptions=a, on_model=keep),
        "async, waited on in the calling thread": waited,
        "async inside native.interruptible": lambda a: interruptible(lambda: waited(a), control.interrupt),
        "blocking Control.solve + Control.statistics": lambda a: (control.solve(assumptions=a, on_model=keep),
                                                                  control.statistics),
    }
    found = {}
    for way, call in ways.items():  # two rounds, the second kept
        (_, took) = repeat(lambda call=call: [call(a) for a in assumptions], runs=2)
        found[way] = took.wall / len(assumptions) * 1e3
    (_, took) = repeat(lambda: [solver.solve(puzzle) for puzzle in puzzles], runs=2)
    found["AspSolver.solve"] = took.wall / len(puzzles) * 1e3
    return found


def table(header: list[str], rows: list[list]) -> list[str]:
    """The tables of this report: seconds to the millisecond, counts with thousands separators."""
    shown = [[f"{v:.3f}" if isinstance(v, float) else f"{v:,}" if isinstance(v, int) else str(v) for v in row]
             for row in rows]
    return [markdown_table(header, shown).rstrip()]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, help="folder of the sets (default: the catalogue's)")
    parser.add_argument("--limit", type=int, default=200)
    parser.add_argument("--out-dir", type=Path, default=RESULTS, help="where asp.md goes (default: results/)")
    args = parser.parse_args()
    paths = {name: dataset(name, args.limit, args.data) for name in SETS}
    if None in paths.values():
        return 2
    measured_on = machine()
    sets = {name: load_puzzles(path, args.limit) for name, path in paths.items() if path is not None}
    lines = [f"clingo {clingo.__version__}; the first {args.limit} puzzles of each set. Seconds are sums over the "
             "set.", "", "## 1. Group constraints (givens as assumptions on one ground program)", ""]
    rows = []
    for name, groups in GROUPS.items():
        for set_name, puzzles in sets.items():
            r = by_assumptions(encoding(groups) + instance(puzzles[0].rules), puzzles)
            rows.append([name, set_name, r["atoms"], r["rules"], r["choices"], r["conflicts"], r["solve"]])
            print(rows[-1], file=sys.stderr, flush=True)
    lines += table(["group constraints", "set", "atoms", "rules", "choices", "conflicts", "solve s"], rows)
    lines += ["", "## 2. Givens: assumptions on one ground program, or facts grounded per puzzle", ""]
    rows = []
    for set_name, puzzles in sets.items():
        a = by_assumptions(ENCODING + instance(puzzles[0].rules), puzzles)
        f = by_facts(puzzles)
        rows.append([set_name, "assumptions", a["ground"], a["solve"], a["choices"]])
        rows.append([set_name, "facts", f["ground"], f["solve"], f["choices"]])
        print(rows[-2:], file=sys.stderr, flush=True)
    lines += table(["set", "givens as", "grounding s", "solve s", "choices"], rows)
    lines += ["", "## 3. Configurations (`AspSolver`, solver time per set)", ""]
    rows = []
    for configuration in CONFIGURATIONS:
        row: list = [configuration]
        for puzzles in sets.values():
            solver = AspSolver(configuration=configuration)
            solver.solve(puzzles[0])  # ground first
            results = [solver.solve(p) for p in puzzles]
            assert all(r.solved for r in results)
            row += [sum(r.stats["choices"] for r in results), sum(r.seconds for r in results)]
        rows.append(row)
        print(row, file=sys.stderr, flush=True)
    header = ["configuration"] + [f"{s} {w}" for s in SETS for w in ("choices", "s")]
    lines += table(header, rows)
    lines += ["", "## 4. Canonical answers: fixing cells (used) or `#minimize`", ""]
    rows = []
    solver = AspSolver()
    cases = [(f"random 9x9, 25% givens, seed {seed}", random_puzzle(9, 0.25, seed)[0]) for seed in range(3)]
    cases.append(("empty 9x9", Puzzle.empty(9)))
    for label, puzzle in cases:
        fixing = solver.solve(puzzle, canonical=True)
        grid, seconds = minimize_canonical(puzzle)
        assert grid == fixing.grid, label
        rows.append([label, fixing.seconds, fixing.stats["calls"], seconds])
        print(rows[-1], file=sys.stderr, flush=True)
    lines += table(["puzzle", "fixing cells s", "solve calls", "#minimize s"], rows)
    lines += ["", "## 5. Per call on 17_clue (ms, mean of the set, second of two rounds)", ""]
    lines += table(["way", "ms per puzzle"], [[way, ms] for way, ms in per_call(sets["17_clue"]).items()])
    body = "\n".join(lines)
    print(body)
    write_results("asp.md", "ASP: encodings, givens, configurations, canonical answers", body,
                  how=f"Made by `{command_line()}`.", measured_on=measured_on, folder=args.out_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
