"""The solver contract as callers see it: a class written only against the public protocol joins the
registry and works everywhere; capabilities are asked, not assumed; options are checked before a
solver is built; ``sudokulab solvers`` lists what each can do; one rule checks every answer.
"""

from __future__ import annotations

import json
import re
import time
from typing import ClassVar

import pytest

import sudokulab
from sudokulab import solvers
from sudokulab.bench import run as bench
from sudokulab.bench.compare import Agreement, compare
from sudokulab.core.puzzle import Puzzle, is_solution
from sudokulab.generation.puzzles import generate
from sudokulab.solvers import Capabilities, CountResult, Option, SolveResult, Status
from sudokulab.verdicts import checking

from ..conftest import EXAMPLES
from ..conftest import run_cli as run

SAMPLE = str(EXAMPLES / "boj2580-sample.txt")


class ProtocolOnly:
    """A solver with no base class: the classic search of the fast solver, wrapped by hand."""

    name = "protocol-only"
    paradigm: ClassVar[str] = "test"
    capabilities: ClassVar[Capabilities] = Capabilities(canonical=False, count=False, time_limit=True)
    options: ClassVar[tuple[Option, ...]] = (Option("shout", bool, False, "a test option"),)

    def __init__(self, shout: bool = False):
        self.inner = solvers.get("backtrack-fast")
        self.closed = False

    def solve(self, puzzle: Puzzle, *, time_limit: float | None = None, canonical: bool = False) -> SolveResult:
        if canonical:
            raise AssertionError("asked for what its capabilities do not include")
        started = time.perf_counter()
        grid = self.inner.solve(puzzle, time_limit=time_limit).grid
        status = Status.SOLVED if grid is not None else Status.NO_SOLUTION
        return SolveResult(self.name, status, grid, time.perf_counter() - started, {"nodes": 1})

    def count(self, puzzle: Puzzle, *, limit: int = 2, time_limit: float | None = None) -> CountResult:
        raise AssertionError("asked for what its capabilities do not include")

    def close(self) -> None:
        self.closed = True

    def __enter__(self) -> ProtocolOnly:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


@pytest.fixture
def protocol_only(monkeypatch):
    monkeypatch.setitem(solvers.REGISTRY, "protocol-only", f"{__name__}:ProtocolOnly")
    return "protocol-only"


def test_a_protocol_only_solver_satisfies_the_protocol(protocol_only):
    instance = solvers.get(protocol_only, shout="true")
    assert isinstance(instance, solvers.Solver)
    assert "SolverBase" not in [cls.__name__ for cls in type(instance).__mro__]


def test_a_protocol_only_solver_works_through_solve_compare_and_bench(protocol_only, sample, sample_answer, tmp_path):
    result = sudokulab.solve(sample, solver=protocol_only)
    assert result.status is Status.SOLVED and is_solution(result.grid, sample)
    comparison = compare(sample, [protocol_only, "backtrack"], time_limit=30)
    assert comparison.agreement is Agreement.AGREED and comparison.answer == sample_answer
    dataset = tmp_path / "set.txt"
    dataset.write_text((EXAMPLES / "boj2580-sample.txt").read_text())
    report = bench.run_bench([dataset], [protocol_only, "sat"], progress=False)
    assert {s.solver: (s.solved, s.wrong) for s in report.summaries} == {protocol_only: (1, 0), "sat": (1, 0)}


def test_a_solver_without_canonical_answers_is_skipped_not_failed(capsys, protocol_only, sample_answer):
    code, out, err = run(capsys, "compare", SAMPLE, "--solvers", f"backtrack,{protocol_only},sat", "--canonical")
    assert code == 0 and out == sample_answer
    assert "agreed: one answer" in err and "skipped: protocol-only" in err
    code, out, _ = run(capsys, "compare", SAMPLE, "--solvers", f"backtrack,{protocol_only}", "--canonical", "--json")
    runs = {r["solver"]: r for r in json.loads(out)["runs"]}
    assert code == 0 and runs[protocol_only]["skipped"] == "cannot give a canonical answer"
    assert runs[protocol_only]["agrees"] is None and runs["backtrack"]["agrees"] is True
    with pytest.raises(sudokulab.UnsupportedFeature, match="cannot give a canonical answer"):
        sudokulab.solve(Puzzle.empty(4), solver=protocol_only, canonical=True)
    with pytest.raises(sudokulab.UnsupportedFeature, match="cannot count solutions"):
        sudokulab.count(Puzzle.empty(4), solver=protocol_only)


