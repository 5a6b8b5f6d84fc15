"""Where a judged program runs: inside bubblewrap's namespaces (``bwrap``), or trusted (``none``).

``judge`` runs programs other people wrote, so it isolates them with an existing, trusted sandbox
rather than more process code of its own: bubblewrap (``bwrap``, the sandbox Flatpak uses; Debian
package ``bubblewrap``). Each run gets the same least privilege whoever starts the judge, root
included: new namespaces and no capability, a seccomp filter (``syscall_filter``), a read-only view
of only the system and the program's own files, one private writable tmpfs, a ``/dev`` and an
environment of its own, and a small first process (``INIT``) that reports the program's true wait
status and ends everything left when it exits. ``bwrap_problem`` probes at start-up with the
arguments a real run uses. The process limit is a pids control group where the launcher can make
one (``sandbox``), ``RLIMIT_NPROC`` otherwise.

Each confinement, why, and what is not isolated: docs/judge.md ("What is confined, how, and what is not").
"""

from __future__ import annotations

import functools
import glob
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import chain
from pathlib import Path

from ..errors import UsageError
from . import syscall_filter

ISOLATIONS = ("bwrap", "none")
"""``bwrap``: every run inside bubblewrap (the default). ``none``: the program is trusted."""

INSTALL_HINT = ("install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap) "
                f"and {syscall_filter.INSTALL_HINT.removeprefix('install ')}")

SANDBOX_PATH = "/usr/local/bin:/usr/bin:/bin"
"""The only environment variable a sandboxed program inherits besides HOME and LANG."""

_SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
"""Read-only system folders (or their links to /usr, as on merged-/usr systems)."""

_SYSTEM_FILES = ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/alternatives", "/etc/java-*", "/etc/localtime")
"""The few entries of /etc that programs need to start (linker cache, Debian's alternatives, each
installed Java's configuration); no passwd, no hosts, no resolv.conf."""

DEVICES = ("null", "zero", "full", "random", "urandom")
"""The only devices in the sandbox's /dev."""

DEVICE_LINKS = (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"), ("stdout", "/proc/self/fd/1"),
                ("stderr", "/proc/self/fd/2"), ("shm", "/tmp/.shm"))
"""The links in /dev; /dev/shm points into the bounded /tmp."""

NOBODY = 65534
"""The uid and gid inside the sandbox."""


def check(isolation: str) -> None:
    """Refuse an unknown isolation, or ``bwrap`` where it cannot run, with one line saying what to do."""
    if isolation not in ISOLATIONS:
        raise UsageError(f"unknown isolation '{isolation}'; choose one of: {', '.join(ISOLATIONS)}")
    if isolation == "bwrap":
        why = bwrap_problem()
        if why:
            raise UsageError(f"judge: {why}; {INSTALL_HINT}, or give --isolation none to trust the program")


@functools.cache
def bwrap_problem() -> str | None:
    """Why bubblewrap cannot isolate a run here (missing, no seccomp filter, namespaces refused), or
    None: tried once, with the very arguments and descriptors of a real run."""
    if shutil.which("bwrap") is None:
        return "bubblewrap (bwrap) is not installed"
    why = syscall_filter.problem()
    if why:
        return why
    channels = Channels.open()
    try:
        probe = bwrap_arguments(["/bin/true"], files_mb=1, channels=channels)
        done = subprocess.run(probe, capture_output=True, timeout=30, pass_fds=channels.sandbox_fds)
        status = read_status(channels.status_read)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bubblewrap cannot start: {exc}"
    finally:
        channels.close()
    if done.returncode != 0 or status != 0:
        lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
        return f"bubblewrap cannot make a sandbox here ({lines[-1] if lines else f'exit {done.returncode}'})"
    return None


