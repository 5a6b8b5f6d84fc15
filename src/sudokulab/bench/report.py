"""What ``bench`` prints for a person: its summary tables, a run of several ``--runs`` side by side,
and the Markdown report the benchmarks write (``benchmarks/results``).

A module of its own because it is ``bench``'s alone: the summary's columns, which of them a narrow
terminal drops first, and the aggregate rate of a run on several processes. The other commands'
text is in ``render``, whose table and cell helpers (``ui.tables``) these share.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ..ui.console import as_text
from ..ui.tables import (
    MODEL_SIZE,
    MODEL_SIZE_HEADER,
    Column,
    effort,
    format_seconds,
    model_size,
    print_table,
    puzzles_word,
)

if TYPE_CHECKING:
    from rich.console import Console

    from .run import BenchReport, BenchSummary


def _bench_headers(show_no_solution: bool, wide: bool, sized: bool = False, effort_column: bool = True,
                   together: str | None = None) -> list[str]:
    """The summary's columns; a run of configurations (``sized``) adds the model size, and when not
    wide leaves p90 and max to ``--wide``, since its rows' names are long. ``together`` names the
    aggregate rate's column of a run on several processes (``parallel_header``)."""
    spread = ["median", "p90", "p99", "max"] if wide or not sized else ["median"]
    return (["configuration" if sized else "solver", "solved"] + (["no sol."] if show_no_solution else [])
            + ["t/o", "wrong", "puzzles/s"] + ([together] if together else [])
            + (["puzzles/cpu-s"] if wide or not sized else []) + spread
            + ([MODEL_SIZE_HEADER] if sized and effort_column else [])
            + (["mean effort per puzzle"] if effort_column else []))


def _bench_cells(summary: BenchSummary, show_no_solution: bool, wide: bool, sized: bool = False,
                 effort_column: bool = True, together: bool = False) -> list[str]:
    cells = [summary.solver, f"{summary.solved}/{summary.puzzles}"]
    if show_no_solution:
        cells.append(str(summary.no_solution))
    cells += [str(summary.timed_out), str(summary.wrong), f"{summary.per_second:,.1f}"]
    if together:
        rate = summary.per_wall_second
        cells.append("?" if rate is None else f"{rate:,.1f}")
    if wide or not sized:
        cells.append(f"{summary.per_cpu_second:,.1f}")
    cells.append(format_seconds(summary.median))
    if wide or not sized:
        cells += [format_seconds(summary.p90), format_seconds(summary.p99), format_seconds(summary.max)]
    if sized and effort_column:
        cells.append(model_size(summary.means))
    if effort_column:
        cells.append(_effort_only(summary.means) if sized else effort(summary.means))
    return cells


def _effort_only(means: Mapping[str, float]) -> str:
    return effort({k: v for k, v in means.items() if k not in MODEL_SIZE})


def _bench_title(report: BenchReport, dataset: str) -> str:
    bad = report.bad.get(dataset, 0)
    from .run import entries_word

    skipped = f", {entries_word(bad)} skipped" if bad else ""
    return f"{dataset}: {puzzles_word(report.totals.get(dataset, 0))}{skipped}"


def _by_dataset(report: BenchReport) -> dict[str, list[BenchSummary]]:
    grouped: dict[str, list[BenchSummary]] = {}
    for summary in report.summaries:
        grouped.setdefault(summary.dataset, []).append(summary)
    return grouped


BENCH_KEPT = {"puzzles/s"}
"""The rate a bench table is for: shown at every width, the other columns left out before it."""
BENCH_DROPS = {"puzzles/cpu-s": 1, "p99": 2, "p90": 3, "max": 4, "median": 5, "mean effort per puzzle": 6, "t/o": 7}
"""The columns of bench's table left out, in this order, on a terminal too narrow for them."""
BENCH_FIGURE_WIDTHS = {"puzzles/s": 9, "puzzles/cpu-s": 9, "median": 7, "p90": 7, "p99": 7, "max": 7}
"""The widths bench's figures are counted at (``Column.least``): "123,456.7" puzzles/s, "99.9 ms"."""


def parallel_header(report: BenchReport) -> str | None:
    """The aggregate rate's column (puzzles per second of the run's wall clock, every process at once)
    of a run on several processes, named by how many: None for a run in one process."""
    if not report.parallel:
        return None
    return f"puzzles/s, {report.jobs} jobs" if report.jobs > 1 else "puzzles/s, cluster"


