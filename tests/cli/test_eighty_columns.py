"""Output a person reads fits 80 columns: every ``--help``, the ``solvers`` table, bench's and
compare's tables (``report.print_table``), with ``--wide`` showing what was left out.

Off a terminal the tables are 80 columns wide whatever ``COLUMNS`` says (so a file gets the same
bytes from any terminal), and prose (a table's footnote, a summary) is not wrapped at all: each of
its lines stays whole for grep and for the reader's own wrapping (``table_width`` leaves it out);
``tests/cli/test_terminal.py`` looks at them on real terminals of 80 and 120, where prose wraps.
"""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from sudokulab.cli import main as cli

from ..conftest import EXAMPLES, HANG

WIDTH = 80


Tree = list[tuple[tuple[str, ...], argparse.ArgumentParser]]


def subcommands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> Tree:
    """Every parser of the command tree with the words that reach it, the top level first (walked, so a
    new command is covered without a list to keep)."""
    found = [(path, parser)]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found += subcommands(sub, (*path, name))
    return found


def widest(text: str) -> int:
    return max((len(line) for line in text.splitlines()), default=0)


BOX = set("─━│┃┏┓┗┛┡┩╇╈┼┬┴")


def table_width(text: str) -> int:
    """The widest line of the tables in ``text``: rows have columns apart by two spaces or box lines;
    a line of prose (single spaces only), written whole off a terminal, is not a table's."""
    return widest("\n".join(line for line in text.splitlines() if "  " in line.strip() or BOX & set(line)))


def test_every_help_fits_80_columns_and_states_its_defaults(monkeypatch):
    monkeypatch.setenv("COLUMNS", str(WIDTH))
    tree = subcommands(cli.build_parser())
    assert {path for path, _ in tree} >= {(), ("solve",), ("bench",), ("compare",), ("datasets", "fetch")}
    for path, parser in tree:
        text = parser.format_help()
        assert widest(text) <= WIDTH, (path, [line for line in text.splitlines() if len(line) > WIDTH])
        assert "see above" not in text, path


def test_the_real_executable_help_fits_80_columns():
    done = subprocess.run([sys.executable, "-m", "sudokulab", "--help"], capture_output=True, text=True,
                          timeout=HANG, env={**__import__("os").environ, "COLUMNS": str(WIDTH)})
    assert done.returncode == 0 and widest(done.stdout) <= WIDTH
    assert "COMMAND" in done.stdout.splitlines()[0] and "{solve," not in done.stdout


def test_bench_help_names_the_solvers_it_leaves_out():
    from sudokulab.bench.run import LEFT_OUT

    text = dict(subcommands(cli.build_parser()))[("bench",)].format_help()
    assert all(name in " ".join(text.split()) for name in LEFT_OUT)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.slow
def test_solvers_fits_80_columns_and_says_what_it_left_out(capsys):
    code, out, _ = run(capsys, "solvers")
    assert code == 0 and table_width(out) <= WIDTH
    rows = out.splitlines()
    header = next(line for line in rows if line.startswith("solver "))
    assert "threads" not in header.split() and "paradigm" in header.split()
    assert any("not shown at this width: threads" in line for line in rows)
    assert all(len(line.split()) > 1 for line in rows[rows.index(header) + 2:][:3])  # one line a solver
    code, wide, _ = run(capsys, "solvers", "--wide")
    assert code == 0 and "threads" in next(line for line in wide.splitlines() if line.startswith("solver ")).split()
    assert "constraint programming (OR-Tools CP-SAT)" in wide and "not shown" not in wide


def test_bench_table_fits_80_columns_and_wide_shows_every_column(capsys):
    args = ("bench", str(EXAMPLES / "puzzles-20.txt"), "--solvers", "sat,backtrack-fast", "--quiet", "--limit", "3")
    code, out, _ = run(capsys, *args)
    assert code == 0 and table_width(out) <= WIDTH
    assert "not shown at this width:" in out
    legend = next(line for line in out.splitlines() if line.startswith("puzzles/s: "))
    assert legend.endswith("over the CPU time of the calls")  # the footnote whole, on one line
    header = next(line for line in out.splitlines() if line.startswith("solver ")).split()
    assert "puzzles/s" in header  # the headline rate stays
    code, wide, _ = run(capsys, *args, "--wide")
    header = next(line for line in wide.splitlines() if line.startswith("solver ")).split()
    assert code == 0 and {"median", "p90", "p99", "max", "puzzles/s", "puzzles/solve-s", "puzzles/cpu-s"} <= set(header)


def test_compare_table_fits_80_columns_with_set_up_and_solve_apart(capsys):
    code, out, err = run(capsys, "compare", str(EXAMPLES / "boj2580-sample.txt"))
    assert code == 0 and table_width(err) <= WIDTH
    header = next(line for line in err.splitlines() if line.startswith("solver ")).split()
    assert header[:4] == ["solver", "status", "set-up", "solve"]
    assert out == (EXAMPLES / "boj2580-sample.out").read_text()


@pytest.mark.parametrize("columns", [40, 80, 120])
def test_a_table_never_cuts_a_kept_cell(columns):
    """What ``print_table`` keeps is shown whole: no cell cut with an ellipsis at any width."""
    from rich.console import Console

    from sudokulab.ui.tables import Column, print_table

    out = Console(width=columns, color_system=None, record=True, file=__import__("io").StringIO())
    rows = [["backtrack-fast", "hand-written search (classic)", "1,234.5", "nodes 12, backtracks 3"]]
    dropped = print_table(out, [Column("solver"), Column("paradigm", short=lambda t: t.split(" (")[0]),
                                Column("rate", "right", drop=2), Column("effort", wrap=True, drop=1)], rows)
    text = out.export_text()
    assert "…" not in text and widest(text) <= columns
    assert ("effort" in dropped) == (columns < 80)


def test_datasets_list_fits_80_columns(capsys):
    code, out, _ = run(capsys, "datasets", "list")
    table = out.split("not shown at this width")[0]
    assert code == 0 and table_width(table) <= WIDTH and "source" in out.split("not shown at this width")[1]
    code, wide, _ = run(capsys, "datasets", "list", "--wide")
    assert code == 0 and "source" in next(line for line in wide.splitlines() if line.startswith("name ")).split()
