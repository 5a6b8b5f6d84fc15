"""One student's submission graded by a ``sudokulab`` process of its own, its JSON read strictly.

Why a process per student: whatever the submission does to the process that grades it (exits at
import, loops, prints megabytes, breaks the interpreter), it does to that process alone, and
becomes that student's failure in words while the class goes on. The grader is ``sudokulab
judge|check-solver|check-encoding ... --json``, run capped (``capped_process``), and its document is
checked field by field (``grader_documents``): anything else is the grader's failure, never a
score. It starts isolated (``python -I``, in a folder of its own, ``TMPDIR`` in the student's work
folder), so a ``json.py`` handed in is never the grader's module. ``grade_student`` runs where the
student is graded (a thread of ``grade --jobs N`` or a Dask task): the submission travels as a tar
archive (``StudentJob.packed``), is unpacked into a work folder there and, for the judge task,
compiled there in the sandbox.

Where each part runs and what a hostile file can do: docs/grading.md ("A whole class").
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
from ..formats.boj import printable
from .documents import CHECK_STATUSES, ENCODING_KEYS, JUDGE_OUTCOMES, SOLVER_KEYS, check_document, judge_rows
from .submission import program_of, python_file

TASKS = ("judge", "solver", "encoding")
"""judge: the student's program judged over a dataset; solver: the solver contract on a class;
encoding: a SAT or CP-SAT model graded."""


GRADING_REVISION = 2
"""How a student is graded, as part of every result's digest: raised when that changes in a way a
stored result must not outlive (2: compiled in the sandbox, graders isolated, texts made inert), so
a rerun grades again what an earlier way graded."""


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
    refuse_library_solvers: bool = False
    """solver, encoding: the student's code may not import sudokulab's own solvers (``--refuse-library-solvers``)."""

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

        fields = {"task": self.task, "version": _version(), "grading": GRADING_REVISION}
        if self.task == "judge":
            fields.update(dataset=hashlib.sha256(self.dataset).hexdigest(), time_limit=self.time_limit,
                          memory_limit=self.memory_limit, isolation=self.isolation)
        if self.task == "solver":
            fields["class"] = self.class_name
        if self.task != "judge":
            fields["refuse_library_solvers"] = self.refuse_library_solvers
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
    work_root: str | None = None
    """Where the student's work folder is made: the gradebook's ``.work`` here; None on a cluster
    worker (the worker's own folder, which Dask removes with it)."""


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
    library_solvers: tuple[str, ...] = ()
    """solver, encoding: sudokulab's own solvers the student's code imported, as its grader reported them."""

    def to_json(self) -> dict[str, Any]:
        from dataclasses import asdict

        return asdict(self)

    @classmethod
    def from_json(cls, data: Any) -> StudentResult:
        """Back from ``to_json``; ValueError for anything else (a stored result damaged by hand)."""
        try:
            checks = tuple(Check(**c) for c in data.pop("checks"))
            result = cls(**{**data, "library_solvers": tuple(data.get("library_solvers", ()))}, checks=checks)
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
        work = Path(tempfile.mkdtemp(prefix="student-", dir=job.work_root or _worker_folder()))
        for part in ("run", "tmp"):
            (work / part).mkdir()
    except OSError as exc:
        raise UsageError(f"grade: cannot make a work folder to grade '{job.student}': {exc.strerror or exc}") \
            from None
    try:
        with tarfile.open(fileobj=io.BytesIO(job.packed)) as archive:
            if hasattr(tarfile, "data_filter"):
                archive.extractall(work / "submission", filter="data")
            else:
                archive.extractall(work / "submission")  # noqa: S202 - made by gradebook.pack: no links
        submission = work / "submission" / job.submission
        if job.options.task == "judge":
            return _judge(job, submission, work)
        return _check(job, submission, work)
    finally:
        remove_tree(work)


def _worker_folder() -> str | None:
    """The Dask worker's own folder when this runs on one, else None (the system's temporary folder)."""
    try:
        from distributed import get_worker

        return get_worker().local_directory
    except (ImportError, ValueError, AttributeError):
        return None


def remove_tree(top: Path) -> None:
    """Remove a work folder, whatever modes the grader or a build left inside it (a judge's read-only
    copies); nothing when there is none."""
    if not os.path.lexists(top):
        return

    def writable_again(function: Any, path: str, _: Any) -> None:
        folder = os.path.dirname(path)
        if not folder.startswith(str(top)):  # never a folder above the tree
            return
        try:
            os.chmod(folder, 0o700)
            function(path)
        except OSError:
            pass

    shutil.rmtree(top, onerror=writable_again)


SPREADSHEET_FORMULA = ("=", "+", "-", "@")
"""What a spreadsheet reads as a formula at the start of a cell (with tab and carriage return, which
``inert`` has already written as escapes)."""


def inert(text: str) -> str:
    """A student-controlled string (a file name, a compiler's error, a program's last words) made
    inert: every character a terminal acts on written as its escape (``formats.boj.printable``:
    ``\\x1b``, ``\\n``), and a leading ``=``, ``+``, ``-`` or ``@`` quoted with ``'`` so a
    spreadsheet shows it as text. Applying it twice changes nothing more."""
    text = printable(text)
    return "'" + text if text.startswith(SPREADSHEET_FORMULA) else text


def _result(job: StudentJob, status: str, passed: int, total: int, failure: str = "", **fields: Any) -> StudentResult:
    """A student's result, every text in it that the student controls made ``inert`` (names aside:
    they stay exact in the JSON, and the CSV and reports make them inert as they write them)."""
    fields["checks"] = tuple(Check(inert(c.name), c.status, inert(c.reason)) for c in fields.get("checks", ()))
    fields["program"] = inert(fields.get("program", ""))
    return StudentResult(job.student, job.submission, job.digest, status, passed, total,
                         first_failure=inert(failure), **fields)


GRADER_START = "import sys; sys.path.insert(0, sys.argv.pop(1)); from sudokulab.__main__ import run; run()"
"""How a grader starts under ``python -I``: the folder holding this ``sudokulab`` package first on its
path (PYTHONPATH and the current folder are not read), then the command line as ``python -m`` runs it."""


def _sudokulab(*arguments: str) -> list[str]:
    import sudokulab

    package_root = str(Path(sudokulab.__file__).resolve().parent.parent)
    return [sys.executable, "-I", "-c", GRADER_START, package_root, *arguments]


def _grader(argv: list[str], work: Path, cap: float) -> Ended:
    """A grader run capped, in the empty ``run/`` folder, its temporary files in the work folder's ``tmp/``."""
    env = {**os.environ, "TMPDIR": str(work / "tmp")}
    return run_capped(argv, work / "run", cap, env=env)


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
    named = f"../submission/{source.relative_to(submission.parent).as_posix()}"  # from run/: no temporary path
    refuse = ["--refuse-library-solvers"] if options.refuse_library_solvers else []
    if options.task == "solver":
        argv, keys = _sudokulab("check-solver", f"{named}:{options.class_name}", "--json", *refuse), SOLVER_KEYS
    else:
        argv, keys = _sudokulab("check-encoding", named, "--json", *refuse), ENCODING_KEYS
    ended = _grader(argv, work, options.cap)
    document, problem = check_document(ended, keys, shown_from="../submission/")
    timing = {"seconds": round(ended.seconds, 3), "peak_kb": ended.peak_kb}
    if document is None:
        return _result(job, "not graded", 0, 0, problem or _grader_failure(ended, options.cap), **timing)
    if "error" in document:
        return _result(job, "not graded", 0, 0, f"the grader refused the submission: {document['error']}", **timing)
    checks = tuple(Check(c["check"], c["status"], c["reason"] or "") for c in document["checks"])
    counts = {status: sum(c.status == status for c in checks) for status in CHECK_STATUSES}
    failed = next((c for c in checks if c.status == "failed"), None)
    return _result(job, "graded", counts["passed"], counts["passed"] + counts["failed"],
                   f"{failed.name}: {failed.reason}" if failed else "", counts=counts, checks=checks,
                   library_solvers=tuple(inert(name) for name in document["library_solvers"]), **timing)


# --- the judge task ------------------------------------------------------------------------------

def _judge(job: StudentJob, submission: Path, work: Path) -> StudentResult:
    """judge: the program found and built, then ``judge DATASET --json -- COMMAND``."""
    options = job.options
    total = options.puzzles
    command, problem = program_of(submission, work, options)
    if command is None:
        return _result(job, "not graded", 0, total, problem)
    program = " ".join(Path(a).name if os.sep in a else a for a in command)
    dataset = work / "dataset.txt"
    dataset.write_bytes(options.dataset)
    argv = _sudokulab("judge", str(dataset), "--json", "--quiet", "--show-failures", "0",
                      "--time-limit", f"{options.time_limit:g}", "--memory-limit", str(options.memory_limit),
                      "--isolation", options.isolation, "--", *command)
    ended = _grader(argv, work, options.cap)
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


