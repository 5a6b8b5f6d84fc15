"""The one rule that decides whether a solver's answer is right, for solve, compare and bench alike.

Given a puzzle and the results of one or more solvers on it, ``check_results`` gives each result
its verdict:

- a grid is right when the independent checker (``grid.solution_error``) accepts it, and wrong,
  with the checker's reason, otherwise;
- "no solution" is wrong when another result holds a grid the checker accepts (that grid proves
  the puzzle solvable); otherwise it stands, since nothing cheap can confirm it;
- a time limit claims nothing, so it is neither right nor wrong;
- a solver that raised (``Status.ERROR``) is wrong.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .grid import Puzzle, solution_error
from .solvers.base import SolveResult, Status


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
