"""``sudokulab grade``: a whole class graded, each student in a process of its own (docs/grading.md).

Each test makes a class in ``tmp_path`` (right, wrong, crashing and hostile submissions) and runs the
real command as a subprocess, bubblewrap and compilers included; the verdicts are read back from
the gradebook, the reports and the stored results.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sudokulab.formats import documents
from tests.conftest import EXAMPLES, ROOT

PYTHON = [sys.executable, "-m", "sudokulab"]
ANSWER = (EXAMPLES / "boj2580-sample.out").read_text()
STUDENTS = ROOT / "tests" / "fixtures" / "students"
CAP = 240.0
"""The subprocess timeout of one whole grade run in these tests (a class of 40 on 2 busy cores)."""


def grade(*arguments: str | Path, check: bool = True) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([*PYTHON, "grade", *map(str, arguments), "--quiet"], capture_output=True, text=True,
                          timeout=CAP, env=env, stdin=subprocess.DEVNULL)
    if check:
        assert done.returncode == 0, done.stderr
    return done


def book(done: subprocess.CompletedProcess) -> dict:
    document = json.loads(done.stdout)
    documents.validate("grade", document)
    return document


def rows(document: dict) -> dict[str, dict]:
    return {row["student"]: row for row in document["students"]}


def printing(text: str) -> str:
    """A Python program that reads the puzzle and prints ``text``."""
    return f"import sys\nsys.stdin.read()\nsys.stdout.write({text!r})\n"


RIGHT_C = r"""#include <stdio.h>
int main(void) { int g; for (int i = 0; i < 81; i++) if (scanf("%d", &g) != 1) return 1;
  fputs("%s", stdout); return 0; }
"""

JAVA_TEXT = json.dumps(ANSWER)
"""The answer as a Java string literal (JSON's escapes are Java's for this text)."""
WRONG = ANSWER.replace("1 3 5", "3 1 5", 1)


CLASS_JUDGE = ("--task", "judge", "--time-limit", "3")
"""The class's judge options: 3 s of wall time, room for a Python start at a load of 16 (the loops cost 3 s each)."""


def judge_class(folder: Path) -> dict[str, set[str]]:
    """40 judge submissions of every kind; student -> the verdicts (or failure words) it may get."""
    folder.mkdir()
    expected: dict[str, set[str]] = {}

    def put(name: str, text: str, kind: set[str], mode: int = 0o644) -> None:
        path = folder / name
        path.write_text(text)
        path.chmod(mode)
        expected[path.stem] = kind

    for i in range(14):
        put(f"right{i:02}.py", printing(ANSWER), {"accepted"})
    for i in range(4):
        put(f"wrong{i}.py", printing(WRONG), {"wrong answer"})
    for i in range(3):
        put(f"crash{i}.py", "raise ValueError('boom')\n", {"runtime error"})
    for i in range(3):
        put(f"loop{i}.py", "while True:\n    pass\n", {"time limit exceeded"})
    for i in range(3):
        put(f"exit{i}.py", "import sys\nsys.exit(0)\n", {"wrong answer"})
    for i in range(2):
        put(f"huge{i}.py", "import sys\nwhile True:\n    sys.stdout.write('1 ' * 65536)\n", {"output limit exceeded"})
    for i in range(2):  # processes until the limit refuses one: the fork fails (or the time runs out first)
        put(f"fork{i}.py", "import os, time\nwhile True:\n    if os.fork() == 0:\n        time.sleep(100)\n",
            {"runtime error", "time limit exceeded"})
    # Touching 256 MB takes a tenth of a second on a quiet machine and can outlast a time limit at a load of 16
    # (seen at the 1 s default: 4 of 8 class runs made two at a time), so the hog is judged by whichever limit
    # it meets first.
    put("hog.py", "import sys\nsys.stdin.read()\nblock = bytearray(2 << 30)\n",
        {"memory limit exceeded", "time limit exceeded"})
    for i in range(2):
        put(f"c{i}.c", RIGHT_C.replace("%s", JAVA_TEXT[1:-1]), {"accepted"})
    for i in range(2):
        put(f"cbad{i}.c", "int main( { return 0 }\n", {"compile error"})
    put("script", "#!/bin/sh\ncat > /dev/null\necho 1 2 3\n", {"wrong answer"}, 0o755)
    put("notes.txt", "my solution is in my head\n", {"no program"})
    multi = folder / "multi"
    multi.mkdir()
    (multi / "main.py").write_text("import sys\nfrom answer import TEXT\nsys.stdin.read()\nsys.stdout.write(TEXT)\n")
    (multi / "answer.py").write_text(f"TEXT = {ANSWER!r}\n")
    expected["multi"] = {"accepted"}
    linked = folder / "linked"
    linked.mkdir()
    (linked / "main.py").symlink_to("/etc/hostname")
    expected["linked"] = {"symbolic link"}
    assert len(expected) == 40
    return expected


