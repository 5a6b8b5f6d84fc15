"""``sudokulab solutions``: every solution listed once, each checked, in canonical order, and the
same list from the search, from SAT's blocking clauses, from exact cover, and as many as ``count``."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokulab import solvers
from sudokulab.core.grid import Shape
from sudokulab.core.puzzle import is_solution
from sudokulab.errors import ExitCode
from sudokulab.formats.boj import load_puzzle
from sudokulab.verdicts.listing import DEFAULT_LIMIT, can_list, list_solutions
from tests.conftest import EXAMPLES, brute_force, cut, random_grid, run_cli

SEVERAL = str(EXAMPLES / "several-solutions.txt")
LISTING = ("backtrack", "backtrack-fast", "dlx", "sat")


def listed(name: str, puzzle, limit: int):
    with solvers.get(name) as solver:
        return list_solutions(solver, puzzle, limit)


def test_several_solutions_lists_exactly_counts_number_checked_and_sorted():
    puzzle = load_puzzle(SEVERAL)
    with solvers.get("sat") as solver:
        counted = solver.count(puzzle, limit=1000)
    assert counted.exact and counted.count > 1
    for name in LISTING:
        found = listed(name, puzzle, 1000)
        assert len(found.grids) == counted.count == len(set(found.grids)), name
        assert all(is_solution(grid, puzzle) for grid in found.grids), name
        assert list(found.grids) == sorted(found.grids) and found.complete and found.ordered, name
    assert listed("backtrack", puzzle, 1000).grids == listed("sat", puzzle, 1000).grids


@pytest.mark.parametrize("name", ("backtrack", "backtrack-fast", "dlx"))
def test_a_search_in_canonical_order_gives_the_first_k(name):
    puzzle = load_puzzle(SEVERAL)
    everything = listed("sat", puzzle, 1000).grids
    for limit in (1, 2, 5):
        first = listed(name, puzzle, limit)
        assert first.grids == everything[:limit] and not first.complete and first.ordered


def test_sat_lists_k_distinct_solutions_in_its_own_order():
    puzzle = load_puzzle(SEVERAL)
    everything = set(listed("backtrack", puzzle, 1000).grids)
    some = listed("sat", puzzle, 3)
    assert len(set(some.grids)) == 3 and set(some.grids) <= everything
    assert not some.complete and not some.ordered


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(4, 9))
def test_small_boards_list_what_brute_force_finds(seed, clues):
    shape = Shape(2, 2)
    rng = random.Random(seed)
    puzzle = cut(random_grid(shape, rng), shape, clues, rng)
    everything = sorted(brute_force(puzzle))
    for name in LISTING:
        found = listed(name, puzzle, 1000)
        assert list(found.grids) == everything and found.complete, name


def test_the_command_prints_blocks_separated_by_a_blank_line(capsys):
    code, out, err = run_cli(capsys, "solutions", SEVERAL, "--solver", "backtrack", "--limit", "3")
    blocks = out.split("\n\n")
    assert code == 0 and len(blocks) == 3
    puzzle = load_puzzle(SEVERAL)
    grids = [tuple(int(v) for v in block.split()) for block in blocks]
    assert grids == list(listed("sat", puzzle, 1000).grids[:3])
    assert "the first 3 solutions listed, in canonical order; there are more" in err


def test_the_default_limit_and_a_complete_list(capsys):
    code, out, err = run_cli(capsys, "solutions", SEVERAL, "--solver", "sat")
    assert code == 0 and len(out.split("\n\n")) == DEFAULT_LIMIT and "there are more" in err
    code, out, err = run_cli(capsys, "solutions", str(EXAMPLES / "boj2580-sample.txt"), "--limit", "5")
    assert code == 0 and out == (EXAMPLES / "boj2580-sample.out").read_text() and err == ""


def test_no_solution_exits_1(capsys):
    code, out, err = run_cli(capsys, "solutions", str(EXAMPLES / "no-solution.txt"))
    assert (code, out) == (ExitCode.NO_SOLUTION, "") and err.startswith("sudokulab: no solution")


def test_a_solver_that_cannot_list_is_refused_with_one_line(capsys):
    unable = next((name for name in solvers.names()
                   if solvers.unavailable(name) is None and not can_list(solvers.solver_class(name))), None)
    if unable is None:
        pytest.skip("every registered solver lists solutions")
    code, out, err = run_cli(capsys, "solutions", SEVERAL, "--solver", unable)
    assert (code, out) == (ExitCode.BAD_INPUT, "") and err.count("\n") == 1
    assert f"solver '{unable}' cannot list solutions; one of these can: " in err and "backtrack" in err
