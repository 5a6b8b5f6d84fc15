"""Per-call cost of ``sat`` and ``cpsat``: the bare engine against our paths, side by side, in one run.

Issue 17 asks how much of the time of a ``sat`` or ``cpsat`` solve is the engine's and how much is
ours (assumptions, decoding, stats, result objects). On 17_clue (or its first ``--limit`` puzzles)
this measures, in one process, each path on a fresh engine (a shared CaDiCaL slows down as it
learns, so every path starts from the same state and sees the same puzzles in the same order):

- SAT, bare: a loop of PySAT ``solve_limited`` calls on our formula (``solvers.sat.cnf.rules``, extended,
  pairwise) with the assumptions prepared beforehand, for CaDiCaL 1.9.5 (``sat``'s default engine)
  and 1.5.3; then the same loop reading each model (``get_model``), the floor of any path that
  returns a grid; both also with a fresh engine every ``sat.RENEW_AFTER`` puzzles, as ``sat`` does;
- SAT, ours: ``SatSolver.solve`` per puzzle (puzzles parsed beforehand) and ``SatSolver.solve_batch``
  over the givens array in batches of ``--batch-size``;
- CP-SAT: the sum of CP-SAT's own reported ``wall_time`` against the wall time of a bare loop of
  ``SolveWrapper.solve`` on the prepared model, of ``CpSatSolver.solve`` per puzzle and of
  ``CpSatSolver.solve_batch`` (first ``--cpsat-limit`` puzzles).

``solve_batch`` runs in batches of ``--batch-size`` (512, bench's default for 9x9), for SAT also with
a time limit of 10 s a puzzle (bench's default), which takes the budget-slice path.

The paths take turns, in reverse order every other round (``--rounds``); the table gives each
path's best round and the load average when it started. Only the loop is timed; every answer is
checked after it (``grid.is_solution``). ``--study`` adds the CP-SAT parameter and model study
(CP-SAT's own time on prepared models, 17_clue, magictour_top1465, forum_hardest_1106), and
``--whole-process`` times ``sudokulab bench --solvers sat --by-solver`` end to end in a subprocess.

    .venv/bin/python benchmarks/per_call.py --rounds 2 --study \
        --whole-process "--solvers sat --by-solver --quiet" \
        --whole-process "--solvers cpsat --by-solver --quiet --limit 2000"   # what made results/per-call.md
    .venv/bin/python benchmarks/per_call.py --limit 2000 --rounds 1          # a quick look

17_clue and the study's sets are found by the catalogue (or in ``--data DIR``).
"""

from __future__ import annotations

import argparse
import json
import resource
import shlex
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from harness import OUT, RESULTS, command_line, dataset, load, machine, timer, write_results
from ortools.sat.python import cp_model_helper as cmh
from pysat.solvers import Solver

from sudokulab import Puzzle, Shape, is_solution
from sudokulab.solvers.batch import SOLVED
from sudokulab.solvers.cpsat.model import Prepared
from sudokulab.solvers.cpsat.solver import TUNED, CpSatSolver
from sudokulab.solvers.sat import cnf
from sudokulab.solvers.sat import literals as cnf_literals
from sudokulab.solvers.sat.solver import RENEW_AFTER, SatSolver

SHAPE = Shape(3, 3)
BENCH_LIMIT = 10.0
"""``sudokulab bench``'s default time limit: its batches take the budget-slice path."""
MINISAT = "MiniSat with a complete CNF encoding driven from C++ (tdoku's benchmark; ../shared/data/README.md)"


@dataclass
class Row:
    path: str
    puzzles: int
    seconds: float
    """Wall time of the timed loop."""
    load: float
    cpu: float
    """CPU time of the process during the loop (other work on the machine slows it less than wall time)."""
    own: float | None = None
    """CP-SAT's own reported wall time, summed (CP-SAT rows only)."""

    @property
    def rate(self) -> float:
        return self.puzzles / self.seconds

    @property
    def cpu_rate(self) -> float:
        return self.puzzles / self.cpu


def set_file(data: Path | None, name: str, limit: int | None) -> Path:
    """The file of a set holding its first ``limit`` puzzles (``harness.dataset``); exits when it is not here."""
    path = dataset(name, limit, data)
    if path is None:
        raise SystemExit(2)
    return path


