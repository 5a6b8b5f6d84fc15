"""The CNF model: the literal map, clause counts against their formulas, every encoding and AMO
choice meaning the same puzzle, and DIMACS that any SAT solver can read back."""

from __future__ import annotations

import doctest
import itertools

import pytest
from pysat.formula import CNF
from pysat.solvers import Solver

from sudokulab import Puzzle, Shape, UsageError, is_solution, parse_puzzle, solvers
from sudokulab.cli import main as cli
from sudokulab.core.grid import units
from sudokulab.formats.boj import format_grid
from sudokulab.solvers.sat import cnf, dimacs
from sudokulab.solvers.sat import encodings as cnf_encodings
from sudokulab.solvers.sat import literals as cnf_literals
from sudokulab.solvers.sat import size as cnf_size

from ...conftest import EXAMPLES, latin_squares, random_puzzle
from ...conftest import brute_force as by_definition

SAMPLE = str(EXAMPLES / "boj2580-sample.txt")
SHAPES = {4: Shape(2, 2), 9: Shape(3, 3), 16: Shape(4, 4)}
RULE_ENCODINGS = ("minimal", "efficient", "extended")


def test_module_doctests():
    assert doctest.testmod(cnf).failed == 0


@pytest.mark.parametrize("n", [4, 6, 9, 16])
def test_the_literal_map_is_a_bijection_onto_1_to_n_cubed(n):
    seen = set()
    for row, col, digit in itertools.product(range(n), range(n), range(1, n + 1)):
        lit = cnf.literal(n, row, col, digit)
        assert cnf.decode_literal(n, lit) == (row, col, digit)
        seen.add(lit)
    assert seen == set(range(1, n**3 + 1))
    with pytest.raises(ValueError, match="not a cell variable"):
        cnf.decode_literal(n, n**3 + 1)


@pytest.mark.parametrize("n", [4, 9])
def test_the_flat_tables_agree_with_the_literal_map(n):
    table = cnf_literals.literal_table(n)
    for row, col, digit in itertools.product(range(n), range(n), range(1, n + 1)):
        lit = cnf.literal(n, row, col, digit)
        assert table.given[(row * n + col) * (n + 1) + digit] == lit
        assert table.digit_of[lit] == digit
    puzzle, answer = random_puzzle(n, 0.5, 7)
    assert table.assumptions(puzzle.givens) == [
        cnf.literal(n, *divmod(cell, n), d) for cell, d in enumerate(puzzle.givens) if d
    ]
    model = [cnf.literal(n, *divmod(cell, n), d) for cell, d in enumerate(answer)]
    model = sorted(set(model) | {-v for v in range(1, n**3 + 1)} - {-lit for lit in model}, key=abs)
    assert table.decode(model) == answer == cnf_literals.grid_from_model(n, model)


# --- counts against closed forms ------------------------------------------------------------------

def groups(n: int, encoding: str) -> tuple[int, int]:
    """(at-least-one clauses, at-most-one groups), each over n literals (Lynce & Ouaknine 2006)."""
    table = {"minimal": (n * n, 3 * n * n), "efficient": (n * n, 4 * n * n), "extended": (4 * n * n, 4 * n * n)}
    return table[encoding]


