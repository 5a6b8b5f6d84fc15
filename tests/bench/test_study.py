"""study: a seeded family swept along a parameter, every run in runs.jsonl, its figures reproduced from
that data by other code than the package's, resumed after a stop, the same where the runs ran.

No timing assertions: times are only compared with what the same rows say.
"""

from __future__ import annotations

import csv
import json
import math
import os
import signal
import subprocess
import sys
import time
from collections import defaultdict
from itertools import combinations
from pathlib import Path

import pytest

from sudokulab import solvers
from sudokulab.bench import analysis
from sudokulab.bench.configurations import Configuration
from sudokulab.bench.families import Family, Point, parse_values
from sudokulab.bench.study import StudyFolder, seeded
from sudokulab.cli import main as cli
from sudokulab.errors import ExitCode, UsageError
from sudokulab.formats import documents

from ..conftest import HANG, ROOT
from .test_bench import PNG, WrongSolver

SOLVERS = ["backtrack-fast", "sat", "dlx"]
SMALL = ["--family", "sudoku", "--size", "4,6", "--given", "0.3,0.5,0.7", "--instances", "3", "--solvers",
         ",".join(SOLVERS), "--time-limit", "30", "--quiet"]
"""Two board sizes, three shares given, three instances a point, three paradigms: 54 runs on small boards."""


def study(folder: Path, *extra: str, capsys=None) -> tuple[int, dict]:
    code = cli.main(["study", *SMALL, "--output", str(folder), "--json", *extra])
    out = capsys.readouterr().out if capsys is not None else ""
    return code, json.loads(out) if out.strip() else {}


def rows_of(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "runs.jsonl").read_text().splitlines()]


# --- the figures, recomputed from runs.jsonl by other code ---------------------------------------

def median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def penalised(row: dict) -> float:
    good = row["status"] in ("solved", "no solution") and row["valid"] is not False
    return row["seconds"] if good and row["seconds"] <= row["time_limit"] else 2 * row["time_limit"]


def exact_wilcoxon(differences: list[float]) -> tuple[float, float]:
    """W (the smaller rank sum) and the two-sided p-value from the exact null distribution, counted by
    dynamic programming over the ranks (no ties among the differences)."""
    nonzero = [d for d in differences if d != 0]
    ranked = sorted(nonzero, key=abs)
    plus = sum(rank for rank, d in enumerate(ranked, start=1) if d > 0)
    n = len(ranked)
    total = n * (n + 1) // 2
    ways = [1] + [0] * total
    for rank in range(1, n + 1):
        for s in range(total, rank - 1, -1):
            ways[s] += ways[s - rank]
    w = min(plus, total - plus)
    return float(w), min(1.0, 2 * sum(ways[: w + 1]) / 2 ** n)


