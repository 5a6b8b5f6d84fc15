"""The board picture renders for every shape, givens and filled digits told apart."""

from __future__ import annotations

import pytest

from sudokulab import Puzzle, Shape, solve
from sudokulab.ui.drawing import draw_board

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")


@pytest.mark.parametrize("shape", [Shape(2, 2), Shape(2, 3), Shape(3, 3), Shape(4, 4)])
def test_board_picture(tmp_path, shape):
    puzzle = Puzzle(shape, (1,) + (0,) * (shape.cells - 1))
    grid = solve(puzzle).grid
    ax = draw_board(puzzle, grid, title="t")
    texts = ax.texts
    assert len(texts) == shape.cells
    bold = [t for t in texts if t.get_fontweight() == "bold"]
    assert [t.get_text() for t in bold] == ["1"] and bold[0].get_color() == "black"
    path = tmp_path / "board.png"
    ax.figure.savefig(path)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    matplotlib.pyplot.close(ax.figure)


def test_puzzle_alone_draws_only_givens(sample):
    ax = draw_board(sample)
    assert len(ax.texts) == sample.n ** 2 - sample.blanks
    matplotlib.pyplot.close(ax.figure)


@pytest.mark.slow
@pytest.mark.parametrize("shape", [Shape(2, 2), Shape(2, 3), Shape(3, 3)])
def test_candidates_picture_marks_a_step(tmp_path, shape):
    from sudokulab.reasoning.candidates import Candidates
    from sudokulab.ui.drawing import draw_candidates

    n = shape.n
    puzzle = Puzzle(shape, (1,) + (0,) * (shape.cells - 1))
    marks = Candidates.start(puzzle)
    small = sum(len(marks.digits(cell)) for cell in range(1, shape.cells))
    ax = draw_candidates(marks, title="step", marked_cells=(1,), marked_candidates=((1, 2),),
                         struck_candidates=((2, 2),), placed=((n, 2),), groups=((0, 1),))
    texts = {(round(t.get_position()[0], 3), round(t.get_position()[1], 3)): t for t in ax.texts}
    assert len(ax.texts) == 1 + 1 + small - len(marks.digits(n))  # given, placed, other blanks' marks
    bold = [t for t in ax.texts if t.get_fontweight() == "bold"]
    assert [t.get_text() for t in bold] == ["1"]
    assert [t.get_text() for t in ax.texts if t.get_color() == "tab:green"] == ["2"]
    red = [t for t in ax.texts if t.get_color() == "tab:red"]
    assert [t.get_text() for t in red] == ["2"]
    assert len(texts) == len(ax.texts)  # no two digits drawn on one spot
    assert len(ax.patches) == 2  # the shaded cell and the circled premise
    path = tmp_path / "marks.png"
    ax.figure.savefig(path)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    matplotlib.pyplot.close(ax.figure)


def test_candidates_picture_fills_settled_cells(sample):
    from sudokulab import solve
    from sudokulab.reasoning.candidates import Candidates
    from sudokulab.ui.drawing import draw_candidates

    grid = solve(sample).grid
    marks = Candidates(sample, [1 << (d - 1) for d in grid])
    ax = draw_candidates(marks, fill_settled=True)
    assert sorted(t.get_text() for t in ax.texts) == sorted(str(d) for d in grid)
    assert sum(t.get_color() == "tab:blue" for t in ax.texts) == sample.blanks
    matplotlib.pyplot.close(ax.figure)
