"""``backtrack-jit``, the compiled search: answers checked by ``is_solution`` and held against the
pure-Python searches (status and counts against ``backtrack-fast``, canonical answers against
``backtrack``), the batch entry point against ``solve``, time limits, Ctrl-C, and a missing numba."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import textwrap
import time

import pytest

pytest.importorskip("numba")

import numpy as np  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from sudokulab import Puzzle, Shape, Status, first_conflict, is_solution, parse_puzzle, solvers  # noqa: E402
from sudokulab.core.rules import KINDS, Cage, Rules, build, standard  # noqa: E402
from sudokulab.generation.puzzles import generate  # noqa: E402
from sudokulab.solvers import batch as batches  # noqa: E402
from sudokulab.solvers.jit import solver as jit  # noqa: E402
from sudokulab.verdicts.checking import check_batch  # noqa: E402

from ...conftest import HANG, ROOT, brute_force, cut, dataset, random_grid, random_puzzle  # noqa: E402

CLASSIC = parse_puzzle("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
HARD = parse_puzzle("1.......9..67...2..8....4......75.3...5..2....6.3......9....8..6...4...1..25...6.")
BROKEN = Puzzle(Shape(3, 3), (1,) + (0,) * 6 + (1,) + (0,) * 73)  # two 1s in row 1
STUCK = Puzzle.from_rows([[0, 1, 2, 0], [3, 0, 0, 0], [4, 0, 0, 0], [0, 0, 0, 0]])  # r1c1 has no digit left


@pytest.fixture(scope="module")
def classic():
    return solvers.get("backtrack")


def hard_board(n: int) -> Puzzle:
    """A generated board with 45% given, the scaling study's kind: hard for a depth-first search at 25x25."""
    return next(generate(Shape.of_size(n), 1, fraction=0.45, seed=2580 * 1000 + n)).puzzle


def read_set(name: str, k: int) -> list[Puzzle]:
    lines = [line.strip() for line in dataset(name, k).read_text().splitlines() if line.strip()]
    return [parse_puzzle(line) for line in lines[:k]]


def no_solution_yet_no_broken_rule(puzzle: Puzzle, answer: tuple[int, ...]) -> Puzzle:
    """A unique puzzle with one blank given a wrong digit that breaks no rule at once."""
    for cell, value in enumerate(puzzle.givens):
        for digit in range(1, puzzle.n + 1):
            givens = puzzle.givens[:cell] + (digit,) + puzzle.givens[cell + 1:]
            if not value and digit != answer[cell] and first_conflict(givens, puzzle.shape) is None:
                return Puzzle(puzzle.shape, givens)
    raise AssertionError("every wrong digit breaks a rule")


def boards() -> list[Puzzle]:
    """Boards of many shapes, box splits and fill levels; some without a solution."""
    made = [random_puzzle(shape, fraction, seed)[0] for shape, fraction, seed in [
        (Shape(1, 1), 0.0, 1), (Shape(2, 2), 0.3, 1), (Shape(2, 3), 0.35, 2), (Shape(3, 2), 0.4, 3),
        (Shape(1, 5), 0.3, 4), (Shape(2, 4), 0.4, 5), (Shape(3, 3), 0.3, 6), (Shape(2, 5), 0.5, 7),
        (Shape(3, 4), 0.55, 8), (Shape(4, 4), 0.6, 9), (Shape(4, 4), 0.45, 10), (Shape(5, 5), 0.7, 11),
        (Shape(4, 5), 0.65, 12), (Shape(6, 6), 0.8, 13), (Shape(8, 8), 0.9, 14),
    ]]
    return made + [CLASSIC, HARD, BROKEN, STUCK, Puzzle.empty(Shape(2, 3))]


@pytest.mark.slow
@pytest.mark.parametrize("branching", ["wdeg", "fewest"])
def test_boards_of_every_shape_agree_with_the_fast_search(fast, branching):
    jitted = solvers.get("backtrack-jit", branching=branching)
    for puzzle in boards():
        assert jitted.count(puzzle, limit=3).count == fast.count(puzzle, limit=3).count
        result = jitted.solve(puzzle, time_limit=30)
        reference = fast.solve(puzzle, time_limit=30)
        assert result.status is reference.status, puzzle.shape
        assert result.status is Status.NO_SOLUTION or is_solution(result.grid, puzzle)
        assert set(result.stats) == {"nodes", "backtracks"}


