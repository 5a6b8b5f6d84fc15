"""The command: stdout is the pure BOJ answer, stderr one line, exit codes as documented."""

from __future__ import annotations

import subprocess
import sys

import pytest

from sudokulab import solvers

from ..conftest import EXAMPLES
from ..conftest import run_cli as run

SAMPLE = str(EXAMPLES / "boj2580-sample.txt")




@pytest.mark.parametrize("solver", solvers.names())
def test_solve_prints_exactly_the_boj_answer(capsys, solver, sample_answer):
    code, out, err = run(capsys, "solve", SAMPLE, "--solver", solver)
    assert (code, out, err) == (0, sample_answer, "")


def test_stats_go_to_stderr_and_keep_stdout_pure(capsys, sample_answer):
    code, out, err = run(capsys, "solve", SAMPLE, "--stats", "--solver", "backtrack")
    assert code == 0 and out == sample_answer
    assert err.startswith("solver: backtrack  status: solved  time: ") and "nodes: 14" in err


def test_standard_input(capsys, monkeypatch, sample_text, sample_answer):
    code, out, _ = run(capsys, "solve", "-", stdin=sample_text.encode(), monkeypatch=monkeypatch)
    assert (code, out) == (0, sample_answer)
    code, out, _ = run(capsys, "solve", stdin=" ".join(sample_text.split()).encode(), monkeypatch=monkeypatch)
    assert (code, out) == (0, sample_answer)


def test_compact_format_answers_boj_2239(capsys, sample_answer):
    code, out, _ = run(capsys, "solve", SAMPLE, "--format", "compact")
    assert code == 0 and out == "".join(line.replace(" ", "") + "\n" for line in sample_answer.splitlines())


