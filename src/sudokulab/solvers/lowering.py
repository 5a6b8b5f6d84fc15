"""Every rule kind in three forms that every paradigm states: the shared lowering (docs/rules.md, "Native or lowered").

A paradigm states some kinds natively (``Capabilities.kinds``) and the others in these forms
(``lower(rules, native)``): a **ruled-out placement** (cell c never holds d), a **forbidden pair** of
placements (not both a = x and b = y), and **allowed sets** (the digits of some cells, as a set, are
one of these sets, each as large as the cells are many). Why these: a constraint on one or two cells
at a time is exactly ruled-out placements and pairs, which every paradigm says in a line (a clause,
``x + y <= 1``, a secondary column, an elimination, a cost term); a sum depends on many cells at
once, so it is lowered to the digit sets reaching its total (sets, not tuples: a cage of k cells has
k! tuples per set). A thermometer is its steps, each binary, so it becomes pairs rather than an
order chain of its own: the paradigms with an order primitive state thermometers natively anyway.
``lowered(rules, kinds)`` replaces kinds by their forms (the tests and ``benchmarks/lowering.py``
compare both ways); ``as_pairs`` and ``refusal`` serve exact cover, which says sets only as pairs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from ..core.cells import cell_label, cell_words
from ..core.grid import Grid
from ..core.rules import (
    ALL_DIFFERENT,
    DIFFER,
    INCREASING,
    SUM,
    Cage,
    Constraint,
    Kind,
    Rules,
    RulesError,
    register_kind,
    unregister_kind,
)

Placement = tuple[int, int]
"""(cell, digit): "this cell holds this digit", one variable of every model."""

Pair = tuple[str, Placement, Placement]
"""(the constraint's name, a placement, another placement): not both."""

RULED_OUT, PAIRS, SETS = "ruled-out placements", "forbidden pairs", "allowed sets"
FORMS = frozenset({RULED_OUT, PAIRS, SETS})
"""The three forms; a paradigm's ``Capabilities.forms`` says which of them its models state."""

FORMS_KIND = "forms"
"""The kind of a ``Forms`` constraint: kinds already lowered (``lowered``). It has no letter, so the
``solvers`` matrix does not show it."""


@dataclass(frozen=True)
class AllowedSets:
    """The digits of ``cells`` form one of ``sets`` (each ``len(cells)`` distinct digits, ascending)."""

    name: str
    cells: tuple[int, ...]
    sets: tuple[tuple[int, ...], ...]

    def broken(self, grid: Grid, n: int) -> str | None:
        """What the placed digits break: a digit twice, or no allowed set that holds them all."""
        placed = [grid[cell] for cell in self.cells if grid[cell]]
        for i, digit in enumerate(placed):
            if digit in placed[:i]:
                return f"{self.name} holds {digit} twice"
        if not any(set(placed) <= set(digits) for digits in self.sets):
            return f"{self.name}: {', '.join(map(str, placed))} are in none of its allowed digit sets"
        return None


@dataclass(frozen=True)
class Lowered:
    """Kinds in the three forms: what a model states for the kinds it does not state natively."""

    ruled_out: tuple[Placement, ...] = ()
    pairs: tuple[Pair, ...] = ()
    sets: tuple[AllowedSets, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.ruled_out or self.pairs or self.sets)

    @property
    def forms(self) -> frozenset[str]:
        """The forms this holds some of."""
        return frozenset(form for form, part in ((RULED_OUT, self.ruled_out), (PAIRS, self.pairs), (SETS, self.sets))
                         if part)


EMPTY = Lowered()


def merged(parts: Iterable[Lowered]) -> Lowered:
    """Parts in order as one: ruled-out placements once each, ascending; pairs once each, the smaller
    placement first (the first one named keeps its name), those naming a ruled-out placement left
    out; sets in order."""
    parts = list(parts)
    ruled = sorted({p for part in parts for p in part.ruled_out})
    out = set(ruled)
    pairs: dict[tuple[Placement, Placement], str] = {}
    for part in parts:
        for name, p, q in part.pairs:
            if p not in out and q not in out:
                pairs.setdefault((min(p, q), max(p, q)), name)
    return Lowered(tuple(ruled), tuple((name, p, q) for (p, q), name in pairs.items()),
                   tuple(s for part in parts for s in part.sets))


@dataclass(frozen=True)
class Forms:
    """Constraints already in the three forms, as one constraint of the rules (kind ``forms``).

    ``lowered`` makes them; every paradigm that states the forms honours them, and the checker reads
    them through ``broken`` like any constraint.
    """

    name: str
    ruled_out: tuple[Placement, ...] = ()
    pairs: tuple[Pair, ...] = ()
    sets: tuple[AllowedSets, ...] = ()
    kind: str = FORMS_KIND

    @property
    def cells(self) -> tuple[int, ...]:
        found = [c for c, _ in self.ruled_out] + [c for _, p, q in self.pairs for c in (p[0], q[0])]
        return tuple(sorted(set(found + [c for s in self.sets for c in s.cells])))

    @property
    def lowered(self) -> Lowered:
        return Lowered(self.ruled_out, self.pairs, self.sets)

    def broken(self, grid: Grid, n: int) -> str | None:
        for cell, digit in self.ruled_out:
            if grid[cell] == digit:
                return f"{cell_words(cell, n)} cannot hold {digit} ({self.name})"
        for name, (a, x), (b, y) in self.pairs:
            if grid[a] == x and grid[b] == y:
                return f"{name}: {cell_words(a, n)} holds {x} and {cell_words(b, n)} holds {y}"
        return next((why for s in self.sets if (why := s.broken(grid, n))), None)


# --- The kinds, lowered. ------------------------------------------------------------------------------

def cage_sets(size: int, total: int, n: int) -> list[frozenset[int]]:
    """The sets of ``size`` distinct digits of 1..n adding up to ``total``.

    >>> cage_sets(3, 8, 9)
    [frozenset({1, 2, 5}), frozenset({1, 3, 4})]
    """
    return [frozenset(c) for c in combinations(range(1, n + 1), size) if sum(c) == total]


def _same_digit(name: str, cells: Iterable[tuple[int, int]], n: int) -> list[Pair]:
    return [(name, (a, d), (b, d)) for a, b in cells for d in range(1, n + 1)]


def _all_different(rules: Rules) -> Lowered:
    """Per group, each two of its cells and each digit: not both."""
    return Lowered(pairs=tuple(pair for g in rules.groups for pair in _same_digit(g.name, combinations(g.cells, 2),
                                                                                  rules.n)))


def _differ(rules: Rules) -> Lowered:
    """Per differing pair and digit: not both."""
    return Lowered(pairs=tuple(pair for d in rules.differ for pair in _same_digit(d.name, d.pairs, rules.n)))


def _sum(rules: Rules) -> Lowered:
    """A cage: the digit sets of its size that reach its total (its all-different half is its group)."""
    return Lowered(sets=tuple(AllowedSets(cage.name, cage.cells,
                                          tuple(tuple(sorted(s)) for s in cage_sets(len(cage.cells), cage.total,
                                                                                    rules.n)))
                              for cage in rules.cages))


def _increasing(rules: Rules) -> Lowered:
    """Place i (0-based) of a thermometer of L cells holds i+1..n-L+i+1; per step (a, b), (a, x) and (b, y)
    with y <= x are a forbidden pair (y == x left out where a and b are peers, which says it already)."""
    n, ruled, pairs = rules.n, [], []
    for thermo in rules.thermos:
        cells, length = thermo.cells, len(thermo.cells)
        allowed = [range(i + 1, n - length + i + 2) for i in range(length)]
        ruled += [(cell, d) for i, cell in enumerate(cells) for d in range(1, n + 1) if d not in allowed[i]]
        pairs += [(thermo.name, (a, x), (b, y))
                  for i, (a, b) in enumerate(zip(cells, cells[1:]))
                  for x in allowed[i] for y in allowed[i + 1]
                  if y < x or (y == x and b not in rules.peers[a])]
    return Lowered(tuple(ruled), tuple(pairs))


@dataclass(frozen=True)
class Lowering:
    """How one kind is lowered: ``lower(rules)`` gives the forms of all its constraints in ``rules``;
    ``forms`` are those it may give (a paradigm honours the kind when it states them all)."""

    lower: Callable[[Rules], Lowered]
    forms: frozenset[str]


def _per_constraint(kind: str, lower_one: Callable[[Constraint, Rules], Lowered]) -> Callable[[Rules], Lowered]:
    def lower(rules: Rules) -> Lowered:
        return merged(lower_one(c, rules) for c in rules.constraints if c.kind == kind)
    return lower


LOWERINGS: dict[str, Lowering] = {
    ALL_DIFFERENT: Lowering(_all_different, frozenset({PAIRS})),
    DIFFER: Lowering(_differ, frozenset({PAIRS})),
    SUM: Lowering(_sum, frozenset({SETS})),
    INCREASING: Lowering(_increasing, frozenset({RULED_OUT, PAIRS})),
    FORMS_KIND: Lowering(_per_constraint(FORMS_KIND, lambda forms, _: forms.lowered), FORMS),  # type: ignore[attr-defined]
}
"""Per kind, its lowering; ``register`` adds one with its kind."""

register_kind(Kind(FORMS_KIND, "", "lowered forms (ruled-out placements, forbidden pairs, allowed sets)"))


def register(kind: Kind, lower_one: Callable[[Constraint, Rules], Lowered], forms: Iterable[str]) -> None:
    """Add a kind and its lowering: ``lower_one(constraint, rules)`` gives the forms of one constraint of
    the kind, using only ``forms``. Every paradigm that states those forms honours the kind from now on.
    """
    forms = frozenset(forms)
    if not forms <= FORMS:
        raise RulesError(f"unknown forms {sorted(forms - FORMS)}; the forms are {sorted(FORMS)}")
    register_kind(kind)
    LOWERINGS[kind.name] = Lowering(_per_constraint(kind.name, lower_one), forms)
    _lower.cache_clear()
    placements.cache_clear()
    refusal.cache_clear()


def unregister(name: str) -> None:
    """Remove a kind ``register`` added, with its lowering."""
    unregister_kind(name)
    LOWERINGS.pop(name, None)
    _lower.cache_clear()
    placements.cache_clear()
    refusal.cache_clear()


def lowerable(forms: Iterable[str]) -> frozenset[str]:
    """The kinds a paradigm that states ``forms`` honours through the lowering.

    >>> sorted(lowerable({RULED_OUT, PAIRS}))
    ['all-different', 'differ', 'increasing']
    """
    forms = frozenset(forms)
    return frozenset(kind for kind, lowering in LOWERINGS.items() if lowering.forms <= forms)


def lower(rules: Rules, native: Iterable[str]) -> Lowered:
    """The forms of every kind of ``rules`` outside ``native`` (built-in kinds first, in ``KINDS`` order,
    then the others in the order registered), pairs naming a ruled-out placement left out and each pair
    once; empty when the rules use native kinds only. Built once per (rules, native).

    >>> from sudokulab.core.grid import Shape
    >>> from sudokulab.core.rules import build
    >>> forms = lower(build(Shape(2, 2), thermos=[(0, 1)], cages=[((2, 3), 7)]), {ALL_DIFFERENT, DIFFER})
    >>> forms.ruled_out, forms.pairs, forms.sets[0].sets
    (((0, 4), (1, 1)), (('thermometer 1', (0, 3), (1, 2)),), ((3, 4),))
    """
    native = frozenset(native)
    if rules.kinds <= native:
        return EMPTY
    return _lower(rules, native)


@lru_cache(maxsize=64)
def _lower(rules: Rules, native: frozenset[str]) -> Lowered:
    return merged(LOWERINGS[kind].lower(rules) for kind in LOWERINGS if kind in rules.kinds and kind not in native)


def lowered(rules: Rules, kinds: Iterable[str]) -> Rules:
    """The same rules with the constraints of ``kinds`` replaced by their forms (one ``Forms`` constraint).

    A cage's group stays: only its sum is lowered. All-different is not lowered here: every model
    is built on its groups (the rows, columns and boxes a cell's digit is looked up in).

    >>> from sudokulab.core.grid import Shape
    >>> from sudokulab.core.rules import build
    >>> plain = lowered(build(Shape(2, 2), thermos=[(0, 1, 2)]), {"increasing"})
    >>> plain.thermos, sorted(plain.kinds), len(plain.constraints[0].ruled_out)
    ((), ['all-different', 'forms'], 6)
    """
    kinds = frozenset(kinds) & rules.kinds
    if ALL_DIFFERENT in kinds:
        raise RulesError("all-different groups are not lowered here: every model is built on its groups")
    if not kinds:
        return rules
    forms = lower(rules, frozenset(rules.kinds - kinds))
    kept = tuple(c for c in rules.constraints if c.kind not in kinds)
    name = "lowered " + ", ".join(sorted(kinds))
    return Rules(rules.shape, rules.groups, () if DIFFER in kinds else rules.differ,
                 () if SUM in kinds else rules.cages, () if INCREASING in kinds else rules.thermos, rules.presets,
                 kept + (Forms(name, forms.ruled_out, forms.pairs, forms.sets),))


# --- Sets as pairs, for a paradigm that states pairs only (exact cover). ----------------------------------

@dataclass(frozen=True)
class Placements:
    """What a rule set forbids said in placements and pairs alone: ``ruled_out`` and named ``pairs``."""

    ruled_out: tuple[Placement, ...]
    pairs: tuple[Pair, ...]


def _agree(sets: Iterable[Iterable[int]]) -> dict[int, set[int]]:
    """Per digit in some allowed set, the digits it shares an allowed set with."""
    mates: dict[int, set[int]] = {}
    for digits in map(frozenset, sets):
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


def set_witness(allowed: AllowedSets) -> tuple[int, ...] | None:
    """Digits that agree two by two through the allowed sets but are none of them, or None when the
    sets are pairwise (their forbidden pairs say them exactly)."""
    wanted = set(allowed.sets)
    return next((c for c in _cliques(_agree(allowed.sets), len(allowed.cells)) if c not in wanted), None)


def cage_witness(cage: Cage, n: int) -> tuple[int, ...] | None:
    """Digits that agree pairwise with the cage's allowed sets but do not add up to its total, or None
    when the cage is pairwise (its forbidden pairs say it exactly).

    >>> from sudokulab.core.rules import Cage
    >>> cage_witness(Cage("cage 1 (sum 9)", (0, 1, 2), 9), 9), cage_witness(Cage("cage 2 (sum 6)", (3, 4, 5), 6), 9)
    ((1, 2, 3), None)
    """
    sets = cage_sets(len(cage.cells), cage.total, n)
    return set_witness(AllowedSets(cage.name, cage.cells, tuple(tuple(sorted(s)) for s in sets)))


def _shown(sets: Iterable[Iterable[int]], witness: tuple[int, ...]) -> str:
    shared = [s for s in sets if len(set(s) & set(witness)) >= 2]
    return ", ".join("{" + ",".join(map(str, sorted(s))) + "}" for s in shared[:4]) + (", ..." if len(shared) > 4
                                                                                       else "")


def cage_refusal(cage: Cage, n: int) -> str | None:
    """Why a cage cannot be said as forbidden pairs, in one line naming it and its sum, or None."""
    witness = cage_witness(cage, n)
    if witness is None:
        return None
    shown = _shown(cage_sets(len(cage.cells), cage.total, n), witness)
    digits = ", ".join(map(str, witness))
    return (f"{cage.name}: digits {digits} agree two by two with sets adding up to {cage.total} ({shown}) "
            f"but add up to {sum(witness)}; exact cover forbids only pairs")


def _set_refusal(allowed: AllowedSets) -> str | None:
    witness = set_witness(allowed)
    if witness is None:
        return None
    return (f"{allowed.name}: digits {', '.join(map(str, witness))} agree two by two with its allowed sets "
            f"({_shown(allowed.sets, witness)}) but are none of them; exact cover forbids only pairs")


@lru_cache(maxsize=16)
def refusal(rules: Rules, native: frozenset[str] = frozenset({ALL_DIFFERENT, DIFFER})) -> str | None:
    """The first constraint of the rules that a paradigm stating pairs only (``native`` natively) cannot
    say, with why, or None: a cage (in the words of sums) or any other set constraint that is not
    *pairwise*: some k digits agree two by two (each two in an allowed set) yet are no allowed set. Two
    cells always are pairwise; 3 cells adding up to 6, 7, 8, 22, 23 or 24 on 9x9 are; 3 cells adding
    up to 9 are not (1, 2, 3 agree through {1,2,6}, {1,3,5}, {2,3,4} but add up to 6). Saying those
    would take one exact-cover row per way of filling the whole cage."""
    if SUM not in native:
        why = next((why for cage in rules.cages if (why := cage_refusal(cage, rules.n))), None)
        if why:
            return why
    others = lower(rules, native | {SUM})
    return next((why for allowed in others.sets if (why := _set_refusal(allowed))), None)


def _set_pairs(allowed: AllowedSets, rules: Rules) -> Lowered:
    """A set constraint as pairs: digits in no allowed set ruled out in its cells, two digits that share
    no set a forbidden pair for every two of its cells, and one digit twice where the cells are not peers."""
    mates = _agree(allowed.sets)
    digits = sorted(mates)
    ruled = tuple((cell, d) for cell in allowed.cells for d in range(1, rules.n + 1) if d not in mates)
    pairs = tuple((allowed.name, (a, x), (b, y))
                  for a, b in combinations(allowed.cells, 2)
                  for x in digits for y in digits
                  if (y not in mates[x] if x != y else b not in rules.peers[a]))
    return Lowered(ruled, pairs)


def as_pairs(rules: Rules, forms: Lowered) -> Placements:
    """``forms`` said in ruled-out placements and pairs alone: each set constraint's pairs (``_set_pairs``)
    first, then the forms' own pairs. Ask ``refusal`` first: a set constraint that is not pairwise is
    only approximated here (necessary, not sufficient)."""
    said = merged([*(_set_pairs(allowed, rules) for allowed in forms.sets), Lowered(forms.ruled_out, forms.pairs)])
    return Placements(said.ruled_out, said.pairs)


@lru_cache(maxsize=16)
def placements(rules: Rules, native: frozenset[str] = frozenset({ALL_DIFFERENT, DIFFER})) -> Placements:
    """What the kinds of ``rules`` outside ``native`` forbid, in placements and pairs alone (exact cover's
    columns): the cages' and other sets' pairs first, then the thermometers' and the others'.

    >>> from sudokulab.core.grid import Shape
    >>> from sudokulab.core.rules import build
    >>> said = placements(build(Shape(2, 2), thermos=[(0, 1)]))
    >>> said.ruled_out, len(said.pairs), said.pairs[0]
    (((0, 4), (1, 1)), 1, ('thermometer 1', (0, 3), (1, 2)))
    """
    return as_pairs(rules, lower(rules, native))


def pair_name(n: int, name: str, first: Placement, second: Placement) -> str:
    """A forbidden pair in words: ``r1c1=3 and r1c2=2 not both (thermometer 1)``."""
    (a, x), (b, y) = first, second
    return f"{cell_label(a, n)}={x} and {cell_label(b, n)}={y} not both ({name})"
