"""The shared lowering (``solvers.lowering``): every kind in three forms, and every paradigm stating them.

Two halves. The forms say exactly what the kinds say: on 4x4 boards, a full grid keeps a kind if and
only if it keeps the kind's forms, checked over every Latin square and over random grids by a check of
the forms written here (not the lowering's own). And every paradigm states the forms: each solver is
given puzzles whose differing pairs, sums or thermometers have been replaced by their forms
(``lowering.lowered``), and must find what the brute force finds under the original rules (answers
checked by the independent checker, counts, canonical answers).
"""

from __future__ import annotations

import random
import sys
from dataclasses import replace

import pytest

from sudokulab import Puzzle, Shape, Status, is_solution, solution_error, solvers
from sudokulab.core.rules import ALL_DIFFERENT, DIFFER, INCREASING, KINDS, SUM, Kind, Rules, RulesError, build
from sudokulab.solvers import lowering
from sudokulab.solvers.lowering import FORMS, AllowedSets, Forms, Lowered, lower, lowered

from ..conftest import EXAMPLES, FIXTURES, brute_force, latin_squares

FOUR = Shape(2, 2)
FAKE_SAT = FIXTURES / "programs" / "fake_sat.py"


def keeps(forms: Lowered, grid: tuple[int, ...]) -> bool:
    """Whether a full grid keeps the forms, read from their definition alone."""
    if any(grid[cell] == digit for cell, digit in forms.ruled_out):
        return False
    if any(grid[a] == x and grid[b] == y for _, (a, x), (b, y) in forms.pairs):
        return False
    return all(len({grid[c] for c in s.cells}) == len(s.cells) and tuple(sorted(grid[c] for c in s.cells)) in s.sets
               for s in forms.sets)


def without(rules: Rules, kind: str) -> Rules:
    """The rules with one kind's constraints left out (a cage's group stays: it is the all-different half)."""
    if kind == ALL_DIFFERENT:
        return replace(rules, groups=())
    return replace(rules, **{DIFFER: {"differ": ()}, SUM: {"cages": ()}, INCREASING: {"thermos": ()}}[kind])


def random_grids(count: int, seed: int) -> list[tuple[int, ...]]:
    """Full 4x4 grids of any digits, most of them far from Latin squares."""
    rng = random.Random(seed)
    return [tuple(rng.randint(1, 4) for _ in range(16)) for _ in range(count)]


KIND_RULES = {
    ALL_DIFFERENT: build(FOUR, ["x"], cages=[((0, 5), 5)]),
    DIFFER: build(FOUR, ["anti-knight"]),
    SUM: build(FOUR, cages=[((0, 1, 4), 6), ((10, 11), 7), ((14, 15), 3)]),
    INCREASING: build(FOUR, thermos=[(0, 1, 2), (13, 12)]),
}


@pytest.mark.parametrize("kind", KINDS)
def test_a_grid_keeps_a_kind_exactly_when_it_keeps_its_forms(kind):
    rules = KIND_RULES[kind]
    assert kind in rules.kinds
    forms = lower(rules, rules.kinds - {kind})
    assert forms and forms.forms <= lowering.LOWERINGS[kind].forms
    rest = without(rules, kind)
    grids = latin_squares(4) + tuple(random_grids(3000, 44))
    agree = [(rules.first_conflict(g) is None) == (rest.first_conflict(g) is None and keeps(forms, g)) for g in grids]
    assert all(agree)
    assert any(rules.first_conflict(g) is None for g in grids) and any(rules.first_conflict(g) for g in grids)


def test_the_forms_of_a_kind_say_nothing_of_a_native_one():
    rules = build(FOUR, ["anti-knight"], cages=[((0, 1), 3)], thermos=[(4, 5)])
    assert not lower(rules, rules.kinds)
    assert lower(rules, rules.kinds - {SUM}).sets == (AllowedSets("cage 1 (sum 3)", (0, 1), ((1, 2),)),)
    forms = lower(rules, rules.kinds - {INCREASING})
    assert not forms.sets and forms.ruled_out == ((4, 4), (5, 1))
    assert all(name == "thermometer 1" for name, _, _ in forms.pairs)


