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

from .conftest import EXAMPLES, HANG

HEAVY = ("numpy", "numba", "ortools", "matplotlib", "dask", "pysat", "pandas", "scipy")
SAMPLE = str(EXAMPLES / "boj2580-sample.txt")
ANSWER = str(EXAMPLES / "boj2580-sample.out")

PROBE = """
import contextlib, io, sys
from sudokulab import cli
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


@pytest.mark.parametrize("argv, allowed", [
    (("--help",), set()),
    (("solve", SAMPLE), set()),
    (("verify", "--no-oracle", SAMPLE, ANSWER), set()),
    (("verify", SAMPLE, ANSWER), {"pysat"}),
    (("solvers",), {"numpy", "numba", "ortools", "pysat"}),
])
def test_a_command_imports_only_the_heavy_packages_it_uses(argv, allowed):
    code, names = loaded(*argv)
    assert code == 0, argv
    assert names <= allowed, f"sudokulab {' '.join(argv)} imported {sorted(names - allowed)}"


def test_the_light_top_level_help_is_the_full_parsers(monkeypatch):
    """``sudokulab`` / ``--help`` / ``--version`` are answered by ``cli.top_level_parser``, built from
    ``cli.COMMANDS`` alone: it must list exactly the commands the full parser has, in the same words
    (a new command missing from ``COMMANDS`` fails here)."""
    from sudokulab import cli

    monkeypatch.setenv("COLUMNS", "100")
    assert cli.top_level_parser().format_help() == cli.build_parser().format_help()
    assert cli.names_a_command(["solve", "-"]) and not cli.names_a_command(["--help"])
