"""The JSON contract (docs/json.md), for every command the parser has: ``--json`` prints exactly one
document (or JSON Lines) on stdout that validates against the command's schema, and a failure
prints the error document with the exit code of the run.

The commands are walked from ``cli.build_parser()``, nested ones included, so a new command without
a row in ``EXAMPLES`` and ``FAILURES`` (or without a schema) fails here: add its rows (arguments
after the command; ``{examples}``, ``{fixtures}``, ``{tmp}`` are filled in) and its ``schemas/<command>.schema.json``.
Each runs as a real subprocess, ``python -m sudokulab``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sudokulab.cli import main as cli
from sudokulab.datasets import catalog
from sudokulab.errors import ExitCode
from sudokulab.formats import documents
from tests.conftest import EXAMPLES as EXAMPLES_DIR
from tests.conftest import HANG, ROOT, shared_dataset

PYTHON = [sys.executable, "-m", "sudokulab"]
SMALL_SET = "norvig_top95"
"""A whole published set (../shared/data, or fetched), copied into a test's data folder so fetch and path have one."""

EXAMPLES: dict[str, list[str]] = {
    "solve": ["{examples}/boj2580-sample.txt"],
    "count": ["{examples}/several-solutions.txt", "--certify"],
    "solutions": ["{examples}/several-solutions.txt", "--limit", "5"],
    "export": ["{examples}/boj2580-sample.txt", "--format", "dimacs"],
    "decode": ["{tmp}/model.txt", "--cnf", "{tmp}/formula.cnf"],
    "solvers": [],
    "compare": ["{examples}/boj2580-sample.txt", "--solvers", "backtrack,sat", "--certify"],
    "verify": ["{examples}/boj2580-sample.txt", "{examples}/boj2580-sample.out", "--certify"],
    "judge": ["{tmp}/three.txt", "--isolation", "none", "--quiet", "--time-limit", "60", "--", *PYTHON, "solve"],
    "bench": ["{tmp}/three.txt", "--solvers", "backtrack,sat", "--quiet"],
    "study": ["--family", "qwh", "--size", "5", "--holes", "0.4,0.6", "--instances", "2", "--solvers",
              "backtrack-fast,sat", "--output", "{tmp}/study", "--quiet"],
    "generate": ["--size", "4", "--count", "3", "--seed", "7", "--unique"],
    "datasets list": [],
    "datasets fetch": [SMALL_SET, "--quiet"],
    "datasets path": [SMALL_SET],
    "completion": ["bash"],
    "propagate": ["{examples}/boj2580-sample.txt"],
    "explain": ["{examples}/boj2580-sample.txt"],
    "rate": ["{tmp}/three.txt", "--quiet"],
    "encoding show": ["--amo", "pairwise", "--size", "4"],
    "check-encoding": ["{fixtures}/students/correct_extended.py"],
    "check-solver": ["sudokulab.solvers.backtrack.solver:BacktrackSolver"],
    "grade": ["{fixtures}/grade/judge", "--task", "judge", "--out", "{tmp}/gradebook", "--quiet"],
}
"""A representative run of each command, by its words (``datasets list``); ``--json`` is added."""

FAILURES: dict[str, tuple[list[str], int]] = {
    "solve": (["{tmp}/missing.txt"], ExitCode.BAD_INPUT),
    "count": (["{tmp}/bad.txt"], ExitCode.BAD_INPUT),
    "solutions": (["{examples}/boj2580-sample.txt", "--solver", "nope"], ExitCode.BAD_INPUT),
    "export": (["{examples}/boj2580-sample.txt", "--format", "nope"], ExitCode.BAD_INPUT),
    "decode": (["{tmp}/missing.txt", "--cnf", "{tmp}/formula.cnf"], ExitCode.BAD_INPUT),
    "solvers": (["--bogus"], ExitCode.BAD_INPUT),
    "compare": (["{tmp}/bad.txt"], ExitCode.BAD_INPUT),
    "verify": (["{examples}/boj2580-sample.txt", "{tmp}/missing.txt"], ExitCode.BAD_INPUT),
    "judge": (["{tmp}/missing.txt", "--isolation", "none", "--", *PYTHON, "solve"], ExitCode.BAD_INPUT),
    "bench": (["{tmp}/missing.txt"], ExitCode.BAD_INPUT),
    "study": (["--given", "1.5", "--output", "{tmp}/study"], ExitCode.BAD_INPUT),
    "generate": (["--size", "4", "--clues", "99"], ExitCode.BAD_INPUT),
    "datasets list": (["--bogus"], ExitCode.BAD_INPUT),
    "datasets fetch": (["no-such-set"], ExitCode.BAD_INPUT),
    "datasets path": (["17_clue"], ExitCode.BAD_INPUT),  # not in the test's data folder
    "completion": (["fish"], ExitCode.BAD_INPUT),
    "propagate": (["{tmp}/missing.txt"], ExitCode.BAD_INPUT),
    "explain": (["{tmp}/bad.txt"], ExitCode.BAD_INPUT),
    "rate": (["{tmp}/missing.txt"], ExitCode.BAD_INPUT),
    "encoding show": (["--amo", "nope"], ExitCode.BAD_INPUT),
    "check-encoding": (["{tmp}/missing.py"], ExitCode.BAD_INPUT),
    "check-solver": (["{tmp}/missing.py:Solver"], ExitCode.BAD_INPUT),
    "grade": (["{tmp}/missing", "--task", "judge"], ExitCode.BAD_INPUT),
}
"""A failing run of each command (a bad puzzle, a missing file, a bad argument) and its exit code."""

