"""generate to order: a rating range on serate's scale, a technique the path needs, symmetric and minimal
givens, always one solution; the same puzzles for a seed whoever makes them. Every claim is checked
from the outside: symmetry from the pattern, uniqueness and minimality by counting solutions with a
solver, the rating and the technique by rating the puzzle again."""

from __future__ import annotations

import json

import pytest

from sudokulab import count, parse_puzzle
from sudokulab.generation.to_order import Order, made_to_order, orbits, symmetric, technique_name, uses
from sudokulab.reasoning.serate.solver import rate, rules, solves

from ..conftest import run_cli


def givens_of(text: str) -> list[int]:
    return [int(c) if c.isdigit() else 0 for c in text]


def solutions(givens: list[int]) -> int:
    return count(parse_puzzle("".join(str(v) if v else "." for v in givens)), limit=2).count


def test_the_orbits_of_each_symmetry_cover_the_board_once():
    for symmetry, sizes in (("none", {1}), ("rotational", {1, 2}), ("mirror", {1, 2})):
        found = orbits(symmetry)
        assert sorted(c for orbit in found for c in orbit) == list(range(81))
        assert {len(orbit) for orbit in found} == sizes
    assert (40,) in orbits("rotational") and (0, 80) in orbits("rotational") and (0, 8) in orbits("mirror")
    assert (4,) in orbits("mirror")


def test_technique_names_are_checked_and_match_families():
    assert technique_name("XY-Wing") == "xy wing"
    assert uses("XY-Wing", "xy wing") and not uses("XYZ-Wing", "xy wing")
    assert uses("Unique Rectangle type 2", "unique rectangle") and uses("BUG type 1", "bug")
    assert not uses("Forcing X-Chain", "forcing chain")


@pytest.mark.slow
def test_an_easy_rated_request_gives_unique_puzzles_in_range():
    made = list(made_to_order(Order(rating=(1.0, 1.5)), 2, seed=8))
    assert len(made) == 2
    for candidate in made:
        assert 1.0 <= rate(candidate.puzzle.givens).er <= 1.5
        assert solutions(list(candidate.puzzle.givens)) == 1


def test_bad_requests_are_refused_in_one_line(capsys):
    for argv, words in ((["--rating", "7..6"], "LO..HI"), (["--needs", "x-wings"], "unknown technique"),
                        (["--rating", "6..7", "--clues", "30"], "--clues"),
                        (["--symmetry", "rotational", "--size", "4"], "9x9")):
        code, out, err = run_cli(capsys, "generate", *argv)
        assert code == 2 and out == ""
        assert err.strip().count("\n") == 0 and words in err


@pytest.mark.slow
def test_rated_symmetric_request_of_the_issue(capsys):
    """``generate --rating 6.0..7.0 --symmetry rotational --count 5``: 5 puzzles, each symmetric, with
    one solution, rated in range."""
    code, out, err = run_cli(capsys, "generate", "--rating", "6.0..7.0", "--symmetry", "rotational", "--count", "5",
                             "--seed", "3", "--quiet")
    assert code == 0, err
    lines = out.split()
    assert len(lines) == 5 and len(set(lines)) == 5
    for line in lines:
        givens = givens_of(line)
        assert symmetric(tuple(givens), "rotational")
        assert all(bool(givens[c]) == bool(givens[80 - c]) for c in range(81))
        assert solutions(givens) == 1
        assert 6.0 <= rate(givens).er <= 7.0


@pytest.mark.slow
def test_needs_xy_wing_gives_puzzles_that_need_it(capsys):
    """The path uses an XY-wing, and SE's rules before the XY-wing cannot finish the puzzle."""
    code, out, _ = run_cli(capsys, "generate", "--needs", "xy-wing", "--count", "2", "--seed", "5", "--json",
                           "--quiet")
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    before = tuple(r for r in rules()[:[r.technique for r in rules()].index("XY-Wing")])
    for row in rows:
        givens = givens_of(row["puzzle"])
        found = rate(givens)
        assert any(step.technique == "XY-Wing" for step in found.steps)
        assert (found.er, found.ep, found.ed) == (row["er"], row["ep"], row["ed"])
        assert not solves(givens, before)
        assert solves(givens, rules())


@pytest.mark.slow
def test_minimal_puzzles_lose_their_one_solution_without_any_given(capsys):
    code, out, _ = run_cli(capsys, "generate", "--minimal", "--symmetry", "mirror", "--count", "2", "--seed", "5",
                           "--quiet")
    assert code == 0
    for line in out.split():
        givens = givens_of(line)
        assert solutions(givens) == 1 and symmetric(tuple(givens), "mirror")
        for cell in range(81):
            if givens[cell]:
                assert solutions(givens[:cell] + [0] + givens[cell + 1:]) == 2


@pytest.mark.slow
def test_the_same_seed_gives_the_same_puzzles_on_two_processes(capsys):
    argv = ["generate", "--rating", "2.0..3.0", "--symmetry", "rotational", "--count", "3", "--seed", "11", "--quiet"]
    one = run_cli(capsys, *argv)
    two = run_cli(capsys, *argv, "--jobs", "2")
    assert one[0] == two[0] == 0
    assert one[1] == two[1] and len(one[1].split()) == 3


def test_too_few_tries_is_exit_3_with_what_was_found(capsys):
    code, out, err = run_cli(capsys, "generate", "--rating", "11.5..12.0", "--count", "1", "--tries", "2",
                             "--seed", "1", "--quiet")
    assert code == 3 and out == ""
    assert "only 0 of 1 puzzles" in err and "from 2 candidates" in err
