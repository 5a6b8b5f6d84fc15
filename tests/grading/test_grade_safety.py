"""``grade`` on a shared course server: nothing a student hands in is compiled, read or run outside the sandbox.

Each test hands in what an attacker would (issue 43), as root where the suite runs as root, through
the real command: C that pulls other files into its object at assembly time, a compiler fed
``/dev/zero`` or a 300 MB ``.fill``, a ``json.py`` or ``json/`` package beside the grader, escape
sequences and formulas in file names and compile errors, a ``kill -9`` in the middle of a run. What
is checked is what the teacher gets: the gradebook, the reports, the machine's temporary folder.
The seeds' solutions in four languages are built the same way and stay accepted.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from sudokulab.execution import isolation
from tests.conftest import EXAMPLES, FIXTURES, ROOT

from .test_gradebook import CAP, book, grade, rows

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(isolation.bwrap_problem() is not None,
                                 reason=f"bubblewrap cannot run here: {isolation.bwrap_problem()}")]

GCC = shutil.which("gcc")
needs_gcc = pytest.mark.skipif(GCC is None, reason="no gcc here")
ANSWER = (EXAMPLES / "boj2580-sample.out").read_text()
LANGUAGES = FIXTURES / "languages"


def every_text(out: Path) -> str:
    """Everything ``grade`` wrote in its output folder, as text."""
    return "".join(path.read_text("utf-8", "replace") for path in sorted(out.rglob("*")) if path.is_file())


def c_stealing(path: str) -> str:
    """A C program that pulls ``path`` into itself at assembly time and prints it on its error output."""
    return (f'#include <stdio.h>\n__asm__(".section .rodata\\n.global stolen\\nstolen:\\n.incbin \\"{path}\\"\\n'
            '.byte 0\\n.previous");\nextern const char stolen[];\n'
            'int main(void) { fputs(stolen, stderr); fputs(stolen, stdout); return 1; }\n')


@needs_gcc
def test_a_c_file_that_incbins_files_outside_its_folder_gets_a_compile_error(tmp_path):
    marker = f"secret-{uuid.uuid4().hex}"
    secret = tmp_path / "teacher" / "answers.txt"
    secret.parent.mkdir()
    secret.write_text(marker + "\n")
    secret.chmod(0o600)  # the teacher's, root's alone
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "bob.py").write_text(f"# {marker}\nimport sys\nsys.stdin.read()\nsys.stdout.write({ANSWER!r})\n")
    (folder / "shadow.c").write_text(c_stealing("/etc/shadow"))
    (folder / "teacher.c").write_text(c_stealing(str(secret)))
    (folder / "neighbour.c").write_text(c_stealing(str(folder / "bob.py")))
    (folder / "relative.c").write_text(c_stealing("../bob.py"))
    out = tmp_path / "out"
    got = rows(book(grade(folder, "--task", "judge", "--time-limit", "10", "--out", out, "--json")))
    for name in ("shadow", "teacher", "neighbour", "relative"):
        assert got[name]["status"] == "not graded" and got[name]["first_failure"].startswith("compile error:"), \
            got[name]
    assert got["bob"]["passed"] == 1
    shadow = Path("/etc/shadow").read_text() if os.access("/etc/shadow", os.R_OK) else ""
    written = every_text(out).replace(f"# {marker}", "")  # bob's own result may quote nothing of his file
    assert marker not in written and not (shadow and shadow.splitlines()[0] in written)


@needs_gcc
def test_dev_zero_and_a_huge_fill_stop_at_the_compile_limits(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "zero.c").write_text('#include "/dev/zero"\nint main(void) { return 0; }\n')
    (folder / "fill.c").write_text('__asm__(".fill 300000000, 1, 0");\nint main(void) { return 0; }\n')
    out = tmp_path / "out"
    started = time.monotonic()
    got = rows(book(grade(folder, "--task", "judge", "--compile-timeout", "120", "--jobs", "2", "--out", out,
                          "--json")))
    for name, limit in (("zero", "memory limit"), ("fill", "limit")):
        failure = got[name]["first_failure"]
        assert got[name]["status"] == "not graded" and failure.startswith("compile error: ") and limit in failure, \
            failure
    assert "files passed their limit of 64 MB" in got["fill"]["first_failure"]
    assert time.monotonic() - started < 100  # the limits stopped them, not the 120 s compile timeout


FORGED = """import os, sys, time
if __name__ == {name!r}:  # imported as the standard library's {name}: the grader's own import
    if os.fork() == 0:  # left behind, it rewrites another student's row once the run is over
        os.setsid()
        time.sleep(3)
        book = {book!r}
        if os.path.exists(book):
            with open(book) as stream:
                text = stream.read()
            with open(book, "w") as stream:
                stream.write(text.replace("bob,graded,5,5", "bob,graded,0,5"))
        os._exit(0)
    print('{{"student": "x", "kind": "sat", "ok": true, "exit": 0, "checks": [{{"check": "empty-4x4", '
          '"status": "passed", "reason": ""}}], "library_solvers": []}}', flush=True)
    os._exit(0)
