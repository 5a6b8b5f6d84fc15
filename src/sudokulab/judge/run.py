"""Judge a program over a dataset, as an online judge does: one run per puzzle, one verdict each.

Each dataset entry's puzzle is run and judged (``judge.cases``: the verdict of one run); an entry
that is no puzzle is an *invalid dataset entry*, counted and named with its line, and nothing is run
for it. Under variant rules each puzzle carries them: the program still reads the givens alone, and
its answer is judged under the rules. The program judged is fixed before the first run
(``judged_program``: its files copied read-only, its interpreter the one the user's shell would
run), a runtime that sizes its memory from the machine gets flags sized from the limit
(``runtime_flags``; ``on_note`` hears which), and what a program writes reaches every detail
escaped (``formats.boj.printable``). Batches on a Dask cluster are ``judge.cluster``'s.

The verdicts in the order decided, variant rules and clusters: docs/judge.md.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..datasets.reading import Entry
from ..execution import isolation
from ..execution.sandbox import DEFAULT_LIMITS, Limits, stop_all
from ..verdicts.oracle import Oracle
from .cases import Case, Outcome, judge_entry
from .cluster import judge_on_cluster, one_way
from .program import fixed_program
from .runtime_flags import sized_for

if TYPE_CHECKING:
    from ..execution.executors import Executor

def first_puzzles(entries: Iterable[Entry], limit: int | None) -> Iterator[Entry]:
    """The entries up to and including the ``limit``-th puzzle (bad entries on the way included)."""
    taken = 0
    for entry in entries:
        if limit is not None and taken >= limit:
            return
        taken += entry.ok
        yield entry

def judge_cases(
    entries: Iterable[Entry], command: Sequence[str], limits: Limits = DEFAULT_LIMITS, *, jobs: int = 1,
    cluster: str | Executor | None = None, shared_fs: bool = False, batch_size: int = 4,
    on_note: Callable[[str], None] | None = None,
) -> Iterator[Case]:
    """Run the program on every puzzle of the entries and judge each run, in dataset order.

    With ``jobs`` > 1 that many runs go at once (wall times then include the contention). With
    ``cluster`` (an address, ``local:N``, or an executor from ``cluster.connect``), batches of
    ``batch_size`` entries run on the cluster's workers, one run at a time per worker thread
    (see the module docstring for how the program gets there). ``on_note`` hears, before the first
    run, the flags added for the program's runtime, if any.
    """
    sized = sized_for(command, limits.memory_mb)
    if sized.note and on_note is not None:
        on_note(sized.note)
    if cluster is not None:
        one_way(jobs)
        yield from judge_on_cluster(entries, sized.command, limits, cluster, shared_fs, batch_size)
        return
    isolation.check(limits.isolation)
    with fixed_program(sized.command) as fixed:
        yield from _judge_here(entries, fixed, limits, jobs)


def _judge_here(entries: Iterable[Entry], command: Sequence[str], limits: Limits, jobs: int) -> Iterator[Case]:
    def judge_one(entry: Entry) -> Case:
        return judge_entry(entry, command, limits)

    if jobs <= 1:
        yield from map(judge_one, entries)
        return
    pool = ThreadPoolExecutor(jobs)
    window: deque = deque()
    try:
        for entry in entries:
            window.append(pool.submit(judge_one, entry))
            if len(window) >= 2 * jobs:
                yield window.popleft().result()
        while window:
            yield window.popleft().result()
    except BaseException:  # Ctrl-C or a closed generator: stop the runs in progress, drop the queued
        pool.shutdown(wait=False, cancel_futures=True)
        stop_all()
        raise
    pool.shutdown()


@dataclass(frozen=True)
class JudgeSummary:
    """Counts per verdict and the time figures of a judge run."""

    counts: Mapping[Outcome, int]
    seconds: tuple[float, ...] = ()
    """Wall time of every run, in dataset order (a timed-out run counts the limit)."""
    peak_rss_kb: int = 0

    @property
    def runs(self) -> int:
        return len(self.seconds)

    @property
    def all_accepted(self) -> bool:
        """True when every entry was a puzzle and every run was accepted (and there was one)."""
        return self.runs > 0 and self.counts.get(Outcome.ACCEPTED, 0) == sum(self.counts.values())


@dataclass(frozen=True)
class Failure:
    """A failed case with what the oracle answers for its puzzle, for showing side by side."""

    case: Case
    oracle_answer: str


@dataclass(frozen=True)
class JudgeReport:
    """A judge run: the summary, and the first failures with the oracle's answers."""

    summary: JudgeSummary
    failures: tuple[Failure, ...] = field(default_factory=tuple)
    where: str = "this process"
    """Where the runs ran (``Executor.describe()`` on a cluster)."""
    retried: int = 0
    """Batches run again because a cluster worker died while holding them."""
    notes: tuple[str, ...] = ()
    """What the judge did to the command before the first run (``judge_cases``' ``on_note``)."""
    stopped: bool = False
    """A signal stopped the run: the summary covers the entries decided before it."""


