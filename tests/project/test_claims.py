"""Counts the documents state are checked against the tree, so they cannot drift.

The README and docs may say how many paradigms or notebooks there are only where this file checks
it; every other count (tests, timings) belongs in dated measurement tables, not in running text.
"""

from __future__ import annotations

import re

import pytest

from sudokulab import solvers

from ..conftest import ROOT

WORDS = {word: number for number, word in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve".split())}
TEXTS = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])


def paradigm_families() -> set[str]:
    """Each registered solver's paradigm without its parenthesis: "SAT (CNF + PySAT)" is SAT."""
    return {solvers.solver_class(name).paradigm.split(" (")[0] for name in solvers.names()}


def numbers_before(pattern: str, text: str) -> list[int]:
    """Every number written as a word right before ``pattern`` ("by five paradigms" -> 5)."""
    return [WORDS[match.group(1).lower()]
            for match in re.finditer(rf"\b({'|'.join(WORDS)})\s+{pattern}", text, flags=re.I)]


def stated(pattern: str) -> list[tuple[str, int]]:
    """Every number word before ``pattern`` in the README and docs, with the file it is in."""
    return [(path.name, number) for path in TEXTS for number in numbers_before(pattern, path.read_text("utf-8"))]


def test_the_registry_has_the_paradigm_families_the_readme_names():
    families = paradigm_families()
    assert {"hand-written search", "SAT", "constraint programming", "exact cover", "integer programming"} <= families


@pytest.mark.parametrize("pattern, count", [
    ("paradigms", lambda: len(paradigm_families())),
    ("notebooks", lambda: len(list((ROOT / "notebooks").glob("*.ipynb")))),
])
def test_every_count_the_documents_state_is_the_count_in_the_tree(pattern, count):
    wrong = [(name, number) for name, number in stated(pattern) if number != count()]
    assert wrong == [], f"stated counts of {pattern} that differ from {count()}"


def test_counts_are_read_from_running_text():
    text = "solved by five paradigms and taught in Six\nnotebooks; the paradigms' speed"
    assert numbers_before("paradigms", text) == [5]
    assert numbers_before("notebooks", text) == [6]