@pytest.mark.parametrize(
    "data, code, message",
    [
        (b"", 2, "<stdin>: the input is empty"),
        (b"1 2 3\n", 2, "<stdin>: 4 numbers expected for a 2x2 board, found 3"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", 2, "<stdin> is not text"),
        (b"0 " * 80, 2, "<stdin>: 81 numbers expected for a 9x9 board, found 80"),
        (b"1 0 0 0 0 0 0 1 0\n" + b"0 0 0 0 0 0 0 0 0\n" * 8, 1,
         "no solution: the givens break a rule: row 1 holds 1 twice (columns 1 and 8)"),
        (b"1 2 0 0\n0 0 3 0\n0 0 4 0\n0 0 0 0\n", 1, "no solution"),
    ],
)
def test_bad_input_one_line_exit_code_nothing_on_stdout(capsys, monkeypatch, data, code, message):
    got, out, err = run(capsys, "solve", stdin=data, monkeypatch=monkeypatch)
    assert got == code and out == ""
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


@pytest.mark.parametrize(
    "argv, message",
    [
        (["solve", SAMPLE, "--solver", "nope"], "unknown solver 'nope'; choose one of: backtrack, backtrack-fast"),
        (["solve", "/no/such/file"], "cannot read '/no/such/file'"),
        (["solve", SAMPLE, "--time-limit", "-1"], "not a positive number of seconds"),
        (["solve", SAMPLE, "--box", "2x4"], "box 2x4 does not fit a 9x9 board"),
        (["solve", SAMPLE, "-o", "colour"], "not of the form KEY=VALUE"),
        (["solve", SAMPLE, "-o", "colour=red"], "takes no option 'colour'"),
        (["frobnicate"], "unknown command 'frobnicate'; see 'sudokulab --help'"),
        (["solv", SAMPLE], "unknown command 'solv'; did you mean 'solve' or 'solvers'?"),
        (["bench", "17clue"], "no such file, nor a published set; did you mean '17_clue'?"),
        (["bench", SAMPLE, "--solvers", ""], "--solvers names no solver"),
        (["bench", SAMPLE, "--solvers", "sat", "-o", "cpsat.workers=2"],
         "options given for 'cpsat', which is not among the solvers run (sat)"),
        (["compare", SAMPLE, "--solvers", " , "], "--solvers names no solver"),
        (["generate", "--clues", "100"], "a 9x9 board has 81 cells: give --clues from 0 to 81, not 100"),
    ],
)
def test_bad_arguments_exit_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and message in err and err.count("\n") == 1


@pytest.mark.parametrize("argv, listed", [([], ("solve", "judge", "check-solver")), (["datasets"], ("list", "fetch"))])
def test_a_bare_command_lists_what_it_takes_then_one_error_line(capsys, argv, listed):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    *help_lines, last = err.rstrip("\n").split("\n")
    assert last.startswith("sudokulab: error: ") and "required" in last
    assert all(any(line.split()[:1] == [word] for line in help_lines) for word in listed)


def test_rate_refuses_an_empty_dataset_as_bench_does(capsys, tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing but a comment\n")
    code, out, err = run(capsys, "rate", str(empty))
    assert (code, out, err) == (2, "", "sudokulab: error: rate: no puzzles in 'empty'\n")


def test_generate_makes_a_9x9_when_no_size_is_given(capsys):
    code, out, err = run(capsys, "generate", "--count", "1", "--seed", "3", "--clues", "40")
    assert code == 0 and len(out.strip()) == 81 and sum(ch != "." for ch in out.strip()) == 40


def test_time_limit_exit_3(capsys, monkeypatch):
    hard = b".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7..."
    code, out, err = run(capsys, "solve", "--solver", "backtrack", "--time-limit", "0.05", stdin=hard,
                         monkeypatch=monkeypatch)
    assert (code, out) == (3, "") and "time limit reached" in err


def test_count(capsys, monkeypatch):
    assert run(capsys, "count", SAMPLE)[:2] == (0, "1\n")
    empty4 = b"0 " * 16
    assert run(capsys, "count", "--limit", "1000", stdin=empty4, monkeypatch=monkeypatch)[:2] == (0, "288\n")
    assert run(capsys, "count", "--limit", "5", stdin=empty4, monkeypatch=monkeypatch)[:2] == (0, "at least 5\n")
    code, out, err = run(capsys, "count", "--limit", "100000000", "--time-limit", "0.2",
                         stdin=b"0 " * 81, monkeypatch=monkeypatch)
    assert code == 3 and out == "" and "time limit reached after" in err and err.count("\n") == 1


def test_box_override(capsys, monkeypatch):
    six = b"0 " * 36
    code, out, _ = run(capsys, "solve", "--box", "3x2", stdin=six, monkeypatch=monkeypatch)
    assert code == 0
    rows = [line.split() for line in out.splitlines()]
    assert rows[0] == ["1", "2", "3", "4", "5", "6"]
    assert sorted(rows[0][:2] + rows[1][:2] + rows[2][:2]) == ["1", "2", "3", "4", "5", "6"]  # 3x2 box


@pytest.mark.parametrize("data", [b"\xff\xfe\x00junk" * 100, b"9 " * 200_000, b"0" * (2 << 20)])
def test_no_traceback_from_a_real_process(data):
    done = subprocess.run([sys.executable, "-m", "sudokulab", "solve"], input=data, capture_output=True,
                          timeout=60)
    assert done.returncode == 2 and done.stdout == b""
    assert b"Traceback" not in done.stderr and done.stderr.count(b"\n") == 1


@pytest.mark.parametrize("command", ["count", "explain", "export", "verify"])
def test_a_dataset_given_to_a_one_puzzle_command_is_named_for_what_it_is(capsys, command):
    dataset = str(EXAMPLES / "puzzles-20.txt")
    extra = {"export": ["--format", "dimacs"], "verify": [str(EXAMPLES / "boj2580-sample.out")]}
    argv = [command, dataset, *extra.get(command, [])]
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert err == (f"sudokulab: error: {dataset} holds 20 puzzles, a dataset, not one puzzle: the commands that "
                   "read datasets take it (solve --all, bench, rate, judge)\n")
