"""Verifying with any SAT solver: export, a real SAT program (where installed), decode; the ``dimacs``
solver with a fixture program for every protocol case; certified verdicts and tampered proofs.
"""

from __future__ import annotations

import itertools
import shutil
import subprocess
import sys

import pytest

from sudokulab import Puzzle, Status, is_solution, parse_puzzle, solvers
from sudokulab.solvers.sat import cnf, dimacs
from sudokulab.solvers.sat.dimacs import parse_answer, read_header
from sudokulab.solvers.sat.external import KNOWN
from sudokulab.verdicts.proof import certify, check_proof, formula_of, prove

from ...conftest import EXAMPLES, FIXTURES, HANG
from ...conftest import run_cli as run

SAMPLE = str(EXAMPLES / "boj2580-sample.txt")
FAKE_SAT = FIXTURES / "programs" / "fake_sat.py"
MANY = "..5.69.7.782....4..6.2.8.3....5.....8.4.1.5.6..6..7.1...7....8.....8195.....947.1"
CLASSIC = parse_puzzle("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
INSTALLED = [name for name in KNOWN if shutil.which(name)]


def hidden_contradiction() -> Puzzle:
    """CLASSIC with one blank given a digit that breaks no rule yet but admits no solution."""
    answer = solvers.get("backtrack").solve(CLASSIC).grid
    for cell, value in enumerate(CLASSIC.givens):
        if value:
            continue
        for digit in range(1, 10):
            givens = list(CLASSIC.givens)
            givens[cell] = digit
            puzzle = Puzzle(CLASSIC.shape, tuple(givens))
            if digit != answer[cell] and solvers.get("sat").solve(puzzle).status is Status.NO_SOLUTION:
                from sudokulab.core.puzzle import first_conflict

                if first_conflict(puzzle.givens, puzzle.shape) is None:
                    return puzzle
    raise AssertionError("no hidden contradiction found")


KINDS = {"unique": lambda: CLASSIC, "many": lambda: parse_puzzle(MANY), "none": hidden_contradiction}


# --- export | a real SAT program | decode ------------------------------------------------------------

@pytest.mark.skipif(not INSTALLED, reason="no SAT program installed (apt-get install cadical minisat picosat)")
@pytest.mark.parametrize("program", INSTALLED)
@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("encoding", ["extended", "minimal", "reduced"])
def test_round_trip_through_a_real_sat_program(tmp_path, capsys, program, kind, encoding):
    puzzle = KINDS[kind]()
    formula = tmp_path / "puzzle.cnf"
    formula.write_text(dimacs.to_dimacs(puzzle, encoding=encoding))
    result_file = tmp_path / "out.txt"
    command = [word.replace("{cnf}", str(formula)).replace("{out}", str(result_file)) for word in KNOWN[program]]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    answer = tmp_path / "answer.txt"
    answer.write_text(result_file.read_text() if "{out}" in KNOWN[program] else done.stdout)
    code, out, err = run(capsys, "decode", str(answer), "--cnf", str(formula))
    expected = solvers.get("sat").solve(puzzle)
    if expected.status is Status.NO_SOLUTION:
        assert (code, out) == (1, "") and err == "sudokulab: no solution: the SAT solver says UNSATISFIABLE\n"
    else:
        grid = tuple(int(v) for v in out.split())
        assert code == 0 and is_solution(grid, puzzle)
        if kind == "unique":
            assert grid == expected.grid


def test_decode_reads_every_answer_form(tmp_path, capsys):
    puzzle = CLASSIC
    formula = tmp_path / "f.cnf"
    formula.write_text(dimacs.to_dimacs(puzzle))
    assert read_header(formula.read_text()).puzzle == puzzle
    grid = solvers.get("sat").solve(puzzle).grid
    n = puzzle.n
    model = [cnf.literal(n, *divmod(c, n), d) * (1 if grid[c] == d else -1)
             for c in range(n * n) for d in range(1, n + 1)]
    forms = {
        "competition": "c by hand\ns SATISFIABLE\n" + "".join(f"v {lit}\n" for lit in model) + "v 0\n",
        "minisat": "SAT\n" + " ".join(map(str, model)) + " 0\n",
        "bare": " ".join(map(str, model)) + "\n",
    }
    for text in forms.values():
        (tmp_path / "a.txt").write_text(text)
        code, out, err = run(capsys, "decode", str(tmp_path / "a.txt"), "--cnf", str(formula))
        assert (code, err) == (0, "") and tuple(int(v) for v in out.split()) == grid


@pytest.mark.parametrize("text, code, message", [
    ("s UNSATISFIABLE\n", 1, "sudokulab: no solution: the SAT solver says UNSATISFIABLE"),
    ("UNSAT\n", 1, "UNSATISFIABLE"),
    ("c gave up\ns UNKNOWN\n", 3, "the SAT solver says UNKNOWN"),
    ("INDET\n", 3, "UNKNOWN"),
    ("s SATISFIABLE\nv 1 2 x 0\n", 2, "line 2: 'v 1 2 x 0' is neither"),
    ("s SATISFIABLE\n", 2, "says SATISFIABLE but gives no model"),
    ("", 2, "is empty"),
    ("s MAYBE\n", 2, "line 1: 's MAYBE' is not one status line"),
])
def test_decode_statuses_and_malformed_answers(tmp_path, capsys, monkeypatch, text, code, message):
    formula = tmp_path / "f.cnf"
    formula.write_text(dimacs.to_dimacs(CLASSIC))
    got, out, err = run(capsys, "decode", "-", "--cnf", str(formula), stdin=text.encode(), monkeypatch=monkeypatch)
    assert (got, out) == (code, "") and message in err and err.count("\n") == 1


def test_decode_names_the_broken_rule(tmp_path, capsys):
    formula = tmp_path / "f.cnf"
    formula.write_text(dimacs.to_dimacs(CLASSIC))
    grid = list(solvers.get("sat").solve(CLASSIC).grid)
    blank = CLASSIC.givens.index(0)
    grid[blank] = grid[blank] % 9 + 1  # a wrong digit in one blank
    model = [cnf.literal(9, *divmod(c, 9), grid[c]) for c in range(81)]
    (tmp_path / "a.txt").write_text(" ".join(map(str, model)) + " 0\n")
    code, out, err = run(capsys, "decode", str(tmp_path / "a.txt"), "--cnf", str(formula))
    assert (code, out) == (4, "") and "the model is not a solution of the puzzle: " in err and "twice" in err


def test_decode_refuses_a_formula_without_header(tmp_path, capsys):
    (tmp_path / "f.cnf").write_text("p cnf 1 1\n1 0\n")
    (tmp_path / "a.txt").write_text("s SATISFIABLE\nv 1 0\n")
    code, out, err = run(capsys, "decode", str(tmp_path / "a.txt"), "--cnf", str(tmp_path / "f.cnf"))
    assert code == 2 and "not written by 'sudokulab export --format dimacs'" in err


def test_parse_answer_doctest_cases():
    assert parse_answer("c x\ns SATISFIABLE\nv 1 -2\nv 3 0\n").model == (1, -2, 3)


# --- the dimacs solver ---------------------------------------------------------------------------------

def fake(mode: str) -> str:
    extra = " {out}" if mode == "minisat" else ""
    return f"{sys.executable} {FAKE_SAT} {mode} {{cnf}}{extra}"


@pytest.mark.parametrize("mode", ["sat", "minisat"])
def test_the_fixture_protocols_solve(mode, sample, sample_answer):
    with solvers.get("dimacs", command=fake(mode)) as solver:
        result = solver.solve(sample)
        assert result.status is Status.SOLVED and is_solution(result.grid, sample) and result.stats["runs"] == 1
        assert solver.solve(hidden_contradiction()).status is Status.NO_SOLUTION


def test_conflicts_are_read_from_comment_lines(sample):
    with solvers.get("dimacs", command=fake("sat")) as solver:
        assert "conflicts" in solver.solve(sample).stats


@pytest.mark.slow
def test_unknown_crash_garbage_and_hang(sample):
    with solvers.get("dimacs", command=fake("unknown")) as solver:
        assert solver.solve(sample).status is Status.TIME_LIMIT
    with solvers.get("dimacs", command=fake("crash")) as solver, \
            pytest.raises(solvers.UsageError, match="failed: exit code 3 fake_sat: segmentation fault"):
        solver.solve(sample)
    with solvers.get("dimacs", command=fake("garbage")) as solver, \
            pytest.raises(solvers.UsageError, match="line 1: 'hello, I am not a SAT solver' is neither"):
        solver.solve(sample)
    with solvers.get("dimacs", command=fake("hang")) as solver:
        result = solver.solve(sample, time_limit=1.0)
        assert result.status is Status.TIME_LIMIT and result.seconds < HANG


def test_a_missing_program_is_one_line(capsys):
    code, out, err = run(capsys, "solve", SAMPLE, "--solver", "dimacs", "-o", "command=no-such-sat-solver -q")
    assert (code, out) == (2, "") and "cannot run 'no-such-sat-solver'" in err


@pytest.mark.slow
def test_compare_a_pysat_engine_with_an_external_program(capsys, sample_answer):
    code, out, err = run(capsys, "compare", SAMPLE, "--solvers", "sat,dimacs", "-o", f"dimacs.command={fake('sat')}")
    assert (code, out) == (0, sample_answer) and "agreed" in err


@pytest.mark.skipif(not INSTALLED, reason="no SAT program installed")
def test_compare_with_the_installed_program(capsys, sample_answer):
    code, out, err = run(capsys, "compare", SAMPLE, "--solvers", "sat,dimacs", "--canonical")
    assert (code, out) == (0, sample_answer) and "canonical: all byte-identical" in err


# --- certified verdicts ----------------------------------------------------------------------------

@pytest.mark.slow
def test_uniqueness_and_no_solution_are_certified(tmp_path):
    unique = certify(CLASSIC, solvers.get("sat").solve(CLASSIC).grid, proof_dir=tmp_path)
    assert unique.certified and unique.lemmas > 0 and unique.line().startswith("certified: exactly one solution")
    assert (tmp_path / "formula.cnf").read_text().count(" 0\n") > 10_000 and (tmp_path / "proof.drup").exists()
    none = certify(hidden_contradiction())
    assert none.certified and none.claim == "no solution"


def test_a_false_claim_is_not_certified():
    many = parse_puzzle(MANY)
    one = solvers.get("sat").solve(many).grid
    result = certify(many, one)
    assert not result.certified and "the formula has a model" in result.why


INKALA = "800000000003600000070090200050007000000045700000100030001000068008500010090000400"
"""Arto Inkala's 2012 puzzle: its uniqueness needs search, not unit propagation alone."""


def test_a_tampered_proof_is_rejected():
    from pysat.solvers import Solver

    puzzle = parse_puzzle(INKALA)
    clauses = formula_of(puzzle, solvers.get("sat").solve(puzzle).grid)
    with Solver(name="glucose4", bootstrap_with=clauses) as probe:
        assert probe.propagate(assumptions=[])[0]  # propagation alone does not refute it
        weak = next(v for v in range(1, 730) if probe.propagate(assumptions=[-v])[0])
    proof = prove(clauses)
    accepted, lemmas, _ = check_proof(clauses, proof)
    assert accepted and lemmas > 100
    assert check_proof(clauses, ["0"]) == (False, 0, "lemma 1 (proof line 1) does not follow by unit propagation")
    first = next(i for i, line in enumerate(proof) if not line.startswith("d ") and line.split() != ["0"])
    altered = [*proof[:first], f"{weak} 0", *proof[first + 1:]]
    accepted, _, why = check_proof(clauses, altered)
    assert not accepted and why == f"lemma 1 (proof line {first + 1}) does not follow by unit propagation"
    top = max(abs(lit) for clause in clauses for lit in clause)
    assert "uses a variable the formula lacks" in check_proof(clauses, [f"{top + 1} 0", *proof])[2]
    assert not check_proof(clauses, [line for line in proof if line.split() != ["0"]])[0]
    removed = [line for line in proof if line.startswith("d ") or line.split() == ["0"]]  # every lemma removed
    assert not check_proof(clauses, removed)[0]


@pytest.mark.slow
def test_certify_on_the_command_line(capsys, monkeypatch, tmp_path):
    code, out, err = run(capsys, "count", SAMPLE, "--certify", "--proof", str(tmp_path))
    assert code == 0 and out.startswith("1\ncertified: exactly one solution: proof of ")
    code, out, _ = run(capsys, "verify", SAMPLE, str(EXAMPLES / "boj2580-sample.out"), "--certify")
    assert code == 0 and out.splitlines()[-1].startswith("certified: exactly one solution")
    from sudokulab.formats.boj import format_puzzle

    code, out, err = run(capsys, "count", "--certify", stdin=format_puzzle(hidden_contradiction()).encode(),
                         monkeypatch=monkeypatch)
    assert code == 0 and out.startswith("0\ncertified: no solution: proof of ")
    code, out, _ = run(capsys, "count", str(EXAMPLES / "several-solutions.txt"), "--certify")
    assert (code, out) == (0, "18\nnot certified: 18 solutions: only 'no solution' and 'exactly one solution' "
                               "are certified\n")


# --- rules as data ---------------------------------------------------------------------------------

from sudokulab import Shape  # noqa: E402 - the rules tests' own imports
from sudokulab.core.rules import KINDS as RULE_KINDS  # noqa: E402
from sudokulab.core.rules import build  # noqa: E402
from sudokulab.verdicts.proof import certify_count  # noqa: E402

from .test_cnf import PRESETS4, S4, brute_force  # noqa: E402


@pytest.mark.slow
@pytest.mark.skipif(not INSTALLED, reason="no SAT program installed (apt-get install cadical minisat picosat)")
@pytest.mark.parametrize("name", ["x", "jigsaw", "killer", "thermo", "x+killer+thermo"])
def test_the_dimacs_solver_honours_the_rules(name):
    empty = Puzzle.empty(S4).with_rules(PRESETS4[name])
    expected = brute_force(empty)
    with solvers.get("dimacs", encoding="extended") as program:
        assert program.capabilities.kinds == frozenset(RULE_KINDS)
        result = program.solve(empty)
        assert result.grid in expected and is_solution(result.grid, empty)
        assert program.solve(empty, canonical=True).grid == min(expected)
        assert program.count(empty, limit=50).count == min(len(expected), 50)
    with solvers.get("dimacs", encoding="reduced") as reduced:
        assert is_solution(reduced.solve(empty).grid, empty)


def unique_only_under(rules) -> Puzzle:
    """A 4x4 puzzle with exactly one solution under ``rules`` and more under standard rules."""
    solutions = sorted(brute_force(Puzzle.empty(S4).with_rules(rules)))
    for first in solutions:
        for cells in itertools.combinations(range(16), 3):
            givens = tuple(first[c] if c in cells else 0 for c in range(16))
            puzzle = Puzzle(S4, givens, rules)
            if len(brute_force(puzzle)) == 1 and len(brute_force(Puzzle(S4, givens))) > 1:
                return puzzle
    raise AssertionError("no such puzzle")


@pytest.mark.parametrize("name", ["x", "killer", "thermo"])
def test_certificates_speak_of_the_puzzles_rules(name, tmp_path):
    puzzle = unique_only_under(PRESETS4[name])
    certificate = certify_count(puzzle, 1, proof_dir=tmp_path)
    assert certificate.certified and certificate.claim == "exactly one solution"
    plain = Puzzle(S4, puzzle.givens)
    assert not certify_count(plain, 1).certified  # under standard rules the claim is false
    impossible = Puzzle.empty(S4).with_rules(PRESETS4["anti-king"])  # no 4x4 grid is anti-king
    assert certify_count(impossible, 0).certified


def test_decode_checks_the_model_against_the_exported_rules(tmp_path, capsys):
    rules = build(Shape(3, 3), ["x"])
    puzzle = Puzzle(CLASSIC.shape, (0,) * 81, rules)
    formula = tmp_path / "x.cnf"
    formula.write_text(dimacs.to_dimacs(puzzle))
    plain = solvers.get("sat").solve(Puzzle.empty(9), canonical=True).grid  # a standard grid, diagonals repeat
    model = [cnf.literal(9, *divmod(c, 9), plain[c]) for c in range(81)]
    (tmp_path / "a.txt").write_text(" ".join(map(str, model)) + " 0\n")
    code, out, err = run(capsys, "decode", str(tmp_path / "a.txt"), "--cnf", str(formula))
    assert (code, out) == (4, "") and "diagonal" in err
    good = solvers.get("sat").solve(puzzle).grid
    (tmp_path / "b.txt").write_text(" ".join(str(cnf.literal(9, *divmod(c, 9), good[c])) for c in range(81)) + "\n")
    code, out, err = run(capsys, "decode", str(tmp_path / "b.txt"), "--cnf", str(formula))
    assert code == 0 and tuple(int(v) for v in out.split()) == good and is_solution(good, puzzle)
