"""bench: every answer checked, wrong ones loud (exit 4), rows and summaries consistent, plots drawn.

No timing assertions: the machine is shared, so only statuses and counts are compared.
"""

from __future__ import annotations

import csv
import json

import pytest

from sudokulab import solvers
from sudokulab.bench import results
from sudokulab.bench import run as bench
from sudokulab.cli import main as cli
from sudokulab.core.puzzle import Puzzle
from sudokulab.errors import ExitCode
from sudokulab.solvers.base import SolverBase, SolveResult, Status
from sudokulab.ui import plots

from ..conftest import EXAMPLES, random_puzzle

SOLVERS = ["backtrack-fast", "sat"]
PNG = b"\x89PNG\r\n\x1a\n"
# Built against brute force: the classic row-major search needs far more than 50 ms on it.
ANTI_BRUTE_FORCE = "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9"


@pytest.fixture
def tiny(tmp_path):
    """Four 9x9 puzzles, one bad line between them, and a comment."""
    lines = ["# a tiny set"]
    for seed in range(4):
        puzzle, _ = random_puzzle(9, 0.4, seed)
        lines.append("".join(str(v) if v else "." for v in puzzle.givens))
        if seed == 1:
            lines.append("12345678x" + "." * 72)
    path = tmp_path / "tiny.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


def read_csv(path):
    with open(path, newline="") as stream:
        return list(csv.DictReader(stream))


@pytest.mark.slow
def test_cli_rows_summary_and_plot(tiny, tmp_path, capsys):
    out, jsonl, png = tmp_path / "r.csv", tmp_path / "r.jsonl", tmp_path / "cactus.png"
    code = cli.main(["bench", str(tiny), "--solvers", ",".join(SOLVERS), "--output", str(out),
                     "--output", str(jsonl), "--output", str(png), "--quiet"])
    stdout, stderr = capsys.readouterr()
    assert code == 0, stderr
    rows = read_csv(out)
    assert len(rows) == 4 * len(SOLVERS)
    assert all(r["valid"] == "1" and r["status"] == "solved" for r in rows)
    assert {(r["index"], r["solver"]) for r in rows} == {(str(i), s) for i in (0, 1, 3, 4) for s in SOLVERS}
    assert [json.loads(line)["solver"] for line in jsonl.read_text().splitlines()] == [r["solver"] for r in rows]
    assert "1 bad entry" in stderr and "line 4" in stderr  # the bad line is named, not fatal
    assert "tiny: 4 puzzles, 1 bad entry skipped" in stdout and "where: this process" in stdout
    assert png.read_bytes().startswith(PNG)


def test_summary_figures_agree_with_rows(tiny, tmp_path):
    out = tmp_path / "r.csv"
    report = bench.run_bench([tiny], SOLVERS, csv_path=out, progress=False, warn=lambda _: None)
    rows = read_csv(out)
    assert report.totals == {"tiny": 4} and report.bad == {"tiny": 1} and report.wrong == 0
    for summary in report.summaries:
        mine = [r for r in rows if r["solver"] == summary.solver]
        times = sorted(float(r["seconds"]) for r in mine)
        assert (summary.puzzles, summary.solved, summary.timed_out, summary.wrong) == (4, 4, 0, 0)
        assert summary.max == pytest.approx(times[-1], abs=1e-6)
        assert times[0] - 1e-6 <= summary.median <= summary.p90 <= summary.p99 <= summary.max
        assert summary.seconds == pytest.approx(sum(times), abs=1e-5)
        assert len(report.solved_times["tiny"][summary.solver]) == 4
    fast = next(s for s in report.summaries if s.solver == "backtrack-fast")
    nodes = [int(r["nodes"]) for r in rows if r["solver"] == "backtrack-fast"]
    assert fast.means["nodes"] == pytest.approx(sum(nodes) / len(nodes))


