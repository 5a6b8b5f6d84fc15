"""The rules contract: every registered solver x every preset, on 16x16, 9x9, 6x6 and 4x4 boards.

For each solver and each rule set, exactly one of two things happens, and which one is decided by
the solver's capabilities alone (the kinds it honours, natively or through the lowering):

- the rules use only kinds it declares: it solves, its answer passes ``is_solution`` (the
  independent checker, which reads the rules), its canonical answer is the row-major smallest
  solution (so canonical answers agree across solvers), and its count is the true count;
- they use a kind it does not declare: it refuses with ``UnsupportedFeature`` before any work (even
  with a time limit too short to start, even when the givens already clash), naming itself and the
  missing kind as ``rules.unsupported`` words it.

The truth every answer is measured against is a small reference search written here from
``Rules.peers`` and the cage and thermometer definitions, independent of every solver. Counts on
small boards are cross-checked between at least three paradigms; a hypothesis test draws random
rule sets (presets, grown or permuted jigsaw regions, cages and thermometers read from a random
solution, or unsatisfiable ones) on 4x4 and 6x6 boards where every supporting solver must agree on
the count. The published puzzles of ``fixtures/variants`` (each file says where it comes from) are
solved by every supporting solver and compared with their published solutions.
"""

from __future__ import annotations

import json
import random
import sys
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sudokulab import Puzzle, Shape, Status, UnsupportedFeature, is_solution, solution_error, solvers
from sudokulab.core.rules import Cage, Rules, Thermo, build
from sudokulab.grading import contract

from ..conftest import FIXTURES

VARIANTS = sorted((FIXTURES / "variants").glob("*.json"))
FAKE_SAT = FIXTURES / "programs" / "fake_sat.py"
NAMES = solvers.names()
CONFIGURED = [(name, {}) for name in NAMES if name != "dimacs"] + [
    ("dimacs", {"command": f"{sys.executable} {FAKE_SAT} sat"}),  # the protocol, everywhere
    ("dimacs", {}),  # a real SAT program, where one is installed
]
PRESETS = ("x", "windoku", "anti-knight", "anti-king", "jigsaw", "killer", "thermo")
SIZES = {"16x16": Shape(4, 4), "9x9": Shape(3, 3), "6x6": Shape(2, 3), "4x4": Shape(2, 2)}
LIMIT = 60
"""Counts are compared up to this many solutions (the reference enumerates one more)."""


def configured_id(config: tuple[str, dict]) -> str:
    name, options = config
    return f"{name}-{'fixture' if options else 'default'}" if name == "dimacs" else name


@pytest.fixture(scope="module", params=CONFIGURED, ids=configured_id)
def solver(request):
    name, options = request.param
    why = solvers.unavailable(name) if not options else None
    if why:
        pytest.skip(f"{name}: {why}")
    with solvers.get(name, **options) as instance:
        yield instance


@pytest.fixture(scope="module")
def every_solver():
    """One instance of every solver that runs here (dimacs with the fixture program), by name."""
    found = {}
    for name, options in CONFIGURED:
        if name in found or (not options and solvers.unavailable(name)):
            continue
        found[name] = solvers.get(name, **options)
    yield found
    for instance in found.values():
        instance.close()


# --- The reference: a plain search over the rules, independent of every solver. --------------------

def _fits(rules: Rules, grid: list[int], cell: int, digit: int, extra: list[list]) -> bool:
    """Whether ``digit`` in ``cell`` leaves every cage and thermometer through the cell completable, and
    breaks no constraint of another kind through it (by that constraint's own ``broken``)."""
    n = rules.n
    for constraint in extra[cell]:
        if not isinstance(constraint, (Cage, Thermo)):
            grid[cell] = digit
            broken = constraint.broken(grid, n)
            grid[cell] = 0
            if broken is not None:
                return False
        elif isinstance(constraint, Cage):
            placed = [grid[c] for c in constraint.cells if grid[c]]
            k = len(constraint.cells) - len(placed) - 1  # blanks left after this one
            rest = constraint.total - sum(placed) - digit
            if not k * (k + 1) // 2 <= rest <= k * (2 * n - k + 1) // 2:
                return False
        else:  # a thermometer: strictly increasing along its cells
            cells = constraint.cells
            i = cells.index(cell)
            if not i + 1 <= digit <= n - (len(cells) - 1 - i):
                return False
            for j, other in enumerate(cells):
                if j != i and grid[other] and (grid[other] - digit) * (1 if j > i else -1) < abs(j - i):
                    return False
    return True


