"""Runs ended by a signal lose nothing: SIGTERM and SIGHUP end a run as Ctrl-C does, SIGKILL's leftovers
are cleaned by the next run, and two runs never write one output at once.

Each case starts the real command in a session of its own, sends the signal at a point drawn from
a seeded generator (so a failure names its point and repeats), to the process or to its whole
process group as a closed terminal does, and then looks at what is left: the exit code, stderr,
the target (whole or absent) and any ``.part`` file.
"""

from __future__ import annotations

import json
import os
import platform
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sudokulab.cli import stopping
from sudokulab.errors import Stopped

from ..conftest import ROOT
from ..processes import children, cleaned_up, needs_proc_children, running, survivors, wait_for_children

PUZZLES = ROOT / "examples" / "puzzles-20.txt"
COUNT = 3000  # generate: far more than a few seconds make


def sudokulab(*args: str) -> list[str]:
    script = Path(sys.executable).parent / "sudokulab"
    return [str(script)] if script.exists() else [sys.executable, "-c", "from sudokulab.cli.main import run; run()"]


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


@pytest.mark.slow
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


POOL_STARTED_UNDER_A_SIGNAL = """
import json, os, signal, sys, threading
from multiprocessing.context import SpawnProcess

from sudokulab.cli import stopping
from sudokulab.execution import executors


def main():
    signum, to = int(sys.argv[1]), sys.argv[2]
    started = []
    original = SpawnProcess.start
    idle = threading.Event()
    other = threading.Thread(target=idle.wait, daemon=True)  # as numpy's BLAS threads are
    other.start()
    arrived, woken = os.pipe()
    os.set_blocking(woken, False)
    signal.set_wakeup_fd(woken)  # written by the C-level handler, in whichever thread took the signal

    def start(self):  # the signal lands after the first worker was started, while the pool still starts
        original(self)
        started.append(self.pid)
        if len(started) == 1:
            if to == "thread":  # the kernel may pick any thread that does not block it
                signal.pthread_kill(other.ident, signum)
            else:
                os.kill(os.getpid(), signum)
            os.read(arrived, 1)  # taken by a thread before the pool goes on

    SpawnProcess.start = start
    for taken in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(taken, stopping.stop)
    try:
        executors.ProcessPool(3)  # this process and two workers
        raised = None
    except KeyboardInterrupt as exc:  # Ctrl-C, or errors.Stopped
        raised = getattr(exc, "signum", signal.SIGINT)
    left = []
    for pid in started:
        try:
            if os.waitpid(pid, os.WNOHANG) == (0, 0):
                left.append(pid)
                os.kill(pid, signal.SIGKILL)
        except ChildProcessError:  # reaped: the pool stopped it
            pass
    print(json.dumps({"raised": raised, "started": len(started), "left": left}), flush=True)
    os._exit(0)


if __name__ == "__main__":
    main()
"""


@pytest.mark.parametrize("to", ["process", "thread"])
@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP", "SIGINT"])
def test_a_signal_while_a_pool_starts_stops_every_worker_it_started(tmp_path, name, to):
    """A group signal reaches only the processes that exist when it is sent: a worker started after
    it, before the parent acts on it, once outlived the command and held its output pipe open (CI saw
    ``bench --jobs 2`` not exit for 120 s after ``kill -TERM -PGID``). Sent here to the parent alone,
    between two worker starts, which is where such a worker comes from; or to another thread, where
    the kernel may deliver it (numpy's BLAS threads) while Python still handles it in the main thread."""
    signum = getattr(signal, name)
    script = tmp_path / "pool_start.py"
    script.write_text(POOL_STARTED_UNDER_A_SIGNAL)
    done = subprocess.run([sys.executable, str(script), str(int(signum)), to], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    report = json.loads(done.stdout)
    assert report == {"raised": int(signum), "started": 2, "left": []}


POOL_DROPPED_AFTER_ITS_WORKERS_DIED = """
import os, signal, sys, time

from sudokulab.execution.executors import ProcessPool


def main():
    pool = ProcessPool(2)
    tasks = pool._pool._inqueue._rlock  # an idle worker holds it while it waits for a task
    deadline = time.monotonic() + 60
    while tasks.acquire(block=False):
        tasks.release()
        assert time.monotonic() < deadline, "no worker waits for a task"
        time.sleep(0.01)
    for worker in pool._pool._pool:
        os.kill(worker.pid, signal.SIGTERM)  # as a group signal does: one dies holding the lock
    del pool
    print("dropped", flush=True)


if __name__ == "__main__":
    main()
"""


@pytest.mark.slow
def test_a_pool_nobody_holds_is_stopped_even_when_a_worker_died_holding_a_lock(tmp_path):
    """``ProcessPool.__del__``: a signal handled just after the pool was made, before its caller
    kept it, drops the only reference. The Pool's own finaliser would then terminate it, and wait
    forever for the task queue's lock, which a worker killed by the same signal may hold."""
    script = tmp_path / "dropped.py"
    script.write_text(POOL_DROPPED_AFTER_ITS_WORKERS_DIED)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, "dropped\n", "")


