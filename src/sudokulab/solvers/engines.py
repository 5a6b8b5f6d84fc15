"""The SAT engines of the installed PySAT: their names and aliases, and what each can do, probed.

What an engine supports differs from build to build and version to version, so it is found by
trying, not kept in a list: ``probe_engine`` runs each on tiny formulas in this process (about a
millisecond), ``probe_repeated`` in a child process, since an engine that cannot solve twice
(``kissat404``) aborts the process that tries.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache

from pysat.solvers import NoSuchSolverError, Solver, SolverNames

from ..errors import UsageError


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
    """What an engine of this PySAT build can do, found by trying it on tiny formulas (about 1 ms).

    ``assumptions``: a solve under assumptions that contradict a clause says UNSAT;
    ``time_limit``: a conflict budget and ``solve_limited`` are accepted; ``proofs``: with
    ``with_proof`` a refutation comes with proof lines. (``probe_repeated`` needs a process of its
    own: an engine that cannot solve twice may abort the process that tries.)
    """
    found: dict[str, bool] = {}
    with _quiet():
        try:
            with Solver(name=name, with_proof=True, bootstrap_with=[[1, 2], [1, -2], [-1, 2], [-1, -2]]) as prover:
                prover.solve()
                found["proofs"] = bool(prover.get_proof())
        except Exception:  # noqa: BLE001 - NotImplementedError, or an engine that refuses the flag otherwise
            found["proofs"] = False
    with _quiet(), Solver(name=name, bootstrap_with=[[1, 2]]) as engine:
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
from pysat.solvers import Solver
with Solver(name=sys.argv[1], bootstrap_with=[[1, 2]]) as engine:
    engine.solve()
    engine.add_clause([-1])
    print(bool(engine.solve()) and 2 in (engine.get_model() or ()))
"""


@cache
def probe_repeated(name: str) -> bool:
    """Whether the engine solves again after a clause is added, tried in a child process (kissat404 aborts)."""
    import subprocess
    import sys

    try:
        done = subprocess.run([sys.executable, "-c", _REPEATED, name], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0 and done.stdout.strip() == "True"


def canonical_engine(name: str) -> str:
    """The PySAT name of an engine given by name or alias (``g4`` -> ``glucose4``)."""
    wanted = name.lower()
    for engine in engine_names():
        if wanted == engine or wanted in getattr(SolverNames, engine):
            return engine
    raise UsageError(f"unknown SAT engine '{name}'; choose one of: {', '.join(available_engines())}")
