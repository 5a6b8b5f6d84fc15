"""Someone else's folder copied once, safely (``execution.safe_copy``), as ``grade`` and ``judge`` copy it.

Each hostile folder is what a student (or whoever wrote a folder ``judge`` is given) can make without
privilege: links to anything, a FIFO, a sparse terabyte, a folder swapped for a link while it is
read. The copy is made by the very functions the commands call (``gradebook.pack`` for ``grade``,
``program.pack_program`` for ``judge``), and must refuse with one reason, at once, without reading
what it refuses.
"""

from __future__ import annotations

import io
import os
import tarfile
import threading
import time
import uuid
from pathlib import Path

import pytest

from sudokulab.errors import UsageError
from sudokulab.grading import gradebook
from sudokulab.judge.program import pack_program

QUICK = 10.0
"""Seconds within which a refusal must come. What it distinguishes: following a link into a large
folder took minutes; refusing it takes milliseconds. Generous, for a loaded 2-core machine."""


def names(archive: bytes) -> list[str]:
    with tarfile.open(fileobj=io.BytesIO(archive)) as packed:
        return packed.getnames()


def contents(archive: bytes) -> bytes:
    with tarfile.open(fileobj=io.BytesIO(archive)) as packed:
        return b"".join(packed.extractfile(m).read() for m in packed.getmembers() if m.isfile())


def student_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "submissions" / "alice"
    folder.mkdir(parents=True)
    (folder / "main.py").write_text("print('hello')\n")
    return folder


def large_folder(tmp_path: Path) -> Path:
    """A folder that would take a while to copy (2,000 files, 80 MB): a link's target."""
    big = tmp_path / "big"
    big.mkdir()
    for number in range(2000):
        (big / f"f{number}").write_bytes(b"")
    with open(big / "blob", "wb") as stream:
        stream.truncate(80 << 20)
    return big


def link_targets(tmp_path: Path) -> dict[str, str]:
    """What a link in a student's folder may point to: each must be refused, at once."""
    secret = tmp_path / "secret.txt"
    secret.write_text("the teacher's secret\n")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    return {"a root-only file": "/etc/shadow", "a file outside": str(secret), "a large folder": str(large_folder(
        tmp_path)), "a FIFO": str(fifo), "itself": "loop", "nothing": str(tmp_path / "missing"),
        "a file inside": "main.py", "the system": "/"}


@pytest.mark.parametrize("target", ["a root-only file", "a file outside", "a large folder", "a FIFO", "itself",
                                    "nothing", "a file inside", "the system"])
def test_a_folder_holding_a_link_is_refused_by_grade_and_by_judge_at_once(tmp_path, target):
    folder = student_folder(tmp_path)
    os.symlink(link_targets(tmp_path)[target], folder / "loop" if target == "itself" else folder / "data")
    started = time.monotonic()
    with pytest.raises(UsageError, match="symbolic link"):
        pack_program(["python3", str(folder / "main.py"), str(folder)], here=True)
    submission = gradebook.pack(folder, "alice")
    assert submission.packed == b"" and submission.problem.startswith("not graded: ")
    assert "symbolic link" in submission.problem and ("'alice/data'" in submission.problem or target == "itself")
    assert time.monotonic() - started < QUICK


def test_a_submission_that_is_itself_a_link_is_refused(tmp_path):
    secret = tmp_path / "secret.py"
    secret.write_text("SECRET = 1\n")
    (tmp_path / "submissions").mkdir()
    os.symlink(secret, tmp_path / "submissions" / "bob.py")
    submission = gradebook.pack(tmp_path / "submissions" / "bob.py", "bob")
    assert submission.problem == "not graded: 'bob.py' is a symbolic link"
    with pytest.raises(UsageError, match="bob.py' is a symbolic link"):
        pack_program(["python3", str(tmp_path / "submissions" / "bob.py")], here=True)