@pytest.mark.slow
def test_a_seeded_study_writes_every_picture_and_table_and_its_numbers_follow_from_its_rows(tmp_path, capsys):
    folder = tmp_path / "study"
    code, document = study(folder, capsys=capsys)
    assert code == 0
    documents.validator("study").validate(document)
    assert document == json.loads((folder / "study.json").read_text())
    for picture in ("scatter.png", "survival.png", "time.png", "effort.png"):
        assert (folder / picture).read_bytes().startswith(PNG), picture
    for table in ("points.csv", "overall.csv", "paired.csv", "peaks.csv", "report.md"):
        assert (folder / table).stat().st_size > 0, table

    rows = rows_of(folder)
    assert len(rows) == 2 * 3 * 3 * len(SOLVERS) == document["runs"]["total"] == document["runs"]["ran"]
    assert all(row["status"] == "solved" and row["valid"] is True for row in rows)
    assert {row["clues_given"] for row in rows if row["n"] == 6} == {round(g * 36) for g in (0.3, 0.5, 0.7)}

    # PAR-2, decided counts and medians per point and solver
    by_point: dict[tuple, list[dict]] = defaultdict(list)
    for row in rows:
        by_point[f"sudoku {row['n']}x{row['n']} standard", row["given"], row["solver"]].append(row)
    stated = {(p["series"], p["value"], p["solver"]): p for p in document["points"]}
    assert set(stated) == set(by_point)
    for key, mine in by_point.items():
        scores = [penalised(row) for row in mine]
        assert stated[key]["par2"] == pytest.approx(sum(scores) / len(scores), rel=1e-9, abs=1e-9)
        assert stated[key]["median"] == pytest.approx(median(scores), rel=1e-9, abs=1e-9)
        assert stated[key]["decided"] == len(mine) == 3
        first_effort = next(k for k in ("backtracks", "conflicts", "nodes") if k in mine[0]["stats"])
        assert stated[key]["effort"] == first_effort
        assert stated[key]["effort_median"] == pytest.approx(median([r["stats"][first_effort] for r in mine]))
    overall = {o["solver"]: o for o in document["overall"]}
    for solver in SOLVERS:
        scores = [penalised(row) for row in rows if row["solver"] == solver]
        assert overall[solver]["par2"] == pytest.approx(sum(scores) / len(scores), rel=1e-9, abs=1e-9)

    # the paired tests over all instances: wins, geometric mean ratio, Wilcoxon's W and p
    per_instance = {(row["instance"], row["solver"]): penalised(row) for row in rows}
    instances = sorted({row["instance"] for row in rows})
    paired = {(p["a"], p["b"]): p for p in document["paired"] if p["series"] == "all"}
    assert set(paired) == set(combinations(SOLVERS, 2))
    for (a, b), stated_pair in paired.items():
        pairs = [(per_instance[i, a], per_instance[i, b]) for i in instances]
        logs = [math.log(y) - math.log(x) for x, y in pairs]
        assert stated_pair["instances"] == 18
        assert stated_pair["a_wins"] == sum(y > x for x, y in pairs)
        assert stated_pair["geometric_ratio"] == pytest.approx(math.exp(sum(logs) / len(logs)), rel=1e-6)
        assert stated_pair["low"] <= stated_pair["geometric_ratio"] <= stated_pair["high"]
        w, p = exact_wilcoxon(logs)
        assert stated_pair["method"] == "exact"
        assert stated_pair["statistic"] == w and stated_pair["p_value"] == pytest.approx(p, rel=1e-9, abs=1e-9)
    with open(folder / "paired.csv", newline="") as stream:
        assert len(list(csv.DictReader(stream))) == len(document["paired"]) == 3 * 3  # two sizes and all

    # the same family again: the same instances (seeded), every run read back, none made
    code, again = study(folder, capsys=capsys)
    assert code == 0 and again["runs"] == {**document["runs"], "ran": 0, "reused": len(rows)}
    assert again["points"] == document["points"]

    # a stopped run's folder (20 rows kept, a torn line): only the missing runs are made
    (folder / "runs.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows[:20]) + '{"instance": "sudo')
    code, resumed = study(folder, capsys=capsys)
    assert code == 0 and resumed["runs"]["reused"] == 20 and resumed["runs"]["ran"] == len(rows) - 20
    again_rows = rows_of(folder)
    assert again_rows[:20] == rows[:20] and len(again_rows) == len(rows)
    assert answers(again_rows) == answers(rows)


def answers(rows: list[dict]) -> list[tuple]:
    """What a run answered, whatever its time: instance, solver, status, verdict and effort figures."""
    return sorted((r["instance"], r["digest"], r["solver"], r["status"], r["valid"],
                   json.dumps({k: v for k, v in r["stats"].items() if k in ("nodes", "backtracks", "decisions")},
                              sort_keys=True)) for r in rows)


def test_the_instances_of_a_point_do_not_depend_on_the_others():
    small = Family("qwh", sizes=(7,), given=(0.5,), instances=2, seed=4)
    large = Family("qwh", sizes=(5, 7), given=(0.3, 0.5), instances=3, seed=4)
    point = Point("qwh", 7, "latin", given=0.5)
    first = [i.puzzle for i in small.instances_of(point)]
    assert [i.puzzle for i in large.instances_of(point)][:2] == first
    assert [i.puzzle for i in Family("qwh", sizes=(7,), given=(0.5,), instances=2, seed=5).instances_of(point)] != first
    assert all(p.blanks == 49 - round(0.5 * 49) and p.rules.presets == ("latin",) for p in first)
    sudoku = list(Family("sudoku", sizes=(9,), given=(0.4,), instances=2, rule_sets=("x",)).instances_of(
        Point("sudoku", 9, "x", given=0.4)))
    assert all(i.puzzle.rules.presets == ("standard", "x") and 81 - i.puzzle.blanks == 32 for i in sudoku)
    assert len({i.digest for i in sudoku}) == 2


def test_the_axis_is_what_varies_and_bad_families_are_refused():
    assert Family("sudoku", sizes=(9, 16), given=(0.2, 0.4)).axis == "given"
    assert Family("qwh", sizes=(9,), given=(0.5,), by_holes=True).axis == "holes"
    assert Family("sudoku", sizes=(9, 16), given=(0.4,)).axis == "size"
    assert Family("sudoku", sizes=(9,), clues=(30,), rule_sets=("standard", "x")).axis == "rules"
    assert parse_values("0.2:0.6:0.1", float, "--given") == (0.2, 0.3, 0.4, 0.5, 0.6)
    for bad, message in [(lambda: Family("qwh", given=(0.5,), rule_sets=("x",)), "Latin square"),
                         (lambda: Family("sudoku", given=(0.5,), rule_sets=("killer",)), "need data"),
                         (lambda: Family("sudoku", sizes=(4,), clues=(17,)), "16 cells"),
                         (lambda: Family("sudoku"), "--given"),
                         (lambda: parse_values("0.2,0.2", float, "--given"), "twice"),
                         (lambda: parse_values("0.6:0.2:0.1", float, "--given"), "START:STOP:STEP")]:
        with pytest.raises(UsageError, match=message):
            bad()


def test_repeats_give_a_seed_to_solvers_that_take_one():
    assert seeded(Configuration("cpsat"), 3)[1] == 3
    assert dict(seeded(Configuration("cpsat"), 3)[0].options)["seed"] == 3
    assert seeded(Configuration("sat"), 3) == (Configuration("sat"), None)
    fixed = Configuration.parse("cpsat:seed=7")
    assert seeded(fixed, 3) == (fixed, 7)


@pytest.mark.slow
def test_a_qwh_study_of_two_repeats_and_its_peaks(tmp_path, capsys):
    folder = tmp_path / "qwh"
    code = cli.main(["study", "--family", "qwh", "--size", "6", "--holes", "0.2,0.5,0.8", "--instances", "2",
                     "--repeats", "2", "--configs", "backtrack-fast", "cpsat", "--output", str(folder), "--json",
                     "--quiet", "--format", "svg"])
    document = json.loads(capsys.readouterr().out)
    assert code == 0 and document["family"]["axis"] == "holes"
    rows = rows_of(folder)
    assert len(rows) == 3 * 2 * 2 * 2
    assert {(r["solver"], r["repeat"], r["seed"]) for r in rows} == {
        ("backtrack-fast", 0, None), ("backtrack-fast", 1, None), ("cpsat", 0, 0), ("cpsat", 1, 1)}
    assert {p["value"] for p in document["points"]} == {0.2, 0.5, 0.8}
    assert document["peaks"] and all(p["measure"].startswith("effort:") for p in document["peaks"])
    assert (folder / "survival.svg").read_text().lstrip().startswith("<?xml")


def test_peaks_are_interior_and_twice_the_ends():
    def line(heights):
        return [analysis.Summary("s", v, "x", 1, 1, 0, 1.0, 1.0, 1.0, 1.0, "nodes", h, h, h)
                for v, h in zip((0.1, 0.2, 0.3, 0.4), heights)]

    assert [p.found for p in analysis.peaks(line([1, 10, 4, 2]), "given")] == [True]
    assert analysis.peaks(line([1, 10, 4, 2]), "given")[0].at == 0.2
    assert [p.found for p in analysis.peaks(line([1, 3, 6, 9]), "given")] == [False]  # rises to the end
    assert [p.found for p in analysis.peaks(line([6, 10, 4, 2]), "given")] == [False]  # the left end too high
    assert analysis.peaks(line([1, 10, 4, 2]), "rules") == []  # a categorical axis has no peak


@pytest.mark.slow
def test_a_wrong_answer_is_counted_and_exits_4(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(solvers.REGISTRY, "wrong", f"{WrongSolver.__module__}:{WrongSolver.__name__}")
    code = cli.main(["study", "--size", "4", "--given", "0.5", "--instances", "2", "--solvers", "sat,wrong",
                     "--output", str(tmp_path / "s"), "--quiet"])
    _, err = capsys.readouterr()
    assert code == ExitCode.WRONG and "2 wrong answers" in err
    rows = rows_of(tmp_path / "s")
    assert {r["valid"] for r in rows if r["solver"] == "wrong"} == {False}
    assert all("problem" in r for r in rows if r["solver"] == "wrong")


def test_two_runs_on_one_folder_and_bad_arguments_are_refused(tmp_path, capsys):
    folder = tmp_path / "s"
    with StudyFolder(folder):
        code = cli.main(["study", "--size", "4", "--given", "0.5", "--output", str(folder), "--quiet"])
        assert code == ExitCode.BAD_INPUT and "another study run is using" in capsys.readouterr().err
    for argv, message in [(["--given", "0.5", "--sets", "x.txt"], "--sets reads its puzzles"),
                          (["--given", "0.5", "--rules", "x", "--rule-sets", "x"], "not both"),
                          (["--family", "qwh", "--holes", "0.5", "--unique"], "--unique is for the sudoku"),
                          (["--given", "0.5", "--solvers", "nope"], "unknown solver"),
                          (["--given", "0.5", "--configs", "sat:engine=glucose4,restarts=false"], "CaDiCaL engine")]:
        assert cli.main(["study", *argv, "--output", str(tmp_path / "t"), "--quiet"]) == ExitCode.BAD_INPUT
        assert message in capsys.readouterr().err, message
    assert not (tmp_path / "t").exists()  # refused before the folder is made


@pytest.mark.slow
def test_a_study_of_sets_takes_their_first_puzzles(tmp_path, capsys):
    from ..conftest import EXAMPLES

    code = cli.main(["study", "--sets", str(EXAMPLES / "puzzles-20.txt"), str(EXAMPLES / "boj2580-sample.txt"),
                     "--instances", "3", "--solvers", "backtrack-fast,dlx", "--output", str(tmp_path / "s"),
                     "--json", "--quiet"])
    document = json.loads(capsys.readouterr().out)
    assert code == 0 and document["family"]["axis"] == "set"
    assert {(p["value"], p["instances"]) for p in document["points"]} == {("puzzles-20", 3), ("boj2580-sample", 1)}
    assert document["peaks"] == []


@pytest.mark.slow
def test_ctrl_c_keeps_the_finished_runs_and_the_same_command_goes_on(tmp_path):
    folder = tmp_path / "s"
    argv = [sys.executable, "-m", "sudokulab", "study", "--size", "9", "--given", "0.3,0.4,0.5", "--instances", "20",
            "--solvers", "sat,dlx", "--output", str(folder), "--quiet"]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    runs = folder / "runs.jsonl"
    deadline = time.monotonic() + HANG
    while time.monotonic() < deadline and not (runs.exists() and runs.stat().st_size > 0):
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=HANG)
    assert process.returncode == ExitCode.INTERRUPTED, err
    assert "Traceback" not in err and "the same command again goes on" in err
    kept = rows_of(folder)
    assert 0 < len(kept) < 120 and len(kept) % 2 == 0  # an instance's rows are written whole
    done = subprocess.run([*argv, "--json"], capture_output=True, text=True, env=env, timeout=HANG)
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document["runs"]["reused"] == len(kept) and document["runs"]["total"] == 120


@pytest.mark.slow
def test_on_a_local_dask_cluster_the_runs_are_those_of_one_process(tmp_path, capsys):
    pytest.importorskip("distributed")
    argv = ["study", "--family", "qwh", "--size", "6", "--holes", "0.3,0.6", "--instances", "2", "--solvers",
            "backtrack-fast,sat", "--quiet", "--json"]
    found = {}
    for where in (["--jobs", "1"], ["--cluster", "local:2"]):
        folder = tmp_path / where[1].replace(":", "-")
        assert cli.main([*argv, *where, "--output", str(folder)]) == 0
        found[where[1]] = json.loads(capsys.readouterr().out)["where"], answers(rows_of(folder))
    assert found["1"][1] == found["local:2"][1] and len(found["1"][1]) == 8
    assert "Dask" in found["local:2"][0]


@pytest.mark.slow
def test_time_outs_score_twice_the_limit_and_are_not_decided(tmp_path, capsys):
    """A millisecond for a 16x16 SAT model, which takes longer than that to build: every run times out."""
    code = cli.main(["study", "--size", "16", "--given", "0.5", "--instances", "2", "--solvers", "sat,backtrack-fast",
                     "--time-limit", "0.001", "--output", str(tmp_path / "s"), "--json", "--quiet"])
    document = json.loads(capsys.readouterr().out)
    assert code == 0
    sat = [row for row in rows_of(tmp_path / "s") if row["solver"] == "sat"]
    assert {row["status"] for row in sat} == {"time limit reached"}
    overall = {o["solver"]: o for o in document["overall"]}
    assert overall["sat"]["decided"] == 0 and overall["sat"]["par2"] == pytest.approx(0.002)
    assert (tmp_path / "s" / "scatter.png").read_bytes().startswith(PNG)
