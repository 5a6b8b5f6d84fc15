"""Nested forcing chains and SE's Nishio: each level fires where it must and stays silent where it
must, on published positions (forum_hardest_1106 lines 1 and 2 after their singles), and every step
it writes is certified by SAT and names the techniques it used inside the branch."""

from __future__ import annotations

import pytest

from sudokulab import parse_puzzle, solve
from sudokulab.core.grid import Shape
from sudokulab.core.puzzle import Puzzle
from sudokulab.core.rules import standard
from sudokulab.datasets.catalog import shipped
from sudokulab.reasoning import fallbacks, forcing, nested, probe
from sudokulab.reasoning.board import Board
from sudokulab.reasoning.explain import explain
from sudokulab.reasoning.implications import DigitTrial
from sudokulab.reasoning.step_check import check_step
from sudokulab.reasoning.techniques import NESTED_LEVELS, TECHNIQUES


def _forum(line: int) -> Puzzle:
    path = shipped("forum_hardest_1106")
    assert path is not None
    return parse_puzzle(path.read_text().splitlines()[line - 1].strip()[:81])


def _after_singles(puzzle: Puzzle) -> Board:
    """The board where the first step that is not a single is due."""
    board = Board.start(puzzle)
    for step in explain(puzzle, max_level="naked single", minimal=False).steps:
        board.apply(step)
    return board


def _level(board: Board, k: int):
    return nested.nested_forcing_chain(board, 9.0, NESTED_LEVELS[:k], f"level {k}")


def _inside(step) -> list[str]:
    return [node.why for node in step.chain if "inside the branch" in node.why]


@pytest.mark.slow
def test_level_1_fires_where_no_dynamic_chain_does():
    """forum_hardest_1106 line 2 after its singles: no Nishio, no dynamic forcing chain, and no
    assumption breaks by singles; with locked candidates, pairs and x-wings inside one does."""
    puzzle = _forum(2)
    board = _after_singles(puzzle)
    assert fallbacks.contradiction(board, 7.5) is None
    assert forcing.dynamic_forcing_chain(board, 8.5) is None
    step = _level(board, 1)
    assert step is not None and check_step(puzzle, step)
    assert step.removed and not step.placed and step.difficulty >= 9.0
    inner = _inside(step)
    assert inner and all(why.split(" in ")[0] in {"locked candidates", "naked pair", "x-wing", "hidden pair"}
                         for why in inner)
    assert "inside the branch" in step.text and step.chain[-1].digit == 0
    (cell, digit), = step.removed
    assert forcing.trial(board, (cell, digit, True)).broken is None  # singles alone do not break it


@pytest.mark.slow
def test_level_2_fires_where_level_1_does_not():
    """forum_hardest_1106 line 1 after its singles: nothing breaks at level 1; with x- and xy-chains
    inside the branch (level 2) an assumption does, and the step counts the inner chains' nodes."""
    puzzle = _forum(1)
    board = _after_singles(puzzle)
    assert _level(board, 1) is None
    step = _level(board, 2)
    assert step is not None and check_step(puzzle, step)
    assert any(why.startswith(("x-chain", "xy-chain")) for why in _inside(step))
    assert step.difficulty > 9.0 + 0.1 * 0  # a base plus SE's length bonus over the nested complexity


@pytest.fixture(scope="module")
def line_16():
    """forum_hardest_1106 line 16 after its singles: nothing breaks up to level 3 there."""
    puzzle = _forum(16)
    return puzzle, _after_singles(puzzle)