PYSAT_ENGINES_FREED_UNDER_SIGNALS = """
import signal, sys

from pysat.solvers import Solver

from sudokulab.cli import stopping
from sudokulab.errors import Stopped

inside = False
made = stopped = late = 0


def stop(signum, frame):  # the console script's handler, while the loop below can take what it raises
    if inside:
        stopping.stop(signum, frame)


def freed():  # a step of our own after delete(): a signal held during it is raised here, in the try
    pass


def engines(wanted):
    global inside, made, stopped
    while made < wanted:
        try:
            inside = True
            engine = Solver(name="cadical153", bootstrap_with=[[1, 2], [-1, 2]])
            engine.solve()
            engine.delete()
            freed()
            inside = False
            made += 1
        except Stopped:
            inside = False
            stopped += 1


def main():
    global inside, late
    wanted = int(sys.argv[1])
    sys.unraisablehook = lambda unraisable: None  # __init__ stopped at its first line: PySAT's __del__ complains
    # a signal every 100 us of this process's own CPU time (user and system), wherever it lands: the
    # process's time, not the wall clock's, so a busy machine that keeps it waiting does not pile
    # signals into its handlers
    signal.signal(signal.SIGPROF, stop)
    signal.setitimer(signal.ITIMER_PROF, 0.0001, 0.0001)
    while made < wanted:
        try:
            engines(wanted)
        except Stopped:  # held, and raised a step later than the loop's own try: late, but not lost
            inside = False
            late += 1
    signal.setitimer(signal.ITIMER_PROF, 0)
    print(made, stopped, late, flush=True)


if __name__ == "__main__":
    main()
"""


@pytest.mark.slow
def test_a_signal_while_pysat_frees_an_engine_never_frees_it_twice(tmp_path):
    """PySAT's ``delete`` frees the engine and only then marks it freed; Stopped raised between the two
    made ``__del__`` free it again (CI: ``generate --unique`` died with -11 on SIGHUP). The console
    script's handler holds such a signal until PySAT's teardown returns (``stopping._deferred``). Without
    that, this loop ends in a segmentation fault or an abort within a few hundred engines."""
    script = tmp_path / "freed.py"
    script.write_text(PYSAT_ENGINES_FREED_UNDER_SIGNALS)
    done = subprocess.run([sys.executable, str(script), "20000"], capture_output=True, text=True,
                          timeout=300, cwd=tmp_path)
    assert done.returncode == 0, f"exit {done.returncode}: {done.stderr[-2000:]}"
    made, stopped, _ = map(int, done.stdout.split())
    assert made == 20000 and stopped > 50  # the signals did land, over and over


