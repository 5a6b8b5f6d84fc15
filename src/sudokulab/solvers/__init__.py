"""The ordered registry of solvers: name -> where its class lives.

Classes are imported on first use, so ``import sudokulab`` never loads PySAT or OR-Tools. A new
paradigm joins by adding one line here; the contract tests then cover it automatically.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from ..errors import UsageError
from .base import CountResult, Solver, SolveResult, Status

__all__ = ["REGISTRY", "CountResult", "SolveResult", "Solver", "Status", "get", "names"]

REGISTRY: dict[str, str] = {
    "backtrack": "sudokulab.solvers.backtracking:BacktrackSolver",
    "backtrack-fast": "sudokulab.solvers.backtracking:FastBacktrackSolver",
    "sat": "sudokulab.solvers.sat:SatSolver",
    "cpsat": "sudokulab.solvers.cpsat:CpSatSolver",
}


def names() -> list[str]:
    """Registered solver names, in registry order (baseline first)."""
    return list(REGISTRY)


def solver_class(name: str) -> type:
    """The class behind a name; the error lists the valid names."""
    try:
        where = REGISTRY[name]
    except KeyError:
        raise UsageError(
            f"unknown solver '{name}'; choose one of: {', '.join(REGISTRY)}"
        ) from None
    module, _, cls = where.partition(":")
    return getattr(import_module(module), cls)


def get(name: str, **options: Any) -> Solver:
    """A configured solver by name, e.g. ``get("sat", engine="glucose4")``.

    Options a solver does not take are refused with the names it does take.
    """
    cls = solver_class(name)
    try:
        return cls(**options)
    except TypeError as exc:
        import inspect

        taken = [p for p in inspect.signature(cls).parameters if p != "self"]
        raise UsageError(
            f"solver '{name}' takes no such option ({exc}); its options: {', '.join(taken) or 'none'}"
        ) from None
