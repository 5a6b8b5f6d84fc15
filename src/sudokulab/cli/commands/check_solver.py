"""``sudokulab check-solver``: the solver contract run on a student's solver class, check by check.

The checks are ``grading.contract``'s, the very ones the built-in solvers pass in
``tests/solvers/test_contract.py``, limited to what the class declares. The class runs in a sandboxed
process of its own (``grading.student_process``); the contract calls a proxy of it here
(``grading.student_solver``). One line per check or one ``--json`` document; exit 0 when nothing
failed, 1 otherwise (a student's process that ended, hung or broke its channel included), 2 when
the class cannot be used (docs/grading.md).
"""

from __future__ import annotations

import argparse
import sys

from ...errors import ExitCode, UsageError
from ...formats.documents import emit
from ...grading import contract
from ...grading.student_code import split_target
from ...grading.student_process import StudentFailure, StudentProcess, student_copy
from ...grading.student_solver import student_solver
from ..checks import check_lines, failed_checks_line
from .check_encoding import imports_line, print_template, refused_solvers, student_arguments, student_limits


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("target", nargs="?", metavar="FILE:CLASS",
                        help="e.g. student.py:StudentSolver, or a module path such as "
                        "sudokulab.solvers.exact_cover.solver:DlxSolver")
    parser.add_argument("--template", action="store_true", help="print the template solver and exit")
    student_arguments(parser, 60)  # the contract itself gives some solves 60 s and more
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout instead")


def run(args: argparse.Namespace) -> int:
    if args.template:
        if args.target:
            raise UsageError("check-solver: --template prints the template; give no FILE:CLASS with it")
        return print_template("solver", args.json)
    if not args.target:
        raise UsageError("check-solver: give FILE.py:CLASS, e.g. student.py:StudentSolver (or --template)")

    where, class_name, is_file = split_target(args.target)
    limits = student_limits(args)
    refused, hidden = refused_solvers(args)
    with student_copy(where if is_file else None) as copy, StudentProcess(
            "load_solver", {"target": f"{copy}:{class_name}" if copy else args.target, "shown": args.target,
                            **refused}, args.target, limits, file=copy, hidden=hidden) as student:
        try:
            solver = student_solver(student, student.start())
        except StudentFailure as failure:
            solver, outcomes, imports = None, contract.failed_everywhere(str(failure)), []
        else:
            try:
                outcomes = contract.run(solver, starting=lambda _: student.limit_check(limits.check_seconds))
                imports = student.library_solvers()
            finally:
                close = getattr(solver, "close", None)
                if callable(close):
                    close()
    failed = any(o.status == "failed" for o in outcomes)
    code = ExitCode.NO_SOLUTION if failed else ExitCode.OK
    name = str(getattr(solver, "name", ""))
    if args.json:

        emit({"target": args.target, "solver": name, "ok": not failed,
              "exit": int(code), "checks": [{"check": o.check, "status": o.status, "reason": o.reason or o.summary}
                                            for o in outcomes], "library_solvers": imports})
        failed_checks_line(args.target, [o.status for o in outcomes])
        return code
    sys.stdout.write(f"check-solver {args.target} (solver '{name or '?'}'; {_declared(solver)})\n")
    sys.stdout.write(check_lines([(o.status, o.check, o.reason if o.status != "passed" else o.summary)
                                  for o in outcomes]))
    counts = {s: sum(1 for o in outcomes if o.status == s) for s in ("passed", "failed", "skipped")}
    sys.stdout.write(imports_line(imports) + ", ".join(f"{n} {s}" for s, n in counts.items() if n) + "\n")
    failed_checks_line(args.target, [o.status for o in outcomes])
    return code


def _declared(solver: object) -> str:
    """What a class declares it can do, for the report's first line."""
    capabilities = getattr(solver, "capabilities", None)
    if capabilities is None:
        return "not loaded" if solver is None else "no capabilities declared"
    said = [word for word, has in (("canonical", capabilities.canonical), ("count", capabilities.count),
                                   ("time limit", capabilities.time_limit)) if has]
    kinds = ", ".join(sorted(capabilities.kinds))
    return f"declares: {', '.join(said) or 'nothing beyond solving'}; kinds: {kinds}"
