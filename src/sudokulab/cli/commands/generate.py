"""``sudokulab generate``: random puzzles of any size, in the dataset format, each shown as it is made; or
puzzles made to order (``--rating``, ``--needs``, ``--symmetry``, ``--minimal``: ``generation.to_order``).

More: docs/generate.md.
"""

from __future__ import annotations

import argparse
import random
import sys
from contextlib import nullcontext

from ...core.grid import Shape
from ...errors import ExitCode, UsageError
from ...execution.cluster import check_where, open_executor
from ...formats import documents
from ...formats.boj import MAX_SIZE, parse_box
from ...formats.outputs import OutputFile
from ...generation import puzzles as gen
from ...generation.to_order import Order, Tally, made_to_order, rating_range, technique_name
from ...ui.console import prose
from ...ui.progress import progress
from ..options import (
    dataset_rules,
    fraction,
    json_argument,
    non_negative_int,
    positive_int,
    rules_arguments,
    seed_int,
    where_arguments,
)

DESCRIPTION = ("Random puzzles of any size, one a line (BOJ blocks above 9x9), each with exactly one solution "
               "(--several: givens removed without that check). With variant rules "
               "(--rules, --regions, --cages, --thermos) the puzzles are made under them, but the output holds "
               "only the givens: solve them with the same options.")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--size", type=positive_int, default=9, metavar="N", help="board size n (n x n; default: 9)")
    parser.add_argument("--box", metavar="RxC", help="box shape, e.g. 2x3 (default: from the size)")
    amount = parser.add_mutually_exclusive_group()
    amount.add_argument("--clues", type=non_negative_int, metavar="K", help="givens per puzzle")
    amount.add_argument("--fraction", type=fraction, metavar="F",
                        help="givens as a share of the cells (default: 0.45 up to 16x16, then 0.60 up to 25x25, "
                        "0.80 up to 36x36, 0.90 above, so that each puzzle takes seconds; with --several 0.45)")
    solutions = parser.add_mutually_exclusive_group()
    solutions.add_argument("--unique", action="store_true",
                           help="keep only removals that leave exactly one solution, checked with SAT (the default)")
    solutions.add_argument("--several", action="store_true",
                           help="remove givens at random without that check: puzzles may have several solutions, "
                           "and are made at once on any board")
    parser.add_argument("--count", type=positive_int, default=1, metavar="C", help="puzzles (default: 1)")
    parser.add_argument("--seed", type=seed_int, metavar="S", help="random seed: the same seed, the same puzzles")
    parser.add_argument("--per-puzzle-seeds", action="store_true",
                        help="give puzzle k its own random stream, seeded by 'S/k' (what --cluster does): the "
                        "same puzzles whatever makes them; without it one stream makes them all in turn")
    where_arguments(parser, "make the puzzles")
    order = parser.add_argument_group(
        "made to order", "Standard 9x9 puzzles with one solution, made until enough meet every condition "
        "(docs/generate.md); each candidate is a random grid whose givens are taken away, an orbit of the "
        "symmetry at a time, while one solution is left. Exit 3 when --tries runs out first.")
    order.add_argument("--rating", metavar="LO..HI",
                       help="Sudoku Explainer's rating (serate's ER, docs/rating.md) in this range, e.g. 6.0..7.0")
    order.add_argument("--needs", metavar="TECHNIQUE",
                       help="serate's path uses this technique (so the rules before it in SE's order cannot "
                       "finish the puzzle), e.g. xy-wing, x-wing, turbot-fish, unique-rectangle")
    order.add_argument("--symmetry", choices=("none", "rotational", "mirror"),
                       help="the givens' pattern: 180-degree turn, left-right mirror, or none (default)")
    order.add_argument("--minimal", action="store_true", help="no given can be taken away and leave one solution")
    order.add_argument("--tries", type=positive_int, default=100_000, metavar="N",
                       help="give up after N candidates (default: 100000)")
    parser.add_argument("--output", metavar="FILE",
                        help="write here instead of stdout: the file appears whole when the last puzzle is made "
                        "(nothing on failure); stdout shows each puzzle as it is made")
    parser.add_argument("--quiet", action="store_true", help="no progress bar (shown on a terminal only)")
    rules_arguments(parser, "every puzzle is made under; the output holds the givens only, so give the "
                    "same options to the commands that read it")
    json_argument(parser, "one JSON Lines row per puzzle on stdout (with --output the file gets the puzzles)")


