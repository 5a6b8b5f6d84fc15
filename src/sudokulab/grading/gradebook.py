"""A whole class graded: its submissions found, each student graded once, the gradebook written.

SUBMISSIONS/ holds one file or one folder per student, named after the student; each submission is
packed once, safely (``execution.safe_copy``), and keyed by a digest of its bytes and of the options
that decide a grade (``GradeOptions.digest_fields``). Each student's result and report are written
atomically as soon as they arrive, so a run grades only the students without a stored result of
the same digest: a Ctrl-C, a ``kill -9`` or a lost Dask worker loses no finished result and grades
none twice. ``gradebook.csv`` and ``gradebook.json`` are rewritten from the stored results when
every student has one, every text a student controls made inert; a lock on ``.grade.lock`` keeps
two runs off one folder. Students are graded by ``jobs`` threads here, each waiting on its
student's grader process (``grading.grader``), or one task per student on a Dask cluster.

The output folder, resuming and the lock: docs/grading.md ("A whole class").
"""

from __future__ import annotations

import csv
import fcntl
import hashlib
import io
import json
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..execution import safe_copy
from ..execution.capped_process import allow_graders, stop_graders
from ..formats.outputs import write_text
from .documents import JUDGE_OUTCOMES
from .grader import GradeOptions, StudentJob, StudentResult, grade_student, inert, remove_tree

MAX_SUBMISSION_BYTES = 16 << 20
"""A submission whose files hold more than this is not graded (checked before reading): it is no
source file, and it travels to every worker."""


@dataclass(frozen=True)
class Submission:
    """A student's file or folder in SUBMISSIONS/, packed, or why it cannot be."""

    student: str
    name: str
    packed: bytes = b""
    problem: str = ""


def find_submissions(folder: Path, skip: Path | None = None) -> list[Submission]:
    """One submission per entry of ``folder`` (sorted by student), ``skip`` (the output folder) aside."""
    if not folder.is_dir():
        raise UsageError(f"grade: '{folder}' is not a folder of submissions")
    found: dict[str, Submission] = {}
    for entry in sorted(folder.iterdir()):
        if entry.name.startswith(".") or entry.name == "__pycache__" or (skip and entry.resolve() == skip.resolve()):
            continue
        student = entry.name if entry.is_dir() and not entry.is_symlink() else entry.stem
        if student in found:
            raise UsageError(f"grade: two submissions for '{student}': '{found[student].name}' and '{entry.name}'; "
                             "keep one file or folder per student")
        found[student] = pack(entry, student)
    if not found:
        raise UsageError(f"grade: no submissions in '{folder}' (one file or folder per student)")
    return list(found.values())


def pack(entry: Path, student: str) -> Submission:
    """The submission as a tar archive (``execution.safe_copy``: no link followed, sizes bounded before
    reading), or why not: a link, a FIFO or a device inside, too large, unreadable."""
    try:
        packed = safe_copy.pack(entry, entry.name, safe_copy.Bounds(MAX_SUBMISSION_BYTES))
    except safe_copy.CopyRefused as why:
        return Submission(student, entry.name, problem=f"not graded: {why}")
    return Submission(student, entry.name, packed)


def digest(submission: Submission, options: GradeOptions) -> str:
    """The key of a stored result: the submission's bytes and the options that decide its grade."""
    hashed = hashlib.sha256(json.dumps(options.digest_fields(), sort_keys=True).encode())
    hashed.update(submission.name.encode() + b"\0" + (submission.packed or submission.problem.encode()))
    return hashed.hexdigest()[:32]


# --- the output folder ---------------------------------------------------------------------------