def test_limit_and_unsolvable_and_time_limit(tmp_path):
    broken = "11" + "." * 79  # the givens break a rule: "no solution" is the right answer
    path = tmp_path / "mixed.txt"
    path.write_text("\n".join([broken, ANTI_BRUTE_FORCE, broken]) + "\n")
    dataset = bench.Dataset.from_path(path, limit=2)
    report = bench.run_bench([dataset], ["backtrack"], time_limit=0.05, progress=False)
    (summary,) = report.summaries
    assert (summary.puzzles, summary.no_solution, summary.timed_out, summary.wrong) == (2, 1, 1, 0)


class WrongSolver(SolverBase):
    """Test-only: answers every puzzle with its givens, blanks filled with 1s."""

    name = "wrong"

    def solve(self, puzzle: Puzzle, *, time_limit=None, canonical=False) -> SolveResult:
        return SolveResult(self.name, Status.SOLVED, tuple(v or 1 for v in puzzle.givens), 0.0, {"nodes": 1})

    def count(self, puzzle, *, limit=2, time_limit=None):
        raise NotImplementedError


class LiarSolver(WrongSolver):
    """Test-only: claims every puzzle has no solution."""

    def solve(self, puzzle: Puzzle, *, time_limit=None, canonical=False) -> SolveResult:
        return SolveResult(self.name, Status.NO_SOLUTION, None, 0.0, {})


class CrashingSolver(WrongSolver):
    def solve(self, puzzle: Puzzle, *, time_limit=None, canonical=False) -> SolveResult:
        raise RuntimeError("boom")


@pytest.fixture
def impostors(monkeypatch):
    for name, cls in (("wrong", WrongSolver), ("liar", LiarSolver), ("crash", CrashingSolver)):
        monkeypatch.setitem(solvers.REGISTRY, name, f"{__name__}:{cls.__name__}")


def test_a_wrong_answer_exits_4_and_names_the_puzzle(tiny, tmp_path, capsys, impostors):
    out = tmp_path / "r.csv"
    code = cli.main(["bench", str(tiny), "--solvers", "backtrack-fast,wrong", "--output", str(out), "--quiet"])
    stdout, stderr = capsys.readouterr()
    assert code == ExitCode.WRONG
    first = tiny.read_text().splitlines()[1]
    assert "WRONG: solver wrong on tiny line 2 (puzzle 1)" in stderr and first in stderr
    assert "4 wrong answers" in stderr
    rows = read_csv(out)
    assert {r["valid"] for r in rows if r["solver"] == "wrong"} == {"0"}
    assert {r["valid"] for r in rows if r["solver"] == "backtrack-fast"} == {"1"}
    assert "wrong" in stdout  # the summary is still printed


def test_no_solution_contradicted_and_crashes_count_as_wrong(tiny, impostors):
    messages: list[str] = []
    report = bench.run_bench([tiny], ["sat", "liar", "crash"], progress=False, warn=messages.append)
    wrong = {s.solver: s.wrong for s in report.summaries}
    assert wrong == {"sat": 0, "liar": 4, "crash": 4}
    assert any("said no solution, but sat found a checked grid" in m for m in messages)
    assert any("raised RuntimeError: boom" in m for m in messages)


@pytest.mark.slow
def test_jobs_2_gives_the_same_statuses_as_jobs_1(tiny, tmp_path):
    results = {}
    for jobs in (1, 2):
        out = tmp_path / f"jobs{jobs}.csv"
        bench.run_bench([tiny, tiny], SOLVERS, jobs=jobs, csv_path=out, progress=False, warn=lambda _: None)
        results[jobs] = sorted((r["dataset"], int(r["index"]), r["solver"], r["status"], r["valid"])
                               for r in read_csv(out))  # with --jobs rows come as batches finish (docs/bench.md)
    assert results[1] == results[2] and len(results[1]) == 2 * 4 * len(SOLVERS)
    assert {r[0] for r in results[1]} == {"tiny", "tiny#2"}


