"""The ordered registry of solvers: name -> where its class lives, and the checks before building one.

Classes are imported on first use, so ``import sudokulab`` never loads PySAT or OR-Tools. A new
paradigm joins by adding one line to ``REGISTRY``; the contract tests then cover it at once, for
what its ``capabilities`` claim. Options are checked by name and type against the class's declared
``options`` (``base.check_options``, which every ``SolverBase`` constructor also meets), so a bad
value is one clear line naming the solver and the option, never a traceback from inside.

The layer holds one folder per paradigm (its model modules and its solver) and what they share:
``base``, ``batch``, ``search``, ``canonical``, ``native``, ``propagation``, ``lowering``,
``building`` and ``stoppable`` (time limits over a whole call). It may
import ``core``, ``formats`` and ``execution``; nothing above it.

More: docs/solvers.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import import_module
from typing import TYPE_CHECKING, Any

from ..core.grid import Shape
from ..core.rules import Rules, kind_table
from ..errors import UnsupportedFeature, UsageError, did_you_mean
from .base import Capabilities, CountResult, Option, Solver, SolveResult, Status, check_options
from .search import SearchCounters, SearchSolver

if TYPE_CHECKING:
    from ..core.puzzle import Puzzle

__all__ = [
    "PREFERENCE", "REGISTRY", "Capabilities", "CountResult", "Option", "SearchCounters", "SearchSolver", "SolveResult",
    "Solver", "SolverEntry", "Status", "default_for", "default_solver", "describe", "export", "export_formats",
    "first_honouring", "get", "names",
    "parse_options", "require", "solver_class",
]


@dataclass(frozen=True)
class SolverEntry:
    """Where a solver's class lives ("module:Class", or the class itself), the pip extra it needs, and the
    export formats of its model: format -> "module:function" taking a Puzzle and keyword options, returning
    the model's text for an outside tool (``sudokulab export``)."""

    target: str | type
    extra: str | None = None
    exports: Mapping[str, str] = field(default_factory=dict)


REGISTRY: dict[str, SolverEntry | str | type] = {
    "backtrack": SolverEntry("sudokulab.solvers.backtrack.solver:BacktrackSolver"),
    "backtrack-fast": SolverEntry("sudokulab.solvers.backtrack.solver:FastBacktrackSolver"),
    "backtrack-jit": SolverEntry("sudokulab.solvers.jit.solver:JitSolver", extra="jit"),
    "sat": SolverEntry("sudokulab.solvers.sat.solver:SatSolver",
                       exports={"dimacs": "sudokulab.solvers.sat.dimacs:to_dimacs"}),
    "cpsat": SolverEntry("sudokulab.solvers.cpsat.solver:CpSatSolver",
                         exports={"cpsat": "sudokulab.solvers.cpsat.model:to_cpsat_text"}),
    "dlx": SolverEntry("sudokulab.solvers.exact_cover.solver:DlxSolver"),
    "mip": SolverEntry("sudokulab.solvers.mip.solver:MipSolver",
                       exports={"lp": "sudokulab.solvers.mip.model:to_lp",
                                "mps": "sudokulab.solvers.mip.model:to_mps"}),
    "dimacs": SolverEntry("sudokulab.solvers.sat.external:DimacsSolver"),
    "minizinc": SolverEntry("sudokulab.solvers.minizinc.solver:MiniZincSolver", extra="minizinc",
                            exports={"minizinc": "sudokulab.solvers.minizinc.model:to_minizinc"}),
    "asp": SolverEntry("sudokulab.solvers.asp.solver:AspSolver", extra="asp",
                       exports={"asp": "sudokulab.solvers.asp.model:to_asp"}),
    "local-search": SolverEntry("sudokulab.solvers.local_search.solver:LocalSearchSolver"),
    "smt": SolverEntry("sudokulab.solvers.smt.solver:SmtSolver", extra="smt",
                       exports={"smtlib": "sudokulab.solvers.smt.model:to_smtlib"}),
    "cpmpy": SolverEntry("sudokulab.solvers.cpmpy.solver:CpmpySolver", extra="cpmpy",
                         exports={"cpmpy": "sudokulab.solvers.cpmpy.model:to_cpmpy_text"}),
}

