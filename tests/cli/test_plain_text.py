"""Output where the terminal or file cannot take Unicode: ASCII spellings, JSON escaped, never a crash.

``PYTHONIOENCODING=ascii`` and ``LC_ALL=C PYTHONUTF8=0`` each give the command ASCII streams; what it
prints must then be ASCII bytes only, with no traceback, and a ``--json`` document must be the very
document a UTF-8 run prints (escaped characters read back the same).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import EXAMPLES

SAMPLE = str(EXAMPLES / "boj2580-sample.txt")
NEEDS_ELIMINATIONS = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
"""A puzzle whose explanation removes candidates (``r2c1 ≠ 7``), past singles."""

ASCII_ENVIRONMENTS = {"PYTHONIOENCODING=ascii": {"PYTHONIOENCODING": "ascii"},
                      "LC_ALL=C PYTHONUTF8=0": {"LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONIOENCODING": ""}}


def _run(argv: list[str], extra: dict[str, str]) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONIOENCODING", "LC_ALL", "LANG")}
    env.update({key: value for key, value in extra.items() if value})
    return subprocess.run([sys.executable, "-m", "sudokulab", *argv], capture_output=True, env=env, timeout=300)


@pytest.fixture(scope="module")
def hard(tmp_path_factory):
    path = tmp_path_factory.mktemp("plain") / "hard.txt"
    path.write_text(NEEDS_ELIMINATIONS + "\n")
    return str(path)


@pytest.mark.slow
@pytest.mark.parametrize("environment", ASCII_ENVIRONMENTS)
@pytest.mark.parametrize("command", ["explain", "bench", "judge", "compare"])
def test_ascii_streams_get_ascii_spellings_and_no_traceback(hard, environment, command):
    argv = {"explain": ["explain", hard], "bench": ["bench", SAMPLE, hard, "--quiet"],
            "judge": ["judge", hard, "--quiet", "--isolation", "none", "--", "cat"],
            "compare": ["compare", SAMPLE, "--solvers", "backtrack,sat"]}[command]
    done = _run(argv, ASCII_ENVIRONMENTS[environment])
    assert done.returncode == (1 if command == "judge" else 0), done.stderr.decode(errors="replace")
    assert done.stdout.isascii() and done.stderr.isascii()
    assert b"Traceback" not in done.stderr and b"\\x" not in done.stdout + done.stderr
    if command == "explain":
        assert b" != " in done.stdout  # r2c1 != 7, where a UTF-8 terminal shows the sign
    if command == "bench":
        assert b"us" in done.stdout or b"ms" in done.stdout


@pytest.mark.slow
@pytest.mark.parametrize("environment", ASCII_ENVIRONMENTS)
def test_a_json_document_on_an_ascii_stream_is_the_same_document_escaped(hard, environment):
    plain = _run(["explain", hard, "--json"], ASCII_ENVIRONMENTS[environment])
    utf8 = _run(["explain", hard, "--json"], {"PYTHONIOENCODING": "utf-8"})
    assert plain.returncode == utf8.returncode == 0 and plain.stdout.isascii()
    assert "≠" in utf8.stdout.decode() and b"\\u2260" in plain.stdout
    first, second = json.loads(plain.stdout), json.loads(utf8.stdout)
    for document in (first, second):  # timings differ from run to run
        document.pop("seconds", None)
    assert [step["text"] for step in first["steps"]] == [step["text"] for step in second["steps"]]


@pytest.mark.slow
@pytest.mark.parametrize("environment", ASCII_ENVIRONMENTS)
@pytest.mark.parametrize("argv", [["solvers"], ["encoding", "show", "--model"], ["datasets", "list"]])
def test_an_ascii_table_is_the_same_table_with_its_lines_spelled_in_ascii(environment, argv):
    """One table style: where the box lines cannot be encoded they are spelled (``-`` for ``─``), in the
    same layout, not drawn in a second, ASCII style (rich's own fallback adds ``|`` and ``+``)."""
    plain = _run(argv, ASCII_ENVIRONMENTS[environment])
    utf8 = _run(argv, {"PYTHONIOENCODING": "utf-8"})
    assert plain.returncode == utf8.returncode == 0 and plain.stdout.isascii()
    assert plain.stdout.decode() == utf8.stdout.decode().replace("─", "-")
