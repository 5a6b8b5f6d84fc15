"""The worker side of ``bench`` (and of ``solve --all``): the same function answers a batch here, in a
local pool, or on a cluster.

A worker builds one instance per solver configuration (``WorkSpec``, hashable) and keeps it over all
batches, so a paradigm that prepares per board shape pays for it once; each batch's answers are
checked where they were found (``checking.check_batch``) and only the verdicts travel back, with
the grids when asked. Batch sizes are chosen here too: the batch is this side's unit of work.

More: docs/bench.md.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .. import solvers as registry
from ..core.grid import Shape
from ..core.puzzle import Puzzle
from ..core.rules import Rules
from ..datasets.reading import Dataset
from ..execution import executors
from ..solvers.base import Solver, SolveResult
from ..solvers.batch import Batch, BatchResults, solve_batch
from ..verdicts.checking import BatchVerdicts, check_batch
from .configurations import Configuration, plain


@dataclass(frozen=True)
class WorkSpec:
    """What configures a worker's solvers: hashable, so each process builds them once per spec."""

    configs: tuple[Configuration, ...]
    time_limit: float | None
    keep_grids: bool = False
    """Send the checked grids back with the outcome (``solve --all`` prints them; bench drops them)."""

    @classmethod
    def of(cls, names: Sequence[str], options: Mapping[str, Mapping[str, Any]], time_limit: float | None) -> WorkSpec:
        """Solvers by name, each with its ``options``."""
        return cls(plain(names, options), time_limit)

    @property
    def names(self) -> tuple[str, ...]:
        """The row names: a solver's, or a configuration's ("sat encoding=minimal")."""
        return tuple(config.name for config in self.configs)

    def only(self, names: Sequence[str]) -> WorkSpec:
        """The same spec for some of its rows (``by_solver`` runs one at a time)."""
        return WorkSpec(tuple(c for c in self.configs if c.name in names), self.time_limit, self.keep_grids)


@dataclass
class BatchOutcome:
    """What a worker sends back for one batch: each solver's answers (grids dropped) and verdicts."""

    answers: list[tuple[BatchResults, BatchVerdicts]]
    worker: str
    skipped: dict[str, str] | None = None
    """Solver -> why it was not run on this batch (it cannot honour the batch's rules)."""


_SOLVERS: dict[WorkSpec, list[tuple[str, Solver]]] = {}
"""This process's solver instances, per spec, built on first use and kept (a cluster worker keeps
them across runs too; the oldest spec's are closed past ``_KEEP``)."""
_KEEP = 8


def solvers_for(spec: WorkSpec) -> list[tuple[str, Solver]]:
    named = _SOLVERS.get(spec)
    if named is None:
        while len(_SOLVERS) >= _KEEP:
            _close(_SOLVERS.pop(next(iter(_SOLVERS))))
        named = _SOLVERS[spec] = _open_solvers(spec.configs, spec.time_limit)
    return named


def release(spec: WorkSpec) -> None:
    """Close this process's solvers for ``spec`` (the run that built them here is over)."""
    named = _SOLVERS.pop(spec, None)
    if named:
        _close(named)


def run_batch(task: tuple[WorkSpec, Batch]) -> BatchOutcome:
    """Every solver of the spec on every puzzle of the batch, each answer checked (``check_batch``)."""
    spec, batch = task
    named = solvers_for(spec)
    answers = []
    skipped: dict[str, str] = {}
    for name, solver in named:
        missing = lacks_rules(solver, batch.rules)
        if missing:
            skipped[name] = missing
            continue
        results = solve_batch(solver, batch, spec.time_limit)
        results.solver = name
        answers.append(results)
    verdicts = check_batch(batch.givens, batch.shape, answers, batch.rules)
    for results in answers if not spec.keep_grids else ():
        results.grids = results.grids[:0]  # checked here: no need to send them back
    return BatchOutcome(list(zip(answers, verdicts)), f"{_host()}:{os.getpid()}", skipped or None)


def _host() -> str:
    """This machine's name, as ``socket.gethostname`` gives it (without importing socket where uname has it)."""
    if hasattr(os, "uname"):
        return os.uname().nodename
    import socket

    return socket.gethostname()


def lacks_rules(solver: Solver, rules: Rules) -> str | None:
    """Why a solver cannot take puzzles under ``rules`` ("cannot honour ..."), or None when it can."""
    if rules.is_standard:
        return None
    missing = solver.capabilities.lacks(rules=rules)
    return f"cannot {missing}" if missing else None


def _open_solvers(configs: Sequence[Configuration], time_limit: float | None) -> list[tuple[str, Solver]]:
    """One instance per configuration; one that cannot honour a time limit runs without (the report notes it)."""
    opened: list[tuple[str, Solver]] = []
    try:
        for config in configs:
            solver = registry.get(config.solver, **config.options_dict())
            if time_limit is not None and not solver.capabilities.time_limit:
                solver = _Unlimited(solver)
            opened.append((config.name, solver))
    except BaseException:
        _close(opened)
        raise
    return opened


class _Unlimited:
    """A solver that cannot honour a time limit, asked without one."""

    def __init__(self, solver: Solver):
        self.solver = solver
        self.name = solver.name
        self.capabilities = solver.capabilities

    def solve(self, puzzle: Puzzle, *, time_limit: float | None = None, canonical: bool = False) -> SolveResult:
        return self.solver.solve(puzzle, canonical=canonical)

    def close(self) -> None:
        self.solver.close()


def _close(named: Sequence[tuple[str, Solver]]) -> None:
    for _, solver in named:
        solver.close()


BATCH_9X9 = 512
"""Puzzles per batch up to 9x9 (see ``batch_size_for``)."""
BATCH_CELLS = 4096
"""Cells per batch above 9x9: big boards take long enough each that a few make a batch."""


def batch_size_for(shape: Shape) -> int:
    """Puzzles per batch: enough to hide the cost of a task (about a millisecond on a Dask
    scheduler, less in a local pool) behind puzzles of tens of microseconds, few enough on big
    boards that the work still spreads and progress moves (see benchmarks/README.md)."""
    return BATCH_9X9 if shape.n <= 9 else max(1, BATCH_CELLS // shape.cells)


def work_of(datasets: Sequence[Dataset], asked: int | None,
            estimates: Sequence[int | None]) -> tuple[int | None, str]:
    """How many batches the datasets make (from their ``estimates``, in the same order, and each one's first board
    shape; None when one is a stream of unknown length), and what they hold in words, for
    ``executors.pool_size``: ``(1, "20 puzzles, 512 a batch")``."""
    batches, puzzles, sizes = 0, 0, set()
    for dataset, estimate in zip(datasets, estimates):
        if estimate is None:
            return None, ""
        shape = dataset.first_shape() if estimate else None
        if shape is None:
            continue
        size = asked or batch_size_for(shape)
        batches, puzzles = batches + -(-estimate // size), puzzles + estimate
        sizes.add(size)
    each = f", {sizes.pop():,} a batch" if len(sizes) == 1 else ""
    return batches, f"{puzzles:,} puzzle{'s' if puzzles != 1 else ''}{each}"


def batch_sizer(asked: int | None, estimate: int | None, workers: int) -> Callable[[Shape], int]:
    """Puzzles per batch for a shape: as asked, or ``batch_size_for`` it, cut so that a small set
    still gives every worker a few batches."""
    def size(shape: Shape) -> int:
        if asked is not None:
            return asked
        chosen = batch_size_for(shape)
        return executors.batch_size(chosen, estimate, workers) if workers > 1 else chosen
    return size
