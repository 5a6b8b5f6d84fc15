"""judge: fixture programs, each written to earn one verdict, run safely over a small dataset."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sudokulab import parse_puzzle, solvers
from sudokulab.cli import main as cli
from sudokulab.datasets.reading import parse_lines, read_dataset
from sudokulab.execution.sandbox import OUTPUT_LIMIT, Limits, Run
from sudokulab.judge import cases
from sudokulab.judge import run as judge
from sudokulab.judge.cases import Outcome
from sudokulab.verdicts import oracle as oracles
from sudokulab.verdicts.verify import verify

from ..conftest import EXAMPLES, FIXTURES

PROGRAMS = FIXTURES / "programs"
LANGUAGES = FIXTURES / "languages"
DATASET = str(FIXTURES / "judge_set.txt")
SAMPLE = str(EXAMPLES / "boj2580-sample.txt")
MULTI = "..5.69.7.782....4..6.2.8.3....5.....8.4.1.5.6..6..7.1...7....8.....8195.....947.1"
LIMITS = Limits(seconds=20.0, memory_mb=256)
"""Room for a Python start on a busy 2-core machine: no test with these limits is about time (the
sleeper's has its own 1 s)."""


@pytest.fixture
def oracle() -> str:
    """The oracle is the registered SAT solver."""
    assert oracles.DEFAULT_SOLVER == "sat" and "sat" in solvers.names()
    return oracles.DEFAULT_SOLVER


def python(program: str, *args: str) -> list[str]:
    return [sys.executable, str(PROGRAMS / program), *args]


def judge_one(command: list[str], puzzle_text: str | None = None, limits: Limits = LIMITS) -> cases.Case:
    entries = list(parse_lines((puzzle_text or Path(SAMPLE).read_text()).splitlines()))
    (case,) = judge.judge_cases(entries, command, limits)
    return case


# --- one verdict per fixture program ---------------------------------------------------------------


def test_correct_backtracker_is_accepted():
    case = judge_one(python("boj2580_backtrack.py"))
    assert case.outcome is Outcome.ACCEPTED and str(case) == "accepted"
    assert case.run is not None and case.run.exit_code == 0 and case.run.peak_rss_kb > 0


def test_a_valid_answer_other_than_the_canonical_is_accepted():
    puzzle = parse_puzzle(MULTI)
    case = judge_one(python("boj2580_backtrack.py", "--reverse"), MULTI)
    assert case.accepted
    with solvers.get("backtrack") as classic:
        assert verify(puzzle, case.run.stdout).grid != classic.solve(puzzle).grid


def test_a_wrong_digit_is_a_wrong_answer_with_its_reason():
    case = judge_one(python("wrong_digit.py", str(PROGRAMS / "boj2580_backtrack.py")))  # names the module it imports
    assert case.outcome is Outcome.WRONG_ANSWER
    assert case.detail == "row 9 holds 2 twice (columns 1 and 9)"  # the sample's last blank is (9, 9)


@pytest.mark.slow
def test_sleeper_exceeds_the_time_limit():
    case = judge_one(python("sleeper.py"), limits=Limits(seconds=1.0))
    assert case.outcome is Outcome.TIME_LIMIT and case.detail == "still running after 1 s"
    assert case.run is not None and case.run.signal == 9  # the group was killed


def test_crash_is_a_runtime_error_with_its_exit_code_and_error():
    case = judge_one(python("crash.py"))
    assert case.outcome is Outcome.RUNTIME_ERROR
    assert case.detail == "exit code 1 (RuntimeError: the crash this fixture is for)"


def test_death_by_signal_is_a_runtime_error_naming_the_signal():
    case = judge_one(python("killed.py"))
    assert case.outcome is Outcome.RUNTIME_ERROR
    assert case.detail.startswith("killed by signal 11 (SIGSEGV")


def test_printing_forever_hits_the_output_limit():
    case = judge_one(python("forever.py"))
    assert case.outcome is Outcome.OUTPUT_LIMIT
    assert case.run is not None and len(case.run.stdout) == OUTPUT_LIMIT + 1  # read no further


def test_memory_hog_exceeds_the_memory_limit():
    # A program that holds 400 MB: killed by its memory control group at 64 MB where the launcher
    # makes one, else let run to its end, 400 MB at most (no rlimit at the limit: programs are judged
    # on what they use). Either way the verdict is the memory limit, with the peak against it.
    case = judge_one([sys.executable, str(LANGUAGES / "hog.py")], limits=Limits(seconds=10.0, memory_mb=64))
    assert case.outcome is Outcome.MEMORY_LIMIT, str(case)
    assert case.run is not None and not case.run.timed_out and case.run.peak_rss_kb >= 0.9 * 64 * 1024
    assert "limit 64 MB" in case.detail


def test_peak_memory_is_the_programs_not_the_judges():
    # A forked process's ru_maxrss starts at its parent's size; the judge's launcher keeps a large
    # judge (a test session, a notebook) from passing its size to the program and its verdict.
    ballast = bytearray(128 << 20)
    ballast[::4096] = b"\1" * len(range(0, len(ballast), 4096))  # make the pages resident
    case = judge_one(python("crash.py"), limits=Limits(seconds=5.0, memory_mb=64))
    assert case.outcome is Outcome.RUNTIME_ERROR
    assert 0 < case.run.peak_rss_kb < 64 * 1024
    del ballast


def test_a_forked_child_neither_holds_up_the_judge_nor_survives_it(tmp_path):
    # Without the sandbox (which would keep the pid file from being written): the launcher alone
    # must kill the child; tests/execution/test_isolation.py does the same inside bubblewrap.
    pid_file = tmp_path / "child.pid"
    # The program names the module it imports: trusted or not, it runs from copies of what it names.
    case = judge_one(python("forker.py", str(pid_file), str(PROGRAMS / "boj2580_backtrack.py")),
                     limits=Limits(seconds=20.0, isolation="none"))  # the child sleeps 60 s
    # Accepted, not "time limit exceeded": the judge did not wait for the child's end of the pipe.
    assert case.outcome is Outcome.ACCEPTED
    assert _dies(int(pid_file.read_text()))


def _dies(pid: int) -> bool:
    """True once the process is gone or a zombie (killed, awaiting its reaper); SIGKILL takes a
    moment to land, so look for up to 5 s (the child itself would sleep 60 s)."""
    for _ in range(500):
        try:
            with open(f"/proc/{pid}/stat") as stat:
                if stat.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return True
        except FileNotFoundError:
            return True
        time.sleep(0.01)
    return False


def test_a_program_that_never_reads_its_input_is_still_judged():
    case = judge_one(["true"])
    assert case.outcome is Outcome.WRONG_ANSWER and case.detail == "the output is empty"


def test_parallel_runs_keep_dataset_order_and_verdicts():
    command = python("boj2580_backtrack.py")
    one = [(case.index, case.outcome) for case in judge.judge_cases(read_dataset(DATASET), command, LIMITS)]
    two = [(case.index, case.outcome) for case in judge.judge_cases(read_dataset(DATASET), command, LIMITS, jobs=2)]
    assert one == two == [(0, Outcome.ACCEPTED), (1, Outcome.ACCEPTED), (2, Outcome.ACCEPTED),
                          (3, Outcome.INVALID_ENTRY)]


def test_the_outcome_rules_on_a_run():
    puzzle = parse_puzzle(Path(SAMPLE).read_text())
    failed = Run(b"", b"Segmentation fault\n", None, 11, 0.1, 250 * 1024)
    assert cases.judge_run(puzzle, failed, Limits(memory_mb=256))[0] is Outcome.MEMORY_LIMIT  # peak near the limit
    assert cases.judge_run(puzzle, failed, Limits(memory_mb=0))[0] is Outcome.RUNTIME_ERROR  # no limit, no MLE
    small = Run(b"", b"", None, 11, 0.1, 10 * 1024)
    assert cases.judge_run(puzzle, small, Limits(memory_mb=256))[0] is Outcome.RUNTIME_ERROR
    heap = b'Exception in thread "main" java.lang.OutOfMemoryError: Java heap space\n'
    java = Run(b"", heap, 1, None, 0.1, 9000)
    assert cases.judge_run(puzzle, java, Limits())[0] is Outcome.MEMORY_LIMIT


# --- other languages, when their tools are here -------------------------------------------------


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_javascript_backtracker_is_accepted():
    # Node starts under the default 256 MB: no rlimit at the limit counts what V8 reserves.
    case = judge_one(["node", str(PROGRAMS / "boj2580_backtrack.js")], limits=Limits(seconds=10.0))
    assert case.outcome is Outcome.ACCEPTED, str(case)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("javac") is None or shutil.which("java") is None, reason="no Java compiler")
