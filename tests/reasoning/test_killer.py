"""The killer techniques: one-cell cages, cage sums worded for every size, the 45 rule (innies and
outies, on any board size and over unions of houses) and cage digits meeting houses. Each finder
fires on a hand-made position, stays quiet on a near miss, and every step it writes is certified."""

from __future__ import annotations

import re

from sudokulab.core.grid import Shape
from sudokulab.core.puzzle import Puzzle
from sudokulab.core.rules import build, standard
from sudokulab.formats.puzzle_files import read_puzzle
from sudokulab.formats.rule_files import parse_cages, parse_cell
from sudokulab.reasoning.board import Board
from sudokulab.reasoning.cages import cage_claiming, cage_pointing, cage_sum, last_cage_cell, one_cell_cage
from sudokulab.reasoning.innies import forty_five, forty_five_combinations, sums
from sudokulab.reasoning.step_check import check_step
from sudokulab.reasoning.steps import Step

from ..conftest import EXAMPLES
from .test_explain import replayed

NINE = Shape(3, 3)
ENUMERATING = ("cage sum", "45 rule combinations")
"""The techniques that list a sum's combinations: what the issue counted as enumeration steps."""


def killer(cages: str, shape: Shape = NINE, givens: dict[str, int] | None = None) -> Puzzle:
    """A puzzle from cage lines (``17: r1c1 r1c2``) and a few givens by cell name."""
    n = shape.n
    grid = [0] * (n * n)
    for name, digit in (givens or {}).items():
        grid[parse_cell(name, n)] = digit
    return Puzzle(shape, tuple(grid), build(shape, cages=parse_cages(cages, shape)))


def board_of(puzzle: Puzzle, strike: dict[str, str] | None = None) -> Board:
    """The starting board with some candidates struck by hand (``{"r1c1": "9"}``)."""
    board = Board.start(puzzle)
    for name, digits in (strike or {}).items():
        for digit in digits.split(","):
            board.cands.remove(parse_cell(name, puzzle.n), int(digit))
    return board


def certified(puzzle: Puzzle, step: Step | None) -> Step:
    assert step is not None
    assert check_step(puzzle, step), step.text
    return step


def cells(*names: str) -> set[int]:
    return {parse_cell(name, 9) for name in names}


# --- One cell, the last cell, and a cage's sum in words. --------------------------------------------

def test_a_one_cell_cage_is_placed():
    puzzle = killer("17: r1c1 r1c2\n5: r2c3\n")
    step = certified(puzzle, one_cell_cage(board_of(puzzle), 1.0))
    assert step.placed == ((parse_cell("r2c3", 9), 5),)
    assert step.text == "cage 2 (sum 5) is one cell: r2c3 = 5"


def test_no_one_cell_cage_no_step():
    assert one_cell_cage(board_of(killer("17: r1c1 r1c2\n")), 1.0) is None
    placed = killer("17: r1c1 r1c2\n5: r2c3\n", givens={"r2c3": 5})
    assert one_cell_cage(board_of(placed), 1.0) is None


def test_the_last_open_cell_of_a_cage():
    puzzle = killer("11: r1c1 r1c2 r1c3\n", givens={"r1c1": 4, "r1c3": 2})
    step = certified(puzzle, last_cage_cell(board_of(puzzle), 1.1))
    assert step.placed == ((parse_cell("r1c2", 9), 5),)
    assert step.text == "cage 1 (sum 11) has one open cell left: r1c2 = 11 − 6 = 5"
    assert last_cage_cell(board_of(killer("11: r1c1 r1c2 r1c3\n", givens={"r1c1": 4})), 1.1) is None


def test_cage_sum_lists_the_fillings():
    puzzle = killer("17: r1c1 r1c2\n5: r2c3\n")
    step = certified(puzzle, cage_sum(board_of(puzzle), 2.0))
    assert step.text.endswith("cage 1 (sum 17) holds 8+9 (2 different digits adding up to 17 that fit its cells)")
    assert {cell for cell, _ in step.removed} == cells("r1c1", "r1c2")


def test_cage_sum_leaves_one_cell_cages_alone_and_stays_quiet_where_every_digit_fits():
    assert cage_sum(board_of(killer("5: r2c3\n")), 2.0) is None
    assert cage_sum(board_of(killer("15: r1c1 r1c2 r1c3\n")), 2.0) is None  # 1+5+9 ... 4+5+6: all nine


