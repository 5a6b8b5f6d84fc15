"""What the commands print for a person: their results as tables and lines, on a console.

The commands' results arrive as the dataclasses of the layers below (a comparison,
a judge summary, rating distributions, a ladder table); this module turns them into text,
through ``ui.tables.print_table`` so every table fits the terminal the same way. What comes from
outside (a program's output, file names, puzzle text) is shown as data, never as markup. What
``--json`` prints is not here: each command builds its document (docs/json.md).

``bench``'s tables, the largest, are in ``bench_tables``; the other commands' text stays together
here, where it shares the same few cell helpers and keeps one style.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..formats.boj import format_puzzle, printable
from ..ui.console import as_text
from ..ui.progress import progress
from ..ui.tables import Column, effort, format_seconds, print_table, puzzles_word

if TYPE_CHECKING:
    from rich.console import Console

    from ..bench.compare import Comparison
    from ..execution.sandbox import Limits
    from ..judge.run import Case, Failure, JudgeSummary
    from ..reasoning.ladder import LevelSummary
    from ..reasoning.rating import Distribution, Rated


def format_stats(result: Any) -> str:
    """One line of a result's status, time and effort figures, for stderr (``--stats``)."""
    figures = "  ".join(f"{k}: {v}" for k, v in result.stats.items())
    return f"solver: {result.solver}  status: {result.status.value}  time: {result.seconds:.6f} s  {figures}".rstrip()


# --- solvers -------------------------------------------------------------------------------------

KIND_LETTERS = {"all-different": "A", "differ": "D", "sum": "S", "increasing": "I"}
"""The one-letter names of the constraint kinds in the ``solvers`` matrix (``rules.KINDS``)."""
KIND_LEGEND = ("canon.: gives the canonical (lexicographically first) answer; limit: honours a time limit; "
               "complete: proves 'no solution' (an incomplete search, like local search, says 'time limit "
               "reached' instead); slow: yes, at a high price. rules: the constraint kinds it honours: "
               "A all-different groups (rows, columns, boxes, regions, diagonals, windows, cages' cells), "
               "D differing pairs (anti-knight, anti-king), S sums (killer cages), I increasing (thermometers); "
               "- refused (exit 2; compare and bench skip it)")


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
               Column("limit"), Column("complete", drop=2), Column("threads", drop=1), Column("rules")]
    words = {True: "yes", False: "no"}
    rows, styles, missing = [], [], []
    for solver in described:
        if not solver["installed"]:
            rows.append([solver["name"], "not installed", *"------"])
            styles.append("dim")
            missing.append(f"  {solver['name']}: {solver['why']}")
            continue
        caps = solver["capabilities"]
        slow = set(caps["slow"])
        rows.append([solver["name"], solver["paradigm"],
                     *("slow" if key in slow and caps[key] else words[caps[key]]
                       for key in ("canonical", "count", "time_limit")),
                     words[caps.get("complete", True)], caps["threads"],
                     kind_letters(caps.get("kinds", ("all-different",)))])
        styles.append(None)
    print_table(out, columns, rows, title="solvers", styles=styles, wide=wide)
    import textwrap

    width = min(out.width, 80) if not wide else out.width
    for line in missing:
        out.print(as_text(textwrap.fill(line, width, subsequent_indent="    ")))
    out.print(as_text(textwrap.fill(KIND_LEGEND, width)))
    for solver in described:
        kinds = solver.get("capabilities", {}).get("kinds", KIND_LETTERS)
        refused = [letter for kind, letter in KIND_LETTERS.items() if kind not in kinds]
        if solver["installed"] and refused:
            why = solver["capabilities"].get("kinds_why")
            line = f"  {solver['name']} refuses {', '.join(refused)}" + (f": {why}" if why else "")
            out.print(as_text(textwrap.fill(line, width, subsequent_indent="    ")))
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
            out.print(as_text(textwrap.fill(line, width, subsequent_indent="      ", break_on_hyphens=False)))


# --- compare -------------------------------------------------------------------------------------

def _before_colon(text: str) -> str:
    """A verdict without its reason ("skipped: cannot honour ..." is "skipped"), the short form of a cell."""
    return text.split(":")[0]


