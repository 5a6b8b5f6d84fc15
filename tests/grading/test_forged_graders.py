"""Graders a student cannot forge: each forgery a student's file can try, run through the real command
(``python -m sudokulab check-solver`` / ``check-encoding``, text and ``--json``) inside real bubblewrap.

Each forgery is written here into tmp_path on top of an honest fixture whose verdicts are known
(``tests/fixtures/students``, the templates): the verdict must be that fixture's honest one where
its code is honest, a failure naming the call and what happened where it is not, and never exit 0.
"""

from __future__ import annotations

import json
import os
import select
import socket
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from sudokulab.execution.isolation import bwrap_problem
from sudokulab.formats import documents
from sudokulab.grading.templates import text as template_text

from ..conftest import FIXTURES

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(bwrap_problem() is not None, reason=f"bubblewrap cannot run here: {bwrap_problem()}"),
]

STUDENTS = FIXTURES / "students"
BROKEN_SOLVER = (STUDENTS / "broken_solver.py").read_text()
"""LargestFirst: honestly 10 passed, 2 failed (canonical_empty_boards, random_puzzles)."""
BROKEN_SOLVER_FAILS = {"canonical_empty_boards", "random_puzzles"}
MISSING_BOX = (STUDENTS / "missing_box.py").read_text()
"""Honestly 4 failed, size passed."""
SOLVER_CHECKS = 12
ENCODING_CHECKS = ("empty-4x4", "unsatisfiable", "answers", "propagation", "size")


def grade(command: str, target: str, *options: str, as_json: bool, timeout: float = 240) -> tuple[int, dict]:
    """The real command in a process of its own: (exit code, {check: (status, reason)}), the output checked."""
    words = [sys.executable, "-m", "sudokulab", command, target, *options] + (["--json"] if as_json else [])
    done = subprocess.run(words, capture_output=True, text=True, timeout=timeout)
    if as_json:
        document = json.loads(done.stdout)
        documents.validate(command, document)
        assert document["exit"] == done.returncode and document["ok"] == (done.returncode == 0)
        checks = {c["check"]: (c["status"], c["reason"]) for c in document["checks"]}
    else:
        lines = done.stdout.splitlines()
        assert lines[0].startswith(f"{command} {target}"), done.stdout
        checks = {}
        name = ""
        for line in lines[1:-1]:  # a header, a rule, then a row per check (a long reason goes on indented)
            if not line.strip() or set(line.strip()) == {"─"} or line.split()[:2] == ["status", "check"]:
                continue
            if line[0].isspace() and name:
                status, reason = checks[name]
                checks[name] = (status, f"{reason} {line.strip()}")
                continue
            status, name, *rest = line.split(None, 2)
            checks[name] = (status, rest[0] if rest else "")
        failed = sum(1 for status, _ in checks.values() if status == "failed")
        assert f"{failed} failed" in lines[-1] if failed else "failed" not in lines[-1], done.stdout
    assert done.returncode in (0, 1, 2), done.stderr
    if done.returncode == 1 and "--isolation" not in options:
        assert done.stderr.endswith("checks failed\n") and done.stderr.count("\n") == 1, done.stderr
    return done.returncode, checks


def write(tmp_path: Path, name: str, source: str) -> Path:
    folder = tmp_path / "student"
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.write_text(source)
    return path


JSON = pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])


# --- Forging the verdict from inside the grader's process. ---------------------------------------------

@JSON
def test_replacing_contract_run_changes_nothing(tmp_path, as_json):
    forged = write(tmp_path, "forged.py", (
        "import sudokulab.grading.contract as contract\n"
        "contract.run = lambda solver, baseline=None: [contract.Outcome(c.name, 'passed', '', c.summary)\n"
        "                                              for c in contract.CHECKS]\n") + BROKEN_SOLVER)
    code, checks = grade("check-solver", f"{forged}:LargestFirst", as_json=as_json)
    assert code == 1
    assert {name for name, (status, _) in checks.items() if status == "failed"} == BROKEN_SOLVER_FAILS
    assert len(checks) == SOLVER_CHECKS


