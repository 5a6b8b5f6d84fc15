"""Answer set programming: clingo grounds ``sudokulab.solvers.asp.model`` once per rule set and solves it.

Every rule kind is honoured (``#count``, ``#sum``, integrity constraints, the shared lowering).
Ground once, assume the givens: one ``AspSolver`` keeps, per rule set, one ``clingo.Control``
holding the grounded program and passes each puzzle's givens as assumptions on the ``v`` atoms, so
grounding is paid once and what clasp learns under assumptions carries over; that ``Control`` is
native state changed by every call, hence ``threads="serialised"``. Time limits and Ctrl-C are
taken while waiting on clingo's async solve in slices (grounding, which cannot be stopped, runs
through ``native.interruptible``, or in a child process above 16x16). Counting enumerates with
clingo itself; canonical answers come from ``canonical.smallest_solution`` with assumptions. Stats
are read value by value (``statistics``), not through ``Control.statistics``, which copies the
whole tree.

The options, the stats and the measurements behind these choices: docs/asp.md.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import ClassVar

import clingo

from ...core.grid import Grid
from ...core.puzzle import Puzzle
from ...core.rules import Rules
from .. import stoppable
from ..base import (
    Capabilities,
    CountResult,
    Deadline,
    Option,
    SolutionList,
    SolverBase,
    SolveResult,
    Stat,
    Status,
    TimeUp,
    check_kinds,
    check_limit,
    list_found,
)
from ..canonical import smallest_solution
from ..lowering import FORMS
from ..native import interruptible
from .model import NATIVE, cell_index, program

CONFIGURATIONS = ("auto", "frumpy", "jumpy", "tweety", "handy", "crafty", "trendy", "many")
"""clingo's ``--configuration`` presets (``auto`` picks ``tweety`` for a program like this one)."""

HEURISTICS = ("auto", "vsids", "berkmin", "vmtf", "unit", "none")
"""clasp's ``--heuristic``; ``auto`` keeps the configuration's own. ``Domain`` is left out: without
``#heuristic`` statements in the program it is Vsids."""

KEPT = 8
"""Ground programs a solver keeps (one per rule set); the oldest goes first beyond this."""

CHILD_ABOVE = 16
"""Boards larger than this take seconds to ground (a 25x25 board one to seven here, with other work
running), which no time limit can cut short: a call with a time limit that must ground runs in a child
process (``solvers.stoppable``), and what it grounds there is not kept."""

_SLICE = 0.05
"""Seconds the calling thread waits on clingo's search at a time: Ctrl-C is taken between two waits."""

_EFFORT = ("choices", "conflicts", "restarts")
_EFFORT_PATHS = tuple(("solving", "solvers", key) for key in _EFFORT)
_SIZE = ("atoms", "rules", "variables", "constraints")
_SIZE_PATHS = (("problem", "lp", "atoms"), ("problem", "lp", "rules"),
               ("problem", "generator", "vars"), ("problem", "generator", "constraints"))


def statistics(control: clingo.Control, paths: Sequence[tuple[str, ...]]) -> list[float]:
    """The values of a few of clingo's statistics of the last solve, e.g. ``("solving", "solvers", "choices")``.

    Why not ``control.statistics``: that property copies clingo's whole statistics tree into Python
    dicts, which cost more than solving a 17-clue puzzle (benchmarks/results/asp.md). This reads
    only the values asked for, through the same C calls (``clingo_statistics_map_at`` and
    ``clingo_statistics_value_get``) that the property makes for every key; where clingo's
    internals differ from 5.8's, it falls back to the property.
    """
    try:
        from clingo._internal import _c_call, _lib

        stats = _c_call("clingo_statistics_t*", _lib.clingo_control_statistics, control._rep)
        root = _c_call("uint64_t", _lib.clingo_statistics_root, stats)
        values = []
        for path in paths:
            key = root
            for name in path:
                key = _c_call("uint64_t", _lib.clingo_statistics_map_at, stats, key, name.encode())
            values.append(_c_call("double", _lib.clingo_statistics_value_get, stats, key))
        return values
    except (ImportError, AttributeError):  # pragma: no cover - another clingo's internals
        tree = control.statistics
        found = []
        for path in paths:
            value = tree
            for name in path:
                value = value[name]
            found.append(value)
        return found