DEFAULT_SMALL, DEFAULT_LARGE, DEFAULT_SWITCH = "backtrack-fast", "sat", 16
"""The default solver: the fast search up to 16x16, SAT above (see ``default_for``)."""

PREFERENCE = ("sat", "cpsat", "backtrack-fast", "backtrack-jit", "mip", "dlx", "backtrack")
"""The order solvers are tried in when the default one cannot honour a puzzle's rules, by ``default_solver``
and by the oracle (fastest at counting first; registered solvers not listed come last)."""


def default_for(shape: Shape | None = None) -> str:
    """The solver used for standard Sudoku when none is named: ``backtrack-fast`` up to 16x16, ``sat`` above.

    Chosen by measurement (README, "The default solver"): the fast search starts in no time and
    wins on 9x9 sets, but has a heavy tail on 25x25 boards, where SAT does not.
    """
    return DEFAULT_LARGE if shape is not None and shape.n > DEFAULT_SWITCH else DEFAULT_SMALL


def default_solver(puzzle: Puzzle) -> str:
    """The solver used when none is named: ``default_for(puzzle.shape)`` when it honours the puzzle's
    rules, else the first installed one that does (``PREFERENCE`` order; when none does, the default,
    which then refuses naming the kind)."""
    name = default_for(puzzle.shape)
    rules = puzzle.rules
    if rules.is_standard or solver_class(name).capabilities.unsupported(rules) is None:
        return name
    return first_honouring(rules) or name


def first_honouring(kinds: frozenset[str] | Rules, preferred: tuple[str, ...] = PREFERENCE, *,
                    canonical: bool = False, count: bool = False, time_limit: bool = False) -> str | None:
    """The first installed solver (``preferred`` ones first, then the registry's order) that honours
    every constraint kind in ``kinds`` (or every constraint of a rule set) and has the capabilities
    ``asked`` (``canonical=True``, ...)."""
    for name in dict.fromkeys((*preferred, *names())):
        if name not in REGISTRY or not installed(name):
            continue
        capabilities = solver_class(name).capabilities
        honours = (capabilities.unsupported(kinds) is None if isinstance(kinds, Rules)
                   else kinds <= capabilities.honoured)
        if honours and capabilities.lacks(canonical=canonical, count=count, time_limit=time_limit) is None:
            return name
    return None


def export_formats() -> dict[str, str]:
    """Every export format and the solver whose model it writes, in registry order."""
    return {fmt: name for name in REGISTRY for fmt in _entry(name).exports}


def export(puzzle: Puzzle, format: str, **options: Any) -> str:  # noqa: A002 - the user's word for it
    """The puzzle's model in an export format, as text (an unknown format lists the valid ones). The model
    module is imported, never its solver: exporting needs no engine."""
    formats = export_formats()
    if format not in formats:
        raise UsageError(f"unknown format '{format}'" + did_you_mean(format, formats, otherwise=(
            f"choose one of: {', '.join(formats)}")))
    module, _, function = _entry(formats[format]).exports[format].partition(":")
    return getattr(import_module(module), function)(puzzle, **options)


def names() -> list[str]:
    """Registered solver names, in registry order (baseline first)."""
    return list(REGISTRY)


def _entry(name: str) -> SolverEntry:
    """A registry entry; a plain "module:Class" string or a class stands for an entry with no extra."""
    try:
        entry = REGISTRY[name]
    except KeyError:
        raise UsageError(f"unknown solver '{name}'" + did_you_mean(name, REGISTRY, otherwise=(
            f"choose one of: {', '.join(REGISTRY)}"))) from None
    return entry if isinstance(entry, SolverEntry) else SolverEntry(entry)


