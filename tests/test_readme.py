"""Every ``sudokulab`` command in the README's ```sh blocks runs as written, as on a fresh clone.

Each command runs as a new process (``python -m sudokulab``, the console script's code), in the
README's order, in a folder that holds the repository's ``examples/`` as the clone's root does (so
files the commands write, ``--output sample.cnf`` or ``> puzzle.cnf``, land there and not in the
clone or the home folder). Its exit code must be the one its comment documents: ``exit N`` in the
comment, else 0. Lines that run other programs (a SAT solver, pip) are not run.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys

import pytest

from tests.conftest import ROOT

SKIPPED = {
    # A user's own program: the README shows where it goes, not a program of ours.
    "judge examples/puzzles-20.txt -- python3 my_solution.py": "runs the reader's own program",
    # Network: tests/test_catalog.py proves the same path against a server on the loopback interface.
    "datasets fetch magictour_top1465": "downloads from the network",
    # These two read the set that the line above fetches (tests/test_catalog.py runs them on a served set).
    "bench magictour_top1465 --solvers sat": "needs the set fetched from the network",
    "datasets path magictour_top1465": "needs the set fetched from the network",
    # These read answer.txt, written by an external SAT solver on the line before them (tests of decode
    # feed it such answers).
    "decode answer.txt --cnf sample.cnf": "reads the answer of an external SAT solver",
    "decode examples/boj2580-sample.txt answer.txt --encoding extended": "reads the answer of an external SAT solver",
}


@pytest.fixture(scope="module")
def clone(tmp_path_factory):
    """A working folder laid out as the clone's root: ``examples/`` (linked), nothing else to write over."""
    folder = tmp_path_factory.mktemp("clone")
    (folder / "examples").symlink_to(ROOT / "examples", target_is_directory=True)
    return folder


def readme_commands() -> list[tuple[str, list[str], str | None, int]]:
    """(line, arguments after ``sudokulab``, redirect target or None, expected exit code) per command."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    found = []
    for block in re.findall(r"^```sh\n(.*?)^```", text, flags=re.S | re.M):
        for line in block.splitlines():
            comment = re.search(r"\s#\s(.*)$", line)
            expected = re.search(r"\bexit (\d+)\b", comment[1]) if comment else None
            for part in (comment.string[:comment.start()] if comment else line).split("&&"):
                words = shlex.split(part)
                if not words or not words[0].endswith("sudokulab"):
                    continue  # python3 -m venv, pip, pytest: the set-up, run by CI in its own way
                redirect = None
                if ">" in words:
                    at = words.index(">")
                    redirect, words = words[at + 1], words[:at]
                found.append((part.strip(), words[1:], redirect, int(expected[1]) if expected else 0))
    return found


COMMANDS = readme_commands()


def test_the_readme_has_the_tour_and_the_datasets():
    lines = [line for line, *_ in COMMANDS]
    assert len(lines) >= 15
    assert any("examples/no-solution.txt" in line for line in lines)
    assert not any("puzzle.txt" in line.split() for line in lines), "the tour names only files that exist"


@pytest.mark.parametrize(("line", "argv", "redirect", "expected"), COMMANDS, ids=[c[0] for c in COMMANDS])
def test_readme_command(line, argv, redirect, expected, clone, tmp_path):
    joined = shlex.join(argv)
    if joined in SKIPPED:
        pytest.skip(SKIPPED[joined])
    for word in argv:
        if word.startswith("examples/"):
            assert (ROOT / word).is_file(), f"{word} is named in the README but is not in the repository"
    env = {**__import__("os").environ, "SUDOKULAB_DATA": str(tmp_path / "data"), "COLUMNS": "100"}
    run = subprocess.run([sys.executable, "-m", "sudokulab", *argv], cwd=clone, env=env, capture_output=True,
                         text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert run.returncode == expected, f"{line}: exit {run.returncode}, stderr: {run.stderr[-2000:]}"
    assert "Traceback" not in run.stderr
    if expected:
        assert run.stderr.count("\n") >= 1 and run.stderr.splitlines()[-1].startswith("sudokulab: ")
    if redirect is not None:  # kept in the working folder, or beside it when it names a place elsewhere
        target = clone / redirect if "/" not in redirect else tmp_path / redirect.rsplit("/", 1)[-1]
        target.write_text(run.stdout)
        assert run.stdout, f"{line}: nothing to write to {redirect}"
