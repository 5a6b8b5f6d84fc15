"""Where a judged program runs: inside bubblewrap's namespaces (``bwrap``), or trusted (``none``).

``judge`` runs programs other people wrote, so it isolates them with an existing, trusted sandbox
rather than more process code of its own: bubblewrap (``bwrap``, the sandbox Flatpak uses; Debian
package ``bubblewrap``). Each run gets

- new user, PID, network, IPC, UTS and cgroup namespaces (``--unshare-all``): the program sees
  only its own processes (it cannot see or signal the judge, the launcher or anything else), has
  no network but a loopback of its own that is down, and cannot resolve names;
- a read-only view of only what it needs: the system's programs and libraries (``/usr`` and the
  ``/bin``, ``/lib*``, ``/sbin`` links), the dynamic linker's cache, and the program's own files
  (the command's first word, the files its arguments name, and the installation of an interpreter
  outside ``/usr``, such as a virtual environment or pyenv's Pythons); no ``/home``, no ``/etc``
  beyond that, no ``/sys``;
- a private writable tmpfs of ``Limits.files_mb`` as its working directory and ``/tmp``, gone after
  the run;
- a cleared environment (``PATH``, ``HOME=/tmp``, ``LANG``), a new session (no terminal to inject
  keystrokes into), and ``--die-with-parent``: if the judge dies, so does every sandboxed process;
- a shell as the namespace's first process (``INIT``), the program its child: when the program
  ends, the shell exits with its status and the kernel ends everything left in the namespace, and
  the program's peak memory reaches the launcher's ``wait4`` (with bubblewrap's own init in between
  it did not: the peak read was the init's, not the program's).

The process limit comes from a pids control group where the launcher can make one
(``sandbox``); ``RLIMIT_NPROC`` otherwise, which root is exempt from (tried here: dropping to
``nobody`` before bubblewrap made the limit hold, but then bubblewrap could not bind files in
folders only root may enter, such as pyenv's Pythons under /root or pytest's temporary folders).

What is not isolated: time is shared with the machine (timing side channels; a busy machine makes
runs slower), and so are the CPU caches. Memory is bounded by rlimits (see ``sandbox``), not by a
control group: cgroup v2 delegation is not used yet.
"""

from __future__ import annotations

import functools
import glob
import os
import shutil
import subprocess
from collections.abc import Iterator, Sequence
from pathlib import Path

from ..errors import UsageError

ISOLATIONS = ("bwrap", "none")
"""``bwrap``: every run inside bubblewrap (the default). ``none``: the program is trusted."""

INSTALL_HINT = "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap)"

SANDBOX_PATH = "/usr/local/bin:/usr/bin:/bin"
"""The only environment variable a sandboxed program inherits besides HOME and LANG."""

_SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
"""Read-only system folders (or their links to /usr, as on merged-/usr systems)."""

_SYSTEM_FILES = ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/alternatives", "/etc/java-*", "/etc/localtime")
"""The few entries of /etc that programs need to start (linker cache, Debian's alternatives, each
installed Java's configuration); no passwd, no hosts, no resolv.conf."""

NOBODY = 65534


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
    """Why bubblewrap cannot isolate a run here (missing, or namespaces refused), or None: tried once."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return "bubblewrap (bwrap) is not installed"
    probe = bwrap_arguments(["/bin/true"], files_mb=1)
    try:
        done = subprocess.run(probe, capture_output=True, timeout=30, preexec_fn=_demote if os.geteuid() == 0 else None)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bubblewrap cannot start: {exc}"
    if done.returncode != 0:
        lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
        return f"bubblewrap cannot make a sandbox here ({lines[-1] if lines else f'exit {done.returncode}'})"
    return None


def _demote() -> None:
    os.setgroups([])
    os.setgid(NOBODY)
    os.setuid(NOBODY)


def bwrap_arguments(command: Sequence[str], *, files_mb: int) -> list[str]:
    """The bwrap command line that runs ``command`` in the sandbox described in the module docstring."""
    arguments = ["bwrap", "--unshare-all", "--as-pid-1", "--die-with-parent", "--new-session", "--hostname", "sandbox",
                 "--clearenv", "--setenv", "PATH", SANDBOX_PATH, "--setenv", "HOME", "/tmp",
                 "--setenv", "LANG", "C.UTF-8"]
    for path in _SYSTEM:
        if os.path.islink(path):
            arguments += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            arguments += ["--ro-bind", path, path]
    for path in sorted(found for pattern in _SYSTEM_FILES for found in glob.glob(pattern)):
        arguments += ["--ro-bind", path, path]
    arguments += ["--proc", "/proc", "--dev", "/dev", "--size", str(max(files_mb, 1) << 20), "--tmpfs", "/tmp"]
    for source, target in _outermost(program_mounts(command)):
        arguments += ["--ro-bind", source, target]
    arguments += ["--chdir", "/tmp", "--", *INIT, *command]
    return arguments


INIT = ("/bin/sh", "-c", '"$@"; exit $?', "sandbox")
"""The sandbox's first process (PID 1, ``--as-pid-1``): a shell that runs the program as its child
and exits with its status (128 + N for signal N). Not the program itself, because PID 1 ignores the
signals it has no handler for (a program's own ``kill(getpid(), SIGTERM)`` or ``abort`` would not end
it); not bubblewrap's own init, which keeps the program's peak memory from the launcher's
``wait4``. When it exits, the kernel ends every process left in the namespace."""


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
