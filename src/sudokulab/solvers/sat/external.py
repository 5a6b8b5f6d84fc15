"""Any SAT solver program as a sudokulab solver: write DIMACS, run it in the sandbox, decode its answer.

``dimacs`` writes the puzzle's formula (``dimacs.to_dimacs``, any encoding, every constraint kind)
to a temporary file, runs the program without a shell through ``sandbox.run_program`` (its own
process group, killed whole at the time limit, every descendant reaped), reads its answer
(``solvers.sat.dimacs.parse_answer``: exit code 10 means SAT, 20 UNSAT) and decodes the model
through the literal map. ``{cnf}`` and ``{out}`` in the command stand for the formula file and a
result file (MiniSat writes its model there); without ``{cnf}`` the file is appended. With no
``command`` the first of ``KNOWN`` found on the PATH is used. Canonical answers and counts re-run
the program (unit clauses, blocking clauses): one process per call, declared slow in the
capabilities. Stats come from the program's ``c`` lines, best effort.

The programs it knows, and what it reads of them: docs/dimacs.md.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import tempfile
import time
from collections.abc import Sequence
from typing import Any, ClassVar

from ...core import variables
from ...core.grid import Grid
from ...core.puzzle import Puzzle
from ...errors import PuzzleFormatError, UsageError
from ...execution.sandbox import Limits, run_program
from ..base import (
    Capabilities,
    CountResult,
    Deadline,
    Option,
    SolverBase,
    SolveResult,
    Status,
    TimeUp,
    check_kinds,
    check_limit,
)
from ..canonical import smallest_solution
from ..lowering import FORMS
from . import dimacs
from . import encodings as cnf_encodings
from . import size as cnf_size
from .dimacs import Exported, decode_model, parse_answer
from .encodings import NATIVE

KNOWN: dict[str, tuple[str, ...]] = {
    "cadical": ("cadical", "-q", "{cnf}"),
    "kissat": ("kissat", "-q", "{cnf}"),
    "minisat": ("minisat", "-verb=0", "{cnf}", "{out}"),
    "picosat": ("picosat", "{cnf}"),
}
"""Programs tried in this order when no command is given, with the arguments that print a model."""

_NO_LIMIT = 24 * 3600.0  # "no limit" for the sandbox, which needs one (epoll takes at most ~24 days)
_STAT = re.compile(r"\b(conflicts|decisions|propagations|restarts)\s*:?\s+(\d+)", re.IGNORECASE)


class ExternalSolverError(UsageError):
    """The SAT program failed: crashed, or printed no answer sudokulab can read."""


def default_command() -> tuple[str, ...] | None:
    """The first known SAT program on the PATH, with its arguments; None when there is none."""
    return next((command for name, command in KNOWN.items() if shutil.which(name)), None)


class DimacsSolver(SolverBase):
    """``dimacs``: any SAT solver program, given DIMACS and read back through the literal map."""

    name = "dimacs"
    paradigm: ClassVar[str] = "SAT (any solver program, DIMACS)"
    capabilities: ClassVar[Capabilities] = Capabilities(threads="safe", slow=("canonical", "count"),
                                                        kinds=NATIVE, forms=FORMS)
    options: ClassVar[tuple[Option, ...]] = (
        Option("command", str, "", "the SAT program and its arguments, e.g. 'cadical -q'; {cnf} and {out} stand "
               "for the formula and a result file (default: the first of cadical, kissat, minisat, picosat found)"),
        Option("encoding", str, "extended", "CNF encoding of the formula written", cnf_encodings.ENCODINGS),
        Option("amo", str, "pairwise", "at-most-one encoding", cnf_encodings.AMO_ENCODINGS),
    )

    def __init__(self, command: str = "", encoding: str = "extended", amo: str = "pairwise"):
        super().__init__()  # options checked by SolverBase (base.check_options)
        self.encoding, self.amo = encoding, amo
        words = tuple(shlex.split(command)) if command.strip() else default_command()
        if not words:
            raise UsageError("the dimacs solver found no SAT program (cadical, kissat, minisat, picosat): "
                             "install one or give -o command='PROGRAM ARGS'")
        if shutil.which(words[0]) is None:
            raise UsageError(f"the dimacs solver cannot run '{words[0]}': no such program, or not executable")
        self.command = words if "{cnf}" in words else (*words, "{cnf}")

    @classmethod
    def describe_backend(cls) -> dict[str, Any]:
        found = default_command()
        return {"default_command": " ".join(found) if found else None}

    @classmethod
    def unavailable(cls) -> str | None:
        """Why the solver cannot run with its defaults here (no SAT program on the PATH), or None."""
        return None if default_command() else "no SAT program on the PATH (apt-get install cadical, or -o command=)"

    # --- one run of the program ------------------------------------------------------------------

    def _run(self, puzzle: Puzzle, extra: list[list[int]], deadline: Deadline, stats: dict[str, Any]
             ) -> Grid | None:
        """Run the program once on the puzzle's formula plus ``extra`` clauses: the grid, or None if UNSAT."""
        remaining = _NO_LIMIT if deadline.at is None else deadline.at - time.perf_counter()
        if remaining <= 0:
            raise TimeUp
        text = _with_clauses(dimacs.to_dimacs(puzzle, self.encoding, self.amo, deadline), extra)
        if deadline.at is not None:
            remaining = deadline.at - time.perf_counter()  # writing the formula counts against the limit
            if remaining <= 0:
                raise TimeUp
        with tempfile.TemporaryDirectory(prefix="sudokulab-dimacs-") as folder:
            formula, result = os.path.join(folder, "formula.cnf"), os.path.join(folder, "result.txt")
            with open(formula, "w", encoding="ascii") as stream:
                stream.write(text)
            command = [word.replace("{cnf}", formula).replace("{out}", result) for word in self.command]
            # the user's own tool: no sandbox, no control groups (their set-up costs every run time)
            trusted = Limits(remaining, None, 256 << 20, isolation="none", processes=0, files_mb=0)
            run = run_program(command, b"", trusted)
            stats["runs"] = stats.get("runs", 0) + 1
            if run.timed_out:
                raise TimeUp
            output = run.stdout.decode("utf-8", "replace")
            if any("{out}" in word for word in self.command) and os.path.exists(result):
                with open(result, encoding="utf-8", errors="replace") as stream:
                    output = stream.read()
        program = self.command[0]
        if run.exit_code not in (0, 10, 20):
            last = run.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or [""]
            why = f"exit code {run.exit_code}" if run.signal is None else f"signal {run.signal}"
            raise ExternalSolverError(f"the SAT program '{program}' failed: {why} {last[0][:100]}".rstrip())
        try:
            answer = parse_answer(output, f"the output of '{program}'")
        except PuzzleFormatError as exc:
            raise ExternalSolverError(str(exc)) from None
        for comment in answer.comments:
            for key, value in _STAT.findall(comment):
                stats[key.lower()] = stats.get(key.lower(), 0) + int(value)
        if answer.status == "UNKNOWN":
            raise TimeUp
        if answer.status == "UNSAT":
            return None
        try:
            return decode_model(Exported(puzzle, self.encoding, self.amo), answer.model)
        except PuzzleFormatError as exc:
            raise ExternalSolverError(f"'{program}' gave a model that is no grid: {exc}") from None

    # --- the protocol ----------------------------------------------------------------------------

    def solve(self, puzzle: Puzzle, *, time_limit: float | None = None, canonical: bool = False) -> SolveResult:
        check_kinds(self, puzzle)
        cnf_size.check_size(puzzle, self.encoding, self.amo, "dimacs")
        started = time.perf_counter()
        deadline, stats = Deadline(time_limit), {}
        try:
            grid = self._canonical(puzzle, deadline, stats) if canonical else self._run(puzzle, [], deadline, stats)
            status = Status.SOLVED if grid is not None else Status.NO_SOLUTION
        except TimeUp:
            grid, status = None, Status.TIME_LIMIT
        return SolveResult(self.name, status, grid, time.perf_counter() - started, stats)

    def count(self, puzzle: Puzzle, *, limit: int = 2, time_limit: float | None = None) -> CountResult:
        check_kinds(self, puzzle)
        check_limit(limit)
        cnf_size.check_size(puzzle, self.encoding, self.amo, "dimacs")
        started = time.perf_counter()
        deadline, stats = Deadline(time_limit), {}
        blocking: list[list[int]] = []
        found, status = 0, Status.NO_SOLUTION
        n = puzzle.n
        try:
            while found < limit:
                grid = self._run(puzzle, blocking, deadline, stats)
                if grid is None:
                    break
                found += 1
                status = Status.SOLVED
                blocking.append([-variables.literal(n, cell, grid[cell])
                                 for cell, given in enumerate(puzzle.givens) if not given])
        except TimeUp:
            status = Status.TIME_LIMIT
        return CountResult(self.name, found, limit, status, time.perf_counter() - started, stats)

    def _canonical(self, puzzle: Puzzle, deadline: Deadline, stats: dict[str, Any]) -> Grid | None:
        """The lexicographically first solution: one run per digit tried, cells fixed by unit clauses."""
        n = puzzle.n

        def unit(cell: int, digit: int) -> list[int]:
            return [variables.literal(n, cell, digit)]

        def try_digit(cell: int, digit: int, fixed: Sequence[tuple[int, int]]) -> Grid | None:
            return self._run(puzzle, [*(unit(c, d) for c, d in fixed), unit(cell, digit)], deadline, stats)

        first = self._run(puzzle, [], deadline, stats)
        return None if first is None else smallest_solution(puzzle, first, try_digit)


def _with_clauses(text: str, extra: list[list[int]]) -> str:
    """A DIMACS text with more clauses at the end, its ``p cnf`` line counting them."""
    if not extra:
        return text
    head, body = text.split("\np cnf ", 1)
    first, rest = body.split("\n", 1)
    variables, clauses = map(int, first.split())
    lines = "".join(" ".join(map(str, clause)) + " 0\n" for clause in extra)
    return f"{head}\np cnf {variables} {clauses + len(extra)}\n{rest}{lines}"
