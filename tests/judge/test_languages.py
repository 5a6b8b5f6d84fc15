"""judge in the languages BOJ accepts: the classic BOJ 2580 solutions as students write them, at BOJ's memory
limit (256 MB), each accepted; a memory hog in each, "memory limit exceeded"; the interpreter named is the
one that runs. Each test skips, with the reason, where its toolchain is missing.

The time limit here is 10 s, not BOJ's 1 s: on a 2-core machine shared with other test workers a JVM's
start can take a second, and these tests are about memory and verdicts, not speed (each run takes
0.05-0.3 s on a quiet machine: docs/judge.md).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sudokulab.datasets import catalog
from sudokulab.datasets.reading import parse_lines, read_dataset
from sudokulab.execution.sandbox import DEFAULT_LIMITS, Limits, run_program
from sudokulab.judge import run as judge
from sudokulab.judge.cases import Outcome
from sudokulab.judge.runtime_flags import runtime_options, sized_for

from ..conftest import EXAMPLES, FIXTURES

LANGUAGES = FIXTURES / "languages"
SAMPLE = EXAMPLES / "boj2580-sample.txt"
LIMITS = Limits(seconds=10.0)
"""BOJ 2580's memory limit (256 MB), a time limit a busy machine cannot turn into a verdict."""
assert LIMITS.memory_mb == DEFAULT_LIMITS.memory_mb == 256


def tool(*names: str) -> pytest.MarkDecorator:
    missing = [name for name in names if shutil.which(name) is None]
    return pytest.mark.skipif(bool(missing), reason=f"{', '.join(missing)} not installed")


def puzzles() -> list:
    """The BOJ sample and the first 5 puzzles of a published set (its slice ships with sudokulab)."""
    sample = list(parse_lines(SAMPLE.read_text().splitlines()))
    return sample + list(judge.first_puzzles(read_dataset(str(catalog.find("serg_benchmark", 5))), 5))


def judged(command: list[str], entries: list | None = None, limits: Limits = LIMITS) -> judge.JudgeReport:
    return judge.judge_dataset(entries if entries is not None else puzzles(), command, limits, failures_shown=6)


def assert_all_accepted(report: judge.JudgeReport) -> None:
    failures = [f"{f.case.index}: {f.case}" for f in report.failures]
    assert report.summary.all_accepted and report.summary.runs == 6, failures
    assert report.summary.peak_rss_kb < 128 * 1024  # what a classic solution uses, far below the limit


def assert_memory_limit(report: judge.JudgeReport) -> None:
    (failure,) = report.failures
    assert failure.case.outcome is Outcome.MEMORY_LIMIT, str(failure.case)
    assert "limit 256 MB" in failure.case.detail


def sample_only() -> list:
    return list(parse_lines(SAMPLE.read_text().splitlines()))


# --- Java -------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def classes(tmp_path_factory) -> Path:
    if shutil.which("javac") is None or shutil.which("java") is None:
        pytest.skip("javac or java not installed")
    folder = tmp_path_factory.mktemp("classes")
    subprocess.run(["javac", "-d", str(folder), str(LANGUAGES / "Main.java"), str(LANGUAGES / "Hog.java")],
                   check=True, timeout=300, capture_output=True)
    return folder


@pytest.mark.slow
def test_java_classic_is_accepted_at_256_mb_with_flags_sized_from_the_limit(classes):
    notes: list[str] = []
    report = judge.judge_dataset(puzzles(), ["java", "-cp", str(classes), "Main"], LIMITS, on_note=notes.append)
    assert_all_accepted(report)
    assert notes == ["java runs with -Xmx192m -Xss64m -XX:ReservedCodeCacheSize=32m -XX:CompressedClassSpaceSize=32m "
                     "-XX:+UseSerialGC, sized from the 256 MB memory limit (give your own to change them)"]


@pytest.mark.slow
def test_java_with_the_users_own_heap_flag_keeps_it(classes):
    # The reported case: -Xmx200m failed with "os::commit_memory ... Not enough space" under RLIMIT_DATA.
    notes: list[str] = []
    report = judge.judge_dataset(sample_only(), ["java", "-Xmx200m", "-cp", str(classes), "Main"], LIMITS,
                                 on_note=notes.append)
    assert report.summary.all_accepted, [str(f.case) for f in report.failures]
    assert len(notes) == 1 and "-Xmx" not in notes[0] and "-Xss64m" in notes[0]


@pytest.mark.slow
def test_a_jvm_without_any_flag_starts_under_256_mb(classes):
    # The launcher alone, no flags added: judged on what the JVM uses (~40 MB), not on what it reserves.
    run = run_program(["java", "-cp", str(classes), "Main"], SAMPLE.read_bytes(), LIMITS)
    assert run.exit_code == 0, run.stderr[-500:]
    assert run.stdout.split() == (EXAMPLES / "boj2580-sample.out").read_bytes().split()
    assert run.peak_rss_kb < 128 * 1024


