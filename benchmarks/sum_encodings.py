"""Killer cage sums in CNF: the allowed-combination encoding against PySAT's pseudo-Boolean ones.

Model: the ``extended`` pairwise formula of each puzzle's rules (``solvers.sat.cnf.build_formula``), with
the cage sums encoded each way in turn (the rest of the formula is the same clauses):

- ``combinations`` (``solvers.sat.cnf.cage_clauses``, the one sudokulab uses): one selector per digit
  set of the cage's size that reaches its total, exactly one selector, a selector's digits appear,
  a cell's digit is in the chosen set;
- ``pb-<encoder>``: ``pysat.pb.PBEnc.equals`` over sum d * x[c, d] = total per cage (PySAT 1.9
  encodes through the ``pindakaas`` package: ``pip install python-sat[pb]``; skipped, and said so,
  when it is missing), for the encoders ``best`` (pindakaas' default), ``bdd``, ``adder``.

Puzzles: K killer puzzles made here (no published killer set exists in the catalogue): the solution of
each of the first K puzzles of a 9x9 set (``--set``, default 17_clue) cut into random connected cages of 2 to 5
cells covering the board (seeded), each cage's total read from the solution, no givens. Each has a
solution, not always exactly one.

Measures per encoding: the formula's variables and clauses (mean over the puzzles), build time,
and, on a fresh CaDiCaL 1.9.5 engine per puzzle (each puzzle has its own rules), the time to a
first solution and the time to count up to 2 solutions (the uniqueness question, harder); every
grid found is checked by ``grid.is_solution`` and the counts must agree between encodings. Writes
``results/sum-encodings.md``.

    .venv/bin/python benchmarks/sum_encodings.py --limit 100
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from harness import RESULTS, Spread, command_line, dataset, machine, markdown_table, timer, write_results
from pysat.solvers import Solver

from sudokulab import Puzzle, Shape, is_solution, solvers
from sudokulab.core import variables
from sudokulab.core.rules import Cage, build
from sudokulab.datasets.reading import read_dataset
from sudokulab.solvers.sat import cnf

SHAPE = Shape(3, 3)


def killer_from(solution: tuple[int, ...], rng: random.Random) -> Puzzle:
    """A killer puzzle with no givens: ``solution`` cut into random connected cages of 2..5 cells."""
    n = SHAPE.n
    free = set(range(n * n))
    cages = []
    while free:
        start = min(free)
        cells, size = [start], rng.randint(2, 5)
        free.discard(start)
        while len(cells) < size:
            frontier = [c for cell in cells for c in _neighbours(cell, n) if c in free]
            frontier = [c for c in frontier if solution[c] not in {solution[x] for x in cells}]
            if not frontier:
                break
            pick = rng.choice(frontier)
            cells.append(pick)
            free.discard(pick)
        cages.append((tuple(cells), sum(solution[c] for c in cells)))
    return Puzzle(SHAPE, (0,) * (n * n), build(SHAPE, cages=cages))


def _neighbours(cell: int, n: int) -> list[int]:
    r, c = divmod(cell, n)
    return [rr * n + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if 0 <= rr < n and 0 <= cc < n]


def pb_encoder(name: str):
    """A cage encoder (``cnf.CageEncoder``) through ``pysat.pb.PBEnc.equals`` with one pindakaas encoder."""
    from pysat.pb import EncType, PBEnc

    kind = getattr(EncType, name)

    def encode(n: int, cage: Cage, pool, amo: str) -> list[list[int]]:
        lits = [variables.literal(n, cell, d) for cell in cage.cells for d in range(1, n + 1)]
        weights = [d for _ in cage.cells for d in range(1, n + 1)]
        built = PBEnc.equals(lits=lits, weights=weights, bound=cage.total, top_id=pool.top, encoding=kind)
        pool.top = max(pool.top, built.nv)
        return [list(clause) for clause in built.clauses]

    return encode


def encoders() -> tuple[dict[str, object], str | None]:
    found: dict[str, object] = {"combinations": None}
    try:
        import pindakaas  # noqa: F401 - only asked whether it is there
    except ImportError:
        return found, "pindakaas is not installed (pip install python-sat[pb]): the PB encodings were skipped"
    for name in ("best", "bdd", "adder"):
        found[f"pb-{name}"] = pb_encoder(name)
    return found, None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, help="folder of the sets (default: the catalogue's)")
    parser.add_argument("--set", default="17_clue", help="the 9x9 set the solutions come from (default: 17_clue)")
    parser.add_argument("--limit", type=int, default=100)
    parser.add_argument("--seed", type=int, default=22)
    parser.add_argument("--out-dir", type=Path, default=RESULTS, help="where sum-encodings.md goes (default: results/)")
    args = parser.parse_args()
    path = dataset(args.set, args.limit, args.data)
    if path is None:
        return 2
    measured_on = machine()
    rng = random.Random(args.seed)
    puzzles = []
    with solvers.get("sat") as sat:
        for entry in read_dataset(path):
            if len(puzzles) >= args.limit:
                break
            if entry.puzzle is not None:
                puzzles.append(killer_from(sat.solve(entry.puzzle).grid, rng))
    found, skipped = encoders()
    rows, counts_seen = [], {}
    for name, encoder in found.items():
        sizes, builds, firsts, uniques, counts = [], [], [], [], []
        for index, puzzle in enumerate(puzzles):
            with timer() as built:
                formula = cnf.build_formula(puzzle.rules, "extended", "pairwise", cages=encoder)
            with Solver(name="cadical195", bootstrap_with=formula.clauses) as engine:
                with timer() as first:
                    solved = engine.solve()
                    grid = formula.decode(engine.get_model(), puzzle.givens) if solved else None
                if grid is None or not is_solution(grid, puzzle):
                    print(f"sum_encodings.py: {name}: puzzle {index + 1}: not a solution", file=sys.stderr)
                    return 4
                with timer() as second:
                    engine.add_clause(formula.blocking_clause(grid, puzzle.givens))
                    count = 1 + bool(engine.solve())
            sizes.append((formula.variables, len(formula.clauses)))
            builds.append(built[0].wall)
            firsts.append(first[0].wall)
            uniques.append(first[0].wall + second[0].wall)
            counts.append(count)
        for index, count in enumerate(counts):
            if counts_seen.setdefault(index, count) != count:
                print(f"sum_encodings.py: {name}: puzzle {index + 1}: {count} solutions, not {counts_seen[index]}",
                      file=sys.stderr)
                return 4
        rows.append([name, f"{Spread.of([v for v, _ in sizes]).mean:,.0f}",
                     f"{Spread.of([c for _, c in sizes]).mean:,.0f}",
                     f"{Spread.of(builds).median * 1000:.1f} ms", f"{Spread.of(firsts).median * 1000:.1f} ms",
                     f"{len(puzzles) / sum(firsts):,.1f}", f"{Spread.of(uniques).median * 1000:.1f} ms",
                     f"{len(puzzles) / sum(uniques):,.1f}"])
    unique = sum(1 for c in counts_seen.values() if c == 1)
    body = "\n".join([
        f"{len(puzzles)} killer puzzles made from the solutions of the first {len(puzzles)} of `{path.name}` "
        f"(random connected cages of 2..5 cells covering the board, seed {args.seed}, no givens; {unique} have "
        "exactly one solution). Extended pairwise formula of each puzzle's rules, cage sums encoded each way; a "
        "fresh CaDiCaL 1.9.5 engine per puzzle; one process. The timings leave out the engine's construction.",
        "",
        markdown_table(["cage sums", "variables (mean)", "clauses (mean)", "build (median)", "first solution (median)",
                        "solved/s", "count to 2 (median)", "counted/s"], rows),
        "Every grid passed `is_solution`; the solution counts agreed between encodings."
        + (f" Note: {skipped}." if skipped else ""),
    ])
    print(body)
    write_results("sum-encodings.md", "Killer cage sums in CNF", body, how=f"Made by `{command_line()}`.",
                  measured_on=measured_on, folder=args.out_dir)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
