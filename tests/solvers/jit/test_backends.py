"""``backtrack-jit``'s two backends, the C extension and the numba fallback: the C search's canonical
answers equal ``backtrack-fast``'s on a sample of every shipped set and on every rule preset it runs,
the fallback answers as the C search does, and the backend is chosen (or forced) as documented."""

from __future__ import annotations

import random
import subprocess
import sys
import textwrap

import pytest

from sudokulab import Puzzle, Shape, Status, is_solution, parse_puzzle, solvers
from sudokulab.core.rules import standard
from sudokulab.datasets import catalog
from sudokulab.datasets.reading import puzzle_lines
from sudokulab.errors import UnsupportedFeature, UsageError
from sudokulab.solvers.jit import solver as jit

from ...conftest import HANG, ROOT, cut, dataset

needs_c = pytest.mark.skipif(jit._search is None, reason="the C extension was not built here")
SETS = sorted(f"{name}.txt" for name in catalog.names())
C_PRESETS = ["standard", "x", "windoku", "anti-knight", "anti-king", "jigsaw", "x+anti-knight"]
"""Every preset the C search runs (killer and thermo go to numba), and a combination."""


def sample(name: str, k: int = 12) -> list[Puzzle]:
    """k puzzles spread evenly over a published set (its first, its last and between): the whole set where
    this machine has it, else the slice shipped with the package (a skip for a set without one)."""
    lines = [line for line in dataset(name).read_text().split() if line.strip()]
    step = max(1, (len(lines) - 1) // (k - 1))
    return [parse_puzzle(line) for line in lines[::step][:k]]


@needs_c
@pytest.mark.parametrize("name", SETS)
def test_canonical_answers_on_every_shipped_set_equal_the_fast_search(jitted, fast, name, monkeypatch):
    monkeypatch.setenv(jit.BACKEND_VARIABLE, "c")
    for puzzle in sample(name):
        assert jit.search_run(puzzle, True, True).backend == "c"
        ours = jitted.solve(puzzle, canonical=True, time_limit=HANG)
        theirs = fast.solve(puzzle, canonical=True, time_limit=HANG)
        assert ours.status is theirs.status is Status.SOLVED
        assert ours.grid == theirs.grid and is_solution(ours.grid, puzzle)


def preset_puzzles(shape: Shape, preset: str) -> list[Puzzle]:
    """The empty board under a preset and two puzzles cut from its answer (40% and 30% given); only the
    empty board where the preset has no grid on this size (6x6 X with anti-knight)."""
    from .test_solver import preset_rules

    rules = preset_rules(shape, preset)
    empty = Puzzle(shape, (0,) * shape.cells, rules)
    answer = solvers.get("backtrack-jit").solve(empty, time_limit=HANG).grid
    if answer is None:
        return [empty]
    assert is_solution(answer, empty)
    rng = random.Random(2580)
    return [empty] + [cut(answer, shape, shape.cells * share // 10, rng).with_rules(rules) for share in (4, 3)]


@pytest.mark.slow
@needs_c
@pytest.mark.parametrize("preset", C_PRESETS)
@pytest.mark.parametrize("shape", [Shape(2, 3), Shape(3, 3)], ids=str)
def test_canonical_answers_under_every_preset_equal_the_fast_search(jitted, fast, shape, preset, monkeypatch):
    monkeypatch.setenv(jit.BACKEND_VARIABLE, "c")
    for puzzle in preset_puzzles(shape, preset):
        ours = jitted.solve(puzzle, canonical=True, time_limit=HANG)
        theirs = fast.solve(puzzle, canonical=True, time_limit=HANG)
        assert ours.status is theirs.status
        assert ours.grid == theirs.grid and (ours.grid is None or is_solution(ours.grid, puzzle))


@needs_c
def test_the_numba_fallback_answers_and_counts_as_the_c_search(jitted, monkeypatch):
    pytest.importorskip("numba")
    import numpy as np

    puzzles = [parse_puzzle(line) for line in puzzle_lines(dataset("magictour_top1465.txt", 40), 40)]
    givens = np.array([p.givens for p in puzzles], dtype=np.uint8)
    answers = {}
    for backend in ("c", "numba"):
        monkeypatch.setenv(jit.BACKEND_VARIABLE, backend)
        assert jit.search_run(puzzles[0], False, True).backend == backend
        batch = jitted.solve_batch(givens, Shape(3, 3))
        canonical = [jitted.solve(p, canonical=True).grid for p in puzzles]
        counts = [jitted.count(p, limit=2).count for p in puzzles]
        answers[backend] = (batch.grids.tolist(), batch.status.tolist(), canonical, counts)
    assert answers["c"] == answers["numba"]
    assert all(is_solution(grid, p) for grid, p in zip(answers["c"][2], puzzles))


@needs_c
def test_sums_and_thermometers_go_to_numba_and_a_forced_c_search_refuses_them(monkeypatch):
    from .test_solver import preset_rules

    killer = preset_rules(Shape(2, 3), "killer")
    monkeypatch.delenv(jit.BACKEND_VARIABLE, raising=False)
    assert jit.backend(standard(Shape(3, 3))) == "c"
    assert jit.backend(killer) == "numba"
    monkeypatch.setenv(jit.BACKEND_VARIABLE, "c")
    with pytest.raises(UnsupportedFeature, match="no cage sums or thermometers"):
        jit.backend(killer)
    monkeypatch.setenv(jit.BACKEND_VARIABLE, "fortran")
    with pytest.raises(UsageError, match="must be 'c' or 'numba'"):
        jit.backend(standard(Shape(3, 3)))


@needs_c
def test_a_process_solving_with_the_c_search_imports_neither_numpy_nor_numba():
    script = textwrap.dedent("""
        import sys
        from sudokulab.cli import main as cli
        code = cli.main(["solve", "--solver", "backtrack-jit", "examples/boj2580-sample.txt"])
        print("loaded", sorted(m for m in ("numpy", "numba") if m in sys.modules), "code", code, file=sys.stderr)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=HANG, cwd=ROOT,
                          env={**__import__("os").environ, jit.BACKEND_VARIABLE: ""})
    assert "loaded [] code 0" in done.stderr, done.stderr
    assert done.stdout == (ROOT / "examples" / "boj2580-sample.out").read_text()


@pytest.mark.slow
def test_without_the_extension_the_numba_kernels_answer():
    pytest.importorskip("numba")
    script = textwrap.dedent("""
        import sys
        sys.modules["sudokulab.solvers.jit._search"] = None  # as if no compiler had built it
        from sudokulab import solvers
        from sudokulab.cli import main as cli
        print(solvers.describe("backtrack-jit")["backend"], file=sys.stderr)
        sys.exit(cli.main(["solve", "--solver", "backtrack-jit", "examples/boj2580-sample.txt"]))
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=HANG * 2, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip().splitlines()[-1] == "numba"
    assert done.stdout == (ROOT / "examples" / "boj2580-sample.out").read_text()


@needs_c
def test_the_extension_refuses_tables_and_givens_that_do_not_fit(fast):
    """The C search reads its tables without bounds checks, so it checks them once, when they are built."""
    from array import array

    t = jit.layout(standard(Shape(2, 2)))
    good = [array("i", t.peer_count), array("i", t.peers), array("i", t.peer_group), array("i", t.units),
            array("i", t.group_start), array("i", t.group_cells), array("q", t.weight0)]
    tables = jit._search.Tables(4, 16, t.width, *good)
    assert not tables.specialised and jit.c_tables(standard(Shape(3, 3))).specialised
    for index, bad in [(1, array("i", [99] * len(t.peers))), (3, array("i", t.units[:-1])),
                       (5, array("i", [16] * len(t.group_cells))), (6, array("q", t.weight0[:-1]))]:
        with pytest.raises(ValueError):
            jit._search.Tables(4, 16, t.width, *good[:index], bad, *good[index + 1:])
    search = jit._search.Search(tables)
    with pytest.raises(ValueError, match="expected 16"):
        search.start(bytes(15))
    with pytest.raises(ValueError, match="0..4"):
        search.start(bytes([5] + [0] * 15))
    with pytest.raises(RuntimeError, match="before start"):
        jit._search.Search(tables).run(False, False, 10)
    assert search.start(bytes(16)) and search.run(True, False, 1 << 20) == jit.FOUND
    assert tuple(search.solution()) == fast.solve(Puzzle.empty(Shape(2, 2)), canonical=True).grid


# --- the standard 9x9 kernel (_search9.h) against the general kernel on the same tables -----------------

def kernel_run(tables, givens: bytes, canonical: bool, wdeg: bool, solutions: int = 1):
    """Up to ``solutions`` answers in search order, with the node and backtrack counts."""
    search = jit._search.Search(tables, 4)  # four levels to begin with: the stack grows as it goes
    found = []
    if search.start(givens):
        while len(found) < solutions and search.run(canonical, wdeg, 1 << 40) == jit.FOUND:
            found.append(search.solution())
    return found, search.nodes, search.backtracks


def both_kernels(givens: bytes, canonical: bool, wdeg: bool, solutions: int = 1):
    rules = standard(Shape(3, 3))
    digit_major, general = jit.c_tables(rules), jit.c_tables(rules, False)
    assert digit_major.specialised and not general.specialised
    return kernel_run(digit_major, givens, canonical, wdeg, solutions), kernel_run(general, givens, canonical,
                                                                                   wdeg, solutions)


@needs_c
@pytest.mark.parametrize("name", SETS)
def test_the_9x9_kernel_answers_and_counts_as_the_general_one_on_every_shipped_set(name):
    """Same fixpoint, same branching cell: same answers and nodes (canonical, and fewest digits); under
    dom/wdeg a contradiction may charge other cells, so only the answers are checked, by the checker."""
    for puzzle in sample(name, 20):
        givens = bytes(puzzle.givens)
        for canonical, wdeg in ((True, False), (False, False)):
            ours, general = both_kernels(givens, canonical, wdeg)
            assert ours == general
            assert len(ours[0]) == 1 and is_solution(tuple(ours[0][0]), puzzle)
        (answer,), _, _ = both_kernels(givens, False, True)[0]
        assert is_solution(tuple(answer), puzzle)


def puzzles_around(seed: int, keep: int, corrupt: bool) -> bytes:
    """``keep`` cells of a random solved grid (a relabelled, shuffled BOJ sample answer), one of them
    perhaps changed to another digit: unique, several solutions or none."""
    rng = random.Random(seed)
    answer = [int(d) for d in (ROOT / "examples" / "boj2580-sample.out").read_text().split()]
    relabel = list(range(1, 10))
    rng.shuffle(relabel)
    grid = [relabel[d - 1] for d in answer]
    if rng.random() < 0.5:  # transpose: still a solution
        grid = [grid[9 * (c % 9) + c // 9] for c in range(81)]
    cells = rng.sample(range(81), keep)
    givens = [0] * 81
    for c in cells:
        givens[c] = grid[c]
    if corrupt:
        c = rng.choice(cells)
        givens[c] = rng.choice([d for d in range(1, 10) if d != grid[c]])
    return bytes(givens)


@needs_c
@pytest.mark.parametrize("seed", range(40))
def test_the_9x9_kernel_enumerates_as_the_general_one(seed):
    """Puzzles with one, many or no solutions (random cuts, some with a wrong digit): the first solutions
    in canonical order, their nodes and backtracks, are the general kernel's, and rise lexicographically."""
    rng = random.Random(seed)
    givens = puzzles_around(seed, rng.randrange(0, 40), corrupt=seed % 3 == 0)
    ours, general = both_kernels(givens, True, False, solutions=4)
    assert ours == general
    assert ours[0] == sorted(ours[0])
    puzzle = Puzzle(Shape(3, 3), tuple(givens))
    assert all(is_solution(tuple(s), puzzle) for s in ours[0])
    fewest, general_fewest = both_kernels(givens, False, False, solutions=4)
    assert fewest == general_fewest
    if len(ours[0]) < 4:  # all of them found: the same set in another order
        assert sorted(fewest[0]) == ours[0]


@needs_c
def test_the_9x9_kernel_is_taken_only_for_standard_tables():
    from .test_solver import preset_rules

    assert jit.c_tables(standard(Shape(3, 3))).specialised
    for preset in C_PRESETS[1:]:
        assert not jit.c_tables(preset_rules(Shape(3, 3), preset)).specialised, preset


@needs_c
@pytest.mark.parametrize("specialise", [True, False], ids=["9x9 kernel", "general kernel"])
def test_a_search_paused_every_node_resumes_to_the_same_answers_and_counts(specialise):
    """The search keeps its state between calls: one node a call gives the solutions, in order, and the
    counts of one long call (canonical and dom/wdeg, on puzzles that need hundreds of nodes)."""
    tables = jit.c_tables(standard(Shape(3, 3)), specialise)
    puzzles = [bytes(p.givens) for p in sample("forum_hardest_1106.txt", 4)]
    puzzles.append(puzzles_around(7, 22, corrupt=False))  # several solutions
    for givens in puzzles:
        for canonical, wdeg in ((True, False), (False, True)):
            whole = kernel_run(tables, givens, canonical, wdeg, solutions=3)
            search = jit._search.Search(tables, 4)
            found = []
            if search.start(givens):
                while len(found) < 3:
                    code = search.run(canonical, wdeg, 1)
                    if code == jit.FOUND:
                        found.append(search.solution())
                    elif code != jit._search.PAUSED:
                        break
            assert (found, search.nodes, search.backtracks) == whole


@needs_c
def test_a_batch_cut_into_tiny_slices_answers_as_one_slice():
    """Slices end mid-puzzle (a slice of no time ends at the first check, every node here): the batch
    resumes the open puzzle, and answers, nodes and statuses are those of one long slice."""
    import numpy as np

    puzzles = [parse_puzzle(line) for line in puzzle_lines(dataset("magictour_top1465.txt", 60), 60)]
    givens = np.array([p.givens for p in puzzles], dtype=np.uint8)
    outcomes = []
    for slice_seconds in (0.0, 1e9):
        k = len(givens)
        status, grids = np.zeros(k, np.int8), np.zeros((k, 81), np.uint8)
        wall, cpu, nodes, backtracks = np.zeros(k), np.zeros(k), np.zeros(k, np.int64), np.zeros(k, np.int64)
        search = jit._search.Search(jit.c_tables(standard(Shape(3, 3))), 4)
        search.reset_clock()
        i, calls = 0, 0
        while i < k:
            i = search.batch(givens, i, True, status, grids, wall, cpu, nodes, backtracks, 0.0, 1, slice_seconds)
            calls += 1
        outcomes.append((status.tolist(), grids.tolist(), nodes.tolist(), backtracks.tolist()))
        assert (wall > 0).all() and (cpu >= 0).all()
        if not slice_seconds:
            assert calls >= k  # at least one slice a puzzle: the clock always reads past a slice of no time
    assert outcomes[0] == outcomes[1]
    assert all(s == 0 for s in outcomes[0][0])
