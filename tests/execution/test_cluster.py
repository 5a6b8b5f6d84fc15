"""--cluster on real Dask processes on the loopback interface: a LocalCluster, and a ``dask scheduler``
with two ``dask worker`` processes (no nanny, one thread each, random free ports, no dashboard).

Cluster runs are compared row by row with local runs of the same data; a worker is killed mid-run
and nothing may be lost or counted twice; every process started here is stopped by a finalizer,
also when a test fails, and every wait is bounded.
"""

from __future__ import annotations

import csv
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("distributed")

import cloudpickle  # noqa: E402 - installed with distributed

from sudokulab.bench import run as bench
from sudokulab.datasets.reading import read_dataset  # noqa: E402
from sudokulab.errors import UsageError  # noqa: E402
from sudokulab.execution import cluster, dask_settings  # noqa: E402
from sudokulab.execution.sandbox import Limits  # noqa: E402
from sudokulab.generation import puzzles as gen  # noqa: E402
from sudokulab.judge import run as judge
from sudokulab.judge.cases import Outcome

from ..conftest import EXAMPLES, HANG, ROOT  # noqa: E402

# The helpers below run on the scheduler and workers, which cannot import this test module: send their code.
cloudpickle.register_pickle_by_value(sys.modules[__name__])

BIN = Path(sys.executable).parent
PROGRAMS = ROOT / "tests" / "fixtures" / "programs"
JUDGE_SET = ROOT / "tests" / "fixtures" / "judge_set.txt"
PUZZLES_20 = [line for line in (EXAMPLES / "puzzles-20.txt").read_text().splitlines() if not line.startswith("#")]
WAIT = 60.0
"""Seconds any one wait here may take at most (the machine is shared and loaded)."""


# --- processes started here, and stopped whatever happens ----------------------------------------------

