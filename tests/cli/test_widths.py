"""Every command's usual output on terminals of 40 and 80 columns, and redirected to files.

Each command runs as a person runs it: the real ``sudokulab`` program under a pseudo-terminal of 40 or
80 columns (both streams on it), the screen read back with ``pyte``. On the terminal:

- no line sent is wider than the terminal, so the terminal never folds one; the one exception is a
  line that is a single word (a one-line puzzle of 81 digits, a long path), which nothing could wrap;
- no word is broken: every word on the screen is a word of the same command's output in a file (or
  of the words a narrow table says about itself), not a piece of one;
- tables and prose alike: tables through ``ui.tables.print_table``, prose through ``ui.console.wrap_prose``.

Redirected to files, the output does not depend on ``COLUMNS``: the same lines with the same words at
40 and 200 (tables are 80 columns in a file, prose is never wrapped there). Timings differ from run to
run, so lines are compared by their words, figures left out (``test_terminal.words``).

The commands whose standard output is a file's text (``export``, ``completion``, the templates of
``check-encoding`` and ``check-solver``) are data, not text to wrap; their failures are covered here.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ..conftest import ROOT
from .test_terminal import command, executable, shown_lines, words

pexpect = pytest.importorskip("pexpect")
pyte = pytest.importorskip("pyte")

EXAMPLES = ROOT / "examples"
SAMPLE = str(EXAMPLES / "boj2580-sample.txt")
PUZZLES = str(EXAMPLES / "puzzles-20.txt")
HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
"""A puzzle whose explanation needs techniques past singles: long step lines."""
PROGRAM = [sys.executable, str(ROOT / "tests" / "fixtures" / "programs" / "boj2580_backtrack.py")]
ROWS = 2000
"""Rows of the emulated terminal: enough that nothing scrolls off the screen read back."""

TYPICAL: dict[str, list[str]] = {
    "solve": ["solve", SAMPLE],
    "solve --stats": ["solve", SAMPLE, "--stats", "--solver", "sat"],
    "solve, no solution": ["solve", str(EXAMPLES / "no-solution.txt")],
    "solve --all": ["solve", "--all", PUZZLES, "--limit", "4"],
    "solve, a set's name": ["solve", "17_clue"],
    "solve, an unknown option": ["solve", SAMPLE, "--solv", "sat"],
    "count --certify": ["count", SAMPLE, "--certify"],
    "solutions": ["solutions", str(EXAMPLES / "several-solutions.txt"), "--limit", "2", "--stats"],
    "decode": ["decode", "{tmp}/model.txt", "--cnf", "{tmp}/formula.cnf"],
    "export, a bad format": ["export", SAMPLE, "--format", "nope"],
    "solvers": ["solvers"],
    "compare": ["compare", SAMPLE, "--solvers", "backtrack,sat,dlx,cpsat"],
    "verify": ["verify", SAMPLE, str(EXAMPLES / "boj2580-sample.out"), "--certify"],
    "judge": ["judge", PUZZLES, "--limit", "3", "--isolation", "none", "--time-limit", "60", "--", *PROGRAM],
    "bench": ["bench", PUZZLES, "--solvers", "sat,backtrack-fast", "--limit", "4"],
    "bench --jobs 2": ["bench", PUZZLES, "--solvers", "backtrack-fast", "--limit", "4", "--jobs", "2"],
    "rate": ["rate", PUZZLES, "--limit", "3"],
    "generate": ["generate", "--count", "2", "--seed", "7"],
    "propagate": ["propagate", SAMPLE, "--level", "naked-single"],
    "propagate --summary": ["propagate", "--summary", PUZZLES, "--limit", "5"],
    "datasets list": ["datasets", "list"],
    "explain": ["explain", "{tmp}/hard.txt"],
    "encoding show --amo": ["encoding", "show", "--amo", "ladder"],
    "encoding show --model": ["encoding", "show", "--model"],
    "check-encoding": ["check-encoding", str(ROOT / "tests" / "fixtures" / "students" / "correct_extended.py"),
                       "--isolation", "none"],
    "check-solver": ["check-solver", "sudokulab.solvers.backtrack.solver:BacktrackSolver"],
    "study": ["study", "--size", "4", "--given", "0.5", "--instances", "1", "--solvers", "backtrack-fast,sat",
              "--output", "{tmp}/study"],  # the runs after the first resume it: the same report
    "--version": ["--version"],
    "--help": ["--help"],
    "bench --help": ["bench", "--help"],
}
"""A usual run of each command (its failures too, where they are what a person meets first)."""

TABLE_WORDS = set(words("not shown at this width shortened (--wide shows every column)"))
"""What a table that left columns out says under itself: words a wider table's file need not hold."""


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> Path:
    """What the runs read: a hard puzzle, an exported formula and a SAT answer to it."""
    folder = tmp_path_factory.mktemp("widths")
    (folder / "hard.txt").write_text(HARD + "\n")
    subprocess.run([*executable(), "export", SAMPLE, "--format", "dimacs", "--output", str(folder / "formula.cnf")],
                   check=True, timeout=240)
    solution = [int(v) for v in (EXAMPLES / "boj2580-sample.out").read_text().split()]
    literals = [(cell * 9 + digit) * (1 if solution[cell] == digit else -1)
                for cell in range(81) for digit in range(1, 10)]
    (folder / "model.txt").write_text("s SATISFIABLE\nv " + " ".join(map(str, literals)) + " 0\n")
    return folder


