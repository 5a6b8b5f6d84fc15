"""``sudokulab solve --all``: every puzzle of datasets answered, in input order, each answer checked,
one line in place of each missing answer, and the exit code that says what happened; and the
one-puzzle ``solve`` that names ``solve --all`` for a dataset and allows ``#`` comments."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sudokulab import is_solution, parse_puzzle
from sudokulab.datasets import catalog
from sudokulab.errors import ExitCode
from sudokulab.formats import documents
from sudokulab.formats.boj import format_puzzle
from tests.conftest import EXAMPLES, HANG, run_cli

COMMAND = [sys.executable, "-m", "sudokulab", "solve", "--all"]
PUZZLES_20 = EXAMPLES / "puzzles-20.txt"
SLICES = ("17_clue", "forum_hardest_1106", "forum_hardest_1905_11plus", "magictour_top1465", "serg_benchmark")
"""The shipped slices (300 + 100 + 200 + 300 + 100 puzzles), each with one solution: 1,000 puzzles."""
ANTI_BRUTE_FORCE = "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9"
"""Minutes for the classic search: a time limit of a second is always hit."""
NO_SOLUTION = ".9.2.471.86.15793..7.6....2...9.53..........5.45723..8....41829.3...96.1.8..6.4.."
"""examples/no-solution.txt on one line: no given breaks a rule, yet no completion exists."""
BAD = "12345678901"


def puzzle_lines(path: Path) -> list[str]:
    return [line for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")]


def solve_all(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*COMMAND, *args], capture_output=True, text=True, timeout=HANG * 5,
                          input=stdin, stdin=None if stdin is not None else subprocess.DEVNULL)


@pytest.fixture(scope="module")
def thousand(tmp_path_factory) -> Path:
    lines = [line for name in SLICES for line in puzzle_lines(catalog.shipped(name))]
    assert len(lines) == 1000 and len(set(lines)) == 1000
    path = tmp_path_factory.mktemp("sets") / "thousand.txt"
    path.write_text("# the shipped slices, one after another\n" + "\n".join(lines) + "\n")
    return path


@pytest.mark.slow
def test_a_thousand_puzzles_with_one_and_two_jobs_are_answered_in_order_and_checked(thousand):
    puzzles = [parse_puzzle(line) for line in puzzle_lines(thousand)]
    answers = {}
    for jobs in ("1", "2"):
        done = solve_all(str(thousand), "--jobs", jobs)
        assert done.returncode == 0, done.stderr
        lines = done.stdout.splitlines()
        assert len(lines) == 1000
        for puzzle, line in zip(puzzles, lines):  # in input order: each answer completes its own puzzle
            assert is_solution(tuple(int(c) for c in line), puzzle), line
        assert done.stderr.startswith("1,000 entries: 1,000 solved;") and done.stderr.count("\n") == 1
        answers[jobs] = lines
    assert answers["1"] == answers["2"]  # one solution each: the same answers whoever solved them


@pytest.fixture
def mixed(tmp_path) -> Path:
    easy = puzzle_lines(PUZZLES_20)
    path = tmp_path / "mixed.txt"
    path.write_text("\n".join(["# one of each", easy[0], NO_SOLUTION, BAD, ANTI_BRUTE_FORCE, easy[1]]) + "\n")
    return path


@pytest.mark.slow
def test_mixed_input_gives_one_line_each_in_order_and_the_bad_entry_exit_code(mixed):
    done = solve_all(str(mixed), "--solver", "backtrack", "--time-limit", "1")
    lines = done.stdout.splitlines()
    easy = puzzle_lines(PUZZLES_20)
    assert len(lines) == 5
    assert is_solution(tuple(map(int, lines[0])), parse_puzzle(easy[0]))
    assert lines[1] == "no solution"
    assert lines[2].startswith("bad entry: line 4: ") and "11" in lines[2]
    assert lines[3] == "time limit"
    assert is_solution(tuple(map(int, lines[4])), parse_puzzle(easy[1]))
    assert done.returncode == ExitCode.BAD_INPUT  # a bad entry comes before a time limit and no solution
    assert done.stderr == ("sudokulab: error: 5 entries: 2 solved, 1 no solution, 1 time limit, 1 bad entry; "
                           + done.stderr.split("bad entry; ", 1)[1])


@pytest.mark.slow
def test_a_time_limit_comes_before_no_solution_and_no_solution_before_all_solved(tmp_path):
    easy = puzzle_lines(PUZZLES_20)
    cases = {ExitCode.TIME_LIMIT: [NO_SOLUTION, ANTI_BRUTE_FORCE], ExitCode.NO_SOLUTION: [easy[0], NO_SOLUTION],
             ExitCode.OK: easy[:2]}
    for code, lines in cases.items():
        path = tmp_path / f"{int(code)}.txt"
        path.write_text("\n".join(lines) + "\n")
        done = solve_all(str(path), "--solver", "backtrack", "--time-limit", "1")
        assert done.returncode == code, done.stderr
        assert len(done.stdout.splitlines()) == 2


@pytest.mark.slow
def test_every_json_row_validates_against_the_schema_and_says_its_entry(capsys, tmp_path):
    path = tmp_path / "rows.txt"
    path.write_text("\n".join([*puzzle_lines(PUZZLES_20)[:3], BAD, "11" + "." * 79]) + "\n")
    code, out, err = run_cli(capsys, "solve", "--all", str(path), "--json")
    rows = [json.loads(line) for line in out.splitlines()]
    for row in rows:
        documents.validate("solve-all", row)
        documents.validate("solve", row)  # solve --json's schema takes the rows too
    assert [(row["index"], row["line"], row["status"]) for row in rows] == [
        (0, 1, "solved"), (1, 2, "solved"), (2, 3, "solved"), (3, 4, "bad entry"), (4, 5, "no solution")]
    assert rows[3]["reason"].startswith("line 4:") and rows[4]["answer"] is None
    assert code == ExitCode.BAD_INPUT and err.count("\n") == 1


def test_boj_blocks_in_give_boj_blocks_out_and_comments_are_allowed(capsys, tmp_path):
    easy = [parse_puzzle(line) for line in puzzle_lines(PUZZLES_20)[:3]]
    path = tmp_path / "blocks.txt"
    path.write_text("# three puzzles\n" + "\n# the next one\n".join(format_puzzle(p) for p in easy))
    code, out, err = run_cli(capsys, "solve", "--all", str(path))
    blocks = out.split("\n\n")
    assert code == 0 and len(blocks) == 3 and out.endswith("\n") and not out.endswith("\n\n")
    for puzzle, block in zip(easy, blocks):
        rows = block.strip("\n").split("\n")
        assert len(rows) == 9 and all(len(row.split()) == 9 for row in rows)
        assert is_solution(tuple(int(v) for v in block.split()), puzzle)
    code, line_out, _ = run_cli(capsys, "solve", "--all", str(path), "--format", "line")
    assert code == 0 and line_out.splitlines() == ["".join(b.split()) for b in blocks]


@pytest.mark.slow
def test_boards_of_several_sizes_keep_their_order_with_two_jobs(tmp_path):
    """Each size goes in its own batches; the answers still come in the order of the input. Enough 9x9
    puzzles for two batches, so that the run takes the two processes asked for."""
    four = "1...." + "." * 10 + "4"  # 4x4, one-line form
    nine = puzzle_lines(PUZZLES_20)
    lines = [nine[0], four, nine[1], BAD, four, nine[2]] + [nine[i % 20] if i % 7 else four for i in range(1100)]
    path = tmp_path / "sizes.txt"
    path.write_text("\n".join(lines) + "\n")
    done = solve_all(str(path), "--jobs", "2", "--format", "json")
    assert "note" not in done.stderr  # the pool is as asked
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert [row["index"] for row in rows] == list(range(len(lines)))
    for line, row in zip(lines, rows):
        if line == BAD:
            assert row["status"] == "bad entry"
        else:
            assert is_solution(tuple(map(int, row["answer"])), parse_puzzle(line))
    assert done.returncode == ExitCode.BAD_INPUT


def test_several_datasets_and_stdin_are_answered_one_after_the_other(capsys, monkeypatch, tmp_path):
    easy = puzzle_lines(PUZZLES_20)
    first = tmp_path / "first.txt"
    first.write_text(easy[0] + "\n")
    code, out, err = run_cli(capsys, "solve", "--all", str(first), "-", stdin=(easy[1] + "\n").encode(),
                             monkeypatch=monkeypatch)
    lines = out.splitlines()
    assert code == 0 and len(lines) == 2
    assert is_solution(tuple(map(int, lines[1])), parse_puzzle(easy[1]))
    assert err.startswith("2 entries: 2 solved;")


@pytest.mark.parametrize("argv, why", [
    (["--canonical"], "--canonical is for one puzzle"),
    (["--stats"], "--stats is for one puzzle"),
    (["--json", "--format", "boj"], "ask for two forms"),
    (["--solver", "nope"], "nope"),
    (["--jobs", "2", "--cluster", "local:1"], "give one of them"),
])
def test_bad_usage_of_all_is_one_line_and_exit_2(capsys, argv, why):
    code, out, err = run_cli(capsys, "solve", "--all", str(PUZZLES_20), *argv)
    assert code == ExitCode.BAD_INPUT and why in err and err.count("\n") == 1
    assert out == ("" if "--json" not in argv else documents.compact({"error": err.split(": ", 2)[2].strip(),
                                                                   "exit": 2}) + "\n")


# --- one-puzzle solve: a dataset is named as one, and comments are allowed --------------------------

def test_a_dataset_file_given_to_solve_names_solve_all(capsys):
    code, out, err = run_cli(capsys, "solve", str(PUZZLES_20))
    assert (code, out) == (ExitCode.BAD_INPUT, "")
    assert "holds 20 puzzles, a dataset" in err and f"sudokulab solve --all {PUZZLES_20}" in err
    assert err.count("\n") == 1


@pytest.mark.parametrize("text, count", [
    ("\n".join(puzzle_lines(PUZZLES_20)[:2]) + "\n", 2),  # two one-line puzzles: "81 lines expected, found 2"
    ("\n".join(format_puzzle(parse_puzzle(p)) for p in puzzle_lines(PUZZLES_20)[:2]), 2),  # 162 numbers
    ("\n".join(format_puzzle(parse_puzzle(p)) for p in puzzle_lines(PUZZLES_20)[:4]), 4),  # 324: an 18x18?
])
def test_puzzles_on_stdin_given_to_solve_name_solve_all(capsys, monkeypatch, text, count):
    code, out, err = run_cli(capsys, "solve", stdin=text.encode(), monkeypatch=monkeypatch)
    assert (code, out) == (ExitCode.BAD_INPUT, "")
    assert f"<stdin> holds {count} puzzles, a dataset" in err and "sudokulab solve --all -" in err


def test_one_broken_puzzle_keeps_its_own_message(capsys, monkeypatch):
    rows = format_puzzle(parse_puzzle(puzzle_lines(PUZZLES_20)[0])).splitlines()
    code, _, err = run_cli(capsys, "solve", stdin="\n".join(rows[:8]).encode(), monkeypatch=monkeypatch)
    assert code == ExitCode.BAD_INPUT and "9 lines expected, found 8" in err and "--all" not in err


def test_comments_before_and_between_the_rows_of_one_boj_puzzle(capsys, monkeypatch, sample_text, sample_answer):
    rows = sample_text.splitlines()
    text = "# BOJ 2580, the sample\n# given as in the statement\n" + "\n".join(rows[:4]) + "\n# half way\n" + \
        "\n".join(rows[4:]) + "\n"
    code, out, err = run_cli(capsys, "solve", stdin=text.encode(), monkeypatch=monkeypatch)
    assert (code, out, err) == (0, sample_answer, "")


def test_one_puzzle_keeps_its_forms(capsys, sample_answer):
    sample = str(EXAMPLES / "boj2580-sample.txt")
    code, out, _ = run_cli(capsys, "solve", sample, "--format", "line")
    assert (code, out) == (0, "".join(sample_answer.split()) + "\n")
    code, out, _ = run_cli(capsys, "solve", sample, "--format", "json")
    assert code == 0 and json.loads(out)["answer"] == sample_answer
    code, out, err = run_cli(capsys, "solve", sample, sample)
    assert code == ExitCode.BAD_INPUT and "solve --all" in err