class Processes:
    """Processes in sessions of their own, each stopped (SIGTERM, then SIGKILL to its group) by ``stop``."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.started: list[subprocess.Popen] = []

    def start(self, *argv: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> subprocess.Popen:
        log = open(self.folder / f"process-{len(self.started)}.log", "wb")  # noqa: SIM115 - closed in stop
        process = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                   cwd=cwd or self.folder, start_new_session=True, env=env)
        process.log = log  # type: ignore[attr-defined]
        self.started.append(process)
        return process

    def stop(self) -> None:
        for process in reversed(self.started):  # workers before their scheduler
            if process.poll() is None:
                process.terminate()
        deadline = time.monotonic() + 1  # a second to close, then SIGKILL: nothing here is worth keeping
        for process in self.started:
            try:
                process.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
            try:
                os.killpg(process.pid, signal.SIGKILL)  # the process and anything it left in its group
            except (ProcessLookupError, PermissionError):
                pass
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                pass
            process.log.close()  # type: ignore[attr-defined]
        assert all(p.poll() is not None for p in self.started), "a Dask process outlived the test"


class SchedulerAndWorkers:
    """``dask scheduler`` and ``dask worker`` processes on 127.0.0.1; workers run in ``worker_cwd``."""

    def __init__(self, folder: Path):
        self.processes = Processes(folder)
        self.file = folder / "scheduler.json"
        self.worker_cwd = folder / "workers"
        self.worker_cwd.mkdir()
        self.address = ""
        self.workers: list[subprocess.Popen] = []

    def start(self, workers: int = 2) -> SchedulerAndWorkers:
        self.processes.start(str(BIN / "dask"), "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                             "--dashboard-address", "127.0.0.1:0", "--scheduler-file", str(self.file),
                             env={**os.environ, "DASK_DISTRIBUTED__ADMIN__LOW_LEVEL_LOG_LENGTH": "16"})  # the README's
        deadline = time.monotonic() + WAIT
        while not (self.file.exists() and self.file.stat().st_size):
            assert time.monotonic() < deadline, "the scheduler did not start"
            time.sleep(0.1)
        self.address = json.loads(self.file.read_text())["address"]
        self.workers = [self.add_worker() for _ in range(workers)]
        if workers:
            self.wait_for(workers)
        return self

    def add_worker(self, env: dict[str, str] | None = None) -> subprocess.Popen:
        return self.processes.start(
            str(BIN / "dask"), "worker", "--scheduler-file", str(self.file), "--host", "127.0.0.1",
            "--nthreads", "1", "--no-nanny", "--no-dashboard", "--dashboard-address", "127.0.0.1:0",
            "--death-timeout", "30", cwd=self.worker_cwd, env=env)

    def wait_for(self, count: int) -> None:
        from distributed import Client

        with Client(self.address, timeout=WAIT, set_as_default=False) as client:
            client.wait_for_workers(count, timeout=WAIT)

    def stop(self) -> None:
        self.processes.stop()


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory, request):
    """A scheduler and two workers shared by the tests that kill nothing."""
    place = SchedulerAndWorkers(tmp_path_factory.mktemp("dask"))
    request.addfinalizer(place.stop)  # before starting: what did start goes, even if the rest fails
    return place.start()


@pytest.fixture
def own_scheduler(tmp_path, request):
    """A scheduler and two workers for one test (which kills one of them)."""
    place = SchedulerAndWorkers(tmp_path)
    request.addfinalizer(place.stop)
    return place.start()


@pytest.fixture(scope="module")
def local2(request):
    executor = cluster.connect("local:2")
    request.addfinalizer(executor.close)
    return executor


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def sudokulab(*argv: str, blocked: str | None = None, cwd: Path | None = None,
              timeout: float = 120) -> subprocess.CompletedProcess:
    """The command in a new process; ``blocked`` names a module its imports cannot find."""
    code = "import sys\n"
    if blocked:
        code += f"sys.modules[{blocked!r}] = None\n"
    code += "from sudokulab.cli.main import run\nsys.argv = ['sudokulab', *sys.argv[1:]]\nrun()\n"
    return subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True,
                          timeout=timeout, cwd=cwd or ROOT)


# --- addresses, the extra, a scheduler that does not answer ---------------------------------------------

@pytest.mark.parametrize("address, expected", [
    ("local:2", ("local", 2)), ("127.0.0.1:8786", "tcp://127.0.0.1:8786"), ("tcp://head-node:8786", "tcp://head-node:8786"),
    ("tls://10.1.2.3:9000", "tls://10.1.2.3:9000"),
])
def test_addresses(address, expected):
    assert cluster.parse_address(address) == expected


@pytest.mark.parametrize("address, message", [
    ("local:0", "1 to 256 worker processes"), ("local:x", "neither local:N nor"), ("tcp://host", "neither local:N nor"),
    ("http://host:8786", "neither local:N nor"), ("host:99999", "neither local:N nor"), ("", "neither local:N nor"),
])
def test_bad_addresses_are_one_line(address, message):
    with pytest.raises(UsageError, match=message):
        cluster.parse_address(address)


@pytest.mark.parametrize("argv", [
    ["bench", str(EXAMPLES / "puzzles-20.txt"), "--cluster", "local:2"],
    ["judge", str(JUDGE_SET), "--cluster", "local:2", "--", "python3", "x.py"],
    ["generate", "--size", "4", "--cluster", "local:2"],
])
def test_without_the_extra_cluster_exits_2_naming_it(argv):
    done = sudokulab(*argv, blocked="distributed")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f"sudokulab: error: {cluster.missing_extra()}\n"


@pytest.mark.slow
def test_a_scheduler_that_does_not_answer_is_refused_in_one_line():
    address = f"tcp://127.0.0.1:{free_port()}"
    started = time.monotonic()
    with pytest.raises(UsageError, match=f"no Dask scheduler answers at {address} within 1 s"):
        cluster.connect(address, timeout=1)
    assert time.monotonic() - started < HANG  # refused, not left waiting (how soon depends on the machine)
    done = sudokulab("generate", "--size", "4", "--seed", "1", "--cluster", address)
    assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1
    assert done.stderr.startswith(f"sudokulab: error: no Dask scheduler answers at {address}")


@pytest.mark.slow
def test_a_scheduler_without_workers_or_with_a_worker_lacking_sudokulab_is_refused(tmp_path, request):
    place = SchedulerAndWorkers(tmp_path)
    request.addfinalizer(place.stop)
    place.start(workers=0)
    with pytest.raises(UsageError, match=f"the Dask scheduler at {place.address} has no workers"):
        cluster.connect(place.address, timeout=1)
    shadow = tmp_path / "shadow" / "sudokulab"  # a sudokulab that cannot be imported, first on the path
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("raise ImportError('not installed here')\n")
    place.add_worker(env={**os.environ, "PYTHONPATH": str(shadow.parent)})
    place.wait_for(1)
    with pytest.raises(UsageError, match=r"worker tcp://127\.0\.0\.1:\d+ cannot import sudokulab \(ImportError: not "
                       r"installed here\): install it there with its dask extra "
                       r"\(from a clone: pip install -e '\.\[dask\]'\)"):
        cluster.connect(place.address, timeout=WAIT)


# --- the executor itself -------------------------------------------------------------------------------

@pytest.mark.slow
def test_imap_pulls_lazily_and_bounds_what_is_in_flight(local2):
    pulled = []

    def items():
        for i in range(40):
            pulled.append(i)
            yield -i

    seen = []
    for item, result in local2.imap(abs, items(), in_flight=3):
        assert len(pulled) <= len(seen) + 4  # 3 in flight, and the one just yielded
        seen.append((item, result))
    assert sorted(seen) == sorted((-i, i) for i in range(40))
    assert local2.retried == 0 and local2.workers == 2 and "local Dask cluster of 2" in local2.describe()


@pytest.mark.slow
def test_connections_keep_few_messages(local2, scheduler):
    """Dask keeps each connection's last 1,000 messages by default, batches and all: memory that grows
    with the run up to 1,000 batches (50 MB at 512 puzzles a batch, measured)."""
    assert local2.client.scheduler_comm.recent_message_log.maxlen == dask_settings.MESSAGE_LOG
    assert local2.client.run_on_scheduler(_message_logs) == [dask_settings.MESSAGE_LOG] * 3  # the client, two workers
    with cluster.connect(scheduler.address) as executor:
        assert executor.client.scheduler_comm.recent_message_log.maxlen == dask_settings.MESSAGE_LOG
        assert set(executor.client.run_on_scheduler(_message_logs)) == {16}  # as the README starts it


def _message_logs(dask_scheduler=None) -> list[int]:
    return [comm.recent_message_log.maxlen for comm in dask_scheduler.stream_comms.values()] + \
        [comm.recent_message_log.maxlen for comm in dask_scheduler.client_comms.values()
         if hasattr(comm, "recent_message_log")][:1]


def test_errors_of_a_task_arrive_as_one_line(local2):
    with pytest.raises(UsageError, match="neither local:N nor"):
        list(local2.imap(cluster.parse_address, ["local:2", "nonsense"]))
    with pytest.raises(cluster.ClusterError, match="a task failed on a worker: ValueError"):
        list(local2.imap(int, ["1", "x"]))


def test_leaving_early_cancels_what_is_pending(local2):
    results = local2.imap(time.sleep, [0.2] * 50, in_flight=6)
    next(results)
    results.close()
    deadline = time.monotonic() + WAIT
    while local2.client.run_on_scheduler(_task_count):
        assert time.monotonic() < deadline, "tasks left on the scheduler"
        time.sleep(0.1)


def _task_count(dask_scheduler=None) -> int:
    return len(dask_scheduler.tasks)


# --- bench: the same rows on a cluster as here -------------------------------------------------------------

SOLVERS = ["backtrack-fast", "sat", "dlx"]


def _bench_rows(tmp_path: Path, name: str, datasets: list[Path], solvers: list[str] = SOLVERS,
                **kwargs) -> tuple[list[tuple], object]:
    out = tmp_path / f"{name}.csv"
    report = bench.run_bench(datasets, solvers, csv_path=out, progress=False, warn=lambda _m: None, **kwargs)
    with open(out, newline="") as stream:
        rows = sorted((r["dataset"], int(r["index"]), r["solver"], r["status"], r["valid"], r["line"])
                      for r in csv.DictReader(stream))
    return rows, report


@pytest.fixture(scope="module")
def bench_sets(tmp_path_factory):
    folder = tmp_path_factory.mktemp("sets")
    mixed = folder / "mixed.txt"
    broken = PUZZLES_20[3][:40] + "x" + PUZZLES_20[3][41:]
    no_solution = "11" + PUZZLES_20[0][2:]
    mixed.write_text("\n".join(PUZZLES_20[:7] + [broken, no_solution] + PUZZLES_20[7:] * 3) + "\n")
    return [EXAMPLES / "puzzles-20.txt", mixed]


@pytest.mark.slow
def test_bench_rows_on_a_local_cluster_match_a_local_run(tmp_path, bench_sets):
    here, local_report = _bench_rows(tmp_path, "here", bench_sets)
    there, report = _bench_rows(tmp_path, "there", bench_sets, cluster="local:2", batch_size=8)
    assert there == here and len(here) == (20 + 47) * len(SOLVERS)
    assert report.totals == local_report.totals and report.bad == local_report.bad
    assert "local Dask cluster of 2" in report.where and report.retried == 0


@pytest.mark.slow
def test_bench_rows_on_a_scheduler_and_two_workers_match_a_local_run(tmp_path, bench_sets, scheduler):
    here, _ = _bench_rows(tmp_path, "here", bench_sets)
    there, report = _bench_rows(tmp_path, "there", bench_sets, cluster=scheduler.address, batch_size=5)
    assert there == here
    assert scheduler.address in report.where and report.retried == 0


# --- judge ------------------------------------------------------------------------------------------------

def _cases(cases) -> list[tuple]:
    return [(c.index, c.line, c.outcome, c.detail, c.run.stdout if c.run else None) for c in cases]


@pytest.mark.slow
@pytest.mark.parametrize("program, shared_fs", [
    ("boj2580_backtrack.py", False), ("crash.py", False),
    # wrong_digit.py imports its sibling, named on its command line: only a shared filesystem brings it along
    ("wrong_digit.py", True),
])
def test_judge_on_workers_gives_the_local_verdicts(scheduler, program, shared_fs):
    # Sent: a path relative to here, which the workers (running in a folder of their own) could not
    # resolve themselves. Shared: an absolute path, which they see as it is.
    path = str(PROGRAMS / program) if shared_fs else os.path.relpath(PROGRAMS / program, ROOT)
    command = ["python3", path]
    if program == "wrong_digit.py":  # the sandbox shows a program only the files its command names
        command.append(str(PROGRAMS / "boj2580_backtrack.py"))
    limits = Limits(seconds=5.0)
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        here = _cases(judge.judge_cases(read_dataset(str(JUDGE_SET)), command, limits))
        there = _cases(judge.judge_cases(read_dataset(str(JUDGE_SET)), command, limits, cluster=scheduler.address,
                                         batch_size=1, shared_fs=shared_fs))
    finally:
        os.chdir(cwd)
    assert there == here and len(here) == 4
    assert {case[2] for case in here} - {Outcome.INVALID_ENTRY} == {
        "boj2580_backtrack.py": {Outcome.ACCEPTED}, "crash.py": {Outcome.RUNTIME_ERROR},
        "wrong_digit.py": {Outcome.WRONG_ANSWER}}[program]


@pytest.mark.slow
def test_a_program_judged_on_a_local_worker_gets_the_signals_it_gets_here(local2, tmp_path):
    """local:N workers hold Ctrl-C back from themselves, not from the programs they judge."""
    program = tmp_path / "signals.py"
    program.write_text("import sys\nfields = [line.split()[1] for line in open('/proc/self/status') "
                       "if line.startswith(('SigBlk', 'SigIgn'))]\nsys.stderr.write(' '.join(fields))\nsys.exit(3)\n")
    entries = list(read_dataset(str(EXAMPLES / "puzzles-20.txt")))[:2]
    limits = Limits(seconds=60.0)  # what is judged here is the signal mask: no time limit on a busy machine
    here = _cases(judge.judge_cases(entries, ["python3", str(program)], limits))
    there = _cases(judge.judge_cases(entries, ["python3", str(program)], limits, cluster=local2))
    assert there == here and here[0][3].startswith("exit code 3 (")


@pytest.mark.slow
def test_judge_refuses_a_program_missing_on_the_workers(scheduler):
    done = sudokulab("judge", str(JUDGE_SET), "--cluster", scheduler.address, "--", "no-such-program-here")
    assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1
    assert "cannot run 'no-such-program-here' on worker tcp://127.0.0.1:" in done.stderr
    relative = os.path.relpath(PROGRAMS / "boj2580_backtrack.py", ROOT)
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        with pytest.raises(UsageError, match=f"judge: '{relative}' is missing on worker tcp://127.0.0.1:\\d+: with "
                           "--shared-fs every worker must see it at that path"):
            list(judge.judge_cases(read_dataset(str(JUDGE_SET)), ["python3", relative], cluster=scheduler.address,
                                   shared_fs=True))
    finally:
        os.chdir(cwd)


@pytest.mark.slow
def test_judge_command_on_a_cluster_reports_where(scheduler):
    done = sudokulab("judge", str(JUDGE_SET), "--cluster", scheduler.address, "--time-limit", "60", "--",
                     "python3", os.path.relpath(PROGRAMS / "boj2580_backtrack.py", ROOT))
    assert done.returncode == 1 and done.stderr.endswith("sudokulab: 1 of 4 entries not accepted\n")
    assert re.search(r"^accepted +3$", done.stdout, re.M)
    assert f"ran on the Dask cluster at {scheduler.address} (2 worker threads); batches run again after a worker " \
           "died: 0" in done.stdout


# --- generate ---------------------------------------------------------------------------------------------

@pytest.mark.slow
def test_generate_on_a_cluster_is_the_local_per_puzzle_seeds_output(local2, scheduler):
    made = {
        "here": [g.puzzle for g in gen.generate(9, 25, unique=True, seed=11, per_puzzle_seeds=True)],
        "local:2": [g.puzzle for g in gen.generate(9, 25, unique=True, seed=11, cluster=local2, chunk=3)],
        "workers": [g.puzzle for g in gen.generate(9, 25, unique=True, seed=11, cluster=scheduler.address, chunk=7)],
    }
    assert made["here"] == made["local:2"] == made["workers"] and len(set(made["here"])) == 25
    done = sudokulab("generate", "--size", "9", "--count", "12", "--unique", "--seed", "11", "--cluster",
                     scheduler.address)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == "".join(gen.dataset_text(p) for p in made["here"][:12])


# --- faults: a worker dies mid-run ------------------------------------------------------------------------

def _kill_a_busy_worker(place: SchedulerAndWorkers, started: threading.Event, killed: list) -> None:
    """Once tasks are running, SIGKILL a worker that is running one (its tasks must run again)."""
    from distributed import Client

    with Client(place.address, timeout=WAIT, set_as_default=False) as client:
        pids = client.run(os.getpid)
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            busy = client.run_on_scheduler(_busy_workers)
            if busy and started.is_set():
                time.sleep(0.3)
                busy = client.run_on_scheduler(_busy_workers)
                if busy:
                    os.kill(pids[busy[0]], signal.SIGKILL)
                    killed.append(busy[0])
                    return
            time.sleep(0.05)


def _busy_workers(dask_scheduler=None) -> list[str]:
    return [address for address, ws in dask_scheduler.workers.items() if ws.processing]


@pytest.mark.slow
def test_a_worker_killed_mid_bench_loses_nothing_and_doubles_nothing(tmp_path, own_scheduler):
    big = tmp_path / "big.txt"
    big.write_text("\n".join(PUZZLES_20 * 400) + "\n")  # 8,000 puzzles: several seconds on two workers
    solvers = ["backtrack-fast", "sat"]
    started, killed = threading.Event(), []
    killer = threading.Thread(target=_kill_a_busy_worker, args=(own_scheduler, started, killed), daemon=True)
    killer.start()
    started.set()
    rows, report = _bench_rows(tmp_path, "killed", [big], solvers, cluster=own_scheduler.address, batch_size=200)
    killer.join(WAIT)
    assert killed, "no worker was busy to kill"
    per_solver = Counter((solver, index) for _, index, solver, *_ in rows)
    assert set(per_solver.values()) == {1}  # no puzzle counted twice
    assert {index for _, index in per_solver} == set(range(8000))  # none lost
    assert {solver for solver, _ in per_solver} == set(solvers) and len(per_solver) == 8000 * len(solvers)
    assert report.retried >= 1 and report.totals == {"big": 8000}


@pytest.mark.slow
def test_imap_counts_the_tasks_a_dead_worker_held(own_scheduler):
    with cluster.connect(own_scheduler.address) as executor:
        pids = executor.client.run(os.getpid)
        seen = Counter()
        items = [0.05 + i * 1e-6 for i in range(120)]
        for n, (item, _) in enumerate(executor.imap(time.sleep, items, in_flight=4)):
            seen[item] += 1
            if n == 10:
                busy = executor.client.run_on_scheduler(_busy_workers)
                os.kill(pids[busy[0]], signal.SIGKILL)
        assert seen == Counter(items) and executor.retried >= 1
        assert "1 worker thread" in executor.describe()


# --- Ctrl-C ------------------------------------------------------------------------------------------------

def _descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (children of any of its threads: Dask starts workers from its loop's)."""
    found, todo = set(), [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                children = (task / "children").read_text().split()
            except OSError:
                continue
            for child in map(int, children):
                found.add(child)
                todo.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.slow
@pytest.mark.parametrize("command, when", [("bench", "running"), ("judge", "running"), ("bench", "starting")])
def test_ctrl_c_on_a_local_cluster_run_exits_130_and_leaves_no_process(tmp_path, command, when):
    """Ctrl-C at a terminal: SIGINT to the whole process group, workers and judged programs included;
    while the run goes, or while the workers are still starting (they once died with tracebacks)."""
    big = tmp_path / "big.txt"
    big.write_text("\n".join(PUZZLES_20 * 2000) + "\n")
    argv = {
        "bench": ["bench", str(big), "--solvers", "sat,dlx", "--batch-size", "50", "--output", str(tmp_path / "r.csv")],
        "judge": ["judge", str(big), "--time-limit", "60", "--", sys.executable, str(PROGRAMS / "sleeper.py")],
    }[command]
    code = "import sys\nfrom sudokulab.cli.main import run\nsys.argv = ['sudokulab', *sys.argv[1:]]\nrun()\n"
    mark = f"{os.getpid()}-{time.monotonic_ns()}"  # inherited by every process the run starts
    process = subprocess.Popen([sys.executable, "-c", code, *argv, "--cluster", "local:2"] if command == "bench" else
                               [sys.executable, "-c", code, *argv[:4], "--cluster", "local:2", *argv[4:]],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                               env={**os.environ, "SUDOKULAB_TEST_MARK": mark})
    try:
        deadline = time.monotonic() + WAIT
        wanted = 2 if command == "bench" else 6  # the workers; for judge also a launcher and a program each
        if when == "starting":
            wanted = 1  # the first worker process is being spawned
        while len(_descendants(process.pid)) < wanted:
            assert time.monotonic() < deadline and process.poll() is None, "the run did not get going"
            time.sleep(0.02 if when == "starting" else 0.1)
        if when == "running":
            time.sleep(1.5)  # well into the run
        children = _descendants(process.pid)
        interrupted = time.monotonic()
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=HANG)
        took = time.monotonic() - interrupted
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(5)
    assert process.returncode == 130, err
    assert err.decode() == "sudokulab: interrupted\n"  # no worker's traceback either
    assert not (tmp_path / "r.csv").exists()
    assert took < HANG
    deadline = time.monotonic() + 10
    while (any(_alive(pid) for pid in children) or _marked(mark)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in children if _alive(pid)], "a process outlived the run"
    assert not _marked(mark), "a process the run started outlived it"