class OutOfNodes(Exception):
    """``reference_solutions`` went past its node budget."""


def reference_solutions(puzzle: Puzzle, limit: int, rng: random.Random | None = None,
                        most_nodes: int | None = None) -> list[tuple[int, ...]]:
    """Up to ``limit`` solutions of the puzzle under its rules, by a fewest-candidates search.

    Peers come from ``Rules.peers`` (groups and differing pairs); cages and thermometers are checked
    as digits go in, and constraints of other kinds (``Rules.constraints``) by their own ``broken``.
    Every grid returned passes ``Rules.first_conflict``. ``rng`` shuffles the digit order (a random
    solution); without it the search is deterministic. Past ``most_nodes``
    digits tried it raises ``OutOfNodes``: an empty 6x6 board under rules that leave it no solution
    can keep this plain search busy for minutes (one random rule set did, in one run of the suite).
    """
    nodes = 0
    rules = puzzle.rules
    extra: list[list] = [[] for _ in range(rules.shape.cells)]
    for constraint in (*rules.cages, *rules.thermos, *rules.constraints):
        for cell in constraint.cells:
            extra[cell].append(constraint)
    grid = list(puzzle.givens)
    if rules.first_conflict(grid) is not None:
        return []
    found: list[tuple[int, ...]] = []

    def candidates(cell: int) -> list[int]:
        used = {grid[peer] for peer in rules.peers[cell]}
        return [d for d in range(1, rules.n + 1) if d not in used and _fits(rules, grid, cell, d, extra)]

    def search() -> bool:
        best: tuple[int, list[int]] | None = None
        for cell, value in enumerate(grid):
            if not value:
                options = candidates(cell)
                if not options:
                    return False
                if best is None or len(options) < len(best[1]):
                    best = (cell, options)
                    if len(options) == 1:
                        break
        if best is None:
            assert rules.first_conflict(grid) is None
            found.append(tuple(grid))
            return len(found) >= limit
        cell, options = best
        if rng is not None:
            rng.shuffle(options)
        nonlocal nodes
        for digit in options:
            nodes += 1
            if most_nodes is not None and nodes > most_nodes:
                raise OutOfNodes
            grid[cell] = digit
            if search():
                return True
        grid[cell] = 0
        return False

    search()
    return found


# --- Random rule sets and the puzzles of the contract. -----------------------------------------------

def _neighbours(cell: int, n: int, diagonal: bool = False) -> list[int]:
    row, col = divmod(cell, n)
    steps = [(-1, 0), (1, 0), (0, -1), (0, 1)] + ([(-1, -1), (-1, 1), (1, -1), (1, 1)] if diagonal else [])
    return [(row + dr) * n + col + dc for dr, dc in steps if 0 <= row + dr < n and 0 <= col + dc < n]


def grown_regions(shape: Shape, rng: random.Random) -> list[int]:
    """Jigsaw labels: n connected regions of n cells grown from random seeds (boxes permuted if stuck)."""
    n = shape.n
    for _ in range(200):
        labels = [-1] * shape.cells
        regions = [[cell] for cell in rng.sample(range(shape.cells), n)]
        for label, (cell,) in enumerate(regions):
            labels[cell] = label
        stuck = False
        while not stuck and any(len(r) < n for r in regions):
            for label, region in enumerate(regions):
                if len(region) == n:
                    continue
                frontier = sorted({nb for c in region for nb in _neighbours(c, n) if labels[nb] < 0})
                if not frontier:
                    stuck = True
                    break
                cell = rng.choice(frontier)
                labels[cell] = label
                region.append(cell)
        if not stuck:
            return labels
    return permuted_regions(shape, rng)