def test_exact_cover_says_the_example_thermometers_as_docs_rules_md_counts():
    """``placements`` (dlx's columns) is the lowering said in pairs: for ``examples/thermo-6x6.json``, the 24
    forbidden pairs and 30 ruled-out placements docs/rules.md gives."""
    from sudokulab import read_puzzle

    puzzle = read_puzzle(EXAMPLES / "thermo-6x6.json")
    said = lowering.placements(puzzle.rules)
    assert (len(said.pairs), len(said.ruled_out)) == (24, 30)
    assert said.pairs == lower(puzzle.rules, {ALL_DIFFERENT, DIFFER, SUM}).pairs


def test_lowered_rules_hold_the_forms_as_one_constraint_and_keep_the_cage_groups():
    rules = build(Shape(2, 3), ["anti-king"], cages=[((0, 1, 2), 6)], thermos=[(6, 7, 8)])
    plain = lowered(rules, {DIFFER, SUM, INCREASING})
    assert (plain.differ, plain.cages, plain.thermos) == ((), (), ())
    assert plain.groups == rules.groups and plain.kinds == {ALL_DIFFERENT, lowering.FORMS_KIND}
    (forms,) = plain.constraints
    assert isinstance(forms, Forms) and forms.lowered == lower(rules, {ALL_DIFFERENT})
    assert lowered(rules, set()) is rules and lowered(rules, {"not used"}) is rules
    with pytest.raises(RulesError, match="every model is built on its groups"):
        lowered(rules, {ALL_DIFFERENT})


def test_the_forms_constraint_checks_itself_in_words():
    rules = lowered(build(FOUR, cages=[((0, 1), 3)], thermos=[(4, 5)]), {SUM, INCREASING})
    blank = [0] * 16
    assert rules.first_conflict(tuple(blank)) is None
    grid = blank[:]
    grid[4] = 4
    assert rules.first_conflict(tuple(grid)) == "row 2 column 1 cannot hold 4 (lowered increasing, sum)"
    grid[4], grid[5] = 3, 2
    assert rules.first_conflict(tuple(grid)) == "thermometer 1: row 2 column 1 holds 3 and row 2 column 2 holds 2"
    grid = blank[:]
    grid[0] = 3
    assert rules.first_conflict(tuple(grid)) == "cage 1 (sum 3): 3 are in none of its allowed digit sets"


def test_a_kind_registers_with_its_lowering_and_leaves_no_trace():
    kind = Kind("test-kind", "T", "test constraints")
    lowering.register(kind, lambda constraint, rules: Lowered(), {lowering.PAIRS})
    try:
        assert "test-kind" in lowering.lowerable({lowering.PAIRS}) and "test-kind" in lowering.lowerable(FORMS)
        assert "test-kind" not in lowering.lowerable({lowering.SETS})
        with pytest.raises(RulesError, match="exists already"):
            lowering.register(kind, lambda constraint, rules: Lowered(), {lowering.PAIRS})
        with pytest.raises(RulesError, match="names another kind"):
            lowering.register(Kind("other", "T", "other constraints"), lambda c, r: Lowered(), set())
    finally:
        lowering.unregister("test-kind")
    assert "test-kind" not in lowering.LOWERINGS and "test-kind" not in lowering.lowerable(FORMS)
    with pytest.raises(RulesError, match="unknown forms"):
        lowering.register(Kind("odd", "O", "odd constraints"), lambda c, r: Lowered(), {"tuples"})
    assert "odd" not in lowering.LOWERINGS
    with pytest.raises(RulesError, match="built-in"):
        lowering.unregister(SUM)


@pytest.mark.slow
def test_capabilities_say_which_way_each_kind_is_taken():
    for name in solvers.names():
        capabilities = solvers.solver_class(name).capabilities
        assert capabilities.honoured == capabilities.kinds | capabilities.lowered
        assert not capabilities.kinds & capabilities.lowered
    dlx = solvers.solver_class("dlx").capabilities
    assert dlx.kinds == {ALL_DIFFERENT, DIFFER} and {SUM, INCREASING} <= dlx.lowered
    assert solvers.solver_class("sat").capabilities.kinds == frozenset(KINDS)


