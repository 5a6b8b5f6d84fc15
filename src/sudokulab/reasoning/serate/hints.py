"""A hint as SE's rules give it: its rule's name and difficulty, what it strikes, what it places.

SE applies a hint by striking its removable candidates and then, if it has one, placing its value
(``IndirectHint.apply``); a direct hint (a single, direct pointing, a direct hidden set) only places.
A hint that can serve inside a nested forcing chain also says which candidates must have gone before
it holds (its *rule parents*, ``rule_parents``): the chain links to them (``chaining``).

More: docs/rating.md.
"""

from __future__ import annotations

from .grid import Grid, values_of


class Hint:
    """One hint: ``name`` and ``difficulty`` (SE's ``getName``, ``getDifficulty``), ``removable``
    (cell -> mask of values struck) and the placement (``cell`` -1: none)."""

    __slots__ = ("name", "difficulty", "removable", "cell", "value")

    def __init__(self, name: str, difficulty: float, removable: dict[int, int], cell: int = -1, value: int = 0):
        self.name = name
        self.difficulty = difficulty
        self.removable = removable
        self.cell = cell
        self.value = value

    @property
    def worth(self) -> bool:
        """Whether it strikes anything (SE's ``isWorth``; SE asks it of no direct hint)."""
        return bool(self.removable)

    def removals(self) -> list[tuple[int, int]]:
        """The candidates struck, cell by cell (ascending), each cell's values ascending."""
        return [(cell, v) for cell in sorted(self.removable) for v in values_of(self.removable[cell])]

    def apply(self, grid: Grid) -> None:
        for cell, mask in self.removable.items():
            for v in values_of(mask):
                grid.strike(cell, v)
        if self.cell >= 0:
            grid.place(self.cell, self.value)

    def rule_parents(self, initial: Grid, current: Grid) -> list[tuple[int, int]]:
        """The candidates (cell, value) of ``initial`` gone from ``current`` that this hint rests on."""
        raise NotImplementedError(self.name)

    def __repr__(self) -> str:
        put = f" r{self.cell // 9 + 1}c{self.cell % 9 + 1}={self.value}" if self.cell >= 0 else ""
        return f"<{self.name} {self.difficulty}{put} -{self.removals()}>"