@pytest.mark.slow
def test_solvers_command_lists_capabilities_and_options(capsys):
    code, out, err = run(capsys, "solvers", "--json")
    assert code == 0 and err == ""
    listed = {entry["name"]: entry for entry in json.loads(out)["solvers"]}
    assert list(listed) == solvers.names()
    assert listed["backtrack"]["capabilities"]["canonical"] is True
    assert listed["sat"]["capabilities"]["threads"] == "serialised"
    engine = next(o for o in listed["sat"]["options"] if o["name"] == "engine")
    assert engine["default"] == "cadical195" and "glucose4" in engine["choices"]
    assert "glucose4" in listed["sat"]["backend"]["engines"]
    assert {o["name"] for o in listed["cpsat"]["options"]} == {"workers", "seed", "model", "presolve", "parameters"}
    code, out, _ = run(capsys, "solvers")
    assert code == 0 and all(name in out for name in solvers.names()) and "-o workers=" in out
    assert max(map(len, out.splitlines())) <= 100 or any(len(line) > 100 for line in out.splitlines()
                                                         if line.startswith("  -o "))


@pytest.mark.parametrize("argv, message", [
    (["--solver", "sat", "-o", "engine=5"], "unknown SAT engine '5'; choose one of: cadical103"),
    (["--solver", "cpsat", "-o", "workers=abc"], "option workers must be a whole number, not 'abc'"),
    (["--solver", "cpsat", "-o", "workers=0"], "option workers must be at least 1"),
    (["--solver", "sat", "-o", "nosuch=1"],
     "solver 'sat' takes no option 'nosuch'; its options: engine, encoding, amo"),
    (["--solver", "sat", "-o", "encoding=huge"], "unknown encoding 'huge'; choose one of: auto, minimal"),
])
def test_bad_options_exit_2_with_one_line(capsys, argv, message):
    code, out, err = run(capsys, "solve", SAMPLE, *argv)
    assert (code, out) == (2, "") and message in err and err.count("\n") == 1


def test_options_are_typed_for_library_callers_too():
    with pytest.raises(sudokulab.UsageError, match="option engine must be of type str, not 5"):
        solvers.get("sat", engine=5)
    with pytest.raises(sudokulab.UsageError, match="option presolve must be of type bool"):
        solvers.get("cpsat", presolve=1)
    assert solvers.get("cpsat", presolve="false").presolve is False


def test_a_constructor_bug_is_not_reported_as_an_unknown_option(monkeypatch):
    class Broken(ProtocolOnly):
        def __init__(self, shout: bool = False):
            raise TypeError("a bug inside the constructor")

    monkeypatch.setitem(solvers.REGISTRY, "broken", Broken)
    with pytest.raises(TypeError, match="a bug inside the constructor"):
        solvers.get("broken")


def test_a_missing_backend_names_its_extra(monkeypatch):
    monkeypatch.setitem(solvers.REGISTRY, "ghost", solvers.SolverEntry("sudokulab_no_such_module:Ghost", extra="ghost"))
    from sudokulab.core.install import extra_hint

    missing = rf"solver 'ghost' is not installed \(sudokulab_no_such_module\): {re.escape(extra_hint('ghost'))}$"
    with pytest.raises(sudokulab.UsageError, match=missing):
        solvers.get("ghost")
    assert solvers.describe("ghost")["installed"] is False


@pytest.mark.slow
@pytest.mark.parametrize("n", [16, 25])
def test_the_default_solver_finishes_large_boards(n):
    (made,) = generate(n, 1, fraction=0.45, seed=n)
    name = solvers.default_for(made.puzzle.shape)
    result = sudokulab.solve(made.puzzle, time_limit=120)
    assert result.solver == name and result.status is Status.SOLVED and is_solution(result.grid, made.puzzle)


def test_command_and_library_share_the_default(capsys, monkeypatch):
    (made,) = generate(25, 1, fraction=0.45, seed=3)
    from sudokulab.formats.boj import format_puzzle

    code, out, err = run(capsys, "solve", "--stats", stdin=format_puzzle(made.puzzle).encode(), monkeypatch=monkeypatch)
    assert code == 0 and err.startswith(f"solver: {solvers.default_for(made.puzzle.shape)} ")


def test_one_rule_checks_every_answer(sample):
    good = solvers.get("backtrack").solve(sample)
    liar = SolveResult("liar", Status.NO_SOLUTION, None, 0.0)
    wrong = SolveResult("wrong", Status.SOLVED, (1,) * 81, 0.0)
    late = SolveResult("late", Status.TIME_LIMIT, None, 1.0)
    crash = SolveResult("crash", Status.ERROR, None, 0.0, {"error": "raised ValueError: x"})
    verdicts = checking.check_results(sample, [liar, good, wrong, late, crash])
    assert [v.right for v in verdicts] == [False, True, False, None, False]
    assert verdicts[0].problem == "said no solution, but backtrack found a checked grid"
    assert verdicts[2].problem == "row 1, column 2 is given 3 but the answer has 1"
    assert verdicts[4].problem == "raised ValueError: x"
    alone = checking.check_results(sample, [liar])
    assert alone[0].right is True  # nothing contradicts it


def test_import_exposes_no_stray_names():
    import types

    public = {name for name, value in vars(sudokulab).items()
              if not name.startswith("_") and not isinstance(value, types.ModuleType)}
    assert public <= set(sudokulab.__all__) | {"annotations"}
    assert not hasattr(sudokulab, "Any")
