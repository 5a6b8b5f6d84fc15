"""A board as a picture, givens told apart from filled digits, for notebooks and reports.

matplotlib is imported inside the function: it belongs to the ``notebooks``/``test`` extras, and
``import sudokulab`` must stay light.
"""

from __future__ import annotations

from typing import Any

from .grid import Grid, Puzzle


def draw_board(puzzle: Puzzle, grid: Grid | None = None, ax: Any = None, title: str | None = None) -> Any:
    """Draw the puzzle (and a solution over it) on matplotlib axes; returns the axes.

    Givens are bold black, digits the solver filled are blue, blanks stay empty; box borders are
    thick so every box shape (2x3, 3x4, ...) reads at a glance.
    """
    import matplotlib.pyplot as plt

    n = puzzle.n
    if ax is None:
        _, ax = plt.subplots(figsize=(0.42 * n + 0.6, 0.42 * n + 0.6))
    for i in range(n + 1):
        ax.plot([0, n], [i, i], color="black", linewidth=2.2 if i % puzzle.shape.box_rows == 0 else 0.5)
        ax.plot([i, i], [0, n], color="black", linewidth=2.2 if i % puzzle.shape.box_cols == 0 else 0.5)
    size = max(5, 150 / max(n, 9) * 0.9)
    for cell, given in enumerate(puzzle.givens):
        r, c = divmod(cell, n)
        value = given or (grid[cell] if grid else 0)
        if value:
            ax.text(c + 0.5, n - r - 0.5, str(value), ha="center", va="center", fontsize=size,
                    fontweight="bold" if given else "normal", color="black" if given else "tab:blue")
    ax.set_xlim(-0.05, n + 0.05)
    ax.set_ylim(-0.05, n + 0.05)
    ax.set_aspect("equal")
    ax.axis("off")
    if title:
        ax.set_title(title)
    return ax