def verdict(row: dict) -> str:
    """The one verdict of a judge row on the one-puzzle sample, or the words of why it was not graded."""
    if row["status"] == "graded":
        (outcome,) = [name for name, n in row["counts"].items() if n]
        return outcome
    for words in ("compile error", "no program", "symbolic link"):
        if words in row["first_failure"]:
            return words
    return row["first_failure"]


def without_measures(document: dict) -> list[dict]:
    return [{k: v for k, v in row.items() if k not in ("seconds", "peak_kb")} for row in document["students"]]


def stored(out: Path) -> dict[str, tuple[int, bytes]]:
    return {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in (out / "results").glob("*.json")}


@pytest.mark.slow
def test_a_class_of_forty_the_same_on_threads_and_on_a_cluster_and_resumed_after_kill_9(tmp_path):
    pytest.importorskip("distributed")
    expected = judge_class(tmp_path / "class")
    local = book(grade(tmp_path / "class", *CLASS_JUDGE, "--jobs", "2", "--out", tmp_path / "a", "--json"))
    got = {name: verdict(row) for name, row in rows(local).items()}
    assert {name: got[name] for name in expected if got[name] not in expected[name]} == {}
    assert list(got) == sorted(got) and local["summary"]["graded_now"] == 40
    assert rows(local)["right00"]["passed"] == rows(local)["right00"]["total"] == 1
    assert "printed no document" not in json.dumps(local)  # no grader broke on a judge submission
    report = (tmp_path / "a" / "reports" / "crash0.txt").read_text()
    assert "runtime error" in report and "ValueError" in report

    on_cluster = book(grade(tmp_path / "class", *CLASS_JUDGE, "--cluster", "local:2", "--out", tmp_path / "b",
                            "--json"))
    assert "Dask" in on_cluster["summary"]["where"]
    fork = {"hog", *(f"fork{i}" for i in range(2))}  # the kinds whose verdict may differ on a busy machine
    assert ([r for r in without_measures(local) if r["student"] not in fork]
            == [r for r in without_measures(on_cluster) if r["student"] not in fork])
    with open(tmp_path / "a" / "gradebook.csv", newline="") as a, open(tmp_path / "b" / "gradebook.csv",
                                                                        newline="") as b:
        assert ([r[:10] for r in csv.reader(a) if r[0] not in fork]
                == [r[:10] for r in csv.reader(b) if r[0] not in fork])

    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    out = tmp_path / "c"
    running = subprocess.Popen([*PYTHON, "grade", str(tmp_path / "class"), *CLASS_JUDGE, "--jobs", "2",
                                "--out", str(out), "--quiet"], env=env, stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + CAP
        while len(list((out / "results").glob("*.json"))) < 8 and running.poll() is None:
            assert time.monotonic() < deadline
            time.sleep(0.05)
    finally:
        running.kill()
        running.wait()
    before = stored(out)
    assert 8 <= len(before) < 40
    again = grade(tmp_path / "class", *CLASS_JUDGE, "--jobs", "2", "--out", out, "--json")
    summary = book(again)["summary"]
    assert (summary["kept"], summary["graded_now"]) == (len(before), 40 - len(before))
    assert f"{40 - len(before)} graded now, {len(before)} kept" in again.stderr
    after = stored(out)
    assert {name: after[name] for name in before} == before  # the earlier results untouched
    assert len(after) == 40 and not list(out.rglob("*.part"))


@pytest.mark.slow
def test_solver_task_grades_right_broken_and_hostile_classes(tmp_path):
    from sudokulab.grading.templates import text

    template = text("solver")
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "ana.py").write_text(template)
    (folder / "ben.py").write_text(template.replace("range(1, n + 1)", "range(n, 0, -1)"))  # claims canonical
    (folder / "cleo.py").write_text("import sys\nsys.exit(0)\n" + template)
    (folder / "dan.py").write_text("while True:\n    pass\n")
    (folder / "eve.py").write_text(template.replace("class StudentSolver", "class Mine"))
    document = book(grade(folder, "--task", "solver", "--jobs", "2", "--student-timeout", "20", "--json"))
    got = rows(document)
    assert (got["ana"]["status"], got["ana"]["passed"]) == ("graded", got["ana"]["total"])
    assert got["ana"]["total"] >= 10 and got["ana"]["first_failure"] == ""
    assert got["ben"]["status"] == "graded" and got["ben"]["passed"] < got["ben"]["total"]
    assert got["ben"]["first_failure"].startswith("canonical_empty_boards: ")
    # sys.exit(0) at import: check-solver runs the student's code in a process of its own, so every check
    # fails, named, and the student is graded (0 passed) rather than the grader broken
    assert (got["cleo"]["status"], got["cleo"]["passed"]) == ("graded", 0)
    assert "sys.exit(0)" in got["cleo"]["first_failure"], got["cleo"]
    assert got["dan"]["status"] == "not graded" and "the grader" in got["dan"]["first_failure"]
    assert got["eve"]["status"] == "not graded" and "StudentSolver" in got["eve"]["first_failure"]
    assert (tmp_path / "class-gradebook" / "reports" / "ben.txt").read_text().count("failed") >= 1
    header = (tmp_path / "class-gradebook" / "gradebook.csv").read_text().splitlines()[0]
    assert header.split(",")[:5] == ["student", "status", "passed", "total", "skipped"]


