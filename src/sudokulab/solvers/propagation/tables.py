"""The state and tables of candidate propagation (``propagation``): what both of its paths read.

``SETTLED`` and ``UNKNOWN`` are what a settle returns besides a group's code; the searches, ``generate``
and the propagation levels compare against them, so they live below both paths.

More: docs/solvers.md.
"""

from __future__ import annotations

from typing import NamedTuple

SETTLED = -1
"""What ``settle`` returns when the queue ran dry without a contradiction."""
UNKNOWN = -2
"""What it returns for a contradiction not tied to one group; otherwise ``g*n`` for the group g."""


class Positions(dict):
    """The set bits of a mask as a tuple of positions, computed on first use (boards above 12x12).

    Emptied when it reaches ``LIMIT`` masks, so a long search on a 36x36 board stays in bounds.
    """

    LIMIT = 1 << 17

    def __missing__(self, mask: int) -> tuple[int, ...]:
        if len(self) >= self.LIMIT:
            self.clear()
        positions = self[mask] = tuple(i for i in range(mask.bit_length()) if mask >> i & 1)
        return positions


def positions_table(n: int) -> tuple[tuple[int, ...], ...] | Positions:
    """``positions[mask]``: the set bits of an n-bit mask; a table up to 12x12, a cache above."""
    if n <= 12:
        return tuple(tuple(i for i in range(n) if mask >> i & 1) for mask in range(1 << n))
    return Positions()


class ThreeTables(NamedTuple):
    """The tables for rules of exactly three complete groups per cell and nothing else (standard, jigsaw).

    The group-digit pair (g, d) lives at index ``g*n + d`` of ``where``, position p of group g at
    index ``g*n + p`` of the tables.
    """

    cell_units: tuple[tuple[int, ...], ...]
    """Per cell, ``(k, bit)`` three times over: ``k = g*n`` and ``bit`` the cell's position in
    that group as a bit of the ``where`` masks."""
    via: tuple[tuple[int, int, int, int, int], ...]
    """At ``g*n + p``: the cell at position p of group g and its two *other* groups, as
    ``(cell, k1, bit1, k2, bit2)``: removing a digit from it found through g touches only those."""
    unit_cell: tuple[int, ...]
    """At ``g*n + p``: the cell at position p of group g (to turn a hidden single into a cell)."""
    positions: tuple[tuple[int, ...], ...] | Positions


class AnyTables(NamedTuple):
    """The tables for any rule set: groups of any length, any number per cell, pairs, sums, thermometers."""

    cell_places: tuple[tuple[tuple[int, int], ...], ...]
    """Per cell, ``(k, bit)`` for each *complete* group it is in (``k = g*n``)."""
    via: tuple[tuple[int, tuple[tuple[int, int], ...]], ...]
    """At ``g*n + p`` of a complete group g: the cell at position p and its other complete groups' places."""
    unit_cell: tuple[int, ...]
    """At ``g*n + p`` of a complete group g: the cell at position p (-1 in partial groups' slots)."""
    positions: tuple[tuple[int, ...], ...] | Positions
    others: tuple[tuple[tuple[int, int], ...], ...]
    """Per cell, ``(peer, code)`` for every peer sharing no complete group with it: partial group
    mates (``code = g*n``) and differing partners (``UNKNOWN``)."""
    cages: tuple[tuple[tuple[int, ...], int, int], ...]
    """Each cage as (cells, total, code of its group)."""
    thermos: tuple[tuple[int, ...], ...]
    """Each thermometer's cells from the bulb."""
    ruled_out: tuple[tuple[int, int], ...]
    """The lowering's ruled-out placements, as (cell, digit bit): removed before the givens are placed."""
    forbid: tuple[tuple[tuple[tuple[int, int], ...], ...], ...]
    """Per cell, empty or one entry per digit (bit position): the (peer, digit bit) a forbidden pair of the
    lowering takes from the peer once the cell holds that digit."""
    sets: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]
    """The lowering's allowed sets, as (cells, digit masks)."""
