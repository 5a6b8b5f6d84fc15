"""What each ``sudokulab`` command does with its parsed arguments: call the library, print the result.

Each ``cmd_*`` takes the argparse namespace and returns an exit code or raises a ``SudokuError``
(``cli.main`` turns it into one line and its code). Logic a library user would need lives in the
library modules these call, not here. With ``--json`` each prints its document through
``documents`` (docs/json.md).

(About 630 lines, one module on purpose: a short function per command, each the glue between
the parsed arguments and the library; a module per command would be a dozen modules of 40 lines
sharing the same few helpers.)
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .. import default_solver, solvers
from ..core.puzzle import Puzzle
from ..errors import ExitCode, NoSolution, SolverBug, TimeLimitReached, UnsupportedFeature, UsageError, WrongAnswer
from ..formats import documents
from ..formats.boj import format_grid, parse_box, read_bytes, read_text, source_name
from ..solvers.base import Status

RULE_OPTIONS = ("rules", "regions", "cages", "thermos")
"""The variant-rule options every command that reads puzzles takes (``cli.rules_arguments``)."""


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


def _box(args: argparse.Namespace) -> tuple[int, int] | None:
    return parse_box(args.box) if getattr(args, "box", None) else None


def rule_options(args: argparse.Namespace) -> dict[str, Any]:
    """The command line's variant rules as the keywords of ``puzzle_files.read_puzzle`` and ``read_rules``."""
    return {key: getattr(args, key, None) for key in RULE_OPTIONS}


def load(args: argparse.Namespace, source: str | None = None) -> Puzzle:
    """The command's puzzle (``args.puzzle``, or ``source``) under the rules of its options or its file."""
    from ..formats.puzzle_files import read_puzzle

    return read_puzzle(args.puzzle if source is None else source, box=_box(args), **rule_options(args))


def dataset_rules(args: argparse.Namespace) -> Any:
    """The command line's variant rules for the puzzles of a dataset (``datasets.RuleOptions``), or None
    for standard Sudoku: built per board shape, once each."""
    from ..datasets.reading import RuleOptions

    options = RuleOptions.of(**rule_options(args))
    return None if options.standard else options


def _names(text: str | None) -> list[str] | None:
    return [name.strip() for name in text.split(",") if name.strip()] if text else None


def _configs(args: argparse.Namespace) -> Any:
    """``--configs`` parsed and checked (``configurations.parse_configurations``), or None."""
    if not getattr(args, "configs", None):
        return None
    from ..runs.configurations import parse_configurations

    return parse_configurations(args.configs)


def out(text: str) -> None:
    """Write a result to standard output."""
    sys.stdout.write(text)


# --- solve, count, export, solvers ---------------------------------------------------------------

def cmd_solve(args: argparse.Namespace) -> int:
    from ..core.puzzle import first_conflict
    from ..verdicts.checking import check_result

    puzzle = load(args)
    if args.format == "compact" and puzzle.n > 9:
        raise UsageError(f"the compact form has one digit per cell, so it cannot show a {puzzle.n}x{puzzle.n} board")
    conflict = first_conflict(puzzle.givens, puzzle.rules)
    if conflict:
        if args.json:
            documents.emit({**documents.puzzle_fields(puzzle), "solver": None, "status": Status.NO_SOLUTION.value,
                            "reason": f"the givens break a rule: {conflict}", "answer": None, "grid": None,
                            "seconds": 0.0, "stats": {}})
        raise NoSolution(f"no solution: the givens break a rule: {conflict}")
    name = args.solver or default_solver(puzzle)
    with solvers.get(name, **solver_options(args.option)) as solver:
        solvers.require(solver, canonical=args.canonical, time_limit=args.time_limit is not None,
                        rules=puzzle.rules)
        result = solver.solve(puzzle, time_limit=args.time_limit, canonical=args.canonical)
    if args.stats:
        print(format_stats(result), file=sys.stderr)
    verdict = check_result(puzzle, result)
    if verdict.right is False:
        raise SolverBug(f"solver '{result.solver}' returned a wrong answer ({verdict.problem}); nothing printed")
    answer = None
    if result.status is Status.SOLVED:
        answer = format_grid(result.grid, puzzle.n, compact=args.format == "compact")  # type: ignore[arg-type]
    if args.json:
        grid = result.grid if result.status is Status.SOLVED else None
        documents.emit({**documents.puzzle_fields(puzzle), "solver": result.solver, "status": result.status.value,
                        "canonical": args.canonical, "answer": answer, "grid": documents.grid_rows(grid, puzzle.n),
                        "seconds": result.seconds, "stats": dict(result.stats)})
    elif answer is not None:
        out(answer)
    if result.status is Status.SOLVED:
        return ExitCode.OK
    if result.status is Status.TIME_LIMIT:
        raise TimeLimitReached(f"time limit reached: no answer within {args.time_limit:g} s")
    raise NoSolution("no solution: no completion of these givens keeps the rules")


