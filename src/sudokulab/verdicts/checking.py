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
Both read the puzzle's rules (``rules.Rules``; standard Sudoku unless declared): a grid is right
only when it keeps every rule, the variant ones included. More: docs/verify.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from ..core.grid import Shape
from ..core.puzzle import Puzzle, solution_error
from ..core.rules import Rules, standard
from ..solvers.base import SolveResult, Status

if TYPE_CHECKING:
    import numpy as np

    from ..solvers.batch import BatchResults


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


def grids_valid(grids: np.ndarray, givens: np.ndarray, shape: Shape, rules: Rules | None = None) -> np.ndarray:
    """For each row of ``grids``, whether it completes the puzzle in the same row of ``givens``.

    The definition, vectorised (the same checks as ``grid.solution_error``, by another route):
    every cell in 1..n, every given kept, and each complete group's digits, as bits, OR-ing to the
    n-bit mask (n cells whose n bits cover the mask hold n different digits). Under variant
    ``rules`` (default: standard Sudoku) also: each pair of cells that must differ does (the pairs
    of every partial group, such as a cage, and the differing pairs), each cage adds up to its
    total, each thermometer increases step by step.
    """
    import numpy as np

    rules = standard(shape) if rules is None else rules
    n = shape.n
    grids = np.asarray(grids)
    # the whole batch at once first: row by row only when some row fails
    in_range = True if not len(grids) or (grids.min() >= 1 and grids.max() <= n) else (
        (grids >= 1) & (grids <= n)).all(axis=1)
    changed = (givens != 0) & (givens != grids)
    kept = ~changed.any(axis=1) if changed.any() else True
    tables = _tables(rules)
    by_cell = np.ascontiguousarray(grids.T)  # a cell's digits in every grid, side by side
    if n < 64:  # digit d as bit d, by one shift (rows out of range are refused above, whatever their bits)
        dtype = np.uint16 if n < 16 else np.uint32 if n < 32 else np.uint64
        bits = np.left_shift(dtype(1), (by_cell if in_range is True else np.minimum(by_cell, n)).astype(dtype))
        full = dtype((1 << (n + 1)) - 2)
    else:  # 64 digits fill a word: digit d as bit d - 1, by look-up
        table = _digit_bits(n)
        bits = table[by_cell if grids.dtype == np.uint8 else np.clip(by_cell, 0, len(table) - 1)]
        full = table.dtype.type((1 << n) - 1)
    covered = bits[tables.complete[0]]  # the first cell of every group, then OR in the others one by one
    for cells in tables.complete[1:]:
        covered |= bits[cells]
    valid = in_range & kept & (covered == full).all(axis=0)
    if rules.is_standard or not len(grids):
        return valid
    if tables.pairs is not None:
        valid &= (grids[:, tables.pairs[:, 0]] != grids[:, tables.pairs[:, 1]]).all(axis=1)
    if tables.cages is not None:
        values = np.concatenate([grids.astype(np.int64), np.zeros((len(grids), 1), dtype=np.int64)], axis=1)
        valid &= (values[:, tables.cages].sum(axis=2) == tables.totals).all(axis=1)
    if tables.steps is not None:
        valid &= (grids[:, tables.steps[:, 0]] < grids[:, tables.steps[:, 1]]).all(axis=1)
    return valid


@cache
def _digit_bits(n: int) -> np.ndarray:
    """Each byte value's bit (digit d: bit d - 1; 0 and anything above n: no bit), for 64x64 boards,
    whose 64 digits leave no bit spare for ``grids_valid``'s shift."""
    import numpy as np

    dtype = next(t for t in (np.uint16, np.uint32, np.uint64) if np.iinfo(t).bits >= n)
    return np.array([1 << (v - 1) if 1 <= v <= n else 0 for v in range(256)], dtype=dtype)


@dataclass(frozen=True)
class _Tables:
    """A rule set as index arrays for ``grids_valid``; None where the rules have no such constraint."""

    complete: np.ndarray
    """(n, groups): the i-th cell of every complete group (rows, columns, boxes or regions, diagonals,
    windows) in row i, so ``grids_valid`` ORs n (groups, batch) arrays, each gathered as whole rows of
    a cell-major copy, in place, instead of gathering one (batch, groups, n) array, which is slower
    (benchmarks/results/compiled.md)."""
    pairs: np.ndarray | None
    """(pairs, 2) cells that must differ: both cells of one partial group, or a differing pair."""
    cages: np.ndarray | None
    """(cages, longest) cells of each cage, padded with the index of a zero column."""
    totals: np.ndarray | None
    steps: np.ndarray | None
    """(steps, 2): each consecutive (lower, higher) pair of cells along every thermometer."""


@cache
def _tables(rules: Rules) -> _Tables:
    """The index arrays of a rule set, built once per rule set (rules hash cheaply)."""
    import numpy as np

    cells = rules.shape.cells

    def padded(groups: list[tuple[int, ...]]) -> np.ndarray | None:
        if not groups:
            return None
        longest = max(map(len, groups))
        return np.array([g + (cells,) * (longest - len(g)) for g in groups], dtype=np.intp)

    complete = np.array([g.cells for g in rules.complete_groups], dtype=np.intp).reshape(-1, rules.n).T.copy()
    steps = [pair for thermo in rules.thermos for pair in zip(thermo.cells, thermo.cells[1:])]
    pairs = set(rules.pairs)
    for group in rules.partial_groups:
        pairs.update((a, b) for i, a in enumerate(group.cells) for b in group.cells[i + 1:])
    return _Tables(
        complete,
        np.array(sorted(pairs), dtype=np.intp) if pairs else None,
        padded([cage.cells for cage in rules.cages]),
        np.array([cage.total for cage in rules.cages], dtype=np.int64) if rules.cages else None,
        np.array(steps, dtype=np.intp) if steps else None,
    )


def check_batch(givens: np.ndarray, shape: Shape, results: Sequence[BatchResults],
                rules: Rules | None = None) -> list[BatchVerdicts]:
    """``check_results`` over a batch under ``rules`` (default: standard Sudoku): each solver's
    verdicts, in the order given.

    Grids are checked by ``grids_valid``; a grid it refuses is explained by ``grid.solution_error``
    (its first reason), so the words are the same as on the one-puzzle path.
    """
    import numpy as np

    from ..solvers.batch import ERROR, NO_SOLUTION, SOLVED

    checked: list[tuple[np.ndarray, dict[int, str], np.ndarray]] = []
    found = np.full(len(givens), -1, dtype=np.int64)  # the first solver with a checked grid, per puzzle
    for position, result in enumerate(results):
        solved = result.status == SOLVED
        if solved.all():  # the common case: no copies of the solved rows
            grid_ok = grids_valid(result.grids, givens, shape, rules)
        else:
            grid_ok = np.zeros(len(givens), dtype=bool)
            if solved.any():
                grid_ok[solved] = grids_valid(result.grids[solved], givens[solved], shape, rules)
        valid = ~((solved & ~grid_ok) | (result.status == ERROR))
        problems: dict[int, str] = {}
        for i in np.flatnonzero(~valid):
            if result.status[i] == ERROR:
                problems[int(i)] = result.errors.get(int(i), "the solver raised")
            else:
                puzzle = Puzzle(shape, tuple(int(v) for v in givens[i]), rules)
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
