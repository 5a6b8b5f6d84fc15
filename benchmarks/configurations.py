"""Configurations of one solver side by side: the same puzzles, one process, ``run_bench`` per configuration.

Each study names a solver and a list of its options (as ``sudokulab.solvers`` declares them). For
each set, every configuration is one ``sudokulab.bench.run.run_bench`` call with
``options={solver: configuration}`` on the same puzzles, the configurations taking turns set by set
(in reverse order on every other set, so a drift of the machine's load does not always favour the
same one). ``--rounds 2`` runs every set twice, for a reader who wants to see the noise.

Studies (``--studies``, default all):

- ``sat-encodings``: ``sat`` under each CNF encoding and at-most-one encoding;
- ``sat-engines``: ``sat`` on each PySAT engine (CNF encoding ``auto``);
- ``cpsat-tuning``: ``cpsat`` as shipped (its ``TUNED`` parameters) against CP-SAT's defaults
  for those parameters (through the solver's public ``parameters`` option), then the model
  set-up step alone: ``sudokulab.solvers.cpsat.model.build_model(puzzle)`` (a fresh model per puzzle)
  against ``Prepared(shape).set_givens(givens)`` (the solver's way), the harness's ``timer`` over
  ``--setup-puzzles`` puzzles, best of three alternating rounds.

Figures per configuration: puzzles/s of solve time (the solver's own ``seconds``), puzzles/cpu-s,
and the *whole path*: puzzles over the wall time of the whole ``run_bench`` call (solver set-up,
reading and parsing the lines, solving, decoding, checking every answer). Configurations that
build a formula per puzzle (``reduced``, and ``kissat404``, which has no incremental interface)
run at most ``--fresh-limit`` puzzles a set. The sets are found by the catalogue (or in ``--data DIR``).
Writes ``<study>.md`` under ``--out-dir`` (``results/``).

    .venv/bin/python benchmarks/configurations.py                         # every study, 1,000 a set
    .venv/bin/python benchmarks/configurations.py --studies cpsat-tuning --limit 300
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness import RESULTS, command_line, dataset, load, machine, timer, write_results

from sudokulab.bench import run as bench
from sudokulab.errors import ExitCode
from sudokulab.ui.tables import effort, format_seconds

SETS = ("17_clue", "magictour_top1465", "forum_hardest_1106")
ENCODINGS = ("auto", "minimal", "efficient", "extended", "reduced")
AMOS = ("pairwise", "seqcounter", "ladder")
ENGINES = ("cadical195", "cadical153", "glucose4", "minisat22", "maplesat", "lingeling", "kissat404")
FRESH = {"encoding": {"reduced"}, "engine": {"kissat404"}}
"""Option values that build a new formula for every puzzle: slow, so they run on fewer puzzles."""


@dataclass(frozen=True)
class Study:
    """One solver under several configurations."""

    name: str
    solver: str
    title: str
    configurations: tuple[Mapping[str, Any], ...]


def cpsat_defaults() -> str:
    """The ``parameters`` text that sets every parameter ``cpsat`` tunes back to CP-SAT's default."""
    from ortools.sat import sat_parameters_pb2

    from sudokulab.solvers.cpsat.solver import TUNED

    defaults = sat_parameters_pb2.SatParameters()
    values = {key: getattr(defaults, key) for key in TUNED}
    return " ".join(f"{key}: {str(value).lower() if isinstance(value, bool) else value}"
                    for key, value in values.items())


def studies() -> dict[str, Study]:
    return {study.name: study for study in (
        Study("sat-encodings", "sat", "`sat` under each CNF and at-most-one encoding",
              ({},) + tuple({"encoding": e, "amo": a} for e in ENCODINGS[1:] for a in AMOS)),
        Study("sat-engines", "sat", "`sat` on each PySAT engine", tuple({"engine": e} for e in ENGINES)),
        Study("cpsat-tuning", "cpsat", "`cpsat` as shipped against CP-SAT's defaults for the parameters it tunes",
              ({}, {"parameters": cpsat_defaults()})),
    )}


