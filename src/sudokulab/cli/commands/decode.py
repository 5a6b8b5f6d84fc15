"""``sudokulab decode``: a SAT solver's answer to an exported formula, as the BOJ answer (after the checker)."""

from __future__ import annotations

import argparse
import sys

from ...core.puzzle import solution_error
from ...errors import ExitCode, NoSolution, SolverBug, TimeLimitReached, UsageError
from ...formats import documents
from ...formats.boj import format_grid, read_text, source_name
from ...solvers.base import Status
from ...solvers.sat.dimacs import Exported, decode_model, parse_answer, read_header
from ...solvers.sat.encodings import AMO_ENCODINGS, ENCODINGS
from ...verdicts.verify import MAX_ANSWER_BYTES
from ..options import json_argument, load, rule_options, rules_arguments

USAGE = ("sudokulab decode PUZZLE ANSWER [--encoding NAME] [--amo NAME]\n"
         "       sudokulab decode ANSWER --cnf FORMULA")


def configure(parser: argparse.ArgumentParser) -> None:

    parser.add_argument("first", metavar="PUZZLE", help="puzzle file (or the ANSWER with --cnf); - for stdin")
    parser.add_argument("answer", nargs="?", metavar="ANSWER",
                        help="the solver's output: SAT-competition lines, a MiniSat result file, or literals")
    parser.add_argument("--cnf", metavar="FORMULA",
                        help="the .cnf written by export: puzzle and encoding from its header")
    parser.add_argument("--encoding", default="extended", choices=ENCODINGS, metavar="NAME",
                        help=f"the encoding the formula was exported with: {', '.join(ENCODINGS)} "
                        "(default: extended)")
    parser.add_argument("--amo", default="pairwise", choices=AMO_ENCODINGS, metavar="NAME",
                        help=f"its at-most-one encoding: {', '.join(AMO_ENCODINGS)} (default: pairwise)")
    parser.add_argument("--box", metavar="RxC", help="box shape, e.g. 2x3 (default: from the size)")
    rules_arguments(parser, "of the PUZZLE (with --cnf: the formula's own, from its header)")
    json_argument(parser, "one JSON document on stdout instead (answer, grid)")


def run(args: argparse.Namespace) -> int:

    if args.cnf is not None:
        if args.answer is not None:
            raise UsageError("decode: give the puzzle or --cnf, not both")
        if any(rule_options(args).values()):
            raise UsageError("decode: with --cnf the rules are the formula's own (its header): drop --rules, "
                             "--regions, --cages and --thermos")
        exported = read_header(read_text(args.cnf, 256 << 20), source_name(args.cnf))
        answer_source = args.first
    else:
        if args.answer is None:
            raise UsageError("decode: give PUZZLE and the solver's ANSWER, or ANSWER --cnf FORMULA")
        exported = Exported(load(args, args.first), args.encoding, args.amo)
        answer_source = args.answer
    if args.first == "-" and args.answer == "-":
        raise UsageError("decode: the puzzle and the answer cannot both come from standard input")
    answer = parse_answer(read_text(answer_source, 64 * MAX_ANSWER_BYTES), source_name(answer_source))
    if answer.status == "UNSAT":
        raise NoSolution("no solution: the SAT solver says UNSATISFIABLE")
    if answer.status == "UNKNOWN":
        raise TimeLimitReached("the SAT solver says UNKNOWN: it gave up before an answer")
    grid = decode_model(exported, answer.model)
    problem = solution_error(grid, exported.puzzle)
    if problem:
        raise SolverBug(f"the model is not a solution of the puzzle: {problem}")
    answer_text = format_grid(grid, exported.puzzle.n)
    if args.json:
        documents.emit({**documents.puzzle_fields(exported.puzzle), "encoding": exported.encoding,
                        "amo": exported.amo, "status": Status.SOLVED.value, "answer": answer_text,
                        "grid": documents.grid_rows(grid, exported.puzzle.n)})
    else:
        sys.stdout.write(answer_text)
    return ExitCode.OK
