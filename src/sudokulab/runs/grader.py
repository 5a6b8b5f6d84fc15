"""One student's submission graded by a ``sudokulab`` process of its own, its JSON read strictly.

Why a process per student: whatever the submission does to the process that grades it (exits at
import, loops, prints megabytes, breaks the interpreter), it does to that process alone; here it
becomes that student's failure, in words ("the grader ended with exit code 0 and printed no
document for this submission"), and the class goes on. The grader is ``sys.executable -m
sudokulab judge|check-solver|check-encoding ... --json``, in a session of its own, under a wall-time
cap and an output cap; it gets SIGTERM when the thread that started it dies (``PR_SET_PDEATHSIG``),
so a ``kill -9`` of ``grade`` leaves no grader behind. Its document is checked field by field
(``_judge_rows``, ``_check_document``): anything else is the grader's failure, never a score.

``grade_student`` runs where the student is graded: a thread of ``grade --jobs N`` or a task on a
Dask worker. The submission travels as a tar archive (``StudentJob.packed``), is unpacked into a
temporary folder there, and, for the judge task, compiled there (the binary must run where it was
built), with its own time limit; a compile error is the student's failure.

One module: the capped grader process, the program built for it and the strict reading of what it
prints are the grading of one student, and each part has no other caller.
"""

from __future__ import annotations

import io
import json
import os
import selectors
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import UsageError

TASKS = ("judge", "solver", "encoding")
"""judge: the student's program judged over a dataset; solver: the solver contract on a class;
encoding: a SAT or CP-SAT model graded."""

OUTPUT_CAP = 8 << 20
"""Bytes a grader may print on each stream; past it the grader is stopped (a student's print loop)."""

GRACE = 5.0
"""Seconds a grader has to end after SIGTERM before SIGKILL."""

JUDGE_OUTCOMES = ("accepted", "wrong answer", "time limit exceeded", "memory limit exceeded",
                  "output limit exceeded", "runtime error", "invalid dataset entry")
"""The verdicts of ``judge --json`` rows (``runs.judge.Outcome``), in its order."""

CHECK_STATUSES = ("passed", "failed", "skipped")


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


# --- the grader process --------------------------------------------------------------------------

@dataclass(frozen=True)
class Ended:
    """How a process under ``run_capped`` ended."""

    returncode: int
    stdout: bytes
    stderr: bytes
    seconds: float
    peak_kb: int
    timed_out: bool = False
    overflow: bool = False

    def how(self, cap: float) -> str:
        """How it ended, in words, when it did not end by itself with a document."""
        if self.timed_out:
            return f"was still running after its {cap:g} s cap"
        if self.overflow:
            return f"printed more than {OUTPUT_CAP >> 20} MiB"
        if self.returncode < 0:
            name = signal.Signals(-self.returncode).name if -self.returncode in signal.valid_signals() else ""
            return f"was killed by signal {-self.returncode}{f' ({name})' if name else ''}"
        return f"ended with exit code {self.returncode}"

    def last_error_line(self) -> str:
        lines = [line.strip() for line in self.stderr.decode("utf-8", "replace").splitlines() if line.strip()]
        return lines[-1][:200] if lines else ""


_LIVE: set[subprocess.Popen] = set()
_LIVE_LOCK = threading.Lock()
_STOPPED = threading.Event()


def stop_graders() -> None:
    """End every grader of this process and start no more (Ctrl-C; a local cluster closed mid-run)."""
    _STOPPED.set()
    with _LIVE_LOCK:
        live = list(_LIVE)
    for process in live:
        _end(process)


def allow_graders() -> None:
    """Graders may start again in this process (a new run after ``stop_graders``)."""
    _STOPPED.clear()


def _end(process: subprocess.Popen) -> None:
    """SIGTERM to the grader's session (it stops its own runs), SIGKILL after ``GRACE`` seconds."""
    for signum, wait in ((signal.SIGTERM, GRACE), (signal.SIGKILL, 0.0)):
        try:
            os.killpg(process.pid, signum)
        except (ProcessLookupError, PermissionError):
            return
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            try:
                if os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
                    return
            except ChildProcessError:
                return
            time.sleep(0.05)