def label(configuration: Mapping[str, Any]) -> str:
    if not configuration:
        return "as shipped (defaults)"
    if "parameters" in configuration:
        return "CP-SAT defaults for the tuned parameters"
    return ", ".join(f"{key}={value}" for key, value in configuration.items())


def fresh(configuration: Mapping[str, Any]) -> bool:
    return any(configuration.get(key) in values for key, values in FRESH.items())


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, help="folder of the sets (default: the catalogue's)")
    parser.add_argument("--sets", default=",".join(SETS), help="comma-separated set names (default: %(default)s)")
    parser.add_argument("--studies", default=None, help="comma-separated (default: all of them)")
    parser.add_argument("--limit", type=int, default=1000, help="puzzles a set (default: 1000)")
    parser.add_argument("--fresh-limit", type=int, default=300,
                        help="puzzles a set for configurations without incremental solving (default: 300)")
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds per puzzle (default: 10)")
    parser.add_argument("--rounds", type=int, default=1, help="times each set is run (default: 1)")
    parser.add_argument("--setup-puzzles", type=int, default=2000,
                        help="puzzles for the CP-SAT model set-up measurement (default: 2000)")
    parser.add_argument("--out-dir", type=Path, default=RESULTS, help="where the studies go (default: results/)")
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    known = studies()
    args.chosen = [known[name] for name in (args.studies.split(",") if args.studies else known) if name in known]
    unknown = set(args.studies.split(",") if args.studies else ()) - set(known)
    if unknown:
        parser.error(f"unknown studies {', '.join(sorted(unknown))}; choose from {', '.join(known)}")
    if args.rounds < 1 or args.limit < 1 or args.fresh_limit < 1:
        parser.error("--rounds, --limit and --fresh-limit must be at least 1")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    names = [name for name in args.sets.split(",") if name]
    found = {name: dataset(name, args.limit, args.data) for name in names}
    present = {name: path for name, path in found.items() if path is not None}
    if not present:
        print(f"configurations: no dataset found, nothing measured: fetch {', '.join(names)} "
              "('sudokulab datasets fetch'), or pass --data DIR", file=sys.stderr)
        return ExitCode.BAD_INPUT
    wrong = 0
    for study in args.chosen:
        measured_on = machine()
        text, found_wrong = run_study(args, study, present)
        if study.name == "cpsat-tuning":
            first = next(iter(present))
            path = dataset(first, args.setup_puzzles, args.data)
            text += setup_cost(path, args.setup_puzzles) if path is not None else [
                "", f"Model set-up alone: not measured ({first} holds fewer than {args.setup_puzzles} puzzles here)."]
        wrong += found_wrong
        written = write_results(f"{study.name}.md", study.title, "\n".join(text),
                                how=f"Made by `{command_line(__file__, args.argv)}`.", measured_on=measured_on,
                                folder=args.out_dir)
        print(f"wrote {written}", file=sys.stderr)
    if wrong:
        print(f"{wrong} WRONG answers: see above", file=sys.stderr)
        return ExitCode.WRONG
    return ExitCode.OK


