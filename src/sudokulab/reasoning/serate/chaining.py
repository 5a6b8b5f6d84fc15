"""SE's chaining rules: forcing chains and cycles, Nishio, multiple, dynamic and nested forcing chains.

One class, as in SE (``Chaining(isMultiple, isDynamic, isNishio, level)``), whose flags choose the
rule (``Chaining`` says what each flag does): static chains over X- and Y-links on the grid as it
is, Nishio's assumption followed to a contradiction, multiple and dynamic forcing chains from a
candidate, a cell or a region, and nested chains that apply the rules of their level where a chain
runs dry.

The same algorithm is compiled in ``_chaining.c`` (built at install where a compiler is there); when
it is, ``Chaining.hints`` runs it (``compiled_hints``), else this Python port. They give the same
hints (tests/reasoning/test_serate.py); ``$SUDOKULAB_SERATE_BACKEND=python`` forces the port. The
ratings these rules give: docs/rating.md.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

from .chain_hints import (
    BinaryChainingHint,
    CellChainingHint,
    ChainHint,
    ForcingChainHint,
    RegionChainingHint,
    cycle_hint,
)
from .grid import CELL_REGIONS, REGIONS, Grid, values_of
from .hints import Hint
from .potentials import ADVANCED, HIDDEN_OF_KIND, NAKED_SINGLE, Potential

Potentials = dict[int, Potential]
"""An ordered set of potentials by code (SE's ``LinkedSet``)."""


def _nested_suffix(level: int) -> str:
    if level == 1:
        return " (+)"
    if level == 2:
        return " (+ Forcing Chains)"
    if level == 3:
        return " (+ Multiple Forcing Chains)"
    if level == 4:
        return " (+ Dynamic Forcing Chains)"
    if level >= 5:
        return " (+ Dynamic Forcing Chains" + _nested_suffix(level - 3) + ")"
    return ""


class Chaining:
    """One of SE's chaining rules (the flags as SE's constructor takes them).

    - neither multiple nor dynamic: from every candidate, follow X-links (one value, its places in a
      region), Y-links (a cell's values) or both, alternating weak ("on" turns peers off) and strong
      ("off" leaves the last place or value on) over the grid as it is: a potential reaching its own
      opposite is a forcing chain, one coming back to itself after four links or more a cycle;
    - Nishio (dynamic, one value only): an assumption, on or off, followed until a contradiction;
    - multiple (static: the strong links of the grid as it is) and dynamic (each potential turned off
      is struck from the grid, so new singles appear as a person would see them): from each candidate
      on and off (contradictions, and in dynamic mode double forcing), from every value of a cell and
      every place of a value in a region (cell and region forcing chains);
    - level k >= 1 (dynamic): where a chain runs dry, the rules of its level are applied to the grid
      as the chain left it (``_inner_rules``: intersections, hidden and naked pairs, x-wings; forcing
      chains at level 2, multiple ones at 3, dynamic ones at 4, level k - 3 at 5 and up), and every
      candidate their hints strike is a new "off" potential whose parents are the chain potentials
      the hint rests on (its rule parents), and the chain goes on.

    The rule's hints are sorted (``chain_hints``) and the first is what the solver takes; inside a
    nested chain, all the hints of the first inner rule that has any are applied. Each follow-through
    (``_follow``, SE's ``doChaining``) is kept for the grid it ran on, since the cell and region
    chains follow the same assumptions again.
    """

    def __init__(self, multiple: bool, dynamic: bool, nishio: bool, level: int):
        self.multiple = multiple
        self.dynamic = dynamic
        self.nishio = nishio
        self.level = level
        if level >= 2:
            self.difficulty = 9.5 + 0.5 * (level - 2)
        elif level > 0:
            self.difficulty = 8.5 + 0.5 * level
        elif nishio:
            self.difficulty = 7.5
        elif dynamic:
            self.difficulty = 8.5
        elif multiple:
            self.difficulty = 8.0
        else:
            self.difficulty = 0.0  # forcing chains and cycles rate themselves
        self.prefix = "Dynamic " if level > 0 or (dynamic and not nishio) else "Nishio " if nishio else ""
        self.suffix = " Chains" + (_nested_suffix(level) if level >= 1 else "")
        self._inner: list[tuple[Callable[[Grid, Grid], Iterator[Hint]], bool]] | None = None
        self._cache_grid: tuple | None = None
        self._cache_hints: list[Hint] = []
        self._followed: dict[int, tuple[Potentials, Potentials]] = {}

    @property
    def name(self) -> str:
        if self.nishio:
            return "Nishio Forcing Chains"
        if self.dynamic:
            return "Dynamic Forcing Chains" + (_nested_suffix(self.level) if self.level else "")
        if self.multiple:
            return "Multiple Forcing Chains"
        return "Forcing Chains & Cycles"

    # --- The rule's hints. -------------------------------------------------------------------------

    def hints(self, grid: Grid) -> list[Hint]:
        """Every hint of this rule on the grid, sorted, one per set of strikes (SE's ``getHints``)."""
        key = grid.key()
        if key == self._cache_grid:
            return self._cache_hints
        compiled = _compiled()
        if compiled is not None:
            result = compiled_hints(self, grid, compiled)
            self._cache_grid, self._cache_hints = key, result
            return result
        self._followed = {}
        if self.multiple or self.dynamic:
            found = self._multiple_chains(grid)
        else:
            found = self._loops(grid, False, True) + self._loops(grid, True, False) + self._loops(grid, True, True)
        found.sort(key=lambda h: (h.difficulty, h.complexity, h.sort_key))
        seen: set[frozenset] = set()
        result = []
        for hint in found:
            strikes = frozenset(hint.removable.items())
            if strikes not in seen:
                seen.add(strikes)
                result.append(hint)
        self._followed = {}
        self._cache_grid, self._cache_hints = key, result
        return result

    # --- Forcing chains and cycles. ------------------------------------------------------------------

    def _loops(self, grid: Grid, y: bool, x: bool) -> list[ChainHint]:
        result: list[ChainHint] = []
        values, cands = grid.values, grid.cands
        for cell in range(81):
            if values[cell] or cands[cell].bit_count() <= 1:
                continue
            for value in values_of(cands[cell]):
                self._unary(grid, Potential(cell, value, True), result, y, x)
        return result

    def _unary(self, grid: Grid, p_on: Potential, result: list[ChainHint], y: bool, x: bool) -> None:
        if grid.cands[p_on.cell].bit_count() > 2 and not x:
            return
        cycles: list[Potential] = []
        chains: list[Potential] = []
        self._cycles(grid, {p_on.code: p_on}, {}, y, x, cycles, p_on)
        if x:
            self._forcing(grid, {p_on.code: p_on}, {}, y, chains, p_on)
            p_off = Potential(p_on.cell, p_on.value, False)
            self._forcing(grid, {}, {p_off.code: p_off}, y, chains, p_off)
        for dst_on in cycles:
            hint = cycle_hint(self, grid, dst_on, _reversed_cycle(dst_on), y, x)
            if hint.worth:
                result.append(hint)
        for target in chains:
            hint = self._forcing_chain_hint(grid, target, y, x)
            if hint.worth:
                result.append(hint)

    def _cycles(self, grid: Grid, to_on: Potentials, to_off: Potentials, y: bool, x: bool,
                cycles: list[Potential], source: Potential) -> None:
        pending_on = deque(to_on.values())
        pending_off = deque(to_off.values())
        length = 0
        while pending_on or pending_off:
            length += 1
            while pending_on:
                p = pending_on.popleft()
                for p_off in _on_to_off(grid, p, y):
                    if not _is_parent(p, p_off):
                        pending_off.append(p_off)
                        to_off[p_off.code] = p_off
            length += 1
            while pending_off:
                p = pending_off.popleft()
                for p_on in _off_to_on(grid, p, None, to_off, y, x):
                    if length >= 4 and p_on.code == source.code:
                        cycles.append(p_on)
                    if p_on.code not in to_on:
                        pending_on.append(p_on)
                        to_on[p_on.code] = p_on

    def _forcing(self, grid: Grid, to_on: Potentials, to_off: Potentials, y: bool, chains: list[Potential],
                 source: Potential) -> None:
        pending_on = deque(to_on.values())
        pending_off = deque(to_off.values())
        opposite = source.code ^ 1
        while pending_on or pending_off:
            while pending_on:
                p = pending_on.popleft()
                for p_off in _on_to_off(grid, p, y):
                    if p_off.code == opposite and all(c.code != p_off.code for c in chains):
                        chains.append(p_off)
                    if not _is_parent(p, p_off) and p_off.code not in to_off:
                        pending_off.append(p_off)
                        to_off[p_off.code] = p_off
            while pending_off:
                p = pending_off.popleft()
                for p_on in _off_to_on(grid, p, None, to_off, y, True):
                    if p_on.code == opposite and all(c.code != p_on.code for c in chains):
                        chains.append(p_on)
                    if p_on.code not in to_on:
                        pending_on.append(p_on)
                        to_on[p_on.code] = p_on

    def _forcing_chain_hint(self, grid: Grid, target: Potential, y: bool, x: bool) -> ForcingChainHint:
        if not target.on:
            removable = {target.cell: 1 << target.value}
        else:
            rest = grid.cands[target.cell] & ~(1 << target.value)
            removable = {target.cell: rest} if rest else {}
        return ForcingChainHint(self, removable, y, x, target)

    # --- Multiple, dynamic and Nishio chains. --------------------------------------------------------

    def _multiple_chains(self, grid: Grid) -> list[ChainHint]:
        result: list[ChainHint] = []
        values, cands = grid.values, grid.cands
        for cell in range(81):
            if values[cell]:
                continue
            size = cands[cell].bit_count()
            if not (size > 2 or (size > 1 and self.dynamic)):
                continue
            value_to_on: dict[int, Potentials] = {}
            value_to_off: dict[int, Potentials] = {}
            cell_to_on: Potentials | None = None
            cell_to_off: Potentials = {}
            for value in values_of(cands[cell]):
                p_on = Potential(cell, value, True)
                p_off = Potential(cell, value, False)
                double = size >= 3 and not self.nishio and self.dynamic
                contradiction = self.dynamic or self.nishio
                on_to_on, on_to_off = self._binary(grid, p_on, p_off, result, double, contradiction)
                if not self.nishio:
                    self._region_chains(grid, result, cell, value, on_to_on, on_to_off)
                value_to_on[value] = on_to_on
                value_to_off[value] = on_to_off
                if cell_to_on is None:
                    cell_to_on, cell_to_off = dict(on_to_on), dict(on_to_off)
                else:
                    cell_to_on = {k: v for k, v in cell_to_on.items() if k in on_to_on}
                    cell_to_off = {k: v for k, v in cell_to_off.items() if k in on_to_off}
            if not self.nishio and (size == 2 or (self.multiple and size > 2)):
                for outcomes, common in ((value_to_on, cell_to_on), (value_to_off, cell_to_off)):
                    for p in (common or {}).values():
                        hint = CellChainingHint(self, _reduction(grid, p), cell,
                                                [outcomes[v][p.code] for v in values_of(cands[cell])])
                        if hint.worth:
                            result.append(hint)
        return result

    def _binary(self, grid: Grid, p_on: Potential, p_off: Potential, result: list[ChainHint], double: bool,
                contradiction: bool) -> tuple[Potentials, Potentials]:
        on_to_on, on_to_off, absurd = self._follow_from(grid, p_on)
        if contradiction and absurd is not None:
            hint = BinaryChainingHint(self, {p_on.cell: 1 << p_on.value}, p_on, absurd[0], absurd[1], True)
            if hint.worth:
                result.append(hint)
        off_to_on: Potentials = {}
        off_to_off: Potentials = {p_off.code: p_off}
        absurd = self._follow(grid, off_to_on, off_to_off)
        if contradiction and absurd is not None:
            hint = BinaryChainingHint(self, _reduction(grid, p_off, True), p_off, absurd[0], absurd[1], True)
            if hint.worth:
                result.append(hint)
        if double:
            for code, from_on in on_to_on.items():
                from_off = off_to_on.get(code)
                if from_off is not None:
                    hint = BinaryChainingHint(self, _reduction(grid, from_on), p_on, from_on, from_off, False)
                    if hint.worth:
                        result.append(hint)
            for code, from_on in on_to_off.items():
                from_off = off_to_off.get(code)
                if from_off is not None:
                    hint = BinaryChainingHint(self, {from_off.cell: 1 << from_off.value}, p_off, from_on, from_off,
                                              False)
                    if hint.worth:
                        result.append(hint)
        return on_to_on, on_to_off

    def _follow_from(self, grid: Grid, p_on: Potential) -> tuple[Potentials, Potentials, tuple | None]:
        """SE's ``doChaining`` from one candidate on, kept for this grid (the region chains ask again)."""
        kept = self._followed.get(p_on.code)
        if kept is not None:
            return kept  # type: ignore[return-value]
        to_on: Potentials = {p_on.code: p_on}
        to_off: Potentials = {}
        absurd = self._follow(grid, to_on, to_off)
        self._followed[p_on.code] = (to_on, to_off, absurd)  # type: ignore[assignment]
        return to_on, to_off, absurd

    def _region_chains(self, grid: Grid, result: list[ChainHint], cell: int, value: int, on_to_on: Potentials,
                       on_to_off: Potentials) -> None:
        for kind in range(3):
            region = CELL_REGIONS[cell][kind]
            places = grid.positions(region, value)
            size = places.bit_count()
            if not (size == 2 or (self.multiple and size > 2)):
                continue
            cells = REGIONS[region]
            if cells[(places & -places).bit_length() - 1] != cell:
                continue
            position_on: dict[int, Potentials] = {}
            position_off: dict[int, Potentials] = {}
            region_on: Potentials = {}
            region_off: Potentials = {}
            for pos in range(9):
                if not places >> pos & 1:
                    continue
                other = cells[pos]
                if other == cell:
                    position_on[pos], position_off[pos] = on_to_on, on_to_off
                    region_on.update(on_to_on)
                    region_off.update(on_to_off)
                else:
                    other_on, other_off, _ = self._follow_from(grid, Potential(other, value, True))
                    position_on[pos], position_off[pos] = other_on, other_off
                    region_on = {k: v for k, v in region_on.items() if k in other_on}
                    region_off = {k: v for k, v in region_off.items() if k in other_off}
            for outcomes, common in ((position_on, region_on), (position_off, region_off)):
                for p in common.values():
                    hint = RegionChainingHint(self, _reduction(grid, p), region,
                                              [outcomes[pos][p.code] for pos in range(9) if places >> pos & 1])
                    if hint.worth:
                        result.append(hint)

    def _follow(self, grid: Grid, to_on: Potentials, to_off: Potentials) -> tuple[Potential, Potential] | None:
        """SE's ``doChaining``: follow the potentials to their ends (or to a contradiction: the potential
        found both on and off), in dynamic mode striking each potential turned off from the grid for
        the time of the chain, at a level applying the level's rules where the chain runs dry."""
        saved, saved_pos = list(grid.cands), list(grid.pos)
        source = Grid(grid.values, saved, saved_pos)
        y = not self.nishio
        dynamic = self.dynamic
        try:
            pending_on = deque(to_on.values())
            pending_off = deque(to_off.values())
            while pending_on or pending_off:
                if pending_on:
                    p = pending_on.popleft()
                    for p_off in _on_to_off(grid, p, y):
                        opposite = to_on.get(p_off.code ^ 1)
                        if opposite is not None:
                            return opposite, p_off
                        if p_off.code not in to_off:
                            to_off[p_off.code] = p_off
                            pending_off.append(p_off)
                else:
                    p = pending_off.popleft()
                    made = _off_to_on(grid, p, source, to_off, y, True)
                    if dynamic:
                        grid.strike(p.cell, p.value)
                    for p_on in made:
                        opposite = to_off.get(p_on.code ^ 1)
                        if opposite is not None:
                            return p_on, opposite
                        if p_on.code not in to_on:
                            to_on[p_on.code] = p_on
                            pending_on.append(p_on)
                if not pending_on and not pending_off and self.level > 0:
                    for p_off in self._advanced(grid, source, to_off):
                        if p_off.code not in to_off:
                            to_off[p_off.code] = p_off
                            pending_off.append(p_off)
            return None
        finally:
            grid.cands[:] = saved
            grid.pos[:] = saved_pos

    # --- Nested levels. ------------------------------------------------------------------------------

    def _inner_rules(self) -> list[tuple[Callable[[Grid, Grid], Iterator[Hint]], bool]]:
        """SE's ``getAdvancedPotentials`` rules for this level, each as (hints of a grid, is a chain rule)."""
        if self._inner is None:
            from .fish import fish
            from .intersections import locking
            from .subsets import hidden_sets, naked_sets

            rules: list[tuple[Callable[[Grid, Grid], Iterator[Hint]], bool]] = [
                (lambda g, s: locking(g, False, _changed(g, s)), False),
                (lambda g, s: hidden_sets(g, 2, False, _changed(g, s)), False),
                (lambda g, s: naked_sets(g, 2, {c for c in range(81) if g.cands[c] != s.cands[c]}), False),
                (lambda g, s: fish(g, 2, _changed(g, s)), False)]
            inner: list[Chaining] = []
            if self.level < 4:
                if self.level >= 2:
                    inner.append(Chaining(False, False, False, 0))
                if self.level >= 3:
                    inner.append(Chaining(True, False, False, 0))
            else:
                inner.append(Chaining(True, True, False, 0))
                if self.level >= 5:
                    inner.append(Chaining(True, True, False, self.level - 3))
            for chaining in inner:
                rules.append((lambda g, s, c=chaining: iter(c.hints(g)), True))
            self._inner = rules
        return self._inner

    def _advanced(self, grid: Grid, source: Grid, offs: Potentials) -> list[Potential]:
        """The candidates the first inner rule with a hint resting on the chain strikes, as new "off"
        potentials whose parents are the chain potentials each hint rests on."""
        result: list[Potential] = []
        for rule, is_chain in self._inner_rules():
            if result:
                break
            for hint in rule(grid, source):
                parents = hint.rule_parents(source, grid)
                if not parents:
                    continue
                real = []
                for cell, value in parents:
                    found = offs.get((cell * 10 + value) << 1)
                    if found is None:
                        raise RuntimeError("parent not found")  # SE fails the same way
                    real.append(found)
                nested = hint if is_chain else None
                for cell, value in hint.removals():
                    p = Potential(cell, value, False, cause=ADVANCED, nested=nested)
                    p.parents.extend(real)
                    result.append(p)
        return result


# --- The compiled rules. ---------------------------------------------------------------------------

_COMPILED: list = []


def _compiled() -> Any:
    """The compiled module, or None where it was not built (or ``$SUDOKULAB_SERATE_BACKEND`` is ``python``)."""
    if not _COMPILED:
        import os

        module = None
        if os.environ.get("SUDOKULAB_SERATE_BACKEND", "") != "python":
            try:
                from . import _chaining as module  # type: ignore[attr-defined, no-redef]
            except ImportError:
                module = None
        _COMPILED.append(module)
    return _COMPILED[0]


class CompiledChainHint(Hint):
    """A chain hint the compiled rules found: what the solver and an explanation read of it (the
    complexity, and of it the part the chain's own potentials make, without its nested chains)."""

    __slots__ = ("complexity", "sort_key", "flat")

    def __init__(self, name: str, difficulty: float, removable: dict[int, int], cell: int, value: int,
                 complexity: int, sort_key: int, flat: int):
        super().__init__(name, difficulty, removable, cell, value)
        self.complexity = complexity
        self.sort_key = sort_key
        self.flat = flat

    def flat_complexity(self) -> int:
        return self.flat


def compiled_hints(rule: Chaining, grid: Grid, module: Any) -> list[Hint]:
    """``rule``'s hints by the compiled rules, named as ``chain_hints`` names them."""
    cands = b"".join(mask.to_bytes(2, "little") for mask in grid.cands)
    found = module.hints(bytes(grid.values), cands, rule.multiple, rule.dynamic, rule.nishio, rule.level)
    hints: list[Hint] = []
    for kind, is_x, is_y, absurd, sort_key, difficulty, complexity, removable, cell, value, extra, flat in found:
        if kind == 0:
            name = ("Forcing Chain" if is_x and is_y else "Forcing Y-Chain" if is_y
                    else "Turbot Fish" if extra == 6 else "Forcing X-Chain")
        elif kind == 1:
            name = ("Bidirectional Cycle" if is_x and is_y else "Bidirectional Y-Cycle" if is_y
                    else "Generalized X-Wing" if extra == 4 else "Bidirectional X-Cycle")
        elif kind == 2:
            name = rule.prefix + ("Forcing" if rule.nishio else "Contradiction Forcing" if absurd
                                  else "Double Forcing") + rule.suffix
        else:
            name = rule.prefix + ("Cell Forcing" if kind == 3 else "Region Forcing") + rule.suffix
        hints.append(CompiledChainHint(name, difficulty, dict(removable), cell, value, complexity, sort_key, flat))
    return hints


# --- Links. ----------------------------------------------------------------------------------------


def _on_to_off(grid: Grid, p: Potential, y: bool) -> list[Potential]:
    """What an "on" potential turns off: the cell's other values (Y), the value in its regions' cells."""
    found: dict[int, Potential] = {}
    cell, value = p.cell, p.value
    cands = grid.cands
    if y:
        for v in values_of(cands[cell]):
            if v != value:
                q = Potential(cell, v, False, p, NAKED_SINGLE)
                found[q.code] = q
    pos = grid.pos
    for kind in range(3):
        cause = HIDDEN_OF_KIND[kind]
        region = CELL_REGIONS[cell][kind]
        cells = REGIONS[region]
        places = pos[region * 10 + value]
        while places:
            low = places & -places
            places ^= low
            other = cells[low.bit_length() - 1]
            if other != cell:
                c = (other * 10 + value) << 1
                if c not in found:
                    found[c] = Potential(other, value, False, p, cause)
    return list(found.values())


def _off_to_on(grid: Grid, p: Potential, source: Grid | None, offs: Potentials, y: bool, x: bool) -> list[Potential]:
    """What an "off" potential turns on: the cell's last value (Y), the value's last place in a region
    (X); in dynamic mode each also rests on the candidates already struck there (its hidden parents)."""
    found: dict[int, Potential] = {}
    cell, value = p.cell, p.value
    cands = grid.cands
    if y:
        mask = cands[cell]
        if mask.bit_count() == 2:
            other = (mask & ~(1 << value)).bit_length() - 1
            q = Potential(cell, other, True, p, NAKED_SINGLE)
            if source is not None:
                gone = source.cands[cell] & ~mask
                for v in values_of(gone):
                    q.parents.append(_parent(offs, cell, v))
            found[q.code] = q
    if x:
        pos = grid.pos
        for kind in range(3):
            base = CELL_REGIONS[cell][kind] * 10 + value
            places = pos[base]
            if places.bit_count() != 2:
                continue
            cells = REGIONS[base // 10]
            low = places & -places
            other = cells[low.bit_length() - 1]
            if other == cell:
                other = cells[(places ^ low).bit_length() - 1]
            q = Potential(other, value, True, p, HIDDEN_OF_KIND[kind])
            if source is not None:
                gone = source.pos[base] & ~places
                while gone:
                    low = gone & -gone
                    gone ^= low
                    q.parents.append(_parent(offs, cells[low.bit_length() - 1], value))
            if q.code not in found:
                found[q.code] = q
    return list(found.values())


def _changed(grid: Grid, source: Grid) -> set[int]:
    """The ``Grid.pos`` entries (region and value) where ``grid`` differs from ``source``."""
    now, before = grid.pos, source.pos
    return {i for i in range(270) if now[i] != before[i]}


def _parent(offs: Potentials, cell: int, value: int) -> Potential:
    found = offs.get((cell * 10 + value) << 1)
    if found is None:
        raise RuntimeError("parent not found")  # SE's message, for a grid that is not as the chain left it
    return found


def _is_parent(child: Potential, parent: Potential) -> bool:
    """Whether ``parent`` is on ``child``'s line of first parents (SE's ``isParent``)."""
    p = child
    while p.parents:
        p = p.parents[0]
        if p.code == parent.code:
            return True
    return False


def _reversed_cycle(origin: Potential) -> Potential:
    """The cycle the other way round (SE's ``getReversedCycle``)."""
    chain: list[Potential] = []
    p: Potential | None = origin
    while p is not None:
        chain.insert(0, Potential(p.cell, p.value, not p.on, cause=p.cause))
        p = p.parents[0] if p.parents else None
    for prev, rev in zip(chain, chain[1:]):
        prev.parents.append(rev)
    return chain[0]


def _reduction(grid: Grid, target: Potential, flip: bool = False) -> dict[int, int]:
    """What a chain's result strikes: an "on" target's other values, or an "off" target itself
    (``flip``: the target's opposite is the result)."""
    on = target.on != flip
    if on:
        rest = grid.cands[target.cell] & ~(1 << target.value)
        return {target.cell: rest} if rest else {}
    return {target.cell: 1 << target.value}