"""


@pytest.mark.parametrize("shape", ["json.py", "json/"])
def test_a_submission_named_json_is_graded_as_itself_and_changes_nobody_elses_row(tmp_path, shape):
    from sudokulab.grading.templates import text

    folder = tmp_path / "class"
    folder.mkdir()
    out = tmp_path / "out"
    template = text("sat")
    forged = FORGED.format(name="json", book=str(out / "gradebook.csv"))
    if shape == "json.py":
        (folder / "json.py").write_text(forged + template)
    else:
        (folder / "json").mkdir()
        (folder / "json" / "__init__.py").write_text(forged)
        (folder / "json" / "main.py").write_text(template)
    (folder / "random.py").write_text(FORGED.format(name="random", book=str(out / "gradebook.csv")) + template)
    (folder / "bob.py").write_text(template)
    document = book(grade(folder, "--task", "encoding", "--jobs", "2", "--out", out, "--json"))
    got = rows(document)
    for name in ("json", "random", "bob"):
        assert (got[name]["status"], got[name]["passed"], got[name]["total"]) == ("graded", 5, 5), got[name]
    before = (out / "gradebook.csv").read_text()
    time.sleep(5)  # longer than a process left behind would wait
    assert (out / "gradebook.csv").read_text() == before and "bob,graded,5,5" in before


@needs_gcc
def test_escapes_and_formulas_from_names_and_compile_errors_reach_the_gradebook_inert(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    right = f"import sys\nsys.stdin.read()\nsys.stdout.write({ANSWER!r})\n"
    (folder / "\n=2+5.py").write_text(right)
    (folder / "@SUM(A1).py").write_text(right)
    (folder / "\x1b]0;owned\x07title.py").write_text(right)
    (folder / "loud.c").write_bytes(b'#error "\x1b[2J\x1b]0;owned\x07 =HYPERLINK()"\nint main(void) { return 0; }\n')
    out = tmp_path / "out"
    document = book(grade(folder, "--task", "judge", "--time-limit", "10", "--out", out, "--json"))
    names = {row["student"] for row in document["students"]}
    assert names == {"\n=2+5", "@SUM(A1)", "\x1b]0;owned\x07title", "loud"}  # exact in JSON
    loud = rows(document)["loud"]["first_failure"]
    assert loud.startswith("compile error: ") and "\\x1b[2J\\x1b]0;owned\\x07" in loud and "\x1b" not in loud
    import csv

    with open(out / "gradebook.csv", newline="") as stream:
        cells = [cell for row in csv.reader(stream) for cell in row]
    written = (out / "gradebook.csv").read_text() + "".join(p.read_text() for p in (out / "reports").iterdir())
    assert not any(char in written for char in "\x1b\x07\r")
    assert not [cell for cell in cells if cell[:1] in ("=", "+", "-", "@")]
    assert "\\n=2+5" in cells and "'@SUM(A1)" in cells and "\\x1b]0;owned\\x07title" in cells
    report = (out / "reports" / "\n=2+5.txt").read_text()
    assert report.startswith("student: \\n=2+5 (submission: \\n=2+5.py)\n")


def test_a_grade_killed_with_sigkill_leaves_no_students_code_once_run_again(tmp_path):
    marker = f"student-code-{uuid.uuid4().hex}"
    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("ana", "ben", "cleo"):
        (folder / f"{name}.py").write_text(f"# {marker}\nimport sys, time\nsys.stdin.read()\ntime.sleep(60)\n")
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    out = tmp_path / "out"
    env = {**os.environ, "TMPDIR": str(temporary),
           "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    command = [sys.executable, "-m", "sudokulab", "grade", str(folder), "--task", "judge", "--quiet", "--out", str(out)]
    running = subprocess.Popen([*command, "--time-limit", "60", "--jobs", "2"], env=env, stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + CAP
        while not holding(marker, temporary, out) and running.poll() is None:  # a student's code is being judged
            assert time.monotonic() < deadline
            time.sleep(0.1)
        time.sleep(1)
    finally:
        running.kill()
        running.wait()
    again = subprocess.run([*command, "--time-limit", "1"], env=env, stdin=subprocess.DEVNULL, capture_output=True,
                           text=True, timeout=CAP)
    assert again.returncode == 0, again.stderr
    deadline = time.monotonic() + 30  # what the killed run started is ended by the kernel, not at once
    while (holding(marker, temporary, out) or programs_running(marker)) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert holding(marker, temporary, out) == [] and programs_running(marker) == []


def holding(marker: str, *folders: Path) -> list[str]:
    """Files under ``folders`` that hold a student's code (its marker), results and reports aside."""
    found = []
    for folder in folders:
        for path in folder.rglob("*"):
            try:
                if path.is_file() and not path.is_symlink() and path.parent.name not in ("results", "reports") \
                        and marker.encode() in path.read_bytes():
                    found.append(str(path))
            except OSError:
                continue
    return found


