"""The graders: check-encoding on the shipped templates (pass) and on students' broken models (fail,
each naming a counterexample that is checked here to be real), check-solver on the built-in solver
classes (pass) and a broken one (fail, naming the check), and compare with a student's class."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from sudokulab import Puzzle, solvers
from sudokulab.formats import documents
from sudokulab.grading.student_code import load_module
from sudokulab.grading.templates import encoding_template

from ..conftest import FIXTURES, ROOT, run_cli

STUDENTS = FIXTURES / "students"
CELL = r"r(\d)c(\d)"


def template(tmp_path: Path, capsys, kind: str) -> Path:
    command = ("check-solver", "--template") if kind == "solver" else ("check-encoding", "--template", kind)
    code, out, _ = run_cli(capsys, *command)
    assert code == 0 and out
    path = tmp_path / f"mine_{kind}.py"
    path.write_text(out)
    return path


def grade(capsys, path: Path) -> tuple[int, dict[str, dict], str]:
    code, out, err = run_cli(capsys, "check-encoding", str(path), "--json")
    document = json.loads(out)
    documents.validate("check-encoding", document)
    assert document["exit"] == code and document["ok"] == (code == 0)
    return code, {c["check"]: c for c in document["checks"]}, err


def satisfiable(path: Path, puzzle: Puzzle, fixed: list[int]) -> bool:
    """Whether the student's formula has a model with these literals: the counterexample is real."""
    from pysat.solvers import Solver

    found = load_module(str(path)).encode(puzzle)
    clauses = found[0] if isinstance(found, tuple) else found
    with Solver(name="minisat22", bootstrap_with=clauses) as engine:
        return engine.solve(assumptions=fixed)


# --- check-encoding ------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["sat", "cp", "solver"])
def test_a_template_with_json_is_one_document_holding_the_same_file(tmp_path, capsys, kind):
    command = "check-solver" if kind == "solver" else "check-encoding"
    written = template(tmp_path, capsys, kind).read_text()
    words = (command, "--template", "--json") if kind == "solver" else (command, "--template", kind, "--json")
    code, out, _ = run_cli(capsys, *words)
    document = json.loads(out)
    documents.validate(command, document)
    assert code == 0 and document == {"template": kind, "text": written}


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["sat", "cp"])
def test_the_templates_pass(tmp_path, capsys, kind):
    code, checks, err = grade(capsys, template(tmp_path, capsys, kind))
    assert code == 0 and not err
    assert checks["empty-4x4"]["reason"] == "288 models on the empty 4x4 board, each a valid grid"
    assert all(c["status"] == "passed" for name, c in checks.items() if name != "propagation" or kind == "sat")
    if kind == "cp":
        assert checks["propagation"]["status"] == "skipped"


@pytest.mark.slow
def test_the_sat_template_propagates_as_the_shipped_minimal_encoding(tmp_path, capsys):
    _, checks, _ = grade(capsys, template(tmp_path, capsys, "sat"))
    measured = re.findall(r"(\d+) of 81 cells \(minimal (\d+), extended (\d+)\)", checks["propagation"]["reason"])
    assert len(measured) == 3
    assert all(theirs == minimal for theirs, minimal, _ in measured)  # cell exactly-one + group at-most-one
    assert any(int(extended) > int(minimal) for _, minimal, extended in measured)  # the puzzles tell them apart


@pytest.mark.slow
def test_another_correct_encoding_passes_and_propagates_as_extended(capsys):
    """The extended encoding with hand-written sequential counters: auxiliary variables do not
    inflate the count (blocking is on what decode reads), and propagation matches the shipped one's."""
    code, checks, _ = grade(capsys, STUDENTS / "correct_extended.py")
    assert code == 0 and checks["empty-4x4"]["reason"].startswith("288 models")
    measured = re.findall(r"(\d+) of 81 cells \(minimal (\d+), extended (\d+)\)", checks["propagation"]["reason"])
    assert len(measured) == 3 and all(theirs == extended for theirs, _, extended in measured)
    assert "1,377 variables" in checks["size"]["reason"]  # 729 cells + 81 counters of 8


