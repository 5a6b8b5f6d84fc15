"""Start-up: the commands a person runs most import nothing heavy they do not use.

Each command runs in a fresh interpreter, which then lists the heavy packages it loaded. ``--help``,
``solve`` with the default solver and ``verify --no-oracle`` need none of them; ``verify`` consults
the SAT oracle (PySAT, which it uses) and nothing else heavy; ``solvers`` imports each backend to say
whether it is installed and to probe its engines, but no plotting and no cluster. What start-up
costs in time is measured in ``benchmarks/startup.py`` (``benchmarks/results/startup.md``), not here.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from sudokulab.__main__ import YOUNG_OBJECTS
from sudokulab.errors import UsageError

from ..conftest import EXAMPLES, HANG

HEAVY = ("numpy", "numba", "ortools", "matplotlib", "dask", "pysat", "pandas", "scipy")
SAMPLE = str(EXAMPLES / "boj2580-sample.txt")
ANSWER = str(EXAMPLES / "boj2580-sample.out")

PROBE = """
import contextlib, io, sys
from sudokulab.cli import main as cli
with contextlib.redirect_stdout(io.StringIO()):
    try:
        code = cli.main(sys.argv[1:])
    except SystemExit as exc:  # --help
        code = exc.code
print(code, *sorted(name for name in {heavy!r} if name in sys.modules))
"""


def loaded(*argv: str) -> tuple[int, set[str]]:
    """The exit code of ``sudokulab ARGV`` and the heavy packages it had imported when done."""
    done = subprocess.run([sys.executable, "-c", PROBE.format(heavy=HEAVY), *argv], capture_output=True,
                          text=True, timeout=HANG)
    code, *names = done.stdout.split()
    return int(code), set(names)


@pytest.mark.slow
@pytest.mark.parametrize("argv, allowed", [
    (("--help",), set()),
    (("solve", SAMPLE), set()),
    (("verify", "--no-oracle", SAMPLE, ANSWER), set()),
    (("verify", SAMPLE, ANSWER), {"pysat"}),
    # describing cpmpy asks CPMpy which engines it has, and CPMpy's OR-Tools interface imports pandas
    (("solvers",), {"numpy", "numba", "ortools", "pysat", "pandas"}),
])
def test_a_command_imports_only_the_heavy_packages_it_uses(argv, allowed):
    code, names = loaded(*argv)
    assert code == 0, argv
    assert names <= allowed, f"sudokulab {' '.join(argv)} imported {sorted(names - allowed)}"


def test_the_light_top_level_help_is_the_full_parsers(monkeypatch):
    """``sudokulab`` / ``--help`` / ``--version`` are answered by ``cli.top_level_parser``, built from
    ``cli.COMMANDS`` alone: it must list exactly the commands the full parser has, in the same words
    (a new command missing from ``COMMANDS`` fails here)."""
    from sudokulab.cli import parser as cli

    monkeypatch.setenv("COLUMNS", "100")
    assert cli.top_level_parser().format_help() == cli.build_parser().format_help()
    assert cli.command_word(["--wide", "solve", "-"]) == "solve" and cli.command_word(["--help"]) is None


def test_a_command_parses_with_its_own_options_only():
    """A command line builds the parser of the command it names (its options and imports), the
    others by name: a wrong word still lists them all, and each command's options still parse."""
    from sudokulab.cli import parser as cli

    only = cli.build_parser("bench")
    commands = next(a for a in only._actions if a.dest == "command")
    assert list(commands.choices) == list(cli.COMMANDS)
    assert only.parse_args(["bench", "17_clue", "--quiet"]).quiet
    assert cli.build_parser("propagate").parse_args(["propagate", "p.txt", "--level", "naked-single"]).level
    with pytest.raises(UsageError, match="--level"):
        cli.build_parser("bench").parse_args(["bench", "17_clue", "--level", "naked-single"])  # propagate's


EXIT = """
import atexit, sys
atexit.register(lambda: print("exit handler ran", file=sys.stderr))
sys.argv = ["sudokulab", *sys.argv[1:]]
from sudokulab.cli.main import run
run()
"""


