"""Models: build a problem for a paradigm's engine, solve nothing (solvers run them).

A lesson can print a model's clauses or constraints without loading any solver. ``EXPORTERS`` is
the registry of ``sudokulab export`` formats: each model module that can write its model for an
outside tool adds one line here.

It may import ``core`` and ``formats`` (a model can be written as text); never a solver.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from ..core.puzzle import Puzzle
from ..errors import UsageError

EXPORTERS: dict[str, str] = {
    "dimacs": "sudokulab.solvers.sat.dimacs:to_dimacs",
    "cpsat": "sudokulab.solvers.cpsat.model:to_cpsat_text",
    "lp": "sudokulab.solvers.mip.model:to_lp",
    "mps": "sudokulab.solvers.mip.model:to_mps",
    "minizinc": "sudokulab.solvers.minizinc.model:to_minizinc",
    "asp": "sudokulab.solvers.asp.model:to_asp",
    "smtlib": "sudokulab.solvers.smt.model:to_smtlib",
    "cpmpy": "sudokulab.solvers.cpmpy.model:to_cpmpy_text",
}
"""Export format -> "module:function"; the function takes a Puzzle and keyword options and returns text."""


def export(puzzle: Puzzle, format: str, **options: Any) -> str:  # noqa: A002 - the user's word for it
    """The puzzle's model in an export format, as text (unknown formats list the valid ones)."""
    if format not in EXPORTERS:
        raise UsageError(f"unknown format '{format}'; choose one of: {', '.join(EXPORTERS)}")
    module, _, function = EXPORTERS[format].partition(":")
    return getattr(import_module(module), function)(puzzle, **options)
