"""``sudokulab explain``: the solving path step by step, each with minimal premises, then the BOJ answer.

Exit codes: 0 when the steps reach the solution; 1 no solution (the line names a smallest set of
conflicting givens); 2 bad input; 3 when the steps stop before the solution (``--max-level``
reached, ``--time-limit`` reached, or the puzzle has several solutions: ``explain.ExplanationStopped``,
a ``TimeLimitReached``), after printing the steps found; 4 when ``--check`` finds a step SAT does
not certify (a bug).

More: docs/explain.md.
"""

from __future__ import annotations

import argparse
import os
import sys

from ...core.cells import cell_label
from ...errors import ExitCode, NoSolution, SolverBug, UsageError
from ...formats.boj import format_grid, read_text, source_name
from ...formats.documents import emit, puzzle_fields
from ...formats.marks import parse_marks
from ...reasoning.conflicts import why_no_solution
from ...reasoning.explain import ExplanationStopped, explain, level
from ...reasoning.hint import hint
from ...reasoning.step_check import check_step
from ...ui.console import prose
from ...ui.step_pictures import check_directory, draw_steps
from ...ui.step_viewer import write_page
from ..options import from_terminal, load, positive_float, puzzle_arguments

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ...core.puzzle import Puzzle


def configure(parser: argparse.ArgumentParser) -> None:
    puzzle_arguments(parser, solver=False)
    parser.add_argument("--max-level", metavar="LEVEL",
                        help="stop where this toolbox ends: a technique name (e.g. hidden-single, x-wing) "
                        "or a difficulty (e.g. 2.6); exit 3 when the puzzle needs more")
    parser.add_argument("--check", action="store_true",
                        help="certify every step with SAT (premises + named rules + negated conclusion unsatisfiable)")
    parser.add_argument("--no-minimise", dest="minimal", action="store_false",
                        help="keep each technique's own premises instead of minimising them with SAT (faster)")
    parser.add_argument("--draw", metavar="DIR", help="write one picture per step here (step-001.png, ...)")
    parser.add_argument("--html", metavar="FILE",
                        help="write one self-contained page that steps through the explanation (docs/explain.md)")
    parser.add_argument("--time-limit", type=positive_float, metavar="SECONDS",
                        help="stop after this many seconds (exit 3)")
    parser.add_argument("--json", action="store_true",
                        help="one JSON document on stdout instead (steps with premises and groups, grid, answer)")
    parser.add_argument("--scale", choices=("sudokulab", "se"), default="sudokulab",
                        help="sudokulab: our catalogue's path (default); se: Sudoku Explainer's path as serate "
                        "takes it, each step with SE's name and difficulty, then ER/EP/ED (standard 9x9 only; "
                        "docs/rating.md)")
    hint = parser.add_argument_group("a hint", "The one next step from a student's position, nothing more "
                                     "(docs/explain.md). Exit 1 when the position has a mistake (one line says where).")
    hint.add_argument("--next", action="store_true",
                      help="give only the next step (from --progress, or from the givens), never the solution")
    hint.add_argument("--progress", metavar="FILE",
                      help="with --next: the grid as the student has it, in the puzzle's format (givens included)")
    hint.add_argument("--marks", metavar="FILE",
                      help="with --next: the student's pencil marks, n lines of n words (137, 1,3,10, or . for none)")


def run(args: argparse.Namespace) -> int:

    puzzle = load(args)
    if args.scale == "se":
        return _se_path(args, puzzle)
    if args.next:
        return _next(args, puzzle)
    if args.progress or args.marks:
        raise UsageError("--progress and --marks go with --next (the hint from a student's position)")
    level(args.max_level)  # a bad level is refused before any work
    if args.draw:

        check_directory(args.draw)
    try:
        explanation = explain(puzzle, max_level=args.max_level, minimal=args.minimal, time_limit=args.time_limit)
    except NoSolution:
        raise _no_solution(puzzle, args.json) from None
    certified = None
    if args.check:
        for number, step in enumerate(explanation.steps, 1):
            if not check_step(puzzle, step):
                raise SolverBug(f"step {number} is not certified by SAT: {step.text}")
        certified = True
    if args.draw:

        draw_steps(args.draw, puzzle, explanation)  # one picture per step, premises and conclusion marked
    if args.html:

        write_page(args.html, puzzle, explanation_json(puzzle, explanation, certified),
                   f"sudokulab explain {source_name(args.puzzle)}")
    n = puzzle.n
    if args.json:

        emit(explanation_json(puzzle, explanation, certified))
    else:
        lines = [step_line(i + 1, step, n) for i, step in enumerate(explanation.steps)]
        if certified:
            lines.append(f"every step certified by SAT: {len(explanation.steps)} steps")
        for line in lines:  # wrapped at the terminal's width, a step's continuation indented; whole in a file
            prose(line, indent="      ")
        if explanation.grid is not None:
            sys.stdout.write(format_grid(explanation.grid, n))
    if explanation.stopped:
        raise ExplanationStopped(explanation.stopped)
    if args.draw:
        prose(f"{len(explanation.steps)} pictures in {os.fspath(args.draw)}", stderr=True)
    if args.html:
        prose(f"{len(explanation.steps)} steps in {os.fspath(args.html)}", stderr=True)
    return ExitCode.OK