def permuted_regions(shape: Shape, rng: random.Random) -> list[int]:
    """Jigsaw labels: the boxes with the rows and the columns of the label grid shuffled."""
    n = shape.n
    rows, cols = rng.sample(range(n), n), rng.sample(range(n), n)
    return [shape.box_of(rows[r], cols[c]) for r in range(n) for c in range(n)]


def random_cages(grid: tuple[int, ...], shape: Shape, rng: random.Random, count: int, longest: int,
                 distinct: bool = True) -> list[tuple[list[int], int]]:
    """Up to ``count`` disjoint connected cages of 2..longest cells, each total read from ``grid``.

    With ``distinct`` a cage only takes cells whose digits differ in ``grid`` (so the grid keeps
    every cage); without, it may not (and the rules may have no solution).
    """
    n, taken, cages = shape.n, set(), []
    for _ in range(count * 10):
        if len(cages) == count:
            break
        start = rng.randrange(shape.cells)
        if start in taken:
            continue
        cells, size = [start], rng.randint(2, longest)
        while len(cells) < size:
            digits = {grid[c] for c in cells}
            options = [nb for c in cells for nb in _neighbours(c, n)
                       if nb not in taken and nb not in cells and (not distinct or grid[nb] not in digits)]
            if not options:
                break
            cells.append(rng.choice(options))
        if len(cells) < 2:
            continue
        k = len(cells)
        total = min(max(sum(grid[c] for c in cells), k * (k + 1) // 2), k * (2 * n - k + 1) // 2)
        taken.update(cells)
        cages.append((cells, total))
    return cages


def random_thermos(grid: tuple[int, ...], shape: Shape, rng: random.Random, count: int, longest: int,
                   increasing: bool = True) -> list[list[int]]:
    """``count`` thermometers of 2..longest neighbouring cells; with ``increasing`` each goes up in ``grid``."""
    n, thermos = shape.n, []
    for _ in range(count * 10):
        if len(thermos) == count:
            break
        cells, size = [rng.randrange(shape.cells)], rng.randint(2, longest)
        while len(cells) < size:
            options = [nb for nb in _neighbours(cells[-1], n, diagonal=True)
                       if nb not in cells and (not increasing or grid[nb] > grid[cells[-1]])]
            if not options:
                break
            cells.append(rng.choice(options))
        if len(cells) >= 2:
            thermos.append(cells)
    return thermos


@cache
def janko() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The regions and the solution of the published 9x9 jigsaw (a random search for one is slow)."""
    data = json.loads((FIXTURES / "variants" / "jigsaw_janko_108.json").read_text())
    return (tuple(int(ch, 36) for line in data["regions"] for ch in line),
            tuple(int(ch, 36) for line in data["solution"] for ch in line))


def relabelled_solution(puzzle: Puzzle, rng: random.Random) -> list[tuple[int, ...]]:
    """A 16x16 solution of the empty board under rules whose groups and pairs ignore digit names: SAT's
    answer with its digits relabelled at random (the plain reference search on an empty 16x16 windoku
    ran past ten minutes). Only the full grid comes from a solver; the puzzle's truth is the reference's."""
    with solvers.get("sat") as sat:
        result = sat.solve(puzzle)
    if result.grid is None:
        return []
    names = list(range(1, puzzle.n + 1))
    rng.shuffle(names)
    return [tuple(names[digit - 1] for digit in result.grid)]


@cache
def contract_case(preset: str, size: str) -> tuple[Puzzle, tuple[tuple[int, ...], ...]]:
    """A puzzle of one preset on one board size, and its reference solutions (up to LIMIT + 1).

    The givens are part of a random solution of the rules (cages and thermometers are read from a
    random Sudoku solution, so they hold), so every case is solvable except where the rules
    themselves are not (anti-king on 4x4 has no solution at all: every solver must agree).
    """
    shape = SIZES[size]
    rng = random.Random(f"{preset} {size}")
    grid = reference_solutions(Puzzle.empty(shape), 1, rng)[0]
    solution: tuple[int, ...] | None = grid  # cages and thermometers read from it hold in it
    if preset == "jigsaw" and shape.n == 9:
        labels, solution = janko()
        rules = build(shape, regions=labels)
    elif preset == "killer":
        rules = build(shape, cages=random_cages(grid, shape, rng, count=shape.n + 1, longest=4 if shape.n >= 9 else 3))
    elif preset == "thermo":
        rules = build(shape, thermos=random_thermos(grid, shape, rng, count=3, longest=5 if shape.n >= 9 else 3))
    else:
        regions = grown_regions if shape.n < 16 else permuted_regions  # a grown 16x16 jigsaw may take minutes
        rules = build(shape, regions=regions(shape, rng)) if preset == "jigsaw" else build(shape, [preset])
        found = (reference_solutions(Puzzle.empty(shape).with_rules(rules), 1, rng) if shape.n < 16
                 else relabelled_solution(Puzzle.empty(shape).with_rules(rules), rng))
        solution = found[0] if found else (0,) * shape.cells
    assert solution_error(solution, Puzzle(shape, (0,) * shape.cells, rules)) is None or not any(solution)
    fraction = {16: 0.55, 9: 0.4, 6: 0.25, 4: 0.15}[shape.n]
    keep = set(rng.sample(range(shape.cells), round(fraction * shape.cells)))
    puzzle = Puzzle(shape, tuple(v if i in keep else 0 for i, v in enumerate(solution)), rules)
    return puzzle, tuple(reference_solutions(puzzle, LIMIT + 1))


CASES = [(preset, size) for preset in PRESETS for size in SIZES]


def limited(solver) -> dict:
    """A generous time limit for solvers that honour one (a guard against hangs, never a bound)."""
    return {"time_limit": 120} if solver.capabilities.time_limit else {}


def unproved(solver, puzzle: Puzzle) -> bool:
    """For a puzzle with no solution: True when the solver is incomplete (local search), which cannot
    prove that; it is then asked under the contract's short limit and must answer 'no solution' or
    'time limit reached', never a grid (``contract.check_no_solution`` holds it to the same)."""
    if solver.capabilities.complete:
        return False
    result = solver.solve(puzzle, time_limit=contract.INCOMPLETE_LIMIT)
    assert result.status in (Status.NO_SOLUTION, Status.TIME_LIMIT) and result.grid is None, result
    return True


def declares(solver, rules: Rules) -> bool:
    """What the capabilities predict: True when the solver declares every kind the rules use and refuses
    none of their constraints (``capabilities.unsupported``: dlx refuses a cage that is not pairwise)."""
    return solver.capabilities.unsupported(rules) is None


def assert_refused(solver, puzzle: Puzzle) -> None:
    """A refusal before any work, naming the solver and the kind its capabilities lack: the contract's
    check (``sudokulab.grading.contract.check_refused``, which check-solver runs too)."""
    contract.check_refused(solver, puzzle)


# --- 1. Every solver x every preset x every board size. ---------------------------------------------

@pytest.mark.parametrize("preset, size", CASES, ids=[f"{p}-{s}" for p, s in CASES])
def test_solves_or_refuses_as_its_capabilities_say(solver, preset, size):
    puzzle, truth = contract_case(preset, size)
    assert puzzle.rules.kinds <= {"all-different", "differ", "sum", "increasing"}
    solves_or_refuses(solver, puzzle, truth)


def solves_or_refuses(solver, puzzle: Puzzle, truth: tuple[tuple[int, ...], ...]) -> None:
    """The rules contract for one solver and one puzzle whose solutions (up to LIMIT + 1) are ``truth``:
    refused as the capabilities say, or solved, checked, canonical as the smallest solution."""
    if not declares(solver, puzzle.rules):
        assert_refused(solver, puzzle)
        return
    if not truth and unproved(solver, puzzle):
        return
    result = solver.solve(puzzle, **limited(solver))
    if not truth:
        assert result.status is Status.NO_SOLUTION and result.grid is None
        return
    assert result.status is Status.SOLVED, result
    assert is_solution(result.grid, puzzle), solution_error(result.grid, puzzle)
    assert result.grid in truth or len(truth) > LIMIT
    slow = "canonical" in solver.capabilities.slow
    if solver.capabilities.canonical and len(truth) <= LIMIT and not (slow and puzzle.n > 4):
        # the row-major smallest solution: the same grid from every solver that gives canonical answers
        assert solver.solve(puzzle, canonical=True, **limited(solver)).grid == min(truth)


def test_the_contract_cases_use_every_kind_and_are_what_they_claim():
    kinds = set()
    for preset, size in CASES:
        puzzle, truth = contract_case(preset, size)
        kinds |= puzzle.rules.kinds
        assert preset in puzzle.rules.presets
        assert all(solution_error(grid, puzzle) is None for grid in truth)
        assert truth or (preset, size) == ("anti-king", "4x4")
    assert kinds == {"all-different", "differ", "sum", "increasing"}
    # the extra rules matter: each 9x9 case's givens have completions that break them
    for preset in PRESETS:
        puzzle, truth = contract_case(preset, "9x9")
        plain = reference_solutions(Puzzle(puzzle.shape, puzzle.givens), len(truth) + 1)
        assert len(plain) > len(truth) or preset == "jigsaw"


# --- 2. Counts on small boards, cross-checked between paradigms. -----------------------------------

SMALL = [(preset, size) for preset, size in CASES if size not in ("9x9", "16x16")]


@pytest.mark.slow
@pytest.mark.parametrize("preset, size", SMALL, ids=[f"{p}-{s}" for p, s in SMALL])
def test_counts_agree_between_at_least_three_paradigms(every_solver, preset, size):
    puzzle, truth = contract_case(preset, size)
    expected = min(len(truth), LIMIT)
    agreeing = {}
    for name, instance in every_solver.items():
        if not declares(instance, puzzle.rules):
            with pytest.raises(UnsupportedFeature):
                instance.count(puzzle, limit=LIMIT)
            continue
        if not instance.capabilities.count:
            continue
        limit = 3 if "count" in instance.capabilities.slow else LIMIT  # a program run per solution
        counted = instance.count(puzzle, limit=limit, **limited(instance))
        assert counted.status is not Status.TIME_LIMIT, name
        assert counted.count == min(expected, limit), (name, counted.count, expected)
        agreeing.setdefault(instance.paradigm, []).append(name)
    assert len(agreeing) >= 3, f"only {agreeing} count {preset} on {size}"


# --- 3. Random rule sets on 4x4 and 6x6 boards. ----------------------------------------------------

REFERENCE_NODES = 50_000
"""The reference search's budget on random rule sets (about a second in Python)."""


@st.composite
def random_rule_sets(draw):
    shape = draw(st.sampled_from([Shape(2, 2), Shape(2, 3)]), label="shape")
    rng = random.Random(draw(st.integers(0, 2**32), label="seed"))
    presets = draw(st.lists(st.sampled_from(["x", "windoku", "anti-knight", "anti-king"]), max_size=2, unique=True),
                   label="presets")
    regions = None
    if draw(st.booleans(), label="jigsaw"):
        regions = grown_regions(shape, rng) if draw(st.booleans(), label="grown") else permuted_regions(shape, rng)
    base = build(shape, presets, regions=regions)
    try:  # a grid under the presets and regions, to read cages and thermometers from
        found = reference_solutions(Puzzle.empty(shape).with_rules(base), 1, rng, most_nodes=REFERENCE_NODES)
    except OutOfNodes:
        found = []  # none found in time: read them from a plain grid, as when there is none
    grid = found[0] if found else reference_solutions(Puzzle.empty(shape), 1, rng)[0]
    keep_rules = draw(st.booleans(), label="read from a solution")  # False: cages and thermometers may clash
    cages = random_cages(grid, shape, rng, draw(st.integers(0, 3), label="cages"), 3, distinct=keep_rules)
    thermos = random_thermos(grid, shape, rng, draw(st.integers(0, 2), label="thermometers"), 4, increasing=keep_rules)
    rules = build(shape, presets, regions=regions, cages=cages, thermos=thermos)
    fraction = draw(st.floats(0.0, 0.5), label="givens")
    keep = set(rng.sample(range(shape.cells), round(fraction * shape.cells)))
    return Puzzle(shape, tuple(v if i in keep else 0 for i, v in enumerate(grid)), rules)


@pytest.mark.slow
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                   HealthCheck.too_slow])
@given(puzzle=random_rule_sets())
def test_random_rule_sets_every_supporting_solver_agrees_on_the_count(every_solver, puzzle):
    limit = 30
    try:
        expected = len(reference_solutions(puzzle, limit, most_nodes=REFERENCE_NODES))
    except OutOfNodes:
        assume(False)  # no reference count in time: another example
    for name, instance in every_solver.items():
        if not declares(instance, puzzle.rules):
            with pytest.raises(UnsupportedFeature):
                instance.count(puzzle, limit=limit)
            continue
        if instance.capabilities.count and "count" not in instance.capabilities.slow:
            counted = instance.count(puzzle, limit=limit, **limited(instance))
            assert counted.count == expected, (name, counted.count, expected, puzzle.rules.presets)
        if not expected and unproved(instance, puzzle):
            continue
        result = instance.solve(puzzle, **limited(instance))
        if expected:
            assert result.status is Status.SOLVED and is_solution(result.grid, puzzle), (name, result)
        else:
            assert result.status is Status.NO_SOLUTION, (name, result)