@JSON
def test_replacing_the_encoding_checks_changes_nothing(tmp_path, as_json):
    forged = write(tmp_path, "forged.py", (
        "import sudokulab.grading.encoding_grader as grader\n"
        "grader.CHECKS = tuple((name, lambda model, name=name: grader.Finding(name, 'passed', 'fine'))\n"
        "                      for name in ('empty-4x4', 'unsatisfiable', 'answers', 'propagation', 'size'))\n"
        "grader.grade = lambda *args: [grader.Finding(n, 'passed', 'fine') for n, _ in grader.CHECKS]\n")
        + MISSING_BOX)
    code, checks = grade("check-encoding", str(forged), as_json=as_json)
    assert code == 1
    assert [checks[name][0] for name in ENCODING_CHECKS] == ["failed"] * 4 + ["passed"]
    assert checks["empty-4x4"][1].startswith("576 models on the empty 4x4 board")


@JSON
def test_a_fake_report_then_os_exit_at_import_fails_every_check(tmp_path, as_json):
    forged = write(tmp_path, "forged.py", (
        "import os, sys\n"
        "print('check-encoding forged.py (SAT encoding: encode/decode)\\n5 passed')\n"
        "print('{\"student\": \"forged.py\", \"kind\": \"sat\", \"ok\": true, \"exit\": 0, \"checks\": []}')\n"
        "sys.stdout.flush()\n"
        "os._exit(0)\n") + template_text("sat"))
    code, checks = grade("check-encoding", str(forged), as_json=as_json)
    assert code == 1 and set(checks) == set(ENCODING_CHECKS)
    for status, reason in checks.values():
        assert status == "failed"
        assert reason.startswith(f"importing {forged}: the student's process ended with exit code 0"), reason


@JSON
def test_a_fake_report_then_os_exit_in_solve_fails_the_checks_that_call_it(tmp_path, as_json):
    """Only on 4x4 boards: the worker is started again after each failure, so the checks on other
    sizes keep their honest verdicts."""
    forged = write(tmp_path, "forged.py", BROKEN_SOLVER + (
        "\n\nimport os\n\n\n"
        "class Forged(LargestFirst):\n"
        "    def solve(self, puzzle, **options):\n"
        "        if puzzle.n == 4:\n"
        "            print('12 passed', flush=True)\n"
        "            os._exit(0)\n"
        "        return super().solve(puzzle, **options)\n"))
    code, checks = grade("check-solver", f"{forged}:Forged", as_json=as_json)
    assert code == 1
    assert checks["protocol"][0] == checks["boj_sample"][0] == "passed"
    status, reason = checks["canonical_empty_boards"]
    assert status == "failed" and reason.startswith("solve() of a 4x4 puzzle: the student's process ended with "
                                                    "exit code 0"), reason
    assert checks["no_solution"][0] == "failed"  # its first puzzle is a 4x4


# --- sys.exit, and a loop that never ends. ---------------------------------------------------------------

@JSON
def test_sys_exit_at_import_fails_every_check(tmp_path, as_json):
    forged = write(tmp_path, "forged.py", "import sys\nsys.exit(0)\n" + template_text("sat"))
    code, checks = grade("check-encoding", str(forged), as_json=as_json)
    assert code == 1 and set(checks) == set(ENCODING_CHECKS)
    assert all(status == "failed" and "called sys.exit(0)" in reason for status, reason in checks.values())