class _Program:
    """One rule set's ground program in a ``Control``: the literal of every ``v(cell, digit)`` atom, and
    the (cell, digit) of every such symbol (reading a symbol's arguments costs far more than a look-up)."""

    def __init__(self, rules: Rules, arguments: list[str]):
        started = time.perf_counter()
        control = clingo.Control(arguments)
        control.add("base", [], program(rules))
        control.ground([("base", [])])
        n = rules.n
        literals = [[0] * (n + 1) for _ in range(rules.shape.cells)]
        meaning: dict[clingo.Symbol, tuple[int, int]] = {}
        for atom in control.symbolic_atoms.by_signature("v", 2):
            cell, digit = atom.symbol.arguments
            row, col = cell.arguments
            index = cell_index(row.number, col.number, n)
            literals[index][digit.number] = atom.literal
            meaning[atom.symbol] = (index, digit.number)
        self.control, self.literals, self.meaning, self.cells = control, literals, meaning, rules.shape.cells
        self.seconds = time.perf_counter() - started
        self.size: dict[str, Stat] = {}

    def assumptions(self, pairs: Sequence[tuple[int, int]]) -> list[int]:
        """The literals of "cell holds digit" for each (cell, digit) pair."""
        return [self.literals[cell][digit] for cell, digit in pairs]

    def grid(self, model: clingo.Model) -> Grid:
        """The grid of an answer set, from its shown ``v`` atoms."""
        grid = [0] * self.cells
        meaning = self.meaning
        for symbol in model.symbols(shown=True):
            cell, digit = meaning[symbol]
            grid[cell] = digit
        return tuple(grid)


class _Run:
    """The effort of one call (its solve calls summed) and the way each solve is made."""

    def __init__(self, program: _Program, deadline: Deadline, grounding: float):
        self.program, self.deadline, self.grounding = program, deadline, grounding
        self.effort = dict.fromkeys(_EFFORT, 0)
        self.calls = 0
        self.solving = 0.0

    def solve(self, assumptions: list[int], models: int,
              on_model: Callable[[clingo.Model], bool]) -> clingo.SolveResult:
        """One solve under what is left of the deadline; ``TimeUp`` when it ran out first."""
        control = self.program.control
        remaining = None if self.deadline.at is None else self.deadline.at - time.perf_counter()
        if remaining is not None and remaining <= 0:
            raise TimeUp
        control.configuration.solve.models = str(models)
        started = time.perf_counter()
        with control.solve(assumptions=assumptions, on_model=on_model, async_=True) as handle:
            try:
                while not handle.wait(_SLICE if remaining is None else max(0.0, min(_SLICE, remaining))):
                    if remaining is not None:
                        remaining = self.deadline.at - time.perf_counter()  # type: ignore[operator]
                        if remaining <= 0:
                            handle.cancel()
                            break
                result = handle.get()
            except KeyboardInterrupt:
                handle.cancel()  # Ctrl-C, taken between two waits: the search stops before it goes on up
                raise
        self.solving += time.perf_counter() - started
        self.calls += 1
        for key, value in zip(_EFFORT, statistics(control, _EFFORT_PATHS)):
            self.effort[key] += int(value)
        if not self.program.size:
            self.program.size = dict(zip(_SIZE, map(int, statistics(control, _SIZE_PATHS))))
        if result.interrupted and not result.exhausted and not result.satisfiable:
            raise TimeUp
        return result

    def first(self, assumptions: list[int]) -> Grid | None:
        """One solution under the assumptions, or None when there is none."""
        found: list[Grid] = []

        def keep(model: clingo.Model) -> bool:
            found.append(self.program.grid(model))
            return True

        self.solve(assumptions, 1, keep)
        return found[0] if found else None


