"""Which versions did this run use (Python, sudokulab, each library a paradigm runs on), and on what machine.

A timing or a verdict means little without them (PySAT's engines and OR-Tools change between
releases), so ``sudokulab --version`` prints them and ``solvers --json`` carries them. Read from the
installed distributions' metadata, never by importing the libraries: asking costs milliseconds, not
the seconds OR-Tools or numba take to import.
"""

from __future__ import annotations

import platform
import sys

LIBRARIES = (
    ("python-sat", "the SAT engines"),
    ("ortools", "CP-SAT and the 0-1 program"),
    ("numpy", "batches and the compiled search"),
    ("rich", "tables and progress"),
    ("numba", "backtrack-jit, optional"),
    ("distributed", "Dask clusters, optional"),
    ("pyseccomp", "the judge's syscall filter"),
    ("clingo", "asp, answer set programming, optional"),
    ("z3-solver", "smt, optional"),
    ("minizinc", "minizinc's Python driver, optional (the MiniZinc program's version: solvers --json)"),
    ("cpmpy", "cpmpy, one model on many engines, optional"),
)
"""(distribution, what it is used for) for every library whose version a result depends on."""


def versions() -> dict[str, str | None]:
    """Distribution name -> installed version (None when not installed), Python and sudokulab first."""
    from importlib import metadata

    from .. import __version__

    found: dict[str, str | None] = {
        "sudokulab": __version__,
        "python": f"{platform.python_version()} ({platform.python_implementation()}, {sys.executable})",
    }
    for name, _ in LIBRARIES:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = None
    return found


def versions_text() -> str:
    """``sudokulab --version``: sudokulab's version on the first line, then one line per library."""
    found = versions()
    lines = [f"sudokulab {found['sudokulab']}", f"Python {found['python']}"]
    width = max(len(name) for name, _ in LIBRARIES)
    for name, use in LIBRARIES:
        lines.append(f"{name:<{width}}  {found[name] or 'not installed':<13}  {use}")
    return "\n".join(lines) + "\n"


def machine() -> dict[str, str | int | float | None]:
    """The machine a measurement ran on: its CPU as the system names it, its cores, the operating system,
    the one-minute load average when asked (other work skews timings), and Python's build."""
    import os

    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            cpu = next((line.split(":", 1)[1].strip() for line in info if line.startswith("model name")), cpu)
    except OSError:
        pass
    load = round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None
    return {"cpu": cpu, "cores": os.cpu_count(), "system": platform.platform(), "load": load,
            "python": f"{platform.python_version()} ({platform.python_implementation()})"}
