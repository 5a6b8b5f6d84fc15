"""The ``sudokulab`` command: argument parsing and exit codes only.

Exit codes (also in the README): 0 done; 1 no solution (givens that break a rule included) or,
for ``verify``, a wrong answer; 2 the input is no puzzle, or a bad argument; 3 time limit reached;
4 a solver gave a wrong answer or the paradigms disagree (a bug found). An error (bad input, bad
argument, time limit, no solution) is one line on stderr, never a traceback. stdout carries only
the command's answer: the BOJ board for ``solve`` and ``compare``, the verdict for ``verify``, the
report for ``judge`` and ``bench``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Any

from . import solvers
from .boj import decode, format_grid, parse_box, parse_puzzle, read_limited
from .errors import PuzzleFormatError, SudokuError, UsageError
from .grid import Puzzle, first_conflict, solution_error
from .solvers.base import SolveResult, Status

EXIT_OK, EXIT_NO_SOLUTION, EXIT_BAD_INPUT, EXIT_TIME_LIMIT, EXIT_WRONG = 0, 1, 2, 3, 4
STATUS_EXIT = {
    Status.SOLVED: EXIT_OK,
    Status.NO_SOLUTION: EXIT_NO_SOLUTION,
    Status.TIME_LIMIT: EXIT_TIME_LIMIT,
}


class CommandFailed(Exception):
    """A command's own way to stop with a one-line message and an exit code."""

    def __init__(self, message: str, code: int):
        super().__init__(message)
        self.code = code


def read_text(source: str) -> str:
    """The text of a file, or of standard input for ``-``, size-limited and checked to be text."""
    name = "<stdin>" if source == "-" else source
    try:
        if source == "-":
            return decode(read_limited(sys.stdin.buffer, name), name)
        with open(source, "rb") as stream:
            return decode(read_limited(stream, name), name)
    except PuzzleFormatError as exc:
        raise PuzzleFormatError(f"{name}: {exc}" if not str(exc).startswith(name) else str(exc)) from None
    except OSError as exc:
        raise UsageError(f"cannot read '{name}': {exc.strerror or exc}") from None


def load_puzzle(source: str, box: str | None = None) -> Puzzle:
    """Read and parse a puzzle, prefixing any error with the file it came from."""
    text = read_text(source)
    name = "<stdin>" if source == "-" else source
    try:
        return parse_puzzle(text, parse_box(box) if box else None)
    except PuzzleFormatError as exc:
        raise PuzzleFormatError(f"{name}: {exc}") from None


def option_value(text: str) -> Any:
    """``KEY=VALUE`` values: int, then float, then true/false, then the string itself."""
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text.lower(), text)


def solver_options(pairs: Sequence[str] | None) -> dict[str, Any]:
    options = {}
    for pair in pairs or ():
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UsageError(f"option '{pair}' is not of the form KEY=VALUE")
        options[key.strip().replace("-", "_")] = option_value(value.strip())
    return options


def number_type(convert: Callable[[str], Any], accept: Callable[[Any], bool], what: str, rule: str):
    """An argparse type: convert the text, then check the value; each failure is one plain line."""

    def parse(text: str) -> Any:
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not {what}") from None
        if not accept(value):
            raise argparse.ArgumentTypeError(f"'{text}' {rule}")
        return value

    return parse


positive_float = number_type(float, lambda v: v > 0, "a number of seconds", "is not a positive number of seconds")
positive_int = number_type(int, lambda v: v >= 1, "a whole number", "is not a positive whole number")
non_negative_int = number_type(int, lambda v: v >= 0, "a whole number", "is negative")
memory_mb = number_type(int, lambda v: v >= 0, "a whole number of megabytes", "is negative; 0 means no limit")
fraction = number_type(float, lambda v: 0 <= v <= 1, "a number", "is not a fraction between 0 and 1")


def format_stats(result: Any) -> str:
    """One line of a result's status, time and effort figures, for stderr."""
    figures = "  ".join(f"{k}: {v}" for k, v in result.stats.items())
    return f"solver: {result.solver}  status: {result.status.value}  time: {result.seconds:.6f} s  {figures}".rstrip()


def checked_answer(result: SolveResult, puzzle: Puzzle) -> str:
    """The answer's grid, held against the independent checker before anything is printed."""
    problem = solution_error(result.grid, puzzle)
    if problem:
        raise CommandFailed(
            f"solver '{result.solver}' returned a wrong answer ({problem}); nothing printed", EXIT_WRONG
        )
    return result.grid  # type: ignore[return-value]