def test_no_solution_when_the_givens_conflict_or_a_wrong_digit_hides(jitted, classic):
    for puzzle in (BROKEN, STUCK, no_solution_yet_no_broken_rule(CLASSIC, classic.solve(CLASSIC).grid)):
        result = jitted.solve(puzzle)
        assert result.status is Status.NO_SOLUTION and result.grid is None
        assert jitted.count(puzzle, limit=3).count == 0


@pytest.mark.parametrize("name, k", [("17_clue.txt", 300), ("magictour_top1465.txt", 100),
                                     ("forum_hardest_1106.txt", 30)])
def test_shared_sets_solved_as_the_fast_search_solves_them(jitted, fast, name, k):
    puzzles = read_set(name, k)
    results = jitted.solve_batch(np.array([p.givens for p in puzzles], dtype=np.uint8), Shape(3, 3))
    for i, puzzle in enumerate(puzzles):
        got = results.result(i, puzzle.shape)
        assert got.status is Status.SOLVED and is_solution(got.grid, puzzle)
    for puzzle in puzzles[:20]:
        assert jitted.count(puzzle, limit=2).count == fast.count(puzzle, limit=2).count == 1


@pytest.mark.parametrize("shape", [Shape(1, 1), Shape(1, 2), Shape(2, 2), Shape(2, 3), Shape(3, 2), Shape(2, 4),
                                   Shape(3, 3), Shape(2, 5), Shape(3, 4)])
def test_canonical_on_the_empty_board_is_the_classic_answer(jitted, classic, shape):
    empty = Puzzle.empty(shape)
    assert jitted.solve(empty, canonical=True).grid == classic.solve(empty, time_limit=30).grid


def test_canonical_on_easy_boards_is_the_classic_answer_byte_for_byte(jitted, classic):
    from sudokulab import format_grid

    for shape, fraction, seed in [(Shape(2, 2), 0.2, 1), (Shape(2, 3), 0.25, 2), (Shape(3, 3), 0.3, 3),
                                  (Shape(3, 3), 0.5, 4), (Shape(3, 4), 0.6, 5), (Shape(4, 4), 0.75, 6)]:
        puzzle, _ = random_puzzle(shape, fraction, seed)
        expected = classic.solve(puzzle, time_limit=30)
        assert expected.status is Status.SOLVED
        assert format_grid(jitted.solve(puzzle, canonical=True).grid) == format_grid(expected.grid)
    assert jitted.solve(CLASSIC, canonical=True).grid == classic.solve(CLASSIC).grid


@pytest.mark.parametrize("branching", ["fewest", "wdeg"])
def test_counts_equal_the_fast_search(fast, branching):
    jitted = solvers.get("backtrack-jit", branching=branching)
    few = Puzzle.from_rows([[1, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4]])
    for puzzle, limit in [(Puzzle.empty(4), 1000), (few, 1000), (Puzzle.empty(Shape(2, 3)), 500),
                          (random_puzzle(Shape(2, 3), 0.2, 3)[0], 10**6), (random_puzzle(9, 0.3, 4)[0], 50),
                          (CLASSIC, 10), (BROKEN, 10)]:
        got, expected = jitted.count(puzzle, limit=limit), fast.count(puzzle, limit=limit)
        assert (got.count, got.exact) == (expected.count, expected.exact)
    assert jitted.count(Puzzle.empty(4), limit=1000).count == 288
    assert jitted.count(Puzzle.empty(Shape(1, 3)), limit=100).count == 12  # 3x3 Latin squares


@pytest.mark.slow
def test_a_time_limit_is_honoured(jitted):
    counted = jitted.count(Puzzle.empty(36), limit=10**12, time_limit=0.3)
    assert counted.status is Status.TIME_LIMIT and 0 < counted.count and counted.seconds < HANG
    puzzle = hard_board(25)
    result = jitted.solve(puzzle, time_limit=0.3)
    assert result.seconds < HANG
    assert result.status is Status.TIME_LIMIT or is_solution(result.grid, puzzle)
    timed = jitted.solve_batch(np.array([puzzle.givens], dtype=np.uint8), puzzle.shape, time_limit=0.3)
    assert timed.seconds[0] < HANG and timed.status[0] in (batches.SOLVED, batches.TIME_LIMIT)