def read_set(path: Path, limit: int | None) -> np.ndarray:
    """The first ``limit`` puzzles of a 9x9 set as a (k, 81) uint8 array."""
    lines = path.read_text().split()[:limit]
    raw = np.frombuffer("".join(lines).encode(), dtype=np.uint8).reshape(len(lines), 81)
    digits = raw - ord("0")
    return np.where(digits <= 9, digits, 0).astype(np.uint8)  # "." and "0" are blanks


def checked(givens: np.ndarray, grids: list[tuple[int, ...]] | np.ndarray, label: str) -> None:
    """Every answer through the independent checker (outside the timed loop)."""
    for row, grid in zip(givens.tolist(), grids):
        if not is_solution(tuple(int(v) for v in grid), Puzzle(SHAPE, tuple(row))):
            raise SystemExit(f"{label}: a wrong answer")


# --- SAT paths ------------------------------------------------------------------------------------

def sat_assumptions(givens: np.ndarray) -> list[list[int]]:
    flat, offsets = cnf_literals.literal_arrays(9).assumptions(givens)
    return [flat[offsets[i]:offsets[i + 1]] for i in range(len(givens))]


def bare(engine: str, read_model: bool, renew: int = 0) -> Callable[[np.ndarray], Row]:
    """A loop of ``solve_limited`` calls on one engine (a fresh one every ``renew`` puzzles, as ``sat``)."""
    clauses = cnf.rules(SHAPE, "extended", "pairwise").clauses
    every = renew or 1 << 62

    def run(givens: np.ndarray) -> Row:
        assumptions = sat_assumptions(givens)
        parts = [assumptions[i:i + every] for i in range(0, len(assumptions), every)]
        at = load()
        with timer() as took:
            for part in parts:
                with Solver(name=engine, bootstrap_with=clauses) as solver:
                    solve, model = solver.solve_limited, solver.get_model
                    if read_model:
                        for a in part:
                            solve(a)
                            model()
                    else:
                        for a in part:
                            solve(a)
        label = f"bare `solve_limited` loop, {engine}" + (" + `get_model`" if read_model else "")
        label += f", a fresh engine every {renew:,} puzzles" if renew else ""
        return Row(label, len(givens), took[0].wall, at, took[0].cpu)
    return run


def sat_solve(givens: np.ndarray) -> Row:
    puzzles = [Puzzle(SHAPE, tuple(row)) for row in givens.tolist()]
    with SatSolver() as solver:
        at = load()
        with timer() as took:
            results = [solver.solve(p) for p in puzzles]
    checked(givens, [r.grid for r in results], "SatSolver.solve")
    return Row("`SatSolver.solve` per puzzle", len(givens), took[0].wall, at, took[0].cpu)


def batched(solver_cls: type, size: int, time_limit: float | None = None) -> Callable[[np.ndarray], Row]:
    def run(givens: np.ndarray) -> Row:
        with solver_cls() as solver:
            at = load()
            with timer() as took:
                parts = [solver.solve_batch(givens[i:i + size], SHAPE, time_limit=time_limit)
                         for i in range(0, len(givens), size)]
        grids = np.concatenate([p.grids for p in parts])
        if not all((p.status == SOLVED).all() for p in parts):
            raise SystemExit(f"{solver_cls.__name__}.solve_batch: a puzzle not solved")
        checked(givens, grids, f"{solver_cls.__name__}.solve_batch")
        own = float(sum(p.stats["wall_time"].sum() for p in parts)) if "wall_time" in parts[0].stats else None
        limit = "" if time_limit is None else f", time limit {time_limit:g} s a puzzle"
        return Row(f"`{solver_cls.__name__}.solve_batch`, batches of {size:,}{limit}", len(givens), took[0].wall, at,
                   took[0].cpu, own)
    return run


# --- CP-SAT paths ---------------------------------------------------------------------------------

def cp_bare(givens: np.ndarray) -> Row:
    solver = CpSatSolver()  # its parameters for a plain solve, run without the solver around them
    params = solver._settings["solve"]
    prepared = Prepared(SHAPE, booleans=solver.model == "booleans")
    rows = givens.tolist()
    own, grids = 0.0, []
    at = load()
    with timer() as took:
        for row in rows:
            wrapper = cmh.SolveWrapper()
            wrapper.set_parameters(params)
            response = wrapper.solve(prepared.set_givens(row))
            own += response.wall_time
            grids.append(prepared.decode(response.solution, row))
    checked(givens, grids, "bare CP-SAT")
    return Row("bare `SolveWrapper.solve` loop on the prepared model, grid read", len(givens), took[0].wall, at,
               took[0].cpu, own)


