"""Thermometers and killer cages as forbidden placements and forbidden pairs of placements, for exact cover.

A *placement* is "cell holds digit", one row of the exact-cover matrix (``solvers.exact_cover.model``).
A secondary column filled by two rows says "not both": so any constraint that is a conjunction of
conditions on two cells at a time can be written as one secondary column per forbidden pair of
placements, and a condition on one cell as a placement ruled out before the search.

- **Thermometer** (digits strictly increase from the bulb): the chain "cell i < cell i+1" for each
  step. For each step (a, b), every (a, x), (b, y) with y <= x is a forbidden pair (y == x is
  skipped when a and b already share a group, which says it). The digit at place i of a thermometer
  of length L lies in i+1..n-L+i (1-based place i+1); the others are ruled out, so a forbidden pair
  never names a ruled-out placement.
- **Killer cage** of k cells adding up to t: its allowed digit sets are the k-sets of distinct
  digits adding up to t. Digits in none of them are ruled out in every cage cell; two digits that
  share no allowed set are a forbidden pair for every two cage cells. That says the cage exactly
  when every k distinct digits that agree *pairwise* (each two share an allowed set) add up to t:
  a cage is *pairwise*. Two cells always are; 3 cells adding up to 6, 7, 8, 22, 23 or 24 on 9x9
  are; 3 cells adding up to 9 are not (1, 2, 3 agree pairwise, via {1,2,6}, {1,3,5}, {2,3,4}, but add
  up to 6). ``refusal`` names the first cage that is not, with such a witness.

A cage that is not pairwise could be said only by changing what a row is (one row per way of
filling the cage), which is no longer the (cell, digit) matrix. Each constraint's pairs come in
its cells' order, then digits ascending; a pair named by two constraints is kept once (the first).

>>> from sudokulab.core.grid import Shape
>>> from sudokulab.core.rules import build
>>> rules = build(Shape(2, 2), thermos=[(0, 1)])
>>> said = placements(rules)
>>> said.ruled_out, len(said.pairs), said.pairs[0]
(((0, 4), (1, 1)), 1, ('thermometer 1', (0, 3), (1, 2)))
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from ..core.cells import cell_label
from ..core.rules import Cage, Rules

Placement = tuple[int, int]
"""(cell, digit): one row of the exact-cover matrix."""


@dataclass(frozen=True)
class Placements:
    """What a rule set's cages and thermometers forbid: single placements and pairs, each pair named."""

    ruled_out: tuple[Placement, ...]
    pairs: tuple[tuple[str, Placement, Placement], ...]
    """(the constraint's name, a placement, another placement): not both."""


def cage_sets(size: int, total: int, n: int) -> list[frozenset[int]]:
    """The sets of ``size`` distinct digits of 1..n adding up to ``total``.

    >>> cage_sets(3, 8, 9)
    [frozenset({1, 2, 5}), frozenset({1, 3, 4})]
    """
    return [frozenset(c) for c in combinations(range(1, n + 1), size) if sum(c) == total]


def _agree(sets: list[frozenset[int]]) -> dict[int, set[int]]:
    """Per digit in some allowed set, the digits it shares an allowed set with."""
    mates: dict[int, set[int]] = {}
    for digits in sets:
        for d in digits:
            mates.setdefault(d, set()).update(digits - {d})
    return mates


def _cliques(mates: dict[int, set[int]], size: int) -> Iterator[tuple[int, ...]]:
    """Every ``size`` digits, ascending, each two of which agree."""
    def grow(chosen: tuple[int, ...], open_: list[int]) -> Iterator[tuple[int, ...]]:
        if len(chosen) == size:
            yield chosen
            return
        for i, d in enumerate(open_):
            yield from grow(chosen + (d,), [e for e in open_[i + 1:] if e in mates[d]])
    yield from grow((), sorted(mates))