def test_a_signal_held_during_pysat_teardown_is_raised_right_after_it(tmp_path, monkeypatch):
    """Held, not lost: it comes out at the caller's next step, once the teardown has run to its end,
    and the profile hook that waited for that step is gone."""
    library = tmp_path / "site" / "pysat"
    library.mkdir(parents=True)
    (library / "teardown.py").write_text(
        "import sys\n\n\ndef delete(signal_here, done):\n"
        "    signal_here(sys._getframe())\n    done.append('freed')\n    return done\n")
    monkeypatch.syspath_prepend(str(library))
    import teardown

    done: list[str] = []
    after: list[str] = []
    with pytest.raises(Stopped) as raised:
        teardown.delete(lambda frame: stopping.stop(signal.SIGTERM, frame), done)
        after.append("the caller went on")
    assert raised.value.signum == signal.SIGTERM
    assert done == ["freed"] and after == []
    assert sys.getprofile() is None and stopping.held == []
    with pytest.raises(Stopped):  # outside PySAT's teardown it is raised where it lands, as before
        stopping.stop(signal.SIGHUP, sys._getframe())


@pytest.mark.slow
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


@pytest.mark.slow
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


def _command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except OSError:  # gone meanwhile
        return ""


@pytest.mark.slow
@needs_proc_children
def test_a_local_clusters_workers_leave_the_stopping_signals_to_the_command(tmp_path, big):
    """A worker that died of a signal to the group was started again by its nanny as the command
    closed, and the new process, cut off mid-start, printed a traceback on the command's stderr."""
    pytest.importorskip("distributed")
    process = start(["bench", str(big), "--solvers", "backtrack", "--cluster", "local:2", "--quiet",
                     "--output", str(tmp_path / "rows.csv")], tmp_path)
    deadline, workers = time.monotonic() + 60, []
    while len(workers) < 2 and process.poll() is None and time.monotonic() < deadline:  # both workers started
        time.sleep(0.1)
        workers = [pid for pid in children(process.pid) if "spawn_main" in _command_line(pid)]
    assert len(workers) == 2
    while not parts(tmp_path) and time.monotonic() < deadline:  # connected and writing
        time.sleep(0.1)
    for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        for pid in workers:
            os.kill(pid, signum)
    time.sleep(1)
    alive = [pid for pid in workers if running(pid)]
    code, err = send(process, signal.SIGTERM, True)
    assert alive == workers
    assert code == 143 and err == "sudokulab: terminated\n"
    assert parts(tmp_path) == []


class _TripsAsItIsNamed:
    """A class attribute whose ``__set_name__`` meets SIGTERM: Python wraps what it raises there."""

    def __init__(self, error: BaseException):
        self.error = error

    def __set_name__(self, owner: type, name: str) -> None:
        raise self.error


@pytest.mark.parametrize("error, code, line", [
    (Stopped(signal.SIGTERM), 143, "sudokulab: terminated\n"),
    (Stopped(signal.SIGHUP), 129, "sudokulab: hung up\n"),
    (KeyboardInterrupt(), 130, "sudokulab: interrupted\n"),
], ids=["SIGTERM", "SIGHUP", "SIGINT"])
def test_a_signal_while_a_module_makes_its_classes_ends_the_run_as_the_signal(monkeypatch, capsys, error, code, line):
    """Seen in a sweep of SIGTERM times: one that landed while ``batch`` was imported came out of a
    dataclass's making as a RuntimeError, with a traceback and exit 1."""
    from sudokulab.cli import main as cli
    from sudokulab.cli.commands import solve as commands

    monkeypatch.setattr(commands, "run", lambda args: type("Made", (), {"field": _TripsAsItIsNamed(error)}))
    assert cli.main(["solve", str(ROOT / "examples" / "boj2580-sample.txt")]) == code
    out, err = capsys.readouterr()
    assert (out, err) == ("", line)


def test_an_error_in_a_class_being_made_without_a_signal_is_not_taken_for_one(monkeypatch):
    from sudokulab.cli import main as cli
    from sudokulab.cli.commands import solve as commands

    trips = _TripsAsItIsNamed(KeyError("x"))
    monkeypatch.setattr(commands, "run", lambda args: type("Made", (), {"field": trips}))
    with pytest.raises(RuntimeError):
        cli.main(["solve", str(ROOT / "examples" / "boj2580-sample.txt")])


