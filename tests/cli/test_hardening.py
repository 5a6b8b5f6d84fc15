"""The contract on hostile input, limits, signals, streams and output files, each found broken once.

Signals and streams are tested on a real ``python -m sudokulab`` process; everything else in-process.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from sudokulab import Puzzle, Shape, Status, is_solution, solvers
from sudokulab.datasets.reading import parse_lines
from sudokulab.execution.sandbox import Limits
from sudokulab.formats.boj import format_puzzle
from sudokulab.judge.cases import Outcome
from sudokulab.judge.run import judge_cases

from ..conftest import EXAMPLES, FIXTURES, HANG, random_puzzle
from ..conftest import run_cli as run

SAMPLE = str(EXAMPLES / "boj2580-sample.txt")
PROGRAMS = FIXTURES / "programs"
COMMAND = [sys.executable, "-m", "sudokulab"]
ONE_LINE = [
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....",
    "6.....8.3.4.7.................5.4.7.3..2.....1.6.......2.....5.....8.6......1....",
    "48.3............71.2.......7.5....6....2..8.............1.76...3.....4......5....",
    "....14....3....2...7..........9...3.6.1.............8.2.....1.4....5.6.....7.8...",
]


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def wait_gone(pid: int, seconds: float = 3.0) -> bool:
    deadline = time.monotonic() + seconds
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    return not alive(pid)


# --- 1. a dataset loses no puzzle after a bad line --------------------------------------------------

def test_a_truncated_line_costs_only_itself(tmp_path, capsys):
    lines = ONE_LINE * 2 + [ONE_LINE[0][:80]] + ONE_LINE
    entries = list(parse_lines(lines))
    assert len(entries) == 16 and sum(e.ok for e in entries) == 15
    (bad,) = [e for e in entries if not e.ok]
    assert bad.line == 11 and bad.error == (
        "line 11: a one-line puzzle has n*n characters (16, 25, 36, 49, 64 or 81), this one 80")
    dataset = tmp_path / "set.txt"
    dataset.write_text("\n".join(lines) + "\n")
    code, out, err = run(capsys, "bench", str(dataset), "--solvers", "sat", "--quiet")
    assert code == 0 and "15 puzzles, 1 bad entry skipped" in out and "line 11: a one-line puzzle" in err


# --- 2, 3. numbers too long for int(), limits too large for islice -----------------------------------

def test_numbers_of_thousands_of_digits_are_out_of_range(capsys, monkeypatch, sample_answer):
    huge = "9" * 5000
    text = f"{huge} " + "0 " * 80
    code, out, err = run(capsys, "solve", stdin=text.encode(), monkeypatch=monkeypatch)
    assert (code, out) == (2, "") and "is outside 0..9" in err and err.count("\n") == 1
    answer = sample_answer.replace("1", huge, 1)
    code, out, err = run(capsys, "verify", SAMPLE, "-", "--no-oracle", stdin=answer.encode(), monkeypatch=monkeypatch)
    assert code == 1 and out.startswith("wrong answer: line 1, number 1: 9999") and "outside 1..9" in out


@pytest.mark.parametrize("solver", solvers.names())
def test_a_count_limit_beyond_64_bits(capsys, solver):
    if not solvers.solver_class(solver).capabilities.count:
        pytest.skip(f"{solver} does not count")
    code, out, err = run(capsys, "count", SAMPLE, "--solver", solver, "--limit", str(2**63))
    assert (code, out, err) == (0, "1\n", "")


# --- 4. standard streams ---------------------------------------------------------------------------

def cli(*args: str, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([*COMMAND, *args], stdin=stdin, stdout=stdout, stderr=subprocess.PIPE, timeout=120,
                          **kwargs)


@pytest.mark.slow
@pytest.mark.parametrize("args", [["solve", SAMPLE], ["solvers"], ["count", SAMPLE], ["export", SAMPLE, "--format",
                                  "dimacs"], ["generate", "--size", "9", "--seed", "1"]])
def test_a_full_disk_on_stdout_is_one_line(args):
    with open("/dev/full", "w") as full:
        done = cli(*args, stdout=full)
    assert done.returncode == 2
    assert done.stderr == b"sudokulab: error: cannot write to standard output: No space left on device\n"


@pytest.mark.slow
def test_closed_stdin_and_odd_file_names():
    done = subprocess.run([*COMMAND, "solve", "-"], stdin=None, capture_output=True,
                          preexec_fn=lambda: os.close(0), timeout=60)
    assert (done.returncode, done.stdout) == (2, b"")
    assert done.stderr == b"sudokulab: error: cannot read <stdin>: it is closed\n"
    done = cli("solve", "no\nsuch")
    assert done.returncode == 2
    assert done.stderr == b"sudokulab: error: cannot read 'no\\nsuch': no such file\n"


def test_a_closed_pipe_ends_quietly():
    reader = subprocess.Popen([*COMMAND, "generate", "--size", "9", "--count", "5000", "--seed", "1"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    reader.stdout.readline()
    reader.stdout.close()
    assert reader.wait(60) == 141 and reader.stderr.read() == b""


# --- 5. time limits hold on the largest boards; memory stays bounded ---------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("solver", solvers.names())
def test_time_limit_holds_on_an_empty_64x64_board(tmp_path, solver):
    empty = tmp_path / "empty.txt"
    empty.write_text(format_puzzle(Puzzle.empty(64)))
    started = time.monotonic()
    done = cli("solve", str(empty), "--solver", solver, "--time-limit", "2")
    assert time.monotonic() - started < HANG  # it stopped (how soon depends on the machine's load)
    assert done.returncode in (0, 2, 3) and done.stderr.count(b"\n") == (done.returncode != 0)


def test_sat_refuses_a_formula_too_large_for_the_memory_before_building_it(monkeypatch):
    from sudokulab.solvers import building

    monkeypatch.setattr(building, "available_memory", lambda: 512 << 20)
    with solvers.get("sat") as sat, pytest.raises(solvers.UnsupportedFeature,
                                                  match="3,096,576 clauses, about 1.2 GiB .* 0.5 GiB available"):
        sat.solve(Puzzle.empty(64), time_limit=2)


@pytest.mark.slow
def test_a_glucose_slice_stays_short_on_a_large_board():
    """Before propagation budgets, one 200-conflict slice of glucose3 ran 11 s here. The bound is the
    contract's 2T + 1 s with room for a loaded machine (3 s more): it catches slices, not slowness."""
    started = time.monotonic()
    with solvers.get("sat", engine="glucose3") as sat:
        result = sat.solve(Puzzle.empty(25), canonical=True, time_limit=1.0)
    assert result.status is Status.TIME_LIMIT or is_solution(result.grid, Puzzle.empty(25))
    assert time.monotonic() - started < HANG


