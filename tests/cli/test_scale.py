"""rate and propagate --summary at scale: the same answers whoever does the work.

``--jobs 1``, ``--jobs 2`` and a real local Dask cluster (``--cluster local:2``, on loopback) must
give the same ratings, the same distribution and the same rows in the same order (the seconds
aside), and the same ladder table. The dataset mixes puzzles of very different cost, a bad line
and a puzzle with no solution, so batches finish out of order and error rows must keep their
place. The progress bar goes to stderr, only on a terminal; a signal ends a pooled run cleanly.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sudokulab.errors import UsageError
from sudokulab.execution import executors
from sudokulab.execution.cluster import check_where

from ..conftest import EXAMPLES, ROOT, dataset, run_cli
from ..processes import cleaned_up, needs_proc_children, survivors, wait_for_children

PUZZLES_20 = [line for line in (EXAMPLES / "puzzles-20.txt").read_text().splitlines() if not line.startswith("#")]


@pytest.fixture(scope="module")
def mixed(tmp_path_factory) -> Path:
    """A hard puzzle first (its batch finishes last), easy ones, a bad line, a puzzle with no solution.
    One hard puzzle, not three: each rating of it is seconds, and every test here rates the file 2-4 times."""
    hard = [line for line in dataset("magictour_top1465", 1).read_text().splitlines()
            if line.strip() and not line.startswith("#")][:1]
    broken = PUZZLES_20[3][:40] + "x" + PUZZLES_20[3][41:]
    no_solution = "11" + PUZZLES_20[0][2:]
    path = tmp_path_factory.mktemp("scale") / "mixed.txt"
    path.write_text("\n".join(hard + PUZZLES_20[:9] + [broken, no_solution] + PUZZLES_20[9:]) + "\n")
    return path


def without_seconds(document: dict) -> dict:
    """A rate document with the timings (which differ run to run) left out."""
    for row in document["puzzles"]:
        row.pop("seconds", None)
    for row in document["datasets"]:
        row.pop("seconds")
        row.pop("per_second")
    return document


# --- the shared dispatch ------------------------------------------------------------------------------

class _Reversed(executors.InProcess):
    """An executor that hands results back in the reverse order of the items (a cluster's worst case)."""

    workers = 3

    def imap(self, fn, items, *, in_flight=None):
        done = [(item, fn(item)) for item in items]
        yield from reversed(done)


def _twice(task):
    factor, numbers = task
    return [factor * n for n in numbers]


@pytest.mark.parametrize("size", [1, 2, 3, 7, 50])
def test_in_order_gives_results_in_input_order_whatever_order_they_finish(size):
    assert list(executors.in_order(_Reversed(), _twice, 2, range(17), size)) == [2 * n for n in range(17)]
    assert list(executors.in_order(_Reversed(), _twice, 2, [], size)) == []


def test_batch_size_gives_every_worker_a_few_tasks():
    assert executors.batch_size(8, 1000, 1) == 1  # in this process: item by item, the bar moves each time
    assert executors.batch_size(8, 1000, 2) == 8
    assert executors.batch_size(8, 20, 2) == 3  # 20 items, 2 workers: 7 tasks, not 3
    assert executors.batch_size(8, None, 2) == 8


# --- a pool that fits the work ----------------------------------------------------------------------

@pytest.mark.parametrize("asked, batches, most, workers", [
    (2, 1, 8, 1), (2, 2, 8, 2), (2, 20, 8, 2), (8, 3, 8, 3), (16, None, 8, 8), (16, 100, 4, 4), (1, 1, 8, 1),
    (2, None, 8, 2), (4, 0, 16, 1),
])
def test_the_pool_is_no_larger_than_the_batches_nor_a_few_per_cpu(asked, batches, most, workers):
    size = executors.pool_size(asked, batches, "the work", most=most)
    assert size.workers == workers
    assert (size.note() is None) == (workers == asked)
    if workers < asked:
        assert size.note().startswith(f"--jobs {asked}: ") and (
            "this process alone" if workers == 1 else f"{workers} processes") in size.note()


def test_one_batch_of_work_runs_in_this_process_and_says_so(capsys):
    """The README's own ``solve --all examples/puzzles-20.txt --jobs 2``: 20 puzzles are one batch, so no
    process is started for them (each would cost far more than the work); the answers are the same."""
    puzzles = str(EXAMPLES / "puzzles-20.txt")
    code, alone, err = run_cli(capsys, "solve", "--all", puzzles)
    assert code == 0 and "note" not in err
    code, out, err = run_cli(capsys, "solve", "--all", puzzles, "--jobs", "2")
    assert code == 0 and out == alone
    note, summary = err.splitlines()
    assert note == "sudokulab: note: --jobs 2: this process alone, since the work is 1 batch (20 puzzles, 512 a batch)"
    assert summary.startswith("20 entries: 20 solved;") and summary.endswith(", this process)")
    code, out, err = run_cli(capsys, "bench", puzzles, "--solvers", "backtrack-fast", "--jobs", "2", "--quiet")
    assert code == 0 and "where: this process" in " ".join(out.split())
    assert err == "sudokulab: note: --jobs 2: this process alone, since the work is 1 batch (20 puzzles, 512 a batch)\n"


@pytest.mark.slow
@needs_proc_children
def test_ctrl_c_while_the_workers_start_ends_the_run_at_once(tmp_path):
    """Ctrl-C as soon as the pool's workers exist, while they still import and load their solver: the
    command ends with 130 and its one line, and no worker outlives it."""
    big = tmp_path / "big.txt"
    big.write_text("\n".join(PUZZLES_20 * 500) + "\n")  # 10,000 puzzles: 20 batches, the two processes asked for
    code = "import sys\nfrom sudokulab.cli.main import run\nsys.argv = ['sudokulab', *sys.argv[1:]]\nrun()\n"
    process = subprocess.Popen([sys.executable, "-c", code, "solve", "--all", str(big), "--jobs", "2",
                                "--solver", "backtrack-jit"], cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, start_new_session=True)
    with cleaned_up(process) as left:
        left += wait_for_children(process, 2)  # the marker: the worker exists (and the resource tracker)
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=120)
        still = survivors(left, within=30)
        assert process.returncode == 130, err.decode()
        assert err.decode().endswith("sudokulab: interrupted\n") and "Traceback" not in err.decode()
        assert not still, "processes of the pool outlived the command"


