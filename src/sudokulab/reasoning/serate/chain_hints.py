"""The hints SE's chains give, measured and rated as SE does.

Five kinds (``ChainingHint``'s subclasses in SE): a forcing X-, Y- or XY-chain from a candidate to
its own opposite (6.6; 7.0 with both kinds of link; a forcing X-chain of 6 potentials is the
"Turbot Fish"), a bidirectional cycle (6.5; 7.0), a binary chain (a contradiction from one
assumption, or a double forcing from a candidate on and off), a cell forcing chain and a region
forcing chain (every value of a cell, every place of a value in a region, to the same potential);
the last three at the difficulty of the chaining rule that found them (``chaining.Chaining``).
A hint's *complexity* is the number of distinct ancestors of each of its targets, summed over the
targets, plus the complexity of each distinct nested chain among them; its length bonus adds 0.1
each time ``complexity - 2`` passes 4, 6, 8, 12, 16, 24, 32, ... (SE's ``getLengthDifficulty``).
A rule sorts its hints by difficulty, then complexity, then kind (``sort_key``), and keeps the
first of those that strike the same candidates.

More: docs/rating.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .grid import CELL_REGIONS, HOUSE, REGIONS, Grid, values_of
from .hints import Hint
from .potentials import KIND_OF_HIDDEN, NAKED_SINGLE, Potential, ancestor_count, chain_of, code, nested_chains

if TYPE_CHECKING:
    from .chaining import Chaining


def length_bonus(complexity: int) -> float:
    """SE's ``getLengthDifficulty``."""
    added = 0.0
    ceil = 4
    length = complexity - 2
    odd = False
    while length > ceil:
        added += 0.1
        ceil = ceil * 3 // 2 if not odd else ceil * 4 // 3
        odd = not odd
    return added


class ChainHint(Hint):
    """What the chain hints share: the rule that found them, their targets, complexity and rule parents."""

    __slots__ = ("rule", "is_y", "is_x", "_complexity", "_key")
    sort_key = 0

    def __init__(self, rule: Chaining, removable: dict[int, int], is_y: bool, is_x: bool):
        super().__init__("", 0.0, removable)
        self.rule = rule
        self.is_y = is_y
        self.is_x = is_x
        self._complexity = -1
        self._key: tuple | None = None

    def targets(self) -> list[Potential]:
        raise NotImplementedError

    def flat_complexity(self) -> int:
        raise NotImplementedError

    @property
    def complexity(self) -> int:
        if self._complexity < 0:
            nested: dict = {}
            for target in self.targets():
                nested.update(nested_chains(target))
            self._complexity = self.flat_complexity() + sum(nested.values())
        return self._complexity

    def chain_key(self) -> tuple:
        """What tells two nested chains apart (SE's ``FullChain``): the targets and each one's chain."""
        if self._key is None:
            targets = self.targets()
            self._key = (tuple(t.code for t in targets),
                         tuple(tuple(p.code for p in chain_of(t)) for t in targets))
        return self._key

    def _rated(self, base: float) -> None:
        self.difficulty = base + length_bonus(self.complexity)

    def rule_parents(self, initial: Grid, current: Grid) -> list[tuple[int, int]]:
        """SE's ``collectRuleParents``: for each potential set on by a single along the chains, the
        candidates of ``initial`` gone from ``current`` in that cell (or region)."""
        found: dict[tuple[int, int], None] = {}
        for target in self.targets():
            for p in chain_of(target):
                cause = p.cause
                if cause is None:
                    cause = self._default_cause()
                if not p.on or cause is None:
                    continue
                if cause == NAKED_SINGLE:
                    gone = initial.cands[p.cell] & ~current.cands[p.cell]
                    for v in values_of(gone):
                        found.setdefault((p.cell, v))
                else:
                    bit = 1 << p.value
                    region = CELL_REGIONS[p.cell][KIND_OF_HIDDEN[cause]]
                    for c in REGIONS[region]:
                        if initial.cands[c] & bit and not current.cands[c] & bit:
                            found.setdefault((c, p.value))
        return list(found)

    def _default_cause(self) -> int | None:
        return None


class ForcingChainHint(ChainHint):
    """A forcing chain from a candidate (or its absence) to its own opposite."""

    __slots__ = ("target",)

    def __init__(self, rule: Chaining, removable: dict[int, int], is_y: bool, is_x: bool, target: Potential):
        super().__init__(rule, removable, is_y, is_x)
        self.target = target
        if target.on:
            self.cell, self.value = target.cell, target.value
        if is_x and is_y:
            self.name = "Forcing Chain"
        elif is_y:
            self.name = "Forcing Y-Chain"
        else:
            self.name = "Turbot Fish" if ancestor_count(target) == 6 else "Forcing X-Chain"
        self._rated(7.0 if is_x and is_y else 6.6)

    @property
    def sort_key(self) -> int:  # type: ignore[override]
        return 4 if self.is_x and self.is_y else 3 if self.is_y else 2

    def targets(self) -> list[Potential]:
        return [self.target]

    def flat_complexity(self) -> int:
        return ancestor_count(self.target)


