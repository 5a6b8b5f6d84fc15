"""Classic CP through MiniZinc: the model text and its data, the export run by the real program, and the
``minizinc`` solver's answers, canonical runs, counts, statuses, options, stats and Ctrl-C, checked
against ``sat`` and ``backtrack`` under standard rules and every variant kind.

Tests that run the program skip with one line naming how to install it (``apt-get install minizinc flatzinc``).
The canonical reference is ``backtrack-fast`` (the ``fast`` fixture): it gives the classic backtracker's
answer, and quickly on empty variant boards (the classic search took minutes on the empty 9x9 jigsaw).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time

import pytest

from sudokulab import Puzzle, Shape, Status, UsageError, is_solution, parse_puzzle, solvers
from sudokulab.core.rules import KINDS, build
from sudokulab.solvers import export
from sudokulab.solvers.minizinc import solver as mzn
from sudokulab.solvers.minizinc.model import PROPAGATIONS, SEARCHES, data, model
from sudokulab.solvers.minizinc.solver import MiniZincSolver

from ..conftest import random_puzzle
from .test_cpsat import SHAPES, variant

WHY = MiniZincSolver.unavailable()
needs_program = pytest.mark.skipif(WHY is not None, reason=f"minizinc: {WHY}")

HARD = parse_puzzle("1.......9..67...2..8....4......75.3...5..2....6.3......9....8..6...4...1..25...6.")
HANG = 60  # seconds: a guard against a hang, not a speed claim


@pytest.fixture(scope="module")
def minizinc():
    if WHY is not None:
        pytest.skip(f"minizinc: {WHY}")
    with MiniZincSolver() as solver:
        yield solver


# --- the model text: what a person expects ------------------------------------------------------

def test_model_states_each_rule_kind_once_generic_over_the_data():
    text = model()
    assert ("constraint forall(g in index_set(groups))"
            "(all_different_int([cell[i] | i in groups[g]]) :: domain_propagation);") in text
    assert "cell[differ[p, 1]] != cell[differ[p, 2]]" in text
    assert "sum(i in cage_cells[k])(cell[i]) = cage_total[k]" in text
    assert "cell[thermo_steps[s, 1]] < cell[thermo_steps[s, 2]]" in text
    assert "solve :: int_search(cell, input_order, indomain_min) satisfy;" in text
    assert "int: n;" in text and "include" not in text  # the builtin is declared, globals.mzn not included


@pytest.mark.parametrize("propagation, annotation", [("value", ""), ("bounds", " :: bounds_propagation"),
                                                    ("domain", " :: domain_propagation")])
def test_propagation_and_search_pick_the_annotations(propagation, annotation):
    text = model("first_fail", propagation)
    assert f"all_different_int([cell[i] | i in groups[g]]){annotation});" in text
    assert "int_search(cell, first_fail, indomain_min)" in text


def test_bad_model_options_are_one_line():
    with pytest.raises(UsageError, match="unknown search 'random'; choose one of: input_order"):
        model("random")
    with pytest.raises(UsageError, match="unknown propagation 'arc'"):
        model(propagation="arc")


def test_data_names_every_group_pair_cage_and_step():
    rules = build(Shape(2, 2), ["anti-knight"], cages=[((0, 1), 3)], thermos=[(4, 9, 14)])
    text = data(Puzzle(Shape(2, 2), (1,) + (0,) * 15, rules))
    assert text.startswith("n = 4;\ngivens =\n  [| 1, 0, 0, 0\n  | 0, 0, 0, 0\n")
    assert "  {1, 2, 3, 4},  % row 1\n" in text and "  {1, 5, 9, 13},  % column 1\n" in text
    assert "  {1, 2}];  % cage 1 (sum 3)\n" in text  # the cage's all-different half is a group
    assert "cage_cells = [\n  {1, 2}];  % cage 1 (sum 3)\ncage_total = [3];\n" in text
    assert "thermo_steps =\n  [| 5, 10  % thermometer 1\n  | 10, 15 |];  % thermometer 1\n" in text
    assert "differ =\n  [| 1, 7  % r1c1 r2c3\n" in text
    plain = data(Puzzle.empty(4))
    assert "differ = [| |];" in plain and "cage_cells = [];" in plain and "thermo_steps = [| |];" in plain


# --- the export, run by the real program --------------------------------------------------------

def _run_text(text: str) -> str:
    with tempfile.NamedTemporaryFile("w", suffix=".mzn", delete=False) as stream:
        stream.write(text)
    try:
        return subprocess.run(["minizinc", "--solver", "gecode", stream.name], capture_output=True, text=True,
                              timeout=HANG, check=True).stdout
    finally:
        os.unlink(stream.name)


@needs_program
@pytest.mark.slow
def test_export_is_one_text_minizinc_runs_to_the_boj_answer(sample, sample_answer):
    text = export(sample, "minizinc")
    head = text.splitlines()[:3]
    assert head[0] == f"% sudokulab MiniZinc model: 9x9 board with 3x3 boxes, {81 - sample.blanks} givens"
    assert head[1] == "% FlatZinc after flattening for Gecode: 81 variables, 27 constraints"
    assert _run_text(text).split("----------\n")[0] == sample_answer


@needs_program
@pytest.mark.slow
def test_exported_killer_puzzle_gives_the_canonical_answer(fast):
    shape = Shape(2, 3)
    puzzle = Puzzle.empty(shape).with_rules(variant(shape, "killer", seed=3))
    first = fast.solve(puzzle, canonical=True).grid
    printed = _run_text(export(puzzle, "minizinc")).split("----------")[0].split()
    assert tuple(map(int, printed)) == first
    with pytest.raises(UsageError, match="the minizinc format takes no option 'encoding'"):
        export(puzzle, "minizinc", encoding="x")


# --- the solver ---------------------------------------------------------------------------------

def test_declares_every_kind_and_its_options():
    capabilities = MiniZincSolver.capabilities
    assert capabilities.kinds == frozenset(KINDS) and capabilities.complete and capabilities.canonical
    assert capabilities.extra == "minizinc" and capabilities.threads == "safe"
    by_name = {option.name: option for option in MiniZincSolver.options}
    assert by_name["search"].valid_values() == SEARCHES and by_name["propagation"].valid_values() == PROPAGATIONS


@needs_program
def test_bad_options_are_refused_with_one_line():
    with pytest.raises(UsageError, match="solver 'minizinc': unknown search 'random'"):
        solvers.get("minizinc", search="random")
    with pytest.raises(UsageError, match="solver 'minizinc': unknown backend 'nosuch'; choose one of: .*gecode"):
        solvers.get("minizinc", backend="nosuch")
    assert "gecode" in mzn.backends()  # found at run time; Gist (a GUI) and library-less MIP ones left out
    assert "gecode-gist" not in mzn.backends() and "cplex" not in mzn.backends()


def test_missing_program_is_one_line_naming_the_install(monkeypatch):
    monkeypatch.setenv("PATH", "")
    mzn.backends.cache_clear()
    try:
        why = solvers.unavailable("minizinc")
        assert why == "the minizinc program is not installed (apt-get install minizinc flatzinc)"
        with pytest.raises(UsageError, match="apt-get install minizinc flatzinc"):
            MiniZincSolver()
    finally:
        mzn.backends.cache_clear()


@needs_program
@pytest.mark.slow
def test_boj_sample_with_stats(minizinc, sample, sample_answer):
    from sudokulab.formats.boj import format_grid

    result = minizinc.solve(sample)
    assert result.status is Status.SOLVED and format_grid(result.grid) == sample_answer
    stats = result.stats
    assert stats["flat_constraints"] == 27 and stats["flat_variables"] == 81  # one all_different_int a group
    assert {"nodes", "failures", "propagations", "flatten_seconds", "solve_seconds", "process_seconds"} <= set(stats)
    assert stats["propagations"] > 0 and stats["process_seconds"] >= stats["flatten_seconds"]


@needs_program
@pytest.mark.slow
@pytest.mark.parametrize("n, fraction, seed", [(4, 0.3, 1), (6, 0.3, 2), (9, 0.4, 3), (16, 0.6, 4)])
def test_solves_and_counts_agree_with_sat_on_every_size(minizinc, sat, n, fraction, seed):
    puzzle, _ = random_puzzle(n, fraction, seed)
    answer = minizinc.solve(puzzle, time_limit=HANG)
    assert answer.status is Status.SOLVED and is_solution(answer.grid, puzzle)
    counted = minizinc.count(puzzle, limit=50, time_limit=HANG)
    assert counted.count == sat.count(puzzle, limit=50).count


@needs_program
@pytest.mark.slow
@pytest.mark.parametrize("preset", ["x", "killer", "thermo", "jigsaw", "anti-knight"])
@pytest.mark.parametrize("n", [4, 6, 9])
def test_variants_solve_count_and_canonical_agree_with_sat_and_backtrack(minizinc, sat, fast, preset, n):
    shape = SHAPES[n]
    rules = variant(shape, preset, seed=n)
    puzzle = Puzzle.empty(shape).with_rules(rules)
    if n == 9:  # a third of a solution given: canonical search on an empty 9x9 jigsaw thrashes (docs/minizinc.md)
        grid = sat.solve(puzzle).grid
        puzzle = Puzzle(shape, tuple(v if i % 3 == 0 else 0 for i, v in enumerate(grid)), rules)
    limit = 20
    assert minizinc.count(puzzle, limit=limit, time_limit=HANG).count == sat.count(puzzle, limit=limit).count
    answer = minizinc.solve(puzzle, time_limit=HANG)
    reference = fast.solve(puzzle, canonical=True, time_limit=HANG)
    if reference.status is Status.NO_SOLUTION:
        assert answer.status is Status.NO_SOLUTION
        return
    assert is_solution(answer.grid, puzzle)
    assert minizinc.solve(puzzle, canonical=True, time_limit=HANG).grid == reference.grid


@needs_program
@pytest.mark.slow
@pytest.mark.parametrize("n", [4, 6, 9, 16])
def test_canonical_on_empty_boards_is_the_baselines_answer(minizinc, fast, n):
    puzzle = Puzzle.empty(n)
    result = minizinc.solve(puzzle, canonical=True, time_limit=HANG)
    assert result.grid == fast.solve(puzzle, canonical=True).grid and result.stats["search"] == "input_order"


@needs_program
@pytest.mark.slow
def test_no_solution_and_broken_givens(minizinc):
    broken = Puzzle(Shape(2, 2), (1, 1) + (0,) * 14)
    assert minizinc.solve(broken).status is Status.NO_SOLUTION
    assert (minizinc.count(broken, limit=5).count, minizinc.count(broken, limit=5).status) == (0, Status.NO_SOLUTION)
    quiet = parse_puzzle("12......" "..3...4.")  # no given breaks a rule, yet r1c3 has no digit left
    assert minizinc.solve(quiet).status is Status.NO_SOLUTION


@needs_program
@pytest.mark.slow
def test_counting_stops_at_the_limit_and_reports_exact_counts(minizinc):
    assert minizinc.count(Puzzle.empty(4), limit=1000).count == 288  # every 4x4 grid, none dropped as a repeat
    capped = minizinc.count(Puzzle.empty(9), limit=7)
    assert (capped.count, capped.status, capped.exact) == (7, Status.SOLVED, False)
    with pytest.raises(ValueError):
        minizinc.count(Puzzle.empty(4), limit=0)


@needs_program
@pytest.mark.slow
def test_time_limit_gives_the_time_limit_status(minizinc):
    started = time.monotonic()
    counted = minizinc.count(Puzzle.empty(9), limit=10**9, time_limit=0.5)  # 6.67e21 grids: cannot finish
    assert counted.status is Status.TIME_LIMIT and 0 < counted.count < 10**9 and not counted.exact
    big = MiniZincSolver(propagation="value").solve(Puzzle.empty(25), time_limit=1.0)  # seconds more it needs
    assert (big.status, big.grid) == (Status.TIME_LIMIT, None) or is_solution(big.grid, Puzzle.empty(25))
    assert time.monotonic() - started < HANG
    with pytest.raises(ValueError):
        minizinc.solve(HARD, time_limit=0)


@needs_program
@pytest.mark.slow
def test_domain_consistency_fails_no_more_than_value_consistency_under_a_static_order():
    """Stronger propagation, same static order: the search tree can only shrink (the classic CP lesson)."""
    failures = {propagation: MiniZincSolver(search="input_order", propagation=propagation).solve(HARD).stats["failures"]
                for propagation in ("value", "domain")}
    assert failures["domain"] <= failures["value"]


CTRL_C = """
import os, sys, time
from sudokulab import Puzzle
from sudokulab.solvers.minizinc.solver import MiniZincSolver