class Gradebook:
    """The output folder: stored results and reports, the tables, and the lock that makes it this run's."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.work = folder / ".work"
        """The students' work folders (their code unpacked, built, graded), mode 700: emptied when a run
        takes the lock, so what a killed run left there goes with the next one, and at the end."""
        self._lock_fd: int | None = None

    def __enter__(self) -> Gradebook:
        try:
            for part in ("results", "reports"):
                (self.folder / part).mkdir(parents=True, exist_ok=True)
            fd = os.open(self.folder / ".grade.lock", os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise UsageError(f"grade: cannot write in '{self.folder}': {exc.strerror or exc}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise UsageError(f"grade: another grade run is writing '{self.folder}' now; wait for it, or "
                             "give another --out") from None
        self._lock_fd = fd
        try:
            remove_tree(self.work)
            self.work.mkdir(mode=0o700)
            self.work.chmod(0o700)
        except OSError as exc:
            self.__exit__()
            raise UsageError(f"grade: cannot make '{self.work}': {exc.strerror or exc}") from None
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._lock_fd is not None:
            remove_tree(self.work)
            os.close(self._lock_fd)
            self._lock_fd = None

    def result_path(self, student: str) -> Path:
        return self.folder / "results" / f"{student}.json"

    def stored(self, student: str, key: str) -> StudentResult | None:
        """The stored result of ``student`` for this digest, or None (none, another digest, damaged)."""
        try:
            data = json.loads(self.result_path(student).read_text("utf-8"))
            result = StudentResult.from_json(data["result"])
        except (OSError, ValueError, KeyError, TypeError):
            return None
        return result if data.get("digest") == key == result.digest and result.student == student else None

    def store(self, result: StudentResult, report: str) -> None:
        """The report, then the result (the mark of a finished student), each written atomically."""
        write_text(self.folder / "reports" / f"{result.student}.txt", report)
        write_text(self.result_path(result.student),
                   json.dumps({"digest": result.digest, "result": result.to_json()}, indent=1) + "\n")

    def write_tables(self, document: dict[str, Any]) -> None:
        """``gradebook.json`` (the document) and ``gradebook.csv`` (its rows), whole or not at all."""
        from ..formats.documents import dumps

        write_text(self.folder / "gradebook.json", dumps(document) + "\n")
        write_text(self.folder / "gradebook.csv", csv_text(document))


CSV_FIELDS = ("student", "status", "passed", "total", "seconds", "peak_memory_mb", "first_failure", "submission")


def csv_text(document: dict[str, Any]) -> str:
    """The gradebook as CSV: a row per student; judge adds a column per verdict, the others ``skipped``
    and the built-in solvers the student's code imports. Every text a student controls is ``inert``:
    escaped for terminals, never a spreadsheet formula."""
    judged = document["task"] == "judge"
    counted = list(JUDGE_OUTCOMES[:-1]) if judged else ["skipped"]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*CSV_FIELDS[:4], *counted, *CSV_FIELDS[4:7], *([] if judged else ["library_solvers"]),
                     CSV_FIELDS[7]])
    for row in document["students"]:
        writer.writerow([inert(row["student"]), row["status"], row["passed"], row["total"],
                         *(row["counts"].get(name, 0) for name in counted), row["seconds"],
                         round(row["peak_kb"] / 1024, 1), inert(row["first_failure"]),
                         *([] if judged else [" ".join(row["library_solvers"])]), inert(row["submission"])])
    return out.getvalue()


def row_of(result: StudentResult) -> dict[str, Any]:
    """A student's row in gradebook.json: the result without its per-check lines (the report has them)."""
    row = result.to_json()
    del row["checks"], row["digest"]
    return row


