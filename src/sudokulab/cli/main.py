"""The ``sudokulab`` command: argument parsing, dispatch, and errors mapped to exit codes.

Nothing here is logic a library user would need: what each command does is in ``commands``,
reading files is ``boj``'s, checking answers ``checking``'s, tables ``report``'s. What each
command prints where (README, "What goes where"): results on standard output; progress bars (on
a terminal), warnings and compare's table on standard error; and every non-zero exit ends with
exactly one line on standard error, ``sudokulab: <why>``. The exit codes are ``errors.ExitCode``.

(About 750 lines, one module on purpose: it is the one parser tree of every command, whose
options share their types and helpers (the rule options, the cluster option, number checks);
what each command does lives in ``commands``.)
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Callable, Sequence

from .. import __version__
from ..errors import ExitCode, Stopped, SudokuError, UsageError
from . import stopping

TYPE_CHECKING = False  # typing itself costs start-up: imported for the type checker only
if TYPE_CHECKING:
    from typing import Any


def _command(name: str, module: str = "handlers") -> Callable[[argparse.Namespace], int]:
    """``<module>.<name>``, imported when the command runs: parsing (and ``--help``) loads none of
    what the commands use (benchmarks/results/startup.md)."""

    def run(args: argparse.Namespace) -> int:
        from importlib import import_module

        return getattr(import_module(f".{module}", __package__), name)(args)

    run.__name__ = name
    return run


cmd_bench, cmd_compare, cmd_completion, cmd_count, cmd_datasets, cmd_decode, cmd_export, cmd_generate, cmd_judge, \
    cmd_solve, cmd_solvers, cmd_verify = map(_command, (
        "cmd_bench", "cmd_compare", "cmd_completion", "cmd_count", "cmd_datasets", "cmd_decode", "cmd_export",
        "cmd_generate", "cmd_judge", "cmd_solve", "cmd_solvers", "cmd_verify"))
cmd_explain = _command("cmd_explain", "explain_command")
cmd_propagate = _command("cmd_propagate", "ladder")
cmd_rate = _command("cmd_rate", ".reasoning.rating")
cmd_solutions = _command("cmd_solutions", "solutions")


def number_type(convert: Callable[[str], Any], accept: Callable[[Any], bool], what: str, rule: str):
    """An argparse type: convert the text, then check the value; each failure is one plain line."""

    def parse(text: str) -> Any:
        try:
            value = convert(text)
        except (ValueError, OverflowError):
            raise argparse.ArgumentTypeError(f"'{text[:40]}' is not {what}") from None
        if not accept(value):
            raise argparse.ArgumentTypeError(f"'{text[:40]}' {rule}")
        return value

    return parse


def _finite(value: float) -> bool:
    return value == value and value not in (float("inf"), float("-inf"))


positive_float = number_type(float, lambda v: v > 0 and _finite(v), "a number of seconds",
                             "is not a positive number of seconds")
positive_int = number_type(int, lambda v: v >= 1, "a whole number", "is not a positive whole number")
non_negative_int = number_type(int, lambda v: v >= 0, "a whole number", "is negative")
memory_mb = number_type(int, lambda v: 0 <= v <= 1 << 40, "a whole number of megabytes",
                        "is not between 0 (no limit) and 2**40")
fraction = number_type(float, lambda v: 0 <= v <= 1, "a number", "is not a fraction between 0 and 1")
seed_int = number_type(int, lambda v: 0 <= v < 1 << 64, "a whole number", "is not between 0 and 2**64 - 1")


def _cluster_argument(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--cluster", metavar="ADDRESS",
                        help=f"{what} on a Dask cluster: a scheduler's address (tcp://host:8786) or local:N for N "
                        "worker processes here (needs the dask extra: pip install 'sudokulab[dask]')")


def split_program(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    """For ``judge``, everything after the first ``--`` is the program, verbatim: argparse would
    drop a later ``--`` that belongs to the program's own arguments."""
    argv = list(argv)
    if argv[:1] == ["judge"] and "--" in argv:
        cut = argv.index("--")
        return argv[:cut], argv[cut + 1 :]
    return argv, []


