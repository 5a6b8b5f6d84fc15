"""What check-encoding and check-solver print of a student's checks: aligned lines, then the one
closing line on stderr that every non-zero exit ends with (docs/grading.md)."""

from __future__ import annotations

import sys
from collections.abc import Sequence


def check_lines(rows: Sequence[tuple[str, str, str]]) -> str:
    """One line per check of a student's file: status, check, reason, in aligned columns."""
    width = max((len(name) for _, name, _ in rows), default=0)
    return "".join(f"  {status:<7}  {name:<{width}}  {reason}\n" for status, name, reason in rows)


def failed_checks_line(target: str, statuses: Sequence[str]) -> None:
    """The one line on stderr that every non-zero exit ends with (the README's contract), after the report."""
    failed = statuses.count("failed")
    if failed:
        sys.stdout.flush()
        sys.stderr.write(f"sudokulab: {target}: {failed} of {len(statuses)} checks failed\n")