def format_stats(result: Any) -> str:
    """One line of a result's status, time and effort figures, for stderr."""
    figures = "  ".join(f"{k}: {v}" for k, v in result.stats.items())
    return f"solver: {result.solver}  status: {result.status.value}  time: {result.seconds:.6f} s  {figures}".rstrip()


def cmd_count(args: argparse.Namespace) -> int:
    puzzle = load(args)
    name = args.solver or default_solver(puzzle)
    with solvers.get(name, **solver_options(args.option)) as solver:
        solvers.require(solver, count=True, time_limit=args.time_limit is not None, rules=puzzle.rules)
        result = solver.count(puzzle, limit=args.limit, time_limit=args.time_limit)
    if args.stats:
        print(format_stats(result), file=sys.stderr)
    timed_out = result.status is Status.TIME_LIMIT
    certificate = None
    if args.certify and not timed_out:
        certificate = _certificate(puzzle, result.count if result.exact else None, args.proof, exact=True)
    if args.json:
        documents.emit({**documents.puzzle_fields(puzzle), "solver": result.solver, "status": result.status.value,
                        "count": result.count, "exact": result.exact, "limit": result.limit,
                        "seconds": result.seconds, "stats": dict(result.stats),
                        **_certificate_field(args, certificate)})
    if timed_out:
        raise TimeLimitReached(f"time limit reached after {result.count} solutions "
                               f"(at least {result.count}): {args.time_limit:g} s")
    if not args.json:
        out(f"{result.count}\n" if result.exact else f"at least {result.count}\n")
    if certificate is not None:
        _certified(certificate, result.count if result.exact else None, stdout=None if args.json else True)
    return ExitCode.OK


def _certificate(puzzle: Any, solutions: int | None, proof_dir: str | None, *, exact: bool = False) -> Any:
    """Certify a count of solutions (0 or 1). ``exact`` False: the count is the oracle's, where 2
    means "two or more"."""
    from ..verdicts.proof import certify_count

    return certify_count(puzzle, solutions, proof_dir=proof_dir, exact=exact)


def _certificate_field(args: argparse.Namespace, certificate: Any) -> dict[str, Any]:
    """The ``certificate`` field of a document, present when ``--certify`` was asked (null when not made)."""
    if not getattr(args, "certify", False):
        return {}
    from dataclasses import asdict

    return {"certificate": None if certificate is None else asdict(certificate)}


def _certified(certificate: Any, solutions: int | None, *, stdout: bool | None) -> None:
    """Print a certificate's line on stdout or stderr (None: not at all, it is in the JSON document);
    a claim of none or one solution whose proof fails to check is a bug found."""
    if stdout is not None:
        print(certificate.line(), file=sys.stdout if stdout else sys.stderr)
    if solutions in (0, 1) and not certificate.certified:
        raise SolverBug(f"the claim '{certificate.claim}' was not certified: {certificate.why}")


