"""The one interface every paradigm implements, and the results everything downstream reads.

A solver is built once with its options (engine, encoding, workers, ...) and then asked to solve or
count many puzzles, so a paradigm that prepares per board shape (the SAT formula, the CP-SAT model)
pays that price once. ``SolveResult`` and ``CountResult`` are all that the BOJ adapter, compare,
judge and bench ever read.

A solver says what it can do in ``capabilities`` and which options it takes in ``options``;
callers ask instead of assuming, and the registry checks options by name and type before a
solver is built. ``SolverBase`` is a convenience, not a requirement: any class with the members
of ``Solver`` works everywhere.

More: docs/solvers.md.
"""

from __future__ import annotations

import enum
import functools
import inspect
import math
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, cast, runtime_checkable

from ..core.grid import Grid
from ..core.puzzle import Puzzle
from .lowering import lowerable

if TYPE_CHECKING:
    from ..core.rules import Rules

Stat = int | float | bool | str

EFFORT = ("nodes", "backtracks", "decisions", "conflicts", "propagations", "restarts", "branches", "updates",
          "lp_iterations", "choices", "failures", "flips")
"""The stats that measure search effort, in the order every report shows them.

Each paradigm counts different things (nodes of a search, a SAT engine's decisions and conflicts,
CP-SAT's branches, the link updates of Algorithm X, simplex iterations, an ASP solver's choices, a
CP solver's failed nodes, the moves of a local search); model sizes and settings
are stats too but not effort, and stay in the CSV and JSON outputs.
"""


class Status(enum.Enum):
    """How a solve ended."""

    SOLVED = "solved"
    """A grid was found; ``SolveResult.grid`` holds it (CP-SAT's OPTIMAL and FEASIBLE both map here)."""
    NO_SOLUTION = "no solution"
    """The search space was exhausted: the puzzle has no completion (SAT's UNSAT, CP's INFEASIBLE)."""
    TIME_LIMIT = "time limit reached"
    """The time limit ran out before an answer either way; nothing is known about the puzzle."""
    ERROR = "error"
    """The solver raised instead of answering. Never returned by a solver: the harnesses (compare,
    bench) record it, with the exception in ``stats["error"]``, and count it as a wrong answer."""


@dataclass(frozen=True)
class SolveResult:
    """What one solver did with one puzzle: the only thing adapters and reports read."""

    solver: str
    status: Status
    grid: Grid | None
    seconds: float
    stats: Mapping[str, Stat] = field(default_factory=dict)

    @property
    def solved(self) -> bool:
        return self.status is Status.SOLVED


@dataclass(frozen=True)
class CountResult:
    """How many solutions a solver found, up to a limit.

    ``count == limit`` means "at least limit": the search stopped there. ``status`` is TIME_LIMIT
    when the time ran out first, in which case ``count`` is a lower bound too.
    """

    solver: str
    count: int
    limit: int
    status: Status
    seconds: float
    stats: Mapping[str, Stat] = field(default_factory=dict)

    @property
    def exact(self) -> bool:
        """True when ``count`` is the exact number of solutions."""
        return self.count < self.limit and self.status is not Status.TIME_LIMIT


@dataclass(frozen=True)
class SolutionList:
    """The solutions a solver listed, up to a limit (``sudokulab solutions``).

    ``complete`` says whether every solution is listed: the solver looked for one more than
    ``limit`` and found none, within the time. ``ordered`` says whether they are in row-major
    lexicographic (canonical) order: a complete list is sorted, a partial one is in the order the
    solver found them, canonical only for a search that enumerates in that order.
    """

    solver: str
    grids: tuple[Grid, ...]
    limit: int
    status: Status
    """SOLVED (at least one), NO_SOLUTION, or TIME_LIMIT (the list may be partial)."""
    complete: bool
    ordered: bool
    seconds: float
    stats: Mapping[str, Stat] = field(default_factory=dict)


def list_found(solver: str, grids: Sequence[Grid], limit: int, status: Status, seconds: float,
               stats: Mapping[str, Stat], *, in_order: bool) -> SolutionList:
    """A ``SolutionList`` from up to ``limit + 1`` grids found (one more than wanted says there are more)."""
    complete = len(grids) <= limit and status is not Status.TIME_LIMIT
    listed = sorted(grids) if complete else list(grids[:limit])
    return SolutionList(solver, tuple(listed), limit, status, complete, complete or in_order, seconds, stats)


