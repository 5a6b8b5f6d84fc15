"""The student's solver class as ``check-solver``'s contract sees it: a Solver whose calls go to the sandbox.

The contract's checks (``contract.run``) call ``solve``, ``count``, ``capabilities``, ``name``... on a
solver and judge what comes back. Here that solver is a proxy in the grader's process: each call is
a request to the student's worker (``student_process``), and what comes back is data, checked field
by field and made into the grader's own ``SolveResult`` and ``CountResult``. A refusal comes back as
``UnsupportedFeature``, any other exception as one of the same name; a process that fails the call
is a ``StudentFailure``, which fails the check. The proxy has exactly the protocol members the
student's instance has, so ``check_protocol`` sees what the student wrote.

More: docs/grading.md.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from typing import Any

from ..core.puzzle import Puzzle
from ..errors import UnsupportedFeature
from ..solvers.base import Capabilities, CountResult, SolveResult, Status
from .student_process import StudentFailure, StudentProcess, StudentRaised, puzzle_document

STATUSES = {status.value: status for status in Status}

_OPTIONS = {"solve": ("time_limit", "canonical"), "count": ("limit", "time_limit")}
"""The keyword arguments the contract passes, forwarded only when given (the student's signature may
have no default for them, or no room for more)."""


class StudentException(Exception):
    """Base of the exceptions that stand for one the student's code raised (same name, same message)."""


@functools.cache
def _raised_class(name: str) -> type[StudentException]:
    return type(name if name.isidentifier() else "Exception", (StudentException,), {"__module__": "student"})


def _capabilities(data: Any) -> Capabilities:
    """The student's declared capabilities, from the worker's data, every field type-checked."""
    def text(value: Any) -> str:
        return value if isinstance(value, str) else ""

    if not isinstance(data, dict) or not all(isinstance(data.get(k), bool) for k in ("canonical", "count",
                                                                                     "time_limit")):
        raise StudentFailure("the student's capabilities did not come back as data")
    listed = [word for key in ("slow", "kinds", "forms") for word in (data.get(key) or []) if not isinstance(word, str)]
    if listed or not all(isinstance(data.get(key) or [], list) for key in ("slow", "kinds", "forms")):
        raise StudentFailure("the student's capabilities list something other than names")
    return Capabilities(canonical=data["canonical"], count=data["count"], time_limit=data["time_limit"],
                        threads=text(data.get("threads")) or "safe", extra=data.get("extra") if isinstance(
                            data.get("extra"), str) else None, slow=tuple(data.get("slow") or ()),
                        why=text(data.get("why")), kinds=frozenset(data.get("kinds") or ()),
                        forms=frozenset(data.get("forms") or ()), kinds_why=text(data.get("kinds_why")))


class _StudentSolver:
    """The data members of the student's solver, and the session its calls go through."""

    def __init__(self, student: StudentProcess, described: dict[str, Any]):
        self._student = student
        self.options: tuple = ()  # the student's Option objects are theirs: the contract only asks they exist
        self.name = described.get("name") if isinstance(described.get("name"), str) else str(described.get("name"))
        self.capabilities = _capabilities(described.get("capabilities"))

    def _ask(self, call: str, puzzle: Puzzle, options: Mapping[str, Any]) -> dict[str, Any]:
        what = f"{call}() of a {puzzle.n}x{puzzle.n} puzzle"
        sent = {key: value for key, value in options.items() if key in _OPTIONS[call]}
        if len(sent) != len(options):
            raise TypeError(f"{call}() got an option the contract does not pass: {sorted(set(options) - set(sent))}")
        try:
            answer = self._student.call(call, what, puzzle=puzzle_document(puzzle), options=sent)
        except StudentRaised as raised:
            if raised.kind == "refused":
                raise UnsupportedFeature(raised.text) from None
            if raised.kind == "raised":
                raise _raised_class(raised.type_name)(raised.text) from None
            raise StudentFailure(f"{what}: {raised.line}") from None
        if not isinstance(answer, dict):
            raise StudentFailure(f"{what}: its answer came back as {str(answer)[:60]}, not a result")
        return _checked(answer, what)

    def _solve(self, puzzle: Puzzle, **options: Any) -> SolveResult:
        found = self._ask("solve", puzzle, options)
        return SolveResult(found["solver"], found["status"], found["grid"], found["seconds"], found["stats"])

    def _count(self, puzzle: Puzzle, **options: Any) -> CountResult:
        found = self._ask("count", puzzle, options)
        for key in ("count", "limit"):
            if isinstance(found.get(key), bool) or not isinstance(found.get(key), int):
                raise StudentFailure(f"count() of a {puzzle.n}x{puzzle.n} puzzle: {key} {found.get(key)!r} is not "
                                     "a whole number")
        return CountResult(found["solver"], found["count"], found["limit"], found["status"], found["seconds"],
                           found["stats"])

    def _close(self) -> None:
        """Closed in the worker; a failure there is not the contract's (the checks are over)."""
        try:
            self._student.call("close", "close()")
        except (StudentFailure, StudentRaised):
            pass

    def _enter(self) -> Any:
        return self

    def _exit(self, *exc_info: object) -> None:
        self._close()


def _checked(answer: dict[str, Any], what: str) -> dict[str, Any]:
    """A result's fields from the worker, each the type the contract reads, or a failure naming it."""
    def bad(field: str) -> StudentFailure:
        return StudentFailure(f"{what}: the result's {field} {str(answer.get(field))[:60]!r} is not "
                              + {"status": "a solvers.Status", "grid": "a list of digits or None",
                                 "seconds": "a number", "stats": "a mapping of names to numbers or words",
                                 "solver": "a name"}[field])

    status = STATUSES.get(answer.get("status")) if isinstance(answer.get("status"), str) else None
    if status is None:
        raise bad("status")
    grid = answer.get("grid")
    if grid is not None and not (isinstance(grid, list) and all(isinstance(d, int) and not isinstance(d, bool)
                                                                for d in grid)):
        raise bad("grid")
    seconds = answer.get("seconds")
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not math.isfinite(seconds):
        raise bad("seconds")
    stats = answer.get("stats")
    if not (isinstance(stats, dict) and all(isinstance(v, int | float | str) for v in stats.values())):
        raise bad("stats")
    if not isinstance(answer.get("solver"), str):
        raise bad("solver")
    return {**answer, "status": status, "grid": None if grid is None else tuple(grid), "seconds": float(seconds)}


_METHODS = {"solve": _StudentSolver._solve, "count": _StudentSolver._count, "close": _StudentSolver._close,
            "__enter__": _StudentSolver._enter, "__exit__": _StudentSolver._exit}


def student_solver(student: StudentProcess, described: dict[str, Any]) -> Any:
    """The proxy for the solver the worker loaded (``described``: its ``load_solver`` answer): a class
    made for it with the protocol members the student's instance has, and no others."""
    missing = set(described.get("missing") or ())
    members: dict[str, Any] = {name: method for name, method in _METHODS.items() if name not in missing}
    if "paradigm" not in missing:
        members["paradigm"] = str(described.get("paradigm"))
    cls = type(str(described.get("class") or "StudentSolver"), (_StudentSolver,), members)
    proxy = cls(student, described)
    for name in ("name", "capabilities", "options"):
        if name in missing:  # the instance lacks it: so does the proxy (the data members are set per instance)
            try:
                delattr(proxy, name)
            except AttributeError:
                pass
    return proxy
