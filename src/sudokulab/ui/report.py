"""Every table, progress bar and Markdown summary a person reads, for compare, bench and judge.

Logic modules return dataclasses; this module alone turns them into text (with rich). Tables fit
the terminal (and 80 columns off a terminal): ``print_table`` is the one
way every table here fits, by shortening the cells that have a short form, then leaving out columns
in a stated order, and saying under the table what it left out; ``wide=True`` (``--wide``) shows
every column in full, and every figure is in the JSON and CSV outputs anyway. Everything that comes
from outside (a program's output, file names, puzzle text, error messages) is shown as data, never
as markup.

(About 605 lines, one module on purpose: every text a person reads is made here, on one console
and through one table mechanism; split by command, the parts would share those and little else.)
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any

from ..formats.boj import format_puzzle
from ..solvers.base import EFFORT, Stat

if TYPE_CHECKING:
    from rich.console import Console

    from ..execution.sandbox import Limits
    from ..runs.bench import BenchReport, BenchSummary
    from ..runs.compare import Comparison
    from ..runs.judge import Case, Failure, JudgeSummary

WIDTH = 80
"""Columns of a table written to a file or a pipe (a terminal uses its own width)."""
WIDE = 400
"""Columns of a ``--wide`` table written to a file or a pipe: as wide as its cells make it."""


def console(stream: IO[str] | None = None, *, stderr: bool = False, wide: bool = False) -> Console:
    """A rich console that never reads markup from data: the terminal's width on a terminal,
    ``WIDTH`` off one whatever ``COLUMNS`` says (a file gets the same bytes from any terminal), ``WIDE``
    with ``wide``."""
    from rich.console import Console

    target = stream if stream is not None else (sys.stderr if stderr else sys.stdout)
    width = None if target.isatty() else (WIDE if wide else WIDTH)
    return Console(file=target, width=width, highlight=False, markup=False, emoji=False)


@dataclass(frozen=True)
class Column:
    """A column of a table that ``print_table`` fits to the console."""

    header: str
    justify: str = "left"
    wrap: bool = False
    """Whether its cells may wrap onto more lines (free text); the others stay on one line."""
    drop: int = 0
    """0: always shown; 1, 2, ...: left out in this order while the table is too wide."""
    short: Callable[[str], str] | None = None
    """A shorter form of its cells, used before any column is left out."""


WRAPPED = 24
"""The least width ``print_table`` gives a column of free text that wraps."""


def print_table(out: Console, columns: Sequence[Column], rows: Sequence[Sequence[str]], *, title: str | None = None,
                styles: Sequence[str | None] | None = None, wide: bool = False) -> list[str]:
    """Print a table that fits ``out``'s width: every column in full if it fits (or with ``wide``),
    else the short forms, then without the columns of lowest ``drop`` until it fits; a line under it
    names what was shortened or left out. Returns the headers left out.

    >>> from rich.console import Console
    >>> out = Console(width=16, color_system=None)
    >>> print_table(out, [Column("name"), Column("a long header", drop=1)], [["x", "1"]])
    ... # doctest: +NORMALIZE_WHITESPACE
    name
    ────
    x
    not shown at this width: a long header (--wide shows every column)
    ['a long header']
    """
    from rich import box
    from rich.cells import cell_len
    from rich.table import Table

    def build(kept: Sequence[Column], shorten: bool) -> Table:
        table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False,
                      collapse_padding=True)
        for column in kept:
            table.add_column(column.header, justify=column.justify, no_wrap=not column.wrap)  # type: ignore[arg-type]
        for i, row in enumerate(rows):
            cells = [row[columns.index(column)] for column in kept]
            cells = [column.short(cell) if shorten and column.short else cell for column, cell in zip(kept, cells)]
            table.add_row(*map(_text, cells), style=styles[i] if styles else None)
        return table

    def needed(column: Column, shorten: bool) -> int:
        """Columns of the screen a column needs: its widest cell on one line, or for free text its longest
        word and at least ``WRAPPED`` (rich would cut cells short with an ellipsis below that)."""
        at = columns.index(column)
        cells = [row[at] for row in rows]
        if shorten and column.short:
            cells = [column.short(cell) for cell in cells]
        if not column.wrap:
            return max(map(cell_len, [column.header, *cells]))
        longest = max(cell_len(word) for text in [column.header, *cells] for word in text.split() or [""])
        return max(longest, min(WRAPPED, max(map(cell_len, [column.header, *cells]))))

    def fits(kept: Sequence[Column], shorten: bool) -> bool:
        return sum(needed(column, shorten) for column in kept) + 2 * (len(kept) - 1) <= out.width

    droppable = sorted((c for c in columns if c.drop), key=lambda c: c.drop)
    ways = [([c for c in columns if c not in droppable[:k]], shorten)
            for k in range(len(droppable) + 1) for shorten in (False, True)]
    kept, shorten = next((way for way in ways if wide or fits(*way)), ways[-1])
    out.print(build(kept, shorten))
    dropped = [column.header for column in columns if column not in kept]
    shortened = [c.header for c in kept if shorten and c.short and any(
        c.short(row[columns.index(c)]) != row[columns.index(c)] for row in rows)]
    said = ([f"{', '.join(shortened)} shortened"] if shortened else []) + (
        [f"not shown at this width: {', '.join(dropped)}"] if dropped else [])
    if said:
        out.print(_text(f"{'; '.join(said)} (--wide shows every column)"), soft_wrap=False)
    return dropped


def _text(value: object, style: str = "") -> Any:
    from rich.text import Text

    return Text(str(value), style=style)


def format_seconds(seconds: float) -> str:
    """A time with three significant figures in a readable unit.

    >>> format_seconds(0.000123), format_seconds(0.0456), format_seconds(12.345), format_seconds(0.0009996)
    ('123 µs', '45.6 ms', '12.3 s', '1 ms')
    """
    if math.isnan(seconds):
        return "-"
    seconds = float(f"{seconds:.3g}")  # rounded first: 0.0009996 is '1 ms', not '1e+03 µs'
    if seconds < 1e-3:
        return f"{seconds * 1e6:.3g} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.3g} ms"
    return f"{seconds:.3g} s" if seconds < 1000 else f"{seconds:,.0f} s"


def _figure(value: Stat | float) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, int):
        return f"{value:,}"
    return f"{value:,.0f}" if value >= 100 else f"{value:.1f}"


def effort(stats: Mapping[str, Stat | float]) -> str:
    """A solver's effort figures in one cell, in ``EFFORT`` order; every stat when it has none of them.

    >>> effort({"conflicts": 3, "variables": 729, "decisions": 12})
    'decisions 12, conflicts 3'
    """
    shown = [key for key in EFFORT if key in stats] or list(stats)
    return ", ".join(f"{key} {_figure(stats[key])}" for key in shown) or "-"


MODEL_SIZE = ("clauses", "constraints", "variables")
MODEL_SIZE_HEADER = "model size per puzzle"
"""The stats that measure a model's size (a SAT formula's clauses, a CP-SAT model's constraints)."""


