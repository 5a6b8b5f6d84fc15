"""``sudokulab grade``: a whole class graded at once, each student in a process of its own.

Each student's submission goes through ``judge``, ``check-solver`` or ``check-encoding`` as a
process of its own (``grading.grader``); results are stored as they come and reused by a rerun, and
the gradebook is written from them (``grading.gradebook``, docs/grading.md "A whole class"). Exit 0
when every submission has a result, whatever the students scored; 2 for bad usage.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from ...datasets.reading import read_dataset
from ...errors import ExitCode, UsageError
from ...execution.isolation import check
from ...formats.boj import format_puzzle, source_name
from ...formats.documents import emit
from ...grading import gradebook
from ...grading.contract import BOJ_SAMPLE
from ...grading.gradebook import row_of
from ...grading.grader import GradeOptions
from ...grading.templates.solver_template import StudentSolver
from ...ui.progress import progress
from ..options import dataset_file, json_argument, memory_mb, positive_float, where_arguments

USAGE = "sudokulab grade SUBMISSIONS/ --task judge|solver|encoding [options]"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("submissions", metavar="SUBMISSIONS",
                        help="a folder holding one file or one folder per student, named after the student")
    parser.add_argument("--task", required=True, choices=("judge", "solver", "encoding"),
                        help="judge: each student's program judged over --dataset; solver: check-solver on "
                        "FILE:CLASS; encoding: check-encoding on FILE")
    parser.add_argument("--out", metavar="DIR",
                        help="where the gradebook, the reports and the stored results go (default: "
                        "SUBMISSIONS-gradebook, beside SUBMISSIONS)")
    where_arguments(parser, "grade each student", "students graded at once on this machine (default: 1)")
    parser.add_argument("--dataset", metavar="DATASET",
                        help="judge: the puzzles (a file or a fetched set's name; default: the BOJ 2580 sample)")
    parser.add_argument("--time-limit", type=positive_float, default=1.0, metavar="SECONDS",
                        help="judge: wall time per puzzle (default: 1)")
    parser.add_argument("--memory-limit", type=memory_mb, default=256, metavar="MB",
                        help="judge: peak memory per run (default: 256; Java gets -Xmx of half)")
    parser.add_argument("--isolation", choices=("bwrap", "none"), default="bwrap",
                        help="judge: each run inside bubblewrap (default: bwrap), or trusted (none)")
    parser.add_argument("--class", dest="class_name", metavar="NAME",
                        help="solver: the class in each file (default: the template's, StudentSolver)")
    parser.add_argument("--refuse-library-solvers", action="store_true",
                        help="solver, encoding: a student's code may not import sudokulab's own solvers (without "
                        "it, the gradebook says which it imports)")
    parser.add_argument("--compile-timeout", type=positive_float, default=60.0, metavar="SECONDS",
                        help="judge: time to compile one submission, where it is graded (default: 60)")
    parser.add_argument("--student-timeout", type=positive_float, metavar="SECONDS",
                        help="wall-time cap of one student's grader (default: 300, plus for judge twice the "
                        "time limit and a second per puzzle)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    json_argument(parser, "the gradebook document on stdout (gradebook.json's content)")


def run(args: argparse.Namespace) -> int:


    if args.jobs > 1 and args.cluster:
        raise UsageError("grade: --jobs grades on this machine, --cluster on the cluster's workers: give one")
    for flag, task in (("dataset", "judge"), ("class_name", "solver")):
        if getattr(args, flag) is not None and args.task != task:
            raise UsageError(f"grade: --{flag.replace('_name', '')} goes with --task {task}")
    if args.refuse_library_solvers and args.task == "judge":
        raise UsageError("grade: --refuse-library-solvers goes with --task solver or encoding")
    folder = Path(args.submissions)
    out = Path(args.out) if args.out else folder.resolve().parent / f"{folder.resolve().name}-gradebook"
    options = _options(args)
    if args.task == "judge" and args.isolation == "bwrap" and not args.cluster:

        check("bwrap")  # before any student: where bubblewrap cannot run, one line and exit 2
    submissions = gradebook.find_submissions(folder, skip=out)
    show = not args.quiet and sys.stderr.isatty()
    with gradebook.Gradebook(out) as book, progress(None, enabled=show, label="") as bar:
        task = bar.add_task("grading", total=None, tally="")

        def started(count: int) -> None:
            bar.update(task, total=count)

        def finished(result: gradebook.StudentResult) -> None:
            bar.update(task, advance=1, tally=gradebook.inert(result.student))

        ran = gradebook.grade_class(submissions, options, book, jobs=args.jobs, cluster=args.cluster,
                                    on_start=started, on_result=finished)
        document = _document(ran, options, folder, out)
        book.write_tables(document)
    if args.json:
        emit(document)
    summary = document["summary"]
    print(f"grade: {summary['students']} students: {summary['graded_now']} graded now, {summary['kept']} kept "
          f"from earlier runs; {summary['full_marks']} with every {'puzzle' if args.task == 'judge' else 'check'} "
          f"passed, {summary['not_graded']} not graded" + (f"; ran on {ran.where}" if ran.where else "")
          + (f", {ran.retried} run again after a worker died" if ran.retried else "")
          + f"; gradebook: {out / 'gradebook.csv'}", file=sys.stderr)
    return ExitCode.OK


def _options(args: argparse.Namespace):  # noqa: ANN202 - grading.grader.GradeOptions, imported when run
    """The task's options, the dataset read (judge) and the class named (solver)."""

    fields = {"task": args.task, "time_limit": args.time_limit, "memory_limit": args.memory_limit or 0,
              "isolation": args.isolation, "compile_timeout": args.compile_timeout,
              "student_timeout": args.student_timeout, "refuse_library_solvers": args.refuse_library_solvers}
    if args.task == "solver":

        fields["class_name"] = args.class_name or StudentSolver.__name__
    if args.task == "judge":
        fields.update(_dataset(args.dataset))
    return GradeOptions(**fields)


