"""Every paradigm held against the others on one puzzle: run them all, check each answer, judge.

How agreement is judged (``compare``), in this order: a solver that cannot do what is asked is
skipped, not failed; one that reached its time limit is reported but not counted (it said nothing);
every answer goes through ``checking.check_results``, the one rule; then, every answer being valid,
canonical answers must be byte-identical, and without ``canonical`` answers may differ only when
the puzzle has several solutions (the oracle counts up to two, and is caught wrong when two valid
answers differ but it counted one). The ``sudokulab compare`` command keeps stdout reading as BOJ
output: the table and the verdict go to standard error, standard output gets the agreed answer or
each distinct answer under a ``# solver, solver`` label (a form ``datasets.read_dataset`` reads
back), and ``--json`` one document (``Comparison.to_json``).

The verdict in detail: docs/compare.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..ui.console import as_text
from ..ui.tables import Column, effort, format_seconds, print_table

if TYPE_CHECKING:
    from rich.console import Console

import enum
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .. import solvers
from ..core.puzzle import Puzzle, first_conflict
from ..errors import UnsupportedFeature, UsageError
from ..formats.boj import format_grid, format_puzzle
from ..formats.documents import rules_fields
from ..solvers.base import SolveResult, Status
from ..verdicts.checking import check_results
from ..verdicts.oracle import Oracle
from .configurations import Configuration, plain

RULES_SKIP = "cannot honour "
"""How the reason of a solver skipped for the puzzle's rules begins (``Capabilities.lacks``)."""


class Agreement(enum.Enum):
    """The verdict of a comparison."""

    AGREED = "agreed"
    """Every counted solver gave the same valid answer."""
    SEVERAL = "agreed, answers differ"
    """The puzzle has several solutions; the answers differ and each is valid."""
    NO_SOLUTION = "agreed: no solution"
    """Every counted solver said the puzzle has no solution."""
    ALL_TIMED_OUT = "every solver timed out"
    """Nobody answered in time: no verdict."""
    DISAGREE = "disagree"
    """A wrong answer, or answers that cannot all be right: a bug found."""


@dataclass(frozen=True)
class SolverRun:
    """One solver's result on the puzzle, checked: the rows of the table."""

    result: SolveResult
    answer: str | None
    """The grid in BOJ form, as ``solve`` would print it (None without a grid)."""
    problem: str | None
    """Why the result is wrong (None when it is not)."""
    agrees: bool | None
    """None when not counted (timed out or skipped)."""
    skipped: str | None = None
    """Why the solver was not run (it lacks a capability the comparison needs)."""
    setup_seconds: float | None = None
    """Building the solver and its model for this board and rules, before the solve (``run_solver``);
    ``result.seconds`` is the solve alone. None when not measured."""

    @property
    def skipped_for_rules(self) -> bool:
        """Whether it was skipped because it cannot honour a kind of the puzzle's rules."""
        return bool(self.skipped) and self.skipped.startswith(RULES_SKIP)  # type: ignore[union-attr]

    @property
    def solver(self) -> str:
        return self.result.solver

    @property
    def valid(self) -> bool | None:
        """Whether the answer passed the checker; None when there is no answer."""
        return None if self.result.grid is None else self.problem is None

    def to_json(self) -> dict[str, Any]:
        r = self.result
        return {
            "solver": r.solver, "status": "skipped" if self.skipped else r.status.value, "seconds": r.seconds,
            "setup_seconds": self.setup_seconds,
            "stats": dict(r.stats),
            "answer": self.answer, "valid": self.valid, "problem": self.problem, "agrees": self.agrees,
            "skipped": self.skipped,
        }


@dataclass(frozen=True)
class Comparison:
    """Every solver's result on one puzzle, and the verdict on whether they agree."""

    puzzle: Puzzle
    runs: tuple[SolverRun, ...]
    agreement: Agreement
    reason: str
    """One line on why, for a person."""
    canonical: bool
    oracle: str | None
    solutions: int | None
    """The oracle's count: 0, 1, or 2 meaning "two or more"; None when unknown."""
    asked: int | None = None
    """How many solvers were asked for, when a signal stopped the comparison after the runs it holds
    (the verdict then covers those alone); None for a whole comparison."""

    @property
    def partial(self) -> bool:
        return self.asked is not None

    @property
    def agreed(self) -> bool:
        return self.agreement in (Agreement.AGREED, Agreement.SEVERAL)

    @property
    def answers(self) -> dict[str, list[str]]:
        """Each distinct answer text and the solvers that gave it, in the order first given."""
        found: dict[str, list[str]] = {}
        for run in self.runs:
            if run.answer is not None:
                found.setdefault(run.answer, []).append(run.solver)
        return found

    @property
    def answer(self) -> str | None:
        """The agreed answer, when the verdict is AGREED."""
        return next(iter(self.answers)) if self.agreement is Agreement.AGREED else None

    def to_json(self) -> dict[str, Any]:
        """The whole comparison as plain JSON values (``solutions`` 2 means two or more)."""
        return {
            "puzzle": format_puzzle(self.puzzle),
            "size": self.puzzle.n,
            "box": [self.puzzle.shape.box_rows, self.puzzle.shape.box_cols],
            **rules_fields(self.puzzle.rules),
            "canonical": self.canonical,
            "oracle": self.oracle,
            "solutions": self.solutions,
            "agreement": self.agreement.value,
            "agreed": self.agreed,
            "reason": self.reason,
            "answer": self.answer,
            "runs": [run.to_json() for run in self.runs],
            "partial": self.partial,
        }