def _marked(mark: str) -> list[int]:
    """Live processes whose environment holds the mark (started by the run, however far down)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                environ = (entry / "environ").read_bytes()
            except OSError:
                continue
            if f"SUDOKULAB_TEST_MARK={mark}".encode() in environ and _alive(int(entry.name)):
                found.append(int(entry.name))
    return found


@pytest.mark.slow
def test_a_run_whose_last_worker_dies_stops_with_one_line(own_scheduler, tmp_path):
    """No worker left: the run waits the configured time, then one line and exit 2, no Dask log."""
    place = own_scheduler
    big = tmp_path / "big.txt"
    big.write_text("\n".join(PUZZLES_20 * 2000) + "\n")
    env = {**os.environ, "DASK_SUDOKULAB__WORKER_TIMEOUT": "3"}
    run = subprocess.Popen([sys.executable, "-c", "from sudokulab.cli.main import run; run()", "bench", str(big),
                            "--solvers", "backtrack", "--cluster", place.address, "--quiet"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, start_new_session=True)
    try:
        time.sleep(4)  # connected and running
        for worker in place.workers:
            os.killpg(worker.pid, signal.SIGKILL)
        out, err = run.communicate(timeout=WAIT)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
    assert run.returncode == 2, err
    assert err.decode() == ("sudokulab: error: cluster: no worker for 3 s, so the run stopped (wait longer with "
                            "DASK_SUDOKULAB__WORKER_TIMEOUT=SECONDS)\n")
    assert out == b""


@pytest.mark.slow
def test_a_killed_scheduler_is_one_line_and_no_dask_log(own_scheduler, tmp_path):
    place = own_scheduler
    big = tmp_path / "big.txt"
    big.write_text("\n".join(PUZZLES_20 * 2000) + "\n")
    run = subprocess.Popen([sys.executable, "-c", "from sudokulab.cli.main import run; run()", "bench", str(big),
                            "--solvers", "backtrack", "--cluster", place.address, "--quiet"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        time.sleep(4)
        os.killpg(place.processes.started[0].pid, signal.SIGKILL)  # the scheduler
        out, err = run.communicate(timeout=WAIT + 30)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
    assert run.returncode == 2, err
    lines = err.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith("sudokulab: error: cluster:"), err.decode()
    assert b"Traceback" not in err and out == b""
