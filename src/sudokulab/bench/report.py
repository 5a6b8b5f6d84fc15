"""What ``bench`` prints for a person: its summary tables, a run of several ``--runs`` side by side,
and the Markdown report the benchmarks write (``benchmarks/results``).

A module of its own because it is ``bench``'s alone: the summary's columns, which of them a narrow
terminal drops first, and the aggregate rate of a run on several processes. The other commands'
text is in ``render``, whose table and cell helpers (``ui.tables``) these share.

More: docs/bench.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

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
    from .spread import Spread


RATES = {"wall": "puzzles/s", "solve": "puzzles/solve-s", "cpu": "puzzles/cpu-s"}
"""bench's three rates and their columns: puzzles per second of the run's wall clock (the headline: what a
user gets, every process together), of the summed per-puzzle solve times (the solver alone, one
process), and of the process's CPU time (the steadiest on a shared machine)."""

RATE_LEGEND = ("puzzles/s: over the run's wall clock, what a run gets (with --jobs or --cluster every process "
               "together); puzzles/solve-s: over the summed solve times of the puzzles, the solver alone; "
               "puzzles/cpu-s: over the CPU time of the calls")


def rate_of(summary: BenchSummary, kind: str) -> float | None:
    """One of ``RATES`` of a summary row (None: the wall clock was not measured)."""
    return {"wall": summary.per_wall_second, "solve": summary.per_second, "cpu": summary.per_cpu_second}[kind]


def _bench_headers(show_no_solution: bool, wide: bool, sized: bool = False, effort_column: bool = True) -> list[str]:
    """The summary's columns; a run of configurations (``sized``) adds the model size, and when not
    wide leaves the other rates, p90 and max to ``--wide``, since its rows' names are long."""
    spread = ["median", "p90", "p99", "max"] if wide or not sized else ["median"]
    return (["configuration" if sized else "solver", "solved"] + (["no sol."] if show_no_solution else [])
            + ["t/o", "wrong", RATES["wall"]] + ([RATES["solve"], RATES["cpu"]] if wide or not sized else [])
            + spread + ([MODEL_SIZE_HEADER] if sized and effort_column else [])
            + (["mean effort per puzzle"] if effort_column else []))


def _bench_cells(summary: BenchSummary, show_no_solution: bool, wide: bool, sized: bool = False,
                 effort_column: bool = True) -> list[str]:
    cells = [summary.solver, f"{summary.solved}/{summary.puzzles}"]
    if show_no_solution:
        cells.append(str(summary.no_solution))
    wall = summary.per_wall_second
    cells += [str(summary.timed_out), str(summary.wrong), "?" if wall is None else f"{wall:,.1f}"]
    if wide or not sized:
        cells += [f"{summary.per_second:,.1f}", f"{summary.per_cpu_second:,.1f}"]
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
"""The rate a bench table is for (the run's wall clock): shown at every width, the other columns left out before it."""
BENCH_DROPS = {"puzzles/cpu-s": 1, "puzzles/solve-s": 2, "p99": 3, "p90": 4, "max": 5, "median": 6,
               "mean effort per puzzle": 7, "t/o": 8}
"""The columns of bench's table left out, in this order, on a terminal too narrow for them."""
BENCH_FIGURE_WIDTHS = {"puzzles/s": 9, "puzzles/solve-s": 9, "puzzles/cpu-s": 9, "median": 7, "p90": 7, "p99": 7,
                       "max": 7}
"""The widths bench's figures are counted at (``Column.least``): "123,456.7" puzzles/s, "99.9 ms"."""


def render_bench(report: BenchReport, out: Console, *, wide: bool = False) -> None:
    """The summary tables (one per dataset, fitted by ``print_table``), which rate is which, and how the
    figures were measured."""
    for dataset, summaries in _by_dataset(report).items():
        show_none = any(s.no_solution for s in summaries)
        sized = report.configured  # configurations: rates, then a second table of model size and effort
        headers = _bench_headers(show_none, wide, sized, effort_column=not sized)
        last = len(headers) - 1
        columns = [Column(header, "left" if i == 0 or (i == last and not sized) else "right",
                          wrap=i == 0 if sized else i == last, drop=BENCH_DROPS.get(header, 0),
                          least=BENCH_FIGURE_WIDTHS.get(header, 0), keep=header in BENCH_KEPT)
                   for i, header in enumerate(headers)]
        print_table(out, columns, [_bench_cells(s, show_none, wide, sized, effort_column=not sized)
                                   for s in summaries],
                    title=_bench_title(report, dataset), styles=["bold red" if s.wrong else None for s in summaries],
                    wide=wide)
        if sized:
            print_table(out, [Column("configuration", wrap=True), Column("model size"),
                              Column("search effort", wrap=True)],
                        [[s.solver, model_size(s.means), _effort_only(s.means)] for s in summaries],
                        title=f"{dataset}: model size and effort, mean per puzzle", wide=wide)
    for note in report.notes:
        out.print(as_text(f"note: {note}"))
    out.print(as_text(RATE_LEGEND))
    out.print(as_text(f"measured: {report.how_measured()}"))


