"""The board picture renders for every shape, givens and filled digits told apart."""

from __future__ import annotations

import pytest

from sudokulab import Puzzle, Shape, solve
from sudokulab.drawing import draw_board

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
