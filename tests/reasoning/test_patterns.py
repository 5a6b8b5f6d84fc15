"""Wings, single-digit patterns, finned fish, colouring and uniqueness: each finder on a hand-made
position where it must fire (the exact eliminations, certified by SAT) and one where it must not."""

from __future__ import annotations

from sudokulab.core.cells import cell_label
from sudokulab.core.grid import Shape
from sudokulab.core.puzzle import Puzzle
from sudokulab.reasoning.board import Board
from sudokulab.reasoning.fish import finned_fish, fish
from sudokulab.reasoning.single_digit import empty_rectangle, simple_colouring, two_strong_links
from sudokulab.reasoning.step_check import check_step
from sudokulab.reasoning.steps import Step
from sudokulab.reasoning.uniqueness import bug_plus_one, unique_rectangle
from sudokulab.reasoning.wings import w_wing, xy_wing, xyz_wing

SHAPE = Shape(3, 3)
BLANK = Puzzle(SHAPE, (0,) * 81)


def cell(label: str) -> int:
    row, col = label[1:].split("c")
    return (int(row) - 1) * 9 + int(col) - 1


def mask(digits: str) -> int:
    return sum(1 << (int(d) - 1) for d in digits)


def board_of(puzzle: Puzzle = BLANK, marks: dict[str, str] | None = None,
             strike: tuple[tuple[int, str], ...] = ()) -> Board:
    """The puzzle's first pencil marks, some cells' marks set by hand, and a digit struck from cells
    (``(digit, "r1c2 r1c3")``): the position a few earlier steps would leave."""
    board = Board.start(puzzle)
    for label, digits in (marks or {}).items():
        board.marks[cell(label)] = mask(digits)
    for digit, labels in strike:
        for label in labels.split():
            board.cands.remove(cell(label), digit)
    return board


def board_from_marks(puzzle: Puzzle, text: str) -> Board:
    """A position recorded from a real explanation: every cell's pencil marks, row by row; a cell
    with one digit left is placed."""
    board = Board.start(puzzle)
    for index, digits in enumerate(text.split()):
        if len(digits) == 1:
            board.place(index, int(digits))
        else:
            board.marks[index] = mask(digits)
    return board


def line(kind: str, index: int, keep: str) -> str:
    """The cells of a row or column but those kept (``keep`` as "1 4": column or row numbers)."""
    kept = {int(k) for k in keep.split()}
    if kind == "row":
        return " ".join(f"r{index}c{c}" for c in range(1, 10) if c not in kept)
    return " ".join(f"r{r}c{index}" for r in range(1, 10) if r not in kept)


def removed(step: Step) -> list[str]:
    return sorted(f"{cell_label(c, 9)}-{d}" for c, d in step.removed)


def fired(step: Step | None, puzzle: Puzzle = BLANK) -> list[str]:
    assert step is not None
    assert check_step(puzzle, step), step.text
    return removed(step)


# --- Wings. -----------------------------------------------------------------------------------------

def test_xy_wing():
    board = board_of(marks={"r5c5": "12", "r5c1": "13", "r1c5": "23"})
    step = xy_wing(board, 4.2)
    assert fired(step) == ["r1c1-3"] and step.technique == "XY-wing" and step.difficulty == 4.2
    assert xy_wing(board_of(marks={"r5c5": "12", "r5c1": "13", "r1c5": "24"}), 4.2) is None


def test_xyz_wing():
    board = board_of(marks={"r5c5": "123", "r5c4": "13", "r1c5": "23"})
    assert fired(xyz_wing(board, 4.4)) == ["r4c5-3", "r6c5-3"]
    assert xyz_wing(board_of(marks={"r5c5": "123", "r5c4": "13", "r1c5": "24"}), 4.4) is None
    assert xy_wing(board, 4.2) is None  # the pivot has three digits: no XY-wing


def test_w_wing():
    marks = {"r1c1": "12", "r9c9": "12"}
    board = board_of(marks=marks, strike=((1, line("row", 5, "1 9")),))
    step = w_wing(board, 4.4)
    assert fired(step) == ["r1c9-2", "r9c1-2"] and "row 5" in step.text
    assert w_wing(board_of(marks=marks), 4.4) is None  # no strong link joins them


# --- Single-digit patterns. -------------------------------------------------------------------------

SKYSCRAPER = ((1, line("row", 1, "1 4")), (1, line("row", 5, "1 6")))
KITE = ((1, line("row", 1, "2 7")), (1, line("column", 1, "3 8")))


def test_skyscraper():
    board = board_of(strike=SKYSCRAPER)
    step = two_strong_links(board, 4.0, "skyscraper")
    assert fired(step) == ["r2c6-1", "r3c6-1", "r4c4-1", "r6c4-1"] and step.technique == "skyscraper"
    apart = board_of(strike=((1, line("row", 1, "1 4")), (1, line("row", 5, "2 6"))))
    assert two_strong_links(apart, 4.0, "skyscraper") is None  # the near ends do not see each other