class CycleHint(ChainHint):
    """A bidirectional cycle: the loop holds one way or the other, so what sees both ways goes."""

    __slots__ = ("dst_on", "dst_off", "cells")

    def __init__(self, rule: Chaining, removable: dict[int, int], is_y: bool, is_x: bool, dst_on: Potential,
                 dst_off: Potential, cells: list[int]):
        super().__init__(rule, removable, is_y, is_x)
        self.dst_on = dst_on
        self.dst_off = dst_off
        self.cells = cells
        if is_x and is_y:
            self.name = "Bidirectional Cycle"
        elif is_y:
            self.name = "Bidirectional Y-Cycle"
        else:
            self.name = "Generalized X-Wing" if len(cells) == 4 else "Bidirectional X-Cycle"
        self._rated(7.0 if is_x and is_y else 6.5)

    @property
    def sort_key(self) -> int:  # type: ignore[override]
        return 4 if self.is_x and self.is_y else 3 if self.is_y else 2

    def targets(self) -> list[Potential]:
        return [self.dst_on, self.dst_off]

    def flat_complexity(self) -> int:
        return ancestor_count(self.dst_on)


def cycle_hint(rule: Chaining, grid: Grid, dst_on: Potential, dst_off: Potential, is_y: bool,
               is_x: bool) -> CycleHint:
    """SE's ``createCycleHint``: what sees an on potential of the loop and an off one of the same value."""
    cells: dict[int, None] = {}
    p = dst_on
    while p.parents:
        cells.setdefault(p.cell)
        p = p.parents[0]
    forward: dict[int, None] = {}
    backward: dict[int, None] = {}
    cands = grid.cands
    p = dst_on
    while p.parents:
        bit = 1 << p.value
        for cell in HOUSE[p.cell]:
            if cell not in cells and cands[cell] & bit:
                (forward if p.on else backward).setdefault(code(cell, p.value, False))
        p = p.parents[0]
    removable: dict[int, int] = {}
    for c in forward:
        if c in backward:
            cell, value = (c >> 1) // 10, (c >> 1) % 10
            removable[cell] = removable.get(cell, 0) | 1 << value
    return CycleHint(rule, removable, is_y, is_x, dst_on, dst_off, list(cells))


class BinaryChainingHint(ChainHint):
    """One assumption to a contradiction, or a candidate on and off to the same potential."""

    __slots__ = ("source", "dst_on", "dst_off", "absurd")

    def __init__(self, rule: Chaining, removable: dict[int, int], source: Potential, dst_on: Potential,
                 dst_off: Potential, absurd: bool):
        super().__init__(rule, removable, True, True)
        self.source = source
        self.dst_on = dst_on
        self.dst_off = dst_off
        self.absurd = absurd
        if rule.nishio or absurd:
            if not source.on:
                self.cell, self.value = source.cell, source.value
        elif dst_on.on:
            self.cell, self.value = dst_on.cell, dst_on.value
        kind = "Forcing" if rule.nishio else "Contradiction Forcing" if absurd else "Double Forcing"
        self.name = rule.prefix + kind + rule.suffix
        self._rated(rule.difficulty)

    @property
    def sort_key(self) -> int:  # type: ignore[override]
        return 7 if self.absurd else 1

    def targets(self) -> list[Potential]:
        return [self.dst_on, self.dst_off]

    def flat_complexity(self) -> int:
        return ancestor_count(self.dst_on) + ancestor_count(self.dst_off)


class _ForcingHint(ChainHint):
    """Every branch of a source (a cell's values, a region's places) leads to the same potential: the
    chains of the branches, rated alike (cell and region forcing differ only in their source)."""

    __slots__ = ("chains",)

    def __init__(self, rule: Chaining, removable: dict[int, int], chains: list[Potential], kind: str):
        super().__init__(rule, removable, True, True)
        self.chains = chains
        first = chains[0]
        if first.on:
            self.cell, self.value = first.cell, first.value
        self.name = rule.prefix + kind + rule.suffix
        self._rated(rule.difficulty)

    def targets(self) -> list[Potential]:
        return self.chains

    def flat_complexity(self) -> int:
        return sum(ancestor_count(t) for t in self.chains)


class CellChainingHint(_ForcingHint):
    """Every value of a cell leads to the same potential."""

    __slots__ = ("source_cell",)
    sort_key = 5

    def __init__(self, rule: Chaining, removable: dict[int, int], source_cell: int, chains: list[Potential]):
        self.source_cell = source_cell
        super().__init__(rule, removable, chains, "Cell Forcing")

    def _default_cause(self) -> int | None:
        return NAKED_SINGLE


class RegionChainingHint(_ForcingHint):
    """Every place of a value in a region leads to the same potential."""

    __slots__ = ("region",)
    sort_key = 6

    def __init__(self, rule: Chaining, removable: dict[int, int], region: int, chains: list[Potential]):
        self.region = region
        super().__init__(rule, removable, chains, "Region Forcing")

    def _default_cause(self) -> int | None:
        from .potentials import HIDDEN_OF_KIND

        return HIDDEN_OF_KIND[self.region // 9]