EXPORTED_BY = {"dimacs": "sat", "cpsat": "cpsat", "lp": "mip", "mps": "mip"}
"""Export format -> the solver whose model it writes: a format honours the rules that solver honours."""


def cmd_export(args: argparse.Namespace) -> int:
    from ..formats.outputs import OutputFile
    from ..models import export

    target = OutputFile(args.output) if args.output not in (None, "-") else None  # checked before the work
    puzzle = load(args)
    solver = EXPORTED_BY.get(args.format)
    if solver is not None and not puzzle.rules.is_standard:
        missing = solvers.solver_class(solver).capabilities.lacks(rules=puzzle.rules)
        if missing:
            raise UnsupportedFeature(f"export --format {args.format} (the {solver} model) cannot {missing}")
    options: dict[str, Any] = {key: _export_value(value) for key, value in solver_options(args.option).items()}
    if args.encoding:
        options["encoding"] = args.encoding
    text = export(puzzle, args.format, **options)
    if target is not None:
        with target:
            target.write(text)
    if args.json:
        documents.emit({**documents.puzzle_fields(puzzle), "format": args.format, "options": options,
                        "output": None if target is None else args.output, "text": text if target is None else None})
    elif target is None:
        out(text)
    return ExitCode.OK


def _export_value(text: str) -> Any:
    return {"true": True, "false": False}.get(text.lower(), text)


def cmd_solvers(args: argparse.Namespace) -> int:
    described = [solvers.describe(name) for name in solvers.names()]
    for entry in described:  # why a solver refuses a kind: the line under the matrix (and in --json)
        if entry.get("installed"):
            entry["capabilities"]["kinds_why"] = solvers.solver_class(entry["name"]).capabilities.kinds_why
    if args.json:
        documents.emit({"solvers": described})
        return ExitCode.OK
    from ..ui.console import console
    from .render import render_solvers

    render_solvers(described, console(wide=args.wide), wide=args.wide)
    return ExitCode.OK


# --- compare, verify, judge ----------------------------------------------------------------------

def cmd_compare(args: argparse.Namespace) -> int:
    from ..runs.compare import Agreement, compare, format_answers

    puzzle = load(args)
    names = _names(args.solvers)
    if args.solver_class:  # a student's class, registered for this run (docs/grading.md)
        from ..lab.student_code import register_classes

        names = register_classes(args.solver_class, names)
    comparison = compare(puzzle, names, time_limit=args.time_limit, canonical=args.canonical,
                         options=per_solver_options(args.option), configs=_configs(args))
    for run in comparison.runs:
        if run.skipped and run.skipped_for_rules:
            print(f"sudokulab: skipped {run.solver}: {run.skipped}", file=sys.stderr)
    certificate = None
    if args.certify and comparison.agreement is not Agreement.DISAGREE:
        certificate = _certificate(puzzle, comparison.solutions, args.proof)
    if args.json:
        documents.emit({**comparison.to_json(), **_certificate_field(args, certificate)})
    else:
        from ..ui.console import console
        from .render import render_comparison

        render_comparison(comparison, console(stderr=True, wide=args.wide), wide=args.wide)
        out(format_answers(comparison))
    if certificate is not None:
        _certified(certificate, comparison.solutions, stdout=None if args.json else False)
    failure = {
        Agreement.NO_SOLUTION: NoSolution, Agreement.ALL_TIMED_OUT: TimeLimitReached, Agreement.DISAGREE: SolverBug,
    }.get(comparison.agreement)
    if failure is not None:
        raise failure(f"{comparison.agreement.value}: {comparison.reason}")
    return ExitCode.OK