def model_size(stats: Mapping[str, Stat | float]) -> str:
    """A model's size in one cell: mean clauses or constraints and variables per puzzle, or "-".

    >>> model_size({"clauses": 11988.0, "variables": 729.0, "conflicts": 2})
    '11,988 clauses, 729 variables'
    """
    return ", ".join(f"{stats[key]:,.0f} {key}" for key in MODEL_SIZE if key in stats) or "-"


# --- solvers -------------------------------------------------------------------------------------

KIND_LETTERS = {"all-different": "A", "differ": "D", "sum": "S", "increasing": "I"}
"""The one-letter names of the constraint kinds in the ``solvers`` matrix (``rules.KINDS``)."""
KIND_LEGEND = ("canon.: gives the canonical (lexicographically first) answer; limit: honours a time limit; "
               "slow: yes, at a high price. rules: the constraint kinds it honours: A all-different groups "
               "(rows, columns, boxes, regions, diagonals, windows, cages' cells), D differing pairs "
               "(anti-knight, anti-king), S sums (killer cages), I increasing (thermometers); - refused "
               "(exit 2; compare and bench skip it)")


def kind_letters(kinds: Sequence[str]) -> str:
    """A solver's honoured kinds as the matrix shows them, one letter or ``-`` per kind.

    >>> kind_letters(["all-different", "differ"])
    'A D - -'
    """
    return " ".join(letter if kind in kinds else "-" for kind, letter in KIND_LETTERS.items())


