"""Every ``sudokulab`` command in the ```sh blocks of README.md and of every ``docs/*.md`` page runs as written.

Each command runs as a new process (``python -m sudokulab``, the console script's code), in its page's
order, in a folder of that page's own that holds the repository's ``examples/`` and ``tests/fixtures/``
(the grading page's student files) as the clone's root does (so files the commands write, ``--output
sample.cnf`` or ``> puzzle.cnf``, land there and not in the clone or the home folder). Its exit code
must be the one its comment documents: ``exit N`` in the comment, else 0. Lines that run other programs
(a SAT solver, pip) are not run.

A block may show what a command prints: then its commands start with a ``$ `` prompt, and every line
without one is output, never run. A command with a pipe (``sudokulab generate ... | sudokulab bench -``)
runs in bash, with ``sudokulab`` on the PATH; its exit code is the pipeline's (``pipefail``).

Under pytest-xdist a page's commands run on one worker, in order: a later line may read what an earlier
one wrote (``tests.conftest.xdist_group`` reads the page from the test id, so keep it first there).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest

from tests.conftest import ROOT

SKIPPED = {
    # A user's own program: the README shows where it goes, not a program of ours.
    "judge examples/puzzles-20.txt -- python3 my_solution.py": "runs the reader's own program",
    # Network: tests/datasets/test_catalog.py proves the same path against a server on the loopback interface.
    "datasets fetch magictour_top1465": "downloads from the network",
    # These two read the set that the line above fetches (tests/datasets/test_catalog.py runs them on a served set).
    "bench magictour_top1465 --solvers sat": "needs the set fetched from the network",
    "datasets path magictour_top1465": "needs the set fetched from the network",
    # These read answer.txt, written by an external SAT solver on the line before them (tests of decode
    # feed it such answers).
    "decode answer.txt --cnf sample.cnf": "reads the answer of an external SAT solver",
    "decode examples/boj2580-sample.txt answer.txt --encoding extended": "reads the answer of an external SAT solver",
}

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SHARED = ("examples", "tests/fixtures")
"""The repository's folders a page's commands may read (the grading page's student files are fixtures)."""
COPIED = ("tests/fixtures",)
"""Those of ``SHARED`` copied, not linked: ``grade ./tests/fixtures/grade/judge`` writes its gradebook beside
the submissions, which must not rewrite the checkout's (a run once committed its own path there)."""


class Shown(NamedTuple):
    """One command a page shows: where, as written, and what running it must give."""

    page: str
    line: str
    argv: list[str]
    """The arguments after ``sudokulab`` (for a pipeline: the whole line, run by bash)."""
    redirect: str | None
    expected: int
    pipeline: bool


def _command_lines(block: str) -> list[str]:
    """The lines of a ```sh block that are commands: with ``$ `` prompts, only those; else every line."""
    lines = block.splitlines()
    prompted = [line[2:] for line in lines if line.startswith("$ ")]
    return prompted if prompted else lines


def shown_commands(path: Path) -> list[Shown]:
    """Every ``sudokulab`` command of a page's ```sh blocks, in the page's order."""
    text = path.read_text(encoding="utf-8")
    page = path.relative_to(ROOT).as_posix()
    found = []
    for block in re.findall(r"^```sh\n(.*?)^```", text, flags=re.S | re.M):
        for line in _command_lines(block):
            comment = re.search(r"\s#\s(.*)$", line)
            expected = re.search(r"\bexit (\d+)\b", comment[1]) if comment else None
            for part in (line[:comment.start()] if comment else line).split("&&"):
                try:
                    words = shlex.split(part)
                except ValueError:
                    continue  # not a command line (unbalanced quotes: output shown without prompts)
                if not words or not words[0].endswith("sudokulab"):
                    continue  # python3 -m venv, pip, pytest: the set-up, run by CI in its own way
                pipeline = "|" in words
                redirect = None
                if ">" in words and not pipeline:
                    at = words.index(">")
                    redirect, words = words[at + 1], words[:at]
                argv = [part.strip()] if pipeline else words[1:]
                found.append(Shown(page, part.strip(), argv, redirect, int(expected[1]) if expected else 0, pipeline))
    return found


COMMANDS = [shown for path in PAGES for shown in shown_commands(path)]


@pytest.fixture(scope="module")
def clones(tmp_path_factory):
    """Per page, a working folder laid out as the clone's root: ``examples/`` (linked), nothing to write over."""
    made: dict[str, Path] = {}

    def clone(page: str) -> Path:
        if page not in made:
            folder = tmp_path_factory.mktemp("clone")
            for shared in SHARED:
                (folder / shared).parent.mkdir(parents=True, exist_ok=True)
                if shared in COPIED:
                    shutil.copytree(ROOT / shared, folder / shared, symlinks=True)
                else:
                    (folder / shared).symlink_to(ROOT / shared, target_is_directory=True)
            bin_folder = folder / ".bin"  # `sudokulab` for pipelines: this interpreter, this checkout
            bin_folder.mkdir()
            script = bin_folder / "sudokulab"
            script.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m sudokulab "$@"\n')
            script.chmod(0o755)
            made[page] = folder
        return made[page]

    return clone


def test_the_readme_has_the_tour_and_the_datasets():
    readme = [shown.line for shown in COMMANDS if shown.page == "README.md"]
    assert len(readme) >= 8
    assert any("examples/no-solution.txt" in line for line in readme)
    assert len(COMMANDS) >= 40, "the docs pages show the commands the README used to"
    assert not any("puzzle.txt" in shown.line.split() for shown in COMMANDS), "the pages name only files that exist"


def test_every_docs_page_is_linked_from_the_readme():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    missing = [path.name for path in PAGES[1:] if f"docs/{path.name}" not in readme]
    assert not missing, f"docs pages the README does not link: {missing}"


@pytest.mark.slow
@pytest.mark.parametrize(
    "shown",
    COMMANDS,
    ids=[f"{shown.page}: {shown.line}" for shown in COMMANDS],
)
def test_shown_command(shown: Shown, clones, tmp_path):
    joined = shlex.join(shown.argv)
    if joined in SKIPPED:
        pytest.skip(SKIPPED[joined])
    folder = clones(shown.page)
    words = shlex.split(shown.line) if shown.pipeline else shown.argv
    for word in words:
        if word.startswith(tuple(f"{shared}/" for shared in SHARED)):
            path = ROOT / word.split(":")[0]  # check-solver FILE:CLASS
            assert path.is_file(), f"{word} is named in {shown.page} but is not in the repository"
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "SUDOKULAB_DATA": str(tmp_path / "data"), "COLUMNS": "100", "HOME": str(home),
           "PATH": f"{folder / '.bin'}{os.pathsep}{os.environ.get('PATH', '')}"}
    command = (["bash", "-o", "pipefail", "-c", shown.line] if shown.pipeline
               else [sys.executable, "-m", "sudokulab", *shown.argv])
    run = subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True, timeout=300,
                         stdin=subprocess.DEVNULL)
    where = f"{shown.page}: {shown.line}"
    assert run.returncode == shown.expected, f"{where}: exit {run.returncode}, stderr: {run.stderr[-2000:]}"
    assert "Traceback" not in run.stderr
    if shown.expected:
        assert run.stderr.count("\n") >= 1 and run.stderr.splitlines()[-1].startswith("sudokulab: ")
    if shown.redirect is not None:  # kept in the working folder, or beside it when it names a place elsewhere
        target = folder / shown.redirect if "/" not in shown.redirect else tmp_path / shown.redirect.rsplit("/", 1)[-1]
        target.write_text(run.stdout)
        assert run.stdout, f"{where}: nothing to write to {shown.redirect}"