def render_bench(report: BenchReport, out: Console, *, wide: bool = False) -> None:
    """The summary tables (one per dataset, fitted by ``print_table``) and how the figures were measured."""
    together = parallel_header(report)
    for dataset, summaries in _by_dataset(report).items():
        show_none = any(s.no_solution for s in summaries)
        sized = report.configured  # configurations: rates, then a second table of model size and effort
        headers = _bench_headers(show_none, wide, sized, effort_column=not sized, together=together)
        last = len(headers) - 1
        columns = [Column(header, "left" if i == 0 or (i == last and not sized) else "right",
                          wrap=i == 0 if sized else i == last, drop=BENCH_DROPS.get(header, 0),
                          least=BENCH_FIGURE_WIDTHS.get(header.split(",")[0], 0), keep=header in BENCH_KEPT)
                   for i, header in enumerate(headers)]
        print_table(out, columns, [_bench_cells(s, show_none, wide, sized, effort_column=not sized,
                                                together=together is not None) for s in summaries],
                    title=_bench_title(report, dataset), styles=["bold red" if s.wrong else None for s in summaries],
                    wide=wide)
        if sized:
            print_table(out, [Column("configuration", wrap=True), Column("model size"),
                              Column("search effort", wrap=True)],
                        [[s.solver, model_size(s.means), _effort_only(s.means)] for s in summaries],
                        title=f"{dataset}: model size and effort, mean per puzzle", wide=wide)
    for note in report.notes:
        out.print(as_text(f"note: {note}"))
    out.print(as_text(f"measured: {report.how_measured()}"))


def render_runs(reports: Sequence[BenchReport], warmup: int, out: Console) -> None:
    """``bench --runs K``: each solver's rate over the K runs, and how many times faster each is than the
    next one down, paired run by run (a run's load weighs on every solver of that run alike)."""
    from .spread import Spread, paired_ratio, verdict

    datasets = dict.fromkeys(s.dataset for report in reports for s in report.summaries)
    for dataset in datasets:
        rates: dict[str, list[float]] = {}
        for report in reports:
            for summary in report.summaries:
                if summary.dataset == dataset:
                    rates.setdefault(summary.solver, []).append(summary.per_cpu_second)
        spreads = sorted((Spread(name, tuple(values), {}) for name, values in rates.items()
                          if len(values) == len(reports)), key=lambda spread: spread.median, reverse=True)
        print_table(out, [Column("solver"), Column("median", "right"), Column("quartiles", "right"),
                          Column("min .. max", "right", drop=1)],
                    [[spread.name, f"{spread.median:,.1f}", f"{spread.low:,.1f} .. {spread.high:,.1f}",
                      f"{min(spread.rates):,.1f} .. {max(spread.rates):,.1f}"] for spread in spreads],
                    title=f"{dataset}: puzzles/cpu-s over {len(reports)} runs"
                          + (f", after {warmup} warm-up run{'s' if warmup > 1 else ''}" if warmup else ""))
        for faster, slower in zip(spreads, spreads[1:]):
            middle, low, high = paired_ratio(faster, slower)
            out.print(as_text(f"{faster.name} is {middle:.2f}x as fast as {slower.name} (run by run: "
                              f"{low:.2f}x .. {high:.2f}x, quartiles)"))
        if len(spreads) > 1:
            out.print(as_text(verdict(spreads)))


def bench_markdown(report: BenchReport) -> str:
    """The summary tables as Markdown (every column), for the benchmark report."""
    parts = []
    for dataset, summaries in _by_dataset(report).items():
        show_none = any(s.no_solution for s in summaries)
        together = parallel_header(report)
        headers = _bench_headers(show_none, True, report.configured, together=together)
        lines = [f"**{_bench_title(report, dataset)}**", "", "| " + " | ".join(headers) + " |",
                 "| --- |" + " ---: |" * (len(headers) - 2) + " --- |"]
        lines += ["| " + " | ".join(_bench_cells(s, show_none, True, report.configured,
                                                 together=together is not None)) + " |" for s in summaries]
        parts.append("\n".join(lines))
    parts += [f"Note: {note}." for note in report.notes]
    parts.append(f"Measured: {report.how_measured()}.")
    return "\n\n".join(parts) + "\n"