@dataclass(frozen=True)
class Channels:
    """The descriptors of one sandboxed run beside its standard streams, made by the judge (which
    builds the command line, so it must know their numbers) and passed down to bubblewrap."""

    seccomp: int
    """Read end of a pipe holding the compiled filter, for ``--seccomp`` (bubblewrap reads and closes it)."""
    status_read: int
    """Where the launcher reads INIT's report: the program's wait status, in decimal."""
    status_write: int
    """INIT's end; close-on-exec in INIT, so the program never holds it."""
    memory: int
    """A slot (``/dev/null`` here) where the launcher puts its memory group's ``cgroup.procs``, open
    for writing: INIT's child writes "0" to it, so the program and its descendants, not INIT nor
    bubblewrap, are what the group limits and measures."""

    @classmethod
    def open(cls) -> Channels:
        made: list[int] = []
        try:
            made.append(syscall_filter.pipe_holding_filter())
            made.extend(os.pipe())
            made.append(os.open(os.devnull, os.O_WRONLY))
        except (ImportError, RuntimeError, OSError):
            for fd in made:
                os.close(fd)
            raise
        return cls(*made)

    @property
    def sandbox_fds(self) -> tuple[int, int, int]:
        """The ones bubblewrap passes to INIT (the launcher keeps them out of its own hands)."""
        return self.seccomp, self.status_write, self.memory

    def close(self) -> None:
        for fd in (self.seccomp, self.status_read, self.status_write, self.memory):
            try:
                os.close(fd)
            except OSError:
                pass


def read_status(fd: int) -> int | None:
    """The wait status INIT reported on ``fd`` once the sandbox has ended, or None if it reported none."""
    os.set_blocking(fd, False)
    try:
        text = os.read(fd, 64)
    except BlockingIOError:
        return None
    return int(text) if text.isdigit() else None


def bwrap_arguments(command: Sequence[str], *, files_mb: int, channels: Channels,
                    hidden: Sequence[str] = ()) -> list[str]:
    """The bwrap command line that runs ``command`` in the sandbox described in the module docstring,
    with the filter, INIT's report and the memory group's slot on the descriptors of ``channels``;
    each folder of ``hidden`` (inside a bound one) shows empty."""
    arguments = ["bwrap", "--unshare-all", "--unshare-user", "--uid", str(NOBODY), "--gid", str(NOBODY),
                 "--cap-drop", "ALL", "--seccomp", str(channels.seccomp), "--as-pid-1", "--die-with-parent",
                 "--new-session", "--hostname", "sandbox",
                 "--clearenv", "--setenv", "PATH", SANDBOX_PATH, "--setenv", "HOME", "/tmp",
                 "--setenv", "LANG", "C.UTF-8"]
    for path in _SYSTEM:
        if os.path.islink(path):
            arguments += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            arguments += ["--ro-bind", path, path]
    for path in sorted(found for pattern in _SYSTEM_FILES for found in glob.glob(pattern)):
        arguments += ["--ro-bind", path, path]
    arguments += ["--proc", "/proc", "--remount-ro", "/proc", "--tmpfs", "/dev"]
    for device in DEVICES:
        arguments += ["--dev-bind", f"/dev/{device}", f"/dev/{device}"]
    for name, target in DEVICE_LINKS:
        arguments += ["--symlink", target, f"/dev/{name}"]
    arguments += ["--remount-ro", "/dev",
                  "--size", str(max(files_mb, 1) << 20), "--tmpfs", "/tmp", "--dir", "/tmp/.shm"]
    for source, target in _outermost(chain(program_mounts(command), _with_installation(sys.executable))):
        arguments += ["--ro-bind", source, target]
    for path in hidden:
        arguments += ["--size", "4096", "--tmpfs", path, "--remount-ro", path]
    arguments += ["--remount-ro", "/", "--chdir", "/tmp", "--", sys.executable, "-I", "-S", "-c", INIT,
                  str(channels.status_write), str(channels.memory), *command]
    return arguments