def test_java_backtracker_is_accepted(tmp_path):
    subprocess.run(["javac", "-d", str(tmp_path), str(PROGRAMS / "Main.java")], check=True, timeout=120)
    command = ["java", "-Xmx64m", "-XX:+UseSerialGC", "-cp", str(tmp_path), "Main"]
    case = judge_one(command, limits=Limits(seconds=10.0))
    assert case.outcome is Outcome.ACCEPTED, str(case)


# --- the command ---------------------------------------------------------------------------------


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_command_accepts_the_correct_program(capsys):
    code, out, err = run(capsys, "judge", SAMPLE, "--quiet", "--time-limit", "60", "--",
                         *python("boj2580_backtrack.py"))
    assert code == 0 and err == ""
    assert "accepted" in out and "runs: 1;" in out


def test_command_reports_the_bad_dataset_line_and_goes_on(capsys):
    code, out, err = run(capsys, "judge", DATASET, "--time-limit", "5", "--", *python("boj2580_backtrack.py"))
    assert code == 1  # not all accepted: one entry was no puzzle
    assert err == (f"sudokulab: {DATASET}: line 18, column 20: 'x' is not a digit or '.'\n"
                   "sudokulab: 1 of 4 entries not accepted\n")
    counts = _counts(out)
    assert counts["accepted"] == 3 and counts["invalid dataset entry"] == 1 and counts["wrong answer"] == 0


