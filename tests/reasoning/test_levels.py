"""levels: the propagation ladder, and the propagate command.

What a level must never do is strike a candidate a solution uses (checked against every solution
of small puzzles by brute force, and against the grid a puzzle was cut from and a solver's answer
on larger ones, under every rule kind); what the ladder must be is monotonic (each level leaves a
subset of the marks of the one before). The counts on notebook 02's generated sets are the lesson.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudokulab import is_solution, solve
from sudokulab.core.grid import Shape
from sudokulab.core.puzzle import Puzzle
from sudokulab.core.rules import build
from sudokulab.errors import UsageError
from sudokulab.formats.documents import validate
from sudokulab.generation.puzzles import generate, random_grid
from sudokulab.reasoning.candidates import Candidates
from sudokulab.reasoning.hall import hall_set, hall_sets, hall_violation, maximum_matching
from sudokulab.reasoning.ladder import summarize
from sudokulab.reasoning.levels import LEVELS, check_level, settle, settle_why

from ..conftest import ROOT, brute_force, run_cli
from ..solvers.test_backtrack import rule_sets
from ..solvers.test_rules_contract import random_cages, random_thermos

jsonschema = pytest.importorskip("jsonschema")


def ladder(puzzle: Puzzle) -> list[Candidates]:
    """Every level's marks, each level run afresh from the start (not from the level below)."""
    start = Candidates.start(puzzle)
    return [settle(start, level) for level in LEVELS]


def assert_monotonic(rungs: list[Candidates]) -> None:
    """Each level leaves a subset of the marks of the one below; a contradiction stays one (where it
    surfaces first, and so which marks it leaves, may differ between levels)."""
    for lower, higher in zip(rungs, rungs[1:]):
        if lower.contradiction:
            assert higher.contradiction, "a higher level missed a contradiction a lower one found"
        if higher.contradiction:
            continue
        for cell, (a, b) in enumerate(zip(lower.marks, higher.marks)):
            assert b & ~a == 0, f"a higher level gave back a candidate at cell {cell}"


def assert_keeps(marks: Candidates, grid: tuple[int, ...], level: str) -> None:
    for cell, digit in enumerate(grid):
        assert marks.has(cell, digit), f"{level} struck r{cell // marks.n + 1}c{cell % marks.n + 1}={digit}, " \
            "which a solution uses"


# --- soundness and the ladder's order ---------------------------------------------------------------------

@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), clues=st.integers(0, 10))
def test_4x4_no_level_strikes_a_candidate_any_solution_uses(data, clues):
    """Random 4x4 rules of every kind, random givens: checked against every solution (brute force)."""
    shape = Shape(2, 2)
    rules = data.draw(rule_sets(shape))
    cells = data.draw(st.lists(st.integers(0, 15), min_size=clues, max_size=clues, unique=True))
    givens = [0] * 16
    for cell in cells:
        givens[cell] = data.draw(st.integers(1, 4))
    puzzle = Puzzle(shape, tuple(givens), rules)
    if rules.first_conflict(puzzle.givens):
        return
    solutions = brute_force(puzzle)
    rungs = ladder(puzzle)
    assert_monotonic(rungs)
    for level, marks in zip(LEVELS, rungs):
        for grid in solutions:
            assert_keeps(marks, grid, level)
        if marks.contradiction:
            assert not solutions, f"{level} found a contradiction in a puzzle with solutions"
        elif marks.settled:
            assert solutions == [marks.grid()]
    if not solutions:
        assert rungs[-1].contradiction or not rungs[-1].settled


PRESETS = ("standard", "x", "windoku", "anti-knight", "killer", "thermo")


def variant_puzzle(shape: Shape, preset: str, seed: int, share: float) -> tuple[Puzzle, tuple[int, ...]]:
    """A puzzle of one preset cut from a grid that keeps its rules (cages and thermometers read from it)."""
    rng = random.Random(seed)
    if preset in ("killer", "thermo"):
        grid = random_grid(shape, rng)
        if preset == "killer":
            rules = build(shape, cages=random_cages(grid, shape, rng, shape.n, 4))
        else:
            rules = build(shape, thermos=random_thermos(grid, shape, rng, 3, shape.n))
    else:
        rules = build(shape, [preset])
        grid = random_grid(shape, rng, rules)
    keep = set(rng.sample(range(shape.cells), round(share * shape.cells)))
    puzzle = Puzzle(shape, tuple(v if i in keep else 0 for i, v in enumerate(grid)), rules)
    assert is_solution(grid, puzzle)
    return puzzle, grid


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shape=st.sampled_from([Shape(2, 2), Shape(2, 3), Shape(3, 3)]), preset=st.sampled_from(PRESETS),
       seed=st.integers(0, 10**6), share=st.floats(0.2, 0.6))
