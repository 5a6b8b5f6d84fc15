"""Ctrl-C, over and over, into the commands that call PySAT outside the ``sat`` solver: never a traceback,
never a crash.

Before ``solvers/pysat_guard.py`` the failed-literal engine of ``propagate --summary`` (and every
other PySAT call made for reasoning, proofs and the oracle) ran with PySAT's own SIGINT handler, and a
Ctrl-C there ended in ``pysolvers.error: Caught keyboard interrupt`` with a traceback, after a
``longjmp`` out of the engine. Each command here is started in a session of its own; once PySAT's
extension is loaded (the marker: ``pysolvers`` in the process's memory map) the whole group gets
SIGINT, as a terminal's Ctrl-C sends it, after a delay drawn from a seeded generator. Which engine
call each one lands in varies; what may not vary is the ending. Which calls run without the handler
is ``tests/solvers/test_pysat_guard.py``.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import time
from pathlib import Path

import pytest

from ..conftest import dataset
from .test_signals import sudokulab

RUNS = 4
"""Signals per command, each at its own delay."""


def loaded(process: subprocess.Popen, library: str = "pysolvers", within: float = 120.0) -> bool:
    """Wait until ``library`` is in the process's memory map; False if it ended first."""
    maps = Path(f"/proc/{process.pid}/maps")
    deadline = time.monotonic() + within
    while process.poll() is None and time.monotonic() < deadline:
        try:
            if library in maps.read_text():
                return True
        except (FileNotFoundError, ProcessLookupError):
            break
        time.sleep(0.02)
    return False


@pytest.fixture(scope="module")
def unique16(tmp_path_factory) -> tuple[Path, Path]:
    """A 16x16 puzzle with one solution, and its answer: certifying it checks thousands of lemmas."""
    folder = tmp_path_factory.mktemp("unique16")
    puzzle, answer = folder / "puzzle.txt", folder / "answer.txt"
    made = subprocess.run(sudokulab() + ["generate", "--size", "16", "--unique", "--seed", "1", "--count", "1",
                                         "--quiet", "--output", str(puzzle)], capture_output=True, timeout=300)
    assert made.returncode == 0, made.stderr
    solved = subprocess.run(sudokulab() + ["solve", str(puzzle)], capture_output=True, timeout=300)
    assert solved.returncode == 0, solved.stderr
    answer.write_bytes(solved.stdout)
    return puzzle, answer


def commands(unique16: tuple[Path, Path], folder: Path) -> dict[str, list[str]]:
    hard = dataset("magictour_top1465", 60)
    first = folder / "first.txt"  # explain takes one puzzle: the set's first
    first.write_text(hard.read_text().splitlines()[0] + "\n")
    puzzle, answer = map(str, unique16)
    return {
        "propagate --summary": ["propagate", "--summary", str(hard), "--quiet"],
        "explain": ["explain", str(first), "--check"],
        "rate": ["rate", str(hard), "--limit", "60", "--quiet"],
        "count --certify": ["count", puzzle, "--certify"],
        "verify": ["verify", puzzle, answer, "--certify"],
    }


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="reads /proc to see PySAT loaded")
@pytest.mark.parametrize("name", ["propagate --summary", "explain", "rate", "count --certify", "verify"])
def test_ctrl_c_into_pysat_calls_ends_the_run_cleanly(tmp_path, unique16, name):
    argv = commands(unique16, tmp_path)[name]
    rng = random.Random(f"pysat-interrupts:{name}")
    endings = []
    for _ in range(RUNS):
        at = rng.uniform(0.0, 0.8)
        process = subprocess.Popen(sudokulab() + argv, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   start_new_session=True)
        try:
            if loaded(process):
                time.sleep(at)
                try:
                    os.killpg(process.pid, signal.SIGINT)
                except ProcessLookupError:
                    pass
            _, err_bytes = process.communicate(timeout=300)
        finally:
            if process.poll() is None:
                process.kill()
                process.communicate()
        err = err_bytes.decode(errors="replace")
        assert "Traceback" not in err and "pysolvers" not in err and "Error" not in err, \
            f"{name}, SIGINT {at:.2f} s after PySAT loaded:\n{err[-3000:]}"
        assert process.returncode in (0, 1, 130), f"{name}, SIGINT at {at:.2f} s: exit {process.returncode}\n{err}"
        if process.returncode == 130:
            assert err.endswith("sudokulab: interrupted\n"), err
        endings.append(process.returncode)
    assert 130 in endings, f"{name}: no signal landed before the command ended ({endings})"