def warm_up_puzzle(puzzle: Puzzle) -> Puzzle:
    """A puzzle of the same board and rules whose givens break a rule at once (the digit 1 twice in the
    first cell's first group): a solver builds for it all it builds for the puzzle (a formula, a model,
    an exact-cover matrix, compiled code, tables per rule set) and then answers "no solution" without a
    search. Nothing else would do for every paradigm: an empty board can be a hard search (a killer
    puzzle has no givens), and the puzzle itself would leave a SAT engine its learnt clauses."""
    peers = sorted(puzzle.rules.peers[0]) if puzzle.shape.cells > 1 else []
    givens = [0] * puzzle.shape.cells
    if peers:
        givens[0] = givens[peers[0]] = 1
    return Puzzle(puzzle.shape, tuple(givens), puzzle.rules)


WARM_UP_UP_TO = 25
"""The largest board whose set-up ``run_solver`` times apart with a first call when a time limit is set."""


def run_solver(name: str, puzzle: Puzzle, *, time_limit: float | None, canonical: bool,
               options: Mapping[str, Any] | None = None) -> tuple[SolveResult, float | None]:
    """One solver on one puzzle, and its set-up seconds (None when it raised first); a solver that raises
    gives ``Status.ERROR`` (a bug found), not a crash.

    The set-up is measured here, the same way for every paradigm: building the solver (for
    ``backtrack-jit`` loading or compiling its code) and a first call on ``warm_up_puzzle``, which
    builds the model for the board and rules. The result's ``seconds`` is then the solving alone,
    as a second puzzle of the same kind would see it.

    ``time_limit`` is the solver's whole time after it is built: the first call and the puzzle's share
    it, so that N solvers end within about N times the limit. Above ``WARM_UP_UP_TO`` with a limit there
    is no first call: a large board's set-up may be the whole limit, and a solver that runs such a call
    in a child process (``solvers.stoppable``) would pay it twice; the solve then holds the set-up too.
    """
    started = time.perf_counter()
    setup = None
    try:
        with solvers.get(name, **(options or {})) as solver:
            deadline = time.perf_counter() + time_limit if time_limit is not None else None
            if time_limit is None or puzzle.n <= WARM_UP_UP_TO:
                try:
                    solver.solve(warm_up_puzzle(puzzle), time_limit=time_limit, canonical=canonical)
                except (UnsupportedFeature, UsageError, KeyboardInterrupt, MemoryError):
                    raise
                except Exception:  # noqa: BLE001 - the puzzle's own call below reports what is wrong
                    pass
            setup = time.perf_counter() - started
            left = None if deadline is None else deadline - time.perf_counter()
            if left is not None and left <= 0:  # the set-up took the whole limit
                return SolveResult(name, Status.TIME_LIMIT, None, 0.0, {}), setup
            return solver.solve(puzzle, time_limit=left, canonical=canonical), setup
    except (UsageError, KeyboardInterrupt, MemoryError):
        raise
    except Exception as exc:  # noqa: BLE001 - reported as this solver's wrong answer
        return SolveResult(name, Status.ERROR, None, time.perf_counter() - started - (setup or 0.0),
                           {"error": f"raised {type(exc).__name__}: {exc}"}), setup