def run_spreads(reports: Sequence[BenchReport], rate: str) -> dict[str, list[Spread]]:
    """Per dataset, each row's rate (``RATES``) over the runs that measured it in every run, fastest
    (by mean) first."""
    from .spread import Spread

    datasets = dict.fromkeys(s.dataset for report in reports for s in report.summaries)
    found: dict[str, list[Spread]] = {}
    for dataset in datasets:
        rates: dict[str, list[float]] = {}
        for report in reports:
            for summary in report.summaries:
                value = rate_of(summary, rate)
                if summary.dataset == dataset and value is not None:
                    rates.setdefault(summary.solver, []).append(value)
        found[dataset] = sorted((Spread(name, tuple(values), {}) for name, values in rates.items()
                                 if len(values) == len(reports)), key=lambda spread: spread.mean, reverse=True)
    return found


def render_runs(reports: Sequence[BenchReport], warmup: int, out: Console, *, rate: str = "wall",
                asked: int | None = None) -> None:
    """``bench --runs K``: each solver's rate over the K runs as hyperfine reports times (mean ± σ,
    median, min … max), how many times faster each is than the next one down, paired run by run (a
    run's load weighs on every solver of that run alike), and a warning for a run far from the others.
    ``asked``: the runs asked for, when a signal stopped the command after ``reports``."""
    from .spread import OUTLIER_SCORE, faster, verdict

    unit = RATES[rate]
    for dataset, spreads in run_spreads(reports, rate).items():
        runs = f"{len(reports)} run{'s' if len(reports) != 1 else ''}" + (f" of {asked}" if asked else "")
        print_table(out, [Column("solver"), Column("mean ± σ", "right"), Column("median", "right", drop=2),
                          Column("min … max", "right", drop=1)],
                    [[spread.name, f"{spread.mean:,.1f} ± {spread.stdev:,.1f}", f"{spread.median:,.1f}",
                      f"{min(spread.rates):,.1f} … {max(spread.rates):,.1f}"] for spread in spreads],
                    title=f"{dataset}: {unit}, {runs}" + (f" after {warmup} warm-up" if warmup else ""))
        for quick, slow in zip(spreads, spreads[1:]):
            mean, sigma = faster(quick, slow)
            out.print(as_text(f"{quick.name} is {mean:.2f} ± {sigma:.2f}× faster than {slow.name} ({unit}, "
                              "paired run by run)"))
        if len(spreads) > 1 and len(reports) > 1:
            out.print(as_text(verdict(spreads, unit)))
        for spread in spreads:
            far = spread.outliers()
            if far:
                runs_said = " and ".join(f"{run + 1} ({spread.rates[run]:,.1f})" for run in far)
                out.print(as_text(
                    f"warning: {spread.name} on {dataset}: run{'s' if len(far) > 1 else ''} {runs_said} "
                    f"{'lie' if len(far) > 1 else 'lies'} far from the others (more than {OUTLIER_SCORE:g} median "
                    "absolute deviations): other work on the machine, or a cold start; more --warmup runs or a "
                    "quieter machine give steadier figures", "yellow"))


