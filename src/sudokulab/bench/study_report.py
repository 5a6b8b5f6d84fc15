"""What a study reports: its document, its tables (Markdown and CSV), its pictures, and its text for a person.

Everything is computed from the rows of the plan (``analysis``) and written into the study's folder
whole (``formats.outputs``: a file appears complete or not at all): ``report.md`` (every table, the
comparisons in words, the pictures linked), ``points.csv``, ``overall.csv``, ``paired.csv``,
``peaks.csv``, ``study.json`` (the document ``--json`` prints), and the pictures ``scatter``,
``survival``, ``time`` and ``effort`` (``ui.study_plots``) as PNG or SVG.

More: docs/bench.md.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..formats.documents import dumps
from ..formats.outputs import write_text
from ..ui.console import as_text
from ..ui.tables import Column, format_seconds, print_table
from . import analysis
from .families import Family

if TYPE_CHECKING:
    from rich.console import Console

    from .study import StudyRun

AXIS_LABELS = {"given": "share of cells given", "holes": "share of cells open (holes)", "clues": "clues given",
               "size": "board size n", "rules": "rule set", "set": "set"}


@dataclass(frozen=True)
class StudyReport:
    """A study's figures: what ``analysis`` makes of its rows, and how it was run."""

    family: Family
    solvers: tuple[str, ...]
    time_limit: float
    repeats: int
    run: StudyRun
    scores: tuple[analysis.Score, ...]
    points: tuple[analysis.Summary, ...]
    overall: tuple[analysis.Overall, ...]
    paired: tuple[analysis.Paired, ...]
    peaks: tuple[analysis.Peak, ...]

    @classmethod
    def of(cls, family: Family, solvers: Sequence[str], time_limit: float, repeats: int, run: StudyRun) -> StudyReport:
        scores = analysis.scores(run.rows)
        points = analysis.summaries(scores, family.axis)
        present = [name for name in solvers if any(s.solver == name for s in scores)]
        return cls(family, tuple(solvers), time_limit, repeats, run, tuple(scores), tuple(points),
                   tuple(analysis.overall(scores)), tuple(analysis.paired(scores, family.axis, present)),
                   tuple(analysis.peaks(points, family.axis)))

    @property
    def wrong(self) -> int:
        return sum(o.wrong for o in self.overall)

    @property
    def skipped(self) -> list[str]:
        said: dict[str, str] = {}
        for row in self.run.rows:
            if row["status"] == "skipped":
                said.setdefault(row["solver"], row.get("reason") or "")
        return [f"{name} skipped: {why}" for name, why in said.items()]

    def document(self, folder: Path, files: Sequence[str]) -> dict[str, Any]:
        """The study as ``study.json`` and ``--json`` state it (``schemas/study.schema.json``)."""
        return {
            "family": self.family.document(), "solvers": list(self.solvers), "time_limit": self.time_limit,
            "repeats": self.repeats, "folder": str(folder), "where": self.run.where,
            "runs": {"total": len(self.run.rows), "ran": self.run.ran, "reused": self.run.reused,
                     "wrong": sum(analysis.wrong(r) for r in self.run.rows if r["status"] != "skipped"),
                     "skipped": sum(r["status"] == "skipped" for r in self.run.rows)},
            "overall": [o.document() for o in self.overall], "points": [p.document() for p in self.points],
            "paired": [p.document() for p in self.paired], "peaks": [p.document() for p in self.peaks],
            "files": list(files), "notes": [*self.run.notes, *self.skipped],
        }


def conduct(family: Family, configs: Sequence[Any], folder: str | Path, *, time_limit: float, repeats: int = 1,
            jobs: int = 1, cluster: str | None = None, progress: bool = False, picture: str = "png",
            on_stopped: Any = None) -> tuple[StudyReport, list[str]]:
    """A whole study: the runs ``folder`` lacks (``study.run_study``), then the figures and every file
    (``write_files``); the report and the names of the files written. ``configs`` are
    ``configurations.Configuration``s, or solver names."""
    from .configurations import Configuration, plain
    from .study import StudyFolder, check_configurations, run_study

    chosen = [c for c in configs if isinstance(c, Configuration)] or list(plain([str(c) for c in configs]))
    if len(chosen) != len(configs):
        raise ValueError("give configurations or solver names, not both")
    check_configurations(chosen)  # before the folder is made
    path = Path(folder)
    with StudyFolder(path) as held:
        done = run_study(family, chosen, held, time_limit=time_limit, repeats=repeats, jobs=jobs, cluster=cluster,
                         progress=progress, on_stopped=on_stopped)
        report = StudyReport.of(family, [c.name for c in chosen], time_limit, repeats, done)
        return report, write_files(report, path, picture)


