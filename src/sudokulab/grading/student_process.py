"""The student's code in a sandboxed process of its own, seen from the grader: requests out, data back.

A grader that imports the student's file into its own process can be forged (the student's code
may replace the checks, print a report and ``os._exit(0)``). So ``check-solver`` and
``check-encoding`` start ``student_worker`` under the judge's launcher, inside bubblewrap
(``execution.sandbox``), and exchange one JSON request and one JSON answer per line on a channel
the student's prints never reach; anything else on it is garbage. Every way a call can fail as a
process (an exit, a crash, a signal, no answer within the limit, garbage, too much output, the
memory limit) is a ``StudentFailure`` naming the call; the process is then started again for the
next call, up to ``RESTARTS`` times, so one bad call fails one check. A file that cannot be used at
all (does not import, lacks the interface) is a ``StudentError``.

Where the student's code runs and what it can see: docs/grading.md.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import UsageError
from ..execution import isolation, launcher, sandbox
from .student_code import StudentError

if TYPE_CHECKING:
    from ..core.puzzle import Puzzle

MESSAGE_LIMIT = 64 << 20
"""Bytes of one answer read at most (the clauses of a large encoding fit many times over)."""

PRINTED_LIMIT = 16 << 20
"""Bytes the student's code may print (standard error) during one call."""

PRINTED_KEPT = 2048
"""Bytes of what it printed kept, the last ones, to quote when its process ends."""

START_SECONDS = 30.0
"""How long the worker may take to start before the student's file is loaded (not the student's time:
Python, bubblewrap and the package's imports, on a busy machine)."""

RESTARTS = 20
"""Restarts after failures at most; past them every call fails at once."""

STUDENT_WORKER = "sudokulab.grading.student_worker"

ERROR_KINDS = ("raised", "refused", "unusable", "memory", "exited")


@dataclass(frozen=True)
class StudentLimits:
    """The limits of the student's process: per call (and for loading the file), memory, isolation."""

    seconds: float = 10.0
    memory_mb: int | None = 1024
    """Megabytes for the process's whole tree (``sandbox.Limits.memory_mb``); None or 0 for no limit."""
    isolation: str = "bwrap"
    check_seconds: float | None = None
    """Wall time of one check, all its calls together (``StudentProcess.limit_check``); None: no such bound."""


class StudentFailure(Exception):
    """A call into the student's process failed as a process (ended, killed, hung, garbage, too much):
    the check that made it fails with this reason; never exit 0."""


class StudentRaised(Exception):
    """The student's code raised (``raised``), refused with UnsupportedFeature (``refused``), or gave
    what the interface does not allow (``unusable``); ``line`` says so in one line."""

    def __init__(self, kind: str, line: str, type_name: str = "", text: str = ""):
        super().__init__(line)
        self.kind, self.line, self.type_name, self.text = kind, line, type_name, text


@contextlib.contextmanager
def student_copy(file: str | None) -> Iterator[str | None]:
    """A read-only copy of the student's file, under the same name in a folder of its own, removed after:
    the sandbox binds the copy alone, never the folder the student's file sits in."""
    if file is None:
        yield None
        return
    if not Path(file).is_file():
        raise StudentError(f"{file}: no such file")
    folder = tempfile.mkdtemp(prefix="sudokulab-student-")
    try:
        copy = os.path.join(folder, os.path.basename(file))
        try:
            shutil.copyfile(file, copy)
        except OSError as exc:
            raise StudentError(f"{file}: cannot read it: {exc.strerror or exc}") from None
        os.chmod(copy, 0o444)
        yield copy
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def puzzle_document(puzzle: Puzzle) -> dict[str, Any]:
    """A puzzle as the worker reads it: the JSON puzzle format (size, box, givens, rules), as data."""
    from ..formats.documents import grid_rows, puzzle_fields

    return {"givens": grid_rows(puzzle.givens, puzzle.n), **puzzle_fields(puzzle)}


def _printable(data: bytes, width: int = 160) -> str:
    """The last line of what the student printed, printable and short, to quote in a reason."""
    lines = [line for line in data.decode("utf-8", "replace").splitlines() if line.strip()]
    last = "".join(c if c.isprintable() else "?" for c in (lines[-1].strip() if lines else ""))
    return last if len(last) <= width else "..." + last[-width:]


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