class AspSolver(SolverBase):
    """``asp``: the answer set program of ``solvers.asp.model`` grounded once per rule set and solved by clingo.

    Args:
        configuration: clingo's ``--configuration`` preset (``auto``: ``tweety`` for this program).
        seed: clasp's random seed (``--seed``).
        heuristic: clasp's decision heuristic (``--heuristic``); ``auto`` keeps the configuration's.
    """

    name = "asp"
    paradigm: ClassVar[str] = "answer set programming (clingo)"
    capabilities: ClassVar[Capabilities] = Capabilities(threads="serialised", kinds=NATIVE, forms=FORMS)
    options: ClassVar[tuple[Option, ...]] = (
        Option("configuration", str, "auto", "clingo's --configuration preset", CONFIGURATIONS,
               normalise=lambda value: value.strip().lower()),
        Option("seed", int, 0, "clasp's random seed", minimum=0, maximum=2**31 - 1),
        Option("heuristic", str, "auto", "clasp's decision heuristic (auto: the configuration's)", HEURISTICS,
               normalise=lambda value: value.strip().lower()),
    )

    def __init__(self, configuration: str = "auto", seed: int = 0, heuristic: str = "auto"):
        super().__init__()  # options checked by SolverBase (base.check_options)
        self.configuration, self.seed, self.heuristic = configuration, seed, heuristic
        self._arguments = ["--warn=none", f"--configuration={configuration}", f"--seed={seed}"]
        if heuristic != "auto":
            self._arguments.append(f"--heuristic={heuristic.capitalize()}")
        self._programs: dict[Rules, _Program] = {}

    @classmethod
    def describe_backend(cls) -> str:
        return f"clingo {clingo.__version__}"

    def _start(self, puzzle: Puzzle, time_limit: float | None) -> _Run:
        """Under the lock: the rule set's ground program (grounded now if new) and the run's deadline."""
        deadline = Deadline(time_limit)
        rules = puzzle.rules
        kept = self._programs.get(rules)
        if kept is not None:
            return _Run(kept, deadline, 0.0)
        built = interruptible(lambda: _Program(rules, self._arguments), lambda: None)
        if len(self._programs) >= KEPT:
            del self._programs[next(iter(self._programs))]
        self._programs[rules] = built
        return _Run(built, deadline, built.seconds)

    def _stats(self, run: _Run) -> dict[str, Stat]:
        return {**run.effort, "calls": run.calls, **run.program.size,
                "grounding_seconds": run.grounding, "solving_seconds": run.solving,
                "configuration": self.configuration}

    def _in_child(self, puzzle: Puzzle, deadline: Deadline) -> bool:
        """Whether this call grounds a large board under a time limit, and so runs in a child process."""
        return stoppable.wanted(puzzle.n > CHILD_ABOVE and puzzle.rules not in self._programs, deadline)

    def solve(self, puzzle: Puzzle, *, time_limit: float | None = None, canonical: bool = False) -> SolveResult:
        check_kinds(self, puzzle)
        started = time.perf_counter()
        with self._lock:
            deadline = Deadline(time_limit)
            if self._in_child(puzzle, deadline):
                return stoppable.solve(self, puzzle, deadline, started, canonical)
            run = self._start(puzzle, time_limit)
            givens = run.program.assumptions([(cell, d) for cell, d in enumerate(puzzle.givens) if d])
            try:
                grid = run.first(givens)
                if canonical and grid is not None:
                    def try_digit(cell: int, digit: int, fixed: Sequence[tuple[int, int]]) -> Grid | None:
                        return run.first(givens + run.program.assumptions([*fixed, (cell, digit)]))

                    grid = smallest_solution(puzzle, grid, try_digit)
                status = Status.NO_SOLUTION if grid is None else Status.SOLVED
            except TimeUp:
                grid, status = None, Status.TIME_LIMIT
            stats = self._stats(run)
        return SolveResult(self.name, status, grid, time.perf_counter() - started, stats)

    def count(self, puzzle: Puzzle, *, limit: int = 2, time_limit: float | None = None) -> CountResult:
        check_kinds(self, puzzle)
        with self._lock:
            deadline = Deadline(time_limit)
            if self._in_child(puzzle, deadline):
                return stoppable.count(self, puzzle, deadline, time.perf_counter(), check_limit(limit))
        found, status, seconds, stats = self._enumerate(puzzle, check_limit(limit), time_limit)
        return CountResult(self.name, found, limit, status, seconds, stats)

    def solutions(self, puzzle: Puzzle, *, limit: int = 10, time_limit: float | None = None) -> SolutionList:
        """The solutions up to ``limit``, in clingo's order (sorted when the list is complete)."""
        kept: list[Grid] = []
        _, status, seconds, stats = self._enumerate(puzzle, check_limit(limit) + 1, time_limit, kept)
        return list_found(self.name, kept, limit, status, seconds, stats, in_order=False)

    def _enumerate(self, puzzle: Puzzle, limit: int, time_limit: float | None, kept: list[Grid] | None = None
                   ) -> tuple[int, Status, float, dict[str, Stat]]:
        """Answer sets up to ``limit`` by clingo's enumeration, each one grid (kept when ``kept`` is given)."""
        check_kinds(self, puzzle)
        started = time.perf_counter()
        found = [0]
        with self._lock:
            run = self._start(puzzle, time_limit)
            givens = run.program.assumptions([(cell, d) for cell, d in enumerate(puzzle.givens) if d])

            def on_model(model: clingo.Model) -> bool:
                if kept is not None:
                    kept.append(run.program.grid(model))
                found[0] += 1
                return found[0] < limit

            try:
                result = run.solve(givens, 0, on_model)
                if found[0] >= limit or result.exhausted:
                    status = Status.SOLVED if found[0] else Status.NO_SOLUTION
                else:
                    status = Status.TIME_LIMIT  # stopped by the deadline before the limit
            except TimeUp:
                status = Status.TIME_LIMIT
            stats = self._stats(run)
        return found[0], status, time.perf_counter() - started, stats

    def close(self) -> None:
        with self._lock:
            self._programs.clear()