def run_study(args: argparse.Namespace, study: Study, sets: Mapping[str, Path]) -> tuple[list[str], int]:
    """Every configuration on every set, one ``run_bench`` call each; the report's lines and the wrong count."""
    text = [f"One process; each row is one `run_bench` call on the first puzzles of a set (configurations without "
            f"incremental solving: at most {args.fresh_limit}), time limit {args.time_limit:g} s a puzzle, every "
            "answer checked. *puzzles/s*: over the sum of the solver's own solve times; *whole path/s*: over the "
            "wall time of the call (solver set-up, read and parse, solve, decode, check). *load*: one-minute load "
            "average when the call started.\n",
            *([f"CP-SAT defaults for the tuned parameters: `parameters=\"{cpsat_defaults()}\"`.\n"]
              if study.solver == "cpsat" else []),
            "| set | configuration | puzzles | solved | t/o | wrong | puzzles/s | puzzles/cpu-s | whole path/s | "
            "median | max | mean effort per puzzle | load |",
            "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |"]
    wrong = 0
    turn = 0
    for round_ in range(args.rounds):
        for name, path in sets.items():
            order = list(study.configurations)
            if turn % 2:
                order.reverse()
            turn += 1
            rows = {}
            for configuration in order:
                limit = min(args.limit, args.fresh_limit) if fresh(configuration) else args.limit
                dataset = bench.Dataset.from_path(path, name=name, limit=limit)
                report = bench.run_bench([dataset], [study.solver], time_limit=args.time_limit,
                                         options={study.solver: configuration}, progress=False)
                wrong += report.wrong
                rows[label(configuration)] = row(name + (f" (round {round_ + 1})" if args.rounds > 1 else ""),
                                                 label(configuration), report)
                print(rows[label(configuration)], file=sys.stderr, flush=True)
            text += [rows[label(c)] for c in study.configurations]  # the table in the study's order
    text.append(f"\nLoad average {load():.2f} at the end.")
    return text, wrong


def row(dataset: str, configuration: str, report: bench.BenchReport) -> str:
    """One table row from a run of one solver on one dataset."""
    (s,) = report.summaries
    whole = s.puzzles / report.wall_seconds if report.wall_seconds > 0 else float("nan")
    return (f"| {dataset} | {configuration} | {s.puzzles:,} | {s.solved:,} | {s.timed_out} | {s.wrong} | "
            f"{s.per_second:,.0f} | {s.per_cpu_second:,.0f} | {whole:,.0f} | {format_seconds(s.median)} | "
            f"{format_seconds(s.max)} | {effort(s.means)} | {report.load:.2f} |")


def setup_cost(path: Path, count: int) -> list[str]:
    """Microseconds per puzzle to get a model ready to solve: a fresh model, or the prepared one re-pointed.

    A micro-measurement of the model API (``sudokulab.solvers.cpsat.model``), not of a solver: nothing is solved.
    """
    from sudokulab.solvers.cpsat.model import Prepared, build_model

    puzzles = [e.puzzle for e in bench.Dataset.from_path(path, limit=count).entries() if e.puzzle is not None]
    with timer() as once:
        prepared = Prepared(puzzles[0].shape)
    first = once[0].wall
    best = {"fresh": float("inf"), "prepared": float("inf")}
    for _ in range(3):  # alternating rounds; the best of each is the least disturbed by other work
        with timer() as fresh:
            for puzzle in puzzles:
                build_model(puzzle)
        best["fresh"] = min(best["fresh"], fresh[0].wall)
        with timer() as re_pointed:
            for puzzle in puzzles:
                prepared.set_givens(puzzle.givens)
        best["prepared"] = min(best["prepared"], re_pointed[0].wall)
    fresh_us, prepared_us = (best[k] / len(puzzles) * 1e6 for k in ("fresh", "prepared"))
    return ["", "## Model set-up alone\n",
            f"The first {len(puzzles):,} puzzles of {path.stem}, best of three alternating rounds, "
            f"the harness's `timer` around the loop, nothing solved; load average {load():.2f} after.\n",
            "| way | µs per puzzle |", "| --- | ---: |",
            f"| fresh: `build_model(puzzle)` | {fresh_us:,.1f} |",
            f"| prepared: `Prepared(shape).set_givens(puzzle.givens)`, the instance reused | {prepared_us:,.1f} |",
            f"| (once per shape: `Prepared(shape)`, rules included) | {first * 1e6:,.0f} |",
            "", f"Fresh / prepared: {fresh_us / prepared_us:,.0f}x."]


if __name__ == "__main__":
    sys.exit(main())
