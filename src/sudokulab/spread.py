"""Repeated bench runs and the conclusions their spread supports, so a lesson's sentence holds run to run.

One timed run ranks solvers by noise as much as by speed: on a shared machine two runs of the same
set can swap solvers that are a few per cent apart. ``repeat`` runs the same bench several times
(the solvers taking turns on each batch in every round) and keeps each row's rate per round, in
puzzles per CPU second of the process (``BenchSummary.per_cpu_second``: other work on the cores
stretches wall time, far less the CPU time a call uses). ``tiers`` groups rows whose
interquartile ranges of rates over the rounds overlap (the middle half: one disturbed round
neither makes nor breaks a conclusion): within a tier there is no clear winner, and a tier's
rates sit above the next's. ``verdict`` says so in a sentence computed from the numbers.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Spread", "repeat", "tiers", "verdict"]


@dataclass(frozen=True)
class Spread:
    """One row's rates over the rounds (puzzles per CPU second), and the model size it reported."""

    name: str
    rates: tuple[float, ...]
    means: Mapping[str, float]
    """Mean stats per puzzle (model size, effort) of the last round."""

    @property
    def low(self) -> float:
        """The lower quartile of the rates (inclusive method: with five rounds, the second slowest)."""
        return statistics.quantiles(self.rates, n=4, method="inclusive")[0] if len(self.rates) > 1 else self.rates[0]

    @property
    def high(self) -> float:
        """The upper quartile of the rates."""
        return statistics.quantiles(self.rates, n=4, method="inclusive")[2] if len(self.rates) > 1 else self.rates[0]

    @property
    def median(self) -> float:
        return statistics.median(self.rates)

    def overlaps(self, other: Spread) -> bool:
        return self.low <= other.high and other.low <= self.high

    def __str__(self) -> str:
        return (f"{self.name}: median {self.median:,.0f}/s, IQR {self.low:,.0f}-{self.high:,.0f} "
                f"(min {min(self.rates):,.0f}, max {max(self.rates):,.0f})")


def repeat(run: Callable[[], Any], rounds: int) -> tuple[list[Spread], Any]:
    """Call ``run`` (a ``bench.run_bench`` call returning a ``BenchReport``) ``rounds`` times: each
    row's rates per round, in the report's order, and the last report (for its tables and plots).
    Every round's answers were checked by the bench; a wrong one raises ``AssertionError`` rather
    than give a rate to a wrong solver."""
    rates: dict[str, list[float]] = {}
    means: dict[str, Mapping[str, float]] = {}
    for _ in range(rounds):
        report = run()
        assert not report.wrong, f"{report.wrong} wrong answers"
        for summary in report.summaries:
            rates.setdefault(summary.solver, []).append(summary.per_cpu_second)
            means[summary.solver] = summary.means
    return [Spread(name, tuple(values), means[name]) for name, values in rates.items()], report


def tiers(spreads: Sequence[Spread]) -> list[list[Spread]]:
    """The rows from fastest to slowest (by median), grouped where their ranges overlap (chained).

    >>> a, b, c = Spread("a", (10, 12, 11), {}), Spread("b", (11, 13, 12), {}), Spread("c", (2, 3, 9), {})
    >>> [[s.name for s in tier] for tier in tiers([c, a, b])]
    [['b', 'a'], ['c']]
    """
    ordered = sorted(spreads, key=lambda s: s.median, reverse=True)
    grouped: list[list[Spread]] = []
    for spread in ordered:
        if grouped and any(spread.overlaps(other) for other in grouped[-1]):
            grouped[-1].append(spread)
        else:
            grouped.append([spread])
    return grouped


def verdict(spreads: Sequence[Spread], unit: str = "puzzles per CPU second") -> str:
    """The sentence the spread supports: the clear order of the tiers (interquartile ranges apart),
    "no clear winner" within one.

    >>> print(verdict([Spread("a", (10, 12), {}), Spread("b", (11, 13), {}), Spread("c", (2, 3), {})]))
    no clear winner between b and a (their interquartile ranges overlap); then c, slower (puzzles per CPU second)
    """
    parts = []
    for i, tier in enumerate(tiers(spreads)):
        names = [s.name for s in tier]
        if len(names) == 1:
            text = names[0] + (" is fastest" if i == 0 else ", slower")
        else:
            joined = ", ".join(names[:-1]) + " and " + names[-1]
            text = f"no clear winner between {joined} (their interquartile ranges overlap)"
        parts.append(text if i == 0 else f"then {text}")
    return "; ".join(parts) + f" ({unit})"