def test_command_limit_stops_before_the_bad_line(capsys):
    code, out, err = run(capsys, "judge", DATASET, "--limit", "3", "--time-limit", "5", "--",
                         *python("boj2580_backtrack.py", "--reverse"))
    assert (code, err) == (0, "")
    assert _counts(out)["accepted"] == 3


def test_command_shows_a_failure_beside_the_oracle(capsys, oracle):
    code, out, _ = run(capsys, "judge", SAMPLE, "--time-limit", "60", "--",
                       *python("wrong_digit.py", str(PROGRAMS / "boj2580_backtrack.py")))
    assert code == 1
    assert "wrong answer: row 9 holds 2 twice (columns 1 and 9)" in out
    assert f"oracle ({oracle})" in out and "program output" in out
    assert "2 5 8 3 9 4 7 6 1" in out and "2 5 8 3 9 4 7 6 2" in out  # the oracle's last line, the program's
    assert _counts(out)["wrong answer"] == 1


def test_command_keeps_a_double_dash_of_the_program(capsys):
    assert cli.split_program(["judge", "d", "--time-limit", "1", "--", "prog", "--", "-x"]) == (
        ["judge", "d", "--time-limit", "1"], ["prog", "--", "-x"],
    )
    assert cli.split_program(["solve", "--", "-"]) == (["solve", "--", "-"], [])


@pytest.mark.parametrize(
    "argv, message",
    [
        (["judge", SAMPLE], "name the program after --"),
        (["judge", "/nonexistent/set.txt", "--", "true"], "cannot read '/nonexistent/set.txt'"),
        (["judge", SAMPLE, "--", "/nonexistent/program"], "cannot run '/nonexistent/program'"),
        (["judge", SAMPLE, "--time-limit", "0", "--", "true"], "not a positive number of seconds"),
        (["judge", SAMPLE, "--memory-limit", "-1", "--", "true"], "is not between 1 and 2**40"),
        (["judge", SAMPLE, "--memory-limit", "0", "--", "true"], "'0' is not between 1 and 2**40 (memory is always "
                                                                 "measured, so there is no 0 for none)"),
    ],
)
def test_command_bad_arguments_exit_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and message in err


