"""verify: the BOJ special judge (each reason, exactly what is tolerated) and the SAT oracle beside it."""

from __future__ import annotations

import pytest

from sudokulab import Puzzle, parse_puzzle, solvers
from sudokulab.formats.boj import format_grid
from sudokulab.verdicts import oracle as oracles
from sudokulab.verdicts.oracle import Oracle
from sudokulab.verdicts.verify import MAX_ANSWER_BYTES, verify

from ..conftest import EXAMPLES
from ..conftest import run_cli as run

SAMPLE = str(EXAMPLES / "boj2580-sample.txt")
SAMPLE_OUT = str(EXAMPLES / "boj2580-sample.out")
MULTI = "..5.69.7.782....4..6.2.8.3....5.....8.4.1.5.6..6..7.1...7....8.....8195.....947.1"  # four solutions


@pytest.fixture
def oracle() -> str:
    """The oracle is the registered SAT solver."""
    assert oracles.DEFAULT_SOLVER == "sat" and "sat" in solvers.names()
    return oracles.DEFAULT_SOLVER


def _answer(verdict):
    return verdict.grid, verdict.accepted


def rows_of(text: str) -> list[str]:
    return text.splitlines()


def joined(rows: list[str], end: str = "\n") -> str:
    return "".join(row + end for row in rows)


# --- accepted, and exactly what is tolerated -------------------------------------------------------


def test_the_sample_answer_is_accepted(sample, sample_answer):
    verdict = verify(sample, sample_answer)
    assert verdict.accepted and str(verdict) == "accepted"
    assert verdict.grid == parse_puzzle(sample_answer).givens


@pytest.mark.parametrize(
    "spelling",
    [
        "trailing spaces", "trailing tabs", "crlf", "no final newline", "trailing blank lines",
        "trailing whitespace-only lines", "all at once",
    ],
)
def test_tolerated_spellings(sample, sample_answer, spelling):
    rows = rows_of(sample_answer)
    text = {
        "trailing spaces": joined([row + "   " for row in rows]),
        "trailing tabs": joined([row + "\t" for row in rows]),
        "crlf": joined(rows, "\r\n"),
        "no final newline": "\n".join(rows),
        "trailing blank lines": joined(rows) + "\n\n\n",
        "trailing whitespace-only lines": joined(rows) + "  \n\t\n",
        "all at once": "\r\n".join(row + " " for row in rows) + "\r\n\r\n \r\n",
    }[spelling]
    assert verify(sample, text).accepted
    assert verify(sample, text.encode()).accepted


@pytest.mark.parametrize(
    "change, reason",
    [
        (lambda rows: [" " + rows[0]] + rows[1:], "line 1 starts with a space"),
        (lambda rows: rows[:1] + [rows[1].replace(" ", "  ", 1)] + rows[2:],
         "line 2, column 3: two spaces between numbers"),
        (lambda rows: rows[:2] + [rows[2].replace(" ", "\t", 1)] + rows[3:],
         "line 3, column 2: a tab between numbers"),
        (lambda rows: [rows[0].replace(" ", "\r", 1)] + rows[1:],
         "line 1, column 2: a carriage return between numbers"),  # a lone CR ends no line
        (lambda rows: rows[:4] + [""] + rows[4:], "line 5 is empty"),
        (lambda rows: [""] + rows, "line 1 is empty"),
        (lambda rows: [" ".join(rows)], "line 1 has 81 numbers"),
    ],
)
def test_not_tolerated(sample, sample_answer, change, reason):
    verdict = verify(sample, joined(change(rows_of(sample_answer))))
    assert str(verdict) == f"wrong answer: {reason}"
    assert verdict.grid is None


# --- each reason, in plain words -------------------------------------------------------------------


def test_a_line_with_too_few_numbers(sample, sample_answer):
    rows = rows_of(sample_answer)
    rows[2] = rows[2].rsplit(" ", 1)[0]
    assert str(verify(sample, joined(rows))) == "wrong answer: line 3 has 8 numbers"


