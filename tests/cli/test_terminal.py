"""Commands as a person runs them: the real ``sudokulab`` executable under a pseudo-terminal.

Each test puts a terminal (80 or 120 columns) on some of the standard streams and files or pipes
on the others, the four ways a person runs a command: everything on the terminal; stdout
redirected with stderr on the terminal; both redirected; piped into another command. Progress
displays belong on stderr and only on a terminal: what stdout receives must be the same bytes
whatever is attached. The screen is read with ``pyte``, a terminal emulator, so what the test
sees is what a person would see once the progress bar has gone.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.cli.test_eighty_columns import table_width

from ..conftest import ROOT

pexpect = pytest.importorskip("pexpect")
pyte = pytest.importorskip("pyte")

PUZZLES = ROOT / "examples" / "puzzles-20.txt"
ROWS = 40
WIDTHS = (80, 120)


def executable() -> list[str]:
    """The console script installed beside this Python (what a person types), else ``python -m``."""
    script = Path(sys.executable).parent / "sudokulab"
    return [str(script)] if script.exists() else [sys.executable, "-m", "sudokulab"]


def command(*args: str) -> str:
    return shlex.join(executable() + list(args))


@dataclass
class Screen:
    status: int | None
    raw: str
    lines: list[str]

    @property
    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.lines).strip("\n")


def in_terminal(shell: str, columns: int, cwd: Path, *, interrupt_after: str | None = None,
                interrupt_after_seconds: float | None = None) -> Screen:
    """Run a shell command line with a terminal of ``columns`` on the streams it does not redirect.

    With ``interrupt_after``, Ctrl-C is typed once text matching that regular expression has appeared
    on the terminal; with ``interrupt_after_seconds``, after that long (for a command that shows
    nothing while it works).
    """
    env = dict(os.environ, COLUMNS=str(columns), LINES=str(ROWS), TERM="xterm-256color")
    env.pop("NO_COLOR", None)
    child = pexpect.spawn("/bin/sh", ["-c", shell], cwd=str(cwd), env=env, dimensions=(ROWS, columns),
                          encoding="utf-8", codec_errors="replace", timeout=240)
    try:
        raw = ""
        if interrupt_after is not None:
            child.expect(interrupt_after)
            child.sendintr()
            raw = (child.before or "") + (child.after if isinstance(child.after, str) else "")
        elif interrupt_after_seconds is not None:
            child.expect(pexpect.TIMEOUT, timeout=interrupt_after_seconds)
            child.sendintr()
            raw = child.before or ""
        raw += child.read()
    finally:
        child.close()
    screen = pyte.Screen(columns, ROWS)
    pyte.Stream(screen).feed(raw.replace("\n", "\r\n").replace("\r\r\n", "\r\n"))
    return Screen(child.exitstatus if child.exitstatus is not None else 128 + (child.signalstatus or 0),
                  raw, screen.display)


def words(line: str) -> list[str]:
    """The words of a line that are not figures or their units (timings vary between runs)."""
    line = re.sub(r"\d[\d.,]*(?:e[+-]?\d+)?(?:\s*(?:[µu]s|ms|ns|s|min)\b)?", "#", line)  # 9.5e-05 s too
    return re.findall(r"[A-Za-z][\w/-]*", line)


def without_terminal(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(executable() + list(args), cwd=cwd, capture_output=True, text=True, timeout=240)


@pytest.mark.slow
@pytest.mark.parametrize("columns", WIDTHS)
def test_bench_on_a_terminal_shows_its_tables_and_no_traceback(columns, tmp_path):
    shown = in_terminal(command("bench", str(PUZZLES), "--solvers", "sat,backtrack-fast"), columns, tmp_path)
    assert shown.status == 0, shown.raw[-2000:]
    assert "Traceback" not in shown.raw and "KeyError" not in shown.raw
    assert "puzzles/s" in shown.text and "backtrack-fast" in shown.text


@pytest.mark.slow
@pytest.mark.parametrize("columns", WIDTHS)
def test_bench_stdout_is_the_same_bytes_whatever_stderr_is(columns, tmp_path):
    plain = without_terminal("bench", str(PUZZLES), "--solvers", "backtrack-fast", "--limit", "5", cwd=tmp_path)
    assert plain.returncode == 0, plain.stderr
    out = tmp_path / "out.txt"
    shown = in_terminal(command("bench", str(PUZZLES), "--solvers", "backtrack-fast", "--limit", "5")
                        + f" > {out}", columns, tmp_path)
    assert shown.status == 0, shown.raw[-2000:]
    text = out.read_text()
    assert "\x1b" not in text and "Traceback" not in shown.raw
    # the timings (and so the column widths) differ from run to run; the lines and their words do not
    assert [words(line) for line in text.splitlines()] == [words(line) for line in plain.stdout.splitlines()]
    assert "backtrack-fast" in text and "backtrack-fast" not in shown.text


@pytest.mark.slow
@pytest.mark.parametrize("columns", WIDTHS)
def test_generate_into_a_file_with_stderr_on_the_terminal_keeps_every_puzzle(columns, tmp_path):
    args = ("generate", "--size", "9", "--count", "5", "--unique", "--seed", "2580")
    expected = without_terminal(*args, cwd=tmp_path)
    assert expected.returncode == 0 and len(expected.stdout.splitlines()) == 5
    out = tmp_path / "puzzles.txt"
    shown = in_terminal(command(*args) + f" > {out}", columns, tmp_path)
    assert shown.status == 0, shown.raw[-2000:]
    assert out.read_text() == expected.stdout
    assert shown.text == ""  # the bar was on stderr and has gone; no puzzle leaked onto the screen


@pytest.mark.slow
@pytest.mark.parametrize("columns", WIDTHS)
def test_generate_on_the_terminal_and_piped(columns, tmp_path):
    args = ("generate", "--size", "4", "--count", "3", "--seed", "7")
    expected = without_terminal(*args, cwd=tmp_path).stdout
    shown = in_terminal(command(*args), columns, tmp_path)
    assert shown.status == 0 and shown.text.split() == expected.split()
    out = tmp_path / "piped.txt"
    piped = in_terminal(command(*args) + f" | cat > {out}", columns, tmp_path)
    assert piped.status == 0 and out.read_text() == expected and piped.text == ""
    both = in_terminal(command(*args) + f" > {out} 2> {tmp_path / 'err.txt'}", columns, tmp_path)
    assert both.status == 0 and out.read_text() == expected
    assert "\x1b" not in (tmp_path / "err.txt").read_text()


@pytest.mark.slow
def test_generate_piped_into_bench_reads_every_puzzle(tmp_path):
    shown = in_terminal(command("generate", "--size", "9", "--count", "4", "--seed", "3") + " | "
                        + command("bench", "-", "--solvers", "backtrack-fast"), 120, tmp_path)
    assert shown.status == 0, shown.raw[-2000:]
    assert "inf" not in shown.text and "Traceback" not in shown.raw
    row = next(line for line in shown.lines if "backtrack-fast" in line)
    assert "4/4" in row  # four puzzles read, four solved


@pytest.mark.slow
@pytest.mark.parametrize("columns", WIDTHS)
def test_judge_into_a_file_with_its_progress_on_the_terminal(columns, tmp_path):
    out = tmp_path / "report.txt"
    program = [sys.executable, str(ROOT / "tests" / "fixtures" / "programs" / "boj2580_backtrack.py")]
    shown = in_terminal(command("judge", str(PUZZLES), "--limit", "4", "--time-limit", "60", "--", *program)
                        + f" > {out}", columns, tmp_path)
    assert shown.status == 0, shown.raw[-2000:]
    assert "accepted" in out.read_text() and "\x1b" not in out.read_text()
    assert "Traceback" not in shown.raw


@pytest.mark.slow
def test_ctrl_c_during_bench_on_a_terminal(tmp_path):
    many = tmp_path / "many.txt"
    many.write_text(PUZZLES.read_text() * 20_000)  # minutes of work: the bar is up long before the end
    shown = in_terminal(command("bench", str(many), "--solvers", "backtrack"), 120, tmp_path,
                        interrupt_after="many")
    assert shown.status == 130, shown.raw[-2000:]
    assert "Traceback" not in shown.raw
    assert shown.text.splitlines()[-1].removeprefix("^C") == "sudokulab: interrupted", shown.text


@pytest.mark.slow
def test_ctrl_c_during_generate_into_a_file_leaves_whole_puzzles(tmp_path):
    """Ctrl-C once the bar counts 3 puzzles or more: the file holds every puzzle the bar counted, each a
    whole 16x16 block and its blank line, and nothing after the last. (Typed as soon as the bar
    appeared, Ctrl-C usually came before the first puzzle, so an empty file passed, and a 16x16
    block failed a check meant for one-line 9x9 puzzles.)"""
    out = tmp_path / "puzzles.txt"
    shown = in_terminal(command("generate", "--size", "16", "--count", "1000", "--seed", "5") + f" > {out}", 120,
                        tmp_path, interrupt_after=r"(?<!\d)([3-9]|[1-9]\d+)/1000")
    assert shown.status == 130, shown.raw[-2000:]
    assert "Traceback" not in shown.raw
    *blocks, after_the_last = out.read_text().split("\n\n")
    assert after_the_last == "" and len(blocks) >= 3
    assert all([len(row.split()) for row in block.split("\n")] == [16] * 16 for block in blocks)


ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]")


def shown_lines(raw: str) -> list[str]:
    """The lines a terminal was sent, escape sequences and carriage-return redraws taken out: each is
    what one line of the screen held (a line longer than the terminal would have wrapped)."""
    return [ANSI.sub("", line).rsplit("\r", 1)[-1] for line in raw.replace("\r\n", "\n").split("\n")]


SAMPLE = ROOT / "examples" / "boj2580-sample.txt"
ANSWER = (ROOT / "examples" / "boj2580-sample.out").read_text()


@pytest.mark.slow
@pytest.mark.parametrize("columns", WIDTHS)
def test_compare_on_the_terminal_fits_its_width(columns, tmp_path):
    shown = in_terminal(command("compare", str(SAMPLE), "--solvers", "backtrack,backtrack-fast,sat,dlx"), columns,
                        tmp_path)
    assert shown.status == 0, shown.raw[-2000:]
    assert "Traceback" not in shown.raw
    assert all(len(line) <= columns for line in shown_lines(shown.raw)), shown.raw
    header = next(line for line in shown.lines if line.startswith("solver "))
    assert header.split()[:4] == ["solver", "status", "set-up", "solve"]
    assert ANSWER.split() == [word for line in shown.lines if line[:1].isdigit() for word in line.split()]


@pytest.mark.slow
@pytest.mark.parametrize("columns", WIDTHS)
def test_compare_stdout_is_the_answer_alone_redirected_or_piped(columns, tmp_path):
    """The table is on stderr: stdout holds the same bytes as without a terminal, redirected or piped
    into another command (here ``verify``, which reads the answer from it)."""
    args = ("compare", str(SAMPLE), "--solvers", "backtrack,sat")
    plain = without_terminal(*args, cwd=tmp_path)
    assert (plain.returncode, plain.stdout) == (0, ANSWER)
    out = tmp_path / "answer.txt"
    redirected = in_terminal(command(*args) + f" > {out}", columns, tmp_path)
    assert redirected.status == 0 and out.read_bytes() == plain.stdout.encode()
    assert "set-up" in redirected.text and "1 3 5 4" not in redirected.text
    piped = in_terminal(command(*args) + " | " + command("verify", "--no-oracle", str(SAMPLE), "-"), columns,
                        tmp_path)
    assert piped.status == 0 and "accepted" in piped.text, piped.raw[-2000:]
    both = in_terminal(command(*args) + f" > {out} 2> {tmp_path / 'err.txt'}", columns, tmp_path)
    assert both.status == 0 and out.read_text() == ANSWER and both.text == ""
    assert "\x1b" not in (tmp_path / "err.txt").read_text()


@pytest.mark.slow
@pytest.mark.parametrize("columns", WIDTHS)
def test_bench_tables_fit_the_terminal_and_files_get_80_columns(columns, tmp_path):
    args = ("bench", str(PUZZLES), "--solvers", "sat,backtrack-fast", "--limit", "4")
    shown = in_terminal(command(*args), columns, tmp_path)
    assert shown.status == 0 and "Traceback" not in shown.raw
    assert all(len(line) <= columns for line in shown_lines(shown.raw))
    assert ("not shown at this width" in shown.text) or columns >= 100  # what is left out: the test below
    out, err = tmp_path / "out.txt", tmp_path / "err.txt"
    both = in_terminal(command(*args) + f" > {out} 2> {err}", columns, tmp_path)
    assert both.status == 0 and both.text == "" and err.read_text() == ""
    # off a terminal: tables 80 columns, whatever COLUMNS says; prose whole, one line each
    assert table_width(out.read_text()) <= 80
    lines = out.read_text().splitlines()
    assert any(line.startswith("puzzles/s: ") and line.endswith("CPU time of the calls") for line in lines)
    assert any(line.startswith("measured: ") and line.endswith("summed solve times") for line in lines)
    piped = in_terminal(command(*args) + f" | cat > {out}", columns, tmp_path)
    assert piped.status == 0 and piped.text == ""
    assert "backtrack-fast" in out.read_text() and "\x1b" not in out.read_text()


@pytest.mark.slow
def test_ctrl_c_during_generate_with_output_leaves_no_file(tmp_path):
    out = tmp_path / "puzzles.txt"
    shown = in_terminal(command("generate", "--size", "16", "--count", "1000", "--seed", "5", "--output", str(out)),
                        80, tmp_path, interrupt_after="puzzles")
    assert shown.status == 130, shown.raw[-2000:]
    assert "Traceback" not in shown.raw and shown.text.splitlines()[-1].removeprefix("^C") == "sudokulab: interrupted"
    assert not out.exists() and list(tmp_path.iterdir()) == []  # nothing written, no part file left


@pytest.mark.slow
def test_ctrl_c_during_judge_on_a_terminal(tmp_path):
    many = tmp_path / "many.txt"
    many.write_text(PUZZLES.read_text() * 50)
    program = [sys.executable, str(ROOT / "tests" / "fixtures" / "programs" / "boj2580_backtrack.py")]
    shown = in_terminal(command("judge", str(many), "--isolation", "none", "--", *program), 80, tmp_path,
                        interrupt_after="judging")
    assert shown.status == 130, shown.raw[-2000:]
    assert "Traceback" not in shown.raw
    assert shown.text.splitlines()[-1].removeprefix("^C") == "sudokulab: interrupted", shown.text


@pytest.mark.slow
def test_ctrl_c_during_compare_on_a_terminal(tmp_path):
    """compare shows nothing until its table: Ctrl-C while a solver searches ends it with a line saying
    how many solvers finished (none here) and the one line, nothing on stdout. The puzzle keeps the
    classic search busy for as long as it takes: row 16 holds 1..15, so r16c16 needs the 16 that
    column 16 already has, which the row-major search only meets after filling rows 1-15, again and
    again (examples/16x16.txt it could solve within the 3 s)."""
    out, puzzle = tmp_path / "answer.txt", tmp_path / "deep-conflict.txt"
    rows = [[0] * 16 for _ in range(16)]
    rows[0][15], rows[15][:15] = 16, list(range(1, 16))
    puzzle.write_text("".join(" ".join(map(str, row)) + "\n" for row in rows))
    shown = in_terminal(command("compare", str(puzzle), "--solvers", "backtrack",
                                "--time-limit", "600") + f" > {out}", 80, tmp_path, interrupt_after_seconds=3)
    assert shown.status == 130, shown.raw[-2000:]
    assert "Traceback" not in shown.raw and shown.text.splitlines()[-1] == "sudokulab: interrupted"
    assert "stopped by a signal after 0 of 1 solvers" in " ".join(shown.text.split())
    assert out.read_text() == ""


BENCH_COLUMNS = ["solver", "solved", "t/o", "wrong", "puzzles/s", "puzzles/solve-s", "puzzles/cpu-s", "median", "p90",
                 "p99", "max", "mean effort per puzzle"]
COMPARE_COLUMNS = ["solver", "status", "set-up", "solve", "effort", "valid", "agrees"]


@pytest.mark.slow
@pytest.mark.parametrize("columns", [40, 80, 200])
@pytest.mark.parametrize("what", ["bench", "compare"])
def test_every_column_is_shown_or_named_under_the_table_at_every_width(tmp_path, columns, what):
    """A table on a terminal of any width shows each column or names it in the line under the table:
    none left out without a word, none cut short with an ellipsis, no line wider than the terminal."""
    if what == "bench":
        args, expected = ("bench", str(PUZZLES), "--solvers", "sat,backtrack-fast", "--limit", "4"), BENCH_COLUMNS
    else:
        args, expected = ("compare", str(SAMPLE), "--solvers", "backtrack,sat"), COMPARE_COLUMNS
    shown = in_terminal(command(*args), columns, tmp_path)
    lines = shown_lines(shown.raw)
    assert shown.status == 0 and all(len(line) <= columns for line in lines)
    header = next(line for line in lines if line.startswith("solver "))
    text = " ".join(shown.text.split())
    named = text.split("not shown at this width: ")[1].split(" (--wide")[0].split(", ") \
        if "not shown at this width: " in text else []
    for column in expected:
        assert (column in re.split(r" {2,}", header.strip())) != (column in named), (column, header, named)
    assert "…" not in shown.text


@pytest.mark.slow
def test_explain_on_a_terminal_wraps_at_its_width_and_a_file_gets_whole_lines(tmp_path):
    hard = tmp_path / "hard.txt"
    hard.write_text("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n")
    shown = in_terminal(command("explain", str(hard)), 80, tmp_path)
    lines = [line for line in shown_lines(shown.raw) if line]
    assert shown.status == 0 and all(len(line) <= 80 for line in lines)
    assert any(line.startswith("      ") for line in lines)  # a step's own continuation, indented
    out = tmp_path / "steps.txt"
    to_file = in_terminal(command("explain", str(hard)) + f" > {out}", 80, tmp_path)
    steps = [line for line in out.read_text().splitlines() if line[:5].strip().rstrip(".").isdigit()]
    assert to_file.status == 0 and max(map(len, steps)) > 80  # whole steps, one a line


@pytest.mark.slow
def test_solve_with_no_file_on_a_terminal_says_it_reads_the_puzzle_from_there(tmp_path):
    import pexpect

    child = pexpect.spawn(executable()[0], [*executable()[1:], "solve"], cwd=str(tmp_path), timeout=60,
                          dimensions=(24, 80), encoding="utf-8")
    child.expect("reading the puzzle from the terminal: type or paste it, then Ctrl-D")
    child.send(SAMPLE.read_text())
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and "1 3 5 4 6 9 2 7 8" in child.before


@pytest.mark.slow
def test_solve_all_reads_an_empty_terminal_to_its_end_with_one_ctrl_d(tmp_path):
    """One Ctrl-D ends what a person types: the input is looked at (its form) before it is read, and a
    terminal gives one end of input per Ctrl-D; the run must not wait for a second and a third."""
    import pexpect

    child = pexpect.spawn(executable()[0], [*executable()[1:], "solve", "--all"], cwd=str(tmp_path), timeout=60,
                          dimensions=(24, 80), encoding="utf-8")
    child.expect("reading puzzles, one a line, from the terminal")
    child.sendeof()
    child.expect(pexpect.EOF, timeout=30)  # not waiting for another Ctrl-D
    child.close()
    assert child.exitstatus == 2 and "'<stdin>' holds no puzzle" in child.before


@pytest.mark.slow
def test_solve_all_typed_at_a_terminal_ends_with_one_ctrl_d_after_the_puzzles(tmp_path):
    import pexpect

    child = pexpect.spawn(executable()[0], [*executable()[1:], "solve", "--all"], cwd=str(tmp_path), timeout=60,
                          dimensions=(24, 80), encoding="utf-8")
    child.expect("then Ctrl-D")
    lines = [line for line in PUZZLES.read_text().splitlines() if line and not line.startswith("#")][:2]
    for line in lines:
        child.sendline(line)
    child.sendeof()
    child.expect(pexpect.EOF, timeout=60)
    child.close()
    assert child.exitstatus == 0 and "2 entries: 2 solved" in child.before


@pytest.mark.slow
@pytest.mark.parametrize("quiet", [False, True])
def test_solve_all_shows_its_progress_on_stderr_only_on_a_terminal(tmp_path, quiet):
    """A bar on the terminal while the answers go to a file (none with --quiet); the file holds the
    answers alone, the same bytes as without a terminal; --limit keeps the first K."""
    args = ("solve", "--all", str(PUZZLES), "--limit", "5") + (("--quiet",) if quiet else ())
    plain = without_terminal(*args, cwd=tmp_path)
    assert plain.returncode == 0 and len(plain.stdout.splitlines()) == 5
    out = tmp_path / "answers.txt"
    shown = in_terminal(command(*args) + f" > {out}", 80, tmp_path)
    assert shown.status == 0 and out.read_text() == plain.stdout
    assert ("solving" in shown.raw) is not quiet  # the bar's label, drawn then taken away
    assert "solving" not in shown.text and "5 entries: 5 solved" in shown.text


@pytest.mark.slow
@pytest.mark.parametrize("how, coloured", [((), True), (("--color", "never"), False), (("NO_COLOR=1",), False),
                                            (("--color", "always", "NO_COLOR=1"), True)])
def test_color_follows_the_option_and_no_color(tmp_path, how, coloured):
    """judge's summary colours the accepted row green on a terminal: not with --color never nor with
    NO_COLOR (bold and dim stay, as NO_COLOR allows), and with --color always even under NO_COLOR."""
    flags = [word for word in how if not word.startswith("NO_COLOR")]
    env = " ".join(word for word in how if word.startswith("NO_COLOR"))
    program = [sys.executable, str(ROOT / "tests" / "fixtures" / "programs" / "boj2580_backtrack.py")]
    line = command("judge", str(PUZZLES), "--limit", "2", "--isolation", "none", "--quiet", *flags, "--", *program)
    shown = in_terminal(f"{env} {line}" if env else line, 80, tmp_path)
    assert shown.status == 0, shown.raw[-2000:]
    assert ("\x1b[32m" in shown.raw) is coloured  # green
    if "never" in flags:
        assert re.search(r"\x1b\[[0-9;]*m", shown.raw) is None  # no style at all


def test_color_always_colours_a_file_and_auto_never_does(tmp_path):
    always = without_terminal("solvers", "--color", "always", cwd=tmp_path)
    auto = without_terminal("solvers", cwd=tmp_path)
    assert always.returncode == auto.returncode == 0
    assert "\x1b[" in always.stdout and "\x1b[" not in auto.stdout
    assert re.sub(r"\x1b\[[0-9;]*m", "", always.stdout).split() == auto.stdout.split()
