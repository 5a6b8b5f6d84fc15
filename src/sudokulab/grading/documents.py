"""What a grader prints, read strictly: exactly the documents its ``--json`` prints, or no grade.

A submission can make the grader print anything (it runs in that process); so a document counts
only with exactly the fields of its schema, of the right types, its exit as the process's. Anything
else is the grader's failure, never a score (``grading.grader`` says it in words).

More: docs/grading.md.
"""

from __future__ import annotations

import json
from typing import Any

from ..execution.capped_process import Ended

JUDGE_OUTCOMES = ("accepted", "wrong answer", "time limit exceeded", "memory limit exceeded",
                  "output limit exceeded", "runtime error", "invalid dataset entry")
"""The verdicts of ``judge --json`` rows (``judge.cases.Outcome``), in its order."""

CHECK_STATUSES = ("passed", "failed", "skipped")



SOLVER_KEYS = {"target", "solver", "ok", "exit", "checks", "library_solvers"}
ENCODING_KEYS = {"student", "kind", "ok", "exit", "checks", "library_solvers"}


def check_document(ended: Ended, keys: set[str], shown_from: str = "") -> tuple[dict[str, Any] | None, str]:
    """The one document of a check-* grader, or None and why not: exactly one JSON object with exactly
    the fields of its schema, its exit as the process's; or the error document with exit 2.
    ``shown_from``, the folder the grader was given the file from, is left out of every text."""
    if ended.timed_out or ended.overflow or ended.returncode not in (0, 1, 2):
        return None, ""
    try:
        text = ended.stdout.decode("utf-8").replace(shown_from, "") if shown_from else ended.stdout.decode("utf-8")
        document, end = json.JSONDecoder().raw_decode(text)
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None, ""
    if text[end:].strip() or not isinstance(document, dict):
        return None, ""
    if ended.returncode == 2:
        ok = set(document) == {"error", "exit"} and isinstance(document["error"], str) and document["exit"] == 2
        return (document, "") if ok else (None, "")
    checks = document.get("checks")
    if (set(document) != keys or document["exit"] != ended.returncode or document["ok"] is not (ended.returncode == 0)
            or not isinstance(checks, list) or not checks):
        return None, ""
    imports = document["library_solvers"]
    if not isinstance(imports, list) or not all(isinstance(name, str) for name in imports):
        return None, ""
    for check in checks:
        if (not isinstance(check, dict) or set(check) != {"check", "status", "reason"}
                or not isinstance(check["check"], str) or check["status"] not in CHECK_STATUSES
                or not isinstance(check["reason"], str | None)):
            return None, ""
    return document, ""


_ROW_TYPES: dict[str, Any] = {"index": int, "line": int, "outcome": str, "accepted": bool, "detail": str | None,
                              "seconds": float | int | None, "peak_rss_kb": int | None, "exit_code": int | None,
                              "signal": int | None}


def judge_rows(ended: Ended, entries: int) -> tuple[list[dict[str, Any]] | str | None, str]:
    """judge's JSON Lines rows, one per entry with exactly its fields; the error line of an exit-2
    document as a string; or None when the output is neither."""
    if ended.timed_out or ended.overflow or ended.returncode not in (0, 1, 2):
        return None, ""
    try:
        text = ended.stdout.decode("utf-8")
        if ended.returncode == 2:
            document = json.loads(text)
            ok = isinstance(document, dict) and set(document) == {"error", "exit"} and document["exit"] == 2
            return (str(document["error"]), "") if ok else (None, "")
        rows = [json.loads(line) for line in text.splitlines()]
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None, ""
    if len(rows) != entries:
        return None, ""
    for row in rows:
        if not isinstance(row, dict) or set(row) != set(_ROW_TYPES) or row["outcome"] not in JUDGE_OUTCOMES:
            return None, ""
        if any(not isinstance(row[key], kind) or (isinstance(row[key], bool) and kind is int)
               for key, kind in _ROW_TYPES.items()):
            return None, ""
        if row["outcome"] != "invalid dataset entry" and (row["seconds"] is None or row["peak_rss_kb"] is None):
            return None, ""
    if (ended.returncode == 0) is not all(row["accepted"] for row in rows):
        return None, ""
    return rows, ""
