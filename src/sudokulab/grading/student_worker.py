"""What runs inside the sandbox for a grader: the student's code, called on request, answering data only.

``student_process`` starts this (``python -I -B -m sudokulab.grading.student_worker``) under the judge's
launcher and bubblewrap. It reads one JSON request per line on standard input and writes one JSON
answer per line on a descriptor of its own (the standard output it was started with); its file
descriptor 1 is pointed at standard error first, so whatever the student prints lands there, apart
from the answers. An answer is plain data (ints, strings, lists, maps): clauses, grids, statuses,
capabilities, a model's text; never an object of the student's, never a pickle.

Nothing here is trusted by the grader: the student's code runs in this process and can rewrite it.
That is why the grader takes only data it validates, and computes every verdict itself.

More: docs/grading.md.
"""

from __future__ import annotations

import inspect
import json
import operator
import os
import sys
from collections.abc import Callable
from typing import Any

from ..errors import UnsupportedFeature
from .student_code import RefusedSolvers, StudentError, imported_library_solvers, load_class, load_module, raised_line

DEPTH = 4
"""How deep ``plain`` follows nested sequences (a list of clauses of ints is 2; rows of a grid 2)."""


def plain(value: Any, depth: int = DEPTH) -> Any:
    """A student's value as JSON data: ints (anything ``operator.index`` takes), floats, strings, None,
    lists (of anything iterable that is not a string or a map); anything else as its short repr, so the
    grader names it instead of this process failing to send it."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, float):
        return value if value == value and abs(value) != float("inf") else repr(value)
    try:
        return operator.index(value)
    except TypeError:
        pass
    if depth and not isinstance(value, dict | bytes):
        try:
            return [plain(item, depth - 1) for item in value]
        except TypeError:
            pass
    return repr(value)[:80]


_PUZZLES: dict[str, Any] = {}


def puzzle_of(document: dict[str, Any]):
    """A puzzle from the grader's JSON puzzle document (the puzzle file format), parsed once."""
    from ..formats.puzzle_files import parse_puzzle_text

    text = json.dumps(document, sort_keys=True)
    if text not in _PUZZLES:
        if len(_PUZZLES) > 64:
            _PUZZLES.clear()
        _PUZZLES[text] = parse_puzzle_text(text, "the grader's puzzle")
    return _PUZZLES[text]


class Failed(Exception):
    """An answer that says the call failed: ``kind`` is ``raised``, ``refused`` or ``unusable``."""

    def __init__(self, kind: str, line: str, type_name: str = "", text: str = ""):
        super().__init__(line)
        self.kind, self.line, self.type_name, self.text = kind, line, type_name, text


