"""local-search: answers that keep the rules, "no solution" only when proved, and no claim it cannot keep.

Local search is incomplete, so it is held to less than the other paradigms and tested for exactly
that: every grid it gives passes the independent checker (``is_solution``) and, on unique
puzzles, is the grid ``sat`` finds; "no solution" comes only with a proof (givens, propagation or
matching); where it finds nothing it says "time limit reached"; the same seed gives the same run.
Where a test needs a method to succeed, it gives it a budget of moves, not of seconds, and a seed:
the run is then the same on any machine under any load, so the test cannot be flaky; how often and
how fast each method succeeds is measured in ``benchmarks/local_search.py``.
"""

from __future__ import annotations

import random
import time

import pytest

from sudokulab import Puzzle, Shape, Status, UnsupportedFeature, UsageError, is_solution, parse_puzzle, solvers
from sudokulab.core.rules import build
from sudokulab.generation.puzzles import random_grid, remove_clues
from sudokulab.grading import contract
from sudokulab.solvers.local_search.board import _matching

from ..cli.test_hardening import interrupt
from ..conftest import HANG, run_cli
from .test_rules_contract import VARIANTS, load_variant

METHODS = ("repair", "annealing", "min-conflicts")
HARD = ("1.......9..67...2..8....4......75.3...5..2....6.3......9....8..6...4...1..25...6.",
        "..2...7...1.....6.5......18....37.......49.....41.23....3.2.9...8.....5.6.......2")
"""Two hard 9x9 puzzles (the second is forum_hardest_1106's third): singles leave 59 and 58 cells open."""
ANTI_KING_4 = Puzzle.empty(Shape(2, 2)).with_rules(build(Shape(2, 2), ["anti-king"]))
"""No grid keeps these rules, and propagation cannot tell: only a search would prove it."""


def cut(shape: Shape, fraction: float, seed: int) -> Puzzle:
    rng = random.Random(seed)
    return remove_clues(random_grid(shape, rng), shape, round(fraction * shape.cells), rng)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("shape, fraction", [(Shape(2, 2), 0.0), (Shape(2, 3), 0.2), (Shape(3, 3), 0.35),
                                             (Shape(3, 3), 0.5), (Shape(4, 4), 0.6)])
def test_boards_of_every_size_are_solved_by_the_rules(method, shape, fraction):
    puzzle = cut(shape, fraction, seed=shape.n)
    result = solvers.get("local-search", method=method).solve(puzzle)
    assert result.status is Status.SOLVED, result
    assert is_solution(result.grid, puzzle)
    assert result.stats["flips"] >= 0 and result.stats["free_cells"] >= 0


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("what", ["x 4x4", "anti-knight 6x6", "killer 6x6", "thermo 6x6"])
def test_the_contracts_empty_variant_boards_are_solved(method, what):
    puzzle = dict(contract.variant_puzzles(solvers.get("backtrack")))[what]
    result = solvers.get("local-search", method=method).solve(puzzle)
    assert result.status is Status.SOLVED and is_solution(result.grid, puzzle), result
    assert result.stats["best_cost"] == 0


@pytest.mark.slow
@pytest.mark.parametrize("path", VARIANTS, ids=[p.stem for p in VARIANTS])
def test_published_variants_agree_with_sat(sat, path):
    """Unique puzzles (x, windoku, anti-knight, jigsaw, killer, thermo): the one grid, as sat finds it."""
    puzzle, published, _ = load_variant(path)
    result = solvers.get("local-search").solve(puzzle, time_limit=120)
    assert result.status is Status.SOLVED, result
    assert result.grid == sat.solve(puzzle).grid == published


def test_the_same_seed_gives_the_same_run_and_another_seed_another():
    puzzle = cut(Shape(3, 3), 0.3, seed=7)
    runs = [solvers.get("local-search", seed=seed).solve(puzzle) for seed in (1, 1, 2)]
    assert runs[0].grid == runs[1].grid and dict(runs[0].stats) == dict(runs[1].stats)
    assert dict(runs[0].stats) != dict(runs[2].stats)
    assert all(is_solution(run.grid, puzzle) for run in runs)


def test_no_solution_only_with_a_proof():
    solver = solvers.get("local-search")
    broken = solver.solve(contract.BROKEN)
    assert (broken.status, broken.stats["proof"]) == (Status.NO_SOLUTION, "givens")
    corner = solver.solve(contract.CORNER)
    assert (corner.status, corner.stats["proof"]) == (Status.NO_SOLUTION, "propagation")
    # no proof within the flip budget: nothing known, never "no solution"
    stuck = solvers.get("local-search", max_flips=2_000).solve(ANTI_KING_4)
    assert stuck.status is Status.TIME_LIMIT and stuck.grid is None and "proof" not in stuck.stats
    assert stuck.stats["flips"] == 2_000 and stuck.stats["best_cost"] > 0


def test_a_fill_the_blocks_force_and_that_breaks_a_rule_is_a_proof():
    """One open cell per box, each forced, and the forced digits clash: without propagation
    (Lewis's own method) that is seen from the fill; with it, by propagation."""
    puzzle = Puzzle(Shape(2, 2), (0, 4, 3, 2, 3, 2, 4, 0, 0, 1, 2, 4, 2, 3, 1, 0))
    assert puzzle.rules.first_conflict(puzzle.givens) is None
    for propagate, proof in ((False, "forced"), (True, "propagation")):
        result = solvers.get("local-search", method="annealing", propagate=propagate).solve(puzzle)
        assert (result.status, result.stats["proof"]) == (Status.NO_SOLUTION, proof)


