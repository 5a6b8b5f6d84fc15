"""``explain --next``: the one next step from a student's position (digits, pencil marks), the mistakes
in that position named without giving the answer away, and nothing of the solution printed."""

from __future__ import annotations

import json

import pytest

from sudokulab import solve
from sudokulab.core.grid import Shape
from sudokulab.core.puzzle import Puzzle
from sudokulab.errors import PuzzleFormatError, UsageError
from sudokulab.formats import documents
from sudokulab.formats.marks import parse_marks
from sudokulab.reasoning.board import Board
from sudokulab.reasoning.explain import explain
from sudokulab.reasoning.hint import hint
from sudokulab.reasoning.step_check import check_step

from ..conftest import EXAMPLES, dataset
from ..conftest import run_cli as run

SAMPLE = str(EXAMPLES / "boj2580-sample.txt")


def boj(grid, n: int = 9) -> str:
    return "".join(" ".join(map(str, grid[r * n:(r + 1) * n])) + "\n" for r in range(n))


def marks_text(masks, n: int = 9) -> str:
    words = ["." if m is None else "".join(str(d) for d in range(1, n + 1) if m >> (d - 1) & 1) for m in masks]
    return "".join(" ".join(words[r * n:(r + 1) * n]) + "\n" for r in range(n))


@pytest.fixture(scope="module")
def seventeen() -> tuple[Puzzle, tuple[int, ...]]:
    """The first 17-clue puzzle (its first steps are hidden singles, then harder) and its solution."""
    line = next(line for line in dataset("17_clue", 1).read_text().splitlines() if line and not line.startswith("#"))
    puzzle = Puzzle(Shape(3, 3), tuple(int(c) if c.isdigit() else 0 for c in line[:81]))
    return puzzle, tuple(solve(puzzle).grid)


def true_in(step, solution) -> bool:
    return (all(solution[c] == d for c, d in step.placed) and all(solution[c] != d for c, d in step.removed)
            and all((solution[f.cell] == f.digit) == f.holds for f in step.premises))


def test_from_the_givens_the_hint_is_the_first_step_of_the_explanation(seventeen):
    puzzle, solution = seventeen
    first = explain(puzzle, max_level=1.5, time_limit=30).steps[0]
    found = hint(puzzle)
    assert found.mistakes == () and found.stopped is None
    assert found.step == first and check_step(puzzle, found.step)


def test_from_a_partly_filled_grid_the_hint_is_the_step_explain_takes_there(seventeen):
    puzzle, solution = seventeen
    steps = explain(puzzle, time_limit=60).steps
    progress = list(puzzle.givens)
    for step in steps[:10]:  # the student has made the first ten steps' placements
        for cell, digit in step.placed:
            progress[cell] = digit
    board = Board.start(Puzzle(puzzle.shape, tuple(progress), puzzle.rules))
    found = hint(puzzle, tuple(progress))
    assert found.step is not None and found.mistakes == ()
    assert check_step(puzzle, found.step) and true_in(found.step, solution)
    assert all(not board.placed[cell] for cell, _ in found.step.placed)  # a new digit, not one already there


def test_a_wrong_digit_is_named_and_no_step_is_given(seventeen):
    puzzle, solution = seventeen
    cell = puzzle.givens.index(0)
    wrong = solution[cell] % 9 + 1
    progress = list(puzzle.givens)
    progress[cell] = wrong
    found = hint(puzzle, tuple(progress))
    assert found.step is None
    assert [(m.kind, m.cell, m.digit) for m in found.mistakes] == [("digit", cell, wrong)]
    right = list(puzzle.givens)
    right[cell] = solution[cell]
    assert hint(puzzle, tuple(right)).mistakes == ()  # the right digit there is no mistake


def test_the_students_marks_are_what_the_hint_reasons_from(seventeen):
    """Marks that strike a digit from all but one place in box 1 (true eliminations) make a hidden
    single there; every struck candidate the hint rests on is struck in the marks or seen from a
    placed digit, so the student can follow it."""
    puzzle, solution = seventeen
    board = Board.start(puzzle)
    plain = hint(puzzle).step
    box = next(g for g in puzzle.rules.groups if g.name == "box 1")
    for digit in range(1, 10):
        masks: list[int | None] = [None if board.placed[c] else board.marks[c] for c in range(81)]
        home = next(c for c in box.cells if solution[c] == digit)
        if board.placed[home]:
            continue
        for cell in box.cells:
            if cell != home and masks[cell] is not None:
                masks[cell] &= ~(1 << (digit - 1))
        found = hint(puzzle, None, masks)
        if found.step != plain:
            break
    else:
        pytest.fail("no marks in box 1 changed the hint")
    step = found.step
    assert step is not None and check_step(puzzle, step) and true_in(step, solution)
    assert step.placed == ((home, digit),) and "box 1" in step.groups
    peers = puzzle.rules.peers
    for fact in step.premises:
        if fact.holds:
            assert puzzle.givens[fact.cell] == fact.digit
        else:
            assert (masks[fact.cell] is not None and not masks[fact.cell] >> (fact.digit - 1) & 1) or any(
                puzzle.givens[p] == fact.digit for p in peers[fact.cell]), fact


