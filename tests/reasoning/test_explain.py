"""Step-by-step explanations: every step certified by SAT, premises minimal, techniques that fire
where they must, variants named by their rules, and the command's output and exit codes."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokulab.core.grid import Shape
from sudokulab.core.puzzle import Puzzle, is_solution
from sudokulab.formats import documents
from sudokulab.formats.boj import parse_puzzle
from sudokulab.formats.puzzle_files import read_puzzle
from sudokulab.reasoning.board import Board
from sudokulab.reasoning.explain import explain
from sudokulab.reasoning.fish import fish
from sudokulab.reasoning.step_check import check_step, checker
from sudokulab.reasoning.steps import Fact, Step, conclusion
from sudokulab.reasoning.subsets import direct_locked_candidates, hidden_subset, locked_candidates, naked_subset
from sudokulab.reasoning.techniques import TECHNIQUES

from ..conftest import EXAMPLES, brute_force, dataset, random_grid
from ..conftest import run_cli as run

SAMPLE = str(EXAMPLES / "boj2580-sample.txt")
ANTI_KNIGHT = ".456....7....7................9..726.5682..9....1....4.3....6...642....9.7.36...2"
"""Made by ``sudokulab generate --size 9 --rules anti-knight --unique --clues 26 --seed 3``."""


def puzzle_of(line: str, rules=None) -> Puzzle:
    givens = tuple(int(c) if c.isdigit() else 0 for c in line.strip()[:81])
    return Puzzle(Shape(3, 3), givens) if rules is None else Puzzle(Shape(3, 3), givens, rules)


def replayed(puzzle: Puzzle, **options) -> list[Step]:
    """Explain a puzzle, check every step with SAT and against the solution, and the final grid."""
    explanation = explain(puzzle, **options)
    assert explanation.stopped is None
    assert explanation.grid is not None and is_solution(explanation.grid, puzzle)
    for step in explanation.steps:
        assert check_step(puzzle, step), step.text
        for fact in step.premises:  # premises are true facts of the solution
            assert (explanation.grid[fact.cell] == fact.digit) == fact.holds, (step.text, fact)
    return list(explanation.steps)


# --- The command on the BOJ sample. ---------------------------------------------------------------

def test_sample_one_single_per_blank_then_the_answer(capsys, sample, sample_answer):
    code, out, err = run(capsys, "explain", SAMPLE)
    assert code == 0 and err == ""
    lines = out.splitlines()
    blanks = sample.givens.count(0)
    steps, answer = lines[:-9], lines[-9:]
    assert "\n".join(answer) + "\n" == sample_answer
    assert len(steps) == blanks
    placed = set()
    for line in steps:
        assert "naked single" in line or "hidden single" in line, line
        assert "[from r" in line  # premises shown
        placed.add(line.split(".", 1)[1].split("=")[0].strip())
    assert len(placed) == blanks


def test_check_says_every_step_is_certified(capsys, sample):
    code, out, _ = run(capsys, "explain", SAMPLE, "--check")
    assert code == 0
    assert f"every step certified by SAT: {sample.givens.count(0)} steps" in out


def test_json_validates_and_matches_the_steps(capsys, sample, sample_answer):
    code, out, _ = run(capsys, "explain", SAMPLE, "--json", "--check")
    assert code == 0
    document = json.loads(out)
    documents.validate("explain", document)
    assert document["answer"] == sample_answer and document["certified"] is True
    assert len(document["steps"]) == sample.givens.count(0)
    grid = tuple(d for row in document["grid"] for d in row)
    assert is_solution(grid, sample)


# --- Replays: every step of many explanations certified by SAT. ---------------------------------------

REPLAYED = {"norvig_top95.txt": (35, False, 3), "magictour_top1465.txt": (35, False, 4), "17_clue.txt": (130, True, 2)}
"""200 puzzles: the set, how many drawn from it, whether premises are minimised, and in how many parts the
replay is split so that pytest-xdist spreads it over its workers (the longest parts first)."""
PARTS = [(name, part) for name, (_, _, parts) in REPLAYED.items() for part in range(parts)]


@pytest.mark.slow
@pytest.mark.parametrize("name, part", PARTS, ids=[f"{name.removesuffix('.txt')}-{part}" for name, part in PARTS])
def test_replay_200_puzzles_from_three_sets(name, part):
    """200 puzzles: the 17-clue ones with minimised premises, the hard ones (many more steps, chains
    among them) with the finders' own premises, which SAT must certify just the same (the steps are
    the same either way). Each part replays every ``parts``-th puzzle of its set's seeded sample, and
    sees the singles and locked candidates; each part of norvig_top95 a trial of digits too (Nishio's
    contradiction or a dynamic forcing chain). One test once did all 200 and asserted the four
    techniques over them all."""
    count, minimal, parts = REPLAYED[name]
    lines = [line for line in dataset(name, count).read_text().splitlines() if line.strip()]
    sample = random.Random(7).sample(lines, count)[part::parts]
    seen: set[str] = set()
    for line in sample:
        seen.update(step.technique for step in replayed(puzzle_of(line), minimal=minimal))
    assert len(sample) == len(range(part, count, parts))
    assert {"hidden single", "naked single", "locked candidates"} <= seen
    if name == "norvig_top95.txt":  # a trial of digits: Nishio's one or the dynamic chain's all
        assert {"contradiction", "dynamic forcing chain"} & seen


def assert_minimal(puzzle: Puzzle, step: Step) -> None:
    """Dropping any one premise of the step leaves a step SAT does not certify."""
    for i in range(len(step.premises)):
        weaker = Step(step.technique, step.difficulty, step.placed, step.removed,
                      step.premises[:i] + step.premises[i + 1:], step.groups, step.text)
        assert not check_step(puzzle, weaker), (step.text, step.premises[i])


def test_premises_are_minimal():
    lines = [line for line in dataset("magictour_top1465.txt", 1).read_text().splitlines() if line.strip()]
    puzzle = puzzle_of(lines[0])
    steps = replayed(puzzle)
    for step in random.Random(3).sample(steps, 12) + [s for s in steps if "forcing chain" in s.technique][:2]:
        assert_minimal(puzzle, step)


def test_same_steps_without_minimising():
    puzzle = puzzle_of(dataset("norvig_top95.txt", 1).read_text().splitlines()[0])
    fast = explain(puzzle, minimal=False)
    slow = explain(puzzle)
    assert [(s.technique, s.placed, s.removed) for s in fast.steps] == \
           [(s.technique, s.placed, s.removed) for s in slow.steps]
    assert all(check_step(puzzle, s) for s in fast.steps)
    assert sum(len(s.premises) for s in slow.steps) < sum(len(s.premises) for s in fast.steps)


def test_a_wrong_step_is_not_certified(sample):
    step = explain(sample).steps[0]
    (cell, digit), = step.placed
    wrong = Step(step.technique, step.difficulty, ((cell, digit % 9 + 1),), (), step.premises, step.groups, "")
    assert not check_step(sample, wrong)
    contradictory = Step(step.technique, step.difficulty, step.placed, (),
                         step.premises + (Fact(cell, digit, False),), step.groups, "")
    assert not check_step(sample, contradictory)  # premises that cannot all hold prove nothing
    assert not check_step(sample, Step("x", 1, step.placed, (), step.premises, ("row 99",), ""))


# --- Each finder fires on a hand-made pencil-mark state. -------------------------------------------

def _board(strike: dict[tuple[int, int], str]) -> tuple[Puzzle, Board]:
    """An empty 9x9 board with digits struck: ``{(row, col): "digits"}`` (1-based)."""
    puzzle = Puzzle(Shape(3, 3), (0,) * 81)
    board = Board.start(puzzle)
    for (row, col), digits in strike.items():
        for digit in digits:
            board.cands.remove((row - 1) * 9 + col - 1, int(digit))
    return puzzle, board


def _fires(puzzle: Puzzle, step: Step | None, technique: str, removed: set[tuple[int, int]]) -> None:
    assert step is not None and step.technique == technique
    assert removed <= set(step.removed), step.text
    assert check_step(puzzle, step)
    premises, groups = checker(puzzle.rules).minimise(step.premises, step.groups, conclusion(step))
    assert check_step(puzzle, Step(step.technique, step.difficulty, step.placed, step.removed, premises, groups, ""))


def cell(row: int, col: int) -> int:
    return (row - 1) * 9 + col - 1


def test_locked_candidates_pointing():
    puzzle, board = _board({(r, c): "5" for r in (2, 3) for c in (1, 2, 3)})
    _fires(puzzle, locked_candidates(board, 2.6), "locked candidates", {(cell(1, 4), 5), (cell(1, 9), 5)})


def test_direct_pointing_places_the_single_it_leaves():
    """5 of box 1 only in row 1 leaves r1c4-r1c9; where box 2 has 5 only in r1c4, r1c5 and r2c5, the
    pointing leaves it one place: r2c5 (SE's direct pointing, 1.7). Without that, no step."""
    strike = {(r, c): "5" for r in (2, 3) for c in (1, 2, 3)}
    puzzle, board = _board(strike)
    assert direct_locked_candidates(board, 1.7) is None  # box 2 keeps 5 in its rows 2 and 3
    box_2 = {(r, c): "5" for r in (1, 2, 3) for c in (4, 5, 6) if (r, c) not in ((1, 4), (1, 5), (2, 5))}
    puzzle, board = _board(strike | box_2)
    step = direct_locked_candidates(board, 1.7)
    assert step is not None and step.technique == "direct pointing" and step.difficulty == 1.7
    assert step.placed == ((cell(2, 5), 5),) and not step.removed
    assert check_step(puzzle, step)


@pytest.mark.parametrize("size", [2, 3, 4])
def test_naked_subsets(size):
    keep = "123456789"[:size]
    strike = {(1, c): "".join(d for d in "123456789" if d not in keep) for c in (1, 4, 7, 8)[:size]}
    puzzle, board = _board(strike)
    name = {2: "naked pair", 3: "naked triple", 4: "naked quad"}[size]
    _fires(puzzle, naked_subset(board, 3.0, size), name, {(cell(1, 9), 1)})


@pytest.mark.parametrize("size", [2, 3, 4])
def test_hidden_subsets(size):
    digits = "123456789"[:size]
    strike = {(1, c): digits for c in range(size + 1, 10)}
    puzzle, board = _board(strike)
    name = {2: "hidden pair", 3: "hidden triple", 4: "hidden quad"}[size]
    _fires(puzzle, hidden_subset(board, 3.4, size), name, {(cell(1, 1), 9)})


@pytest.mark.parametrize("size", [2, 3, 4])
def test_fish(size):
    rows = (1, 4, 7, 9)[:size]
    columns = (2, 5, 8, 9)[:size]
    strike = {(r, c): "7" for r in rows for c in range(1, 10) if c not in columns}
    puzzle, board = _board(strike)
    name = {2: "x-wing", 3: "swordfish", 4: "jellyfish"}[size]
    _fires(puzzle, fish(board, 3.2, size), name, {(cell(2, columns[0]), 7)})


def test_techniques_are_in_difficulty_order():
    """Cheapest first, in Sudoku Explainer's order: Nishio (our "contradiction", 7.5) before the
    multiple (8.0), dynamic (8.5) and nested (9.0 and up) forcing chains; search, the last resort, last."""
    names = [t.name for t in TECHNIQUES]
    assert names[-1] == "search"
    difficulties = [t.difficulty for t in TECHNIQUES]
    assert difficulties == sorted(difficulties) and TECHNIQUES[0].name == "one-cell cage"


# --- Variants: each rule kind named. ------------------------------------------------------------------

def _named(steps: list[Step], word: str) -> bool:
    return any(name.startswith(word) for step in steps for name in step.groups)


@pytest.mark.slow
def test_x_names_a_diagonal():
    puzzle = read_puzzle(EXAMPLES / "x.json")
    assert _named(replayed(puzzle), "diagonal")


@pytest.mark.slow
@pytest.mark.parametrize("puzzle_file, extra, name, technique", [
    ("killer.txt", {"cages": "killer-cages.txt"}, "cage", "cage sum"),
    ("thermo-6x6.txt", {"thermos": "thermo-6x6-thermos.txt"}, "thermometer", "thermometer"),
])
def test_sums_and_thermometers_are_named_with_minimal_premises(puzzle_file, extra, name, technique):
    puzzle = read_puzzle(EXAMPLES / puzzle_file, **{key: EXAMPLES / value for key, value in extra.items()})
    steps = replayed(puzzle)
    assert _named(steps, name) and any(s.technique == technique for s in steps)
    for step in [s for s in steps if s.technique == technique][:3]:
        assert_minimal(puzzle, step)


def test_anti_knight_is_named():
    from sudokulab.core.rules import build

    puzzle = puzzle_of(ANTI_KNIGHT, build(Shape(3, 3), ["anti-knight"]))
    assert _named(replayed(puzzle), "anti-knight")


# --- Stops and errors. -----------------------------------------------------------------------------

def test_max_level_stops_with_exit_3(capsys, tmp_path):
    line = dataset("magictour_top1465.txt", 1).read_text().splitlines()[0]
    path = tmp_path / "hard.txt"
    path.write_text(line + "\n")
    code, out, err = run(capsys, "explain", str(path), "--max-level", "hidden-single")
    assert code == 3
    assert "toolbox ends" in err and err.count("\n") == 1
    assert all("hidden single" in step for step in out.splitlines())
    explanation = explain(puzzle_of(line), max_level=1.5)
    assert explanation.grid is None and {s.technique for s in explanation.steps} == {"hidden single"}


def test_several_solutions_stop_with_exit_3(capsys):
    code, _, err = run(capsys, "explain", str(EXAMPLES / "several-solutions.txt"))
    assert code == 3 and "several solutions" in err


def test_no_solution_exit_1(capsys):
    code, out, err = run(capsys, "explain", str(EXAMPLES / "no-solution.txt"))
    assert code == 1 and out == "" and err.startswith("sudokulab: no solution")


@pytest.mark.parametrize("argv", [["--max-level", "telepathy"], ["--time-limit", "-1"]])
def test_bad_options_one_line_exit_2(capsys, argv):
    code, out, err = run(capsys, "explain", SAMPLE, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and err.startswith("sudokulab:")


def test_bad_puzzle_one_line_exit_2(capsys, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("1 2 3\n")
    code, out, err = run(capsys, "explain", str(bad))
    assert code == 2 and out == "" and err.count("\n") == 1


def test_every_step_of_a_small_board():
    """A 4x4 board (2x2 boxes) explained end to end: the engine knows no 9x9 constants."""
    puzzle = parse_puzzle("1 0 0 0\n0 0 3 0\n0 4 0 0\n0 0 0 2\n")
    steps = replayed(puzzle)
    assert steps and all(len(set(s.groups)) == len(s.groups) for s in steps)


@pytest.mark.slow
def test_draw_writes_one_picture_per_step(capsys, tmp_path, sample):
    pytest.importorskip("matplotlib")
    folder = tmp_path / "steps"
    code, out, err = run(capsys, "explain", SAMPLE, "--draw", str(folder))
    assert code == 0 and "pictures in" in err
    pictures = sorted(folder.glob("step-*.png"))
    assert len(pictures) == sample.givens.count(0)
    assert all(p.read_bytes().startswith(b"\x89PNG") for p in pictures)
    assert not list(folder.glob(".*.part"))


def test_json_of_a_stopped_explanation(capsys, tmp_path):
    path = tmp_path / "hard.txt"
    path.write_text(dataset("magictour_top1465.txt", 1).read_text().splitlines()[0] + "\n")
    code, out, err = run(capsys, "explain", str(path), "--json", "--max-level", "2.6")
    assert code == 3 and "toolbox ends" in err
    document = json.loads(out)
    documents.validate("explain", document)
    assert document["grid"] is None and "toolbox ends" in document["stopped"]
    assert max(step["difficulty"] for step in document["steps"]) <= 2.6


def test_time_limit_stops_with_exit_3(capsys):
    code, _, err = run(capsys, "explain", SAMPLE, "--time-limit", "0.000001")
    assert code == 3 and "time limit" in err


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), clues=st.integers(3, 9),
       presets=st.sampled_from([(), ("x",), ("anti-king",), ("x", "anti-knight")]))
def test_small_boards_against_brute_force(seed, clues, presets):
    """4x4 puzzles under several rule sets: the steps reach the solution exactly when brute force finds
    one solution, stop saying "several solutions" when it finds more, and every step is certified."""
    from sudokulab.core.rules import build
    from sudokulab.errors import NoSolution

    shape = Shape(2, 2)
    rules = build(shape, list(presets))
    rng = random.Random(seed)
    grid = random_grid(shape, rng)
    keep = set(rng.sample(range(16), clues))
    puzzle = Puzzle(shape, tuple(v if i in keep else 0 for i, v in enumerate(grid)), rules)
    solutions = brute_force(puzzle)
    if not solutions:
        with pytest.raises(NoSolution):
            explain(puzzle)
        return
    explanation = explain(puzzle)
    assert all(check_step(puzzle, step) for step in explanation.steps)
    if len(solutions) == 1:
        assert explanation.grid == solutions[0] and explanation.stopped is None
    else:
        assert explanation.grid is None and "several solutions" in explanation.stopped
