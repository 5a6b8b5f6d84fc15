"""The solutions of a puzzle with several, listed by a solver up to a limit, each one checked.

Listing reuses the enumeration each solver already does to count: the hand-written searches
(``backtrack``, ``backtrack-fast``, ``dlx``) take solutions from the same generator as ``count``,
and ``sat`` adds a blocking clause per model as ``count`` does (``solutions`` beside ``count`` on
the solver). A solver without that method cannot list and is refused with one line. The solver
looks for one solution more than the limit, so the list knows whether it is complete; a complete
list is sorted into canonical (row-major lexicographic) order, and ``backtrack``, which enumerates
in that order, gives the first K in canonical order even when there are more. Every listed grid
goes through the independent checker (``puzzle.solution_error``) before anyone sees it.

More: docs/verify.md.
"""

from __future__ import annotations

from .. import solvers
from ..core.puzzle import Puzzle, solution_error
from ..errors import SolverBug, UnsupportedFeature
from ..solvers.base import SolutionList, Solver

DEFAULT_LIMIT = 10
"""Solutions listed when no limit is given (``sudokulab solutions`` without ``--limit``)."""


def can_list(solver: Solver | type) -> bool:
    """Whether a solver lists solutions (it has ``solutions(puzzle, limit=, time_limit=)``)."""
    return callable(getattr(solver, "solutions", None))


def listing_solvers() -> list[str]:
    """The registered solvers that list solutions (those whose class can be loaded here)."""
    names = []
    for name in solvers.names():
        try:
            cls = solvers.solver_class(name)
        except Exception:  # noqa: BLE001 - a solver whose backend is missing is just not offered
            continue
        if can_list(cls):
            names.append(name)
    return names


def list_solutions(solver: Solver, puzzle: Puzzle, limit: int = DEFAULT_LIMIT,
                   time_limit: float | None = None) -> SolutionList:
    """The solutions of ``puzzle`` up to ``limit``, each checked by ``puzzle.solution_error``."""
    if not can_list(solver):
        raise UnsupportedFeature(f"solver '{solver.name}' cannot list solutions; one of these can: "
                                 f"{', '.join(listing_solvers())}")
    listed: SolutionList = solver.solutions(puzzle, limit=limit, time_limit=time_limit)  # type: ignore[attr-defined]
    for grid in listed.grids:
        problem = solution_error(grid, puzzle)
        if problem:
            raise SolverBug(f"solver '{listed.solver}' listed a wrong solution ({problem}); nothing printed")
    if len(set(listed.grids)) != len(listed.grids):
        raise SolverBug(f"solver '{listed.solver}' listed a solution twice; nothing printed")
    return listed
