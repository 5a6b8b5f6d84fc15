"""The one table style, fitted to the console, and the cells that tables of solver runs share.

Tables fit the terminal (and 80 columns off a terminal): ``print_table`` is the one way every table
fits, by shortening the cells that have a short form, then leaving out columns in a stated order,
and saying under the table what it left out; ``wide=True`` (``--wide``) shows every column in full,
and every figure is in the JSON and CSV outputs anyway.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..solvers.base import EFFORT, Stat
from .console import as_text

if TYPE_CHECKING:
    from rich.console import Console


@dataclass(frozen=True)
class Column:
    """A column of a table that ``print_table`` fits to the console."""

    header: str
    justify: str = "left"
    wrap: bool = False
    """Whether its cells may wrap onto more lines (free text); the others stay on one line."""
    drop: int = 0
    """0: always shown; 1, 2, ...: left out in this order while the table is too wide."""
    short: Callable[[str], str] | None = None
    """A shorter form of its cells, used before any column is left out."""
    least: int = 0
    """The width its cells are counted at, at least: figures that change from run to run (times, rates)
    then fit or not the same way every run, so a table keeps the same columns at a given width."""


WRAPPED = 24
"""The least width ``print_table`` gives a column of free text that wraps."""


def print_table(out: Console, columns: Sequence[Column], rows: Sequence[Sequence[str]], *, title: str | None = None,
                styles: Sequence[str | None] | None = None, wide: bool = False) -> list[str]:
    """Print a table that fits ``out``'s width: every column in full if it fits (or with ``wide``),
    else the short forms, then without the columns of lowest ``drop`` until it fits; a line under it
    names what was shortened or left out. Returns the headers left out.

    >>> from rich.console import Console
    >>> out = Console(width=16, color_system=None)
    >>> print_table(out, [Column("name"), Column("a long header", drop=1)], [["x", "1"]])
    ... # doctest: +NORMALIZE_WHITESPACE
    name
    ────
    x
    not shown at this width: a long header (--wide shows every column)
    ['a long header']
    """
    from rich import box
    from rich.cells import cell_len
    from rich.table import Table

    def build(kept: Sequence[Column], shorten: bool) -> Table:
        table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False,
                      collapse_padding=True)
        for column in kept:
            table.add_column(column.header, justify=column.justify, no_wrap=not column.wrap)  # type: ignore[arg-type]
        for i, row in enumerate(rows):
            cells = [row[columns.index(column)] for column in kept]
            cells = [column.short(cell) if shorten and column.short else cell for column, cell in zip(kept, cells)]
            table.add_row(*map(as_text, cells), style=styles[i] if styles else None)
        return table

    def needed(column: Column, shorten: bool) -> int:
        """Columns of the screen a column needs: its widest cell on one line, or for free text its longest
        word and at least ``WRAPPED`` (rich would cut cells short with an ellipsis below that)."""
        at = columns.index(column)
        cells = [row[at] for row in rows]
        if shorten and column.short:
            cells = [column.short(cell) for cell in cells]
        lines = [line for text in [column.header, *cells] for line in text.split("\n")]  # a cell of many lines
        if not column.wrap:
            return max(column.least, *map(cell_len, lines))
        longest = max(cell_len(word) for line in lines for word in line.split() or [""])
        return max(longest, min(WRAPPED, max(map(cell_len, lines))))

    def fits(kept: Sequence[Column], shorten: bool) -> bool:
        return sum(needed(column, shorten) for column in kept) + 2 * (len(kept) - 1) <= out.width

    droppable = sorted((c for c in columns if c.drop), key=lambda c: c.drop)
    # past the stated order, the rightmost columns go too (never the first): rich would squeeze the
    # table instead, cutting cells short ("99.6 …") or leaving columns out without a word
    droppable += [c for c in reversed(columns[1:]) if not c.drop]
    ways = [([c for c in columns if c not in droppable[:k]], shorten)
            for k in range(len(droppable) + 1) for shorten in (False, True)]
    kept, shorten = next((way for way in ways if wide or fits(*way)), ways[-1])
    out.print(build(kept, shorten))
    dropped = [column.header for column in columns if column not in kept]
    shortened = [c.header for c in kept if shorten and c.short and any(
        c.short(row[columns.index(c)]) != row[columns.index(c)] for row in rows)]
    said = ([f"{', '.join(shortened)} shortened"] if shortened else []) + (
        [f"not shown at this width: {', '.join(dropped)}"] if dropped else [])
    if said:
        out.print(as_text(f"{'; '.join(said)} (--wide shows every column)"), soft_wrap=False)
    return dropped


def format_seconds(seconds: float) -> str:
    """A time with three significant figures in a readable unit.

    >>> format_seconds(0.000123), format_seconds(0.0456), format_seconds(12.345), format_seconds(0.0009996)
    ('123 µs', '45.6 ms', '12.3 s', '1 ms')
    """
    if math.isnan(seconds):
        return "-"
    seconds = float(f"{seconds:.3g}")  # rounded first: 0.0009996 is '1 ms', not '1e+03 µs'
    if seconds < 1e-3:
        return f"{seconds * 1e6:.3g} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.3g} ms"
    return f"{seconds:.3g} s" if seconds < 1000 else f"{seconds:,.0f} s"


def _figure(value: Stat | float) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, int):
        return f"{value:,}"
    return f"{value:,.0f}" if value >= 100 else f"{value:.1f}"


def effort(stats: Mapping[str, Stat | float]) -> str:
    """A solver's effort figures in one cell, in ``EFFORT`` order; every stat when it has none of them.

    >>> effort({"conflicts": 3, "variables": 729, "decisions": 12})
    'decisions 12, conflicts 3'
    """
    shown = [key for key in EFFORT if key in stats] or list(stats)
    return ", ".join(f"{key} {_figure(stats[key])}" for key in shown) or "-"


MODEL_SIZE = ("clauses", "constraints", "variables", "rules", "atoms", "assertions", "constants",
              "flat_constraints", "flat_variables")
MODEL_SIZE_HEADER = "model size per puzzle"
"""The stats that measure a model's size, in each paradigm's words: a SAT formula's clauses, a CP-SAT
model's constraints, a ground program's rules and atoms (clingo), an SMT formula's assertions and
constants (z3), the FlatZinc a MiniZinc model flattens to."""


def model_size(stats: Mapping[str, Stat | float]) -> str:
    """A model's size in one cell: mean clauses or constraints and variables per puzzle, or "-".

    >>> model_size({"clauses": 11988.0, "variables": 729.0, "conflicts": 2})
    '11,988 clauses, 729 variables'
    """
    return ", ".join(f"{stats[key]:,.0f} {key}" for key in MODEL_SIZE if key in stats) or "-"


def puzzles_word(count: int) -> str:
    """``1 puzzle``, ``2,000 puzzles``."""
    return f"{count:,} puzzle{'' if count == 1 else 's'}"


def format_stats(result: Any) -> str:
    """One line of a result's status, time and effort figures, for stderr (``--stats``)."""
    figures = "  ".join(f"{k}: {v}" for k, v in result.stats.items())
    return f"solver: {result.solver}  status: {result.status.value}  time: {result.seconds:.6f} s  {figures}".rstrip()