@pytest.mark.parametrize("name, code, line", [
    ("SIGTERM", 143, "sudokulab: terminated\n"),
    ("SIGINT", 130, "sudokulab: interrupted\n"),
], ids=["SIGTERM", "SIGINT"])
def test_a_signal_an_extension_replaced_with_its_own_error_still_ends_the_run_as_the_signal(
        monkeypatch, capsys, name, code, line):
    """As numpy's import does when SIGTERM lands while its C modules load: the signal's exception
    is swallowed and an ImportError about a broken install raised, with nothing linking the two."""
    from sudokulab.cli import main as cli
    from sudokulab.cli.commands import solve as commands

    signum = getattr(signal, name)

    def mangled(args):
        try:
            signal.raise_signal(signum)  # the handler cli.run installs raises here
        except KeyboardInterrupt:
            pass
        raise ImportError("PyCapsule_Import could not import module")

    saved = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)}
    monkeypatch.setattr(commands, "run", mangled)
    try:
        stopping.stop_on_signals()
        assert cli.main(["solve", str(ROOT / "examples" / "boj2580-sample.txt")]) == code
        assert capsys.readouterr() == ("", line)
        monkeypatch.undo()
        assert cli.main(["solve", str(ROOT / "examples" / "boj2580-sample.txt")]) == 0  # the next run starts clean
    finally:
        for number, handler in saved.items():
            signal.signal(number, handler)


@pytest.mark.slow
@needs_proc_children
def test_a_pools_workers_end_when_the_command_is_killed_outright(tmp_path):
    """``kill -9`` of the command alone (an OOM killer, a supervisor's last resort) runs no cleanup in
    it: its ``--jobs`` workers must end with it, not search on for the rest of their batch. Each of
    the two puzzles keeps the classic search busy for minutes: row 16 holds 1..15, so r16c16 needs
    the 16 that column 16 already has, which the row-major search only meets after filling rows 1-15,
    again and again (as in test_terminal's Ctrl-C during compare)."""
    rows = [[0] * 16 for _ in range(16)]
    rows[0][15], rows[15][:15] = 16, list(range(1, 16))
    puzzle = "".join(" ".join(map(str, row)) + "\n" for row in rows)
    dataset = tmp_path / "deep-conflicts.txt"
    dataset.write_text(puzzle + "\n" + puzzle)
    process = start(["bench", str(dataset), "--solvers", "backtrack", "--jobs", "2", "--time-limit", "600",
                     "--batch-size", "1", "--quiet"], tmp_path)  # two batches: this process and a worker
    with cleaned_up(process) as left:
        left += wait_for_children(process, 2)  # the worker and the resource tracker
        time.sleep(2.0)  # the worker searching
        process.kill()
        process.communicate(timeout=60)
        assert not survivors(left, within=60), "processes of the pool outlived the command"


