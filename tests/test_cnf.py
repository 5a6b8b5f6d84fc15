"""The CNF model: the literal map, clause counts against their formulas, every encoding and AMO
choice meaning the same puzzle, and DIMACS that any SAT solver can read back."""

from __future__ import annotations

import doctest
import itertools

import pytest
from pysat.formula import CNF
from pysat.solvers import Solver

from sudokulab import Puzzle, Shape, UsageError, cli, is_solution, parse_puzzle, solvers
from sudokulab.boj import format_grid
from sudokulab.grid import units
from sudokulab.models import cnf, dimacs

from .conftest import EXAMPLES, random_puzzle

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
    table = cnf.literal_table(n)
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
    assert table.decode(model) == answer == cnf.grid_from_model(n, model)


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
    assert (formula.variables, len(formula.clauses)) == expected == cnf.counts(n, encoding, amo)
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
        one_clauses, one_top = cnf.at_most_one(list(range(1, n + 1)), amo, n)
        assert len(formula.clauses) == alo + amo_groups * len(one_clauses) == cnf.counts(n, encoding, amo)[1]
        assert formula.variables == n**3 + amo_groups * (one_top - n)


@pytest.mark.parametrize("n", [4, 9, 16])
def test_reduced_on_an_empty_board_is_the_extended_encoding(n):
    assert cnf.reduced_counts(Puzzle.empty(n)) == cnf.counts(n, "extended")
    formula = cnf.reduced_formula(Puzzle.empty(n))
    assert (formula.variables, len(formula.clauses)) == cnf.counts(n, "extended")
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
    assert len(formula.clauses) < cnf.counts(n, "extended", amo)[1]


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


@pytest.mark.parametrize("index", range(len(SMALL)))
def test_every_encoding_and_amo_choice_has_the_same_solutions(index):
    puzzle = SMALL[index]
    with solvers.get("backtrack") as baseline:
        expected_count = baseline.count(puzzle, limit=1000).count
    reference = all_solutions(puzzle, "extended", "pairwise")
    assert len(reference) == expected_count  # 288 on the empty 4x4 board, 0 on the last one
    assert all(is_solution(grid, puzzle) for grid in reference)
    for encoding in cnf.ENCODINGS:
        for amo in cnf.AMO_ENCODINGS:
            assert all_solutions(puzzle, encoding, amo) == reference, (encoding, amo)


def test_a_6x6_puzzle_under_every_encoding():
    puzzle, _ = random_puzzle(Shape(2, 3), 0.35, 5)
    reference = all_solutions(puzzle, "extended", "pairwise")
    assert reference and all(is_solution(grid, puzzle) for grid in reference)
    for encoding in cnf.ENCODINGS:
        for amo in ("pairwise", "seqcounter", "bitwise"):
            assert all_solutions(puzzle, encoding, amo) == reference, (encoding, amo)


# --- DIMACS ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("encoding", cnf.ENCODINGS)
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
    assert read.clauses[-givens:] == [[lit] for lit in cnf.literal_table(9).assumptions(sample.givens)]
    with Solver(name="glucose4", bootstrap_with=read.clauses) as engine:
        assert engine.solve()
        model = engine.get_model()
    grid = cnf.grid_from_model(9, model, sample.givens, formula.free)
    assert format_grid(grid) == sample_answer
    if encoding != "reduced":  # the givens' unit clauses make the model alone decode
        assert cnf.grid_from_model(9, model) == grid


def test_dimacs_of_a_16x16_puzzle_round_trips():
    puzzle, _ = random_puzzle(16, 0.6, 3)
    read = CNF(from_string=dimacs.to_dimacs(puzzle))
    with Solver(name="cadical195", bootstrap_with=read.clauses) as engine:
        assert engine.solve()
        assert is_solution(cnf.grid_from_model(16, engine.get_model()), puzzle)


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
        assert is_solution(cnf.grid_from_model(4, engine.get_model(), puzzle.givens,
                                               cnf.reduced_formula(puzzle, "ladder").free), puzzle)
