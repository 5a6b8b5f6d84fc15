"""The solver contract: the checks every solver keeps, as plain functions, for the tests and for graders.

``tests/solvers/test_contract.py`` runs these checks on every registered solver, and ``sudokulab
check-solver`` runs the same ones on a student's class: one set of code, so a student's solver is
held to exactly what the built-in ones are. Each check raises ``ContractFailure`` with the reason in
words, or returns, and tests only what the solver declares in its ``capabilities``. The checks keep
the puzzles they ask about (the BOJ sample, random puzzles of six box shapes, puzzles without a
solution, variant rule sets) and the suite that runs them in order, so a check and its puzzle cannot
drift apart. The checks and their puzzles: docs/grading.md.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from ..core.grid import Grid, Shape
from ..core.puzzle import Puzzle, first_conflict, is_solution, solution_error
from ..errors import UnsupportedFeature
from ..formats.boj import format_grid, parse_puzzle
from ..solvers.base import Solver, Status

BOJ_SAMPLE = parse_puzzle("""0 3 5 4 6 9 2 7 8
7 8 2 1 0 5 6 0 9
0 6 0 2 7 8 1 3 5
3 2 1 0 4 6 8 9 7
8 0 4 9 1 3 5 0 6
5 9 6 8 2 0 4 1 3
9 1 7 6 5 2 0 8 0
6 0 3 7 0 1 9 5 2
2 5 8 3 9 4 7 6 0
""")
"""The sample input of BOJ 2580 (``examples/boj2580-sample.txt``)."""

BOJ_SAMPLE_ANSWER = """1 3 5 4 6 9 2 7 8
7 8 2 1 3 5 6 4 9
4 6 9 2 7 8 1 3 5
3 2 1 5 4 6 8 9 7
8 7 4 9 1 3 5 2 6
5 9 6 8 2 7 4 1 3
9 1 7 6 5 2 3 8 4
6 4 3 7 8 1 9 5 2
2 5 8 3 9 4 7 6 1
"""
"""The published answer of BOJ 2580's sample (the sample has one solution), ``examples/boj2580-sample.out``."""