def test_many_fillings_are_counted_not_listed():
    puzzle = killer("19: r1c1 r1c2 r1c3 r1c4\n")
    step = certified(puzzle, cage_sum(board_of(puzzle, {"r1c1": "1,2,3,4,5,6,7"}), 2.0))  # r1c1 holds 8 or 9
    assert {d for _, d in step.removed} == {8, 9}
    assert step.text.endswith(": cage 1 (sum 19) holds 1+2+7+9, 1+3+6+9, 1+3+7+8, 1+4+5+9, 1+4+6+8, 2+3+5+9 or 2 "
                              "others (4 different digits adding up to 19 that fit its cells)")


# --- The 45 rule. -----------------------------------------------------------------------------------

ROW_ONE = "17: r1c1 r1c2\n6: r1c3 r1c4 r1c5\n"


def test_an_innie_is_placed():
    puzzle = killer(ROW_ONE + "15: r1c6 r1c7 r1c8\n")
    step = certified(puzzle, forty_five(board_of(puzzle), 1.9))
    assert step.placed == ((parse_cell("r1c9", 9), 7),)
    assert step.text == ("45 rule: the innie r1c9 of row 1 is 7 (row 1 adds up to 45, the cages wholly inside "
                         "(cages 1, 2, 3) to 38)")


def test_an_outie_is_placed():
    puzzle = killer("6: r1c1 r1c2 r1c3\n15: r2c1 r2c2 r2c3\n29: r3c1 r3c2 r3c3 r4c1\n")
    step = certified(puzzle, forty_five(board_of(puzzle), 1.9))
    assert step.placed == ((parse_cell("r4c1", 9), 5),)
    assert step.text == ("45 rule: the outie r4c1 of box 1 is 5 (the cages covering box 1 (cages 1, 2, 3) "
                         "add up to 50, box 1 to 45)")


def test_placed_innies_are_subtracted():
    puzzle = killer(ROW_ONE, givens={"r1c6": 4, "r1c7": 5, "r1c8": 6})
    step = certified(puzzle, forty_five(board_of(puzzle), 1.9))
    assert step.placed == ((parse_cell("r1c9", 9), 7),)
    assert step.text.endswith("; the other innies r1c6 r1c7 r1c8 hold 15)")


def test_no_innie_alone_no_placement():
    assert forty_five(board_of(killer(ROW_ONE)), 1.9) is None  # four innies in row 1


def test_innies_of_two_cells_keep_their_combinations():
    puzzle = killer(ROW_ONE + "10: r1c6 r1c7\n")
    step = certified(puzzle, forty_five_combinations(board_of(puzzle), 2.5))
    assert set(step.removed) == {(c, d) for c in cells("r1c8", "r1c9") for d in (1, 2, 6)}
    assert step.text.endswith("45 rule: the innies r1c8 r1c9 of row 1 add up to 12 (row 1 adds up to 45, "
                              "the cages wholly inside (cages 1, 2, 3) to 33): 3+9, 4+8 or 5+7")


def test_innies_that_allow_every_digit_strike_nothing():
    assert forty_five_combinations(board_of(killer(ROW_ONE)), 2.5) is None  # 4 cells adding up to 22


def test_the_45_rule_on_a_4x4_board():
    four = Shape(2, 2)
    puzzle = killer("3: r1c1 r1c2\n", four)
    step = certified(puzzle, forty_five_combinations(board_of(puzzle), 2.5))
    assert "row 1 adds up to 10" in step.text and step.text.endswith(": 3+4")
    assert {d for _, d in step.removed} == {1, 2}


def test_two_rows_give_innies_where_one_row_gives_none():
    """Rows 1-2 under vertical dominoes: no cage lies inside either row, but 8 lie inside both."""
    row1, row2 = "123456789", "456789123"
    dominoes = "".join(f"{int(a) + int(b)}: r1c{c} r2c{c}\n" for c, (a, b) in enumerate(zip(row1, row2), 1) if c < 9)
    puzzle = killer(dominoes)
    (union,) = [k for k in sums(puzzle.rules) if k.where == "rows 1-2"]
    assert union.side == "innie" and set(union.cells) == cells("r1c9", "r2c9") and union.total == 12
    board = board_of(puzzle)
    for _ in range(10):
        step = certified(puzzle, forty_five_combinations(board, 2.5))
        board.apply(step)
        if "rows 1-2" in step.text:
            break
    assert "innies r1c9 r2c9 of rows 1-2 add up to 12" in step.text