def children():
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as stream:
                fields = stream.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == os.getpid():
            found.append(pid)
    return found

solver = MiniZincSolver()
print("started", flush=True)
try:
    solver.count(Puzzle.empty(9), limit=10**9)  # never ends by itself
except KeyboardInterrupt:
    print("interrupted", flush=True)
time.sleep(0.2)
print(len(children()))
"""


def test_a_program_that_fails_is_one_line_naming_it_never_a_verdict(monkeypatch, sample):
    """MiniZinc lists solver configurations whose engines are absent; a run that fails is exit 2, not "no solution"."""
    from types import SimpleNamespace

    from sudokulab.errors import BackendFailed

    failed = SimpleNamespace(stdout=b"", stderr=b"Warning: old\nError: no such solver library\n", exit_code=1,
                             timed_out=False, signal=None)
    monkeypatch.setattr(mzn, "run_program", lambda *args, **kwargs: failed)
    monkeypatch.setattr(MiniZincSolver, "unavailable", classmethod(lambda cls: None))
    solver = MiniZincSolver()
    for call in (lambda: solver.solve(sample), lambda: solver.count(sample)):
        with pytest.raises(BackendFailed) as raised:
            call()
        assert str(raised.value) == ("solver 'minizinc': the minizinc program (backend 'gecode') failed: "
                                     "Error: no such solver library")


@needs_program
@pytest.mark.slow
def test_ctrl_c_stops_the_program_and_leaves_no_process():
    process = subprocess.Popen([sys.executable, "-c", textwrap.dedent(CTRL_C)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    assert process.stdout.readline().strip() == b"started"
    time.sleep(1.5)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=HANG)
    assert process.returncode == 0, err.decode()
    assert out.decode().split() == ["interrupted", "0"]