def cp_solve(givens: np.ndarray) -> Row:
    puzzles = [Puzzle(SHAPE, tuple(row)) for row in givens.tolist()]
    with CpSatSolver() as solver:
        at = load()
        with timer() as took:
            results = [solver.solve(p) for p in puzzles]
    checked(givens, [r.grid for r in results], "CpSatSolver.solve")
    own = sum(float(r.stats["wall_time"]) for r in results)
    return Row("`CpSatSolver.solve` per puzzle", len(givens), took[0].wall, at, took[0].cpu, own)


def alternate(paths: list[Callable[[np.ndarray], Row]], givens: np.ndarray, rounds: int) -> list[Row]:
    """Every path ``rounds`` times, in reverse order every other round; each path's best round."""
    best: dict[int, Row] = {}
    for r in range(rounds):
        order = list(range(len(paths)))[:: 1 if r % 2 == 0 else -1]
        for i in order:
            row = paths[i](givens)
            print(f"  round {r + 1}: {row.path}: {row.rate:,.0f}/s, {row.cpu_rate:,.0f}/cpu-s (load {row.load:.2f})",
                  file=sys.stderr, flush=True)
            if i not in best or row.seconds < best[i].seconds:
                best[i] = row
    return [best[i] for i in range(len(paths))]


# --- the CP-SAT parameter and model study ---------------------------------------------------------

STUDY: dict[str, tuple[bool, dict[str, object]]] = {
    "AllDifferent, presolve on, TUNED (the default before)": (False, {**TUNED}),
    "AllDifferent, presolve on, CP-SAT defaults": (False, {}),
    "AllDifferent, presolve off, TUNED": (False, {**TUNED, "cp_model_presolve": False}),
    "AllDifferent, presolve on, TUNED, probing 0": (False, {**TUNED, "cp_model_probing_level": 0}),
    "Booleans, presolve on, TUNED": (True, {**TUNED}),
    "Booleans, presolve off, TUNED (the default now)": (True, {**TUNED, "cp_model_presolve": False}),
    "Booleans, presolve off, CP-SAT defaults": (True, {"cp_model_presolve": False}),
    "Booleans, presolve off, TUNED, SAT inprocessing on": (True, {**TUNED, "cp_model_presolve": False,
                                                                   "use_sat_inprocessing": True}),
    "Booleans, presolve off, TUNED, linearization 1": (True, {**TUNED, "cp_model_presolve": False,
                                                              "linearization_level": 1}),
    "Booleans, presolve off, TUNED, symmetry 2": (True, {**TUNED, "cp_model_presolve": False, "symmetry_level": 2}),
}
STUDY_SETS = (("17_clue", None), ("magictour_top1465", 500), ("forum_hardest_1106", 375))


