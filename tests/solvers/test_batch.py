"""Batches: read in bulk, solved through the batch entry point or the loop, checked by the vectorised
rule, summed from arrays: each must agree with its one-puzzle counterpart."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokulab import solvers
from sudokulab.bench import run as bench
from sudokulab.bench.results import BenchTally as Tally
from sudokulab.bench.results import Row
from sudokulab.core.grid import Shape
from sudokulab.core.puzzle import Puzzle, is_solution, solution_error
from sudokulab.datasets.reading import Dataset, parse_lines
from sudokulab.generation.puzzles import random_grid
from sudokulab.solvers.base import SolverBase, SolveResult, Status
from sudokulab.solvers.batch import CODE, STATUSES, Batch, BatchResults, pack_results, pack_stats, solve_batch
from sudokulab.verdicts.checking import check_batch, check_results, grids_valid

EASY = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def batch_of(entries) -> list[tuple[int, int, tuple[int, ...]]]:
    """(index, line, givens) of every good puzzle, in index order."""
    out = []
    for item in entries:
        if isinstance(item, Batch):
            out += [(int(item.index[i]), int(item.line[i]), item.puzzle(i).givens) for i in range(len(item))]
        elif getattr(item, "puzzle", None) is not None:
            out.append((item.index, item.line, item.puzzle.givens))
    return sorted(out)


def test_batches_hold_the_same_puzzles_as_entries(tmp_path):
    board = "\n".join(" ".join("0" for _ in range(4)) for _ in range(4))
    lines = [EASY, "# a comment", EASY.replace(".", "0"), "x" * 81, "", board, "", "1234", EASY[:80],
             "1..." * 4, "." * 36, EASY]
    path = tmp_path / "mixed.txt"
    path.write_text("\n".join(lines) + "\n")
    dataset = Dataset.from_path(path)
    expected = batch_of(dataset.entries())
    for size in (1, 2, 3, 100):
        items = list(dataset.batches(size))
        assert batch_of(items) == expected
        assert sorted(e.index for e in items if not isinstance(e, Batch)) == \
            sorted(e.index for e in dataset.entries() if not e.ok)
        assert all(len(b) <= size for b in items if isinstance(b, Batch))
        assert {b.shape.n for b in items if isinstance(b, Batch)} == {4, 6, 9}
    limited = Dataset.from_path(path, limit=3)
    assert batch_of(limited.batches(10)) == batch_of(limited.entries())


def test_a_box_split_applies_to_one_line_puzzles_too(tmp_path):
    path = tmp_path / "six.txt"
    path.write_text("." * 36 + "\n")
    (batch,) = Dataset.from_path(path, box=(3, 2)).batches(8)
    assert batch.shape == Shape(3, 2)
    (bad,) = Dataset.from_path(path, box=(2, 2)).batches(8)
    assert "does not fit" in bad.error


@settings(deadline=None, max_examples=60)
@given(st.lists(st.sampled_from([EASY, EASY[:-1] + "9", "." * 81, "1" * 81, "0" * 16, "12" * 8, "z" * 81,
                                 "5 3 0 0", "9" * 80]), max_size=12), st.integers(1, 5))
def test_batches_agree_with_entries_on_any_mix(lines, size):
    entries = list(parse_lines(lines))
    raw = list(parse_lines(lines, raw=True))
    assert [e.index for e in raw] == [e.index for e in entries]
    dataset = Dataset.from_puzzles("mem", [e.puzzle for e in entries if e.ok])
    assert len(batch_of(dataset.batches(size))) == sum(e.ok for e in entries)


# --- the vectorised check is the one rule -------------------------------------------------------------

def grids_for(shape: Shape, count: int, rng: random.Random) -> tuple[np.ndarray, np.ndarray, list[Puzzle]]:
    """Random solved grids, each damaged or not, with puzzles made from the undamaged grids."""
    givens, answers, puzzles = [], [], []
    for _ in range(count):
        solution = list(random_grid(shape, rng))
        puzzle = [v if rng.random() < 0.3 else 0 for v in solution]
        answer = list(solution)
        damage = rng.randrange(6)
        cell = rng.randrange(shape.cells)
        if damage == 1:
            answer[cell] = answer[cell] % shape.n + 1  # a repeated digit somewhere
        elif damage == 2:
            answer[cell] = 0  # incomplete
        elif damage == 3:
            answer[cell] = shape.n + 1  # out of range
        elif damage == 4 and puzzle[cell] and shape.n > 1:
            other = next(i for i in range(shape.cells) if i // shape.n == cell // shape.n and answer[i] != answer[cell])
            answer[cell], answer[other] = answer[other], answer[cell]  # a given changed, the row still whole
        givens.append(puzzle)
        answers.append(answer)
        puzzles.append(Puzzle(shape, tuple(puzzle)))
    return np.array(givens, dtype=np.uint8), np.array(answers, dtype=np.uint8), puzzles


@pytest.mark.parametrize("shape", [Shape(1, 1), Shape(2, 2), Shape(2, 3), Shape(3, 3), Shape(3, 4), Shape(4, 4)])
def test_grids_valid_agrees_with_the_checker(shape):
    rng = random.Random(shape.n)
    givens, answers, puzzles = grids_for(shape, 40, rng)
    vectorised = grids_valid(answers, givens, shape)
    assert list(vectorised) == [is_solution(tuple(map(int, a)), p) for a, p in zip(answers, puzzles)]
    assert vectorised.any() and not vectorised.all()


@pytest.mark.parametrize("shape", [Shape(4, 5), Shape(6, 6), Shape(8, 8)], ids=str)
def test_grids_valid_on_big_boards_whose_digit_bits_take_wider_words(shape):
    """20 digits (32-bit words), 36 (64-bit words) and 64, where the digit bits fill a whole word."""
    rows, cols, n = shape.box_rows, shape.box_cols, shape.n
    solution = [(r * cols + r // rows + c) % n + 1 for r in range(n) for c in range(n)]  # the shifted-rows pattern
    puzzle = Puzzle(shape, tuple(solution[:100]) + (0,) * (shape.cells - 100))
    repeated = list(solution)
    repeated[200] = repeated[201]
    answers = np.array([solution, repeated], dtype=np.uint8)
    assert is_solution(tuple(solution), puzzle) and not is_solution(tuple(repeated), puzzle)
    assert list(grids_valid(answers, np.array([puzzle.givens] * 2, dtype=np.uint8), shape)) == [True, False]


statuses = st.sampled_from(list(Status))


@pytest.mark.slow
@settings(deadline=None, max_examples=200)
@given(st.lists(st.tuples(statuses, statuses, statuses), min_size=1, max_size=6), st.integers(0, 2**32 - 1))
def test_check_batch_gives_the_verdicts_of_check_results(per_puzzle, seed):
    """Three solvers, random statuses and grids (some wrong): the same verdicts and words either way."""
    rng = random.Random(seed)
    shape = Shape(2, 2)
    givens, answers, puzzles = grids_for(shape, len(per_puzzle), rng)
    results = []
    for position, name in enumerate(("a", "b", "c")):
        one = []
        for i, statuses_here in enumerate(per_puzzle):
            status = statuses_here[position]
            grid = tuple(map(int, answers[i])) if status is Status.SOLVED else None
            stats = {"error": "raised ValueError: x"} if status is Status.ERROR else {}
            one.append(SolveResult(name, status, grid, 0.001, stats))
        results.append(one)
    batches = [pack_results(name, shape, rs, [0.0] * len(rs)) for name, rs in zip("abc", results)]
    verdicts = check_batch(givens, shape, batches)
    for i, puzzle in enumerate(puzzles):
        one = check_results(puzzle, [rs[i] for rs in results])
        for position, checked in enumerate(one):
            assert bool(verdicts[position].valid[i]) == (checked.right is not False)
            assert verdicts[position].problems.get(i) == checked.problem


# --- packing, tallies, the loop ------------------------------------------------------------------------

def test_pack_stats_splits_arrays_constants_and_the_rest():
    arrays, constant, other = pack_stats([{"nodes": 3, "engine": "x", "t": 1.5, "odd": "a"},
                                          {"nodes": 4, "engine": "x", "odd": 2}])
    assert list(arrays["nodes"]) == [3, 4] and constant == {"engine": "x"}
    assert np.isnan(arrays["t"][1]) and arrays["t"][0] == 1.5
    assert other == [{"odd": "a"}, {"odd": 2}]


def test_tally_add_batch_sums_as_add_does_row_by_row():
    shape = Shape(3, 3)
    grid = random_grid(shape, random.Random(1))
    results = [SolveResult("s", Status.SOLVED, grid, 0.5, {"nodes": 3, "engine": "e", "flag": True}),
               SolveResult("s", Status.TIME_LIMIT, None, 2.0, {"nodes": 7, "engine": "e", "flag": False}),
               SolveResult("s", Status.NO_SOLUTION, None, 0.25, {"engine": "e", "depth": 1.5})]
    right = SolveResult("s", Status.SOLVED, grid, 0.75, {"nodes": 2, "engine": "e", "flag": True})
    by_rows, by_batch = Tally(), Tally()
    # a batch of right answers first (the solved times are then the times), then one that is not
    for batch, valid in (([right, right], [True, True]), (results, [True, True, False])):
        packed = pack_results("s", shape, batch, [0.1, 0.2, 0.3][:len(batch)])
        by_batch.add_batch(packed, np.array(valid))
        for i, r in enumerate(batch):
            by_rows.add(Row("d", i, i + 1, "s", r.status.value, r.seconds, valid[i], packed.stats_of(i),
                            cpu_seconds=[0.1, 0.2, 0.3][i]))
    for name in ("times", "solved_times", "cpu", "counts", "wrong", "sums", "reported"):
        mine, theirs = getattr(by_batch, name), getattr(by_rows, name)
        assert (mine.sample() if name.endswith("times") else mine) == pytest.approx(
            theirs.sample() if name.endswith("times") else theirs), name
    assert by_batch.solved_times.sample() == (0.5, 0.75, 0.75)
    assert by_batch.times.sample() == (0.25, 0.5, 0.75, 0.75, 2.0)


def test_a_tally_of_right_answers_only_keeps_its_times_once():
    """Every answer right: the solved times are the times, one object sorted once; a wrong answer
    later splits them, without changing the times already solved."""
    shape = Shape(3, 3)
    grid = random_grid(shape, random.Random(2))
    tally = Tally()
    tally.add_batch(pack_results("s", shape, [SolveResult("s", Status.SOLVED, grid, t, {}) for t in (0.3, 0.1)],
                                 [0.0, 0.0]), np.array([True, True]))
    assert tally.solved_times is tally.times
    assert tally.times.ordered() is tally.solved_times.sample()
    tally.add_batch(pack_results("s", shape, [SolveResult("s", Status.SOLVED, grid, 0.2, {})], [0.0]),
                    np.array([False]))
    assert tally.solved_times is not tally.times
    assert tally.solved_times.sample() == (0.1, 0.3)
    assert tally.times.sample() == (0.1, 0.2, 0.3)


class Raising:
    """A solver whose batch entry point fails: every puzzle of the batch is its ERROR."""

    name = "raising"
    capabilities = solvers.Capabilities()

    def solve_batch(self, givens, shape, *, time_limit=None):
        raise RuntimeError("batch broke")


def test_solve_batch_loops_when_a_solver_has_no_batch_entry_point_and_records_a_crash():
    puzzle = Puzzle(Shape(3, 3), tuple(0 if c == "." else int(c) for c in EASY))
    batch = Batch.of("d", [puzzle, Puzzle.empty(9)])
    with solvers.get("backtrack-fast") as fast:
        looped = solve_batch(fast, batch, time_limit=10)
    assert [STATUSES[c] for c in looped.status] == [Status.SOLVED, Status.SOLVED]
    assert all(is_solution(looped.result(i, batch.shape).grid, batch.puzzle(i)) for i in range(2))
    assert looped.stats["nodes"].dtype == np.int64
    crashed = solve_batch(Raising(), batch)
    assert list(crashed.status) == [CODE[Status.ERROR]] * 2
    assert crashed.errors[0] == "raised RuntimeError: batch broke"


@pytest.mark.slow
def test_a_bench_row_per_puzzle_and_solver_whatever_the_batch_size(tmp_path):
    path = tmp_path / "set.txt"
    path.write_text("\n".join([EASY] * 7 + ["1" * 81, EASY]) + "\n")
    seen = {}
    for size in (1, 3, 512):
        out = tmp_path / f"{size}.csv"
        report = bench.run_bench([path], ["backtrack-fast", "sat"], csv_path=out, progress=False,
                                 warn=lambda _m: None, batch_size=size)
        text = out.read_text().splitlines()
        seen[size] = sorted(tuple(line.split(",")[1:5:]) for line in text[1:])
        assert report.totals == {"set": 9} and report.wrong == 0
        assert {s.solver: (s.solved, s.no_solution) for s in report.summaries} == {"backtrack-fast": (8, 1),
                                                                                 "sat": (8, 1)}
    assert seen[1] == seen[3] == seen[512] and len(seen[1]) == 18


def test_wrong_answers_in_a_batch_are_named_with_their_puzzle(tmp_path):
    path = tmp_path / "set.txt"
    path.write_text("\n".join([EASY] * 3) + "\n")

    class Liar(SolverBase):
        name = "liar"

        def solve(self, puzzle, *, time_limit=None, canonical=False):
            return SolveResult("liar", Status.SOLVED, (1,) * 81, 0.0, {})

    solvers.REGISTRY["liar"] = Liar
    try:
        messages = []
        report = bench.run_bench([path], ["liar"], progress=False, warn=messages.append, batch_size=2)
    finally:
        del solvers.REGISTRY["liar"]
    assert report.wrong == 3
    first = solution_error((1,) * 81, Puzzle(Shape(3, 3), tuple(0 if c == "." else int(c) for c in EASY)))
    assert [m.split(": ", 1)[0] for m in messages] == ["WRONG"] * 3
    assert all(first in m and EASY in m for m in messages)
    assert sorted(int(m.split("(puzzle ")[1].split(")")[0]) for m in messages) == [1, 2, 3]


def test_batch_results_give_back_solve_results():
    batch = Batch.of("d", [Puzzle.empty(4)])
    packed = BatchResults("s", np.array([CODE[Status.ERROR]], dtype=np.int8), np.zeros((1, 16), np.uint8),
                          np.array([0.5]), np.array([0.1]), errors={0: "raised X"})
    result = packed.result(0, batch.shape)
    assert result.status is Status.ERROR and result.grid is None and result.stats == {"error": "raised X"}


# --- bounded memory for the quantiles ------------------------------------------------------------------

def test_durations_are_exact_up_to_the_limit_then_within_half_a_bin(monkeypatch):
    from sudokulab.bench.results import Durations, quantile

    rng = np.random.default_rng(7)
    values = np.exp(rng.normal(-9, 2, 5000))  # log-normal seconds, as solve times are
    monkeypatch.setattr(Durations, "EXACT", 10**6)
    exact = Durations()
    exact.extend(values[:2500])
    for v in values[2500:]:
        exact.append(float(v))
    assert not exact.approximate and exact.sample() == tuple(sorted(values))
    monkeypatch.setattr(Durations, "EXACT", 1000)
    folded = Durations()
    folded.extend(values[:600])
    folded.extend(values[600:])
    assert folded.approximate and len(folded.exact) == 0 and len(folded.bins) < 1000
    assert len(folded) == 5000 and folded.total == pytest.approx(values.sum()) and folded.largest == values.max()
    ordered = sorted(values)
    for q in (0.0, 0.1, 0.5, 0.9, 0.99, 1.0):
        assert folded.quantile(q) == pytest.approx(quantile(ordered, q), rel=0.011)
    sample = folded.sample(50)
    assert len(sample) == 50 and list(sample) == sorted(sample) and sample[-1] == values.max()


@pytest.mark.slow
def test_a_sampled_cactus_line_spans_every_puzzle_solved(tmp_path):
    pytest.importorskip("matplotlib")
    from sudokulab.ui import plots

    path = plots.cactus_plot({"big": {"s": (0.001, 0.002, 0.01)}}, tmp_path / "c.png", totals={"big": 3_000_000},
                             counts={"big": {"s": 2_500_000}})
    assert path.stat().st_size > 1000


def test_a_batch_refuses_givens_no_puzzle_has():
    shape = Shape(2, 2)
    index = np.arange(1)
    with pytest.raises(ValueError, match="0..4"):
        Batch("d", shape, np.full((1, 16), 5, dtype=np.uint8), index, index + 1)
    with pytest.raises(ValueError, match="uint8"):
        Batch("d", shape, np.zeros((1, 15), dtype=np.uint8), index, index + 1)
    with pytest.raises(ValueError, match="one index"):
        Batch("d", shape, np.zeros((2, 16), dtype=np.uint8), index, index + 1)


@pytest.mark.parametrize("tail", [[], ["# a comment", EASY], ["x" * 81, EASY], [EASY[:80]], ["", "1234", "5 3 0 0"],
                                  [EASY[:80], EASY + "1"]])  # as many bytes and line ends as two rows
@pytest.mark.parametrize("limit", [None, 2, 7, 40])
def test_the_bulk_prefix_of_a_file_reads_as_the_line_reader_does(tmp_path, monkeypatch, tail, limit):
    from sudokulab.datasets.one_line_files import BulkPrefix

    monkeypatch.setattr(BulkPrefix, "BLOCK", 200)  # a few lines a block: blocks end mid-file
    variants = [EASY, EASY.replace(".", "0"), EASY[::-1]]
    lines = [variants[i % 3] for i in range(11)] + tail + [EASY] * 3
    for ending, name in (("\n", "lf.txt"), ("\r\n", "crlf.txt")):
        path = tmp_path / name
        path.write_bytes(ending.join(lines).encode())  # and no newline after the last line
        dataset = Dataset.from_path(path, limit=limit)
        items = list(dataset.batches(3))
        assert batch_of(items) == batch_of(dataset.entries())
        assert sorted(e.index for e in items if not isinstance(e, Batch)) == \
            sorted(e.index for e in dataset.entries() if not e.ok)
    (nine,) = {b.shape for b in Dataset.from_path(tmp_path / "lf.txt", box=(1, 9)).batches(64) if isinstance(b, Batch)}
    assert nine == Shape(1, 9)


class Slow:
    """A batch entry point that spends time outside its per-puzzle clocks (as decoding does)."""

    name = "slow"

    def solve_batch(self, givens, shape, *, time_limit=None):
        import time as clock

        clock.sleep(0.05)
        k = len(givens)
        return BatchResults("slow", np.full(k, CODE[Status.TIME_LIMIT], np.int8), np.zeros_like(givens),
                            np.full(k, 0.001), np.zeros(k))


def test_time_outside_the_per_puzzle_clocks_is_shared_out():
    batch = Batch.of("d", [Puzzle.empty(4)] * 5)
    results = solve_batch(Slow(), batch)
    assert results.seconds.sum() >= 0.05 and np.ptp(results.seconds) < 1e-9  # all of the call, evenly


# --- batches under variant rules -------------------------------------------------------------------

def _variant_rules(shape: Shape, grid: tuple[int, ...], rng: random.Random):
    """Random rules on a board: some presets, and cages and thermometers drawn from ``grid`` (so that
    it keeps them, whatever the presets say)."""
    from sudokulab.core.rules import build

    n = shape.n
    presets = [p for p in ("x", "windoku", "anti-knight", "anti-king") if rng.random() < 0.4]
    cages, thermos, used = [], [], set()
    for _ in range(rng.randrange(4)):
        cell = rng.randrange(n * n)
        right = cell + 1 if cell % n < n - 1 else None
        if right is None or {cell, right} & used or grid[cell] == grid[right]:
            continue
        used |= {cell, right}
        if rng.random() < 0.5:
            cages.append(((cell, right), grid[cell] + grid[right]))
        else:
            thermos.append((cell, right) if grid[cell] < grid[right] else (right, cell))
    return build(shape, presets, cages=cages, thermos=thermos)


@pytest.mark.slow
@settings(deadline=None, max_examples=150)
@given(st.sampled_from([Shape(2, 2), Shape(2, 3), Shape(3, 3)]), st.integers(0, 2**32 - 1))
def test_grids_valid_under_random_rules_agrees_with_the_checker(shape, seed):
    rng = random.Random(seed)
    first = random_grid(shape, rng)
    rules = _variant_rules(shape, first, rng)
    givens, answers, _ = grids_for(shape, 12, rng)
    answers = np.concatenate([np.array([first], dtype=np.uint8), answers])
    givens = np.concatenate([np.zeros((1, shape.cells), dtype=np.uint8), givens])
    puzzles = [Puzzle(shape, tuple(map(int, g)), rules) for g in givens]
    vectorised = grids_valid(answers, givens, shape, rules)
    assert list(vectorised) == [is_solution(tuple(map(int, a)), p) for a, p in zip(answers, puzzles)]


def test_a_batch_carries_its_rules_by_value():
    import pickle

    from sudokulab.core.rules import build, standard

    shape = Shape(2, 2)
    rules = build(shape, ["x"])
    batch = Batch.of("d", [Puzzle.empty(shape).with_rules(rules)] * 2)
    again = pickle.loads(pickle.dumps(batch))
    assert again.rules == rules and hash(again.rules) == hash(rules) and again.puzzle(1).rules == rules
    assert Batch.of("d", [Puzzle.empty(shape)]).rules is standard(shape)
    with pytest.raises(ValueError, match="one rule set"):
        Batch.of("d", [Puzzle.empty(shape), Puzzle.empty(shape).with_rules(rules)])
    with pytest.raises(ValueError, match="the rules are for"):
        Batch("d", Shape(3, 3), np.zeros((1, 81), dtype=np.uint8), np.arange(1), np.arange(1) + 1, rules)


class _BatchOnly(SolverBase):
    """A solver whose batch entry point ignores rules (it takes none): the loop must be used instead."""

    name = "batch-only"

    def __init__(self):
        super().__init__()
        self.calls: list[str] = []

    def solve(self, puzzle, *, time_limit=None, canonical=False):
        self.calls.append(f"solve {puzzle.rules.presets}")
        with solvers.get("backtrack") as solver:
            return solver.solve(puzzle, time_limit=time_limit)

    def solve_batch(self, givens, shape, *, time_limit=None):
        self.calls.append("batch")
        raise AssertionError("a batch entry point without rules must not see variant rules")


class _BatchWithRules(_BatchOnly):
    def solve_batch(self, givens, shape, *, time_limit=None, rules=None):
        self.calls.append(f"batch {rules.presets if rules else None}")
        from sudokulab.solvers.batch import solve_each

        return solve_each(self, givens, shape, time_limit, rules)


def test_solve_batch_gives_variant_rules_only_to_an_entry_point_that_takes_them():
    from sudokulab.core.rules import build

    shape = Shape(2, 2)
    rules = build(shape, ["x"])
    batch = Batch.of("d", [Puzzle.empty(shape).with_rules(rules)])
    plain, aware = _BatchOnly(), _BatchWithRules()
    for solver in (plain, aware):
        results = solve_batch(solver, batch)
        grid = tuple(int(v) for v in results.grids[0])
        assert results.status[0] == CODE[Status.SOLVED] and is_solution(grid, batch.puzzle(0))
    assert plain.calls == ["solve ('standard', 'x')"]
    assert aware.calls == ["batch ('standard', 'x')", "solve ('standard', 'x')"]


def test_a_dataset_under_rules_gives_batches_and_entries_with_them(tmp_path):
    from sudokulab.datasets.reading import read_dataset
    from sudokulab.datasets.rule_options import RuleOptions

    regions = tmp_path / "regions.txt"
    regions.write_text("1 1 2 2\n1 1 2 2\n3 4 4 4\n3 3 3 4\n")
    path = tmp_path / "set.txt"
    path.write_text("1" + "." * 15 + "\n" + "." * 81 + "\n" + "2" + "." * 15 + "\n")
    options = RuleOptions.of(rules="x", regions=str(regions))
    batches = list(Dataset.from_path(path, rules=options).batches(10))
    good = [b for b in batches if isinstance(b, Batch)]
    bad = [b for b in batches if not isinstance(b, Batch)]
    assert len(good) == 1 and len(good[0]) == 2 and set(good[0].rules.presets) == {"jigsaw", "x"}
    assert [b.line for b in bad] == [2] and "line 2: rules: " in bad[0].error and "regions" in bad[0].error
    entries = list(read_dataset(path, rules=options))
    assert [e.ok for e in entries] == [True, False, True] and entries[0].puzzle.rules == good[0].rules
    assert RuleOptions.of().standard and not options.standard
