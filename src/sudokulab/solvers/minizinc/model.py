"""The MiniZinc model of Sudoku: one ``.mzn`` text generic over data, and one ``.dzn`` instance per puzzle.

The model (``model``) knows no board: ``n``, the givens and the rules come as data (``data``), as in
the MiniZinc handbook's ``sudoku.mzn``. Cells are numbered 1..n*n row by row (``cell`` is the
row-major view of ``grid``). One ``all_different_int`` per group, ``!=`` per differing pair, a sum
per cage, ``<`` per thermometer step; any other kind in the forms of the shared lowering, declared
only when a puzzle has some (``LOWERED``). ``all_different_int`` is declared in the model rather
than taken from ``globals.mzn`` so that Gecode keeps one native propagator per group with the
MiniZinc and Gecode that Debian ships. ``to_minizinc`` writes model and data as one text
``minizinc --solver gecode FILE.mzn`` runs, its header counting the FlatZinc (``flat_size``). This
module solves nothing; ``sudokulab.solvers.minizinc.solver`` runs it.

Each rule's constraint, the search annotation and why ``all_different_int``: docs/minizinc.md.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...core.cells import cell_label
from ...core.puzzle import Puzzle
from ...core.rules import KINDS, Rules
from ...errors import UsageError
from ..lowering import lower

PROGRAM = "minizinc"
"""The MiniZinc program (Debian: ``apt-get install minizinc flatzinc``)."""

INSTALL = "apt-get install minizinc flatzinc"
"""How to get the program and Gecode, for the one line that says they are missing."""

SEARCHES = ("input_order", "first_fail", "dom_w_deg")
"""Variable choices of the search annotation (value choice: always ``indomain_min``)."""

PROPAGATIONS = ("value", "bounds", "domain")
"""Consistency of each all-different propagator: ``value`` (no annotation: Gecode's default), or
``bounds_propagation`` / ``domain_propagation`` (Regin's matching-based filtering)."""

EXPORT_OPTIONS = ("search", "propagation")


NATIVE = frozenset(KINDS)
"""The rule kinds the model states natively; any other comes in the lowering's forms (``LOWERED``)."""

LOWERED = """
% The forms of the shared lowering (sudokulab.solvers.lowering), for the rule kinds stated through it.
array[int] of 1..n*n: out_cell;                   % ruled-out placements: cell out_cell[i] never holds out_digit[i]
array[index_set(out_cell)] of 1..n: out_digit;
array[int] of 1..n*n: pair_a;                     % forbidden pairs: not both pair_a = pair_x, pair_b = pair_y
array[index_set(pair_a)] of 1..n: pair_x;
array[index_set(pair_a)] of 1..n*n: pair_b;
array[index_set(pair_a)] of 1..n: pair_y;
array[int] of set of 1..n*n: set_cells;           % allowed sets: the digits of set_cells[k] are one of its sets
array[int] of set of 1..n: allowed;               % every set, each tagged with its constraint
array[index_set(allowed)] of int: allowed_for;

constraint forall(i in index_set(out_cell))(cell[out_cell[i]] != out_digit[i]);
constraint forall(i in index_set(pair_a))(cell[pair_a[i]] != pair_x[i] \\/ cell[pair_b[i]] != pair_y[i]);
constraint forall(k in index_set(set_cells))(all_different_int([cell[i] | i in set_cells[k]])
    /\\ exists(j in index_set(allowed) where allowed_for[j] = k)(forall(i in set_cells[k])(cell[i] in allowed[j])));
"""
"""What the model adds for a puzzle with kinds stated through the lowering (``lowered_data`` is its data)."""


def model(search: str = "input_order", propagation: str = "domain", lowered: bool = False) -> str:
    """The ``.mzn`` text, generic over the data of ``data``; ``search`` and ``propagation`` pick the annotations,
    ``lowered`` adds the lowering's forms (``LOWERED``), for a puzzle that has some.

    >>> text = model(propagation="value")
    >>> "all_different_int([cell[i] | i in groups[g]]));" in text
    True
    """
    if search not in SEARCHES:
        raise UsageError(f"unknown search '{search}'; choose one of: {', '.join(SEARCHES)}")
    if propagation not in PROPAGATIONS:
        raise UsageError(f"unknown propagation '{propagation}'; choose one of: {', '.join(PROPAGATIONS)}")
    strength = "" if propagation == "value" else f" :: {propagation}_propagation"
    return f"""\
% Sudoku and its variants, generic over the data: an n x n board, digits 1..n, cells 1..n*n row by row.
% The FlatZinc builtin: a native propagator in Gecode (see sudokulab.solvers.minizinc.model for why not globals.mzn).
predicate all_different_int(array[int] of var int: x);

int: n;
array[1..n, 1..n] of 0..n: givens;                % 0 for a blank
array[int] of set of 1..n*n: groups;              % all-different: rows, columns, boxes, ..., cages' cells
array[int, 1..2] of 1..n*n: differ;               % pairs of cells that differ (anti-knight, anti-king)
array[int] of set of 1..n*n: cage_cells;          % killer cages: their cells add up to cage_total
array[index_set(cage_cells)] of int: cage_total;
array[int, 1..2] of 1..n*n: thermo_steps;         % thermometers, step by step: first cell < second cell

array[1..n, 1..n] of var 1..n: grid;
array[1..n*n] of var 1..n: cell = array1d(grid);  % row-major

constraint forall(r, c in 1..n where givens[r, c] > 0)(grid[r, c] = givens[r, c]);
constraint forall(g in index_set(groups))(all_different_int([cell[i] | i in groups[g]]){strength});
constraint forall(p in index_set_1of2(differ))(cell[differ[p, 1]] != cell[differ[p, 2]]);
constraint forall(k in index_set(cage_cells))(sum(i in cage_cells[k])(cell[i]) = cage_total[k]);
constraint forall(s in index_set_1of2(thermo_steps))(cell[thermo_steps[s, 1]] < cell[thermo_steps[s, 2]]);

{LOWERED if lowered else ""}
solve :: int_search(cell, {search}, indomain_min) satisfy;

output [show(grid[r, c]) ++ if c = n then "\\n" else " " endif | r, c in 1..n];
"""


def _cells(cells: Sequence[int]) -> str:
    return "{" + ", ".join(str(cell + 1) for cell in cells) + "}"


def _assign(name: str, items: Sequence[str], notes: Sequence[str], pairs: bool = False) -> str:
    """``name = [...];`` one item a line, each followed by its note as a comment (after the ``;`` on the last)."""
    opening, between, closing, empty = ("[|", "|", " |]", "[| |]") if pairs else ("[", ",", "]", "[]")
    if not items:
        return f"{name} = {empty};\n"
    last = len(items) - 1
    lines = []
    for i, (item, note) in enumerate(zip(items, notes)):
        if pairs:
            text = f"  {opening if i == 0 else between} {item}{closing + ';' if i == last else ''}"
        else:
            text = f"  {item}{between if i < last else closing + ';'}"
        lines.append(f"{text}  % {note}" if note else text)
    return f"{name} =" + ("\n" if pairs else " [\n") + "\n".join(lines) + "\n"


def data(puzzle: Puzzle) -> str:
    """The ``.dzn`` instance: n, the givens as a board, and the rules (each group, pair, cage and step named).

    >>> print(data(Puzzle.empty(4)).splitlines()[0])
    n = 4;
    """
    n, rules = puzzle.n, puzzle.rules
    board = [", ".join(str(d) for d in puzzle.givens[r * n:(r + 1) * n]) for r in range(n)]
    steps = [(a, b) for t in rules.thermos for a, b in zip(t.cells, t.cells[1:])]
    return "".join((
        f"n = {n};\n",
        _assign("givens", board, [""] * n, pairs=True),
        _assign("groups", [_cells(g.cells) for g in rules.groups], [g.name for g in rules.groups]),
        _assign("differ", [f"{a + 1}, {b + 1}" for a, b in rules.pairs],
                [f"{cell_label(a, n)} {cell_label(b, n)}" for a, b in rules.pairs], pairs=True),
        _assign("cage_cells", [_cells(c.cells) for c in rules.cages], [c.name for c in rules.cages]),
        "cage_total = [" + ", ".join(str(c.total) for c in rules.cages) + "];\n",
        _assign("thermo_steps", [f"{a + 1}, {b + 1}" for a, b in steps],
                [t.name for t in rules.thermos for _ in t.cells[1:]], pairs=True),
        lowered_data(rules),
    ))


def lowered_data(rules: Rules) -> str:
    """The data of ``LOWERED``: the lowering's forms of the puzzle's rules, or nothing when it has none."""
    forms = lower(rules, NATIVE)
    if not forms:
        return ""

    def row(name: str, values: Sequence[object]) -> str:
        return f"{name} = [" + ", ".join(map(str, values)) + "];\n"

    owners = [k for k, s in enumerate(forms.sets, 1) for _ in s.sets]
    return "".join((
        "% the forms of the shared lowering\n",
        row("out_cell", [cell + 1 for cell, _ in forms.ruled_out]),
        row("out_digit", [digit for _, digit in forms.ruled_out]),
        row("pair_a", [a + 1 for _, (a, _), _ in forms.pairs]), row("pair_x", [x for _, (_, x), _ in forms.pairs]),
        row("pair_b", [b + 1 for _, _, (b, _) in forms.pairs]), row("pair_y", [y for _, _, (_, y) in forms.pairs]),
        _assign("set_cells", [_cells(s.cells) for s in forms.sets], [s.name for s in forms.sets]),
        _assign("allowed", ["{" + ", ".join(map(str, digits)) + "}" for s in forms.sets for digits in s.sets],
                [f"{s.name}, set {i + 1}" for s in forms.sets for i in range(len(s.sets))]),
        row("allowed_for", owners),
    ))


def has_lowered(rules: Rules) -> bool:
    """Whether the rules use a kind the model states through the lowering (its forms then go in)."""
    return bool(lower(rules, NATIVE))


@dataclass(frozen=True)
class FlatSize:
    """What the compiler made of a model and its data: FlatZinc variables and constraints, and its time."""

    variables: int
    constraints: int
    seconds: float


_STAT = re.compile(r"(flat\w+|\w+Time)\s*[=:]\s*\"?([\d.e+-]+)")


def flat_size_of(statistics: dict[str, Any]) -> FlatSize:
    """The size in the compiler's statistics (``flatIntVars``, ``flatBoolVars``, ``flatIntConstraints``, ...)."""
    def total(suffix: str) -> int:
        return sum(int(value) for key, value in statistics.items() if key.startswith("flat") and key.endswith(suffix))

    return FlatSize(total("Vars"), total("Constraints"), float(statistics.get("flatTime", 0.0)))


def flat_size(puzzle: Puzzle, search: str = "input_order", propagation: str = "domain",
              backend: str = "gecode") -> FlatSize | None:
    """The FlatZinc size of the puzzle's model, counted by the compiler (``minizinc -c``); None without it."""
    from ...execution.sandbox import Limits, run_program

    if shutil.which(PROGRAM) is None:
        return None
    with tempfile.TemporaryDirectory(prefix="sudokulab-minizinc-") as folder:
        files = write_files(folder, puzzle, search, propagation)
        command = [PROGRAM, "--solver", backend, "-c", "--compiler-statistics",
                   "--fzn", os.devnull, "--no-output-ozn", *files]
        run = run_program(command, b"", Limits(600.0, None, 1 << 24, isolation="none", processes=0, files_mb=0))
    text = (run.stdout + run.stderr).decode("utf-8", "replace")
    if run.exit_code != 0:
        raise UsageError(f"minizinc could not compile the model: {_last_error(text)}")
    return flat_size_of(dict(_STAT.findall(text)))


def _last_error(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith(("Warning", "%"))]
    return lines[-1][:200] if lines else "no message"


def write_files(folder: str, puzzle: Puzzle, search: str = "input_order", propagation: str = "domain") -> list[str]:
    """``model.mzn`` and ``puzzle.dzn`` written in ``folder``; their paths, for the command line."""
    paths = [os.path.join(folder, "model.mzn"), os.path.join(folder, "puzzle.dzn")]
    for path, text in zip(paths, (model(search, propagation, has_lowered(puzzle.rules)), data(puzzle))):
        with open(path, "w", encoding="utf-8") as stream:
            stream.write(text)
    return paths


def to_minizinc(puzzle: Puzzle, **options: Any) -> str:
    """Model and data as one text ``minizinc --solver gecode FILE.mzn`` runs, for ``sudokulab export``.

    The header gives the FlatZinc size as the compiler counts it (when the program is installed).
    Options: ``search`` (``SEARCHES``; default ``input_order``, whose first solution is the
    canonical one) and ``propagation`` (``PROPAGATIONS``; default ``domain``).
    """
    unknown = sorted(set(options) - set(EXPORT_OPTIONS))
    if unknown:
        raise UsageError(f"the minizinc format takes no option '{unknown[0]}'; "
                         f"its options: {', '.join(EXPORT_OPTIONS)}")
    search = str(options.get("search", "input_order")).strip().lower()
    propagation = str(options.get("propagation", "domain")).strip().lower()
    text = model(search, propagation, has_lowered(puzzle.rules))  # checks both
    rules: Rules = puzzle.rules
    about = str(puzzle.shape) if rules.is_standard else rules.describe()
    size = flat_size(puzzle, search, propagation)
    counted = (f"% FlatZinc after flattening for Gecode: {size.variables} variables, {size.constraints} constraints"
               if size is not None else f"% FlatZinc size not counted: {PROGRAM} is not installed ({INSTALL})")
    header = (f"% sudokulab MiniZinc model: {about}, {puzzle.shape.cells - puzzle.blanks} givens\n{counted}\n"
              f"% Run: minizinc --solver gecode FILE.mzn\n\n")
    return header + text + "\n% --- the instance ---\n" + data(puzzle)