@dataclass(frozen=True)
class Capabilities:
    """What a solver can do; callers ask before they ask it, and contract tests test only this.

    A capability a solver lacks is refused with ``UnsupportedFeature`` (exit code 2), and harnesses
    that run many solvers (compare, bench) skip it for that solver and say so.
    """

    canonical: bool = True
    """Can give the row-major lexicographically first solution (``canonical=True``)."""
    count: bool = True
    """Can count solutions up to a limit."""
    time_limit: bool = True
    """Honours ``time_limit`` (within about twice the limit plus a second)."""
    complete: bool = True
    """Its search is complete: it proves "no solution" by exhausting the search space. An incomplete
    one (local search) answers "time limit reached" (nothing known) where it finds no grid within its
    limit, and "no solution" only where it proved it (givens that break a rule, a cell left with no
    digit); it never counts."""
    threads: str = "safe"
    """"safe": one instance may be used from several threads at once; "serialised": it may too,
    but calls take turns on a lock (a native engine that must not run twice at once)."""
    extra: str | None = None
    """The pip extra its backend needs (``install.extra_hint`` gives the command); None when always there."""
    slow: tuple[str, ...] = ()
    """Capabilities it has but pays for dearly (e.g. counting by re-running an external program)."""
    why: str = ""
    """Why it lacks what it lacks, for the refusal (e.g. "SAT engine 'lingeling' has no limited solve")."""
    kinds: frozenset[str] = frozenset({"all-different"})
    """The constraint kinds (``core.rules.kind_table``) its own code states natively. ``all-different``
    means any group of cells (rows, columns, boxes, diagonals, jigsaw regions, windows, cages' cells),
    not only the standard ones."""
    forms: frozenset[str] = frozenset()
    """The forms of the shared lowering its models state (``solvers.lowering.FORMS``): every kind whose
    lowering needs only these it honours through the lowering (``honoured``)."""
    kinds_why: str = ""
    """Why it lacks a kind, for the refusal (e.g. "exact cover has no sums")."""
    refuses: Callable[[Rules], str | None] | None = None
    """For a solver that honours a kind but cannot say every constraint of it (``dlx``: a killer cage
    whose sum is not pairwise): the first such constraint of a rule set and why, in words, or None.
    Refused before any work like a missing kind; harnesses ask ``unsupported``, which asks both."""

    @property
    def honoured(self) -> frozenset[str]:
        """Every kind it honours: natively (``kinds``) or through the lowering (``lowered``). A puzzle
        using a kind outside these is refused before solving (exit 2)."""
        return self.kinds | lowerable(self.forms) if self.forms else self.kinds

    @property
    def lowered(self) -> frozenset[str]:
        """The kinds it honours through the lowering only (``sudokulab solvers`` shows them in lower case)."""
        return self.honoured - self.kinds

    def unsupported(self, rules: Rules) -> str | None:
        """What of these rules it cannot honour, in words (a kind it lacks, or what ``refuses`` names), or None."""
        from ..core.rules import unsupported

        missing = unsupported(rules, self.honoured)
        if missing:
            return missing + (f": {self.kinds_why}" if self.kinds_why else "")
        return self.refuses(rules) if self.refuses is not None else None

    def lacks(self, *, canonical: bool = False, count: bool = False, time_limit: bool = False,
              rules: Rules | None = None) -> str | None:
        """The first of the asked capabilities this solver lacks, in words, or None."""
        for asked, has, words in ((canonical, self.canonical, "give a canonical answer"),
                                  (count, self.count, "count solutions"),
                                  (time_limit, self.time_limit, "honour a time limit")):
            if asked and not has:
                return words
        if rules is not None:
            missing = self.unsupported(rules)
            if missing:
                return f"honour {missing}"
        return None