# --- 4. Published variant puzzles and their published solutions. -----------------------------------

def load_variant(path: Path) -> tuple[Puzzle, tuple[int, ...], dict]:
    """A fixture: the puzzle with its rules, the published solution, and the file's data (source...).

    Cells are 1-based [row, column] pairs; givens and solution are rows of digits, "." for a blank;
    regions are rows of one label character per cell.
    """
    data = json.loads(path.read_text())
    shape = Shape(*data["box"])
    n = shape.n

    def cell(pair: list[int]) -> int:
        return (pair[0] - 1) * n + pair[1] - 1

    regions = [int(ch, 36) for line in data["regions"] for ch in line] if "regions" in data else None
    rules = build(
        shape, [name for name in data["rules"] if name not in ("jigsaw", "killer", "thermo")], regions=regions,
        cages=[([cell(pair) for pair in cage["cells"]], cage["total"]) for cage in data.get("cages", ())],
        thermos=[[cell(pair) for pair in thermo] for thermo in data.get("thermos", ())],
    )
    givens = tuple(0 if ch == "." else int(ch, 36) for line in data["givens"] for ch in line)
    solution = tuple(int(ch, 36) for line in data["solution"] for ch in line)
    assert set(data["rules"]) <= set(rules.presets)
    return Puzzle(shape, givens, rules), solution, data