def paradigm_family(paradigm: str) -> str:
    """A paradigm's name without its parenthesis, the short form of the ``solvers`` table.

    >>> paradigm_family("constraint programming (OR-Tools CP-SAT)")
    'constraint programming'
    """
    return paradigm.split(" (")[0]


def render_solvers(described: Sequence[Mapping[str, Any]], out: Console, *, wide: bool = False) -> None:
    """``sudokulab solvers``: one row per solver (the capability matrix, the rule kinds abbreviated
    with a legend; fitted by ``print_table``), then each solver's options with their defaults."""
    columns = [Column("solver"), Column("paradigm", short=paradigm_family), Column("canon."), Column("count"),
               Column("limit"), Column("threads", drop=1), Column("rules")]
    words = {True: "yes", False: "no"}
    rows, styles, missing = [], [], []
    for solver in described:
        if not solver["installed"]:
            rows.append([solver["name"], "not installed", *"-----"])
            styles.append("dim")
            missing.append(f"  {solver['name']}: {solver['why']}")
            continue
        caps = solver["capabilities"]
        slow = set(caps["slow"])
        rows.append([solver["name"], solver["paradigm"],
                     *("slow" if key in slow and caps[key] else words[caps[key]]
                       for key in ("canonical", "count", "time_limit")),
                     caps["threads"], kind_letters(caps.get("kinds", ("all-different",)))])
        styles.append(None)
    print_table(out, columns, rows, title="solvers", styles=styles, wide=wide)
    import textwrap

    width = min(out.width, 80) if not wide else out.width
    for line in missing:
        out.print(_text(textwrap.fill(line, width, subsequent_indent="    ")))
    out.print(_text(textwrap.fill(KIND_LEGEND, width)))
    for solver in described:
        kinds = solver.get("capabilities", {}).get("kinds", KIND_LETTERS)
        refused = [letter for kind, letter in KIND_LETTERS.items() if kind not in kinds]
        if solver["installed"] and refused:
            why = solver["capabilities"].get("kinds_why")
            line = f"  {solver['name']} refuses {', '.join(refused)}" + (f": {why}" if why else "")
            out.print(_text(textwrap.fill(line, width, subsequent_indent="    ")))
    for solver in described:
        backend = solver.get("backend")
        engines = backend.get("engines") if isinstance(backend, dict) else None
        if isinstance(engines, dict) and engines:
            rows = [[engine, *(words[can[key]] for key in ("assumptions", "time_limit", "repeated", "proofs"))]
                    for engine, can in engines.items()]
            print_table(out, [Column(header) for header in ("engine", "assumptions", "time limit", "repeated solving",
                                                             "proofs")],
                        rows, title=f"{solver['name']}: engines of this build (probed now)", wide=wide)
    for solver in described:
        for option in solver.get("options", ()):
            choices = f"; one of: {', '.join(map(str, option['choices']))}" if option["choices"] else ""
            line = (f"  -o {option['name']}=...  ({solver['name']}) {option['help']}; "
                    f"default {option['default']!r}{choices}")
            out.print(_text(textwrap.fill(line, width, subsequent_indent="      ", break_on_hyphens=False)))


# --- compare -------------------------------------------------------------------------------------

def _before_colon(text: str) -> str:
    """A verdict without its reason ("skipped: cannot honour ..." is "skipped"), the short form of a cell."""
    return text.split(":")[0]


def render_comparison(comparison: Comparison, out: Console, *, wide: bool = False) -> None:
    """The comparison as a table (fitted by ``print_table``), then the verdict line. *set-up* is building
    the solver and its model for the board (``compare.run_solver``), *solve* the puzzle's own call."""
    columns = [Column("solver"), Column("status"), Column("set-up", "right"), Column("solve", "right"),
               Column("effort", wrap=True, drop=1), Column("valid", wrap=True, short=_before_colon),
               Column("agrees", wrap=True, short=_before_colon)]
    rows, styles = [], []
    for run in comparison.runs:
        valid = {None: "—", True: "yes"}.get(run.valid, f"no: {run.problem}")  # type: ignore[arg-type]
        agrees = {None: "not counted", True: "yes", False: "no"}[run.agrees]
        if run.skipped:
            agrees = f"skipped: {run.skipped}"
        styles.append("red" if run.agrees is False else ("dim" if run.agrees is None else None))
        status = "skipped" if run.skipped else run.result.status.value
        setup = format_seconds(run.setup_seconds) if run.setup_seconds is not None else "-"
        rows.append([run.solver, status, setup, format_seconds(run.result.seconds) if not run.skipped else "-",
                     effort(run.result.stats), valid, agrees])
    print_table(out, columns, rows, title=f"compare on a {comparison.puzzle.shape}", styles=styles, wide=wide)
    out.print(_text(f"{comparison.agreement.value}: {comparison.reason}", "green" if comparison.agreed else "red"))