# --- 6. Ctrl-C ----------------------------------------------------------------------------------------

def interrupt(args: list[str], after: float = 1.5, signum: int = signal.SIGINT, **kwargs) -> tuple[int, bytes, float]:
    process = subprocess.Popen([*COMMAND, *args], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, **kwargs)
    time.sleep(after)
    assert process.poll() is None, "the command ended before it could be interrupted"
    process.send_signal(signum)
    sent = time.monotonic()
    try:
        code = process.wait(HANG)
    finally:
        process.kill()
    return code, process.stderr.read(), time.monotonic() - sent


@pytest.mark.slow
@pytest.mark.parametrize("solver", solvers.names())
def test_ctrl_c_while_counting(tmp_path, solver):
    if not solvers.solver_class(solver).capabilities.count:
        pytest.skip(f"{solver} does not count (test_local_search stops it while solving)")
    empty = tmp_path / "empty.txt"
    empty.write_text(format_puzzle(Puzzle.empty(9)))
    code, err, took = interrupt(["count", str(empty), "--solver", solver, "--limit", str(10**12)])
    assert (code, err) == (130, b"sudokulab: interrupted\n") and took < HANG


@pytest.mark.slow
@pytest.mark.parametrize("solver", ["sat", "cpsat", "mip"])
def test_ctrl_c_inside_the_engine(tmp_path, solver):
    empty = tmp_path / "empty.txt"
    empty.write_text(format_puzzle(Puzzle.empty(36)))
    code, err, took = interrupt(["solve", str(empty), "--solver", solver, "--canonical"], after=3.0)
    assert (code, err) == (130, b"sudokulab: interrupted\n") and took < HANG