@pytest.mark.slow
@pytest.mark.parametrize("path", VARIANTS, ids=[p.stem for p in VARIANTS])
def test_published_puzzle_is_what_it_says(path):
    puzzle, published, data = load_variant(path)
    assert data["source"] and data["name"]
    assert solution_error(published, puzzle) is None
    assert reference_solutions(puzzle, 2) == [published]  # unique, and the published one


def test_the_published_puzzles_cover_the_required_variants():
    presets = set()
    for path in VARIANTS:
        presets |= set(load_variant(path)[0].rules.presets)
    assert {"x", "killer", "jigsaw", "thermo"} <= presets
    assert presets & {"windoku", "anti-knight", "anti-king"}


@pytest.mark.slow
@pytest.mark.parametrize("path", VARIANTS, ids=[p.stem for p in VARIANTS])
def test_published_puzzle_solved_by_every_supporting_solver(solver, path):
    puzzle, published, _ = load_variant(path)
    if not declares(solver, puzzle.rules):
        assert_refused(solver, puzzle)
        return
    if solver.name == "backtrack":  # the classic row-major search needs minutes when the givens sit low:
        top = puzzle.n // 2 * puzzle.n  # it gets the top rows of the published solution as givens too
        puzzle = Puzzle(puzzle.shape, published[:top] + puzzle.givens[top:], puzzle.rules)
    result = solver.solve(puzzle, **limited(solver))
    assert result.status is Status.SOLVED, result
    assert result.grid == published
    if solver.capabilities.count and "count" not in solver.capabilities.slow:
        assert solver.count(puzzle, limit=2, **limited(solver)).count == 1
