"""``explain --draw DIR``: one picture per step, the pencil marks before it with its reasons marked.

Each picture (``step-001.png``, ...) is ``drawing.draw_candidates`` on the board as the step finds
it: the premises' cells shaded and their struck candidates circled, the groups the step names
outlined, the candidates it strikes crossed out and the digits it places shown big; a chain step's
links drawn as arrows (``chain_arrows``). Every file is
written whole through ``plots.plot_output`` (an ``outputs.OutputFile``); matplotlib is imported here
only, so ``import sudokulab`` stays light.
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

from ..core.puzzle import Puzzle
from ..formats.outputs import OutputError


def check_directory(directory: str | os.PathLike) -> Path:
    """The pictures' directory, made if absent, refused in one line before any work when unusable."""
    from .plots import require_matplotlib

    require_matplotlib()
    path = Path(directory)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot write pictures to '{os.fspath(directory)}': {exc.strerror or exc}") from None
    if not os.access(path, os.W_OK):
        raise OutputError(f"cannot write pictures to '{os.fspath(directory)}': not writable")
    return path


def chain_arrows(step: Any) -> list[tuple[tuple[int, int], tuple[int, int], bool]]:
    """A step's chain as arrows, each node's first cell from its source's: (from, to, target holds)."""
    chain = getattr(step, "chain", ())
    return [((chain[node.source].cells[0], chain[node.source].digit), (node.cells[0], node.digit), node.holds)
            for node in chain if node.source is not None]


def draw_steps(directory: str | os.PathLike, puzzle: Puzzle, explanation: Any) -> list[Path]:
    """Write one PNG per step into ``directory``; returns their paths."""
    from matplotlib.figure import Figure

    from ..reasoning.board import Board
    from .drawing import draw_candidates
    from .plots import plot_output

    folder = check_directory(directory)
    board = Board.start(puzzle)
    n = puzzle.n
    cells_of = {g.name: g.cells for g in puzzle.rules.groups}
    cells_of.update({t.name: t.cells for t in puzzle.rules.thermos})
    written = []
    width = len(str(len(explanation.steps)))
    for number, step in enumerate(explanation.steps, 1):
        figure = Figure(figsize=(0.62 * n + 0.6, 0.62 * n + 1.1), layout="constrained")
        title = f"{number}. {step.text}"
        if len(title) > 70:
            title = title[:67] + "..."
        draw_candidates(
            board.cands, figure.add_subplot(), title,
            marked_cells={f.cell for f in step.premises},
            marked_candidates=[(f.cell, f.digit) for f in step.premises if not f.holds],
            struck_candidates=step.removed, placed=step.placed,
            groups=[cells_of[name] for name in step.groups if name in cells_of],
            arrows=chain_arrows(step),
        )
        out = plot_output(folder / f"step-{number:0{max(3, width)}d}.png")
        buffer = io.BytesIO()
        figure.savefig(buffer, dpi=100, format="png")
        with out:
            out.write(buffer.getvalue())
        written.append(out.path)
        board.apply(step)
    return written