def test_no_level_strikes_the_grid_or_a_solvers_answer(shape, preset, seed, share):
    puzzle, grid = variant_puzzle(shape, preset, seed, share)
    answer = solve(puzzle).grid
    assert answer is not None and is_solution(answer, puzzle)
    rungs = ladder(puzzle)
    assert_monotonic(rungs)
    for level, marks in zip(LEVELS, rungs):
        assert not marks.contradiction, f"{level} found a contradiction in a solvable puzzle"
        assert_keeps(marks, grid, level)
        assert_keeps(marks, answer, level)
        if marks.settled:
            assert is_solution(marks.grid(), puzzle)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), size=st.sampled_from([4, 6, 9]))
def test_generated_unique_puzzles_settle_to_their_solution(seed, size):
    puzzle = next(generate(size, 1, unique=True, seed=seed)).puzzle
    answer = solve(puzzle).grid
    rungs = ladder(puzzle)
    assert_monotonic(rungs)
    for level, marks in zip(LEVELS, rungs):
        assert_keeps(marks, answer, level)
        if marks.settled:
            assert marks.grid() == answer


def test_a_level_is_the_same_from_the_start_or_from_the_level_below():
    puzzles = [g.puzzle for g in generate(9, 8, clues=26, seed=5)]
    for puzzle in puzzles:
        below = Candidates.start(puzzle)
        for level in LEVELS:
            afresh = settle(Candidates.start(puzzle), level)
            below = settle(below, level)
            assert below.marks == afresh.marks


def test_settle_leaves_its_input_alone_and_checks_the_level(sample):
    start = Candidates.start(sample)
    before = list(start.marks)
    assert settle(start, "naked-single").settled
    assert start.marks == before
    with pytest.raises(Exception, match="choose one of: naked-single, hidden-single"):
        check_level("x-wing")


# --- what each level sees ------------------------------------------------------------------------------------

def test_naked_single_strikes_peers_only_and_hidden_single_finds_the_one_place():
    """4x4, 1 given in r1c1: r1c2 and r2c2 lose 1 to it; strike 1 from r3c2 by hand and r4c2 is the one
    place left for 1 in column 2: a hidden single that naked singles cannot see."""
    puzzle = Puzzle(Shape(2, 2), (1,) + (0,) * 15)
    marks = Candidates.start(puzzle)
    assert not marks.has(1, 1) and not marks.has(5, 1)
    marks.remove(9, 1)
    assert settle(marks, "naked-single").marks == marks.marks
    assert settle(marks, "hidden-single").digits(13) == [1]


def test_all_different_strikes_what_hidden_singles_keep_and_names_the_hall_set():
    puzzle = Puzzle.empty(9)
    marks = Candidates.start(puzzle)
    pair = (1 << 2) | (1 << 6)  # {3, 7}
    marks.marks[1] = marks.marks[4] = pair  # r1c2 and r1c5
    assert settle(marks, "hidden-single").digits(0) == list(range(1, 10))
    after = settle(marks, "all-different")
    assert after.digits(0) == [1, 2, 4, 5, 6, 8, 9] and after.digits(8) == [1, 2, 4, 5, 6, 8, 9]
    found = hall_set(marks, 0, 3)
    assert found is not None and found.cells == (1, 4) and found.digits == (3, 7)
    assert found.text() == "r1c2, r1c5 hold {3, 7} in row 1, so 3 and 7 leave the rest of row 1"
    assert (0, 3) in found.removals and (8, 7) in found.removals
    assert hall_set(after, 0, 3) is None  # gone already
    assert hall_set(marks, 9, 3) is None  # r2c1: row 2 has no such pair


def test_on_a_generated_puzzle_all_different_removes_a_candidate_hidden_singles_keep():
    """The lesson's example: the first puzzle of notebook 02's ~24-clue set where the level helps."""
    for made in generate(9, count=100, clues=24, unique=True, seed=2):
        hidden = settle(Candidates.start(made.puzzle), "hidden-single")
        groups = [h for group in made.puzzle.rules.groups for h in hall_sets(hidden, group)]
        if groups:
            break
    else:
        pytest.fail("no puzzle of the set has a Hall set after hidden singles")
    answer = solve(made.puzzle).grid
    for found in groups:
        held = 0
        for cell in found.cells:
            held |= hidden.marks[cell]
        assert sorted(found.digits) == [d for d in range(1, 10) if held >> (d - 1) & 1]
        assert len(found.cells) == len(found.digits) and set(found.cells) <= set(found.group.cells)
        for cell, digit in found.removals:
            assert cell in found.group.cells and cell not in found.cells and digit in found.digits
            assert answer[cell] != digit and hidden.has(cell, digit)
            assert not settle(hidden, "all-different").has(cell, digit)
            assert hall_set(hidden, cell, digit) is not None


