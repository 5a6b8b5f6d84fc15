"""propagation: the one candidate propagation of the searches and generate, under any rule set.

What it must never do is remove a digit some solution uses (the searches' canonical order and
exact counts rest on that); what it should do is see what each rule kind forces.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudokulab.core.grid import Shape
from sudokulab.core.puzzle import Puzzle
from sudokulab.core.rules import build, standard
from sudokulab.generation.puzzles import random_grid
from sudokulab.solvers.propagation import build_propagator, propagator

from ..conftest import random_puzzle
from .test_backtrack import brute_force, rule_sets


def settled(rules, givens=None):
    """The settled candidates of a puzzle as digit sets per cell (placed cells too), or None."""
    prop = propagator(rules)
    state = prop.start(givens or (0,) * rules.shape.cells)
    if state is None:
        return None
    return [{d + 1 for d in range(prop.n) if mask >> d & 1} for mask in state[0]]


def test_one_propagator_per_rule_set_and_the_three_group_code_where_it_applies():
    shape = Shape(3, 3)
    assert propagator(standard(shape)) is propagator(build(shape))
    assert propagator(standard(shape)).three
    jigsaw = build(Shape(2, 2), regions=[0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 2, 3, 2, 3, 3, 3])
    assert propagator(jigsaw).three  # three complete groups per cell, nothing else
    for rules in (build(shape, ["x"]), build(shape, ["anti-knight"]), build(shape, cages=[((0, 1), 3)]),
                  build(shape, thermos=[(0, 1)])):
        assert not propagator(rules).three


@pytest.mark.parametrize(("n", "fraction", "seed"), [(4, 0.3, 1), (6, 0.3, 2), (9, 0.25, 3), (9, 0.3, 4), (16, 0.4, 5)])
def test_the_general_code_reaches_the_same_fixpoint_as_the_three_group_code(n, fraction, seed):
    puzzle, _ = random_puzzle(n, fraction, seed)
    three = build_propagator(puzzle.rules).start(puzzle.givens)
    general = build_propagator(puzzle.rules, specialise=False).start(puzzle.givens)
    assert three is not None and general is not None
    assert three[0] == general[0]


def test_a_cage_bounds_its_cells():
    shape = Shape(2, 2)
    assert settled(build(shape, cages=[((0, 1), 3)]))[:2] == [{1, 2}, {1, 2}]
    assert settled(build(shape, cages=[((0, 1, 4), 9)]))[0] == {2, 3, 4}
    assert settled(build(shape, cages=[((0, 1), 7)]))[:2] == [{3, 4}, {3, 4}]
    # a placed 4 leaves 1 for the other cell of a cage of 5
    assert settled(build(shape, cages=[((0, 1), 5)]), (4,) + (0,) * 15)[1] == {1}


def test_a_thermometer_bounds_its_cells_and_a_full_one_is_forced():
    shape = Shape(3, 3)
    cells = settled(build(shape, thermos=[(0, 1, 2)]))
    assert cells[:3] == [set(range(1, 8)), set(range(2, 9)), set(range(3, 10))]
    four = settled(build(Shape(2, 2), thermos=[(0, 1, 2, 3)]))
    assert four[:4] == [{1}, {2}, {3}, {4}]
    assert settled(build(shape, thermos=[(0, 1, 2)]), (0, 0, 3) + (0,) * 78)[:2] == [{1}, {2}]


def test_contradictions_are_seen():
    shape = Shape(2, 2)
    assert settled(build(shape, cages=[((0, 1), 3)]), (3,) + (0,) * 15) is None  # 3 leaves 0 for the other
    # 7 is 3 + 4 alone, and column 1 holds its 3 already
    assert settled(build(shape, cages=[((0, 4), 7)]), (0,) * 8 + (3, 4) + (0,) * 6) is None
    assert settled(build(shape, ["x"]), (1,) + (0,) * 4 + (1,) + (0,) * 10) is None  # diagonal 1 holds 1 twice
    assert settled(build(shape, ["anti-knight"]), (1,) + (0,) * 5 + (1,) + (0,) * 9) is None
    assert settled(build(shape, thermos=[(0, 1)]), (2, 1) + (0,) * 14) is None


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_propagation_keeps_every_digit_of_every_solution(data):
    """Soundness under random rules on 4x4: the settled candidates contain every solution."""
    shape = Shape(2, 2)
    rules = data.draw(rule_sets(shape))
    givens = [0] * 16
    for cell in data.draw(st.lists(st.integers(0, 15), max_size=4, unique=True)):
        givens[cell] = data.draw(st.integers(1, 4))
    solutions = brute_force(Puzzle(shape, tuple(givens), rules))
    cells = settled(rules, tuple(givens))
    if cells is None:
        assert solutions == []
        return
    for solution in solutions:
        assert all(digit in allowed for digit, allowed in zip(solution, cells))


def test_settling_a_solution_places_every_cell():
    rng = random.Random(5)
    for rules in (build(Shape(2, 3), ["x"]), build(Shape(3, 3), ["windoku"]), build(Shape(3, 3), ["anti-knight"])):
        grid = random_grid(rules.shape, rng, rules)
        prop = propagator(rules)
        state = prop.start(grid)
        assert state is not None and all(mask > prop.full for mask in state[0])
