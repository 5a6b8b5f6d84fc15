"""``sudokulab compare``: every solver (or the chosen ones) on one puzzle, checked against each other.

More: docs/compare.md.
"""

from __future__ import annotations

import argparse
import sys

from ...bench.compare import Agreement, Comparison, compare, format_answers, render_comparison
from ...errors import ExitCode, NoSolution, SolverBug, TimeLimitReached
from ...formats import documents
from ...grading.student_code import register_classes
from ...ui.console import as_text, console, prose
from ..options import (
    certificate,
    certificate_field,
    certified,
    certify_arguments,
    configurations,
    load,
    many_solver_arguments,
    per_solver_options,
    positive_float,
    puzzle_arguments,
    solver_names,
)


def configure(parser: argparse.ArgumentParser) -> None:
    puzzle_arguments(parser, solver=False)
    many_solver_arguments(parser, "every installed solver")
    parser.add_argument("--time-limit", type=positive_float, default=10.0, metavar="SECONDS",
                        help="per solver (default: 10); a solver that reaches it is reported, not counted")
    parser.add_argument("--canonical", action="store_true",
                        help="ask for the lexicographically first solution; all answers must be byte-identical")
    parser.add_argument("--json", action="store_true", help="print one JSON document on stdout instead")
    parser.add_argument("--solver-class", action="append", metavar="FILE:CLASS",
                        help="also run your own solver class, e.g. student.py:StudentSolver (repeatable; "
                        "docs/grading.md)")
    certify_arguments(parser)


def run(args: argparse.Namespace) -> int:

    puzzle = load(args)
    names = solver_names(args.solvers)
    if args.solver_class:  # a student's class, registered for this run (docs/grading.md)

        names = register_classes(args.solver_class, names)
    def stopped(partial: Comparison) -> None:
        """What a signal leaves: the table of the solvers that finished, marked partial (no answer on stdout:
        the comparison is not whole); with --json the document, ``"partial": true``."""
        if args.json:
            documents.emit(partial.to_json())
            return
        screen = console(stderr=True, wide=args.wide)
        if partial.runs:
            render_comparison(partial, screen, wide=args.wide)
        screen.print(as_text(f"stopped by a signal after {len(partial.runs)} of {partial.asked} solvers: the "
                             "table and the verdict cover those that finished"))

    comparison = compare(puzzle, names, time_limit=args.time_limit, canonical=args.canonical,
                         options=per_solver_options(args.option), configs=configurations(args), on_stopped=stopped)
    for solver_run in comparison.runs:
        if solver_run.skipped and solver_run.skipped_for_rules:
            prose(f"sudokulab: skipped {solver_run.solver}: {solver_run.skipped}", stderr=True, indent="  ")
    made = None
    if args.certify and comparison.agreement is not Agreement.DISAGREE:
        made = certificate(puzzle, comparison.solutions, args.proof)
    if args.json:
        documents.emit({**comparison.to_json(), **certificate_field(args, made)})
    else:

        render_comparison(comparison, console(stderr=True, wide=args.wide), wide=args.wide)
        sys.stdout.write(format_answers(comparison))
    if made is not None:
        certified(made, comparison.solutions, stdout=None if args.json else False)
    failure = {
        Agreement.NO_SOLUTION: NoSolution, Agreement.ALL_TIMED_OUT: TimeLimitReached, Agreement.DISAGREE: SolverBug,
    }.get(comparison.agreement)
    if failure is not None:
        raise failure(f"{comparison.agreement.value}: {comparison.reason}")
    return ExitCode.OK
