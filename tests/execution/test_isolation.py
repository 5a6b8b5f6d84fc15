"""Hostile submissions against the real bubblewrap sandbox: each tries one way out, then answers.

Every program here prints the BOJ sample's correct answer after its attempt (unless the attempt
ends it), so a verdict other than "accepted" comes from the sandbox, and "accepted" means the
attempt changed nothing. After each run: the judge has its report, no process of the program is
left (each carries a marker in its command line, looked for in every /proc/*/cmdline), no file
appeared outside the sandbox, and no secret reached the report. The tests skip, with the reason,
only where bubblewrap cannot run.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest

from sudokulab.datasets.reading import parse_lines
from sudokulab.execution import isolation
from sudokulab.execution.sandbox import Limits
from sudokulab.judge.cases import Outcome
from sudokulab.judge.run import judge_cases

from ..conftest import ROOT

SAMPLE = ROOT / "examples" / "boj2580-sample.txt"
ANSWER = (ROOT / "examples" / "boj2580-sample.out").read_text()

pytestmark = pytest.mark.skipif(isolation.bwrap_problem() is not None,
                                reason=f"bubblewrap cannot run here: {isolation.bwrap_problem()}")

ANSWERS = f"import sys\nsys.stdout.write({ANSWER!r})\n"


FIVE_SECONDS = Limits(seconds=5.0)


def judge_program(tmp_path: Path, source: str, limits: Limits = FIVE_SECONDS) -> tuple:
    """Judge a Python program on the BOJ sample inside bubblewrap: (case, marker)."""
    marker = f"hostile-{uuid.uuid4().hex}"
    program = tmp_path / "submission.py"
    program.write_text(source)
    entries = list(parse_lines(SAMPLE.read_text().splitlines()))
    (case,) = judge_cases(entries, [sys.executable, str(program), marker], limits)
    return case, marker


def survivors(marker: str, seconds: float = 5.0) -> list[int]:
    """Processes whose command line holds the marker, once they had ``seconds`` to go."""
    deadline = time.monotonic() + seconds
    while True:
        found = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    if marker.encode() in (entry / "cmdline").read_bytes():
                        state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
                        if state != "Z":
                            found.append(int(entry.name))
                except OSError:
                    pass
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def report_text(case) -> str:
    run = case.run
    return case.detail + (run.stdout + run.stderr).decode("utf-8", "replace") if run else case.detail


def test_it_cannot_read_files_outside_or_the_judges_environment(tmp_path, monkeypatch):
    secret = tmp_path / "secret.txt"
    secret.write_text("the-grader-secret-42")
    monkeypatch.setenv("SUDOKULAB_TEST_SECRET", "env-secret-43")
    source = f"""
import os, sys
seen = []
paths = ({str(secret)!r}, "/etc/passwd", "/etc/shadow", os.path.expanduser("~/.bashrc"), {str(ROOT / 'README.md')!r})
for path in paths:
    try:
        seen.append(open(path).read()[:40])
    except OSError as exc:
        pass
seen += [k + "=" + v for k, v in os.environ.items()]
print(" ".join(seen))
"""
    case, _ = judge_program(tmp_path, source)
    assert case.outcome is Outcome.WRONG_ANSWER  # it printed what it saw, not an answer
    text = report_text(case)
    assert "the-grader-secret-42" not in text and "env-secret-43" not in text and "root:" not in text
    assert "sudokulab" not in text.lower()  # not even the README next to the grader
    assert set(case.run.stdout.decode().split()) <= {"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/tmp",
                                                     "LANG=C.UTF-8", "PWD=/tmp"}


def test_it_cannot_write_outside_and_its_own_files_vanish(tmp_path):
    outside = tmp_path / "escaped.txt"
    source = f"""
import os
for path in ({str(outside)!r}, os.path.expanduser("~/escaped.txt"), "/escaped.txt", "/usr/escaped.txt"):
    try:
        open(path, "w").write("out")
    except OSError:
        pass
open("inside.txt", "w").write("fine: the sandbox's own /tmp")
{ANSWERS}"""
    case, _ = judge_program(tmp_path, source)
    assert case.outcome is Outcome.ACCEPTED
    assert not outside.exists() and not Path("/escaped.txt").exists() and not Path("/usr/escaped.txt").exists()
    assert not (Path.home() / "escaped.txt").exists()


def test_a_1_gb_file_is_stopped_and_leaves_nothing(tmp_path):
    source = f"""