def _se_path(args: argparse.Namespace, puzzle: Puzzle) -> int:
    """``--scale se``: serate's path, a line per step (SE's name and difficulty, what it places and
    strikes), then ER/EP/ED and the answer; exit 3 when the rules or the time run out first."""
    from ...formats.boj import format_grid
    from ...reasoning.explain import ExplanationStopped
    from ...reasoning.rating import se_path

    for flag, value in (("--next", args.next), ("--json", args.json), ("--check", args.check), ("--draw", args.draw),
                        ("--html", args.html), ("--max-level", args.max_level), ("--progress", args.progress),
                        ("--marks", args.marks)):
        if value:
            raise UsageError(f"{flag} does not go with --scale se (serate's path is shown as text)")
    found = se_path(puzzle, time_limit=args.time_limit)
    lines = [f"{number:3d}. {step.technique} ({step.difficulty:.1f}): {step.text}"
             for number, step in enumerate(found.steps, 1)]
    lines.append(f"ER/EP/ED {found.er:.1f}/{found.ep:.1f}/{found.ed:.1f}"
                 + (" (stopped: ER at least)" if found.stopped else ""))
    sys.stdout.write("".join(line + "\n" for line in lines))
    grid = list(puzzle.givens)
    for step in found.steps:
        for cell, value in step.placed:
            grid[cell] = value
    if all(grid):
        sys.stdout.write(format_grid(tuple(grid), 9))
        return ExitCode.OK
    raise ExplanationStopped("serate's rules ran out before the solution" if not found.stopped
                             else f"time limit reached after {len(found.steps)} steps")


def _next(args: argparse.Namespace, puzzle: Puzzle) -> int:
    """``--next``: the one next step from the student's position, or the line naming its mistakes."""

    for flag, value in (("--draw", args.draw), ("--html", args.html), ("--max-level", args.max_level),
                        ("--time-limit", args.time_limit)):
        if value is not None:
            raise UsageError(f"{flag} does not go with --next (it gives one step)")
    n = puzzle.n
    progress = None
    if args.progress:
        mine = load(args, source=args.progress)
        if mine.n != n:
            raise UsageError(f"the progress is a {mine.n}x{mine.n} grid, the puzzle {n}x{n}")
        progress = mine.givens
    if args.marks:
        from_terminal(args.marks, "the pencil marks", "them")
    marks = parse_marks(read_text(args.marks), n, source_name(args.marks)) if args.marks else None
    found = hint(puzzle, progress, marks, minimal=args.minimal)
    certified = None
    if args.check and found.step is not None:
        if not check_step(puzzle, found.step):
            raise SolverBug(f"the next step is not certified by SAT: {found.step.text}")
        certified = True
    mistakes = "; ".join(m.text(n) for m in found.mistakes)
    if args.json:

        emit({**puzzle_fields(puzzle),
              "next": None if found.step is None else step_json(1, found.step, n),
              "mistakes": [{"kind": m.kind, "cell": None if m.cell is None else cell_label(m.cell, n),
                            "digit": m.digit, "text": m.text(n)} for m in found.mistakes],
              "stopped": found.stopped, "certified": certified})
    elif found.step is not None:
        prose("next: " + step_line(1, found.step, n).split(". ", 1)[1], indent="      ")
    elif found.stopped and not found.mistakes:
        prose(found.stopped, indent="  ")
    if found.mistakes:
        raise NoSolution(f"your position has a mistake: {mistakes}")
    if found.step is None and found.stopped and "several solutions" in found.stopped:
        raise ExplanationStopped(found.stopped)
    return ExitCode.OK


def _pairs(pairs: tuple[tuple[int, int], ...], n: int) -> list[dict[str, Any]]:
    return [{"cell": cell_label(cell, n), "digit": digit} for cell, digit in pairs]


def step_json(number: int, step: Any, n: int) -> dict[str, Any]:
    """One step of the ``explain --json`` document."""
    found = {
        "number": number, "technique": step.technique, "difficulty": step.difficulty,
        "placed": _pairs(step.placed, n), "removed": _pairs(step.removed, n),
        "premises": [{"cell": cell_label(f.cell, n), "digit": f.digit, "holds": f.holds, "text": f.label(n)}
                     for f in step.premises],
        "groups": list(step.groups), "text": step.text,
    }
    if getattr(step, "chain", ()):
        found["chain"] = [{"cells": [cell_label(c, n) for c in node.cells], "digit": node.digit,
                           "holds": node.holds, "why": node.why, "source": node.source} for node in step.chain]
    return found


def explanation_json(puzzle: Puzzle, explanation: Any, certified: bool | None) -> dict[str, Any]:
    """The ``explain --json`` document (``schemas/explain.schema.json``)."""

    n = puzzle.n
    grid = explanation.grid
    hardest = explanation.hardest
    return {
        **puzzle_fields(puzzle),
        "steps": [step_json(i + 1, step, n) for i, step in enumerate(explanation.steps)],
        "hardest": None if hardest is None else {"technique": hardest.technique, "difficulty": hardest.difficulty},
        "stopped": explanation.stopped,
        "certified": certified,
        "grid": [list(grid[r * n:(r + 1) * n]) for r in range(n)] if grid else None,
        "answer": format_grid(grid, n) if grid else None,
    }


def _no_solution(puzzle: Puzzle, as_json: bool) -> NoSolution:
    """The no-solution line naming a smallest set of conflicting givens, the rules that forbid them
    and the givens to remove (``conflicts``); with ``--json`` the document says it too (``conflict``)."""

    conflict = why_no_solution(puzzle)
    message = f"no solution: {conflict.text()}"
    if as_json:

        emit({**puzzle_fields(puzzle), "steps": [], "hardest": None, "stopped": message, "certified": None,
              "grid": None, "answer": None, "conflict": conflict.document()})
    return NoSolution(message)


def step_line(number: int, step: Any, n: int) -> str:
    """``  3. r3c3 = 9: hidden single in box 1 (...)  [from r1c1=1 r1c2=3 ...; box 1]``."""
    premises = " ".join(fact.label(n) for fact in step.premises)
    return f"{number:3d}. {step.text}  [from {premises or 'nothing'}; {', '.join(step.groups) or 'no rule'}]"