def render_comparison(comparison: Comparison, out: Console, *, wide: bool = False) -> None:
    """The comparison as a table (fitted by ``print_table``), then the verdict line. *set-up* is building
    the solver and its model for the board (``compare.run_solver``), *solve* the puzzle's own call."""
    columns = [Column("solver"), Column("status"), Column("set-up", "right", least=7),
               Column("solve", "right", least=7), Column("effort", wrap=True, drop=1),
               Column("valid", wrap=True, short=_before_colon),
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
    out.print(as_text(f"{comparison.agreement.value}: {comparison.reason}", "green" if comparison.agreed else "red"))


# --- datasets ------------------------------------------------------------------------------------

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
        out.print(as_text(f"data/...: members of {url}"), soft_wrap=True)
    where = str(folder) if folder is not None else "the user's cache folder (needs pooch)"
    out.print(as_text(f"Fetched sets are kept in {where} (SUDOKULAB_DATA names another folder); "
                      "get one with: sudokulab datasets fetch NAME"), soft_wrap=True)


# --- judge ---------------------------------------------------------------------------------------

@contextmanager
def judge_progress(total: int | None, dataset: str, *, enabled: bool = True) -> Iterator[Callable[[Case], None]]:
    """A progress bar while judging; yields the ``on_case`` hook for ``judge.judge_dataset``.

    Invalid dataset entries are reported above the bar as they come, with their line numbers.
    """
    from ..judge.run import Outcome

    with progress(total, enabled=enabled, label="judging") as bar:
        task = bar.task_ids[0]
        accepted = 0

        def on_case(case: Case) -> None:
            nonlocal accepted
            accepted += case.accepted
            bar.update(task, advance=1, tally=f"{accepted} accepted")
            if case.outcome is Outcome.INVALID_ENTRY:
                bar.console.print(as_text(f"sudokulab: {dataset}: {case.detail}"), soft_wrap=True)

        yield on_case


def render_judge_summary(summary: JudgeSummary, limits: Limits, out: Console) -> None:
    """The verdict counts and time figures as a table."""
    from ..judge.run import Outcome

    shown = [(outcome, count) for outcome, count in summary.counts.items()
             if count or outcome is not Outcome.INVALID_ENTRY]
    print_table(out, [Column("verdict"), Column("count", "right")],
                [[outcome.value, str(count)] for outcome, count in shown], title="judge summary",
                styles=["green" if outcome is Outcome.ACCEPTED else ("red" if count else "dim")
                        for outcome, count in shown])
    if summary.seconds:
        from statistics import fmean, median  # here: statistics imports fractions and decimal

        times = summary.seconds
        memory = f"{limits.memory_mb} MB" if limits.memory_mb else "none"
        out.print(as_text(
            f"runs: {len(times)}; time per run: min {min(times):.3f} s, median {median(times):.3f} s, "
            f"mean {fmean(times):.3f} s, max {max(times):.3f} s; total {sum(times):.2f} s "
            f"(limit {limits.seconds:g} s)\npeak memory: {summary.peak_rss_kb / 1024:.1f} MB (limit {memory})"
        ))


def render_failures(failures: Sequence[Failure], oracle_name: str, out: Console) -> None:
    """Each failure: the puzzle, the program's output and the oracle's answer side by side."""
    for failure in failures:
        case = failure.case
        if case.puzzle is None:
            continue
        n = case.puzzle.n
        # the detail quotes the program: escaped where it is made, and again here
        out.print(as_text(f"puzzle {case.index + 1} (dataset line {case.line}): {printable(str(case))}"))
        output = clip_output(case.run.stdout if case.run else b"", n, cut=bool(case.run and case.run.output_overflow))
        print_table(out, [Column("puzzle"), Column("program output"), Column(f"oracle ({oracle_name})")],
                    [[format_puzzle(case.puzzle).rstrip("\n"), output, failure.oracle_answer.rstrip("\n")]])


def clip_output(data: bytes, n: int, *, cut: bool = False) -> str:
    """A program's output for display: at most n + 2 lines of at most 3n characters, control characters
    shown, then how many lines were left out, counted over all of ``data`` ("at least" when ``cut``:
    the output passed the output limit and was read no further).

    >>> clip_output(b"1 2\\x1b[31m\\n", 9)
    '1 2\\\\x1b[31m'
    >>> clip_output(b"7\\n" * 1000, 1)
    '7\\n7\\n7\\n… (997 more lines)'
    """
    text = data[: 64 * 1024].decode("utf-8", "replace").replace("\r", "")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    shown = [printable(line if len(line) <= 3 * n else line[: 3 * n - 1] + "…") for line in lines[: n + 2]]
    total = data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)  # all of them, not the first 64 KB's
    if cut:
        shown.append(f"… (at least {max(total - len(shown), 0)} more lines)")  # read no further than the limit
    elif total > len(shown):
        shown.append(f"… ({total - len(shown)} more lines)")
    return "\n".join(shown) if shown else "(no output)"


# --- rate ----------------------------------------------------------------------------------------