with open("big.bin", "wb") as f:
    for _ in range(1024):
        f.write(b"x" * (1 << 20))
{ANSWERS}"""
    case, _ = judge_program(tmp_path, source)
    assert case.outcome is Outcome.RUNTIME_ERROR, case.detail
    assert "SIGXFSZ" in case.detail or "No space left" in case.detail or "File too large" in case.detail
    assert os.listdir(tmp_path) == ["submission.py"]  # the program's own file, nothing else


@pytest.mark.slow
def test_no_network_in_or_out(tmp_path):
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    port = server.getsockname()[1]
    accepted = []

    def serve():
        deadline = time.monotonic() + 8
        while time.monotonic() < deadline:
            try:
                accepted.append(server.accept())
            except OSError:
                pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    source = f"""
import socket
reached = []
try:
    socket.create_connection(("127.0.0.1", {port}), timeout=1); reached.append("connect")
except OSError:
    pass
try:
    socket.getaddrinfo("example.com", 80); reached.append("resolve")
except OSError:
    pass
try:
    s = socket.create_server(("0.0.0.0", 0)); reached.append("listen:%d" % s.getsockname()[1])
except OSError:
    pass
print(" ".join(reached))
"""
    case, _ = judge_program(tmp_path, source)
    thread.join()
    server.close()
    out = case.run.stdout.decode()
    assert "connect" not in out and "resolve" not in out and not accepted
    for word in out.split():  # a port it may listen on lives in its own network namespace: unreachable
        if word.startswith("listen:"):
            with pytest.raises(OSError):
                socket.create_connection(("127.0.0.1", int(word.split(":")[1])), timeout=1)


def test_it_cannot_kill_the_judge_or_its_launcher(tmp_path):
    source = f"""
import os, signal
for pid in (os.getppid(), 1, -1):
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass
{ANSWERS}"""
    case, marker = judge_program(tmp_path, source)
    assert case.outcome in (Outcome.ACCEPTED, Outcome.RUNTIME_ERROR)  # the judge lived to say so
    assert not survivors(marker)


def test_a_grandchild_after_setsid_and_a_double_fork_does_not_survive(tmp_path):
    source = f"""
import os, signal, sys, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(60)", sys.argv[1]])
    os._exit(0)
time.sleep(0.2)
try:
    os.kill(os.getppid(), signal.SIGKILL)  # the launcher, as seen from inside
except OSError:
    pass
{ANSWERS}"""
    case, marker = judge_program(tmp_path, source)
    assert case.outcome is Outcome.ACCEPTED
    assert not survivors(marker)


@pytest.mark.slow
def test_a_fork_bomb_is_contained(tmp_path):
    source = """
import os, time
while True:
    try:
        os.fork()
    except OSError:
        time.sleep(0.01)
"""
    case, marker = judge_program(tmp_path, source, Limits(seconds=2.0))
    assert case.outcome in (Outcome.TIME_LIMIT, Outcome.RUNTIME_ERROR, Outcome.MEMORY_LIMIT)
    assert not survivors(marker, seconds=10)


@pytest.mark.slow
def test_a_1_gb_shared_map_with_a_correct_answer_is_not_accepted(tmp_path):
    source = f"""
import mmap
m = mmap.mmap(-1, 1 << 30, flags=mmap.MAP_SHARED)
for i in range(0, 1 << 30, 4096):
    m[i] = 1
{ANSWERS}"""
    case, _ = judge_program(tmp_path, source, Limits(seconds=20.0, memory_mb=256))
    assert case.outcome is Outcome.MEMORY_LIMIT, case.detail


def test_an_honest_program_is_accepted_and_its_peak_is_its_own(tmp_path):
    case, marker = judge_program(tmp_path, "big = bytearray(80 << 20)\n" + ANSWERS)
    assert case.outcome is Outcome.ACCEPTED
    assert 80 * 1024 <= case.run.peak_rss_kb < 256 * 1024
    assert not survivors(marker)


@pytest.mark.slow
def test_judge_refuses_without_bubblewrap_and_warns_when_trusting(tmp_path):
    env = dict(os.environ, PATH=str(tmp_path))  # no bwrap on this PATH
    program = [sys.executable, "-c", ANSWERS]
    refused = subprocess.run([sys.executable, "-m", "sudokulab", "judge", str(SAMPLE), "--", *program],
                             capture_output=True, text=True, env=env, timeout=120)
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.count("\n") == 1 and "bubblewrap" in refused.stderr and "--isolation none" in refused.stderr
    trusted = subprocess.run([sys.executable, "-m", "sudokulab", "judge", str(SAMPLE), "--isolation", "none",
                              "--time-limit", "60", "--", *program],
                             capture_output=True, text=True, env=env, timeout=120)
    assert trusted.returncode == 0, trusted.stderr
    assert trusted.stderr.startswith("sudokulab: warning: --isolation none: the program is trusted")
