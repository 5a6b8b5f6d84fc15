"""``sudokulab verify``: one answer judged as BOJ's special judge does, with SAT as the oracle (docs/verify.md)."""

from __future__ import annotations

import argparse

from ...errors import ExitCode, UnsupportedFeature, UsageError, WrongAnswer
from ...formats import documents
from ...formats.boj import read_bytes
from ...ui.console import prose
from ...verdicts.oracle import DEFAULT_SOLVER, Oracle
from ...verdicts.verify import MAX_ANSWER_BYTES, verify
from ..options import (
    certificate,
    certificate_field,
    certified,
    certify_arguments,
    from_terminal,
    json_argument,
    load,
    positive_float,
    rules_arguments,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("puzzle", help="puzzle file, or - for stdin")
    parser.add_argument("answer", help="answer file, or - for stdin")
    parser.add_argument("--box", metavar="RxC", help="box shape, e.g. 2x3 (default: from the size)")
    parser.add_argument("--time-limit", type=positive_float, default=10.0, metavar="SECONDS",
                        help="for each question to the oracle (default: 10)")
    parser.add_argument("--no-oracle", action="store_true", help="print the verdict only")
    parser.add_argument("--oracle", metavar="SOLVER",
                        help="the solver asked for the count and the canonical answer (default: sat, or the "
                             "first that honours the puzzle's rules); it must count, give canonical answers "
                             "and honour a time limit")
    rules_arguments(parser, "the answer is judged by")
    certify_arguments(parser)
    json_argument(parser, "one JSON document on stdout instead (verdict, oracle, certificate)")


def run(args: argparse.Namespace) -> int:

    if args.puzzle == "-" and args.answer == "-":
        raise UsageError("verify: the puzzle and the answer cannot both come from standard input")
    if args.oracle is not None and args.no_oracle:
        raise UsageError("verify: --oracle names the oracle, --no-oracle asks none: give one of them")
    puzzle = load(args)
    from_terminal(args.answer, "the answer")
    verdict = verify(puzzle, read_bytes(args.answer, MAX_ANSWER_BYTES))
    lines = [str(verdict)]
    consulted: dict[str, Any] | None = None
    made = report = None
    if not args.no_oracle:

        try:
            with Oracle(args.oracle or DEFAULT_SOLVER, time_limit=args.time_limit) as oracle:
                report = oracle.consult(puzzle)
                lines += report.lines(verdict.grid, verdict.accepted)
            consulted = {"solver": report.solver, "solutions": report.solutions,
                         "canonical": None if report.canonical is None else verdict.grid == report.canonical}
            if args.certify:
                made = certificate(puzzle, report.solutions, args.proof)
        except UnsupportedFeature as exc:
            lines.append(f"oracle: not consulted ({exc})")
            consulted = {"solver": None, "solutions": None, "canonical": None, "not_consulted": str(exc)}
    if args.json:
        documents.emit({**documents.puzzle_fields(puzzle), "accepted": verdict.accepted,
                        "verdict": "accepted" if verdict.accepted else "wrong answer", "reason": verdict.reason,
                        "oracle": consulted, **certificate_field(args, made)})
    else:
        for line in lines:
            prose(line, indent="  ")
    if made is not None:
        certified(made, report.solutions if report else None, stdout=None if args.json else True)
    if not verdict.accepted:
        raise WrongAnswer(str(verdict))
    return ExitCode.OK
