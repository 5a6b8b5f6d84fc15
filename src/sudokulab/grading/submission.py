"""What to run of a submission: its program found, and built in the sandbox where its language needs it.

A judge submission is a file or a folder in any of the languages ``judge`` runs; a solver or
encoding submission is Python. Finding the one file to run, and compiling it where it is graded
(the binary must run where it was built), is the same for every student, answered here; a compile
error is the student's failure, in the compiler's first line. The compiler's input is the
student's (``.incbin``, ``#include "/dev/zero"``, a huge ``.fill``), so a compiler runs inside the
same sandbox as the program it builds, under limits of its own (``compile_limits``), builds into
the sandbox's /tmp, and a small script there (``BUILD``) sends the build folder back as a tar
archive, unpacked (regular files and folders only) into the student's work folder. A compiler
stopped by a limit is "compile error: ... limit". Languages and limits: docs/grading.md.
"""

from __future__ import annotations

import io
import os
import shutil
import sys
import tarfile
from pathlib import Path
from typing import TYPE_CHECKING

from ..execution.sandbox import Limits, Run, run_program

if TYPE_CHECKING:
    from .grader import GradeOptions

INTERPRETED = {".py": "python3", ".js": "node"}
COMPILED = {".c": "gcc", ".cpp": "g++", ".cc": "g++", ".cxx": "g++", ".java": "javac"}
SOURCES = (*INTERPRETED, *COMPILED)

COMPILE_MEMORY_MB = 512
"""Memory of a compile's whole process tree (the compiler, its passes, the assembler, the linker, javac's JVM)."""

COMPILE_FILES_MB = 64
"""The compile's files: its temporaries and what it builds, in the sandbox's /tmp."""

BUILT_BYTES = 32 << 20
"""The built program, as the archive it comes back in, at most."""

JAVAC_FLAGS = ("-J-Xmx256m", "-J-XX:+UseSerialGC", "-J-XX:TieredStopAtLevel=1")
"""javac's JVM sized for its limits: a heap under the compile's memory, one GC thread, the quick compiler."""

BUILD_FOLDER = "/tmp/build"
"""Where the compiler writes, inside the sandbox (with ``--isolation none``, a folder of the student's
work folder: nothing of the machine's own /tmp is written)."""

BUILD = r"""
import os, subprocess, sys, tarfile, time
source, build, command = sys.argv[1], sys.argv[2], sys.argv[3:]  # source: named so that the sandbox binds it
os.makedirs(build)
compiler = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=2)
fullest = 0
while compiler.poll() is None:
    now = os.statvfs(os.path.dirname(build))
    fullest = max(fullest, (now.f_blocks - now.f_bfree) / max(now.f_blocks, 1))
    time.sleep(0.01)
if compiler.returncode:
    sys.exit(3 if fullest > 0.9 else 1)
with tarfile.open(fileobj=sys.stdout.buffer, mode="w|") as archive:
    archive.add(build, arcname="build")
"""
"""Runs in the sandbox, by the grader's own interpreter: the compiler as its child, watching how full
the bounded /tmp gets (a compiler removes its half-written output, so the end says nothing), then the
build folder as a tar archive on standard output. Exit 1: the compiler failed; 3: it failed with
/tmp nearly full, the file limit."""

FILES_FULL = 3

FILES_WORDS = ("File size limit exceeded", "No space left on device")
"""How a toolchain says a file of its hit the file limit (RLIMIT_FSIZE's SIGXFSZ, as gcc names it) or
filled the bounded /tmp (ENOSPC), where it was too quick for ``BUILD``'s look at /tmp."""


def compile_limits(options: GradeOptions) -> Limits:
    """A compile's own limits: the compile timeout as wall and CPU time, ``COMPILE_MEMORY_MB`` for the
    whole tree, ``COMPILE_FILES_MB`` of files, ``BUILT_BYTES`` of output; the run's isolation."""
    return Limits(seconds=options.compile_timeout, memory_mb=COMPILE_MEMORY_MB, output_bytes=BUILT_BYTES,
                  isolation=options.isolation, files_mb=COMPILE_FILES_MB, cpu_seconds=options.compile_timeout)


