"""A grader's process (``execution.capped_process``): found and ended whole, even what left its session.

A grader is trusted code, but it runs beside a student's files; the test stands for one that was
made to misbehave: it starts a process that calls ``setsid``, closes every descriptor and waits
to act after the grader is gone. Ended by its process group, that process outlived the run; in
the grader's PID namespace it goes with the grader.
"""

from __future__ import annotations

import os
import signal
import sys
import time
import uuid

import pytest

from sudokulab.execution import capped_process

needs_namespace = pytest.mark.skipif(not capped_process.pid_namespace(),
                                     reason="no PID namespace for graders here (util-linux unshare)")

LEFT_BEHIND = """
import os, sys, time
marker = sys.argv[1]
if os.fork() == 0:
    os.setsid()
    for fd in range(3):
        os.close(fd)
    time.sleep(3)
    open(marker, "w").write("still here")
    os._exit(0)
print("done", flush=True)
"""


@needs_namespace
def test_a_process_that_left_the_graders_session_is_ended_with_it(tmp_path):
    marker = tmp_path / f"left-{uuid.uuid4().hex}"
    ended = capped_process.run_capped([sys.executable, "-c", LEFT_BEHIND, str(marker)], tmp_path, 60.0)
    assert (ended.returncode, ended.stdout) == (0, b"done\n")
    time.sleep(5)  # longer than it waits before it writes
    assert not marker.exists()


@needs_namespace
def test_a_grader_ended_at_its_cap_keeps_its_own_status_and_leaves_nothing(tmp_path):
    marker = tmp_path / f"left-{uuid.uuid4().hex}"
    script = LEFT_BEHIND.replace('print("done", flush=True)', 'print("done", flush=True)\ntime.sleep(60)')
    started = time.monotonic()
    ended = capped_process.run_capped([sys.executable, "-c", script, str(marker)], tmp_path, 1.0)
    assert ended.timed_out and ended.returncode == -signal.SIGTERM and ended.stdout == b"done\n"
    assert time.monotonic() - started < 30
    time.sleep(5)
    assert not marker.exists()


def test_the_grader_starts_in_the_folder_it_is_given_with_its_environment(tmp_path):
    ended = capped_process.run_capped([sys.executable, "-c", "import os; print(os.getcwd(), os.environ['MINE'])"],
                                      tmp_path, 60.0, env={**os.environ, "MINE": "yes"})
    assert ended.returncode == 0 and ended.stdout.decode().split() == [str(tmp_path), "yes"]
