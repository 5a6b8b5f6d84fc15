"""How big a CNF formula of ``solvers.sat.cnf`` will be, from closed forms, before anything is built.

Solvers size a formula first and refuse one that would not fit in memory (``check_memory``;
``dimacs``: one over ``MAX_CLAUSES``) with one line, instead of spending seconds and gigabytes on
it; the tests assert the closed forms against the clauses built. At-most-one encodings other than
pairwise are counted by ``pysat.card`` itself where no closed form is used (once per group size).
Standard Sudoku has closed forms in n alone (``counts``; ``reduced_group_sizes`` follows the groups
its givens leave); any other rule set is sized per constraint kind (``rules_counts``,
``kind_counts``), its ``reduced`` formula by that of ``extended`` before it is built (an upper
bound) and from the built formula after (``cnf.reduced_counts``). The at-most-one's cost
(``amo_cost``) and the encodings' names are ``cnf_encodings``'. The sizes: docs/sat.md.
"""

from __future__ import annotations

import itertools
from functools import cache
from typing import TYPE_CHECKING

from ...core.puzzle import Puzzle
from ...errors import UnsupportedFeature
from ..base import Deadline
from ..lowering import lower
from .encodings import NATIVE, amo_cost, check_options

if TYPE_CHECKING:
    from ...core.rules import Rules

__all__ = ["BYTES_PER_CLAUSE", "MAX_CLAUSES", "cage_combinations", "check_memory", "check_size", "clause_count",
           "counts", "kind_counts", "reduced_group_sizes", "rules_counts"]


def counts(n: int, encoding: str, amo: str = "pairwise") -> tuple[int, int]:
    """(variables, clauses) of the rules of an n x n board, in closed form.

    With g AMO groups and a ALO groups, all of n literals: variables n**3 + g * aux(n), clauses
    a * 1 + g * amo_clauses(n), where minimal has a = n**2, g = 3n**2; efficient a = n**2,
    g = 4n**2; extended (and reduced on an empty board) a = g = 4n**2.

    >>> counts(9, "minimal"), counts(9, "efficient"), counts(9, "extended")
    ((729, 8829), (729, 11745), (729, 11988))
    """
    check_options(encoding, amo)
    alo, amo_groups = {"minimal": (n * n, 3 * n * n), "efficient": (n * n, 4 * n * n)}.get(
        encoding, (4 * n * n, 4 * n * n)
    )
    clauses, aux = amo_cost(amo, n)
    return n**3 + amo_groups * aux, alo + amo_groups * clauses


@cache
def cage_combinations(n: int, k: int, total: int) -> tuple[tuple[int, ...], ...]:
    """The sets of k different digits of 1..n that add up to ``total``, smallest first.

    >>> cage_combinations(9, 2, 4), len(cage_combinations(9, 5, 25))
    (((1, 3),), 12)
    """
    return tuple(c for c in itertools.combinations(range(1, n + 1), k) if sum(c) == total)


def kind_counts(rules: Rules, amo: str = "pairwise") -> dict[str, tuple[int, int]]:
    """(auxiliary variables, clauses) of the differing pairs, thermometers and cage sums, per kind, and
    of the lowered forms of any other kind (``lowered``, when there are some).

    differ: n clauses a pair, no variables. increasing: (L-1)(n-1) + L(L-1) clauses a thermometer
    of L cells. sum: a cage of k cells whose total m digit sets reach costs m selectors plus the
    AMO's auxiliaries, and 1 + AMO(m) + m*k + k*n clauses (``solvers.sat.cnf`` says what each is).
    lowered: a clause per ruled-out placement and per forbidden pair, and per allowed sets what a
    cage of as many cells and sets costs.
    """
    n = rules.n
    thermo = sum((len(t.cells) - 1) * (n - 1) + len(t.cells) * (len(t.cells) - 1) for t in rules.thermos)
    aux = clauses = 0
    for cage in rules.cages:
        k = len(cage.cells)
        m = len(cage_combinations(n, k, cage.total))
        amo_clauses, amo_aux = amo_cost(amo, m)
        aux += m + amo_aux
        clauses += 1 + amo_clauses + m * k + k * n
    counted = {"differ": (0, n * len(rules.pairs)), "increasing": (0, thermo), "sum": (aux, clauses)}
    forms = lower(rules, NATIVE)
    if forms:
        aux = clauses = 0
        for allowed in forms.sets:
            k, m = len(allowed.cells), len(allowed.sets)
            amo_clauses, amo_aux = amo_cost(amo, m)
            aux += m + amo_aux
            clauses += 1 + amo_clauses + m * k + k * n
        counted["lowered"] = (aux, clauses + len(forms.ruled_out) + len(forms.pairs))
    return counted


