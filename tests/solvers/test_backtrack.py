"""The hand-written searches: ``fast_search`` against the classic search it must agree with.

The contract tests cover every registered solver; these check what only the two searches promise:
the same canonical (lexicographically first) answer, every solution exactly once, the meaning of
the counters, and the time limit on cases each of them finds hard; and under every rule kind, both
against a brute-force enumeration on 4x4 boards (random rule sets) and against each other on 6x6.
"""

from __future__ import annotations

import random
import sys
from itertools import islice

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sudokulab import Puzzle, Shape, Status, is_solution, parse_puzzle, solvers
from sudokulab.core.rules import KINDS, Rules, build
from sudokulab.solvers import SearchCounters
from sudokulab.solvers.backtrack.solver import classic_search, fast_search
from sudokulab.solvers.base import Deadline, TimeUp

from ..conftest import brute_force, random_grid, random_puzzle, shared_dataset

HARD_17 = "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9"
"""A 17-clue puzzle built against row-major backtracking: the classic search needs minutes."""
FORUM_HARDEST = "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3"
"""The first of forum_hardest_1106: no cell is forced by singles alone, it needs guesses."""


def every_solution(search, puzzle: Puzzle, canonical: bool, limit: int = 100_000) -> list[tuple[int, ...]]:
    return list(islice(search(puzzle, Deadline(None), SearchCounters(), canonical), limit))


@pytest.fixture(scope="module")
def classic():
    with solvers.get("backtrack") as solver:
        yield solver


SHAPES = [Shape(2, 2), Shape(2, 3), Shape(3, 2), Shape(2, 4), Shape(3, 3)]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shape=st.sampled_from(SHAPES), seed=st.integers(0, 2**32 - 1), blank_share=st.floats(0.3, 0.75))
def test_same_canonical_answer_as_the_classic_search(classic, fast, shape, seed, blank_share):
    """Cut a random valid grid; both searches must give the same, lexicographically first, answer."""
    rng = random.Random(seed)
    grid = random_grid(shape, rng)
    blanks = set(rng.sample(range(shape.cells), round(blank_share * shape.cells)))
    puzzle = Puzzle(shape, tuple(0 if i in blanks else v for i, v in enumerate(grid)))
    base = classic.solve(puzzle, time_limit=2)
    assume(base.status is Status.SOLVED)  # a rare 9x9 cut can stall the classic search
    mine = fast.solve(puzzle, canonical=True)
    assert mine.status is Status.SOLVED
    assert mine.grid == base.grid
    assert is_solution(mine.grid, puzzle) and is_solution(base.grid, puzzle)
    assert mine.grid <= grid  # the cut grid is one solution, so the first is no later than it


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shape=st.sampled_from(SHAPES[:4]), seed=st.integers(0, 2**32 - 1), blank_share=st.floats(0.2, 0.6),
       wrong_given=st.booleans())
def test_every_solution_exactly_once_in_order(shape, seed, blank_share, wrong_given):
    """Small boards, all solutions: the same set for both searches, none twice, canonical order kept."""
    rng = random.Random(seed)
    givens = list(random_grid(shape, rng))
    for cell in rng.sample(range(shape.cells), round(blank_share * shape.cells)):
        givens[cell] = 0
    if wrong_given:  # often leaves no solution at all, without a visible conflict
        givens[rng.randrange(shape.cells)] = rng.randint(1, shape.n)
    puzzle = Puzzle(shape, tuple(givens))
    expected = every_solution(classic_search, puzzle, True)
    assume(len(expected) < 5000)
    found = every_solution(fast_search, puzzle, False)
    assert len(set(found)) == len(found)
    assert sorted(found) == expected
    assert every_solution(fast_search, puzzle, True) == expected
    assert all(is_solution(grid, puzzle) for grid in found)


def test_the_empty_4x4_board_has_288_solutions_in_both(classic, fast):
    empty = Puzzle.empty(4)
    assert classic.count(empty, limit=1000).count == 288
    assert fast.count(empty, limit=1000).count == 288
    assert every_solution(fast_search, empty, True) == every_solution(classic_search, empty, True)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_counts_agree_on_partial_6x6_boards(classic, fast, seed):
    puzzle, _ = random_puzzle(Shape(2, 3), 0.3, seed)
    base, mine = classic.count(puzzle, limit=100_000), fast.count(puzzle, limit=100_000)
    assert base.exact and mine.exact
    assert mine.count == base.count >= 1