CTRL_C_CHILD = """
import sys, time
import numpy as np
from sudokulab import solvers
from tests.solvers.jit.test_solver import hard_board
jitted = solvers.get("backtrack-jit", branching="fewest")  # the plain order: this board takes it minutes
puzzle = hard_board(25)
jitted.solve(hard_board(4))  # compiled or loaded before the clock starts
print("ready", flush=True)
try:
    if sys.argv[1] == "solve":
        jitted.solve(puzzle)
    else:
        jitted.solve_batch(np.array([puzzle.givens] * 3, dtype=np.uint8), puzzle.shape)
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(0)
print("finished", flush=True)
"""


@pytest.mark.slow
@pytest.mark.parametrize("path", ["solve", "solve_batch"])
def test_ctrl_c_stops_a_long_search_within_a_second(path):
    """In a child process: a SIGINT raised in this one could reach a handler an earlier test's native
    engine left behind, and end the whole test run."""
    child = subprocess.Popen([sys.executable, "-c", CTRL_C_CHILD, path], cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline() == "ready\n", child.stderr.read()
        time.sleep(0.3)
        sent = time.perf_counter()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=HANG)
        took = time.perf_counter() - sent
    finally:
        child.kill()
    if out == "finished\n":
        pytest.skip("the board was solved before the interrupt came")
    assert (out, child.returncode) == ("interrupted\n", 0), err
    assert took < HANG  # seen within a slice (20 ms) when idle; no speed is asserted


@pytest.mark.parametrize("branching", ["fewest", "wdeg"])
def test_solve_batch_answers_as_solve_does(branching):
    jitted = solvers.get("backtrack-jit", branching=branching)
    for shape in (Shape(2, 2), Shape(3, 3), Shape(4, 4)):
        puzzles = [p for p in boards() if p.shape == shape] + [random_puzzle(shape, 0.4, s)[0] for s in range(8)]
        batch = batches.Batch.of("mixed", puzzles)
        results = batches.solve_batch(jitted, batch)
        assert results.solver == "backtrack-jit" and results.cpu_seconds.shape == results.seconds.shape == (len(batch),)
        assert (results.seconds >= 0).all() and (results.cpu_seconds >= 0).all()
        for i, puzzle in enumerate(puzzles):
            alone = jitted.solve(puzzle)
            got = results.result(i, shape)
            assert (got.status, got.grid, dict(got.stats)) == (alone.status, alone.grid, dict(alone.stats))
        (verdicts,) = check_batch(batch.givens, shape, [results])
        assert verdicts.valid.all() and not verdicts.problems


def test_solve_batch_refuses_arrays_that_are_no_batch(jitted):
    with pytest.raises(ValueError, match="must be"):
        jitted.solve_batch(np.zeros((2, 80), dtype=np.uint8), Shape(3, 3))
    with pytest.raises(ValueError, match="0..4"):
        jitted.solve_batch(np.full((1, 16), 5, dtype=np.uint8), Shape(2, 2))
    empty = jitted.solve_batch(np.zeros((0, 16), dtype=np.uint8), Shape(2, 2))
    assert len(empty.status) == 0


def test_a_shallow_stack_grows_and_the_answers_stay(jitted, fast, monkeypatch):
    from sudokulab.solvers.jit import numba_search as jit_numba

    monkeypatch.setattr(jit_numba._State, "MIN_DEPTH", 1)  # whichever backend runs
    monkeypatch.setattr(jit_numba._State, "STACK_BYTES", 0)
    monkeypatch.setattr(jit, "STACK_LEVELS", 1)
    assert jitted.count(Puzzle.empty(4), limit=1000).count == 288
    puzzle = random_puzzle(16, 0.45, 10)[0]
    assert is_solution(jitted.solve(puzzle).grid, puzzle)
    results = jitted.solve_batch(np.array([HARD.givens, CLASSIC.givens], dtype=np.uint8), Shape(3, 3))
    assert list(results.status) == [batches.SOLVED] * 2
    assert is_solution(tuple(results.grids[0].tolist()), HARD)


def test_warm_up_reports_the_compile_time():
    seconds = jit.JitSolver.warm_up()
    assert seconds == jit.JitSolver.compile_seconds and seconds > 0


