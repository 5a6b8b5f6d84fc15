"""What the shared lowering costs each paradigm: every solver on the same variant puzzles, each kind stated
natively and through the lowering (``solvers.lowering.lowered``), taking turns.

Puzzles (no published set of these variants is in ../shared/data): the solutions of the first K puzzles
of a 9x9 set (default 17_clue), each read three ways, the rules holding in the solution and half of the
set's givens kept (seeded), so the added kind decides much of the puzzle:

- ``differ``: 40 knight-move pairs of cells holding different digits, as one differing-pairs constraint;
- ``sum``: the whole board cut into connected cages of 2 to 5 cells (``sum_encodings.py``'s cut), no givens;
- ``increasing``: 8 thermometers of 3 to 5 neighbouring cells along which the solution increases.

Each solver (its default options; ``cpmpy`` also on the PySAT backend, which takes every kind but
all-different through the lowering) solves each puzzle as it is and with its kind lowered, the two
taking turns, each call on rules it has not seen (so the model is built in the call, as for a new
puzzle), under ``--time-limit`` seconds. A call's answer is checked by the checker against the
puzzle's own rules. The table gives the median seconds each way, their ratio, the time-outs, and the
model sizes of the paradigms whose sizes have a closed form (SAT clauses, CP-SAT and MIP constraints).

    .venv/bin/python benchmarks/lowering.py --puzzles 10 --time-limit 5
    .venv/bin/python benchmarks/lowering.py --puzzles 10 --time-limit 30 --solvers mip,asp,cpsat --kinds sum \\
        --out lowering-sums.md
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from itertools import islice
from pathlib import Path

from harness import RESULTS, command_line, dataset, machine, markdown_table, timer, write_results

from sudokulab import Puzzle, Shape, Status, is_solution, solvers
from sudokulab.core.rules import DIFFER, INCREASING, SUM, Differ, Rules, build, standard
from sudokulab.datasets.reading import read_dataset
from sudokulab.solvers.lowering import lowered

SHAPE = Shape(3, 3)
KNIGHT = ((1, 2), (2, 1), (1, -2), (2, -1))


def _neighbours(cell: int, n: int, diagonal: bool = False) -> list[int]:
    r, c = divmod(cell, n)
    steps = [(-1, 0), (1, 0), (0, -1), (0, 1)] + ([(-1, -1), (-1, 1), (1, -1), (1, 1)] if diagonal else [])
    return [(r + dr) * n + c + dc for dr, dc in steps if 0 <= r + dr < n and 0 <= c + dc < n]


def differ_rules(solution: tuple[int, ...], rng: random.Random) -> Rules:
    n = SHAPE.n
    pairs = [(r * n + c, (r + dr) * n + c + dc) for r in range(n) for c in range(n) for dr, dc in KNIGHT
             if 0 <= r + dr < n and 0 <= c + dc < n]
    base = standard(SHAPE)
    pairs = [p for p in pairs if solution[p[0]] != solution[p[1]] and p[1] not in base.peers[p[0]]]
    chosen = tuple(sorted(rng.sample(pairs, 40)))
    return Rules(SHAPE, base.groups, (Differ("knight pairs", chosen),), presets=("standard", "anti-knight"))


def killer_rules(solution: tuple[int, ...], rng: random.Random) -> Rules:
    n, free, cages = SHAPE.n, set(range(SHAPE.cells)), []
    while free:
        cells, size = [min(free)], rng.randint(2, 5)
        free.discard(cells[0])
        while len(cells) < size:
            frontier = [c for cell in cells for c in _neighbours(cell, n)
                        if c in free and solution[c] not in {solution[x] for x in cells}]
            if not frontier:
                break
            cells.append(rng.choice(frontier))
            free.discard(cells[-1])
        cages.append((tuple(cells), sum(solution[c] for c in cells)))
    return build(SHAPE, cages=cages)


def thermo_rules(solution: tuple[int, ...], rng: random.Random) -> Rules:
    n, thermos, used = SHAPE.n, [], set()
    while len(thermos) < 8:
        cells = [rng.choice([c for c in range(SHAPE.cells) if c not in used])]
        while len(cells) < rng.randint(3, 5):
            options = [c for c in _neighbours(cells[-1], n, diagonal=True)
                       if c not in cells and c not in used and solution[c] > solution[cells[-1]]]
            if not options:
                break
            cells.append(rng.choice(options))
        if len(cells) >= 3:
            thermos.append(tuple(cells))
            used.update(cells)
    return build(SHAPE, thermos=thermos)


def puzzles(path, count: int, seed: int) -> dict[str, list[Puzzle]]:
    """Per kind, ``count`` puzzles read from the set's solutions (module docstring)."""
    rng = random.Random(seed)
    made: dict[str, list[Puzzle]] = {DIFFER: [], SUM: [], INCREASING: []}
    with solvers.get("sat") as sat:
        for entry in islice(read_dataset(path), count):
            puzzle = entry.puzzle
            solution = sat.solve(puzzle).grid
            given = [cell for cell, digit in enumerate(puzzle.givens) if digit]
            half = set(rng.sample(given, len(given) // 2))
            givens = tuple(d if cell in half else 0 for cell, d in enumerate(solution))
            made[DIFFER].append(Puzzle(SHAPE, givens, differ_rules(solution, rng)))
            made[SUM].append(Puzzle(SHAPE, (0,) * SHAPE.cells, killer_rules(solution, rng)))
            made[INCREASING].append(Puzzle(SHAPE, givens, thermo_rules(solution, rng)))
    return made


def sizes(rules: Rules) -> dict[str, int]:
    """Model sizes by closed form where a paradigm has one: SAT clauses, CP-SAT constraints, MIP rows."""
    from sudokulab.solvers.cpsat.model import model_size as cpsat_size
    from sudokulab.solvers.mip.model import model_size as mip_size
    from sudokulab.solvers.sat.size import rules_counts

    return {"sat clauses": rules_counts(rules, "extended")[1], "cpsat constraints": cpsat_size(rules)[1],
            "mip rows": mip_size(rules)[1]}


def make(spec: str):
    """A fresh solver from ``name`` or ``name:key=value,...``."""
    name, _, options = spec.partition(":")
    return solvers.get(name, **dict(option.split("=", 1) for option in options.split(",") if option))


def run(spec: str, puzzle: Puzzle, time_limit: float) -> tuple[float, bool, bool] | None:
    """(seconds, solved, right) of one solve with a fresh solver; None when it refuses the rules."""
    with make(spec) as solver:
        if solver.capabilities.unsupported(puzzle.rules):
            return None
        limit = {"time_limit": time_limit} if solver.capabilities.time_limit else {}
        with timer() as took:
            result = solver.solve(puzzle, **limit)
    return took[0].wall, result.status is Status.SOLVED, result.grid is not None and is_solution(result.grid, puzzle)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", default="17_clue")
    parser.add_argument("--puzzles", type=int, default=12)
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=44)
    parser.add_argument("--solvers", default=None, help="comma-separated (default: every installed one but "
                        "backtrack, plus cpmpy:backend=pysat)")
    parser.add_argument("--kinds", default="differ,sum,increasing", help="comma-separated")
    parser.add_argument("--out", default="lowering.md", help="the results file's name (default: lowering.md)")
    parser.add_argument("--out-dir", type=Path, default=RESULTS, help="where it goes (default: results/)")
    args = parser.parse_args()
    measured_on = machine()
    path = dataset(args.set, args.puzzles)
    if path is None:
        return 2
    made = puzzles(path, args.puzzles, args.seed)
    specs = args.solvers.split(",") if args.solvers else (
        [name for name in solvers.names() if name != "backtrack" and solvers.installed(name)] + ["cpmpy:backend=pysat"])
    rows, wrong = [], 0
    for spec in specs:
        with make(spec) as solver:
            capabilities = solver.capabilities
        for kind in args.kinds.split(","):
            native, low, outs, refused = [], [], [0, 0], 0
            for puzzle in made[kind]:
                plain = Puzzle(puzzle.shape, puzzle.givens, lowered(puzzle.rules, {kind}))
                if capabilities.unsupported(puzzle.rules) or capabilities.unsupported(plain.rules):
                    refused += 1  # dlx: a cage its pairs cannot say, either way
                    continue
                for index, (target, times) in enumerate(((puzzle, native), (plain, low))):
                    seconds, solved, right = run(spec, target, args.time_limit)  # type: ignore[misc]
                    if solved and not right:
                        wrong += 1
                    if not solved:
                        outs[index] += 1
                    times.append(seconds)
            if not native:
                rows.append([spec, kind, "refused", "", "", "", "", str(refused)])
                continue
            way = "native" if kind in capabilities.kinds else "lowered"
            median_native, median_low = statistics.median(native), statistics.median(low)
            rows.append([spec, kind, way, f"{median_native * 1000:.1f}", f"{median_low * 1000:.1f}",
                         f"{median_low / median_native:.2f}", f"{outs[0]}/{outs[1]}", str(refused)])
            print(" | ".join(rows[-1]), file=sys.stderr, flush=True)
    size_rows = []
    for kind in args.kinds.split(","):
        before = [sizes(p.rules) for p in made[kind]]
        after = [sizes(lowered(p.rules, {kind})) for p in made[kind]]
        size_rows.append([kind, *(f"{statistics.mean(b[key] for b in before):,.0f} -> "
                                  f"{statistics.mean(a[key] for a in after):,.0f}" for key in before[0])])
    body = (f"{args.puzzles} puzzles per kind from {args.set} (module docstring of benchmarks/lowering.py), "
            f"each solved by a fresh solver as it is (\"as declared\": the way the solver's capabilities "
            f"take the kind) and with the kind lowered; median wall milliseconds of the whole call (model "
            f"built in it), time-outs at {args.time_limit:g} s as declared/lowered. Wrong answers: {wrong}.\n\n"
            + markdown_table(["solver", "kind", "declared", "as declared ms", "lowered ms", "lowered/declared",
                              "time-outs", "refused"], rows)
            + "\nModel sizes by closed form, mean over the puzzles, as declared -> lowered:\n\n"
            + markdown_table(["kind", *before[0]], size_rows))
    written = write_results(args.out, "The lowering's cost: each kind native and lowered", body,
                            how=f"Made by `{command_line()}`.", measured_on=measured_on, folder=args.out_dir)
    print(f"wrote {written}", file=sys.stderr)
    return 4 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