@pytest.mark.slow
def test_java_holding_400_mb_exceeds_the_memory_limit(classes):
    assert_memory_limit(judged(["java", "-cp", str(classes), "Hog"], sample_only()))


def test_jvm_flags_are_added_only_where_the_user_gave_none_and_never_to_the_programs_arguments():
    sized = sized_for(["java", "-Xss8m", "-XX:+UseG1GC", "-cp", "-Xmx1g", "Main", "-Xmx5m"], 256)
    assert sized.added == ("-Xmx192m", "-XX:ReservedCodeCacheSize=32m", "-XX:CompressedClassSpaceSize=32m")
    assert sized.command == ("java", *sized.added, "-Xss8m", "-XX:+UseG1GC", "-cp", "-Xmx1g", "Main", "-Xmx5m")
    assert runtime_options(["-Xmx1g", "-jar", "app.jar", "-Xss1m"]) == ["-Xmx1g"]
    assert sized_for(["java", "Main"], None).command == ("java", "Main")  # no limit, no flags
    assert sized_for(["python3", "main.py"], 256).added == ()  # CPython needs none
    assert sized_for(["node", "--max-old-space-size=100", "main.js"], 256).added == ()
    assert sized_for(["node", "main.js"], 1024).added == ("--max-old-space-size=768",)


# --- JavaScript, Python, C --------------------------------------------------------------------------


@pytest.mark.slow
@tool("node")
def test_javascript_classic_is_accepted_at_256_mb():
    assert_all_accepted(judged(["node", str(LANGUAGES / "main.js")]))


@pytest.mark.slow
@tool("node")
def test_javascript_holding_400_mb_exceeds_the_memory_limit():
    assert_memory_limit(judged(["node", str(LANGUAGES / "hog.js")], sample_only()))


@pytest.mark.slow
@tool("python3")
def test_python_classic_is_accepted_at_256_mb():
    assert_all_accepted(judged(["python3", str(LANGUAGES / "main.py")]))


@pytest.mark.slow
@tool("python3")
def test_python_holding_400_mb_exceeds_the_memory_limit():
    assert_memory_limit(judged(["python3", str(LANGUAGES / "hog.py")], sample_only()))


@pytest.fixture(scope="module")
def compiled(tmp_path_factory) -> Path:
    if shutil.which("gcc") is None:
        pytest.skip("gcc not installed")
    folder = tmp_path_factory.mktemp("c")
    for name in ("main", "hog"):
        subprocess.run(["gcc", "-O2", "-o", str(folder / name), str(LANGUAGES / f"{name}.c")], check=True,
                       timeout=300, capture_output=True)
    return folder


@pytest.mark.slow
def test_c_classic_is_accepted_at_256_mb(compiled):
    assert_all_accepted(judged([str(compiled / "main")]))


@pytest.mark.slow
def test_c_holding_400_mb_exceeds_the_memory_limit(compiled):
    assert_memory_limit(judged([str(compiled / "hog")], sample_only()))


# --- the interpreter named is the one that runs ------------------------------------------------------

WHO = ("import sys; sys.stderr.write(' '.join((sys.executable, sys.prefix, sys.version.split()[0])) + '\\n'); "
       "sys.exit(1)")


def who_runs(command_name: str, tmp_path: Path) -> list[str]:
    """Judge a program that names its interpreter on stderr and exits 1: (executable, prefix, version)."""
    program = tmp_path / "who.py"
    program.write_text(WHO + "\n")
    (failure,) = judged([command_name, str(program)], sample_only()).failures
    assert failure.case.outcome is Outcome.RUNTIME_ERROR, str(failure.case)
    return failure.case.run.stderr.decode().split()


def test_a_bare_python3_is_the_one_on_the_users_path(tmp_path, monkeypatch):
    # This test's own Python first on PATH (a virtual environment's, usually): the judged python3 is that
    # one, its environment included, not the sandbox's /usr/bin/python3.
    folder = Path(sys.executable).parent
    if not (folder / "python3").exists():
        pytest.skip(f"no python3 beside {sys.executable}")
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    assert who_runs("python3", tmp_path) == [str(folder / "python3"), sys.prefix, sys.version.split()[0]]


@pytest.mark.slow
def test_a_pyenv_shim_runs_the_interpreter_it_stands_for(tmp_path, monkeypatch):
    root = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv"))
    shim = root / "shims" / "python3"
    if not shim.exists():
        pytest.skip("no pyenv shim for python3 here")
    monkeypatch.setenv("PATH", f"{shim.parent}{os.pathsep}{os.environ['PATH']}")
    expected = subprocess.run([str(shim), "-c", WHO], capture_output=True, text=True, timeout=60).stderr.split()
    assert who_runs("python3", tmp_path) == expected