def _death_signal() -> Callable[[], None] | None:
    """A ``preexec_fn`` asking the kernel for SIGTERM when the starting thread dies (Linux), resolved
    here so the child only calls it."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    return lambda: prctl(1, int(signal.SIGTERM), 0, 0, 0)  # PR_SET_PDEATHSIG


def run_capped(argv: Sequence[str], cwd: str | Path, cap: float) -> Ended:
    """Run ``argv`` in a session of its own, both streams read up to ``OUTPUT_CAP``, ended at ``cap`` seconds."""
    if _STOPPED.is_set():
        raise InterruptedError("grading stopped")
    start = time.monotonic()
    process = subprocess.Popen(list(argv), cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, start_new_session=True, preexec_fn=_death_signal())
    with _LIVE_LOCK:
        _LIVE.add(process)
    out, err = bytearray(), bytearray()
    timed_out = overflow = False
    try:
        with selectors.DefaultSelector() as selector:
            selector.register(process.stdout, selectors.EVENT_READ, out)
            selector.register(process.stderr, selectors.EVENT_READ, err)
            while selector.get_map():
                left = start + cap - time.monotonic()
                if left <= 0:
                    timed_out = True
                    break
                for key, _ in selector.select(min(left, 1.0)):
                    chunk = os.read(key.fd, 1 << 16)
                    if not chunk:
                        selector.unregister(key.fileobj)
                        continue
                    key.data.extend(chunk)
                    if len(key.data) > OUTPUT_CAP:
                        overflow = True
                if overflow:
                    break
        if timed_out or overflow:
            _end(process)
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
    finally:
        with _LIVE_LOCK:
            _LIVE.discard(process)
        if process.returncode is None:  # an exception here (Ctrl-C): the grader goes too
            _end(process)
            process.wait()
        process.stdout.close()
        process.stderr.close()
    return Ended(process.returncode, bytes(out), bytes(err), time.monotonic() - start, usage.ru_maxrss,
                 timed_out, overflow)


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
    source, why = _python_file(submission)
    if source is None:
        return _result(job, "not graded", 0, 0, why)
    options = job.options
    here = submission.parent  # the path as the grader is given it, so no temporary folder shows in a reason
    named = source.relative_to(here).as_posix()
    if options.task == "solver":
        argv, keys = _sudokulab("check-solver", f"{named}:{options.class_name}", "--json"), _SOLVER_KEYS
    else:
        argv, keys = _sudokulab("check-encoding", named, "--json"), _ENCODING_KEYS
    ended = run_capped(argv, here, options.cap)
    document, problem = _check_document(ended, keys)
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


def _python_file(submission: Path) -> tuple[Path | None, str]:
    """The Python file of a solver or encoding submission: the file, or a folder's one .py (else main.py)."""
    if submission.is_file():
        if submission.suffix == ".py":
            return submission, ""
        return None, f"not a Python file: {submission.name}"
    found = sorted(p for p in submission.iterdir() if p.suffix == ".py" and p.is_file())
    if len(found) == 1:
        return found[0], ""
    if (submission / "main.py").is_file():
        return submission / "main.py", ""
    return None, ("no Python file in the folder" if not found else
                  f"{len(found)} Python files in the folder and no main.py among them")


_SOLVER_KEYS = {"target", "solver", "ok", "exit", "checks"}
_ENCODING_KEYS = {"student", "kind", "ok", "exit", "checks"}


