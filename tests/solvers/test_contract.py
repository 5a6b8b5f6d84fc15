"""The contract every registered solver keeps. A solver that joins the registry is tested here
by every test at once: BOJ sample, other sizes, no solution, time limit, canonical, counting.

The checks themselves are ``sudokulab.grading.contract`` (plain functions that raise ``ContractFailure``
with the reason), so ``sudokulab check-solver`` holds a student's class to exactly these.
"""

from __future__ import annotations

import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudokulab import Shape, UnsupportedFeature, UsageError, solvers
from sudokulab.grading import contract
from sudokulab.solvers.base import SolverBase, check_kinds

from ..conftest import FIXTURES

NAMES = solvers.names()
FAKE_SAT = FIXTURES / "programs" / "fake_sat.py"
CONFIGURED = [(name, {}) for name in NAMES if name != "dimacs"] + [
    ("dimacs", {"command": f"{sys.executable} {FAKE_SAT} sat"}),  # the protocol, everywhere
    ("dimacs", {}),  # a real SAT program, where one is installed
]


class FirstFound(SolverBase):
    """A solver that declares neither canonical answers nor counting: the contract asks neither of it."""

    name = "first-found"
    paradigm = "test"
    capabilities = solvers.Capabilities(canonical=False, count=False)

    def __init__(self) -> None:
        super().__init__()
        self.inner = solvers.get("backtrack-fast")

    def solve(self, puzzle, *, time_limit=None, canonical=False):
        check_kinds(self, puzzle)  # it declares all-different only: other kinds are refused, not passed on
        if canonical:
            raise UnsupportedFeature("first-found cannot give a canonical answer")
        result = self.inner.solve(puzzle, time_limit=time_limit)
        return solvers.SolveResult(self.name, result.status, result.grid, result.seconds, result.stats)

    def count(self, puzzle, *, limit=2, time_limit=None):
        check_kinds(self, puzzle)
        raise UnsupportedFeature("first-found cannot count solutions")


@pytest.fixture(scope="module", params=CONFIGURED + [("first-found", {})],
                ids=lambda c: f"{c[0]}-{'fixture' if c[1] else 'default'}" if c[0] == "dimacs" else c[0])
def solver(request):
    name, options = request.param
    if name == "first-found":  # not registered: the contract holds for any class, by what it declares
        yield FirstFound()
        return
    why = solvers.unavailable(name) if not options else None
    if why:
        pytest.skip(f"{name}: {why}")
    with solvers.get(name, **options) as instance:
        yield instance


@pytest.fixture(scope="module")
def baseline():
    return solvers.get("backtrack")


def test_registry_lists_the_baseline_first_and_refuses_unknown_names():
    assert NAMES[:2] == ["backtrack", "backtrack-fast"]
    with pytest.raises(UsageError, match="unknown solver 'nope'; choose one of: backtrack, backtrack-fast"):
        solvers.get("nope")
    with pytest.raises(UsageError, match="takes no option 'colour'; its options: none"):
        solvers.get("backtrack", colour="red")


def test_every_solver_implements_the_protocol(solver):
    contract.check_protocol(solver)
    assert solver.name in NAMES or solver.name == "first-found"


def test_boj_sample_gives_the_published_answer(solver, sample, sample_answer):
    assert (sample, sample_answer) == (contract.BOJ_SAMPLE, contract.BOJ_SAMPLE_ANSWER)  # the files, as shipped
    contract.check_boj_sample(solver)


@pytest.mark.parametrize("shape, fraction, seed", contract.OTHER_SIZES)
def test_other_board_sizes(solver, shape, fraction, seed):
    contract.check_other_board_size(solver, shape, fraction, seed)


@pytest.mark.slow
def test_one_instance_serves_many_shapes(solver):
    contract.check_one_instance_many_shapes(solver)


def test_no_solution(solver, baseline):
    contract.check_no_solution(solver, baseline)


def needs(solver, *capabilities: str) -> None:
    """Skip what a solver does not claim: the contract tests what a solver declares, nothing more."""
    why = contract.lacks(solver, capabilities)
    if why:
        pytest.skip(f"{solver.name} {why}")


def test_givens_that_break_a_rule_have_no_solution(solver):
    contract.check_givens_that_break_a_rule(solver)


def test_time_limit_gives_the_time_limit_status(solver):
    needs(solver, "time_limit", "count")
    contract.check_time_limit(solver)


def test_a_tiny_time_limit_never_gives_a_wrong_answer(solver):
    needs(solver, "time_limit")
    contract.check_tiny_time_limit(solver)


@pytest.mark.slow
@pytest.mark.parametrize("shape", contract.CANONICAL_SHAPES)
def test_canonical_on_the_empty_board_is_the_baselines_answer(solver, baseline, shape):
    needs(solver, "canonical")
    contract.check_canonical_empty_board(solver, baseline, shape)


@pytest.mark.slow
def test_counting(solver, baseline):
    needs(solver, "count")
    contract.check_counting(solver, baseline)


@pytest.mark.slow
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_puzzles_solved_and_canonical_agrees_with_the_baseline(solver, baseline, data):
    shape = data.draw(st.sampled_from([Shape(2, 2), Shape(2, 3), Shape(3, 3)]), label="shape")
    fraction = data.draw(st.floats(0.35 if shape.n == 9 else 0.0, 0.9), label="fraction")
    contract.check_random_puzzle(solver, baseline, shape, fraction, data.draw(st.integers(0, 2**32), label="seed"))


@pytest.mark.slow
def test_variant_rules_solved_or_refused_as_declared(solver, baseline):
    contract.check_variant_rules(solver, baseline)


@pytest.mark.parametrize("make", [lambda: solvers.get("backtrack-fast"), FirstFound],
                         ids=["backtrack-fast", "first-found"])
def test_the_suite_that_check_solver_runs_is_these_checks(make, baseline):
    """``contract.run`` (what check-solver prints) is the checks above, skipping only what a solver lacks.

    Two solvers, one that declares every capability and one that declares few: the tests above
    already run each check on every built-in solver, and ``check-solver`` runs on each built-in
    class in test_grading (running the whole suite a third time per solver here cost a minute)."""
    solver = make()
    outcomes = contract.run(solver, baseline)
    assert [o.check for o in outcomes] == list(contract.CHECK_NAMES)
    for outcome in outcomes:
        assert outcome.status in ("passed", "skipped"), outcome
        check = next(c for c in contract.CHECKS if c.name == outcome.check)
        assert (outcome.status == "skipped") == (contract.lacks(solver, check.needs) is not None)


def test_a_contract_failure_names_what_went_wrong(baseline):
    class Transposed(FirstFound):
        """Answers the transpose of a solution: still a Latin square, but the givens move."""

        def solve(self, puzzle, *, time_limit=None, canonical=False):
            result = super().solve(puzzle, time_limit=time_limit, canonical=canonical)
            n = puzzle.n
            grid = result.grid and tuple(result.grid[c * n + r] for r in range(n) for c in range(n))
            return solvers.SolveResult(self.name, result.status, grid, result.seconds, result.stats)

    with pytest.raises(contract.ContractFailure, match=r"the BOJ sample: the answer is wrong: row 1, column 2 is "
                                                       r"given 3 but the answer has 7"):
        contract.check_boj_sample(Transposed())
