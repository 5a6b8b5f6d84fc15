"""A dataset's puzzles solved and answered in input order: what ``sudokulab solve --all`` prints.

The work goes through bench's pipeline, not a copy of it: the dataset streamed in ``Batch``es, each
batch to ``bench_worker.run_batch`` (one solver, every grid checked by ``check_batch``) through the
executor of ``--jobs`` or ``--cluster``; the ``WorkSpec`` only asks for the checked grids back.
What is added here is the order and the text: answers come back a batch at a time (from a cluster,
not in order), are cut into runs of consecutive entries held until every entry before them is
written, then written at once (a 9x9 run as one numpy conversion); bad entries wait their turn the
same way. Memory stays flat: when more than ``HELD_MOST`` answered puzzles wait for an earlier one,
no new batch is handed out. Every entry gives exactly one answer: the grid, or one line saying why
there is none (``no solution``, ``time limit``, ``bad entry: why``, ``wrong answer: why``).
docs/solve.md.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import numpy as np

from .. import solvers as registry
from ..core.grid import Shape
from ..core.rules import Rules
from ..datasets.reading import ONE_LINE_MIN, Dataset, Entry
from ..errors import UsageError
from ..execution import executors
from ..execution.cluster import open_executor
from ..formats.boj import check_readable, standard_input
from ..formats.documents import emit_line
from ..solvers.base import Status
from ..solvers.batch import Batch, BatchResults
from ..verdicts.checking import BatchVerdicts
from .worker import WorkSpec, batch_sizer, release, run_batch, solvers_for, work_of

FORMS = ("line", "boj", "compact", "json")
"""Output forms: one line per puzzle; BOJ blocks (or BOJ 2239 digit rows) separated by a blank
line; JSON Lines rows (``schemas/solve-all.schema.json``)."""

SOLVED, NO_SOLUTION, TIME_LIMIT, ERROR, WRONG, BAD = range(6)
"""Outcome codes: the first four are ``solvers.batch.STATUSES``; a grid the checker refuses, or a
solver that raised (ERROR, which the checker refuses too), is WRONG; an entry that is no puzzle is BAD."""
STATUS = ("solved", Status.NO_SOLUTION.value, Status.TIME_LIMIT.value, "wrong answer", "wrong answer", "bad entry")
"""The ``status`` of a JSON row, by outcome code."""
LINE = ("", "no solution", "time limit", "wrong answer", "wrong answer", "bad entry")
"""What stands in place of the answer in the text forms, by outcome code."""

HELD_MOST = 1 << 16
"""Answered puzzles that may wait for an earlier one before no more batches are handed out."""


@dataclass
class AnswerTally:
    """What a ``solve_all`` run did: entries by outcome, solver seconds, wall seconds."""

    counts: list[int] = field(default_factory=lambda: [0] * 6)
    solver_seconds: float = 0.0
    wall_seconds: float = 0.0
    where: str = "this process"
    solvers: dict[str, None] = field(default_factory=dict)
    """The solvers that ran, in order of first use (the default may differ by board size)."""

    @property
    def entries(self) -> int:
        return sum(self.counts)

    def document(self, partial: bool = False) -> dict[str, Any]:
        """The last JSON Lines row of a stopped run (``schemas/solve-all.schema.json``, ``summary``)."""
        return {"summary": True, "partial": partial, "entries": self.entries, "solved": self.counts[SOLVED],
                "no_solution": self.counts[NO_SOLUTION], "time_limit": self.counts[TIME_LIMIT],
                "wrong_answer": self.counts[WRONG], "bad_entry": self.counts[BAD],
                "seconds": round(self.wall_seconds, 6), "solvers": list(self.solvers), "where": self.where}

    def summary(self) -> str:
        """One line: ``20 entries: 18 solved, 1 no solution, 1 bad entry; 0.12 s (backtrack-fast, this process)``."""
        words = ((SOLVED, "solved", "solved"), (NO_SOLUTION, "no solution", "no solution"),
                 (TIME_LIMIT, "time limit", "time limits"), (WRONG, "wrong answer", "wrong answers"),
                 (BAD, "bad entry", "bad entries"))
        parts = [f"{self.counts[code]:,} {one if self.counts[code] == 1 else many}" for code, one, many in words
                 if self.counts[code] or code == SOLVED]
        return (f"{self.entries:,} {'entry' if self.entries == 1 else 'entries'}: {', '.join(parts)}; "
                f"{self.wall_seconds:.2f} s ({', '.join(self.solvers) or 'no solver'}, {self.where})")


def input_form(path: str | Path) -> str:
    """The form of a dataset's first puzzle: ``line`` (one-line puzzles), ``compact`` (rows of digits,
    BOJ 2239) or ``boj`` (rows of numbers); ``line`` when nothing tells. Standard input is peeked at,
    not read."""
    if str(path) == "-":
        data = standard_input().peek(1 << 16)[: 1 << 16] if sys.stdin is not None else b""
    else:
        try:
            with open(path, "rb") as file:
                data = file.read(1 << 16)
        except OSError:
            return "line"  # the reader says why it cannot read it
    for raw in data.splitlines():
        words = raw.split()
        if not words or words[0].startswith(b"#"):
            continue
        if len(words) > 1:
            return "boj"
        return "line" if len(words[0]) >= ONE_LINE_MIN else "compact"
    return "line"


class AnswerWriter:
    """Answers as text or JSON Lines on ``stream``: a run of consecutive answers at a time."""

    def __init__(self, stream: IO[str], form: str):
        if form not in FORMS:
            raise UsageError(f"--format {form}: one of {', '.join(FORMS)}")
        self.stream, self.form = stream, form
        self.first = True  # no blank line before the first block

    def entry(self, dataset: str, entry: Entry) -> None:
        """A bad entry, in its place."""
        why = entry.error or "not a puzzle"
        if self.form == "json":
            emit_line({"dataset": dataset, "index": entry.index, "line": entry.line, "status": STATUS[BAD],
                       "answer": None, "seconds": 0.0, "reason": why}, self.stream)
            return
        self._blocks([f"{LINE[BAD]}: {why}\n"])

    def run(self, batch: Batch, outcomes: np.ndarray, results: BatchResults, reasons: dict[int, str],
            start: int, stop: int) -> None:
        """Batch positions ``start`` to ``stop`` (consecutive entries), with their outcome codes."""
        codes = outcomes[start:stop]
        solved = codes == SOLVED
        texts = self._answers(results.grids[start:stop], batch.shape.n, solved)
        if self.form == "json":
            for i in range(start, stop):
                code = int(outcomes[i])
                row: dict[str, Any] = {"dataset": batch.dataset, "index": int(batch.index[i]),
                                       "line": int(batch.line[i]), "status": STATUS[code],
                                       "answer": texts[i - start] if code == SOLVED else None,
                                       "seconds": float(results.seconds[i])}
                if i in reasons:
                    row["reason"] = reasons[i]
                emit_line(row, self.stream)
            return
        if solved.all() and self.form == "line":
            self.stream.write("".join(texts))
            return
        self._blocks([texts[i - start] if outcomes[i] == SOLVED else
                      f"{LINE[int(outcomes[i])]}{': ' + reasons[i] if i in reasons else ''}\n"
                      for i in range(start, stop)])

    def _blocks(self, texts: list[str]) -> None:
        if self.form in ("boj", "compact"):  # blocks separated by a blank line
            joined = "\n".join(texts)
            self.stream.write(joined if self.first else "\n" + joined)
        else:
            self.stream.write("".join(texts))
        self.first = False

    def _answers(self, grids: np.ndarray, n: int, solved: np.ndarray) -> list[str]:
        """Each grid as the form prints it (a row of anything where not solved: replaced by the caller)."""
        k = len(grids)
        if not k or not solved.any():
            return [""] * k
        if n <= 9:  # digits as bytes, separators as columns: one conversion for the whole run
            digits = (np.where(solved[:, None], grids, 0) + ord("0")).astype(np.uint8)
            if self.form in ("line", "json"):
                chars = np.concatenate([digits, np.full((k, 1), ord("\n"), np.uint8)], axis=1)
            else:
                rows = digits.reshape(k, n, n)
                if self.form == "boj":
                    spaced = np.full((k, n, 2 * n), ord(" "), np.uint8)
                    spaced[:, :, 0::2] = rows
                else:
                    spaced = np.empty((k, n, n + 1), np.uint8)
                    spaced[:, :, :n] = rows
                spaced[:, :, -1] = ord("\n")
                chars = spaced.reshape(k, -1)
            width = chars.shape[1]
            data = chars.tobytes().decode("ascii")
            texts = [data[i * width:(i + 1) * width] for i in range(k)]
            return [text.rstrip("\n") for text in texts] if self.form == "json" else texts
        out = []
        for grid, ok in zip(grids.tolist(), solved.tolist()):
            if not ok:
                out.append("")
            elif self.form in ("line", "json"):
                out.append(" ".join(map(str, grid)) + ("" if self.form == "json" else "\n"))
            else:
                out.append("".join(" ".join(map(str, grid[r * n:(r + 1) * n])) + "\n" for r in range(n)))
        return out


def outcomes_of(results: BatchResults, verdicts: BatchVerdicts) -> tuple[np.ndarray, dict[int, str]]:
    """Each puzzle's outcome code, and why where it is a wrong answer (the checker's words)."""
    outcomes = results.status.astype(np.int8)
    outcomes[~verdicts.valid] = WRONG
    return outcomes, dict(verdicts.problems)


def solve_all(
    datasets: Sequence[Dataset],
    *,
    solver: str | None = None,
    options: dict[str, str] | None = None,
    time_limit: float | None = None,
    jobs: int = 1,
    cluster: str | None = None,
    form: str | Callable[[Dataset], str] = "line",
    stream: IO[str] | None = None,
    on_stopped: Callable[[AnswerTally], None] | None = None,
    on_answered: Callable[[int], None] | None = None,
) -> AnswerTally:
    """Solve every puzzle of each dataset with one solver (``solver``, or the default for each board
    and rule set, as ``solve`` chooses it) and write one answer per entry, in input order, to
    ``stream`` (standard output) in ``form`` (or the form a function gives each dataset).

    ``on_stopped``: when Ctrl-C or a stopping signal ends the run, it is given the tally of the
    answers written (every entry up to the first not yet answered) before the signal goes on.
    ``on_answered`` is told how many entries each write answered (a progress bar)."""
    if jobs < 1:
        raise UsageError(f"jobs must be a positive whole number, not {jobs}")
    if cluster is not None and jobs > 1:
        raise UsageError("--jobs is for this machine and --cluster for a cluster: give one of them")
    if solver is not None:
        registry.solver_class(solver)  # an unknown name fails before any work
    for dataset in datasets:
        if dataset.path is not None:
            check_readable(dataset.path)
    out = stream or sys.stdout
    tally = AnswerTally()
    specs: dict[str, WorkSpec] = {}
    chosen: dict[tuple[Shape, Rules], WorkSpec] = {}
    started = time.perf_counter()
    executor = None

    def spec_for(batch: Batch) -> WorkSpec:
        """The work spec of a batch's shape and rules: its solver built and asked here first, so a
        bad option, a missing time limit or a rule it cannot honour stops the run with one line."""
        key = (batch.shape, batch.rules)
        if key not in chosen:
            name = solver or registry.default_solver(batch.puzzle(0))
            if name not in specs:
                spec = WorkSpec.of([name], {name: dict(options or {})}, time_limit)
                spec = WorkSpec(spec.configs, time_limit, keep_grids=True)
                specs[name] = spec
            (_, instance), = solvers_for(specs[name])
            registry.require(instance, time_limit=time_limit is not None, rules=batch.rules)
            if not executor.here:  # a cluster's workers build their own
                release(specs[name])
            chosen[key] = specs[name]
            tally.solvers[name] = None
        return chosen[key]

    try:
        size, estimates = None, []
        if cluster is None and jobs > 1:  # the pool fits the work: no more processes than batches
            estimates = [dataset.estimate() for dataset in datasets]
            size = executors.pool_size(jobs, *work_of(datasets, None, estimates))
        executor = open_executor(jobs, cluster, size=size, note=lambda line: print(f"sudokulab: note: {line}",
                                                                                   file=sys.stderr, flush=True))
        tally.where = executor.describe()
        for i, dataset in enumerate(datasets):
            writer = AnswerWriter(out, form(dataset) if callable(form) else form)
            _answer_dataset(dataset, executor, spec_for, writer, tally, estimates[i] if estimates else None,
                            on_answered)
    except KeyboardInterrupt:  # Ctrl-C, SIGTERM, SIGHUP: the tally of what was written, then the signal goes on
        if on_stopped is not None:
            tally.wall_seconds = time.perf_counter() - started
            on_stopped(tally)
        raise
    finally:
        for spec in specs.values():  # what ran here (an executor that runs nothing here released them already)
            release(spec)
        if executor is not None:
            executor.close()
        tally.wall_seconds = time.perf_counter() - started
    return tally


def _answers(writer: AnswerWriter, batch: Batch, outcomes: np.ndarray, results: BatchResults, reasons: dict[int, str],
             start: int, stop: int, tally: AnswerTally) -> None:
    """A run of consecutive answers written, and counted as written (a stopped run's tally is what it printed)."""
    writer.run(batch, outcomes, results, reasons, start, stop)
    codes = outcomes[start:stop]
    tally.counts[:4] = [a + int(b) for a, b in zip(tally.counts[:4], np.bincount(codes[codes < WRONG], minlength=4))]
    tally.counts[WRONG] += int((codes == WRONG).sum())
    tally.solver_seconds += float(results.seconds[start:stop].sum())


def _bad_entry(writer: AnswerWriter, dataset: str, entry: Entry, tally: AnswerTally) -> None:
    writer.entry(dataset, entry)
    tally.counts[BAD] += 1


def _answer_dataset(dataset: Dataset, executor: Any, spec_for: Callable[[Batch], WorkSpec], writer: AnswerWriter,
                    tally: AnswerTally, estimate: int | None,
                    on_answered: Callable[[int], None] | None = None) -> None:
    """One dataset through the executor, its answers written in input order (see the module docstring);
    ``estimate``: its entries, counted when the pool was sized; ``on_answered``: told each write's count."""
    if estimate is None and executor.workers > 1:
        estimate = dataset.estimate()
    source = dataset.batches(batch_sizer(None, estimate, executor.workers), in_order=True)
    pending: dict[int, tuple[int, Callable[[], None]]] = {}  # first index -> (entries, write them)
    state = {"next": 0, "held": 0, "done": False}

    def flush() -> None:
        while state["next"] in pending:
            count, write = pending.pop(state["next"])
            with executors.signals_held(executors.STOPPING):  # written and counted together, or neither
                write()
                state["next"] += count
                state["held"] -= count
            if on_answered is not None:
                on_answered(count)

    def hold(first: int, count: int, write: Callable[[], None]) -> None:
        pending[first] = (count, write)
        state["held"] += count
        flush()

    def window() -> Iterator[tuple[WorkSpec, Batch]]:
        """The next batches, the bad entries put in their place on the way; it stops handing out
        batches once more than ``HELD_MOST`` answers wait (at least one each time, so it moves)."""
        handed = False
        while not (handed and state["held"] > HELD_MOST):
            item = next(source, None)
            if item is None:
                state["done"] = True
                return
            if isinstance(item, Entry):
                hold(item.index, 1, lambda entry=item: _bad_entry(writer, dataset.name, entry, tally))
                continue
            handed = True
            yield spec_for(item), item

    while not state["done"]:
        for (_, batch), outcome in executor.imap(run_batch, window()):
            ((results, verdicts),) = outcome.answers
            outcomes, reasons = outcomes_of(results, verdicts)
            cuts = [0, *(np.flatnonzero(np.diff(batch.index) != 1) + 1).tolist(), len(batch)]
            for start, stop in zip(cuts, cuts[1:]):
                hold(int(batch.index[start]), stop - start,
                     lambda a=start, b=stop, batch=batch, o=outcomes, r=results, why=reasons:
                     _answers(writer, batch, o, r, why, a, b, tally))
    flush()
    if pending:  # every entry has an index below the next one's: nothing may be left
        raise RuntimeError(f"answers left unwritten from entry {min(pending)} on, {state['next']} written")
