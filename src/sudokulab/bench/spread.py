"""Repeated bench runs and the conclusions their spread supports, so a lesson's sentence holds run to run.

``bench --runs K`` reports each row's rates over the K runs as hyperfine reports times: mean ± σ,
median, min … max, "A is N.N ± s× faster than B" (``faster``, paired by run) and a warning for a
run far from the others (``Spread.outliers``). One timed run ranks solvers by noise as much as by
speed, so ``repeat`` runs the same bench several times and keeps each row's rate per round in
puzzles per CPU second (other work stretches wall time far more than CPU time). Rows are compared
round by round, since a round's load weighs on all its rows alike: ``clearly_faster`` asks that
the lower quartile of the ratios be above ``MARGIN`` (one disturbed round neither makes nor breaks
a conclusion); ``tiers`` groups the rows no such margin separates, and ``verdict`` says "no clear
winner" within a tier, in a sentence computed from the numbers. docs/bench.md.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["MARGIN", "OUTLIER_SCORE", "Spread", "clearly_faster", "faster", "paired_ratio", "repeat", "tiers",
           "verdict"]

OUTLIER_SCORE = 10.0
"""A round is an outlier past this modified z-score (``Spread.outliers``): ten median absolute deviations,
as hyperfine warns (its threshold, 14.826 unscaled deviations). Iglewicz and Hoaglin's 3.5 suits large
samples; over five runs on a shared machine it would call half of them outliers."""


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

    @property
    def mean(self) -> float:
        return statistics.fmean(self.rates)

    @property
    def stdev(self) -> float:
        """The sample standard deviation of the rates (0 for one round)."""
        return statistics.stdev(self.rates) if len(self.rates) > 1 else 0.0

    def outliers(self, threshold: float = OUTLIER_SCORE) -> tuple[int, ...]:
        """The rounds (0-based) whose rate lies far from the others: a modified z-score (the distance from
        the median in median absolute deviations, scaled to a normal distribution's) above ``threshold``
        (``OUTLIER_SCORE``). A round another process slowed, or one that paid for a cold cache.

        >>> Spread("a", (100, 101, 99, 100, 60), {}).outliers()
        (4,)
        >>> Spread("a", (100, 104, 97, 101, 108), {}).outliers()  # a shared machine's usual spread
        ()
        """
        if len(self.rates) < 3:
            return ()
        middle = statistics.median(self.rates)
        spread = statistics.median(abs(rate - middle) for rate in self.rates)
        if spread == 0:
            return tuple(i for i, rate in enumerate(self.rates) if rate != middle)
        return tuple(i for i, rate in enumerate(self.rates) if 0.6745 * abs(rate - middle) / spread > threshold)

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


def faster(a: Spread, b: Spread) -> tuple[float, float]:
    """How many times ``a``'s rate is ``b``'s, round by round: the mean of the per-round ratios and their
    standard deviation, as hyperfine reports "A ran N.N ± s times faster than B" (paired: a round's
    load weighs on both alike).

    >>> faster(Spread("a", (20, 40, 22), {}), Spread("b", (10, 20, 11), {}))
    (2.0, 0.0)
    """
    ratios = [x / y for x, y in zip(a.rates, b.rates)]
    return statistics.fmean(ratios), statistics.stdev(ratios) if len(ratios) > 1 else 0.0


MARGIN = 1.1
"""How much faster, round by round, a row must be to be called faster: 10%."""


def _lower_quartile(values: Sequence[float]) -> float:
    return statistics.quantiles(values, n=4, method="inclusive")[0] if len(values) > 1 else values[0]


def clearly_faster(a: Spread, b: Spread, margin: float = MARGIN) -> bool:
    """Whether ``a`` beats ``b`` round by round: the lower quartile of the per-round ratios of their
    rates is above ``margin``. Paired, since a round's load weighs on every row of that round alike.

    >>> clearly_faster(Spread("a", (12, 24, 13), {}), Spread("b", (10, 20, 11), {}))
    True
    >>> clearly_faster(Spread("a", (12, 24, 10), {}), Spread("b", (10, 20, 11), {}))
    False
    """
    return _lower_quartile([x / y for x, y in zip(a.rates, b.rates)]) > margin


def paired_ratio(a: Spread, b: Spread) -> tuple[float, float, float]:
    """How many times ``a``'s rate is ``b``'s, round by round: the median ratio and its quartiles.

    >>> paired_ratio(Spread("a", (20, 40, 22), {}), Spread("b", (10, 20, 11), {}))
    (2.0, 2.0, 2.0)
    """
    ratios = [x / y for x, y in zip(a.rates, b.rates)]
    if len(ratios) == 1:
        return ratios[0], ratios[0], ratios[0]
    low, _, high = statistics.quantiles(ratios, n=4, method="inclusive")
    return statistics.median(ratios), low, high


def tiers(spreads: Sequence[Spread], margin: float = MARGIN) -> list[list[Spread]]:
    """The rows from fastest to slowest (by median), a row joining the tier above unless every row of
    that tier is ``clearly_faster`` than it.

    >>> a, b, c = Spread("a", (10, 12, 11), {}), Spread("b", (11, 13, 12), {}), Spread("c", (2, 3, 9), {})
    >>> [[s.name for s in tier] for tier in tiers([c, a, b])]
    [['b', 'a'], ['c']]
    """
    ordered = sorted(spreads, key=lambda s: s.median, reverse=True)
    grouped: list[list[Spread]] = []
    for spread in ordered:
        if grouped and not all(clearly_faster(other, spread, margin) for other in grouped[-1]):
            grouped[-1].append(spread)
        else:
            grouped.append([spread])
    return grouped


def verdict(spreads: Sequence[Spread], unit: str = "puzzles per CPU second") -> str:
    """The sentence the rounds support: the order of the tiers, "no clear winner" within one.

    >>> print(verdict([Spread("a", (10, 12), {}), Spread("b", (11, 13), {}), Spread("c", (2, 3), {})]))
    no clear winner between b and a; then c, slower in most rounds (puzzles per CPU second, paired by round)
    """
    parts = []
    for i, tier in enumerate(tiers(spreads)):
        names = [s.name for s in tier]
        if len(names) == 1:
            text = names[0] + (" is fastest in most rounds" if i == 0 else ", slower in most rounds")
        else:
            text = f"no clear winner between {', '.join(names[:-1])} and {names[-1]}"
        parts.append(text if i == 0 else f"then {text}")
    return "; ".join(parts) + f" ({unit}, paired by round)"
