"""Nothing lost on a stop: Ctrl-C (or SIGTERM) in the middle of a long command prints what finished,
marked partial, and ends with 130 (143); with ``--json`` the last document says ``"partial": true``.

Each command runs as a person runs it: in pipes, or under a pseudo-terminal (``test_terminal``'s
``in_terminal``). The signal is sent once a marker shows the command at work: its first row of
output, a row in its ``--output`` file, or (for the commands that print nothing until the end) PySAT
loaded and CPU seconds spent, read from /proc. Nothing here asserts how fast anything is; the
waits are bounds against hangs.
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

from sudokulab import is_solution, parse_puzzle
from sudokulab.formats import documents

from ..conftest import EXAMPLES, HANG, dataset
from ..processes import cleaned_up
from .test_signals import sudokulab

PROGRAMS = Path(__file__).resolve().parents[1] / "fixtures" / "programs"
PUZZLES_20 = [line for line in (EXAMPLES / "puzzles-20.txt").read_text().splitlines()
              if line and not line.startswith("#")]
needs_proc = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc to see the command at work")


def start(args: list[str], cwd: Path) -> subprocess.Popen:
    return subprocess.Popen(sudokulab() + args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)


def stop(process: subprocess.Popen, signum: int, first: bytes = b"") -> tuple[int, str, str]:
    """Signal the command's group (as a terminal's Ctrl-C does), then its exit code, stdout (``first``: what
    was read of it already) and stderr."""
    os.killpg(process.pid, signum)
    if first:  # read on through the reader that read ``first``: communicate() would miss what it buffered
        out = process.stdout.read()
        err = process.stderr.read()  # a few lines: far less than a pipe holds
        process.wait(timeout=HANG * 4)
    else:
        out, err = process.communicate(timeout=HANG * 4)
    return process.returncode, (first + out).decode(), err.decode()


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def at_work(process: subprocess.Popen, cpu: float, library: str | None = None) -> None:
    """Wait until the command has spent ``cpu`` CPU seconds (and loaded ``library``): the marker of a
    command that prints nothing until its end. CPU seconds, not wall seconds: a busy machine slows
    both the command and this wait alike."""
    deadline = time.monotonic() + HANG * 4
    while time.monotonic() < deadline:
        assert process.poll() is None, f"ended first: {process.communicate()}"
        try:
            if cpu_seconds(process.pid) >= cpu and (
                    library is None or library in Path(f"/proc/{process.pid}/maps").read_text()):
                return
        except (FileNotFoundError, ProcessLookupError):
            pass
        time.sleep(0.05)
    raise AssertionError("the command never got to work")


def rows_of(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def no_traceback(err: str) -> None:
    assert "Traceback" not in err and "Error" not in err, err[-3000:]


@pytest.fixture(scope="module")
def hard(tmp_path_factory) -> Path:
    """60 hard puzzles: a rating or a climb of the ladder takes a good part of a second each."""
    return dataset("magictour_top1465", 60)


@pytest.fixture(scope="module")
def many(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("stops") / "many.txt"
    path.write_text("\n".join(PUZZLES_20[i % 20] for i in range(200_000)) + "\n")
    return path


# --- judge --------------------------------------------------------------------------------------------

JUDGED = ["--isolation", "none", "--quiet", "--time-limit", "20", "--", sys.executable,
          str(PROGRAMS / "boj2580_backtrack.py")]


@pytest.mark.slow
def test_judge_stopped_prints_the_entries_judged_and_a_partial_summary_row(tmp_path):
    process = start(["judge", str(EXAMPLES / "puzzles-20.txt"), "--json", *JUDGED], tmp_path)
    with cleaned_up(process):
        first = process.stdout.readline()  # the marker: an entry judged
        code, out, err = stop(process, signal.SIGINT, first)
    no_traceback(err)
    *judged, summary = rows_of(out)
    for row in [*judged, summary]:
        documents.validate("judge", row)
    assert code == 130 and err.endswith("sudokulab: interrupted\n")
    assert 1 <= len(judged) < 20 and summary["summary"] is True and summary["partial"] is True
    assert summary["entries"] == len(judged) and summary["counts"]["accepted"] == len(judged)
    assert f"stopped by a signal after {len(judged)} entries" in " ".join(err.split())


@pytest.mark.slow
def test_judge_terminated_shows_its_summary_table_and_exits_143(tmp_path):
    results = tmp_path / "judged.jsonl"
    process = start(["judge", str(EXAMPLES / "puzzles-20.txt"), "--output", str(results), *JUDGED], tmp_path)
    with cleaned_up(process):
        deadline = time.monotonic() + HANG * 4
        while (not results.exists() or len(results.read_text().splitlines()) < 2) and time.monotonic() < deadline:
            time.sleep(0.05)  # the marker: the header and a first entry's row written
        code, out, err = stop(process, signal.SIGTERM)
    no_traceback(err)
    assert code == 143 and err.endswith("sudokulab: terminated\n")
    kept = results.read_text().splitlines()[1:]
    text = " ".join(out.split())
    assert "judge summary" in out and "stopped by a signal after" in text
    decided = int(text.split("stopped by a signal after ")[1].split()[0])
    assert decided == len(kept) >= 1  # every entry the summary counts is in the file
    again = subprocess.run(sudokulab() + ["judge", str(EXAMPLES / "puzzles-20.txt"), "--output", str(results),
                                          *JUDGED], cwd=tmp_path, capture_output=True, text=True, timeout=HANG * 4)
    assert again.returncode == 0, again.stderr
    assert f"{len(kept)} of 20 entries judged already in {results}" in again.stderr
    rows = rows_of(results.read_text())[1:]
    assert sorted(row["index"] for row in rows) == list(range(20))  # each entry judged once


# --- rate ---------------------------------------------------------------------------------------------

@pytest.mark.slow
def test_rate_stopped_keeps_what_it_rated_and_the_next_run_rates_only_the_rest(tmp_path, hard):
    results = tmp_path / "ratings.jsonl"
    argv = ["rate", str(hard), "--limit", "8", "--json", "--quiet", "--output", str(results)]
    process = start(argv, tmp_path)
    with cleaned_up(process):
        deadline = time.monotonic() + HANG * 4
        while (not results.exists() or len(results.read_text().splitlines()) < 3) and time.monotonic() < deadline:
            time.sleep(0.05)  # the marker: two puzzles rated and written
        code, out, err = stop(process, signal.SIGINT)
    no_traceback(err)
    assert code == 130 and err.endswith("sudokulab: interrupted\n")
    document = json.loads(out)
    documents.validate("rate", document)
    written = {row["index"]: row for row in rows_of(results.read_text())[1:]}
    assert document["partial"] is True and 2 <= len(written) < 8
    assert [row["index"] for row in document["puzzles"]] == sorted(written)  # what it printed is what it kept
    assert document["datasets"][0]["rated"] == len(written)

    done = subprocess.run(sudokulab() + argv, cwd=tmp_path, capture_output=True, text=True, timeout=HANG * 10)
    assert done.returncode == 0, done.stderr
    assert f"{len(written)} of 8 puzzles rated already in {results}: rating the other {8 - len(written)}" in \
        " ".join(done.stderr.split())
    whole = json.loads(done.stdout)
    assert whole["partial"] is False and [row["index"] for row in whole["puzzles"]] == list(range(8))
    rows = rows_of(results.read_text())[1:]
    assert sorted(row["index"] for row in rows) == list(range(8))  # each puzzle rated once, none again
    for row in whole["puzzles"]:
        if row["index"] in written:  # kept, not rated again: the very row of the first run, seconds and all
            assert {k: v for k, v in written[row["index"]].items() if k != "puzzle"} == row


def test_rate_refuses_to_resume_a_file_made_under_other_settings_or_by_another_command(tmp_path, capsys):
    from ..conftest import run_cli

    results = tmp_path / "ratings.jsonl"
    puzzles = str(EXAMPLES / "puzzles-20.txt")
    code, _, err = run_cli(capsys, "rate", puzzles, "--limit", "2", "--quiet", "--output", str(results))
    assert code == 0, err
    code, out, err = run_cli(capsys, "rate", puzzles, "--limit", "2", "--quiet", "--output", str(results),
                             "--time-limit", "5")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "other settings (time_limit none there, 5.0 now)" in err
    other = tmp_path / "notes.jsonl"
    other.write_text('{"mine": true}\n')
    code, _, err = run_cli(capsys, "rate", puzzles, "--limit", "2", "--quiet", "--output", str(other))
    assert code == 2 and "not a results file of sudokulab rate" in err
    assert other.read_text() == '{"mine": true}\n'  # left as it was


def test_a_results_file_cut_short_by_a_kill_is_resumed_from_its_last_whole_row(tmp_path):
    from sudokulab.formats.resumable import ResumableOutput

    path = tmp_path / "rows.jsonl"
    with ResumableOutput(path, "rate", {"version": "1"}) as out:
        assert out.open() == []
        out.write({"index": 0})
        out.write({"index": 1})
    path.write_text(path.read_text() + '{"index": 2, "cut')  # what a kill -9 in the middle of a write leaves
    with ResumableOutput(path, "rate", {"version": "1"}) as out:
        assert out.open() == [{"index": 0}, {"index": 1}]
        out.write({"index": 2})
    assert [json.loads(line) for line in path.read_text().splitlines()][1:] == [{"index": i} for i in range(3)]
    holder = ResumableOutput(path, "rate", {"version": "1"})
    holder.open()
    try:  # a second run meanwhile is refused, the first's file untouched
        from sudokulab.formats.outputs import OutputError

        with pytest.raises(OutputError, match="another run is writing it now"):
            ResumableOutput(path, "rate", {"version": "1"}).open()
    finally:
        holder.close()


# --- propagate --summary, compare, bench --runs: nothing printed until the end --------------------------

@pytest.mark.slow
@needs_proc
@pytest.mark.parametrize("signum, as_json", [(signal.SIGINT, True), (signal.SIGTERM, False)])
def test_propagate_summary_stopped_prints_the_ladder_of_the_puzzles_that_climbed(tmp_path, hard, signum, as_json):
    big = tmp_path / "big.txt"
    big.write_text(hard.read_text() * 20)
    process = start(["propagate", "--summary", str(big), "--quiet", *(["--json"] if as_json else [])], tmp_path)
    with cleaned_up(process):
        at_work(process, 3.0, "pysolvers")  # the failed-literal level at work
        code, out, err = stop(process, signum)
    no_traceback(err)
    assert code == 128 + signum
    if as_json:
        document = json.loads(out)
        documents.validate("propagate", document)
        assert document["partial"] is True and document["puzzles"] >= 1
        assert all(level["puzzles"] == document["puzzles"] for level in document["levels"])
    else:
        lines = out.splitlines()
        climbed = int(lines[0].split(": ")[-1].split()[0].replace(",", ""))
        assert climbed >= 1 and lines[-1] == (f"stopped by a signal after {climbed:,} puzzle{'s' * (climbed != 1)}: "
                                              "the table covers the puzzles that climbed the ladder")


@pytest.fixture
def deep(tmp_path) -> Path:
    """A 16x16 board the classic row-major search needs minutes for (test_terminal's deep conflict)."""
    rows = [[0] * 16 for _ in range(16)]
    rows[0][15], rows[15][:15] = 16, list(range(1, 16))
    path = tmp_path / "deep-conflict.txt"
    path.write_text("".join(" ".join(map(str, row)) + "\n" for row in rows))
    return path


@pytest.mark.slow
@needs_proc
@pytest.mark.parametrize("signum, as_json", [(signal.SIGINT, False), (signal.SIGTERM, True)])
def test_compare_stopped_shows_the_solvers_that_finished(tmp_path, deep, signum, as_json):
    process = start(["compare", str(deep), "--solvers", "backtrack-fast,sat,backtrack", "--time-limit", "600",
                     *(["--json"] if as_json else [])], tmp_path)
    with cleaned_up(process):
        at_work(process, 4.0, "pysolvers")  # backtrack-fast and sat done, the classic search at work
        code, out, err = stop(process, signum)
    no_traceback(err)
    assert code == 128 + signum
    if as_json:
        document = json.loads(out)
        documents.validate("compare", document)
        assert document["partial"] is True and [run["solver"] for run in document["runs"]] == ["backtrack-fast", "sat"]
        assert all(run["status"] == "no solution" and run["agrees"] for run in document["runs"])  # no 16 fits r16c16
    else:
        assert out == ""  # no answer on stdout from a comparison that is not whole
        assert "stopped by a signal after 2 of 3 solvers" in " ".join(err.split())
        table = err.split("compare on a 16x16")[1]
        assert "backtrack-fast" in table and "sat" in table and "\nbacktrack " not in table


@pytest.mark.slow
@needs_proc
@pytest.mark.parametrize("as_json", [False, True])
def test_bench_runs_stopped_compares_the_runs_that_finished(tmp_path, as_json):
    process = start(["bench", str(EXAMPLES / "puzzles-20.txt"), "--solvers", "backtrack-fast,sat", "--runs", "500",
                     "--quiet", *(["--json"] if as_json else [])], tmp_path)
    with cleaned_up(process):
        at_work(process, 6.0)  # a run is well under a CPU second: several have finished
        code, out, err = stop(process, signal.SIGINT)
    no_traceback(err)
    assert code == 130 and err.endswith("sudokulab: interrupted\n")
    text = " ".join((err if as_json else out).split())
    finished = int(text.split("stopped by a signal after ")[1].split()[0])
    assert 1 <= finished < 500 and "of 500 measured runs: the figures cover the runs that finished" in text
    assert f"puzzles-20: puzzles/s, {finished} run{'s' * (finished != 1)} of 500" in text
    if as_json:
        run = rows_of(out)[-1]
        documents.validate("bench", run)
        assert run["run"] is True and run["partial"] is True and (run["runs"], run["asked"]) == (finished, 500)
        assert all(len(row["rates"]) == finished for row in run["solvers"])


# --- solve --all ------------------------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("signum, as_json", [(signal.SIGINT, False), (signal.SIGTERM, True)])
def test_solve_all_stopped_says_how_far_it_got_and_every_answer_is_in_order(tmp_path, many, signum, as_json):
    process = start(["solve", "--all", str(many), *(["--json"] if as_json else [])], tmp_path)
    with cleaned_up(process):
        first = process.stdout.readline()  # the marker: answers coming
        code, out, err = stop(process, signum, first)
    no_traceback(err)
    assert code == 128 + signum
    said = err.splitlines()[-2]
    written = int(said.removeprefix("stopped by a signal: ").split()[0].replace(",", ""))
    if as_json:
        *answers, summary = rows_of(out)
        documents.validate("solve-all", summary)
        assert summary["partial"] is True and summary["entries"] == summary["solved"] == len(answers) == written
        texts = [row["answer"] for row in answers]
        assert [row["index"] for row in answers] == list(range(written))
    else:
        texts = out.splitlines()
        assert len(texts) == written and out.endswith("\n")  # whole lines only
    assert written >= 1
    for i in list(range(min(written, 50))) + [written - 1]:  # in input order: each answer completes its puzzle
        assert is_solution(tuple(map(int, texts[i])), parse_puzzle(PUZZLES_20[i % 20]))


# --- under a pseudo-terminal ----------------------------------------------------------------------------

@pytest.mark.slow
def test_rate_on_a_terminal_ctrl_c_shows_the_ratings_so_far(tmp_path, hard):
    from .test_terminal import command, in_terminal

    pytest.importorskip("pexpect")
    shown = in_terminal(command("rate", str(hard), "--limit", "40", "--rows"), 100, tmp_path,
                        interrupt_after=r"2/40")  # the marker: two puzzles rated, on the bar
    assert shown.status == 130, shown.raw[-2000:]
    text = " ".join(shown.text.split())
    assert "Traceback" not in shown.raw and "hardest technique" in text
    assert "stopped by a signal after" in text and "of 40 puzzles: the figures cover the puzzles rated" in text
    assert text.endswith("sudokulab: interrupted")


# --- grade ----------------------------------------------------------------------------------------------

@pytest.mark.slow
def test_grade_stopped_says_what_is_stored_and_the_next_run_grades_the_rest(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    student = Path(__file__).resolve().parents[1] / "fixtures" / "grade" / "judge" / "ana.py"
    for i in range(8):
        (folder / f"s{i}.py").write_bytes(student.read_bytes())
    argv = ["grade", str(folder), "--task", "judge", "--time-limit", "10", "--isolation", "none", "--quiet", "--json"]
    process = start(argv, tmp_path)
    stored = tmp_path / "class-gradebook" / "results"
    with cleaned_up(process):
        deadline = time.monotonic() + HANG * 4
        while not (stored.is_dir() and any(stored.glob("*.json"))) and time.monotonic() < deadline:
            time.sleep(0.05)  # the marker: a first student's result stored
        code, out, err = stop(process, signal.SIGINT)
    no_traceback(err)
    assert code == 130 and err.endswith("sudokulab: interrupted\n")
    document = json.loads(out)
    documents.validate("grade", document)
    summary = document["summary"]
    assert summary["partial"] is True and 1 <= summary["students"] < 8
    assert summary["students"] == len(list(stored.glob("*.json"))) == len(document["students"])
    assert f"{summary['students']} of 8 students have a result" in " ".join(err.split())
    again = subprocess.run(sudokulab() + argv, cwd=tmp_path, capture_output=True, text=True, timeout=HANG * 10)
    assert again.returncode == 0, again.stderr
    whole = json.loads(again.stdout)["summary"]
    assert (whole["students"], whole["kept"], whole["graded_now"], whole["partial"]) == (
        8, summary["students"], 8 - summary["students"], False)