def test_extra_output_and_missing_lines(sample, sample_answer):
    rows = rows_of(sample_answer)
    assert verify(sample, joined(rows + ["1 2 3"])).reason == "line 10: extra output"
    assert verify(sample, joined(rows + ["", "done"])).reason == "line 10: extra output"
    assert verify(sample, joined(rows[:8])).reason == "expected 9 lines, found 8"
    assert verify(sample, "").reason == "the output is empty"
    assert verify(sample, "\n \n").reason == "the output is empty"


def test_a_given_changed(sample, sample_answer):
    rows = rows_of(sample_answer)
    rows[1] = "1" + rows[1][1:]  # row 2 column 1 is given 7
    assert verify(sample, joined(rows)).reason == "row 2, column 1 is given 7 but the answer has 1"


def test_a_rule_broken_names_unit_digit_and_both_places(sample_answer):
    rows = [row.split() for row in rows_of(sample_answer)]
    rows[0][3], rows[0][4] = rows[0][4], rows[0][3]  # row 1 stays whole; column 4 now holds 6 in rows 1 and 7
    verdict = verify(Puzzle.empty(9), joined([" ".join(row) for row in rows]))
    assert verdict.reason == "column 4 holds 6 twice (rows 1 and 7)"
    assert verdict.grid is not None  # it read as a board: the oracle can point at the difference


def test_words_and_numbers_out_of_range(sample, sample_answer):
    rows = rows_of(sample_answer)
    bad_word = rows[:1] + ["7 8 x 1 3 5 6 4 9"] + rows[2:]
    assert verify(sample, joined(bad_word)).reason == "line 2, number 3: 'x' is not a number"
    too_big = ["1 3 5 12 6 9 2 7 8"] + rows[1:]
    assert verify(sample, joined(too_big)).reason == "line 1, number 4: 12 is outside 1..9"
    zero = ["0 3 5 4 6 9 2 7 8"] + rows[1:]
    assert verify(sample, joined(zero)).reason == "line 1, number 1: 0 is outside 1..9"
    wide = ["１ 3 5 4 6 9 2 7 8"] + rows[1:]  # a full-width digit is not a number for the judge
    assert verify(sample, joined(wide)).reason == "line 1, number 1: '１' is not a number"


def test_binary_output_is_a_wrong_answer_not_a_crash(sample):
    assert verify(sample, b"1 2 \xff\n").reason == "the output is not text: byte 0xff at offset 4"
    assert verify(sample, b"x" * (MAX_ANSWER_BYTES + 1)).reason.startswith("the output is larger than")


def test_the_first_reason_in_reading_order_wins(sample, sample_answer):
    rows = rows_of(sample_answer)
    rows[1] = "1" + rows[1][1:]  # a changed given on line 2 ...
    rows[5] = "5 9 6 8 2 7 4 1"  # ... but line 6 is short: the format is read first
    assert verify(sample, joined(rows)).reason == "line 6 has 8 numbers"


# --- the oracle -------------------------------------------------------------------------------------


def test_oracle_on_a_unique_puzzle(sample, sample_answer, oracle):
    with Oracle() as solver:
        report = solver.consult(sample)
    assert report.solver == oracle and report.solutions == 1
    assert report.lines(*_answer(verify(sample, sample_answer))) == [
        f"solutions: exactly one (oracle: {oracle})",
        "canonical: yes, the answer is the lexicographically first solution",
    ]


def test_oracle_tells_valid_but_different_from_wrong(oracle):
    puzzle = parse_puzzle(MULTI)
    with solvers.get("backtrack") as classic, Oracle() as solver:
        canonical = classic.solve(puzzle).grid
        report = solver.consult(puzzle)
    assert report.solutions == 2 and report.canonical == canonical
    different = verify(puzzle, format_grid(another_solution(puzzle, canonical)))
    assert different.accepted
    assert report.lines(*_answer(different))[1] == (
        "canonical: no, a valid answer but not the lexicographically first solution")
    wrong = list(canonical)
    cell = puzzle.givens.index(0)
    wrong[cell] = wrong[cell] % 9 + 1
    verdict = verify(puzzle, format_grid(wrong))
    assert not verdict.accepted
    r, c = divmod(cell, 9)
    assert report.lines(*_answer(verdict))[1] == (
        f"canonical: no, first difference at row {r + 1}, column {c + 1}: "
        f"the canonical solution has {canonical[cell]}, the answer {wrong[cell]}"
    )


