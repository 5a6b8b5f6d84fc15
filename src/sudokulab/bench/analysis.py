"""What a study's runs say: each instance's score, PAR-2, survival, paired comparisons, the hardness peak.

The vocabulary of the SAT competitions and of CP papers, computed from the rows of ``runs.jsonl``
alone, so a reader can recompute every figure from the data (the tests do, by other code): a run
is **decided** when its checked answer came within the time limit; its **PAR-2** score is its time
when decided, else twice the limit; an instance's **score** and **effort** are medians over its
repeats; a point's **summary** gives quartiles of both; **survival** is the share of runs decided
within t seconds; the **paired comparison** of two configurations is the geometric mean of their
score ratios with a bootstrap interval (``BOOTSTRAP``, a fixed seed) and the Wilcoxon signed-rank
test; the **easy-hard-easy peak** is where a median effort is highest inside the sweep, both ends
at most ``PEAK_RATIO`` below it.

Each figure precisely: docs/study.md ("The figures").
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .families import NUMERIC, Point
from .results import quantile
from .study import DECIDED, SKIPPED, effort_of

BOOTSTRAP = 10_000
"""Resamples of the instances for a ratio's confidence interval."""
BOOTSTRAP_SEED = 2580
CONFIDENCE = 0.95
PEAK_RATIO = 2.0
"""How many times the peak's figure must exceed both ends of the sweep to be called a peak."""
SIGNIFICANCE = 0.05


def decided(row: dict[str, Any]) -> bool:
    """A checked answer within the time limit."""
    return (row["status"] in DECIDED and row.get("valid") is not False and row["seconds"] is not None
            and row["seconds"] <= row["time_limit"])


def wrong(row: dict[str, Any]) -> bool:
    return row.get("valid") is False or row["status"] == "error"


def par2(row: dict[str, Any]) -> float:
    """The run's time when decided, else twice its time limit."""
    return float(row["seconds"]) if decided(row) else 2.0 * float(row["time_limit"])


@dataclass(frozen=True)
class Score:
    """One configuration on one instance, over its repeats."""

    instance: str
    solver: str
    point: Point
    par2: float
    decided: bool
    runs: int
    wrong: int
    effort: float | None
    effort_key: str | None


def scores(rows: Iterable[dict[str, Any]]) -> list[Score]:
    """Each (instance, configuration)'s score, in the order the rows first name them (skipped runs left out)."""
    grouped: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in rows:
        if row["status"] != SKIPPED:
            grouped.setdefault((row["instance"], row["solver"]), []).append(row)
    out = []
    for (instance, solver), runs in grouped.items():
        penalised = sorted(par2(row) for row in runs)
        middle = quantile(penalised, 0.5)
        limit = float(runs[0]["time_limit"])
        efforts = [effort for effort in map(effort_of, runs) if effort is not None]
        key = efforts[0][0] if efforts else None
        values = sorted(value for name, value in efforts if name == key)
        out.append(Score(instance, solver, Point.of_row(runs[0]), middle, middle <= limit, len(runs),
                         sum(map(wrong, runs)), quantile(values, 0.5) if values else None, key))
    return out


@dataclass(frozen=True)
class Summary:
    """One configuration at one point of the sweep."""

    series: str
    value: Any
    solver: str
    instances: int
    decided: int
    wrong: int
    par2: float
    """Mean PAR-2 over the point's instances."""
    median: float
    q1: float
    q3: float
    effort_key: str | None
    effort_median: float | None
    effort_q1: float | None
    effort_q3: float | None

    def document(self) -> dict[str, Any]:
        return {"series": self.series, "value": self.value, "solver": self.solver, "instances": self.instances,
                "decided": self.decided, "wrong": self.wrong, "par2": _number(self.par2),
                "median": _number(self.median), "q1": _number(self.q1), "q3": _number(self.q3),
                "effort": self.effort_key, "effort_median": _number(self.effort_median),
                "effort_q1": _number(self.effort_q1), "effort_q3": _number(self.effort_q3)}


def summaries(all_scores: Sequence[Score], axis: str) -> list[Summary]:
    """Each (series, point, configuration), in the order of the scores."""
    grouped: dict[tuple[str, Any, str], list[Score]] = {}
    for score in all_scores:
        grouped.setdefault((score.point.series(axis), score.point.value(axis), score.solver), []).append(score)
    out = []
    for (series, value, solver), group in grouped.items():
        times = sorted(s.par2 for s in group)
        efforts = sorted(s.effort for s in group if s.effort is not None)
        key = next((s.effort_key for s in group if s.effort_key), None)
        out.append(Summary(series, value, solver, len(group), sum(s.decided for s in group),
                           sum(s.wrong for s in group), math.fsum(times) / len(times), quantile(times, 0.5),
                           quantile(times, 0.25), quantile(times, 0.75), key,
                           quantile(efforts, 0.5) if efforts else None, quantile(efforts, 0.25) if efforts else None,
                           quantile(efforts, 0.75) if efforts else None))
    return out


