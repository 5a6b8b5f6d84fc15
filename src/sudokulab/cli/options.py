"""The options several commands share: their argparse types and groups, and reading them back.

Adding: the number types (each failure one plain line), the puzzle and its variant rules, the
solver options, ``--json``, ``--certify``, ``--cluster``. Reading back: the puzzle under the rules
of its options or its file, a dataset's rules, ``-o`` pairs, ``--configs``, a dataset argument as a
file, a certificate. Parsing imports only argparse and this module; what the reading needs is
imported when a command runs.
"""

from __future__ import annotations

import argparse
import sys

from ..errors import SolverBug, UsageError

TYPE_CHECKING = False  # typing itself costs start-up: imported for the type checker only
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

    from ..core.puzzle import Puzzle


# --- argparse types ------------------------------------------------------------------------------

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
memory_mb = number_type(int, lambda v: 1 <= v <= 1 << 40, "a whole number of megabytes",
                        "is not between 1 and 2**40 (memory is always measured, so there is no 0 for none)")
fraction = number_type(float, lambda v: 0 <= v <= 1, "a number", "is not a fraction between 0 and 1")
seed_int = number_type(int, lambda v: 0 <= v < 1 << 64, "a whole number", "is not between 0 and 2**64 - 1")


def presets_type(text: str) -> str:
    """An argparse type for ``--rules x,anti-knight``: the text, its preset names checked against
    ``rules.PRESETS`` (``puzzle_files`` reads it)."""
    from ..core.rules import RulesError, parse_presets

    try:
        parse_presets(text)
    except RulesError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


# --- argument groups -----------------------------------------------------------------------------

SOLVED_UNDER = "the puzzle is solved under"


def rules_arguments(parser: argparse.ArgumentParser, what: str = SOLVED_UNDER) -> None:
    """``--rules``, ``--regions``, ``--cages``, ``--thermos``: the one place every command that reads
    puzzles takes its variant rules from (``rule_options`` reads them back)."""
    from ..core.rules import PRESETS

    group = parser.add_argument_group(
        "variant rules", f"The rules {what} (default: standard Sudoku, or what a JSON puzzle file "
        "declares). A solver that cannot honour them is refused (exit 2); compare and bench skip it.")
    group.add_argument("--rules", type=presets_type, metavar="NAMES",
                       help=f"presets, comma-separated: {', '.join(PRESETS)} (e.g. x,anti-knight)")
    group.add_argument("--regions", metavar="FILE", help="jigsaw regions: n lines of n region labels (implies jigsaw)")
    group.add_argument("--cages", metavar="FILE", help="killer cages and their sums (implies killer)")
    group.add_argument("--thermos", metavar="FILE", help="thermometers, each from its bulb (implies thermo)")


def puzzle_arguments(parser: argparse.ArgumentParser, solver: bool = True, several: str | None = None) -> None:
    """The puzzle file, ``--box`` and the rule options; with ``solver`` also ``--solver``, ``-o``,
    ``--time-limit`` and ``--stats`` (the commands that run one solver on one puzzle). ``several``:
    the positional takes any number of files (a list, empty for stdin), this the help of the rest."""
    from .. import solvers

    if several:
        parser.add_argument("puzzle", nargs="*", metavar="PUZZLE",
                            help=f"puzzle file, or - for stdin (default); {several}")
    else:
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


def many_solver_arguments(parser: argparse.ArgumentParser, default: str) -> None:
    """``--solvers``, ``-o SOLVER.KEY=VALUE``, ``--configs`` and ``--wide``: compare and bench."""
    parser.add_argument("--solvers", metavar="A,B,...", help=f"solvers to run, comma-separated (default: {default})")
    parser.add_argument("-o", "--option", action="append", metavar="SOLVER.KEY=VALUE",
                        help="a solver's option, e.g. -o sat.engine=glucose4 (repeatable)")
    parser.add_argument("--configs", nargs="+", metavar="SOLVER[:KEY=VALUE,...]",
                        help="instead of --solvers: solvers under option sets, one solver several times among them, "
                        "each a row named after its options (e.g. sat:encoding=minimal sat:encoding=extended)")
    parser.add_argument("--wide", action="store_true", help="every column, however wide the table gets")


