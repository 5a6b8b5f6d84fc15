"""Shared fixtures: the BOJ sample, the shared data folder, and random valid grids.

The random grids are the solver contract's (``sudokulab.grading.contract``): a pattern grid shuffled by the
Sudoku symmetries, which is plenty to exercise solvers (the generator module does the uniform-ish
job for users).
"""

from __future__ import annotations

import functools
import io
import re
import signal
import sys
from pathlib import Path

import pytest
from hypothesis import settings

from sudokulab import Puzzle, is_solution, parse_puzzle
from sudokulab.cli import main as cli
from sudokulab.datasets import catalog
from sudokulab.grading.contract import cut, random_grid, random_puzzle  # noqa: F401 - the tests' random puzzles are the contract's

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
FIXTURES = ROOT / "tests" / "fixtures"
SHARED_DATA = ROOT.parent / "shared" / "data"
HANG = 60.0
"""Seconds after which a run that should have stopped (a time limit, Ctrl-C) counts as hung. Generous
on purpose: tests assert that it stops, never how fast (CI machines are shared and slow); speed is
measured in benchmarks/."""

if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    # Started in the background by a non-interactive shell (``.ci/run &``), the suite inherits Ctrl-C
    # ignored, and so would every program it starts; the tests that press Ctrl-C on those need it live.
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.hookimpl(wrapper=True)
def pytest_collect_file(file_path, parent):
    """The test modules are not searched for doctests (they hold none). ``--doctest-modules`` would
    otherwise read each one a second time as a doctest module, which registers its fixtures twice
    under the same id, and ``pytest --fixtures`` then stopped on an INTERNALERROR sorting them."""
    collected = yield
    from _pytest.doctest import DoctestModule

    return [c for c in collected if not isinstance(c, DoctestModule)]


def module_solver(fixture: str, name: str, doc: str):
    """A fixture ``fixture`` holding one ``name`` solver for a whole test module, closed after its last test."""

    def held():
        from sudokulab import solvers

        with solvers.get(name) as solver:
            yield solver

    held.__name__ = held.__qualname__ = fixture
    held.__doc__ = doc
    return pytest.fixture(held, scope="module", name=fixture)


fast = module_solver("fast", "backtrack-fast", "The reference the other hand-written searches are held to.")
sat = module_solver("sat", "sat", "The reference the other paradigms' answers and counts are checked against.")
backtrack = module_solver("backtrack", "backtrack", "The classic search, whose canonical answer the others must give.")
jitted = module_solver("jitted", "backtrack-jit", "The compiled search.")


@pytest.fixture
def sample_text() -> str:
    return (EXAMPLES / "boj2580-sample.txt").read_text()


@pytest.fixture
def sample_answer() -> str:
    return (EXAMPLES / "boj2580-sample.out").read_text()


@pytest.fixture
def sample(sample_text) -> Puzzle:
    return parse_puzzle(sample_text)


def shared_dataset(name: str) -> Path:
    """A whole published set (``name``: its file name, ``17_clue.txt``), or a clean skip where this machine
    has none: a fresh clone has no ../shared/data beside it. Only for tests that need every puzzle of a
    set; the others read ``dataset``."""
    stem = name.removesuffix(".txt")
    path = catalog.published(stem)
    if path is None:
        pytest.skip(f"needs the whole published set {stem} (no ../shared/data beside this clone, and "
                    f"'sudokulab datasets fetch {stem}' not run)")
    return path


def dataset(name: str, first: int | None = None) -> Path:
    """A published set to read the first ``first`` puzzles of: the whole set where this machine has it,
    else its slice shipped with the package (``catalog.find``); a clean skip where neither holds as many."""
    try:
        return catalog.find(name.removesuffix(".txt"), first)
    except catalog.DatasetError as exc:
        pytest.skip(str(exc))


@functools.cache
def latin_squares(n: int) -> tuple[tuple[int, ...], ...]:
    """Every Latin square of order n (rows and columns hold 1..n once), row-major lexicographic: 576
    for n = 4. Every rule set has rows and columns, so a small puzzle's solutions are among them."""
    found: list[tuple[int, ...]] = []
    grid = [0] * (n * n)

    def place(cell: int) -> None:
        if cell == n * n:
            found.append(tuple(grid))
            return
        row, col = divmod(cell, n)
        taken = {grid[row * n + c] for c in range(col)} | {grid[r * n + col] for r in range(row)}
        for digit in range(1, n + 1):
            if digit not in taken:
                grid[cell] = digit
                place(cell + 1)
        grid[cell] = 0

    place(0)
    return tuple(found)


