"""``sudokulab encoding show``: one at-most-one encoding over K literals, or the model sizes of a board.

What is shown, and how it is checked, is ``solvers.sat.encoding_lesson``'s (docs/encodings.md); this command
picks it from the options and prints its text or its ``--json`` document.
"""

from __future__ import annotations

import argparse
import sys

from ...errors import ExitCode, UsageError
from ...formats.documents import emit
from ...solvers.sat.encoding_lesson import model_sizes, render, render_sizes, show, sizes_json
from ...solvers.sat.encodings import AMO_ENCODINGS
from ..options import positive_int


def configure(parser: argparse.ArgumentParser) -> None:

    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION", parser_class=type(parser))
    show = actions.add_parser("show", help="an at-most-one encoding over K literals (--amo), or the model sizes "
                              "(--model)")
    show.add_argument("--amo", choices=AMO_ENCODINGS, metavar="NAME",
                      help=f"the at-most-one encoding to show: {', '.join(AMO_ENCODINGS)}")
    show.add_argument("--literals", type=positive_int, metavar="K", help="over x1..xK (default: 4; 2 to 32)")
    show.add_argument("--exactly-one", action="store_true", help="exactly one (the at-least-one clause added)")
    show.add_argument("--model", action="store_true",
                      help="the whole Sudoku model of the empty board per (encoding, amo): sizes side by side")
    show.add_argument("--size", type=int, choices=(4, 9), default=9, help="with --model: the board (default: 9)")
    show.add_argument("--json", action="store_true", help="one JSON document on stdout instead")


def run(args: argparse.Namespace) -> int:

    if args.model:
        if args.amo is not None or args.literals is not None or args.exactly_one:
            raise UsageError("encoding show: --model takes --size only (not --amo, --literals, --exactly-one)")
        rows = model_sizes(args.size)
        if args.json:
            emit(sizes_json(args.size, rows))
        else:
            sys.stdout.write(render_sizes(args.size, rows))
        return ExitCode.OK
    if args.amo is None:
        raise UsageError("encoding show: give --amo NAME (one of: " + ", ".join(AMO_ENCODINGS) + ") or --model")
    shown = show(args.amo, 4 if args.literals is None else args.literals, args.exactly_one)
    if args.json:
        emit(shown.to_json())
    else:
        sys.stdout.write(render(shown))
    return ExitCode.OK
