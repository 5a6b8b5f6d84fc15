"""Results files that a stopped run leaves usable and the next run resumes (``rate --output``, ``judge --output``).

A long run's results are worth keeping piece by piece: a ``rate`` of a hard set stopped after many
minutes should not lose them. So, unlike the other output files (``outputs.OutputFile``: whole or nothing),
such a file is JSON Lines written as the run goes: a first line that says what decides its rows
(the command, sudokulab's version, the options that change a row: ``settings``), then one row per
finished item, each written and flushed as soon as it is known. Ctrl-C, SIGTERM, SIGHUP or a
``kill -9`` leave every finished row in place; a line cut short by a kill is dropped on the next
open. The next run with the same ``--output`` and the same settings reads the rows back and does
only the rest; a file made under other settings, or not made by this command, is refused with one
line rather than mixed or overwritten. While a run writes the file it holds a lock on it: a second
run asked to write it meanwhile is refused, as for every output. A device or a pipe
(``/dev/stdout``) is written in place and never read back.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any

from .boj import source_name
from .documents import compact
from .outputs import OutputError

HEADER = "sudokulab"
"""The key of the first line: the command that made the file."""


class ResumableOutput:
    """One results file: ``open()`` returns the rows a run before this one left, ``write`` adds a row."""

    def __init__(self, path: str | os.PathLike, command: str, settings: Mapping[str, Any]):
        self.path = Path(os.fspath(path))
        self.name = source_name(os.fspath(path))
        self.command = command
        self.header = {HEADER: command, **settings}
        if self.path.is_dir():
            raise OutputError(f"cannot write '{self.name}': it is a directory")
        if not self.path.parent.is_dir() or not os.access(self.path.parent, os.W_OK):
            raise OutputError(f"cannot write '{self.name}': no writable directory '{source_name(self.path.parent)}'")
        self._stream: IO[str] | None = None

    def open(self) -> list[dict[str, Any]]:
        """Claim the file and return the rows already in it (none for a new file, a device or a pipe).

        Refused with one line (``OutputError``): another run writing it now; a file this command did
        not write; rows made under other settings (which would be mixed with this run's)."""
        in_place = self.path.exists() and not self.path.is_file()
        try:
            stream = open(self.path, "a" if in_place else "a+", encoding="utf-8", newline="")
        except OSError as exc:
            raise OutputError(f"cannot write '{self.name}': {exc.strerror or exc}") from None
        if in_place:
            self._stream = stream
            self._write(self.header)
            return []
        try:
            fcntl.flock(stream.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            stream.close()
            raise OutputError(f"cannot write '{self.name}': another run is writing it now; wait for it, or "
                              "write elsewhere") from None
        try:
            rows = self._read_back(stream)
        except OutputError:
            stream.close()
            raise
        self._stream = stream
        if not rows and stream.tell() == 0:
            self._write(self.header)
        return rows

    def _read_back(self, stream: IO[str]) -> list[dict[str, Any]]:
        """The rows of the file as a run before this one left them; a last line without its newline (a
        kill in the middle of a write) is cut off, so the next row starts on a line of its own."""
        stream.seek(0)
        text = stream.read()
        if not text:
            return []
        if not text.endswith("\n"):
            kept = text[: text.rfind("\n") + 1]
            stream.seek(0)
            stream.truncate(len(kept.encode("utf-8")))
            stream.seek(0, os.SEEK_END)
            text = kept
        lines = text.splitlines()
        if not lines:
            return []
        header = _json_object(lines[0])
        if header is None or header.get(HEADER) != self.command:
            raise OutputError(f"cannot resume '{self.name}': it is not a results file of sudokulab {self.command} "
                              "(give another --output, or remove it)")
        if header != self.header:
            differs = sorted(key for key in set(header) | set(self.header) if header.get(key) != self.header.get(key))
            said = ", ".join(f"{key} {_said(header.get(key))} there, {_said(self.header.get(key))} now"
                             for key in differs)
            raise OutputError(f"cannot resume '{self.name}': its rows were made under other settings ({said}); "
                              "give another --output, or remove it to start again")
        rows = []
        for number, line in enumerate(lines[1:], 2):
            row = _json_object(line)
            if row is None:
                raise OutputError(f"cannot resume '{self.name}': line {number} is not a JSON row (give another "
                                  "--output, or remove it)")
            rows.append(row)
        return rows

    def write(self, row: Mapping[str, Any]) -> None:
        """One finished row, on disk before the next is computed (flushed, not synced)."""
        self._write(row)

    def _write(self, row: Mapping[str, Any]) -> None:
        if self._stream is None:
            raise RuntimeError("ResumableOutput.write before open()")
        try:
            self._stream.write(compact(row) + "\n")
            self._stream.flush()
        except OSError as exc:
            raise OutputError(f"cannot write '{self.name}': {exc.strerror or exc}") from None

    def close(self) -> None:
        """Let go of the file (its lock goes with it); what was written stays."""
        stream, self._stream = self._stream, None
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()

    def __enter__(self) -> ResumableOutput:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _json_object(line: str) -> dict[str, Any] | None:
    try:
        value = json.loads(line)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _said(value: Any) -> str:
    return "none" if value is None else compact(value)
