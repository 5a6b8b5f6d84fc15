"""Pencil marks: the digits still possible in every cell, the state that reasoning works on.

Propagation levels (``propagate``), step-by-step explanations (``explain``) and difficulty ratings
(``rate``) all read and narrow one of these. Digit ``d`` of a cell is bit ``d - 1`` of its mask, the
representation the searches use too, so a level can hand its marks to a search unchanged.

Names follow the puzzle setters' habit: a cell is ``r4c5`` (1-based row and column), a candidate
``r4c5=7``; a group keeps its rules name ("row 4", "box 2", "cage 7 (sum 15)").
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ..core.grid import Grid
from ..core.puzzle import Puzzle


def digits_of(mask: int) -> list[int]:
    """The digits of a mask, smallest first (bit ``d - 1`` is digit ``d``)."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length())
        mask ^= low
    return found


@dataclass
class Candidates:
    """The possible digits of every cell of a puzzle (mutable: levels and steps narrow it).

    ``marks[cell]`` is the cell's mask. A cell with one digit left is *settled*; one with none is a
    contradiction (the givens or an assumption cannot hold).
    """

    puzzle: Puzzle
    marks: list[int]

    @classmethod
    def start(cls, puzzle: Puzzle, eliminate: bool = True) -> Candidates:
        """Givens settled, every blank full; with ``eliminate``, each given's digit struck from its
        peers (the marks a person writes before reasoning starts: not counted as a step)."""
        n = puzzle.n
        full = (1 << n) - 1
        marks = [1 << (v - 1) if v else full for v in puzzle.givens]
        if eliminate:
            peers = puzzle.rules.peers
            for cell, value in enumerate(puzzle.givens):
                if value:
                    bit = ~(1 << (value - 1))
                    for peer in peers[cell]:
                        if not puzzle.givens[peer]:
                            marks[peer] &= bit
        return cls(puzzle, marks)

    def copy(self) -> Candidates:
        return Candidates(self.puzzle, list(self.marks))

    @property
    def n(self) -> int:
        return self.puzzle.n

    def digits(self, cell: int) -> list[int]:
        return digits_of(self.marks[cell])

    def has(self, cell: int, digit: int) -> bool:
        return bool(self.marks[cell] >> (digit - 1) & 1)

    def remove(self, cell: int, digit: int) -> bool:
        """Strike one candidate; True when it was there."""
        bit = 1 << (digit - 1)
        if self.marks[cell] & bit:
            self.marks[cell] ^= bit
            return True
        return False

    def place(self, cell: int, digit: int) -> None:
        """Leave ``digit`` as the cell's only candidate (peers are not touched: that is a step of its own)."""
        self.marks[cell] = 1 << (digit - 1)

    def value(self, cell: int) -> int:
        """The cell's digit when settled, else 0."""
        mask = self.marks[cell]
        return mask.bit_length() if mask and not mask & (mask - 1) else 0

    @property
    def settled(self) -> bool:
        """Every cell has exactly one candidate left."""
        return all(m and not m & (m - 1) for m in self.marks)

    @property
    def contradiction(self) -> bool:
        """Some cell has no candidate left."""
        return not all(self.marks)

    @property
    def remaining(self) -> int:
        """How many candidates are left over the whole board (n * n when settled)."""
        return sum(m.bit_count() for m in self.marks)

    def grid(self) -> Grid:
        """The settled cells' digits, 0 elsewhere."""
        return tuple(self.value(cell) for cell in range(len(self.marks)))

    def pairs(self) -> Iterator[tuple[int, int]]:
        """Every remaining candidate as ``(cell, digit)``, row-major, smallest digit first."""
        for cell, mask in enumerate(self.marks):
            for digit in digits_of(mask):
                yield cell, digit

    def text(self) -> str:
        """Pencil marks as text: each cell's digits in a column wide enough for the fullest cell,
        ``|`` between boxes across and a rule line between boxes down (digits above 9 are joined
        with commas, since "1011" would be ambiguous)."""
        n, shape = self.n, self.puzzle.shape
        join = "," if n > 9 else ""

        def shown(cell: int) -> str:
            return join.join(str(d) for d in self.digits(cell)) or "-"

        width = max(len(shown(cell)) for cell in range(n * n))
        lines = []
        for row in range(n):
            if row and row % shape.box_rows == 0:
                lines.append("+".join("-" * ((width + 1) * shape.box_cols + 1) for _ in range(n // shape.box_cols)))
            parts = []
            for col in range(n):
                if col and col % shape.box_cols == 0:
                    parts.append("|")
                parts.append(shown(row * n + col).ljust(width))
            lines.append(" " + " ".join(parts).rstrip())
        return "\n".join(lines) + "\n"
