"""One student's submission graded by a ``sudokulab`` process of its own, its JSON read strictly.

Why a process per student: whatever the submission does to the process that grades it (exits at
import, loops, prints megabytes, breaks the interpreter), it does to that process alone; here it
becomes that student's failure, in words ("the grader ended with exit code 0 and printed no
document for this submission"), and the class goes on. The grader is ``sys.executable -m
sudokulab judge|check-solver|check-encoding ... --json``, run capped (``capped_process``: a session
of its own, a wall-time cap and an output cap, SIGTERM when the thread that started it dies, so a
``kill -9`` of ``grade`` leaves no grader behind). Its document is checked field by field
(``grader_documents``): anything else is the grader's failure, never a score.

``grade_student`` runs where the student is graded: a thread of ``grade --jobs N`` or a task on a
Dask worker. The submission travels as a tar archive (``StudentJob.packed``), is unpacked into a
temporary folder there, and, for the judge task, compiled there (the binary must run where it was
built), with its own time limit (``submission_program``); a compile error is the student's failure.
"""

from __future__ import annotations

import io
import os
import shutil
import sys
import tarfile
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..execution.capped_process import Ended, run_capped
from .documents import CHECK_STATUSES, ENCODING_KEYS, JUDGE_OUTCOMES, SOLVER_KEYS, check_document, judge_rows
from .submission import program_of, python_file

TASKS = ("judge", "solver", "encoding")
"""judge: the student's program judged over a dataset; solver: the solver contract on a class;
encoding: a SAT or CP-SAT model graded."""


@dataclass(frozen=True)
class GradeOptions:
    """What a class is graded on: the task and its settings. Part of each result's digest."""

    task: str
    dataset: bytes = b""
    """judge: the dataset's text, sent to wherever the student is graded."""
    dataset_name: str = ""
    puzzles: int = 0
    """judge: the puzzles in the dataset (its entries that are puzzles)."""
    entries: int = 0
    """judge: every entry of the dataset, puzzles or not (the rows judge prints)."""
    class_name: str = "StudentSolver"
    time_limit: float = 1.0
    memory_limit: int = 256
    isolation: str = "bwrap"
    compile_timeout: float = 60.0
    student_timeout: float | None = None
    """The wall-time cap of one student's grader; None: ``cap``'s default."""

    @property
    def cap(self) -> float:
        """The grader's wall-time cap: the given one, else 300 s, plus for judge twice the time limit
        (and a second) per puzzle."""
        if self.student_timeout is not None:
            return self.student_timeout
        return 300.0 + (2 * (self.time_limit + 1) * self.entries if self.task == "judge" else 0)

    def digest_fields(self) -> dict[str, Any]:
        """The options that decide a grade, as one JSON-able value (the dataset by its SHA-256)."""
        import hashlib

        fields = {"task": self.task, "version": _version()}
        if self.task == "judge":
            fields.update(dataset=hashlib.sha256(self.dataset).hexdigest(), time_limit=self.time_limit,
                          memory_limit=self.memory_limit, isolation=self.isolation)
        if self.task == "solver":
            fields["class"] = self.class_name
        return fields


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("sudokulab")
    except PackageNotFoundError:
        return "unknown"


@dataclass(frozen=True)
class StudentJob:
    """One student to grade, as it travels to a worker: name, the submission packed, the options."""

    student: str
    submission: str
    """The file or folder name inside SUBMISSIONS/."""
    packed: bytes
    options: GradeOptions
    digest: str


@dataclass(frozen=True)
class Check:
    """One line of a student's report: a check (or a judged puzzle) and its outcome."""

    name: str
    status: str
    reason: str = ""


@dataclass(frozen=True)
class StudentResult:
    """One student graded: the score, the counts, time and memory, and the first failure in words."""

    student: str
    submission: str
    digest: str
    status: str
    """``graded`` (the grader's document was read) or ``not graded`` (no program, a compile error,
    a grader that broke: ``first_failure`` says which)."""
    passed: int
    total: int
    counts: dict[str, int] = field(default_factory=dict)
    """judge: runs per verdict; solver and encoding: checks per status."""
    seconds: float = 0.0
    """judge: the runs' wall times summed; solver and encoding: the grader's wall time."""
    peak_kb: int = 0
    """judge: the largest peak memory of a run; solver and encoding: the grader's."""
    first_failure: str = ""
    program: str = ""
    """judge: the command run, as words."""
    checks: tuple[Check, ...] = ()

    def to_json(self) -> dict[str, Any]:
        from dataclasses import asdict

        return asdict(self)

    @classmethod
    def from_json(cls, data: Any) -> StudentResult:
        """Back from ``to_json``; ValueError for anything else (a stored result damaged by hand)."""
        try:
            checks = tuple(Check(**c) for c in data.pop("checks"))
            result = cls(**data, checks=checks)
        except (TypeError, AttributeError, KeyError) as exc:
            raise ValueError(f"not a stored result: {exc}") from None
        if not (isinstance(result.student, str) and isinstance(result.passed, int) and
                isinstance(result.total, int) and isinstance(result.counts, dict)):
            raise ValueError("not a stored result: fields of the wrong type")
        return result