# --- Every paradigm states the forms. -----------------------------------------------------------

SLOW = ("backtrack-jit", "mip", "minizinc", "cpmpy", "dimacs")
"""Solvers whose calls here take more than half a second (a program per call, a model per rule set)."""
CONFIGURED = [pytest.param((name, options), id=name, marks=[pytest.mark.slow] if name in SLOW else [])
              for name, options in [(name, {}) for name in solvers.names() if name != "dimacs"]
              + [("dimacs", {"command": f"{sys.executable} {FAKE_SAT} sat"})]]


@pytest.fixture(scope="module", params=CONFIGURED)
def solver(request):
    name, options = request.param
    why = solvers.unavailable(name) if not options else None
    if why:
        pytest.skip(f"{name}: {why}")
    with solvers.get(name, **options) as instance:
        yield instance


def lowered_cases() -> list[tuple[str, Puzzle]]:
    """4x4 puzzles whose kinds other than all-different are all replaced by their forms, with a few
    solutions each (so counts and canonical answers say something)."""
    anti_knight = build(FOUR, ["anti-knight"])
    killer = build(FOUR, cages=[((0, 1), 3), ((2, 6), 4), ((8, 9, 12), 7)])
    thermo = build(FOUR, thermos=[(0, 1, 2), (13, 12)])
    mixed = build(FOUR, ["anti-knight"], cages=[((0, 1), 3)], thermos=[(6, 5)])
    return [("differ", Puzzle.empty(FOUR).with_rules(lowered(anti_knight, {DIFFER}))),
            ("sum", Puzzle.empty(FOUR).with_rules(lowered(killer, {SUM}))),
            ("increasing", Puzzle.empty(FOUR).with_rules(lowered(thermo, {INCREASING}))),
            ("all three", Puzzle.empty(FOUR).with_rules(lowered(mixed, {DIFFER, SUM, INCREASING})))]


CASES = lowered_cases()


def test_the_lowered_cases_have_a_few_solutions_each():
    counts = [len(brute_force(puzzle)) for _, puzzle in CASES]
    assert all(1 <= count <= 40 for count in counts), counts


@pytest.mark.parametrize("case", range(len(CASES)), ids=[label for label, _ in CASES])
def test_every_paradigm_states_the_forms(solver, case):
    label, puzzle = CASES[case]
    truth = brute_force(puzzle)
    assert solver.capabilities.unsupported(puzzle.rules) is None, label
    limit = {"time_limit": 60} if solver.capabilities.time_limit else {}
    result = solver.solve(puzzle, **limit)
    assert result.status is Status.SOLVED and is_solution(result.grid, puzzle), solution_error(result.grid, puzzle)
    assert result.grid in truth
    if solver.capabilities.canonical:
        assert solver.solve(puzzle, canonical=True, **limit).grid == truth[0]
    if solver.capabilities.count:
        wanted = 3 if "count" in solver.capabilities.slow else len(truth) + 1
        assert solver.count(puzzle, limit=wanted, **limit).count == min(len(truth), wanted)


def test_a_solver_without_the_forms_refuses_a_lowered_kind_in_its_words(solver):
    """A solver that declares no forms (a student's, say) refuses a rule set lowered by ``lowered``, naming
    the forms, before any work (the contract's ``check_refused``)."""
    from sudokulab.grading import contract

    _, puzzle = CASES[0]
    own = solver.__dict__.get("capabilities")
    solver.capabilities = replace(solver.capabilities, forms=frozenset())
    try:
        missing = solver.capabilities.unsupported(puzzle.rules)
        assert missing is not None and missing.startswith("lowered forms (ruled-out placements, forbidden pairs")
        contract.check_refused(solver, puzzle)
    finally:
        if own is None:
            del solver.capabilities
        else:
            solver.capabilities = own