def certify_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--certify", action="store_true",
                        help="back a 'no solution' or 'exactly one solution' claim with a checked DRUP proof")
    parser.add_argument("--proof", metavar="DIR", help="with --certify: keep formula.cnf and proof.drup here")


def json_argument(parser: argparse.ArgumentParser, what: str = "one JSON document on stdout instead") -> None:
    """``--json``: every command takes it (docs/json.md; the schema of each is ``schemas/<command>.schema.json``)."""
    parser.add_argument("--json", action="store_true", help=f"{what}; a failure prints {{\"error\", \"exit\"}}")


def cluster_argument(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--cluster", metavar="ADDRESS",
                        help=f"{what} on a Dask cluster: a scheduler's address (tcp://host:8786) or local:N for N "
                        "worker processes here (needs the dask extra: pip install 'sudokulab[dask]')")


def jobs_count(text: str) -> int:
    """An argparse type for ``--jobs``: a positive whole number, cut to what this machine runs at once
    (``executors.max_jobs``) with one note on stderr."""
    from ..execution.executors import JOBS_PER_CPU, max_jobs

    value = positive_int(text)
    if value > max_jobs():
        print(f"sudokulab: note: --jobs {value} cut to {max_jobs()}, {JOBS_PER_CPU} per CPU of this machine",
              file=sys.stderr, flush=True)
        return max_jobs()
    return value


def where_arguments(parser: argparse.ArgumentParser, what: str, jobs: str = "processes (default: 1)") -> None:
    """``--jobs N`` and ``--cluster ADDRESS``: where a command's work over many puzzles runs, declared
    once for every such command (``execution.cluster.open_executor`` takes the two back)."""
    parser.add_argument("--jobs", type=jobs_count, default=1, metavar="N",
                        help=f"{jobs}; at most 4 per CPU")
    cluster_argument(parser, what)


# --- reading them back ---------------------------------------------------------------------------

RULE_OPTIONS = ("rules", "regions", "cages", "thermos")
"""The variant-rule options every command that reads puzzles takes (``rules_arguments``)."""


def solver_options(pairs: Sequence[str] | None) -> dict[str, str]:
    """``-o KEY=VALUE`` pairs as text; the solver's declared options convert and check them."""
    options: dict[str, str] = {}
    for pair in pairs or ():
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"option '{pair}' is not of the form KEY=VALUE")
        options[key.strip().replace("-", "_")] = value.strip()
    return options


def per_solver_options(pairs: Sequence[str] | None) -> dict[str, dict[str, str]]:
    """``-o SOLVER.KEY=VALUE`` pairs for commands that run several solvers."""
    options: dict[str, dict[str, str]] = {}
    for key, value in solver_options(pairs).items():
        solver, dot, name = key.partition(".")
        if not dot or not name:
            raise UsageError(
                f"option '{key}' names no solver: write -o SOLVER.{key}=VALUE, e.g. -o sat.engine=glucose4"
            )
        options.setdefault(solver.replace("_", "-"), {})[name] = value
    return options


def solver_names(text: str | None) -> list[str] | None:
    """``--solvers A,B`` as a list, or None when not given; given but naming none (``--solvers ""``)
    is refused rather than taken for the default set."""
    if text is None:
        return None
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        raise UsageError("--solvers names no solver: give A,B,... (see 'sudokulab solvers'), or leave it out "
                         "for the default set")
    return names


def configurations(args: argparse.Namespace) -> Any:
    """``--configs`` parsed and checked (``configurations.parse_configurations``), or None."""
    if not getattr(args, "configs", None):
        return None
    from ..bench.configurations import parse_configurations

    return parse_configurations(args.configs)


def box(args: argparse.Namespace) -> tuple[int, int] | None:
    """``--box RxC`` as (rows, columns), or None to take the shape from the size."""
    from ..formats.boj import parse_box

    return parse_box(args.box) if getattr(args, "box", None) else None


def rule_options(args: argparse.Namespace) -> dict[str, Any]:
    """The command line's variant rules as the keywords of ``puzzle_files.read_puzzle`` and ``read_rules``."""
    return {key: getattr(args, key, None) for key in RULE_OPTIONS}