def test_a_mark_that_strikes_the_cells_digit_is_named_without_the_digit(seventeen):
    puzzle, solution = seventeen
    cell = puzzle.givens.index(0)
    masks: list[int | None] = [None] * 81
    masks[cell] = ((1 << 9) - 1) & ~(1 << (solution[cell] - 1))
    found = hint(puzzle, None, masks)
    assert found.step is None and [(m.kind, m.cell, m.digit) for m in found.mistakes] == [("marks", cell, None)]
    assert str(solution[cell]) not in found.mistakes[0].text(9).split(":")[1]
    masks[cell] = 0  # a cell with no mark left is wrong too
    assert [m.kind for m in hint(puzzle, None, masks).mistakes] == ["marks"]
    masks[cell] = 1 << (solution[cell] - 1)  # only the right digit: no mistake, and a naked single at most 2.3
    assert hint(puzzle, None, masks).mistakes == ()


def test_a_complete_grid_has_nothing_left_and_a_changed_given_is_refused(sample, sample_answer):
    solution = tuple(int(w) for w in sample_answer.split())
    assert hint(sample, solution).stopped.startswith("the grid is complete")
    changed = list(sample.givens)
    first = next(c for c, v in enumerate(changed) if v)
    changed[first] = changed[first] % 9 + 1
    with pytest.raises(UsageError, match="changes the given"):
        hint(sample, tuple(changed))


def test_marks_files_read_and_refused_in_one_line():
    assert parse_marks(". 12 3,4 4\n" + ". . . .\n" * 3, 4)[:4] == [None, 3, 12, 8]
    assert parse_marks("\n".join(" ".join(["1,16"] * 16) for _ in range(16)), 16)[0] == 1 | 1 << 15
    for text, match in (("12 .\n", "1 lines of marks, 4 expected"), ("1 2 3\n" * 4, "line 1: 3 words"),
                        ("15 . . .\n" + ". . . .\n" * 3, "word 1: '15' is not a cell's marks")):
        with pytest.raises(PuzzleFormatError, match=match):
            parse_marks(text, 4)


# --- The command. ---------------------------------------------------------------------------------

def test_command_gives_one_step_and_never_the_solution(capsys, tmp_path, sample_answer):
    code, out, err = run(capsys, "explain", SAMPLE, "--next", "--check")
    assert code == 0 and err == ""
    assert out.startswith("next: r1c1 = 1: hidden single in box 1") and out.count("\n") == 1
    answer_lines = set(sample_answer.splitlines())
    assert not answer_lines & set(out.splitlines())


def test_command_with_progress_and_marks_json(capsys, tmp_path, sample, sample_answer):
    solution = [int(w) for w in sample_answer.split()]
    progress = list(sample.givens)
    progress[0] = solution[0]
    (tmp_path / "progress.txt").write_text(boj(progress))
    board = Board.start(Puzzle(sample.shape, tuple(progress)))
    masks = [None if board.placed[c] else board.marks[c] for c in range(81)]
    (tmp_path / "marks.txt").write_text(marks_text(masks))
    code, out, err = run(capsys, "explain", SAMPLE, "--next", "--progress", str(tmp_path / "progress.txt"),
                         "--marks", str(tmp_path / "marks.txt"), "--json")
    document = json.loads(out)
    documents.validate("explain", document)
    assert code == 0 and document["mistakes"] == [] and document["next"]["placed"] == [{"cell": "r3c1", "digit": 4}]
    assert "grid" not in document and "answer" not in document


def test_command_names_a_wrong_digit_and_a_wrong_mark(capsys, tmp_path, sample, sample_answer):
    solution = [int(w) for w in sample_answer.split()]
    progress = list(sample.givens)
    progress[0] = 2  # r1c1 is 1
    (tmp_path / "progress.txt").write_text(boj(progress))
    code, out, err = run(capsys, "explain", SAMPLE, "--next", "--progress", str(tmp_path / "progress.txt"))
    assert code == 1 and out == ""
    assert err == "sudokulab: your position has a mistake: r1c1 = 2 is wrong: no solution has 2 there\n"
    masks: list[int | None] = [None] * 81
    masks[0] = (1 << 9) - 1 - (1 << (solution[0] - 1))
    (tmp_path / "marks.txt").write_text(marks_text(masks))
    code, out, err = run(capsys, "explain", SAMPLE, "--next", "--marks", str(tmp_path / "marks.txt"), "--json")
    document = json.loads(out)
    documents.validate("explain", document)
    assert code == 1 and document["next"] is None
    assert document["mistakes"] == [{"kind": "marks", "cell": "r1c1", "digit": None,
                                      "text": "the marks of r1c1 are wrong: they strike the digit that belongs there"}]
    assert err.count("\n") == 1 and "marks of r1c1" in err


@pytest.mark.parametrize("argv, match", [
    (["--progress", SAMPLE], "--progress and --marks go with --next"),
    (["--next", "--html", "x.html"], "--html does not go with --next"),
    (["--next", "--progress", str(EXAMPLES / "16x16.txt")], "the progress is a 16x16 grid, the puzzle 9x9"),
])
def test_command_refuses_bad_combinations_in_one_line(capsys, argv, match):
    code, out, err = run(capsys, "explain", SAMPLE, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and match in err