# --- bench ---------------------------------------------------------------------------------------

def _bench_headers(show_no_solution: bool, wide: bool, sized: bool = False, effort_column: bool = True) -> list[str]:
    """The summary's columns; a run of configurations (``sized``) adds the model size, and when not
    wide leaves p90 and max to ``--wide``, since its rows' names are long."""
    spread = ["median", "p90"] + (["p99"] if wide else []) + ["max"] if wide or not sized else ["median"]
    return (["configuration" if sized else "solver", "solved"] + (["no sol."] if show_no_solution else [])
            + ["t/o", "wrong", "puzzles/s"] + (["puzzles/cpu-s"] if wide else []) + spread
            + ([MODEL_SIZE_HEADER] if sized and effort_column else [])
            + (["mean effort per puzzle"] if effort_column else []))


def _bench_cells(summary: BenchSummary, show_no_solution: bool, wide: bool, sized: bool = False,
                 effort_column: bool = True) -> list[str]:
    cells = [summary.solver, f"{summary.solved}/{summary.puzzles}"]
    if show_no_solution:
        cells.append(str(summary.no_solution))
    cells += [str(summary.timed_out), str(summary.wrong), f"{summary.per_second:,.1f}"]
    if wide:
        cells.append(f"{summary.per_cpu_second:,.1f}")
    cells.append(format_seconds(summary.median))
    if wide or not sized:
        cells.append(format_seconds(summary.p90))
        if wide:
            cells.append(format_seconds(summary.p99))
        cells.append(format_seconds(summary.max))
    if sized and effort_column:
        cells.append(model_size(summary.means))
    if effort_column:
        cells.append(_effort_only(summary.means) if sized else effort(summary.means))
    return cells


def _effort_only(means: Mapping[str, float]) -> str:
    return effort({k: v for k, v in means.items() if k not in MODEL_SIZE})


def _bench_title(report: BenchReport, dataset: str) -> str:
    bad = report.bad.get(dataset, 0)
    return f"{dataset}: {report.totals.get(dataset, 0):,} puzzles" + (f", {bad} bad entries skipped" if bad else "")


def _by_dataset(report: BenchReport) -> dict[str, list[BenchSummary]]:
    grouped: dict[str, list[BenchSummary]] = {}
    for summary in report.summaries:
        grouped.setdefault(summary.dataset, []).append(summary)
    return grouped


BENCH_DROPS = {"p90": 1, "max": 2, "median": 3}
"""The columns of bench's table left out, in this order, on a terminal too narrow for them."""


def render_bench(report: BenchReport, out: Console, *, wide: bool = False) -> None:
    """The summary tables (one per dataset, fitted by ``print_table``) and how the figures were measured."""
    for dataset, summaries in _by_dataset(report).items():
        show_none = any(s.no_solution for s in summaries)
        sized = report.configured  # configurations: rates, then a second table of model size and effort
        headers = _bench_headers(show_none, wide, sized, effort_column=not sized)
        last = len(headers) - 1
        columns = [Column(header, "left" if i == 0 or (i == last and not sized) else "right",
                          wrap=i == 0 if sized else i == last, drop=BENCH_DROPS.get(header, 0))
                   for i, header in enumerate(headers)]
        print_table(out, columns, [_bench_cells(s, show_none, wide, sized, effort_column=not sized) for s in summaries],
                    title=_bench_title(report, dataset), styles=["bold red" if s.wrong else None for s in summaries],
                    wide=wide)
        if sized:
            print_table(out, [Column("configuration", wrap=True), Column("model size"),
                              Column("search effort", wrap=True)],
                        [[s.solver, model_size(s.means), _effort_only(s.means)] for s in summaries],
                        title=f"{dataset}: model size and effort, mean per puzzle", wide=wide)
    for note in report.notes:
        out.print(_text(f"note: {note}"))
    out.print(_text(f"measured: {report.how_measured()}"))


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
    parts.append(f"Measured: {report.how_measured()}.")
    return "\n\n".join(parts) + "\n"


