"""The exact-cover paradigm: Knuth's Algorithm X on the matrix of ``exact_cover.model``, under the puzzle's rules.

Algorithm X (D. E. Knuth, "Dancing Links", 2000, arXiv:cs/0011047) branches on an open primary
column with the fewest rows (Knuth's "S heuristic": a column of one row is a naked or hidden
single, a forced move), covering a chosen row's columns, secondary ones included (TAOCP 4B,
7.2.2.1). A cage whose pairs do not say its sum is refused before any work. Two formulations, the
option ``structure``: ``links`` (dancing links on flat lists, the default, the faster) and ``sets``
(a set of rows per column, the shorter code to read); the column choice is shared (``algorithm_x``).
``canonical`` branches on cells in reading order, so the first solution is ``backtrack``'s. Stats:
``nodes`` (rows tried) and ``updates``, Knuth's measures of effort.

The search, the two formulations and why ``links`` is the default: docs/solvers.md.
"""

from __future__ import annotations

from typing import ClassVar

from ...core.puzzle import Puzzle
from ..base import Capabilities, CountResult, Option, SolveResult, check_kinds
from ..search import SearchSolver
from .algorithm_x import DlxCounters
from .links import links_search
from .model import FORMS, KINDS_WHY, NATIVE, refusal
from .sets import sets_search

STRUCTURES = ("links", "sets")
"""The two formulations of Algorithm X; see docs/solvers.md."""


_SEARCHES = {"links": links_search, "sets": sets_search}



class DlxSolver(SearchSolver):
    """``dlx``: Knuth's Algorithm X on the exact-cover matrix, fewest-rows column first.

    >>> from sudokulab.core.puzzle import Puzzle
    >>> DlxSolver().count(Puzzle.empty(4), limit=1000).count, DlxSolver("sets").count(Puzzle.empty(4)).count
    (288, 2)

    It states groups and differing pairs natively (``solvers.exact_cover.model.NATIVE``) and every other
    kind through the lowering, and refuses, before any work, a killer cage whose forbidden pairs would
    not say its sum (``solvers.exact_cover.model.refusal``).
    """

    name = "dlx"
    paradigm: ClassVar[str] = "exact cover (Algorithm X)"
    capabilities: ClassVar[Capabilities] = Capabilities(canonical=True, count=True, time_limit=True, threads="safe",
                                                        kinds=NATIVE, forms=FORMS, kinds_why=KINDS_WHY,
                                                        refuses=refusal)
    counters: ClassVar[type] = DlxCounters
    in_order: ClassVar[bool] = True  # with canonical: first open cell, digits ascending (module docstring)
    options: ClassVar[tuple[Option, ...]] = (
        Option("structure", str, "links", "links (dancing links on flat lists) or sets (a set of rows per column)",
               choices=STRUCTURES),
    )

    def __init__(self, structure: str = "links") -> None:
        super().__init__()  # options checked by SolverBase (base.check_options)
        self.structure = structure
        self.search = _SEARCHES[structure]

    def solve(self, puzzle: Puzzle, *, time_limit: float | None = None, canonical: bool = False) -> SolveResult:
        check_kinds(self, puzzle)
        return super().solve(puzzle, time_limit=time_limit, canonical=canonical)

    def count(self, puzzle: Puzzle, *, limit: int = 2, time_limit: float | None = None) -> CountResult:
        check_kinds(self, puzzle)
        return super().count(puzzle, limit=limit, time_limit=time_limit)
