"""Configurations: a solver under one set of options, named after them, so one solver can meet itself.

``bench --configs`` and ``compare --configs`` take them in the form ``SOLVER[:KEY=VALUE,...]``, e.g.
``sat:encoding=extended,amo=seqcounter``; each runs as a row of its own named after its options
("sat encoding=extended amo=seqcounter"), in the one interleaved run that ``--solvers`` gives
different solvers. Options are checked by the solver's own declaration (``solvers.parse_options``)
before any work; two configurations that set the same options (defaults filled in, spellings
normalised: ``sat`` and ``sat:encoding=auto``) are refused, since their rows would say nothing.
A value cannot hold a comma (the separator); no option of a shipped solver needs one.

More: docs/configurations.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import UsageError

__all__ = ["Configuration", "parse_configurations", "plain"]


@dataclass(frozen=True)
class Configuration:
    """A solver name and its options (checked values, in the order given); hashable, so a worker
    process builds each configuration's solver once."""

    solver: str
    options: tuple[tuple[str, Any], ...] = ()
    written: tuple[tuple[str, str], ...] = ()
    """The options as the user wrote them, for the name (``engine=g4`` stays ``g4``)."""
    named_by_options: bool = True
    """False for a solver run by name with ``-o`` options (``plain``): its rows keep the solver's name."""

    @property
    def name(self) -> str:
        """The row name: the solver alone, or followed by its options ("sat encoding=minimal")."""
        if not self.named_by_options:
            return self.solver
        shown = self.written or tuple((key, str(value)) for key, value in self.options)
        return " ".join([self.solver, *(f"{key}={value}" for key, value in shown)])

    def options_dict(self) -> dict[str, Any]:
        return dict(self.options)

    @classmethod
    def parse(cls, text: str) -> Configuration:
        """``SOLVER`` or ``SOLVER:KEY=VALUE,KEY=VALUE``, checked against what the solver declares."""
        from .. import solvers

        solver, colon, rest = text.strip().partition(":")
        solver = solver.strip()
        if not solver:
            raise UsageError(f"configuration '{text}' names no solver: write SOLVER or SOLVER:KEY=VALUE,...")
        written: list[tuple[str, str]] = []
        if colon:
            if not rest.strip():
                raise UsageError(f"configuration '{text}' has no option after ':': write {solver}:KEY=VALUE")
            for pair in rest.split(","):
                key, equals, value = pair.partition("=")
                if not equals or not key.strip():
                    raise UsageError(f"configuration '{text}': option '{pair.strip()}' is not of the form KEY=VALUE")
                written.append((key.strip().replace("-", "_"), value.strip()))
        keys = [key for key, _ in written]
        if len(set(keys)) != len(keys):
            raise UsageError(f"configuration '{text}' sets an option twice")
        checked = solvers.parse_options(solver, dict(written))
        return cls(solver, tuple((key, checked[key]) for key in keys), tuple(written))

    def identity(self) -> tuple[str, tuple[tuple[str, str], ...]]:
        """What makes two configurations the same run: the solver and every option, defaults filled in."""
        from .. import solvers

        declared = {option.name: option.default for option in getattr(solvers.solver_class(self.solver), "options", ())}
        every = {**declared, **dict(self.options)}
        return self.solver, tuple(sorted((key, repr(value)) for key, value in every.items()))


def parse_configurations(texts: Sequence[str]) -> tuple[Configuration, ...]:
    """Each ``SOLVER[:KEY=VALUE,...]`` parsed and checked; none given twice (defaults filled in)."""
    if not texts:
        raise UsageError("--configs needs at least one configuration, e.g. sat:encoding=minimal")
    configs = tuple(Configuration.parse(text) for text in texts)
    seen: dict[Any, str] = {}
    for text, config in zip(texts, configs):
        key = config.identity()
        if key in seen:
            raise UsageError(f"configurations '{seen[key]}' and '{text}' are the same (defaults filled in): "
                             "give each once")
        seen[key] = text
    return configs


def plain(names: Sequence[str], options: Mapping[str, Mapping[str, Any]] | None = None) -> tuple[Configuration, ...]:
    """Solvers by name with ``-o SOLVER.KEY=VALUE`` options, as configurations named after the solver alone.

    Each solver at most once: one solver under several option sets is what ``--configs`` is for.
    """
    if len(set(names)) != len(names):
        raise UsageError(f"a solver is named twice in {', '.join(names)}: to run one solver under several "
                         "option sets, use --configs (e.g. --configs sat:encoding=minimal sat:encoding=extended)")
    options = options or {}
    for name in options:  # an option for a solver not in the run would pass silently
        if name not in names:
            raise UsageError(f"options given for '{name}', which is not among the solvers run ({', '.join(names)})")
    return tuple(Configuration(name, tuple(options.get(name, {}).items()), named_by_options=False) for name in names)
