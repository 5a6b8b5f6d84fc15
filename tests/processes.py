"""Processes a test starts in a session of their own, and what they leave behind.

One place for what tests of signals, pools and crashed pytest workers all need: a command's children as
/proc lists them, whether a process still runs (a zombie does not), and a guarantee that nothing a test
started outlives it, whatever the test asserted.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

PROC_CHILDREN = Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children").exists()
needs_proc_children = pytest.mark.skipif(not PROC_CHILDREN,
                                         reason="reads the process tree from /proc (Linux, CONFIG_PROC_CHILDREN)")


def children(pid: int) -> list[int]:
    """The process ids of ``pid``'s children, whichever of its threads started them (a local Dask
    cluster's workers come from its event-loop thread); none once it has gone."""
    found = []
    for task in sorted(Path(f"/proc/{pid}/task").glob("*")) if Path(f"/proc/{pid}/task").exists() else ():
        try:
            found += [int(p) for p in (task / "children").read_text().split()]
        except OSError:  # the thread ended meanwhile
            continue
    return found


def running(pid: int) -> bool:
    """Alive and not a zombie waiting for its reaper."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def wait_for_children(process: subprocess.Popen, count: int, within: float = 60.0) -> list[int]:
    """``process``'s children once it has ``count`` of them (a pool's workers and its resource tracker);
    fails the test if it has fewer after ``within`` seconds."""
    found: list[int] = []
    deadline = time.monotonic() + within
    while len(found) < count and time.monotonic() < deadline:
        time.sleep(0.2)
        found = children(process.pid)
    assert len(found) >= count, f"the pool did not start: children {found}"
    return found


def survivors(pids: list[int], within: float = 60.0) -> list[int]:
    """Those of ``pids`` still running after up to ``within`` seconds (none: every one ended)."""
    deadline = time.monotonic() + within
    while any(map(running, pids)) and time.monotonic() < deadline:
        time.sleep(0.2)
    return [pid for pid in pids if running(pid)]


@contextlib.contextmanager
def cleaned_up(process: subprocess.Popen, left: list[int] | None = None) -> Iterator[list[int]]:
    """Kill whatever of ``process`` (started with ``start_new_session=True``) and ``left`` (a list the
    body fills with pids) still runs when the body ends, so a failed assertion leaves no process behind."""
    left = [] if left is None else left
    try:
        yield left
    finally:
        if process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(5)
        for pid in left:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
