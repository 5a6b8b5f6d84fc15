"""No PySAT call sudokulab makes runs with PySAT's own SIGINT handler (``solvers/pysat_guard.py``).

PySAT asks ``MainThread.check()`` before every ``solve``, ``solve_limited``, ``propagate`` and
cardinality encoding whether to install its handler, the ``longjmp`` out of the engine that can leave
the heap corrupt (docs/sat.md). Here that question is watched while the commands run in this process:
every module of the package that imports PySAT is found in the source, each must be seen calling an
engine, and no call may be answered "yes". The same commands under real Ctrl-C, in processes of their
own, are ``tests/cli/test_pysat_interrupts.py``.
"""

from __future__ import annotations

import ast
import sys
import threading
from pathlib import Path

import pysat.card
import pysat.solvers
import pytest

from sudokulab.solvers import pysat_guard

from ..conftest import EXAMPLES, dataset, run_cli

PACKAGE = Path(pysat_guard.__file__).resolve().parents[1]
GUARD_FILE = Path(pysat_guard.__file__).resolve()


def pysat_users() -> set[str]:
    """Every module of the package that imports PySAT, by its path under the package (from the source)."""
    found = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            else:
                continue
            if any(name == "pysat" or name.startswith("pysat.") for name in names):
                found.add(path.relative_to(PACKAGE).as_posix())
    return found - {GUARD_FILE.relative_to(PACKAGE).as_posix()}


class Watch:
    """Stands in for the guard in PySAT's modules: for every call PySAT asks about, which module of ours
    made it (the innermost frame of the package outside the guard) and whether the answer let PySAT
    install its handler."""

    def __init__(self, guard: pysat_guard.Guard):
        self.guard = guard
        self.callers: set[str] = set()
        self.with_handler: list[str] = []

    def check(self) -> bool:
        frame = sys._getframe(1)
        caller = "?"
        while frame is not None:
            path = Path(frame.f_code.co_filename)
            if path.is_relative_to(PACKAGE) and path.resolve() != GUARD_FILE:
                caller = f"{path.relative_to(PACKAGE).as_posix()}:{frame.f_code.co_name}"
                break
            frame = frame.f_back
        answer = self.guard.check()
        if threading.current_thread() is threading.main_thread():
            self.callers.add(caller.split(":")[0])
            if answer:
                self.with_handler.append(caller)
        return answer


@pytest.fixture
def watch(monkeypatch) -> Watch:
    if not pysat_guard.longjmp_free():
        pytest.skip("this PySAT has no MainThread to ask: its handler cannot be kept out")
    assert threading.current_thread() is threading.main_thread()  # else PySAT would install nothing anyway
    assert pysat_guard.GUARD.original.check()  # on the main thread PySAT's own answer is "install it"
    watching = Watch(pysat_guard.GUARD)
    monkeypatch.setattr(pysat.solvers, "MainThread", watching)
    monkeypatch.setattr(pysat.card, "MainThread", watching)
    return watching


def test_every_module_that_uses_pysat_keeps_its_handler_out(capsys, tmp_path, watch):
    from sudokulab.core.grid import Shape
    from sudokulab.grading import encoding_grader, formula_worker
    from sudokulab.solvers.sat import engines

    engines.probe_engine.cache_clear()  # probed again under the watch
    sample, answer = str(EXAMPLES / "boj2580-sample.txt"), str(EXAMPLES / "boj2580-sample.out")
    hard = str(dataset("magictour_top1465", 3))
    commands = [
        ["solve", sample, "--solver", "sat"],
        ["solve", sample, "--solver", "sat", "-o", "amo=seqcounter"],
        ["count", sample, "--certify"],
        ["verify", sample, answer],
        ["explain", sample, "--check"],
        ["explain", str(EXAMPLES / "no-solution.txt")],
        ["propagate", "--summary", hard, "--limit", "3", "--quiet"],
        ["rate", hard, "--limit", "2", "--quiet"],
        ["encoding", "show", "--amo", "seqcounter"],
        ["check-encoding", str(PACKAGE / "grading" / "templates" / "encoding_template.py")],
    ]
    for argv in commands:
        code, _, err = run_cli(capsys, *argv)
        assert code in (0, 1), f"{argv}: exit {code}: {err}"
    encoding_grader.reference_grids(Shape(2, 2))
    engines = formula_worker.Engines()  # the grader's solving process, its calls made here
    handle = engines.sat_new([[1, 2], [-1, 2]])
    assert engines.sat_solve(handle, [-2]) is None and engines.sat_propagate(handle, [-2])[0] is False
    engines.sat_close(handle)
    assert watch.with_handler == []
    assert pysat_users() <= watch.callers, f"never seen calling PySAT: {sorted(pysat_users() - watch.callers)}"


def test_a_library_users_own_pysat_calls_keep_pysats_answer():
    """The guard says "no" only inside our calls: outside them PySAT decides as it always did."""
    guard = pysat_guard.GUARD
    if guard is None:
        pytest.skip("this PySAT has no MainThread to ask")
    assert pysat.solvers.MainThread is guard and pysat.card.MainThread is guard
    assert guard.check() is guard.original.check()
    with pysat_guard.without_handler():
        assert guard.check() is False
        with pysat_guard.without_handler():
            assert guard.check() is False
        assert guard.check() is False
    assert guard.depth == 0 and guard.check() is guard.original.check()


def test_a_guarded_engine_answers_as_the_engine_does():
    with pysat_guard.guarded(pysat.solvers.Solver(name="minisat22", bootstrap_with=[[1, 2], [-1, 2]])) as engine:
        assert engine.solve(assumptions=[-2]) is False
        assert engine.solve() is True and 2 in engine.get_model()
        assert engine.propagate(assumptions=[-2])[0] is False
        engine.conf_budget(10)
        assert engine.solve_limited(assumptions=[1]) is True