COMMANDS = {
    "solve": "solve one puzzle and print the BOJ answer",
    "count": "count the solutions up to a limit",
    "export": "write the puzzle's model for an external solver",
    "decode": "turn a SAT solver's answer to an exported formula into the BOJ answer",
    "solvers": "list the solvers: paradigm, installed, capabilities, options",
    "compare": "run every solver on a puzzle and check that they agree",
    "verify": "judge an answer as BOJ's special judge does, with SAT as oracle",
    "judge": "run a program on every puzzle of a dataset and judge it as an online judge does",
    "bench": "run solvers over puzzle sets: summary table, per-puzzle CSV, plot",
    "rate": "difficulty of puzzle sets: the hardest step each puzzle needs, its rating, the distribution per set "
            "(docs/rating.md)",
    "generate": "random puzzles of any size, in the dataset format",
    "propagate": "pencil marks after a level of reasoning, or a dataset's propagation ladder",
    "datasets": "the published benchmark sets: list them, fetch them, find them",
    "explain": "the solving path as a person's steps, each with minimal premises",
    "encoding": "show the at-most-one encodings and the model sizes per encoding",
    "check-encoding": "grade a student's SAT or CP-SAT model of Sudoku",
    "check-solver": "run the solver contract on a student's solver class",
    "solutions": "list the solutions of a puzzle in BOJ form, up to a limit",
    "completion": "print the shell completion script for bash or zsh",
}
"""Every command and its line in ``sudokulab --help``: the top-level help is built from this alone
(``top_level_parser``), so it imports none of what the commands use."""


# --- the parser ----------------------------------------------------------------------------------

class _Formatter(argparse.HelpFormatter):
    """argparse's help, wrapped at the terminal's width (``COLUMNS``) without breaking a name at its
    hyphen ("anti-knight", "--time-limit" stay whole)."""

    def __init__(self, prog: str, **kwargs: Any) -> None:
        kwargs.setdefault("width", terminal_columns() - 2)  # as argparse, without importing shutil for it
        super().__init__(prog, **kwargs)

    def _split_lines(self, text: str, width: int) -> list[str]:
        import textwrap

        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        import textwrap

        return textwrap.fill(" ".join(text.split()), width, initial_indent=indent, subsequent_indent=indent,
                             break_on_hyphens=False)


def terminal_columns() -> int:
    """``shutil.get_terminal_size().columns`` (``COLUMNS``, else the terminal on stdout, else 80),
    which argparse asks for every help: shutil and the archive modules it imports cost a tenth of
    the help's start-up (benchmarks/results/startup.md)."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80
    except (AttributeError, ValueError, OSError):
        return 80


class _Parser(argparse.ArgumentParser):
    """argparse that reports bad arguments as one line and exit code 2, like every other error."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # type: ignore[override]
        command = self.prog.partition(" ")[2]
        raise UsageError(f"{command}: {message}" if command else message)


def presets_type(text: str) -> str:
    """An argparse type for ``--rules x,anti-knight``: the text, its preset names checked against
    ``rules.PRESETS`` (``puzzle_files`` reads it)."""
    from ..core.rules import RulesError, parse_presets

    try:
        parse_presets(text)
    except RulesError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


SOLVED_UNDER = "the puzzle is solved under"


def rules_arguments(parser: argparse.ArgumentParser, what: str = SOLVED_UNDER) -> None:
    """``--rules``, ``--regions``, ``--cages``, ``--thermos``: the one place every command that reads
    puzzles takes its variant rules from (``commands.rule_options`` reads them back)."""
    from ..core.rules import PRESETS

    group = parser.add_argument_group(
        "variant rules", f"The rules {what} (default: standard Sudoku, or what a JSON puzzle file "
        "declares). A solver that cannot honour them is refused (exit 2); compare and bench skip it.")
    group.add_argument("--rules", type=presets_type, metavar="NAMES",
                       help=f"presets, comma-separated: {', '.join(PRESETS)} (e.g. x,anti-knight)")
    group.add_argument("--regions", metavar="FILE", help="jigsaw regions: n lines of n region labels (implies jigsaw)")
    group.add_argument("--cages", metavar="FILE", help="killer cages and their sums (implies killer)")
    group.add_argument("--thermos", metavar="FILE", help="thermometers, each from its bulb (implies thermo)")


def _puzzle_arguments(parser: argparse.ArgumentParser, solver: bool = True) -> None:
    from .. import solvers

    parser.add_argument("puzzle", nargs="?", default="-", help="puzzle file, or - for stdin (default)")
    parser.add_argument("--box", metavar="RxC", help="box shape, e.g. 2x3 (default: from the size)")
    rules_arguments(parser)
    if solver:
        parser.add_argument(
            "--solver", metavar="NAME",
            help=f"one of: {', '.join(solvers.names())} (default: {solvers.DEFAULT_SMALL} up to "
            f"{solvers.DEFAULT_SWITCH}x{solvers.DEFAULT_SWITCH}, {solvers.DEFAULT_LARGE} above)",
        )
        parser.add_argument("-o", "--option", action="append", metavar="KEY=VALUE",
                            help="a solver option, e.g. -o engine=glucose4 (repeatable; see 'sudokulab solvers')")
        parser.add_argument("--time-limit", type=positive_float, metavar="SECONDS",
                            help="give up after this many seconds (default: no limit)")
        parser.add_argument("--stats", action="store_true", help="print time and effort on stderr")


