"""The benchmark scripts share one harness (``benchmarks/harness.py``) and keep no copy of it.

What every script does alike lives in the harness: finding a set (through ``sudokulab.datasets.catalog``
or ``--data DIR``), the line that says on what a figure was measured, the load average, the clocks and
the results writer. A script that patches ``sys.path``, builds its own ``../shared/data`` path or
prints its own platform and CPU line has drifted from it; this file reads each script with ``ast``
(nothing is imported or run) and names the script and the line that drifted.
"""

from __future__ import annotations

import ast

import pytest

from ..conftest import ROOT

BENCHMARKS = ROOT / "benchmarks"
HARNESS = BENCHMARKS / "harness.py"
SHARED = {"dataset", "whole_set", "load", "machine", "timer", "repeat", "markdown_table", "write_results",
          "command_line"}
"""The harness's functions: a script that defines one of these names has a copy of it."""


def drifts(source: str) -> list[str]:
    """What a script does itself that the harness does for it, one line each (empty: none)."""
    tree = ast.parse(source)
    found = []
    imports_harness = False
    for node in ast.walk(tree):
        where = f"line {getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.ImportFrom) and node.module == "harness" or (
                isinstance(node, ast.Import) and any(alias.name == "harness" for alias in node.names)):
            imports_harness = True
        if isinstance(node, ast.Import) and any(alias.name == "platform" for alias in node.names):
            found.append(f"{where}: imports platform (the machine line is harness.machine())")
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute) and node.value.attr == "path" \
                and isinstance(node.value.value, ast.Name) and node.value.value.id == "sys" \
                and node.attr in ("insert", "append"):
            found.append(f"{where}: patches sys.path (scripts run with the project installed)")
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "os" \
                and node.attr in ("cpu_count", "getloadavg"):
            found.append(f"{where}: reads os.{node.attr} (harness.machine() and harness.load())")
        if isinstance(node, ast.Constant) and node.value in ("shared", "/proc/cpuinfo"):
            found.append(f"{where}: names {node.value!r} (sets come from harness.dataset, the CPU from machine())")
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div) and isinstance(node.right, ast.Constant) \
                and node.right.value == "data":
            found.append(f"{where}: builds a data folder of its own (harness.dataset finds the sets)")
        if isinstance(node, ast.FunctionDef | ast.ClassDef) and node.name in SHARED | {"Timer", "Timed"}:
            found.append(f"{where}: defines {node.name} (the harness has it)")
    if not imports_harness:
        found.append("does not import the harness")
    return found


def scripts() -> list[str]:
    return sorted(path.name for path in BENCHMARKS.glob("*.py") if path != HARNESS)


@pytest.mark.parametrize("name", scripts())
def test_every_benchmark_script_takes_what_it_shares_from_the_harness(name):
    assert drifts((BENCHMARKS / name).read_text("utf-8")) == [], name


def test_the_harness_holds_what_the_scripts_share():
    defined = {node.name for node in ast.parse(HARNESS.read_text("utf-8")).body
               if isinstance(node, ast.FunctionDef)}
    assert SHARED <= defined


def test_a_script_that_keeps_its_own_copies_is_caught():
    script = '''
import os, platform, sys, time
sys.path.insert(0, "src")
DATA = Path(__file__).parents[2] / "shared" / "data"
def load():
    return os.getloadavg()[0]
print(platform.processor(), os.cpu_count())
'''
    found = drifts(script)
    assert found[-1] == "does not import the harness"
    for what in ("imports platform", "patches sys.path", "os.getloadavg", "os.cpu_count", "names 'shared'",
                 "builds a data folder", "defines load"):
        assert any(what in line for line in found), what
    assert drifts("from harness import machine\nprint(machine())\n") == []
