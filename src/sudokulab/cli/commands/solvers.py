"""``sudokulab solvers``: every registered solver, whether it is installed, what it can do, its options.

More: docs/solvers.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ...ui.console import as_text
from ...ui.tables import Column, print_table

if TYPE_CHECKING:
    from rich.console import Console

import argparse

from ... import solvers
from ...core.rules import kind_table
from ...core.versions import versions
from ...errors import ExitCode
from ...formats import documents
from ...ui.console import console


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="one JSON document instead of tables")
    parser.add_argument("--wide", action="store_true", help="every column, however wide the table gets")


def run(args: argparse.Namespace) -> int:

    described = [solvers.describe(name) for name in solvers.names()]
    for entry in described:  # why a solver refuses a kind: the line under the matrix (and in --json)
        if entry.get("installed"):
            entry["capabilities"]["kinds_why"] = solvers.solver_class(entry["name"]).capabilities.kinds_why
    if args.json:

        documents.emit({"solvers": described, "versions": versions()})
        return ExitCode.OK

    render_solvers(described, console(wide=args.wide), wide=args.wide)
    return ExitCode.OK


def kind_letters() -> dict[str, str]:
    """The one-letter names of the constraint kinds in the ``solvers`` matrix, in ``kind_table`` order
    (the built-in four, then any kind registered since)."""
    return {kind.name: kind.letter for kind in kind_table() if kind.letter}


def kind_legend() -> str:
    """The legend under the matrix: what each column says, and each kind's letter."""
    kinds = ", ".join(f"{kind.letter} {kind.legend or kind.words}" for kind in kind_table() if kind.letter)
    return ("canon.: gives the canonical (lexicographically first) answer; limit: honours a time limit; "
            "complete: proves 'no solution' (an incomplete search, like local search, says 'time limit "
            "reached' instead); slow: yes, at a high price. rules: the constraint kinds it honours, in "
            "capitals where its own model states them, in lower case through the shared lowering (ruled-out "
            f"placements, forbidden pairs, allowed sets: docs/rules.md): {kinds}; "
            "- refused (exit 2; compare and bench skip it)")


def rule_letters(capabilities: Mapping[str, Any]) -> str:
    """A solver's rule kinds as the matrix shows them: a capital for a kind it states natively, lower case
    for one it honours through the lowering, ``-`` for one it refuses.

    >>> rule_letters({"kinds": ["all-different", "differ", "sum"], "native": ["all-different", "differ"]})
    'A D s -'
    """
    honoured, native = capabilities.get("kinds", ()), capabilities.get("native", capabilities.get("kinds", ()))
    return " ".join(letter if kind in native else letter.lower() if kind in honoured else "-"
                    for kind, letter in kind_letters().items())


def paradigm_family(paradigm: str) -> str:
    """A paradigm's name without its parenthesis, the short form of the ``solvers`` table.

    >>> paradigm_family("constraint programming (OR-Tools CP-SAT)")
    'constraint programming'
    """
    return paradigm.split(" (")[0]


def render_solvers(described: Sequence[Mapping[str, Any]], out: Console, *, wide: bool = False) -> None:
    """``sudokulab solvers``: one row per solver (the capability matrix, the rule kinds abbreviated
    with a legend; fitted by ``print_table``), then each solver's options with their defaults."""
    columns = [Column("solver"), Column("paradigm", short=paradigm_family), Column("canon."), Column("count"),
               Column("limit"), Column("complete", drop=2), Column("threads", drop=1), Column("rules")]
    words = {True: "yes", False: "no"}
    rows, styles, missing = [], [], []
    for solver in described:
        if not solver["installed"]:
            rows.append([solver["name"], "not installed", *"------"])
            styles.append("dim")
            missing.append(f"  {solver['name']}: {solver['why']}")
            continue
        caps = solver["capabilities"]
        slow = set(caps["slow"])
        rows.append([solver["name"], solver["paradigm"],
                     *("slow" if key in slow and caps[key] else words[caps[key]]
                       for key in ("canonical", "count", "time_limit")),
                     words[caps.get("complete", True)], caps["threads"],
                     rule_letters(caps)])
        styles.append(None)
    print_table(out, columns, rows, title="solvers", styles=styles, wide=wide)

    for line in missing:  # prose: wrapped on a terminal (under its first words), whole in a file
        out.print(as_text(line), indent="  ")
    out.print(as_text(kind_legend()))
    letters = kind_letters()
    for solver in described:
        kinds = solver.get("capabilities", {}).get("kinds", letters)
        refused = [letter for kind, letter in letters.items() if kind not in kinds]
        if solver["installed"] and refused:
            why = solver["capabilities"].get("kinds_why")
            line = f"  {solver['name']} refuses {', '.join(refused)}" + (f": {why}" if why else "")
            out.print(as_text(line), indent="  ")
    for solver in described:
        backend = solver.get("backend")
        engines = backend.get("engines") if isinstance(backend, dict) else None
        if isinstance(engines, dict) and engines:
            rows = [[engine, *(words[can[key]] for key in ("assumptions", "time_limit", "repeated", "proofs"))]
                    for engine, can in engines.items()]
            print_table(out, [Column(header) for header in ("engine", "assumptions", "time limit", "repeated solving",
                                                             "proofs")],
                        rows, title=f"{solver['name']}: engines of this build (probed now)", wide=wide)
    for solver in described:
        for option in solver.get("options", ()):
            choices = f"; one of: {', '.join(map(str, option['choices']))}" if option["choices"] else ""
            line = (f"  -o {option['name']}=... ({solver['name']}) {option['help']}; "
                    f"default {option['default']!r}{choices}")
            out.print(as_text(line), indent="    ")
