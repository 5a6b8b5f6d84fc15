"""Someone else's file or folder copied once, safely: no link followed, sizes bounded before reading.

A grader copies what a student handed in, and ``judge`` copies what its command names, before
anything runs; whoever wrote those folders may still be writing them. So the copy is made from
descriptors, never from paths re-read later: each folder is opened with ``O_NOFOLLOW`` and each
entry opened from its folder's descriptor (``openat``) with ``O_NOFOLLOW | O_NONBLOCK``, then
checked on the descriptor itself (``fstat``). A link (swapped in at any moment: the open refuses
it), a FIFO (opened without waiting for a writer, never read), a device or a socket is one clear
reason, and nothing of it is read. A file's size is checked against what is left of the bound
before a byte of it is read (a sparse terabyte costs nothing), the number of entries is bounded
too, and a file is read up to the size it had when it was checked. The result is a tar archive of
regular files and folders only, with the modes kept and times and owners left out, so equal bytes
give an equal archive (a grade's digest rests on it).
"""

from __future__ import annotations

import io
import os
import stat
import tarfile
from dataclasses import dataclass

MAX_ENTRIES = 10_000
"""Files and folders copied at most: a folder of a million empty files is refused, not walked."""

_OPEN = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC | getattr(os, "O_NOCTTY", 0)

_KINDS = ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"))


class CopyRefused(Exception):
    """Why a file or folder is not copied, in one line that names the entry."""


@dataclass(frozen=True)
class Bounds:
    """What a copy may hold: bytes of file content and entries (files and folders)."""

    max_bytes: int
    max_entries: int = MAX_ENTRIES


def kind_of(mode: int) -> str | None:
    """What an entry is when it is neither a regular file nor a folder ("a symbolic link", ...), else None."""
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    return next((words for test, words in _KINDS if test(mode)), "an entry of an unknown kind")


def pack(path: str | os.PathLike[str], arcname: str, bounds: Bounds, shown: str | None = None) -> bytes:
    """``path`` (a file or a folder, itself not a link) as a tar archive whose top entry is ``arcname``.

    The folders above ``path`` are the caller's (a teacher's SUBMISSIONS/, a command's own folder)
    and are followed as given; from ``path`` down nothing is. Raises ``CopyRefused``, naming the
    entry under ``shown`` (default ``arcname``), the name the person knows the top by.
    """
    path = os.fspath(path)
    parent, name = os.path.split(os.path.normpath(path))
    try:
        parent_fd = os.open(parent or ".", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as exc:
        raise CopyRefused(f"cannot open the folder of '{path}': {exc.strerror or exc}") from None
    buffer = io.BytesIO()
    copier = _Copier(bounds, arcname, shown if shown is not None else arcname)
    try:
        with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as archive:
            copier.add(archive, parent_fd, name, arcname)
    finally:
        os.close(parent_fd)
    return buffer.getvalue()


class _Copier:
    def __init__(self, bounds: Bounds, top: str, shown: str):
        self.bounds, self.top, self.shown = bounds, top, shown
        self.bytes = 0
        self.entries = 0

    def add(self, archive: tarfile.TarFile, folder_fd: int, name: str, arcname: str) -> None:
        """One entry of the folder open as ``folder_fd``, checked before it is opened and on its descriptor."""
        shown = self.shown + arcname[len(self.top):]
        self.entries += 1
        if self.entries > self.bounds.max_entries:
            raise CopyRefused(f"more than {self.bounds.max_entries:,} files and folders")
        try:
            seen = os.stat(name, dir_fd=folder_fd, follow_symlinks=False)
        except OSError as exc:
            raise CopyRefused(f"cannot read '{shown}': {exc.strerror or exc}") from None
        what = kind_of(seen.st_mode)
        if what:
            raise CopyRefused(f"'{shown}' is {what}")
        try:
            fd = os.open(name, _OPEN | (os.O_DIRECTORY if stat.S_ISDIR(seen.st_mode) else 0), dir_fd=folder_fd)
        except OSError as exc:  # ELOOP: a link swapped in since; ENOTDIR: a file swapped in for a folder
            raise CopyRefused(f"'{shown}' changed while it was copied, or cannot be read: "
                              f"{exc.strerror or exc}") from None
        try:
            opened = os.fstat(fd)
            what = kind_of(opened.st_mode)
            if what or (opened.st_dev, opened.st_ino) != (seen.st_dev, seen.st_ino):
                raise CopyRefused(f"'{shown}' changed while it was copied" + (f": it is {what} now" if what else ""))
            info = tarfile.TarInfo(arcname)
            info.mode, info.mtime = stat.S_IMODE(opened.st_mode), 0
            if stat.S_ISDIR(opened.st_mode):
                info.type = tarfile.DIRTYPE
                archive.addfile(info)
                for entry in sorted(os.listdir(fd)):
                    self.add(archive, fd, entry, f"{arcname}/{entry}")
                return
            if opened.st_size > self.bounds.max_bytes - self.bytes:
                raise CopyRefused(f"more than {_size(self.bounds.max_bytes)} (at '{shown}', "
                                  f"{_size(opened.st_size)} by its size)")
            data = _read(fd, opened.st_size)
            self.bytes += len(data)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
        finally:
            os.close(fd)


def _read(fd: int, size: int) -> bytes:
    """At most ``size`` bytes of an open regular file, whatever it grows to meanwhile."""
    os.set_blocking(fd, True)
    chunks, left = [], size
    while left > 0:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _size(count: int) -> str:
    return f"{count / (1 << 20):,.0f} MiB" if count >= 1 << 20 else f"{count:,} bytes"
