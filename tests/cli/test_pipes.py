"""A reader that goes away (``| head -1``, ``| true``): every command ends with 141 and says nothing.

Exit 141 (128 + SIGPIPE, as a shell reports a program killed by it) whenever a write meets the closed
pipe, never 1 and never a traceback (README, "Exit codes"). The pipe's reader is closed before the
command starts, so the first write meets it every time: no race with how fast the reader is. One
test also runs a real ``head -1`` on more output than a pipe holds.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from tests.conftest import EXAMPLES

SAMPLE = str(EXAMPLES / "boj2580-sample.txt")
ANSWER = str(EXAMPLES / "boj2580-sample.out")

COMMANDS = [
    ["solvers"], ["solvers", "--json"], ["datasets", "list"], ["solve", SAMPLE], ["count", SAMPLE],
    ["export", SAMPLE, "--format", "dimacs"], ["compare", SAMPLE], ["bench", SAMPLE, "--quiet"], ["rate", SAMPLE],
    ["generate", "--count", "3", "--seed", "1"], ["propagate", SAMPLE], ["explain", SAMPLE],
    ["explain", SAMPLE, "--json"], ["solutions", SAMPLE], ["completion", "bash"], ["check-solver", "--template"],
    ["check-encoding", "--template"], ["verify", SAMPLE, ANSWER], ["encoding", "show", "--model", "--size", "9"],
    ["judge", SAMPLE, "--quiet", "--isolation", "none", "--", sys.executable, "-c", "print(open(0).read())"],
    ["--version"], ["--help"], ["solve", "--help"],
    ["study", "--size", "4", "--given", "0.5", "--instances", "1", "--solvers", "backtrack-fast", "--output",
     "{tmp}/study"],
]
"""A command line of every command (and the top level's own answers) that prints on stdout; ``{tmp}``
stands for the test's own folder."""

QUIET_ON_STDERR = {"solvers", "datasets", "solve", "count", "export", "bench", "rate", "propagate", "explain",
                   "solutions", "completion", "check-solver", "check-encoding", "verify", "encoding",
                   "--version", "--help", "study"}
"""Commands that print nothing on stderr in a good run (``compare`` tables go there, ``generate`` names
its seed, ``judge`` warns of --isolation none), so a closed stdout leaves their stderr empty."""


def _filled(argv: list[str], tmp_path) -> list[str]:
    return [arg.replace("{tmp}", str(tmp_path)) for arg in argv]


def _to_closed_pipe(argv: list[str]) -> subprocess.CompletedProcess:
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run([sys.executable, "-m", "sudokulab", *argv], stdout=write, stderr=subprocess.PIPE,
                              stdin=subprocess.DEVNULL, timeout=120)
    finally:
        os.close(write)


@pytest.mark.slow
@pytest.mark.parametrize("argv", COMMANDS, ids=lambda argv: " ".join(argv[:2]).replace(SAMPLE, "sample"))
def test_every_command_ends_with_141_when_its_reader_is_gone(argv, tmp_path):
    done = _to_closed_pipe(_filled(argv, tmp_path))
    stderr = done.stderr.decode()
    assert done.returncode == 141, (done.returncode, stderr)
    assert "Traceback" not in stderr and "Exception ignored" not in stderr and "error" not in stderr
    if argv[0] in QUIET_ON_STDERR:
        assert stderr == ""


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("head") is None, reason="no head here")
def test_a_real_head_takes_one_line_of_more_than_a_pipe_holds(tmp_path):
    script = (f"{sys.executable} -m sudokulab generate --count 3000 --size 4 --seed 7 | head -1; "
              "echo \"${PIPESTATUS[0]}\" >&2")
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=120)
    assert len(done.stdout.splitlines()) == 1 and len(done.stdout.strip()) == 16
    *said, status = done.stderr.strip().splitlines()
    assert status == "141" and not [line for line in said if "seed" not in line]


@pytest.mark.slow
@pytest.mark.parametrize("argv", [argv for argv in COMMANDS if argv[0] not in ("--help", "completion")],
                         ids=lambda argv: " ".join(argv[:2]).replace(SAMPLE, "sample"))
def test_output_redirected_to_a_file_has_no_trailing_spaces(argv, tmp_path):
    out = tmp_path / "out.txt"
    with open(out, "w") as stream:
        done = subprocess.run([sys.executable, "-m", "sudokulab", *_filled(argv, tmp_path)], stdout=stream,
                              stderr=subprocess.PIPE,
                              stdin=subprocess.DEVNULL, timeout=120)
    assert done.returncode in (0, 1), done.stderr.decode()
    padded = [line for line in out.read_text().splitlines() + done.stderr.decode().splitlines()
              if line != line.rstrip(" ")]
    assert padded == []