def solver_class(name: str) -> type[Solver]:
    """The class behind a name; an unknown name lists the valid ones, a missing backend its extra."""
    entry = _entry(name)
    if not isinstance(entry.target, str):
        return entry.target
    module, _, cls = entry.target.partition(":")
    try:
        return getattr(import_module(module), cls)
    except ImportError as exc:
        from ..core.install import extra_hint

        hint = extra_hint(entry.extra) if entry.extra else "reinstall sudokulab"
        raise UsageError(f"solver '{name}' is not installed ({exc.name or exc}): {hint}") from None


def unavailable(name: str) -> str | None:
    """Why a solver cannot run here with its defaults (backend not installed, no program found), or None."""
    try:
        cls = solver_class(name)
    except UsageError as exc:
        return str(exc)
    check = getattr(cls, "unavailable", None)
    return check() if callable(check) else None


def installed(name: str) -> bool:
    return unavailable(name) is None


def parse_options(name: str, options: dict[str, Any]) -> dict[str, Any]:
    """Options checked against what the solver declares (``base.check_options``, the check every
    construction meets): unknown names and bad values refused, one line naming solver and option."""
    cls = solver_class(name)
    return check_options(name, getattr(cls, "options", ()), options)


def get(name: str, **options: Any) -> Solver:
    """A configured solver by name, e.g. ``get("sat", engine="glucose4")``; options are checked first."""
    return solver_class(name)(**parse_options(name, options))


def require(solver: Solver, *, canonical: bool = False, count: bool = False, time_limit: bool = False,
            rules: Rules | None = None) -> None:
    """Refuse, with one line, to ask a solver for what its capabilities do not include (a constraint
    kind of ``rules`` among them: "solver 'dlx' cannot honour sum constraints (cage 1 (sum 15))")."""
    capabilities = solver.capabilities
    missing = capabilities.lacks(canonical=canonical, count=count, time_limit=time_limit, rules=rules)
    if missing:
        who = capabilities.why or f"solver '{solver.name}'"
        raise UnsupportedFeature(f"{who}, so it cannot {missing}" if capabilities.why else f"{who} cannot {missing}")


def describe(name: str) -> dict[str, Any]:
    """What ``sudokulab solvers`` shows of one solver: paradigm, installed, capabilities, options.

    Its rule kinds, in ``kind_table`` order: ``kinds`` those it honours, ``native`` those its own code
    states, ``lowered`` those it honours through the shared lowering (``solvers.lowering``)."""
    entry = _entry(name)
    try:
        cls = solver_class(name)
    except UsageError as exc:
        return {"name": name, "installed": False, "why": str(exc), "extra": entry.extra}
    capabilities: Capabilities = cls.capabilities
    shown = [kind for kind in kind_table() if kind.letter]
    why = unavailable(name)
    described: dict[str, Any] = {
        "name": name, "paradigm": cls.paradigm, "installed": why is None, "extra": entry.extra,
        "summary": (cls.__doc__ or "").strip().splitlines()[0] if cls.__doc__ else "",
        "capabilities": {
            "canonical": capabilities.canonical, "count": capabilities.count,
            "time_limit": capabilities.time_limit, "complete": capabilities.complete,
            "threads": capabilities.threads,
            "slow": list(capabilities.slow),
            "kinds": [kind.name for kind in shown if kind.name in capabilities.honoured],
            "native": [kind.name for kind in shown if kind.name in capabilities.kinds],
            "lowered": [kind.name for kind in shown if kind.name in capabilities.lowered],
        },
        "options": [
            {"name": o.name, "type": o.type.__name__, "default": o.default, "help": o.help,
             "choices": list(o.valid_values() or ()) or None}
            for o in cls.options
        ],
    }
    if why:
        described["why"] = why
    extra = getattr(cls, "describe_backend", None)
    if callable(extra):
        described["backend"] = extra()
    return described
