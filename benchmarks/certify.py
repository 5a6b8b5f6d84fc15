"""How long a certified verdict takes: CaDiCaL's DRUP proof of uniqueness, and its independent check.

For each of the first K puzzles of a set (default 17_clue, one puzzle a line): the solution is found
with the ``sat`` solver, then ``proof.certify`` refutes "another solution exists" with CaDiCaL
1.9.5 and checks the proof by reverse unit propagation on MiniSat. Writes a Markdown table of the
median, p90 and maximum of the proving, checking and whole times, and the proof sizes.

    .venv/bin/python benchmarks/certify.py --limit 200 --out benchmarks/results/certify.md
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

from sudokulab import solvers
from sudokulab.datasets.reading import read_dataset
from sudokulab.verdicts.proof import check_proof, formula_of, prove

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data" / "17_clue.txt")
    parser.add_argument("--limit", type=int, default=200)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if not args.data.is_file():
        print(f"certify.py: no dataset at {args.data}: give --data FILE", file=sys.stderr)
        return 2
    load = os.getloadavg()[0]
    proving, checking, whole, lemmas = [], [], [], []
    with solvers.get("sat") as sat:
        for entry in read_dataset(args.data):
            if entry.puzzle is None:
                continue
            if len(whole) >= args.limit:
                break
            started = time.perf_counter()
            solution = sat.solve(entry.puzzle).grid
            clauses = formula_of(entry.puzzle, solution)
            proof = prove(clauses)
            proved = time.perf_counter()
            accepted, count, why = check_proof(clauses, proof)
            done = time.perf_counter()
            if not accepted:
                print(f"certify.py: puzzle {entry.index + 1}: not certified: {why}", file=sys.stderr)
                return 4
            proving.append(proved - started)
            checking.append(done - proved)
            whole.append(done - started)
            lemmas.append(count)

    def row(name: str, values: list[float]) -> str:
        ordered = sorted(values)
        p90 = ordered[int(0.9 * (len(ordered) - 1))]
        median, most = statistics.median(ordered), ordered[-1]
        return f"| {name} | {median * 1e3:.1f} ms | {p90 * 1e3:.1f} ms | {most * 1e3:.1f} ms |"

    lines = [
        f"Uniqueness certified for the first {len(whole)} puzzles of `{args.data.name}`, one process, "
        f"{os.cpu_count()} cores, load average {load:.2f} at the start ({time.strftime('%Y-%m-%d')}).",
        "",
        "| step | median | p90 | max |",
        "| --- | ---: | ---: | ---: |",
        row("solve (sat) + prove (CaDiCaL 1.9.5, DRUP)", proving),
        row("check (reverse unit propagation on MiniSat 2.2)", checking),
        row("whole certificate", whole),
        "",
        f"Lemmas per proof: median {statistics.median(lemmas):.0f}, max {max(lemmas)}. "
        f"Every proof was accepted.",
    ]
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if args.out:
        args.out.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
