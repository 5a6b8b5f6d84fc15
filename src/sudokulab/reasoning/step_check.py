"""Certifying an explanation's step with SAT: its premises and named rules entail its conclusion.

A step is *certified* when the clauses of the rule constraints it names ("row 4", "cage 7 (sum
15)"), each cell's exactly-one, its premises as unit assumptions and the negation of its
conclusion are unsatisfiable, and the premises with those constraints alone are satisfiable (a
contradictory premise set would entail anything). The premises are made *minimal* by deletion
(after first shrinking to the solver's unsatisfiable core), then the named constraints not needed
are dropped the same way. One incremental solver holds every constraint of a rule set once, each
behind an activation literal, so a check is one ``solve`` under assumptions; its clauses are
``solvers.sat.cnf``'s, the same encodings the SAT solvers use, not a second copy. pysat is imported
inside ``Checker``, never at ``import sudokulab``. What a certified step means: docs/explain.md.
"""

from __future__ import annotations

import atexit
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..core import variables
from ..core.rules import Rules
from ..solvers.sat import cnf
from ..solvers.sat.encodings import at_most_one
from .steps import Fact, Step, conclusion

if TYPE_CHECKING:
    from ..core.puzzle import Puzzle

Pattern = Sequence[tuple[int, int]]
"""A deadly pattern: ``(cell, mask)`` pairs, the digits each cell would keep (``steps.Step.pattern``)."""


def fact_literal(n: int, fact: Fact) -> int:
    """The SAT literal of a fact: "r4c5=7" is the cell variable, "r4c5≠7" its negation."""
    lit = variables.literal(n, fact.cell, fact.digit)
    return lit if fact.holds else -lit


