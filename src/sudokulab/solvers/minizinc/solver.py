"""Classic constraint programming through MiniZinc: propagation and chronological search (Gecode), no learning.

Each call writes the model of ``sudokulab.solvers.minizinc.model`` and the puzzle's data to a
temporary folder and runs the ``minizinc`` program on them through ``execution.sandbox.run_program``,
the runner ``dimacs`` uses: no shell, its own process group, every descendant (``fzn-gecode``) killed
and reaped when the run ends, at the time limit, or on Ctrl-C. The program rather than the Python
driver (the ``minizinc`` package), because the driver leaves the killing of ``fzn-gecode`` to
MiniZinc, and ``run_program`` already owns that contract. MiniZinc's own time limit is
``OWN_SHARE`` of what is left, so it normally stops itself and still prints its statistics.
Canonical answers come from one run with input order and ``indomain_min``; counts from ``-n`` with
``--non-unique``. One process per call, so start-up and flattening are paid on every puzzle.

Time limits, counting, options, stats and the road not taken: docs/minizinc.md.
"""

from __future__ import annotations

import functools
import json
import math
import re
import shutil
import subprocess
import tempfile
import time
from typing import Any, ClassVar

from ...core.grid import Grid
from ...core.puzzle import Puzzle
from ...errors import UsageError
from ...execution.sandbox import Limits, run_program
from ..base import (
    Capabilities,
    CountResult,
    Deadline,
    Option,
    SolverBase,
    SolveResult,
    Stat,
    Status,
    backend_failed,
    check_kinds,
    check_limit,
)
from ..lowering import FORMS
from .model import INSTALL, NATIVE, PROGRAM, PROPAGATIONS, SEARCHES, flat_size_of, write_files

OWN_SHARE = 0.85
"""The share of what is left of a call's time that MiniZinc's own ``--time-limit`` gets: the rest is its
start, its exit and its statistics; the process group is killed at the deadline itself."""

_NO_LIMIT = 24 * 3600.0  # "no limit" for the runner, which needs one
_MAX_N = 2**31 - 1  # the largest -n MiniZinc reads
_STAT = re.compile(r"^%%%mzn-stat:\s*(\w+)=(.*)$", re.MULTILINE)
SOLUTION, COMPLETE, UNSATISFIABLE = "----------", "==========", "=====UNSATISFIABLE====="


@functools.lru_cache(maxsize=1)
def backends() -> dict[str, str]:
    """The backends this MiniZinc can run, by our name (``gecode``) -> its solver id; empty without MiniZinc.

    Kept: configurations with an executable on disk, no GUI (``Gecode Gist``); the MIP ones Debian lists
    without their libraries (CPLEX, Gurobi, ...) have none and are left out.
    """
    if shutil.which(PROGRAM) is None:
        return {}
    try:
        listed = json.loads(subprocess.run([PROGRAM, "--solvers-json"], capture_output=True, timeout=60,
                                           check=True).stdout)
    except (OSError, subprocess.SubprocessError, ValueError):
        return {}
    found = {}
    for entry in listed:
        executable = entry.get("executable") or entry.get("extraInfo", {}).get("executable")
        if entry.get("isGUIApplication") or not executable or shutil.which(executable) is None:
            continue
        found.setdefault(entry["name"].lower().replace(" ", "-"), entry["id"])
    return found


def _backend_names() -> tuple[str, ...]:
    return tuple(backends()) or ("gecode",)


