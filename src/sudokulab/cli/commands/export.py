"""``sudokulab export``: the puzzle's model written for an outside solver (DIMACS, CP-SAT, LP, MPS)."""

from __future__ import annotations

import argparse
import sys

from ... import solvers
from ...errors import ExitCode, UnsupportedFeature
from ...formats import documents
from ...formats.outputs import OutputFile
from ..options import json_argument, load, puzzle_arguments, solver_options


def configure(parser: argparse.ArgumentParser) -> None:
    puzzle_arguments(parser, solver=False)
    parser.add_argument("--format", required=True, metavar="NAME",
                        help="dimacs (SAT), cpsat (CP-SAT), lp or mps (integer programming), minizinc, asp (clingo), "
                             "smtlib (SMT), cpmpy (CPMpy's print)")
    parser.add_argument("-o", "--option", action="append", metavar="KEY=VALUE",
                        help="a model option, e.g. -o encoding=extended (repeatable)")
    parser.add_argument("--encoding", help="shorthand for -o encoding=NAME")
    parser.add_argument("--output", metavar="FILE", help="write here instead of stdout")
    json_argument(parser, "one JSON document on stdout instead (the model text, or the file written)")


def run(args: argparse.Namespace) -> int:

    target = OutputFile(args.output) if args.output not in (None, "-") else None  # checked before the work
    puzzle = load(args)
    solver = solvers.export_formats().get(args.format)  # a format honours the rules its solver honours
    if solver is not None and not puzzle.rules.is_standard:
        missing = solvers.solver_class(solver).capabilities.lacks(rules=puzzle.rules)
        if missing:
            raise UnsupportedFeature(f"export --format {args.format} (the {solver} model) cannot {missing}")
    options = {key: _export_value(value) for key, value in solver_options(args.option).items()}
    if args.encoding:
        options["encoding"] = args.encoding
    text = solvers.export(puzzle, args.format, **options)
    if target is not None:
        with target:
            target.write(text)
    if args.json:
        documents.emit({**documents.puzzle_fields(puzzle), "format": args.format, "options": options,
                        "output": None if target is None else args.output, "text": text if target is None else None})
    elif target is None:
        sys.stdout.write(text)
    return ExitCode.OK


def _export_value(text: str) -> str | bool:
    return {"true": True, "false": False}.get(text.lower(), text)
