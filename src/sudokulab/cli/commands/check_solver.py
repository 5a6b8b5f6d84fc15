"""``sudokulab check-solver``: the solver contract run on a student's solver class, check by check.

The checks are ``lab.contract``'s, the very ones the built-in solvers pass in
``tests/test_contract.py``, limited to what the class declares; one line per check or one ``--json``
document; exit 0 when nothing failed, 1 otherwise, 2 when the class cannot be used (docs/grading.md).
"""

from __future__ import annotations

import argparse
import sys

from ...errors import ExitCode, UsageError
from .check_encoding import print_template

NAME = "check-solver"
HELP = "run the solver contract on a student's solver class"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("target", nargs="?", metavar="FILE:CLASS",
                        help="e.g. student.py:StudentSolver, or a module path sudokulab.solvers.dlx:DlxSolver")
    parser.add_argument("--template", action="store_true", help="print the template solver and exit")
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout instead")


def run(args: argparse.Namespace) -> int:
    if args.template:
        if args.target:
            raise UsageError("check-solver: --template prints the template; give no FILE:CLASS with it")
        return print_template("solver", args.json)
    if not args.target:
        raise UsageError("check-solver: give FILE.py:CLASS, e.g. student.py:StudentSolver (or --template)")
    from ... import solvers
    from ...lab import contract
    from ...lab.student_code import StudentError, load_class
    from ..render import check_lines, failed_checks_line

    cls = load_class(args.target)
    if not isinstance(getattr(cls, "capabilities", None), solvers.Capabilities):
        raise StudentError(f"'{args.target}': the class declares no capabilities (a solvers.Capabilities)")
    try:
        instance = cls()
    except Exception as exc:  # noqa: BLE001 - the student's constructor may raise anything
        raise StudentError(f"'{args.target}': {cls.__name__}() raised {type(exc).__name__}: {exc}") from None
    try:
        outcomes = contract.run(instance)
    finally:
        close = getattr(instance, "close", None)
        if callable(close):
            close()
    failed = any(o.status == "failed" for o in outcomes)
    code = ExitCode.NO_SOLUTION if failed else ExitCode.OK
    if args.json:
        from ...formats.documents import emit

        emit({"target": args.target, "solver": str(getattr(instance, "name", "")), "ok": not failed,
              "exit": int(code), "checks": [{"check": o.check, "status": o.status, "reason": o.reason or o.summary}
                                            for o in outcomes]})
        failed_checks_line(args.target, [o.status for o in outcomes])
        return code
    sys.stdout.write(f"check-solver {args.target} (solver '{getattr(instance, 'name', '?')}'; {_declared(cls)})\n")
    sys.stdout.write(check_lines([(o.status, o.check, o.reason if o.status != "passed" else o.summary)
                                  for o in outcomes]))
    counts = {s: sum(1 for o in outcomes if o.status == s) for s in ("passed", "failed", "skipped")}
    sys.stdout.write(", ".join(f"{n} {s}" for s, n in counts.items() if n) + "\n")
    failed_checks_line(args.target, [o.status for o in outcomes])
    return code


def _declared(cls: type) -> str:
    """What a class declares it can do, for the report's first line."""
    capabilities = getattr(cls, "capabilities", None)
    if capabilities is None:
        return "no capabilities declared"
    said = [word for word, has in (("canonical", capabilities.canonical), ("count", capabilities.count),
                                   ("time limit", capabilities.time_limit)) if has]
    kinds = ", ".join(sorted(capabilities.kinds))
    return f"declares: {', '.join(said) or 'nothing beyond solving'}; kinds: {kinds}"
