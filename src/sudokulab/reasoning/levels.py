"""The propagation ladder: how much of a puzzle each kind of reasoning settles before any search.

Four levels over the pencil marks of ``candidates.Candidates`` under any ``rules.Rules``, each doing
everything the ones before it do and running to a fixpoint: ``naked-single`` (unit propagation on
the *minimal* SAT encoding; its own code, since ``solvers.propagation`` cannot leave hidden singles
out), ``hidden-single`` (the *extended* encoding: ``solvers.propagation`` itself), ``all-different``
(also Régin's matching filter on every all-different group: the Hall sets a person calls naked and
hidden pairs, triples, ..., named by ``hall.hall_set``) and ``failed-literal+matching`` (also each
candidate struck when unit propagation on the puzzle's CNF fails, alternated with the matching
filter). Every level strikes only candidates in no solution of the current marks. A contradiction
leaves a cell with no candidate, and ``settle_why`` gives the reason in words.

Each level precisely, sums and thermometers on each, and what each settles: docs/propagation.md.
"""

from __future__ import annotations

import atexit
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..core.cells import cell_label
from ..core.rules import Rules
from ..errors import UsageError
from .candidates import Candidates, digits_of
from .hall import maximum_matching, unsupported, violation

__all__ = ["DEFAULT_LEVEL", "LEVELS", "Rung", "check_level", "climb", "settle", "settle_why"]

LEVELS = ("naked-single", "hidden-single", "all-different", "failed-literal+matching")
"""The ladder, weakest first; each level includes the ones before it."""

DEFAULT_LEVEL = "all-different"
"""What ``propagate`` runs without ``--level``: the strongest level that is a person's reasoning
(failed-literal probing is the SAT solver's)."""


def check_level(level: str) -> int:
    """The rung of a level name (0 for naked-single); a ``UsageError`` naming the choices otherwise."""
    if level not in LEVELS:
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
    return _placed_arithmetic(marks, rules)


def _placed_arithmetic(marks: list[int], rules: Rules) -> str | None:
    """The one check of sums and thermometers at the naked-single level: the digits placed so far
    (a cage's may not pass its total, and must reach it once all are placed; a thermometer's must
    increase), as unit propagation on their clauses checks a full assignment."""
    n = rules.n
    for cage in rules.cages:
        placed = [marks[cell].bit_length() for cell in cage.cells if not marks[cell] & (marks[cell] - 1)]
        total = sum(placed)
        if total > cage.total or (len(placed) == len(cage.cells) and total != cage.total):
            return _contradiction(marks, n, cage.cells, f"{cage.name} adds up to {total}")
    for thermo in rules.thermos:
        placed = [(i, marks[cell].bit_length()) for i, cell in enumerate(thermo.cells)
                  if not marks[cell] & (marks[cell] - 1)]
        if any(b - a < j - i for (i, a), (j, b) in zip(placed, placed[1:])):
            return _contradiction(marks, n, thermo.cells, f"{thermo.name} does not increase")
    return None


# --- hidden singles: propagation.py from any pencil marks ------------------------------------------------