JSON_LINES = {"bench", "generate", "judge"}
"""The commands whose ``--json`` is JSON Lines, one row per puzzle (docs/json.md)."""

NEEDS_SHARED_SET = {"datasets fetch", "datasets path"}


def commands(parser: argparse.ArgumentParser | None = None, words: tuple[str, ...] = ()) -> list[str]:
    """Every command of the parser, by its words: leaves of the subcommand tree (``datasets list``)."""
    parser = parser or cli.build_parser()
    found: list[str] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found += commands(sub, (*words, name))
    return found or [" ".join(words)]


COMMANDS = commands()


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """The files the examples read: a small dataset, an exported formula and a SAT model of it, a bad
    puzzle, and a data folder holding one published set (when this machine has it: ``catalog.published``)."""
    lines = (EXAMPLES_DIR / "puzzles-20.txt").read_text().splitlines()
    (tmp_path / "three.txt").write_text("\n".join([line for line in lines if line and not line.startswith("#")][:3])
                                        + "\n")
    (tmp_path / "bad.txt").write_text("1 2 3\n4 5 x\n")
    subprocess.run([*PYTHON, "export", str(EXAMPLES_DIR / "boj2580-sample.txt"), "--format", "dimacs",
                    "--output", str(tmp_path / "formula.cnf")], check=True, env=environment(tmp_path), timeout=HANG)
    solution = [int(v) for v in (EXAMPLES_DIR / "boj2580-sample.out").read_text().split()]
    literals = [(cell * 9 + digit) * (1 if solution[cell] == digit else -1)
                for cell in range(81) for digit in range(1, 10)]
    (tmp_path / "model.txt").write_text("s SATISFIABLE\nv " + " ".join(map(str, literals)) + " 0\n")
    data = tmp_path / "data"
    data.mkdir()
    whole = catalog.published(SMALL_SET)
    if whole is not None:
        shutil.copy(whole, data)
    return tmp_path


def environment(tmp: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]),
            "SUDOKULAB_DATA": str(tmp / "data"), "COLUMNS": "80"}


def run(words: str, arguments: list[str], tmp: Path) -> subprocess.CompletedProcess:
    filled = [a.format(examples=EXAMPLES_DIR, fixtures=ROOT / "tests" / "fixtures", tmp=tmp) for a in arguments]
    if "--" in filled:  # judge: --json before the program's own arguments
        cut = filled.index("--")
        filled = [*filled[:cut], "--json", *filled[cut:]]
    else:
        filled.append("--json")
    return subprocess.run([*PYTHON, *words.split(), *filled], capture_output=True, text=True, timeout=HANG,
                          env=environment(tmp), stdin=subprocess.DEVNULL)


def documents_of(words: str, stdout: str) -> list:
    """The documents on stdout: exactly one, or (JSON Lines) one per line; nothing else."""
    if words in JSON_LINES:
        assert stdout.endswith("\n") and stdout.strip(), stdout
        return [json.loads(line) for line in stdout.splitlines()]
    document, end = json.JSONDecoder().raw_decode(stdout)
    assert stdout[end:] == "\n", f"more than one document on stdout: {stdout[end:][:200]!r}"
    return [document]


def test_every_command_has_an_example_a_failure_and_a_schema():
    assert {"solve", "datasets list", "solutions"} <= set(COMMANDS)  # the walk finds nested commands
    for words in COMMANDS:
        assert words in EXAMPLES, f"'{words}' has no row in EXAMPLES: every command takes --json (docs/json.md)"
        assert words in FAILURES, f"'{words}' has no row in FAILURES"
        assert documents.schema(documents.schema_name(words.split()))["$schema"].endswith("2020-12/schema")


def test_every_command_takes_json():
    parser = cli.build_parser()
    for words in COMMANDS:
        sub = parser
        for word in words.split():
            sub = next(a for a in sub._actions if isinstance(a, argparse._SubParsersAction)).choices[word]
        assert any("--json" in action.option_strings for action in sub._actions), words


