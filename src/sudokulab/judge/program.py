"""The program a judge runs, fixed before its first run: its files copied, its interpreter resolved.

Why fixed: a judge that reads ``sol.py`` where it lies judges whatever is there at each run, and the
sandbox would look a bare ``python3`` up on its own PATH, not the user's. So before the first run
the program and every file or folder the command names are packed (``pack_program``, with
``execution.safe_copy``'s rules), unpacked once, read-only, into a private folder, and the command
rewritten to point at the copies (``fixed_program``); a Dask worker unpacks the same package into
its own folder (``unpack_program``). A program in a ``bin`` or system folder is an installed tool,
run where it is. The program's name is resolved as the user's shell would, a version manager's
shim to the interpreter it stands for, and the sandbox binds that interpreter's installation
read-only (``isolation.program_mounts``).

What is copied, what is refused and how the interpreter is found: docs/judge.md.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import shutil
import stat
import subprocess
import tarfile
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ..errors import UsageError
from ..execution import safe_copy

MAX_SENT_BYTES = 64 << 20
"""The files a command names may come to this much at most (copied, or sent with each batch)."""


@dataclass(frozen=True)
class Program:
    """A command with the files and folders it names packed: copied here, or sent to workers."""

    command: tuple[str, ...]
    packed: tuple[tuple[int, bytes], ...] = ()
    """(argument position, a tar archive of that file or folder) for each local path the command names,
    stored under its absolute path here, so files named side by side stay side by side (a program that
    imports the module named after it finds it beside itself)."""
    shared: tuple[int, ...] = ()
    """With a shared filesystem: the positions of arguments that are paths here, and must be there too."""

    @property
    def digest(self) -> str:
        hashed = hashlib.sha256(repr(self.command).encode())
        for position, archive in self.packed:
            hashed.update(b"%d:" % position + hashlib.sha256(archive).digest())
        return hashed.hexdigest()[:16]


def _installed(path: Path) -> bool:
    """A program that lives with its installation (an interpreter, a tool, a shim): it runs where it is."""
    return any(p.parent.name in ("bin", "sbin", "shims") for p in (path, path.resolve()))


def _local_paths(command: Sequence[str], *, here: bool) -> Iterator[tuple[int, Path]]:
    """The arguments that name an existing file or folder to copy. The program's own name counts only
    as a path (``./a.out``, ``build/sol``) outside a ``bin`` folder: a bare ``python3`` is resolved,
    an installed tool runs where it is. On a cluster (``here`` False) an absolute program path is
    taken to be installed at that path on each worker."""
    for position, argument in enumerate(command):
        if position == 0 and ("/" not in argument or (argument.startswith("/") and not here)):
            continue
        path = Path(argument)
        if position == 0 and (not path.is_file() or _installed(path)):
            continue
        if path.is_file() or path.is_dir():
            yield position, path


def pack_program(command: Sequence[str], *, shared_fs: bool = False, here: bool = False) -> Program:
    """The command with every local file or folder it names packed, to be unpacked here (``here``) or on
    each worker.

    With ``shared_fs`` nothing is packed: the workers must see the same paths (absolute ones,
    since a worker's current folder is its own), and each worker checks that they do.
    """
    command = tuple(command)
    if shared_fs:  # the workers' paths: each worker checks them (``program_problem``)
        return Program(command, shared=tuple(position for position, _ in _local_paths(command, here=False)))
    _refuse_missing(command)
    packed = []
    total = 0
    doing = "copied before judging" if here else "sent to the workers"
    for position, path in _local_paths(command, here=here):
        try:
            archive = safe_copy.pack(path, _stored_name(path), safe_copy.Bounds(MAX_SENT_BYTES - total), str(path))
        except safe_copy.CopyRefused as why:
            hint = ""
            if str(why).startswith("more than"):
                hint = ("; name the files the program needs, not a large folder" if here else
                        "; put them where every worker sees them and give --shared-fs")
            raise UsageError(f"judge: not {doing}: {why}{hint}") from None
        total += len(archive)
        packed.append((position, archive))
    return Program(command, tuple(packed))


def program_digest(command: Sequence[str]) -> str:
    """What the program is, for a results file a later run resumes (``judge --output``): the command and
    the bytes of every file the command names (a folder's files, walked in order), not their times, so
    a program edited between two runs is judged again and one merely touched is not."""
    hashed = hashlib.sha256(repr(tuple(command)).encode())
    for position, path in _local_paths(command, here=True):
        files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
        for file in files:
            hashed.update(f"{position}:{file.relative_to(path) if file != path else ''}:".encode())
            try:
                hashed.update(hashlib.sha256(file.read_bytes()).digest())
            except OSError:
                hashed.update(b"unreadable")  # copying it says why (``pack_program``)
    return hashed.hexdigest()[:16]


PROGRAM_SUFFIXES = frozenset({".py", ".js", ".mjs", ".cjs", ".java", ".class", ".jar", ".c", ".cc", ".cpp", ".rb",
                              ".pl", ".sh", ".go", ".rs", ".kt", ".lua", ".php", ".ts", ".out", ".exe", ".bin"})
"""Suffixes that make an argument a file the program needs and must be there before it starts (``sol.py``,
``Main.class``); other paths may be files the program is to make."""


def _refuse_missing(command: Sequence[str]) -> None:
    """Refuse, before the first run, an argument that names a file or folder that is not there or cannot be
    read (``python3 my_solution.py`` with no such file would otherwise fail every puzzle in the sandbox)."""
    for argument in command[1:]:
        if argument.startswith("-") or "=" in argument:
            continue
        path = Path(argument)
        if path.suffix.lower() not in PROGRAM_SUFFIXES:  # a file the program may make (--log out.txt): its own
            continue
        if not path.exists():
            raise UsageError(f"judge: '{argument}', named in the command, does not exist here")
        if not os.access(path, os.R_OK):
            raise UsageError(f"judge: '{argument}', named in the command, cannot be read")


def _stored_name(path: Path) -> str:
    """Where a packed path goes under the folder it is unpacked into: its absolute path here, relative."""
    return os.path.abspath(path).lstrip("/") or "root"


def _top(archive: bytes) -> str:
    """The path a packed archive holds (``tarfile.add`` writes the path itself first)."""
    with tarfile.open(fileobj=io.BytesIO(archive)) as packed:
        return packed.getmembers()[0].name


def unpack_into(program: Program, into: Path) -> list[str]:
    """The command to run: the packed paths unpacked under ``into``, read-only, their arguments rewritten
    to point at the copies, and the program's name resolved (``resolve_program``)."""
    command = list(program.command)
    tops = {position: _top(archive) for position, archive in program.packed}
    # outer folders first: a file named beside the folder that holds it (``main.py DIR``) is then
    # already there, and the folder's other files are not skipped for it
    for position, archive in sorted(program.packed, key=lambda packed: tops[packed[0]].count("/")):
        with tarfile.open(fileobj=io.BytesIO(archive)) as packed:
            top = tops[position]
            if not (into / top).exists():  # a path named twice, or inside a folder named too, is unpacked once
                if hasattr(tarfile, "tar_filter"):  # Python 3.12, and 3.8-3.11 security releases
                    packed.extractall(into, filter="tar")
                else:
                    packed.extractall(into)  # noqa: S202 - our own archive, made by pack_program
        command[position] = str(into / top)
    _read_only(into)
    return resolve_program(command)


_UNPACKED: dict[str, list[str]] = {}
"""Per worker process: program digest -> the command with its paths pointing at the unpacked copies."""


def unpack_program(program: Program, folder: str | None = None) -> list[str]:
    """On a worker: the command to run, its packed paths unpacked once per process (into the Dask worker's
    own folder, which Dask removes with it)."""
    command = _UNPACKED.get(program.digest)
    if command is None:
        into = Path(tempfile.mkdtemp(prefix=f"judge-{program.digest}-", dir=folder or _worker_folder()))
        command = _UNPACKED[program.digest] = unpack_into(program, into)
    return command


def _worker_folder() -> str | None:
    """The Dask worker's local folder when running on one, else the system's temporary folder."""
    try:
        from distributed import get_worker

        return get_worker().local_directory
    except (ImportError, ValueError, AttributeError):
        return None


@contextmanager
def fixed_program(command: Sequence[str]) -> Iterator[list[str]]:
    """The command to judge with here: what it names copied read-only into a private folder (removed on
    leaving), its program resolved (see the module docstring)."""
    program = pack_program(command, here=True)
    into = Path(tempfile.mkdtemp(prefix="sudokulab-judge-"))
    try:
        yield unpack_into(program, into)
    finally:
        _remove(into)


def _read_only(top: Path) -> None:
    for path in (top, *top.rglob("*")):
        if not path.is_symlink():
            path.chmod(stat.S_IMODE(path.stat().st_mode) & ~0o222)


def _remove(top: Path) -> None:
    """Remove a folder of read-only copies (a folder needs its write bit back to lose its entries)."""
    for path in (top, *top.rglob("*")):
        if path.is_dir() and not path.is_symlink():
            path.chmod(0o700)
    shutil.rmtree(top, ignore_errors=True)


# --- the program's name ----------------------------------------------------------------------------

_SHIM = re.compile(rb'exec\s+"?([^"\s]+)"?\s+exec\s+"?\$(?:program|\{program\})"?')
"""A version manager's shim (pyenv, rbenv, nodenv): ``exec "/root/.pyenv/libexec/pyenv" exec "$program"``."""


def resolve_program(command: Sequence[str]) -> list[str]:
    """The command with its program named by an absolute path, as the user's shell would find it: a bare
    name on the user's PATH, a relative path from here, a version manager's shim as what it runs.
    Symbolic links are kept (a virtual environment's ``bin/python`` must stay its own). A name not
    found is left as it is, for the launcher to refuse."""
    command = list(command)
    if not command:
        return command
    found = shutil.which(command[0]) if "/" not in command[0] else command[0]
    if found is None or not os.path.isfile(found):
        return command
    command[0] = _through_shim(os.path.abspath(found))
    return command


def _through_shim(program: str) -> str:
    """The interpreter a shim stands for (its manager's ``which``), or the program itself when it is none."""
    if Path(program).parent.name != "shims":
        return program
    try:
        with open(program, "rb") as stream:
            head = stream.read(4096)
    except OSError:
        return program
    match = _SHIM.search(head) if head.startswith(b"#!") else None
    if match is None:
        return program
    manager = match.group(1).decode("utf-8", "replace")
    name = os.path.basename(program)
    env = dict(os.environ)
    root = re.search(rb'export\s+(\w+_ROOT)="([^"]+)"', head)
    if root:
        env.setdefault(root.group(1).decode(), root.group(2).decode("utf-8", "replace"))
    try:
        done = subprocess.run([manager, "which", name], capture_output=True, env=env, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise UsageError(f"judge: '{program}' is a shim; asking '{manager} which {name}' failed: {exc}; "
                         "name the interpreter by its path") from None
    lines = done.stdout.decode("utf-8", "replace").split("\n")
    real = lines[0].strip() if lines else ""
    if done.returncode != 0 or not os.path.isfile(real):
        why = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise UsageError(f"judge: '{program}' is a shim, and '{os.path.basename(manager)} which {name}' found no "
                         f"interpreter ({why[-1] if why else f'exit {done.returncode}'}); name it by its path")
    return real