def load(args: argparse.Namespace, source: str | None = None, text: str | None = None, *,
         dataset_hint: str | None = None) -> Puzzle:
    """The command's puzzle (``args.puzzle``, or ``source``) under the rules of its options or its file;
    ``text``: the file's text, read already. Input that is clearly a dataset is refused, naming what
    takes it (``dataset_hint``; by default the commands that read datasets)."""
    from ..errors import PuzzleFormatError
    from ..formats.boj import read_text, source_name
    from ..formats.puzzle_files import puzzle_from_text

    source = args.puzzle if source is None else source
    text = read_text(source) if text is None else text
    hint = dataset_hint or DATASET_COMMANDS
    try:
        puzzle = puzzle_from_text(text, source_name(source), box=box(args), **rule_options(args))
    except PuzzleFormatError:
        why = dataset_shape(text, None)
        if why:
            raise PuzzleFormatError(f"{source_name(source)} {why}, not one puzzle: {hint}") from None
        raise
    why = dataset_shape(text, puzzle.n)
    if why:
        raise PuzzleFormatError(f"{source_name(source)} {why}, not one {puzzle.n}x{puzzle.n} puzzle: {hint}")
    return puzzle


DATASET_COMMANDS = "the commands that read datasets take it (solve --all, bench, rate, judge)"
"""What a one-puzzle command says of a dataset it was given (``solve`` names ``solve --all`` itself)."""


def dataset_shape(text: str, parsed: int | None) -> str | None:
    """``holds 20 puzzles`` when the text is clearly a dataset, else None.

    Clearly: the dataset reader finds two or more puzzles in it. Text that also parses as one
    puzzle (four 9x9 BOJ blocks are 324 numbers, an 18x18 board of ``parsed`` rows) counts as a
    dataset only when every entry is a puzzle and no line is a row of that one board.
    """
    from ..datasets.reading import parse_lines

    lines = text.splitlines()
    entries = list(parse_lines(lines))
    good = sum(entry.ok for entry in entries)
    if good < 2:
        return None
    if parsed is not None and (good < len(entries) or any(len(line.split()) == parsed for line in lines)):
        return None
    return f"holds {len(entries):,} puzzles, a dataset"


def dataset_rules(args: argparse.Namespace) -> Any:
    """The command line's variant rules for the puzzles of a dataset (``datasets.RuleOptions``), or None
    for standard Sudoku: built per board shape, once each."""
    from ..datasets.rule_options import RuleOptions

    options = RuleOptions.of(**rule_options(args))
    return None if options.standard else options


def dataset_file(argument: str) -> str:
    """A dataset argument as a file: a path as it is, a published set's name as its fetched copy (the
    catalogue is loaded only for an argument that names no file)."""
    from pathlib import Path

    if argument == "-" or Path(argument).exists():
        return argument
    from ..datasets.catalog import SETS, resolve

    if argument not in SETS and "/" not in argument:  # a mistyped set name: say which it may be
        import difflib

        near = difflib.get_close_matches(argument, SETS, n=3, cutoff=0.6)
        if near:
            raise UsageError(f"cannot read '{argument}': no such file, nor a published set; did you mean "
                             f"{' or '.join(repr(name) for name in near)}?")
    return resolve(argument)


def certificate(puzzle: Any, solutions: int | None, proof_dir: str | None, *, exact: bool = False) -> Any:
    """Certify a count of solutions (0 or 1) for ``--certify``. ``exact`` False: the count is the
    oracle's, where 2 means "two or more"."""
    from ..verdicts.proof import certify_count

    return certify_count(puzzle, solutions, proof_dir=proof_dir, exact=exact)


def certificate_field(args: argparse.Namespace, made: Any) -> dict[str, Any]:
    """The ``certificate`` field of a document, present when ``--certify`` was asked (null when not made)."""
    if not getattr(args, "certify", False):
        return {}
    from dataclasses import asdict

    return {"certificate": None if made is None else asdict(made)}


def certified(made: Any, solutions: int | None, *, stdout: bool | None) -> None:
    """Print a certificate's line on stdout or stderr (None: not at all, it is in the JSON document);
    a claim of none or one solution whose proof fails to check is a bug found."""
    if stdout is not None:
        print(made.line(), file=sys.stdout if stdout else sys.stderr)
    if solutions in (0, 1) and not made.certified:
        raise SolverBug(f"the claim '{made.claim}' was not certified: {made.why}")
