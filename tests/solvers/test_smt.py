"""The SMT paradigm: the SMT-LIB text a person reads (and z3's own program runs), and the ``smt`` solver's
answers, counts, canonical runs, time limits and options, against ``sat`` and ``backtrack``, under
standard rules and every variant (the rule sets of ``test_cpsat``)."""

from __future__ import annotations

import random
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sudokulab import Puzzle, Shape, Status, UsageError, is_solution, parse_puzzle, solvers
from sudokulab.core.rules import KINDS, build
from sudokulab.solvers import export
from sudokulab.solvers.smt.model import model_size, rules, to_smtlib
from sudokulab.solvers.smt.solver import NEEDS, TACTICS, SmtSolver

from ..conftest import HANG, brute_force, random_puzzle, run_cli
from .test_cpsat import SHAPES, variant

CLASSIC = parse_puzzle("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
HARD = parse_puzzle("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
"""The first of Norvig's top95: hard for a search without learning."""
Z3 = shutil.which("z3", path=str(Path(sys.executable).parent)) or shutil.which("z3")
"""z3's own program: the pip package puts it beside the interpreter."""


@pytest.fixture(scope="module")
def smt():
    with SmtSolver() as solver:
        yield solver


# --- the model -----------------------------------------------------------------------------------

def test_the_text_of_a_killer_thermo_4x4_says_each_rule_once():
    r = build(Shape(2, 2), cages=[((0, 1), 3)], thermos=[(4, 8, 12)])
    text = to_smtlib(Puzzle.empty(Shape(2, 2)).with_rules(r))
    assert "(assert (<= 1 r1c1 4))" in text
    assert "(assert (distinct r1c1 r1c2 r1c3 r1c4)) ; row 1" in text
    assert "(assert (= (+ r1c1 r1c2) 3)) ; cage 1 (sum 3)" in text
    assert "(assert (< r2c1 r3c1 r4c1)) ; thermometer 1" in text
    assert text.count("(assert ") == model_size(r)[1] == 16 + 12 + 1 + 1 + 1  # cells, groups (cage's too), sum, thermo
    lines = text.splitlines()
    assert lines[0].startswith("; sudokulab SMT model (SMT-LIB 2, theory int): 4x4")
    assert lines[1] == f"; 16 constants, {model_size(r)[1]} assertions (16 domain, 13 all-different, 1 sum, " \
                       "1 increasing, 0 givens)"
    assert lines[2] == "(set-logic QF_LIA)" and lines[-2:] == ["(check-sat)", "(get-model)"]


def test_bit_vectors_are_wide_enough_for_the_digits_and_every_sum():
    r = build(Shape(3, 3), cages=[((0, 1, 2), 24)], thermos=[(9, 10, 11)])
    model = rules(r, "bitvector")
    assert model.width == 4 and model.logic == "QF_BV"
    text = model.text
    assert "(declare-const r9c9 (_ BitVec 4))" in text
    assert "(assert (and (bvule (_ bv1 4) r1c1) (bvule r1c1 (_ bv9 4))))" in text
    # 3 cells of up to 9 need 5 bits (27): each cell zero-extended by one bit
    assert ("(assert (= (bvadd ((_ zero_extend 1) r1c1) ((_ zero_extend 1) r1c2) ((_ zero_extend 1) r1c3)) "
            "(_ bv24 5))) ; cage 1 (sum 24)") in text
    assert "(assert (and (bvult r2c1 r2c2) (bvult r2c2 r2c3))) ; thermometer 1" in text


@pytest.mark.parametrize("n, preset", [(9, "standard"), (9, "anti-knight"), (6, "killer"), (6, "thermo"),
                                       (9, "jigsaw")])
@pytest.mark.parametrize("theory", ["int", "bitvector"])
def test_z3_parses_as_many_assertions_as_the_header_says(n, preset, theory):
    import z3

    r = build(SHAPES[n]) if preset == "standard" else variant(SHAPES[n], preset)
    puzzle = Puzzle.empty(SHAPES[n]).with_rules(r)
    text = to_smtlib(puzzle, theory=theory)
    constants, assertions = map(int, re.match(r"; (\d+) constants, (\d+) assertions", text.splitlines()[1]).groups())
    parsed = z3.parse_smt2_string(text.replace("(check-sat)", "").replace("(get-model)", ""), ctx=z3.Context())
    assert (constants, assertions) == (n * n, len(parsed)) == model_size(r)


@pytest.mark.skipif(Z3 is None, reason="z3's program is not installed beside this Python")
@pytest.mark.parametrize("theory", ["int", "bitvector"])
def test_z3s_own_program_solves_the_exported_text(sample, theory):
    done = subprocess.run([Z3, "-in"], input=to_smtlib(sample, theory=theory), capture_output=True, text=True,
                          timeout=HANG)
    assert done.returncode == 0 and done.stdout.startswith("sat\n"), done.stdout + done.stderr
    values = {}
    defined = r"\(define-fun r(\d+c\d+) \(\) (?:Int|\(_ BitVec \d+\))\s+(#x[0-9a-f]+|#b[01]+|\d+)\)"
    for name, value in re.findall(defined, done.stdout):
        values[name] = int(value[2:], 16 if value[1] == "x" else 2) if value.startswith("#") else int(value)
    grid = tuple(values[f"{cell // 9 + 1}c{cell % 9 + 1}"] for cell in range(81))
    assert is_solution(grid, sample)


def test_export_registry_and_options(sample):
    assert export(sample, "smtlib") == to_smtlib(sample)
    assert "(set-logic QF_BV)" in export(sample, "smtlib", theory="bitvector")
    with pytest.raises(UsageError, match="theory of the smtlib format cannot be 'real'"):
        to_smtlib(sample, theory="real")
    with pytest.raises(UsageError, match="takes no option 'encoding'"):
        to_smtlib(sample, encoding="x")


def test_export_command(capsys, sample_text, tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(sample_text)
    code, out, err = run_cli(capsys, "export", str(path), "--format", "smtlib", "-o", "theory=bitvector")
    assert code == 0 and out.startswith("; sudokulab SMT model (SMT-LIB 2, theory bitvector)") and not err


# --- the solver ----------------------------------------------------------------------------------

def test_the_solver_declares_every_kind_and_says_its_engine():
    assert SmtSolver.capabilities.kinds == set(KINDS)
    assert SmtSolver.describe_backend().startswith("z3 ")
    assert solvers.describe("smt")["paradigm"] == "SMT (z3)"


def test_boj_sample_and_stats(smt, sample, sample_answer):
    result = smt.solve(sample)
    assert result.status is Status.SOLVED
    assert "\n".join(" ".join(map(str, result.grid[r * 9:r * 9 + 9])) for r in range(9)) + "\n" == sample_answer
    stats = result.stats
    assert {"decisions", "conflicts", "propagations", "restarts", "checks", "constants", "assertions"} <= set(stats)
    assert (stats["constants"], stats["assertions"], stats["checks"]) == (81, 108 + 81 - sample.blanks, 1)


@pytest.mark.slow
@pytest.mark.parametrize("shape, fraction, seed", [(Shape(2, 2), 0.3, 1), (Shape(2, 3), 0.4, 2),
                                                   (Shape(3, 3), 0.4, 3), (Shape(4, 4), 0.6, 4)])
def test_boards_agree_with_sat(smt, sat, shape, fraction, seed):
    puzzle, _ = random_puzzle(shape, fraction, seed)
    answer = smt.solve(puzzle, time_limit=HANG)
    assert answer.status is Status.SOLVED and is_solution(answer.grid, puzzle)
    assert smt.count(puzzle, limit=5, time_limit=HANG).count == sat.count(puzzle, limit=5).count


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["x", "killer", "thermo", "jigsaw", "anti-knight"])
def test_variants_agree_with_sat_and_canonical_with_backtrack(smt, sat, backtrack, preset):
    for n in (4, 6):
        r = variant(SHAPES[n], preset, seed=n)
        puzzle = Puzzle.empty(SHAPES[n]).with_rules(r)
        answer = smt.solve(puzzle, time_limit=HANG)
        assert answer.status is Status.SOLVED and is_solution(answer.grid, puzzle), (n, preset)
        assert smt.count(puzzle, limit=3, time_limit=HANG).count == sat.count(puzzle, limit=3).count
        if n == 4:
            assert smt.count(puzzle, limit=1000).count == len(brute_force(puzzle))
            assert smt.solve(puzzle, canonical=True).grid == backtrack.solve(puzzle).grid


@pytest.mark.slow
def test_a_9x9_killer_and_the_classic_under_both_theories(sat):
    r = variant(SHAPES[9], "killer", seed=9)
    killer = Puzzle(SHAPES[9], random_puzzle(SHAPES[9], 0.5, 9)[0].givens, r)
    with SmtSolver(theory="int", tactic="qffd") as ints, SmtSolver(theory="bitvector", tactic="sat") as bits:
        for solver in (ints, bits):
            for puzzle in (CLASSIC, killer):
                answer = solver.solve(puzzle, time_limit=HANG)
                expected = sat.solve(puzzle)
                assert answer.status is expected.status
                assert answer.grid is None or is_solution(answer.grid, puzzle)


@pytest.mark.slow
def test_canonical_agrees_with_backtrack_on_puzzles_with_many_solutions(smt, backtrack):
    for seed in (1, 2):
        puzzle, _ = random_puzzle(Shape(3, 3), 0.35, seed)
        assert smt.solve(puzzle, canonical=True, time_limit=HANG).grid == backtrack.solve(puzzle).grid


def test_no_solution_and_broken_givens(smt):
    broken = Puzzle(Shape(3, 3), (1,) + (0,) * 6 + (1,) + (0,) * 73)
    assert smt.solve(broken).status is Status.NO_SOLUTION and smt.count(broken).count == 0
    corner = Puzzle.from_rows([[1, 2, 0, 0], [0, 0, 3, 0], [0, 0, 4, 0], [0, 0, 0, 0]])
    assert smt.solve(corner, canonical=True).status is Status.NO_SOLUTION


def test_counting_leaves_the_kept_model_as_it_was(smt):
    empty = Puzzle.empty(4)
    assert smt.count(empty, limit=5).count == 5
    assert smt.count(empty, limit=5).count == 5  # the blocking clauses went with the pop
    full = Puzzle(Shape(2, 2), smt.solve(empty).grid)
    assert smt.count(full, limit=5).count == 1


@pytest.mark.slow
def test_time_limit(smt):
    started = time.monotonic()
    counted = smt.count(Puzzle.empty(9), limit=10**9, time_limit=0.5)
    assert counted.status is Status.TIME_LIMIT and not counted.exact
    result = smt.solve(Puzzle.empty(25), canonical=True, time_limit=1.0)
    assert result.status is Status.TIME_LIMIT or is_solution(result.grid, Puzzle.empty(25))
    assert time.monotonic() - started < HANG


@pytest.mark.parametrize("options, message", [
    ({"theory": "real"}, "unknown theory 'real'"),
    ({"tactic": "simplex"}, "unknown tactic 'simplex'"),
    ({"theory": "int", "tactic": "sat"}, "tactic sat needs theory=bitvector, not int"),
    ({"tactic": "qflia"}, "tactic qflia needs theory=int, not bitvector"),
    ({"seed": -1}, "seed must be at least 0"),
])
def test_bad_options_are_one_line(options, message):
    with pytest.raises(UsageError, match=re.escape(message)):
        solvers.get("smt", **options)


@pytest.mark.slow
def test_every_tactic_and_theory_solves_the_classic():
    for theory in ("int", "bitvector"):
        for tactic in TACTICS:
            if NEEDS.get(tactic, theory) != theory:
                continue
            with SmtSolver(theory=theory, tactic=tactic, seed=random.Random(tactic).randrange(100)) as solver:
                answer = solver.solve(CLASSIC, time_limit=HANG)
                assert answer.status is Status.SOLVED and is_solution(answer.grid, CLASSIC), (theory, tactic)
                assert answer.stats["tactic"] == tactic and answer.stats["theory"] == theory
