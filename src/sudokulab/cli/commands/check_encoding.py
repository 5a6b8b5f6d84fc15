"""``sudokulab check-encoding``: a student's SAT encoding or CP-SAT model graded, check by check.

What is checked is ``grading.encoding_grader``'s; the student's file runs in a sandboxed process of
its own (``grading.student_process``), never in this one. This command prints one line per check
(passed, failed or skipped, with the reason) or one ``--json`` document, and exits 0 when nothing
failed, 1 otherwise (a student's process that ended, hung or broke its channel included), 2 when
the file cannot be used (docs/grading.md). ``--template`` prints a file to start from.
"""

from __future__ import annotations

import argparse
import sys

from ...errors import ExitCode, UsageError
from ...formats.documents import emit
from ...grading.encoding_grader import Solving, failed_everywhere, grade, summary
from ...grading.student_process import StudentFailure, StudentLimits, StudentProcess, student_copy
from ...grading.templates import text
from ..checks import check_lines, failed_checks_line
from ..options import memory_mb, positive_float


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("student", nargs="?", metavar="FILE",
                        help="a Python file defining encode(puzzle) and decode(model, puzzle) (SAT), or "
                        "build(puzzle) (CP-SAT); run in a sandboxed process of its own")
    parser.add_argument("--template", choices=("sat", "cp"), nargs="?", const="sat",
                        help="print the template a student starts from (sat: the default; cp) and exit")
    student_arguments(parser, 10)
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout instead")


def student_arguments(parser: argparse.ArgumentParser, seconds: int) -> None:
    """The limits of the student's process (``check-solver`` takes the same; a solve may take longer
    than an encode, so its default time is its own)."""
    parser.add_argument("--time-limit", type=positive_float, default=float(seconds), metavar="SECONDS",
                        help="wall time for each call into the student's code, loading the file included "
                        f"(default: {seconds})")
    parser.add_argument("--check-time-limit", type=positive_float, metavar="SECONDS",
                        help="wall time of one check, all its calls together (default: 4 times --time-limit)")
    parser.add_argument("--memory-limit", type=memory_mb, default=1024, metavar="MB",
                        help="memory of the student's process (default: 1024)")
    parser.add_argument("--isolation", choices=("bwrap", "none"), default="bwrap",
                        help="bwrap: the student's code runs inside bubblewrap, no network, no files but its "
                        "own (default); none: trust the file, it runs with your rights")
    parser.add_argument("--refuse-library-solvers", action="store_true",
                        help="the student's code may not import sudokulab's own solvers (their folders show "
                        "empty in the sandbox); without it, the report says which it imports")


def refused_solvers(args: argparse.Namespace) -> tuple[dict, tuple[str, ...]]:
    """With ``--refuse-library-solvers``: the load call's ``refused`` argument and the folders the sandbox
    hides; else nothing."""
    if not args.refuse_library_solvers:
        return {}, ()
    from ...grading.student_code import library_solvers

    folders = library_solvers()
    return {"refused": sorted(folders)}, tuple(str(path) for path in folders.values())


def imports_line(imports: list[str]) -> str:
    """The report's line on sudokulab's own solvers the student's code imports ('' when none)."""
    if not imports:
        return ""
    return (f"imports sudokulab's own solvers: {', '.join(imports)} (give --refuse-library-solvers to refuse "
            "them)\n")


def student_limits(args: argparse.Namespace):
    """The ``StudentLimits`` the options ask for; with ``--isolation none``, a warning first."""

    if args.isolation == "none":
        print("sudokulab: warning: --isolation none: the student's file is trusted; it runs with your rights, "
              "sees your files and the network", file=sys.stderr)
    return StudentLimits(args.time_limit, args.memory_limit, args.isolation,
                         args.check_time_limit or 4 * args.time_limit)


def run(args: argparse.Namespace) -> int:
    if args.template:
        if args.student:
            raise UsageError("check-encoding: --template prints the template; give no FILE with it")
        return print_template(args.template, args.json)
    if not args.student:
        raise UsageError("check-encoding: give the student's FILE (or --template to print one to start from)")

    limits = student_limits(args)
    refused, hidden = refused_solvers(args)
    with student_copy(args.student) as copy, StudentProcess(
            "load_model", {"file": copy, "shown": args.student, **refused}, args.student, limits, file=copy,
            hidden=hidden) as student:
        try:
            kind = student.start()["kind"]
        except StudentFailure as failure:
            kind, findings, imports = "unknown", failed_everywhere(str(failure)), []
        else:
            with Solving(limits) as solving:
                findings = grade(student, kind, args.student, solving)
            imports = student.library_solvers()
    failed = any(f.status == "failed" for f in findings)
    code = ExitCode.NO_SOLUTION if failed else ExitCode.OK
    if args.json:

        emit({"student": args.student, "kind": kind, "ok": not failed, "exit": int(code),
              "checks": [{"check": f.check, "status": f.status, "reason": f.reason} for f in findings],
              "library_solvers": imports})
    else:
        what = {"sat": "SAT encoding: encode/decode", "cp": "CP-SAT model: build"}.get(kind, "not loaded")
        sys.stdout.write(f"check-encoding {args.student} ({what})\n")
        sys.stdout.write(check_lines([(f.status, f.check, f.reason) for f in findings]))
        sys.stdout.write(imports_line(imports) + summary(findings) + "\n")
    failed_checks_line(args.student, [f.status for f in findings])
    return code


def print_template(kind: str, as_json: bool) -> int:
    """A template file on stdout (``sat``, ``cp``, ``solver``); with ``--json`` inside the one document
    (``template``, ``text``). ``check-solver --template`` prints its own with it."""

    if as_json:

        emit({"template": kind, "text": text(kind)})
    else:
        sys.stdout.write(text(kind))
    return ExitCode.OK