INIT = r"""
import ctypes, os, signal, sys
report, memory, command = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
os.set_inheritable(report, False)
os.set_inheritable(memory, False)
if ctypes.CDLL(None).prctl(4, 0, 0, 0, 0) != 0:  # PR_SET_DUMPABLE 0: no /proc/1/fd/N for the program
    os.write(2, b"sandbox: INIT cannot make itself undumpable\n")
    os._exit(125)
signal.signal(signal.SIGINT, signal.SIG_DFL)  # no handler: the kernel drops a signal sent to PID 1 from inside
pid = os.fork()
if not pid:
    for number in (signal.SIGPIPE, signal.SIGXFSZ):  # as a program started by hand has them
        signal.signal(number, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, ())
    try:
        os.write(memory, b"0")  # into the run's memory group, alone (cgroup v1: 0 is the writer)
        os.execvp(command[0], command)
    except OSError as exc:
        os.write(2, ("sandbox: cannot run %r: %s\n" % (command[0], exc.strerror)).encode())
        os._exit(126 if isinstance(exc, PermissionError) else 127)
while True:
    done, status = os.wait()
    if done == pid:
        break
os.write(report, b"%d" % status)
code = os.waitstatus_to_exitcode(status)
os._exit(code if code >= 0 else 128 - code)
"""
"""The sandbox's first process (PID 1, ``--as-pid-1``), run by the judge's own interpreter: it runs
the program as its child (in the run's memory group, which INIT is not in), reaps every orphan,
and writes the program's raw wait status on its
report descriptor, which the program never holds (close-on-exec) and cannot reach through
``/proc/1/fd`` (INIT is not dumpable, and the program has no capability). Not the program itself,
because PID 1 ignores the signals it has no handler for (a program's own ``kill(getpid(),
SIGTERM)`` or ``abort`` would not end it); not a shell, whose exit status 128 + N cannot tell
"exit 139" from "killed by SIGSEGV"; not bubblewrap's own init, which keeps the program's peak
memory from the launcher's ``wait4``. When it exits, the kernel ends every process left in the namespace."""


def _outermost(mounts: Iterator[tuple[str, str]]) -> list[tuple[str, str]]:
    """The mounts without those inside another one's target (a bound folder brings what it holds;
    binding a file inside a read-only folder again would fail), outer ones first."""
    by_target = {target: source for source, target in mounts}
    kept: list[tuple[str, str]] = []
    for target in sorted(by_target):
        if not any(source_in(target, outer) for _, outer in kept):
            kept.append((by_target[target], target))
    return kept


def source_in(path: str, folder: str) -> bool:
    return path.startswith(folder.rstrip("/") + "/")


def program_mounts(command: Sequence[str]) -> Iterator[tuple[str, str]]:
    """(here, in the sandbox) for each path outside the system folders a command needs: its program
    (and, for a script, its interpreter), an interpreter's installation (whether the program is
    named bare, as ``python3``, or by its path, as the judge names it after resolving it), and every
    existing file or folder an argument names. An absolute path is bound at itself; a relative one
    under the sandbox's working directory (/tmp), so the command line stays as it was."""
    for position, argument in enumerate(command):
        if position == 0 and "/" not in argument:
            found = shutil.which(argument)
            if found is None:
                continue
            yield from _with_installation(found)
            interpreter = _shebang(found)
            if interpreter:
                yield from _with_installation(interpreter)
        elif os.path.exists(argument):
            here = os.path.abspath(argument)
            there = here if os.path.isabs(argument) else os.path.normpath(os.path.join("/tmp", argument))
            if _is_system(there):
                continue
            yield here, there
            if position == 0:
                yield from _with_installation(here)
                interpreter = _shebang(here)
                if interpreter:
                    yield from _with_installation(interpreter)


def _with_installation(program: str) -> Iterator[tuple[str, str]]:
    """A program file (absolute), its real file, and the installation folder it cannot run without."""
    program = os.path.abspath(program)
    for path in dict.fromkeys((program, os.path.realpath(program))):
        if _is_system(path):
            continue
        yield path, path
        home = _installation(Path(path))
        if home is not None:
            yield str(home), str(home)


def _installation(program: Path) -> Path | None:
    """The folder an interpreter needs besides its binary: a virtual environment (``pyvenv.cfg``), a
    Python prefix (``lib/pythonX.Y``), or pyenv's root for one of its shims; None for anything else,
    so a compiled program in a home folder brings only itself, never the folder around it."""
    prefix = program.parent.parent
    if program.parent.name == "shims":
        return prefix
    if program.parent.name == "bin" and ((prefix / "pyvenv.cfg").is_file() or any(prefix.glob("lib/python3*"))):
        return prefix
    return None


def _shebang(program: str) -> str | None:
    """The interpreter a script names on its first line (``#!/usr/bin/env bash`` gives bash's path)."""
    try:
        with open(program, "rb") as stream:
            first = stream.readline(256)
    except OSError:
        return None
    if not first.startswith(b"#!"):
        return None
    words = first[2:].decode("utf-8", "replace").split()
    if not words:
        return None
    if os.path.basename(words[0]) == "env" and len(words) > 1:
        return shutil.which(words[1])
    return words[0]


def _is_system(path: str) -> bool:
    return any(path == root or path.startswith(root + "/") for root in _SYSTEM)