def compare(
    puzzle: Puzzle,
    names: Sequence[str] | None = None,
    *,
    time_limit: float | None = None,
    canonical: bool = False,
    oracle: Oracle | None = None,
    count: bool = True,
    options: Mapping[str, Mapping[str, Any]] | None = None,
    configs: Sequence[Configuration] | None = None,
    on_stopped: Callable[[Comparison], None] | None = None,
) -> Comparison:
    """Run the solvers (default: every installed one) on the puzzle and judge their agreement.

    ``on_stopped``: when Ctrl-C or a stopping signal ends the comparison, it is given the comparison of
    the solvers that finished (``asked`` set, no oracle asked) before the signal goes on.

    ``oracle`` counts the solutions (default: an ``Oracle`` built for this call, with the same
    time limit, whose solver honours the puzzle's rules); ``count=False`` skips counting.
    ``options`` maps a solver name to its options. A solver that cannot honour the puzzle's rules
    is skipped, its ``skipped`` reason starting "cannot honour".
    ``configs`` (instead of ``names`` and ``options``) runs solvers under option sets of their own,
    one solver several times among them, each answer named after its configuration
    ("sat encoding=minimal"; ``configurations``).
    """
    if configs:
        if names or options:
            raise UsageError("give configurations (--configs) or solvers with options (--solvers, -o), not both")
        chosen = tuple(configs)
    else:
        names = list(names) if names else [name for name in solvers.names() if solvers.installed(name)]
        options = options or {}
        chosen = plain(names, options)
        for name in options:
            solvers.parse_options(name, dict(options[name]))
    classes = {c.solver: solvers.solver_class(c.solver) for c in chosen}  # unknown names fail before any run
    results: list[SolveResult] = []
    setups: list[float | None] = []
    skipped: dict[int, str] = {}
    try:
        for i, config in enumerate(chosen):
            name = config.name
            missing = classes[config.solver].capabilities.lacks(canonical=canonical,
                                                                time_limit=time_limit is not None, rules=puzzle.rules)
            if missing:
                skipped[i] = f"cannot {missing}"
                results.append(SolveResult(name, Status.TIME_LIMIT, None, 0.0))
                setups.append(None)
                continue
            try:
                result, setup = run_solver(config.solver, puzzle, time_limit=time_limit, canonical=canonical,
                                           options=config.options_dict())
                results.append(result if result.solver == name else replace(result, solver=name))
                setups.append(setup)
            except UnsupportedFeature as exc:  # e.g. a formula too large for this solver: it says so, others go on
                skipped[i] = str(exc)
                results.append(SolveResult(name, Status.TIME_LIMIT, None, 0.0))
                setups.append(None)
    except KeyboardInterrupt:  # what finished is judged among itself and shown, then the signal goes on
        if on_stopped is not None:
            on_stopped(replace(judge_results(puzzle, results, canonical=canonical, skipped=skipped, setups=setups),
                               asked=len(chosen)))
        raise
    solutions, oracle_name = None, None
    answered = [r for i, r in enumerate(results) if i not in skipped and r.status is not Status.TIME_LIMIT]
    if count and answered:
        try:
            if oracle is None:
                with Oracle(None, time_limit=time_limit) as own:
                    solutions, oracle_name = own.solutions(puzzle), own.name
            else:
                solutions, oracle_name = oracle.solutions(puzzle), oracle.name
        except UnsupportedFeature:
            solutions = None  # the oracle cannot take this puzzle: the count stays unknown
    return judge_results(puzzle, results, canonical=canonical, solutions=solutions, oracle=oracle_name,
                         skipped=skipped, setups=setups)