def cmd_verify(args: argparse.Namespace) -> int:
    from ..verdicts.verify import MAX_ANSWER_BYTES, verify

    if args.puzzle == "-" and args.answer == "-":
        raise UsageError("verify: the puzzle and the answer cannot both come from standard input")
    puzzle = load(args)
    verdict = verify(puzzle, read_bytes(args.answer, MAX_ANSWER_BYTES))
    lines = [str(verdict)]
    consulted: dict[str, Any] | None = None
    certificate = report = None
    if not args.no_oracle:
        from ..verdicts.oracle import Oracle

        try:
            with Oracle(time_limit=args.time_limit) as oracle:
                report = oracle.consult(puzzle)
                lines += report.lines(verdict.grid, verdict.accepted)
            consulted = {"solver": report.solver, "solutions": report.solutions,
                         "canonical": None if report.canonical is None else verdict.grid == report.canonical}
            if args.certify:
                certificate = _certificate(puzzle, report.solutions, args.proof)
        except UnsupportedFeature as exc:
            lines.append(f"oracle: not consulted ({exc})")
            consulted = {"solver": None, "solutions": None, "canonical": None, "not_consulted": str(exc)}
    if args.json:
        documents.emit({**documents.puzzle_fields(puzzle), "accepted": verdict.accepted,
                        "verdict": "accepted" if verdict.accepted else "wrong answer", "reason": verdict.reason,
                        "oracle": consulted, **_certificate_field(args, certificate)})
    else:
        out("\n".join(lines) + "\n")
    if certificate is not None:
        _certified(certificate, report.solutions if report else None, stdout=None if args.json else True)
    if not verdict.accepted:
        raise WrongAnswer(str(verdict))
    return ExitCode.OK


def cmd_judge(args: argparse.Namespace) -> int:
    from ..datasets.reading import read_dataset
    from ..execution.sandbox import Limits
    from ..runs import judge as judging
    from ..ui.console import console
    from ..verdicts.oracle import Oracle
    from .render import judge_progress, render_failures, render_judge_summary

    if not args.program:
        raise UsageError("judge: name the program after --, e.g. sudokulab judge set.txt -- python3 solution.py")
    if args.shared_fs and not args.cluster:
        raise UsageError("judge: --shared-fs goes with --cluster")
    args.dataset = _dataset_file(args.dataset)
    limits = Limits(args.time_limit, args.memory_limit or None, isolation=args.isolation)
    if args.isolation == "none":
        print("sudokulab: warning: --isolation none: the program is trusted; it runs with your rights, "
              "sees your files and the network", file=sys.stderr)
    elif not args.cluster:
        from ..execution.isolation import check

        check(args.isolation)  # before any output: where bubblewrap cannot run, one line and exit 2
    show = not args.quiet and sys.stderr.isatty()
    total = None
    rules = dataset_rules(args)
    if show and args.dataset != "-":  # a first pass to size the bar: parsing costs little beside running
        total = sum(1 for entry in judging.first_puzzles(read_dataset(args.dataset, rules=rules), args.limit)
                    if entry.ok)
    with judge_progress(total, source_name(args.dataset), enabled=show) as on_case, Oracle(None) as oracle:
        report = judging.judge_dataset(
            judging.first_puzzles(read_dataset(args.dataset, rules=rules), args.limit), args.program, limits,
            oracle=oracle, failures_shown=args.show_failures, jobs=args.jobs,
            on_case=_also_json_lines(on_case, judging.case_row) if args.json else on_case,
            cluster=args.cluster, shared_fs=args.shared_fs,
        )
    summary = report.summary
    if not summary.runs and not summary.counts[judging.Outcome.INVALID_ENTRY]:
        raise UsageError(f"judge: no puzzles in '{source_name(args.dataset)}'")
    screen = console(stderr=args.json, wide=args.wide)
    render_failures(report.failures, oracle.name, screen)
    render_judge_summary(summary, limits, screen)
    if args.cluster:
        print(f"ran on {report.where}; batches run again after a worker died: {report.retried}",
              file=sys.stderr if args.json else sys.stdout)
    if not summary.all_accepted:
        accepted = summary.counts[judging.Outcome.ACCEPTED]
        raise WrongAnswer(f"{sum(summary.counts.values()) - accepted} of {sum(summary.counts.values())} "
                          "entries not accepted")
    return ExitCode.OK