@settings(max_examples=60, deadline=None)
@given(shape=st.sampled_from([Shape(1, 2), Shape(2, 2), Shape(1, 4), Shape(2, 3), Shape(3, 2)]), data=st.data())
def test_random_partial_grids_agree_with_both_python_searches(shape, data):
    n = shape.n
    filled = data.draw(st.dictionaries(st.integers(0, shape.cells - 1), st.integers(1, n), max_size=shape.cells // 2))
    puzzle = Puzzle(shape, tuple(filled.get(cell, 0) for cell in range(shape.cells)))
    jitted, fast, classic = (solvers.get(name) for name in ("backtrack-jit", "backtrack-fast", "backtrack"))
    result = jitted.solve(puzzle)
    assert result.status is fast.solve(puzzle).status
    assert result.status is Status.NO_SOLUTION or is_solution(result.grid, puzzle)
    assert jitted.solve(puzzle, canonical=True).grid == classic.solve(puzzle).grid
    assert jitted.count(puzzle, limit=20).count == fast.count(puzzle, limit=20).count


def test_without_numba_or_the_c_extension_the_solver_is_listed_as_needing_the_extra():
    script = textwrap.dedent("""
        import sys
        sys.modules["numba"] = None  # as if numba were not installed
        sys.modules["sudokulab.solvers.jit._search"] = None  # nor the C extension built
        try:
            import sudokulab.solvers.jit.solver
        except ImportError as exc:
            print("name", exc.name)
        from sudokulab import solvers
        print("why", solvers.unavailable("backtrack-jit"))
        print("installed", solvers.describe("backtrack-jit")["installed"])
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "name numba" in done.stdout
    from sudokulab.core.install import extra_hint

    assert extra_hint("jit") in done.stdout and "installed False" in done.stdout
    assert "pip install -e" in extra_hint("jit") or "sudokulab[jit]" in extra_hint("jit")  # from a clone, or an index


# --- Rules as data: any groups, differing pairs, cage sums, thermometers. --------------------------------

SHAPES = [Shape(2, 2), Shape(2, 3), Shape(3, 3)]
PRESET_NAMES = ["standard", "x", "windoku", "anti-knight", "anti-king", "jigsaw", "killer", "thermo",
                "x+anti-knight", "killer+thermo"]


def first_by_hand(puzzle: Puzzle) -> tuple[int, ...] | None:
    """The lexicographically first solution by a plain row-major search, smallest digit first, that
    skips the digits of a cell's peers and checks sums and thermometers with ``Rules.first_conflict``
    after each digit: slow, obviously right, for 6x6 boards."""
    rules = puzzle.rules
    grid = list(puzzle.givens)
    blanks = [cell for cell, digit in enumerate(grid) if not digit]
    if rules.first_conflict(tuple(grid)) is not None:
        return None
    sums = bool(rules.cages or rules.thermos)

    def fill(i: int) -> bool:
        if i == len(blanks):
            return True
        cell = blanks[i]
        taken = {grid[peer] for peer in rules.peers[cell]}
        for digit in range(1, puzzle.n + 1):
            if digit in taken:
                continue
            grid[cell] = digit
            if (not sums or rules.first_conflict(tuple(grid)) is None) and fill(i + 1):
                return True
        grid[cell] = 0
        return False

    return tuple(grid) if fill(0) else None


def jigsaw_labels(shape: Shape) -> list[int]:
    """Irregular regions: the boxes, with the first box's bottom-right corner traded for the top-left
    cell of the box diagonally below it (measured: trading cells along one row or column instead
    leaves no solution at all, by the law of leftovers, and a 9x9 search takes minutes to prove it)."""
    n, h, w = shape.n, shape.box_rows, shape.box_cols
    labels = [shape.box_of(*divmod(cell, n)) for cell in range(shape.cells)]
    a, b = (h - 1) * n + w - 1, h * n + w
    labels[a], labels[b] = labels[b], labels[a]
    return labels


def solution_cages(grid: tuple[int, ...], n: int) -> list[tuple[tuple[int, ...], int]]:
    """Cages of two cells along each row (three at the end of an odd row), totals from ``grid``."""
    cages = []
    for row in range(n):
        cells = [row * n + c for c in range(n)]
        chunks = [cells[i:i + 2] for i in range(0, n, 2)]
        if len(chunks[-1]) == 1:
            last = chunks.pop()
            chunks[-1] = chunks[-1] + last
        cages += [(tuple(chunk), sum(grid[c] for c in chunk)) for chunk in chunks]
    return cages


def solution_thermos(grid: tuple[int, ...], n: int) -> list[tuple[int, ...]]:
    """Thermometers that ``grid`` keeps: from a few bulbs, each step to the neighbour with the next
    larger digit, up to four cells."""
    thermos = []
    for bulb in range(0, n * n, max(1, n * n // 4) + 1):
        cells = [bulb]
        while len(cells) < 4:
            row, col = divmod(cells[-1], n)
            steps = [(rr * n + cc) for rr in range(row - 1, row + 2) for cc in range(col - 1, col + 2)
                     if 0 <= rr < n and 0 <= cc < n and grid[rr * n + cc] > grid[cells[-1]]]
            if not steps:
                break
            cells.append(min(steps, key=lambda c: grid[c]))
        if len(cells) >= 2:
            thermos.append(tuple(cells))
    return thermos


def preset_rules(shape: Shape, preset: str) -> Rules:
    """A rule set of each preset; killer cages and thermometers come from a standard grid, so they have a solution."""
    grid = random_grid(shape, random.Random(shape.n))
    names = preset.split("+")
    presets = [p for p in names if p not in ("standard", "jigsaw", "killer", "thermo")]
    return build(shape, presets or ["standard"],
                 regions=jigsaw_labels(shape) if "jigsaw" in names else None,
                 cages=solution_cages(grid, shape.n) if "killer" in names else (),
                 thermos=solution_thermos(grid, shape.n) if "thermo" in names else ())


def test_every_kind_is_honoured(jitted):
    assert jitted.capabilities.kinds == frozenset(KINDS)
    for preset in PRESET_NAMES:
        assert jitted.capabilities.lacks(rules=preset_rules(Shape(2, 3), preset)) is None


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_every_preset_on_every_size(jitted, shape, preset):
    """Answers pass the checker; on 4x4 the canonical answer and the count are the brute force's, on
    6x6 the canonical answer is a plain rule-checking search's; a puzzle cut from an answer is solved."""
    rules = preset_rules(shape, preset)
    empty = Puzzle(shape, (0,) * shape.cells, rules)
    result = jitted.solve(empty, time_limit=60)
    canonical = jitted.solve(empty, canonical=True, time_limit=60)
    if shape.n == 4:
        expected = brute_force(empty)
        assert jitted.count(empty, limit=1000).count == len(expected)
        assert canonical.grid == (expected[0] if expected else None)
    elif shape.n == 6:
        expected = first_by_hand(empty)
        assert canonical.grid == expected
    if shape.n < 9 and not expected:  # no 4x4 grid keeps anti-king; none of 4x4 or 6x6 X with anti-knight
        assert (preset, shape.n) in (("anti-king", 4), ("x+anti-knight", 4), ("x+anti-knight", 6))
        assert result.status is canonical.status is Status.NO_SOLUTION
        return
    assert result.status is canonical.status is Status.SOLVED, rules.describe()
    assert is_solution(result.grid, empty) and is_solution(canonical.grid, empty)
    rng = random.Random(7)
    puzzle = cut(result.grid, shape, shape.cells * 2 // 5, rng).with_rules(rules)
    found = jitted.solve(puzzle, time_limit=60)
    assert found.status is Status.SOLVED and is_solution(found.grid, puzzle)
    assert 1 <= jitted.count(puzzle, limit=3, time_limit=60).count


@st.composite
def rule_sets(draw, shape: Shape) -> Rules:
    """Random rules on a small board: any presets, maybe irregular regions, disjoint cages with
    reachable totals, thermometers along neighbours."""
    n = shape.n
    presets = draw(st.lists(st.sampled_from(["x", "windoku", "anti-knight", "anti-king"]), unique=True, max_size=2))
    regions = draw(st.sampled_from([None, jigsaw_labels(shape)]))
    caged: set[int] = set()
    cages = []
    for _ in range(draw(st.integers(0, 3))):
        cells = [c for c in draw(st.lists(st.integers(0, shape.cells - 1), min_size=1, max_size=n, unique=True))
                 if c not in caged]
        if cells:
            k = len(cells)
            cages.append((tuple(cells), draw(st.integers(k * (k + 1) // 2, k * (2 * n - k + 1) // 2))))
            caged.update(cells)
    thermos = []
    for _ in range(draw(st.integers(0, 2))):
        cells = [draw(st.integers(0, shape.cells - 1))]
        for _ in range(draw(st.integers(1, n - 1))):
            row, col = divmod(cells[-1], n)
            steps = [rr * n + cc for rr in range(row - 1, row + 2) for cc in range(col - 1, col + 2)
                     if 0 <= rr < n and 0 <= cc < n and rr * n + cc not in cells]
            if not steps:
                break
            cells.append(draw(st.sampled_from(steps)))
        if len(cells) >= 2:
            thermos.append(tuple(cells))
    return build(shape, presets, regions=regions, cages=cages, thermos=thermos)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_random_rule_sets_on_4x4_agree_with_brute_force(jitted, data):
    shape = Shape(2, 2)
    rules = data.draw(rule_sets(shape))
    filled = data.draw(st.dictionaries(st.integers(0, 15), st.integers(1, 4), max_size=5))
    puzzle = Puzzle(shape, tuple(filled.get(cell, 0) for cell in range(16)), rules)
    expected = brute_force(puzzle)
    assert jitted.count(puzzle, limit=1000).count == len(expected)
    assert jitted.solve(puzzle, canonical=True).grid == (expected[0] if expected else None)
    result = jitted.solve(puzzle)
    assert result.status is (Status.SOLVED if expected else Status.NO_SOLUTION)
    assert not expected or result.grid in expected
    fewest = solvers.get("backtrack-jit", branching="fewest")
    assert fewest.count(puzzle, limit=1000).count == len(expected)


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_random_rule_sets_on_6x6_give_the_first_solution_a_plain_search_finds(jitted, data):
    shape = Shape(2, 3)
    rules = data.draw(rule_sets(shape))
    grid = random_grid(shape, random.Random(data.draw(st.integers(0, 1000))))
    puzzle = cut(grid, shape, 18, random.Random(1)).with_rules(rules)
    expected = first_by_hand(puzzle)
    result = jitted.solve(puzzle, canonical=True)
    assert result.grid == expected
    assert result.status is (Status.NO_SOLUTION if expected is None else Status.SOLVED)
    counted = jitted.count(puzzle, limit=50)
    assert (counted.count == 0) == (expected is None)


def test_a_cage_whose_digits_may_repeat_is_summed_only(jitted):
    """A hand-made ``Rules`` with a cage but no group of its cells: the digits may repeat."""
    shape = Shape(2, 2)
    plain = build(shape)
    rules = Rules(shape, plain.groups, cages=(Cage("cage 1 (sum 2)", (0, 6), 2),), presets=("killer",))
    puzzle = Puzzle(shape, (0,) * 16, rules)
    expected = brute_force(puzzle)
    assert expected and all(grid[0] == grid[6] == 1 for grid in expected)
    assert jitted.count(puzzle, limit=1000).count == len(expected)
    assert jitted.solve(puzzle, canonical=True).grid == expected[0]


def test_givens_that_break_a_sum_or_a_thermometer_have_no_solution(jitted):
    shape = Shape(2, 2)
    cage = build(shape, cages=[((0, 1), 3)])
    thermo = build(shape, thermos=[(0, 1, 2)])
    for rules, givens in ((cage, {0: 3}), (cage, {0: 1, 1: 3}), (thermo, {1: 1}), (thermo, {0: 3, 2: 4}),
                          (thermo, {2: 2})):
        puzzle = Puzzle(shape, tuple(givens.get(cell, 0) for cell in range(16)), rules)
        assert brute_force(puzzle) == []
        assert jitted.solve(puzzle).status is Status.NO_SOLUTION
        assert jitted.count(puzzle, limit=10).count == 0


def test_solve_batch_takes_the_rules_of_its_batch(jitted):
    shape = Shape(3, 3)
    rules = preset_rules(shape, "x+anti-knight")
    answer = jitted.solve(Puzzle(shape, (0,) * 81, rules)).grid
    puzzles = [cut(answer, shape, 30, random.Random(seed)).with_rules(rules) for seed in range(12)]
    givens = np.array([p.givens for p in puzzles], dtype=np.uint8)
    results = jitted.solve_batch(givens, shape, rules=rules)
    for i, puzzle in enumerate(puzzles):
        got, alone = results.result(i, shape), jitted.solve(puzzle)
        assert (got.status, got.grid, dict(got.stats)) == (alone.status, alone.grid, dict(alone.stats))
        assert is_solution(got.grid, puzzle)
    standard_results = jitted.solve_batch(givens, shape)
    assert any(not is_solution(standard_results.result(i, shape).grid, p) for i, p in enumerate(puzzles))
    with pytest.raises(ValueError, match="rules are for"):
        jitted.solve_batch(givens, Shape(2, 2), rules=rules)


def test_tables_are_built_once_per_rule_set_and_the_standard_ones_match_the_shape():
    shape = Shape(3, 3)
    assert jit.layout(build(shape, ["x"])) is jit.layout(build(shape, ["x"]))
    tables = jit.layout(standard(shape))
    assert len(tables.units) == 27 * 9 and set(tables.peer_count) == {20} and set(tables.weight0) == {3}
    x = jit.layout(build(shape, ["x"]))
    assert len(x.units) == 29 * 9 and x.peer_count[40] == 20 + 12 and x.peer_count[1] == 20


@pytest.mark.parametrize("thermo", [(0, 5, 10, 15), (12, 9, 6, 3), (5, 10), (9, 6), (4, 9, 14), (1, 6, 11)])
def test_thermometers_across_boxes_increase_strictly(jitted, thermo):
    """Cells diagonally apart across a box border share no group: only the thermometer keeps them apart."""
    puzzle = Puzzle(Shape(2, 2), (0,) * 16, build(Shape(2, 2), thermos=[thermo]))
    expected = brute_force(puzzle)
    assert expected
    assert jitted.count(puzzle, limit=1000).count == len(expected)
    assert jitted.solve(puzzle, canonical=True).grid == expected[0]


@pytest.mark.slow
def test_the_compiled_search_is_cached_on_disk_and_only_a_cold_start_says_it_compiles(tmp_path):
    """Two processes on one cache folder, stderr on a terminal: the first compiles, says so once on
    stderr (never on stdout) and leaves numba's index and code files; the second loads them, says
    nothing, and compiles nothing (numba's dispatcher stats: cache hits for every entry kernel, no miss)."""
    import os
    import pty

    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "SUDOKULAB_JIT_BACKEND": "numba"}  # C compiles nothing
    command = [sys.executable, "-m", "sudokulab", "solve", str(ROOT / "examples" / "boj2580-sample.txt"),
               "--solver", "backtrack-jit"]

    def run(timeout: float) -> tuple[int, str, str]:
        """The command with stdout a pipe and stderr a pseudo-terminal."""
        screen, terminal = pty.openpty()
        try:
            done = subprocess.run(command, env=env, stdout=subprocess.PIPE, stderr=terminal, text=True,
                                  timeout=timeout)
        finally:
            os.close(terminal)
        shown = b""
        while True:
            try:
                chunk = os.read(screen, 1 << 16)
            except OSError:  # the terminal's other end is closed and drained
                break
            if not chunk:
                break
            shown += chunk
        os.close(screen)
        return done.returncode, done.stdout, shown.decode()

    code, out, err = run(4 * HANG)
    assert code == 0, err
    assert err.count("sudokulab: compiling the search once (about") == 1, err
    assert str(tmp_path) in err.replace("\r\n", "") and "compiling" not in out
    assert list(tmp_path.rglob("*.nbi")) and list(tmp_path.rglob("*.nbc"))
    assert run(HANG) == (0, out, "")
    probe = ("from sudokulab.solvers.jit import numba_search as jit_numba, solver as jit\n"
             "warm = jit_numba.cache_is_warm()\n"
             "jit.JitSolver.warm_up()\n"
             "misses = sum(sum(k.stats.cache_misses.values()) for k in jit_numba.ENTRY_KERNELS)\n"
             "print(warm, misses, all(k.stats.cache_hits for k in jit_numba.ENTRY_KERNELS))\n")
    loaded = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=HANG)
    assert (loaded.stdout, loaded.stderr) == ("True 0 True\n", "")