def test_the_45_rule_needs_cages():
    rules = standard(NINE)
    assert sums(rules) == ()
    board = Board.start(Puzzle(NINE, (0,) * 81, rules))
    for finder in (one_cell_cage, last_cage_cell, cage_sum, forty_five, forty_five_combinations, cage_pointing,
                   cage_claiming):
        assert finder(board, 2.0) is None


# --- Cage digits and houses. ------------------------------------------------------------------------

def test_a_required_digit_leaves_the_cells_seeing_its_places():
    puzzle = killer("17: r1c1 r2c1\n")
    step = certified(puzzle, cage_pointing(board_of(puzzle), 2.7))
    assert {d for _, d in step.removed} == {8}
    assert {c for c, _ in step.removed} == cells(*[f"r{r}c1" for r in range(3, 10)], "r1c2", "r1c3", "r2c2",
                                                 "r2c3", "r3c2", "r3c3")
    assert step.text.endswith(": cage 1 (sum 17) needs an 8 (its only filling: 8+9), and its 8 goes in r1c1 r2c1: "
                              "a cell that sees them all cannot hold it")


def test_no_required_digit_no_pointing():
    assert cage_pointing(board_of(killer("10: r1c1 r2c1\n")), 2.7) is None  # 1+9, 2+8, 3+7, 4+6


def test_a_house_puts_its_digit_in_a_cage():
    puzzle = killer("10: r3c3 r4c3\n")
    box_one = [f"r{r}c{c}" for r in range(1, 4) for c in range(1, 4) if (r, c) != (3, 3)]
    step = certified(puzzle, cage_claiming(board_of(puzzle, dict.fromkeys(box_one, "9")), 2.9))
    assert (parse_cell("r4c3", 9), 9) in step.removed and (parse_cell("r3c3", 9), 1) in step.removed
    assert "in box 1, 9 can only go in r3c3 of cage 1 (sum 10), so the cage holds its 9 there (1+9)" in step.text


def test_a_digit_with_a_place_outside_the_cage_is_not_claimed():
    puzzle = killer("10: r3c3 r4c3\n")
    box_one = [f"r{r}c{c}" for r in range(1, 4) for c in range(1, 4) if (r, c) not in ((3, 3), (1, 1))]
    assert cage_claiming(board_of(puzzle, dict.fromkeys(box_one, "9")), 2.9) is None


# --- Whole puzzles. ---------------------------------------------------------------------------------

ONE_CELL_CAGES = {"11: r1c5 r1c6": "6: r1c5\n5: r1c6", "8: r4c2 r4c3": "6: r4c2\n2: r4c3",
                  "5: r8c6 r8c7": "2: r8c6\n3: r8c7"}
"""examples/killer-cages.txt with three of its cages cut into one-cell cages (its solution keeps them)."""


def test_the_killer_example_enumerates_less_and_every_step_is_certified():
    """Before the 45 rule and the last cell of a cage, the example took 80 cage-sum steps of 177."""
    puzzle = read_puzzle(EXAMPLES / "killer.txt", cages=EXAMPLES / "killer-cages.txt")
    steps = replayed(puzzle)
    assert sum(s.technique in ENUMERATING for s in steps) < 80
    assert any(s.technique == "45 rule" for s in steps)


def test_one_cell_cages_come_first_and_no_sentence_counts_one_different_digit(tmp_path):
    text = (EXAMPLES / "killer-cages.txt").read_text()
    for cage, cut in ONE_CELL_CAGES.items():
        text = text.replace(cage, cut)
    (tmp_path / "cages.txt").write_text(text)
    puzzle = read_puzzle(EXAMPLES / "killer.txt", cages=tmp_path / "cages.txt")
    steps = replayed(puzzle)
    assert [s.technique for s in steps[:6]] == ["one-cell cage"] * 6
    assert steps[0].text.endswith("is one cell: r1c5 = 6")
    assert not any(re.search(r"\b1 different digit", s.text) for s in steps)