def runs_document(reports: Sequence[BenchReport], warmup: int, rate: str, *, asked: int | None = None,
                  partial: bool = False) -> dict[str, Any]:
    """The last ``bench --json`` row (``schemas/bench.schema.json``, ``run``): how and on what the runs were
    measured (versions, Python, CPU, cores), every run's rate of every row, their mean, σ, median,
    extremes and outliers, and each row against the next slower one, the ratio with its spread."""
    from ..core.versions import machine, versions
    from .spread import faster

    last = reports[-1] if reports else None
    rows, comparisons = [], []
    for dataset, spreads in run_spreads(reports, rate).items():
        for spread in spreads:
            rows.append({"dataset": dataset, "solver": spread.name, "rates": list(spread.rates),
                         "mean": spread.mean, "stdev": spread.stdev, "median": spread.median,
                         "min": min(spread.rates), "max": max(spread.rates),
                         "outliers": [run + 1 for run in spread.outliers()]})
        for quick, slow in zip(spreads, spreads[1:]):
            mean, sigma = faster(quick, slow)
            comparisons.append({"dataset": dataset, "faster": quick.name, "slower": slow.name, "ratio": mean,
                                "stdev": sigma, "ratios": [x / y for x, y in zip(quick.rates, slow.rates)]})
    return {"run": True, "partial": partial, "runs": len(reports), "asked": asked or len(reports),
            "warmup": warmup, "rate": rate, "unit": RATES[rate],
            "jobs": last.jobs if last else None, "where": last.where if last else None,
            "time_limit": last.time_limit if last else None, "versions": versions(), "machine": machine(),
            "solvers": rows, "comparisons": comparisons}


def runs_markdown(reports: Sequence[BenchReport], warmup: int, rate: str) -> str:
    """``bench --export-markdown``: the runs' table (mean ± σ, median, min … max, relative to the fastest)
    per dataset, then every run's rate."""
    from ..core.versions import machine, versions

    unit = RATES[rate]
    parts = []
    for dataset, spreads in run_spreads(reports, rate).items():
        best = spreads[0].mean if spreads else 1.0
        title = f"**{dataset}**: {unit} over {len(reports)} runs" + (
            f", after {warmup} warm-up run{'s' if warmup != 1 else ''}" if warmup else "")
        lines = [title, "", f"| solver | mean ± σ ({unit}) | median | min … max | relative |",
                 "| --- | ---: | ---: | ---: | ---: |"]
        lines += [f"| {s.name} | {s.mean:,.1f} ± {s.stdev:,.1f} | {s.median:,.1f} | {min(s.rates):,.1f} … "
                  f"{max(s.rates):,.1f} | {best / s.mean:.2f} |" for s in spreads]
        lines += ["", "| solver | " + " | ".join(f"run {i}" for i in range(1, len(reports) + 1)) + " |",
                  "| --- |" + " ---: |" * len(reports)]
        lines += [f"| {s.name} | " + " | ".join(f"{r:,.1f}" for r in s.rates) + " |" for s in spreads]
        parts.append("\n".join(lines))
    parts.append("*relative*: how many times the fastest's mean rate is this one's.")
    found, where = versions(), machine()
    parts.append(f"Measured with sudokulab {found['sudokulab']}, Python {where['python']}, on {where['cpu']} "
                 f"({where['cores']} cores, load {where['load']} at the end); "
                 + (reports[-1].how_measured() if reports else "no run finished") + ".")
    return "\n\n".join(parts) + "\n"


RUN_FIELDS = ("dataset", "solver", "run", "unit", "rate", "puzzles", "solved", "timed_out", "wrong", "wall_seconds",
              "solve_seconds", "cpu_seconds")


def runs_csv(reports: Sequence[BenchReport], rate: str) -> str:
    """``bench --export-csv``: one row per dataset, solver and run (every run, not only the statistics)."""
    import csv
    import io

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(RUN_FIELDS)
    for number, report in enumerate(reports, 1):
        for s in report.summaries:
            value = rate_of(s, rate)
            writer.writerow([s.dataset, s.solver, number, RATES[rate], "" if value is None else f"{value:.6g}",
                             s.puzzles, s.solved, s.timed_out, s.wrong,
                             "" if s.wall_seconds is None else f"{s.wall_seconds:.6f}", f"{s.seconds:.6f}",
                             f"{s.cpu_seconds:.6f}"])
    return buffer.getvalue()


def bench_markdown(report: BenchReport) -> str:
    """The summary tables as Markdown (every column), for the benchmark report."""
    parts = []
    for dataset, summaries in _by_dataset(report).items():
        show_none = any(s.no_solution for s in summaries)
        headers = _bench_headers(show_none, True, report.configured)
        lines = [f"**{_bench_title(report, dataset)}**", "", "| " + " | ".join(headers) + " |",
                 "| --- |" + " ---: |" * (len(headers) - 2) + " --- |"]
        lines += ["| " + " | ".join(_bench_cells(s, show_none, True, report.configured)) + " |" for s in summaries]
        parts.append("\n".join(lines))
    parts += [f"Note: {note}." for note in report.notes]
    parts.append(f"{RATE_LEGEND}.")
    parts.append(f"Measured: {report.how_measured()}.")
    return "\n\n".join(parts) + "\n"