@pytest.mark.slow
def test_encoding_task_grades_the_shipped_students(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("correct_extended", "missing_box", "raises"):
        shutil.copy(STUDENTS / f"{name}.py", folder)
    (folder / "noisy.py").write_text("print('hello')\n" + (STUDENTS / "correct_extended.py").read_text())
    got = rows(book(grade(folder, "--task", "encoding", "--jobs", "2", "--json")))
    assert got["correct_extended"]["passed"] == got["correct_extended"]["total"] == 5
    assert (got["missing_box"]["passed"], got["missing_box"]["total"]) == (1, 5)
    assert got["missing_box"]["first_failure"].startswith("empty-4x4: 576 models")
    assert got["raises"]["status"] == "not graded" and "refused" in got["raises"]["first_failure"]
    # a print at import spoils the one document: the grader's output is not read as a score
    assert got["noisy"]["status"] == "not graded" or got["noisy"]["passed"] == 5


@pytest.mark.slow
def test_judge_task_builds_each_language_where_it_grades(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "cpp.cpp").write_text(RIGHT_C.replace("%s", JAVA_TEXT[1:-1]))
    java = folder / "javan"
    java.mkdir()
    (java / "Main.java").write_text(
        "public class Main { public static void main(String[] a) throws Exception {\n"
        "  System.in.readAllBytes(); System.out.print(Answer.TEXT); } }\n")
    (java / "Answer.java").write_text(f"class Answer {{ static final String TEXT = {JAVA_TEXT}; }}\n")
    (folder / "single.java").write_text(
        f"public class Main {{ public static void main(String[] a) {{ System.out.print({JAVA_TEXT}); }} }}\n")
    (folder / "js.js").write_text(f"process.stdout.write({json.dumps(ANSWER)});\n")
    (folder / "two").mkdir()
    (folder / "two" / "a.py").write_text("")
    (folder / "two" / "b.py").write_text("")
    got = rows(book(grade(folder, "--task", "judge", "--time-limit", "10", "--jobs", "2", "--json")))  # a JVM start
    for name in ("cpp", "javan", "single", "js"):
        assert got[name]["passed"] == got[name]["total"] == 1, got[name]
    assert got["javan"]["program"].startswith("java -Xmx128m -cp")
    assert got["two"]["status"] == "not graded" and "2 source files" in got["two"]["first_failure"]


@pytest.mark.slow
def test_bad_usage_is_one_line(tmp_path):
    (tmp_path / "empty").mkdir()
    for arguments, words in (([tmp_path / "missing", "--task", "judge"], "not a folder"),
                             ([tmp_path / "empty", "--task", "judge"], "no submissions"),
                             ([tmp_path / "empty", "--task", "solver", "--dataset", "x"], "--dataset goes with"),
                             ([tmp_path / "empty", "--task", "judge", "--jobs", "2", "--cluster", "local:2"],
                              "give one")):
        done = grade(*arguments, check=False)
        assert done.returncode == 2 and done.stderr.count("\n") == 1 and words in done.stderr, done.stderr


@pytest.mark.slow
def test_two_files_for_one_student_are_refused(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "ana.py").write_text("")
    (folder / "ana.c").write_text("")
    done = grade(folder, "--task", "judge", check=False)
    assert done.returncode == 2 and "two submissions for 'ana'" in done.stderr


def test_the_digest_changes_with_the_bytes_and_the_options(tmp_path):
    from sudokulab.grading.gradebook import digest, pack
    from sudokulab.grading.grader import GradeOptions

    path = tmp_path / "ana.py"
    path.write_text("print(1)\n")
    first = pack(path, "ana")
    judge = GradeOptions("judge", dataset=b"x")
    assert digest(first, judge) == digest(pack(path, "ana"), judge)  # not the file's time: its bytes
    os.utime(path, (0, 0))
    assert digest(pack(path, "ana"), judge) == digest(first, judge)
    assert digest(first, GradeOptions("judge", dataset=b"y")) != digest(first, judge)
    assert digest(first, GradeOptions("judge", dataset=b"x", time_limit=2)) != digest(first, judge)
    path.write_text("print(2)\n")
    assert digest(pack(path, "ana"), judge) != digest(first, judge)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    assert pack(path, "ana").packed != first.packed


@pytest.mark.slow
def test_an_endless_grader_is_ended_at_its_cap(tmp_path):
    from sudokulab.execution.capped_process import run_capped

    ended = run_capped([sys.executable, "-c", "import time; print('x', flush=True); time.sleep(60)"], tmp_path, 1.0)
    assert ended.timed_out and ended.stdout == b"x\n" and ended.returncode == -signal.SIGTERM
    assert "was still running after its 1 s cap" in ended.how(1.0)