def cage_witness(cage: Cage, n: int) -> tuple[int, ...] | None:
    """Digits that agree pairwise with the cage's allowed sets but do not add up to its total, or None
    when the cage is pairwise (its forbidden pairs say it exactly).

    >>> from sudokulab.core.rules import Cage
    >>> cage_witness(Cage("cage 1 (sum 9)", (0, 1, 2), 9), 9), cage_witness(Cage("cage 2 (sum 6)", (3, 4, 5), 6), 9)
    ((1, 2, 3), None)
    """
    mates = _agree(cage_sets(len(cage.cells), cage.total, n))
    return next((c for c in _cliques(mates, len(cage.cells)) if sum(c) != cage.total), None)


def cage_refusal(cage: Cage, n: int) -> str | None:
    """Why a cage cannot be said as forbidden pairs, in one line naming it and its sum, or None."""
    witness = cage_witness(cage, n)
    if witness is None:
        return None
    sets = cage_sets(len(cage.cells), cage.total, n)
    shared = [s for s in sets if len(s & set(witness)) >= 2]
    shown = ", ".join("{" + ",".join(map(str, sorted(s))) + "}" for s in shared[:4]) + (", ..." if len(shared) > 4
                                                                                         else "")
    digits = ", ".join(map(str, witness))
    return (f"{cage.name}: digits {digits} agree two by two with sets adding up to {cage.total} ({shown}) "
            f"but add up to {sum(witness)}; exact cover forbids only pairs")


@lru_cache(maxsize=16)
def refusal(rules: Rules) -> str | None:
    """The first cage of the rules that exact cover cannot say, with why, or None."""
    return next((why for cage in rules.cages if (why := cage_refusal(cage, rules.n))), None)


def _thermo(rules: Rules, name: str, cells: tuple[int, ...]) -> tuple[list[Placement], list[tuple]]:
    n, length = rules.n, len(cells)
    allowed = [range(i + 1, n - length + i + 2) for i in range(length)]
    ruled = [(cell, d) for i, cell in enumerate(cells) for d in range(1, n + 1) if d not in allowed[i]]
    pairs = [(name, (a, x), (b, y))
             for i, (a, b) in enumerate(zip(cells, cells[1:]))
             for x in allowed[i] for y in allowed[i + 1]
             if y < x or (y == x and b not in rules.peers[a])]
    return ruled, pairs


def _cage(rules: Rules, cage: Cage) -> tuple[list[Placement], list[tuple]]:
    sets = cage_sets(len(cage.cells), cage.total, rules.n)
    mates = _agree(sets)
    ruled = [(cell, d) for cell in cage.cells for d in range(1, rules.n + 1) if d not in mates]
    pairs = [(cage.name, (a, x), (b, y))
             for a, b in combinations(cage.cells, 2)
             for x in sorted(mates) for y in sorted(mates)
             if x != y and y not in mates[x]]
    return ruled, pairs


@lru_cache(maxsize=16)
def placements(rules: Rules) -> Placements:
    """What the cages and thermometers of ``rules`` forbid (cages first, then thermometers).

    Call ``refusal`` first: for a cage that is not pairwise, its pairs here are necessary but not
    sufficient.
    """
    ruled: dict[Placement, None] = {}
    pairs: dict[tuple[Placement, Placement], str] = {}
    parts = [_cage(rules, cage) for cage in rules.cages] + [_thermo(rules, t.name, t.cells) for t in rules.thermos]
    for singles, _ in parts:
        ruled.update(dict.fromkeys(singles))
    for _, named in parts:
        for name, p, q in named:
            key = (min(p, q), max(p, q))
            if p not in ruled and q not in ruled:
                pairs.setdefault(key, name)
    return Placements(tuple(sorted(ruled)), tuple((name, p, q) for (p, q), name in pairs.items()))


def pair_name(n: int, name: str, first: Placement, second: Placement) -> str:
    """A forbidden pair in words: ``r1c1=3 and r1c2=2 not both (thermometer 1)``."""
    (a, x), (b, y) = first, second
    return f"{cell_label(a, n)}={x} and {cell_label(b, n)}={y} not both ({name})"