def programs_running(marker: str) -> list[int]:
    """Processes whose command line names a student's file holding the marker (a judged program still running)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                words = (entry / "cmdline").read_bytes().split(b"\0")
                if any(word.endswith((b"ana.py", b"ben.py", b"cleo.py")) and marker.encode() in Path(
                        word.decode()).read_bytes() for word in words if word.startswith(b"/")):
                    found.append(int(entry.name))
            except (OSError, UnicodeDecodeError):
                continue
    return found


def test_the_seeds_solutions_are_built_in_the_sandbox_and_accepted(tmp_path):
    """Java, JavaScript, Python and C as students write them (``tests/fixtures/languages``), the C and
    Java built by ``grade`` in the sandbox, judged at the default memory limit (256 MB)."""
    needed = {"main.c": "gcc", "Main.java": "javac", "main.js": "node", "main.py": "python3"}
    folder = tmp_path / "class"
    folder.mkdir()
    for name, tool in needed.items():
        if shutil.which(tool) is None:
            continue
        shutil.copy(LANGUAGES / name, folder / f"{Path(name).stem.lower()}-{tool}{Path(name).suffix}")
    if len(list(folder.iterdir())) < 2:
        pytest.skip("fewer than two of gcc, javac, node here")
    # time to spare for a JVM's start on a busy machine: what is at stake is the build, not the speed
    got = rows(book(grade(folder, "--task", "judge", "--time-limit", "10", "--jobs", "2", "--json")))
    assert {name: (row["passed"], row["total"], row["first_failure"]) for name, row in got.items()} == \
        {name: (1, 1, "") for name in got}
    if "main-javac" in got:
        assert got["main-javac"]["program"] == "java -Xmx128m -cp build Main"