def test_every_schema_field_is_described():
    def walk(node, where):
        if isinstance(node, dict):
            for name, field in node.get("properties", {}).items():
                assert "description" in field or "$ref" in field, f"{where}.{name} has no description"
            for key, value in node.items():
                walk(value, f"{where}.{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{where}[{i}]")

    for name in documents.schema_names():
        if name != "puzzle":  # puzzle: the input format (test_puzzle_files)
            walk(documents.schema(name), name)


@pytest.mark.slow
@pytest.mark.parametrize("words", COMMANDS)
def test_json_output_validates_against_the_schema(words, folder):
    if words in NEEDS_SHARED_SET:
        shared_dataset(f"{SMALL_SET}.txt")  # fetch checks the whole set's hash: a skip without it
    done = run(words, EXAMPLES[words], folder)
    assert done.returncode == 0, done.stderr
    found = documents_of(words, done.stdout)
    validator = documents.validator(documents.schema_name(words.split()))
    for document in found:
        validator.validate(document)
        assert "error" not in document


@pytest.mark.slow
@pytest.mark.parametrize("words", COMMANDS)
def test_a_failure_is_the_error_document_and_one_line_on_stderr(words, folder):
    arguments, code = FAILURES[words]
    done = run(words, arguments, folder)
    assert done.returncode == code, (done.stdout, done.stderr)
    (document,) = documents_of("", done.stdout)
    documents.validator("error").validate(document)
    documents.validator(documents.schema_name(words.split())).validate(document)  # the command's schema allows it
    assert document["exit"] == code
    assert done.stderr.startswith("sudokulab: ") and done.stderr.strip().endswith(document["error"]), done.stderr


@pytest.mark.slow
def test_a_document_that_reports_failure_is_the_only_one(folder):
    """solve with no solution prints its own document (status, no grid) and exits 1: no error document after it."""
    done = run("solve", [str(EXAMPLES_DIR / "no-solution.txt")], folder)
    assert done.returncode == ExitCode.NO_SOLUTION
    (document,) = documents_of("solve", done.stdout)
    documents.validate("solve", document)
    assert document["status"] == "no solution" and document["grid"] is None
    assert done.stderr.startswith("sudokulab: no solution")


@pytest.mark.slow
def test_count_certify_puts_the_certificate_in_the_document(folder):
    done = run("count", [str(EXAMPLES_DIR / "boj2580-sample.txt"), "--certify"], folder)
    (document,) = documents_of("count", done.stdout)
    assert done.returncode == 0 and document["count"] == 1 and document["exact"]
    assert document["certificate"]["certified"] and document["certificate"]["claim"] == "exactly one solution"


def test_a_usage_error_before_parsing_is_a_json_error_too(folder):
    done = subprocess.run([*PYTHON, "solve", "--json", "--time-limit", "-1"], capture_output=True, text=True,
                          timeout=HANG, env=environment(folder))
    (document,) = documents_of("", done.stdout)
    assert done.returncode == ExitCode.BAD_INPUT == document["exit"]
    assert "time-limit" in document["error"]


def test_bench_json_lines_are_the_rows_of_its_jsonl_output(folder):
    """bench --json on stdout and --output FILE.jsonl hold the same rows; --output FILE.csv the same puzzles."""
    rows = folder / "rows.jsonl"
    table = folder / "rows.csv"
    done = run("bench", [str(folder / "three.txt"), "--solvers", "backtrack", "--quiet", "--output", str(rows),
                         "--output", str(table)], folder)
    assert done.returncode == 0, done.stderr
    *printed, summary = documents_of("bench", done.stdout)  # the rows, then one summary row per solver
    written = [json.loads(line) for line in rows.read_text().splitlines()]
    key = [(r["index"], r["solver"], r["status"]) for r in printed]
    assert key == [(r["index"], r["solver"], r["status"]) for r in written] and len(key) == 3
    assert summary["summary"] is True and "summary" not in written[0]
    assert (summary["puzzles"], summary["solved"]) == (3, sum(r["status"] == "solved" for r in printed))
    assert len(table.read_text().splitlines()) == 1 + 3


def test_the_old_output_spellings_still_work_and_say_so(folder):
    table = folder / "old.csv"
    done = subprocess.run([*PYTHON, "bench", str(folder / "three.txt"), "--solvers", "backtrack", "--quiet",
                           "--out", str(table)], capture_output=True, text=True, timeout=HANG, env=environment(folder))
    assert done.returncode == 0, done.stderr
    assert "--out FILE is deprecated" in done.stderr and len(table.read_text().splitlines()) == 4


def test_bench_refuses_an_output_of_unknown_kind(folder):
    done = run("bench", [str(folder / "three.txt"), "--output", str(folder / "rows.txt")], folder)
    (document,) = documents_of("", done.stdout)
    assert done.returncode == 2 and ".csv" in document["error"] and not (folder / "rows.txt").exists()
