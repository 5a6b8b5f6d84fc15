"""The one rule that decides whether a solver's answer is right, for solve, compare and bench alike.

Given a puzzle and the results of one or more solvers on it, ``check_results`` gives each result
its verdict:

- a grid is right when the independent checker (``grid.solution_error``) accepts it, and wrong,
  with the checker's reason, otherwise;
- "no solution" is wrong when another result holds a grid the checker accepts (that grid proves
  the puzzle solvable); otherwise it stands, since nothing cheap can confirm it;
- a time limit claims nothing, so it is neither right nor wrong;
- a solver that raised (``Status.ERROR``) is wrong.

``check_batch`` applies the same rule to a batch of puzzles at once, with numpy (imported only there).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from .grid import Puzzle, Shape, solution_error, units
from .solvers.base import SolveResult, Status

if TYPE_CHECKING:
    import numpy as np

    from .batch import BatchResults


@dataclass(frozen=True)
class Checked:
    """One result with its verdict."""

    result: SolveResult
    right: bool | None
    """True: a checked grid, or a "no solution" nobody contradicts; False: wrong; None: no claim."""
    problem: str | None = None
    """Why it is wrong (None when it is not)."""

    @property
    def valid_grid(self) -> bool:
        """Whether the result holds a grid that the checker accepts."""
        return self.result.status is Status.SOLVED and self.right is True


def check_results(puzzle: Puzzle, results: Sequence[SolveResult]) -> list[Checked]:
    """Each result's verdict (the rules are in the module docstring), in the order given."""
    verdicts: list[Checked] = []
    for result in results:
        if result.status is Status.SOLVED:
            problem = solution_error(result.grid, puzzle)
            verdicts.append(Checked(result, problem is None, problem))
        elif result.status is Status.ERROR:
            verdicts.append(Checked(result, False, str(result.stats.get("error", "the solver raised"))))
        elif result.status is Status.TIME_LIMIT:
            verdicts.append(Checked(result, None))
        else:
            verdicts.append(Checked(result, True))
    found = next((c.result.solver for c in verdicts if c.valid_grid), None)
    if found is not None:
        verdicts = [
            Checked(c.result, False, f"said no solution, but {found} found a checked grid")
            if c.result.status is Status.NO_SOLUTION else c
            for c in verdicts
        ]
    return verdicts


def check_result(puzzle: Puzzle, result: SolveResult) -> Checked:
    """The verdict on a single result."""
    return check_results(puzzle, [result])[0]


# --- the same rule over a batch ------------------------------------------------------------------

@dataclass(frozen=True)
class BatchVerdicts:
    """One solver's verdicts over a batch: ``valid`` is False exactly where ``check_results``'s
    ``right`` is False; ``problems`` says why, by position in the batch."""

    valid: np.ndarray
    problems: dict[int, str]


def grids_valid(grids: np.ndarray, givens: np.ndarray, shape: Shape) -> np.ndarray:
    """For each row of ``grids``, whether it completes the puzzle in the same row of ``givens``.

    The definition, vectorised (the same checks as ``grid.solution_error``, by another route):
    every cell in 1..n, every given kept, and each unit's digits, as bits, OR-ing to the n-bit mask
    (n cells whose n bits cover the mask hold n different digits).
    """
    import numpy as np

    n = shape.n
    grids = np.asarray(grids)
    in_range = ((grids >= 1) & (grids <= n)).all(axis=1)
    kept = ((givens == 0) | (givens == grids)).all(axis=1)
    bits = np.left_shift(np.uint64(1), np.where(grids >= 1, grids - 1, 0).astype(np.uint64))
    full = np.uint64((1 << n) - 1)
    covered = np.bitwise_or.reduce(bits[:, _unit_cells(shape)], axis=2)
    return in_range & kept & (covered == full).all(axis=1)


@cache
def _unit_cells(shape: Shape) -> np.ndarray:
    """(3n, n) cell indices: rows, columns, boxes."""
    import numpy as np

    return np.array([cells for _, _, cells in units(shape).named()], dtype=np.intp)


def check_batch(givens: np.ndarray, shape: Shape, results: Sequence[BatchResults]) -> list[BatchVerdicts]:
    """``check_results`` over a batch: each solver's verdicts, in the order given.

    Grids are checked by ``grids_valid``; a grid it refuses is explained by ``grid.solution_error``
    (its first reason), so the words are the same as on the one-puzzle path.
    """
    import numpy as np

    from .batch import ERROR, NO_SOLUTION, SOLVED

    checked: list[tuple[np.ndarray, dict[int, str], np.ndarray]] = []
    found = np.full(len(givens), -1, dtype=np.int64)  # the first solver with a checked grid, per puzzle
    for position, result in enumerate(results):
        solved = result.status == SOLVED
        grid_ok = np.zeros(len(givens), dtype=bool)
        if solved.any():
            grid_ok[solved] = grids_valid(result.grids[solved], givens[solved], shape)
        valid = ~((solved & ~grid_ok) | (result.status == ERROR))
        problems: dict[int, str] = {}
        for i in np.flatnonzero(~valid):
            if result.status[i] == ERROR:
                problems[int(i)] = result.errors.get(int(i), "the solver raised")
            else:
                puzzle = Puzzle(shape, tuple(int(v) for v in givens[i]))
                problems[int(i)] = solution_error(tuple(int(v) for v in result.grids[i]), puzzle) or "not a solution"
        found[(found < 0) & grid_ok] = position
        checked.append((valid, problems, grid_ok))
    verdicts = []
    for result, (valid, problems, _) in zip(results, checked):
        contradicted = (result.status == NO_SOLUTION) & (found >= 0)
        for i in np.flatnonzero(contradicted):
            problems[int(i)] = f"said no solution, but {results[int(found[i])].solver} found a checked grid"
        verdicts.append(BatchVerdicts(valid & ~contradicted, problems))
    return verdicts
