"""The flags a language runtime needs to be judged on the memory it uses, sized from the memory limit.

A JVM sizes its heap from the machine (a quarter of its memory), its code cache and class space at
hundreds of MB, and lets the heap grow before collecting: judged under 256 MB, a program whose live
data is small could pass the limit with garbage, and one that truly needs more gets killed instead
of an ``OutOfMemoryError``. Online judges size them from the limit (BOJ runs ``java -Xmx... -Xss...
-XX:+UseSerialGC``); so does this judge: a heap of three quarters of the limit (the rest is the JVM's
own memory: code, classes, threads), a stack of a quarter, a code cache and a class space of an eighth,
the serial collector (one thread, no per-core structures). Node's V8 sizes its old space from the
machine too: ``--max-old-space-size`` of three quarters of the limit, so a hog ends with V8's "heap
out of memory". CPython frees what it stops using at once, and C and C++ ask for what they use: no
flags. A flag is added only where the user gave none of its kind, and the judge says which it added.

More: docs/judge.md.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass


def _between(low: int, value: int, high: int) -> int:
    return max(low, min(value, high))


_GARBAGE_COLLECTORS = ("-XX:+UseSerialGC", "-XX:+UseParallelGC", "-XX:+UseG1GC", "-XX:+UseZGC",
                       "-XX:+UseShenandoahGC", "-XX:+UseEpsilonGC", "-XX:+UseConcMarkSweepGC")

Flag = tuple[tuple[str, ...], Callable[[int], str]]
"""The options that count as the user's own of this kind (prefixes), and the flag for a limit in MB."""

JVM: tuple[Flag, ...] = (
    (("-Xmx", "-XX:MaxHeapSize="), lambda mb: f"-Xmx{max(mb * 3 // 4, 8)}m"),
    (("-Xss", "-XX:ThreadStackSize="), lambda mb: f"-Xss{_between(1, mb // 4, 256)}m"),
    (("-XX:ReservedCodeCacheSize=",), lambda mb: f"-XX:ReservedCodeCacheSize={_between(8, mb // 8, 240)}m"),
    (("-XX:CompressedClassSpaceSize=",), lambda mb: f"-XX:CompressedClassSpaceSize={_between(8, mb // 8, 1024)}m"),
    (_GARBAGE_COLLECTORS, lambda mb: "-XX:+UseSerialGC"),
)
V8: tuple[Flag, ...] = (
    (("--max-old-space-size=", "--max_old_space_size="), lambda mb: f"--max-old-space-size={max(mb * 3 // 4, 8)}"),
)
RUNTIMES: dict[str, tuple[Flag, ...]] = {"java": JVM, "node": V8, "nodejs": V8}
"""Runtimes that need flags, by the name of their program."""

_TAKES_A_VALUE = frozenset({"-cp", "-classpath", "--class-path", "-p", "--module-path", "--upgrade-module-path",
                            "--add-modules", "--limit-modules", "--add-reads", "--add-exports", "--add-opens",
                            "--patch-module", "-r", "--require", "--import", "--loader", "--experimental-loader"})
_PROGRAM_NEXT = frozenset({"-jar", "-m", "--module", "-e", "--eval"})


@dataclass(frozen=True)
class Sized:
    """A command with the flags its runtime needs under the memory limit; ``added`` empty when none."""

    command: tuple[str, ...]
    runtime: str = ""
    added: tuple[str, ...] = ()
    memory_mb: int = 0

    @property
    def note(self) -> str:
        """The one line the judge prints when it added flags ('' when it did not)."""
        if not self.added:
            return ""
        return (f"{self.runtime} runs with {' '.join(self.added)}, sized from the {self.memory_mb} MB "
                "memory limit (give your own to change them)")


def runtime_of(program: str) -> str:
    """The runtime a program name stands for ('java', 'node'), or '' for one that needs no flags."""
    names = [os.path.basename(program)]
    found = shutil.which(program)
    if found:
        names.append(os.path.basename(os.path.realpath(found)))
    return next((name for name in names if name in RUNTIMES), "")


def runtime_options(arguments: Sequence[str]) -> list[str]:
    """The runtime's own options, without their values: the arguments before its program (a class, a
    ``-jar`` file, a script)."""
    options: list[str] = []
    at = 0
    while at < len(arguments) and arguments[at].startswith("-") and arguments[at] not in _PROGRAM_NEXT:
        options.append(arguments[at])
        at += 2 if arguments[at] in _TAKES_A_VALUE else 1
    return options


def sized_for(command: Sequence[str], memory_mb: int | None) -> Sized:
    """The command with its runtime's flags for the limit inserted after the program's name, each unless
    the user gave one of its kind; unchanged without a limit or for a runtime that needs none."""
    command = tuple(command)
    runtime = runtime_of(command[0]) if command and memory_mb else ""
    if not runtime:
        return Sized(command)
    given = runtime_options(command[1:])
    added = tuple(make(memory_mb) for kinds, make in RUNTIMES[runtime]  # type: ignore[arg-type]
                  if not any(option.startswith(kinds) for option in given))
    return Sized((command[0], *added, *command[1:]), runtime, added, memory_mb or 0)