def program_of(submission: Path, work: Path, options: GradeOptions) -> tuple[list[str] | None, str]:
    """The command that runs a judge submission, built into ``work``/build first where its language needs
    it; or None and why not (no program found, a compile error)."""
    source, why = _program_file(submission)
    if source is None:
        return None, why
    suffix = source.suffix.lower()
    if suffix in INTERPRETED:  # a folder is named too, so the sandbox shows the program its other files
        return [INTERPRETED[suffix], str(source), *([str(submission)] if submission.is_dir() else [])], ""
    if suffix not in COMPILED:
        return [str(source)], ""  # an executable of its own
    build = work / "build"
    building = BUILD_FOLDER if options.isolation == "bwrap" else str(work / "building" / "build")
    if suffix == ".java":  # BOJ's convention: the class is Main, whatever the file is called
        if source.name != "Main.java":
            main = work / "java" / "Main.java"
            main.parent.mkdir()
            shutil.copyfile(source, main)
            source = main
        argv = ["javac", *JAVAC_FLAGS, "-encoding", "UTF-8", "-d", building, "-sourcepath", str(source.parent),
                str(source)]
        heap = [f"-Xmx{max(32, options.memory_limit // 2)}m"] if options.memory_limit else []
        run = ["java", *heap, "-cp", str(build), "Main"]
    else:
        argv = [COMPILED[suffix], "-O2", "-o", f"{building}/main", str(source)] + (["-lm"] if suffix == ".c" else [])
        run = [str(build / "main")]
    if shutil.which(argv[0]) is None:
        return None, f"{argv[0]} is not installed where this student was graded"
    limits = compile_limits(options)
    built = run_program([sys.executable, "-I", "-S", "-c", BUILD, str(source.parent), building, *argv], b"", limits)
    problem = _compile_problem(built, argv[0], limits, source.parent)
    if problem:
        return None, problem
    try:
        _unpack_build(built.stdout, work)
    except (tarfile.TarError, OSError, ValueError) as exc:
        return None, f"compile error: the built program could not be unpacked ({exc})"
    return run, ""


def _compile_problem(built: Run, compiler: str, limits: Limits, folder: Path) -> str:
    """Why a compile in the sandbox gave no program, in words ("compile error: ..."), or ''."""
    if built.timed_out:
        return f"compile error: {compiler} was still running at its time limit of {limits.seconds:g} s"
    if built.memory_exceeded:
        return f"compile error: {compiler} passed its memory limit of {limits.memory_mb} MB"
    if built.output_overflow:
        return f"compile error: the built program passed its size limit of {BUILT_BYTES >> 20} MiB"
    text = built.stderr.decode("utf-8", "replace")
    if built.exit_code == FILES_FULL or any(words in text for words in FILES_WORDS):
        return f"compile error: {compiler}'s files passed their limit of {limits.files_mb} MB"
    if "CPU time limit" in text:
        return f"compile error: {compiler} passed its CPU time limit of {limits.cpu_seconds:g} s"
    if built.signal is not None:
        return f"compile error: {compiler} was killed by signal {built.signal}"
    if built.exit_code != 0:
        lines = [line for line in text.splitlines() if line.strip()]
        first = next((line for line in lines if "error" in line.lower()), lines[0] if lines else
                     f"{compiler} ended with exit code {built.exit_code}")
        return f"compile error: {first.replace(str(folder) + os.sep, '')[:200]}"
    return ""


def _unpack_build(archive: bytes, work: Path) -> None:
    """The build folder out of the sandbox's archive, into ``work``: regular files and folders only."""
    with tarfile.open(fileobj=io.BytesIO(archive)) as packed:
        members = packed.getmembers()
        if not members or any(not (m.isfile() or m.isdir()) or not (m.name == "build" or m.name.startswith("build/"))
                              for m in members):
            raise ValueError("it holds more than the build folder's files")
        if hasattr(tarfile, "data_filter"):
            packed.extractall(work, members=members, filter="data")
        else:
            packed.extractall(work, members=members)  # noqa: S202 - checked above: files and folders under build/


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
