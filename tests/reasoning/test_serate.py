"""Sudoku Explainer's scale (``reasoning.serate``): serate's ER/EP/ED, held to serate's own ratings.

The contract is ``tests/fixtures/serate_ratings.tsv``: puzzles drawn with a seed from 17_clue,
norvig_top95, magictour_top1465 and the forum sets, each with the ER/EP/ED a built serate gave it
(benchmarks/serate.py wrote it; CI cannot build serate). One test per way our own catalogue's path
differs from SE's (the issue's five classes) pins SE's behaviour on a puzzle of the fixture; every
path is checked against the solution (a placed value is the solution's, a struck one is not).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from sudokulab import parse_puzzle, solve
from sudokulab.reasoning.serate import chaining
from sudokulab.reasoning.serate.chaining import Chaining
from sudokulab.reasoning.serate.grid import Grid
from sudokulab.reasoning.serate.intersections import locking
from sudokulab.reasoning.serate.solver import path, rate, serate_round

from ..conftest import ROOT

FIXTURE = ROOT / "tests" / "fixtures" / "serate_ratings.tsv"
COMPILED = chaining._compiled() is not None


def fixture_rows() -> list[tuple[str, int, str, str]]:
    rows = []
    for text in FIXTURE.read_text().splitlines():
        if text and not text.startswith("#"):
            name, line, puzzle, ratings = text.split("\t")
            rows.append((name, int(line), puzzle, ratings))
    return rows


def row(name: str, line: int) -> str:
    """A fixture puzzle by set and line."""
    return next(p for n, ln, p, _ in fixture_rows() if n == name and ln == line)


def givens_of(text: str) -> list[int]:
    return [int(c) if c.isdigit() else 0 for c in text]


def numbers(puzzle: str) -> str:
    found = rate(givens_of(puzzle))
    return f"{found.er:.1f}/{found.ep:.1f}/{found.ed:.1f}"


def serate_of(name: str, line: int) -> str:
    return next(r for n, ln, _, r in fixture_rows() if n == name and ln == line)


def check_against_solution(puzzle: str) -> int:
    """Every step of SE's path on ``puzzle`` places the solution's values and strikes none of them."""
    answer = solve(parse_puzzle(puzzle)).grid
    assert answer is not None
    steps = 0
    for hint, _ in path(givens_of(puzzle)):
        steps += 1
        if hint.cell >= 0:
            assert answer[hint.cell] == hint.value, hint
        for cell, value in hint.removals():
            assert answer[cell] != value, hint
    return steps


def test_the_fixture_names_its_sets_and_covers_them():
    text = FIXTURE.read_text()
    rows = fixture_rows()
    assert len(rows) >= 150
    for name in ("17_clue", "norvig_top95", "magictour_top1465", "forum_hardest_1106"):
        assert f"#   {name} (" in text
        assert any(n == name for n, *_ in rows)
    assert "seed 45" in text and "729c00e" in text


# --- The five ways our catalogue's path differs from SE's. ----------------------------------------------

def test_a_direct_hidden_pair_is_2_0_where_our_catalogue_has_none():
    puzzle = row("17_clue", 22339)
    assert serate_of("17_clue", 22339) == "2.0/1.2/1.2" == numbers(puzzle)
    found = rate(givens_of(puzzle))
    assert found.hardest is not None and found.hardest.technique == "Direct Hidden Pair"
    assert found.hardest.placed and not found.hardest.removed  # it places the single the pair leaves
    check_against_solution(puzzle)


def test_se_direct_pointing_takes_only_a_single_in_a_region_of_the_first_regions_kind():
    """SE's direct pointing places a single that the pointing leaves in another block along the line
    (claiming: another line through the block); ours also takes one in any group, so where SE has to
    point (2.6) our catalogue found a direct step and rated the puzzle lower."""
    from sudokulab.reasoning.board import Board, tables
    from sudokulab.reasoning.candidates import Candidates
    from sudokulab.reasoning.rating import rate as our_rate
    from sudokulab.reasoning.subsets import direct_locked_candidates

    puzzle = row("17_clue", 41338)
    assert serate_of("17_clue", 41338) == "2.6/1.2/1.2" == numbers(puzzle)
    assert our_rate(parse_puzzle(puzzle)).rating < 2.6
    grid = next(grid for hint, grid in path(givens_of(puzzle)) if hint.name == "Pointing")
    assert not list(locking(grid, True))  # SE's direct pointing has nothing here
    pz = parse_puzzle(puzzle)
    marks = [1 << (v - 1) if v else mask >> 1 for v, mask in zip(grid.values, grid.cands, strict=True)]
    board = Board(Candidates(pz, marks), [bool(v) for v in grid.values], tables(pz.rules))
    ours = direct_locked_candidates(board, 1.7)
    assert ours is not None  # ours does: the single lies in a group of the other kind
    placed_cell = ours.placed[0][0]
    assert solve(pz).grid[placed_cell] == ours.placed[0][1]


def test_a_turbot_fish_is_a_forcing_x_chain_of_six_potentials_at_6_6():
    puzzle = row("17_clue", 39423)
    assert serate_of("17_clue", 39423) == "6.6/1.2/1.2" == numbers(puzzle)
    hardest = rate(givens_of(puzzle)).hardest
    assert hardest is not None and (hardest.technique, hardest.difficulty) == ("Turbot Fish", 6.6)
    chain = next(h for h, _ in path(givens_of(puzzle)) if h.name == "Turbot Fish")
    assert chain.complexity == 6  # SE's "Turbot Fish": a forcing X-chain of six potentials
    check_against_solution(puzzle)


def test_a_region_forcing_chain_is_rated_at_se_value():
    puzzle = row("magictour_top1465", 1271)
    assert serate_of("magictour_top1465", 1271) == "8.2/1.2/1.2" == numbers(puzzle)
    hint = next(h for h, _ in path(givens_of(puzzle)) if h.difficulty == 8.2)
    assert hint.name == "Region Forcing Chains"  # multiple (static) chains: 8.0 plus SE's length bonus
    assert hint.difficulty == 8.0 + 0.1 + 0.1 and hint.complexity > 6


@pytest.mark.slow
def test_a_forum_position_is_decided_by_level_2_with_forcing_chains_inside_the_branch():
    """forum_hardest_1106 line 3: after SE's first three steps nothing up to level 1 applies; level 2,
    whose inner rules include SE's forcing X-, Y- and XY-chains (its AICs), gives a region forcing
    chain at 10.3, part of whose length is the nested chains' (SE's trace: complexity 58)."""
    puzzle = row("forum_hardest_1106", 3)
    steps = path(givens_of(puzzle))
    for _ in range(3):
        next(steps)
    hint, grid = next(steps)
    assert (hint.name, hint.difficulty, hint.complexity) == (
        "Dynamic Region Forcing Chains (+ Forcing Chains)", 10.3, 58)
    assert hint.flat_complexity() < hint.complexity  # nested chains count into its length
    assert not Chaining(True, True, False, 1).hints(grid.copy())
    assert serate_of("forum_hardest_1106", 3).startswith("10.3/")


# --- The port and its compiled form. --------------------------------------------------------------------

def test_serate_prints_each_number_rounded_half_up_to_tenths():
    assert serate_round(6.6 + 0.1 + 0.1) == 6.8
    assert serate_round(9.049999) == 9.0
    assert serate_round(9.05) == 9.1
    assert serate_round(20.0) == 20.0


def test_a_hint_that_changes_nothing_would_loop_so_the_path_refuses_it():
    """serate applies the first hint until the grid is solved; every hint found changes the grid."""
    puzzle = row("norvig_top95", 5)
    before = None
    for hint, grid in path(givens_of(puzzle)):
        key = grid.key()
        assert key != before
        before = key
        assert hint.removable or hint.cell >= 0


@pytest.mark.slow
@pytest.mark.skipif(not COMPILED, reason="the compiled chaining rules were not built here")
@pytest.mark.parametrize("name, line, steps", [("norvig_top95", 16, 6), ("magictour_top1465", 1246, 4)])
def test_the_compiled_rules_give_the_port_hints(name, line, steps, monkeypatch):
    """The compiled chaining rules and the Python port: the same hints, in the same order, at the
    first positions of a path (levels 0 and 1 of SE's chaining)."""
    puzzle = row(name, line)
    grids = [grid.copy() for _, (_, grid) in zip(range(steps), path(givens_of(puzzle)))]
    module = chaining._compiled()
    flags = [(False, False, False, 0), (False, True, True, 0), (True, False, False, 0), (True, True, False, 0)]

    def key(hints):
        return [(h.name, h.difficulty, h.complexity, h.removals(), h.cell, h.value) for h in hints]

    for grid in grids[-2:]:
        for flag in flags:
            compiled = key(chaining.compiled_hints(Chaining(*flag), grid, module))
            monkeypatch.setattr(chaining, "_COMPILED", [None])
            port = key(Chaining(*flag).hints(grid.copy()))
            monkeypatch.setattr(chaining, "_COMPILED", [module])
            assert compiled == port, flag


# --- The fixture. ------------------------------------------------------------------------------------------

def test_the_first_17_clue_puzzles_of_the_fixture_are_rated_as_serate_rates_them():
    """The fast tier's share of the fixture (the whole fixture is the slow test below)."""
    rows = [r for r in fixture_rows() if r[0] == "17_clue"][:10]
    assert len(rows) == 10
    different = [(line, ratings, numbers(puzzle)) for _, line, puzzle, ratings in rows if numbers(puzzle) != ratings]
    assert different == []


@pytest.mark.slow
def test_the_whole_fixture_is_rated_as_serate_rates_it():
    """The issue's bar: ER equal on 90%, within 0.1 on 97%, EP and ED equal on 85%, the forum puzzles
    within 0.1. The port has met every row exactly so far; the test holds the bar."""
    rows = fixture_rows()
    ours = {(name, line): numbers(puzzle) for name, line, puzzle, _ in rows}
    theirs = {(name, line): ratings for name, line, _, ratings in rows}

    def part(key, i):
        return float(key.split("/")[i])

    er = sum(part(ours[k], 0) == part(theirs[k], 0) for k in theirs)
    near = sum(abs(part(ours[k], 0) - part(theirs[k], 0)) <= 0.1001 for k in theirs)
    ep = sum(part(ours[k], 1) == part(theirs[k], 1) for k in theirs)
    ed = sum(part(ours[k], 2) == part(theirs[k], 2) for k in theirs)
    n = len(theirs)
    assert er >= 0.90 * n and near >= 0.97 * n and ep >= 0.85 * n and ed >= 0.85 * n
    forum = [k for k in theirs if k[0].startswith("forum")]
    assert all(abs(part(ours[k], 0) - part(theirs[k], 0)) <= 0.1001 for k in forum)


@pytest.mark.slow
@pytest.mark.parametrize("name, line", [("magictour_top1465", 1246), ("norvig_top95", 16), ("forum_hardest_1106", 38)])
def test_every_step_agrees_with_the_solution(name, line):
    assert check_against_solution(row(name, line)) > 0


def test_grid_keeps_its_region_places_with_its_candidates():
    grid = Grid.of(givens_of(row("17_clue", 22339)))
    fresh = Grid(list(grid.values), list(grid.cands))
    assert grid.pos == fresh.pos
    hint = next(h for h, _ in path(givens_of(row("17_clue", 22339))))
    hint.apply(grid)
    assert grid.pos == Grid(list(grid.values), list(grid.cands)).pos


# --- On the command line. --------------------------------------------------------------------------------

def _sudokulab(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, COLUMNS="100")
    return subprocess.run([sys.executable, "-m", "sudokulab", *args], input=stdin, capture_output=True, text=True,
                          env=env, timeout=120)


@pytest.mark.slow
def test_rate_on_se_scale_gives_er_ep_ed(tmp_path: Path):
    import json

    puzzles = tmp_path / "two.txt"
    puzzles.write_text(row("17_clue", 22339) + "\n" + row("17_clue", 39423) + "\n")
    done = _sudokulab("rate", str(puzzles), "--scale", "se", "--json", "--quiet")
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document["scale"] == "se"
    assert [(p["rating"], p["ep"], p["ed"], p["technique"]) for p in document["puzzles"]] == [
        (2.0, 1.2, 1.2, "Direct Hidden Pair"), (6.6, 1.2, 1.2, "Turbot Fish")]
    rows = _sudokulab("rate", str(puzzles), "--scale", "se", "--rows", "--quiet")
    assert "ER/EP/ED 2.0/1.2/1.2\tDirect Hidden Pair" in rows.stdout


@pytest.mark.slow
def test_rate_on_se_scale_refuses_variant_rules_in_one_line(tmp_path: Path):
    puzzles = tmp_path / "one.txt"
    puzzles.write_text(row("17_clue", 22339) + "\n")
    done = _sudokulab("rate", str(puzzles), "--scale", "se", "--rules", "x")
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "standard Sudoku" in done.stderr


def test_a_puzzle_of_another_size_is_a_row_with_its_reason_on_se_scale():
    from sudokulab.datasets.reading import Entry
    from sudokulab.reasoning.rating import Rated, rate_entries

    small = parse_puzzle("1...\n..1.\n.1..\n....")
    rows = list(rate_entries("tiny", [Entry(0, 1, small)], scale="se"))
    assert isinstance(rows[0], Rated) and rows[0].rating is None and "9x9" in (rows[0].error or "")
