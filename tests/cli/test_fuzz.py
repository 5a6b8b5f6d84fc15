"""Fuzzing the input grammar through every command and solver: the contract must hold on anything.

For each input: an exit code from the documented set, never a traceback, one line on stderr for a
non-zero exit, and nothing on stdout when the input is refused. Runs about a hundred inputs per
test by default (seconds); ``pytest tests/cli/test_fuzz.py --hypothesis-profile=fuzz`` runs thousands
(the profile is registered in ``conftest.py``).
"""

from __future__ import annotations

import io
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudokulab import solvers
from sudokulab.cli import main as cli
from sudokulab.core.grid import Shape
from sudokulab.core.puzzle import Puzzle
from sudokulab.datasets.reading import parse_lines

from ..conftest import EXAMPLES, random_puzzle

DOCUMENTED = {0, 1, 2, 3, 4}
SAMPLE = str(EXAMPLES / "boj2580-sample.txt")
SIZES = st.one_of(st.sampled_from([4, 9, 9, 9, 6, 16]), st.integers(1, 12), st.sampled_from([25, 36, 49, 64]))


@st.composite
def boards(draw) -> bytes:
    """A board in some spelling, possibly garbled."""
    n = draw(SIZES)
    shape = Shape.of_size(n)
    if n <= 16:
        puzzle, _ = random_puzzle(shape, draw(st.floats(0, 1)), draw(st.integers(0, 2**16)))
    else:
        puzzle = Puzzle.empty(shape)
    rows = [[str(v) for v in puzzle.givens[r * n:(r + 1) * n]] for r in range(n)]
    compact = n <= 9 and draw(st.booleans())
    for _ in range(draw(st.integers(0, 3))):
        r, c = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
        rows[r][c] = draw(st.one_of(
            st.sampled_from(["x", "-1", "+3", "0x1f", "１", "٣", "\x00", "\ufeff", "1.5", "", "10", "99"]),
            st.integers(0, n + 2).map(str),
            st.integers(4000, 6000).map(lambda k: "9" * k),
            st.text(max_size=4),
        ))
    line_end = draw(st.sampled_from(["\n", "\r\n", "\r", "\n\n"]))
    text = line_end.join(("".join(row) if compact else draw(st.sampled_from([" ", "  ", "\t"])).join(row))
                         for row in rows)
    if draw(st.booleans()):
        text = text[: draw(st.integers(0, len(text)))]
    data = text.encode("utf-8", "surrogatepass")
    if draw(st.booleans()):
        data = b"\xef\xbb\xbf" + data
    return data


INPUTS = st.one_of(boards(), st.binary(max_size=300), st.text(max_size=200).map(lambda t: t.encode("utf-8", "replace")))


def run(argv: list[str], stdin: bytes, monkeypatch, capsys) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def check(code: int, out: str, err: str, refused_means_empty: bool = True) -> None:
    assert code in DOCUMENTED, (code, err)
    assert "Traceback" not in out + err
    if code:
        assert err.endswith("\n") and err.splitlines()[-1].startswith("sudokulab: "), err
    if code == 2 and refused_means_empty:
        assert out == "", out


COMMANDS = st.one_of(
    st.sampled_from(solvers.names()).map(lambda name: ["solve", "-", "--solver", name, "--time-limit", "1"]),
    st.sampled_from(solvers.names()).map(lambda name: ["solve", "-", "--solver", name, "--canonical",
                                                       "--time-limit", "1"]),
    st.sampled_from(solvers.names()).map(lambda name: ["count", "-", "--solver", name, "--limit", "3",
                                                       "--time-limit", "1"]),
    st.just(["export", "-", "--format", "dimacs"]),
    st.just(["export", "-", "--format", "cpsat"]),
    st.just(["compare", "-", "--time-limit", "1", "--solvers", "backtrack-fast,sat,cpsat"]),
    st.sampled_from(["backtrack-fast", "sat", "dlx"]).map(
        lambda name: ["bench", "-", "--solvers", name, "--time-limit", "1", "--quiet"]),
    st.just(["judge", "-", "--quiet", "--time-limit", "5", "--", "true"]),
    st.just(["decode", "-", "--cnf", str(EXAMPLES.parent / "tests" / "fixtures" / "sample.cnf")]),
)


@pytest.mark.slow
@settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(argv=COMMANDS, data=INPUTS)
def test_any_input_through_any_command(monkeypatch, capsys, argv, data):
    code, out, err = run(argv, data, monkeypatch, capsys)
    check(code, out, err, refused_means_empty=argv[0] not in ("bench", "judge"))
    if argv[0] in ("solve", "decode") and code:
        assert out == ""


@settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(answer=INPUTS)
def test_any_answer_through_verify(monkeypatch, capsys, answer):
    code, out, err = run(["verify", SAMPLE, "-", "--no-oracle"], answer, monkeypatch, capsys)
    check(code, out, err)
    assert code in (0, 1) and out.splitlines()[0] in ("accepted",) + tuple(
        line for line in out.splitlines() if line.startswith("wrong answer: "))


@st.composite
def datasets(draw) -> tuple[list[str], int]:
    """One-line puzzles with one malformed line inserted anywhere; returns the lines and where."""
    good = [p.givens for p in (random_puzzle(9, 0.4, seed)[0] for seed in range(draw(st.integers(1, 12))))]
    lines = ["".join(str(v) if v else "." for v in givens) for givens in good]
    bad = draw(st.one_of(
        st.sampled_from(["x", "1 2 3", "12345678", "1" * 80, "." * 82, "１" * 81, "\x00", "0 " * 81 + "7"]),
        st.text(alphabet=st.characters(blacklist_categories=("Cs", "Zl", "Zp", "Cc")), min_size=1, max_size=90)
        .filter(lambda t: t.strip() and not t.strip().startswith("#")),
    ))
    where = draw(st.integers(0, len(lines)))
    return lines[:where] + [bad] + lines[where:], where


@settings(deadline=None, max_examples=200)
@given(case=datasets())
def test_a_malformed_line_anywhere_loses_no_other_puzzle(case):
    lines, where = case
    entries = list(parse_lines(lines))
    puzzles = [e for e in entries if e.ok]
    bad = [e for e in entries if not e.ok]
    good_lines = [i + 1 for i in range(len(lines)) if i != where]
    assert [e.line for e in puzzles if e.line != where + 1] == good_lines
    assert all(e.line == where + 1 for e in bad) and len(bad) <= 1
    if bad:
        assert bad[0].error.startswith(f"line {where + 1}")