def test_jobs_and_cluster_together_are_refused_in_one_line(capsys):
    with pytest.raises(UsageError, match="give one of them"):
        check_where(2, "local:2")
    puzzles = str(EXAMPLES / "puzzles-20.txt")
    for argv in (["rate", puzzles], ["propagate", "--summary", puzzles]):
        code, out, err = run_cli(capsys, *argv, "--jobs", "2", "--cluster", "local:2")
        assert code == 2 and out == "" and err == ("sudokulab: error: --jobs is for this machine and --cluster "
                                                   "for a cluster: give one of them\n")
    code, out, err = run_cli(capsys, "propagate", str(EXAMPLES / "boj2580-sample.txt"), "--jobs", "2")
    assert code == 2 and "go with --summary" in err


# --- the same answers, however split -----------------------------------------------------------------

WHERE = [["--jobs", "1"], ["--jobs", "2"], ["--cluster", "local:2"]]


def _where_ids(where: list[str]) -> str:
    return "".join(where).lstrip("-")


@pytest.mark.slow
def test_rate_gives_the_same_rows_and_distribution_however_the_work_is_split(capsys, mixed):
    documents = {}
    for where in WHERE:
        if where[0] == "--cluster":
            pytest.importorskip("distributed")
        code, out, err = run_cli(capsys, "rate", str(mixed), "--json", "--quiet", *where)
        assert code == 0, err
        documents[_where_ids(where)] = without_seconds(json.loads(out))
    first, *others = documents.values()
    assert all(other == first for other in others)
    rows = first["puzzles"]
    assert [row["line"] for row in rows] == list(range(1, 24))  # every line, in file order
    assert "error" in rows[10] and "error" in rows[11] and first["datasets"][0]["failed"] == 2
    assert rows[0]["rating"] > 7  # the magictour puzzle: the dataset really is mixed


@pytest.mark.slow
def test_rate_rows_print_in_file_order_with_jobs(capsys, mixed):
    lines = {}
    for where in WHERE[:2]:
        code, out, err = run_cli(capsys, "rate", str(mixed), "--rows", "--quiet", *where)
        assert code == 0, err
        lines[_where_ids(where)] = [line.split()[:2] for line in out.splitlines()[:23]]
    assert lines["jobs1"] == lines["jobs2"]


