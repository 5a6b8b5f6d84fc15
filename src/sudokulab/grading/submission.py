"""What to run of a submission: its program found, and built where its language needs it.

A judge submission is a file or a folder in any of the languages ``judge`` runs; a solver or
encoding submission is Python. Finding the one file to run, and compiling it with its own time
limit where it is graded (the binary must run where it was built), is the same question for every
student, answered here; a compile error is the student's failure, in the compiler's first line.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

from ..execution.capped_process import run_capped

if TYPE_CHECKING:
    from .grader import GradeOptions

INTERPRETED = {".py": "python3", ".js": "node"}
COMPILED = {".c": "gcc", ".cpp": "g++", ".cc": "g++", ".cxx": "g++", ".java": "javac"}
SOURCES = (*INTERPRETED, *COMPILED)


def program_of(submission: Path, build: Path, options: GradeOptions) -> tuple[list[str] | None, str]:
    """The command that runs a judge submission, compiled into ``build`` first where its language needs
    it; or None and why not (no program found, a compile error)."""
    source, why = _program_file(submission)
    if source is None:
        return None, why
    suffix = source.suffix.lower()
    if suffix in INTERPRETED:  # a folder is named too, so the sandbox shows the program its other files
        return [INTERPRETED[suffix], str(source), *([str(submission)] if submission.is_dir() else [])], ""
    if suffix not in COMPILED:
        return [str(source)], ""  # an executable of its own
    build.mkdir()
    if suffix == ".java":  # BOJ's convention: the class is Main, whatever the file is called
        if source.name != "Main.java":
            main = build / "src" / "Main.java"
            main.parent.mkdir()
            shutil.copyfile(source, main)
            source = main
        argv = ["javac", "-encoding", "UTF-8", "-d", str(build), "-sourcepath", str(source.parent), str(source)]
        heap = [f"-Xmx{max(32, options.memory_limit // 2)}m"] if options.memory_limit else []
        run = ["java", *heap, "-cp", str(build), "Main"]
    else:
        argv = [COMPILED[suffix], "-O2", "-o", str(build / "main"), str(source)] + (["-lm"] if suffix == ".c" else [])
        run = [str(build / "main")]
    if shutil.which(argv[0]) is None:
        return None, f"{argv[0]} is not installed where this student was graded"
    ended = run_capped(argv, build, options.compile_timeout)
    if ended.returncode != 0:
        if ended.timed_out:
            return None, f"compile error: {argv[0]} was still running after {options.compile_timeout:g} s"
        lines = ended.stderr.decode("utf-8", "replace").splitlines()
        first = next((line for line in lines if "error" in line.lower()), lines[0] if lines else ended.how(0))
        return None, f"compile error: {first.replace(str(source.parent) + os.sep, '')[:200]}"
    return run, ""


def _program_file(submission: Path) -> tuple[Path | None, str]:
    """The file to run or build: the submission itself, or in a folder its one source file, else
    Main.java or main.* (an executable ``main`` included)."""
    if submission.is_file():
        if submission.suffix.lower() in SOURCES or os.access(submission, os.X_OK):
            return submission, ""
        return None, (f"no program: '{submission.name}' is no source file ({', '.join(SOURCES)}) "
                      "and not executable")
    found = sorted(p for p in submission.iterdir() if p.is_file() and p.suffix.lower() in SOURCES)
    if len(found) == 1:
        return found[0], ""
    for name in ("Main.java", *(f"main{suffix}" for suffix in SOURCES), "main"):
        if (submission / name).is_file():
            return submission / name, ""
    return None, ("no program: no source file in the folder" if not found else
                  f"no program: {len(found)} source files in the folder and no Main.java or main.* among them")


def python_file(submission: Path) -> tuple[Path | None, str]:
    """The Python file of a solver or encoding submission: the file, or a folder's one .py (else main.py)."""
    if submission.is_file():
        if submission.suffix == ".py":
            return submission, ""
        return None, f"not a Python file: {submission.name}"
    found = sorted(p for p in submission.iterdir() if p.suffix == ".py" and p.is_file())
    if len(found) == 1:
        return found[0], ""
    if (submission / "main.py").is_file():
        return submission / "main.py", ""
    return None, ("no Python file in the folder" if not found else
                  f"{len(found)} Python files in the folder and no main.py among them")
