"""The ``check-encoding`` and ``check-solver`` commands: a student's model or solver graded, check by check.

What is checked lives elsewhere: ``encoding_grader`` for models, ``contract`` for solvers (the
very checks the built-in solvers pass in ``tests/test_contract.py``). This module loads the
student's file (``student_code``), prints one line per check (passed, failed or skipped, with the
reason) or one ``--json`` document, and exits 0 when nothing failed, 1 otherwise, 2 when the file
cannot be used. See docs/grading.md.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import ExitCode, UsageError


def _lines(rows: Sequence[tuple[str, str, str]]) -> str:
    width = max((len(name) for _, name, _ in rows), default=0)
    return "".join(f"  {status:<7}  {name:<{width}}  {reason}\n" for status, name, reason in rows)


def _closing(target: str, statuses: Sequence[str]) -> None:
    """The one line on stderr that every non-zero exit ends with (the README's contract), after the report."""
    failed = statuses.count("failed")
    if failed:
        sys.stdout.flush()
        sys.stderr.write(f"sudokulab: {target}: {failed} of {len(statuses)} checks failed\n")


def _template(kind: str, as_json: bool) -> int:
    """The template file on stdout; with ``--json`` inside the one document (``template``, ``text``)."""
    from ..lab.templates import text

    if as_json:
        from ..formats.documents import emit

        emit({"template": kind, "text": text(kind)})
    else:
        sys.stdout.write(text(kind))
    return ExitCode.OK


def cmd_check_encoding(args: argparse.Namespace) -> int:
    """Grade a student's SAT encoding or CP-SAT model (``encoding_grader``)."""
    if args.template:
        if args.student:
            raise UsageError("check-encoding: --template prints the template; give no FILE with it")
        return _template(args.template, args.json)
    if not args.student:
        raise UsageError("check-encoding: give the student's FILE (or --template to print one to start from)")
    from ..lab.encoding_grader import grade, summary
    from ..lab.student_code import load_module

    module = load_module(args.student)
    kind, findings = grade(module, args.student)
    failed = any(f.status == "failed" for f in findings)
    code = ExitCode.NO_SOLUTION if failed else ExitCode.OK
    if args.json:
        from ..formats.documents import emit

        emit({"student": args.student, "kind": kind, "ok": not failed, "exit": int(code),
              "checks": [{"check": f.check, "status": f.status, "reason": f.reason} for f in findings]})
    else:
        what = "SAT encoding: encode/decode" if kind == "sat" else "CP-SAT model: build"
        sys.stdout.write(f"check-encoding {args.student} ({what})\n")
        sys.stdout.write(_lines([(f.status, f.check, f.reason) for f in findings]))
        sys.stdout.write(summary(findings) + "\n")
    _closing(args.student, [f.status for f in findings])
    return code


def _declared(cls: type) -> str:
    capabilities = getattr(cls, "capabilities", None)
    if capabilities is None:
        return "no capabilities declared"
    said = [word for word, has in (("canonical", capabilities.canonical), ("count", capabilities.count),
                                   ("time limit", capabilities.time_limit)) if has]
    kinds = ", ".join(sorted(capabilities.kinds))
    return f"declares: {', '.join(said) or 'nothing beyond solving'}; kinds: {kinds}"


def cmd_check_solver(args: argparse.Namespace) -> int:
    """Run the solver contract (``contract.CHECKS``) on a student's class, limited to what it declares."""
    if args.template:
        if args.target:
            raise UsageError("check-solver: --template prints the template; give no FILE:CLASS with it")
        return _template("solver", args.json)
    if not args.target:
        raise UsageError("check-solver: give FILE.py:CLASS, e.g. student.py:StudentSolver (or --template)")
    from .. import solvers
    from ..lab import contract
    from ..lab.student_code import StudentError, load_class

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
        from ..formats.documents import emit

        emit({"target": args.target, "solver": str(getattr(instance, "name", "")), "ok": not failed,
              "exit": int(code), "checks": [{"check": o.check, "status": o.status, "reason": o.reason or o.summary}
                                            for o in outcomes]})
        _closing(args.target, [o.status for o in outcomes])
        return code
    sys.stdout.write(f"check-solver {args.target} (solver '{getattr(instance, 'name', '?')}'; {_declared(cls)})\n")
    sys.stdout.write(_lines([(o.status, o.check, o.reason if o.status != "passed" else o.summary)
                             for o in outcomes]))
    counts = {s: sum(1 for o in outcomes if o.status == s) for s in ("passed", "failed", "skipped")}
    sys.stdout.write(", ".join(f"{n} {s}" for s, n in counts.items() if n) + "\n")
    _closing(args.target, [o.status for o in outcomes])
    return code


def add_parsers(commands: Any, parser_class: type, positive_int: Callable[[str], int]) -> None:
    """The parsers of ``encoding show``, ``check-encoding`` and ``check-solver`` (docs/encodings.md,
    docs/grading.md), added to the command's subparsers by ``cli.build_parser``."""
    from ..lab.encoding_lab import cmd_encoding
    from ..models.cnf import AMO_ENCODINGS
    from .main import COMMANDS  # each command's line of the top-level help, in one place

    encoding = commands.add_parser("encoding", help=COMMANDS["encoding"])
    actions = encoding.add_subparsers(dest="action", required=True, metavar="ACTION", parser_class=parser_class)
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
    encoding.set_defaults(run=cmd_encoding)

    check = commands.add_parser("check-encoding", help=COMMANDS["check-encoding"])
    check.add_argument("student", nargs="?", metavar="FILE",
                       help="a Python file defining encode(puzzle) and decode(model, puzzle) (SAT), or "
                       "build(puzzle) (CP-SAT); imported and run here, as your own code")
    check.add_argument("--template", choices=("sat", "cp"), nargs="?", const="sat",
                       help="print the template a student starts from (sat: the default; cp) and exit")
    check.add_argument("--json", action="store_true", help="one JSON document on stdout instead")
    check.set_defaults(run=cmd_check_encoding)

    solver = commands.add_parser("check-solver", help=COMMANDS["check-solver"])
    solver.add_argument("target", nargs="?", metavar="FILE:CLASS",
                        help="e.g. student.py:StudentSolver, or a module path sudokulab.solvers.dlx:DlxSolver")
    solver.add_argument("--template", action="store_true", help="print the template solver and exit")
    solver.add_argument("--json", action="store_true", help="one JSON document on stdout instead")
    solver.set_defaults(run=cmd_check_solver)
