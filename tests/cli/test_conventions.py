"""Command-line conventions: --version, help with defaults, JSON for scripts, completion, generate on large boards."""

from __future__ import annotations

import argparse
import json
import platform
import shutil
import subprocess
import sys

import pytest

from sudokulab import __version__, is_solution
from sudokulab.cli import parser as parser_module
from sudokulab.cli.parser import build_parser
from sudokulab.core.grid import Shape
from sudokulab.generation import puzzles as generate
from tests.conftest import EXAMPLES, HANG, ROOT, run_cli

SAMPLE = str(EXAMPLES / "boj2580-sample.txt")


def test_version(capsys):
    with pytest.raises(SystemExit) as stopped:
        build_parser().parse_args(["--version"])
    assert stopped.value.code == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"sudokulab {__version__}" and lines[1].startswith(f"Python {platform.python_version()} ")
    import numpy
    import ortools
    import pysat

    named = {line.split()[0]: line.split()[1] for line in lines[2:]}
    # each version as the imported library itself reports it
    assert (named["python-sat"], named["ortools"], named["numpy"]) == (pysat.__version__, ortools.__version__,
                                                                        numpy.__version__)


def _options(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _options(sub, (*path, name))
        elif not isinstance(action, (argparse._HelpAction, argparse._VersionAction, parser_module._Versions)):
            yield " ".join(path), action


def test_every_argument_has_help_and_its_default():
    for command, action in _options(build_parser()):
        name = "/".join(action.option_strings) or action.dest
        assert action.help, f"{command} {name} has no help text"
        if action.option_strings and action.nargs != 0 and action.default not in (None, False):
            assert "default" in action.help, f"{command} {name}: the help does not say its default"


def test_the_top_level_help_is_written_for_users():
    text = build_parser().format_help()
    assert "argument parsing" not in text and "Solve Sudoku" in text
    for command in ("datasets", "completion", "solve", "count", "generate"):
        assert command in text


def test_errors_have_one_prefix(capsys):
    code, out, err = run_cli(capsys, "solve", SAMPLE, "--time-limit", "-1")
    assert (code, out) == (2, "")
    assert err.startswith("sudokulab: error: solve: argument --time-limit") and "sudokulab solve" not in err


# --- JSON for scripts ------------------------------------------------------------------------------

def test_solve_json(capsys, sample):
    code, out, err = run_cli(capsys, "solve", SAMPLE, "--json", "--solver", "sat")
    assert (code, err) == (0, "")
    document = json.loads(out)
    assert document["status"] == "solved" and document["solver"] == "sat"
    grid = tuple(v for row in document["grid"] for v in row)
    assert is_solution(grid, sample)
    assert document["answer"] == (EXAMPLES / "boj2580-sample.out").read_text()
    assert document["size"] == 9 and document["box"] == [3, 3]
    assert isinstance(document["seconds"], float) and "decisions" in document["stats"]


def test_solve_json_no_solution_keeps_its_exit_code(capsys):
    code, out, err = run_cli(capsys, "solve", str(EXAMPLES / "no-solution.txt"), "--json")
    assert code == 1
    assert json.loads(out)["status"] == "no solution" and json.loads(out)["grid"] is None
    assert err.count("\n") == 1 and err.startswith("sudokulab: no solution")


def test_solve_json_broken_given(capsys, monkeypatch):
    broken = (EXAMPLES / "boj2580-sample.txt").read_text().replace("0 3 5", "3 3 5", 1)
    code, out, err = run_cli(capsys, "solve", "--json", stdin=broken.encode(), monkeypatch=monkeypatch)
    assert code == 1
    assert json.loads(out)["reason"].startswith("the givens break a rule: row 1 holds 3 twice")


def test_count_json(capsys):
    code, out, err = run_cli(capsys, "count", str(EXAMPLES / "several-solutions.txt"), "--json", "--limit", "100")
    assert (code, err) == (0, "")
    document = json.loads(out)
    assert (document["count"], document["exact"], document["limit"]) == (18, True, 100)
    code, out, _ = run_cli(capsys, "count", str(EXAMPLES / "several-solutions.txt"), "--json", "--limit", "5")
    document = json.loads(out)
    assert (code, document["count"], document["exact"], document["limit"]) == (0, 5, False, 5)


def test_compact_form_of_a_large_board_is_refused_before_solving(capsys, monkeypatch):
    from sudokulab import solvers

    monkeypatch.setattr(solvers, "get", lambda *a, **k: pytest.fail("a solver was built"))
    code, out, err = run_cli(capsys, "solve", str(EXAMPLES / "16x16.txt"), "--format", "compact")
    assert (code, out) == (2, "")
    assert "compact form" in err


# --- the examples the README tour uses ------------------------------------------------------------

def test_the_examples_are_what_the_tour_says(capsys):
    assert run_cli(capsys, "count", str(EXAMPLES / "16x16.txt"), "--limit", "2", "--solver", "sat")[:2] == (0, "1\n")
    code, out, _ = run_cli(capsys, "count", str(EXAMPLES / "no-solution.txt"), "--solver", "sat")
    assert (code, out) == (0, "0\n")
    from sudokulab import parse_puzzle
    from sudokulab.core.puzzle import first_conflict

    puzzle = parse_puzzle((EXAMPLES / "no-solution.txt").read_text())
    assert first_conflict(puzzle.givens, puzzle.shape) is None, "the contradiction is hidden, no given breaks a rule"
    lines = [line for line in (EXAMPLES / "puzzles-20.txt").read_text().splitlines() if not line.startswith("#")]
    code, out, _ = run_cli(capsys, "generate", "--size", "9", "--unique", "--count", "20", "--seed", "2580")
    assert (code, out.splitlines()) == (0, lines), "examples/puzzles-20.txt is what its header says made it"


# --- shell completion ---------------------------------------------------------------------------------

@pytest.mark.parametrize("shell", ["bash", "zsh"])
def test_completion_scripts(capsys, shell):
    code, out, err = run_cli(capsys, "completion", shell)
    assert (code, err) == (0, "")
    assert "sudokulab" in out and "datasets" in out and "magictour_top1465" in out


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_bash_completes_commands_and_set_names(capsys, tmp_path):
    script = tmp_path / "sudokulab.bash"
    script.write_text(run_cli(capsys, "completion", "bash")[1])

    def complete(*words: str) -> list[str]:
        line = " ".join(words)
        program = (f'source "{script}"; COMP_WORDS=({line}); COMP_CWORD={len(words) - 1}; COMP_LINE="{line}"; '
                   f'COMP_POINT=${{#COMP_LINE}}; _shtab_sudokulab sudokulab "{words[-1]}" "{words[-2]}"; '
                   'printf "%s\\n" "${COMPREPLY[@]}"')
        run = subprocess.run(["bash", "-c", program], capture_output=True, text=True, timeout=HANG)
        return run.stdout.split()

    assert complete("sudokulab", "so") == ["solve", "solvers", "solutions"]
    assert complete("sudokulab", "datasets", "fetch", "mag") == ["magictour_top1465"]


# --- generate on large boards -------------------------------------------------------------------------

def test_default_fraction_by_size():
    assert generate.default_fraction(9) == generate.DEFAULT_FRACTION == 0.45
    assert generate.default_fraction(25) == 0.45, "without --unique the scaling study's share stays"
    assert [generate.default_fraction(n, unique=True) for n in (4, 9, 16, 25, 36, 49)] == [
        0.45, 0.45, 0.45, 0.60, 0.80, 0.90]
    assert generate.clues_for(Shape.of_size(25), unique=True) == round(0.60 * 625)


def test_generate_reports_progress_of_each_puzzle():
    seen: list[tuple[int, int]] = []
    (made,) = generate.generate(9, 1, clues=40, unique=True, seed=3, progress=lambda done, wanted: seen.append(
        (done, wanted)))
    assert seen[0] == (0, 41) and seen[-1] == (81 - made.clues, 41)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)