@pytest.mark.slow
def test_one_solver_at_a_time_gives_the_same_rows_and_counts(tiny, tmp_path):
    rows, reports = {}, {}
    for by_solver in (False, True):
        out = tmp_path / f"{by_solver}.csv"
        reports[by_solver] = bench.run_bench([tiny], SOLVERS, csv_path=out, progress=False, warn=lambda _: None,
                                             by_solver=by_solver)
        rows[by_solver] = sorted((r["index"], r["solver"], r["status"], r["valid"]) for r in read_csv(out))
    assert rows[True] == rows[False] and len(rows[True]) == 4 * len(SOLVERS)
    assert reports[True].totals == reports[False].totals == {"tiny": 4}
    assert reports[True].bad == reports[False].bad == {"tiny": 1}
    assert "one solver at a time" in reports[True].how_measured()
    out = tmp_path / "pool.csv"
    bench.run_bench([tiny], SOLVERS, jobs=2, by_solver=True, csv_path=out, progress=False, warn=lambda _: None)
    assert sorted((r["index"], r["solver"], r["status"], r["valid"]) for r in read_csv(out)) == rows[False]


def test_bad_arguments_exit_2(tiny, capsys):
    assert cli.main(["bench", str(tiny), "--solvers", "nope"]) == 2
    assert "unknown solver 'nope'" in capsys.readouterr().err
    assert cli.main(["bench", str(tiny) + ".missing"]) == 2
    assert cli.main(["bench", str(tiny), "--jobs", "0"]) == 2


@pytest.mark.slow
def test_rows_read_back_feed_the_cactus_plot(tiny, tmp_path):
    out = tmp_path / "r.csv"
    bench.run_bench([tiny], SOLVERS, csv_path=out, progress=False, warn=lambda _: None)
    series = bench.solved_times(bench.read_rows([out]))
    assert {s: len(t) for s, t in series["tiny"].items()} == {s: 4 for s in SOLVERS}
    png = plots.cactus_plot({**series, "again": series["tiny"]}, tmp_path / "c.png", cumulative=True)
    assert png.read_bytes().startswith(PNG) and png.stat().st_size > 1000


@pytest.mark.slow
def test_scaling_plot_renders(tmp_path):
    points = [plots.ScalingPoint(solver, n, 3, 3 - (n == 25), int(n == 25), 1e-4 * n * k, 2e-4 * n * k)
              for k, solver in enumerate(SOLVERS, 1) for n in (4, 9, 16, 25)]
    png = plots.scaling_plot(points, tmp_path / "s.png", time_limit=10)
    assert png.read_bytes().startswith(PNG) and png.stat().st_size > 1000


def test_quantile():
    assert results.quantile([1.0, 2.0, 3.0], 0.0) == 1.0
    assert results.quantile([1.0, 2.0, 3.0, 4.0], 0.5) == 2.5
    assert results.quantile([1.0, 2.0, 3.0], 1.0) == 3.0
    assert results.quantile(list(map(float, range(101))), 0.99) == pytest.approx(99.0)


# --- the summary rows, the rate of several processes, and what finished before a signal ------------

def _json_lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


@pytest.mark.slow
def test_with_jobs_the_table_and_the_summary_give_the_rate_of_all_processes_at_once(tmp_path, capsys):
    path = tmp_path / "twenty.txt"
    path.write_text("\n".join("".join(str(v) if v else "." for v in random_puzzle(9, 0.4, seed)[0].givens)
                              for seed in range(20)) + "\n")
    code = cli.main(["bench", str(path), "--solvers", "backtrack-fast", "--jobs", "2", "--batch-size", "5",
                     "--quiet", "--json", "--wide"])  # four batches: the two processes asked for
    out, err = capsys.readouterr()
    assert code == 0, err
    *_, summary, run = _json_lines(out)
    assert run["run"] and run["jobs"] == 2
    assert summary["summary"] and summary["jobs"] == 2 and summary["puzzles"] == 20
    assert summary["per_wall_second"] == pytest.approx(20 / summary["wall_seconds"], rel=1e-6)
    assert summary["per_second"] == pytest.approx(20 / summary["seconds"], rel=1e-6)
    text = " ".join(err.split())
    assert "where: 2 local processes" in text and "puzzles/s: over the run's wall clock" in text