@JSON
def test_sys_exit_in_encode_fails_the_checks_that_call_it(tmp_path, as_json):
    forged = write(tmp_path, "forged.py", template_text("sat") + (
        "\n\n_honest = encode\n\n\n"
        "def encode(puzzle):\n"
        "    import sys\n"
        "    if puzzle.n == 4:\n"
        "        sys.exit(0)\n"
        "    return _honest(puzzle)\n"))
    code, checks = grade("check-encoding", str(forged), as_json=as_json)
    assert code == 1
    for name in ("empty-4x4", "unsatisfiable", "answers"):  # each asks a 4x4 first
        assert checks[name] == ("failed", "encode() of a 4x4 puzzle: the student's code called sys.exit(0): a "
                                "grader's call must return")
    assert checks["propagation"][0] == checks["size"][0] == "passed"  # 9x9 only: honest, and honestly passed


@JSON
def test_sys_exit_in_solve_fails_the_checks_that_call_it(tmp_path, as_json):
    forged = write(tmp_path, "forged.py", BROKEN_SOLVER + (
        "\n\nimport sys\n\n\n"
        "class Forged(LargestFirst):\n"
        "    def solve(self, puzzle, **options):\n"
        "        if puzzle.n == 4:\n"
        "            sys.exit(0)\n"
        "        return super().solve(puzzle, **options)\n"))
    code, checks = grade("check-solver", f"{forged}:Forged", as_json=as_json)
    assert code == 1
    assert checks["boj_sample"][0] == checks["tiny_time_limit"][0] == "passed"
    assert checks["canonical_empty_boards"] == ("failed", "solve() of a 4x4 puzzle: the student's code called "
                                                          "sys.exit(0): a grader's call must return")


@JSON
def test_an_endless_loop_at_import_ends_at_the_time_limit(tmp_path, as_json):
    forged = write(tmp_path, "forged.py", "while True:\n    pass\n")
    code, checks = grade("check-encoding", str(forged), "--time-limit", "2", as_json=as_json)
    assert code == 1 and set(checks) == set(ENCODING_CHECKS)
    assert all(reason == f"importing {forged}: no answer within the time limit of 2 s per call (--time-limit)"
               for _, reason in checks.values())


@JSON
def test_garbage_on_the_channel_is_a_failure(tmp_path, as_json):
    """The student's code finds the grader's channel and writes on it: what comes is no answer."""
    forged = write(tmp_path, "forged.py", BROKEN_SOLVER + (
        "\n\nimport os\n\n\n"
        "class Forged(LargestFirst):\n"
        "    def solve(self, puzzle, **options):\n"
        "        if puzzle.n == 4:\n"
        "            for fd in range(3, 20):\n"
        "                try:\n"
        "                    os.write(fd, b'12 passed\\n')\n"
        "                except OSError:\n"
        "                    pass\n"
        "        return super().solve(puzzle, **options)\n"))
    code, checks = grade("check-solver", f"{forged}:Forged", as_json=as_json)
    assert code == 1
    status, reason = checks["canonical_empty_boards"]
    assert status == "failed" and "garbage on the grader's channel" in reason, reason
    assert checks["boj_sample"][0] == "passed"


# --- Reaching the teacher's machine. ---------------------------------------------------------------------

def attempt_at_import(what: str) -> str:
    """A solver (the template's) that tries ``what`` at import and says how it went in every solve."""
    return template_text("solver") + (
        "\n\ntry:\n" + "".join(f"    {line}\n" for line in what.splitlines()) +
        "    OUTCOME = 'it worked'\n"
        "except Exception as exc:\n"
        "    OUTCOME = f'denied: {exc}'\n\n\n"
        "class Attempt(StudentSolver):\n"
        "    def solve(self, puzzle, **options):\n"
        "        raise RuntimeError(OUTCOME)\n")


def outcome(checks: dict) -> str:
    status, reason = checks["boj_sample"]
    assert status == "failed" and reason.startswith("raised RuntimeError: "), reason
    return reason.removeprefix("raised RuntimeError: ")