@pytest.mark.slow
@pytest.mark.parametrize("name, code, line", [("SIGTERM", 143, b"sudokulab: terminated\n"),
                                              ("SIGHUP", 129, b"sudokulab: hung up\n")])
def test_sigterm_and_sighup_inside_the_sat_engine(tmp_path, name, code, line):
    """PySAT's own handler covers SIGINT alone: SIGTERM used to wait for the engine call to end (16.6 s
    seen). The engine now runs in budget slices with every signal taken between two of them
    (docs/sat.md, "Ctrl-C inside PySAT")."""
    empty = tmp_path / "empty.txt"
    empty.write_text(format_puzzle(Puzzle.empty(36)))
    got, err, took = interrupt(["solve", str(empty), "--solver", "sat", "--canonical"], after=3.0,
                               signum=getattr(signal, name))
    assert (got, err) == (code, line) and took < HANG


@pytest.mark.slow
def test_ctrl_c_in_bench_and_judge(tmp_path):
    dataset = tmp_path / "set.txt"
    dataset.write_text("\n".join(ONE_LINE * 8000) + "\n")
    code, err, took = interrupt(["bench", str(dataset), "--solvers", "cpsat", "--quiet"], after=2.5)
    assert (code, err) == (130, b"sudokulab: interrupted\n") and took < HANG
    large = tmp_path / "large.txt"  # sat in batches makes about 10,000 puzzles/s a process: give it a minute's work
    large.write_text("\n".join(ONE_LINE * 120_000) + "\n")
    code, err, took = interrupt(["bench", str(large), "--solvers", "sat", "--jobs", "2", "--quiet"], after=3.0)
    assert (code, err) == (130, b"sudokulab: interrupted\n") and took < HANG
    code, err, took = interrupt(["judge", str(dataset), "--jobs", "2", "--time-limit", "20", "--quiet", "--",
                                 sys.executable, str(PROGRAMS / "sleeper.py")], after=2.0)
    assert (code, err) == (130, b"sudokulab: interrupted\n") and took < HANG


# --- 7, 8. what a judged program prints is data; what it leaves behind is killed ---------------------

def test_program_output_is_never_markup(capsys):
    code, out, err = run(capsys, "judge", SAMPLE, "--quiet", "--wide", "--time-limit", "60", "--", sys.executable,
                         str(PROGRAMS / "markup.py"))
    assert code == 1 and "runtime error" in out and "Traceback" not in out + err
    assert "[/] [bold red]not markup[/" in out and "[link=file:///etc/passwd]x" in out
    assert err == "sudokulab: 1 of 1 entries not accepted\n"


def test_a_daemon_does_not_outlive_its_run(tmp_path):
    pid_file = tmp_path / "daemon.pid"
    entries = list(parse_lines(Path(SAMPLE).read_text().splitlines()))
    (case,) = judge_cases(entries, [sys.executable, str(PROGRAMS / "daemon.py"), str(pid_file),
                                    str(PROGRAMS / "boj2580_backtrack.py")],  # the module it imports, copied beside it
                          Limits(10.0, 256, isolation="none"))  # unsandboxed: the launcher alone reaps it
    assert case.outcome is Outcome.ACCEPTED
    pid = int(pid_file.read_text())
    assert wait_gone(pid), f"the daemon {pid} outlived the judge"


@pytest.mark.slow
def test_a_daemon_does_not_outlive_a_time_limit(tmp_path):
    pid_file = tmp_path / "daemon.pid"
    entries = list(parse_lines(Path(SAMPLE).read_text().splitlines()))
    command = [sys.executable, "-c", "import os, sys, time\nif os.fork() == 0:\n    os.setsid()\n"
               f"    open({str(pid_file)!r}, 'w').write(str(os.getpid()))\n    time.sleep(60)\ntime.sleep(60)"]
    (case,) = judge_cases(entries, command, Limits(5.0, 256, isolation="none"))  # room to write the pid file
    assert case.outcome is Outcome.TIME_LIMIT
    assert wait_gone(int(pid_file.read_text()))