@pytest.mark.slow
def test_a_missing_box_constraint_is_named_with_a_real_counterexample(capsys):
    path = STUDENTS / "missing_box.py"
    code, checks, _ = grade(capsys, path)
    assert code == 1
    reason = checks["empty-4x4"]["reason"]
    found = re.fullmatch(rf"576 models on the empty 4x4 board, expected 288: your formula allows {CELL} = (\d) and "
                         rf"{CELL} = (\d) together, both in box (\d)", reason)
    assert found, reason
    r1, c1, d1, r2, c2, d2, box = map(int, found.groups())
    empty = Puzzle.empty(4)
    assert d1 == d2 and empty.shape.box_of(r1 - 1, c1 - 1) == empty.shape.box_of(r2 - 1, c2 - 1) == box - 1
    var = encoding_template.var
    assert satisfiable(path, empty, [var(4, r1 - 1, c1 - 1, d1), var(4, r2 - 1, c2 - 1, d2)])
    assert checks["unsatisfiable"]["status"] == checks["answers"]["status"] == "failed"


@pytest.mark.slow
def test_a_missing_at_least_one_clause_is_named_with_a_real_counterexample(capsys):
    path = STUDENTS / "missing_at_least_one.py"
    code, checks, _ = grade(capsys, path)
    assert code == 1
    reason = checks["empty-4x4"]["reason"]
    found = re.search(rf"expected 288: your formula allows {CELL} without a digit \(your decode gives 0\)", reason)
    assert found, reason
    row, col = (int(g) - 1 for g in found.groups())
    var = encoding_template.var
    assert satisfiable(path, Puzzle.empty(4), [-var(4, row, col, d) for d in range(1, 5)])
    assert not satisfiable(STUDENTS / "missing_box.py", Puzzle.empty(4), [-var(4, row, col, d) for d in range(1, 5)])


@pytest.mark.slow
def test_a_wrong_decode_is_named_by_the_cell_it_gets_wrong(capsys):
    code, checks, _ = grade(capsys, STUDENTS / "wrong_decode.py")
    assert code == 1
    assert checks["empty-4x4"]["status"] == "passed"  # transposed grids are grids: only the givens tell
    reason = checks["answers"]["reason"]
    found = re.search(rf"your decoded answer is wrong: {CELL} = (\d) where the puzzle gives (\d)", reason)
    assert found, reason
    assert found.group(3) != found.group(4)


def test_a_cp_model_missing_a_box_is_named_too(capsys):
    code, checks, _ = grade(capsys, STUDENTS / "cp_missing_box.py")
    assert code == 1
    assert re.fullmatch(rf"576 models .*: your formula allows {CELL} = (\d) and {CELL} = \3 together, both in box \d",
                        checks["empty-4x4"]["reason"])


@pytest.mark.slow
def test_text_output_lists_each_check(capsys):
    code, out, err = run_cli(capsys, "check-encoding", str(STUDENTS / "missing_box.py"))
    assert code == 1 and err == f"sudokulab: {STUDENTS / 'missing_box.py'}: 4 of 5 checks failed\n"
    assert re.search(r"^failed +empty-4x4 +576 models on the empty 4x4 board", out, re.M)
    assert re.search(r"^passed +size +the empty 9x9: 8,829 clauses / 729 variables", out, re.M)
    assert out.endswith("1 passed, 4 failed\n")


@pytest.mark.parametrize("file, words", [
    ("no_decode.py", "no_decode.py: defines no decode(model, puzzle)"),
    ("raises.py", "raises.py, line 5: encode raised AttributeError"),
    ("absent.py", "absent.py: no such file"),
])
def test_a_file_that_cannot_be_used_is_one_line_and_exit_2(capsys, file, words):
    code, out, err = run_cli(capsys, "check-encoding", str(STUDENTS / file))
    assert code == 2 and not out and words in err and err.count("\n") == 1


def test_a_file_that_does_not_import_names_its_line(tmp_path, capsys):
    broken = tmp_path / "broken.py"
    broken.write_text("def encode(puzzle):\n    return [\n")
    code, _, err = run_cli(capsys, "check-encoding", str(broken))
    assert code == 2 and "broken.py, line 2: cannot import it: SyntaxError" in err and err.count("\n") == 1


# --- check-solver --------------------------------------------------------------------------------------

BUILT_IN = [name for name in solvers.names() if name != "dimacs"]


