"""The two pictures of the benchmark report, drawn to files with matplotlib.

- The **cactus plot** of the SAT competitions: for each solver, its solve times sorted ascending,
  so the curve at x = k shows how long the k-th easiest puzzle took; further right is more puzzles
  solved, lower is faster, and a curve that stops short ran out of time on the rest.
- The **scaling plot**: median (or mean) solve time against board size, one line per solver.

A study's pictures are in ``study_plots``, drawn with the figure, colours and file writing here.

matplotlib is imported only here and only when a plot is drawn: it is an optional dependency
(the ``bench`` extra). Figures are built with ``matplotlib.figure.Figure`` and the Agg canvas
rather than pyplot, so drawing a file never touches a global backend or leaks open figures.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..formats.outputs import OutputFile

_FLOOR = 1e-6  # seconds: a log axis cannot show 0


def require_matplotlib() -> None:
    """Fail early, in one line, when matplotlib is missing."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        from ..core.install import extra_hint

        raise UsageError(f"plots need matplotlib: {extra_hint('bench')}") from None


def new_figure(width: float, height: float) -> Any:
    require_matplotlib()
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


PLOT_SUFFIXES = (".png", ".svg", ".pdf")
"""The picture formats a plot may be written in, told by the file name's ending."""


def plot_output(path: str | Path) -> OutputFile:
    """The output file of a plot, checked (name, ending, directory) before any work is done."""
    return OutputFile(path, suffixes=PLOT_SUFFIXES, what="plot", binary=True)


def save_figure(figure: Any, path: str | Path) -> Path:
    """Draw to memory, then write the file whole (never half a picture, never a guessed ending); the
    figures of ``study_plots`` are written through it too."""
    import io

    out = plot_output(path)
    buffer = io.BytesIO()
    figure.savefig(buffer, dpi=120, format=out.path.suffix.lstrip(".").lower())
    with out:
        out.write(buffer.getvalue())
    return out.path


def colours(names: Sequence[str]) -> dict[str, Any]:
    """One colour per solver, the same in every panel."""
    from matplotlib import colormaps

    palette = colormaps["tab10"]
    return {name: palette(i % 10) for i, name in enumerate(names)}


def cactus_plot(
    series: Mapping[str, Mapping[str, Sequence[float]]],
    path: str | Path,
    *,
    totals: Mapping[str, int] | None = None,
    time_limit: float | Mapping[str, float] | None = None,
    cumulative: bool = False,
    counts: Mapping[str, Mapping[str, int]] | None = None,
    lines: str = "solver",
) -> Path:
    """Draw one cactus panel per dataset, one line per solver, log time axis, to ``path``.

    The arguments are those of ``cactus_figure``.
    """
    return save_figure(cactus_figure(series, totals=totals, time_limit=time_limit, cumulative=cumulative, counts=counts,
                               lines=lines), path)