# --- 9. one solver, two threads ----------------------------------------------------------------------

@pytest.mark.parametrize("name", solvers.names())
def test_one_instance_shared_by_two_threads(name):
    puzzles = [random_puzzle(Shape(3, 3), 0.5, seed)[0] for seed in range(12)]
    results: list = []
    with solvers.get(name) as solver:
        def work(chunk):
            results.extend((p, solver.solve(p, time_limit=60)) for p in chunk)

        threads = [threading.Thread(target=work, args=(puzzles[i::2],)) for i in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert len(results) == 12 and all(is_solution(r.grid, p) for p, r in results)
    assert solver.capabilities.threads in ("safe", "serialised")


# --- 10. output files --------------------------------------------------------------------------------

@pytest.mark.parametrize("args, message", [
    (["--output", "x.out"], "the name must end in .csv, .jsonl, .png, .svg, .pdf"),
    (["--output", ""], "the name must end in .csv, .jsonl, .png, .svg, .pdf"),
    (["--output", "/no/such/dir/r.csv"], "no writable directory '/no/such/dir'"),
    (["--output", "/no/such/dir/r.png"], "no writable directory '/no/such/dir'"),
    (["--output", "a.csv", "--output", "b.csv"], "two --output files of the same kind: a.csv and b.csv"),
    # the deprecated spellings, still checked the same way (after their one warning line)
    (["--plot", "/dev/full"], "cannot write '/dev/full': the plot file name must end in .png or .svg or .pdf"),
    (["--plot", ""], "the plot file name is empty"),
    (["--out", "/dev/full"], "cannot write '/dev/full': No space left on device"),
])
def test_bench_outputs_are_checked_and_written_whole(capsys, tmp_path, args, message):
    code, out, err = run(capsys, "bench", SAMPLE, "--solvers", "sat", "--quiet", *args)
    deprecated = "--out" in args or "--plot" in args
    assert code == 2 and message in err and err.count("\n") == 1 + deprecated
    assert not deprecated or "is deprecated: write --output" in err
    assert not Path("/dev/full.png").exists()


def test_a_failed_run_leaves_no_output_file(capsys, tmp_path, monkeypatch):
    class Boom(Exception):
        pass

    def boom(*args, **kwargs):
        raise KeyboardInterrupt

    out = tmp_path / "r.csv"
    monkeypatch.setattr("sudokulab.bench.run.run_batch", boom)  # the name the run loop calls
    code, _, err = run(capsys, "bench", SAMPLE, "--solvers", "sat", "--quiet", "--output", str(out))
    assert code == 130 and not out.exists() and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args", [["generate", "--size", "9", "--seed", "1", "--output", "/dev/full"],
                                  ["export", SAMPLE, "--format", "dimacs", "--output", "/dev/full"]])
def test_a_full_disk_for_an_output_file(capsys, args):
    code, out, err = run(capsys, *args)
    assert (code, out) == (2, "") and err == "sudokulab: error: cannot write '/dev/full': No space left on device\n"


# --- 11. what goes where -----------------------------------------------------------------------------

def test_every_non_zero_exit_ends_with_one_line_on_stderr(capsys, tmp_path, monkeypatch):
    broken = "1 2 0 0\n0 0 3 0\n0 0 4 0\n0 0 0 0\n"
    path = tmp_path / "broken.txt"
    path.write_text(broken)
    cases = [
        (["solve", str(path)], 1), (["count", str(path)], 0), (["compare", str(path)], 1),
        (["verify", str(path), SAMPLE], 1), (["solve", str(path), "--solver", "nope"], 2),
    ]
    for argv, code in cases:
        got, out, err = run(capsys, *argv)
        assert got == code, argv
        if code:
            assert err.splitlines()[-1].startswith("sudokulab: ") and err.endswith("\n"), argv
    got, out, err = run(capsys, "compare", str(path), "--json")
    assert got == 1 and err == "sudokulab: agreed: no solution: no completion keeps the rules\n"
