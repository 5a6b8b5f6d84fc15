"""bench on a Dask cluster: the scheduler's cost per task, the batch size, and --jobs 1 / 2 against local:2.

    .venv/bin/python benchmarks/cluster.py                       # writes benchmarks/results/cluster.md
    .venv/bin/python benchmarks/cluster.py --puzzles 10000 --sizes 16,256,4096 --out /tmp/cluster.md

1. **Per-task overhead.** No-op tasks (``abs``) through a ``dask scheduler`` process with two
   ``dask worker`` processes on 127.0.0.1 (one thread each, no nanny), as ``DaskExecutor.imap``
   sends them (bounded in flight) and all at once (``client.map``): wall time per task, and the
   scheduler process's own CPU time per task (``/proc/PID/stat``), the figure that bounds a big
   cluster. The same on ``local:2`` (whose scheduler shares the client's process).
2. **Batch size.** bench's own worker function (``bench_worker.run_batch``: every puzzle of a batch solved
   and checked on the worker) over ``--puzzles`` of ``--set`` (17_clue; found by the catalogue, or in
   ``--data DIR``), through ``--jobs 1``, ``--jobs 2`` and
   ``--cluster local:2`` at each batch size, the client turning each result into rows
   (``bench._rows``) as ``sudokulab bench`` does; one executor per kind for all sizes, warmed up
   first (solvers built, the jit compiled), so start-up is not counted. Small batches run fewer
   puzzles (at most 1,000 tasks).
3. **Whole commands.** ``sudokulab bench`` itself, start-up included, with each executor at the
   default batch size.
4. **Volume.** Pickled bytes per puzzle of a batch going out and of its result coming back.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from harness import RESULTS, command_line, dataset, load, machine, timer, write_results

from sudokulab.bench import run as bench
from sudokulab.bench import worker as bench_worker
from sudokulab.datasets.reading import Dataset
from sudokulab.execution import cluster, executors

BIN = Path(sys.executable).parent
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime


class Processes:
    """A dask scheduler and workers on loopback, stopped at the end whatever happens."""

    def __init__(self, workers: int):
        self.folder = Path(tempfile.mkdtemp(prefix="sudokulab-cluster-bench-"))
        self.started: list[subprocess.Popen] = []
        file = self.folder / "scheduler.json"
        self.scheduler = self.start("scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                                    "--dashboard-address", "127.0.0.1:0", "--scheduler-file", str(file))
        deadline = time.monotonic() + 60
        while not (file.exists() and file.stat().st_size):
            if time.monotonic() > deadline:
                raise SystemExit("the scheduler did not start")
            time.sleep(0.1)
        self.address = json.loads(file.read_text())["address"]
        for _ in range(workers):
            self.start("worker", "--scheduler-file", str(file), "--host", "127.0.0.1", "--nthreads", "1",
                       "--no-nanny", "--no-dashboard", "--dashboard-address", "127.0.0.1:0")

    def start(self, *argv: str) -> subprocess.Popen:
        process = subprocess.Popen([str(BIN / "dask"), *argv], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                   cwd=self.folder, start_new_session=True,
                                   env={**os.environ, "DASK_DISTRIBUTED__ADMIN__LOW_LEVEL_LOG_LENGTH": "16"})
        self.started.append(process)
        return process

    def stop(self) -> None:
        for process in reversed(self.started):
            process.terminate()
        for process in self.started:
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)


def overhead(tasks: int) -> list[str]:
    lines = ["| where | how | tasks | wall ms per task | scheduler CPU ms per task |",
             "| --- | --- | ---: | ---: | ---: |"]
    place = Processes(2)
    try:
        with cluster.connect(place.address, timeout=60) as executor:
            executor.client.wait_for_workers(2, timeout=60)
            list(executor.imap(abs, range(-50, 0)))  # warm
            for how, run in _ways(executor, tasks):
                cpu = cpu_seconds(place.scheduler.pid)
                with timer() as took:
                    run()
                wall = took[0].wall
                cpu = cpu_seconds(place.scheduler.pid) - cpu
                lines.append(f"| dask scheduler + 2 workers | {how} | {tasks} | {1e3 * wall / tasks:.2f} | "
                             f"{1e3 * cpu / tasks:.2f} |")
    finally:
        place.stop()
    with cluster.connect("local:2") as executor:
        list(executor.imap(abs, range(-50, 0)))
        for how, run in _ways(executor, tasks):
            with timer() as took:
                run()
            wall = took[0].wall
            lines.append(f"| local:2 | {how} | {tasks} | {1e3 * wall / tasks:.2f} | (in the client's process) |")
    return lines


def _ways(executor, tasks):
    client = executor.client
    return [
        ("imap, 4 in flight", lambda: sum(1 for _ in executor.imap(abs, range(-tasks, 0), in_flight=4))),
        ("imap, 16 in flight", lambda: sum(1 for _ in executor.imap(abs, range(-tasks, 0), in_flight=16))),
        ("client.map, all at once", lambda: client.gather(client.map(abs, range(-tasks, 0), pure=False))),
    ]


READING = """How to read these figures. Everything here runs on one machine of two cores shared with other
work (the load average above): the client, the scheduler (inside the client's process for `local:2`)
and two workers compete for the two cores, so no executor can show a speed-up over `--jobs 1` here.
What the figures do show is the cost of each way of running: per task (the first table), and per
puzzle as the batch grows (the second). Rounds of the same figure differed by up to 4.6x as the other
work came and went, hence the best of several rounds, interleaved. On a real cluster each worker
has its own core and the scheduler its own machine; the last section takes the measured costs there."""

_RATES: dict[tuple[str, int], float] = {}


def study(path: Path, solver: str, puzzles: int, sizes: list[int], repeat: int) -> tuple[list[str], dict]:
    spec = bench_worker.WorkSpec.of([solver], {}, bench.DEFAULT_TIME_LIMIT)
    kinds = {"--jobs 1": lambda: executors.local(1), "--jobs 2": lambda: executors.local(2),
             "--cluster local:2": lambda: cluster.connect("local:2")}
    rates: dict[tuple[str, int], float] = {}
    volume = {}
    opened = {}
    try:
        for kind, make in kinds.items():
            executor = opened[kind] = make()
            warm = Dataset.from_path(path, limit=64 * max(1, executor.workers))
            list(executor.imap(bench_worker.run_batch, ((spec, b) for b in warm.batches(16))))
        # Rounds over every (size, kind) in turn, so that a change of load on the shared machine hits
        # all of them alike; the best round of each is kept (other work only ever slows a run down).
        for _ in range(repeat):
            for size in sizes:
                n = min(puzzles, 1000 * size)
                for kind, executor in opened.items():
                    dataset = Dataset.from_path(path, limit=n)
                    rows = 0
                    with timer() as took:
                        for (_, batch), outcome in executor.imap(bench_worker.run_batch,
                                                                 ((spec, b) for b in dataset.batches(size))):
                            rows += sum(1 for _ in bench._rows(batch, outcome))
                            if kind == "--jobs 1" and size == 512 and not volume:
                                volume = {"out": len(pickle.dumps((spec, batch))) / len(batch),
                                          "back": len(pickle.dumps(outcome)) / len(batch), "batch": len(batch)}
                    wall = took[0].wall
                    assert rows == n, (rows, n)
                    rates[kind, size] = max(rates.get((kind, size), 0.0), n / wall)
                    print(f"{kind:18} batch {size:5}: {n:6} puzzles in {wall:6.2f} s: {n / wall:9.0f} puzzles/s",
                          file=sys.stderr, flush=True)
    finally:
        for executor in opened.values():
            executor.close()
    _RATES.update(rates)
    lines = ["| batch size | " + " | ".join(kinds) + " |", "| ---: |" + " ---: |" * len(kinds)]
    for size in sizes:
        lines.append(f"| {size} | " + " | ".join(f"{rates[k, size]:,.0f}" for k in kinds) + " |")
    return lines, volume


def client_costs(path: Path, solver: str, puzzles: int) -> dict[str, float]:
    """Microseconds per puzzle the client spends reading a dataset into batches, and per row making
    rows and writing them as CSV (what ``sudokulab bench --output FILE.csv`` does with every result)."""
    import csv
    import io

    from sudokulab.bench.results import CSV_FIELDS

    dataset = Dataset.from_path(path, limit=puzzles)
    with timer() as took:
        batches = [b for b in dataset.batches(512) if not hasattr(b, "error")]
    read = took[0].wall / puzzles
    spec = bench_worker.WorkSpec.of([solver], {}, bench.DEFAULT_TIME_LIMIT)
    outcomes = [bench_worker.run_batch((spec, b)) for b in batches]
    sink = io.StringIO()
    writer = csv.DictWriter(sink, CSV_FIELDS)
    rows = 0
    with timer() as took:
        for batch, outcome in zip(batches, outcomes):
            for row in bench._rows(batch, outcome):
                writer.writerow(row.as_csv())
                rows += 1
    write = took[0].wall / rows
    return {"read_us": 1e6 * read, "row_us": 1e6 * write}


def analysis(overhead_rows: list[str], rates: dict, volume: dict, client: dict) -> list[str]:
    """The 100-node, ten-million-puzzle run on paper, from this run's figures."""
    saturated = [r for r in overhead_rows if r.startswith("| dask scheduler") and "all at once" in r]
    scheduler_ms = float(saturated[0].split("|")[5])  # CPU per task with the scheduler kept busy
    rate = max(v for (k, _), v in rates.items() if k == "--jobs 1")  # one core, best batch size
    n = 10_000_000
    lines, needed = [], {}
    for cores in (2, 32):
        w = 100 * cores
        compute = n / (w * rate)
        busy = w * scheduler_ms / 1e3 * rate  # puzzles a task must hold so the scheduler keeps w workers fed
        needed[w] = busy
        lines.append(f"| {cores} | {w:,} | {compute:.1f} s | {busy:,.0f} | {n / busy:,.0f} | {n / w:,.0f} | "
                     f"{n / 512 * scheduler_ms / 1e3:.0f} s |")
    client_s = n * (client["read_us"] + client["row_us"]) / 1e6
    out_mb, back_mb = n * volume.get("out", 0) / 1e6, n * volume.get("back", 0) / 1e6
    return [
        f"Inputs, measured above: the scheduler's CPU per task when it is kept busy, {scheduler_ms:.2f} ms (on a "
        f"loaded core here; Dask's own guide says about 1 ms); one worker core solves {rate:,.0f} puzzles/s "
        f"(`--jobs 1`, best batch size); {volume.get('out', 0):.0f} bytes a puzzle go out and "
        f"{volume.get('back', 0):.0f} come back; the client spends {client['read_us']:.1f} us a puzzle reading "
        f"the dataset into batches and {client['row_us']:.1f} us a row making and writing CSV rows "
        "(one solver: one row a puzzle).",
        "",
        "| cores a node | workers W | compute, spread evenly | puzzles a batch must hold to keep W busy "
        "| tasks then | puzzles a worker gets in all | scheduler time at 512 a batch |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        *lines,
        "",
        f"- **Compute is not the bound.** Ten million 17-clue puzzles are {n / rate / 3600:.2f} core-hours of "
        "`backtrack-jit`; spread over 100 nodes, about a second.",
        f"- **The scheduler** spends about {scheduler_ms:.2f} ms of one core a task, so it dispatches at most "
        f"about {1e3 / scheduler_ms:,.0f} tasks a second, whatever the cluster's size. A task must last W times "
        "that for W workers to stay busy, so a batch must hold W x (scheduler seconds a task) x (puzzles a second "
        f"a core) puzzles: {needed[200]:,.0f} for 200 workers; {needed[3200]:,.0f} for 3,200, more than each of "
        f"them gets in all ({n // 3200:,}), so there the run ends before the cluster is full. At bench's "
        "default of 512 a batch, ten million puzzles are "
        f"{n // 512:,} tasks and {n / 512 * scheduler_ms / 1e3:.0f} s of scheduler time, against about a second of "
        "work spread evenly: the scheduler, not the workers, sets the pace. Give `--batch-size` in the tens of "
        "thousands on a big cluster.",
        f"- **The client is the real bound.** Reading the dataset and writing the rows cost it about "
        f"{client_s:,.0f} s for ten million puzzles ({client['read_us'] + client['row_us']:.1f} us each, one "
        "Python process, a row a puzzle per solver), whatever the cluster's size; "
        f"{out_mb:,.0f} MB go out and {back_mb:,.0f} MB come back, {8 * (out_mb + back_mb) / 1000:.0f} s on a "
        "1 Gb/s link. So 100 nodes finish ten million puzzles no faster than about "
        f"{max(client_s, n / 512 * scheduler_ms / 1e3):,.0f} s, the time one node of two cores needs "
        f"({n / (2 * rate):,.0f} s of compute) give or take. What would move the bound: workers reading their own "
        "slices of a file they share and sending back sums rather than rows (not built).",
    ]


def whole_commands(path: Path, solver: str, puzzles: int) -> list[str]:
    lines = ["| command | wall s (start-up included) | puzzles/s |", "| --- | ---: | ---: |"]
    for extra in (["--jobs", "1"], ["--jobs", "2"], ["--cluster", "local:2"]):
        argv = [str(BIN / "sudokulab"), "bench", str(path), "--solvers", solver, "--limit", str(puzzles), "--quiet",
                *extra]
        with timer() as took:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=600)
        wall = took[0].wall
        if done.returncode:
            raise SystemExit(f"{' '.join(argv)}: exit {done.returncode}: {done.stderr.strip()}")
        lines.append(f"| `bench --solvers {solver} --limit {puzzles} {' '.join(extra)}` | {wall:.2f} | "
                     f"{puzzles / wall:,.0f} |")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, help="folder of the sets (default: the catalogue's)")
    parser.add_argument("--set", default="17_clue")
    parser.add_argument("--solver", default="backtrack-jit")
    parser.add_argument("--puzzles", type=int, default=49158)
    parser.add_argument("--sizes", default="1,4,16,64,256,512,1024,4096")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each batch-size figure; the best is kept")
    parser.add_argument("--tasks", type=int, default=3000, help="no-op tasks for the overhead figures")
    parser.add_argument("--out", type=Path, default=RESULTS / "cluster.md")
    args = parser.parse_args()
    path = dataset(args.set, args.puzzles, args.data)
    if path is None:
        return 2
    measured_on = machine()
    with timer() as took:
        first = overhead(args.tasks)
        sizes = [int(s) for s in args.sizes.split(",")]
        second, volume = study(path, args.solver, args.puzzles, sizes, args.repeat)
        third = whole_commands(path, args.solver, args.puzzles)
        client = client_costs(path, args.solver, min(args.puzzles, 20000))
        fourth = analysis(first, _RATES, volume, client)
    import distributed

    text = "\n".join([
        f"Load average {load():.2f} at the end (other work on the machine), dask/distributed "
        f"{distributed.__version__}; {took[0].wall:.0f} s in all. "
        "Every process on one machine: the scheduler, the workers and the client share its cores.",
        "",
        READING,
        "",
        "## The scheduler's cost per task",
        "",
        *first,
        "",
        f"## Batch size: {args.solver} on {args.set}, puzzles/s of wall time",
        "",
        f"Up to {args.puzzles:,} puzzles (at most 1,000 tasks: {min(sizes)} a batch runs "
        f"{min(args.puzzles, 1000 * min(sizes)):,}); executors warm (solvers built, jit compiled); the best of "
        f"{args.repeat} rounds, each over every size and executor in turn.",
        "",
        *second,
        "",
        "## Whole commands, start-up included",
        "",
        *third,
        "",
        "## Volume per puzzle",
        "",
        f"A batch of {volume.get('batch')} puzzles pickled: {volume.get('out', 0):.0f} bytes a puzzle out (the task), "
        f"{volume.get('back', 0):.0f} bytes a puzzle back (status, times, effort, verdicts; grids are checked on "
        "the worker and not sent back).",
        "",
        "## What bounds 100 nodes over ten million puzzles",
        "",
        *fourth,
        "",
    ])
    written = write_results(args.out.name, "bench on a Dask cluster", text, how=f"Made by `{command_line()}`.",
                            measured_on=measured_on, folder=args.out.parent)
    print(written.read_text(), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
