"""The propagation ladder: how much of a puzzle each kind of reasoning settles before any search.

Four levels, each doing everything the ones before it do and running to a fixpoint, over the
pencil marks of ``candidates.Candidates`` under any ``rules.Rules``:

- ``naked-single``: unit propagation on the *minimal* SAT encoding. A settled cell strikes its
  digit from its peers (group mates, complete or partial, and differing partners); a cell left
  with one digit is settled in turn.
- ``hidden-single``: unit propagation on the *extended* encoding, which adds "each digit at least
  once" for every complete group: a digit with one place left in a complete group goes there.
  This is ``propagation.py``'s code, the one the searches use (started from any pencil marks here).
- ``all-different``: generalised arc consistency on every all-different group, complete and
  partial (J.-C. Régin, "A filtering algorithm for constraints of difference in CSPs", AAAI 1994):
  a maximum matching of the group's open cells to digits, and a candidate is kept only when some
  maximum matching uses it. What it strikes are the Hall sets a person calls naked and hidden
  pairs, triples, ...: k cells holding only k digits between them take those digits from the rest
  of the group (``hall_set`` names the one behind a removal). Alternated with the level below.
- ``failed-literal``: probing on the SAT model of the puzzle. Each remaining candidate is assumed
  in turn and unit propagation runs on the puzzle's CNF (``models.cnf``, extended encoding, every
  rule kind) with the pencil marks as assumptions; a candidate whose assumption fails is struck.
  Alternated with the level below until a whole round strikes nothing.

Sums and thermometers. ``naked-single`` leaves them to their cages' all-different groups (a killer
cage is a partial group, so its placed digits leave the cage) and does no arithmetic. From
``hidden-single`` up they get ``propagation.py``'s bounds (each cage cell within what the partial
sum and the cage's other cells still allow; each thermometer cell above its predecessor's least
digit and below its successor's greatest), so "all-different" means all-different *plus* those
bounds for such rules. ``failed-literal`` sees them through the CNF (the allowed-combination
encoding of sums and the order clauses of thermometers). Every level only strikes candidates that
are in no solution of the current marks, so none ever removes a digit a solution uses.

A contradiction leaves a cell with no candidate (``Candidates.contradiction``). When the reason is
not an empty cell (a digit with no place left in a group, a Hall set of k cells with fewer than k
digits, a cage that cannot reach its total) one cell of the group named is emptied, and
``settle_why`` gives the reason in words.

Roads not taken: the naked-single level through ``propagation.py`` (it cannot leave hidden singles
out); Hall sets by enumerating subsets of a group (2^9 per group: the matching finds them in k^2).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .candidates import Candidates, cell_label, digits_of
from .rules import Group, Rules

LEVELS = ("naked-single", "hidden-single", "all-different", "failed-literal")
"""The ladder, weakest first; each level includes the ones before it."""

DEFAULT_LEVEL = "all-different"
"""What ``propagate`` runs without ``--level``: the strongest level that is a person's reasoning
(failed-literal probing is the SAT solver's)."""


def check_level(level: str) -> int:
    """The rung of a level name (0 for naked-single); a ``UsageError`` naming the choices otherwise."""
    if level not in LEVELS:
        from .errors import UsageError

        raise UsageError(f"unknown level '{level}'; choose one of: {', '.join(LEVELS)}")
    return LEVELS.index(level)


def settle(candidates: Candidates, level: str = DEFAULT_LEVEL) -> Candidates:
    """The pencil marks narrowed by ``level`` to its fixpoint: a new ``Candidates`` (the input is kept).

    >>> from sudokulab import parse_puzzle
    >>> puzzle = parse_puzzle("1234341221434321".replace("4", "0", 2))  # two blanks on 4x4
    >>> settle(Candidates.start(puzzle, eliminate=False), "naked-single").settled
    True
    """
    return settle_why(candidates, level)[0]


def settle_why(candidates: Candidates, level: str = DEFAULT_LEVEL) -> tuple[Candidates, str | None]:
    """``settle``, and on a contradiction the reason in words ("r3c4 has no candidate left"), else None."""
    rung = check_level(level)
    marks = list(candidates.marks)
    rules = candidates.puzzle.rules
    why = _empty_cell(marks, candidates.n)
    if why is None:
        if rung == 0:
            why = _naked_singles(marks, rules)
        elif rung == 1:
            why = _hidden_singles(marks, rules)
        elif rung == 2:
            why = _all_different(marks, rules)
        else:
            why = _failed_literals(marks, rules)
    return Candidates(candidates.puzzle, marks), why


def _empty_cell(marks: list[int], n: int) -> str | None:
    for cell, mask in enumerate(marks):
        if not mask:
            return f"{cell_label(cell, n)} has no candidate left"
    return None


def _contradiction(marks: list[int], n: int, cells: Sequence[int], fact: str) -> str:
    """Record a contradiction that is no empty cell: empty the first open cell of ``cells`` and say why."""
    open_cells = [cell for cell in cells if marks[cell] & (marks[cell] - 1)] or list(cells)
    marks[open_cells[0]] = 0
    return f"{fact} ({cell_label(open_cells[0], n)} left with no candidate)"


# --- naked singles ------------------------------------------------------------------------------------

def _naked_singles(marks: list[int], rules: Rules) -> str | None:
    """Every settled cell strikes its digit from its peers, until nothing changes; the reason of a contradiction."""
    n = rules.n
    peers = rules.peers
    queue = [cell for cell, mask in enumerate(marks) if not mask & (mask - 1)]
    done = bytearray(len(marks))
    while queue:
        cell = queue.pop()
        if done[cell]:
            continue
        done[cell] = 1
        bit = marks[cell]
        for peer in peers[cell]:
            mask = marks[peer]
            if mask & bit:
                mask ^= bit
                marks[peer] = mask
                if not mask & (mask - 1):
                    if not mask:
                        return f"{cell_label(peer, n)} has no candidate left"
                    queue.append(peer)
    return None


# --- hidden singles: propagation.py from any pencil marks ------------------------------------------------

def _hidden_singles(marks: list[int], rules: Rules) -> str | None:
    """Naked and hidden singles (plus sum and thermometer bounds) by ``propagation.py``, narrowing ``marks``.

    The propagator's state is built from the marks: ``where`` (each complete group's places per
    digit) from the cells' masks, every settled cell and every hidden single already there queued.
    """
    from .propagation import SETTLED, UNKNOWN, propagator

    prop = propagator(rules)
    n, full = prop.n, prop.full
    cand = list(marks)
    where = [full] * (len(prop.group_cells) * n)
    queue: list[tuple[int, int]] = [(cell, mask) for cell, mask in enumerate(cand) if not mask & (mask - 1)]
    for index, cells in enumerate(prop.group_cells):
        if len(cells) != n:
            continue  # a partial group has no places to keep: it need not hold every digit
        k = index * n
        places = [0] * n
        for position, cell in enumerate(cells):
            for d in digits_of(cand[cell]):
                places[d - 1] |= 1 << position
        for d, w in enumerate(places):
            where[k + d] = w
            if not w:
                return _contradiction(marks, n, cells, f"{d + 1} has no place left in {rules.groups[index].name}")
            if not w & (w - 1):
                queue.append((cells[w.bit_length() - 1], 1 << d))
    failed = prop.settle(cand, where, queue, prop.tables, full, prop.done)
    marks[:] = [mask & full for mask in cand]
    if failed == SETTLED:
        return None
    why = _empty_cell(marks, n)
    if why is not None:
        return why
    if failed == UNKNOWN:
        cells = rules.thermos[0].cells if rules.thermos else range(n * n)  # no group to blame
        return _contradiction(marks, n, cells, "the singles clash (one cell forced to two digits, a differing "
                              "pair or a thermometer)")
    index = failed // n
    group = rules.groups[index]
    if len(group.cells) == n:
        for d in range(n):
            if where[failed + d] == 0:
                return _contradiction(marks, n, group.cells, f"{d + 1} has no place left in {group.name}")
    return _contradiction(marks, n, group.cells, f"{group.name} cannot hold its digits")


# --- all-different: matchings and Hall sets -------------------------------------------------------------

def maximum_matching(masks: Sequence[int]) -> tuple[list[int], int]:
    """A matching of cells to digits (``masks[i]``: cell i's candidates as bits) covering as many cells
    as possible: per cell the matched digit's bit (0 when unmatched), and the first unmatched cell or -1.

    Augmenting paths (Kuhn's algorithm), tried with a free digit first; enough for groups of
    Sudoku size. Every cell matched means the group can still be filled; a cell left out names a
    Hall violation (``hall_violation``).
    """
    k = len(masks)
    mate = [0] * k
    owner: dict[int, int] = {}
    used = 0
    first_unmatched = -1
    for start in range(k):
        seen = 0

        def augment(cell: int) -> bool:
            nonlocal seen, used
            mask = masks[cell]
            free = mask & ~used
            if free:
                bit = free & -free
                used |= bit
                mate[cell], owner[bit] = bit, cell
                return True
            rest = mask & ~seen
            while rest:
                bit = rest & -rest
                rest ^= bit
                seen |= bit
                if augment(owner[bit]):
                    mate[cell], owner[bit] = bit, cell
                    return True
            return False

        if not augment(start) and first_unmatched < 0:
            first_unmatched = start
    return mate, first_unmatched


def _reach(masks: Sequence[int], mate: Sequence[int]) -> list[int]:
    """Per cell i, the cells reachable from it (itself included) in the alternating graph: i -> j when
    i has the digit matched to j. Warshall's closure on bit sets."""
    k = len(masks)
    owner = {bit: cell for cell, bit in enumerate(mate)}
    reach = []
    for cell in range(k):
        r = 1 << cell
        rest = masks[cell] & ~mate[cell]
        while rest:
            bit = rest & -rest
            rest ^= bit
            if bit in owner:
                r |= 1 << owner[bit]
        reach.append(r)
    for via in range(k):
        bit, through = 1 << via, reach[via]
        for cell in range(k):
            if reach[cell] & bit:
                reach[cell] |= through
    return reach


def _unsupported(masks: Sequence[int], mate: Sequence[int]) -> list[tuple[int, int, int]]:
    """Régin's filter on a group whose cells are all matched: (cell, digit bit, Hall set bits) for each
    candidate no maximum matching uses.

    A candidate d of cell x, matched elsewhere to cell y, is kept when y reaches x (an alternating
    cycle: x, y, ... swap digits round it) or reaches a cell with a digit no cell is matched to (an
    alternating path ending there). Otherwise the cells y reaches hold between them exactly the
    digits matched to them, d among them, and none of them is x: a Hall set that takes d from x,
    and the smallest one that does (any Hall set holding d holds y, and with y all it reaches).
    """
    k = len(masks)
    used = 0
    for bit in mate:
        used |= bit
    every = 0
    for mask in masks:
        every |= mask
    free = every & ~used
    owner = {bit: cell for cell, bit in enumerate(mate)}
    reach = _reach(masks, mate)
    with_free = 0
    for cell in range(k):
        if masks[cell] & free:
            with_free |= 1 << cell
    found = []
    for x in range(k):
        rest = masks[x] & ~mate[x] & used
        while rest:
            bit = rest & -rest
            rest ^= bit
            y = owner[bit]
            if reach[y] >> x & 1 or reach[y] & with_free:
                continue
            found.append((x, bit, reach[y]))
    return found


@dataclass(frozen=True)
class HallSet:
    """k cells of a group that hold only k digits between them, so those digits leave the rest of it.

    ``removals`` are the (cell, digit) candidates it strikes in the group's other cells.
    """

    group: Group
    cells: tuple[int, ...]
    digits: tuple[int, ...]
    removals: tuple[tuple[int, int], ...]
    n: int

    def text(self) -> str:
        """"r1c2, r1c5 hold {3, 7} in row 1, so 3 and 7 leave the rest of row 1"."""
        cells = ", ".join(cell_label(cell, self.n) for cell in self.cells)
        verb = "holds" if len(self.cells) == 1 else "hold"
        digits = ", ".join(str(d) for d in self.digits)
        named = [str(d) for d in self.digits]
        said = named[0] if len(named) == 1 else f"{', '.join(named[:-1])} and {named[-1]}"
        leave = "leaves" if len(named) == 1 else "leave"
        return f"{cells} {verb} {{{digits}}} in {self.group.name}, so {said} {leave} the rest of {self.group.name}"


def hall_sets(candidates: Candidates, group: Group) -> list[HallSet]:
    """The Hall sets behind every candidate the all-different level strikes in ``group`` now, each with
    what it strikes (settled cells are left out of the group: their digits are the singles' work)."""
    marks, n = candidates.marks, candidates.n
    cells = [cell for cell in group.cells if marks[cell] & (marks[cell] - 1)]
    masks = [marks[cell] for cell in cells]
    mate, unmatched = maximum_matching(masks)
    if unmatched >= 0:
        return []
    by_set: dict[int, list[tuple[int, int]]] = {}
    for x, bit, hall in _unsupported(masks, mate):
        by_set.setdefault(hall, []).append((cells[x], bit.bit_length()))
    found = []
    for hall, removals in by_set.items():
        members = tuple(cells[i] for i in range(len(cells)) if hall >> i & 1)
        digits = 0
        for cell in members:
            digits |= marks[cell]
        found.append(HallSet(group, members, tuple(digits_of(digits)), tuple(sorted(removals)), n))
    return sorted(found, key=lambda h: (len(h.cells), h.cells))


def hall_set(candidates: Candidates, cell: int, digit: int) -> HallSet | None:
    """The smallest Hall set, over the groups of ``cell``, that strikes ``digit`` from it now; None when
    the all-different level keeps the candidate (or it is gone already)."""
    if not candidates.has(cell, digit):
        return None
    rules = candidates.puzzle.rules
    best = None
    for index in rules.cell_groups[cell]:
        for found in hall_sets(candidates, rules.groups[index]):
            if (cell, digit) in found.removals and (best is None or len(found.cells) < len(best.cells)):
                best = found
    return best


def hall_violation(candidates: Candidates, group: Group) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """Cells of ``group`` that hold fewer digits between them than they are (so the group cannot be
    filled), with those digits; None when every open cell can be matched."""
    marks = candidates.marks
    cells = [cell for cell in group.cells if marks[cell] & (marks[cell] - 1) or not marks[cell]]
    masks = [marks[cell] for cell in cells]
    mate, unmatched = maximum_matching(masks)
    return None if unmatched < 0 else _violation(masks, mate, unmatched, cells)


def _all_different(marks: list[int], rules: Rules) -> str | None:
    """Singles, then Régin's filter on every group, in turn until neither changes a mark."""
    n = rules.n
    while True:
        why = _hidden_singles(marks, rules)
        if why is not None:
            return why
        changed = False
        for group in rules.groups:
            cells = [cell for cell in group.cells if marks[cell] & (marks[cell] - 1)]
            if len(cells) < 2:
                continue
            masks = [marks[cell] for cell in cells]
            mate, unmatched = maximum_matching(masks)
            if unmatched >= 0:
                members, digits = _violation(masks, mate, unmatched, cells)
                shown = ", ".join(str(d) for d in digits)
                fact = (f"{', '.join(cell_label(c, n) for c in members)} hold only {{{shown}}} "
                        f"between them in {group.name}")
                return _contradiction(marks, n, members, fact)
            for x, bit, _ in _unsupported(masks, mate):
                marks[cells[x]] &= ~bit
                changed = True
        if not changed:
            return None


def _violation(masks: Sequence[int], mate: Sequence[int], unmatched: int, cells: Sequence[int]
               ) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The cells an unmatched cell reaches by alternating paths (more cells than digits), and their digits."""
    reach = _reach(masks, mate)[unmatched]
    members = tuple(cells[i] for i in range(len(cells)) if reach >> i & 1)
    digits = 0
    for i in range(len(cells)):
        if reach >> i & 1:
            digits |= masks[i]
    return members, tuple(digits_of(digits))


# --- failed literals: probing on the SAT model ---------------------------------------------------------

@lru_cache(maxsize=4)
def _prober(rules: Rules) -> Any:
    """A PySAT engine loaded with the rules' extended CNF (units kept apart: the engine reports what
    assumptions imply, so root-level units go in as assumptions, as notebook 02 does)."""
    from pysat.solvers import Solver

    from .models import cnf

    formula = cnf.rules(rules, "extended")
    units = [clause[0] for clause in formula.clauses if len(clause) == 1]
    engine = Solver(name="minisat22", bootstrap_with=[c for c in formula.clauses if len(c) > 1])
    return engine, units


def _failed_literals(marks: list[int], rules: Rules) -> str | None:
    """All-different reasoning, then every candidate probed, in turn until a round strikes nothing."""
    from .models.variables import literal

    n = rules.n
    engine, units = _prober(rules)
    while True:
        why = _all_different(marks, rules)
        if why is not None or all(not m & (m - 1) for m in marks):
            return why
        base = list(units)
        for cell, mask in enumerate(marks):
            if not mask & (mask - 1):
                base.append(literal(n, cell, mask.bit_length()))
            else:
                base += [-literal(n, cell, d) for d in range(1, n + 1) if not mask >> (d - 1) & 1]
        if not engine.propagate(assumptions=base)[0]:
            return _contradiction(marks, n, range(n * n), "unit propagation on the rules' clauses fails")
        struck = False
        for cell, mask in enumerate(marks):
            if not mask & (mask - 1):
                continue
            for d in digits_of(mask):
                lit = literal(n, cell, d)
                if not engine.propagate(assumptions=base + [lit])[0]:
                    marks[cell] &= ~(1 << (d - 1))
                    base.append(-lit)
                    struck = True
            if not marks[cell]:
                return f"{cell_label(cell, n)} has no candidate left"
        if not struck:
            return None


# --- the ladder over many puzzles ------------------------------------------------------------------------

@dataclass(frozen=True)
class Rung:
    """What one level did to one puzzle: settled (every cell one digit), a contradiction, candidates left."""

    level: str
    settled: bool
    contradiction: bool
    remaining: int


def climb(candidates: Candidates, top: str = LEVELS[-1]) -> list[Rung]:
    """Every level up to ``top`` on the same start, each from the previous level's marks (a level
    includes the ones below, so starting it higher changes nothing but the time)."""
    rungs = []
    current = candidates
    for level in LEVELS[: check_level(top) + 1]:
        current = settle(current, level)
        rungs.append(Rung(level, current.settled, current.contradiction, current.remaining))
    return rungs
