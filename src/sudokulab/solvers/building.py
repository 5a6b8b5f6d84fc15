"""What a solver builds once per rule set and keeps, built under the deadline of the call that needs it.

A large board's tables (an exact-cover matrix of n³ rows, a CNF formula of millions of clauses) take
seconds to build in Python, and a time limit covers the whole call, building included: the build
looks at the clock now and then (``Deadline.check``, which raises ``TimeUp``), and a build cut short
is not kept, so the next call starts it again rather than reading half a table.

More: docs/solvers.md.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

T = TypeVar("T")


def available_memory() -> int | None:
    """The memory a new build may take, in bytes (Linux's ``MemAvailable``), or None where unknown; a
    solver that estimates its build's peak refuses one that would not fit, before any work."""
    try:
        with open("/proc/meminfo", encoding="ascii") as info:
            for line in info:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


class Kept(Generic[T]):
    """Builds kept by key (a rule set), at most ``size``, the oldest dropped first; thread-safe.

    Two threads that ask for the same missing key at once may both build it; the first to finish is kept.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: dict[Hashable, T] = {}
        self._lock = threading.Lock()

    def get(self, key: Hashable, build: Callable[[], T]) -> T:
        """The kept build of ``key``, or ``build()`` kept when it returns (an exception keeps nothing)."""
        with self._lock:
            found = self._kept.get(key)
        if found is not None:
            return found
        made = build()
        with self._lock:
            found = self._kept.setdefault(key, made)
            while len(self._kept) > self.size:
                del self._kept[next(iter(self._kept))]
        return found

    def __contains__(self, key: Hashable) -> bool:
        with self._lock:
            return key in self._kept

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