def _dataset(argument: str | None) -> dict:
    """judge's dataset: its text, its name, how many entries and puzzles it holds."""


    if argument is None:

        data, name = format_puzzle(BOJ_SAMPLE).encode(), "the BOJ 2580 sample"
    else:
        if argument == "-":
            raise UsageError("grade: --dataset must be a file (standard input is read once, by one student)")
        path = dataset_file(argument)
        try:
            data = Path(path).read_bytes()
        except OSError as exc:
            raise UsageError(f"grade: cannot read '{source_name(path)}': {exc.strerror or exc}") from None
        name = source_name(argument)
    with tempfile.NamedTemporaryFile(suffix=".txt") as copy:  # counted as judge will read it
        copy.write(data)
        copy.flush()
        entries = puzzles = 0
        for entry in read_dataset(copy.name):
            entries, puzzles = entries + 1, puzzles + entry.ok
    if not puzzles:
        raise UsageError(f"grade: no puzzles in '{name}'")
    return {"dataset": data, "dataset_name": name, "entries": entries, "puzzles": puzzles}


def _document(ran, options, folder, out) -> dict:  # noqa: ANN001 - grading.gradebook types, imported when run
    """The gradebook document (gradebook.json, and stdout with --json)."""

    rows = [row_of(result) for result in ran.results]
    return {
        "task": options.task, "submissions": str(folder), "out": str(out),
        "options": {key: value for key, value in options.digest_fields().items() if key != "dataset"}
        | ({"dataset": options.dataset_name, "puzzles": options.puzzles} if options.task == "judge" else {}),
        "summary": {"students": len(rows), "graded_now": ran.graded_now, "kept": ran.kept,
                    "full_marks": sum(r["status"] == "graded" and r["passed"] == r["total"] for r in rows),
                    "not_graded": sum(r["status"] != "graded" for r in rows), "where": ran.where,
                    "retried": ran.retried},
        "students": rows,
    }