CLOSED_FORMS = {  # amo -> (clauses, auxiliary variables) of one at-most-one over k >= 3 literals
    "pairwise": lambda k: (k * (k - 1) // 2, 0),
    "seqcounter": lambda k: (3 * k - 4, k - 1),  # Sinz 2005
    "ladder": lambda k: (4 * k, k + 1),
    "bitwise": lambda k: (k * (k - 1).bit_length(), (k - 1).bit_length()),
    "kmtotalizer": lambda k: (4 * k - 4, 2 * k - 2),
}


def test_lynce_and_ouaknine_published_9x9_counts():
    assert [len(cnf.rules(SHAPES[9], e).clauses) for e in RULE_ENCODINGS] == [8829, 11745, 11988]
    assert all(cnf.rules(SHAPES[9], e).variables == 729 for e in RULE_ENCODINGS)


@pytest.mark.parametrize("n", [4, 9, 16])
@pytest.mark.parametrize("encoding", RULE_ENCODINGS)
@pytest.mark.parametrize("amo", list(CLOSED_FORMS))
def test_counts_match_the_closed_forms(n, encoding, amo):
    alo, amo_groups = groups(n, encoding)
    clauses, aux = CLOSED_FORMS[amo](n)
    expected = (n**3 + amo_groups * aux, alo + amo_groups * clauses)
    formula = cnf.rules(SHAPES[n], encoding, amo)
    assert (formula.variables, len(formula.clauses)) == expected == cnf_size.counts(n, encoding, amo)
    assert formula.top == formula.variables
    used = {abs(lit) for clause in formula.clauses for lit in clause}
    assert used == set(range(1, formula.top + 1))


@pytest.mark.parametrize("n", [4, 9])
@pytest.mark.parametrize("amo", ["totalizer", "mtotalizer", "sortnetwrk", "cardnetwrk"])
def test_counts_without_a_closed_form_are_consistent(n, amo):
    """Totalizers and sorting networks: each group of n costs what pysat.card builds for n."""
    for encoding in RULE_ENCODINGS:
        formula = cnf.rules(SHAPES[n], encoding, amo)
        alo, amo_groups = groups(n, encoding)
        one_clauses, one_top = cnf_encodings.at_most_one(list(range(1, n + 1)), amo, n)
        assert len(formula.clauses) == alo + amo_groups * len(one_clauses) == cnf_size.counts(n, encoding, amo)[1]
        assert formula.variables == n**3 + amo_groups * (one_top - n)


@pytest.mark.slow
@pytest.mark.parametrize("n", [4, 9, 16])
def test_reduced_on_an_empty_board_is_the_extended_encoding(n):
    assert cnf.reduced_counts(Puzzle.empty(n)) == cnf_size.counts(n, "extended")
    formula = cnf.reduced_formula(Puzzle.empty(n))
    assert (formula.variables, len(formula.clauses)) == cnf_size.counts(n, "extended")
    assert sorted(map(sorted, formula.clauses)) == sorted(map(sorted, cnf.rules(SHAPES[n], "extended").clauses))


def candidates_by_definition(puzzle: Puzzle) -> list[list[int]]:
    """Kwon & Jain's groups, recomputed naively: what the givens leave open."""
    n, givens = puzzle.n, puzzle.givens
    peers = units(puzzle.shape).peers

    def open_(cell: int, digit: int) -> bool:
        return not givens[cell] and all(givens[p] != digit for p in peers[cell])

    u = units(puzzle.shape)
    found = [[(cell, d) for d in range(1, n + 1) if open_(cell, d)] for cell in range(n * n) if not givens[cell]]
    for unit in u.rows + u.cols + u.boxes:
        for d in range(1, n + 1):
            if all(givens[cell] != d for cell in unit):
                found.append([(cell, d) for cell in unit if open_(cell, d)])
    return found


@pytest.mark.parametrize("n, fraction, seed", [(4, 0.3, 1), (9, 0.3, 2), (9, 0.5, 3), (16, 0.45, 4)])
@pytest.mark.parametrize("amo", ["pairwise", "seqcounter", "ladder"])
def test_reduced_counts_follow_the_groups_the_givens_leave(n, fraction, seed, amo):
    puzzle, _ = random_puzzle(n, fraction, seed)
    found = candidates_by_definition(puzzle)
    free = {pair for group in found for pair in group}
    costs = [CLOSED_FORMS[amo](len(g)) if len(g) >= 3 else (len(g) * (len(g) - 1) // 2, 0) for g in found]
    expected = (len(free) + sum(a for _, a in costs), len(found) + sum(c for c, _ in costs))
    formula = cnf.reduced_formula(puzzle, amo)
    assert (formula.variables, len(formula.clauses)) == expected == cnf.reduced_counts(puzzle, amo)
    assert formula.free == {cnf.literal(n, *divmod(cell, n), d) for cell, d in free}
    assert len(formula.clauses) < cnf_size.counts(n, "extended", amo)[1]


def test_reduced_with_givens_that_break_a_rule_is_the_empty_clause():
    broken = Puzzle(Shape(2, 2), (1, 1) + (0,) * 14)
    formula = cnf.reduced_formula(broken)
    assert formula.clauses == ((),) and cnf.reduced_counts(broken) == (0, 1)


def test_bad_options_are_refused_with_the_valid_names():
    with pytest.raises(UsageError, match="unknown encoding 'huge'; choose one of: minimal, efficient, extended"):
        cnf.rules(SHAPES[4], "huge")
    with pytest.raises(UsageError, match="unknown at-most-one encoding 'native'; choose one of: pairwise"):
        cnf.rules(SHAPES[4], "extended", "native")
    with pytest.raises(UsageError, match="reduced encoding depends on the givens"):
        cnf.rules(SHAPES[4], "reduced")


def test_rules_are_built_once_per_shape():
    assert cnf.rules(Shape(2, 3), "extended") is cnf.rules(Shape(2, 3), "extended")
    assert cnf.rules(Shape(2, 3)) is not cnf.rules(Shape(3, 2))


# --- every choice means the same puzzle -----------------------------------------------------------

def all_solutions(puzzle: Puzzle, encoding: str, amo: str, cap: int = 1000) -> set[tuple[int, ...]]:
    """Every solution, by PySAT directly (not the sat solver): models projected on the cells."""
    formula, assumptions = cnf.formula(puzzle, encoding, amo)
    n = puzzle.n
    found = set()
    blanks = [cell for cell, d in enumerate(puzzle.givens) if not d]
    with Solver(name="minisat22", bootstrap_with=[list(c) for c in formula.clauses]) as engine:
        for lit in assumptions:
            engine.add_clause([lit])
        for _ in range(cap):
            if not engine.solve():
                break
            grid = formula.decode(engine.get_model(), puzzle.givens)
            assert grid not in found
            found.add(grid)
            engine.add_clause([-cnf.literal(n, *divmod(cell, n), grid[cell]) for cell in blanks])
    return found


SMALL = [Puzzle.empty(4), random_puzzle(4, 0.25, 11)[0], random_puzzle(4, 0.2, 12)[0],
         Puzzle.from_rows([[1, 2, 0, 0], [0, 0, 3, 0], [0, 0, 4, 0], [0, 0, 0, 0]])]


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(SMALL)))
def test_every_encoding_and_amo_choice_has_the_same_solutions(index):
    puzzle = SMALL[index]
    with solvers.get("backtrack") as baseline:
        expected_count = baseline.count(puzzle, limit=1000).count
    reference = all_solutions(puzzle, "extended", "pairwise")
    assert len(reference) == expected_count  # 288 on the empty 4x4 board, 0 on the last one
    assert all(is_solution(grid, puzzle) for grid in reference)
    for encoding in cnf_encodings.ENCODINGS:
        for amo in cnf_encodings.AMO_ENCODINGS:
            assert all_solutions(puzzle, encoding, amo) == reference, (encoding, amo)


def test_a_6x6_puzzle_under_every_encoding():
    puzzle, _ = random_puzzle(Shape(2, 3), 0.35, 5)
    reference = all_solutions(puzzle, "extended", "pairwise")
    assert reference and all(is_solution(grid, puzzle) for grid in reference)
    for encoding in cnf_encodings.ENCODINGS:
        for amo in ("pairwise", "seqcounter", "bitwise"):
            assert all_solutions(puzzle, encoding, amo) == reference, (encoding, amo)


# --- DIMACS ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("encoding", cnf_encodings.ENCODINGS)
@pytest.mark.parametrize("amo", ["pairwise", "seqcounter"])
def test_dimacs_read_back_by_pysat_decodes_the_published_answer(sample, sample_answer, encoding, amo):
    text = dimacs.to_dimacs(sample, encoding=encoding, amo=amo)
    header = [line for line in text.splitlines() if line.startswith("c ")]
    assert "variable (r-1)*81 + (c-1)*9 + d is true when row r, column c holds digit d" in "\n".join(header)
    assert encoding in header[0] and amo in header[0]
    read = CNF(from_string=text)
    formula = cnf.formula(sample, encoding, amo)[0]
    givens = sum(1 for d in sample.givens if d)
    assert f"p cnf {formula.top} {len(formula.clauses) + givens}\n" in text
    assert read.nv <= formula.top and len(read.clauses) == len(formula.clauses) + givens
    assert read.clauses[-givens:] == [[lit] for lit in cnf_literals.literal_table(9).assumptions(sample.givens)]
    with Solver(name="glucose4", bootstrap_with=read.clauses) as engine:
        assert engine.solve()
        model = engine.get_model()
    grid = cnf_literals.grid_from_model(9, model, sample.givens, formula.free)
    assert format_grid(grid) == sample_answer
    if encoding != "reduced":  # the givens' unit clauses make the model alone decode
        assert cnf_literals.grid_from_model(9, model) == grid


def test_dimacs_of_a_16x16_puzzle_round_trips():
    puzzle, _ = random_puzzle(16, 0.6, 3)
    read = CNF(from_string=dimacs.to_dimacs(puzzle))
    with Solver(name="cadical195", bootstrap_with=read.clauses) as engine:
        assert engine.solve()
        assert is_solution(cnf_literals.grid_from_model(16, engine.get_model()), puzzle)


def test_export_command_writes_dimacs(capsys, tmp_path, sample):
    assert cli.main(["export", SAMPLE, "--format", "dimacs", "--encoding", "minimal"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and out == dimacs.to_dimacs(sample, encoding="minimal")
    assert "p cnf 729 8896\n" in out  # 8829 rules + 67 givens
    target = tmp_path / "sample.cnf"
    assert cli.main(["export", SAMPLE, "--format", "dimacs", "-o", "amo=seqcounter", "--output", str(target)]) == 0
    assert target.read_text() == dimacs.to_dimacs(sample, amo="seqcounter")
    assert cli.main(["export", SAMPLE, "--format", "dimacs", "--encoding", "huge"]) == 2
    assert "unknown encoding 'huge'" in capsys.readouterr().err


def test_exported_4x4_reads_back(capsys):
    puzzle = parse_puzzle("1 0 0 0\n0 0 1 0\n0 1 0 0\n0 0 0 1\n")
    text = dimacs.to_dimacs(puzzle, encoding="reduced", amo="ladder")
    with Solver(name="minisat22", bootstrap_with=CNF(from_string=text).clauses) as engine:
        assert engine.solve()
        assert is_solution(cnf_literals.grid_from_model(4, engine.get_model(), puzzle.givens,
                                               cnf.reduced_formula(puzzle, "ladder").free), puzzle)


# --- rules as data: every kind, against a brute-force count on 4x4 boards -------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402 - the rules tests' own imports
from hypothesis import strategies as st  # noqa: E402

from sudokulab.core.rules import build  # noqa: E402

S4 = Shape(2, 2)
GRID4 = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)
"""A standard 4x4 solution; the killer and thermometer presets below are read from it."""
JIGSAW4 = (0, 0, 0, 1, 2, 0, 1, 1, 2, 2, 3, 1, 2, 3, 3, 3)
PRESETS4 = {
    "standard": build(S4),
    "x": build(S4, ["x"]),
    "windoku": build(S4, ["windoku"]),
    "anti-knight": build(S4, ["anti-knight"]),
    "anti-king": build(S4, ["anti-king"]),
    "jigsaw": build(S4, regions=JIGSAW4),
    "killer": build(S4, cages=[((0, 1), 3), ((2, 3), 7), ((5, 6, 7), 7), ((12, 13), 7), ((10, 14), 6)]),
    "thermo": build(S4, thermos=[(0, 1, 2), (15, 11)]),
    "x+killer+thermo": build(S4, ["x"], cages=[((0, 5), 5)], thermos=[(12, 8)]),
}


def brute_force(puzzle: Puzzle) -> set[tuple[int, ...]]:
    """Every solution of a 4x4 puzzle by definition (``conftest.brute_force``), as a set."""
    return set(by_definition(puzzle))


def test_the_brute_force_agrees_with_the_published_4x4_count():
    assert len(latin_squares(4)) == 576 and len(brute_force(Puzzle.empty(4))) == 288


@pytest.mark.parametrize("name", list(PRESETS4))
@pytest.mark.parametrize("clues", [0, 3])
def test_every_preset_has_the_brute_force_solutions_in_every_encoding(name, clues):
    rules = PRESETS4[name]
    empty = Puzzle.empty(S4).with_rules(rules)
    first = min(brute_force(empty), default=GRID4)  # clues from a solution: still solvable
    puzzle = Puzzle(S4, tuple(first[cell] if cell in (0, 6, 13)[:clues] else 0 for cell in range(16)), rules)
    expected = brute_force(puzzle)
    assert expected or name == "anti-king"  # no 4x4 grid is anti-king
    for encoding in cnf_encodings.ENCODINGS:
        for amo in ("pairwise", "seqcounter", "bitwise"):
            found = all_solutions(puzzle, encoding, amo)
            assert found == expected, (name, encoding, amo)
            assert all(is_solution(grid, puzzle) for grid in found)


def test_the_killer_selectors_are_determined_by_the_grid():
    """Allowed combinations with pairwise AMO: one model per grid, auxiliary variables included."""
    puzzle = Puzzle.empty(S4).with_rules(PRESETS4["x+killer+thermo"])
    formula = cnf.rules(puzzle.rules, "extended", "pairwise")
    assert formula.top > 64
    models = 0
    with Solver(name="minisat22", bootstrap_with=[list(c) for c in formula.clauses]) as engine:
        while engine.solve():
            model = engine.get_model()
            engine.add_clause([-lit for lit in model])
            models += 1
    assert models == len(brute_force(puzzle))


@st.composite
def random_rules(draw, shape: Shape = S4):
    """A random rule set on a small board: presets, maybe a jigsaw, cages, thermometers, extra groups."""
    n = shape.n
    presets = draw(st.lists(st.sampled_from(["x", "windoku", "anti-knight", "anti-king"]), unique=True, max_size=2))
    regions = JIGSAW4 if shape == S4 and draw(st.booleans()) else None
    cells = list(range(shape.cells))
    order = draw(st.permutations(cells))
    cages, at = [], 0
    for _ in range(draw(st.integers(0, 3))):
        k = draw(st.integers(1, 3))
        chosen = order[at:at + k]
        at += k
        low, high = k * (k + 1) // 2, k * (2 * n - k + 1) // 2
        cages.append((tuple(chosen), draw(st.integers(low, high))))
    thermos = []
    for _ in range(draw(st.integers(0, 2))):
        path = [draw(st.sampled_from(cells))]
        for _ in range(draw(st.integers(1, 2))):
            r, c = divmod(path[-1], n)
            steps = [(r + dr) * n + c + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                     if 0 <= r + dr < n and 0 <= c + dc < n and (r + dr) * n + c + dc not in path]
            if not steps:
                break
            path.append(draw(st.sampled_from(steps)))
        if len(path) >= 2:
            thermos.append(tuple(path))
    extra = [tuple(draw(st.permutations(cells))[:draw(st.integers(2, n))])] if draw(st.booleans()) else []
    return build(shape, presets, regions=regions, cages=cages, thermos=thermos, extra_groups=extra)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=random_rules(), data=st.data())
def test_random_rule_sets_have_the_brute_force_solutions(rules, data):
    givens = tuple(data.draw(st.integers(0, 4)) if data.draw(st.integers(0, 5)) == 0 else 0 for _ in range(16))
    puzzle = Puzzle(S4, givens, rules)
    encoding = data.draw(st.sampled_from(cnf_encodings.ENCODINGS))
    amo = data.draw(st.sampled_from(["pairwise", "seqcounter", "ladder"]))
    expected = brute_force(puzzle)
    assert all_solutions(puzzle, encoding, amo) == expected
    if encoding != "reduced":  # sized in closed form, per kind
        built = cnf.rules(rules, encoding, amo)
        assert cnf_size.rules_counts(rules, encoding, amo) == (built.variables, len(built.clauses))
    else:
        built = cnf.reduced_formula(puzzle, amo)
        assert cnf.reduced_counts(puzzle, amo) == (built.variables, len(built.clauses))
        assert len(built.clauses) <= cnf_size.clause_count(puzzle, "reduced", amo)  # the bound check_size uses


# --- clause counts of each constraint kind against their formula ---------------------------------

def extra(rules, encoding: str = "extended", amo: str = "pairwise") -> tuple[int, int]:
    """(variables, clauses) a rule set adds to standard Sudoku of its shape."""
    mine, plain = cnf.rules(rules, encoding, amo), cnf.rules(rules.shape, encoding, amo)
    return mine.variables - plain.variables, len(mine.clauses) - len(plain.clauses)


@pytest.mark.parametrize("shape", [S4, Shape(2, 3), Shape(3, 3)])
def test_each_kind_costs_its_formula(shape):
    n = shape.n
    pair = n * (n - 1) // 2  # a pairwise AMO over n literals
    for preset, groups in (("x", 2), ("windoku", len(build(shape, ["windoku"]).groups) - 3 * n)):
        # a complete group: n ALO clauses and n pairwise AMOs of n literals (extended); n AMOs (minimal)
        assert extra(build(shape, [preset])) == (0, groups * (n + n * pair))
        assert extra(build(shape, [preset]), "minimal") == (0, groups * n * pair)
    for preset in ("anti-knight", "anti-king"):  # n clauses per differing pair
        rules = build(shape, [preset])
        assert rules.pairs and extra(rules) == (0, n * len(rules.pairs))
    for length in (2, 3):  # a thermometer of L cells: (L-1)(n-1) order clauses, L(L-1) domain units
        rules = build(shape, thermos=[tuple(range(length))])
        assert extra(rules) == (0, (length - 1) * (n - 1) + length * (length - 1))
    for cells, total in (((0, 1), 3), ((0, 1, 2), n + 3), ((0, n), 2 * n - 1)):
        k = len(cells)
        m = sum(1 for digits in itertools.combinations(range(1, n + 1), k) if sum(digits) == total)
        # its distinct digits (a partial group: n pairwise AMOs of k), then the sum: one selector per
        # digit set, ALO + pairwise AMO over the selectors, m*k "digits appear", k*n "digit in the set"
        expected = n * (k * (k - 1) // 2) + 1 + m * (m - 1) // 2 + m * k + k * n
        assert extra(build(shape, cages=[(cells, total)])) == (m, expected)
        sums = cnf_size.kind_counts(build(shape, cages=[(cells, total)]))["sum"]
        assert sums == (m, expected - n * (k * (k - 1) // 2))


def test_standard_rules_keep_their_closed_forms_and_their_cache():
    assert cnf.rules(Shape(3, 3)) is cnf.rules(build(Shape(3, 3)))
    assert cnf_size.rules_counts(build(Shape(3, 3)), "extended") == cnf_size.counts(9, "extended") == (729, 11988)
    x = build(Shape(3, 3), ["x"])
    assert cnf.rules(x) is cnf.rules(build(Shape(3, 3), ["x"]))  # equal rules, one formula
    assert cnf.rules(x) is not cnf.rules(Shape(3, 3))


def test_auxiliary_variables_come_after_the_cells_from_one_counter():
    rules = PRESETS4["killer"]
    formula = cnf.rules(rules, "extended", "seqcounter")
    used = {abs(lit) for clause in formula.clauses for lit in clause}
    assert used == set(range(1, formula.top + 1)) and min(used - set(range(1, 65))) == 65


def test_check_size_refuses_a_huge_rule_set_before_building():
    from sudokulab.errors import UnsupportedFeature

    shape = Shape(5, 5)
    rules = build(shape, ["anti-knight", "anti-king", "x"])
    puzzle = Puzzle(shape, (0,) * shape.cells, rules)
    assert cnf_size.clause_count(puzzle, "extended", "pairwise") > cnf_size.MAX_CLAUSES
    with pytest.raises(UnsupportedFeature, match="would have"):
        cnf_size.check_size(puzzle, "extended", "pairwise", "sat")


# --- DIMACS with rules ------------------------------------------------------------------------------

@pytest.mark.parametrize("name", list(PRESETS4))
@pytest.mark.parametrize("encoding", ["extended", "reduced"])
def test_export_and_decode_round_trip_with_rules(name, encoding):
    puzzle = Puzzle(S4, (1,) + (0,) * 15, PRESETS4[name])
    text = dimacs.to_dimacs(puzzle, encoding=encoding)
    assert text.splitlines()[1].startswith("c sudokulab rules {")
    exported = dimacs.read_header(text)
    assert exported.puzzle == puzzle and exported.puzzle.rules == PRESETS4[name]
    with Solver(name="minisat22", bootstrap_with=CNF(from_string=text).clauses) as engine:
        if not engine.solve():
            assert not brute_force(puzzle)
            return
        grid = dimacs.decode_model(exported, tuple(engine.get_model()))
    assert is_solution(grid, puzzle)


def test_rules_made_by_hand_are_spelled_out_and_read_back():
    from sudokulab.core.rules import Group, Rules

    plain = build(S4)
    odd = Rules(S4, plain.groups + (Group("my corner", (0, 5, 10)),), presets=("standard", "mine"))
    data = dimacs.rules_data(odd)
    assert "explicit" in data and dimacs.rules_from_data(S4, data) == odd
    assert dimacs.rules_data(plain) == {} and dimacs.rules_from_data(S4, {}) == plain
    jigsaw = dimacs.rules_data(PRESETS4["jigsaw"])
    assert set(jigsaw) == {"regions"} and dimacs.rules_from_data(S4, jigsaw) == PRESETS4["jigsaw"]


def test_an_old_export_without_the_rules_line_reads_as_standard(sample):
    text = dimacs.to_dimacs(sample)
    old = "\n".join(line for line in text.splitlines() if not line.startswith(dimacs.RULES)) + "\n"
    assert dimacs.read_header(old).puzzle == sample and dimacs.read_header(old).puzzle.rules.is_standard


def test_rules_that_do_not_read_are_one_error_naming_the_line():
    from sudokulab.errors import PuzzleFormatError

    text = dimacs.to_dimacs(Puzzle(S4, (0,) * 16, PRESETS4["x"]))
    broken = text.replace('{"presets":["x"]}', '{"presets":["y"]}')
    with pytest.raises(PuzzleFormatError, match="line 2: rules that do not read: unknown rules 'y'"):
        dimacs.read_header(broken)