@pytest.mark.slow
@pytest.mark.parametrize("name", BUILT_IN)
def test_check_solver_passes_the_built_in_classes(capsys, name):
    why = solvers.unavailable(name)
    if why:
        pytest.skip(why)
    target = solvers.REGISTRY[name].target
    code, out, err = run_cli(capsys, "check-solver", target, "--json")
    document = json.loads(out)
    documents.validate("check-solver", document)
    assert code == 0 and document["ok"] and document["solver"] == name, document
    assert {c["status"] for c in document["checks"]} <= {"passed", "skipped"}


def test_check_solver_passes_the_template(tmp_path, capsys):
    path = template(tmp_path, capsys, "solver")
    code, out, _ = run_cli(capsys, "check-solver", f"{path}:StudentSolver")
    assert code == 0 and out.endswith("12 passed\n")


def test_check_solver_fails_a_broken_solver_naming_the_check(capsys):
    code, out, err = run_cli(capsys, "check-solver", f"{STUDENTS / 'broken_solver.py'}:LargestFirst")
    assert code == 1 and err.count("\n") == 1
    target = re.escape(f"{STUDENTS / 'broken_solver.py'}:LargestFirst")
    assert re.fullmatch(rf"sudokulab: {target}: \d+ of \d+ checks failed\n", err)
    assert re.search(r"^failed +canonical_empty_boards +canonical answer on the empty 4x4: not the row-major "
                     r"smallest solution \(the first difference at r1c1: 4 instead of 1\)", out, re.M), out
    assert re.search(r"^passed +boj_sample ", out, re.M)  # one solution: reversed digits still find it


@pytest.mark.parametrize("target, words", [
    ("broken_solver.py:Nope", "defines no class Nope"),
    ("broken_solver.py", "expected FILE.py:CLASS"),
    ("no.such.module:Solver", "cannot import module 'no.such.module'"),
])
def test_check_solver_bad_targets_are_one_line(capsys, target, words):
    where = str(STUDENTS / target) if target.startswith("broken") else target
    code, out, err = run_cli(capsys, "check-solver", where)
    assert code == 2 and not out and words in err and err.count("\n") == 1


# --- compare with a student's class -------------------------------------------------------------------------

def test_compare_runs_a_students_class(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(solvers, "REGISTRY", dict(solvers.REGISTRY))  # registered for one run only
    path = template(tmp_path, capsys, "solver")
    sample = ROOT / "examples" / "boj2580-sample.txt"
    code, out, _ = run_cli(capsys, "compare", str(sample), "--solvers", "backtrack", "--solver-class",
                           f"{path}:StudentSolver", "--json")
    assert code == 0
    runs = {run["solver"]: run for run in json.loads(out)["runs"]}
    assert set(runs) == {"backtrack", "student"}


def test_compare_refuses_a_class_named_as_a_built_in(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(solvers, "REGISTRY", dict(solvers.REGISTRY))
    clash = tmp_path / "clash.py"
    clash.write_text("from sudokulab.grading.templates.solver_template import StudentSolver\n\n\n"
                     "class Clash(StudentSolver):\n    name = 'sat'\n")
    sample = ROOT / "examples" / "boj2580-sample.txt"
    code, out, err = run_cli(capsys, "compare", str(sample), "--solver-class", f"{clash}:Clash")
    assert code == 2 and not out and "its name 'sat' is a registered solver's" in err


def test_a_students_file_imports_as_a_module_would(tmp_path):
    """Registered under its name while it runs, so a dataclass in it works (it looks its module up)."""
    path = tmp_path / "with_dataclass.py"
    path.write_text("from dataclasses import dataclass\n\n\n@dataclass(frozen=True)\nclass Cell:\n    row: int\n")
    assert load_module(str(path)).Cell(3).row == 3


def test_the_student_worker_rebuilds_every_puzzle_the_checks_send_exactly():
    from sudokulab.grading import contract
    from sudokulab.grading.student_process import puzzle_document
    from sudokulab.grading.student_worker import puzzle_of

    puzzles = [puzzle for _, puzzle in contract.variant_puzzles(solvers.get("backtrack"))]
    puzzles += [contract.BOJ_SAMPLE, contract.CORNER, contract.BROKEN]
    puzzles += [contract.random_puzzle(*contract.OTHER_SIZES[5])[0]]
    assert all(puzzle_of(json.loads(json.dumps(puzzle_document(puzzle)))) == puzzle for puzzle in puzzles)