def test_no_solution_without_a_visible_conflict(classic, fast):
    """Row 1 lacks only 9 and 8, yet both must go in column 9: no rule broken, no answer."""
    puzzle = parse_puzzle("1234567.." + "........9" + "........8" + "." * 54)
    assert classic.solve(puzzle).status is Status.NO_SOLUTION
    result = fast.solve(puzzle)
    assert result.status is Status.NO_SOLUTION and result.grid is None
    assert fast.count(puzzle).count == 0


def test_counters_mean_guesses_and_dead_ends(fast):
    sample = parse_puzzle("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
    easy = fast.solve(sample)
    assert easy.solved and easy.stats == {"nodes": 0, "backtracks": 0}  # singles alone solve it
    hard = fast.solve(parse_puzzle(FORUM_HARDEST))
    assert hard.solved and is_solution(hard.grid, parse_puzzle(FORUM_HARDEST))
    assert hard.stats["nodes"] > 0 and 0 < hard.stats["backtracks"] <= 2 * hard.stats["nodes"]


@pytest.mark.slow
def test_every_puzzle_of_forum_hardest_1106(fast):
    lines = [line.strip() for line in shared_dataset("forum_hardest_1106.txt").read_text().splitlines()]
    lines = [line for line in lines if line]
    assert len(lines) == 375
    unsolved = []
    for number, line in enumerate(lines, 1):
        puzzle = parse_puzzle(line)
        result = fast.solve(puzzle, time_limit=30)
        if not (result.solved and is_solution(result.grid, puzzle)):
            unsolved.append(number)
    assert unsolved == []


@pytest.mark.parametrize(("n", "fraction", "seed"), [(16, 0.45, 1), (25, 0.55, 2), (36, 0.7, 3)])
def test_large_boards(fast, n, fraction, seed):
    puzzle, grid = random_puzzle(n, fraction, seed)
    result = fast.solve(puzzle, time_limit=60)
    assert result.solved and is_solution(result.grid, puzzle)
    canonical = fast.solve(puzzle, canonical=True, time_limit=60)
    assert canonical.solved and is_solution(canonical.grid, puzzle) and canonical.grid <= grid


def test_more_than_a_thousand_blanks_need_no_recursion(fast):
    """The empty 36x36 board: 1296 blanks, a search path far deeper than Python's recursion limit."""
    empty = Puzzle.empty(36)
    result = fast.solve(empty, time_limit=60)
    assert result.solved and is_solution(result.grid, empty)
    assert result.stats["nodes"] > 1000  # one guess per cell or so: the path is that deep


def test_canonical_answer_of_the_empty_16x16_board(fast):
    empty = Puzzle.empty(16)
    result = fast.solve(empty, canonical=True, time_limit=60)
    assert result.solved and is_solution(result.grid, empty)
    assert result.grid[:16] == tuple(range(1, 17))  # the first row of the first solution
    assert result.grid[16:20] == (5, 6, 7, 8)  # the second row starts with the next box's digits


def test_time_limit_on_the_classic_search(classic):
    result = classic.solve(parse_puzzle(HARD_17), time_limit=0.05)
    assert result.status is Status.TIME_LIMIT and result.grid is None
    assert result.stats["nodes"] > 0


def test_time_limit_on_the_fast_search(fast):
    hard = parse_puzzle(FORUM_HARDEST)
    result = fast.solve(hard, time_limit=1e-6)  # over before the first guess is made
    assert result.status is Status.TIME_LIMIT and result.grid is None
    counted = fast.count(Puzzle.empty(9), limit=sys.maxsize, time_limit=0.5)  # 6.67e21 solutions; time to find some
    assert counted.status is Status.TIME_LIMIT and not counted.exact and counted.count > 0


def test_the_search_generator_raises_time_up():
    search = fast_search(parse_puzzle(FORUM_HARDEST), Deadline(1e-6), SearchCounters(), False)
    with pytest.raises(TimeUp):
        next(search)


# --- any rule set -----------------------------------------------------------------------------------

JIGSAW = {
    Shape(2, 2): (0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 2, 3, 2, 3, 3, 3),
    Shape(2, 3): (0, 0, 0, 1, 1, 1, 0, 0, 2, 1, 1, 1, 0, 2, 2, 3, 3, 3,
                  2, 2, 2, 5, 3, 3, 4, 4, 4, 5, 3, 5, 4, 4, 4, 5, 5, 5),
    Shape(3, 3): (0, 0, 0, 1, 1, 1, 2, 2, 2, 0, 0, 0, 0, 1, 1, 2, 2, 2, 0, 3, 1, 1, 1, 1, 2, 2, 2,
                  0, 3, 3, 4, 4, 4, 5, 5, 5, 3, 3, 3, 4, 4, 4, 5, 5, 5, 3, 3, 3, 4, 4, 7, 5, 5, 5,
                  6, 6, 6, 4, 7, 7, 8, 8, 8, 6, 6, 6, 7, 7, 7, 8, 8, 8, 6, 6, 6, 7, 7, 7, 8, 8, 8),
}
"""Jigsaw regions made by swapping equal digits of a grid across box borders: each has solutions."""

THERMOS = {
    Shape(2, 2): [(0, 1, 5), (15, 14)],
    Shape(2, 3): [(0, 1, 2, 8), (35, 29, 28)],
    Shape(3, 3): [(0, 1, 2, 11), (80, 79, 70, 61), (40, 41)],
}


def variant_rules(shape: Shape) -> dict[str, Rules]:
    """Every preset on a shape; the killer cages get the totals of one grid, so they have solutions."""
    grid = conftest_grid(shape)
    n = shape.n
    cages = [(0, n), (n + 1, 2 * n + 1, 2 * n + 2), (n * n - 1, n * n - 2)]
    return {
        "x": build(shape, ["x"]),
        "windoku": build(shape, ["windoku"]),
        "anti-knight": build(shape, ["anti-knight"]),
        "anti-king": build(shape, ["anti-king"]),
        "jigsaw": build(shape, regions=JIGSAW[shape]),
        "killer": build(shape, cages=[(cells, sum(grid[c] for c in cells)) for cells in cages]),
        "thermo": build(shape, thermos=THERMOS[shape]),
    }


def conftest_grid(shape: Shape) -> tuple[int, ...]:
    return random_grid(shape, random.Random(2580))


@pytest.mark.parametrize("name", ["x", "windoku", "anti-knight", "anti-king", "jigsaw", "killer", "thermo"])
def test_canonical_answer_is_the_first_of_a_brute_force_enumeration_on_4x4(classic, fast, name):
    shape = Shape(2, 2)
    puzzle = Puzzle.empty(shape).with_rules(variant_rules(shape)[name])
    expected = brute_force(puzzle)
    for search in (classic_search, fast_search):
        assert every_solution(search, puzzle, True) == expected
        assert sorted(every_solution(search, puzzle, False)) == expected
    for solver in (classic, fast):
        result = solver.solve(puzzle, canonical=True)
        if expected:
            assert result.status is Status.SOLVED and result.grid == expected[0]
            assert is_solution(result.grid, puzzle)
        else:  # no 4x4 grid keeps anti-king
            assert result.status is Status.NO_SOLUTION and result.grid is None
        assert solver.count(puzzle, limit=10_000).count == len(expected)


@pytest.mark.parametrize("shape", [Shape(2, 3), Shape(3, 3)], ids=str)
@pytest.mark.parametrize("name", ["x", "windoku", "anti-knight", "anti-king", "jigsaw", "killer", "thermo"])
def test_every_preset_solved_on_larger_boards(classic, fast, shape, name):
    """A puzzle cut from a grid under the rules: answers pass the checker, canonical ones agree."""
    rules = variant_rules(shape)[name]
    empty = Puzzle.empty(shape).with_rules(rules)
    first = fast.solve(empty, time_limit=30)
    if first.status is Status.NO_SOLUTION:  # e.g. anti-king on 6x6; the classic search must agree
        assert classic.solve(empty, time_limit=30).status in (Status.NO_SOLUTION, Status.TIME_LIMIT)
        return
    assert first.solved and is_solution(first.grid, empty)
    rng = random.Random(len(name) * shape.n)
    blanks = set(rng.sample(range(shape.cells), shape.cells // 2))
    puzzle = Puzzle(shape, tuple(0 if i in blanks else v for i, v in enumerate(first.grid)), rules)
    mine = fast.solve(puzzle)
    assert mine.solved and is_solution(mine.grid, puzzle)
    canonical = fast.solve(puzzle, canonical=True)
    assert canonical.solved and is_solution(canonical.grid, puzzle) and canonical.grid <= first.grid
    base = classic.solve(puzzle, time_limit=20)
    if base.status is not Status.TIME_LIMIT:
        assert base.grid == canonical.grid
    counted = fast.count(puzzle, limit=50)
    assert counted.count >= 1 and counted.count == classic.count(puzzle, limit=50, time_limit=20).count \
        or classic.count(puzzle, limit=50, time_limit=20).status is Status.TIME_LIMIT


def test_a_wrong_sum_or_order_is_never_solved(classic, fast):
    """Givens that fill a cage to the wrong total, or a thermometer out of order: no solution."""
    shape = Shape(2, 2)
    killer = Puzzle(shape, (1, 2) + (0,) * 14, build(shape, cages=[((0, 1), 4)]))
    thermo = Puzzle(shape, (3,) + (0,) * 15, build(shape, thermos=[(0, 1, 2)]))  # 3 at the bulb of 3 cells
    for puzzle in (killer, thermo):
        for solver in (classic, fast):
            assert solver.solve(puzzle).status is Status.NO_SOLUTION
            assert solver.count(puzzle).count == 0


@st.composite
def rule_sets(draw, shape: Shape) -> Rules:
    """Random rules: presets, maybe random regions (any partition), cages with any reachable total,
    thermometers along random king paths."""
    n = shape.n
    presets = draw(st.lists(st.sampled_from(["x", "windoku", "anti-knight", "anti-king"]), unique=True, max_size=2))
    regions = None
    if draw(st.booleans()):
        regions = draw(st.permutations([label for label in range(n) for _ in range(n)]))
    taken: set[int] = set()
    cages = []
    for _ in range(draw(st.integers(0, 3))):
        cells = [draw(st.integers(0, n * n - 1))]
        for _ in range(draw(st.integers(0, 2))):
            r, c = divmod(cells[-1], n)
            cells.append(((r + draw(st.integers(0, 1))) % n) * n + (c + draw(st.integers(0, 1))) % n)
        cells = list(dict.fromkeys(cells))
        if taken & set(cells):
            continue
        taken |= set(cells)
        k = len(cells)
        cages.append((cells, draw(st.integers(k * (k + 1) // 2, k * (2 * n - k + 1) // 2))))
    thermos = []
    for _ in range(draw(st.integers(0, 2))):
        path = [draw(st.integers(0, n * n - 1))]
        for _ in range(draw(st.integers(1, 2))):
            r, c = divmod(path[-1], n)
            steps = [(r + dr) * n + c + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                     if 0 <= r + dr < n and 0 <= c + dc < n and (r + dr) * n + c + dc not in path]
            path.append(draw(st.sampled_from(steps)))
        thermos.append(path)
    return build(shape, presets, regions=regions, cages=cages, thermos=thermos)


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_counts_equal_a_brute_force_count_under_random_rules_on_4x4(data):
    shape = Shape(2, 2)
    rules = data.draw(rule_sets(shape))
    givens = [0] * 16
    for cell in data.draw(st.lists(st.integers(0, 15), max_size=3, unique=True)):
        givens[cell] = data.draw(st.integers(1, 4))
    puzzle = Puzzle(shape, tuple(givens), rules)
    expected = brute_force(puzzle)
    assert every_solution(classic_search, puzzle, True) == expected
    assert every_solution(fast_search, puzzle, True) == expected
    found = every_solution(fast_search, puzzle, False)
    assert len(found) == len(set(found)) and sorted(found) == expected
    assert all(is_solution(grid, puzzle) for grid in found)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_both_searches_agree_under_random_rules_on_6x6(classic, fast, data):
    """6x6 is beyond the brute force: the two searches (which share no code) count the same."""
    shape = Shape(2, 3)
    rules = data.draw(rule_sets(shape))
    first = fast.solve(Puzzle.empty(shape).with_rules(rules), time_limit=5)
    assume(first.solved)
    assert is_solution(first.grid, Puzzle.empty(shape).with_rules(rules))
    blanks = set(data.draw(st.lists(st.integers(0, 35), min_size=12, max_size=20, unique=True)))
    puzzle = Puzzle(shape, tuple(0 if i in blanks else v for i, v in enumerate(first.grid)), rules)
    base = classic.count(puzzle, limit=10_000, time_limit=5)
    assume(base.exact)
    assert fast.count(puzzle, limit=10_000).count == base.count >= 1
    assert fast.solve(puzzle, canonical=True).grid == classic.solve(puzzle).grid


@pytest.mark.parametrize("solver", ["backtrack", "backtrack-fast"])
def test_both_declare_every_rule_kind(solver):
    assert solvers.get(solver).capabilities.kinds == frozenset(KINDS)
