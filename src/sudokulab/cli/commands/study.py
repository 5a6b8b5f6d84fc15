"""``sudokulab study``: solvers over an instance family swept along a parameter; per-instance comparisons.

The run is ``bench.study``'s (resumable, into the ``--output`` folder), the figures ``bench.analysis``'s,
the files and the text ``bench.study_report``'s; this module reads the arguments and prints.

More: docs/study.md.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ...bench.configurations import plain
from ...bench.families import Family, holes_to_given, parse_values
from ...bench.study_report import conduct, render
from ...errors import ExitCode, SolverBug, UsageError
from ...formats.documents import emit
from ...ui.console import console, prose
from ...ui.plots import require_matplotlib
from ..options import (
    box,
    configurations,
    dataset_file,
    dataset_rules,
    json_argument,
    many_solver_arguments,
    per_solver_options,
    positive_float,
    positive_int,
    presets_type,
    rules_arguments,
    seed_int,
    solver_names,
    where_arguments,
)

DESCRIPTION = ("Solvers over an instance family swept along a parameter (the share of cells given or open, the "
               "clue count, the board size, the rule set) or over sets of puzzles, with repeats and a time limit; "
               "per-instance scatter plots, survival curves, PAR-2, time and effort against the parameter, paired "
               "tests and the easy-hard-easy peak. Every run is appended to OUTPUT/runs.jsonl as it finishes: "
               "the same command again goes on where a stopped run left off (docs/study.md).")

DEFAULT_SOLVERS = "backtrack-fast,sat,cpsat"
DEFAULT_TIME_LIMIT = 10.0


def configure(parser: argparse.ArgumentParser) -> None:
    family = parser.add_argument_group("the instances")
    family.add_argument("--family", choices=("sudoku", "qwh"), default="sudoku",
                        help="sudoku: random grids with givens removed; qwh: quasigroup with holes, a random Latin "
                        "square with cells blanked (default: sudoku)")
    family.add_argument("--size", default="9", metavar="N,...", help="board sizes, e.g. 9,16 (default: 9)")
    amount = family.add_mutually_exclusive_group()
    amount.add_argument("--given", metavar="F,...", help="shares of cells given, e.g. 0.2,0.4 or 0.2:0.6:0.1 "
                        "(START:STOP:STEP, both ends in)")
    amount.add_argument("--holes", metavar="F,...", help="shares of cells open, as the QWH papers count (the "
                        "plots run along the holes)")
    amount.add_argument("--clues", metavar="K,...", help="clue counts per puzzle")
    family.add_argument("--rule-sets", nargs="+", type=presets_type, metavar="NAMES",
                        help="rule sets to sweep, each presets joined by commas (e.g. standard x x,anti-knight)")
    family.add_argument("--sets", nargs="+", metavar="DATASET",
                        help="instead of a family: the first --instances puzzles of each set, a point each")
    family.add_argument("--instances", type=positive_int, default=5, metavar="K",
                        help="instances per point (default: 5)")
    family.add_argument("--seed", type=seed_int, default=1, metavar="S",
                        help="the family's seed: instance k of a point is the same for the same seed (default: 1)")
    family.add_argument("--unique", action="store_true",
                        help="sudoku: keep only removals that leave one solution (a SAT count each)")
    family.add_argument("--box", metavar="RxC", help="box shape of the sets' puzzles (default: from the size)")
    many_solver_arguments(parser, DEFAULT_SOLVERS)
    parser.add_argument("--time-limit", type=positive_float, default=DEFAULT_TIME_LIMIT, metavar="SECONDS",
                        help=f"per run (default: {DEFAULT_TIME_LIMIT:g}); a run past it scores twice it (PAR-2)")
    parser.add_argument("--repeats", type=positive_int, default=1, metavar="R",
                        help="runs per instance and solver; repeat r gives seed=r to a solver with a seed option "
                        "(default: 1)")
    where_arguments(parser, "run the instances")
    parser.add_argument("--output", required=True, metavar="DIR",
                        help="the study's folder: runs.jsonl (appended, read back on a rerun), the tables, the "
                        "pictures, study.json")
    parser.add_argument("--format", choices=("png", "svg"), default="png", help="the pictures' format (default: png)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    rules_arguments(parser, "of a sudoku family or of the sets (one rule set; --rule-sets sweeps several)")
    json_argument(parser, "the study document on stdout (the tables go to stderr)")


def run(args: argparse.Namespace) -> int:
    require_matplotlib()
    _require_scipy()
    family = _family(args)
    configs = configurations(args) or plain(solver_names(args.solvers) or DEFAULT_SOLVERS.split(","),
                                            per_solver_options(args.option))
    if configurations(args) and (args.solvers or args.option):
        raise UsageError("study: give configurations (--configs) or solvers with options (--solvers, -o), not both")
    folder_path = Path(args.output)

    def stopped(kept: int, planned: int) -> None:
        prose(f"sudokulab: stopped: {kept:,} of {planned:,} runs are in {folder_path / 'runs.jsonl'}; the same "
              "command again goes on from there", stderr=True, indent="  ")

    report, files = conduct(family, configs, folder_path, time_limit=args.time_limit, repeats=args.repeats,
                            jobs=args.jobs, cluster=args.cluster, progress=not args.quiet, picture=args.format,
                            on_stopped=stopped)
    if args.json:
        emit(report.document(folder_path, files))
    render(report, console(stderr=args.json, wide=args.wide), folder_path, files, wide=args.wide)
    if report.wrong:
        raise SolverBug(f"study: {report.wrong} wrong answers (their rows in runs.jsonl say why)")
    return ExitCode.OK


def _family(args: argparse.Namespace) -> Family:
    """The family the arguments describe, checked before any work."""
    if args.sets:
        if args.rule_sets or args.given or args.holes or args.clues or args.size != "9" or args.unique:
            raise UsageError("study: --sets reads its puzzles: the family options (--size, --given, --holes, "
                             "--clues, --rule-sets, --unique) are for generated families")
        return Family("set", instances=args.instances, seed=args.seed,
                            sets=tuple(dataset_file(path) for path in args.sets), box=box(args),
                            set_rules=dataset_rules(args))
    if args.regions or args.cages or args.thermos:
        raise UsageError("study: --regions, --cages and --thermos are for sets (--sets): a generated family "
                         "takes presets")
    if args.rules and args.rule_sets:
        raise UsageError("study: give one rule set (--rules) or several to sweep (--rule-sets), not both")
    if args.box:
        raise UsageError("study: --box is for sets (--sets); a generated board takes the most square boxes")
    rule_sets = tuple(args.rule_sets or ([args.rules] if args.rules else []))
    sizes = parse_values(args.size, int, "--size")
    if args.holes:
        given = holes_to_given(parse_values(args.holes, float, "--holes"))
    else:
        given = parse_values(args.given, float, "--given") if args.given else ()
    clues = parse_values(args.clues, int, "--clues") if args.clues else ()
    if args.unique and args.family != "sudoku":
        raise UsageError("study: --unique is for the sudoku family (every QWH instance has its square as a solution)")
    return Family(args.family, sizes=sizes, rule_sets=rule_sets, given=given, clues=clues,
                        instances=args.instances, seed=args.seed, unique=args.unique, by_holes=bool(args.holes))


def _require_scipy() -> None:
    """Fail before the run, in one line, when scipy (the paired test) is missing."""
    try:
        import scipy  # noqa: F401
    except ImportError:
        from ...core.install import extra_hint

        raise UsageError(f"study: the paired test needs scipy: {extra_hint('bench')}") from None
