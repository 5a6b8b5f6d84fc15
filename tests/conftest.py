"""Shared fixtures: the BOJ sample, the shared data folder, and random valid grids.

The random grids here are for tests only: a pattern grid shuffled by the Sudoku symmetries, which
is plenty to exercise solvers (the generator module does the uniform-ish job for users).
"""

from __future__ import annotations

import io
import random
import sys
from pathlib import Path

import pytest
from hypothesis import settings

from sudokulab import Puzzle, Shape, cli, parse_puzzle

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
SHARED_DATA = ROOT.parent / "shared" / "data"
HANG = 60.0
"""Seconds after which a run that should have stopped (a time limit, Ctrl-C) counts as hung. Generous
on purpose: tests assert that it stops, never how fast (CI machines are shared and slow); speed is
measured in benchmarks/."""


@pytest.fixture
def sample_text() -> str:
    return (EXAMPLES / "boj2580-sample.txt").read_text()


@pytest.fixture
def sample_answer() -> str:
    return (EXAMPLES / "boj2580-sample.out").read_text()


@pytest.fixture
def sample(sample_text) -> Puzzle:
    return parse_puzzle(sample_text)


def shared_dataset(name: str) -> Path:
    """A benchmark set from ../shared/data, or a clean skip when a fresh clone has none."""
    path = SHARED_DATA / name
    if not path.exists():
        pytest.skip(f"{path} is absent (no ../shared beside this clone)")
    return path


def random_grid(shape: Shape, rng: random.Random) -> tuple[int, ...]:
    """A valid complete grid: the pattern grid under random relabelling and row/column moves."""
    br, bc, n = shape.box_rows, shape.box_cols, shape.n

    def pattern(r: int, c: int) -> int:
        return (bc * (r % br) + r // br + c) % n

    def shuffled_lines(bands: int, per_band: int) -> list[int]:
        order = rng.sample(range(bands), bands)
        return [band * per_band + i for band in order for i in rng.sample(range(per_band), per_band)]

    rows = shuffled_lines(bc, br)  # n // br = bc bands of br rows
    cols = shuffled_lines(br, bc)  # n // bc = br stacks of bc columns
    labels = rng.sample(range(1, n + 1), n)
    return tuple(labels[pattern(r, c)] for r in rows for c in cols)


def cut(grid: tuple[int, ...], shape: Shape, clues: int, rng: random.Random) -> Puzzle:
    """Keep ``clues`` random cells of a grid (solutions: at least the grid itself)."""
    keep = set(rng.sample(range(len(grid)), clues))
    return Puzzle(shape, tuple(v if i in keep else 0 for i, v in enumerate(grid)))


def random_puzzle(n_or_shape: int | Shape, fraction: float, seed: int) -> tuple[Puzzle, tuple[int, ...]]:
    shape = n_or_shape if isinstance(n_or_shape, Shape) else Shape.of_size(n_or_shape)
    rng = random.Random(seed)
    grid = random_grid(shape, rng)
    return cut(grid, shape, round(fraction * shape.cells), rng), grid


def run_cli(capsys, *argv: str, stdin: bytes | None = None, monkeypatch=None) -> tuple[int, str, str]:
    """Run the command in-process: (exit code, stdout, stderr); ``stdin`` bytes need ``monkeypatch``."""
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# Hypothesis profiles: the default runs in seconds; ``--hypothesis-profile=fuzz`` runs the fuzz tests
# (tests/test_fuzz.py) over thousands of inputs.
settings.register_profile("fuzz", max_examples=3000, deadline=None)