CLASSIC = parse_puzzle("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
"""A well-known puzzle with one solution and 30 givens (the Wikipedia "Sudoku" article's example)."""

CORNER = Puzzle.from_rows([[1, 2, 0, 0], [0, 0, 3, 0], [0, 0, 4, 0], [0, 0, 0, 0]])
"""A 4x4 whose givens break no rule but which has no solution (r1c3 and r1c4 need 3 or 4, both taken)."""

BROKEN = Puzzle(Shape(3, 3), (1,) + (0,) * 6 + (1,) + (0,) * 73)
"""Givens that break a rule at once: row 1 holds 1 twice."""

OTHER_SIZES = ((Shape(2, 2), 0.3, 1), (Shape(2, 3), 0.4, 2), (Shape(3, 2), 0.4, 3), (Shape(3, 3), 0.45, 4),
               (Shape(3, 4), 0.6, 5), (Shape(4, 4), 0.65, 6))
"""(shape, share of givens, seed) of the random puzzles of other board sizes."""

CANONICAL_SHAPES = (Shape(2, 2), Shape(2, 3), Shape(3, 3))


class ContractFailure(AssertionError):
    """A solver broke the contract; the message says how, in words."""


def expect(condition: object, reason: str) -> None:
    """Fail the check with ``reason`` unless ``condition`` holds."""
    if not condition:
        raise ContractFailure(reason)


# --- Random puzzles (the tests' conftest uses the same ones). ----------------------------------------

def random_grid(shape: Shape, rng: random.Random) -> tuple[int, ...]:
    """A valid complete grid: the pattern grid under random relabelling and row/column moves."""
    br, bc, n = shape.box_rows, shape.box_cols, shape.n

    def pattern(r: int, c: int) -> int:
        return (bc * (r % br) + r // br + c) % n

    def shuffled_lines(bands: int, per_band: int) -> list[int]:
        order = rng.sample(range(bands), bands)
        return [band * per_band + i for band in order for i in rng.sample(range(per_band), per_band)]

    rows = shuffled_lines(bc, br)  # n // br = bc bands of br rows
    cols = shuffled_lines(br, bc)  # n // bc = br stacks of bc columns
    labels = rng.sample(range(1, n + 1), n)
    return tuple(labels[pattern(r, c)] for r in rows for c in cols)


def cut(grid: tuple[int, ...], shape: Shape, clues: int, rng: random.Random) -> Puzzle:
    """Keep ``clues`` random cells of a grid (solutions: at least the grid itself)."""
    keep = set(rng.sample(range(len(grid)), clues))
    return Puzzle(shape, tuple(v if i in keep else 0 for i, v in enumerate(grid)))


def random_puzzle(n_or_shape: int | Shape, fraction: float, seed: int) -> tuple[Puzzle, tuple[int, ...]]:
    """A puzzle keeping ``fraction`` of a random grid's cells, and that grid."""
    shape = n_or_shape if isinstance(n_or_shape, Shape) else Shape.of_size(n_or_shape)
    rng = random.Random(seed)
    grid = random_grid(shape, rng)
    return cut(grid, shape, round(fraction * shape.cells), rng), grid


def unsolvable_without_a_broken_rule(puzzle: Puzzle, answer: Grid) -> Puzzle:
    """The unique-solution puzzle with one blank given a wrong digit that breaks no rule yet."""
    for cell, value in enumerate(puzzle.givens):
        if value:
            continue
        for digit in range(1, puzzle.n + 1):
            if digit != answer[cell]:
                givens = list(puzzle.givens)
                givens[cell] = digit
                if first_conflict(tuple(givens), puzzle.shape) is None:
                    return Puzzle(puzzle.shape, tuple(givens))
    raise ValueError("every wrong digit breaks a rule at once")


# --- The checks. ---------------------------------------------------------------------------------------

def _solved(solver: Solver, puzzle: Puzzle, what: str, **kwargs) -> Grid:
    result = solver.solve(puzzle, **kwargs)
    expect(result.status is Status.SOLVED, f"{what}: status '{result.status.value}', expected solved")
    error = solution_error(result.grid, puzzle)
    expect(error is None, f"{what}: the answer is wrong: {error}")
    return result.grid


def check_protocol(solver: Solver) -> None:
    """The members of the Solver protocol: name, paradigm, capabilities, options, solve, count, close."""
    missing = [m for m in ("name", "paradigm", "capabilities", "options", "solve", "count", "close", "__enter__",
                           "__exit__") if not hasattr(solver, m)]
    expect(not missing, f"the class lacks {', '.join(missing)} of the Solver protocol")
    expect(isinstance(solver, Solver), "the instance is not a solvers.Solver")


def check_boj_sample(solver: Solver) -> None:
    """The BOJ sample gives its published answer, with the result's fields filled in."""
    result = solver.solve(BOJ_SAMPLE)
    expect(result.status is Status.SOLVED, f"the BOJ sample: status '{result.status.value}', expected solved")
    expect(result.solver == solver.name, f"the result names solver '{result.solver}', not '{solver.name}'")
    error = solution_error(result.grid, BOJ_SAMPLE)
    expect(error is None, f"the BOJ sample: the answer is wrong: {error}")
    expect(format_grid(result.grid) == BOJ_SAMPLE_ANSWER, "the BOJ sample: not the published answer")
    expect(result.seconds >= 0, f"negative seconds: {result.seconds}")
    expect(isinstance(dict(result.stats), dict), "stats is not a mapping")


def check_other_board_size(solver: Solver, shape: Shape, fraction: float, seed: int) -> None:
    """A random puzzle of another box shape, solved by the rules."""
    puzzle, _ = random_puzzle(shape, fraction, seed)
    _solved(solver, puzzle, f"a random {shape.n}x{shape.n} puzzle ({shape.box_rows}x{shape.box_cols} boxes, "
            f"seed {seed})", time_limit=60)


def check_other_board_sizes(solver: Solver) -> None:
    """Random puzzles of six box shapes (4x4 to 16x16, 2x3 and 3x2 boxes among them), solved by the rules."""
    for shape, fraction, seed in OTHER_SIZES:
        check_other_board_size(solver, shape, fraction, seed)


def check_one_instance_many_shapes(solver: Solver) -> None:
    """One instance serves 4x4, 9x9, 6x6 and 4x4 again, then the sample."""
    for n in (4, 9, 6, 4):
        puzzle, _ = random_puzzle(n, 0.5, n)
        _solved(solver, puzzle, f"a {n}x{n} puzzle after other sizes on the same instance")
    _solved(solver, BOJ_SAMPLE, "the BOJ sample after other sizes on the same instance")


INCOMPLETE_LIMIT = 1.0
"""Seconds an incomplete solver (``Capabilities.complete`` False) gets on a puzzle with no solution."""


def check_no_solution(solver: Solver, baseline: Solver) -> None:
    """Puzzles whose givens break no rule but have no completion: 'no solution', no grid.

    An incomplete solver cannot prove that: it gets a short time limit and must answer "no solution"
    (where it proved it) or "time limit reached", never a grid."""
    complete = solver.capabilities.complete
    asked = {} if complete else {"time_limit": INCOMPLETE_LIMIT}
    expected = "expected no solution" if complete else "expected no solution or time limit reached"
    allowed = (Status.NO_SOLUTION,) if complete else (Status.NO_SOLUTION, Status.TIME_LIMIT)
    expect(first_conflict(CORNER.givens, CORNER.shape) is None, "the corner puzzle must break no rule")
    result = solver.solve(CORNER, **asked)
    expect(result.status in allowed and result.grid is None,
           f"a 4x4 with no solution (r1c3, r1c4 have no digit left): status '{result.status.value}'"
           + (", and a grid" if result.grid is not None else "") + f", {expected}")
    expect(baseline.count(CLASSIC, limit=2).count == 1, "the classic puzzle must have one solution")
    hidden = unsolvable_without_a_broken_rule(CLASSIC, baseline.solve(CLASSIC).grid)
    result = solver.solve(hidden, **asked)
    expect(result.status in allowed and result.grid is None,
           f"the classic 9x9 with one wrong digit (no solution, none visible): status '{result.status.value}'"
           + (", and a grid" if result.grid is not None else "") + f", {expected} and no grid")


def check_givens_that_break_a_rule(solver: Solver) -> None:
    """Givens that break a rule (row 1 holds 1 twice): no solution, and a count of 0."""
    status = solver.solve(BROKEN).status
    expect(status is Status.NO_SOLUTION, f"givens with 1 twice in row 1: status '{status.value}', expected no solution")
    if solver.capabilities.count:
        counted = solver.count(BROKEN, limit=5).count
        expect(counted == 0, f"givens with 1 twice in row 1: counted {counted} solutions, expected 0")


TIME_LIMITS = (0.3, 1.0, 3.0)
"""The limits ``check_time_limit`` tries in turn, until one leaves time to find a first grid."""


def check_time_limit(solver: Solver) -> None:
    """Counting the empty 9x9 under a time limit stops with the time-limit status and a partial count.

    The limit is 0.3 s, then 1 s, then 3 s while no grid was found before it: what is checked is
    what a limit does to a count (it stops, the count is kept), not how fast the first grid comes,
    which on a busy machine can take a solver with a per-call start-up more than 0.3 s."""
    for limit in TIME_LIMITS:
        result = solver.count(Puzzle.empty(9), limit=10**9, time_limit=limit)
        expect(result.status is Status.TIME_LIMIT, f"counting the empty 9x9 for {limit:g} s: status "
               f"'{result.status.value}', expected time limit reached")
        if result.count:
            break
    expect(0 < result.count < 10**9 and not result.exact,
           f"counting the empty 9x9 for {limit:g} s: count {result.count}, expected a partial count above 0")


def check_tiny_time_limit(solver: Solver) -> None:
    """A time limit of a microsecond: solved right or time limit reached, never a wrong answer."""
    result = solver.solve(BOJ_SAMPLE, time_limit=1e-6)
    expect(result.status in (Status.SOLVED, Status.TIME_LIMIT),
           f"the BOJ sample with a 1 µs limit: status '{result.status.value}'")
    expect(result.status is Status.TIME_LIMIT or is_solution(result.grid, BOJ_SAMPLE),
           "the BOJ sample with a 1 µs limit: a wrong answer")


def check_canonical_empty_board(solver: Solver, baseline: Solver, shape: Shape) -> None:
    """The canonical answer on an empty board is the baseline's (row-major smallest)."""
    empty = Puzzle.empty(shape)
    expected = baseline.solve(empty).grid
    grid = solver.solve(empty, canonical=True).grid
    expect(grid == expected, f"canonical answer on the empty {shape.n}x{shape.n}: not the row-major smallest "
           f"solution (the first difference at {_first_difference(grid, expected, shape.n)})")
    expect(is_solution(grid, empty), f"canonical answer on the empty {shape.n}x{shape.n}: not a solution")


def check_canonical_empty_boards(solver: Solver, baseline: Solver) -> None:
    """The canonical answer on the empty 4x4, 6x6 and 9x9 is the row-major smallest solution."""
    for shape in CANONICAL_SHAPES:
        check_canonical_empty_board(solver, baseline, shape)


def _first_difference(grid: Grid | None, expected: Grid, n: int) -> str:
    from ..core.cells import cell_label

    if grid is None:
        return "no grid"
    cell = next((i for i, (a, b) in enumerate(zip(grid, expected)) if a != b), 0)
    return f"{cell_label(cell, n)}: {grid[cell] if cell < len(grid) else '-'} instead of {expected[cell]}"


def check_counting(solver: Solver, baseline: Solver) -> None:
    """288 solutions of the empty 4x4; the sample's one, exactly; a cap of 7 on the empty 9x9."""
    if "count" in solver.capabilities.slow:  # a run per solution: count a 4x4 with few solutions instead
        few = Puzzle.from_rows([[1, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4]])
        expected = baseline.count(few, limit=1000).count
        got = solver.count(few, limit=1000).count
        expect(2 <= expected <= 12 and got == expected, f"a 4x4 with {expected} solutions: counted {got}")
    else:
        got = solver.count(Puzzle.empty(4), limit=1000).count
        expect(got == 288, f"the empty 4x4: counted {got} solutions, expected 288")
    exact = solver.count(BOJ_SAMPLE, limit=10)
    expect(exact.count == 1 and exact.exact, f"the BOJ sample: counted {exact.count} (exact: {exact.exact}), "
           "expected exactly 1")
    capped = solver.count(Puzzle.empty(9), limit=7)
    expect(capped.count == 7 and not capped.exact, f"the empty 9x9 up to 7: counted {capped.count} "
           f"(exact: {capped.exact}), expected 7 and not exact")


def check_random_puzzle(solver: Solver, baseline: Solver, shape: Shape, fraction: float, seed: int) -> None:
    """A random puzzle solved; where the solver gives canonical answers, the baseline's answer."""
    puzzle, _ = random_puzzle(shape, fraction, seed)
    what = f"a random {shape.n}x{shape.n} puzzle (seed {seed}, {fraction:.0%} givens)"
    _solved(solver, puzzle, what, time_limit=30)
    reference = baseline.solve(puzzle, time_limit=30)
    if reference.status is Status.SOLVED and solver.capabilities.canonical:
        grid = solver.solve(puzzle, canonical=True, time_limit=30).grid
        expect(grid == reference.grid, f"{what}: the canonical answer is not the row-major smallest solution "
               f"(the first difference at {_first_difference(grid, reference.grid, shape.n)})")


RANDOM_CASES = tuple((shape, fraction, seed) for seed, (shape, fraction) in enumerate(
    [(Shape(2, 2), 0.0), (Shape(2, 2), 0.5), (Shape(2, 3), 0.2), (Shape(2, 3), 0.7), (Shape(3, 3), 0.4),
     (Shape(3, 3), 0.6), (Shape(3, 3), 0.85)], start=2580))
"""The random puzzles ``check-solver`` asks (the test draws its own with hypothesis)."""


def check_random_puzzles(solver: Solver, baseline: Solver) -> None:
    """Seven random puzzles (4x4 to 9x9, 0-85% givens) solved; canonical answers the baseline's."""
    for shape, fraction, seed in RANDOM_CASES:
        check_random_puzzle(solver, baseline, shape, fraction, seed)


def check_refused(solver: Solver, puzzle: Puzzle) -> None:
    """A puzzle using a kind the solver does not declare: refused before any work, naming itself and the
    kind (solve, canonical solve, solve with no time, count; and when the givens already clash). The
    kind is checked first, so even a call the solver would refuse anyway (a count from a solver that
    cannot count) names it."""
    from ..solvers import require

    missing = solver.capabilities.unsupported(puzzle.rules)
    expect(missing is not None, "the rules use only kinds the solver declares")
    calls: dict[str, Callable[[], object]] = {
        "solve": lambda: solver.solve(puzzle),
        "canonical solve": lambda: solver.solve(puzzle, canonical=True),
        **({"solve with no time to start": lambda: solver.solve(puzzle, time_limit=1e-9)}
           if solver.capabilities.time_limit else {}),
        "count": lambda: solver.count(puzzle, limit=5),
    }
    for what, call in calls.items():
        message = _refusal(call)
        expect(message is not None, f"{what} of a puzzle with {missing}: not refused with UnsupportedFeature")
        expect(f"'{solver.name}'" in message and missing in message and "\n" not in message,
               f"{what}: the refusal '{message}' must name the solver '{solver.name}' and '{missing}' on one line")
    message = _refusal(lambda: require(solver, rules=puzzle.rules))
    expect(message is not None and missing.split(" (")[0] in message, "solvers.require does not refuse it")
    clash, row = list(puzzle.givens), puzzle.rules.groups[0].cells
    clash[row[0]] = clash[row[1]] = 1
    expect(_refusal(lambda: solver.solve(Puzzle(puzzle.shape, tuple(clash), puzzle.rules))) is not None,
           f"givens that clash under {missing}: answered instead of refused")


def _refusal(call: Callable[[], object]) -> str | None:
    try:
        call()
    except UnsupportedFeature as refusal:
        return str(refusal)
    return None


def variant_puzzles(baseline: Solver) -> list[tuple[str, Puzzle]]:
    """Small variant puzzles, one per kind: X (all-different on diagonals), anti-knight (differ), a
    killer cage pair (sum) and a thermometer (increasing), on 4x4 and 6x6 boards; cages and
    thermometers read from a solution, so each is solvable."""
    from ..core.rules import build

    shape = Shape(2, 3)
    grid = baseline.solve(Puzzle.empty(shape)).grid
    n = shape.n
    cages = [([0, 1], grid[0] + grid[1]), ([n + 2, 2 * n + 2], grid[n + 2] + grid[2 * n + 2])]
    thermos = [sorted(pair, key=lambda cell: grid[cell]) for pair in ((3 * n, 3 * n + 1), (5 * n + 4, 5 * n + 5))]
    return [
        ("x 4x4", Puzzle.empty(Shape(2, 2)).with_rules(build(Shape(2, 2), ["x"]))),
        ("anti-knight 6x6", Puzzle.empty(shape).with_rules(build(shape, ["anti-knight"]))),
        ("killer 6x6", Puzzle.empty(shape).with_rules(build(shape, cages=cages))),
        ("thermo 6x6", Puzzle.empty(shape).with_rules(build(shape, thermos=thermos))),
    ]


def check_variant_rules(solver: Solver, baseline: Solver) -> None:
    """Each variant kind: solved under its rules when declared, refused before any work when not."""
    for what, puzzle in variant_puzzles(baseline):
        if solver.capabilities.unsupported(puzzle.rules) is None:
            _solved(solver, puzzle, f"the empty {what}", **({"time_limit": 120} if solver.capabilities.time_limit
                                                             else {}))
        else:
            check_refused(solver, puzzle)


# --- The suite, as check-solver runs it. ---------------------------------------------------------------

@dataclass(frozen=True)
class Check:
    """One check of the contract: its name (the test's), the capabilities it needs, what it asks."""

    name: str
    needs: tuple[str, ...]
    run: Callable[[Solver, Solver], None]

    @property
    def summary(self) -> str:
        doc = getattr(self.run, "__doc__", None) or ""
        return doc.strip().splitlines()[0] if doc.strip() else self.name


def _alone(check: Callable[[Solver], None]) -> Callable[[Solver, Solver], None]:
    def run(solver: Solver, baseline: Solver) -> None:
        check(solver)

    run.__doc__ = check.__doc__
    return run


CHECKS: tuple[Check, ...] = (
    Check("protocol", (), _alone(check_protocol)),
    Check("boj_sample", (), _alone(check_boj_sample)),
    Check("other_board_sizes", (), _alone(check_other_board_sizes)),
    Check("one_instance_many_shapes", (), _alone(check_one_instance_many_shapes)),
    Check("no_solution", (), check_no_solution),
    Check("givens_that_break_a_rule", (), _alone(check_givens_that_break_a_rule)),
    Check("time_limit", ("time_limit", "count"), _alone(check_time_limit)),
    Check("tiny_time_limit", ("time_limit",), _alone(check_tiny_time_limit)),
    Check("canonical_empty_boards", ("canonical",), check_canonical_empty_boards),
    Check("counting", ("count",), check_counting),
    Check("random_puzzles", (), check_random_puzzles),
    Check("variant_rules", (), check_variant_rules),
)
"""Every check, in the order ``check-solver`` runs them (the contract tests' order)."""

CHECK_NAMES = tuple(check.name for check in CHECKS)


def lacks(solver: Solver, needs: tuple[str, ...]) -> str | None:
    """Why a check does not apply: the first capability it needs that the solver does not declare."""
    for capability in needs:
        if not getattr(solver.capabilities, capability):
            return f"declares no {capability.replace('_', ' ')} capability"
    return None


@dataclass(frozen=True)
class Outcome:
    """What one check found: passed, failed (with the reason) or skipped (with why)."""

    check: str
    status: str
    reason: str = ""
    summary: str = ""


def run(solver: Solver, baseline: Solver | None = None,
        starting: Callable[[str], None] | None = None) -> list[Outcome]:
    """Every check on one solver; an exception other than a refusal asked for is a failure too, and so
    is a call that failed the student's process (``StudentFailure``: it ended, hung, broke the channel,
    or passed the check's time limit). ``starting`` hears each check's name before it runs."""
    from .. import solvers
    from .student_process import StudentFailure

    baseline = baseline or solvers.get("backtrack")
    outcomes = []
    for check in CHECKS:
        why = lacks(solver, check.needs)
        if why:
            outcomes.append(Outcome(check.name, "skipped", why, check.summary))
            continue
        if starting is not None:
            starting(check.name)
        try:
            check.run(solver, baseline)
        except (ContractFailure, StudentFailure) as failure:
            outcomes.append(Outcome(check.name, "failed", str(failure), check.summary))
        except Exception as exc:  # noqa: BLE001 - a student's solver may raise anything: reported, not raised
            outcomes.append(Outcome(check.name, "failed", f"raised {type(exc).__name__}: {exc}", check.summary))
        else:
            outcomes.append(Outcome(check.name, "passed", "", check.summary))
    return outcomes


def failed_everywhere(reason: str) -> list[Outcome]:
    """Every check failed for one reason: the student's class could not be loaded in its process."""
    return [Outcome(check.name, "failed", reason, check.summary) for check in CHECKS]