def run(args: argparse.Namespace) -> int:
    if args.rating is not None or args.needs is not None or args.symmetry is not None or args.minimal:
        return _to_order(args)
    unique = not args.several
    if args.size > MAX_SIZE:
        raise UsageError(f"a {args.size}x{args.size} board is larger than the {MAX_SIZE}x{MAX_SIZE} supported")
    shape = Shape(*parse_box(args.box)) if args.box else Shape.of_size(args.size)
    if shape.n != args.size:
        raise UsageError(f"box {args.box} does not fit a {args.size}x{args.size} board")
    try:
        target = gen.clues_for(shape, args.clues, args.fraction, unique)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    options = dataset_rules(args)
    variant = {} if options is None else {"rules": options.for_shape(shape)}  # bad rules data: refused here
    output = OutputFile(args.output) if args.output not in (None, "-") else None  # checked before the work
    seed = args.seed
    check_where(args.jobs, args.cluster)
    # before any output: a bad address is refused with nothing written
    cluster = open_executor(args.jobs, args.cluster) if args.cluster or args.jobs > 1 else None
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
        prose(f"sudokulab: seed {seed} (give --seed {seed} to generate the same puzzles)", stderr=True, indent="  ")
    short: list[int] = []
    show = not args.quiet and sys.stderr.isatty()
    with cluster or nullcontext(), output if output is not None else _Stdout() as stream, \
            progress(args.count, enabled=show, label="puzzles") as bar:
        cells = bar.add_task("cells blanked", total=None, tally="")

        def blanked(done: int, wanted: int) -> None:
            bar.update(cells, completed=done, total=wanted or None)

        for number, made in enumerate(gen.generate(shape, args.count, clues=target, unique=unique, seed=seed,
                                                   progress=blanked if show and cluster is None else None,
                                                   per_puzzle_seeds=args.per_puzzle_seeds, cluster=cluster,
                                                   **variant)):
            if args.json:
                documents.emit_line(made.to_json(number))
                sys.stdout.flush()
            if output is not None or not args.json:
                stream.write(gen.dataset_text(made.puzzle))
            bar.update(bar.task_ids[0], advance=1)
            if made.short:
                short.append(made.clues)
    if short:
        prose(f"sudokulab: warning: {len(short)} of {args.count} puzzles cannot go below {target} clues and stay "
              f"unique; they stopped at {min(short)}..{max(short)} clues", stderr=True, indent="  ")
    return ExitCode.OK


def _to_order(args: argparse.Namespace) -> int:
    """Puzzles made to order (``generation.to_order``): one line each, as they are found."""
    for flag, given in (("--clues", args.clues), ("--fraction", args.fraction), ("--box", args.box)):
        if given is not None:
            raise UsageError(f"{flag} does not go with a made-to-order request: its puzzles are 9x9, "
                             "their givens taken away while one solution is left")
    if args.size != 9 or dataset_rules(args) is not None:
        raise UsageError("puzzles made to order are standard 9x9 Sudoku (Sudoku Explainer's scale)")
    if args.several:
        raise UsageError("--several does not go with a made-to-order request: its puzzles have one solution")
    order = Order(rating_range(args.rating) if args.rating is not None else None,
                  technique_name(args.needs) if args.needs is not None else None,
                  args.symmetry or "none", args.minimal)
    check_where(args.jobs, args.cluster)
    output = OutputFile(args.output) if args.output not in (None, "-") else None
    seed = args.seed
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
        prose(f"sudokulab: seed {seed} (give --seed {seed} to generate the same puzzles)", stderr=True, indent="  ")
    tally = Tally()
    show = not args.quiet and sys.stderr.isatty()
    found = 0
    with open_executor(args.jobs, args.cluster) as executor, \
            output if output is not None else _Stdout() as stream, \
            progress(args.count, enabled=show, label="puzzles") as bar:
        tried = bar.add_task("candidates tried", total=None, tally="")

        def counted(candidate: object) -> None:
            tally.add(candidate)  # type: ignore[arg-type]
            bar.update(tried, completed=tally.tried)

        for made in made_to_order(order, args.count, seed, executor=executor, limit=args.tries,
                                  on_candidate=counted):
            if args.json:
                documents.emit_line(made.to_json(found))
                sys.stdout.flush()
            if output is not None or not args.json:
                stream.write(gen.dataset_text(made.puzzle))
            found += 1
            bar.update(bar.task_ids[0], advance=1)
    prose(f"sudokulab: {found} puzzle{'s' if found != 1 else ''} from {tally.tried} candidates", stderr=True,
          indent="  ")
    if found < args.count:
        prose(f"sudokulab: only {found} of {args.count} puzzles met the request within --tries {args.tries}",
              stderr=True, indent="  ")
        return ExitCode.TIME_LIMIT
    return ExitCode.OK


class _Stdout:
    """Standard output as an output of ``generate``: each puzzle flushed as it is made."""

    def __enter__(self) -> _Stdout:
        return self

    def __exit__(self, *exc_info: object) -> None:
        pass

    def write(self, text: str) -> None:
        sys.stdout.write(text)
        sys.stdout.flush()