def another_solution(puzzle: Puzzle, solution: tuple[int, ...]) -> tuple[int, ...]:
    """A solution other than ``solution``: fix one blank to another digit and solve again."""
    with solvers.get("backtrack-fast") as solver:
        for cell in (i for i, v in enumerate(puzzle.givens) if not v):
            for digit in range(1, puzzle.n + 1):
                if digit != solution[cell]:
                    givens = puzzle.givens[:cell] + (digit,) + puzzle.givens[cell + 1 :]
                    result = solver.solve(Puzzle(puzzle.shape, givens))
                    if result.solved:
                        return result.grid
    raise AssertionError("the puzzle has one solution only")


def test_oracle_on_a_puzzle_without_solution(oracle):
    puzzle = parse_puzzle("1 2 0 0\n0 0 3 0\n0 0 4 0\n0 0 0 0\n")
    with Oracle() as solver:
        report = solver.consult(puzzle)
    assert report.solutions == 0 and report.canonical is None
    verdict = verify(puzzle, "1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1\n")
    assert report.lines(*_answer(verdict))[1] == "canonical: there is no solution, so no canonical one"


def test_oracle_asks_a_solver_that_honours_the_puzzles_rules(monkeypatch):
    """When SAT cannot honour a kind (made so here), the default oracle asks the first solver that
    can, and a named oracle that cannot refuses rather than answer for other rules."""
    import dataclasses

    from sudokulab.core.rules import build
    from sudokulab.errors import UnsupportedFeature
    from sudokulab.solvers.sat.solver import SatSolver

    shape = Puzzle.empty(4).shape
    killer = Puzzle.empty(shape).with_rules(build(shape, cages=[((0, 1), 3), ((2, 3), 7)]))
    lacking = dataclasses.replace(SatSolver.capabilities, kinds=frozenset({"all-different", "differ"}),
                                  forms=frozenset())
    monkeypatch.setattr(SatSolver, "capabilities", lacking)
    oracles._oracle_for_kinds.cache_clear()
    try:
        with Oracle() as solver:
            solver.solver.capabilities = lacking  # the instance's own, as SatSolver sets them per engine
            report = solver.consult(killer)
            assert report.solver == oracles.oracle_for(killer.rules) != "sat"
            assert report.solutions == 2 and report.canonical[:4] == (1, 2, 3, 4)
            assert solver.solutions(Puzzle.empty(shape)) == 2 and solver.name == "sat"  # standard: SAT again
        with Oracle("sat", engine="glucose4") as named, pytest.raises(UnsupportedFeature, match="sum constraints"):
            named.solver.capabilities = lacking
            named.solutions(killer)
    finally:
        oracles._oracle_for_kinds.cache_clear()


# --- the command ------------------------------------------------------------------------------------




def test_command_accepts_with_the_oracle_lines(capsys, oracle):
    assert run(capsys, "verify", SAMPLE, SAMPLE_OUT) == (
        0,
        f"accepted\nsolutions: exactly one (oracle: {oracle})\n"
        "canonical: yes, the answer is the lexicographically first solution\n",
        "",
    )


def test_command_wrong_answer_exits_1(capsys, tmp_path, sample_answer):
    answer = tmp_path / "answer.txt"
    answer.write_text(sample_answer.replace("7 8 2", "7 8 2 2", 1))
    code, out, err = run(capsys, "verify", SAMPLE, str(answer), "--no-oracle")
    assert (code, out, err) == (1, "wrong answer: line 2 has 10 numbers\n",
                                "sudokulab: wrong answer: line 2 has 10 numbers\n")