class MiniZincSolver(SolverBase):
    """``minizinc``: the MiniZinc model flattened and searched by Gecode, one program run per call.

    Args:
        backend: a MiniZinc solver configuration found at run time (``gecode`` by default).
        search: variable choice of a plain solve or count (canonical runs use ``input_order``);
            ``dom_w_deg`` by default, the fewest failures measured (docs/minizinc.md).
        propagation: consistency of each all-different propagator: ``domain`` (default: it alone
            solves empty 25x25 boards in time), ``bounds`` or ``value``.
    """

    name = "minizinc"
    paradigm: ClassVar[str] = "constraint programming (MiniZinc)"
    capabilities: ClassVar[Capabilities] = Capabilities(threads="safe", kinds=NATIVE, forms=FORMS,
                                                        extra="minizinc")
    options: ClassVar[tuple[Option, ...]] = (
        Option("backend", str, "gecode", "MiniZinc backend (those found by minizinc --solvers)", _backend_names,
               normalise=lambda value: value.strip().lower()),
        Option("search", str, "dom_w_deg", "variable choice of a plain solve or count", SEARCHES),
        Option("propagation", str, "domain", "all-different consistency: domain, bounds, or value (Gecode's own "
               "default)", PROPAGATIONS),
    )

    def __init__(self, backend: str = "gecode", search: str = "dom_w_deg", propagation: str = "domain"):
        super().__init__()  # options checked by SolverBase (base.check_options)
        why = self.unavailable()
        if why and backend == "gecode":
            raise UsageError(f"solver 'minizinc': {why}")
        self.backend, self.search, self.propagation = backend, search, propagation

    @classmethod
    def unavailable(cls) -> str | None:
        """Why the solver cannot run here with its defaults (no program, or no Gecode), or None."""
        if shutil.which(PROGRAM) is None:
            return f"the {PROGRAM} program is not installed ({INSTALL})"
        if "gecode" not in backends():
            return f"{PROGRAM} finds no Gecode backend ({INSTALL})"
        return None

    @classmethod
    def describe_backend(cls) -> dict[str, Any]:
        path = shutil.which(PROGRAM)
        version = None
        if path:
            words = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=60).stdout.split()
            version = next((w for w in words if re.fullmatch(r"\d+\.\d+\.\d+", w)), None)
        return {"program": path, "version": version, "backends": sorted(backends())}

    # --- one run of the program ------------------------------------------------------------------

    def _run(self, puzzle: Puzzle, time_limit: float | None, search: str, extra: list[str]
             ) -> tuple[str, dict[str, Stat]]:
        """One ``minizinc`` run: its standard output and its stats (a run the runner killed at the limit
        printed no verdict line, which reads as "time limit reached")."""
        deadline = Deadline(time_limit)
        command = [PROGRAM, "--solver", backends().get(self.backend, self.backend), "--statistics", *extra]
        output = min((1 << 20) + 12 * (int(extra[1]) if extra[:1] == ["-n"] else 1 << 30), 1 << 30)  # 11 bytes a count
        with tempfile.TemporaryDirectory(prefix="sudokulab-minizinc-") as folder:
            files = write_files(folder, puzzle, search, self.propagation)
            left = _NO_LIMIT if deadline.at is None else deadline.at - time.perf_counter()
            if left <= 0:
                return "", {}
            if deadline.at is not None:
                command += ["--time-limit", str(max(1, math.ceil(1000 * OWN_SHARE * left)))]
            limits = Limits(left, None, output, isolation="none", processes=0, files_mb=0)
            started = time.perf_counter()
            run = run_program([*command, *files], b"", limits)
            seconds = time.perf_counter() - started
        text = run.stdout.decode("utf-8", "replace")
        if not run.timed_out and run.exit_code != 0:
            lines = [line for line in run.stderr.decode("utf-8", "replace").splitlines()
                     if line.strip() and not line.startswith("Warning") and "deprecated" not in line]
            why = lines[-1][:200] if lines else f"exit code {run.exit_code}, signal {run.signal}"
            raise backend_failed(self.name, f"the {PROGRAM} program (backend '{self.backend}')", why)
        return text, self._stats(dict(_STAT.findall(text)), seconds)

    def _stats(self, found: dict[str, str], seconds: float) -> dict[str, Stat]:
        def number(key: str) -> float:
            try:
                return float(found.get(key, "0").strip('"'))
            except ValueError:
                return 0.0

        size = flat_size_of(found)
        return {
            "nodes": int(number("nodes")), "failures": int(number("failures")),
            "propagations": int(number("propagations")), "peak_depth": int(number("peakDepth")),
            "flat_variables": size.variables, "flat_constraints": size.constraints,
            "flatten_seconds": size.seconds, "solve_seconds": number("initTime") + number("solveTime"),
            "process_seconds": seconds,
            "backend": self.backend, "search": self.search, "propagation": self.propagation,
        }

    # --- the protocol ----------------------------------------------------------------------------

    def solve(self, puzzle: Puzzle, *, time_limit: float | None = None, canonical: bool = False) -> SolveResult:
        check_kinds(self, puzzle)
        started = time.perf_counter()
        search = "input_order" if canonical else self.search
        text, stats = self._run(puzzle, time_limit, search, ["-n", "1"])
        stats["search"] = search
        grid: Grid | None = None
        if SOLUTION in text:
            grid = _grid(text.split(SOLUTION, 1)[0], puzzle)
            status = Status.SOLVED
        elif UNSATISFIABLE in text:
            status = Status.NO_SOLUTION
        else:
            status = Status.TIME_LIMIT
        return SolveResult(self.name, status, grid, time.perf_counter() - started, stats)

    def count(self, puzzle: Puzzle, *, limit: int = 2, time_limit: float | None = None) -> CountResult:
        check_kinds(self, puzzle)
        check_limit(limit)
        started = time.perf_counter()
        enumerate_ = ["-n", str(limit)] if limit <= _MAX_N else ["-a"]
        quiet = ["--only-sections", "none", "--non-unique"]  # no grid printed, so no two solutions look alike
        text, stats = self._run(puzzle, time_limit, self.search, [*enumerate_, *quiet])
        found = min(sum(1 for line in text.splitlines() if line == SOLUTION), limit)
        if found >= limit or (found and COMPLETE in text):
            status = Status.SOLVED  # stopped at the limit, or the enumeration is complete
        elif COMPLETE in text or UNSATISFIABLE in text:
            status = Status.NO_SOLUTION
        else:
            status = Status.TIME_LIMIT
        return CountResult(self.name, found, limit, status, time.perf_counter() - started, stats)


def _grid(text: str, puzzle: Puzzle) -> Grid:
    """The board the model's output item printed (the lines before the separator, stats left out)."""
    digits = [int(word) for line in text.splitlines() if not line.startswith("%") for word in line.split()]
    if len(digits) != puzzle.shape.cells:
        raise RuntimeError(f"minizinc printed {len(digits)} digits for a board of {puzzle.shape.cells} cells")
    return tuple(digits)
