"""The contract every registered solver keeps. A solver that joins the registry is tested here
by every test at once: BOJ sample, other sizes, no solution, time limit, canonical, counting.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudokulab import (
    Puzzle,
    Shape,
    Status,
    UnsupportedFeature,
    UsageError,
    first_conflict,
    format_grid,
    is_solution,
    parse_puzzle,
    solvers,
)
from sudokulab.solvers.base import SolverBase

from .conftest import random_puzzle

NAMES = solvers.names()
FAKE_SAT = Path(__file__).resolve().parent / "fixtures" / "programs" / "fake_sat.py"
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
        if canonical:
            raise UnsupportedFeature("first-found cannot give a canonical answer")
        result = self.inner.solve(puzzle, time_limit=time_limit)
        return solvers.SolveResult(self.name, result.status, result.grid, result.seconds, result.stats)

    def count(self, puzzle, *, limit=2, time_limit=None):
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
    assert isinstance(solver, solvers.Solver)
    assert solver.name in NAMES or solver.name == "first-found"


def test_boj_sample_gives_the_published_answer(solver, sample, sample_answer):
    result = solver.solve(sample)
    assert result.status is Status.SOLVED and result.solver == solver.name
    assert is_solution(result.grid, sample)
    assert format_grid(result.grid) == sample_answer  # the sample has one solution
    assert result.seconds >= 0 and isinstance(dict(result.stats), dict)


@pytest.mark.parametrize("shape, fraction, seed", [
    (Shape(2, 2), 0.3, 1), (Shape(2, 3), 0.4, 2), (Shape(3, 2), 0.4, 3), (Shape(3, 3), 0.45, 4),
    (Shape(3, 4), 0.6, 5), (Shape(4, 4), 0.65, 6),
])
def test_other_board_sizes(solver, shape, fraction, seed):
    puzzle, _ = random_puzzle(shape, fraction, seed)
    result = solver.solve(puzzle, time_limit=60)
    assert result.status is Status.SOLVED
    assert is_solution(result.grid, puzzle)


def test_one_instance_serves_many_shapes(solver, sample):
    for n in (4, 9, 6, 4):
        puzzle, _ = random_puzzle(n, 0.5, n)
        assert is_solution(solver.solve(puzzle).grid, puzzle)
    assert is_solution(solver.solve(sample).grid, sample)


def unsolvable_without_a_broken_rule(puzzle: Puzzle, answer: tuple[int, ...]) -> Puzzle:
    """The unique-solution puzzle with one blank given a wrong digit that breaks no rule yet."""
    for cell, value in enumerate(puzzle.givens):
        if value:
            continue
        for digit in range(1, puzzle.n + 1):
            if digit != answer[cell]:
                givens = list(puzzle.givens)
                givens[cell] = digit
                if first_conflict(tuple(givens), puzzle.shape) is None:
                    return Puzzle(puzzle.shape, tuple(givens))
    raise AssertionError("every wrong digit breaks a rule at once")


# A well-known puzzle with one solution and 30 givens (the Wikipedia "Sudoku" article's example).
CLASSIC = parse_puzzle("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")


def test_no_solution(solver, baseline):
    corner = Puzzle.from_rows([[1, 2, 0, 0], [0, 0, 3, 0], [0, 0, 4, 0], [0, 0, 0, 0]])
    assert first_conflict(corner.givens, corner.shape) is None
    assert solver.solve(corner).status is Status.NO_SOLUTION
    assert baseline.count(CLASSIC, limit=2).count == 1
    hidden = unsolvable_without_a_broken_rule(CLASSIC, baseline.solve(CLASSIC).grid)
    result = solver.solve(hidden)
    assert result.status is Status.NO_SOLUTION and result.grid is None


def needs(solver, capability: str) -> None:
    """Skip what a solver does not claim: the contract tests what a solver declares, nothing more."""
    if not getattr(solver.capabilities, capability):
        pytest.skip(f"{solver.name} declares no {capability.replace('_', ' ')} capability")


def test_givens_that_break_a_rule_have_no_solution(solver):
    broken = Puzzle(Shape(3, 3), (1,) + (0,) * 6 + (1,) + (0,) * 73)
    assert solver.solve(broken).status is Status.NO_SOLUTION
    if solver.capabilities.count:
        assert solver.count(broken, limit=5).count == 0


def test_time_limit_gives_the_time_limit_status(solver):
    needs(solver, "time_limit")
    needs(solver, "count")
    empty = Puzzle.empty(9)
    result = solver.count(empty, limit=10**9, time_limit=0.3)
    assert result.status is Status.TIME_LIMIT
    assert 0 < result.count < 10**9 and not result.exact


def test_a_tiny_time_limit_never_gives_a_wrong_answer(solver, sample):
    needs(solver, "time_limit")
    result = solver.solve(sample, time_limit=1e-6)
    assert result.status in (Status.SOLVED, Status.TIME_LIMIT)
    assert result.status is Status.TIME_LIMIT or is_solution(result.grid, sample)


@pytest.mark.parametrize("shape", [Shape(2, 2), Shape(2, 3), Shape(3, 3)])
def test_canonical_on_the_empty_board_is_the_baselines_answer(solver, baseline, shape):
    needs(solver, "canonical")
    empty = Puzzle.empty(shape)
    expected = baseline.solve(empty).grid
    result = solver.solve(empty, canonical=True)
    assert result.grid == expected
    assert is_solution(result.grid, empty)


def test_counting(solver, baseline, sample):
    needs(solver, "count")
    if "count" in solver.capabilities.slow:  # a run per solution: count a 4x4 with few solutions instead
        few = Puzzle.from_rows([[1, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4]])
        expected = baseline.count(few, limit=1000).count
        assert 2 <= expected <= 12 and solver.count(few, limit=1000).count == expected
    else:
        assert solver.count(Puzzle.empty(4), limit=1000).count == 288
    exact = solver.count(sample, limit=10)
    assert exact.count == 1 and exact.exact
    capped = solver.count(Puzzle.empty(9), limit=7)
    assert capped.count == 7 and not capped.exact


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_puzzles_solved_and_canonical_agrees_with_the_baseline(solver, baseline, data):
    shape = data.draw(st.sampled_from([Shape(2, 2), Shape(2, 3), Shape(3, 3)]), label="shape")
    fraction = data.draw(st.floats(0.35 if shape.n == 9 else 0.0, 0.9), label="fraction")
    puzzle, _ = random_puzzle(shape, fraction, data.draw(st.integers(0, 2**32), label="seed"))
    result = solver.solve(puzzle, time_limit=30)
    assert result.status is Status.SOLVED and is_solution(result.grid, puzzle)
    reference = baseline.solve(puzzle, time_limit=30)
    if reference.status is Status.SOLVED and solver.capabilities.canonical:
        assert solver.solve(puzzle, canonical=True, time_limit=30).grid == reference.grid