def _check_document(ended: Ended, keys: set[str]) -> tuple[dict[str, Any] | None, str]:
    """The one document of a check-* grader, or None and why not: exactly one JSON object with exactly
    the fields of its schema, its exit as the process's; or the error document with exit 2."""
    if ended.timed_out or ended.overflow or ended.returncode not in (0, 1, 2):
        return None, ""
    try:
        document, end = json.JSONDecoder().raw_decode(ended.stdout.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None, ""
    if ended.stdout.decode("utf-8")[end:].strip() or not isinstance(document, dict):
        return None, ""
    if ended.returncode == 2:
        ok = set(document) == {"error", "exit"} and isinstance(document["error"], str) and document["exit"] == 2
        return (document, "") if ok else (None, "")
    checks = document.get("checks")
    if (set(document) != keys or document["exit"] != ended.returncode or document["ok"] is not (ended.returncode == 0)
            or not isinstance(checks, list) or not checks):
        return None, ""
    for check in checks:
        if (not isinstance(check, dict) or set(check) != {"check", "status", "reason"}
                or not isinstance(check["check"], str) or check["status"] not in CHECK_STATUSES
                or not isinstance(check["reason"], str | None)):
            return None, ""
    return document, ""


# --- the judge task ------------------------------------------------------------------------------

INTERPRETED = {".py": "python3", ".js": "node"}
COMPILED = {".c": "gcc", ".cpp": "g++", ".cc": "g++", ".cxx": "g++", ".java": "javac"}
SOURCES = (*INTERPRETED, *COMPILED)


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
    rows, problem = _judge_rows(ended, options.entries)
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


_ROW_TYPES: dict[str, Any] = {"index": int, "line": int, "outcome": str, "accepted": bool, "detail": str | None,
                              "seconds": float | int | None, "peak_rss_kb": int | None, "exit_code": int | None,
                              "signal": int | None}


def _judge_rows(ended: Ended, entries: int) -> tuple[list[dict[str, Any]] | str | None, str]:
    """judge's JSON Lines rows, one per entry with exactly its fields; the error line of an exit-2
    document as a string; or None when the output is neither."""
    if ended.timed_out or ended.overflow or ended.returncode not in (0, 1, 2):
        return None, ""
    try:
        text = ended.stdout.decode("utf-8")
        if ended.returncode == 2:
            document = json.loads(text)
            ok = isinstance(document, dict) and set(document) == {"error", "exit"} and document["exit"] == 2
            return (str(document["error"]), "") if ok else (None, "")
        rows = [json.loads(line) for line in text.splitlines()]
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None, ""
    if len(rows) != entries:
        return None, ""
    for row in rows:
        if not isinstance(row, dict) or set(row) != set(_ROW_TYPES) or row["outcome"] not in JUDGE_OUTCOMES:
            return None, ""
        if any(not isinstance(row[key], kind) or (isinstance(row[key], bool) and kind is int)
               for key, kind in _ROW_TYPES.items()):
            return None, ""
        if row["outcome"] != "invalid dataset entry" and (row["seconds"] is None or row["peak_rss_kb"] is None):
            return None, ""
    if (ended.returncode == 0) is not all(row["accepted"] for row in rows):
        return None, ""
    return rows, ""


def program_of(submission: Path, build: Path, options: GradeOptions) -> tuple[list[str] | None, str]:
    """The command that runs a judge submission, compiled into ``build`` first where its language needs
    it; or None and why not (no program found, a compile error)."""
    source, why = _program_file(submission)
    if source is None:
        return None, why
    suffix = source.suffix.lower()
    if suffix in INTERPRETED:  # a folder is named too, so the sandbox shows the program its other files
        return [INTERPRETED[suffix], str(source), *([str(submission)] if submission.is_dir() else [])], ""
    if suffix not in COMPILED:
        return [str(source)], ""  # an executable of its own
    build.mkdir()
    if suffix == ".java":  # BOJ's convention: the class is Main, whatever the file is called
        if source.name != "Main.java":
            main = build / "src" / "Main.java"
            main.parent.mkdir()
            shutil.copyfile(source, main)
            source = main
        argv = ["javac", "-encoding", "UTF-8", "-d", str(build), "-sourcepath", str(source.parent), str(source)]
        heap = [f"-Xmx{max(32, options.memory_limit // 2)}m"] if options.memory_limit else []
        run = ["java", *heap, "-cp", str(build), "Main"]
    else:
        argv = [COMPILED[suffix], "-O2", "-o", str(build / "main"), str(source)] + (["-lm"] if suffix == ".c" else [])
        run = [str(build / "main")]
    if shutil.which(argv[0]) is None:
        return None, f"{argv[0]} is not installed where this student was graded"
    ended = run_capped(argv, build, options.compile_timeout)
    if ended.returncode != 0:
        if ended.timed_out:
            return None, f"compile error: {argv[0]} was still running after {options.compile_timeout:g} s"
        lines = ended.stderr.decode("utf-8", "replace").splitlines()
        first = next((line for line in lines if "error" in line.lower()), lines[0] if lines else ended.how(0))
        return None, f"compile error: {first.replace(str(source.parent) + os.sep, '')[:200]}"
    return run, ""


def _program_file(submission: Path) -> tuple[Path | None, str]:
    """The file to run or build: the submission itself, or in a folder its one source file, else
    Main.java or main.* (an executable ``main`` included)."""
    if submission.is_file():
        if submission.suffix.lower() in SOURCES or os.access(submission, os.X_OK):
            return submission, ""
        return None, (f"no program: '{submission.name}' is no source file ({', '.join(SOURCES)}) "
                      "and not executable")
    found = sorted(p for p in submission.iterdir() if p.is_file() and p.suffix.lower() in SOURCES)
    if len(found) == 1:
        return found[0], ""
    for name in ("Main.java", *(f"main{suffix}" for suffix in SOURCES), "main"):
        if (submission / name).is_file():
            return submission / name, ""
    return None, ("no program: no source file in the folder" if not found else
                  f"no program: {len(found)} source files in the folder and no Main.java or main.* among them")