# --- files ---------------------------------------------------------------------------------------

def write_files(report: StudyReport, folder: Path, picture: str = "png") -> list[str]:
    """Every table, picture and the document into ``folder``; the names written, in order."""
    written: list[str] = []

    def put(name: str, text: str) -> None:
        write_text(folder / name, text, what="study")
        written.append(name)

    put("points.csv", _csv([p.document() for p in report.points]))
    put("overall.csv", _csv([o.document() for o in report.overall]))
    put("paired.csv", _csv([p.document() for p in report.paired]))
    put("peaks.csv", _csv([p.document() for p in report.peaks]))
    written += _pictures(report, folder, picture)
    put("report.md", markdown(report, written))
    put("study.json", dumps(report.document(folder, [*written, "study.json"])) + "\n")
    return written


def _csv(rows: Sequence[dict[str, Any]]) -> str:
    if not rows:
        return ""
    out = io.StringIO()
    writer = csv.DictWriter(out, list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows({k: "" if v is None else v for k, v in row.items()} for row in rows)
    return out.getvalue()


def _pictures(report: StudyReport, folder: Path, picture: str) -> list[str]:
    from ..ui import study_plots

    axis, limit = report.family.axis, report.time_limit
    written = []
    if report.paired:
        by_instance: dict[str, dict[str, analysis.Score]] = {}
        for score in report.scores:
            by_instance.setdefault(score.instance, {})[score.solver] = score
        panels = []
        for a, b in analysis.pairs_of([o.solver for o in report.overall]):
            points = [(mine[a].par2, mine[b].par2, mine[a].point.series(axis)) for mine in by_instance.values()
                      if a in mine and b in mine]
            if points:
                panels.append((a, b, points))
        if panels:
            study_plots.scatter_plot(panels, limit, folder / f"scatter.{picture}")
            written.append(f"scatter.{picture}")
    study_plots.survival_plot(analysis.survival(report.run.rows, axis), limit, folder / f"survival.{picture}")
    written.append(f"survival.{picture}")
    series = list(dict.fromkeys(p.series for p in report.points))
    solvers = list(dict.fromkeys(p.solver for p in report.points))
    label = AXIS_LABELS[axis]
    time_panels = [(name, "PAR-2 seconds (median, quartiles)",
                    [(solver, [(p.value, p.median, p.q1, p.q3) for p in report.points
                               if p.series == name and p.solver == solver]) for solver in solvers])
                   for name in series]
    study_plots.parameter_plot(time_panels, label, f"Time against the {label}\nthe median instance, quartiles "
                               "shaded", folder / f"time.{picture}", time_limit=limit)
    written.append(f"time.{picture}")
    effort_panels = []
    for solver in solvers:
        mine = [p for p in report.points if p.solver == solver and p.effort_median is not None]
        if mine:
            effort_panels.append((solver, f"{mine[0].effort_key} (median, quartiles)",
                                  [(name, [(p.value, p.effort_median, p.effort_q1, p.effort_q3) for p in mine
                                           if p.series == name]) for name in series
                                   if any(p.series == name for p in mine)]))
    if effort_panels:
        study_plots.parameter_plot(effort_panels, label, f"Search effort against the {label}\nin each solver's "
                                   "own unit", folder / f"effort.{picture}", counts=True)
        written.append(f"effort.{picture}")
    return written


def markdown(report: StudyReport, pictures: Sequence[str]) -> str:
    """The report as Markdown: how it was run, every table, the comparisons and peaks in words, the pictures."""
    family = report.family
    lines = ["# Study", "",
             f"{_family_words(family)}; {', '.join(report.solvers)}; time limit {report.time_limit:g} s, "
             f"{report.repeats} repeat{'s' if report.repeats != 1 else ''}; {len(report.run.rows):,} runs "
             f"({report.run.where}). PAR-2: a decided run's time, else twice the limit.", ""]
    lines += ["## Overall", "", *_md_table(["solver", "decided", "PAR-2 (mean s)", "wrong"],
                                           [[o.solver, f"{o.decided}/{o.instances}", f"{o.par2:.4g}", str(o.wrong)]
                                            for o in report.overall]), ""]
    lines += ["## Points", "", *_md_table(
        ["series", AXIS_LABELS[family.axis], "solver", "decided", "PAR-2 mean", "median", "q1", "q3", "effort",
         "effort median", "q1", "q3"],
        [[p.series, str(p.value), p.solver, f"{p.decided}/{p.instances}", f"{p.par2:.4g}", f"{p.median:.4g}",
          f"{p.q1:.4g}", f"{p.q3:.4g}", p.effort_key or "-", _g(p.effort_median), _g(p.effort_q1), _g(p.effort_q3)]
         for p in report.points]), ""]
    if report.paired:
        lines += ["## Paired comparisons", "", *_md_table(
            ["series", "A", "B", "instances", "A wins", "B wins", "ties", "B/A median", "B/A geometric mean",
             "95% CI", "Wilcoxon W", "p"],
            [[p.series, p.a, p.b, str(p.instances), str(p.a_wins), str(p.b_wins), str(p.ties), f"{p.median_ratio:.3g}",
              f"{p.geometric_ratio:.3g}", f"{p.low:.3g}-{p.high:.3g}", _g(p.statistic), _g(p.p_value)]
             for p in report.paired]), ""]
        lines += [f"- {p.sentence()}" for p in report.paired if p.series == "all"] + [""]
    if report.peaks:
        lines += ["## Easy-hard-easy", "", *[f"- {p.sentence()}" for p in report.peaks], ""]
    notes = [*report.run.notes, *report.skipped]
    if notes:
        lines += ["## Notes", "", *[f"- {note}" for note in notes], ""]
    lines += ["## Pictures", "", *[f"![{name}]({name})" for name in pictures], ""]
    return "\n".join(lines)


def _md_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    return ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers),
            *["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]]


def _g(value: float | None) -> str:
    return "-" if value is None else f"{value:,.4g}"


def _family_words(family: Family) -> str:
    if family.family == "set":
        return f"sets {', '.join(Path(p).stem for p in family.sets)}, the first {family.instances} puzzles of each"
    if family.by_holes:
        what, amounts = "holes", ", ".join(f"{round(1 - g, 12):g}" for g in family.given)
    elif family.given:
        what, amounts = "share given", ", ".join(f"{g:g}" for g in family.given)
    else:
        what, amounts = "clues", ", ".join(map(str, family.clues))
    return (f"family {family.family}, sizes {', '.join(map(str, family.sizes))}, rules "
            f"{'; '.join(family.rules_or_default)}, {what} {amounts}, {family.instances} instances a point, "
            f"seed {family.seed}")


# --- text for a person -----------------------------------------------------------------------------

def render(report: StudyReport, out: Console, folder: Path, files: Sequence[str], *, wide: bool = False) -> None:
    """The overall table, the points, the comparisons and peaks in words, and where the files are."""
    axis = report.family.axis
    out.print(as_text(f"study: {_family_words(report.family)}; time limit {report.time_limit:g} s"), indent="  ")
    print_table(out, [Column("solver"), Column("decided", "right"), Column("PAR-2 mean", "right"),
                      Column("wrong", "right", drop=1)],
                [[o.solver, f"{o.decided}/{o.instances}", format_seconds(o.par2), str(o.wrong)]
                 for o in report.overall], title="each solver over every instance", wide=wide)
    out.print()
    print_table(out, [Column("series", drop=3), Column(axis, "right"), Column("solver"), Column("decided", "right"),
                      Column("PAR-2", "right"), Column("median", "right", drop=2),
                      Column("median effort", "right", drop=1)],
                [[p.series, str(p.value), p.solver, f"{p.decided}/{p.instances}", format_seconds(p.par2),
                  format_seconds(p.median), f"{_g(p.effort_median)} {p.effort_key}" if p.effort_key else "-"]
                 for p in report.points],
                title="each point: PAR-2 = mean over its instances (a time-out counts twice the limit)", wide=wide)
    out.print()
    for line in [p.sentence() for p in report.paired if p.series == "all"] + [p.sentence() for p in report.peaks]:
        out.print(as_text(line), indent="  ")  # prose: the one wrapper on a terminal, whole lines in a file
    for note in [*report.run.notes, *report.skipped]:
        out.print(as_text(f"note: {note}"), indent="  ")
    out.print(as_text(f"written in {folder}: {', '.join(files)}"), indent="  ")