def cactus_figure(
    series: Mapping[str, Mapping[str, Sequence[float]]],
    *,
    totals: Mapping[str, int] | None = None,
    time_limit: float | Mapping[str, float] | None = None,
    cumulative: bool = False,
    counts: Mapping[str, Mapping[str, int]] | None = None,
    lines: str = "solver",
) -> Any:
    """The cactus plot as a matplotlib ``Figure``: one panel per dataset, one line per solver.

    ``series`` maps dataset -> solver -> times of the puzzles it solved; ``totals`` (dataset ->
    puzzles run) sets the x range so a solver that fell short visibly stops short. ``time_limit``
    (one for all, or per dataset) is drawn as a dashed line. With ``cumulative`` the y axis is the
    total time to solve the first k puzzles instead. ``counts`` (``BenchReport.solved_counts``)
    gives the true number solved where ``series`` holds a sample at evenly spaced ranks. ``lines``
    names what a line stands for in the title ("configuration" for ``bench --configs``).
    """
    datasets = list(series)
    if not datasets:
        raise UsageError("nothing to plot: no dataset was run")
    solvers = list(dict.fromkeys(s for per in series.values() for s in per))
    colour = colours(solvers)
    columns = min(2, len(datasets))
    rows = math.ceil(len(datasets) / columns)
    figure = new_figure(6.0 * columns, 4.2 * rows)
    axes = figure.subplots(rows, columns, squeeze=False).ravel()
    for ax, dataset in zip(axes, datasets):
        for solver, times in series[dataset].items():
            ordered = sorted(max(t, _FLOOR) for t in times)
            if cumulative:
                running, ys = 0.0, []
                for t in ordered:
                    running += t
                    ys.append(running)
                ordered = ys
            solved = max(len(ordered), (counts or {}).get(dataset, {}).get(solver, 0))
            if cumulative and solved > len(ordered):  # each sampled time stands for solved/len puzzles
                ordered = [t * solved / len(ordered) for t in ordered]
            xs = (range(1, len(ordered) + 1) if solved == len(ordered)
                  else [1 + i * (solved - 1) / max(1, len(ordered) - 1) for i in range(len(ordered))])
            ax.plot(xs, ordered, label=f"{solver} ({solved:,})", color=colour[solver],
                    marker="." if len(ordered) < 30 else None, linewidth=1.6)
        limit = time_limit.get(dataset) if isinstance(time_limit, Mapping) else time_limit
        if limit is not None and not cumulative:
            ax.axhline(limit, color="grey", linestyle="--", linewidth=0.8, label=f"time limit {limit:g} s")
        total = (totals or {}).get(dataset)
        if total:
            ax.set_xlim(0, total * 1.02)
        ax.set_yscale("log")
        ax.set_title(dataset + (f" ({total:,} puzzles)" if total else ""))
        ax.set_xlabel("puzzles solved")
        ax.set_ylabel("cumulative seconds" if cumulative else "seconds per puzzle (sorted)")
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(fontsize="small")
    for ax in axes[len(datasets):]:
        ax.set_visible(False)
    what = "cumulative time" if cumulative else "time per puzzle"
    # two short lines: one line of text was wider than a one-panel figure and lost both ends
    figure.suptitle(f"Cactus plot: puzzles solved against {what}\none line per {lines} (lower and longer is better)")
    return figure


@dataclass(frozen=True)
class ScalingPoint:
    """One solver on the puzzles of one board size."""

    solver: str
    n: int
    puzzles: int
    solved: int
    timed_out: int
    median: float
    mean: float


def scaling_plot(
    points: Sequence[ScalingPoint],
    path: str | Path,
    *,
    statistic: str = "median",
    time_limit: float | None = None,
    title: str | None = None,
) -> Path:
    """Draw solve time (``median`` or ``mean``) against board size, one line per solver, log y.

    A point where some puzzles timed out is drawn hollow and labelled: its time is a lower bound.
    """
    if statistic not in ("median", "mean"):
        raise UsageError(f"statistic must be median or mean, not '{statistic}'")
    if not points:
        raise UsageError("nothing to plot: no scaling point")
    solvers = list(dict.fromkeys(p.solver for p in points))
    colour = colours(solvers)
    figure = new_figure(7.5, 4.8)
    ax = figure.add_subplot()
    for rank, solver in enumerate(solvers):
        mine = sorted((p for p in points if p.solver == solver), key=lambda p: p.n)
        xs = [p.n for p in mine]
        ys = [max(getattr(p, statistic), _FLOOR) for p in mine]
        ax.plot(xs, ys, color=colour[solver], label=solver, linewidth=1.6)
        for p, y in zip(mine, ys):
            hollow = p.timed_out > 0
            ax.plot([p.n], [y], marker="o", color=colour[solver],
                    markerfacecolor="white" if hollow else colour[solver])
            if hollow:
                ax.annotate(f"{p.timed_out}/{p.puzzles} t/o", (p.n, y), textcoords="offset points",
                            xytext=(5, 4 - 9 * rank), fontsize="x-small", color=colour[solver])  # no overlap
    if time_limit is not None:
        ax.axhline(time_limit, color="grey", linestyle="--", linewidth=0.8, label="time limit")
    sizes = sorted({p.n for p in points})
    ax.set_xticks(sizes, [f"{n}x{n}" for n in sizes], rotation=45 if len(sizes) > 6 else 0)
    ax.set_yscale("log")
    ax.margins(x=0.08)
    ax.set_xlabel("board size")
    ax.set_ylabel(f"{statistic} seconds per puzzle")
    ax.set_title(title or f"Scaling: {statistic} solve time by board size")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize="small")
    return save_figure(figure, path)