def _many_solver_arguments(parser: argparse.ArgumentParser, default: str) -> None:
    parser.add_argument("--solvers", metavar="A,B,...", help=f"solvers to run, comma-separated (default: {default})")
    parser.add_argument("-o", "--option", action="append", metavar="SOLVER.KEY=VALUE",
                        help="a solver's option, e.g. -o sat.engine=glucose4 (repeatable)")
    parser.add_argument("--configs", nargs="+", metavar="SOLVER[:KEY=VALUE,...]",
                        help="instead of --solvers: solvers under option sets, one solver several times among them, "
                        "each a row named after its options (e.g. sat:encoding=minimal sat:encoding=extended)")
    parser.add_argument("--wide", action="store_true", help="every column, however wide the table gets")


def _certify_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--certify", action="store_true",
                        help="back a 'no solution' or 'exactly one solution' claim with a checked DRUP proof")
    parser.add_argument("--proof", metavar="DIR", help="with --certify: keep formula.cnf and proof.drup here")


def json_argument(parser: argparse.ArgumentParser, what: str = "one JSON document on stdout instead") -> None:
    """``--json``: every command takes it (docs/json.md; the schema of each is ``schemas/<command>.schema.json``)."""
    parser.add_argument("--json", action="store_true", help=f"{what}; a failure prints {{\"error\", \"exit\"}}")


def exit_codes() -> str:
    """The exit codes (``errors.ExitCode``, the README's table) in a line, for ``sudokulab --help``."""
    words = {ExitCode.OK: "done", ExitCode.NO_SOLUTION: "no solution, or a wrong answer (verify, judge)",
             ExitCode.BAD_INPUT: "bad input or usage", ExitCode.TIME_LIMIT: "time limit reached",
             ExitCode.WRONG: "a bug found (a wrong answer, solvers disagree)",
             ExitCode.HANGUP: "SIGHUP", ExitCode.INTERRUPTED: "Ctrl-C", ExitCode.BROKEN_PIPE: "stdout closed (| head)",
             ExitCode.TERMINATED: "SIGTERM"}
    return "exit codes: " + ", ".join(f"{int(code)} {words[code]}" for code in sorted(ExitCode))


def _top(parser: argparse.ArgumentParser) -> Any:
    """The top level every parser shares: ``--version`` and the commands' subparsers action."""
    parser.add_argument("--version", action="version", version=f"sudokulab {__version__}")
    return parser.add_subparsers(dest="command", required=True, parser_class=_Parser, metavar="COMMAND",
                                 title="commands", description="'sudokulab COMMAND --help' tells more")


DESCRIPTION = "Solve Sudoku (BOJ 2580) by several paradigms and compare them."


def top_level_parser() -> argparse.ArgumentParser:
    """The parser of a command line that names no command (``sudokulab``, ``--help``, ``--version``):
    the commands and their lines only, from ``COMMANDS``, so it imports nothing the commands use."""
    parser = _Parser(prog="sudokulab", description=DESCRIPTION, epilog=exit_codes())
    commands = _top(parser)
    for name, text in COMMANDS.items():  # the help's lines only: a parser per command would cost a fifth of it
        commands._choices_actions.append(commands._ChoicesPseudoAction(name, (), text))
        commands.choices[name] = parser  # never parsed with: this parser sees no command word
    return parser