@pytest.mark.slow
def test_ctrl_c_during_bench_shows_what_finished_then_exits_130(tmp_path):
    import os
    import signal
    import subprocess
    import sys

    many = tmp_path / "many.txt"  # 10,000 puzzles, one a batch: the signal lands mid-run
    many.write_text((EXAMPLES / "puzzles-20.txt").read_text() * 500)
    process = subprocess.Popen([sys.executable, "-m", "sudokulab", "bench", str(many), "--solvers", "backtrack",
                                "--batch-size", "1", "--json", "--quiet"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    first = process.stdout.readline()  # a row: a batch has finished
    assert json.loads(first)["solver"] == "backtrack"
    os.kill(process.pid, signal.SIGINT)
    # read on through the same buffered reader: communicate() reads the pipe itself, and would miss
    # the rows readline() already took into the reader's buffer
    rest = process.stdout.read()
    err = process.stderr.read()  # the tables and one line: far less than a pipe holds
    process.wait(timeout=120)
    rows = _json_lines(first.decode() + rest.decode())
    *done, summary = rows
    assert process.returncode == 130, err.decode()
    assert summary["summary"] and summary["puzzles"] == len(done) >= 1 and summary["solved"] == len(done)
    assert summary["partial"] is True
    text = " ".join(err.decode().split())
    assert f"stopped by a signal after {len(done)} puzzles" in text and text.endswith("sudokulab: interrupted")


def test_a_signal_while_a_batch_is_recorded_counts_it_whole(tmp_path, monkeypatch):
    """Ctrl-C lands while the third batch's answers are added up (after its puzzles were counted,
    before its tables and rows): the batch is recorded whole first, so the stopped report's count,
    its tables and the rows written all say three puzzles."""
    import io
    import os
    import signal

    many = tmp_path / "many.txt"
    many.write_text((EXAMPLES / "puzzles-20.txt").read_text())
    added = []
    add_batch = results.BenchTally.add_batch

    def add_and_be_interrupted(self, *args):
        added.append(1)
        if len(added) == 3:
            os.kill(os.getpid(), signal.SIGINT)  # handled at once, here, unless it is held
        add_batch(self, *args)

    monkeypatch.setattr(results.BenchTally, "add_batch", add_and_be_interrupted)
    rows, stopped = io.StringIO(), []
    with pytest.raises(KeyboardInterrupt):
        bench.run_bench([many], ["backtrack"], batch_size=1, json_lines=rows, progress=False,
                        warn=lambda _: None, on_stopped=stopped.append)
    (report,) = stopped
    (summary,) = report.summaries
    assert report.stopped and report.totals == {"many": 3}
    assert summary.puzzles == 3 and len(_json_lines(rows.getvalue())) == 3


@pytest.mark.slow
def test_runs_and_warmup_carry_every_run_its_statistics_and_the_ratio_with_its_spread(tmp_path, capsys):
    """``bench --runs 5 --warmup 1 --json``, as hyperfine users expect: every run's rate of every solver,
    their mean, σ and median, each solver against the next slower with the ratio's spread, the versions
    and the machine; the same runs in the CSV and Markdown exports. Each figure is computed again here
    from the runs' rates."""
    import csv
    import statistics

    from sudokulab.formats import documents

    path = tmp_path / "five.txt"
    path.write_text("\n".join("".join(str(v) if v else "." for v in random_puzzle(9, 0.4, seed)[0].givens)
                              for seed in range(5)) + "\n")
    markdown, table = tmp_path / "runs.md", tmp_path / "runs.csv"
    code = cli.main(["bench", str(path), "--solvers", "backtrack-fast,sat", "--runs", "5", "--warmup", "1",
                     "--quiet", "--json", "--export-markdown", str(markdown), "--export-csv", str(table)])
    out, err = capsys.readouterr()
    assert code == 0, err
    rows = _json_lines(out)
    for row in rows:
        documents.validate("bench", row)
    *last_run, run = rows  # the last run's rows and summaries, then the run row
    assert len([r for r in last_run if "summary" not in r]) == 5 * 2
    summaries = {r["solver"]: r for r in last_run if r.get("summary")}
    assert set(summaries) == {"backtrack-fast", "sat"} and not any(r["partial"] for r in summaries.values())
    assert run["run"] and (run["runs"], run["asked"], run["warmup"], run["rate"]) == (5, 5, 1, "wall")
    assert run["versions"]["sudokulab"] and run["versions"]["python"] and run["machine"]["cores"]
    assert run["machine"]["cpu"] and run["machine"]["python"]
    by_solver = {row["solver"]: row for row in run["solvers"]}
    for name, row in by_solver.items():
        rates = row["rates"]
        assert len(rates) == 5 and all(rate > 0 for rate in rates)
        assert row["mean"] == pytest.approx(statistics.fmean(rates))
        assert row["stdev"] == pytest.approx(statistics.stdev(rates))
        assert row["median"] == pytest.approx(statistics.median(rates))
        assert (row["min"], row["max"]) == (min(rates), max(rates))
        assert rates[-1] == pytest.approx(summaries[name]["per_wall_second"])  # the last run is the tables' run
    assert [row["solver"] for row in run["solvers"]] == sorted(by_solver, key=lambda n: -by_solver[n]["mean"])
    (versus,) = run["comparisons"]
    quick, slow = by_solver[versus["faster"]]["rates"], by_solver[versus["slower"]]["rates"]
    ratios = [a / b for a, b in zip(quick, slow)]
    assert versus["ratios"] == pytest.approx(ratios)
    assert versus["ratio"] == pytest.approx(statistics.fmean(ratios))
    assert versus["stdev"] == pytest.approx(statistics.stdev(ratios))
    text = " ".join(err.split())
    assert (f"{versus['faster']} is {versus['ratio']:.2f} ± {versus['stdev']:.2f}× faster than {versus['slower']}"
            in text)
    assert "five: puzzles/s, 5 runs after 1 warm-up" in text
    with open(table, newline="") as stream:
        exported = list(csv.DictReader(stream))
    assert len(exported) == 2 * 5
    for name, row in by_solver.items():
        assert [float(r["rate"]) for r in exported if r["solver"] == name] == pytest.approx(row["rates"], rel=1e-5)
    written = markdown.read_text()
    assert "| solver | mean ± σ (puzzles/s) | median | min … max | relative |" in written
    for name, row in by_solver.items():
        assert f"| {name} | {row['mean']:,.1f} ± {row['stdev']:,.1f} |" in written
        assert f"| {name} | " + " | ".join(f"{r:,.1f}" for r in row["rates"]) + " |" in written


def test_the_runs_statistics_say_what_a_person_reads():
    """The ratio and the outliers on runs given: "A is N.NN ± s× faster than B" is the mean and σ of the
    per-run ratios; a run ten median absolute deviations from the others is named."""
    import statistics

    from sudokulab.bench.spread import Spread, faster

    quick = Spread("quick", (300.0, 310.0, 290.0, 305.0, 120.0), {})
    slow = Spread("slow", (100.0, 100.0, 100.0, 100.0, 100.0), {})
    assert quick.outliers() == (4,) and slow.outliers() == ()
    mean, sigma = faster(quick, slow)
    assert mean == pytest.approx((3.0 + 3.1 + 2.9 + 3.05 + 1.2) / 5)
    assert sigma == pytest.approx(statistics.stdev([3.0, 3.1, 2.9, 3.05, 1.2]))