def cmd_solve(args: argparse.Namespace) -> int:
    puzzle = load_puzzle(args.puzzle, args.box)
    conflict = first_conflict(puzzle.givens, puzzle.shape)
    if conflict:
        raise CommandFailed(f"no solution: the givens break a rule: {conflict}", EXIT_NO_SOLUTION)
    with solvers.get(args.solver, **solver_options(args.option)) as solver:
        result = solver.solve(puzzle, time_limit=args.time_limit, canonical=args.canonical)
    if args.stats:
        print(format_stats(result), file=sys.stderr)
    if result.status is Status.SOLVED:
        grid = checked_answer(result, puzzle)
        sys.stdout.write(format_grid(grid, puzzle.n, compact=args.format == "compact"))
        return EXIT_OK
    if result.status is Status.TIME_LIMIT:
        raise CommandFailed(f"time limit reached: {args.time_limit} s", EXIT_TIME_LIMIT)
    raise CommandFailed("no solution: no completion of these givens keeps the rules", EXIT_NO_SOLUTION)


def cmd_count(args: argparse.Namespace) -> int:
    puzzle = load_puzzle(args.puzzle, args.box)
    with solvers.get(args.solver, **solver_options(args.option)) as solver:
        result = solver.count(puzzle, limit=args.limit, time_limit=args.time_limit)
    if args.stats:
        print(format_stats(result), file=sys.stderr)
    if result.status is Status.TIME_LIMIT:
        print(f"at least {result.count}")
        raise CommandFailed(
            f"time limit reached after {result.count} solutions: {args.time_limit} s", EXIT_TIME_LIMIT
        )
    print(result.count if result.exact else f"at least {result.count}")
    return EXIT_OK


# Export formats: name -> "module:function"; the function takes a Puzzle and keyword options and
# returns the text to write. Each model module adds its own format here.
EXPORTERS: dict[str, str] = {
    "dimacs": "sudokulab.models.cnf:to_dimacs",
    "cpsat": "sudokulab.models.cpsat:to_cpsat_text",
}


def cmd_export(args: argparse.Namespace) -> int:
    if args.format not in EXPORTERS:
        raise UsageError(f"unknown format '{args.format}'; choose one of: {', '.join(EXPORTERS) or 'none yet'}")
    from importlib import import_module

    module, _, function = EXPORTERS[args.format].partition(":")
    export = getattr(import_module(module), function)
    puzzle = load_puzzle(args.puzzle, args.box)
    options = solver_options(args.option)
    if args.encoding:
        options["encoding"] = args.encoding
    text = export(puzzle, **options)
    if args.output in (None, "-"):
        sys.stdout.write(text)
    else:
        try:
            with open(args.output, "w", encoding="utf-8") as stream:
                stream.write(text)
        except OSError as exc:
            raise UsageError(f"cannot write '{args.output}': {exc.strerror or exc}") from None
    return EXIT_OK


# compare, verify, judge: the logic lives in compare.py and judge.py, imported on use (rich).


def cmd_compare(args: argparse.Namespace) -> int:
    from rich.console import Console

    from .compare import Agreement, compare, format_answers, render

    puzzle = load_puzzle(args.puzzle, args.box)
    names = [name.strip() for name in args.solvers.split(",") if name.strip()] if args.solvers else None
    comparison = compare(puzzle, names, time_limit=args.time_limit, canonical=args.canonical)
    code = {
        Agreement.AGREED: EXIT_OK, Agreement.SEVERAL: EXIT_OK, Agreement.NO_SOLUTION: EXIT_NO_SOLUTION,
        Agreement.ALL_TIMED_OUT: EXIT_TIME_LIMIT, Agreement.DISAGREE: EXIT_WRONG,
    }[comparison.agreement]
    if args.json:
        import json

        sys.stdout.write(json.dumps(comparison.to_json(), indent=2) + "\n")
        if code:
            raise CommandFailed(f"{comparison.agreement.value}: {comparison.reason}", code)
        return code
    render(comparison, Console(stderr=True))  # its last line is the verdict, on stderr
    sys.stdout.write(format_answers(comparison))
    return code


def read_bytes(source: str, limit: int) -> bytes:
    """At most ``limit`` + 1 raw bytes of a file or stdin, so the caller can tell "too long"."""
    try:
        if source == "-":
            return sys.stdin.buffer.read(limit + 1)
        with open(source, "rb") as stream:
            return stream.read(limit + 1)
    except OSError as exc:
        raise UsageError(f"cannot read '{source}': {exc.strerror or exc}") from None