class StudentProcess:
    """One student's file (or class) loaded in a sandboxed worker, called as long as the grader needs.

    ``load`` is the worker's loading request (``load_solver`` or ``load_model`` and its arguments),
    ``shown`` the file as the user named it, ``file`` the copy to bind (``student_copy``), ``hidden``
    folders the sandbox shows empty (``student_code.library_solvers``, when the teacher refuses them).
    ``worker`` is the module run in the sandbox and ``who`` how a reason names it: the grader's own
    solving of a student's formula runs the same way (``formula_worker``), as a process it can kill.
    Use as a context manager: ``close`` stops the worker.
    """

    def __init__(self, load: str, arguments: dict[str, Any], shown: str, limits: StudentLimits,
                 file: str | None = None, hidden: tuple[str, ...] = (), worker: str = STUDENT_WORKER,
                 who: str = "the student's process"):
        self.load, self.arguments, self.shown, self.limits, self.file = load, dict(arguments), shown, limits, file
        self.hidden, self.worker, self.who = hidden, worker, who
        self.launched: sandbox.Launched | None = None
        self.selector: selectors.BaseSelector | None = None
        self.buffer = bytearray()
        self.printed = bytearray()
        self.report = bytearray()
        self.printed_in_call = 0
        self.number = 0
        self.restarts = 0
        self.broken: str | None = None
        self.loaded: Any = None
        self.check_limit: tuple[float, float] | None = None
        """(deadline, seconds) every call shares until the next ``limit_check``: one check's time limit."""

    # --- Starting and stopping. -----------------------------------------------------------------------

    @property
    def starting(self) -> str:
        return f"starting {self.who}"

    def command(self) -> list[str]:
        """The worker's command line; the paths after it are there so the sandbox binds them read-only
        (``isolation.program_mounts`` binds what a command's arguments name): the virtual environment,
        the Python it was made from, the folder that holds ``sudokulab``, the copy of the file."""
        import sudokulab

        package_root = str(Path(sudokulab.__file__).resolve().parent.parent)
        paths = dict.fromkeys(p for p in (sys.prefix, sys.exec_prefix, sys.base_prefix, sys.base_exec_prefix,
                                          package_root, self.file) if p)
        return [sys.executable, "-I", "-B", "-m", self.worker, *paths]

    def start(self) -> Any:
        """Start the worker and load the file: what it loaded (capabilities, the model's kind).

        Raises StudentError when the file cannot be used (exit 2), StudentFailure when loading it ended,
        hung or broke the process (every check fails), UsageError when the sandbox cannot start at all.
        """
        if self.limits.isolation == "bwrap":
            why = isolation.bwrap_problem()
            if why:
                raise UsageError(f"{why}; {isolation.INSTALL_HINT}, or give --isolation none to trust the "
                                 "student's file")
        self._launch(first=True)
        try:
            self.loaded = self._exchange(self.load, self.arguments, f"importing {self.shown}")
        except StudentRaised as raised:
            self._stop()
            raise StudentError(raised.line) from None
        except StudentFailure:
            self._stop()
            raise
        return self.loaded

    def _launch(self, first: bool) -> None:
        limits = sandbox.Limits(seconds=self.limits.seconds, memory_mb=self.limits.memory_mb or None,
                                isolation=self.limits.isolation)
        self.launched = sandbox.launch(self.command(), limits, hidden=self.hidden)
        process = self.launched.process
        for stream in (process.stdin, process.stdout, process.stderr):
            os.set_blocking(stream.fileno(), False)  # type: ignore[union-attr]
        self.selector = selectors.DefaultSelector()
        self.selector.register(process.stdout.fileno(), selectors.EVENT_READ)  # type: ignore[union-attr]
        self.selector.register(process.stderr.fileno(), selectors.EVENT_READ)  # type: ignore[union-attr]
        os.set_blocking(self.launched.report_fd, False)
        self.buffer.clear()
        self.printed.clear()
        self.report = bytearray()
        self.number = 0
        try:
            ready = self._answer(0, self.starting, START_SECONDS)
        except (StudentFailure, StudentRaised) as failure:
            self._stop()
            if first:
                raise UsageError(f"cannot start {self.who}: {failure}") from None
            raise
        if ready != "ready":
            self._stop()
            raise StudentFailure(f"{self.starting}: it said {str(ready)[:60]!r}, not 'ready'")

    def _stop(self) -> tuple[int | None, bool]:
        """Stop the worker (every process it started is killed and reaped): its exit code (negative: a
        signal; None when it was still running), and whether its memory reached the limit."""
        if self.launched is None:
            return None, False
        launched, self.launched = self.launched, None
        if self.selector is not None:
            self.selector.close()
            self.selector = None
        sandbox.finish(launched, self.report)
        ended = launcher.ending(self.report)
        if ended is not None:  # the worker ended by itself
            limit = (self.limits.memory_mb or 0) * 1024
            return sandbox.exit_code_of(ended.status, False), ended.over_memory or 0 < limit < ended.peak_kb
        return None, False

    def _take_report(self, seconds: float) -> None:
        """Read the launcher's report ("go ", then how the worker ended) for up to ``seconds``, until it
        says how the worker ended: after the channel closed, the launcher reports a moment later."""
        assert self.launched is not None
        fd = self.launched.report_fd
        deadline = time.perf_counter() + seconds
        with selectors.DefaultSelector() as waiting:
            waiting.register(fd, selectors.EVENT_READ)
            while launcher.ending(self.report) is None:
                remaining = deadline - time.perf_counter()
                if remaining <= 0 or not waiting.select(remaining):
                    return
                try:
                    chunk = os.read(fd, 256)
                except BlockingIOError:
                    continue
                except OSError:
                    return
                if not chunk:
                    return
                self.report += chunk

    def close(self) -> None:
        """Stop the worker."""
        self._stop()

    def __enter__(self) -> StudentProcess:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # --- Calls. ---------------------------------------------------------------------------------------

    def library_solvers(self) -> list[str]:
        """Which of ``sudokulab``'s own solvers (``student_code.library_solvers``) the student's code
        imported, as its worker reports it: when it loaded, and now if it is still running (a worker
        started again would only say what loading imports)."""
        from .student_code import library_solvers

        known = library_solvers()
        said = self.loaded.get("library_solvers") if isinstance(self.loaded, dict) else None
        said = list(said) if isinstance(said, list) else []
        if self.launched is not None:
            try:
                now = self.call("library_solvers", "listing the student's imports")
            except (StudentFailure, StudentRaised):
                now = []
            said += now if isinstance(now, list) else []
        return sorted({name for name in said if isinstance(name, str) and name in known})

    def limit_check(self, seconds: float | None) -> None:
        """The calls from now until the next ``limit_check`` share ``seconds`` of wall time, besides each
        call's own limit: a check that makes many calls ends at its own limit. None: no such bound."""
        self.check_limit = (time.perf_counter() + seconds, seconds) if seconds else None

    def call(self, name: str, what: str, **arguments: Any) -> Any:
        """The worker's answer to one call: its value. ``what`` names the call in a failure's reason.

        Raises StudentRaised (the student's code raised or refused) or StudentFailure (the process
        failed; it is restarted for the next call)."""
        if self.broken is not None:
            raise StudentFailure(self.broken)
        if self.launched is None:
            self._restart(what)
        return self._exchange(name, arguments, what)

    def _restart(self, what: str) -> None:
        if self.restarts >= RESTARTS:
            self.broken = f"{what}: not run, {self.who} failed {RESTARTS} times already"
            raise StudentFailure(self.broken)
        self.restarts += 1
        try:
            self._launch(first=False)
            self._exchange(self.load, self.arguments, f"importing {self.shown} again after a failure")
        except (StudentFailure, StudentRaised) as failure:
            self._stop()
            self.broken = f"{what}: not run: {failure}"
            raise StudentFailure(self.broken) from None

    def _exchange(self, name: str, arguments: dict[str, Any], what: str) -> Any:
        """Send one request and read its answer; any failure stops the worker, and so does anything that
        leaves its answer unread (Ctrl-C, SIGTERM: the worker goes at once, whatever it is doing)."""
        seconds, check = self.limits.seconds, None
        if self.check_limit is not None and self.check_limit[0] - time.perf_counter() < seconds:
            seconds, check = self.check_limit[0] - time.perf_counter(), self.check_limit[1]
            if seconds <= 0:
                raise StudentFailure(f"{what}: not run, the check passed its time limit of {check:g} s "
                                     "(--check-time-limit)")
        self.number += 1
        request = (json.dumps({"id": self.number, "call": name, "arguments": arguments},
                              separators=(",", ":")) + "\n").encode()
        self.printed_in_call = 0
        try:
            self._send(request, what)
            return self._answer(self.number, what, seconds, check)
        except BaseException:
            self._stop()
            raise

    def _send(self, request: bytes, what: str) -> None:
        assert self.launched is not None and self.selector is not None
        stdin = self.launched.process.stdin.fileno()  # type: ignore[union-attr]
        deadline = time.perf_counter() + self.limits.seconds
        view = memoryview(request)
        self.selector.register(stdin, selectors.EVENT_WRITE)
        try:
            while view:
                remaining = deadline - time.perf_counter()
                if remaining <= 0:
                    raise self._timed_out(what)
                for key, _ in self.selector.select(remaining):
                    if key.fd == stdin:
                        try:
                            view = view[os.write(stdin, view):]
                        except BlockingIOError:
                            pass
                        except OSError:  # the worker is gone: its end is read below
                            raise self._ended(what) from None
                    else:
                        self._read(key.fd, what)
        finally:
            self.selector.unregister(stdin)

    def _answer(self, number: int, what: str, seconds: float, check: float | None = None) -> Any:
        """Read the answer to request ``number``: its value, or the error it says (raised here). ``check``:
        the check's time limit, when it is the one that ends in ``seconds``."""
        assert self.launched is not None and self.selector is not None
        deadline = time.perf_counter() + seconds
        while (newline := self.buffer.find(b"\n")) < 0:
            if len(self.buffer) > MESSAGE_LIMIT:
                raise StudentFailure(f"{what}: answered more than {MESSAGE_LIMIT >> 20} MB on the grader's channel")
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                raise self._timed_out(what, seconds, check)
            for key, _ in self.selector.select(remaining):
                self._read(key.fd, what)
        line = bytes(self.buffer[:newline])
        del self.buffer[:newline + 1]
        return self._parse(line, number, what)

    def _read(self, fd: int, what: str) -> None:
        """Take what one of the worker's pipes holds: answers into the buffer, prints into the tail kept."""
        assert self.launched is not None
        stdout = self.launched.process.stdout.fileno()  # type: ignore[union-attr]
        try:
            chunk = os.read(fd, 1 << 16)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if fd == stdout:
            if not chunk:
                raise self._ended(what)
            self.buffer += chunk
            return
        if not chunk:
            self.selector.unregister(fd)  # type: ignore[union-attr]
            return
        self.printed_in_call += len(chunk)
        self.printed += chunk
        del self.printed[:-PRINTED_KEPT]
        if self.printed_in_call > PRINTED_LIMIT:
            raise StudentFailure(f"{what}: printed more than {PRINTED_LIMIT >> 20} MB")

    def _parse(self, line: bytes, number: int, what: str) -> Any:
        """The one JSON object the worker answers with, checked field by field."""
        def garbage(why: str) -> StudentFailure:
            return StudentFailure(f"{what}: garbage on the grader's channel ({why}): {_printable(line, 60)!r}")

        try:
            document = json.loads(line, parse_constant=lambda word: (_ for _ in ()).throw(ValueError(word)))
        except (ValueError, RecursionError):
            raise garbage("not one JSON document") from None
        if not isinstance(document, dict) or set(document) not in ({"id", "value"}, {"id", "error"}):
            raise garbage("not an answer")
        if document["id"] != number or isinstance(document["id"], bool):
            raise garbage(f"the answer to another request than {number}")
        if "value" in document:
            return document["value"]
        error = document["error"]
        if not (isinstance(error, dict) and error.get("kind") in ERROR_KINDS and isinstance(error.get("line"), str)
                and all(isinstance(error.get(key, ""), str) for key in ("type", "text"))):
            raise garbage("an error that is not one")
        kind, said = error["kind"], error["line"][:2000]
        if kind == "memory":
            raise StudentFailure(f"{what}: ran out of memory (the limit is {self.limits.memory_mb} MB, "
                                 "--memory-limit)")
        if kind == "exited":
            raise StudentFailure(f"{what}: the student's code called {said}: a grader's call must return")
        raise StudentRaised(kind, said, error.get("type", "")[:100], error.get("text", "")[:2000])

    def _timed_out(self, what: str, seconds: float | None = None, check: float | None = None) -> StudentFailure:
        limit = seconds if seconds is not None else self.limits.seconds
        if what == self.starting:
            return StudentFailure(f"{what}: it did not start within {START_SECONDS:g} s")
        if check is not None:
            return StudentFailure(f"{what}: no answer within the check's time limit of {check:g} s "
                                  "(--check-time-limit)")
        return StudentFailure(f"{what}: no answer within the time limit of {limit:g} s per call (--time-limit)")

    def _ended(self, what: str) -> StudentFailure:
        """The worker closed the channel: how it ended (exit code or signal, memory), and its last words."""
        self._take_report(2.0)
        code, over_memory = self._stop()
        limit = self.limits.memory_mb
        if limit and over_memory:
            how = f"passed the memory limit of {limit} MB (--memory-limit)"
        elif code is None:
            how = "closed the grader's channel"
        elif code < 0:
            how = f"was killed by {_signal_name(-code)}"
        else:
            how = f"ended with exit code {code} (os._exit or a crash)"
        said = _printable(bytes(self.printed))
        return StudentFailure(f"{what}: {self.who} {how} without answering"
                              + (f"; its last words: {said!r}" if said else ""))
