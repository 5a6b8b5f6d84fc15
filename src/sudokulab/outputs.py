"""Files a command writes: checked before the work starts, written whole or not at all.

A regular file is written to a temporary file beside it and renamed over the target only when the
run succeeds, so a failed or interrupted run leaves no empty or half-written file behind. A target
that exists and is not a regular file (``/dev/stdout``, a named pipe, ``/dev/full``) is written in
place: renaming over a device would replace it. Every write error is one ``OutputError`` line.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import IO

from .boj import source_name
from .errors import SudokuError


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

    def open(self) -> OutputFile:
        try:
            text = {} if self.binary else {"encoding": "utf-8", "newline": ""}
            mode = "wb" if self.binary else "w"
            if self.in_place:
                self._stream = open(self.path, mode, **text)
            else:
                fd, self._temporary = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".part",
                                                       dir=self.path.parent)
                self._stream = os.fdopen(fd, mode, **text)
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
        except OSError as exc:
            self.discard()
            raise OutputError(f"cannot write '{self.name}': {exc.strerror or exc}") from None

    def discard(self) -> None:
        """Drop what was written (the target is left as it was)."""
        if self._stream is not None:
            with contextlib.suppress(OSError):
                self._stream.close()
            self._stream = None
        if self._temporary:
            with contextlib.suppress(OSError):
                os.unlink(self._temporary)
            self._temporary = None

    def __enter__(self) -> OutputFile:
        return self.open() if self._stream is None else self

    def __exit__(self, kind: type | None, *rest: object) -> None:
        if kind is None:
            self.commit()
        else:
            self.discard()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_text(path: str | os.PathLike, text: str, *, what: str = "output") -> None:
    """Write a whole text file atomically (or in place for a device or pipe)."""
    with OutputFile(path, what=what) as out:
        out.write(text)