def cmd_verify(args: argparse.Namespace) -> int:
    from .judge import OUTPUT_LIMIT, consult, oracle_solver, verify

    if args.puzzle == "-" and args.answer == "-":
        raise UsageError("verify: the puzzle and the answer cannot both come from standard input")
    puzzle = load_puzzle(args.puzzle, args.box)
    verdict = verify(puzzle, read_bytes(args.answer, OUTPUT_LIMIT))
    print(verdict)
    if not args.no_oracle:
        with oracle_solver() as oracle:
            print("\n".join(consult(puzzle, oracle, args.time_limit).lines(verdict)))
    return EXIT_OK if verdict.accepted else EXIT_NO_SOLUTION  # 1: wrong answer


def cmd_judge(args: argparse.Namespace) -> int:
    from rich.console import Console

    from . import judge as judging
    from .datasets import read_dataset

    if not args.program:
        raise UsageError("judge: name the program after --, e.g. sudokulab judge set.txt -- python3 solution.py")
    limits = judging.Limits(args.time_limit, args.memory_limit or None)
    errors = Console(stderr=True)
    show = not args.quiet and errors.is_terminal
    total = None
    if show and args.dataset != "-":  # a first pass to size the bar: parsing costs little beside running
        total = sum(1 for _ in judging.first_puzzles(read_dataset(args.dataset), args.limit))
    with judging.progress_bar(errors, total, args.dataset, show=show) as on_case, judging.oracle_solver() as oracle:
        report = judging.judge_dataset(
            judging.first_puzzles(read_dataset(args.dataset), args.limit), args.program, limits,
            oracle=oracle, failures_shown=args.show_failures, jobs=args.jobs, on_case=on_case,
        )
    summary = report.summary
    if not summary.runs and not summary.counts[judging.Outcome.INVALID_ENTRY]:
        raise UsageError(f"judge: no puzzles in '{args.dataset}'")
    out = Console()
    judging.render_failures(report.failures, oracle.name, out)
    judging.render_summary(summary, limits, out)
    return EXIT_OK if summary.all_accepted else 1