def test_module_doctests():
    import doctest

    from sudokulab.reasoning import hall, levels

    assert doctest.testmod(levels).failed == 0 and doctest.testmod(hall).failed == 0


def test_matching_and_hall_violation():
    mate, unmatched = maximum_matching([0b011, 0b011, 0b110])
    assert unmatched == -1 and sorted(mate) == [0b001, 0b010, 0b100]
    mate, unmatched = maximum_matching([0b011, 0b001, 0b010])
    assert unmatched == 2 and mate[2] == 0
    puzzle = Puzzle.empty(9)
    marks = Candidates.start(puzzle)
    marks.marks[0] = marks.marks[1] = marks.marks[2] = 0b0011  # r1c1..r1c3 share {1, 2}
    cells, digits = hall_violation(marks, puzzle.rules.groups[0])
    assert set(cells) <= {0, 1, 2} and len(cells) == 3 and digits == (1, 2)
    result, why = settle_why(marks, "all-different")
    assert result.contradiction and "hold only {1, 2} between them in row 1" in why


@pytest.mark.slow
def test_failed_literal_strikes_only_what_cannot_hold():
    """Every candidate probing strikes beyond all-different reasoning, made a given, has no solution."""
    checked = 0
    for made in generate(9, count=12, clues=24, unique=True, seed=2):
        puzzle = made.puzzle
        reasoned = settle(Candidates.start(puzzle), "all-different")
        probed = settle(reasoned, "failed-literal+matching")
        assert probed.settled and probed.grid() == solve(puzzle).grid
        for cell, digit in reasoned.pairs():
            if not probed.has(cell, digit) and checked < 6:
                givens = list(puzzle.givens)
                givens[cell] = digit
                assert solve(Puzzle(puzzle.shape, tuple(givens), puzzle.rules)).grid is None
                checked += 1
    assert checked


@pytest.mark.slow
def test_notebook_02_sets_climb_the_ladder_as_the_issue_says():
    """31/85/90/100 and 2/40/56/100: the first two levels are notebook 02's numbers."""
    for clues, seed, expected in ((30, 1, [31, 85, 90, 100]), (24, 2, [2, 40, 56, 100])):
        puzzles = [g.puzzle for g in generate(9, count=100, clues=clues, unique=True, seed=seed)]
        rows = summarize(puzzles)
        assert [row.settled for row in rows] == expected
        assert [row.level for row in rows] == list(LEVELS)
        assert all(row.contradictions == 0 and row.puzzles == 100 for row in rows)


def test_no_solution_example_is_a_contradiction():
    from sudokulab.formats.puzzle_files import read_puzzle

    from ..conftest import EXAMPLES

    puzzle = read_puzzle(str(EXAMPLES / "no-solution.txt"))
    marks, why = settle_why(Candidates.start(puzzle), "naked-single")
    assert marks.contradiction and why.endswith("has no candidate left")
    empty = [cell for cell, mask in enumerate(marks.marks) if not mask]
    assert why.startswith(f"r{empty[0] // 9 + 1}c{empty[0] % 9 + 1} ")


# --- the command ------------------------------------------------------------------------------------------

def test_cli_prints_pencil_marks_or_settled(capsys, tmp_path, sample, sample_answer):
    from ..conftest import EXAMPLES

    code, out, err = run_cli(capsys, "propagate", str(EXAMPLES / "boj2580-sample.txt"))
    assert code == 0 and out == "settled\n" + sample_answer and err == ""
    hard = tmp_path / "hard.txt"
    hard.write_text("800000000003600000070090200050007000000045700000100030001000068008500010090000400\n")
    code, out, _ = run_cli(capsys, "propagate", str(hard), "--level", "hidden-single")
    from sudokulab.formats.puzzle_files import read_puzzle

    assert code == 0 and out == settle(Candidates.start(read_puzzle(str(hard))), "hidden-single").text()


def test_cli_json_validates(capsys, tmp_path):
    from ..conftest import EXAMPLES

    for argv, expected in (([str(EXAMPLES / "boj2580-sample.txt")], 0),
                           ([str(EXAMPLES / "x.json"), "--level", "naked-single"], 0),
                           ([str(EXAMPLES / "no-solution.txt")], 1)):
        code, out, _ = run_cli(capsys, "propagate", *argv, "--json")
        document = json.loads(out)
        validate("propagate", document)
        assert code == expected
        assert document["status"] == {0: document["status"], 1: "contradiction"}[code]
        if document["status"] == "settled":
            puzzle_rows = document["grid"]
            assert all(len(row) == document["size"] for row in puzzle_rows)


