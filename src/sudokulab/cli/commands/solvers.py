"""``sudokulab solvers``: every registered solver, whether it is installed, what it can do, its options."""

from __future__ import annotations

import argparse

from ...errors import ExitCode

NAME = "solvers"
HELP = "list the solvers: paradigm, installed, capabilities, options"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="one JSON document instead of tables")
    parser.add_argument("--wide", action="store_true", help="every column, however wide the table gets")


def run(args: argparse.Namespace) -> int:
    from ... import solvers
    from ...formats import documents

    described = [solvers.describe(name) for name in solvers.names()]
    for entry in described:  # why a solver refuses a kind: the line under the matrix (and in --json)
        if entry.get("installed"):
            entry["capabilities"]["kinds_why"] = solvers.solver_class(entry["name"]).capabilities.kinds_why
    if args.json:
        from ...core.versions import versions

        documents.emit({"solvers": described, "versions": versions()})
        return ExitCode.OK
    from ...ui.console import console
    from ..render import render_solvers

    render_solvers(described, console(wide=args.wide), wide=args.wide)
    return ExitCode.OK