def judge_dataset(
    entries: Iterable[Entry],
    command: Sequence[str],
    limits: Limits = DEFAULT_LIMITS,
    *,
    oracle: Oracle | None = None,
    failures_shown: int = 3,
    jobs: int = 1,
    on_case: Callable[[Case], None] | None = None,
    cluster: str | Executor | None = None,
    shared_fs: bool = False,
    on_note: Callable[[str], None] | None = None,
    kept: Mapping[int, Case] | None = None,
    on_stopped: Callable[[JudgeReport], None] | None = None,
) -> JudgeReport:
    """Judge a program over dataset entries; ``on_case`` sees each case as it is decided, ``on_note``
    each note on the command (flags added for its runtime) before the first run.

    ``cluster``: an address or ``local:N`` (connected here and closed at the end), or an executor
    (left open); see ``judge_cases``. ``kept``: cases decided by an earlier run, by entry index, not
    run again (``judge --output``); they count and are seen by ``on_case`` in their place.
    ``on_stopped``: when Ctrl-C or a stopping signal ends the run, it is given the report of the
    entries decided so far (``stopped`` True) before the signal goes on.
    """
    from contextlib import nullcontext

    opened: Any = nullcontext(None)
    if cluster is not None:
        from ..execution.cluster import executor_for

        one_way(jobs)  # before a local cluster is started for nothing
        opened = executor_for(cluster)
    with opened as executor:
        counts = dict.fromkeys(Outcome, 0)
        seconds: list[float] = []
        peak = 0
        failures: list[Failure] = []
        notes: list[str] = []

        def note(text: str) -> None:
            notes.append(text)
            if on_note is not None:
                on_note(text)

        def judged(todo: Iterable[Entry]) -> Iterator[Case]:
            return judge_cases(todo, command, limits, jobs=jobs, cluster=executor, shared_fs=shared_fs, on_note=note)

        def report(stopped: bool = False) -> JudgeReport:
            where = executor.describe() if executor is not None else ("this process" if jobs <= 1 else
                                                                        f"{jobs} runs at once on this machine")
            retried = executor.retried if executor is not None else 0
            return JudgeReport(JudgeSummary(counts, tuple(seconds), peak), tuple(failures), where, retried,
                               tuple(notes), stopped)

        try:
            for case in judged(entries) if not kept else _with_kept(list(entries), kept, judged):
                counts[case.outcome] += 1
                if case.run is not None:
                    seconds.append(case.run.seconds)
                    peak = max(peak, case.run.peak_rss_kb)
                if case.puzzle is not None and not case.accepted and len(failures) < failures_shown:
                    failures.append(Failure(case, oracle.answer_text(case.puzzle) if oracle else ""))
                if on_case:
                    on_case(case)
        except KeyboardInterrupt:  # Ctrl-C, SIGTERM, SIGHUP: what was decided is shown, then the signal goes on
            if on_stopped is not None:
                on_stopped(report(stopped=True))
            raise
        done = report()
    return done


def _with_kept(entries: Sequence[Entry], kept: Mapping[int, Case],
               judged: Callable[[Iterable[Entry]], Iterator[Case]]) -> Iterator[Case]:
    """Every entry's case in dataset order: an earlier run's where ``kept`` has it, else judged now."""
    fresh = judged([entry for entry in entries if entry.index not in kept])
    for entry in entries:
        yield kept[entry.index] if entry.index in kept else next(fresh)
    next(fresh, None)  # to its end, so its pool or cluster knows the work is done