@dataclass(frozen=True)
class Option:
    """One option a solver takes: its type and default, checked before the solver is built.

    ``choices`` lists the valid values (or a function that finds them at run time, such as the
    engines this PySAT build has); ``normalise`` maps an accepted spelling to the value the solver
    wants (an engine alias to its name) and raises ``UsageError`` naming the valid values.
    ``minimum`` and ``maximum`` bound a number. ``check`` is the one place a value is judged.
    """

    name: str
    type: type
    default: Any
    help: str
    choices: tuple[Any, ...] | Callable[[], tuple[Any, ...]] | None = None
    normalise: Callable[[Any], Any] | None = None
    minimum: int | float | None = None
    maximum: int | float | None = None

    def valid_values(self) -> tuple[Any, ...] | None:
        return self.choices() if callable(self.choices) else self.choices

    def check(self, value: Any, solver: str) -> Any:
        """The value, from text (the command line) or from Python, converted and checked; a bad one is
        a ``UsageError`` naming the solver and the option."""
        from ..errors import UsageError

        where = f"solver '{solver}' option {self.name}"
        kind = self.type
        if value is None and self.default is None:
            return None  # "let the solver choose", as its default says
        if isinstance(value, str) and kind is not str:
            text = value.strip().lower()
            try:
                if kind is bool:
                    if text not in _TRUE | _FALSE:
                        raise ValueError
                    value = text in _TRUE
                else:
                    value = kind(text)
            except ValueError:
                words = {bool: "true or false", int: "a whole number", float: "a number"}.get(kind, kind.__name__)
                raise UsageError(f"{where} must be {words}, not '{value}'") from None
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
            raise UsageError(f"{where} must be of type {kind.__name__}, not {value!r}")
        number = cast("float", value)  # only compared where kind is int or float (minimum, maximum)
        if kind is float and not math.isfinite(number):
            raise UsageError(f"{where} must be a finite number, not {value!r}")
        if self.minimum is not None and number < self.minimum:
            raise UsageError(f"{where} must be at least {self.minimum}, not {value!r}")
        if self.maximum is not None and number > self.maximum:
            raise UsageError(f"{where} must be at most {self.maximum}, not {value!r}")
        if self.normalise is not None:
            try:
                value = self.normalise(value)
            except UsageError as exc:
                raise UsageError(f"solver '{solver}': {exc}") from None
        valid = self.valid_values()
        if valid is not None and value not in valid:
            raise UsageError(f"solver '{solver}': unknown {self.name} '{value}'; "
                             f"choose one of: {', '.join(map(str, valid))}")
        return value


_TRUE, _FALSE = frozenset({"true", "yes", "on", "1"}), frozenset({"false", "no", "off", "0"})


def check_options(solver: str, declared: tuple[Option, ...], values: Mapping[str, Any]) -> dict[str, Any]:
    """Options checked against what a solver declares: an unknown name or a bad value is one
    ``UsageError`` line naming the solver and the option (the one check every solver's options pass)."""
    from ..errors import UsageError, did_you_mean

    by_name = {option.name: option for option in declared}
    checked = {}
    for key, value in values.items():
        option = by_name.get(key)
        if option is None:
            taken = ", ".join(by_name) or "none"
            raise UsageError(f"solver '{solver}' takes no option '{key}'" + did_you_mean(
                key, by_name, otherwise=f"its options: {taken}"))
        checked[key] = option.check(value, solver)
    return checked


@runtime_checkable
class Solver(Protocol):
    """A configured solver of one paradigm: everything any caller uses, nothing else.

    ``canonical=True`` asks for the row-major lexicographically first solution, the answer of the
    classic BOJ 2580 backtracker and of BOJ 2239. ``time_limit`` is in seconds of wall time; when it
    runs out the result says TIME_LIMIT rather than hanging. Used as a context manager, the solver
    releases its native resources on exit.
    """

    name: str
    paradigm: ClassVar[str]
    capabilities: ClassVar[Capabilities]
    options: ClassVar[tuple[Option, ...]]

    def solve(
        self, puzzle: Puzzle, *, time_limit: float | None = None, canonical: bool = False
    ) -> SolveResult: ...

    def count(
        self, puzzle: Puzzle, *, limit: int = 2, time_limit: float | None = None
    ) -> CountResult: ...

    def close(self) -> None: ...

    def __enter__(self) -> Solver: ...

    def __exit__(self, *exc_info: object) -> None: ...