def study(data: Path | None, limit_17: int) -> list[str]:
    lines = ["| set | model and parameters | puzzles | CP-SAT's own puzzles/s | around `solve`/s | branches |"
             " load |", "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    for s, (name, limit) in enumerate(STUDY_SETS):
        givens = read_set(set_file(data, name, limit or limit_17), limit or limit_17).tolist()
        labels = list(STUDY)[:: 1 if s % 2 == 0 else -1]
        rows = {}
        for label in labels:
            booleans, settings = STUDY[label]
            params = cmh.SatParameters()
            params.num_workers, params.random_seed, params.catch_sigint_signal = 1, 0, False
            for key, value in settings.items():
                setattr(params, key, value)
            prepared = Prepared(SHAPE, booleans=booleans)
            own = around = 0.0
            branches = 0
            at = load()
            answers = []
            for row in givens:
                model = prepared.set_givens(row)
                with timer() as took:
                    wrapper = cmh.SolveWrapper()
                    wrapper.set_parameters(params)
                    response = wrapper.solve(model)
                around += took[0].wall
                own += response.wall_time
                branches += response.num_branches
                answers.append(prepared.decode(response.solution, row))
            checked(np.array(givens, dtype=np.uint8), answers, label)
            k = len(givens)
            rows[label] = (f"| {name} | {label} | {k:,} | {k / own:,.0f} | {k / around:,.0f} | {branches / k:,.1f} |"
                           f" {at:.2f} |")
            print(f"  {rows[label]}", file=sys.stderr, flush=True)
        lines += [rows[label] for label in STUDY]
    return lines


# --- the whole process ------------------------------------------------------------------------------

def whole_process(data: Path | None, limit: int | None, args: list[str]) -> dict[str, object]:
    """``sudokulab bench`` on 17_clue (or a file of its first ``limit`` puzzles), timed end to end in a
    subprocess; for cpsat its per-puzzle JSON rows give CP-SAT's own time."""
    source = subset = set_file(data, "17_clue", limit)
    OUT.mkdir(exist_ok=True)
    if limit:
        subset = OUT / f"17_clue-{limit}.txt"
        subset.write_text("\n".join(source.read_text().split()[:limit]) + "\n")
    rows_file = OUT / "per-call-whole.jsonl"
    rows_file.unlink(missing_ok=True)
    rows_args = ["--output", str(rows_file)] if "cpsat" in " ".join(args) else []  # only where CP-SAT's time is read
    argv = [str(Path(sys.executable).with_name("sudokulab")), "bench", str(subset), *args, *rows_args]
    at = load()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)  # the child's CPU: the harness's timer counts this process
    with timer() as took:
        done = subprocess.run(argv, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    rows = [json.loads(line) for line in rows_file.read_text().splitlines()] if rows_file.exists() else []
    puzzles = len(rows) or len(subset.read_text().split())
    if not rows and "--limit" in args:
        puzzles = min(puzzles, int(args[args.index("--limit") + 1]))
    summary = next((line for line in done.stdout.splitlines() if line.startswith("measured:")), "")
    return {"command": shlex.join(["sudokulab", "bench", subset.name, *args, *rows_args[:1],
                                   *(rows_file.name for _ in rows_args[1:])]),
            "seconds": took[0].wall, "cpu": cpu, "load": at, "code": done.returncode, "puzzles": puzzles,
            "own": sum(row["stats"].get("wall_time", 0.0) for row in rows) or None,
            "summary": summary}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, help="folder of the sets (default: the catalogue's)")
    parser.add_argument("--limit", type=int, default=0, help="first puzzles of 17_clue for the SAT paths (0: all)")
    parser.add_argument("--cpsat-limit", type=int, default=2_000, help="first puzzles of 17_clue for the CP-SAT paths")
    parser.add_argument("--batch-size", type=int, default=512, help="puzzles per batch (bench's default for 9x9)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--study", action="store_true", help="add the CP-SAT parameter and model study")
    parser.add_argument("--study-limit", type=int, default=2_000, help="first puzzles of 17_clue in the study")
    parser.add_argument("--whole-process", action="append", default=[], metavar="ARGS",
                        help="also time `sudokulab bench SUBSET ARGS` end to end (repeatable), e.g. '--solvers sat"
                        " --by-solver --quiet'")
    parser.add_argument("--whole-limit", type=int, default=0,
                        help="puzzles of 17_clue in the file the whole-process runs read (default 0: the whole set)")
    parser.add_argument("--out-dir", type=Path, default=RESULTS, help="where per-call.md goes (default: results/)")
    args = parser.parse_args(argv)

    measured_on = machine()
    givens = read_set(set_file(args.data, "17_clue", args.limit or None), args.limit or None)
    print("SAT paths", file=sys.stderr)
    sat_rows = alternate([bare("cadical195", False), bare("cadical153", False), bare("cadical195", True),
                          bare("cadical195", False, RENEW_AFTER), bare("cadical195", True, RENEW_AFTER), sat_solve,
                          batched(SatSolver, args.batch_size), batched(SatSolver, args.batch_size, BENCH_LIMIT)],
                         givens, args.rounds)
    print("CP-SAT paths", file=sys.stderr)
    cp_rows = alternate([cp_bare, cp_solve, batched(CpSatSolver, args.batch_size)], givens[: args.cpsat_limit],
                        args.rounds)
    study_lines = study(args.data, args.study_limit) if args.study else []
    whole = [whole_process(args.data, args.whole_limit or None, shlex.split(extra)) for extra in args.whole_process]
    load_end = load()

    reference, cpu_reference = sat_rows[0].rate, sat_rows[0].cpu_rate
    out = [
        "How measured: one process; each path on a fresh engine or solver (a shared CaDiCaL slows down as it"
        " learns, so every path starts from the same state and sees the same puzzles in the same order);"
        f" {args.rounds} round(s), the paths in reverse order every other round, each path's best round (least"
        " wall time) shown with the one-minute load average when it started, and puzzles per CPU-second of the"
        " process during the loop (other work on the machine slows wall time far more than CPU time). Only the"
        " loop is timed (puzzles parsed and assumptions prepared before); every answer is checked after it by"
        " `grid.is_solution`.", "",
        f"## SAT: {'the first ' if args.limit else 'all '}{len(givens):,} puzzles of 17_clue", "",
        "| path | puzzles/s | µs per puzzle | of the bare cadical195 loop | puzzles/cpu-s | of the bare loop's"
        " | load |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
        *(f"| {r.path} | {r.rate:,.0f} | {1e6 / r.rate:,.1f} | {r.rate / reference:.0%} | {r.cpu_rate:,.0f} |"
          f" {r.cpu_rate / cpu_reference:.0%} | {r.load:.2f} |" for r in sat_rows),
        "",
        f"{MINISAT} ran 17_clue at ~2,200 puzzles/s and ~5,154 puzzles/s on two days on this machine kind; it"
        " cannot be rebuilt here (no tdoku sources), so those published figures stand for it.",
        "",
        f"## CP-SAT: the first {min(args.cpsat_limit, len(givens)):,} puzzles of 17_clue", "",
        "*own*: puzzles over the sum of CP-SAT's reported `wall_time`; *ours*: puzzles over the wall time of"
        " the loop; *share*: own time / loop time. Solver defaults (the Boolean model, presolve off, `TUNED`).",
        "",
        "| path | own puzzles/s | ours puzzles/s | share | ours puzzles/cpu-s | load |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
        *(f"| {r.path} | {r.puzzles / r.own:,.0f} | {r.rate:,.0f} | {r.own / r.seconds:.0%} | {r.cpu_rate:,.0f} |"
          f" {r.load:.2f} |" for r in cp_rows if r.own),
    ]
    if study_lines:
        out += ["", "## CP-SAT parameters and model shape", "",
                f"CP-SAT's own time on prepared models, one worker, seed 0, a `SolveWrapper` per puzzle as the solver"
                f" runs it; first {args.study_limit:,} puzzles of 17_clue, 500 of magictour_top1465, the 375 of"
                " forum_hardest_1106; configurations in reverse order on every other set; every answer checked."
                " *around `solve`*: puzzles over the wall time of the `SolveWrapper` calls. `TUNED`: "
                + ", ".join(f"`{k}: {v}`" for k, v in TUNED.items()) + ".", "", *study_lines]
    if whole:
        out += ["", "## The whole process", "",
                "`sudokulab bench` on 17_clue"
                + (f" (a file of its first {args.whole_limit:,} puzzles)" if args.whole_limit else "")
                + ", timed end to end"
                " (the harness's `timer` around the subprocess: start-up, reading, solving, checking, writing the"
                " JSON rows it is asked for; CPU seconds of the child from `getrusage`), against the plain bare"
                " cadical195 loop above (one engine for the whole run); *own*: CP-SAT's reported `wall_time` summed"
                " from the JSON rows.", "",
                "| command | puzzles | seconds | puzzles/s | of the bare cadical195 loop | CPU seconds"
                " | puzzles/cpu-s | of the bare loop's | own / whole | exit | load |",
                "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
        for w in whole:
            rate, cpu_rate = w["puzzles"] / w["seconds"], w["puzzles"] / w["cpu"]
            share = f"{w['own'] / w['seconds']:.0%}" if w["own"] else ""
            out.append(f"| `{w['command']}` | {w['puzzles']:,} | {w['seconds']:.2f} | {rate:,.0f} |"
                       f" {rate / reference:.0%} | {w['cpu']:.2f} | {cpu_rate:,.0f} | {cpu_rate / cpu_reference:.0%} |"
                       f" {share} | {w['code']} | {w['load']:.2f} |")
        out += ["", "bench's own closing lines:", "", *(f"- {w['summary']}" for w in whole)]
    out += ["", f"Load average {load_end:.2f} at the end."]
    written = write_results("per-call.md", "Per-call cost of `sat` and `cpsat` (issue 17)", "\n".join(out),
                            how=f"Made by `{command_line(__file__, argv)}`.", measured_on=measured_on,
                            folder=args.out_dir)
    print(f"wrote {written}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
