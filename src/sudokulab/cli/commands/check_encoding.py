"""``sudokulab check-encoding``: a student's SAT encoding or CP-SAT model graded, check by check.

What is checked is ``lab.encoding_grader``'s; this command loads the student's file
(``lab.student_code``), prints one line per check (passed, failed or skipped, with the reason) or
one ``--json`` document, and exits 0 when nothing failed, 1 otherwise, 2 when the file cannot be
used (docs/grading.md). ``--template`` prints a file to start from.
"""

from __future__ import annotations

import argparse
import sys

from ...errors import ExitCode, UsageError

NAME = "check-encoding"
HELP = "grade a student's SAT or CP-SAT model of Sudoku"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("student", nargs="?", metavar="FILE",
                        help="a Python file defining encode(puzzle) and decode(model, puzzle) (SAT), or "
                        "build(puzzle) (CP-SAT); imported and run here, as your own code")
    parser.add_argument("--template", choices=("sat", "cp"), nargs="?", const="sat",
                        help="print the template a student starts from (sat: the default; cp) and exit")
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout instead")


def run(args: argparse.Namespace) -> int:
    if args.template:
        if args.student:
            raise UsageError("check-encoding: --template prints the template; give no FILE with it")
        return print_template(args.template, args.json)
    if not args.student:
        raise UsageError("check-encoding: give the student's FILE (or --template to print one to start from)")
    from ...lab.encoding_grader import grade, summary
    from ...lab.student_code import load_module
    from ..render import check_lines, failed_checks_line

    module = load_module(args.student)
    kind, findings = grade(module, args.student)
    failed = any(f.status == "failed" for f in findings)
    code = ExitCode.NO_SOLUTION if failed else ExitCode.OK
    if args.json:
        from ...formats.documents import emit

        emit({"student": args.student, "kind": kind, "ok": not failed, "exit": int(code),
              "checks": [{"check": f.check, "status": f.status, "reason": f.reason} for f in findings]})
    else:
        what = "SAT encoding: encode/decode" if kind == "sat" else "CP-SAT model: build"
        sys.stdout.write(f"check-encoding {args.student} ({what})\n")
        sys.stdout.write(check_lines([(f.status, f.check, f.reason) for f in findings]))
        sys.stdout.write(summary(findings) + "\n")
    failed_checks_line(args.student, [f.status for f in findings])
    return code


def print_template(kind: str, as_json: bool) -> int:
    """A template file on stdout (``sat``, ``cp``, ``solver``); with ``--json`` inside the one document
    (``template``, ``text``). ``check-solver --template`` prints its own with it."""
    from ...lab.templates import text

    if as_json:
        from ...formats.documents import emit

        emit({"template": kind, "text": text(kind)})
    else:
        sys.stdout.write(text(kind))
    return ExitCode.OK
