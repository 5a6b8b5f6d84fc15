"""Certified verdicts: "no solution" and "exactly one solution" backed by a checked proof.

Both claims are unsatisfiability claims: the formula of the puzzle's own rules (``solvers.sat.cnf``,
``extended`` up to 16x16, ``reduced`` above, the givens as unit clauses) has no model, or has none
once the one known solution is blocked. CaDiCaL 1.9.5 (PySAT's ``cadical195`` with ``with_proof``)
refutes the formula and returns its DRUP proof; ``check_proof`` then checks it *independently of
CaDiCaL*: each added lemma must follow from the formula and the lemmas before it by reverse unit
propagation, done by a different engine (MiniSat 2.2, ``minisat22``, through PySAT's
``propagate``), and the empty clause must be reached. Deletions are ignored (keeping an implied
clause never makes a wrong lemma pass). This checker needs nothing beyond PySAT; ``proof_dir``
keeps the formula and the proof for any other checker (``drat-trim formula.cnf proof.drup``).

Why this checker, and what a certificate says: docs/certify.md.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..core.grid import Grid
from ..core.puzzle import Puzzle
from ..formats.outputs import write_text
from ..solvers.sat import cnf
from ..solvers.sat import literals as cnf_literals

PROVER = "cadical195"
CHECKER = "minisat22"


@dataclass(frozen=True)
class Certificate:
    """The outcome of certifying one claim about a puzzle."""

    claim: str
    certified: bool
    lemmas: int = 0
    seconds: float = 0.0
    """Time spent checking the proof (proving it is not counted)."""
    why: str | None = None

    def line(self) -> str:
        """``certified: proof of N lemmas checked in T s`` or ``not certified: <why>``."""
        if self.certified:
            return f"certified: {self.claim}: proof of {self.lemmas} lemmas checked in {self.seconds:.3f} s"
        return f"not certified: {self.claim}: {self.why}"


def formula_of(puzzle: Puzzle, solution: Grid | None = None) -> list[list[int]]:
    """The clauses to refute: the rules, the givens as units, and the blocking clause of ``solution``."""
    if puzzle.n > 16:
        base = cnf.reduced_formula(puzzle)
        clauses = [list(clause) for clause in base.clauses]
        blocking = [] if solution is None else [
            [-lit for cell, digit in enumerate(puzzle.givens) if not digit
             for lit in [base.literal(cell, solution[cell])] if lit is not None]
        ]
        return clauses + blocking
    rules = cnf.rules(puzzle.rules, "extended", "pairwise")
    clauses = [list(clause) for clause in rules.clauses] + [[lit] for lit in rules.assumptions(puzzle.givens)]
    if solution is not None:
        clauses.append(rules.blocking_clause(solution, puzzle.givens))
    return clauses


def prove(clauses: Sequence[Sequence[int]]) -> list[str] | None:
    """CaDiCaL's DRUP proof that the clauses have no model, as text lines; None when they have one."""
    from pysat.solvers import Solver

    from ..solvers.pysat_guard import guarded  # PySAT's SIGINT handler kept out: Ctrl-C when a call returns

    with guarded(Solver(name=PROVER, with_proof=True, bootstrap_with=[list(c) for c in clauses])) as prover:
        if prover.solve():
            return None
        return list(prover.get_proof())


def check_proof(clauses: Sequence[Sequence[int]], proof: Sequence[str]) -> tuple[bool, int, str | None]:
    """Check a DRUP proof by reverse unit propagation on MiniSat: (accepted, lemmas checked, why not)."""
    from pysat.solvers import Solver

    from ..solvers.pysat_guard import guarded  # PySAT's SIGINT handler kept out: Ctrl-C when a call returns

    lemmas = 0
    top = max((abs(lit) for clause in clauses for lit in clause), default=0)
    with guarded(Solver(name=CHECKER, bootstrap_with=[list(c) for c in clauses])) as checker:
        for number, line in enumerate(proof, 1):
            words = line.split()
            if not words or words[0] == "d":
                continue
            try:
                lits = [int(word) for word in words]
            except ValueError:
                return False, lemmas, f"proof line {number} is not a clause: '{line[:40]}'"
            if lits[-1] != 0 or 0 in lits[:-1]:
                return False, lemmas, f"proof line {number} does not end in 0"
            lits.pop()
            if any(abs(lit) > top for lit in lits):
                return False, lemmas, f"lemma {lemmas + 1} (proof line {number}) uses a variable the formula lacks"
            no_conflict, _ = checker.propagate(assumptions=[-lit for lit in lits])
            if no_conflict:
                return False, lemmas, f"lemma {lemmas + 1} (proof line {number}) does not follow by unit propagation"
            lemmas += 1
            if not lits:
                return True, lemmas, None
            checker.add_clause(lits)
    return False, lemmas, "the proof never reaches the empty clause"


def certify(puzzle: Puzzle, solution: Grid | None = None, *, proof_dir: str | Path | None = None,
            proof: Sequence[str] | None = None) -> Certificate:
    """Certify "no solution" (``solution`` None) or "exactly one solution" (the given one).

    ``proof`` checks a proof given instead of producing one (to test the checker); ``proof_dir``
    keeps ``formula.cnf`` and ``proof.drup`` for any other checker.
    """
    claim = "no solution" if solution is None else "exactly one solution"
    clauses = formula_of(puzzle, solution)
    if proof is None:
        proof = prove(clauses)
        if proof is None:
            return Certificate(claim, False, why="the formula has a model: the claim is false")
    if proof_dir is not None:
        folder = Path(proof_dir)
        folder.mkdir(parents=True, exist_ok=True)
        top = max((abs(lit) for clause in clauses for lit in clause), default=0)
        body = "".join(" ".join(map(str, clause)) + " 0\n" for clause in clauses)
        write_text(folder / "formula.cnf", f"c sudokulab: {claim}\np cnf {top} {len(clauses)}\n{body}")
        write_text(folder / "proof.drup", "".join(line.rstrip("\n") + "\n" for line in proof))
    started = time.perf_counter()
    accepted, lemmas, why = check_proof(clauses, proof)
    return Certificate(claim, accepted, lemmas, time.perf_counter() - started, why)


def certify_count(puzzle: Puzzle, count: int | None, *, proof_dir: str | Path | None = None,
                  exact: bool = True) -> Certificate:
    """Certify a count of solutions: 0 ("no solution") or 1 ("exactly one solution"); others are not claims
    a proof of unsatisfiability can back. ``exact`` False: the count is a lower bound (an oracle's 2)."""
    if count == 0:
        return certify(puzzle, proof_dir=proof_dir)
    if count != 1:
        more = "" if exact else " or more"
        what = "an unknown number of solutions" if count is None else f"{count}{more} solutions"
        return Certificate(what, False, why="only 'no solution' and 'exactly one solution' are certified")
    from pysat.solvers import Solver

    from ..solvers.pysat_guard import guarded  # PySAT's SIGINT handler kept out: Ctrl-C when a call returns

    clauses = formula_of(puzzle)
    with guarded(Solver(name=PROVER, bootstrap_with=clauses)) as finder:
        if not finder.solve():
            return Certificate("exactly one solution", False, why="the formula has no model: the claim is false")
        model = finder.get_model()
    free = cnf.reduced_formula(puzzle).free if puzzle.n > 16 else None
    solution = cnf_literals.grid_from_model(puzzle.n, [lit for lit in model if lit > 0], puzzle.givens, free)
    return certify(puzzle, solution, proof_dir=proof_dir)
