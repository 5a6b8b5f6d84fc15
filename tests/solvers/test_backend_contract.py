"""A contract over backends: every rule kind a solver declares, run on every engine it can be given.

A solver's ``kinds`` hold for whichever engine runs it (``-o engine=`` for ``sat``, ``-o backend=`` for
``mip``): the model is ours, the engine only searches it. So each installed engine gets the
contract's small puzzle of each kind (``grading.contract.variant_puzzles``) and must answer as
``backtrack`` does: a grid the independent checker accepts, and, where the engine can, the canonical
answer and the count. An engine that fails at run time is a test failure here, never a verdict for
a user: ``errors.BackendFailed`` (exit 2). CPMpy's backends, whose kinds do differ, have the same
contract in ``test_cpmpy.py``, as CPMpy's own ``test_constraints`` runs every constraint on every solver.
"""

from __future__ import annotations

import pytest

from sudokulab import Status, is_solution, solvers
from sudokulab.grading import contract
from sudokulab.solvers.mip.solver import BACKENDS
from sudokulab.solvers.sat.engines import available_engines

pytestmark = pytest.mark.slow  # every engine, each a second or more (CBC's counts about twenty)

KIND_PUZZLES = ("x 4x4", "anti-knight 6x6", "killer 6x6", "thermo 6x6")
"""One small puzzle per kind: all-different (the diagonals), differ, sum, increasing."""


@pytest.fixture(scope="module")
def kind_puzzles(backtrack):
    return dict(contract.variant_puzzles(backtrack))


def holds_the_contract(solver, kind_puzzles, backtrack) -> None:
    for what in KIND_PUZZLES:
        puzzle = kind_puzzles[what]
        assert solver.capabilities.unsupported(puzzle.rules) is None, what  # every kind is declared
        result = solver.solve(puzzle, time_limit=120 if solver.capabilities.time_limit else None)
        assert result.status is Status.SOLVED and is_solution(result.grid, puzzle), (what, result)
        if solver.capabilities.canonical:
            assert solver.solve(puzzle, canonical=True).grid == backtrack.solve(puzzle, canonical=True).grid, what
        if solver.capabilities.count:
            assert solver.count(puzzle, limit=3).count == backtrack.count(puzzle, limit=3).count, what


@pytest.mark.parametrize("engine", available_engines())
def test_every_kind_on_every_sat_engine(engine, kind_puzzles, backtrack):
    with solvers.get("sat", engine=engine) as solver:
        holds_the_contract(solver, kind_puzzles, backtrack)


@pytest.mark.parametrize("backend", list(BACKENDS))
def test_every_kind_on_every_mip_backend(backend, kind_puzzles, backtrack):
    with solvers.get("mip", backend=backend) as solver:
        holds_the_contract(solver, kind_puzzles, backtrack)