def test_a_sparse_terabyte_and_a_fifo_are_refused_without_reading_them(tmp_path):
    folder = student_folder(tmp_path)
    with open(folder / "huge.bin", "wb") as stream:
        stream.truncate(1 << 40)  # a terabyte by its size, nothing on disk
    started = time.monotonic()
    submission = gradebook.pack(folder, "alice")
    assert submission.problem == "not graded: more than 16 MiB (at 'alice/huge.bin', 1,048,576 MiB by its size)"
    (folder / "huge.bin").unlink()
    os.mkfifo(folder / "pipe")  # no writer ever comes: opening it to read would wait for ever
    assert gradebook.pack(folder, "alice").problem == "not graded: 'alice/pipe' is a FIFO"
    with pytest.raises(UsageError, match="alice/pipe' is a FIFO"):
        pack_program(["python3", str(folder / "main.py"), str(folder)], here=True)
    assert time.monotonic() - started < QUICK


def test_too_many_entries_are_refused_while_they_are_counted(tmp_path):
    from sudokulab.execution import safe_copy

    folder = student_folder(tmp_path)
    for number in range(40):
        (folder / f"f{number}").write_text("")
    with pytest.raises(safe_copy.CopyRefused, match="more than 30 files and folders"):
        safe_copy.pack(folder, "alice", safe_copy.Bounds(1 << 20, max_entries=30))


def test_an_honest_folder_is_copied_whole_with_its_modes_and_no_times(tmp_path):
    from sudokulab.execution import safe_copy

    folder = student_folder(tmp_path)
    (folder / "lib").mkdir()
    (folder / "lib" / "helper.py").write_text("X = 1\n")
    (folder / "run").write_text("#!/bin/sh\n")
    (folder / "run").chmod(0o755)
    archive = safe_copy.pack(folder, "alice", safe_copy.Bounds(1 << 20))
    assert names(archive) == ["alice", "alice/lib", "alice/lib/helper.py", "alice/main.py", "alice/run"]
    with tarfile.open(fileobj=io.BytesIO(archive)) as packed:
        assert packed.getmember("alice/run").mode == 0o755 and {m.mtime for m in packed.getmembers()} == {0}
    time.sleep(0.01)
    (folder / "main.py").touch()
    assert safe_copy.pack(folder, "alice", safe_copy.Bounds(1 << 20)) == archive  # the same bytes, the same archive


def test_a_link_swapped_in_while_the_folder_is_copied_never_reads_its_target(tmp_path):
    """A student who can still write to their folder swaps a folder and a file for links, as fast as
    they can, while the grader copies it, hundreds of times: the target's bytes never reach a copy."""
    marker = f"secret-{uuid.uuid4().hex}"
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "notes.txt").write_text(marker)
    (outside / "main.py").write_text(marker)
    folder = student_folder(tmp_path)
    (folder / "notes").mkdir()
    (folder / "notes" / "notes.txt").write_text("mine\n")
    stop = threading.Event()

    def swap() -> None:
        while not stop.is_set():
            for real, fake, target in ((folder / "notes", folder / "notes.real", outside),
                                       (folder / "main.py", folder / "main.real", outside / "main.py")):
                os.rename(real, fake)
                os.symlink(target, real)
                os.unlink(real)
                os.rename(fake, real)

    swapper = threading.Thread(target=swap, daemon=True)
    swapper.start()
    outcomes = {"copied": 0, "refused": 0}
    try:
        for _ in range(300):
            for packed in (gradebook.pack(folder, "alice").packed, _judge_pack(folder)):
                if packed:
                    assert marker.encode() not in contents(packed)
                    outcomes["copied"] += 1
                else:
                    outcomes["refused"] += 1
    finally:
        stop.set()
        swapper.join()
    assert outcomes["refused"] > 0, outcomes  # the race was run: some copies met a link


def _judge_pack(folder: Path) -> bytes:
    try:
        program = pack_program(["python3", str(folder / "main.py"), str(folder)], here=True)
    except UsageError:
        return b""
    return b"".join(archive for _, archive in program.packed)


@pytest.mark.slow
def test_judge_refuses_a_folder_holding_a_link_with_one_line_before_any_run(tmp_path):
    import subprocess
    import sys

    from tests.conftest import EXAMPLES

    folder = student_folder(tmp_path)
    os.symlink(large_folder(tmp_path), folder / "data")
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "sudokulab", "judge", str(EXAMPLES / "boj2580-sample.txt"), "--",
                           "python3", str(folder / "main.py"), str(folder)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr == f"sudokulab: error: judge: not copied before judging: '{folder}/data' is a symbolic link\n"
    assert time.monotonic() - started < 30  # the start of Python and the package, not the large folder's copy