def _stdout_shares_the_terminal() -> bool:
    """Whether standard output is a terminal too, so a live display on stderr must draw it.

    rich's live display takes over ``sys.stdout`` by default and draws what is written there
    itself, through the stderr console: right when both streams are one terminal (the text then
    scrolls above the bar instead of being overwritten by it), wrong when stdout is a file or a
    pipe (``generate > file`` left the file empty). So it does that only on a terminal.
    """
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


class _NoBar:
    """What ``progress`` yields when no bar is drawn (``--quiet``, or stderr not a terminal): the calls
    of rich's Progress that the commands make, doing nothing, without importing rich.progress (a sixth
    of a fast bench run's imports); ``console`` still prints to stderr."""

    def __init__(self, label: str) -> None:
        self.task_ids = [0] if label else []
        self.tasks: list[Any] = []

    def add_task(self, description: str, **fields: Any) -> int:
        self.task_ids.append(len(self.task_ids))
        return self.task_ids[-1]

    def advance(self, task: int, advance: float = 1) -> None:
        pass

    def update(self, task: int, **fields: Any) -> None:
        pass

    def reset(self, task: int, **fields: Any) -> None:
        pass

    @property
    def console(self) -> Console:
        return console(stderr=True)


def bar_shown(bar: Any) -> bool:
    """Whether ``progress`` yielded a bar that is drawn (not the silent stand-in)."""
    return not isinstance(bar, _NoBar)


@contextmanager
def progress(total: int | None = None, *, enabled: bool = True, label: str = "") -> Iterator[Any]:
    """A transient progress bar on stderr (a silent stand-in off a terminal); yields rich's Progress."""
    err = console(stderr=True) if enabled else None
    if err is None or not err.is_terminal:
        yield _NoBar(label)
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.text import Text

    class Tally(TextColumn):
        """A task's ``tally`` field, empty for a task added without one (rich's format would raise)."""

        def render(self, task: Any) -> Text:
            return Text(str(task.fields.get("tally", "")))

    bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                   Tally(""), console=err, transient=True, redirect_stdout=_stdout_shares_the_terminal(),
                   redirect_stderr=False)
    with bar:
        if label:
            bar.add_task(label, total=total, tally="")
        yield bar


class _DownloadBar:
    """A pooch progress-bar object (``total``, ``update``, ``reset``, ``close``) drawn by rich."""

    def __init__(self, bar: Any, task: Any):
        self._bar, self._task = bar, task

    @property
    def total(self) -> float | None:
        return self._bar.tasks[0].total if self._bar.tasks else None

    @total.setter
    def total(self, value: float | None) -> None:
        self._bar.update(self._task, total=value or None)

    def update(self, advance: int) -> None:
        self._bar.update(self._task, advance=advance)

    def reset(self) -> None:
        self._bar.reset(self._task)

    def close(self) -> None:
        self._bar.update(self._task, visible=False)


@contextmanager
def download_progress(*, enabled: bool = True) -> Iterator[Callable[[str], Any]]:
    """A progress bar per download on stderr (on a terminal); yields ``catalog.fetch``'s ``progress`` hook."""
    from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TransferSpeedColumn

    err = console(stderr=True)
    bar = Progress(TextColumn("{task.description}"), BarColumn(), DownloadColumn(), TransferSpeedColumn(),
                   console=err, transient=True, redirect_stdout=_stdout_shares_the_terminal(),
                   redirect_stderr=False, disable=not enabled or not err.is_terminal)
    with bar:
        def start(url: str) -> _DownloadBar:
            return _DownloadBar(bar, bar.add_task(_text(url.rsplit("/", 1)[-1]).plain, total=None))

        yield start


