"""What every benchmark script shares: where the sets are, the line that says on what a figure was
measured, the clocks, the samples' summary, and the results writer.

A script imports it as ``from harness import ...`` (the scripts run as ``python benchmarks/NAME.py``,
so their folder is on the path) and keeps only what it measures and the tables it writes. Sets are
found by ``sudokulab.datasets.catalog`` exactly as the commands find them (a fetched set, then
``../shared/data`` beside the checkout, then the slice shipped with the package), or in ``--data``
when a script takes it. Figures go to ``results/`` (``write_results``), never into docstrings.
"""

from __future__ import annotations

import os
import platform
import shlex
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
ROOT = HERE.parent
OUT = HERE / "out"
"""Per-puzzle files too large to commit (``.gitignore``d)."""


def dataset(name: str, first: int | None = None, data: Path | None = None) -> Path | None:
    """The file of a published set: ``data/NAME.txt`` when ``data`` is given, else the catalogue's choice
    (the whole set where this machine has it, else the shipped slice when it holds ``first`` puzzles); None,
    with a note on stderr, when neither is here (a script skips that set)."""
    if data is not None:
        path = data / f"{name}.txt"
        if path.is_file():
            return path
        print(f"{Path(sys.argv[0]).name}: no {name} in {data}: skipped", file=sys.stderr)
        return None
    from sudokulab.datasets import catalog
    from sudokulab.errors import SudokuError

    try:
        return catalog.find(name, first)
    except SudokuError as exc:
        print(f"{Path(sys.argv[0]).name}: {exc}: skipped", file=sys.stderr)
        return None


def whole_set(name: str, data: Path | None = None) -> Path | None:
    """The whole published set, never a slice: ``data/NAME.txt`` when ``data`` is given, else where this
    machine has it; None when it is not there (the caller says what it does without it)."""
    if data is not None:
        path = data / f"{name}.txt"
        return path if path.is_file() else None
    from sudokulab.datasets import catalog

    return catalog.published(name)


def load() -> float:
    """The one-minute load average now (NaN where the system has none): other work skews timings."""
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")


def machine() -> str:
    """One line saying on what the figures were measured: date, Python, CPU, cores, load at the start."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            cpu = next((line.split(":", 1)[1].strip() for line in info if line.startswith("model name")), cpu)
    except OSError:
        pass
    return (f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, Python {platform.python_version()} "
            f"({platform.python_implementation()}), {cpu}, {os.cpu_count()} cores, "
            f"load average {load():.2f} at the start")


@dataclass(frozen=True)
class Timed:
    """One measured call: wall and CPU seconds of this process (children not counted)."""

    wall: float
    cpu: float


@contextmanager
def timer() -> Iterator[list[Timed]]:
    """``with timer() as took: ...`` then ``took[0]``: the block's wall and CPU seconds."""
    took: list[Timed] = []
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        yield took
    finally:
        took.append(Timed(time.perf_counter() - wall, time.process_time() - cpu))


def repeat(call: Callable[[], object], runs: int, warmup: int = 0) -> list[Timed]:
    """``call`` run ``warmup`` times unmeasured, then ``runs`` times, each measured."""
    for _ in range(warmup):
        call()
    measured = []
    for _ in range(runs):
        with timer() as took:
            call()
        measured.append(took[0])
    return measured


@dataclass(frozen=True)
class Spread:
    """A sample's summary: median, quartiles, mean, standard deviation, extremes."""

    n: int
    median: float
    q1: float
    q3: float
    mean: float
    stdev: float
    low: float
    high: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Spread:
        ordered = sorted(values)
        if not ordered:
            raise ValueError("no values to summarise")
        quartiles = statistics.quantiles(ordered, n=4) if len(ordered) > 1 else [ordered[0]] * 3
        return cls(len(ordered), statistics.median(ordered), quartiles[0], quartiles[2], statistics.fmean(ordered),
                   statistics.stdev(ordered) if len(ordered) > 1 else 0.0, ordered[0], ordered[-1])

    def text(self, unit: str = "s", digits: int = 3) -> str:
        return (f"{self.median:.{digits}f} {unit} (IQR {self.q1:.{digits}f}-{self.q3:.{digits}f}, "
                f"mean {self.mean:.{digits}f} ± {self.stdev:.{digits}f}, n={self.n})")


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A Markdown table; the first column left-aligned, the others right-aligned."""
    lines = ["| " + " | ".join(header) + " |",
             "| " + " | ".join(["---"] + ["---:"] * (len(header) - 1)) + " |"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def write_results(name: str, title: str, body: str, *, how: str, measured_on: str,
                  folder: Path | None = None) -> Path:
    """``results/NAME`` (or ``folder/NAME``: a scratch run's ``--out-dir``): the title, how it was made
    (``how``: the command, ``command_line()``), on what (``measured_on``: ``machine()`` taken when the run
    started), then the body; written whole (a temporary file renamed over it), so an interrupted run
    leaves the last results in place."""
    folder = RESULTS if folder is None else folder
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / name
    part = target.with_name(f".{target.name}.part")
    text = f"# {title}\n\n{how}\n\nMeasured: {measured_on}.\n\n{body.rstrip()}\n"
    part.write_text(text, "utf-8")
    part.replace(target)
    return target


def command_line(script: str | None = None, argv: Sequence[str] | None = None) -> str:
    """How this script was run, to quote in its results; ``script`` (a path) and ``argv`` when another
    script called its ``main`` (``run_all.py`` runs ``scaling.py``'s in its own process)."""
    path = Path(sys.argv[0] if script is None else script).resolve()
    try:
        shown = path.relative_to(ROOT)
    except ValueError:
        shown = path
    return shlex.join(["python", str(shown), *(sys.argv[1:] if argv is None else argv)])
