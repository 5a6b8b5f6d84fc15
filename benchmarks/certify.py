"""How long a certified verdict takes: CaDiCaL's DRUP proof of uniqueness, and its independent check.

For each of the first K puzzles of a set (default 17_clue, one puzzle a line): the solution is found
with the ``sat`` solver, then ``proof.certify`` refutes "another solution exists" with CaDiCaL
1.9.5 and checks the proof by reverse unit propagation on MiniSat. Writes ``results/certify.md``: the
median, p90 and maximum of the proving, checking and whole times, and the proof sizes.

    .venv/bin/python benchmarks/certify.py --limit 200
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from harness import RESULTS, Spread, command_line, dataset, machine, markdown_table, timer, write_results

from sudokulab import solvers
from sudokulab.datasets.reading import read_dataset
from sudokulab.verdicts.proof import check_proof, formula_of, prove


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, help="folder of the sets (default: the catalogue's)")
    parser.add_argument("--set", default="17_clue", help="the set (default: 17_clue)")
    parser.add_argument("--limit", type=int, default=200)
    parser.add_argument("--out-dir", type=Path, default=RESULTS, help="where certify.md goes (default: results/)")
    args = parser.parse_args()
    path = dataset(args.set, args.limit, args.data)
    if path is None:
        return 2
    measured_on = machine()
    proving, checking, whole, lemmas = [], [], [], []
    with solvers.get("sat") as sat:
        for entry in read_dataset(path):
            if entry.puzzle is None:
                continue
            if len(whole) >= args.limit:
                break
            with timer() as proved:
                solution = sat.solve(entry.puzzle).grid
                clauses = formula_of(entry.puzzle, solution)
                proof = prove(clauses)
            with timer() as checked:
                accepted, count, why = check_proof(clauses, proof)
            if not accepted:
                print(f"certify.py: puzzle {entry.index + 1}: not certified: {why}", file=sys.stderr)
                return 4
            proving.append(proved[0].wall)
            checking.append(checked[0].wall)
            whole.append(proved[0].wall + checked[0].wall)
            lemmas.append(count)

    def row(name: str, values: list[float]) -> list[str]:
        spread = Spread.of(values)
        p90 = sorted(values)[int(0.9 * (len(values) - 1))]
        return [name, *(f"{seconds * 1e3:.1f} ms" for seconds in (spread.median, p90, spread.high))]

    body = "\n".join([
        f"Uniqueness certified for the first {len(whole)} puzzles of `{path.name}`, one process.",
        "",
        markdown_table(["step", "median", "p90", "max"], [
            row("solve (sat) + prove (CaDiCaL 1.9.5, DRUP)", proving),
            row("check (reverse unit propagation on MiniSat 2.2)", checking),
            row("whole certificate", whole)]),
        f"Lemmas per proof: median {Spread.of(lemmas).median:.0f}, max {max(lemmas)}. Every proof was accepted.",
    ])
    print(body)
    write_results("certify.md", "Certified verdicts: proof of uniqueness and its check", body,
                  how=f"Made by `{command_line()}`.", measured_on=measured_on, folder=args.out_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
