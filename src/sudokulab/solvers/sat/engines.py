"""The SAT engines of the installed PySAT: their names and aliases, and what each can do, probed.

What an engine supports differs from build to build and version to version, so it is found by
trying, not kept in a list: ``probe_engine`` runs each on tiny formulas in this process (about a
millisecond), ``repeated_solves`` in a child process, since an engine that cannot solve twice
(``kissat404``) aborts the process that tries.

More: docs/sat.md.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import cache

from pysat.solvers import NoSuchSolverError, Solver, SolverNames

from ...errors import UsageError
from ..pysat_guard import without_handler


def engine_names() -> list[str]:
    """Every engine name PySAT knows (some may be missing from its build)."""
    return [name for name in vars(SolverNames) if not name.startswith("_")]


@cache
def available_engines() -> tuple[str, ...]:
    """The engines this PySAT build can run (probed once: each is started and deleted)."""
    found = []
    for name in engine_names():
        try:
            Solver(name=name).delete()
        except NoSuchSolverError:
            continue
        found.append(name)
    return tuple(found)


@cache
def probe_engine(name: str) -> dict[str, bool]:
    """What an engine of this PySAT build can do, found by trying it on tiny formulas (once per engine).

    ``assumptions``: a solve under assumptions that contradict a clause says UNSAT;
    ``time_limit``: a conflict budget and ``solve_limited`` are accepted; ``proofs``: with
    ``with_proof`` a refutation comes with proof lines. (``repeated_solves`` needs a process of its
    own: an engine that cannot solve twice may abort the process that tries.)
    """
    found: dict[str, bool] = {}
    with _quiet(), without_handler():
        try:
            with Solver(name=name, with_proof=True, bootstrap_with=[[1, 2], [1, -2], [-1, 2], [-1, -2]]) as prover:
                prover.solve()
                found["proofs"] = bool(prover.get_proof())
        except Exception:  # noqa: BLE001 - NotImplementedError, or an engine that refuses the flag otherwise
            found["proofs"] = False
    with _quiet(), without_handler(), Solver(name=name, bootstrap_with=[[1, 2]]) as engine:
        try:
            found["assumptions"] = engine.solve(assumptions=[-1, -2]) is False
        except Exception:  # noqa: BLE001
            found["assumptions"] = False
        try:
            engine.conf_budget(10)
            engine.solve_limited()
            found["time_limit"] = True
        except NotImplementedError:
            found["time_limit"] = False
    return found


@contextmanager
def _quiet() -> Iterator[None]:
    """Silence what PySAT prints while probing: the warning of an engine that ignores assumptions, and
    the ignored AttributeError of a Solver whose construction failed (its __del__ runs on a half-made object)."""
    import gc
    import sys
    import warnings

    hook = sys.unraisablehook
    sys.unraisablehook = lambda _unraisable: None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
            gc.collect()
    finally:
        sys.unraisablehook = hook


_REPEATED = """
import sys
import pysat.solvers
from pysat.solvers import Solver

class NoHandler:  # PySAT's SIGINT handler kept out here too (pysat_guard): no longjmp out of an engine
    @staticmethod
    def check():
        return False

pysat.solvers.MainThread = NoHandler
for name in sys.argv[1:]:
    with Solver(name=name, bootstrap_with=[[1, 2]]) as engine:
        engine.solve()
        engine.add_clause([-1])
        again = bool(engine.solve()) and 2 in (engine.get_model() or ())
    print(name, again, flush=True)
"""


def repeated_solves(names: Sequence[str]) -> dict[str, bool]:
    """For each engine, whether it solves again after a clause is added (and is deleted cleanly).

    Tried in a child process, since an engine that cannot (``kissat404``) aborts the process that
    tries: one child for all of them, each answer printed as it is known; where a child ends early,
    the engine it was trying is taken as unable, and a new child goes on with the ones after it. So
    ``sudokulab solvers`` starts one or two processes, not one per engine.
    """
    import subprocess
    import sys

    found: dict[str, bool] = {}
    left = list(names)
    while left:
        try:
            out = subprocess.run([sys.executable, "-c", _REPEATED, *left], capture_output=True, timeout=30).stdout
        except subprocess.TimeoutExpired as exc:
            out = exc.stdout or b""
        except OSError:
            out = b""
        for line in out.decode(errors="replace").splitlines():
            name, _, answer = line.partition(" ")
            found[name] = answer == "True"
        done = 0
        while done < len(left) and left[done] in found:
            done += 1
        if done < len(left):
            found[left[done]] = False  # the child ended while trying it
        left = left[done + 1:]
    return found


def canonical_engine(name: str) -> str:
    """The PySAT name of an engine given by name or alias (``g4`` -> ``glucose4``)."""
    wanted = name.lower()
    for engine in engine_names():
        if wanted == engine or wanted in getattr(SolverNames, engine):
            return engine
    raise UsageError(f"unknown SAT engine '{name}'; choose one of: {', '.join(available_engines())}")