def render_datasets(rows: Sequence[tuple[Any, Any]], folder: Any, out: Console, *, wide: bool = False) -> None:
    """The published sets (``catalog.PuzzleSet``, stored path or None) and the folder they go to."""
    columns = [Column("name"), Column("puzzles", "right"), Column("fetched"), Column("source", drop=1),
               Column("what", wrap=True)]
    archives: dict[str, None] = {}  # the URLs of archives, in order
    cells = []
    for puzzle_set, stored in rows:
        if puzzle_set.member:
            archives[puzzle_set.url] = None
            source = puzzle_set.member
        else:
            source = puzzle_set.url
        cells.append([puzzle_set.name, f"{puzzle_set.puzzles:,}", "yes" if stored else "no", source, puzzle_set.what])
    dropped = print_table(out, columns, cells, wide=wide)
    for url in archives if "source" not in dropped else ():
        out.print(_text(f"data/...: members of {url}"), soft_wrap=True)
    where = str(folder) if folder is not None else "the user's cache folder (needs pooch)"
    out.print(_text(f"Fetched sets are kept in {where} (SUDOKULAB_DATA names another folder); "
                    "get one with: sudokulab datasets fetch NAME"), soft_wrap=True)


# --- judge ---------------------------------------------------------------------------------------

@contextmanager
def judge_progress(total: int | None, dataset: str, *, enabled: bool = True) -> Iterator[Callable[[Case], None]]:
    """A progress bar while judging; yields the ``on_case`` hook for ``judge.judge_dataset``.

    Invalid dataset entries are reported above the bar as they come, with their line numbers.
    """
    from ..runs.judge import Outcome

    with progress(total, enabled=enabled, label="judging") as bar:
        task = bar.task_ids[0]
        accepted = 0

        def on_case(case: Case) -> None:
            nonlocal accepted
            accepted += case.accepted
            bar.update(task, advance=1, tally=f"{accepted} accepted")
            if case.outcome is Outcome.INVALID_ENTRY:
                bar.console.print(_text(f"sudokulab: {dataset}: {case.detail}"), soft_wrap=True)

        yield on_case


def render_judge_summary(summary: JudgeSummary, limits: Limits, out: Console) -> None:
    """The verdict counts and time figures as a table."""
    from rich.table import Table

    from ..runs.judge import Outcome

    table = Table(title="judge summary", title_justify="left")
    table.add_column("verdict")
    table.add_column("count", justify="right")
    for outcome, count in summary.counts.items():
        if count or outcome is not Outcome.INVALID_ENTRY:
            style = "green" if outcome is Outcome.ACCEPTED else ("red" if count else "dim")
            table.add_row(_text(outcome.value), _text(count), style=style)
    out.print(table)
    if summary.seconds:
        from statistics import fmean, median  # here: statistics imports fractions and decimal

        times = summary.seconds
        memory = f"{limits.memory_mb} MB" if limits.memory_mb else "none"
        out.print(_text(
            f"runs: {len(times)}  time per run: min {min(times):.3f} s, median {median(times):.3f} s, "
            f"mean {fmean(times):.3f} s, max {max(times):.3f} s; total {sum(times):.2f} s  "
            f"(limit {limits.seconds:g} s)\npeak memory: {summary.peak_rss_kb / 1024:.1f} MB (limit {memory})"
        ), soft_wrap=True)


def render_failures(failures: Sequence[Failure], oracle_name: str, out: Console) -> None:
    """Each failure: the puzzle, the program's output and the oracle's answer side by side."""
    from rich.table import Table

    for failure in failures:
        case = failure.case
        if case.puzzle is None:
            continue
        n = case.puzzle.n
        out.print(_text(f"puzzle {case.index + 1} (dataset line {case.line}): {case}"), soft_wrap=True)
        table = Table()
        for header in ("puzzle", "program output", f"oracle ({oracle_name})"):
            table.add_column(_text(header))
        output = clip_output(case.run.stdout if case.run else b"", n)
        table.add_row(_text(format_puzzle(case.puzzle).rstrip("\n")), _text(output),
                      _text(failure.oracle_answer.rstrip("\n")))
        out.print(table)


def clip_output(data: bytes, n: int) -> str:
    """A program's output for display: at most n + 2 lines of at most 3n characters, control characters shown.

    >>> clip_output(b"1 2\\x1b[31m\\n", 9)
    '1 2\\\\x1b[31m'
    """
    text = data[: 64 * 1024].decode("utf-8", "replace").replace("\r", "")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    shown = [_printable(line if len(line) <= 3 * n else line[: 3 * n - 1] + "…") for line in lines[: n + 2]]
    if len(lines) > n + 2:
        shown.append(f"… ({len(lines) - n - 2} more lines)")
    return "\n".join(shown) if shown else "(no output)"


def _printable(line: str) -> str:
    from ..formats.boj import printable

    return printable(line)
