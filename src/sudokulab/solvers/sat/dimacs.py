"""Talking to any SAT solver program: the DIMACS text ``export`` writes, and the answers solvers print.

A formula written by ``sudokulab export --format dimacs`` starts with a comment line ``c
sudokulab-export {...}`` holding, as JSON, everything needed to read a model back (board, box
split, encoding, at-most-one encoding, givens), and a line ``c sudokulab rules {...}`` holding the
puzzle's rules (``rules_data``). ``read_header`` finds both and rebuilds the exact puzzle, so
``decode`` checks a model against the rules it was exported with. ``parse_answer`` reads what a
solver printed in any of the three forms in use (SAT-competition output, MiniSat's result file, a
bare list of literals); every malformed file is one ``PuzzleFormatError`` naming its line.
``decode_model`` turns a model into a grid through the same literal map the formula was built with
(``cnf.Formula.decode``).

The header lines and the answer forms: docs/dimacs.md.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from ...core.grid import Grid, Shape
from ...core.puzzle import Puzzle
from ...core.rules import Cage, Differ, Group, Rules, RulesError, Thermo, build
from ...errors import PuzzleFormatError
from ...formats.documents import compact
from ..base import Deadline
from . import cnf
from . import literals as cnf_literals
from .encodings import AMO_ENCODINGS, ENCODINGS

HEADER = "c sudokulab-export "
RULES = "c sudokulab rules "
_STATUS = {"SATISFIABLE": "SAT", "UNSATISFIABLE": "UNSAT", "UNKNOWN": "UNKNOWN",
           "SAT": "SAT", "UNSAT": "UNSAT", "INDET": "UNKNOWN"}
_LITERALS = re.compile(r"[+-]?\d+(\s+[+-]?\d+)*\Z")


def header_line(puzzle: Puzzle, encoding: str, amo: str) -> str:
    """The machine-readable first line of an exported formula.

    >>> header_line(Puzzle.empty(4), "extended", "pairwise")[:63]
    'c sudokulab-export {"size":4,"box":[2,2],"encoding":"extended",'
    """
    givens = "".join(map(str, puzzle.givens)) if puzzle.n <= 9 else " ".join(map(str, puzzle.givens))
    data = {"size": puzzle.n, "box": [puzzle.shape.box_rows, puzzle.shape.box_cols], "encoding": encoding,
            "amo": amo, "givens": givens}
    return HEADER + compact(data)


def rules_data(rules: Rules) -> dict:
    """The rules as compact JSON data: what ``rules.build`` needs to make them again.

    Presets other than ``standard`` by name, then only the data (jigsaw region labels, cages as
    [cells, total], thermometers, extra groups); empty for standard Sudoku. Rules that ``build``
    would not make equal (made by hand) are spelled out whole under ``"explicit"``.

    >>> from sudokulab.core.rules import build
    >>> rules_data(build(Shape(2, 2), ["x"], cages=[((0, 1), 3)]))
    {'presets': ['x'], 'cages': [[[0, 1], 3]]}
    """
    data: dict = {}
    presets = [p for p in rules.presets if p not in ("standard", "jigsaw", "killer", "thermo")]
    if presets:
        data["presets"] = presets
    regions = [g for g in rules.groups if g.kind == "region"]
    if regions:
        labels = [0] * rules.shape.cells
        for index, group in enumerate(regions):
            for cell in group.cells:
                labels[cell] = index + 1
        data["regions"] = labels
    if rules.cages:
        data["cages"] = [[list(c.cells), c.total] for c in rules.cages]
    if rules.thermos:
        data["thermos"] = [list(t.cells) for t in rules.thermos]
    extra = [list(g.cells) for g in rules.groups if g.kind == "group"]
    if extra:
        data["groups"] = extra
    try:
        if rules_from_data(rules.shape, data) == rules:
            return data
    except RulesError:
        pass
    return {"explicit": {
        "groups": [[g.name, list(g.cells)] for g in rules.groups],
        "differ": [[d.name, [list(p) for p in d.pairs]] for d in rules.differ],
        "cages": [[c.name, list(c.cells), c.total] for c in rules.cages],
        "thermos": [[t.name, list(t.cells)] for t in rules.thermos],
        "presets": list(rules.presets),
    }}


def rules_from_data(shape: Shape, data: dict) -> Rules:
    """The rules that ``rules_data`` wrote (raises RulesError, KeyError, TypeError or ValueError when
    the data do not make rules for this shape)."""
    if not isinstance(data, dict):
        raise TypeError("the rules are not a JSON object")
    if "explicit" in data:
        spelled = data["explicit"]
        groups = tuple(Group(str(name), tuple(map(int, cells))) for name, cells in spelled["groups"])
        differ = tuple(Differ(str(name), tuple((int(a), int(b)) for a, b in pairs))
                       for name, pairs in spelled["differ"])
        cages = tuple(Cage(str(name), tuple(map(int, cells)), int(total)) for name, cells, total in spelled["cages"])
        thermos = tuple(Thermo(str(name), tuple(map(int, cells))) for name, cells in spelled["thermos"])
        cells = shape.cells
        for cell in (c for g in groups for c in g.cells):
            if not 0 <= cell < cells:
                raise RulesError(f"cell {cell} is off the board")
        return Rules(shape, groups, differ, cages, thermos, tuple(map(str, spelled["presets"])))
    regions = data.get("regions")
    return build(shape, [str(p) for p in data.get("presets", [])],
                 regions=None if regions is None else [int(v) for v in regions],
                 cages=[(tuple(cells), int(total)) for cells, total in data.get("cages", [])],
                 thermos=[tuple(cells) for cells in data.get("thermos", [])],
                 extra_groups=[tuple(cells) for cells in data.get("groups", [])])


def rules_line(rules: Rules) -> str:
    """The comment line that carries the rules (``c sudokulab rules {...}``).

    >>> from sudokulab.core.rules import build
    >>> rules_line(build(Shape(2, 2), ["x"]))
    'c sudokulab rules {"presets":["x"]}'
    """
    return RULES + compact(rules_data(rules))


def to_dimacs(puzzle: Puzzle, encoding: str = "extended", amo: str = "pairwise",
              deadline: Deadline | None = None) -> str:
    """The puzzle as DIMACS CNF for any SAT solver: the rules, then one unit clause per given.

    The header comments give the literal map, so a model decodes by hand, and, on their first two
    lines, what ``sudokulab decode --cnf`` needs to decode and check it by itself: the puzzle and
    encoding, then its rules (``dimacs.read_header``). With ``reduced`` the givens' unit clauses are
    the only clauses on their variables, which makes every model decode to the whole grid. Written
    under ``deadline`` when given (``TimeUp``): the text of a large board takes seconds.
    """
    f, _ = cnf.formula(puzzle, encoding, amo, deadline)
    n = puzzle.n
    givens = cnf_literals.literal_table(n).assumptions(puzzle.givens)
    lines = [
        header_line(puzzle, encoding, amo),
        rules_line(puzzle.rules),
        f"c sudokulab: {puzzle.rules.describe()}, encoding {encoding}, at-most-one {amo}",
        f"c variable (r-1)*{n * n} + (c-1)*{n} + d is true when row r, column c holds digit d"
        f" (r, c, d in 1..{n})",
        f"c variables above {n**3} are auxiliary; the last {len(givens)} clauses are the givens",
        f"p cnf {f.top} {len(f.clauses) + len(givens)}",
    ]
    clauses = f.clauses
    for first in range(0, len(clauses), 50_000):
        if deadline is not None:
            deadline.check()
        lines += [" ".join(map(str, clause)) + " 0" for clause in clauses[first:first + 50_000]]
    lines += [f"{lit} 0" for lit in givens]
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Exported:
    """What the header of an exported formula says: the puzzle and how it was encoded."""

    puzzle: Puzzle
    encoding: str
    amo: str


def read_header(text: str, name: str = "the formula") -> Exported:
    """The puzzle (with its rules) and encoding of a formula written by ``export`` (its first comment
    lines); without a rules line the rules are standard Sudoku."""
    lines = text.splitlines()[:20]
    for number, line in enumerate(lines, 1):
        if not line.startswith(HEADER):
            continue
        try:
            data = json.loads(line[len(HEADER):])
            shape = Shape(*data["box"])
            raw = data["givens"]
            givens = tuple(int(v) for v in (raw.split() if " " in raw else raw))
            encoding, amo = str(data["encoding"]), str(data["amo"])
            if shape.n != data["size"] or encoding not in ENCODINGS or amo not in AMO_ENCODINGS:
                raise ValueError("size, encoding or at-most-one encoding unknown")
            puzzle = Puzzle(shape, givens)
        except (ValueError, KeyError, TypeError) as exc:
            raise PuzzleFormatError(f"{name}: line {number}: a sudokulab header that does not read: {exc}") from None
        for rules_number, rules_text in enumerate(lines, 1):
            if rules_text.startswith(RULES):
                try:
                    puzzle = puzzle.with_rules(rules_from_data(shape, json.loads(rules_text[len(RULES):])))
                except (ValueError, KeyError, TypeError) as exc:  # RulesError and JSON errors are ValueErrors
                    raise PuzzleFormatError(f"{name}: line {rules_number}: rules that do not read: {exc}") from None
                break
        return Exported(puzzle, encoding, amo)
    raise PuzzleFormatError(f"{name}: no '{HEADER.strip()}' line in its first 20 lines: "
                            "not written by 'sudokulab export --format dimacs'")


@dataclass(frozen=True)
class SolverAnswer:
    """What a SAT solver said: SAT (with a model), UNSAT or UNKNOWN."""

    status: str
    model: tuple[int, ...] = ()
    comments: tuple[str, ...] = ()


def parse_answer(text: str, name: str = "the answer") -> SolverAnswer:
    """A solver's output in any of the three forms (module docstring); malformed input names its line.

    >>> parse_answer("c hi\\ns SATISFIABLE\\nv 1 -2\\nv 3 0\\n")
    SolverAnswer(status='SAT', model=(1, -2, 3), comments=('c hi',))
    >>> parse_answer("UNSAT\\n").status, parse_answer("1 -2 3 0").model
    ('UNSAT', (1, -2, 3))
    """
    status: str | None = None
    model: list[int] = []
    comments: list[str] = []
    ended = False
    lines = [(number, line.strip()) for number, line in enumerate(text.splitlines(), 1)]
    lines = [(number, line) for number, line in lines if line]
    if not lines:
        raise PuzzleFormatError(f"{name} is empty: no 's' line, no model")
    for number, line in lines:
        where = f"{name}: line {number}"
        head, _, rest = line.partition(" ")
        if head == "c":
            comments.append(line)
            continue
        if head == "s" or (head in _STATUS and not rest and status is None and not model):
            word = rest.strip() if head == "s" else head
            if word not in _STATUS or status is not None:
                raise PuzzleFormatError(f"{where}: '{line[:40]}' is not one status line (s SATISFIABLE, ...)")
            status = _STATUS[word]
            continue
        body = rest if head == "v" else line
        if not _LITERALS.match(body.strip() or "x"):
            raise PuzzleFormatError(f"{where}: '{line[:40]}' is neither a comment, a status nor literals")
        if ended:
            raise PuzzleFormatError(f"{where}: literals after the model's closing 0")
        for word in body.split():
            if len(word.lstrip("+-")) > 9:
                raise PuzzleFormatError(f"{where}: '{word[:20]}' is no variable of a sudokulab formula")
            lit = int(word)
            if lit == 0:
                ended = True
                continue
            if ended:
                raise PuzzleFormatError(f"{where}: literals after the model's closing 0")
            model.append(lit)
    if status is None:
        status = "SAT" if model else "UNKNOWN"
    if status == "SAT" and not model:
        raise PuzzleFormatError(f"{name}: the solver says SATISFIABLE but gives no model")
    if status != "SAT" and model:
        raise PuzzleFormatError(f"{name}: a model beside the status {status}")
    return SolverAnswer(status, tuple(model), tuple(comments))


def decode_model(exported: Exported, model: tuple[int, ...]) -> Grid:
    """The grid of a model of the exported formula; a model that gives a cell no digit or two is refused.

    Decoded through the formula the export wrote (``reduced`` leaves decided variables in no
    clause: only its free variables and the givens say what the grid is).
    """
    puzzle = exported.puzzle
    if exported.encoding == "reduced":
        formula = cnf.reduced_formula(puzzle, exported.amo)
    else:
        formula = cnf.rules(puzzle.rules, exported.encoding, exported.amo)
    true = [lit for lit in model if lit > 0]
    givens = puzzle.givens if formula.per_puzzle else None  # else a changed given shows in the grid
    try:
        return cnf_literals.grid_from_model(puzzle.n, true, givens, formula.free)
    except ValueError as exc:
        raise PuzzleFormatError(f"the model is not a grid: {exc}") from None