def test_two_string_kite():
    board = board_of(strike=KITE)
    assert fired(two_strong_links(board, 4.1, "2-string kite")) == ["r8c7-1"]
    assert two_strong_links(board, 4.0, "skyscraper") is None  # a row and a column: not a skyscraper
    assert two_strong_links(board_of(strike=SKYSCRAPER), 4.1, "2-string kite") is None


def test_turbot_fish():
    box = " ".join(f"r{r}c{c}" for r in range(1, 4) for c in range(1, 4) if (r, c) not in ((1, 1), (3, 3)))
    board = board_of(strike=((1, box), (1, line("column", 5, "3 7"))))
    assert fired(two_strong_links(board, 4.2, "turbot fish")) == ["r7c1-1"]
    assert two_strong_links(board_of(strike=((1, box),)), 4.2, "turbot fish") is None


def test_empty_rectangle():
    box = "r1c1 r2c2 r2c3 r3c2 r3c3"
    board = board_of(strike=((1, box), (1, line("column", 5, "1 6"))))
    step = empty_rectangle(board, 4.2)
    assert fired(step) == ["r6c1-1"] and "box 1" in step.text
    assert empty_rectangle(board_of(strike=((1, box),)), 4.2) is None


def test_simple_colouring_wrap_and_trap():
    chain = ((1, line("row", 1, "1 5")), (1, line("column", 5, "1 5")), (1, line("row", 5, "2 5")))
    wrap = board_of(strike=(*chain, (1, line("column", 2, "3 5"))))
    step = simple_colouring(wrap, 6.5)
    assert fired(step) == ["r1c1-1", "r3c2-1", "r5c5-1"] and "wrap" in step.text and step.difficulty == 6.5
    step = simple_colouring(board_of(strike=chain), 6.5)
    assert fired(step) == ["r2c2-1", "r3c2-1", "r4c1-1", "r6c1-1"] and "trap" in step.text
    assert step.difficulty == 6.6
    assert simple_colouring(board_of(strike=chain[:1]), 6.5) is None  # one link: nothing to colour


# --- Finned fish. -----------------------------------------------------------------------------------

def test_finned_and_sashimi_x_wing():
    board = board_of(strike=((1, line("row", 1, "2 8")), (1, line("row", 5, "2 8 9"))))
    assert fish(board, 3.2, 2) is None
    step = finned_fish(board, 4.2, 2)
    assert fired(step) == ["r4c8-1", "r6c8-1"] and step.technique == "finned x-wing"
    sashimi = board_of(strike=((1, line("row", 1, "2 8")), (1, line("row", 5, "8 9"))))
    step = finned_fish(sashimi, 4.2, 2)
    assert fired(step) == ["r4c8-1", "r6c8-1"] and step.technique == "sashimi x-wing"
    elsewhere = board_of(strike=((1, line("row", 1, "2 8")), (1, line("row", 5, "2 4 8"))))
    assert finned_fish(elsewhere, 4.2, 2) is None  # the fin's box holds no cell of the fish's columns


# --- Uniqueness. ------------------------------------------------------------------------------------