@pytest.mark.parametrize("argv, code", [(["solve", SAMPLE], 0), (["solve", "no-such-file.txt"], 2)])
def test_the_console_script_ends_with_its_code_its_output_and_its_exit_handlers(argv, code):
    """The command skips the interpreter's teardown, not what a process owes at exit: the exit code,
    every line written, the exit handlers."""
    done = subprocess.run([sys.executable, "-c", EXIT, *argv], capture_output=True, text=True, timeout=HANG)
    assert done.returncode == code
    assert "exit handler ran" in done.stderr
    if code == 0:
        assert done.stdout == open(ANSWER).read()


def test_a_profiled_command_still_writes_its_profile(tmp_path):
    out = tmp_path / "run.prof"
    done = subprocess.run([sys.executable, "-m", "cProfile", "-o", str(out), "-m", "sudokulab", "solve", SAMPLE],
                          capture_output=True, text=True, timeout=HANG)
    assert done.returncode == 0, done.stderr
    assert out.stat().st_size > 0


BLAS_PROBE = """
import atexit, os, sys
from sudokulab.__main__ import run

def report():
    import numpy  # loaded now, if the command did not load it
    tasks = len(os.listdir("/proc/self/task")) if os.path.isdir("/proc/self/task") else 0
    import gc
    print("blas", os.environ.get("OPENBLAS_NUM_THREADS"), tasks, gc.get_threshold()[0], file=sys.stderr)

atexit.register(report)
sys.argv = ["sudokulab", *sys.argv[1:]]
run()
"""


@pytest.mark.slow
@pytest.mark.parametrize("chosen, expected", [
    ({}, "1"),
    ({"OPENBLAS_NUM_THREADS": "2"}, "2"),
    ({"OMP_NUM_THREADS": "2"}, "None"),
])
def test_the_command_runs_numpy_with_one_blas_thread_unless_the_caller_chose(chosen, expected):
    """No command does linear algebra, so OpenBLAS gets no thread of its own (it spins on another core
    when numpy loads); a thread count the caller set, for OpenBLAS or OpenMP, is theirs to keep."""
    import os

    env = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS",
                                                             "OMP_NUM_THREADS")}
    done = subprocess.run([sys.executable, "-c", BLAS_PROBE, "solve", SAMPLE], capture_output=True, text=True,
                          timeout=HANG, env={**env, **chosen})
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "1 3 5 4 6 9 2 7 8"
    _, value, tasks, young = done.stderr.split()[-4:]
    assert value == expected
    assert int(young) == YOUNG_OBJECTS, "the command collects young objects at its own threshold"
    if not chosen and tasks != "0":
        assert tasks == "1", "numpy loaded with OpenBLAS threads beside the main one"


@pytest.mark.slow
def test_the_top_level_help_imports_no_command_module():
    """``sudokulab --help`` is built from the command table alone: no command's module is imported."""
    probe = ("import contextlib, io, sys\nfrom sudokulab.cli import main as cli\n"
             "with contextlib.redirect_stdout(io.StringIO()):\n"
             "    try:\n        cli.main(['--help'])\n    except SystemExit:\n        pass\n"
             "print(sorted(name for name in sys.modules if name.startswith('sudokulab.cli.commands.')))\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=HANG)
    assert done.stdout.strip() == "[]", done.stderr


def test_the_command_table_names_every_command_module_once():
    """Adding a command is one module and one table line (docs/design.md): the table and the folder agree,
    and each module has what the parser calls."""
    from pathlib import Path

    from sudokulab.cli import commands

    on_disk = {path.stem for path in Path(commands.__file__).parent.glob("*.py")} - {"__init__"}
    named = [command.module for command in commands.COMMANDS.values()]
    assert sorted(named) == sorted(on_disk) and len(set(named)) == len(named)
    for name in commands.COMMANDS:
        module = commands.load(name)
        assert callable(module.configure) and callable(module.run), name