@pytest.mark.slow
def test_propagate_summary_is_the_same_table_however_the_work_is_split(capsys, tmp_path):
    source = dataset("magictour_top1465", 60)
    data = tmp_path / "set.txt"
    puzzles = [line for line in source.read_text().splitlines() if line.strip() and not line.startswith("#")][:60]
    data.write_text("\n".join(puzzles + ["11" + PUZZLES_20[0][2:]] + PUZZLES_20) + "\n")
    tables = {}
    for where in WHERE:
        if where[0] == "--cluster":
            pytest.importorskip("distributed")
        code, out, err = run_cli(capsys, "propagate", str(data), "--summary", "--json", "--quiet", *where)
        assert code == 0, err
        tables[_where_ids(where)] = json.loads(out)
    first, *others = tables.values()
    assert all(other == first for other in others)
    assert first["puzzles"] == 81 and first["levels"][-1]["contradictions"] == 1
    assert 0 < first["levels"][0]["settled"] < first["levels"][-1]["settled"]  # the ladder does something here


# --- on a terminal; signals ------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("command", ["rate", "propagate"])
def test_the_bar_is_on_stderr_and_stdout_stays_clean_with_jobs(command, tmp_path):
    from .test_terminal import command as shell_command
    from .test_terminal import in_terminal, without_terminal

    pytest.importorskip("pexpect")
    source = dataset("magictour_top1465", 40)
    args = (["rate", str(dataset("17_clue", 40)), "--limit", "16", "--json"] if command == "rate"  # 2 batches
            else ["propagate", "--summary", str(source), "--limit", "40", "--json"])
    plain = without_terminal(*args, "--jobs", "2", cwd=tmp_path)
    assert plain.returncode == 0 and plain.stderr == "", plain.stderr
    out = tmp_path / "out.json"
    shown = in_terminal(shell_command(*args, "--jobs", "2") + f" > {out}", 100, tmp_path)
    assert shown.status == 0, shown.raw[-2000:]
    text = out.read_text()
    assert "\x1b" not in text and "Traceback" not in shown.raw
    label = "rating" if command == "rate" else "puzzles"
    assert label in shown.raw  # the bar was drawn, on stderr (stdout went to the file)
    assert shown.text == ""  # and it has gone
    if command == "rate":
        assert without_seconds(json.loads(text)) == without_seconds(json.loads(plain.stdout))
    else:
        assert json.loads(text) == json.loads(plain.stdout)


@pytest.mark.slow
@needs_proc_children
@pytest.mark.parametrize("command, signum", [("rate", signal.SIGTERM), ("rate", signal.SIGINT),
                                             ("propagate", signal.SIGTERM)])
def test_a_signal_ends_a_pooled_run_cleanly(tmp_path, command, signum):
    big = tmp_path / "big.txt"
    hard = [line for line in dataset("magictour_top1465", 200).read_text().splitlines()
            if line.strip() and not line.startswith("#")]
    big.write_text("\n".join(hard * 10) + "\n")  # minutes of work on two processes
    args = (["rate", str(big)] if command == "rate" else ["propagate", "--summary", str(big)])
    code = "import sys\nfrom sudokulab.cli.main import run\nsys.argv = ['sudokulab', *sys.argv[1:]]\nrun()\n"
    process = subprocess.Popen([sys.executable, "-c", code, *args, "--jobs", "2", "--quiet"], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    with cleaned_up(process) as left:
        left += wait_for_children(process, 2)  # the worker beside this process, and the resource tracker
        time.sleep(1.5)  # both workers at work
        os.killpg(process.pid, signum)  # as a terminal's Ctrl-C or a closed session: the whole group
        out, err = process.communicate(timeout=60)
        still = survivors(left, within=30)
        assert process.returncode == 128 + signum
        assert err.decode() == f"sudokulab: {'terminated' if signum == signal.SIGTERM else 'interrupted'}\n"
        assert out.decode().rstrip("\n").splitlines()[-1].startswith("stopped by a signal after ")  # what finished
        assert not still, "processes of the pool outlived the command"