def check_kinds(solver: Solver, puzzle: Puzzle) -> None:
    """Refuse a puzzle whose rules use a constraint kind the solver does not honour (natively or through
    the lowering), or a constraint its ``capabilities.refuses`` names, before any work.

    Every solver calls this first in ``solve`` and ``count``, so no caller (a library user who
    skipped ``solvers.require``) ever gets a "solved" grid that ignores a rule. Standard rules
    pass at the cost of one subset test.
    """
    capabilities = solver.capabilities
    if puzzle.rules.kinds <= capabilities.kinds and (capabilities.refuses is None or puzzle.rules.is_standard):
        return  # native kinds only: one subset test
    from ..errors import UnsupportedFeature

    missing = capabilities.lacks(rules=puzzle.rules)
    if missing:
        raise UnsupportedFeature(f"solver '{solver.name}' cannot {missing}")


def backend_failed(solver: str, backend: str, why: BaseException | str) -> Exception:
    """The one-line error for an engine that failed at run time (``errors.BackendFailed``, exit 2): the
    solver, the engine and the reason (an exception's type and first line), so a crash is never read as
    a verdict."""
    from ..errors import BackendFailed

    first = (str(why).strip().splitlines() or [""])[0]
    if isinstance(why, BaseException):
        first = f"{type(why).__name__}: {first}" if first else type(why).__name__
    return BackendFailed(f"solver '{solver}': {backend} failed: {first}")


class TimeUp(Exception):
    """Raised inside a search when its deadline passes; solvers turn it into TIME_LIMIT."""


class Deadline:
    """A wall-clock deadline; ``None`` means no limit."""

    __slots__ = ("limit", "at")

    def __init__(self, limit: float | None):
        if limit is not None and not limit > 0:
            raise ValueError(f"time limit must be positive, not {limit}")
        self.limit = limit
        self.at = None if limit is None else time.perf_counter() + limit

    def check(self) -> None:
        if self.at is not None and time.perf_counter() >= self.at:
            raise TimeUp


def check_limit(limit: int) -> int:
    """A count limit as a Python int of at least 1 (any size: counting stops at the limit)."""
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise ValueError(f"limit must be a whole number of at least 1, not {limit!r}")
    return limit


class SolverBase:
    """Shared plumbing: context-manager use, a lock for serialised solvers, a do-nothing close()."""

    name = "base"
    paradigm: ClassVar[str] = "unknown"
    capabilities: ClassVar[Capabilities] = Capabilities()
    options: ClassVar[tuple[Option, ...]] = ()

    def __init__(self, **options: Any) -> None:
        """Options reach here only for a class with no constructor of its own: checked, then none taken."""
        if check_options(type(self).name, type(self).options, options):
            raise TypeError(f"{type(self).__name__} declares options but has no constructor that takes them")
        self._lock = threading.RLock()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Check a subclass's options on every construction, through ``check_options``.

        Why here: a solver is built through ``solvers.get`` or directly by a library user, and both
        must meet the same check, so no constructor repeats it (each once had its own, in words of
        its own, and some raised ``ValueError``).
        """
        super().__init_subclass__(**kwargs)
        init = cls.__dict__.get("__init__")
        if init is None or getattr(init, "checks_options", False):
            return
        signature = inspect.signature(init)
        if any(p.kind is p.VAR_POSITIONAL for p in signature.parameters.values()):
            return  # positional leftovers name no option: such a class checks its own

        @functools.wraps(init)
        def checked_init(self: Any, *args: Any, **values: Any) -> None:
            try:
                bound = signature.bind(self, *args, **values)
            except TypeError:  # an unknown keyword: said in the words of every other bad option
                check_options(type(self).name, type(self).options, values)
                raise
            given = {}
            for key, value in list(bound.arguments.items())[1:]:
                if signature.parameters[key].kind is inspect.Parameter.VAR_KEYWORD:
                    given.update(value)
                else:
                    given[key] = value
            init(self, **check_options(type(self).name, type(self).options, given))

        checked_init.checks_options = True  # type: ignore[attr-defined]
        cls.__init__ = checked_init  # type: ignore[method-assign]

    def close(self) -> None:
        """Release native resources (SAT engines); safe to call twice."""

    def __enter__(self):
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"
