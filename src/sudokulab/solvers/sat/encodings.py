"""The CNF encodings by name, checked, and the at-most-one every group of every encoding is made of.

The formulas (``cnf``) and their sizes before they are built (``cnf_size``) both rest on this: which
encodings there are, which rule kinds they state natively (``NATIVE``), the clauses of "at most one
of these literals" (``at_most_one``) and what they cost (``amo_cost``).

More: docs/encodings.md.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cache

from ...core.rules import KINDS
from ...errors import UsageError

NATIVE = frozenset(KINDS)
"""The rule kinds every CNF encoding states natively: all four built-in ones (``cnf``). Any other kind
comes in the forms of the shared lowering (``solvers.lowering``; ``cnf.form_clauses``)."""

ENCODINGS = ("minimal", "efficient", "extended", "reduced")
"""Every encoding, weakest first."""

AMO_ENCODINGS = (
    "pairwise", "seqcounter", "ladder", "bitwise", "kmtotalizer", "totalizer", "mtotalizer", "sortnetwrk",
    "cardnetwrk",
)
"""At-most-one encodings: ``pairwise`` built here, the others by ``pysat.card`` under these names."""

Clause = list[int]


def check_options(encoding: str, amo: str) -> None:
    """Refuse an unknown encoding or AMO encoding, naming the valid ones."""
    if encoding not in ENCODINGS:
        raise UsageError(f"unknown encoding '{encoding}'; choose one of: {', '.join(ENCODINGS)}")
    if amo not in AMO_ENCODINGS:
        raise UsageError(f"unknown at-most-one encoding '{amo}'; choose one of: {', '.join(AMO_ENCODINGS)}")


def at_most_one(lits: Sequence[int], amo: str, top: int) -> tuple[list[Clause], int]:
    """Clauses saying at most one of ``lits`` holds, and the new top variable (aux vars after top)."""
    if amo == "pairwise":
        return [[a, b] for a, b in itertools.combinations([-lit for lit in lits], 2)], top
    if len(lits) < 2:
        return [], top
    from pysat.card import CardEnc, EncType  # a model needs pysat.card only off the default path

    from ..pysat_guard import without_handler

    with without_handler():  # an encoding takes milliseconds: a signal is taken when it returns
        cnf = CardEnc.atmost(list(lits), bound=1, top_id=top, encoding=getattr(EncType, amo))
    return cnf.clauses, max(top, cnf.nv)


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
    clauses, top = at_most_one(range(1, k + 1), amo, k)
    return len(clauses), top - k
