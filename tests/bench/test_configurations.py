"""Configurations: one solver under several option sets, in one bench run and in compare."""

from __future__ import annotations

import csv

import pytest

from sudokulab.bench import run as bench
from sudokulab.bench.compare import Agreement, compare
from sudokulab.bench.configurations import Configuration, parse_configurations
from sudokulab.cli import main as cli
from sudokulab.core.puzzle import is_solution
from sudokulab.errors import UsageError
from sudokulab.formats import boj
from sudokulab.ui import plots

from ..conftest import EXAMPLES

PUZZLES = EXAMPLES / "puzzles-20.txt"
FOUR = ("sat:encoding=minimal", "sat:encoding=extended", "sat:encoding=extended,amo=seqcounter", "cpsat")
NAMES = ["sat encoding=minimal", "sat encoding=extended", "sat encoding=extended amo=seqcounter", "cpsat"]


def test_a_configuration_is_named_after_its_options_and_checked():
    config = Configuration.parse("sat:encoding=extended, amo=seqcounter")
    assert (config.solver, config.options, config.name) == (
        "sat", (("encoding", "extended"), ("amo", "seqcounter")), "sat encoding=extended amo=seqcounter")
    assert Configuration.parse("cpsat:workers=2").options == (("workers", 2),)  # converted by the declaration
    assert Configuration.parse("sat:engine=g4").name == "sat engine=g4"  # named as written, run as glucose4
    assert Configuration.parse("sat:engine=g4").options == (("engine", "glucose4"),)
    for text, words in (("sat:encoding=huge", "solver 'sat': unknown encoding 'huge'"),
                        ("sat:colour=red", "solver 'sat' takes no option 'colour'"),
                        ("nope", "unknown solver 'nope'"),
                        ("sat:", "has no option after ':'"),
                        ("sat:encoding", "'encoding' is not of the form KEY=VALUE"),
                        ("sat:amo=ladder,amo=pairwise", "sets an option twice"),
                        (":x=1", "names no solver")):
        with pytest.raises(UsageError, match=words):
            Configuration.parse(text)


def test_the_same_configuration_twice_is_refused_defaults_filled_in():
    for pair in (("sat:encoding=minimal", "sat:encoding=minimal"), ("sat", "sat:encoding=auto"),
                 ("sat:engine=g4", "sat:engine=glucose4"), ("cpsat:workers=1", "cpsat")):
        with pytest.raises(UsageError, match="are the same"):
            parse_configurations(pair)
    assert len(parse_configurations(FOUR)) == 4


@pytest.mark.parametrize("by_solver", [False, True])
def test_four_configurations_give_four_rows_every_answer_checked(tmp_path, by_solver):
    rows_file = tmp_path / "rows.csv"
    report = bench.run_bench([PUZZLES], configs=parse_configurations(FOUR), csv_path=rows_file, progress=False,
                             by_solver=by_solver, warn=lambda _message: None)
    assert [s.solver for s in report.summaries] == NAMES and report.configured
    assert all((s.puzzles, s.solved, s.wrong) == (20, 20, 0) for s in report.summaries)
    sizes = {s.solver: s.means for s in report.summaries}
    # model sizes from the solvers' own stats: the sequential counter trades clauses for variables
    assert sizes["sat encoding=extended amo=seqcounter"]["clauses"] < sizes["sat encoding=extended"]["clauses"]
    assert sizes["sat encoding=extended amo=seqcounter"]["variables"] > sizes["sat encoding=extended"]["variables"]
    assert sizes["sat encoding=minimal"]["clauses"] < sizes["sat encoding=extended"]["clauses"]
    assert {"constraints", "variables"} <= set(sizes["cpsat"])
    with open(rows_file, encoding="utf-8", newline="") as stream:
        rows = list(csv.DictReader(stream))
    assert sorted({row["solver"] for row in rows}) == sorted(NAMES)
    assert len(rows) == 80 and all(row["valid"] == "1" and row["status"] == "solved" for row in rows)
    figure = plots.cactus_figure(report.solved_times, totals=report.totals, lines="configuration")
    drawn = [line.get_label() for line in figure.axes[0].get_lines()]
    assert drawn == [f"{name} (20)" for name in NAMES]
    assert "one line per configuration" in figure._suptitle.get_text()


@pytest.mark.slow
def test_the_command_prints_four_rows_and_writes_a_four_line_plot(tmp_path, capsys):
    plot, rows_file = tmp_path / "cactus.svg", tmp_path / "rows.csv"
    code = cli.main(["bench", str(PUZZLES), "--quiet", "--wide", "--plot", str(plot), "--out", str(rows_file),
                     "--configs", *FOUR])
    out = capsys.readouterr().out
    assert code == 0
    # --wide: no cell wraps, so each row is one line: the name, then two spaces before the next column
    rows = [line for line in out.splitlines() if line.split("  ")[0] in NAMES]  # rates, then size and effort
    assert [line.split("  ")[0] for line in rows] == NAMES + NAMES
    assert all(line.split()[len(name.split())] == "20/20" for line, name in zip(rows[:4], NAMES))
    assert all("clauses" in line for line in rows[4:7]) and "constraints" in rows[7]
    svg = plot.read_text(encoding="utf-8")
    for name in NAMES:  # each configuration's line is in the written picture, with its legend entry
        assert f"{name} (20)" in svg


def test_solvers_named_twice_point_to_configs(capsys):
    assert cli.main(["bench", str(PUZZLES), "--quiet", "--solvers", "sat,sat"]) == 2
    assert "use --configs" in capsys.readouterr().err
    assert cli.main(["bench", str(PUZZLES), "--quiet", "--configs", "sat", "sat:encoding=auto"]) == 2
    assert "are the same" in capsys.readouterr().err
    assert cli.main(["bench", str(PUZZLES), "--quiet", "--solvers", "sat", "--configs", "cpsat"]) == 2
    assert "not both" in capsys.readouterr().err


def test_compare_takes_configurations(capsys):
    puzzle = boj.parse_puzzle((EXAMPLES / "boj2580-sample.txt").read_text())
    comparison = compare(puzzle, configs=parse_configurations(["sat:encoding=minimal", "sat:amo=ladder", "dlx"]))
    assert comparison.agreement is Agreement.AGREED
    assert [run.solver for run in comparison.runs] == ["sat encoding=minimal", "sat amo=ladder", "dlx"]
    assert all(is_solution(run.result.grid, puzzle) for run in comparison.runs)
    code = cli.main(["compare", str(EXAMPLES / "boj2580-sample.txt"), "--configs", "sat:encoding=minimal",
                     "sat:encoding=efficient"])
    captured = capsys.readouterr()
    assert code == 0 and "sat encoding=efficient" in captured.err
    assert captured.out == boj.format_grid(comparison.runs[0].result.grid, 9)