@pytest.mark.slow
def test_generate_unique_on_a_25x25_board_finishes_in_seconds(tmp_path):
    """The default fraction keeps a 25x25 --unique puzzle within seconds (it took minutes at 0.45)."""
    out = tmp_path / "p.txt"
    run = subprocess.run([sys.executable, "-m", "sudokulab", "generate", "--size", "25", "--unique", "--seed", "1",
                          "--output", str(out)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""  # no bar off a terminal, no seed line: it was given
    assert out.read_text().count("\n") == 26  # 25 rows and the blank line between puzzles


def test_generate_output_is_whole_or_absent(capsys, tmp_path, monkeypatch):
    target = tmp_path / "puzzles.txt"
    calls = 0
    real = generate.random_grid

    def fail_on_the_second(shape, rng):
        nonlocal calls
        calls += 1
        if calls == 2:
            raise KeyboardInterrupt
        return real(shape, rng)

    monkeypatch.setattr(generate, "random_grid", fail_on_the_second)
    code, _, err = run_cli(capsys, "generate", "--size", "9", "--count", "3", "--seed", "1", "--output", str(target))
    assert code == 130
    assert not target.exists() and not list(tmp_path.iterdir()), "an interrupted run leaves no file"


def test_the_version_is_written_once_in_pyproject():
    """``sudokulab.__version__`` is read from the installed metadata, which pyproject.toml writes."""
    import re

    written = re.search(r'^version = "([^"]+)"$', (ROOT / "pyproject.toml").read_text("utf-8"), flags=re.M)
    assert written and __version__ == written.group(1)
    assert "__version__ =" not in (ROOT / "src" / "sudokulab" / "__init__.py").read_text("utf-8")
