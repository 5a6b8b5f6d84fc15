"""``sudokulab propagate``: one puzzle's pencil marks after a level of the ladder, or a dataset's ladder table.

The reasoning is ``reasoning.levels``'s and the table over a dataset ``reasoning.ladder``'s (here, or on
the workers of ``--jobs N`` or ``--cluster``); this command reads the input, runs it and prints
(text, ``--json``, a ``--draw`` picture). A failure's ``--json`` document is ``cli.main``'s
(``documents.emit_error``); a contradiction is reported by the puzzle's own document.
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Sequence

from ...core.puzzle import first_conflict
from ...datasets.catalog import resolve
from ...datasets.reading import Dataset, read_dataset
from ...errors import ExitCode, NoSolution, PuzzleFormatError, UsageError
from ...execution.cluster import check_where, open_executor
from ...formats.boj import format_grid, parse_box, source_name
from ...formats.documents import emit, rules_fields
from ...formats.outputs import OutputFile
from ...reasoning.candidates import Candidates
from ...reasoning.ladder import summarize
from ...reasoning.levels import DEFAULT_LEVEL, LEVELS, check_level, settle_why
from ...ui.drawing import draw_candidates
from ...ui.plots import PLOT_SUFFIXES, require_matplotlib
from ...ui.progress import progress
from ...ui.tables import puzzles_word
from ..options import dataset_rules, load, positive_int, rules_arguments, where_arguments

DESCRIPTION = ("The candidates left in every cell after a level of reasoning, each level including the ones "
               "before it. With --summary, PUZZLE is a dataset: one row per level, the puzzles it settles without "
               "search.")

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ...reasoning.candidates import Candidates
    from ...reasoning.ladder import LevelSummary


def configure(parser: argparse.ArgumentParser) -> None:

    parser.add_argument("puzzle", nargs="?", default="-",
                        help="puzzle file (with --summary: dataset file or fetched set's name), or - for stdin")
    parser.add_argument("--level", choices=LEVELS, metavar="L", help=f"one of: {', '.join(LEVELS)} (default: "
                        f"{DEFAULT_LEVEL}; with --summary every level up to L, default all four)")
    parser.add_argument("--box", metavar="RxC", help="box shape, e.g. 2x3 (default: from the size)")
    parser.add_argument("--summary", action="store_true", help="PUZZLE is a dataset: the ladder table")
    parser.add_argument("--limit", type=positive_int, metavar="K", help="with --summary: the first K puzzles")
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout instead")
    parser.add_argument("--draw", metavar="FILE", help="the pencil marks as a picture (.png, .svg or .pdf)")
    parser.add_argument("--quiet", action="store_true", help="with --summary: no progress bar")
    where_arguments(parser, "with --summary: climb the ladder", "with --summary: processes (default: 1)")
    rules_arguments(parser)


def run(args: argparse.Namespace) -> int:
    if args.summary:
        return _summary(args)
    return _one(args)


def _one(args: argparse.Namespace) -> int:

    if args.limit is not None or args.quiet or args.jobs != 1 or args.cluster is not None:
        raise UsageError("propagate: --limit, --quiet, --jobs and --cluster go with --summary")
    level = args.level or DEFAULT_LEVEL
    check_level(level)
    drawing = _draw_target(args.draw)
    puzzle = load(args)
    conflict = first_conflict(puzzle.givens, puzzle.rules)
    if conflict:
        marks, why = Candidates.start(puzzle, eliminate=False), f"the givens break a rule: {conflict}"
    else:
        marks, why = settle_why(Candidates.start(puzzle), level)
    status = "contradiction" if why is not None else "settled" if marks.settled else "open"
    if drawing is not None and why is None:
        _draw(marks, drawing, f"{level}: {status}")
    if args.json:

        n = puzzle.n
        emit({"size": n, "box": [puzzle.shape.box_rows, puzzle.shape.box_cols], **rules_fields(puzzle.rules),
              "level": level, "status": status, "reason": why,
              "candidates": [[marks.digits(r * n + c) for c in range(n)] for r in range(n)],
              "remaining": marks.remaining,
              "grid": [list(marks.grid()[r * n:(r + 1) * n]) for r in range(n)],
              "answer": format_grid(marks.grid(), n) if status == "settled" else None})
    elif status == "settled":
        sys.stdout.write("settled\n" + format_grid(marks.grid(), puzzle.n))
    elif status == "open":
        sys.stdout.write(marks.text())
    if why is not None:
        raise NoSolution(f"no solution (found at the {level} level): {why}")
    return ExitCode.OK


def _draw_target(path: str | None) -> Any:
    if path is None:
        return None

    require_matplotlib()
    return OutputFile(path, suffixes=PLOT_SUFFIXES, what="picture", binary=True)


def _draw(marks: Candidates, output: Any, title: str) -> None:
    """The pencil-mark picture, written whole (``outputs.OutputFile``)."""

    from matplotlib.figure import Figure


    n = marks.n
    figure = Figure(figsize=(0.62 * n + 0.6, 0.62 * n + 0.9), layout="constrained")
    draw_candidates(marks, figure.add_subplot(), title, fill_settled=True)
    buffer = io.BytesIO()
    figure.savefig(buffer, dpi=120, format=output.path.suffix.lstrip(".").lower())
    with output:
        output.write(buffer.getvalue())


def _summary(args: argparse.Namespace) -> int:

    if args.draw is not None:
        raise UsageError("propagate: --draw shows one puzzle; drop it with --summary")
    top = args.level or LEVELS[-1]
    check_level(top)
    check_where(args.jobs, args.cluster)
    path = resolve(args.puzzle)
    box = parse_box(args.box) if args.box else None
    name = source_name(path)
    rules = dataset_rules(args)

    def puzzles():
        for entry in read_dataset(path, box, rules=rules):
            if args.limit is not None and entry.index >= args.limit:
                return
            if entry.puzzle is None:
                raise PuzzleFormatError(f"{name} line {entry.line}: {entry.error}")
            yield entry.puzzle

    show = not args.quiet and sys.stderr.isatty()
    total = args.limit
    if show or args.jobs > 1 or args.cluster is not None:  # counted for the bar, or to spread the work
        total = Dataset.from_path(path, box=box, limit=args.limit).estimate()
    with open_executor(args.jobs, args.cluster) as executor, \
            progress(total, enabled=show, label="puzzles") as bar:
        task = bar.task_ids[0]
        rows = summarize(puzzles(), top, on_puzzle=lambda: bar.update(task, advance=1), executor=executor,
                         total=total)
    if not rows or not rows[0].puzzles:
        raise UsageError(f"propagate: no puzzles in '{name}'")
    if args.json:

        emit({"dataset": name, "puzzles": rows[0].puzzles, "levels": [row.to_json() for row in rows]})
    else:
        sys.stdout.write(render_ladder(rows, name))
    return ExitCode.OK


def render_ladder(rows: Sequence[LevelSummary], name: str) -> str:
    """The ladder table of ``propagate --summary`` as text."""
    lines = [f"propagation ladder of {name}: {puzzles_word(rows[0].puzzles if rows else 0)}",
             f"{'level':15} {'settled':>8} {'share':>7} {'contradictions':>15} {'candidates left (mean)':>23}"]
    for row in rows:
        share = f"{100 * row.settled / row.puzzles:.1f}%" if row.puzzles else "-"
        lines.append(f"{row.level:15} {row.settled:>8} {share:>7} {row.contradictions:>15} "
                     f"{row.candidates_mean:>23.1f}")
    return "\n".join(lines) + "\n"
