"""What check-encoding and check-solver print of a student's checks: a heading, the checks as a table
(the one table function), the counts, then the one closing line on stderr that every non-zero exit
ends with (docs/grading.md)."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from ..ui.console import as_text, console, prose
from ..ui.tables import Column, print_table


def print_checks(heading: str, rows: Sequence[tuple[str, str, str]], counts: str) -> None:
    """The report of a student's file on stdout: ``heading``, one row per check (status, check,
    reason), then ``counts``. On a terminal the reasons wrap at its width; in a file or a pipe each
    check is one line, however long its reason (a grader greps them)."""
    out = console(wide=True)  # a terminal's own width on a terminal; a check a line elsewhere
    out.print(as_text(heading))
    print_table(out, [Column("status"), Column("check"), Column("reason", wrap=True)], rows)
    out.print(as_text(counts))


def failed_checks_line(target: str, statuses: Sequence[str]) -> None:
    """The one line on stderr that every non-zero exit ends with (the README's contract), after the report."""
    failed = statuses.count("failed")
    if failed:
        sys.stdout.flush()
        prose(f"sudokulab: {target}: {failed} of {len(statuses)} checks failed", stderr=True, indent="  ")
