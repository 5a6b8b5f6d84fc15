"""Why no solution: the conflicting givens are minimal, the groups minimal, the removal repairs.

Every claim is checked by another paradigm (CP-SAT, which never sees the CNF the conflict came
from) and every repaired puzzle's answer by ``is_solution``.
"""

from __future__ import annotations

import json
import random

import pytest

from sudokulab import solvers
from sudokulab.core.grid import Shape
from sudokulab.core.puzzle import Puzzle, is_solution
from sudokulab.core.rules import Rules, build
from sudokulab.errors import UsageError
from sudokulab.formats import documents
from sudokulab.formats.puzzle_files import read_puzzle
from sudokulab.generation.puzzles import random_grid
from sudokulab.reasoning.conflicts import Conflict, why_no_solution, without
from sudokulab.solvers.base import Status

from ..conftest import EXAMPLES, run_cli


@pytest.fixture(scope="module")
def checker():
    with solvers.get("cpsat") as solver:
        yield solver


def solvable(solver, puzzle: Puzzle) -> bool:
    result = solver.solve(puzzle)
    assert result.status in (Status.SOLVED, Status.NO_SOLUTION)
    if result.solved:
        assert is_solution(result.grid, puzzle)
    return result.solved


def only(puzzle: Puzzle, givens) -> Puzzle:
    """The puzzle keeping just these givens."""
    keep = set(givens)
    return Puzzle(puzzle.shape, tuple(d if (c, d) in keep else 0 for c, d in enumerate(puzzle.givens)), puzzle.rules)


def restricted(rules: Rules, names: set[str]) -> Rules:
    """The rules with only the named constraints (a cage keeps its sum and its all-different half together)."""
    return Rules(rules.shape, tuple(g for g in rules.groups if g.name in names),
                 tuple(d for d in rules.differ if d.name in names), tuple(c for c in rules.cages if c.name in names),
                 tuple(t for t in rules.thermos if t.name in names), rules.presets)


def assert_minimal(conflict: Conflict, puzzle: Puzzle, checker) -> None:
    names = set(conflict.groups)
    core = only(puzzle, conflict.givens)
    assert not solvable(checker, core)
    for given in conflict.givens:  # drop any one given and the rest can hold
        assert solvable(checker, only(puzzle, [g for g in conflict.givens if g != given]))
    assert not solvable(checker, core.with_rules(restricted(puzzle.rules, names)))
    for name in names:  # drop any one named constraint and the givens can hold
        assert solvable(checker, core.with_rules(restricted(puzzle.rules, names - {name})))
    if not conflict.givens:
        return  # the rules alone cannot hold: no removal repairs them
    assert solvable(checker, without(puzzle, conflict.removal))
    for given in conflict.removal:  # keep any one of the removed givens back and there is still no solution
        assert not solvable(checker, without(puzzle, [g for g in conflict.removal if g != given]))


def killer_rules(shape: Shape, grid, rng: random.Random) -> Rules:
    """Cages of two horizontal neighbours whose totals this grid meets (every other row)."""
    n = shape.n
    cages = [((r * n + c, r * n + c + 1), grid[r * n + c] + grid[r * n + c + 1])
             for r in range(0, n, 2) for c in range(0, n - 1, 2) if rng.random() < 0.7]
    return build(shape, cages=cages)


def broken(shape: Shape, preset: str, seed: int, checker) -> Puzzle:
    """A puzzle with no solution: a random grid's clues, one of them changed."""
    rng = random.Random(seed)
    n = shape.n
    rules = build(shape, ["x"]) if preset == "x" else None
    grid = random_grid(shape, rng, rules)
    if preset == "killer":
        rules = killer_rules(shape, grid, rng)
    rules = rules or build(shape)
    for _ in range(200):
        cells = rng.sample(range(n * n), n * n * 2 // 5)
        givens = [0] * (n * n)
        for cell in cells:
            givens[cell] = grid[cell]
        changed = rng.choice(cells)
        givens[changed] = rng.choice([d for d in range(1, n + 1) if d != grid[changed]])
        puzzle = Puzzle(shape, tuple(givens), rules)
        if not solvable(checker, puzzle):
            return puzzle
    raise AssertionError("no broken puzzle found")


def test_the_example_without_solution(checker):
    puzzle = read_puzzle(EXAMPLES / "no-solution.txt")
    conflict = why_no_solution(puzzle)
    assert_minimal(conflict, puzzle, checker)
    deletion = why_no_solution(puzzle, smallest=False)
    assert_minimal(deletion, puzzle, checker)
    assert len(conflict.givens) <= len(deletion.givens)
    text = conflict.text()
    assert text.startswith("The givens ") and "cannot all hold: " in text and "Removing r" in text
    for name in conflict.groups:
        assert name in text


@pytest.mark.slow
@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 3)])
@pytest.mark.parametrize("preset", ["standard", "x", "killer"])
@pytest.mark.parametrize("seed", [0, 1])
def test_generated_conflicts_are_minimal(box, preset, seed, checker):
    puzzle = broken(Shape(*box), preset, seed, checker)
    conflict = why_no_solution(puzzle, smallest=seed == 0)
    assert conflict.givens and conflict.groups and conflict.removal
    assert_minimal(conflict, puzzle, checker)


def test_two_givens_in_one_row_are_named_in_sudoku_words():
    rows = [[0] * 9 for _ in range(9)]
    rows[0][0] = rows[0][8] = 5
    conflict = why_no_solution(Puzzle.from_rows(rows))
    assert conflict.givens == ((0, 5), (8, 5))
    assert conflict.groups == ("row 1",)
    assert len(conflict.removal) == 1
    assert conflict.text().startswith("The givens r1c1=5 and r1c9=5 cannot both hold: row 1. Removing r1c")


def test_rules_that_cannot_hold_whatever_the_givens(checker):
    shape = Shape(2, 2)
    rules = build(shape, cages=[((0, 1), 3), ((2, 3), 3)])  # both {1, 2}: row 1 lacks 3 and 4
    puzzle = Puzzle(shape, (0,) * 16, rules)
    conflict = why_no_solution(puzzle)
    assert conflict.givens == () and conflict.removal == ()
    assert set(conflict.groups) == {"row 1", "cage 1 (sum 3)", "cage 2 (sum 3)"}
    assert conflict.text().startswith("The rules cannot all hold, whatever the givens:")
    assert_minimal(conflict, puzzle, checker)


def test_a_solvable_puzzle_has_no_conflict(sample):
    with pytest.raises(UsageError):
        why_no_solution(sample)


@pytest.mark.slow
def test_explain_names_the_conflict(capsys):
    code, out, err = run_cli(capsys, "explain", str(EXAMPLES / "no-solution.txt"))
    conflict = why_no_solution(read_puzzle(EXAMPLES / "no-solution.txt"))
    assert code == 1 and out == ""
    assert err == f"sudokulab: no solution: {conflict.text()}\n"


def test_explain_json_carries_the_conflict(capsys):
    code, out, err = run_cli(capsys, "explain", str(EXAMPLES / "no-solution.txt"), "--json")
    assert code == 1 and len(err.splitlines()) == 1
    document = json.loads(out)
    documents.validate("explain", document)
    conflict = why_no_solution(read_puzzle(EXAMPLES / "no-solution.txt"))
    assert [(g["row"], g["col"], g["digit"]) for g in document["conflict"]["givens"]] == [
        (cell // 9 + 1, cell % 9 + 1, digit) for cell, digit in conflict.givens]
    assert document["conflict"]["groups"] == list(conflict.groups) and document["steps"] == []