def _also_json_lines(on_case: Any, row_of: Any) -> Any:
    """``on_case`` (the progress bar's) that also prints each case as a JSON Lines row on stdout."""

    def both(case: Any) -> None:
        documents.emit_line(row_of(case))
        sys.stdout.flush()
        on_case(case)

    return both


# --- bench, generate, datasets, completion -------------------------------------------------------

def _dataset_file(argument: str) -> str:
    """A dataset argument as a file: a path as it is, a published set's name as its fetched copy (the
    catalogue is loaded only for an argument that names no file)."""
    if argument == "-" or Path(argument).exists():
        return argument
    from ..datasets.catalog import resolve

    return resolve(argument)


def cmd_bench(args: argparse.Namespace) -> int:
    from ..runs import bench
    from ..ui.console import console
    from .render import render_bench

    box = _box(args)
    files = bench_outputs(args)
    plot = None
    if files.get("plot") is not None:
        from ..ui.plots import plot_output, require_matplotlib

        require_matplotlib()  # before the run, not after an hour of it
        plot = plot_output(files["plot"])
    rules = dataset_rules(args)
    datasets = [bench.Dataset.from_path(_dataset_file(path), box=box, limit=args.limit, rules=rules)
                for path in args.datasets]
    report = bench.run_bench(
        datasets, _names(args.solvers), time_limit=args.time_limit, jobs=args.jobs,
        options=per_solver_options(args.option), csv_path=files.get("csv"), json_path=files.get("jsonl"),
        json_lines=sys.stdout if args.json else None, progress=not args.quiet, by_solver=args.by_solver,
        cluster=args.cluster, batch_size=args.batch_size, configs=_configs(args),
    )
    if report.skipped and not report.summaries:
        name, why = next(iter(next(iter(report.skipped.values())).items()))
        raise UnsupportedFeature(f"bench: no solver could run: {name} {why}")
    render_bench(report, console(stderr=args.json, wide=args.wide), wide=args.wide)
    if plot is not None:
        from ..ui.plots import cactus_plot

        cactus_plot(report.solved_times, plot.path, totals=report.totals, time_limit=args.time_limit,
                    counts=report.solved_counts, lines="configuration" if report.configured else "solver")
    if report.wrong:
        raise SolverBug(f"{report.wrong} wrong answers (each shown above on stderr with its puzzle)")
    return ExitCode.OK


BENCH_SUFFIXES = {".csv": "csv", ".jsonl": "jsonl", ".png": "plot", ".svg": "plot", ".pdf": "plot"}
"""``bench --output FILE``: what the file's suffix makes it (per-puzzle rows as CSV or JSON Lines, the cactus plot)."""


def bench_outputs(args: argparse.Namespace) -> dict[str, str]:
    """``bench``'s output files by kind ("csv", "jsonl", "plot"), from ``--output`` (the suffix says the
    format) and the deprecated spellings ``--out FILE`` (CSV) and ``--plot FILE``."""
    files: dict[str, str] = {}
    for path in args.output or ():
        kind = BENCH_SUFFIXES.get(Path(path).suffix.lower())
        if kind is None:
            raise UsageError(f"bench: --output {path}: the name must end in {', '.join(BENCH_SUFFIXES)} "
                             "(per-puzzle rows as CSV or JSON Lines, or the cactus plot)")
        if kind in files:
            raise UsageError(f"bench: two --output files of the same kind: {files[kind]} and {path}")
        files[kind] = path
    for old, kind in (("out", "csv"), ("plot", "plot")):
        path = getattr(args, old, None)
        if path is not None:
            _deprecated(f"--{old} FILE", f"--output {path if kind != 'csv' or path.endswith('.csv') else 'FILE.csv'}")
            if kind in files:
                raise UsageError(f"bench: --{old} {path} and --output {files[kind]} name the same output")
            files[kind] = path
    return files


