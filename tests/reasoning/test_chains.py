"""Chains, ALS-XZ and forcing chains: each fires where it must (exact eliminations), stays silent
where nothing is forced, and every step it writes is certified by SAT and names every link."""

from __future__ import annotations

import pytest

from sudokulab import parse_puzzle
from sudokulab.core.grid import Shape
from sudokulab.core.puzzle import Puzzle
from sudokulab.core.rules import standard
from sudokulab.datasets.catalog import shipped
from sudokulab.reasoning import als, chains, fallbacks, forcing
from sudokulab.reasoning.board import Board
from sudokulab.reasoning.explain import _cheapest
from sudokulab.reasoning.step_check import check_step
from sudokulab.reasoning.steps import ChainNode, chain_text

FINDERS = {
    "x-chain": chains.x_chain, "xy-chain": chains.xy_chain, "aic": chains.aic, "grouped aic": chains.grouped_aic,
    "als-xz": als.als_xz, "region forcing chain": forcing.region_forcing_chain,
    "cell forcing chain": forcing.cell_forcing_chain, "dynamic forcing chain": forcing.dynamic_forcing_chain,
}


def _magictour_line_1() -> Puzzle:
    path = shipped("magictour_top1465")
    assert path is not None
    return parse_puzzle(path.read_text().splitlines()[0].strip()[:81])


@pytest.fixture(scope="module")
def boards() -> dict[int, Board]:
    """Magictour line 1 after 0, 11 and 20 steps of its explanation (positions where chains fire)."""
    board = Board.start(_magictour_line_1())
    found = {0: board.copy()}
    for number in range(1, 21):
        board.apply(_cheapest(board))
        if number in (11, 20):
            found[number] = board.copy()
    return found


FIRES = [  # (finder, after how many steps, struck candidates as (cell, digit))
    ("aic", 0, [(38, 1), (38, 2), (38, 4)]),
    ("grouped aic", 0, [(74, 8)]),
    ("als-xz", 0, [(58, 8), (61, 8), (62, 8), (74, 8)]),
    ("region forcing chain", 0, [(2, 5)]),
    ("cell forcing chain", 0, [(58, 8)]),
    ("dynamic forcing chain", 0, [(2, 7)]),
    ("xy-chain", 11, [(79, 1)]),
    ("x-chain", 20, [(50, 4)]),
]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "after", "struck"), FIRES, ids=[f[0] for f in FIRES])
def test_finder_fires_with_exact_eliminations_and_a_certified_step(boards, name, after, struck):
    puzzle = _magictour_line_1()
    step = FINDERS[name](boards[after], 6.6)
    assert step is not None and step.technique == name
    assert list(step.removed) == struck and not step.placed
    assert check_step(puzzle, step)
    assert (step.chain or name == "als-xz") and step.difficulty >= 6.6
    for node in step.chain:  # the printed text names every node and every link
        assert node.label(9) in step.text or not node.digit
        assert f"({node.why})" in step.text or not node.why


@pytest.mark.slow
def test_chains_need_their_links(boards):
    """No single-digit chain on the start of magictour line 1, nor an xy-chain: only mixed chains."""
    assert chains.x_chain(boards[0], 6.6) is None
    assert chains.xy_chain(boards[0], 6.6) is None


@pytest.mark.parametrize("name", FINDERS)
def test_nothing_fires_where_nothing_is_forced(name):
    """An empty board: no digit has two places anywhere, no cell two digits, no branch settles anything."""
    empty = Puzzle(Shape(3, 3), (0,) * 81, standard(Shape(3, 3)))
    assert FINDERS[name](Board.start(empty), 6.6) is None


def test_length_difficulty_follows_sudoku_explainer():
    assert [chains.length_difficulty(n) for n in (4, 5, 6, 7, 8, 9, 12, 13, 16, 17, 24, 25)] == \
        [0.0, 0.1, 0.1, 0.2, 0.2, 0.3, 0.3, 0.4, 0.4, 0.5, 0.5, 0.6]


def test_chain_text_prints_each_link_and_branch():
    chain = (ChainNode((30,), 3, True), ChainNode((33,), 3, False, "row 4", 0),
             ChainNode((51,), 3, True, "column 7", 1), ChainNode((0,), 5, True), ChainNode((0,), 0, False,
                                                                                       "r1c1 (no digit left)", 3))
    assert chain_text(chain, 9) == ("r4c4=3 → r4c7≠3 (row 4) → r6c7=3 (column 7); r1c1=5 → "
                                    "contradiction: r1c1 (no digit left)")


@pytest.mark.slow
def test_contradiction_prints_its_chain_and_rests_on_it(boards):
    puzzle = _magictour_line_1()
    step = fallbacks.contradiction(boards[20], 7.5)
    assert step is not None and check_step(puzzle, step)
    assert "contradiction:" in step.text and " → " in step.text
    assert step.chain[0].why == "" and step.chain[-1].digit == 0  # from the assumption to where it breaks
    assert len(step.premises) < len(boards[20].facts()) / 3


@pytest.mark.slow
def test_search_shows_a_case_split(boards):
    puzzle = _magictour_line_1()
    step = fallbacks.search(boards[20], 10.0)
    assert step is not None and check_step(puzzle, step)
    assert "case split" in step.text and "search shows" not in step.text
