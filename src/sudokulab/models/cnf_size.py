"""How big a CNF formula of ``models.cnf`` will be, from closed forms, before anything is built.

Solvers size a formula first and refuse one over ``MAX_CLAUSES`` with one line, instead of
spending seconds and gigabytes on it; the closed forms are asserted against the clauses built in
the tests. The at-most-one encodings other than pairwise are counted by ``pysat.card`` itself
where no closed form is used (once per group size).
"""

from __future__ import annotations

from functools import cache

from ..grid import Puzzle, first_conflict, units

__all__ = ["MAX_CLAUSES", "amo_cost", "check_size", "clause_count", "counts", "reduced_counts", "reduced_group_sizes"]


def amo_cost(amo: str, k: int) -> tuple[int, int]:
    """(clauses, auxiliary variables) of one at-most-one over k literals, in closed form.

    Pairwise: C(k, 2) clauses. For k >= 3, the ``pysat.card`` encodings used here cost: sequential
    counter (Sinz 2005) 3k-4 clauses and k-1 variables; ladder 4k and k+1; bitwise k*ceil(log2 k)
    and ceil(log2 k); kmtotalizer 4k-4 and 2k-2. Below 3 literals every encoding is the one
    binary clause (or nothing). Totalizer and the sorting networks have no simple closed form
    here: their cost is measured from ``pysat.card`` (once per k).
    """
    if amo == "pairwise" or k < 3:
        return k * (k - 1) // 2, 0
    if amo == "seqcounter":
        return 3 * k - 4, k - 1
    if amo == "ladder":
        return 4 * k, k + 1
    if amo == "bitwise":
        bits = (k - 1).bit_length()
        return k * bits, bits
    if amo == "kmtotalizer":
        return 4 * k - 4, 2 * k - 2
    return _measured_amo_cost(amo, k)


@cache
def _measured_amo_cost(amo: str, k: int) -> tuple[int, int]:
    from .cnf import at_most_one  # imported here: cnf imports this module

    clauses, top = at_most_one(range(1, k + 1), amo, k)
    return len(clauses), top - k


def counts(n: int, encoding: str, amo: str = "pairwise") -> tuple[int, int]:
    """(variables, clauses) of the rules of an n x n board, in closed form.

    With g AMO groups and a ALO groups, all of n literals: variables n**3 + g * aux(n), clauses
    a * 1 + g * amo_clauses(n), where minimal has a = n**2, g = 3n**2; efficient a = n**2,
    g = 4n**2; extended (and reduced on an empty board) a = g = 4n**2.

    >>> counts(9, "minimal"), counts(9, "efficient"), counts(9, "extended")
    ((729, 8829), (729, 11745), (729, 11988))
    """
    from .cnf import check_options  # imported here: cnf imports this module

    check_options(encoding, amo)
    alo, amo_groups = {"minimal": (n * n, 3 * n * n), "efficient": (n * n, 4 * n * n)}.get(
        encoding, (4 * n * n, 4 * n * n)
    )
    clauses, aux = amo_cost(amo, n)
    return n**3 + amo_groups * aux, alo + amo_groups * clauses


def reduced_group_sizes(puzzle: Puzzle) -> list[int] | None:
    """The sizes of the groups ``candidate_groups`` would build, without building them (None when
    the givens break a rule): bit masks of the digits each unit holds, so sizing a 64x64 formula
    before deciding to build it takes a fraction of a second.
    """
    shape, givens = puzzle.shape, puzzle.givens
    if first_conflict(givens, shape) is not None:
        return None
    n = shape.n
    u = units(shape)
    unit_list = u.rows + u.cols + u.boxes
    placed = [0] * len(unit_list)
    for index, unit in enumerate(unit_list):
        for cell in unit:
            if givens[cell]:
                placed[index] |= 1 << givens[cell]
    full = ((1 << (n + 1)) - 1) & ~1
    candidates = [0] * (n * n)
    for cell in range(n * n):
        if not givens[cell]:
            r, c = divmod(cell, n)
            candidates[cell] = full & ~(placed[r] | placed[n + c] | placed[2 * n + shape.box_of(r, c)])
    sizes = [candidates[cell].bit_count() for cell in range(n * n) if not givens[cell]]
    for index, unit in enumerate(unit_list):
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
"""Formulas larger than this are refused before they are built: an empty 36x36 board (544,320 clauses
with the sequential counter) builds and loads in under 2 s and 200 MB, the 25x25 extended pairwise
rules (752,500) in about a second; an empty 49x49 (1.4 million) took 9 s and 540 MB."""


def clause_count(puzzle: Puzzle, encoding: str, amo: str, sizes: list[int] | None = None) -> int:
    """Clauses of the puzzle's formula (without the givens' units), from the closed forms: nothing built.

    ``sizes`` are ``reduced_group_sizes(puzzle)`` when the caller has them already.
    """
    if encoding != "reduced":
        return counts(puzzle.n, encoding, amo)[1]
    sizes = reduced_group_sizes(puzzle) if sizes is None else sizes
    return 1 if sizes is None else len(sizes) + sum(amo_cost(amo, k)[0] for k in sizes)


def check_size(puzzle: Puzzle, encoding: str, amo: str, solver: str) -> None:
    """Refuse, before building it, a formula over ``MAX_CLAUSES`` (``UnsupportedFeature``, one line)."""
    from ..errors import UnsupportedFeature

    clauses = clause_count(puzzle, encoding, amo)
    if clauses > MAX_CLAUSES:
        raise UnsupportedFeature(
            f"the {encoding} formula of this {puzzle.n}x{puzzle.n} puzzle would have {clauses:,} clauses "
            f"(the {solver} solver's limit is {MAX_CLAUSES:,}); use the backtrack-fast or cpsat solver"
        )


def reduced_counts(puzzle: Puzzle, amo: str = "pairwise") -> tuple[int, int]:
    """(variables occurring, clauses) of ``reduced_formula``: per group of k, one ALO and an AMO of k."""
    sizes = reduced_group_sizes(puzzle)
    if sizes is None:
        return 0, 1
    costs = [amo_cost(amo, k) for k in sizes]
    free = sum(sizes[: puzzle.blanks])  # each free literal is in exactly one cell group
    return free + sum(aux for _, aux in costs), len(sizes) + sum(clauses for clauses, _ in costs)