def test_a_block_whose_cells_cannot_take_its_digits_has_no_matching():
    """Three cells left only 1 and 2 between them: the proof behind ``proof: matching``."""
    rng = random.Random(0)
    assert _matching([0, 1, 2], [1, 2, 3], [0b011] * 3, rng) is None
    assert _matching([0, 1, 2], [1, 2, 3], [0b011, 0b110, 0b100], rng) == {0: 1, 1: 2, 2: 3}


@pytest.mark.slow
@pytest.mark.parametrize("method", METHODS)
def test_a_hard_25x25_comes_back_with_the_time_limit(method):
    puzzle = cut(Shape(5, 5), 0.45, seed=2007)
    started = time.perf_counter()
    result = solvers.get("local-search", method=method).solve(puzzle, time_limit=0.5)
    assert time.perf_counter() - started < 30  # a hang guard, not a speed figure
    assert result.status is Status.TIME_LIMIT and result.grid is None
    assert result.stats["flips"] > 0


@pytest.mark.slow
def test_ctrl_c_stops_it(tmp_path):
    """SIGINT to a command searching a board with no grid: exit 130 and one line, at once."""
    empty = tmp_path / "empty4.txt"
    empty.write_text("0 0 0 0\n" * 4)
    code, err, took = interrupt(["solve", str(empty), "--rules", "anti-king", "--solver", "local-search",
                                 "-o", "max_flips=1000000000"])
    assert (code, err) == (130, b"sudokulab: interrupted\n") and took < HANG


def test_canonical_answers_and_counts_are_refused_in_one_line():
    solver = solvers.get("local-search")
    for call in (lambda: solver.solve(contract.BOJ_SAMPLE, canonical=True),
                 lambda: solver.count(contract.BOJ_SAMPLE)):
        with pytest.raises(UnsupportedFeature, match="incomplete") as refused:
            call()
        assert "'local-search'" in str(refused.value) and "\n" not in str(refused.value)
    assert not solver.capabilities.complete and solver.capabilities.kinds == {"all-different", "differ", "sum",
                                                                               "increasing"}


@pytest.mark.parametrize("options, words", [
    ({"method": "genetic"}, "unknown method 'genetic'; choose one of: repair, annealing, min-conflicts"),
    ({"propagate": False}, "method repair propagates after every move; propagate=false is for annealing"),
    ({"max_flips": 0}, "max_flips must be at least 1"),
    ({"cooling": 1.5}, "cooling must be at most 1.0"),
    ({"seed": "x"}, "seed must be a whole number"),
])
def test_bad_options_are_refused_in_one_line(options, words):
    with pytest.raises(UsageError, match=words):
        solvers.get("local-search", **options)


def test_describe_names_the_backend_and_the_options():
    described = solvers.describe("local-search")
    assert described["installed"] and "Python" in described["backend"]
    assert described["capabilities"]["complete"] is False
    assert {o["name"] for o in described["options"]} >= {"method", "seed", "max_flips", "temperature", "cooling",
                                                          "reheat"}


def test_the_command_line_says_time_limit_reached_when_the_budget_runs_out(capsys, tmp_path):
    """Exit 3 and one line, also with no --time-limit (the flip budget ran out: still nothing known)."""
    empty = tmp_path / "empty4.txt"
    empty.write_text("0 0 0 0\n" * 4)
    code, out, err = run_cli(capsys, "solve", str(empty), "--rules", "anti-king", "--solver", "local-search",
                             "-o", "max_flips=1000")
    assert (code, out) == (3, "") and err == "sudokulab: time limit reached: no answer within the solver's own budget\n"
    code, out, err = run_cli(capsys, "solve", str(empty), "--solver", "local-search", "-o", "method=min-conflicts")
    assert code == 0 and is_solution(tuple(int(v) for v in out.split()), Puzzle.empty(4)), err


# --- decision repair, the default -------------------------------------------------------------------

@pytest.mark.parametrize("puzzle", HARD, ids=["hard-1", "hard-2"])
def test_repair_solves_the_hardest_puzzles_within_a_budget_of_moves(sat, puzzle):
    """Propagation after every move: a hard puzzle's forced cells follow from a few decisions (Lewis's
    annealing, which repairs full boards blind to propagation, needs minutes on such puzzles)."""
    puzzle = parse_puzzle(puzzle)
    result = solvers.get("local-search", max_flips=50_000).solve(puzzle)
    assert result.status is Status.SOLVED and result.grid == sat.solve(puzzle).grid, result
    assert result.stats["method"] == "repair" and 0 < result.stats["flips"] <= 50_000


@pytest.mark.parametrize("path", VARIANTS, ids=[p.stem for p in VARIANTS])
def test_repair_solves_every_published_variant_within_a_budget_of_moves(path):
    puzzle, published, _ = load_variant(path)
    result = solvers.get("local-search", max_flips=50_000).solve(puzzle)
    assert result.status is Status.SOLVED and result.grid == published, result


def test_a_dead_end_is_repaired_not_backtracked_and_proves_nothing():
    """The empty 4x4 under anti-king rules has no grid: repair meets dead ends, drops decisions, restarts,
    and ends at its budget with "time limit reached", the fewest open cells it reached above 0."""
    result = solvers.get("local-search", max_flips=2_000, reheat=50).solve(ANTI_KING_4)
    assert result.status is Status.TIME_LIMIT and result.grid is None and "proof" not in result.stats
    assert result.stats["flips"] == 2_000 and result.stats["restarts"] > 0 and result.stats["best_cost"] > 0
    assert result.stats["accepted"] > result.stats["restarts"]  # decisions made, dropped, made again
