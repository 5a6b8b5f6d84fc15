"""What both formulations of Algorithm X in ``dlx`` share: the column sizes and the column choice.

Knuth's S heuristic (the column with the fewest rows) with forced moves taken first, and the
offsets on a column's size that keep covered and secondary columns out of ``min``, are one rule
for ``dlx_links`` and ``dlx_sets`` alike: both must choose the same columns, so they count the
same nodes and a test can compare them. The effort counters are the ones both report.

More: docs/solvers.md.
"""

from __future__ import annotations

CHECK_EVERY = 1024  # rows tried between two looks at the clock (a mask: a power of two)
COVERED = 1 << 40
"""Added to a covered column's size: above every open column's size, so ``min`` skips it."""
SECONDARY = 1 << 30
"""Added to a secondary column's size: above every primary column's, below every covered one's."""


class DlxCounters:
    """The effort Algorithm X reports: ``nodes`` (rows tried) and ``updates`` (removals)."""

    __slots__ = ("nodes", "updates")

    def __init__(self) -> None:
        self.nodes = 0
        self.updates = 0

    def stats(self) -> dict[str, int]:
        return {"nodes": self.nodes, "updates": self.updates}


SOLVED, DEAD = -1, -2
"""What ``choose`` returns when no column is open, or when an open column has no row."""


def choose(size: list[int], fresh: list[int], small: list[int], starts: list[int], canonical: bool) -> int:
    """The column to branch on (pushing the canonical scan start), or ``SOLVED`` or ``DEAD``.

    ``fresh`` holds the columns whose size fell below 2 since the last choice, ``small`` those of
    earlier choices not yet looked at; some have since been covered or grown again, so each is
    checked. An open one of size 0 ends the branch (all of ``fresh`` is checked for one, in C),
    one of size 1 is a forced move taken without looking at all 4n² sizes. Only when none is
    left does it take ``min(size)``: Knuth's S heuristic, the first column on a tie; canonical
    then takes the first open cell instead of a column with two or more rows.
    """
    if fresh:
        if 0 in map(size.__getitem__, fresh):
            fresh.clear()
            return DEAD
        small += fresh
        fresh.clear()
    while small:
        k = small.pop()
        s = size[k]
        if s < 2:
            if not s:
                return DEAD
            starts.append(starts[-1] if starts else 0)
            return k
    smallest = min(size)
    if smallest >= SECONDARY:
        return SOLVED  # every primary column is covered
    if not smallest:
        return DEAD
    if smallest == 1 or not canonical:
        starts.append(starts[-1] if starts else 0)
        return size.index(smallest)
    c = starts[-1] if starts else 0
    while size[c] >= COVERED:
        c += 1
    starts.append(c)
    return c
