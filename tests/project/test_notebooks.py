"""Every notebook runs clean and prints what its committed outputs say, so stale outputs fail CI.

Each notebook in ``notebooks/`` and ``notebooks/solutions/`` (found by glob: a new lesson is tested
at once) is executed fresh, from its own directory, and the text of each code cell's outputs
(printed text, the ``text/plain`` of results and displays, error output) is compared with the
committed text, cell by cell. Pictures are not compared (their bytes change with the matplotlib
build), only that they are there.

The convention for outputs that depend on the clock (docs/configurations.md, "Notebook outputs"):
a cell tagged ``timing`` may print other text than its committed output (a rate, a time); it still
has to run without error and print something. Computed sentences and counts go in untagged
cells; a ranking by time ("fastest", "slower", "no clear winner") is clock-dependent however
stable it looks, and a test checks that such cells carry the tag. Object addresses
(``at 0x7f...``) are blanked before the comparison.

Marked ``slow``: the notebooks take about a minute in all, and the floors run of ``.ci/run``
leaves them out as it leaves out the benchmark-set tests.
"""

from __future__ import annotations

import copy
import difflib
import re
from pathlib import Path

import pytest

from ..conftest import ROOT

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted((ROOT / "notebooks" / "solutions").glob("*.ipynb"))
TIMING = "timing"
"""The cell tag of outputs that depend on the clock: run, not compared."""
CELL_TIMEOUT = 600
"""Seconds a cell may run before the test fails (a hang, not a slow machine)."""
ADDRESS = re.compile(r" at 0x[0-9a-f]+")
CLOCK_VERDICT = re.compile(r"\b(fastest|faster|slower|no clear winner)\b")
"""Words of a ranking by time: a cell that prints them depends on the clock, however stable it looks."""


def output_text(cell: dict) -> list[str]:
    """The text a code cell shows: its streams, results, displays and errors, in order (pictures as a mark)."""
    shown = []
    for output in cell.get("outputs", ()):
        kind = output["output_type"]
        if kind == "stream" and _text(output["text"]):
            shown.append(f"[{output['name']}]\n{_text(output['text'])}")
        elif kind in ("execute_result", "display_data"):
            data = output.get("data", {})
            pictures = sorted(key for key in data if key.startswith("image/"))
            text = _text(data.get("text/plain", ""))
            shown.append(f"[{kind}]" + "".join(f" <{p}>" for p in pictures) + f"\n{ADDRESS.sub(' at 0x…', text)}")
        elif kind == "error":
            shown.append(f"[error] {output['ename']}: {output['evalue']}")
    return shown


def _text(value: str | list[str]) -> str:
    return value if isinstance(value, str) else "".join(value)


def _merged(parts: list[str]) -> str:
    """Consecutive stream outputs joined: how a kernel splits printed text into messages is not the lesson's."""
    merged: list[str] = []
    for part in parts:
        if merged and part.startswith("[stdout]\n") and merged[-1].startswith("[stdout]\n"):
            merged[-1] += part.removeprefix("[stdout]\n")
        else:
            merged.append(part)
    return "\n".join(merged)


def _tags(cell: dict) -> set[str]:
    return set(cell.get("metadata", {}).get("tags", ()))


def run_notebook(path: Path) -> dict:
    """The notebook executed fresh from its own directory (its relative paths, as in JupyterLab)."""
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    executed = copy.deepcopy(notebook)
    NotebookClient(executed, timeout=CELL_TIMEOUT, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    return executed


def stale_cells(committed: dict, fresh: dict) -> list[str]:
    """Each code cell whose fresh text differs from the committed text, as a diff (timing cells: only if silent)."""
    problems = []
    code = [(c, f) for c, f in zip(committed["cells"], fresh["cells"]) if c["cell_type"] == "code"]
    for number, (old, new) in enumerate(code, start=1):
        before, after = _merged(output_text(old)), _merged(output_text(new))
        if TIMING in _tags(old):
            if before and not after:
                problems.append(f"code cell {number} (timing) printed nothing")
            continue
        if before != after:
            diff = "\n".join(difflib.unified_diff(before.splitlines(), after.splitlines(), "committed", "fresh",
                                                  lineterm="", n=1))
            first = _text(old["source"]).splitlines()[:1]
            problems.append(f"code cell {number} ({first[0] if first else 'empty'}):\n{diff}")
    return problems


NEEDS = "sudokulab_needs"
"""Notebook metadata: the solvers whose outputs a notebook shows (notebook 08 shows every paradigm)."""


def skip_without_its_solvers(notebook: dict) -> None:
    """A notebook that shows solvers this machine lacks (the MiniZinc program, an extra) would print
    other text than its committed outputs: skip it, naming what to install (CI has them all)."""
    from sudokulab import solvers

    for name in notebook.get("metadata", {}).get(NEEDS, ()):
        why = solvers.unavailable(name)
        if why:
            pytest.skip(f"needs the solver '{name}': {why}")


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT / "notebooks")))
def test_notebook_runs_and_prints_its_committed_outputs(path):
    import nbformat

    committed = nbformat.read(path, as_version=4)
    skip_without_its_solvers(committed)
    fresh = run_notebook(path)
    problems = stale_cells(committed, fresh)
    assert not problems, (f"{path.name}: committed outputs are stale (re-run the notebook and commit it; "
                          f"clock-dependent cells carry the tag '{TIMING}'):\n\n" + "\n\n".join(problems))


def test_the_comparison_sees_a_changed_count_and_ignores_a_timing_cell():
    """The comparison itself: a changed printed count is stale; a changed time in a timing cell is not."""
    def notebook(cells):
        return {"cells": [{"cell_type": "code", "metadata": {"tags": tags}, "source": source,
                           "outputs": [{"output_type": "stream", "name": "stdout", "text": text}]}
                          for source, tags, text in cells]}

    committed = notebook([("print(count)", [], "288 grids\n"), ("print(rate)", [TIMING], "1,203 puzzles/s\n")])
    same = notebook([("print(count)", [], "288 grids\n"), ("print(rate)", [TIMING], "998 puzzles/s\n")])
    changed = notebook([("print(count)", [], "576 grids\n"), ("print(rate)", [TIMING], "1,203 puzzles/s\n")])
    silent = notebook([("print(count)", [], "288 grids\n"), ("print(rate)", [TIMING], "")])
    assert stale_cells(committed, same) == []
    assert len(stale_cells(committed, changed)) == 1 and "+576 grids" in stale_cells(committed, changed)[0]
    assert stale_cells(committed, silent) == ["code cell 2 (timing) printed nothing"]
    assert NOTEBOOKS and all(path.suffix == ".ipynb" for path in NOTEBOOKS)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT / "notebooks")))
def test_a_cell_that_ranks_by_time_carries_the_timing_tag(path):
    """A ranking by time flips on a busy machine (CI once saw "then backtrack-fast" become "no clear winner")."""
    import nbformat

    untagged = [number for number, cell in enumerate((c for c in nbformat.read(path, as_version=4).cells
                                                      if c.cell_type == "code"), start=1)
                if TIMING not in _tags(cell) and CLOCK_VERDICT.search("\n".join(output_text(cell)))]
    assert untagged == [], f"{path.name}: code cells {untagged} rank by time; tag them '{TIMING}'"