INTERRUPTED_INSIDE_THE_SAT_ENGINE = r"""
import ctypes, ctypes.util, json, random, signal, sys, time

from sudokulab import Puzzle, solvers
from sudokulab.cli import stopping
from sudokulab.solvers.sat import solver as sat

libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)


class SigEvent(ctypes.Structure):
    _fields_ = [("value", ctypes.c_void_p), ("signo", ctypes.c_int), ("notify", ctypes.c_int),
                ("pad", ctypes.c_int * 12)]


class TimeSpec(ctypes.Structure):
    _fields_ = [("sec", ctypes.c_long), ("nsec", ctypes.c_long)]


class ITimerSpec(ctypes.Structure):
    _fields_ = [("interval", TimeSpec), ("value", TimeSpec)]


class SigAction(ctypes.Structure):
    _fields_ = [("handler", ctypes.c_void_p), ("mask", ctypes.c_ulong * 16), ("flags", ctypes.c_int),
                ("restorer", ctypes.c_void_p)]


def c_handler():
    old = SigAction()
    libc.sigaction(signal.SIGINT, None, ctypes.byref(old))
    return old.handler or 0


def main():
    runs, size, low, high = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
    timer = ctypes.c_void_p()  # SIGINT to this process at a chosen moment, as Ctrl-C sends it (SIGEV_SIGNAL)
    assert libc.timer_create(1, ctypes.byref(SigEvent(None, signal.SIGINT, 0)), ctypes.byref(timer)) == 0
    stopping.stop_on_signals()  # the console script's handlers
    ours = c_handler()
    rng = random.Random(2580)
    report = {"engine": 0, "elsewhere": 0, "finished": 0, "broken": 0, "blocked": 0, "foreign_handler": 0}
    for _ in range(runs):
        at = rng.uniform(low, high)
        libc.timer_settime(timer, 0, ctypes.byref(ITimerSpec(TimeSpec(0, 0), TimeSpec(int(at), int(at % 1 * 1e9)))),
                           None)
        try:
            with solvers.get("sat") as solver:
                solver.solve(Puzzle.empty(size), canonical=True)
            report["finished"] += 1
        except KeyboardInterrupt as exc:
            frames = []
            tb = exc.__traceback__
            while tb is not None:
                frames.append(tb.tb_frame.f_code.co_name)
                tb = tb.tb_next
            report["engine" if "_run" in frames else "elsewhere"] += 1
        report["broken"] = len(sat._ABANDONED)  # engines PySAT's handler jumped out of
        blocked = signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, [])
        foreign = c_handler() != ours
        report["blocked"] += blocked
        report["foreign_handler"] += foreign
        if blocked or foreign:  # what PySAT's longjmp leaves: no further SIGINT would ever arrive
            break
        junk = [bytes(rng.randrange(600, 70_000)) for _ in range(50)]  # the allocator, used as a run goes on
        del junk
    print(json.dumps(report), flush=True)


if __name__ == "__main__":
    main()
"""


def test_ctrl_c_inside_the_sat_engine_over_and_over(tmp_path):
    """Called from the main thread, PySAT installs a SIGINT handler that ``longjmp``s out of the engine
    wherever it is, glibc's malloc and free included; the heap is then left half-updated and a later
    allocation aborts (CI: ``malloc(): ... (unsorted)``, exit -6, one run in five; docs/sat.md, "Ctrl-C
    inside PySAT"). That handler is now kept out of every engine call (``pysat_guard``) and
    Ctrl-C is taken between two budget slices. Here one process takes SIGINT at 30 random moments of
    canonical solves of an empty 25x25 board, as the console script does: no engine may be left broken,
    no SIGINT left blocked or caught by PySAT's handler, and the process must end cleanly. (Before the
    fix the first interrupt inside the engine left SIGINT blocked, and such loops aborted within 30-120
    interrupts.)"""
    script = tmp_path / "interrupted.py"
    script.write_text(INTERRUPTED_INSIDE_THE_SAT_ENGINE)
    inside = 0
    for _ in range(4):  # on a busy machine more signals land outside the engine: another 30 until 5 land in it
        done = subprocess.run([sys.executable, str(script), "30", "25", "0.2", "1.2"], capture_output=True,
                              text=True, timeout=280, cwd=tmp_path)
        assert done.returncode == 0 and done.stderr == "", f"exit {done.returncode}: {done.stderr[-2000:]}"
        report = json.loads(done.stdout)
        assert report["broken"] == report["blocked"] == report["foreign_handler"] == 0, report
        assert report["engine"] + report["elsewhere"] + report["finished"] == 30, report
        inside += report["engine"]
        if inside >= 5:
            break
    assert inside >= 5, report  # the signals did land inside the engine


ENGINE_SLICE_WAIT = 240
"""Seconds a signal may wait for the engine call in progress: CaDiCaL's inprocessing runs whole inside
one call (docs/sat.md, "Ctrl-C inside PySAT"); single calls of 11 s were seen on the empty 36x36 board
and of 57 s on a 36x36 puzzle, with the machine's two cores shared five ways. A bound on hanging, not
a speed target: the latency figures live in benchmarks/results/signal-latency.md."""


