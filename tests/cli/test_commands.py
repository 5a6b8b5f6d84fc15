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
        (["solve", SAMPLE, "--solver", "sta"], "unknown solver 'sta'; did you mean"),
        (["solve", SAMPLE, "--solver", "backtrak"], "unknown solver 'backtrak'; did you mean 'backtrack'"),
        (["solve", SAMPLE, "--solver", "sat", "-o", "engin=glucose4"], "no option 'engin'; did you mean 'engine'?"),
        (["solve", SAMPLE, "--solv", "sat"], "solve: unknown option '--solv'; did you mean '--solver'"),
        (["solve", SAMPLE, "--tim-limit", "3"], "solve: unknown option '--tim-limit'; did you mean '--time-limit'"),
        (["solve", SAMPLE, "--time-limi=3"], "unknown option '--time-limi'; did you mean '--time-limit'?"),
        (["datasets", "list", "--wdie"], "datasets list: unknown option '--wdie'; did you mean '--wide'?"),
        (["encoding", "show", "--amo", "sequential"], "--amo: unknown value 'sequential'; did you mean 'seqcounter'?"),
        (["--versoin"], "unknown option '--versoin'; did you mean '--version'?"),
        (["bench", SAMPLE, "--solvers", "sat,dxl"], "unknown solver 'dxl'; did you mean 'dlx'?"),
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


def test_sudokulab_alone_prints_its_help_on_stdout_and_exits_0(capsys):
    """Asking what the program does is no mistake: the help on stdout (for a pager), exit 0, as --help."""
    code, out, err = run(capsys)
    assert (code, err) == (0, "") and out.startswith("usage: sudokulab ")
    with pytest.raises(SystemExit):
        run(capsys, "--help")
    assert capsys.readouterr().out == out
    assert all(any(line.split()[:1] == [word] for line in out.splitlines()) for word in ("solve", "judge", "grade"))


def test_a_bare_command_lists_what_it_takes_then_one_error_line(capsys):
    code, out, err = run(capsys, "datasets")
    assert code == 2 and out == ""
    *help_lines, last = err.rstrip("\n").split("\n")
    assert last.startswith("sudokulab: error: ") and "required" in last
    assert all(any(line.split()[:1] == [word] for line in help_lines) for word in ("list", "fetch"))


@pytest.mark.parametrize("command", [["solve", "--all"], ["bench", "--quiet"], ["rate", "--quiet"],
                                     ["propagate", "--summary", "--quiet"],
                                     ["judge", "--quiet", "--isolation", "none"]])
def test_a_dataset_without_a_puzzle_is_refused_in_one_wording(capsys, tmp_path, command):
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing but a comment\n")
    argv = [command[0], str(empty), *command[1:]] + (["--", "cat"] if command[0] == "judge" else [])
    code, out, err = run(capsys, *argv)
    *before, last = err.splitlines()
    assert (code, out, last) == (2, "", f"sudokulab: error: '{empty}' holds no puzzle")
    assert all(line.startswith("sudokulab: warning: --isolation none") for line in before)  # judge's own


@pytest.mark.parametrize("command", [["solve"], ["solve", "--all"], ["count"], ["bench", "--quiet"], ["rate"],
                                     ["propagate", "--summary"], ["judge", "--isolation", "none"], ["explain"]])
def test_a_missing_file_and_a_directory_are_named_alike_by_every_command(capsys, tmp_path, command):
    for path, why in ((tmp_path / "absent.txt", "no such file"), (tmp_path, "it is a directory, not a file")):
        argv = [command[0], str(path), *command[1:]] + (["--", "cat"] if command[0] == "judge" else [])
        code, out, err = run(capsys, *argv)
        *before, last = err.splitlines()
        assert (code, out, last) == (2, "", f"sudokulab: error: cannot read '{path}': {why}"), argv
        assert all(line.startswith("sudokulab: warning: --isolation none") for line in before)  # judge's own


@pytest.mark.parametrize("command, hint", [("solve", "sudokulab solve --all 17_clue"), ("count", "solve --all, bench")])
def test_a_published_set_given_for_one_puzzle_is_named_a_dataset(capsys, tmp_path, monkeypatch, command, hint):
    monkeypatch.chdir(tmp_path)  # no file of that name here
    code, out, err = run(capsys, command, "17_clue")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "'17_clue' names no file but a published set, a dataset" in err and hint in err


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