def test_command_reads_either_side_from_stdin(capsys, monkeypatch, sample_text, sample_answer):
    code, out, _ = run(capsys, "verify", SAMPLE, "-", "--no-oracle", stdin=sample_answer.encode(),
                       monkeypatch=monkeypatch)
    assert (code, out) == (0, "accepted\n")
    code, out, _ = run(capsys, "verify", "-", SAMPLE_OUT, "--no-oracle", stdin=sample_text.encode(),
                       monkeypatch=monkeypatch)
    assert (code, out) == (0, "accepted\n")


def test_command_binary_answer_is_wrong_not_bad_input(capsys, monkeypatch):
    code, out, _ = run(capsys, "verify", SAMPLE, "-", "--no-oracle", stdin=b"\x89PNG\r\n", monkeypatch=monkeypatch)
    assert (code, out) == (1, "wrong answer: the output is not text: byte 0x89 at offset 0\n")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["verify", "-", "-"], "cannot both come from standard input"),
        (["verify", "/nonexistent/puzzle.txt", SAMPLE_OUT], "cannot read '/nonexistent/puzzle.txt'"),
        (["verify", SAMPLE, "/nonexistent/answer.txt"], "cannot read '/nonexistent/answer.txt'"),
        (["verify", SAMPLE_OUT + "-missing"], "the following arguments are required: answer"),
    ],
)
def test_command_bad_arguments_exit_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and message in err


def test_command_no_puzzle_exits_2(capsys, monkeypatch, sample_answer, tmp_path):
    puzzle = tmp_path / "puzzle.txt"
    puzzle.write_text("0 " * 80)
    code, out, err = run(capsys, "verify", str(puzzle), SAMPLE_OUT)
    assert (code, out) == (2, "")
    assert err == f"sudokulab: error: {puzzle}: 81 numbers expected for a 9x9 board, found 80\n"


ORACLES = [name for name in solvers.names()
           if solvers.solver_class(name).capabilities.lacks(canonical=True, count=True, time_limit=True) is None
           and name != "dimacs"]


@pytest.mark.slow
@pytest.mark.parametrize("name", ORACLES)
def test_any_solver_that_counts_and_gives_canonical_answers_can_be_the_oracle(capsys, tmp_path, name):
    """``--oracle NAME``: the paradigm asked for the count and the first solution; every one that can
    be the oracle agrees on a puzzle with several solutions and a wrong (non-canonical) answer."""
    if solvers.unavailable(name):
        pytest.skip(f"{name}: {solvers.unavailable(name)}")
    several = EXAMPLES / "several-solutions.txt"
    puzzle = parse_puzzle(several.read_text())
    canonical = solvers.get("backtrack").solve(puzzle, canonical=True).grid
    other = next(g for g in solvers.get("sat").solutions(puzzle, limit=2).grids if g != canonical)
    answer = tmp_path / "answer.txt"
    answer.write_text(format_grid(other, 9))
    code, out, err = run(capsys, "verify", str(several), str(answer), "--oracle", name)
    assert code == 0, err
    assert out.splitlines() == ["accepted", f"solutions: two or more (oracle: {name})",
                                out.splitlines()[2]] and out.splitlines()[2].startswith("canonical: no,")


def test_an_oracle_that_cannot_count_is_refused_in_one_line(capsys, sample):
    code, out, err = run(capsys, "verify", str(EXAMPLES / "boj2580-sample.txt"),
                         str(EXAMPLES / "boj2580-sample.out"), "--oracle", "local-search")
    assert code == 2 and out == ""
    assert err.strip() == ("sudokulab: error: solver 'local-search' cannot be the oracle: it cannot give a "
                           "canonical answer")
    code, _, err = run(capsys, "verify", str(EXAMPLES / "boj2580-sample.txt"),
                       str(EXAMPLES / "boj2580-sample.out"), "--oracle", "sat", "--no-oracle")
    assert code == 2 and "give one of them" in err
