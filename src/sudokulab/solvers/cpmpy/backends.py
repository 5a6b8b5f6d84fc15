"""What each CPMpy backend can do, and how ``solvers.cpmpy.solver`` runs it best: the backend table.

Per backend: whether it takes assumptions (and so can keep one backend per rule set), the cheaper
way to give it a puzzle's givens (measured: docs/cpmpy.md), how to stop it on Ctrl-C and how to
tell a Ctrl-C it took for itself from its time limit, its effort counters, and how many
constraints to post between two looks at the clock. Apart from the run loop, which reads the table
and does not change with it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cpmpy import SolverLookup

from ...core.rules import ALL_DIFFERENT
from ...errors import UsageError
from .model import NATIVE

CHUNK = 64
"""Constraints posted per call by default: each ``+=`` runs CPMpy's transformation pipeline, and the
deadline is looked at between calls (``Traits.chunk`` per backend)."""
NOT_BACKENDS = {"rc2": "a MaxSAT optimiser (it only optimises; a Sudoku has no objective)"}
"""Solvers CPMpy lists that are not offered as backends here, and why."""
def _counters_ortools(s: Any) -> dict[str, int]:
    return {"branches": s.ort_solver.num_branches, "conflicts": s.ort_solver.num_conflicts}


def _counters_pysat(s: Any) -> dict[str, int]:
    return {key: int(value) for key, value in s.pysat_solver.accum_stats().items()
            if key in ("decisions", "conflicts", "propagations", "restarts")}


def _counters_z3(s: Any) -> dict[str, int]:
    stats = s.z3_solver.statistics()
    return {key: int(stats.get_key_value(key)) for key in ("decisions", "conflicts", "propagations", "restarts")
            if key in stats.keys()}


def _counters_exact(s: Any) -> dict[str, int]:
    stats = dict(s.xct_solver.getStats())
    return {key: int(stats[key]) for key in ("decisions", "conflicts", "propagations", "restarts") if key in stats}


def _counters_choco(s: Any) -> dict[str, int]:
    return {"failures": int(s.chc_solver.get_fail_count()), "backtracks": int(s.chc_solver.get_backtrack_count())}


@dataclass(frozen=True)
class Traits:
    """What one backend can do through CPMpy, and how it is best run (measured: docs/cpmpy.md)."""

    givens: str = "post"
    """The cheaper way to give it a puzzle's givens (``auto`` resolves to this)."""
    assumptions: bool = False
    """It takes ``solve(assumptions=...)``, so ``givens="assume"`` is possible."""
    kinds: frozenset[str] = NATIVE
    """The rule kinds the model states natively on this backend; the others come in the lowering's forms."""
    kinds_why: str = ""
    stop: Callable[[Any], None] | None = None
    """Tells a running solve to stop (Ctrl-C); None when CPMpy exposes no way."""
    settings: dict[str, Any] = field(default_factory=dict)
    """Keyword arguments for every ``solve``."""
    counters: Callable[[Any], dict[str, int]] | None = None
    """The backend's effort counters after a solve."""
    cumulative: bool = False
    """Its counters add up over a backend's lifetime (kept backends: the difference is reported)."""
    took_ctrl_c: Callable[[Any], bool] | None = None
    """Whether a solve that stopped short took Ctrl-C for itself (Z3 does); None when the backend cannot
    say, and a stop well before the deadline is then taken for Ctrl-C (``CpmpySolver._interrupted``)."""
    needs_limit: bool = False
    """Only a solve with a time limit can be stopped (CPMpy runs PySAT's ``solve_limited`` only then):
    ``CpmpySolver`` gives it ``NO_LIMIT`` when the run has none."""
    chunk: int = CHUNK
    """Constraints posted per ``+=`` call, the clock looked at between calls."""


TRAITS: dict[str, Traits] = {
    # CP-SAT stops ahead of its time limit by the longest gap it saw between two looks at the clock (a
    # safety margin that grows on a busy machine); with its SIGINT handler off, a short stop is that.
    "ortools": Traits(givens="post", assumptions=True, stop=lambda s: s.ort_solver.stop_search(),
                      settings={"num_workers": 1, "catch_sigint_signal": False}, counters=_counters_ortools,
                      took_ctrl_c=lambda s: False),
    "pysat": Traits(givens="assume", assumptions=True, stop=lambda s: s.pysat_solver.interrupt(),
                    counters=_counters_pysat, cumulative=True, needs_limit=True, took_ctrl_c=lambda s: False),
    "z3": Traits(givens="assume", assumptions=True, stop=lambda s: s.z3_solver.ctx.interrupt(), counters=_counters_z3,
                 took_ctrl_c=lambda s: s.z3_solver.reason_unknown() == "interrupted from keyboard"),
    # Exact pays some 80 ms per ``+=`` call whatever it holds: everything is posted in one call.
    "exact": Traits(givens="assume", assumptions=True, counters=_counters_exact, cumulative=True, chunk=10**9),
    "choco": Traits(givens="post", counters=_counters_choco),
    # Pumpkin's and Pindakaas's objects are bound to the thread that made them (PyO3 "unsendable": used or
    # dropped from another, they raise), so each lives within one call: givens posted, no kept backend.
    "pumpkin": Traits(givens="post"),
    "pindakaas": Traits(givens="post", chunk=8),  # its encodings are slow: small chunks, so the clock is seen
}
"""Per backend; one CPMpy finds that is not listed gets ``Traits()`` (givens posted, no stop call)."""

PB_WHY = ("CPMpy's PySAT backend writes sums and comparisons as pseudo-Boolean constraints, which need "
          "PBLib (pip install pypblib), not installed here")


def installed_traits(backend: str) -> Traits:
    """A backend's traits as installed here: CP-SAT gets the ``cpsat`` solver's tuned settings (so the two
    compare like for like; loaded only for it), PySAT states sums and thermometers through the lowering
    without PBLib (its sums and comparisons would need pseudo-Boolean constraints)."""
    from dataclasses import replace

    traits = TRAITS.get(backend, Traits())
    if backend == "ortools":
        from ..cpsat.solver import TUNED

        traits = replace(traits, settings={**traits.settings, **TUNED})
    if backend == "pysat" and not _has_pblib():
        traits = replace(traits, kinds=frozenset({ALL_DIFFERENT}), kinds_why=PB_WHY)
    return traits


def _has_pblib() -> bool:
    from importlib.util import find_spec

    return find_spec("pypblib") is not None


def known_backends() -> dict[str, type]:
    """Every solver CPMpy knows by name (installed or not), but those in ``NOT_BACKENDS``."""
    return {name: cls for name, cls in SolverLookup.base_solvers() if name not in NOT_BACKENDS}


def available_backends() -> tuple[str, ...]:
    """The backends CPMpy finds usable here (``supported()``), in CPMpy's order."""
    return tuple(name for name, cls in known_backends().items() if cls.supported())


def checked_backend(value: str) -> str:
    """A backend name, lower-cased; one CPMpy knows but cannot use here is refused naming it."""
    name = value.strip().lower()
    known = known_backends()
    if name in known and not known[name].supported():
        why = ""
        if name == "minizinc":
            why = (": CPMpy finds the MiniZinc program too old (Debian's is 2.6.4); "
                   "the minizinc solver runs it directly")
        raise UsageError(f"CPMpy backend '{name}' is not installed here{why}")
    return name