def test_cli_summary_text_and_json(capsys, tmp_path):
    from ..conftest import EXAMPLES

    lines = "".join(f"{''.join(map(str, g.puzzle.givens))}\n" for g in generate(9, 6, clues=28, seed=3))
    impossible = "".join((EXAMPLES / "no-solution.txt").read_text().split())
    data = tmp_path / "set.txt"
    data.write_text(lines + impossible + "\n")
    code, out, _ = run_cli(capsys, "propagate", str(data), "--summary", "--json")
    document = json.loads(out)
    validate("propagate", document)
    assert code == 0 and document["puzzles"] == 7
    assert [row["level"] for row in document["levels"]] == list(LEVELS)
    assert [row["contradictions"] for row in document["levels"]] == [1, 1, 1, 1]
    settled = [row["settled"] for row in document["levels"]]
    assert settled == sorted(settled)
    code, out, _ = run_cli(capsys, "propagate", str(data), "--summary", "--level", "hidden-single")
    assert code == 0 and out.splitlines()[-1].startswith("hidden-single") and "all-different" not in out
    assert f" {settled[1]} " in out.splitlines()[-1]


def test_cli_bad_input_and_contradiction_are_one_line(capsys, tmp_path):
    from ..conftest import EXAMPLES

    bad = tmp_path / "bad.txt"
    bad.write_text("12345\n")
    code, out, err = run_cli(capsys, "propagate", str(bad))
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and err.startswith("sudokulab: ")
    code, out, err = run_cli(capsys, "propagate", str(bad), "--summary")
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and "line 1" in err
    code, out, err = run_cli(capsys, "propagate", str(EXAMPLES / "no-solution.txt"), "--level", "naked-single")
    assert code == 1 and out == "" and len(err.splitlines()) == 1
    assert "has no candidate left" in err
    assert err.startswith("sudokulab: no solution (found at the naked-single level): r")
    code, out, err = run_cli(capsys, "propagate", str(bad), "--json")
    assert code == 2 and json.loads(out)["exit"] == 2
    validate("propagate", json.loads(out))


def test_cli_draws_the_pencil_marks(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    from ..conftest import EXAMPLES

    picture = tmp_path / "marks.png"
    code, _, _ = run_cli(capsys, "propagate", str(EXAMPLES / "boj2580-sample.txt"), "--draw", str(picture))
    assert code == 0 and picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_variant_rules_from_the_command_line(capsys):
    from sudokulab.formats.boj import format_grid
    from sudokulab.formats.puzzle_files import read_puzzle

    from ..conftest import EXAMPLES

    killer, cages = str(EXAMPLES / "killer.txt"), str(EXAMPLES / "killer-cages.txt")
    code, out, _ = run_cli(capsys, "propagate", killer, "--cages", cages, "--level", "all-different")
    puzzle = read_puzzle(killer, cages=cages)
    marks = settle(Candidates.start(puzzle), "all-different")
    assert_keeps(marks, solve(puzzle).grid, "all-different")
    assert code == 0 and out == ("settled\n" + format_grid(marks.grid(), 9) if marks.settled else marks.text())


def test_levels_report_a_contradiction_they_start_from():
    puzzle = Puzzle.empty(4)
    marks = Candidates.start(puzzle)
    marks.marks[5] = 0
    for level in LEVELS:
        result, why = settle_why(marks, level)
        assert result.contradiction and why == "r2c2 has no candidate left"


def test_climb_gives_each_level_the_marks_settle_gives():
    from sudokulab.reasoning.levels import climb

    for made in generate(9, 5, clues=25, unique=True, seed=11):
        rungs = climb(Candidates.start(made.puzzle))
        assert [r.level for r in rungs] == list(LEVELS)
        for rung, marks in zip(rungs, ladder(made.puzzle)):
            assert (rung.settled, rung.contradiction, rung.remaining) == \
                (marks.settled, marks.contradiction, marks.remaining)


def test_the_top_level_is_named_for_both_halves_and_the_old_name_is_refused():
    """``failed-literal+matching`` alternates probing with the matching filter (docs/propagation.md); plain
    ``failed-literal`` is no level, so nobody reads the stronger level's results under the weaker name."""
    assert LEVELS[-1] == "failed-literal+matching"
    with pytest.raises(UsageError, match="unknown level 'failed-literal'; choose one of: .*failed-literal\\+matching"):
        check_level("failed-literal")
    schema = json.loads((ROOT / "src/sudokulab/schemas/propagate.schema.json")
                        .read_text())
    assert "failed-literal+matching" in json.dumps(schema) and '"failed-literal"' not in json.dumps(schema)