@JSON
def test_a_teachers_file_cannot_be_read(tmp_path, as_json):
    secret = tmp_path / "teacher" / "answers.txt"
    secret.parent.mkdir()
    secret.write_text("the teacher's secret")
    forged = write(tmp_path, "forged.py", attempt_at_import(f"SEEN = open({str(secret)!r}).read()\n"
                                                            "raise RuntimeError('read: ' + SEEN)"))
    code, checks = grade("check-solver", f"{forged}:Attempt", as_json=as_json)
    assert code == 1
    said = outcome(checks)
    assert said.startswith("denied: [Errno 2] No such file or directory"), said
    assert "secret" not in json.dumps(checks)


@JSON
def test_no_connection_reaches_a_listening_socket_on_the_loopback(tmp_path, as_json):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        port = listener.getsockname()[1]
        forged = write(tmp_path, "forged.py", attempt_at_import(
            f"import socket\nsocket.create_connection(('127.0.0.1', {port}), timeout=2).sendall(b'hello')"))
        code, checks = grade("check-solver", f"{forged}:Attempt", as_json=as_json)
        readable, _, _ = select.select([listener], [], [], 0)
    assert code == 1 and not readable  # no connection is waiting to be accepted
    assert outcome(checks).startswith("denied: [Errno"), checks["boj_sample"]


@JSON
def test_nothing_is_written_into_the_home_folder(tmp_path, as_json):
    home = Path(os.path.expanduser("~"))
    planted = home / f"sudokulab-forged-{uuid.uuid4().hex}.txt"
    forged = write(tmp_path, "forged.py", attempt_at_import(f"open({str(planted)!r}, 'w').write('forged')"))
    try:
        code, checks = grade("check-solver", f"{forged}:Attempt", as_json=as_json)
        assert code == 1 and not planted.exists()  # inside, it may have written into the sandbox's own root
        assert outcome(checks)
    finally:
        planted.unlink(missing_ok=True)


# --- The limits' options, and trusting a file. -------------------------------------------------------------

def test_isolation_none_warns_and_grades_as_before(tmp_path):
    path = write(tmp_path, "mine.py", template_text("solver"))
    done = subprocess.run([sys.executable, "-m", "sudokulab", "check-solver", f"{path}:StudentSolver",
                           "--isolation", "none"], capture_output=True, text=True, timeout=240)
    assert done.returncode == 0 and done.stdout.endswith("12 passed\n")
    assert done.stderr.startswith("sudokulab: warning: --isolation none: the student's file is trusted")


# --- A crash, the memory limit, and what crosses the channel. ------------------------------------------------

def test_a_signal_and_the_memory_limit_are_failures_named_by_the_call(tmp_path):
    forged = write(tmp_path, "forged.py", BROKEN_SOLVER + (
        "\n\nimport os, signal\n\n\n"
        "class Forged(LargestFirst):\n"
        "    def solve(self, puzzle, **options):\n"
        "        if puzzle.n == 4:\n"
        "            os.kill(os.getpid(), signal.SIGSEGV)\n"
        "        return super().solve(puzzle, **options)\n\n"
        "    def count(self, puzzle, **options):\n"
        "        hoard = bytearray(400 << 20)\n"
        "        return super().count(puzzle, **options)\n"))
    code, checks = grade("check-solver", f"{forged}:Forged", "--memory-limit", "300", as_json=True)
    assert code == 1 and checks["boj_sample"][0] == "passed"
    status, reason = checks["canonical_empty_boards"]
    assert status == "failed" and reason.startswith("solve() of a 4x4 puzzle: the student's process was killed by "
                                                    "SIGSEGV without answering"), reason
    # a MemoryError inside the student's code, or the memory group's kill first: either is named by the limit
    status, reason = checks["counting"]
    assert status == "failed" and reason in (
        "count() of a 4x4 puzzle: ran out of memory (the limit is 300 MB, --memory-limit)",
        "count() of a 4x4 puzzle: the student's process passed the memory limit of 300 MB (--memory-limit) "
        "without answering; its last words: 'Killed'") or reason.startswith(
        "count() of a 4x4 puzzle: the student's process passed the memory limit of 300 MB (--memory-limit)"), reason

