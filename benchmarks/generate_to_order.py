"""Puzzles made to order: how many candidates each request tries, and what it costs.

Each request (``REQUESTS``: rating ranges on serate's scale, needed techniques, symmetry, minimality)
asks ``generation.to_order.made_to_order`` for ``--count`` puzzles with ``--seed``, in this process
(compiled chaining rules where built), at most ``--tries`` candidates; the table gives the puzzles
found, the candidates tried (and per puzzle), the seconds of CPU of this process, and why candidates
were turned away.

    .venv/bin/python benchmarks/generate_to_order.py --count 5     # writes results/generate-to-order.md
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from harness import command_line, machine, markdown_table, write_results

from sudokulab.generation.to_order import Order, Tally, made_to_order, technique_name
from sudokulab.reasoning.serate.chaining import _compiled

REQUESTS = (
    ("--rating 1.0..2.0", Order(rating=(1.0, 2.0))),
    ("--rating 2.0..4.0 --symmetry rotational", Order(rating=(2.0, 4.0), symmetry="rotational")),
    ("--rating 6.0..7.0 --symmetry rotational", Order(rating=(6.0, 7.0), symmetry="rotational")),
    ("--rating 7.0..8.0", Order(rating=(7.0, 8.0))),
    ("--rating 8.0..9.0", Order(rating=(8.0, 9.0))),
    ("--needs x-wing", Order(needs=technique_name("x-wing"))),
    ("--needs xy-wing", Order(needs=technique_name("xy-wing"))),
    ("--needs turbot-fish --rating 6.6..6.6", Order(rating=(6.6, 6.6), needs=technique_name("turbot-fish"))),
    ("--needs unique-rectangle", Order(needs=technique_name("unique-rectangle"))),
    ("--minimal --symmetry mirror", Order(symmetry="mirror", minimal=True)),
    ("--minimal --rating 4.0..6.0", Order(rating=(4.0, 6.0), minimal=True)),
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tries", type=int, default=3000)
    parser.add_argument("--out-dir", type=Path, help="write the results here instead of benchmarks/results")
    args = parser.parse_args()
    measured_on = machine()
    rows = []
    for words, order in REQUESTS:
        tally = Tally()
        start = time.process_time()
        found = sum(1 for _ in made_to_order(order, args.count, args.seed, limit=args.tries, on_candidate=tally.add))
        seconds = time.process_time() - start
        reasons = ", ".join(f"{why} {n}" for why, n in sorted(tally.reasons.items(), key=lambda kv: -kv[1]))
        per = f"{tally.tried / found:.0f}" if found else "-"
        rows.append((f"`{words}`", found, tally.tried, per, f"{seconds:.1f}", reasons or "-"))
        print(*rows[-1], sep="\t", file=sys.stderr, flush=True)
    lines = [f"`made_to_order(order, {args.count}, seed={args.seed}, limit={args.tries})` per request, one after "
             f"another in one process ({'compiled' if _compiled() is not None else 'Python'} chaining rules), "
             "CPU seconds of the process on a 2-core machine shared with other work. A candidate: a random "
             "grid, givens taken away an orbit at a time while one solution is left, then the checks "
             "(docs/generate.md).", "",
             markdown_table(("request", "puzzles", "candidates", "candidates per puzzle", "CPU s", "turned away"),
                            rows)]
    written = write_results("generate-to-order.md", "Puzzles made to order", "\n".join(lines),
                            how=f"Made by `{command_line()}`.", measured_on=measured_on, folder=args.out_dir)
    print(f"wrote {written}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