@dataclass
class Checker:
    """Every constraint of one rule set in one incremental solver, each name behind its own switch."""

    rules: Rules
    solver: Any
    switch: dict[str, int]
    pool: Any

    @classmethod
    def of(cls, rules: Rules) -> Checker:
        from pysat.solvers import Solver

        from ..solvers.pysat_guard import guarded

        n = rules.n
        pool = cnf._Pool(n)  # the formula builder's one variable counter: cells first, then every auxiliary
        solver = guarded(Solver(name="minisat22"))  # no PySAT SIGINT handler: Ctrl-C when a call returns
        lit = variables.literal
        for cell in range(n * n):  # each cell holds exactly one digit: always on
            solver.add_clause([lit(n, cell, d) for d in range(1, n + 1)])
            for a, b in itertools.combinations(range(1, n + 1), 2):
                solver.add_clause([-lit(n, cell, a), -lit(n, cell, b)])
        switch: dict[str, int] = {}

        def guarded(name: str, clauses: Iterable[Sequence[int]]) -> None:
            if name not in switch:
                switch[name] = pool.fresh()
            on = switch[name]
            for clause in clauses:
                solver.add_clause([-on, *clause])

        for group in rules.groups:
            complete = len(group.cells) == n
            for d in range(1, n + 1):
                lits = [lit(n, cell, d) for cell in group.cells]
                guarded(group.name, ([lits] if complete else []) + at_most_one(lits, "pairwise", 0)[0])
        for differ in rules.differ:
            guarded(differ.name, cnf.differ_clauses(n, differ.pairs))
        for thermo in rules.thermos:
            guarded(thermo.name, cnf.thermo_clauses(n, thermo))
        for cage in rules.cages:
            guarded(cage.name, cnf.cage_clauses(n, cage, pool, "pairwise"))
        return cls(rules, solver, switch, pool)

    def switches(self, names: Iterable[str]) -> list[int]:
        try:
            return [self.switch[name] for name in names]
        except KeyError as exc:
            raise ValueError(f"no rule constraint is called {exc.args[0]!r}") from None

    def _negation(self, conclusion: Sequence[Fact], pattern: Pattern = ()) -> int:
        """A fresh literal that, assumed, says "the conclusion does not hold" (and, with a deadly
        pattern, "some cell of the pattern holds a digit outside it": the pattern is not forced)."""
        n = self.rules.n
        on = self.pool.fresh()
        self.solver.add_clause([-on] + [-fact_literal(n, fact) for fact in conclusion])
        if pattern:
            self.solver.add_clause([-on] + _outside(n, pattern))
        return on

    def _retire(self, on: int) -> None:
        self.solver.add_clause([-on])

    def entails(self, premises: Sequence[Fact], groups: Sequence[str], conclusion: Sequence[Fact],
                pattern: Pattern = ()) -> bool:
        """True when the premises and the named constraints make the conclusion certain (with a
        deadly pattern: make the conclusion certain or the pattern forced)."""
        n = self.rules.n
        assumed = self.switches(groups) + [fact_literal(n, f) for f in premises]
        on = self._negation(conclusion, pattern)
        try:
            return not self.solver.solve(assumptions=assumed + [on])
        finally:
            self._retire(on)

    def consistent(self, facts: Sequence[Fact], groups: Sequence[str] | None = None) -> bool:
        """True when the facts can all hold under the named constraints (every constraint: None)."""
        names = self.switch if groups is None else groups
        assumed = self.switches(names) + [fact_literal(self.rules.n, f) for f in facts]
        return bool(self.solver.solve(assumptions=assumed))

    def minimise(self, premises: Sequence[Fact], groups: Sequence[str], conclusion: Sequence[Fact],
                 pattern: Pattern = ()) -> tuple[tuple[Fact, ...], tuple[str, ...]] | None:
        """Premises none of which can be dropped, and the named constraints still needed; None when
        the premises do not entail the conclusion (or force the deadly pattern) in the first place."""
        n = self.rules.n
        solver = self.solver
        on = self._negation(conclusion, pattern)
        named = list(dict.fromkeys(groups))
        try:
            by_literal = {fact_literal(n, f): f for f in premises}
            base = self.switches(named) + [on]
            if solver.solve(assumptions=base + list(by_literal)):
                return None
            core = set(solver.get_core() or by_literal)
            kept = [lit for lit in by_literal if lit in core]
            i = 0
            while i < len(kept):
                trial = kept[:i] + kept[i + 1:]
                if not solver.solve(assumptions=base + trial):
                    core = set(solver.get_core() or trial)
                    kept = [lit for lit in trial if lit in core]
                else:
                    i += 1
            needed = list(named)
            for name in named:
                trial_names = [g for g in needed if g != name]
                if not solver.solve(assumptions=self.switches(trial_names) + [on] + kept):
                    needed = trial_names
            return tuple(by_literal[lit] for lit in kept), tuple(needed)
        finally:
            self._retire(on)

    def solutions(self, facts: Sequence[Fact], pattern: Pattern = (), most: int = 2) -> int:
        """How many solutions (up to ``most``) the facts have under every constraint, inside the
        deadly pattern when one is given (each found solution is blocked behind a fresh switch)."""
        n = self.rules.n
        assumed = self.switches(self.switch) + [fact_literal(n, f) for f in facts]
        on = self.pool.fresh()
        if pattern:
            for cell, mask in pattern:  # inside the pattern: each cell keeps only its digits
                for digit in range(1, n + 1):
                    if not mask >> (digit - 1) & 1:
                        self.solver.add_clause([-on, -variables.literal(n, cell, digit)])
        found = 0
        try:
            while found < most and self.solver.solve(assumptions=assumed + [on]):
                found += 1
                model = self.solver.get_model()
                cells = [lit for lit in model if 0 < lit <= n ** 3]
                self.solver.add_clause([-on] + [-lit for lit in cells])
            return found
        finally:
            self._retire(on)

    def refutes(self, facts: Sequence[Fact], assumption: Fact) -> bool:
        """True when no completion of the facts under every constraint has the assumption (a search)."""
        n = self.rules.n
        assumed = self.switches(self.switch) + [fact_literal(n, f) for f in (*facts, assumption)]
        return not self.solver.solve(assumptions=assumed)


@lru_cache(maxsize=8)
def checker(rules: Rules) -> Checker:
    """The checker of a rule set, built once (its solver grows one retired clause per check)."""
    return Checker.of(rules)


atexit.register(checker.cache_clear)  # the solvers go while pysat is still there to free them


def check_step(puzzle: Puzzle, step: Step) -> bool:
    """True when the step's premises and named constraints are consistent and entail its conclusion.

    A uniqueness step (``step.pattern``) is certified in two parts: its premises and named
    constraints entail the conclusion or force its deadly pattern (the part a person reads), and
    the puzzle has exactly one solution, which lies outside the pattern (the givens, every rule
    and the pattern have no solution). Together: the conclusion holds in the solution."""
    if not step.placed and not step.removed:
        return False
    check = checker(puzzle.rules)
    try:
        if not (check.consistent(step.premises, step.groups)
                and check.entails(step.premises, step.groups, conclusion(step), step.pattern)):
            return False
    except ValueError:
        return False
    if not step.pattern:
        return True
    givens = [Fact(cell, digit, True) for cell, digit in enumerate(puzzle.givens) if digit]
    return check.solutions(givens) == 1 and check.solutions(givens, step.pattern, most=1) == 0


def _outside(n: int, pattern: Pattern) -> list[int]:
    """Literals saying "some cell of the pattern holds a digit outside it"."""
    return [variables.literal(n, cell, digit) for cell, mask in pattern for digit in range(1, n + 1)
            if not mask >> (digit - 1) & 1]
