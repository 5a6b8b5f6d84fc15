"""The pictures of a study, drawn to files with matplotlib: per-instance scatter plots, survival curves,
and time or effort against the swept parameter.

- **Scatter**: one point per instance, A's score on x and B's on y, log axes; above the diagonal A
  is faster; a time-out (PAR-2) is drawn on the border, beyond a dashed line at the limit, as SAT
  competition reports draw them.
- **Survival**: the share of runs decided within t seconds against t (log x), a line per
  configuration, a panel per series, the time limit dashed; a long flat stretch is a heavy tail.
- **Parameter**: the median over a point's instances against the swept parameter, its quartiles
  as a band; time a panel per series, effort a panel per configuration (each in its own unit).

The figures take plain values (the analysis's ``Score`` and ``Summary``), so this module knows no
study; it draws through ``plots``' figure, colours and file writing. docs/study.md ("The figures").
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .plots import colours, new_figure, save_figure

_FLOOR = 1e-6


def _grid(count: int, width: float = 5.0, height: float = 4.0) -> tuple[Any, list[Any]]:
    columns = min(3, count)
    rows = math.ceil(count / columns)
    figure = new_figure(width * columns, height * rows)
    axes = list(figure.subplots(rows, columns, squeeze=False).ravel())
    for ax in axes[count:]:
        ax.set_visible(False)
    return figure, axes[:count]


def scatter_plot(panels: Sequence[tuple[str, str, Sequence[tuple[float, float, str]]]], time_limit: float,
                 path: str | Path) -> Path:
    """One panel per pair (A, B, [(A's score, B's score, series), ...]), log axes, time-outs on the border."""
    figure, axes = _grid(len(panels), 4.6, 4.4)
    series = list(dict.fromkeys(s for _, _, points in panels for _, _, s in points))
    colour = colours(series)
    border = time_limit * 1.6
    for ax, (a, b, points) in zip(axes, panels):
        low = max(_FLOOR, min([min(x, y) for x, y, _ in points] + [time_limit]) / 2)
        for name in series:
            mine = [(x, y) for x, y, s in points if s == name]
            if mine:
                xs = [min(max(x, _FLOOR), border) if x <= time_limit else border for x, _ in mine]
                ys = [min(max(y, _FLOOR), border) if y <= time_limit else border for _, y in mine]
                ax.scatter(xs, ys, s=18, color=colour[name], label=name, alpha=0.8, edgecolors="none")
        ax.plot([low, border], [low, border], color="grey", linewidth=0.8)
        for line in (ax.axvline, ax.axhline):
            line(time_limit, color="grey", linestyle="--", linewidth=0.8)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlim(low, border * 1.25)
        ax.set_ylim(low, border * 1.25)
        ax.set_xlabel(f"{a}: seconds")
        ax.set_ylabel(f"{b}: seconds")
        ax.set_title(f"{b} against {a}", fontsize="medium")
        ax.text(border, low * 1.1, "time-out", rotation=90, fontsize="x-small", ha="center", va="bottom",
                color="grey")
        ax.grid(True, which="major", alpha=0.3)
        if len(series) > 1:
            ax.legend(fontsize="x-small")
    # short lines: a one-panel figure is narrow, and a long title loses both ends
    figure.suptitle("Per-instance time (PAR-2), a point per instance\nabove the diagonal: the x solver is faster\n"
                    f"time-outs on the border (limit {time_limit:g} s)", fontsize="medium")
    return save_figure(figure, path)


def survival_plot(series: Mapping[str, Mapping[str, tuple[Sequence[float], int]]], time_limit: float,
                  path: str | Path) -> Path:
    """series -> configuration -> (decided runs' times, runs): the share decided within t, one panel a series."""
    figure, axes = _grid(len(series))
    solvers = list(dict.fromkeys(s for per in series.values() for s in per))
    colour = colours(solvers)
    for ax, (name, per_solver) in zip(axes, series.items()):
        for solver, (times, total) in per_solver.items():
            ordered = sorted(max(t, _FLOOR) for t in times)
            xs = [ordered[0] if ordered else time_limit, *ordered, time_limit]
            ys = [0.0, *[(i + 1) / total for i in range(len(ordered))], len(ordered) / total]
            ax.step(xs, ys, where="post", color=colour[solver], label=f"{solver} ({len(ordered)}/{total})",
                    linewidth=1.5)
        ax.axvline(time_limit, color="grey", linestyle="--", linewidth=0.8)
        ax.set_xscale("log")
        ax.set_ylim(0, 1.02)
        ax.set_xlabel("seconds")
        ax.set_ylabel("share of runs decided")
        ax.set_title(name, fontsize="medium")
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(fontsize="x-small", loc="lower right")
    figure.suptitle(f"Survival: share of runs decided within t seconds\n(time limit {time_limit:g} s)",
                    fontsize="medium")
    return save_figure(figure, path)


Line = tuple[str, Sequence[tuple[Any, float, float, float]]]
"""A line's name and its points: (parameter value, median, lower quartile, upper quartile)."""


def parameter_plot(panels: Sequence[tuple[str, str, Sequence[Line]]], axis_label: str, title: str,
                   path: str | Path, *, time_limit: float | None = None, counts: bool = False) -> Path:
    """One panel per (title, y label, lines): each line's median against the parameter, its quartiles a band.

    Times on a log axis; ``counts`` (effort, which is often 0 on easy instances) on a symmetric log
    axis, linear below 1. Categorical parameter values (rule sets, sets) are placed in the order first met."""
    figure, axes = _grid(len(panels))
    names = list(dict.fromkeys(name for _, _, lines in panels for name, _ in lines))
    colour = colours(names)
    values = list(dict.fromkeys(v for _, _, lines in panels for _, points in lines for v, *_ in points))
    numeric = all(isinstance(v, (int, float)) for v in values)
    position = {v: (v if numeric else i) for i, v in enumerate(values)}
    for ax, (panel, ylabel, lines) in zip(axes, panels):
        for name, points in lines:
            ordered = sorted(points, key=lambda p: position[p[0]])
            xs = [position[v] for v, *_ in ordered]
            floor = -math.inf if counts else _FLOOR
            ax.plot(xs, [max(m, floor) for _, m, _, _ in ordered], color=colour[name], marker="o", markersize=3,
                    label=name, linewidth=1.5)
            ax.fill_between(xs, [max(lo, floor) for _, _, lo, _ in ordered], [max(hi, floor) for *_, hi in ordered],
                            color=colour[name], alpha=0.15, linewidth=0)
        if time_limit is not None:
            ax.axhline(time_limit, color="grey", linestyle="--", linewidth=0.8)
        if counts:
            ax.set_yscale("symlog", linthresh=1)
            ax.set_ylim(bottom=0)
        else:
            ax.set_yscale("log")
        if not numeric:
            ax.set_xticks(range(len(values)), [str(v) for v in values], rotation=30)
        ax.set_xlabel(axis_label)
        ax.set_ylabel(ylabel)
        ax.set_title(panel, fontsize="medium")
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(fontsize="x-small")
    figure.suptitle(title, fontsize="medium")
    return save_figure(figure, path)