@dataclass(frozen=True)
class Overall:
    """One configuration over every instance of the study."""

    solver: str
    instances: int
    decided: int
    wrong: int
    par2: float

    def document(self) -> dict[str, Any]:
        return {"solver": self.solver, "instances": self.instances, "decided": self.decided, "wrong": self.wrong,
                "par2": _number(self.par2)}


def overall(all_scores: Sequence[Score]) -> list[Overall]:
    grouped: dict[str, list[Score]] = {}
    for score in all_scores:
        grouped.setdefault(score.solver, []).append(score)
    return [Overall(solver, len(group), sum(s.decided for s in group), sum(s.wrong for s in group),
                    math.fsum(s.par2 for s in group) / len(group)) for solver, group in grouped.items()]


def survival(rows: Iterable[dict[str, Any]], axis: str) -> dict[str, dict[str, tuple[list[float], int]]]:
    """series -> configuration -> (the decided runs' times, ascending; the runs made)."""
    out: dict[str, dict[str, tuple[list[float], int]]] = {}
    for row in rows:
        if row["status"] == SKIPPED:
            continue
        times, total = out.setdefault(Point.of_row(row).series(axis), {}).get(row["solver"], ([], 0))
        if decided(row):
            times.append(float(row["seconds"]))
        out[Point.of_row(row).series(axis)][row["solver"]] = (times, total + 1)
    for per_solver in out.values():
        for times, _ in per_solver.values():
            times.sort()
    return out


@dataclass(frozen=True)
class Paired:
    """Configuration B against A on the instances both ran, in one series (or ``all``)."""

    series: str
    a: str
    b: str
    instances: int
    a_wins: int
    b_wins: int
    ties: int
    median_ratio: float
    geometric_ratio: float
    """The geometric mean of B's score over A's: above 1, A is faster."""
    low: float
    high: float
    """The 95% bootstrap interval of ``geometric_ratio``."""
    statistic: float | None
    p_value: float | None
    """Wilcoxon signed-rank, two-sided; None with no pair that differs."""
    method: str
    pairs: tuple[tuple[float, float], ...] = field(repr=False, default=())

    @property
    def significant(self) -> bool:
        return self.p_value is not None and self.p_value < SIGNIFICANCE

    def sentence(self) -> str:
        """What the comparison supports, in words computed from its numbers: which configuration takes
        how many times the other's time (geometric mean and interval), and whether the test says so."""
        slow, fast, ratio, low, high = ((self.b, self.a, self.geometric_ratio, self.low, self.high)
                                        if self.geometric_ratio >= 1 else
                                        (self.a, self.b, 1 / self.geometric_ratio, 1 / self.high, 1 / self.low))
        size = f"{slow} takes {ratio:.3g}x {fast}'s time (geometric mean, 95% CI {low:.3g}-{high:.3g})"
        test = "no pair differs" if self.p_value is None else f"Wilcoxon p = {self.p_value:.2g}, n = {self.instances}"
        if not self.significant:
            return f"{self.a} vs {self.b}: no significant difference; {size}; {test}"
        return f"{fast} is faster than {slow} on these instances: {size}; {test}"

    def document(self) -> dict[str, Any]:
        return {"series": self.series, "a": self.a, "b": self.b, "instances": self.instances, "a_wins": self.a_wins,
                "b_wins": self.b_wins, "ties": self.ties, "median_ratio": _number(self.median_ratio),
                "geometric_ratio": _number(self.geometric_ratio), "low": _number(self.low),
                "high": _number(self.high), "statistic": _number(self.statistic), "p_value": _number(self.p_value),
                "method": self.method, "sentence": self.sentence()}


def pairs_of(solvers: Sequence[str]) -> list[tuple[str, str]]:
    """Which configurations are compared: every pair up to four of them, else each against the first."""
    if len(solvers) <= 4:
        return [(a, b) for i, a in enumerate(solvers) for b in solvers[i + 1:]]
    return [(solvers[0], b) for b in solvers[1:]]


def paired(all_scores: Sequence[Score], axis: str, solvers: Sequence[str]) -> list[Paired]:
    """Each pair of ``pairs_of(solvers)`` in each series, then over all instances (series ``all``)."""
    by_instance: dict[str, dict[str, Score]] = {}
    for score in all_scores:
        by_instance.setdefault(score.instance, {})[score.solver] = score
    series_of = {score.instance: score.point.series(axis) for score in all_scores}
    names = list(dict.fromkeys(series_of.values()))
    out = []
    for a, b in pairs_of(solvers):
        for series in [*names, "all"] if len(names) > 1 else ["all"]:
            pairs = tuple((mine[a].par2, mine[b].par2) for instance, mine in by_instance.items()
                          if a in mine and b in mine and (series == "all" or series_of[instance] == series))
            if pairs:
                out.append(compare_pairs(series, a, b, pairs))
    return out