SOLUTION = tuple((r * 3 + r // 3 + c) % 9 + 1 for r in range(9) for c in range(9))
"""A solved grid: row 1 is 1..9, row 2 starts 4 5 6 7."""


def solution_without(*labels: str) -> Puzzle:
    blanks = {cell(label) for label in labels}
    return Puzzle(SHAPE, tuple(0 if i in blanks else v for i, v in enumerate(SOLUTION)))


RECTANGLE = solution_without("r1c1", "r1c4", "r2c1", "r2c4", "r3c4", "r2c7")
"""Blanks whose first pencil marks are a unique rectangle {1, 4} of type 1: r1c1, r1c4 and r2c1 hold
{1, 4} and r2c4 {1, 4, 7} (r3c4 and r2c7 are 1, giving r2c4 its 1)."""


def test_unique_rectangle_type_1_on_the_first_pencil_marks():
    board = board_of(RECTANGLE)
    assert [board.cands.digits(cell(c)) for c in ("r1c1", "r1c4", "r2c1", "r2c4")] == [[1, 4]] * 3 + [[1, 4, 7]]
    step = unique_rectangle(board, 4.5)
    assert fired(step, RECTANGLE) == ["r2c4-1", "r2c4-4"] and "type 1" in step.text and step.difficulty == 4.5
    assert step.pattern  # certified with its deadly pattern


def test_unique_rectangle_types_2_and_4():
    type_2 = board_of(RECTANGLE, {"r1c4": "147", "r2c4": "147", "r3c4": "17"})
    step = unique_rectangle(type_2, 4.5)
    assert fired(step, RECTANGLE) == ["r3c4-7"] and "type 2" in step.text
    type_4 = board_of(RECTANGLE, {"r1c4": "147", "r2c4": "147"})
    step = unique_rectangle(type_4, 4.5)
    assert fired(step, RECTANGLE) == ["r1c4-1", "r2c4-1"] and "type 4" in step.text


def test_no_unique_rectangle_across_four_boxes_or_with_two_solutions():
    across = solution_without("r1c1", "r1c4", "r4c1", "r4c4")
    board = board_of(across, {"r1c1": "12", "r1c4": "12", "r4c1": "12", "r4c4": "125"})
    assert unique_rectangle(board, 4.5) is None  # swapping would break boxes: no deadly pattern
    marks = {"r1c1": "14", "r1c4": "14", "r2c1": "14", "r2c4": "147"}  # the type 1 position's marks
    assert unique_rectangle(board_of(RECTANGLE, marks), 4.5) is not None
    assert unique_rectangle(board_of(BLANK, marks), 4.5) is None  # many solutions: uniqueness says nothing


NORVIG_45 = Puzzle(SHAPE, tuple(int(c) if c != "." else 0 for c in
                               ".4.5.....8...9..3..76.2.....146..........9..7.....36....1..4.5..6......3..71..2.."))
NORVIG_45_MARKS = (
    "139 4 39 5 378 1678 1789 126789 12689 8 25 25 47 9 167 147 3 146 139 7 6 348 2 18 14589 1489 14589 "
    "2379 1 4 6 578 2578 389 289 289 6 2358 2358 28 14 9 13458 1248 7 2579 2589 2589 278 14 3 6 12489 "
    "124589 239 2389 1 23789 3678 4 789 5 689 2459 6 2589 2789 578 2578 14789 14789 3 3459 3589 7 1 3568 "
    "58 2 4689 4689")
"""norvig_top95 line 45 where explain first needs a unique rectangle (recorded from its explanation)."""


def test_unique_rectangle_type_3_on_a_recorded_position():
    board = board_from_marks(NORVIG_45, NORVIG_45_MARKS)
    step = unique_rectangle(board, 4.5)
    assert fired(step, NORVIG_45) == ["r4c7-8", "r4c7-9", "r5c7-8", "r6c9-2", "r6c9-8", "r6c9-9"]
    assert "type 3" in step.text and step.difficulty == 4.7  # a naked triple: Sudoku Explainer's 4.5 + 0.2
    board.marks[cell("r4c9")] = mask("2389")  # a fourth digit: the triple becomes a quad, 4.5 + 0.3
    step = unique_rectangle(board, 4.5)
    assert fired(step, NORVIG_45) == ["r5c7-3", "r5c7-8", "r6c9-2", "r6c9-8", "r6c9-9"] and step.difficulty == 4.8


FORUM_47 = Puzzle(SHAPE, tuple(int(c) if c != "." else 0 for c in
                               "..8.......5...8..11.9.4........3......5..9..4.4.6...7.......6..5....4.29.2..7..3."))
FORUM_47_MARKS = (
    "2 3 8 1 9 7 5 4 6 7 5 4 2 6 8 3 9 1 1 6 9 5 4 3 7 8 2 6 19 7 4 3 12 129 5 8 3 18 5 7 28 9 12 6 4 89 4 2 "
    "6 58 15 19 7 3 4 89 3 89 25 25 6 1 7 5 7 6 3 1 4 8 2 9 89 2 1 89 7 6 4 3 5")
"""forum_hardest_1106 line 47 where the open cells are all bivalue but r4c7 (recorded from its explanation)."""


def test_bug_plus_one_on_a_recorded_position():
    board = board_from_marks(FORUM_47, FORUM_47_MARKS)
    step = bug_plus_one(board, 5.6)
    assert step is not None and step.placed == ((cell("r4c7"), 1),) and step.difficulty == 5.6
    assert check_step(FORUM_47, step) and len(step.pattern) == 16  # the 16 open cells are the grave
    board.marks[cell("r5c2")] = mask("128")  # a second cell with three digits: no BUG+1
    assert bug_plus_one(board, 5.6) is None


def test_a_wing_sees_through_knight_moves():
    """On anti-knight rules a pincer a knight's move from the pivot sees it, and so do the struck cells."""
    from sudokulab.core.rules import build

    puzzle = Puzzle(SHAPE, (0,) * 81, build(SHAPE, ["anti-knight"]))
    board = board_of(puzzle, {"r5c5": "12", "r3c4": "13", "r5c1": "23"})
    step = xy_wing(board, 4.2)
    assert fired(step, puzzle) == ["r3c1-3", "r3c2-3", "r4c2-3", "r5c3-3", "r5c4-3"]
    assert "anti-knight" in step.groups
    assert xy_wing(board_of(BLANK, {"r5c5": "12", "r3c4": "13", "r5c1": "23"}), 4.2) is None  # no knight: apart