# --- one student ---------------------------------------------------------------------------------

def grade_student(job: StudentJob) -> StudentResult:
    """Grade one student where this runs (a thread here, a Dask worker): unpack, build, grade, read."""
    try:
        work = Path(tempfile.mkdtemp(prefix="sudokulab-grade-"))
    except OSError as exc:
        raise UsageError(f"grade: cannot make a temporary folder to grade '{job.student}': {exc.strerror or exc}") \
            from None
    try:
        with tarfile.open(fileobj=io.BytesIO(job.packed)) as archive:
            if hasattr(tarfile, "data_filter"):
                archive.extractall(work / "submission", filter="data")
            else:
                archive.extractall(work / "submission")  # noqa: S202 - made by gradebook.pack, no links
        submission = work / "submission" / job.submission
        if job.options.task == "judge":
            return _judge(job, submission, work)
        return _check(job, submission, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _result(job: StudentJob, status: str, passed: int, total: int, failure: str = "", **fields: Any) -> StudentResult:
    return StudentResult(job.student, job.submission, job.digest, status, passed, total,
                         first_failure=failure, **fields)


def _sudokulab(*arguments: str) -> list[str]:
    return [sys.executable, "-m", "sudokulab", *arguments]


def _grader_failure(ended: Ended, cap: float, problem: str = "") -> str:
    why = problem or ("printed no document" if not ended.stdout.strip() else "printed what its --json never prints")
    last = ended.last_error_line()
    return (f"the grader {ended.how(cap)} and {why} for this submission"
            + (f" (its last error line: {last})" if last and not ended.timed_out else ""))


def _check(job: StudentJob, submission: Path, work: Path) -> StudentResult:
    """solver or encoding: ``check-solver FILE:CLASS --json`` or ``check-encoding FILE --json``."""
    source, why = python_file(submission)
    if source is None:
        return _result(job, "not graded", 0, 0, why)
    options = job.options
    here = submission.parent  # the path as the grader is given it, so no temporary folder shows in a reason
    named = source.relative_to(here).as_posix()
    if options.task == "solver":
        argv, keys = _sudokulab("check-solver", f"{named}:{options.class_name}", "--json"), SOLVER_KEYS
    else:
        argv, keys = _sudokulab("check-encoding", named, "--json"), ENCODING_KEYS
    ended = run_capped(argv, here, options.cap)
    document, problem = check_document(ended, keys)
    timing = {"seconds": round(ended.seconds, 3), "peak_kb": ended.peak_kb}
    if document is None:
        return _result(job, "not graded", 0, 0, problem or _grader_failure(ended, options.cap), **timing)
    if "error" in document:
        return _result(job, "not graded", 0, 0, f"the grader refused the submission: {document['error']}", **timing)
    checks = tuple(Check(c["check"], c["status"], c["reason"] or "") for c in document["checks"])
    counts = {status: sum(c.status == status for c in checks) for status in CHECK_STATUSES}
    failed = next((c for c in checks if c.status == "failed"), None)
    return _result(job, "graded", counts["passed"], counts["passed"] + counts["failed"],
                   f"{failed.name}: {failed.reason}" if failed else "", counts=counts, checks=checks, **timing)


# --- the judge task ------------------------------------------------------------------------------

def _judge(job: StudentJob, submission: Path, work: Path) -> StudentResult:
    """judge: the program found and built, then ``judge DATASET --json -- COMMAND``."""
    options = job.options
    total = options.puzzles
    command, problem = program_of(submission, work / "build", options)
    if command is None:
        return _result(job, "not graded", 0, total, problem)
    program = " ".join(Path(a).name if os.sep in a else a for a in command)
    dataset = work / "dataset.txt"
    dataset.write_bytes(options.dataset)
    argv = _sudokulab("judge", str(dataset), "--json", "--quiet", "--show-failures", "0",
                      "--time-limit", f"{options.time_limit:g}", "--memory-limit", str(options.memory_limit),
                      "--isolation", options.isolation, "--", *command)
    ended = run_capped(argv, work, options.cap)
    rows, problem = judge_rows(ended, options.entries)
    if rows is None:
        return _result(job, "not graded", 0, total, problem or _grader_failure(ended, options.cap),
                       program=program)
    if isinstance(rows, str):
        return _result(job, "not graded", 0, total, f"the grader refused the submission: {rows}", program=program)
    runs = [row for row in rows if row["outcome"] != "invalid dataset entry"]
    counts = {outcome: sum(row["outcome"] == outcome for row in runs) for outcome in JUDGE_OUTCOMES[:-1]}
    checks = tuple(Check(f"puzzle {row['index'] + 1} (line {row['line']})", row["outcome"], row["detail"] or "")
                   for row in runs)
    failed = next((c for c in checks if c.status != "accepted"), None)
    return _result(job, "graded", counts["accepted"], len(runs),
                   f"{failed.name}: {failed.status}{': ' + failed.reason if failed.reason else ''}" if failed else "",
                   counts=counts, seconds=round(sum(row["seconds"] for row in runs), 3),
                   peak_kb=max((row["peak_rss_kb"] for row in runs), default=0), program=program, checks=checks)


