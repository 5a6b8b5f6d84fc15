"""The graders' own work has limits, and the teacher decides what a student's code may import.

``check-encoding`` solves a student's formula with its own engines, in a sandboxed worker of their
own (``grading.formula_worker``): a pigeonhole formula, which keeps CaDiCaL busy far longer than any
test, ends at the time limit, and SIGTERM or Ctrl-C ends the command at once. ``check-solver``'s
checks each end at their own limit however many calls they make. A "solver" that subclasses the
package's own ``DlxSolver`` is named in the report, and refused with ``--refuse-library-solvers``
even when it removes the refusal's import hook. Real commands, real bubblewrap.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sudokulab.execution.isolation import bwrap_problem
from sudokulab.formats import documents

from ..processes import children, running

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(bwrap_problem() is not None, reason=f"bubblewrap cannot run here: {bwrap_problem()}"),
]

PIGEONHOLE = '''"""A pigeonhole formula handed in as an encoding: 14 pigeons in 13 holes, far beyond a CDCL engine."""
PIGEONS, HOLES = 14, 13


def encode(puzzle):
    def var(p, h):
        return p * HOLES + h + 1
    clauses = [[var(p, h) for h in range(HOLES)] for p in range(PIGEONS)]
    return clauses + [[-var(p, h), -var(q, h)] for h in range(HOLES) for p in range(PIGEONS) for q in range(p)]


def decode(model, puzzle):
    return [1] * (puzzle.n * puzzle.n)
'''

QUICK = 10.0
"""Seconds within which a stopped command must have ended. What it tells apart: a signal taken at
once (a tenth of a second here) from one held until CaDiCaL's call returns (hours on this formula)."""


def sudokulab(*arguments: str, timeout: float = 240) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sudokulab", *arguments], capture_output=True, text=True,
                          timeout=timeout)


def test_a_pigeonhole_formula_ends_at_the_time_limit_check_by_check(tmp_path):
    student = tmp_path / "php.py"
    student.write_text(PIGEONHOLE)
    started = time.monotonic()
    done = sudokulab("check-encoding", str(student), "--time-limit", "2", "--json", timeout=180)
    document = json.loads(done.stdout)
    documents.validate("check-encoding", document)
    checks = {c["check"]: (c["status"], c["reason"]) for c in document["checks"]}
    assert done.returncode == 1 and time.monotonic() - started < 150
    for name in ("empty-4x4", "unsatisfiable", "answers", "propagation"):
        status, reason = checks[name]
        assert status == "failed" and "within the time limit of 2 s per call (--time-limit)" in reason, checks
        assert reason.startswith(("solving your formula of", "propagating your formula of")), reason
    assert checks["size"][0] == "passed"


@pytest.mark.parametrize("signum, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_sigterm_and_ctrl_c_end_check_encoding_at_once_while_its_engine_works(tmp_path, signum, code):
    student = tmp_path / "php.py"
    student.write_text(PIGEONHOLE)
    process = subprocess.Popen([sys.executable, "-m", "sudokulab", "check-encoding", str(student), "--time-limit",
                                "600"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        engine = wait_for_engine(process)
        sent = time.monotonic()
        process.send_signal(signum)
        _, err = process.communicate(timeout=120)
        assert process.returncode == code and time.monotonic() - sent < QUICK, err
        assert err.decode().count("\n") == 1
        deadline = time.monotonic() + 30
        while engine and running(engine) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not engine or not running(engine)
    finally:
        if process.poll() is None:
            import os

            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def wait_for_engine(process: subprocess.Popen, within: float = 120.0) -> int | None:
    """The grader's engine process once it has worked on the formula a few seconds (its CPU time),
    or None when none appears (a grader that solves in its own process): then after 15 s anyway."""
    deadline = time.monotonic() + within
    started = time.monotonic()
    while time.monotonic() < deadline:
        for pid in descendants(process.pid):
            try:
                words = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if b"sudokulab.grading.formula_worker" in words and int(fields[11]) > 200:  # utime: 2 s of CPU
                return pid
        if time.monotonic() - started > 15 and not any(
                b"formula_worker" in Path(f"/proc/{pid}/cmdline").read_bytes() for pid in descendants(process.pid)
                if Path(f"/proc/{pid}/cmdline").exists()):
            return None
        time.sleep(0.2)
    pytest.fail("the grader's engine never got to work")


def descendants(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        for child in children(current):
            found.append(child)
            todo.append(child)
    return found


SLOW_SOLVER = '''
import time

from sudokulab.grading.templates.solver_template import StudentSolver as Template


class StudentSolver(Template):
    """The template, a second and a half per solve: each call within its own limit, a check's calls not."""

    def solve(self, puzzle, **options):
        time.sleep(1.5)
        return super().solve(puzzle, **options)
'''


def test_each_check_of_check_solver_ends_at_its_own_limit_whatever_its_calls_take(tmp_path):
    student = tmp_path / "slow.py"
    student.write_text(SLOW_SOLVER)
    done = sudokulab("check-solver", f"{student}:StudentSolver", "--time-limit", "4", "--check-time-limit", "2.5",
                     "--json", timeout=400)
    document = json.loads(done.stdout)
    documents.validate("check-solver", document)
    checks = {c["check"]: (c["status"], c["reason"]) for c in document["checks"]}
    assert done.returncode == 1
    assert checks["boj_sample"][0] == "passed"  # one solve: within the check's limit
    status, reason = checks["other_board_sizes"]  # six solves: not
    assert status == "failed" and "the check's time limit of 2.5 s (--check-time-limit)" in reason, reason


DLX_STUDENT = '''
from sudokulab.solvers.exact_cover.solver import DlxSolver


class StudentSolver(DlxSolver):
    name = "student"
'''

SNEAKY_STUDENT = '''
import sys

sys.meta_path[:] = [finder for finder in sys.meta_path if type(finder).__name__ != "RefusedSolvers"]
from sudokulab.solvers.exact_cover.solver import DlxSolver  # noqa: E402


class StudentSolver(DlxSolver):
    name = "student"
'''


def test_a_solver_that_subclasses_dlx_is_named_and_refused_when_the_teacher_says_so(tmp_path):
    student = tmp_path / "mine.py"
    student.write_text(DLX_STUDENT)
    done = sudokulab("check-solver", f"{student}:StudentSolver", "--json")
    document = json.loads(done.stdout)
    documents.validate("check-solver", document)
    assert done.returncode == 0 and document["library_solvers"] == ["exact_cover"]
    text = sudokulab("check-solver", f"{student}:StudentSolver").stdout
    assert "imports sudokulab's own solvers: exact_cover (give --refuse-library-solvers to refuse them)" in text
    for source in (DLX_STUDENT, SNEAKY_STUDENT):
        student.write_text(source)
        refused = sudokulab("check-solver", f"{student}:StudentSolver", "--refuse-library-solvers")
        assert refused.returncode == 2 and refused.stdout == "" and refused.stderr.count("\n") == 1, refused.stderr
        assert "cannot import it: ModuleNotFoundError" in refused.stderr and "exact_cover" in refused.stderr