def judge_results(
    puzzle: Puzzle,
    results: Sequence[SolveResult],
    *,
    canonical: bool = False,
    solutions: int | None = None,
    oracle: str | None = None,
    skipped: Mapping[int, str] | None = None,
    setups: Sequence[float | None] | None = None,
) -> Comparison:
    """The verdict on results already in hand (the rules are in the module docstring); ``setups`` are
    the solvers' set-up seconds, when measured (``run_solver``)."""
    skipped = skipped or {}
    setups = setups or [None] * len(results)
    kept = [r for i, r in enumerate(results) if i not in skipped]
    checked = iter(check_results(puzzle, kept))
    verdicts = [None if i in skipped else next(checked) for i in range(len(results))]
    valid = [c.result.grid for c in verdicts if c is not None and c.valid_grid]
    smallest = min(valid) if valid else None
    notes: list[str] = []
    runs = []
    for i, result in enumerate(results):
        verdict = verdicts[i]
        if verdict is None:
            runs.append(SolverRun(result, None, None, None, skipped[i], setup_seconds=setups[i]))
            continue
        agrees: bool | None = verdict.right
        if verdict.right is False:
            what = "gave a wrong answer" if result.status is not Status.NO_SOLUTION else "disagrees"
            notes.append(f"{result.solver} {what} ({verdict.problem})")
        elif agrees and canonical and result.grid is not None and result.grid != smallest:
            notes.append(f"{result.solver} did not give the lexicographically first of the answers")
            agrees = False
        answer = format_grid(result.grid, puzzle.n) if result.grid is not None else None
        runs.append(SolverRun(result, answer, verdict.problem, agrees, setup_seconds=setups[i]))
    counted = [run for run in runs if run.agrees is not None]
    distinct = {run.answer for run in counted if run.agrees}
    if not counted:
        agreement = Agreement.ALL_TIMED_OUT
        reason = "every solver reached its time limit" if not skipped or len(skipped) < len(runs) \
            else "no solver could do what was asked"
    elif notes:
        agreement, reason = Agreement.DISAGREE, "; ".join(notes)
    elif all(run.result.status is Status.NO_SOLUTION for run in counted):
        if solutions:
            agreement = Agreement.DISAGREE
            reason = f"every solver says no solution, but the oracle {oracle} counts {_solutions(solutions)}"
        else:
            agreement = Agreement.NO_SOLUTION
            conflict = first_conflict(puzzle.givens, puzzle.rules)
            reason = f"the givens break a rule: {conflict}" if conflict else "no completion keeps the rules"
    elif solutions is not None and solutions < min(len(distinct), 2):
        agreement = Agreement.DISAGREE
        reason = f"the oracle {oracle} counts {_solutions(solutions)}, but {len(distinct)} valid answers differ"
    elif len(distinct) == 1:
        agreement = Agreement.AGREED
        reason = f"one answer; the puzzle has {_solutions(solutions)}" + (f" (oracle: {oracle})" if oracle else "")
        if canonical:
            reason += "; canonical: all byte-identical"
    else:
        agreement = Agreement.SEVERAL
        reason = (
            f"the puzzle has several solutions; {len(distinct)} different answers, each valid"
            + (f" (oracle: {oracle})" if oracle else "")
        )
    timed_out = [run.solver for run in runs if run.agrees is None and not run.skipped]
    if timed_out and counted:
        reason += f"; timed out, not counted: {', '.join(timed_out)}"
    if skipped and counted:
        reason += f"; skipped: {', '.join(run.solver for run in runs if run.skipped)}"
    return Comparison(puzzle, tuple(runs), agreement, reason, canonical, oracle, solutions)


def _solutions(count: int | None) -> str:
    return {None: "an unknown number of solutions", 0: "no solution", 1: "exactly one solution"}.get(
        count, "two or more solutions"
    )


def format_answers(comparison: Comparison) -> str:
    """What the command prints on stdout: the agreed answer alone, or each answer labelled."""
    answers = comparison.answers
    if comparison.agreement is Agreement.AGREED:
        return comparison.answer or ""
    problems = {run.answer: run.problem for run in comparison.runs if run.answer is not None}
    blocks = []
    for answer, names in answers.items():
        wrong = f" (wrong: {problems[answer]})" if problems[answer] else ""
        blocks.append(f"# {', '.join(names)}{wrong}\n{answer}")
    return "\n".join(blocks)


def _before_colon(text: str) -> str:
    """A verdict without its reason ("skipped: cannot honour ..." is "skipped"), the short form of a cell."""
    return text.split(":")[0]


def render_comparison(comparison: Comparison, out: Console, *, wide: bool = False) -> None:
    """The comparison as a table (fitted by ``print_table``), then the verdict line. *set-up* is building
    the solver and its model for the board (``compare.run_solver``), *solve* the puzzle's own call."""
    columns = [Column("solver"), Column("status"), Column("set-up", "right", least=7),
               Column("solve", "right", least=7), Column("effort", wrap=True, drop=1),
               Column("valid", wrap=True, short=_before_colon),
               Column("agrees", wrap=True, short=_before_colon)]
    rows, styles = [], []
    for run in comparison.runs:
        valid = {None: "—", True: "yes"}.get(run.valid, f"no: {run.problem}")  # type: ignore[arg-type]
        agrees = {None: "not counted", True: "yes", False: "no"}[run.agrees]
        if run.skipped:
            agrees = f"skipped: {run.skipped}"
        styles.append("red" if run.agrees is False else ("dim" if run.agrees is None else None))
        status = "skipped" if run.skipped else run.result.status.value
        setup = format_seconds(run.setup_seconds) if run.setup_seconds is not None else "-"
        rows.append([run.solver, status, setup, format_seconds(run.result.seconds) if not run.skipped else "-",
                     effort(run.result.stats), valid, agrees])
    print_table(out, columns, rows, title=f"compare on a {comparison.puzzle.shape}", styles=styles, wide=wide)
    out.print(as_text(f"{comparison.agreement.value}: {comparison.reason}", "green" if comparison.agreed else "red"))