def render_ratings(distributions: Sequence[Distribution], out: Console) -> None:
    """One table per dataset: puzzles per hardest technique, then the rating's quartiles."""

    for dist in distributions:
        extra = (f", {dist.failed} not rated" if dist.failed else "") + (
            f", {dist.stopped} stopped short (lower bounds)" if dist.stopped else "")
        title = f"{dist.dataset}: {puzzles_word(dist.rated)} rated{extra}"
        if not dist.rated:
            out.print(as_text(title))
            continue
        print_table(out, [Column("hardest technique"), Column("difficulty", "right"), Column("puzzles", "right"),
                          Column("share", "right")],
                    [[name, f"{difficulty:.1f}", str(count), f"{count / dist.rated:.0%}"]
                     for name, difficulty, count in dist.techniques], title=title)
        out.print(as_text(f"rating: median {dist.median:.2f}, quartiles {dist.q1:.2f} .. {dist.q3:.2f}, "
                          f"max {dist.max:.2f}; {dist.per_second:,.1f} puzzles rated per second"))


def rated_row(rated: Rated) -> str:
    """One per-puzzle row of ``rate --rows``: where it is, then its rating and hardest technique."""
    where = f"{rated.dataset}:{rated.line}"
    if rated.rating is None:
        return f"{where}\t-\t{rated.error}"
    r = rated.rating
    bound = " (stopped: at least)" if r.stopped else ""
    value = f"{r.rating:.2f}" if r.ep is None else f"ER/EP/ED {r.rating:.1f}/{r.ep:.1f}/{r.ed:.1f}"
    return f"{where}\t{value}\t{r.technique or 'givens only'}{bound}\t{r.steps} steps"


def ratings_histogram(ratings: dict[str, list[float]], path: str | Path) -> None:
    """The ratings of each dataset as one histogram picture, one colour per dataset."""
    import io

    from matplotlib import colormaps
    from matplotlib.figure import Figure

    from ..ui.plots import plot_output

    figure = Figure(figsize=(8, 4.5), layout="constrained")
    axes = figure.add_subplot()
    values = [v for vs in ratings.values() for v in vs]
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    bins = [low + (high - low + 0.2) * i / 40 for i in range(41)]
    palette = colormaps["tab10"]
    for i, (name, vs) in enumerate(ratings.items()):
        axes.hist(vs, bins=bins, alpha=0.55, color=palette(i % 10), label=f"{name} ({len(vs)})")
    axes.set_xlabel("rating (hardest step's difficulty)")
    axes.set_ylabel("puzzles")
    axes.legend()
    out = plot_output(path)
    buffer = io.BytesIO()
    figure.savefig(buffer, dpi=120, format=out.path.suffix.lstrip(".").lower())
    with out:
        out.write(buffer.getvalue())


# --- propagate, explain --------------------------------------------------------------------------

def render_ladder(rows: Sequence[LevelSummary], name: str) -> str:
    """The ladder table of ``propagate --summary`` as text."""
    lines = [f"propagation ladder of {name}: {puzzles_word(rows[0].puzzles if rows else 0)}",
             f"{'level':15} {'settled':>8} {'share':>7} {'contradictions':>15} {'candidates left (mean)':>23}"]
    for row in rows:
        share = f"{100 * row.settled / row.puzzles:.1f}%" if row.puzzles else "-"
        lines.append(f"{row.level:15} {row.settled:>8} {share:>7} {row.contradictions:>15} "
                     f"{row.candidates_mean:>23.1f}")
    return "\n".join(lines) + "\n"


def step_line(number: int, step: Any, n: int) -> str:
    """``  3. r3c3 = 9: hidden single in box 1 (...)  [from r1c1=1 r1c2=3 ...; box 1]``."""
    premises = " ".join(fact.label(n) for fact in step.premises)
    return f"{number:3d}. {step.text}  [from {premises or 'nothing'}; {', '.join(step.groups) or 'no rule'}]"


# --- check-encoding, check-solver ----------------------------------------------------------------

def check_lines(rows: Sequence[tuple[str, str, str]]) -> str:
    """One line per check of a student's file: status, check, reason, in aligned columns."""
    width = max((len(name) for _, name, _ in rows), default=0)
    return "".join(f"  {status:<7}  {name:<{width}}  {reason}\n" for status, name, reason in rows)


def failed_checks_line(target: str, statuses: Sequence[str]) -> None:
    """The one line on stderr that every non-zero exit ends with (the README's contract), after the report."""
    failed = statuses.count("failed")
    if failed:
        sys.stdout.flush()
        sys.stderr.write(f"sudokulab: {target}: {failed} of {len(statuses)} checks failed\n")