class Worker:
    """The student's module or solver instance, and the calls the graders make on it."""

    def __init__(self) -> None:
        self.module: Any = None
        self.solver: Any = None
        self.decoders: dict[int, Callable[[Any], Any]] = {}

    def run(self, name: str, func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Call the student's function; an exception is a ``raised`` answer naming it (or ``refused``)."""
        try:
            return func(*args, **kwargs)
        except UnsupportedFeature as refusal:
            raise Failed("refused", str(refusal), type(refusal).__name__, str(refusal)) from None
        except StudentError as exc:
            raise Failed("unusable", str(exc)) from None
        except MemoryError:
            raise  # the process's limit, not the student's exception: answered as such
        except Exception as exc:  # noqa: BLE001 - the student's code may raise anything
            raise Failed("raised", raised_line(self.module, name, exc), type(exc).__name__, str(exc)) from None

    # --- check-solver: a solver class -----------------------------------------------------------------

    def library_solvers(self) -> list[str]:
        """The built-in solvers' packages imported so far (``student_code.library_solvers``): reported,
        not trusted (the student's code runs here); a teacher who refuses them has the sandbox hide them."""
        return imported_library_solvers()

    def load_solver(self, target: str, shown: str, refused: list[str] | None = None) -> dict[str, Any]:
        from .. import solvers

        if refused:
            RefusedSolvers(refused).install()
        cls = load_class(target, shown)
        self.module = sys.modules.get(cls.__module__)
        capabilities = getattr(cls, "capabilities", None)
        if not isinstance(capabilities, solvers.Capabilities):
            raise StudentError(f"'{shown}': the class declares no capabilities (a solvers.Capabilities)")
        try:
            self.solver = cls()
        except Exception as exc:  # noqa: BLE001 - the student's constructor may raise anything
            raise StudentError(f"'{shown}': {cls.__name__}() raised {type(exc).__name__}: {exc}") from None
        members = ("name", "paradigm", "capabilities", "options", "solve", "count", "close", "__enter__", "__exit__")
        return {
            "class": cls.__name__,
            "name": plain(getattr(self.solver, "name", "")),
            "paradigm": plain(getattr(self.solver, "paradigm", "")),
            "missing": [member for member in members if not hasattr(self.solver, member)],
            "protocol": isinstance(self.solver, solvers.Solver),
            "capabilities": {
                "canonical": bool(capabilities.canonical), "count": bool(capabilities.count),
                "time_limit": bool(capabilities.time_limit), "threads": plain(capabilities.threads),
                "extra": plain(capabilities.extra), "slow": plain(list(capabilities.slow)),
                "why": plain(capabilities.why), "kinds": plain(sorted(capabilities.kinds)),
                "forms": plain(sorted(getattr(capabilities, "forms", ()))), "kinds_why": plain(capabilities.kinds_why),
            },
            "library_solvers": imported_library_solvers(),
        }

    def result(self, name: str, found: Any, fields: tuple[str, ...]) -> dict[str, Any]:
        """A SolveResult's or CountResult's fields as data (the status by its value)."""
        kind = "SolveResult" if name == "solve" else "CountResult"
        try:
            if not all(hasattr(found, field) for field in fields):
                raise Failed("unusable", f"{name} returned {repr(found)[:60]}, not a {kind}")
            answer = {field: plain(getattr(found, field)) for field in fields if field not in ("status", "stats")}
            answer["status"] = plain(getattr(found.status, "value", found.status))
            try:
                answer["stats"] = {str(key): plain(item, 0) for key, item in dict(found.stats).items()}
            except (TypeError, ValueError):
                answer["stats"] = plain(found.stats, 0)
        except Exception as exc:  # noqa: BLE001 - a result of the student's own whose fields raise
            raise Failed("unusable", f"{name} returned a {kind} whose fields raise {type(exc).__name__}") from None
        return answer

    def solve(self, puzzle: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
        found = self.run("solve", self.solver.solve, puzzle_of(puzzle), **options)
        return self.result("solve", found, ("solver", "status", "grid", "seconds", "stats"))

    def count(self, puzzle: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
        found = self.run("count", self.solver.count, puzzle_of(puzzle), **options)
        return self.result("count", found, ("solver", "count", "limit", "status", "seconds", "stats"))

    def close(self) -> None:
        close = getattr(self.solver, "close", None)
        if callable(close):
            self.run("close", close)

    # --- check-encoding: a model ----------------------------------------------------------------------

    def load_model(self, file: str, shown: str, refused: list[str] | None = None) -> dict[str, Any]:
        if refused:
            RefusedSolvers(refused).install()
        self.module = load_module(file, shown)
        if callable(getattr(self.module, "build", None)):
            return {"kind": "cp", "library_solvers": imported_library_solvers()}
        encode, decode = (getattr(self.module, name, None) for name in ("encode", "decode"))
        missing = " and ".join(name for name, f in (("encode(puzzle)", encode), ("decode(model, puzzle)", decode))
                               if not callable(f))
        if missing:
            raise StudentError(f"{shown}: defines no {missing} (see 'sudokulab check-encoding --template')")
        return {"kind": "sat", "library_solvers": imported_library_solvers()}

    def encode(self, puzzle: dict[str, Any]) -> Any:
        return plain(self.run("encode", self.module.encode, puzzle_of(puzzle)))

    def decode(self, model: list[int], puzzle: dict[str, Any], flips: bool) -> dict[str, Any]:
        """The grid of a model; with ``flips``, also the grid (or None: decode raised) of the model with
        each true variable made false, one at a time, for the grader's blocking clauses."""
        decode = self.module.decode
        try:
            takes_puzzle = len(inspect.signature(decode).parameters) >= 2
        except (TypeError, ValueError):
            takes_puzzle = True
        board = puzzle_of(puzzle)

        def decoded(values: list[int]) -> Any:
            arguments = (values, board) if takes_puzzle else (values,)
            return plain(self.run("decode", decode, *arguments))

        answer: dict[str, Any] = {"grid": decoded(model)}
        if flips:
            flipped: list[Any] = []
            for index, literal in enumerate(model):
                if literal > 0:
                    model[index] = -literal
                    try:
                        flipped.append(decoded(model))
                    except Failed:
                        flipped.append(None)
                    model[index] = literal
            answer["flipped"] = flipped
        return answer

    def build(self, puzzle: dict[str, Any]) -> dict[str, Any]:
        """The CP-SAT model as protobuf text (the grader parses and solves it); its decode kept here."""
        built = self.run("build", self.module.build, puzzle_of(puzzle))
        if not (isinstance(built, tuple) and len(built) == 2 and callable(built[1])):
            raise Failed("unusable", f"{self.module.__sudokulab_path__.name}: build must return (model, decode), "
                         f"not {str(built)[:60]}")
        proto = getattr(built[0], "Proto", None)
        if not callable(proto):
            raise Failed("unusable", f"{self.module.__sudokulab_path__.name}: build must return an OR-Tools "
                         f"cp_model.CpModel, not {repr(built[0])[:60]}")
        handle = len(self.decoders) + 1
        self.decoders[handle] = built[1]
        return {"model": str(proto()), "handle": handle}

    def decode_values(self, handle: int, solutions: list[list[int]]) -> list[Any]:
        """The grids a kept CP decode gives for solutions (each variable's value, by index)."""
        from ortools.sat.python import cp_model

        decode = self.decoders[handle]
        grids = []
        for solution in solutions:
            response = cp_model.cmh.CpSolverResponse()
            response.solution.extend(solution)
            grids.append(plain(self.run("decode", decode, Values(response))))
        return grids


class Values:
    """What a CP decode reads a solution through: ``Value(x)`` (and ``BooleanValue``), as CP-SAT's solver
    and solution callback offer it, evaluated on the solution the grader sent."""

    def __init__(self, response: Any):
        self.response = response

    def Value(self, expression: Any) -> int:  # noqa: N802 - CP-SAT's name, which student code calls
        from ortools.sat.python import cp_model

        return cp_model.cmh.ResponseHelper.value(self.response, expression)

    def BooleanValue(self, literal: Any) -> bool:  # noqa: N802
        from ortools.sat.python import cp_model

        return cp_model.cmh.ResponseHelper.boolean_value(self.response, literal)

    value, boolean_value = Value, BooleanValue


CALLS = ("load_solver", "solve", "count", "close", "load_model", "encode", "decode", "build", "decode_values",
         "library_solvers")


def answer(worker: Any, request: dict[str, Any], calls: tuple[str, ...] = CALLS) -> dict[str, Any]:
    """One request's answer: its value, or what went wrong, as data."""
    number, name = request.get("id"), request.get("call")
    arguments = request.get("arguments") or {}
    try:
        if name not in calls:
            raise Failed("unusable", f"the worker has no call '{name}'")
        return {"id": number, "value": getattr(worker, name)(**arguments)}
    except Failed as failed:
        return {"id": number, "error": {"kind": failed.kind, "line": failed.line, "type": failed.type_name,
                                        "text": failed.text[:2000]}}
    except StudentError as exc:  # loading: the file cannot be used
        return {"id": number, "error": {"kind": "unusable", "line": str(exc)}}
    except MemoryError:
        return {"id": number, "error": {"kind": "memory", "line": ""}}
    except SystemExit as exc:
        return {"id": number, "error": {"kind": "exited", "line": f"sys.exit({plain(exc.code, 0)!r})"}}
    except BaseException as exc:  # noqa: BLE001 - KeyboardInterrupt and kin raised by the student's code
        return {"id": number, "error": {"kind": "exited", "line": f"raise {type(exc).__name__}"}}


def serve(worker: Any, calls: tuple[str, ...] = CALLS) -> None:
    """Answer the grader's requests, one JSON line each, until its end of the pipe closes."""
    channel = os.dup(1)
    os.dup2(2, 1)  # the student's prints, even os.write(1, ...), go to standard error, never to the channel

    def send(document: dict[str, Any]) -> None:
        try:
            data = (json.dumps(document, allow_nan=False, separators=(",", ":")) + "\n").encode()
        except (TypeError, ValueError) as exc:
            data = (json.dumps({"id": document.get("id"), "error": {"kind": "unusable", "line": f"an answer that is "
                                                                     f"not JSON: {exc}"}}) + "\n").encode()
        view = memoryview(data)
        while view:
            view = view[os.write(channel, view):]

    send({"id": 0, "value": "ready"})
    for line in sys.stdin.buffer:
        send(answer(worker, json.loads(line), calls))


def main() -> None:
    serve(Worker())


if __name__ == "__main__":
    main()