def argv_of(name: str, folder: Path) -> list[str]:
    return [word.replace("{tmp}", str(folder)) for word in TYPICAL[name]]


def on_terminal(argv: list[str], columns: int, cwd: Path) -> tuple[int, str, list[str]]:
    """Run on a terminal of ``columns``: the exit status, what the terminal was sent, the screen's lines."""
    env = dict(os.environ, COLUMNS=str(columns), LINES=str(ROWS), TERM="xterm-256color")
    env.pop("NO_COLOR", None)
    child = pexpect.spawn("/bin/sh", ["-c", command(*argv)], cwd=str(cwd), env=env, dimensions=(ROWS, columns),
                          encoding="utf-8", codec_errors="replace", timeout=240)
    try:
        raw = child.read()
    finally:
        child.close()
    screen = pyte.Screen(columns, ROWS)
    pyte.Stream(screen).feed(raw.replace("\n", "\r\n").replace("\r\r\n", "\r\n"))
    status = child.exitstatus if child.exitstatus is not None else 128 + (child.signalstatus or 0)
    return status, raw, [line.rstrip() for line in screen.display]


def to_files(argv: list[str], columns: int, cwd: Path) -> tuple[int, str]:
    """Run with both streams in files, ``COLUMNS`` set as a terminal would: the status and the text."""
    done = subprocess.run(executable() + argv, cwd=cwd, env=dict(os.environ, COLUMNS=str(columns)),
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=240)
    return done.returncode, done.stdout


@pytest.mark.slow
@pytest.mark.parametrize("name", TYPICAL)
def test_every_line_fits_the_terminal_and_no_word_is_broken(name, files):
    argv = argv_of(name, files)
    status, text = to_files(argv, 200, files)
    assert "Traceback" not in text, text
    known = {word for line in text.splitlines() for word in words(line)} | TABLE_WORDS
    for columns in (40, 80):
        shown_status, raw, screen = on_terminal(argv, columns, files)
        assert shown_status == status, (columns, raw[-2000:])
        assert "Traceback" not in raw
        too_wide = [line for line in shown_lines(raw) if len(line) > columns and len(line.split()) > 1]
        assert too_wide == [], (columns, too_wide)
        overlong = [token for line in text.splitlines() for token in line.split() if len(token) > columns]
        pieces = {word for line in screen for word in words(line)} - known
        pieces = {piece for piece in pieces if not any(piece in token for token in overlong)}  # a path, folded
        assert pieces == set(), (columns, pieces, "\n".join(screen).strip())


@pytest.mark.slow
@pytest.mark.parametrize("name", [name for name in TYPICAL if "help" not in name])
def test_redirected_output_is_not_wrapped_whatever_columns_says(name, files):
    """In a file, prose stays one line and a table 80 columns, at COLUMNS=40 as at COLUMNS=200 (--help is
    argparse's, wrapped at COLUMNS by design: docs/terminal.md)."""
    argv = argv_of(name, files)
    narrow, wide = to_files(argv, 40, files), to_files(argv, 200, files)
    assert narrow[0] == wide[0]
    assert [words(line) for line in narrow[1].splitlines()] == [words(line) for line in wide[1].splitlines()]
    assert "\x1b" not in narrow[1]