@pytest.mark.slow
def test_level_4_fires_where_levels_up_to_3_do_not(line_16):
    """Levels 1-2 find nothing, level 3's probe breaks nothing; with dynamic forcing chains inside the
    branch (level 4) an assumption breaks, the traced step is certified, names the inner dynamic
    chains and rates 10.5 plus the length of the inner chains."""
    puzzle, board = line_16
    assert _level(board, 2) is None
    assert not probe.breaking(board, 3)
    assert nested.nested_forcing_chain(board, 10.0, NESTED_LEVELS[:3], "level 3", probed=True) is None
    step = nested.nested_forcing_chain(board, 10.5, NESTED_LEVELS[:4], "level 4", probed=True)
    assert step is not None and check_step(puzzle, step)
    assert step.removed and not step.placed and step.chain[-1].digit == 0
    assert any(why.startswith("dynamic forcing chain") for why in _inside(step))
    assert step.difficulty > 10.5


@pytest.mark.slow
def test_level_3_fires_on_a_candidate_of_level_4s_cells():
    """magictour_top1465 line 1 after 28 steps (a region forcing chain is due): among the candidates
    level 4's probe breaks in the cells of fewest digits, level 3's breaks one; the traced level-3
    trial breaks too and the step is certified, rated 10.0 plus its length."""
    path = shipped("magictour_top1465")
    assert path is not None
    puzzle = parse_puzzle(path.read_text().splitlines()[0].strip()[:81])
    board = Board.start(puzzle)
    for step in explain(puzzle, minimal=False).steps[:28]:
        board.apply(step)
    assert probe.breaking(board, 3)
    step = nested.nested_forcing_chain(board, 10.0, NESTED_LEVELS[:3], "level 3", probed=True)
    assert step is not None and check_step(puzzle, step)
    assert step.removed and step.chain[-1].digit == 0 and step.difficulty > 10.0
    (cell, digit), = step.removed
    assert (cell, digit) in probe.breaking(board, 3)


@pytest.mark.slow
def test_a_probe_that_breaks_is_a_traced_trial_that_breaks(line_16):
    """Every candidate the level-4 probe breaks also breaks when followed with reasons (the probe
    only chooses what to trace), and no digit of the solution ever breaks (the probe is sound)."""
    puzzle, board = line_16
    broken = probe.breaking(board, 4)
    assert broken
    for cell, digit in broken:
        assert nested.nested_trial(board, cell, digit, NESTED_LEVELS[:4]).broken is not None
    solution = solve(puzzle, "sat").grid
    assert solution is not None
    checked = probe.Probe(board)
    for cell in range(81):
        if not board.placed[cell]:
            assert not checked.breaks(cell, solution[cell], 4)


def test_nothing_nested_fires_on_an_empty_board():
    """Every candidate of an empty 4x4 board is in some solution: no assumption can break."""
    empty = Puzzle(Shape(2, 2), (0,) * 16, standard(Shape(2, 2)))
    board = Board.start(empty)
    assert _level(board, 1) is None and _level(board, 2) is None
    assert not probe.breaking(board, 3) and not probe.breaking(board, 4)
    assert fallbacks.contradiction(board, 7.5) is None


def test_a_digit_trial_follows_its_digit_alone():
    """SE's Nishio: placing a digit strikes it from the peers only, never the cell's other digits."""
    empty = Puzzle(Shape(3, 3), (0,) * 81, standard(Shape(3, 3)))
    t = DigitTrial.following(Board.start(empty), 0, 5)
    assert t.broken is None
    assert {digit for (_, digit) in t.off} == {5} and {digit for (_, digit) in t.on} == {5}
    assert len(t.off) == 20  # r1c1's peers


def test_the_catalogue_keeps_nested_chains_after_every_other_chain_and_before_search():
    names = [t.name for t in TECHNIQUES]
    assert names.index("contradiction") < names.index("region forcing chain")  # SE: Nishio 7.5 first
    assert names.index("dynamic forcing chain") < names.index("dynamic forcing chain (+)") < names.index("search")
    assert names[-1] == "search"
    nested_ones = [t for t in TECHNIQUES if t.name.startswith(("dynamic forcing chain (+)", "nested"))]
    assert [t.difficulty for t in nested_ones] == [9.0 + 0.5 * k for k in range(len(nested_ones))]
