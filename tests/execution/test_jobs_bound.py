"""``--jobs`` is bounded by the machine: ``--jobs 100000`` is cut with one line, and Ctrl-C while the
pool's workers start ends the command at once (once, every worker had to start first: 1,700 of them,
a load of 106, and only SIGKILL stopped it)."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time

import pytest

from sudokulab.execution.executors import JOBS_PER_CPU, max_jobs
from tests.conftest import EXAMPLES

from ..processes import needs_proc_children, survivors, wait_for_children

QUICK = 10.0
"""Seconds within which Ctrl-C must have ended the command: what it tells apart is at once (a tenth
of a second here) from after every one of 100,000 workers has started (minutes)."""


def test_max_jobs_is_a_few_per_cpu():
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert max_jobs() == JOBS_PER_CPU * cpus


@pytest.mark.slow
@needs_proc_children
def test_jobs_100000_is_cut_with_one_line_and_ctrl_c_while_the_workers_start_exits_130():
    command = [sys.executable, "-m", "sudokulab", "bench", str(EXAMPLES / "boj2580-sample.txt"), "--solvers",
               "backtrack", "--jobs", "100000"]
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               text=True, start_new_session=True)
    lines: queue.Queue = queue.Queue()
    reader = threading.Thread(target=lambda: [lines.put(line) for line in process.stderr], daemon=True)
    reader.start()
    try:
        first = lines.get(timeout=60)
        assert first == f"sudokulab: note: --jobs 100000 cut to {max_jobs()}, {JOBS_PER_CPU} per CPU of this machine\n"
        workers = wait_for_children(process, 1)  # the pool is starting its workers
        sent = time.monotonic()
        process.send_signal(signal.SIGINT)
        process.wait(timeout=120)
        assert process.returncode == 130 and time.monotonic() - sent < QUICK
        reader.join(timeout=60)  # every line read, to the end of the stream
        rest = []
        while not lines.empty():
            rest.append(lines.get())
        assert rest == ["sudokulab: interrupted\n"]
        assert survivors(workers) == []
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