def compare_pairs(series: str, a: str, b: str, pairs: Sequence[tuple[float, float]]) -> Paired:
    """The paired comparison of scores (A's, B's) per instance (see the module docstring)."""
    import numpy as np

    logs = np.log(np.array([y for _, y in pairs])) - np.log(np.array([x for x, _ in pairs]))
    ratios = sorted(float(y / x) for x, y in pairs)
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    means = logs[rng.integers(0, len(logs), size=(BOOTSTRAP, len(logs)))].mean(axis=1)
    tail = (1 - CONFIDENCE) / 2
    low, high = (float(math.exp(v)) for v in np.quantile(means, [tail, 1 - tail]))
    statistic, p_value, method = wilcoxon(logs.tolist())
    return Paired(series, a, b, len(pairs), sum(y > x for x, y in pairs), sum(x > y for x, y in pairs),
                  sum(x == y for x, y in pairs), quantile(ratios, 0.5), float(math.exp(logs.mean())), low, high,
                  statistic, p_value, method, tuple(pairs))


EXACT_UP_TO = 50
"""Pairs up to which the Wilcoxon test is exact (when no two differences tie)."""


def wilcoxon(differences: Sequence[float]) -> tuple[float | None, float | None, str]:
    """The Wilcoxon signed-rank test of differences against 0, two-sided: (W, p, method); zeros dropped.

    W is the smaller of the rank sums of the positive and the negative differences.

    >>> wilcoxon([0.5, 1.2, -0.1, 2.0, 0.7])
    (1.0, 0.125, 'exact')
    """
    import warnings

    from scipy import stats

    nonzero = [d for d in differences if abs(d) > 1e-12]
    if not nonzero:
        return None, None, "none"
    tied = len({round(abs(d), 12) for d in nonzero}) < len(nonzero)
    method = "exact" if len(nonzero) <= EXACT_UP_TO and not tied else "approx"
    with warnings.catch_warnings():  # "sample size too small for normal approximation": the p-value says so
        warnings.simplefilter("ignore")
        result = stats.wilcoxon(nonzero, zero_method="wilcox", alternative="two-sided", method=method)
    return float(result.statistic), float(min(1.0, result.pvalue)), method


@dataclass(frozen=True)
class Peak:
    """Where one configuration's hardness peaks along the axis, in one series, or that it does not."""

    series: str
    solver: str
    measure: str
    """``effort:<key>`` (the median effort) or ``par2`` (the median score)."""
    at: Any
    height: float
    first: float
    last: float
    found: bool

    def sentence(self) -> str:
        unit = self.measure.split(":", 1)[-1]
        if self.found:
            return (f"{self.series}, {self.solver}: peak at {self.at} (median {unit} {self.height:,.4g}; "
                    f"{self.first:,.4g} and {self.last:,.4g} at the ends)")
        return f"{self.series}, {self.solver}: no peak inside the sweep (highest at {self.at})"

    def document(self) -> dict[str, Any]:
        return {"series": self.series, "solver": self.solver, "measure": self.measure, "at": self.at,
                "height": _number(self.height), "first": _number(self.first), "last": _number(self.last),
                "found": self.found, "sentence": self.sentence()}


def peaks(points: Sequence[Summary], axis: str) -> list[Peak]:
    """The easy-hard-easy peak of each (series, configuration) along a numeric axis of 3 values or more."""
    if axis not in NUMERIC:
        return []
    grouped: dict[tuple[str, str], list[Summary]] = {}
    for summary in points:
        grouped.setdefault((summary.series, summary.solver), []).append(summary)
    out = []
    for (series, solver), line in grouped.items():
        line = sorted(line, key=lambda s: s.value)
        if len(line) < 3:
            continue
        by_effort = all(s.effort_median is not None for s in line)
        heights = [float(s.effort_median if by_effort else s.median) for s in line]  # type: ignore[arg-type]
        top = max(range(len(line)), key=heights.__getitem__)
        found = (0 < top < len(line) - 1 and heights[0] * PEAK_RATIO <= heights[top]
                 and heights[-1] * PEAK_RATIO <= heights[top])
        measure = f"effort:{line[0].effort_key}" if by_effort else "par2"
        out.append(Peak(series, solver, measure, line[top].value, heights[top], heights[0], heights[-1], found))
    return out


def _number(value: float | None) -> float | None:
    return None if value is None or not math.isfinite(value) else round(float(value), 9)