def _deprecated(old: str, new: str) -> None:
    print(f"sudokulab: warning: {old} is deprecated: write {new}", file=sys.stderr)


def cmd_generate(args: argparse.Namespace) -> int:
    import random
    from contextlib import nullcontext

    from ..core.grid import Shape
    from ..formats.boj import MAX_SIZE
    from ..formats.outputs import OutputFile
    from ..runs import generate as gen

    if args.size > MAX_SIZE:
        raise UsageError(f"a {args.size}x{args.size} board is larger than the {MAX_SIZE}x{MAX_SIZE} supported")
    shape = Shape(*parse_box(args.box)) if args.box else Shape.of_size(args.size)
    if shape.n != args.size:
        raise UsageError(f"box {args.box} does not fit a {args.size}x{args.size} board")
    try:
        target = gen.clues_for(shape, args.clues, args.fraction, args.unique)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    options = dataset_rules(args)
    variant = {} if options is None else {"rules": options.for_shape(shape)}  # bad rules data: refused here
    output = OutputFile(args.output) if args.output not in (None, "-") else None  # checked before the work
    seed = args.seed
    if args.cluster:
        from ..execution.cluster import connect

        cluster = connect(args.cluster)  # before any output: a bad address is refused with nothing written
    else:
        cluster = None
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
        print(f"sudokulab: seed {seed} (give --seed {seed} to generate the same puzzles)", file=sys.stderr)
    short: list[int] = []
    from ..ui.progress import progress

    show = not args.quiet and sys.stderr.isatty()
    with cluster or nullcontext(), output if output is not None else _Stdout() as stream, \
            progress(args.count, enabled=show, label="puzzles") as bar:
        cells = bar.add_task("cells blanked", total=None, tally="")

        def blanked(done: int, wanted: int) -> None:
            bar.update(cells, completed=done, total=wanted or None)

        for number, made in enumerate(gen.generate(shape, args.count, clues=target, unique=args.unique, seed=seed,
                                                   progress=blanked if show and cluster is None else None,
                                                   per_puzzle_seeds=args.per_puzzle_seeds, cluster=cluster,
                                                   **variant)):
            if args.json:
                documents.emit_line(made.to_json(number))
                sys.stdout.flush()
            if output is not None or not args.json:
                stream.write(gen.dataset_text(made.puzzle))
            bar.update(bar.task_ids[0], advance=1)
            if made.short:
                short.append(made.clues)
    if short:
        print(f"sudokulab: warning: {len(short)} of {args.count} puzzles cannot go below {target} clues and stay "
              f"unique; they stopped at {min(short)}..{max(short)} clues", file=sys.stderr)
    return ExitCode.OK


class _Stdout:
    """Standard output as an output of ``generate``: each puzzle flushed as it is made."""

    def __enter__(self) -> _Stdout:
        return self

    def __exit__(self, *exc_info: object) -> None:
        pass

    def write(self, text: str) -> None:
        sys.stdout.write(text)
        sys.stdout.flush()