def split_program(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    """For ``judge``, everything after the first ``--`` is the program, verbatim: argparse would
    drop a later ``--`` that belongs to the program's own arguments."""
    argv = list(argv)
    if argv[:1] == ["judge"] and "--" in argv:
        cut = argv.index("--")
        return argv[:cut], argv[cut + 1 :]
    return argv, []


def add_judging_commands(commands: Any) -> None:
    """The compare, verify and judge subcommands."""
    compare = commands.add_parser("compare", help="run every solver on a puzzle and check that they agree")
    compare.add_argument("puzzle", nargs="?", default="-", help="puzzle file, or - for stdin (default)")
    compare.add_argument("--box", metavar="RxC", help="box shape, e.g. 2x3 (default: from the size)")
    compare.add_argument("--solvers", metavar="A,B,...", help="solvers to run (default: every registered one)")
    compare.add_argument(
        "--time-limit", type=positive_float, default=10.0, metavar="SECONDS",
        help="per solver (default: 10: the classic backtracker needs minutes on some hard puzzles); "
        "a solver that reaches it is reported, not counted",
    )
    compare.add_argument("--canonical", action="store_true", help="ask for the lexicographically first solution; "
                         "all answers must then be byte-identical")
    compare.add_argument("--json", action="store_true", help="print one JSON document on stdout instead")
    compare.set_defaults(run=cmd_compare)

    verify = commands.add_parser("verify", help="judge an answer as BOJ's special judge does, with SAT as oracle")
    verify.add_argument("puzzle", help="puzzle file, or - for stdin")
    verify.add_argument("answer", help="answer file, or - for stdin")
    verify.add_argument("--box", metavar="RxC", help="box shape, e.g. 2x3 (default: from the size)")
    verify.add_argument("--time-limit", type=positive_float, default=10.0, metavar="SECONDS",
                        help="for the oracle (default: 10)")
    verify.add_argument("--no-oracle", action="store_true", help="print the verdict only")
    verify.set_defaults(run=cmd_verify)

    judge = commands.add_parser(
        "judge", help="run a program on every puzzle of a dataset and judge it as an online judge does",
        usage="sudokulab judge DATASET [options] -- COMMAND [ARG ...]",
    )
    judge.add_argument("dataset", help="dataset file (one-line puzzles or BOJ blocks), or - for stdin")
    judge.add_argument("--time-limit", type=positive_float, default=1.0, metavar="SECONDS",
                       help="wall time per puzzle (default: 1, as BOJ 2580)")
    judge.add_argument("--memory-limit", type=memory_mb, default=256, metavar="MB",
                       help="data memory per run (default: 256, as BOJ 2580; 0: none; Java needs -Xmx or 0)")
    judge.add_argument("--limit", type=positive_int, metavar="K", help="judge the first K puzzles only")
    judge.add_argument("--jobs", type=positive_int, default=1, metavar="N", help="runs at once (default: 1)")
    judge.add_argument("--show-failures", type=int, default=3, metavar="K",
                       help="show the first K failures beside the oracle's answer (default: 3)")
    judge.add_argument("--quiet", action="store_true", help="no progress bar")
    judge.set_defaults(run=cmd_judge, program=[])


# bench and generate: the logic lives in bench.py, plots.py and generate.py, imported on use.


def cmd_bench(args: argparse.Namespace) -> int:
    from . import bench

    names = [name.strip() for name in args.solvers.split(",") if name.strip()] if args.solvers else None
    box = parse_box(args.box) if args.box else None
    if args.plot:
        from .plots import require_matplotlib

        require_matplotlib()  # before the run, not after an hour of it
    datasets = [bench.Dataset.from_path(path, box=box, limit=args.limit) for path in args.datasets]
    report = bench.run_bench(
        datasets, names, time_limit=args.time_limit, jobs=args.jobs,
        csv_path=args.out, json_path=args.json, progress=not args.quiet, by_solver=args.by_solver,
    )
    bench.print_summary(report)
    if args.plot:
        from .plots import cactus_plot

        cactus_plot(report.solved_times, args.plot, totals=report.totals, time_limit=args.time_limit)
    if report.wrong:
        raise CommandFailed(f"{report.wrong} wrong answers (each shown above on stderr with its puzzle)", EXIT_WRONG)
    return EXIT_OK


def cmd_generate(args: argparse.Namespace) -> int:
    import random

    from . import generate as gen
    from .boj import MAX_SIZE
    from .grid import Shape

    if args.size > MAX_SIZE:
        raise UsageError(f"a {args.size}x{args.size} board is larger than the {MAX_SIZE}x{MAX_SIZE} supported")
    shape = Shape(*parse_box(args.box)) if args.box else Shape.of_size(args.size)
    if shape.n != args.size:
        raise UsageError(f"box {args.box} does not fit a {args.size}x{args.size} board")
    try:
        target = gen.clues_for(shape, args.clues, args.fraction)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    seed = args.seed
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
        print(f"sudokulab: seed {seed} (give --seed {seed} to generate the same puzzles)", file=sys.stderr)
    try:
        stream = sys.stdout if args.output in (None, "-") else open(args.output, "w", encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write '{args.output}': {exc.strerror or exc}") from None
    short: list[int] = []
    try:
        for made in gen.generate(shape, args.count, clues=target, unique=args.unique, seed=seed):
            stream.write(gen.dataset_text(made.puzzle))
            stream.flush()
            if made.short:
                short.append(made.clues)
    finally:
        if stream is not sys.stdout:
            stream.close()
    if short:
        print(f"sudokulab: warning: {len(short)} of {args.count} puzzles cannot go below {target} clues and stay "
              f"unique; they stopped at {min(short)}..{max(short)} clues", file=sys.stderr)
    return EXIT_OK


def add_bench_commands(commands: Any) -> None:
    """The bench and generate subcommands."""
    from .bench import DEFAULT_TIME_LIMIT

    bench = commands.add_parser(
        "bench", help="run solvers over puzzle sets: summary table, per-puzzle CSV, cactus plot",
    )
    bench.add_argument("datasets", nargs="+", metavar="DATASET", help="dataset files (one-line puzzles or BOJ blocks)")
    bench.add_argument("--solvers", metavar="A,B,...",
                       help="solvers to run (default: every registered one but the classic 'backtrack', "
                       "which needs minutes on some published puzzles: name it, with --limit)")
    bench.add_argument("--time-limit", type=positive_float, default=DEFAULT_TIME_LIMIT, metavar="SECONDS",
                       help=f"per puzzle and solver (default: {DEFAULT_TIME_LIMIT:g})")
    bench.add_argument("--jobs", type=positive_int, default=1, metavar="N",
                       help="processes (default: 1, for clean timings)")
    bench.add_argument("--limit", type=positive_int, metavar="K", help="the first K puzzles of each dataset")
    bench.add_argument("--by-solver", action="store_true",
                       help="each solver over a whole dataset in turn (its rate alone; default: turns per puzzle)")
    bench.add_argument("--box", metavar="RxC", help="box shape of the puzzles (default: from the size)")
    bench.add_argument("--out", metavar="FILE", help="per-puzzle results as CSV")
    bench.add_argument("--json", metavar="FILE", help="per-puzzle results as JSON Lines")
    bench.add_argument("--plot", metavar="FILE", help="draw the cactus plot to this PNG (needs matplotlib)")
    bench.add_argument("--quiet", action="store_true", help="no progress bar")
    bench.set_defaults(run=cmd_bench)

    generate = commands.add_parser("generate", help="random puzzles of any size, in the dataset format")
    generate.add_argument("--size", type=positive_int, required=True, metavar="N", help="board size n (n x n)")
    generate.add_argument("--box", metavar="RxC", help="box shape, e.g. 2x3 (default: from the size)")
    amount = generate.add_mutually_exclusive_group()
    amount.add_argument("--clues", type=non_negative_int, metavar="K", help="givens per puzzle")
    amount.add_argument("--fraction", type=fraction, metavar="F",
                        help="givens as a share of the cells (default: 0.45)")
    generate.add_argument("--unique", action="store_true",
                          help="keep only removals that leave exactly one solution (checked with SAT)")
    generate.add_argument("--count", type=positive_int, default=1, metavar="C", help="puzzles (default: 1)")
    generate.add_argument("--seed", type=int, metavar="S", help="random seed: the same seed, the same puzzles")
    generate.add_argument("--output", metavar="FILE", help="write here instead of stdout")
    generate.set_defaults(run=cmd_generate)


def add_puzzle_arguments(parser: argparse.ArgumentParser, solver: bool = True) -> None:
    parser.add_argument("puzzle", nargs="?", default="-", help="puzzle file, or - for stdin (default)")
    parser.add_argument("--box", metavar="RxC", help="box shape, e.g. 2x3 (default: from the size)")
    if solver:
        parser.add_argument(
            "--solver", default="backtrack", metavar="NAME",
            help=f"one of: {', '.join(solvers.names())} (default: backtrack)",
        )
        parser.add_argument(
            "-o", "--option", action="append", metavar="KEY=VALUE",
            help="a solver option, e.g. -o engine=glucose4 (repeatable)",
        )
        parser.add_argument("--time-limit", type=positive_float, metavar="SECONDS")
        parser.add_argument("--stats", action="store_true", help="print time and effort on stderr")


class _Parser(argparse.ArgumentParser):
    """argparse that reports bad arguments as one line and exit code 2, like every other error."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="sudokulab", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    solve = commands.add_parser("solve", help="solve one puzzle and print the BOJ answer")
    add_puzzle_arguments(solve)
    solve.add_argument(
        "--canonical", action="store_true",
        help="the row-major lexicographically first solution (what the classic backtracker prints)",
    )
    solve.add_argument(
        "--format", choices=("boj", "compact"), default="boj",
        help="boj: numbers separated by spaces (BOJ 2580); compact: digits only (BOJ 2239)",
    )
    solve.set_defaults(run=cmd_solve)

    count = commands.add_parser("count", help="count the solutions up to a limit")
    add_puzzle_arguments(count)
    count.add_argument("--limit", type=positive_int, default=1000, metavar="K")
    count.set_defaults(run=cmd_count)

    export = commands.add_parser("export", help="write the puzzle's model for an external solver")
    add_puzzle_arguments(export, solver=False)
    export.add_argument("--format", required=True, metavar="NAME", help="dimacs (SAT) or cpsat (CP-SAT)")
    export.add_argument(
        "-o", "--option", action="append", metavar="KEY=VALUE",
        help="a model option, e.g. -o encoding=extended (repeatable)",
    )
    export.add_argument("--encoding", help="shorthand for -o encoding=NAME")
    export.add_argument("--output", metavar="FILE", help="write here instead of stdout")
    export.set_defaults(run=cmd_export)
    add_judging_commands(commands)
    add_bench_commands(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: run one command, turning every expected failure into a line and a code."""
    try:
        argv, program = split_program(sys.argv[1:] if argv is None else argv)
        args = build_parser().parse_args(argv)
        if program:
            args.program = program
        return args.run(args)
    except CommandFailed as exc:
        print(f"sudokulab: {exc}", file=sys.stderr)
        return exc.code
    except SudokuError as exc:
        print(f"sudokulab: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("sudokulab: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
