"""Files a command writes: checked before the work starts, claimed while written, whole or not at all.

A regular file is written to a temporary file beside it (``.NAME.XXXX.part``) and renamed over the
target only when the run succeeds, so a failed or interrupted run leaves no empty or half-written
file behind. A target that exists and is not a regular file (``/dev/stdout``, a named pipe,
``/dev/full``) is written in place: renaming over a device would replace it. Every write error is
one ``OutputError`` line.

The temporary file is made, and locked (``flock``), when the output is opened (at the start of the
work for the outputs a run streams into: bench's rows, generate's puzzles): it is the run's claim on
the target. A second run asked to write the same target while the first is
running finds the locked part file and is refused with one line, instead of both exiting 0 and one
run's results vanishing under the other's rename. A part file nobody holds a lock on was left by a
run that was killed (SIGKILL, a power cut): the next run writing that target removes it.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import weakref
from pathlib import Path
from typing import IO

from ..errors import SudokuError
from .boj import source_name


class OutputError(SudokuError):
    """An output file cannot be written (bad path, full disk, closed stream)."""


class OutputFile:
    """One output of a run; ``with OutputFile(path) as out: out.write(...)`` commits on success."""

    def __init__(self, path: str | os.PathLike, *, suffixes: tuple[str, ...] = (), what: str = "output",
                 binary: bool = False):
        text = os.fspath(path)
        self.name = source_name(text)
        if not text:
            raise OutputError(f"the {what} file name is empty")
        self.path = Path(text)
        if suffixes and self.path.suffix.lower() not in suffixes:
            raise OutputError(f"cannot write '{self.name}': the {what} file name must end in {' or '.join(suffixes)}")
        if self.path.is_dir():
            raise OutputError(f"cannot write '{self.name}': it is a directory")
        self.in_place = self.path.exists() and not self.path.is_file()
        parent = self.path.parent
        if not self.in_place and not (parent.is_dir() and os.access(parent, os.W_OK)):
            raise OutputError(f"cannot write '{self.name}': no writable directory '{source_name(parent)}'")
        self.binary = binary
        self._stream: IO | None = None
        self._temporary: str | None = None
        self._fd: int | None = None

    def _descriptor(self) -> int:
        """The part file's descriptor, which ``_claim`` made (or raised)."""
        if self._fd is None:
            raise OutputError(f"cannot write '{self.name}': its part file was not made")
        return self._fd

    def _claim(self) -> None:
        """Make and lock the part file; refuse when another run holds one for this target."""
        prefix = f".{self.path.name}."
        try:
            self._remove_stale(prefix)
            import tempfile  # here: a command that writes no file does not pay its import (shutil, random)

            fd, self._temporary = tempfile.mkstemp(prefix=prefix, suffix=".part", dir=self.path.parent)
            self._fd = fd
            _LIVE.add(self)
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            self._remove_stale(prefix)  # two runs that started at once: both see the other and stop
        except OSError as exc:
            self.discard()
            raise OutputError(f"cannot write '{self.name}': {exc.strerror or exc}") from None

    def _remove_stale(self, prefix: str) -> None:
        for part in self.path.parent.glob(f"{glob_escape(prefix)}*.part"):
            if self._temporary and os.path.abspath(part) == os.path.abspath(self._temporary):
                continue
            try:
                fd = os.open(part, os.O_RDONLY | os.O_NOFOLLOW)
            except OSError:
                continue
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                self.discard()
                raise OutputError(f"cannot write '{self.name}': another run is writing it now "
                                  f"({source_name(part)} is in use); wait for it, or write elsewhere") from None
            else:
                with contextlib.suppress(OSError):
                    os.unlink(part)  # left by a run that was killed
            finally:
                os.close(fd)

    def open(self) -> OutputFile:
        try:
            if self.in_place:
                target: int | Path = self.path
            else:
                if self._fd is None:
                    self._claim()
                target, self._fd = self._descriptor(), None
            if self.binary:
                self._stream = open(target, "wb")
            else:
                self._stream = open(target, "w", encoding="utf-8", newline="")
        except OSError as exc:
            raise OutputError(f"cannot write '{self.name}': {exc.strerror or exc}") from None
        return self

    @property
    def temporary_path(self) -> Path:
        """Where the content goes until commit (the target itself when written in place)."""
        return Path(self._temporary) if self._temporary else self.path

    def write(self, text: str | bytes) -> int:
        if self._stream is None:
            raise RuntimeError("OutputFile.write before open()")
        try:
            return self._stream.write(text)
        except OSError as exc:
            raise OutputError(f"cannot write '{self.name}': {exc.strerror or exc}") from None

    def commit(self) -> None:
        """Flush and put the file in place."""
        if self._stream is None:
            return
        stream, self._stream = self._stream, None
        try:
            stream.close()
            if self._temporary:
                os.chmod(self._temporary, 0o666 & ~_umask())
                os.replace(self._temporary, self.path)
                self._temporary = None
            _LIVE.discard(self)
        except OSError as exc:
            self.discard()
            raise OutputError(f"cannot write '{self.name}': {exc.strerror or exc}") from None

    def discard(self) -> None:
        """Drop what was written (the target is left as it was) and the claim on the target."""
        if self._temporary:
            with contextlib.suppress(OSError):
                os.unlink(self._temporary)  # unlinked while still locked: no other run can take it for stale
            self._temporary = None
        if self._stream is not None:
            with contextlib.suppress(OSError):
                self._stream.close()
            self._stream = None
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None
        _LIVE.discard(self)

    def __enter__(self) -> OutputFile:
        return self.open() if self._stream is None else self

    def __exit__(self, kind: type | None, *rest: object) -> None:
        if kind is None:
            self.commit()
        else:
            self.discard()


_LIVE: weakref.WeakSet[OutputFile] = weakref.WeakSet()
"""Outputs claimed and not yet committed or discarded, for ``discard_all``."""


def discard_all() -> None:
    """Drop every output still in progress: the last thing a run ended by a signal does."""
    for output in list(_LIVE):
        output.discard()


def glob_escape(text: str) -> str:
    """A file name as a literal glob pattern ("[" and the wildcards escaped)."""
    return "".join(f"[{c}]" if c in "*?[" else c for c in text)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_text(path: str | os.PathLike, text: str, *, what: str = "output") -> None:
    """Write a whole text file atomically (or in place for a device or pipe)."""
    with OutputFile(path, what=what) as out:
        out.write(text)
