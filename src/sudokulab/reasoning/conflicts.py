"""Why a puzzle has no solution: a minimal set of givens that cannot all hold, the rules that
forbid them, and a smallest set of givens whose removal makes the puzzle solvable.

The model is the one ``explain`` certifies its steps with (``step_check.Checker``): every named
constraint behind a switch literal, a cell's exactly-one always on, the givens as assumptions.
**givens**: a smallest unsatisfiable subset of the givens, every rule hard (PySAT's ``OptUx``), or
above ``SMALLEST_UP_TO`` (or with ``smallest=False``) a subset-minimal one by deletion with
clause-set refinement. **groups**: a second deletion pass over the switches with those givens
fixed, so the sentence "... cannot all hold: row 1, box 3" is minimal both ways. **removal**: a
smallest correction set by MaxSAT (PySAT's RC2: the rules hard, one soft unit clause per given).
PySAT is imported inside the functions, so ``import sudokulab`` stays light.

The details: docs/rating.md ("Why there is no solution").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..core.cells import cell_label
from ..core.puzzle import Puzzle
from ..errors import UsageError

Given = tuple[int, int]
"""A given as (cell, digit): cell row-major from 0, digit 1..n."""


@dataclass(frozen=True)
class Conflict:
    """Why a puzzle has no solution, in its own words.

    ``givens``: a minimal set of givens that cannot all hold (drop any one and the rest can);
    ``groups``: the rules names of a minimal set of constraints that forbid them (drop any one and
    they can hold); ``removal``: a smallest set of givens whose removal makes the puzzle solvable.
    ``givens`` is empty when the rules alone cannot hold.
    """

    n: int
    givens: tuple[Given, ...]
    groups: tuple[str, ...]
    removal: tuple[Given, ...]

    def labels(self, givens: Sequence[Given]) -> list[str]:
        """``r1c9=5`` for each given."""
        return [f"{cell_label(cell, self.n)}={digit}" for cell, digit in givens]

    def text(self) -> str:
        """The explanation as two sentences: the conflict, then the repair."""
        names = ", ".join(self.groups)
        if not self.givens:
            return f"The rules cannot all hold, whatever the givens: {names}."
        labels = self.labels(self.givens)
        if len(labels) == 1:
            first = f"The given {labels[0]} cannot hold: {names}."
        else:
            both = "both" if len(labels) == 2 else "all"
            first = f"The givens {_listed(labels)} cannot {both} hold: {names}."
        removal = self.labels(self.removal)
        verb = "makes" if len(removal) == 1 else "make"
        return f"{first} Removing {_listed(removal)} {verb} the puzzle solvable."

    def document(self) -> dict[str, Any]:
        """The JSON form (``explain --json``'s ``conflict``): cells 1-based as ``row``/``col``."""

        def rows(givens: Sequence[Given]) -> list[dict[str, Any]]:
            return [{"cell": cell_label(cell, self.n), "row": cell // self.n + 1, "col": cell % self.n + 1,
                     "digit": digit} for cell, digit in givens]

        return {"givens": rows(self.givens), "groups": list(self.groups), "removal": rows(self.removal),
                "text": self.text()}


def _listed(words: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


class _Model:
    """The puzzle's rules in ``step_check``'s incremental solver (every named constraint behind its
    switch literal, a cell's exactly-one always on), the givens as assumption literals."""

    def __init__(self, puzzle: Puzzle):
        from ..core import variables
        from .step_check import checker

        check = checker(puzzle.rules)  # shared and cached: only solved under assumptions here, never changed
        self.solver = check.solver
        self.names = list(check.switch)
        self.selectors = list(check.switch.values())
        self.given_of = {variables.literal(puzzle.n, cell, digit): (cell, digit)
                         for cell, digit in enumerate(puzzle.givens) if digit}

    def holds(self, assumptions: Sequence[int]) -> bool:
        return bool(self.solver.solve(assumptions=list(assumptions)))

    def minimal(self, keep: Sequence[int], candidates: Sequence[int]) -> list[int]:
        """A subset-minimal part of ``candidates`` that, assumed with ``keep``, has no model
        (deletion with clause-set refinement; ``keep + candidates`` must have none, and be the
        last call, so that its core is the solver's)."""
        core = set(self.solver.get_core() or ())
        found = [lit for lit in candidates if lit in core]
        index = 0
        while index < len(found):
            trial = found[:index] + found[index + 1:]
            if self.holds(list(keep) + trial):
                index += 1  # needed
            else:
                core = set(self.solver.get_core() or ())
                found = [lit for lit in trial if lit in core]
        return found


SMALLEST_UP_TO = 9
"""Board size up to which ``why_no_solution`` looks for the *smallest* conflicting givens by default:
the hitting-set search grows with the givens (``benchmarks/results/rate.md`` measures a 16x16), the
deletion pass does not."""


def why_no_solution(puzzle: Puzzle, *, smallest: bool | None = None) -> Conflict:
    """Why ``puzzle`` has no solution (module docstring); UsageError when it has one.

    ``smallest``: the fewest conflicting givens (OptUx); False: a subset-minimal set by deletion,
    which needs no hitting-set search; None: smallest on boards up to ``SMALLEST_UP_TO``."""
    if smallest is None:
        smallest = puzzle.n <= SMALLEST_UP_TO
    model = _Model(puzzle)
    givens = list(model.given_of)
    if model.holds(givens + model.selectors):
        raise UsageError("the puzzle has a solution, so there is no conflict to explain")
    if smallest:
        core_givens = _smallest_core(puzzle, givens)
    else:
        core_givens = model.minimal(model.selectors, givens)
    model.holds(core_givens + model.selectors)  # the core of exactly these givens, for the selector pass
    core_selectors = model.minimal(core_givens, model.selectors)
    name_of = dict(zip(model.selectors, model.names))
    return Conflict(
        puzzle.n,
        tuple(sorted(model.given_of[lit] for lit in core_givens)),
        tuple(name_of[s] for s in sorted(core_selectors)),
        smallest_removal(puzzle),
    )


def _weighted(puzzle: Puzzle, givens: Sequence[int]) -> Any:
    """The rules hard (``cnf.rules``, extended) and each given's literal a soft unit clause."""
    from pysat.formula import WCNF

    from ..solvers.sat import cnf

    wcnf = WCNF()
    for clause in cnf.rules(puzzle.rules, "extended").clauses:
        wcnf.append(list(clause))
    for literal in givens:
        wcnf.append([literal], weight=1)
    return wcnf


def _smallest_core(puzzle: Puzzle, givens: Sequence[int]) -> list[int]:
    """The given literals of a smallest unsatisfiable subset (OptUx numbers soft clauses from 1)."""
    from pysat.examples.optux import OptUx

    from ..solvers.pysat_guard import without_handler

    if not givens:
        return []
    with without_handler(), OptUx(_weighted(puzzle, givens), solver="g4") as optux:
        found = optux.compute()
    return [givens[index - 1] for index in found or ()]


def smallest_removal(puzzle: Puzzle) -> tuple[Given, ...]:
    """The fewest givens whose removal leaves a solvable puzzle (a smallest correction set, by RC2
    MaxSAT: the rules hard, each given a soft unit clause); empty when it is solvable already, and
    when no removal helps (the rules alone cannot hold)."""
    from pysat.examples.rc2 import RC2

    from ..core import variables
    from ..solvers.pysat_guard import without_handler

    given_of = {variables.literal(puzzle.n, cell, digit): (cell, digit)
                for cell, digit in enumerate(puzzle.givens) if digit}
    with without_handler(), RC2(_weighted(puzzle, list(given_of))) as rc2:
        model = rc2.compute()
    if model is None:
        return ()  # the rules alone have no model: no removal of givens helps
    true = set(lit for lit in model if lit > 0)
    return tuple(sorted(given for literal, given in given_of.items() if literal not in true))


def without(puzzle: Puzzle, givens: Sequence[Given]) -> Puzzle:
    """The puzzle with some givens blanked (what ``removal`` proposes)."""
    blanked = set(givens)
    grid = tuple(0 if (cell, digit) in blanked else digit for cell, digit in enumerate(puzzle.givens))
    return Puzzle(puzzle.shape, grid, puzzle.rules)