def engine_at_work(process: subprocess.Popen, cpu_seconds: float) -> bool:
    """Wait until PySAT's extension is loaded and the command has spent ``cpu_seconds`` of CPU (the
    formula is built by then and the engine solving); False if the command ended first."""
    stat, maps = Path(f"/proc/{process.pid}/stat"), Path(f"/proc/{process.pid}/maps")
    while process.poll() is None:
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            spent = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
            if spent >= cpu_seconds and "pysolvers" in maps.read_text():
                return True
        except (FileNotFoundError, ProcessLookupError):
            break
        time.sleep(0.05)
    return False


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="reads /proc to see the engine at work")
@pytest.mark.parametrize("signum, line", [(signal.SIGTERM, "terminated"), (signal.SIGHUP, "hung up"),
                                          (signal.SIGINT, "interrupted")],
                         ids=["SIGTERM", "SIGHUP", "SIGINT"])
def test_a_signal_inside_a_large_sat_solve_ends_it_as_the_signal(tmp_path, signum, line):
    """``timeout``, ``docker stop`` and CI runners send SIGTERM: with the engine in the middle of an
    empty 36x36 canonical solve, each stopping signal ends the real command with 128 + the signal, its
    one line and nothing on stdout (no partial answer), not a traceback nor a crash of the engine."""
    from sudokulab import Puzzle
    from sudokulab.formats.boj import format_puzzle

    board = tmp_path / "empty36.txt"
    board.write_text(format_puzzle(Puzzle.empty(36)))
    process = start(["solve", str(board), "--solver", "sat", "--canonical"], tmp_path)
    try:
        assert engine_at_work(process, 3.0), f"ended first: {process.communicate()}"
        process.send_signal(signum)
        out, err = process.communicate(timeout=ENGINE_SLICE_WAIT)
    finally:
        process.kill()
    assert (process.returncode, err.decode(), out) == (128 + signum, f"sudokulab: {line}\n", b"")


@pytest.mark.slow
def test_a_solve_that_outlasts_its_first_slice_is_armed_and_leaves_everything_as_found():
    """``sat_engine._Terminator``: a solve longer than one slice arms CaDiCaL's ``terminate()`` on the
    wakeup fd and disarms it at the end, with nothing left behind: the wakeup fd unset again, the
    answers right, and the engine as usable for the next solve (the byte that disarms may still reach
    ``terminate()``, which must cost no more than one slice)."""
    from sudokulab import Puzzle, is_solution, solvers
    from sudokulab.solvers.sat import engine as sat_engine

    assert signal.set_wakeup_fd(-1) == -1
    calls = []
    original = sat_engine._TERMINATOR.arm
    sat_engine._TERMINATOR.arm = lambda engine: calls.append(original(engine)) or calls[-1]
    try:
        with solvers.get("sat") as solver:
            empty = Puzzle.empty(25)
            first = solver.solve(empty).grid  # thousands of conflicts: armed
            assert is_solution(first, empty) and signal.set_wakeup_fd(-1) == -1  # disarmed: no wakeup fd
            half = Puzzle(empty.shape, tuple(v if i % 2 else 0 for i, v in enumerate(first)))
            assert is_solution(solver.solve(half).grid, half)  # the same engine, after the disarming byte
    finally:
        del sat_engine._TERMINATOR.arm
    if sys.platform.startswith("linux") and platform.machine() in ("x86_64", "aarch64"):
        assert calls and all(request is not None for request in calls)  # armed, where it can be


def test_the_terminator_leaves_someone_elses_wakeup_fd_alone():
    """asyncio (a notebook) owns the wakeup fd: the engine is then not armed, and the fd is theirs still."""
    from sudokulab import Puzzle
    from sudokulab.solvers.sat import engine as sat_engine
    from sudokulab.solvers.sat import solver as sat

    read, write = os.pipe()
    os.set_blocking(write, False)
    solver = sat.SatSolver()
    try:
        engine, _, _ = solver._engine_for(Puzzle.empty(9))
        signal.set_wakeup_fd(write)
        assert sat_engine._TERMINATOR.arm(engine) is None
        assert signal.set_wakeup_fd(-1) == write
    finally:
        signal.set_wakeup_fd(-1)
        solver.close()
        os.close(read)
        os.close(write)