def command_word(argv: Sequence[str]) -> str | None:
    """The command a command line names: its first word not starting with '-' (no top-level option
    takes a value); None when it names none, and the top-level parser alone answers it."""
    return next((word for word in argv if not word.startswith("-")), None)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole parser, or with ``command`` (a name of ``COMMANDS``) that command's parser alone beside
    the others' names: a command line builds and imports what it parses, not the option tables of
    eighteen other commands (bench's whole-process rate, benchmarks/results/compiled.md)."""
    only = command if command in COMMANDS else None

    def wanted(*names: str) -> bool:
        return only is None or only in names

    parser = _Parser(prog="sudokulab", description=DESCRIPTION, epilog=exit_codes())
    commands = _top(parser)

    if wanted("solve"):
        solve = commands.add_parser("solve", help=COMMANDS["solve"])
        _puzzle_arguments(solve)
        solve.add_argument("--canonical", action="store_true",
                           help="the row-major lexicographically first solution (what the classic backtracker prints)")
        solve.add_argument("--format", choices=("boj", "compact"), default="boj",
                           help="boj: numbers separated by spaces (BOJ 2580; the default); compact: digits only "
                           "(BOJ 2239, boards up to 9x9)")
        solve.add_argument("--json", action="store_true",
                           help="one JSON document on stdout instead (status, answer, grid, seconds, stats, solver); "
                           "the exit code as without it")
        solve.set_defaults(run=cmd_solve)

    if wanted("count"):
        count = commands.add_parser("count", help=COMMANDS["count"])
        _puzzle_arguments(count)
        count.add_argument("--limit", type=positive_int, default=1000, metavar="K",
                           help="stop counting at K solutions (default: 1000)")
        count.add_argument("--json", action="store_true",
                           help="one JSON document on stdout instead (count, exact, limit, status, seconds, stats, "
                           "solver)")
        _certify_arguments(count)
        count.set_defaults(run=cmd_count)

    if wanted("export"):
        export = commands.add_parser("export", help=COMMANDS["export"])
        _puzzle_arguments(export, solver=False)
        export.add_argument("--format", required=True, metavar="NAME",
                            help="dimacs (SAT), cpsat (CP-SAT), lp or mps (integer programming)")
        export.add_argument("-o", "--option", action="append", metavar="KEY=VALUE",
                            help="a model option, e.g. -o encoding=extended (repeatable)")
        export.add_argument("--encoding", help="shorthand for -o encoding=NAME")
        export.add_argument("--output", metavar="FILE", help="write here instead of stdout")
        json_argument(export, "one JSON document on stdout instead (the model text, or the file written)")
        export.set_defaults(run=cmd_export)

    if wanted("decode"):
        from ..models.cnf import AMO_ENCODINGS, ENCODINGS

        decode = commands.add_parser(
            "decode", help=COMMANDS["decode"],
            usage="sudokulab decode PUZZLE ANSWER [--encoding NAME] [--amo NAME]\n"
                  "       sudokulab decode ANSWER --cnf FORMULA",
        )
        decode.add_argument("first", metavar="PUZZLE", help="puzzle file (or the ANSWER with --cnf); - for stdin")
        decode.add_argument("answer", nargs="?", metavar="ANSWER",
                            help="the solver's output: SAT-competition lines, a MiniSat result file, or literals")
        decode.add_argument("--cnf", metavar="FORMULA",
                            help="the .cnf written by export: puzzle and encoding from its header")
        decode.add_argument("--encoding", default="extended", choices=ENCODINGS, metavar="NAME",
                            help=f"the encoding the formula was exported with: {', '.join(ENCODINGS)} "
                            "(default: extended)")
        decode.add_argument("--amo", default="pairwise", choices=AMO_ENCODINGS, metavar="NAME",
                            help=f"its at-most-one encoding: {', '.join(AMO_ENCODINGS)} (default: pairwise)")
        decode.add_argument("--box", metavar="RxC", help="box shape, e.g. 2x3 (default: from the size)")
        rules_arguments(decode, "of the PUZZLE (with --cnf: the formula's own, from its header)")
        json_argument(decode, "one JSON document on stdout instead (answer, grid)")
        decode.set_defaults(run=cmd_decode)

    if wanted("solvers"):
        listing = commands.add_parser("solvers", help=COMMANDS["solvers"])
        listing.add_argument("--json", action="store_true", help="one JSON document instead of tables")
        listing.add_argument("--wide", action="store_true", help="every column, however wide the table gets")
        listing.set_defaults(run=cmd_solvers)

    if wanted("compare"):
        compare = commands.add_parser("compare", help=COMMANDS["compare"])
        _puzzle_arguments(compare, solver=False)
        _many_solver_arguments(compare, "every installed solver")
        compare.add_argument("--time-limit", type=positive_float, default=10.0, metavar="SECONDS",
                             help="per solver (default: 10); a solver that reaches it is reported, not counted")
        compare.add_argument("--canonical", action="store_true",
                             help="ask for the lexicographically first solution; all answers must be byte-identical")
        compare.add_argument("--json", action="store_true", help="print one JSON document on stdout instead")
        compare.add_argument("--solver-class", action="append", metavar="FILE:CLASS",
                             help="also run your own solver class, e.g. student.py:StudentSolver (repeatable; "
                             "docs/grading.md)")
        _certify_arguments(compare)
        compare.set_defaults(run=cmd_compare)

    if wanted("verify"):
        verify = commands.add_parser("verify", help=COMMANDS["verify"])
        verify.add_argument("puzzle", help="puzzle file, or - for stdin")
        verify.add_argument("answer", help="answer file, or - for stdin")
        verify.add_argument("--box", metavar="RxC", help="box shape, e.g. 2x3 (default: from the size)")
        verify.add_argument("--time-limit", type=positive_float, default=10.0, metavar="SECONDS",
                            help="for each question to the oracle (default: 10)")
        verify.add_argument("--no-oracle", action="store_true", help="print the verdict only")
        rules_arguments(verify, "the answer is judged by")
        _certify_arguments(verify)
        json_argument(verify, "one JSON document on stdout instead (verdict, oracle, certificate)")
        verify.set_defaults(run=cmd_verify)

    if wanted("judge"):
        judge = commands.add_parser(
            "judge", help=COMMANDS["judge"],
            usage="sudokulab judge DATASET [options] -- COMMAND [ARG ...]",
        )
        judge.add_argument("dataset", help="dataset file (one-line puzzles or BOJ blocks), the name of a fetched set "
                           "(see 'sudokulab datasets list'), or - for stdin")
        judge.add_argument("--time-limit", type=positive_float, default=1.0, metavar="SECONDS",
                           help="wall time per puzzle (default: 1, as BOJ 2580)")
        judge.add_argument("--memory-limit", type=memory_mb, default=256, metavar="MB",
                           help="peak memory per run (default: 256, as BOJ 2580; 0: none; Java needs -Xmx or 0)")
        judge.add_argument("--isolation", choices=("bwrap", "none"), default="bwrap",
                           help="bwrap: each run inside bubblewrap, no network, no files but its own "
                           "(default); none: trust the program, it runs with your rights")
        judge.add_argument("--limit", type=positive_int, metavar="K", help="judge the first K puzzles only")
        judge.add_argument("--jobs", type=positive_int, default=1, metavar="N", help="runs at once (default: 1)")
        _cluster_argument(judge, "run the program")
        judge.add_argument("--shared-fs", action="store_true",
                           help="with --cluster: send nothing, the workers see the program's files at the same "
                           "(absolute) paths; by default the files the command names are sent to each worker")
        judge.add_argument("--show-failures", type=non_negative_int, default=3, metavar="K",
                           help="show the first K failures beside the oracle's answer (default: 3)")
        judge.add_argument("--quiet", action="store_true", help="no progress bar")
        judge.add_argument("--wide", action="store_true", help="tables as wide as they get")
        rules_arguments(judge, "of every puzzle of the dataset")
        json_argument(judge, "one JSON Lines row per entry on stdout instead (the tables go to stderr)")
        judge.set_defaults(run=cmd_judge, program=[])

    if wanted("bench"):
        from ..runs.results import DEFAULT_TIME_LIMIT
        bench = commands.add_parser("bench", help=COMMANDS["bench"])
        bench.add_argument("datasets", nargs="+", metavar="DATASET",
                           help="dataset files (one-line puzzles, BOJ blocks) or names of fetched sets, e.g. 17_clue")
        _many_solver_arguments(bench, "every installed one but backtrack and dimacs, slow on a whole set")
        bench.add_argument("--time-limit", type=positive_float, default=DEFAULT_TIME_LIMIT, metavar="SECONDS",
                           help=f"per puzzle and solver (default: {DEFAULT_TIME_LIMIT:g})")
        bench.add_argument("--jobs", type=positive_int, default=1, metavar="N",
                           help="processes (default: 1, for clean timings)")
        bench.add_argument("--limit", type=positive_int, metavar="K", help="the first K puzzles of each dataset")
        _cluster_argument(bench, "solve")
        bench.add_argument("--batch-size", type=positive_int, metavar="N",
                           help="puzzles per task handed to a process or cluster worker (default: 512 up to 9x9, "
                           "fewer on larger boards; on a big cluster give thousands: benchmarks/results/cluster.md)")
        bench.add_argument("--by-solver", action="store_true",
                           help="each solver over a whole dataset in turn (its rate alone; default: turns per puzzle)")
        bench.add_argument("--box", metavar="RxC", help="box shape of the puzzles (default: from the size)")
        bench.add_argument("--output", action="append", metavar="FILE",
                           help="write FILE, the format from its name: per-puzzle results as .csv or .jsonl (JSON "
                           "Lines), the cactus plot as .png, .svg or .pdf (needs matplotlib); repeatable")
        bench.add_argument("--out", help=argparse.SUPPRESS)  # deprecated: --output FILE.csv
        bench.add_argument("--plot", help=argparse.SUPPRESS)  # deprecated: --output FILE.png
        json_argument(bench, "per-puzzle results as JSON Lines on stdout (the tables go to stderr)")
        bench.add_argument("--quiet", action="store_true", help="no progress bar")
        rules_arguments(bench, "of every puzzle of the datasets")
        bench.set_defaults(run=cmd_bench)

    if wanted("rate"):
        rate = commands.add_parser("rate", help=COMMANDS["rate"])
        rate.add_argument("datasets", nargs="+", metavar="DATASET",
                          help="dataset files (one-line puzzles, BOJ blocks), - for stdin, or names of fetched sets")
        rate.add_argument("--limit", type=positive_int, metavar="N", help="only the first N puzzles of each dataset")
        rate.add_argument("--sample", type=positive_int, metavar="N", help="N puzzles of each dataset drawn at random")
        rate.add_argument("--seed", type=seed_int, metavar="S", help="random seed of --sample (default 0)")
        rate.add_argument("--time-limit", type=positive_float, metavar="SECONDS",
                          help="per puzzle: stop its explanation there (its rating is then a lower bound)")
        rate.add_argument("--rows", action="store_true", help="one line per puzzle before the tables")
        rate.add_argument("--json", action="store_true", help="one JSON document: ratings per puzzle and per dataset")
        rate.add_argument("--output", dest="plot", metavar="FILE", help="the ratings histogram: .png, .svg or .pdf")
        rate.add_argument("--plot", dest="plot", help=argparse.SUPPRESS)  # the spelling before --output
        rate.add_argument("--box", metavar="RxC", help="box shape of the puzzles (default: from the size)")
        rate.add_argument("--wide", action="store_true", help="tables as wide as they get")
        rate.add_argument("--quiet", action="store_true", help="no progress bar")
        rules_arguments(rate, "of every puzzle of the datasets")
        rate.set_defaults(run=cmd_rate)

    if wanted("generate"):
        generate = commands.add_parser(
            "generate", help=COMMANDS["generate"],
            description="Random puzzles of any size, one a line (BOJ blocks above 9x9). With variant rules "
            "(--rules, --regions, --cages, --thermos) the puzzles are made under them, but the output holds "
            "only the givens: solve them with the same options.")
        generate.add_argument("--size", type=positive_int, required=True, metavar="N", help="board size n (n x n)")
        generate.add_argument("--box", metavar="RxC", help="box shape, e.g. 2x3 (default: from the size)")
        amount = generate.add_mutually_exclusive_group()
        amount.add_argument("--clues", type=non_negative_int, metavar="K", help="givens per puzzle")
        amount.add_argument("--fraction", type=fraction, metavar="F",
                            help="givens as a share of the cells (default: 0.45; with --unique 0.60 up to 25x25, "
                            "0.80 up to 36x36, 0.90 above, so that each puzzle takes seconds)")
        generate.add_argument("--unique", action="store_true",
                              help="keep only removals that leave exactly one solution (checked with SAT)")
        generate.add_argument("--count", type=positive_int, default=1, metavar="C", help="puzzles (default: 1)")
        generate.add_argument("--seed", type=seed_int, metavar="S", help="random seed: the same seed, the same puzzles")
        generate.add_argument("--per-puzzle-seeds", action="store_true",
                              help="give puzzle k its own random stream, seeded by 'S/k' (what --cluster does): the "
                              "same puzzles whatever makes them; without it one stream makes them all in turn")
        _cluster_argument(generate, "make the puzzles")
        generate.add_argument("--output", metavar="FILE",
                              help="write here instead of stdout: the file appears whole when the last puzzle is made "
                              "(nothing on failure); stdout shows each puzzle as it is made")
        generate.add_argument("--quiet", action="store_true", help="no progress bar (shown on a terminal only)")
        rules_arguments(generate, "every puzzle is made under; the output holds the givens only, so give the "
                        "same options to the commands that read it")
        json_argument(generate, "one JSON Lines row per puzzle on stdout (with --output the file gets the puzzles)")
        generate.set_defaults(run=cmd_generate)

    if wanted("propagate"):
        from ..reasoning.levels import DEFAULT_LEVEL, LEVELS

        propagate = commands.add_parser(
            "propagate", help=COMMANDS["propagate"],
            description="The candidates left in every cell after a level of reasoning, each level including the ones "
            "before it. With --summary, PUZZLE is a dataset: one row per level, the puzzles it settles without search.")
        propagate.add_argument("puzzle", nargs="?", default="-",
                               help="puzzle file (with --summary: dataset file or fetched set's name), or - for stdin")
        propagate.add_argument("--level", choices=LEVELS, metavar="L", help=f"one of: {', '.join(LEVELS)} (default: "
                               f"{DEFAULT_LEVEL}; with --summary every level up to L, default all four)")
        propagate.add_argument("--box", metavar="RxC", help="box shape, e.g. 2x3 (default: from the size)")
        propagate.add_argument("--summary", action="store_true", help="PUZZLE is a dataset: the ladder table")
        propagate.add_argument("--limit", type=positive_int, metavar="K", help="with --summary: the first K puzzles")
        propagate.add_argument("--json", action="store_true", help="one JSON document on stdout instead")
        propagate.add_argument("--draw", metavar="FILE", help="the pencil marks as a picture (.png, .svg or .pdf)")
        propagate.add_argument("--quiet", action="store_true", help="with --summary: no progress bar")
        rules_arguments(propagate)
        propagate.set_defaults(run=cmd_propagate)

    if wanted("datasets"):
        from ..datasets.catalog import names as set_names
        data = commands.add_parser("datasets", help=COMMANDS["datasets"])
        actions = data.add_subparsers(dest="action", required=True, metavar="ACTION", parser_class=_Parser)
        listed = actions.add_parser("list",
                                    help="every known set: puzzles, source, and where it is stored once fetched")
        listed.add_argument("--wide", action="store_true", help="every column, however wide the table gets")
        json_argument(listed)
        fetch = actions.add_parser("fetch",
                                   help="download sets from their public source, check their SHA-256, keep them")
        fetch.add_argument("names", nargs="+", metavar="NAME", choices=[*set_names(), "all"],
                           help=f"one or more of: {', '.join(set_names())}; or all")
        fetch.add_argument("--quiet", action="store_true", help="no progress bar (shown on a terminal only)")
        json_argument(fetch)
        where = actions.add_parser("path", help="print where a fetched set is stored")
        where.add_argument("name", metavar="NAME", choices=set_names(), help="a set's name")
        json_argument(where)
        data.set_defaults(run=cmd_datasets)

    if wanted("explain"):
        from .explain_command import add_arguments as explain_arguments
        explain = commands.add_parser("explain", help=COMMANDS["explain"])
        _puzzle_arguments(explain, solver=False)
        explain_arguments(explain)
        explain.set_defaults(run=cmd_explain)

    if wanted("encoding", "check-encoding", "check-solver"):
        from .grading import add_parsers as add_grading_parsers
        add_grading_parsers(commands, _Parser, positive_int)  # encoding show, check-encoding, check-solver

    if wanted("solutions"):
        solutions = commands.add_parser(
            "solutions", help=COMMANDS["solutions"],
            description="The solutions of a puzzle in BOJ form, separated by a blank line; exit 1 when there is none. "
            "Solvers that list: backtrack, backtrack-fast and dlx (in canonical order: row-major lexicographic), "
            "sat (in its own order; sorted when the list is complete). Stderr says when there are more than --limit.")
        _puzzle_arguments(solutions)
        solutions.add_argument("--limit", type=positive_int, default=10, metavar="K",
                               help="list at most K solutions (default: 10)")
        json_argument(solutions, "one JSON document on stdout instead (solutions, complete, ordered)")
        solutions.set_defaults(run=cmd_solutions)

    if wanted("completion"):
        completion = commands.add_parser("completion", help=COMMANDS["completion"])
        completion.add_argument("shell", choices=("bash", "zsh"), help="the shell to complete in")
        json_argument(completion, "one JSON document on stdout instead (shell, script)")
        completion.set_defaults(run=cmd_completion)

    unbuilt = _Parser(prog="sudokulab", add_help=False)  # never parsed with: the command line names another
    for name, text in COMMANDS.items():  # the others by name: a help or a wrong word still lists them all
        if name not in commands.choices:
            commands._choices_actions.append(commands._ChoicesPseudoAction(name, (), text))
            commands.choices[name] = unbuilt
    order = {name: i for i, name in enumerate(COMMANDS)}  # as the whole parser lists them
    commands.choices = dict(sorted(commands.choices.items(), key=lambda item: order.get(item[0], len(order))))
    _complete_files(parser)
    return parser


FILE_COMPLETION = {"bash": "_shtab_compgen_files", "zsh": "_files", "tcsh": "f"}
"""What ``shtab.FILE`` is: completion by file name, set here without importing shtab for every command."""


def _complete_files(parser: argparse.ArgumentParser) -> None:
    """Mark the arguments that name files, so shell completion offers file names for them."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):
                _complete_files(sub)
        elif action.dest in ("puzzle", "answer", "dataset", "datasets", "output", "out", "plot", "regions",
                             "cages", "thermos") \
                and not isinstance(action, argparse._StoreTrueAction):
            action.complete = FILE_COMPLETION  # type: ignore[attr-defined]


def _flush_stdout() -> None:
    if sys.stdout is not None:
        sys.stdout.flush()


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; every expected failure becomes one line on stderr and its exit code (with
    ``--json``, also the error document on stdout, unless the command printed its own)."""
    printed = sys.modules.get(f"{__package__}.documents")
    if printed is not None:
        printed.begin()  # a new run in this process (tests): nothing printed yet
    arguments: list[str] = []
    args = None
    stopping.begin()
    try:
        arguments, program = split_program(sys.argv[1:] if argv is None else argv)
        command = command_word(arguments)
        args = (build_parser(command) if command else top_level_parser()).parse_args(arguments)
        if program:
            args.program = program
        code = args.run(args)
        _flush_stdout()
        return int(code)
    except SudokuError as exc:
        return _fail(str(exc), exc.exit_code, _asked_for_json(arguments, args),
                     bad_input=exc.exit_code == ExitCode.BAD_INPUT)
    except ValueError as exc:  # rules.RulesError: rules data that make no sense for the board, bad input
        from ..core.rules import RulesError

        if not isinstance(exc, RulesError):
            raise
        return _fail(f"rules: {exc}" if not str(exc).startswith("rules") else str(exc), ExitCode.BAD_INPUT,
                     _asked_for_json(arguments, args), bad_input=True)
    except KeyboardInterrupt as exc:
        return _interrupted(exc, arguments, args)
    except BrokenPipeError:
        _silence_stdout()
        return BROKEN_PIPE
    except OSError as exc:  # standard output itself failed (a full disk, a closed stream)
        _silence_stdout()
        _error(f"cannot write to standard output: {exc.strerror or exc}", bad_input=True)
        return int(ExitCode.BAD_INPUT)
    except RecursionError:
        _error("the input is nested too deeply to read", bad_input=True)
        return int(ExitCode.BAD_INPUT)
    except Exception as exc:  # noqa: BLE001 - re-raised unless a signal stands behind it
        interruption = stopping.signal_behind(exc)
        if interruption is None:
            raise
        return _interrupted(interruption, arguments, args)


def _interrupted(exc: KeyboardInterrupt, arguments: Sequence[str], args: Any) -> int:
    """End a run stopped by Ctrl-C, SIGTERM or SIGHUP: its part files dropped, one line, 128 + the signal."""
    _discard_outputs()
    if isinstance(exc, Stopped):
        return _fail("terminated" if exc.signum == signal.SIGTERM else "hung up", 128 + exc.signum,
                     _asked_for_json(arguments, args))
    return _fail("interrupted", ExitCode.INTERRUPTED, _asked_for_json(arguments, args))


BROKEN_PIPE = int(ExitCode.BROKEN_PIPE)
"""Exit code when the reader of standard output went away (``| head -1``): 128 + SIGPIPE, as shells report."""

STOPPED = (ExitCode.INTERRUPTED, ExitCode.HANGUP, ExitCode.TERMINATED)
"""The exit codes of a run ended by a signal (Ctrl-C, SIGHUP, SIGTERM): all end the same way."""


def _discard_outputs() -> None:
    """Drop the part files of outputs still being written (they would be left otherwise)."""
    from ..formats.outputs import discard_all

    discard_all()


def _asked_for_json(arguments: Sequence[str], args: Any) -> bool:
    from ..formats.documents import asked_for_json

    return asked_for_json(arguments, args)


def _fail(message: str, code: int, json_asked: bool, bad_input: bool = False) -> int:
    """End a failed run: with ``--json`` the error document on stdout (``documents.emit_error``), and
    always the one line on stderr; the exit code."""
    if json_asked:
        from ..formats.documents import emit_error

        try:
            emit_error(_one_line(message), code)
        except (OSError, ValueError):
            pass
    _flush_quietly()
    _error(message, bad_input=bad_input)
    return int(code)


def _one_line(message: str) -> str:
    return " ".join(message.split()) or "error"


def _error(message: str, bad_input: bool = False) -> None:
    """One line on stderr: ``sudokulab: error: ...`` for bad input and arguments, ``sudokulab: ...`` otherwise."""
    line = f"sudokulab: {'error: ' if bad_input else ''}{_one_line(message)}"
    try:
        if sys.stderr is not None:
            sys.stderr.write(line + "\n")
            sys.stderr.flush()
    except (OSError, ValueError):
        pass


def _flush_quietly() -> None:
    try:
        _flush_stdout()
    except (OSError, ValueError):
        _silence_stdout()


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so the interpreter's last flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def run() -> None:
    """The console script: ``main``, then an exit that no native destructor or second Ctrl-C can spoil."""
    stopping.stop_on_signals()
    try:
        code = main()
    except KeyboardInterrupt as exc:  # a second signal while the first was being handled
        _discard_outputs()
        code = 128 + exc.signum if isinstance(exc, Stopped) else int(ExitCode.INTERRUPTED)
    if code in STOPPED:
        for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
            signal.signal(signum, signal.SIG_IGN)  # nothing may interrupt the last steps
        import gc

        gc.collect()  # let finalizers of what the interrupted run left (worker pools' semaphores) run
        os._exit(code)  # then skip interpreter teardown: an engine left mid-search must not be freed
    try:
        _flush_stdout()
        sys.stderr.flush()
    except (OSError, ValueError):
        _silence_stdout()
        code = code or BROKEN_PIPE
    _exit_without_teardown(code)


def _exit_without_teardown(code: int) -> None:
    """End the process as ``sys.exit`` would, less the interpreter's teardown: the exit handlers run
    (temporary folders, open SAT solvers; the commands close their files, pools and clusters
    themselves), then the process ends without freeing every module and object one by one, which
    took about 20 ms after a bench run (numpy, rich): a tenth of a fast solver's whole run on
    17_clue (benchmarks/results/compiled.md). The streams were flushed by the caller. Under a profiler
    or a tracer (``python -m cProfile``, a debugger) the exit is the usual one, so they can report."""
    if sys.getprofile() is not None or sys.gettrace() is not None:
        sys.exit(code)
    import atexit

    atexit._run_exitfuncs()
    try:
        _flush_stdout()
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    os._exit(code)


if __name__ == "__main__":
    run()
