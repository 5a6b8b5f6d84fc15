"""Datasets that are not what they claim: bounded memory on huge lines, binary files refused, nothing a
terminal would act on echoed back, and no rate from a dataset without a puzzle."""

from __future__ import annotations

import random
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from ..conftest import ROOT

PUZZLES = ROOT / "examples" / "puzzles-20.txt"
COMMAND = [sys.executable, "-c", "from sudokulab.cli.main import run; run()"]


# The command runs under a small Python that reports its peak memory: a process forked straight from
# a large one (pytest, late in a run) starts with the parent's pages counted in its peak.
MEASURE = ("import os, resource, subprocess, sys\n"
           "code = subprocess.call(sys.argv[2:])\n"
           "open(sys.argv[1], 'w').write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))\n"
           "sys.exit(code)\n")


def run_measured(args: list[str], feed=None) -> tuple[int, str, str, int]:
    """Run the command; (exit code, stdout, stderr, its peak resident memory in MB)."""
    import tempfile

    with tempfile.NamedTemporaryFile("r", suffix=".peak") as peak_file:
        code, out, err = _run(args, feed, [sys.executable, "-c", MEASURE, peak_file.name])
        return code, out, err, int(peak_file.read() or 0) // 1024


def _run(args: list[str], feed, prefix: list[str]) -> tuple[int, str, str]:
    process = subprocess.Popen(prefix + COMMAND + args, stdin=subprocess.PIPE if feed else subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if feed:
        writer = threading.Thread(target=feed, args=(process.stdin,), daemon=True)
        writer.start()
    out, err = [], []
    readers = [threading.Thread(target=lambda s=s, b=b: b.append(s.read()), daemon=True)
               for s, b in ((process.stdout, out), (process.stderr, err))]
    for reader in readers:
        reader.start()
    process.wait(600)
    for reader in readers:
        reader.join(60)
    return process.returncode, out[0].decode(), err[0].decode()


@pytest.mark.slow
def test_a_300_mb_line_on_stdin_keeps_memory_flat():
    def feed(stream):
        try:
            chunk = b"9" * (1 << 20)
            for _ in range(300):
                stream.write(chunk)
            stream.write(b"\n" + PUZZLES.read_bytes())
            stream.close()
        except BrokenPipeError:
            pass

    code, out, err, peak = run_measured(["bench", "-", "--solvers", "backtrack-fast"], feed)
    assert code == 0, err
    assert "line 1: longer than 1048576 bytes; no puzzle is that big" in err
    assert "20/20" in out
    assert peak < 200, f"peak {peak} MB for a 300 MB line"  # the line is never held whole (about 40 MB seen)


@pytest.mark.slow
@pytest.mark.parametrize("content, why", [
    (random.Random(2580).randbytes(4000).replace(b"\n", b""), "is not text: byte 0x"),
    # a JSON puzzle file is told by its first "{": random bytes that start so are still not text
    (b"{3CnT\xc2\xefvO" + random.Random(2).randbytes(4000), "is not text: byte 0xc2 at offset 5"),
    ("\n".join(["." * 81] * 3).encode("utf-16"), "is not text: byte 0xff at offset 0"),
    (b"\0" * 5000, "is not text: control character 0x00 at offset 0"),
])
@pytest.mark.parametrize("command", ["bench", "judge"])
def test_a_dataset_that_is_not_text_is_refused_as_solve_refuses_it(tmp_path, content, why, command):
    path = tmp_path / "set.bin"
    path.write_bytes(content)
    args = [command, str(path)] + (["--", "true"] if command == "judge" else ["--solvers", "backtrack"])
    code, out, err, _ = run_measured(args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and why in err, err
    solve = subprocess.run(COMMAND + ["solve", str(path)], capture_output=True, text=True)
    assert solve.returncode == 2 and "is not text" in solve.stderr


@pytest.mark.slow
def test_terminal_controls_in_a_bad_entry_are_echoed_escaped(tmp_path):
    path = tmp_path / "set.txt"
    path.write_bytes(PUZZLES.read_bytes() * 200 + b"1 2 3 4\n3 4 1 2\n2 1 x\x1b]0;title\x07 3\n4 3 2 1\n")
    code, _, err, _ = run_measured(["bench", str(path), "--solvers", "backtrack-fast"])
    assert code == 0
    assert "\x1b" not in err and "\x07" not in err
    assert "'x\\x1b]0;title\\x07' is not a number" in err


@pytest.mark.slow
@pytest.mark.parametrize("content", [b"", b"# only a comment\n\n", b"not a puzzle\n"])
def test_a_dataset_without_a_puzzle_is_an_error_not_a_rate(tmp_path, content):
    path = tmp_path / "empty.txt"
    path.write_bytes(content)
    for args, feed in ((["bench", str(path)], None), (["bench", "-"], lambda s: (s.write(content), s.close()))):
        code, out, err, _ = run_measured(args + ["--solvers", "backtrack"], feed)
        assert code == 2 and out == "" and "inf" not in err
        assert err.endswith("holds no puzzle\n") or "holds no puzzle (1 bad entry)" in err, err


ONE_LINE = "1" * 81
BOJ_BLOCK = "\n".join(" ".join("0" * 9) for _ in range(9))


@pytest.mark.parametrize("content", [
    f"{ONE_LINE}\n" * 5,
    f"{ONE_LINE}\n" * 4 + ONE_LINE,  # no newline at the end
    "." * 81 + "\n" + ONE_LINE + "\n",
    f"{ONE_LINE}\n\n{ONE_LINE}\n",  # a blank line: the line-by-line count
    f"\n{ONE_LINE}\n",
    f"# a comment\n{ONE_LINE}\n",
    f"{ONE_LINE}\r\n" * 3,
    f"{BOJ_BLOCK}\n\n{BOJ_BLOCK}\n",
    f"{ONE_LINE}\n{BOJ_BLOCK}\n",
    "",
    "\n\n",
])
def test_the_quick_count_of_a_one_line_file_is_the_line_by_line_count(tmp_path, content):
    """``Dataset.estimate`` counts a file of one-line puzzles without a Python step per line; any other
    file falls back to the line-by-line count, and both agree wherever the quick one answers."""
    from sudokulab.datasets.one_line_files import count_one_line_file
    from sudokulab.datasets.reading import Dataset, _count_entries

    path = tmp_path / "set.txt"
    path.write_text(content, newline="")
    quick = count_one_line_file(path)
    assert quick is None or quick == _count_entries(path)
    assert Dataset.from_path(path).estimate() == _count_entries(path)
    if content == f"{ONE_LINE}\n" * 5:
        assert quick == 5


# --- a puzzle file (JSON, f-puzzles) where a dataset is read: one puzzle, its rules included --------

@pytest.mark.parametrize("name", ["x.json", "fpuzzles-x.txt", "fpuzzles-killer.json", "thermo-6x6.json"])
def test_every_command_that_reads_datasets_reads_a_puzzle_file_as_one_puzzle(capsys, name):
    """``rate``, ``bench`` and ``propagate --summary`` read what ``solve`` and ``explain`` read: a JSON or
    f-puzzles file is one puzzle, under the rules it declares (its answer checked under them)."""
    from sudokulab.cli import main as cli
    from sudokulab.datasets.reading import Dataset
    from sudokulab.formats.puzzle_files import read_puzzle

    path = str(ROOT / "examples" / name)
    [entry] = list(Dataset.from_path(path).entries())
    assert entry.puzzle == read_puzzle(path)  # the same puzzle, rules and all, as solve reads
    assert cli.main(["bench", path, "--solvers", "sat", "--quiet"]) == 0
    out = _stripped(capsys.readouterr().out)
    assert f"{Path(name).stem}: 1 puzzle\n" in out and " 1/1 " in out
    assert cli.main(["propagate", path, "--summary"]) == 0
    assert "1 puzzle\n" in _stripped(capsys.readouterr().out)
    assert cli.main(["rate", path]) == 0
    out = capsys.readouterr().out
    assert "1 puzzle rated" in out and "not rated" not in out


def _stripped(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.split("\n"))
