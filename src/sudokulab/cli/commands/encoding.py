"""``sudokulab encoding show``: one at-most-one encoding over K literals, or the model sizes of a board.

What is shown, and how it is checked, is ``solvers.sat.encoding_lesson``'s (docs/encodings.md); this command
picks it from the options and prints its text (lines through the one wrapper, the sizes through the one
table function) or its ``--json`` document.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from ...errors import ExitCode, UsageError
from ...formats.documents import emit
from ...solvers.sat.encoding_lesson import MODEL_ENCODINGS, EncodingShown, ModelSize, model_sizes, show, sizes_json
from ...solvers.sat.encodings import AMO_ENCODINGS
from ...ui.console import as_text, console, prose
from ...ui.tables import Column, print_table
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
    show.add_argument("--wide", action="store_true", help="with --model: every column, however wide the table gets")
    show.add_argument("--json", action="store_true", help="one JSON document on stdout instead")


def run(args: argparse.Namespace) -> int:

    if args.model:
        if args.amo is not None or args.literals is not None or args.exactly_one:
            raise UsageError("encoding show: --model takes --size only (not --amo, --literals, --exactly-one)")
        rows = model_sizes(args.size)
        if args.json:
            emit(sizes_json(args.size, rows))
        else:
            render_sizes(args.size, rows, wide=args.wide)
        return ExitCode.OK
    if args.amo is None:
        raise UsageError("encoding show: give --amo NAME (one of: " + ", ".join(AMO_ENCODINGS) + ") or --model")
    shown = show(args.amo, 4 if args.literals is None else args.literals, args.exactly_one)
    if args.json:
        emit(shown.to_json())
    else:
        render(shown)
    return ExitCode.OK


def render(shown: EncodingShown) -> None:
    """What ``encoding show --amo NAME --literals K`` prints: each line through the one wrapper, a
    clause's or a variable's continuation lines indented under its text."""
    k, f = shown.k, shown.formula
    kind = "exactly one" if shown.exactly_one else "at most one"
    extra = " + 1 (the at-least-one clause)" if shown.exactly_one else ""
    prose(f"{shown.source.name}, -o amo={shown.amo}: {kind} of x1..x{k}")
    prose(f"source: {shown.source.paper}\n", indent="  ")
    if f.clauses is None:
        prose(f"clauses: {shown.clause_count} (no closed form here)")
        prose(f"auxiliary variables: {shown.auxiliary_count}")
    else:
        prose(f"clauses: {shown.clause_count}   formula: {f.clauses}{extra} = {f.clauses_at_k}"
              f"{' + 1' if shown.exactly_one else ''} at K = {k}", indent="  ")
        prose(f"auxiliary variables: {shown.auxiliary_count}   formula: {f.auxiliaries} = {f.auxiliaries_at_k}",
              indent="  ")
    if f.note:
        prose(f"note: {f.note}", indent="  ")
    prose("\nclauses:")
    width = len(str(shown.clause_count))
    for i, text in enumerate(shown.readable, 1):
        prose(f"  {i:>{width}}  {text}", indent=" " * (width + 2))
    if shown.auxiliaries:
        prose("\nauxiliary variables (what each means; in brackets, what a SAT engine finds it can be in each state "
              "of x1..xk):", indent="  ")
        name_width = max(len(a.name) for a in shown.auxiliaries)
        for a in shown.auxiliaries:
            prose(f"  {a.name:<{name_width}}  {a.meaning}", indent=" " * (name_width + 2))


def render_sizes(size: int, rows: Sequence[ModelSize], *, wide: bool = False) -> None:
    """The (encoding x AMO) table of the empty board, clauses and variables side by side, through the
    one table function: on a narrow terminal the extended encoding (the default) stays longest."""
    out = console(wide=wide)
    drops = {"minimal": 3, "efficient": 1}  # efficient goes first, then minimal; extended stays
    columns = [Column("amo")] + [Column(f"{encoding}\n{what}", "right", drop=drops.get(encoding, 0) and
                                        2 * drops[encoding] - (what == "vars"))
                                 for encoding in MODEL_ENCODINGS for what in ("clauses", "vars")]
    cells = []
    for amo in AMO_ENCODINGS:
        found = {row.encoding: row for row in rows if row.amo == amo}
        cells.append([amo] + [f"{figure:,}" for encoding in MODEL_ENCODINGS
                              for figure in (found[encoding].clauses, found[encoding].variables)])
    print_table(out, columns, cells, title=f"the whole model of the empty {size}x{size} board ({size ** 3} cell "
                "variables, the rest auxiliary)", wide=wide)
    out.print(as_text("(reduced: the extended encoding minus what the givens decide; on an empty board it is "
                      "extended)"))