def cmd_decode(args: argparse.Namespace) -> int:
    """A SAT solver's answer to an exported formula, as the BOJ answer (after the independent checker)."""
    from ..core.puzzle import solution_error
    from ..models.dimacs import Exported, decode_model, parse_answer, read_header
    from ..verdicts.verify import MAX_ANSWER_BYTES

    if args.cnf is not None:
        if args.answer is not None:
            raise UsageError("decode: give the puzzle or --cnf, not both")
        if any(rule_options(args).values()):
            raise UsageError("decode: with --cnf the rules are the formula's own (its header): drop --rules, "
                             "--regions, --cages and --thermos")
        exported = read_header(read_text(args.cnf, 256 << 20), source_name(args.cnf))
        answer_source = args.first
    else:
        if args.answer is None:
            raise UsageError("decode: give PUZZLE and the solver's ANSWER, or ANSWER --cnf FORMULA")
        exported = Exported(load(args, args.first), args.encoding, args.amo)
        answer_source = args.answer
    if args.first == "-" and args.answer == "-":
        raise UsageError("decode: the puzzle and the answer cannot both come from standard input")
    answer = parse_answer(read_text(answer_source, 64 * MAX_ANSWER_BYTES), source_name(answer_source))
    if answer.status == "UNSAT":
        raise NoSolution("no solution: the SAT solver says UNSATISFIABLE")
    if answer.status == "UNKNOWN":
        raise TimeLimitReached("the SAT solver says UNKNOWN: it gave up before an answer")
    grid = decode_model(exported, answer.model)
    problem = solution_error(grid, exported.puzzle)
    if problem:
        raise SolverBug(f"the model is not a solution of the puzzle: {problem}")
    answer_text = format_grid(grid, exported.puzzle.n)
    if args.json:
        documents.emit({**documents.puzzle_fields(exported.puzzle), "encoding": exported.encoding,
                        "amo": exported.amo, "status": Status.SOLVED.value, "answer": answer_text,
                        "grid": documents.grid_rows(grid, exported.puzzle.n)})
    else:
        out(answer_text)
    return ExitCode.OK


def cmd_datasets(args: argparse.Namespace) -> int:
    from ..datasets import catalog

    if args.action == "list":
        from ..ui.console import console
        from .render import render_datasets

        folder = catalog.data_folder() if _has_folder() else None
        rows = [(s, folder / s.filename if folder is not None and (folder / s.filename).is_file() else None)
                for s in catalog.SETS.values()]
        if args.json:
            documents.emit({"folder": None if folder is None else str(folder), "sets": [
                {"name": s.name, "puzzles": s.puzzles, "what": s.what, "url": s.url, "member": s.member,
                 "sha256": s.sha256, "fetched": stored is not None, "path": None if stored is None else str(stored)}
                for s, stored in rows]})
            return ExitCode.OK
        render_datasets(rows, folder, console(wide=args.wide), wide=args.wide)
        return ExitCode.OK
    if args.action == "path":
        where = catalog.path(args.name)
        if args.json:
            documents.emit({"name": args.name, "path": str(where)})
        else:
            out(f"{where}\n")
        return ExitCode.OK
    names = catalog.names() if "all" in args.names else args.names
    from ..ui.progress import download_progress

    with download_progress(enabled=not args.quiet and sys.stderr.isatty()) as bar:
        fetched = catalog.fetch(names, progress=bar)
    if args.json:
        documents.emit({"fetched": [{"name": item.name, "path": str(item.path), "downloaded": item.downloaded}
                                    for item in fetched]})
        return ExitCode.OK
    for item in fetched:
        out(f"{item.name}: {item.path}{'' if item.downloaded else ' (already there)'}\n")
    return ExitCode.OK


def _has_folder() -> bool:
    """Whether the data folder can be named (``SUDOKULAB_DATA``, or pooch to find the cache folder)."""
    import importlib.util
    import os

    from ..datasets.catalog import FOLDER_ENV

    return bool(os.environ.get(FOLDER_ENV, "").strip()) or importlib.util.find_spec("pooch") is not None


def cmd_completion(args: argparse.Namespace) -> int:
    try:
        import shtab
    except ImportError:
        raise UsageError("completion needs the 'shtab' package: pip install shtab") from None
    from .main import build_parser

    script = shtab.complete(build_parser(), shell=args.shell)
    if args.json:
        documents.emit({"shell": args.shell, "script": script})
    else:
        out(script)
    return ExitCode.OK