class _Singles:
    """``propagation.py``'s state (``cand``, ``where``) built from any pencil marks, kept while the
    all-different level strikes candidates through the propagator's ``exclude`` (so singles follow at
    once and ``where`` is never rebuilt). Placed cells carry the propagator's ``done`` bits."""

    def __init__(self, marks: list[int], rules: Rules):
        from ..solvers.propagation import propagator
        from ..solvers.propagation.tables import SETTLED

        self.rules = rules
        self.prop = prop = propagator(rules)
        n, full = prop.n, prop.full
        self.cand = cand = list(marks)
        self.where = where = [full] * (len(prop.group_cells) * n)
        self.why: str | None = None
        positions = prop.tables.positions
        queue: list[tuple[int, int]] = [(cell, mask) for cell, mask in enumerate(cand) if not mask & (mask - 1)]
        for k, _ in _complete_slots(rules):
            where[k:k + n] = [0] * n
        for cell, places in enumerate(_cell_places(rules)):
            digits = positions[cand[cell]]
            for k, bit in places:
                for d in digits:
                    where[k + d] |= bit
        for k, cells in _complete_slots(rules):
            for d in range(n):
                w = where[k + d]
                if not w & (w - 1):
                    if not w:
                        self.why = _contradiction(cand, n, cells, f"{d + 1} has no place left in "
                                                  f"{rules.groups[k // n].name}")
                        return
                    queue.append((cells[w.bit_length() - 1], 1 << d))
        self._after(prop.settle(cand, where, queue, prop.tables, full, prop.done), SETTLED)

    def exclude(self, cell: int, bit: int) -> bool:
        """Strike one candidate of an open cell and settle what follows; False on a contradiction."""
        from ..solvers.propagation.tables import SETTLED

        prop = self.prop
        self._after(prop.exclude(self.cand, self.where, cell, bit, prop.tables, prop.full, prop.done), SETTLED)
        return self.why is None

    def marks(self) -> list[int]:
        full = self.prop.full
        return [mask & full for mask in self.cand]

    def _after(self, failed: int, settled: int) -> None:
        """Turn the propagator's answer into ``why`` (and an empty cell) when it failed."""
        if failed == settled:
            return
        from ..solvers.propagation.tables import UNKNOWN

        n, full, rules, cand = self.prop.n, self.prop.full, self.rules, self.cand
        cand[:] = [mask & full for mask in cand]
        self.why = _empty_cell(cand, n)
        if self.why is not None:
            return
        if failed == UNKNOWN:
            cells = rules.thermos[0].cells if rules.thermos else range(n * n)  # no group to blame
            self.why = _contradiction(cand, n, cells, "the singles clash (one cell forced to two digits, a "
                                      "differing pair or a thermometer)")
            return
        group = rules.groups[failed // n]
        if len(group.cells) == n:
            for d in range(n):
                if self.where[failed + d] == 0:
                    self.why = _contradiction(cand, n, group.cells, f"{d + 1} has no place left in {group.name}")
                    return
        self.why = _contradiction(cand, n, group.cells, f"{group.name} cannot hold its digits")


@cache
def _complete_slots(rules: Rules) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Per complete group, where its digits start in ``where`` (``g * n``) and its cells."""
    n = rules.n
    return tuple((index * n, group.cells) for index, group in enumerate(rules.groups) if len(group.cells) == n)


@cache
def _cell_places(rules: Rules) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per cell, ``(g * n, 1 << position)`` for each complete group it is in: its bit in ``where``."""
    found: list[list[tuple[int, int]]] = [[] for _ in range(rules.shape.cells)]
    for k, cells in _complete_slots(rules):
        for position, cell in enumerate(cells):
            found[cell].append((k, 1 << position))
    return tuple(tuple(places) for places in found)


def _hidden_singles(marks: list[int], rules: Rules) -> str | None:
    """Naked and hidden singles (plus sum and thermometer bounds) by ``propagation.py``, narrowing ``marks``."""
    state = _Singles(marks, rules)
    marks[:] = state.marks()
    return state.why


# --- all-different: Régin's filter on every group ------------------------------------------------------

def _all_different(marks: list[int], rules: Rules) -> str | None:
    """Singles, then Régin's filter on every group, each removal settled at once, until a whole pass over
    the groups strikes nothing (a group whose open cells are as they were at its last check is skipped)."""
    state = _Singles(marks, rules)
    n, full, cand = rules.n, state.prop.full, state.cand
    checked: dict[int, tuple[int, ...]] = {}
    changed = state.why is None
    while changed:
        changed = False
        for index, group in enumerate(rules.groups):
            cells = [cell for cell in group.cells if cand[cell] <= full]
            masks = tuple(cand[cell] for cell in cells)
            if len(cells) < 2 or checked.get(index) == masks:
                continue
            checked[index] = masks
            mate, unmatched = maximum_matching(masks)
            if unmatched >= 0:
                members, digits = violation(masks, mate, unmatched, cells)
                shown = ", ".join(str(d) for d in digits)
                fact = (f"{', '.join(cell_label(c, n) for c in members)} hold only {{{shown}}} "
                        f"between them in {group.name}")
                marks[:] = state.marks()
                return _contradiction(marks, n, members, fact)
            for x, bit, _ in unsupported(masks, mate):
                cell = cells[x]
                if cand[cell] <= full and cand[cell] & bit:
                    changed = True
                    if not state.exclude(cell, bit):
                        marks[:] = state.cand
                        return state.why
    marks[:] = state.marks()
    return state.why


# --- failed literals: probing on the SAT model ---------------------------------------------------------

_PROBERS: dict[Rules, tuple[Any, list[int]]] = {}
"""PySAT engines loaded with a rule set's CNF, the last few kept (a dataset has one rule set)."""


def _prober(rules: Rules) -> tuple[Any, list[int]]:
    """A PySAT engine loaded with the rules' extended CNF, and the CNF's unit clauses kept apart: an
    engine reports what assumptions imply, so root-level units go in as assumptions (notebook 02).
    Its calls run without PySAT's SIGINT handler (``pysat_guard``): a probe takes microseconds, and
    Ctrl-C is taken when it returns."""
    if rules in _PROBERS:
        return _PROBERS[rules]
    from pysat.solvers import Solver

    from ..solvers.pysat_guard import guarded
    from ..solvers.sat import cnf

    if len(_PROBERS) >= 4:
        _PROBERS.pop(next(iter(_PROBERS)))[0].delete()
    elif not _PROBERS:
        atexit.register(_close_probers)
    formula = cnf.rules(rules, "extended")
    units = [clause[0] for clause in formula.clauses if len(clause) == 1]
    engine = guarded(Solver(name="minisat22", bootstrap_with=[c for c in formula.clauses if len(c) > 1]))
    _PROBERS[rules] = engine, units
    return engine, units


def _close_probers() -> None:
    """Free the engines while the interpreter is whole (PySAT's destructors fail at teardown)."""
    while _PROBERS:
        _PROBERS.popitem()[1][0].delete()
    atexit.unregister(_close_probers)


def _failed_literals(marks: list[int], rules: Rules) -> str | None:
    """All-different reasoning, then every candidate probed, in turn until a round strikes nothing."""
    from ..core.variables import literal

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
    rules = candidates.puzzle.rules
    solved = False
    for level in LEVELS[: check_level(top) + 1]:
        if not solved:  # a solution is never struck: every higher level leaves it as it is
            current = settle(current, level)
            solved = current.settled and not current.contradiction and not rules.first_conflict(current.grid())
        rungs.append(Rung(level, current.settled, current.contradiction, current.remaining))
    return rungs