def test_command_on_an_empty_dataset_exits_2(capsys, tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing here\n")
    code, _, err = run(capsys, "judge", str(empty), "--", "true")
    assert code == 2 and "holds no puzzle" in err


def _counts(report: str) -> dict[str, int]:
    """The verdict counts from the summary table."""
    counts = {}
    for line in report.splitlines():
        match = re.fullmatch(r"([a-z][a-z ]*[a-z]) {2,}(\d+)", line.strip())
        if match:
            counts[match[1]] = int(match[2])
    return counts


def test_dataset_entries_all_parse_but_one():
    entries = list(read_dataset(DATASET))
    assert [entry.ok for entry in entries] == [True, True, True, False]


# --- the program is fixed before the first run -----------------------------------------------------


@pytest.mark.slow
def test_replacing_the_program_midway_changes_no_verdict_and_its_copy_is_read_only_and_removed(tmp_path):
    program = tmp_path / "solution.py"
    says_where = ("import sys\ntry:\n    open(__file__, 'a').close()\n    sys.stderr.write('writable ' + __file__)\n"
                  "except OSError:\n    sys.stderr.write('read-only ' + __file__)\n")
    program.write_text(says_where + (LANGUAGES / "main.py").read_text())
    entries = list(judge.first_puzzles(read_dataset(DATASET), 3))
    cases = []

    def replace(case: cases.Case) -> None:  # after each verdict, a program that answers nothing
        cases.append(case)
        program.write_text("print('nothing')\n")

    report = judge.judge_dataset(entries, [sys.executable, str(program)], LIMITS, on_case=replace, failures_shown=3)
    assert report.summary.all_accepted and report.summary.runs == 3, [str(f.case) for f in report.failures]
    (said,) = {case.run.stderr.decode() for case in cases}  # every run read the same copy
    word, copy = said.split(" ", 1)
    assert word == "read-only" and copy != str(program) and not Path(copy).exists()  # removed at the end
    (again,) = judge.judge_cases(entries[:1], [sys.executable, str(program)], LIMITS)
    assert again.outcome is Outcome.WRONG_ANSWER  # the next judge reads the program as it is now


# --- what a program writes reaches the terminal escaped ---------------------------------------------

TERMINAL_TRICKS = "\x1b]0;title\x07\x1b[2J\x1b[H\x1b[32m\u009b2J"
"""Retitle the terminal, clear the screen, home the cursor, print green, clear again with the 8-bit CSI
(which JSON leaves as it is): a program's words must do none of it."""

HOSTILE = f"""import sys
sys.stdout.write("1 2 3{TERMINAL_TRICKS}\\n" + "9 " * 8 + "9\\n")
sys.stderr.write("a first line\\nthe last line {TERMINAL_TRICKS}\\n")
sys.exit(int(sys.argv[1]))
"""


def hostile(tmp_path: Path) -> list[str]:
    program = tmp_path / "hostile.py"
    program.write_text(HOSTILE)
    return [sys.executable, str(program)]


@pytest.mark.slow
@pytest.mark.parametrize("exit_code, verdict", [(1, "runtime error"), (0, "wrong answer")])
@pytest.mark.parametrize("json", [False, True])
def test_no_byte_a_program_writes_reaches_the_terminal_raw(tmp_path, exit_code, verdict, json):
    done = subprocess.run([sys.executable, "-m", "sudokulab", "judge", SAMPLE, "--time-limit", "30",
                           *(["--json"] if json else []), "--", *hostile(tmp_path), str(exit_code)],
                          capture_output=True, timeout=240)
    shown = done.stdout + done.stderr
    assert done.returncode == 1 and verdict.encode() in shown
    assert re.search(rb"[\x00-\x08\x0b-\x1f\x7f]", shown) is None, shown  # not one control byte but newlines
    assert re.search("[\x80-\x9f]", shown.decode()) is None  # nor an 8-bit one
    assert b"\\x1b]0;title\\x07" in shown  # the program's words are shown, escaped


@pytest.mark.slow
def test_a_runtime_errors_last_line_cannot_retitle_or_clear_a_terminal(tmp_path):
    from ..cli.test_terminal import command, in_terminal

    screen = in_terminal(command("judge", SAMPLE, "--time-limit", "30", "--", *hostile(tmp_path), "1"), 80, tmp_path)
    assert screen.status == 1 and "runtime error" in screen.text
    for trick in ("\x1b]0;", "\x07", "\x1b[2J", "\x1b[H"):
        assert trick not in screen.raw
    assert "the last line \\x1b]0;title\\x07" in " ".join(screen.raw.split())  # wrapped at the width


# --- the failure table counts every line -----------------------------------------------------------


@pytest.mark.slow
def test_the_failure_table_counts_every_line_of_the_output(capsys, tmp_path):
    program = tmp_path / "lines.py"
    program.write_text("import sys\nsys.stdout.write('1\\n' * 500000)\n")  # 1,000,000 bytes: under the limit
    code, out, _ = run(capsys, "judge", SAMPLE, "--time-limit", "30", "--", sys.executable, str(program))
    assert code == 1 and "wrong answer" in out
    assert "… (499989 more lines)" in out  # 500,000 lines, 11 shown (the board's 9 and 2)


@pytest.mark.slow
def test_output_cut_at_the_limit_says_there_were_more_lines(capsys):
    code, out, _ = run(capsys, "judge", SAMPLE, "--time-limit", "30", "--", *python("forever.py"))
    assert code == 1 and "output limit exceeded" in out
    read = (b"1 2 3 4 5 6 7 8 9\n" * (OUTPUT_LIMIT // 18 + 1))[: OUTPUT_LIMIT + 1]
    more = read.count(b"\n") + 1 - 11  # the lines read, the last one cut, less those shown
    assert f"… (at least {more} more lines)" in out


@pytest.mark.parametrize("named", ["my_solution.py", "build/a.out", "Main.class"])
def test_a_file_named_in_the_command_that_is_not_there_is_refused_before_any_run(tmp_path, capsys, named):
    from sudokulab.cli import main as cli

    code = cli.main(["judge", SAMPLE, "--quiet", "--", "python3", str(tmp_path / named)])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert err == f"sudokulab: error: judge: '{tmp_path / named}', named in the command, does not exist here\n"