def rules_counts(rules: Rules, encoding: str, amo: str = "pairwise") -> tuple[int, int]:
    """(variables, clauses) of the givens-free formula of any rule set, in closed form, nothing built.

    Cells: n**2 ALO, and n**2 AMOs of n (not in minimal). Complete groups (n cells): n AMOs of n
    each, and n ALO clauses in extended. Partial groups of k cells: n AMOs of k each. Then the other
    kinds (``kind_counts``). ``reduced`` is sized as ``extended``, its upper bound. For standard
    rules this is ``counts``.
    """
    check_options(encoding, amo)
    n = rules.n
    cell_clauses, cell_aux = amo_cost(amo, n)
    complete = len(rules.complete_groups)
    clauses = n * n + (0 if encoding == "minimal" else n * n * cell_clauses) + complete * n * cell_clauses
    aux = (0 if encoding == "minimal" else n * n * cell_aux) + complete * n * cell_aux
    if encoding in ("extended", "reduced"):
        clauses += complete * n
    for group in rules.partial_groups:
        group_clauses, group_aux = amo_cost(amo, len(group.cells))
        clauses, aux = clauses + n * group_clauses, aux + n * group_aux
    for kind_aux, kind_clauses in kind_counts(rules, amo).values():
        clauses, aux = clauses + kind_clauses, aux + kind_aux
    return n**3 + aux, clauses


def reduced_group_sizes(puzzle: Puzzle, deadline: Deadline | None = None) -> list[int] | None:
    """The sizes of the groups ``candidate_groups`` would build, without building them (None when
    the givens break a rule): bit masks of the digits each unit holds, so sizing a 64x64 formula
    before deciding to build it takes a fraction of a second. Standard rules only (the closed
    form of ``cnf.reduced_counts``); other rules are sized by ``rules_counts``.
    """
    if not puzzle.rules.is_standard:
        raise ValueError("reduced_group_sizes sizes standard Sudoku only; use rules_counts")
    rules, givens = puzzle.rules, puzzle.givens
    if rules.first_conflict(givens) is not None:
        return None
    n = rules.n
    unit_list = [group.cells for group in rules.groups]  # rows, columns, boxes
    placed = [0] * len(unit_list)
    for index, unit in enumerate(unit_list):
        for cell in unit:
            if givens[cell]:
                placed[index] |= 1 << givens[cell]
    full = ((1 << (n + 1)) - 1) & ~1
    candidates = [0] * (n * n)
    for cell, groups in enumerate(rules.cell_groups):
        if not givens[cell]:
            mask = full
            for index in groups:
                mask &= ~placed[index]
            candidates[cell] = mask
    sizes = [candidates[cell].bit_count() for cell in range(n * n) if not givens[cell]]
    for index, unit in enumerate(unit_list):
        if deadline is not None and not index & 15:
            deadline.check()
        per_digit = [0] * (n + 1)
        for cell in unit:
            mask = candidates[cell]
            while mask:
                low = mask & -mask
                per_digit[low.bit_length() - 1] += 1
                mask ^= low
        sizes += [per_digit[d] for d in range(1, n + 1) if not placed[index] >> d & 1]
    return sizes


MAX_CLAUSES = 800_000
"""Formulas larger than this are refused by ``dimacs`` before they are written: the text of millions
of clauses, written and read by another program, takes many seconds and half a gigabyte (docs/solvers.md,
"The largest boards"). ``sat`` builds under its deadline and refuses only by memory (``check_memory``)."""


def clause_count(puzzle: Puzzle, encoding: str, amo: str, sizes: list[int] | None = None) -> int:
    """Clauses of the puzzle's formula (without the givens' units), from the closed forms: nothing built.

    ``sizes`` are ``reduced_group_sizes(puzzle)`` when the caller has them already. Rules other than
    standard: ``rules_counts`` (for ``reduced``, the upper bound of ``extended``).
    """
    if not puzzle.rules.is_standard:
        return rules_counts(puzzle.rules, encoding, amo)[1]
    if encoding != "reduced":
        return counts(puzzle.n, encoding, amo)[1]
    sizes = reduced_group_sizes(puzzle) if sizes is None else sizes
    return 1 if sizes is None else len(sizes) + sum(amo_cost(amo, k)[0] for k in sizes)


BYTES_PER_CLAUSE = 400
"""Peak memory per clause of a formula the ``sat`` solver builds and loads, about (its Python lists and
CaDiCaL's copy; measured: docs/solvers.md, "The largest boards")."""


def check_memory(puzzle: Puzzle, encoding: str, amo: str, solver: str, sizes: list[int] | None = None) -> None:
    """Refuse, before building it, a formula whose estimated peak memory (``BYTES_PER_CLAUSE``) is more
    than this machine has available now (``UnsupportedFeature``, one line)."""
    from ..building import available_memory

    clauses = clause_count(puzzle, encoding, amo, sizes)
    needed, available = clauses * BYTES_PER_CLAUSE, available_memory()
    if available is not None and needed > available:
        raise UnsupportedFeature(
            f"the {encoding} formula of this {puzzle.n}x{puzzle.n} puzzle would have {clauses:,} clauses, about "
            f"{needed / 2**30:.1f} GiB to build and load, and this machine has {available / 2**30:.1f} GiB "
            f"available: use the backtrack-fast or cpsat solver")


def check_size(puzzle: Puzzle, encoding: str, amo: str, solver: str) -> None:
    """Refuse, before building it, a formula over ``MAX_CLAUSES`` (``UnsupportedFeature``, one line)."""
    clauses = clause_count(puzzle, encoding, amo)
    if clauses > MAX_CLAUSES:
        raise UnsupportedFeature(
            f"the {encoding} formula of this {puzzle.n}x{puzzle.n} puzzle would have {clauses:,} clauses "
            f"(the {solver} solver's limit is {MAX_CLAUSES:,}); use the backtrack-fast or cpsat solver"
        )