def brute_force(puzzle: Puzzle) -> list[tuple[int, ...]]:
    """Every solution of a 4x4 puzzle under its rules, ascending, by definition: the Latin squares the
    independent checker accepts. Independent of every solver, model and propagation: the one
    reference the solver tests count against."""
    if puzzle.n > 4:
        raise ValueError("brute force is for boards up to 4x4")
    return [grid for grid in latin_squares(puzzle.n) if is_solution(grid, puzzle)]


def run_cli(capsys, *argv: str, stdin: bytes | None = None, monkeypatch=None) -> tuple[int, str, str]:
    """Run the command in-process: (exit code, stdout, stderr); ``stdin`` bytes need ``monkeypatch``."""
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# Hypothesis profiles: the default runs in seconds; ``--hypothesis-profile=fuzz`` runs the fuzz tests
# (tests/cli/test_fuzz.py) over thousands of inputs.
settings.register_profile("fuzz", max_examples=3000, deadline=None)



SERIAL = {
    # Each starts Dask clusters (a scheduler and worker processes) and kills workers mid-run on purpose:
    # two at once on a 2-core machine starve each other's workers into their time-outs.
    "tests/execution/test_cluster.py": "cluster",
    "tests/cli/test_signals.py::test_a_local_cluster_run_ends_quietly_on_a_signal_to_its_group": "cluster",
    "tests/cli/test_signals.py::test_a_local_clusters_workers_leave_the_stopping_signals_to_the_command": "cluster",
    # Signals sent at points drawn from a seeded generator, to whole process groups: one run at a time
    # keeps each point where its seed puts it.
    "tests/cli/test_signals.py": "signals",
    # The real command under pseudo-terminals, read as a screen: one at a time, so no terminal waits on
    # another's output.
    "tests/cli/test_terminal.py": "terminal",
}
"""Test files (or single tests, by the start of their id; the first match wins) that run one after the
other on one pytest-xdist worker, beside the other workers' tests: what they start must not share the
machine with more of itself."""


def xdist_group(nodeid: str) -> str | None:
    """The group a test runs in under pytest-xdist, by its id (None: anywhere, on its own).

    ``SERIAL``'s tests; and the commands of each README or docs page (``tests/project/test_readme.py``), in the
    page's order, as a later line may read what an earlier one wrote, except those that start a Dask
    cluster, which join the cluster tests.
    """
    for start, group in SERIAL.items():
        if nodeid.startswith(start):
            return group
    shown = re.match(r"tests/project/test_readme\.py::test_shown_command\[(.+?): (.*)\]\Z", nodeid)
    if shown:
        return "cluster" if "--cluster" in shown[2] else f"pages-{shown[1]}"
    return None


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """``--dist loadgroup`` with the groups of ``xdist_group``, read from the test ids by the controller.

    pytest-xdist's own ``xdist_group`` marks do nothing under pytest 9.2 (xdist 3.8 renames the test by
    assigning ``item._nodeid``, which pytest 9.2 no longer reads), so the groups are named here instead.
    """
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadGroupScheduling

    class SerialGroups(LoadGroupScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return xdist_group(nodeid) or super()._split_scope(nodeid)

    return SerialGroups(config, log)


LONGEST = (
    "tests/project/test_notebooks.py::test_notebook_runs_and_prints_its_committed_outputs[07",
    "tests/reasoning/test_rating.py::test_the_ratings_order_the_shipped_sets",
    "tests/project/test_notebooks.py::test_notebook_runs_and_prints_its_committed_outputs[08",
    "tests/grading/test_gradebook.py::test_a_class_of_forty",
    "tests/solvers/jit/test_solver.py::test_the_compiled_search_is_cached_on_disk",
    "tests/cli/test_eighty_columns.py::test_solvers_fits_80_columns",
    "tests/cli/test_scale.py::test_rate_",
    "tests/datasets/test_hostile_input.py::test_every_command_that_reads_datasets_reads_a_puzzle_file_as_one_puzzle",
    "tests/project/test_notebooks.py::test_notebook_runs_and_prints_its_committed_outputs",
    "tests/reasoning/test_explain.py::test_replay_200_puzzles_from_three_sets",
    "tests/reasoning/test_explain.py::test_x_names_a_diagonal",
)
"""The tests (by the start of their id) that take longest here, longest first (per-test durations of a
whole run, docs/development.md): under pytest-xdist they are handed out before every other test of no
group, so that none starts while the other worker has nothing left to do. A stale entry costs nothing."""


def pytest_collection_modifyitems(config, items):
    """``LONGEST`` first, in its order, under ``--dist loadgroup`` (the scheduler keeps the collection's
    order among tests of no group); elsewhere the order is left alone."""
    if config.getoption("dist", default="no") != "loadgroup":  # -p no:xdist has no such option
        return

    def rank(item) -> int:
        return next((i for i, start in enumerate(LONGEST) if item.nodeid.startswith(start)), len(LONGEST))

    items.sort(key=rank)
