"""The rule set as a value: presets, data checks, the checker's words, pickling."""

from __future__ import annotations

import pickle

import pytest

from sudokulab.core.grid import Shape
from sudokulab.core.puzzle import Puzzle, first_conflict, solution_error
from sudokulab.core.rules import PRESETS, RulesError, build, parse_presets, standard, unsupported, windows

NINE = Shape(3, 3)


def test_standard_is_rows_columns_boxes_and_the_default_of_a_puzzle():
    rules = standard(NINE)
    assert [g.name for g in rules.groups[::9]] == ["row 1", "column 1", "box 1"]
    assert len(rules.groups) == 27 and rules.is_standard and rules.kinds == {"all-different"}
    assert Puzzle.empty(9).rules is rules
    assert all(len(p) == 20 for p in rules.peers)


def test_presets_add_their_groups_and_pairs():
    x = build(NINE, ["x"])
    assert [g.cells for g in x.groups[-2:]] == [tuple(range(0, 81, 10)), tuple(range(8, 73, 8))]
    assert [len(g.cells) for g in windows(NINE)] == [9] * 4
    assert windows(NINE)[0].cells[:3] == (10, 11, 12)
    assert len(windows(Shape(2, 2))) == 1 and len(windows(Shape(2, 3))) == 2
    knight = build(NINE, ["anti-knight"])
    assert knight.kinds == {"all-different", "differ"}
    # a knight's move always leaves the row and the column, but may stay in a box: those pairs are dropped
    assert all(b not in standard(NINE).peers[a] for a, b in knight.pairs)
    assert (2, 13) in knight.pairs and (0, 11) not in knight.pairs  # r1c3-r2c5 (two boxes); r1c1-r2c3 (one box)
    king = build(NINE, ["anti-king"])
    assert (2, 12) in king.pairs and (0, 10) not in king.pairs  # r1c3-r2c4 crosses a box border; r1c1-r2c2 does not
    assert build(NINE, ["x", "anti-knight", "windoku"]).presets == ("standard", "x", "windoku", "anti-knight")


def test_jigsaw_killer_and_thermo_need_and_check_their_data():
    with pytest.raises(RulesError, match="killer.*--cages FILE"):
        build(NINE, ["killer"])
    labels = [(r // 2) * 2 + c // 2 for r in range(4) for c in range(4)]  # the 2x2 boxes, as regions
    jig = build(Shape(2, 2), regions=labels)
    assert jig.presets == ("jigsaw",)
    assert [g.name for g in jig.groups[8:]] == ["region 1", "region 2", "region 3", "region 4"]
    with pytest.raises(RulesError, match="region 1 .* has 3 cells"):
        build(Shape(2, 2), regions=[0, 0, 0, 1] + [1, 1, 1, 2] + [2, 2, 2, 3] + [3, 3, 3, 3])
    with pytest.raises(RulesError, match="never 50"):
        build(NINE, cages=[((0, 1), 50)])
    with pytest.raises(RulesError, match="cage 2 .* row 1 column 2 is in cage 1"):
        build(NINE, cages=[((0, 1), 3), ((1, 2), 5)])
    with pytest.raises(RulesError, match="not neighbours"):
        build(NINE, thermos=[(0, 2)])
    with pytest.raises(RulesError, match="unknown rules 'y'"):
        parse_presets("x,y")
    assert parse_presets("x, anti-knight windoku") == ["x", "anti-knight", "windoku"]
    assert set(PRESETS) >= {"x", "windoku", "anti-knight", "anti-king", "jigsaw", "killer", "thermo"}


def test_the_checker_names_what_breaks_in_a_persons_words():
    x = build(Shape(2, 2), ["x"])
    grid = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)
    assert first_conflict(grid, Shape(2, 2)) is None
    assert first_conflict(grid, x) == "diagonal 1 holds 4 twice (row 2 column 2 and row 3 column 3)"
    killer = build(Shape(2, 2), cages=[((0, 1), 4)])
    assert first_conflict(grid, killer) == "cage 1 (sum 4) adds up to 3"
    assert first_conflict((3, 2) + (0,) * 14, killer) == "cage 1 (sum 4) adds up to 5"
    three = build(Shape(2, 2), cages=[((0, 1, 4), 6)])
    assert first_conflict((4, 3) + (0,) * 14, three) == "cage 1 (sum 6) adds up to more than 6 already"
    thermo = build(Shape(2, 2), thermos=[(0, 1, 2)])
    assert first_conflict(grid, thermo) is None
    assert first_conflict((2, 1) + (0,) * 14, thermo).startswith("thermometer 1 does not increase")
    assert first_conflict((0, 0, 1) + (0,) * 13, thermo) == (
        "thermometer 1 cannot hold 1 at row 1 column 3 (place 3 of 3)")
    knight = build(NINE, ["anti-knight"])
    blank = [0] * 81
    blank[2] = blank[13] = 5
    assert first_conflict(tuple(blank), knight) == "anti-knight: row 1 column 3 and row 2 column 5 both hold 5"
    assert solution_error(grid, Puzzle(Shape(2, 2), (0,) * 16, x)).startswith("diagonal 1")


def test_unsupported_names_the_kind_and_an_example():
    rules = build(NINE, ["anti-king"], cages=[((0, 1), 3)])
    assert unsupported(rules, {"all-different"}) == "differing pairs (anti-king)"
    assert unsupported(rules, {"all-different", "differ"}) == "sums (cage 1 (sum 3))".replace("sums", "sum constraints")
    assert unsupported(rules, {"all-different", "differ", "sum"}) is None


def test_rules_pickle_by_value_and_key_caches():
    rules = build(NINE, ["x", "anti-knight"])
    again = pickle.loads(pickle.dumps(rules))
    assert again == rules and hash(again) == hash(rules) and {rules: 1}[again] == 1
    assert Puzzle(NINE, (0,) * 81, rules) != Puzzle.empty(9)
    with pytest.raises(ValueError, match="rules are for"):
        Puzzle(Shape(2, 2), (0,) * 16, rules)


def test_latin_has_rows_and_columns_only_and_combines_with_the_others():
    latin = build(NINE, ["latin"])
    assert [g.name.split()[0] for g in latin.groups] == ["row"] * 9 + ["column"] * 9
    assert latin.presets == ("latin",) and not latin.is_standard
    grid = tuple((r + c) % 9 + 1 for r in range(9) for c in range(9))  # a Latin square, not a Sudoku grid
    assert solution_error(grid, Puzzle(NINE, (0,) * 81, latin)) is None
    assert solution_error(grid, Puzzle.empty(NINE)) is not None
    assert build(NINE, ["x", "latin"]).presets == ("latin", "x")
    assert [g.name for g in build(NINE, ["x", "latin"]).groups[-2:]] == ["diagonal 1", "diagonal 2"]
    with pytest.raises(RulesError, match="choose one"):
        build(NINE, ["latin"], regions=[r // 3 * 3 + c // 3 for r in range(9) for c in range(9)])
