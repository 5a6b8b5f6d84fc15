"""A board as a picture, givens told apart from filled digits, and pencil marks with a reasoning step's
premises and conclusion marked, for notebooks, reports and explanations.

matplotlib is imported inside the function: it belongs to the ``notebooks``/``test`` extras, and
``import sudokulab`` must stay light.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..core.grid import Grid
from ..core.puzzle import Puzzle
from ..reasoning.candidates import Candidates


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
    return _finish(ax, n, title)


def draw_candidates(
    candidates: Candidates,
    ax: Any = None,
    title: str | None = None,
    *,
    marked_cells: Iterable[int] = (),
    marked_candidates: Iterable[tuple[int, int]] = (),
    struck_candidates: Iterable[tuple[int, int]] = (),
    placed: Iterable[tuple[int, int]] = (),
    groups: Iterable[Sequence[int]] = (),
    arrows: Iterable[tuple[tuple[int, int], tuple[int, int], bool]] = (),
    fill_settled: bool = False,
) -> Any:
    """Draw pencil marks (a ``candidates.Candidates``) on matplotlib axes; returns the axes.

    The picture a reasoning step is shown on: givens big and bold, every blank's candidates as small
    digits in a box-shaped sub-grid (digit d at the place d has in a box), so a reader finds a digit
    where the eye expects it. A step's premises and conclusion are marked on top: ``marked_cells``
    shaded, ``marked_candidates`` ((cell, digit) premises) circled in orange, ``struck_candidates``
    ((cell, digit) a step removes) crossed out in red, ``placed`` ((cell, digit)) big in green, and
    ``groups`` (tuples of cells: the groups a step names) outlined lightly. With ``fill_settled``, a
    blank with one candidate left is shown big in blue, as a filled digit (the ``propagate`` picture).
    ``arrows`` ((cell, digit) to (cell, digit), and whether the target holds) draw a step's chain,
    each link an arrow between the candidates it joins: solid to a digit that holds, dashed to one
    struck.
    """
    import matplotlib.pyplot as plt
    from matplotlib.patches import Circle, Rectangle

    puzzle = candidates.puzzle
    n, shape = puzzle.n, puzzle.shape
    if ax is None:
        _, ax = plt.subplots(figsize=(0.62 * n + 0.6, 0.62 * n + 0.6))
    big = max(5, 150 / max(n, 9) * 1.1)
    small = max(4, big / max(shape.box_rows, shape.box_cols) * 1.35)
    shaded = set(marked_cells)
    for cell in shaded:
        r, c = divmod(cell, n)
        ax.add_patch(Rectangle((c, n - r - 1), 1, 1, facecolor="#fff2b3", edgecolor="none", zorder=0))
    colours = ("tab:blue", "tab:purple", "tab:olive", "tab:cyan", "tab:brown")
    for index, group in enumerate(groups):
        _outline(ax, set(group), n, colours[index % len(colours)])
    for i in range(n + 1):
        ax.plot([0, n], [i, i], color="black", linewidth=2.2 if i % shape.box_rows == 0 else 0.5, zorder=2)
        ax.plot([i, i], [0, n], color="black", linewidth=2.2 if i % shape.box_cols == 0 else 0.5, zorder=2)

    def spot(cell: int, digit: int) -> tuple[float, float]:
        r, c = divmod(cell, n)
        sub_r, sub_c = divmod(digit - 1, shape.box_cols)
        return c + (sub_c + 0.5) / shape.box_cols, n - r - (sub_r + 0.5) / shape.box_rows

    placed_at = dict(placed)
    struck = set(struck_candidates)
    circled = set(marked_candidates)
    for cell in range(n * n):
        r, c = divmod(cell, n)
        given = puzzle.givens[cell]
        if cell in placed_at or given or (fill_settled and candidates.value(cell)):
            digit = placed_at.get(cell) or given or candidates.value(cell)
            colour = "tab:green" if cell in placed_at else "black" if given else "tab:blue"
            ax.text(c + 0.5, n - r - 0.5, str(digit), ha="center", va="center", fontsize=big,
                    fontweight="bold" if given else "normal", color=colour, zorder=3)
            continue
        shown = set(candidates.digits(cell)) | {d for s_cell, d in struck if s_cell == cell}
        for digit in sorted(shown):
            x, y = spot(cell, digit)
            crossed = (cell, digit) in struck
            ax.text(x, y, str(digit), ha="center", va="center", fontsize=small, zorder=3,
                    color="tab:red" if crossed else "dimgray")
            if (cell, digit) in circled:
                ax.add_patch(Circle((x, y), 0.42 / max(shape.box_rows, shape.box_cols), facecolor="#ffd59e",
                                    edgecolor="tab:orange", linewidth=1.2, zorder=2.5))
            if crossed:
                half = 0.4 / max(shape.box_rows, shape.box_cols)
                ax.plot([x - half, x + half], [y - half, y + half], color="tab:red", linewidth=1.2, zorder=4)
                ax.plot([x - half, x + half], [y + half, y - half], color="tab:red", linewidth=1.2, zorder=4)
    for (a_cell, a_digit), (b_cell, b_digit), holds in arrows:
        start, end = spot(a_cell, max(a_digit, 1)), spot(b_cell, max(b_digit, 1))
        if start != end:
            ax.annotate("", xy=end, xytext=start, zorder=5, arrowprops={
                "arrowstyle": "-|>", "color": "tab:green" if holds else "tab:red", "linewidth": 1.1,
                "linestyle": "-" if holds else "--", "shrinkA": 4, "shrinkB": 4,
                "connectionstyle": "arc3,rad=0.15"})
    return _finish(ax, n, title)


def _finish(ax: Any, n: int, title: str | None) -> Any:
    """The frame every board picture shares: square, no axes, a little margin, the title."""
    ax.set_xlim(-0.05, n + 0.05)
    ax.set_ylim(-0.05, n + 0.05)
    ax.set_aspect("equal")
    ax.axis("off")
    if title:
        ax.set_title(title)
    return ax


def _outline(ax: Any, cells: set[int], n: int, colour: str) -> None:
    """Trace the border of a set of cells (each cell side not shared with another of the set), inset a little."""
    inset = 0.08
    for cell in cells:
        r, c = divmod(cell, n)
        left, right, top, bottom = c + inset, c + 1 - inset, n - r - inset, n - r - 1 + inset
        if c == 0 or cell - 1 not in cells:
            ax.plot([left, left], [bottom - inset, top + inset], color=colour, alpha=0.55, linewidth=2.5, zorder=1)
        if c == n - 1 or cell + 1 not in cells:
            ax.plot([right, right], [bottom - inset, top + inset], color=colour, alpha=0.55, linewidth=2.5, zorder=1)
        if r == 0 or cell - n not in cells:
            ax.plot([left - inset, right + inset], [top, top], color=colour, alpha=0.55, linewidth=2.5, zorder=1)
        if r == n - 1 or cell + n not in cells:
            ax.plot([left - inset, right + inset], [bottom, bottom], color=colour, alpha=0.55, linewidth=2.5,
                    zorder=1)