def report_text(result: StudentResult, options: GradeOptions) -> str:
    """The short text report of one student (``reports/<student>.txt``), every text the student controls
    ``inert`` (their names included)."""
    what = {"judge": f"judged on {options.dataset_name} ({options.puzzles} puzzle{'s' * (options.puzzles != 1)})",
            "solver": f"the solver contract on class {options.class_name}",
            "encoding": "the model graded by check-encoding"}[options.task]
    lines = [f"student: {inert(result.student)} (submission: {inert(result.submission)})",
             f"task: {options.task}, {what}"]
    if result.program:
        lines.append(f"program: {inert(result.program)}")
    unit = "accepted" if options.task == "judge" else "checks passed"
    lines.append(f"score: {result.passed} of {result.total} {unit}" if result.status == "graded"
                 else f"score: {result.passed} of {result.total} (not graded)")
    if result.counts:
        lines.append("counts: " + ", ".join(f"{name} {n}" for name, n in result.counts.items() if n))
    lines.append(f"time: {result.seconds:.2f} s, peak memory {result.peak_kb / 1024:.1f} MB")
    if result.library_solvers:
        lines.append(f"imports sudokulab's own solvers: {', '.join(inert(n) for n in result.library_solvers)}")
    lines.append(f"first failure: {inert(result.first_failure) or 'none'}")
    shown = [c for c in result.checks if options.task != "judge" or c.status != "accepted"][:20]
    lines += [f"  {c.status:<22} {inert(c.name)}{': ' + inert(c.reason) if c.reason else ''}" for c in shown]
    return "\n".join(lines) + "\n"


# --- the run -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ClassRun:
    """A grade run: every student's result (stored or new), and what this run did."""

    results: tuple[StudentResult, ...]
    graded_now: int
    kept: int
    where: str
    """Where this run graded, in words; '' when every student had a stored result."""
    retried: int = 0


def grade_class(submissions: Sequence[Submission], options: GradeOptions, book: Gradebook, *, jobs: int = 1,
                cluster: str | None = None, on_result: Callable[[StudentResult], None] | None = None,
                on_start: Callable[[int], None] | None = None) -> ClassRun:
    """Grade every student without a stored result for the same digest; store each result as it comes."""
    done: dict[str, StudentResult] = {}
    pending: list[StudentJob] = []
    known: list[StudentResult] = []
    for submission in submissions:
        key = digest(submission, options)
        stored = book.stored(submission.student, key)
        if stored is not None:
            done[submission.student] = stored
        elif submission.problem:  # nothing to send anywhere: its result is known here
            known.append(StudentResult(submission.student, submission.name, key, "not graded", 0,
                                       options.puzzles if options.task == "judge" else 0,
                                       first_failure=inert(submission.problem)))
        else:
            pending.append(StudentJob(submission.student, submission.name, submission.packed, options, key,
                                      work_root=str(book.work) if cluster is None else None))
    kept = len(done)
    if on_start:
        on_start(len(pending) + len(known))
    jobs = max(1, min(jobs, len(pending)))  # no more graders at once than students to grade
    where, retried = f"{jobs} student{'s' * (jobs != 1)} at once on this machine", 0

    def take(result: StudentResult) -> None:
        book.store(result, report_text(result, options))
        done[result.student] = result
        if on_result:
            on_result(result)

    for result in known:
        take(result)
    if not pending:
        where = ""
    elif cluster is None:
        for result in _threads(pending, jobs):
            take(result)
    elif pending:
        from ..execution.cluster import executor_for

        with executor_for(cluster) as executor:
            executor.on_close(stop_graders)  # a local cluster closed mid-run ends its graders
            for _, result in executor.imap(grade_student, pending):
                take(result)
            where, retried = executor.describe(), executor.retried
    results = tuple(done[s.student] for s in submissions)
    return ClassRun(results, len(pending) + len(known), kept, where, retried)


def _threads(jobs_: Sequence[StudentJob], jobs: int) -> Iterator[StudentResult]:
    """Each student's result as it finishes, ``jobs`` graders at once; leaving early (Ctrl-C, an
    error) drops the queued students and ends the graders running."""
    if not jobs_:
        return
    allow_graders()
    pool = ThreadPoolExecutor(max(1, jobs), thread_name_prefix="sudokulab-grade")
    running = {pool.submit(grade_student, job) for job in jobs_}
    try:
        while running:
            finished, running = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                yield future.result()
    finally:
        if running:
            pool.shutdown(wait=False, cancel_futures=True)
            stop_graders()
        pool.shutdown(wait=True)
