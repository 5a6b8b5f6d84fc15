"""Runs ended by a signal lose nothing: SIGTERM and SIGHUP end a run as Ctrl-C does, SIGKILL's leftovers
are cleaned by the next run, and two runs never write one output at once.

Each case starts the real command in a session of its own, sends the signal at a point drawn from
a seeded generator (so a failure names its point and repeats), to the process or to its whole
process group as a closed terminal does, and then looks at what is left: the exit code, stderr,
the target (whole or absent) and any ``.part`` file.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "examples" / "puzzles-20.txt"
COUNT = 3000  # generate: far more than a few seconds make


def sudokulab(*args: str) -> list[str]:
    script = Path(sys.executable).parent / "sudokulab"
    return [str(script)] if script.exists() else [sys.executable, "-c", "from sudokulab.cli import run; run()"]


def start(args: list[str], cwd: Path) -> subprocess.Popen:
    return subprocess.Popen(sudokulab() + args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)


def send(process: subprocess.Popen, signum: int, whole_group: bool) -> tuple[int, str]:
    try:
        if whole_group:
            os.killpg(process.pid, signum)
        else:
            process.send_signal(signum)
    except ProcessLookupError:
        pass
    _, err = process.communicate(timeout=120)
    return process.returncode, err.decode()


def parts(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".part"))


@pytest.fixture
def big(tmp_path) -> Path:
    path = tmp_path / "big.txt"
    path.write_text(PUZZLES.read_text() * 5000)  # 100,000 puzzles: tens of seconds, so every signal lands mid-run
    return path


CASES = [(command, signum, group, jobs, seed)
         for seed, (command, signum, group, jobs) in enumerate([
             ("bench", signal.SIGTERM, False, 1), ("bench", signal.SIGHUP, True, 1),
             ("bench", signal.SIGTERM, True, 2), ("bench", signal.SIGHUP, False, 2),
             ("generate", signal.SIGTERM, False, 1), ("generate", signal.SIGHUP, True, 1),
         ])]


@pytest.mark.parametrize("command, signum, group, jobs, seed", CASES,
                         ids=[f"{c}-{signal.Signals(s).name}-{'group' if g else 'process'}-jobs{j}"
                              for c, s, g, j, _ in CASES])
def test_sigterm_and_sighup_end_a_run_as_ctrl_c_does(tmp_path, big, command, signum, group, jobs, seed):
    at = random.Random(seed).uniform(0.5, 2.5)
    if command == "bench":
        targets = [tmp_path / "rows.csv", tmp_path / "rows.jsonl"]
        args = ["bench", str(big), "--solvers", "backtrack", "--jobs", str(jobs), "--quiet",
                "--output", str(targets[0]), "--output", str(targets[1])]
    else:
        targets = [tmp_path / "puzzles.txt"]
        args = ["generate", "--size", "9", "--count", str(COUNT), "--unique", "--seed", "1", "--quiet",
                "--output", str(targets[0])]
    process = start(args, tmp_path)
    time.sleep(at)
    code, err = send(process, signum, group)
    assert "Traceback" not in err and "Warning" not in err, f"signal at {at:.2f} s:\n{err}"
    assert code == 128 + signum, f"signal at {at:.2f} s: exit {code}\n{err}"  # it was still running
    assert err == f"sudokulab: {'terminated' if signum == signal.SIGTERM else 'hung up'}\n"
    assert not any(target.exists() for target in targets)
    assert parts(tmp_path) == []


@pytest.mark.parametrize("command", ["bench", "generate"])
def test_after_sigkill_the_next_run_cleans_up_and_writes_whole(tmp_path, big, command):
    target = tmp_path / ("rows.csv" if command == "bench" else "puzzles.txt")
    if command == "bench":
        args = ["bench", str(big), "--solvers", "backtrack", "--quiet", "--output", str(target)]
        again = ["bench", str(PUZZLES), "--solvers", "backtrack", "--quiet", "--output", str(target)]
    else:
        args = ["generate", "--size", "9", "--count", str(COUNT), "--seed", "1", "--quiet", "--output", str(target)]
        again = ["generate", "--size", "4", "--count", "3", "--seed", "1", "--quiet", "--output", str(target)]
    process = start(args, tmp_path)
    time.sleep(1.5)
    code, _ = send(process, signal.SIGKILL, True)
    assert code == -signal.SIGKILL
    assert len(parts(tmp_path)) == 1 and not target.exists()  # what SIGKILL leaves: nothing can run then
    done = subprocess.run(sudokulab() + again, cwd=tmp_path, capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert parts(tmp_path) == [] and target.exists()
    if command == "generate":
        assert len(target.read_text().splitlines()) == 3


def test_a_second_run_writing_the_same_output_is_refused(tmp_path, big):
    target = tmp_path / "rows.csv"
    first = start(["bench", str(big), "--solvers", "backtrack", "--quiet", "--output", str(target)], tmp_path)
    try:
        deadline = time.monotonic() + 60
        while not parts(tmp_path) and time.monotonic() < deadline:
            time.sleep(0.05)
        second = subprocess.run(sudokulab() + ["bench", str(PUZZLES), "--solvers", "backtrack", "--quiet", "--output",
                                               str(target)], cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert second.returncode == 2 and second.stdout == ""
        assert second.stderr.count("\n") == 1 and "another run is writing it now" in second.stderr
        assert first.poll() is None  # the first run goes on
    finally:
        code, err = send(first, signal.SIGTERM, False)
    assert code == 143 and err == "sudokulab: terminated\n" and parts(tmp_path) == []


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_local_cluster_run_ends_quietly_on_a_signal_to_its_group(tmp_path, big, signum):
    pytest.importorskip("distributed")
    target = tmp_path / "rows.csv"
    process = start(["bench", str(big), "--solvers", "backtrack", "--cluster", "local:2", "--quiet",
                     "--output", str(target)], tmp_path)
    deadline = time.monotonic() + 60
    while not parts(tmp_path) and time.monotonic() < deadline:  # connected, workers up, writing
        time.sleep(0.1)
    time.sleep(1)
    code, err = send(process, signum, True)
    assert code == 128 + signum and err == f"sudokulab: {'terminated' if signum == signal.SIGTERM else 'hung up'}\n"
    assert not target.exists()
    assert parts(tmp_path) == []
