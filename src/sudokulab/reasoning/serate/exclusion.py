"""Aligned pair exclusion (6.2) and aligned triplet exclusion (7.5), as SE finds them.

Two (three) cells, each with two candidates or more and no naked single in its house, whose house
shares at least two *excluding* cells (bivalue cells for the pair; cells of two or three candidates
for the triplet): a combination of values for the chosen cells is excluded when two of the cells see
each other and hold the same value, or when it would take every candidate of an excluding cell. A
value of a chosen cell that no remaining combination uses is struck. SE takes the cells in its
subset order over its list of candidate cells (row by row); for the triplet the third cell comes
from the first two cells' excluders that are candidate cells themselves (``AlignedExclusion``).
Pairs of cells that share fewer than two excluders give nothing, so they are passed over before
the third cell is chosen; the hints come in SE's order all the same.

More: docs/rating.md.
"""

from __future__ import annotations

from collections.abc import Iterator

from .grid import HOUSE, HOUSE_SET, Grid, combinations, values_of
from .hints import Hint


def _candidates(grid: Grid, degree: int) -> tuple[list[int], dict[int, list[int]]]:
    """SE's candidate cells (row by row) and each one's excluding cells, in its house order."""
    cands = grid.cands
    chosen: list[int] = []
    excluders: dict[int, list[int]] = {}
    for cell in range(81):
        if cands[cell].bit_count() < 2:
            continue
        found = []
        single = False
        for other in HOUSE[cell]:
            size = cands[other].bit_count()
            if size == 1:
                single = True
            elif 2 <= size <= degree:
                found.append(other)
        if not single and found:
            chosen.append(cell)
            excluders[cell] = found
    return chosen, excluders


def aligned_exclusion(grid: Grid, degree: int) -> Iterator[Hint]:
    """SE's aligned exclusion of ``degree`` cells; the compiled rules give its first hint where they
    are built (the solver takes no more), this port every hint."""
    from .chaining import _compiled

    module = _compiled()
    name, difficulty = ("Aligned Pair Exclusion", 6.2) if degree == 2 else ("Aligned Triplet Exclusion", 7.5)
    if module is not None:
        found = module.aligned_exclusion(b"".join(m.to_bytes(2, "little") for m in grid.cands), degree)
        if found:
            yield Hint(name, difficulty, dict(found))
        return
    cands = grid.cands
    chosen, excluders = _candidates(grid, degree)
    if len(chosen) < degree:
        return
    bits = {cell: sum(1 << e for e in excluders[cell]) for cell in chosen}
    candidate_set = set(chosen)
    for i0, i1 in combinations(2, len(chosen)):
        cell0, cell1 = chosen[i0], chosen[i1]
        pair_common = bits[cell0] & bits[cell1]
        if pair_common.bit_count() < 2:
            continue
        if degree == 2:
            tails: list[tuple[int, ...]] = [()]
        else:
            area = list(dict.fromkeys(excluders[cell0] + excluders[cell1]))
            area = [c for c in area if c in candidate_set and c != cell0 and c != cell1]
            if len(area) < degree - 2:
                continue
            tails = [tuple(area[i] for i in t) for t in combinations(degree - 2, len(area))]
        for tail in tails:
            cells = (cell0, cell1) + tail
            common = pair_common
            for cell in tail:
                common &= bits[cell]
            if common.bit_count() < 2:
                continue
            removable = _excluded(cands, cells, [cands[e] for e in excluders[cell0] if common >> e & 1])
            if removable:
                yield Hint(name, difficulty, removable)


def _excluded(cands: list[int], cells: tuple[int, ...], excluding: list[int]) -> dict[int, int]:
    """The values of each cell that no allowed combination uses."""
    options = [values_of(cands[c]) for c in cells]
    used = [0] * len(cells)
    sees = [[b in HOUSE_SET[a] for b in cells] for a in cells]
    size = len(cells)

    def allowed(combo: tuple[int, ...]) -> bool:
        for i in range(size):
            for j in range(i + 1, size):
                if combo[i] == combo[j] and sees[i][j]:
                    return False
        mask = 0
        for v in combo:
            mask |= 1 << v
        return all(e & ~mask for e in excluding)

    if size == 2:
        combos = ((a, b) for a in options[0] for b in options[1])
    else:
        combos = ((a, b, c) for a in options[0] for b in options[1] for c in options[2])
    for combo in combos:
        if allowed(combo):
            for i, v in enumerate(combo):
                used[i] |= 1 << v
    return {cell: cands[cell] & ~used[i] for i, cell in enumerate(cells) if cands[cell] & ~used[i]}
