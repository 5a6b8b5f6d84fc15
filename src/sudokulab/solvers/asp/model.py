"""The answer set program of a puzzle, in two parts as ASP is taught: a problem encoding and instance facts.

``ENCODING`` states Sudoku under any rule set of the built-in kinds and never changes; ``instance``
writes a rule set as facts (the cells, which cells make each group, the differing pairs, cage
totals, thermometer steps) and ``given_facts`` a puzzle's givens. Cells are ``(row, column)``
terms, 1-based, so ``v((4,5),7)`` reads "row 4, column 5 holds 7"; groups are named as a person
says them: ``row(4)``, ``column(3)``, ``box(2)``, ``diagonal(1)``, ``region(5)``, ``cage(7)``. A
complete group holds each digit once by one ``#count`` with both bounds, which clasp propagates both
ways (hidden singles); whether a group is complete the encoding works out at grounding time. Kinds
beyond the built-in ones (``NATIVE``) come in the lowering's forms, whose rules (``LOWERED``) join
the program only when a rule set has some. The solver passes givens as assumptions; an exported
program carries them as facts, so ``clingo FILE`` solves the puzzle as it stands.

How each kind is said, and why that form rather than the others measured: docs/asp.md.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ...core.puzzle import Puzzle
from ...core.rules import KINDS, Rules
from ...errors import UsageError
from ..lowering import lower

ENCODING = """\
% The problem: Sudoku under any rule set, the same for every puzzle (the instance facts below it
% name the cells, groups, pairs, cages, thermometer steps and givens).

% Each cell holds exactly one digit.
{ v(C,D) : digit(D) } = 1 :- cell(C).

% A group of n cells holds each digit exactly once; a smaller group holds each at most once.
complete(G) :- group(G), size(N), #count{ C : in(G,C) } = N.
:- complete(G), digit(D), not #count{ C : in(G,C), v(C,D) } = 1.
:- group(G), not complete(G), digit(D), #count{ C : in(G,C), v(C,D) } > 1.

% The cells of a differing pair hold different digits.
:- differ(A,B), v(A,D), v(B,D).

% The digits of a cage add up to its total.
:- total(K,T), not #sum{ D,C : in(K,C), v(C,D) } = T.

% Digits increase along a thermometer, step by step from the bulb.
:- step(A,B), v(A,X), v(B,Y), Y <= X.

% A given digit stays.
:- given(C,D), not v(C,D).

#defined differ/2. #defined total/2. #defined step/2. #defined given/2.
#show v/2.
"""
"""The problem encoding: independent of the puzzle and of its rule set."""

NATIVE = frozenset(KINDS)
"""The rule kinds ``ENCODING`` states natively; any other comes in the lowering's forms (``LOWERED``)."""

LOWERED = """\
% The forms of the shared lowering (sudokulab.solvers.lowering): ruled-out placements, forbidden
% pairs of placements, and allowed sets (one set chosen, each of its digits held by a cell).
:- out(C,D), v(C,D).
:- pair(A,X,B,Y), v(A,X), v(B,Y).
{ chosen(K,S) : allowed(K,S,_) } = 1 :- set_cell(K,_).
:- chosen(K,S), allowed(K,S,D), not #count{ C : set_cell(K,C), v(C,D) } = 1.

#defined out/2. #defined pair/4. #defined set_cell/2. #defined allowed/3.
"""
"""The encoding's part for the kinds stated through the lowering, added with their facts (``lowered_facts``)."""

_NAME = re.compile(r"([a-z][a-z_]*) ([1-9][0-9]*)\b")


def cell_term(cell: int, n: int) -> str:
    """The 0-based ``cell`` as the program's 1-based ``(row,column)`` term.

    >>> cell_term(0, 9), cell_term(13, 9)
    ('(1,1)', '(2,5)')
    """
    row, col = divmod(cell, n)
    return f"({row + 1},{col + 1})"


def cell_index(row: int, col: int, n: int) -> int:
    """The 0-based cell of a 1-based ``(row,column)`` term: ``cell_term`` read back."""
    return (row - 1) * n + col - 1


def _term(name: str, fallback: str) -> str:
    """A group's name as a term a person reads ("cage 7 (sum 15)" -> ``cage(7)``), else ``fallback``."""
    found = _NAME.match(name.lower())
    return f"{found.group(1)}({found.group(2)})" if found else fallback


def group_terms(rules: Rules) -> tuple[str, ...]:
    """One term per group of ``rules.groups``, from its name; ``g(i)`` for all when names would clash."""
    terms = tuple(_term(group.name, f"g({i + 1})") for i, group in enumerate(rules.groups))
    if len(set(terms)) < len(terms):
        return tuple(f"g({i + 1})" for i in range(len(terms)))
    return terms


def _cells(cells: Iterable[int], n: int) -> str:
    """Cells as one term with pools: ``(1..3,4..6)`` for a rectangle, ``(1,1;2,2;...)`` otherwise."""
    cells = sorted(cells)
    rows = sorted({c // n for c in cells})
    cols = sorted({c % n for c in cells})
    rectangle = (rows == list(range(rows[0], rows[-1] + 1)) and cols == list(range(cols[0], cols[-1] + 1))
                 and len(cells) == len(rows) * len(cols))
    if rectangle:
        def span(values: list[int]) -> str:
            return f"{values[0] + 1}" if len(values) == 1 else f"{values[0] + 1}..{values[-1] + 1}"
        return f"({span(rows)},{span(cols)})"
    return "(" + ";".join(cell_term(c, n)[1:-1] for c in cells) + ")"


def _pooled(terms: Iterable[str]) -> list[str]:
    """Terms like ``row(1)``...``row(9)`` as ``row(1..9)``, runs of one kind kept in order."""
    out: list[str] = []
    run: list[tuple[str, int]] = []

    def flush() -> None:
        if run:
            kind, first, last = run[0][0], run[0][1], run[-1][1]
            out.append(f"{kind}({first})" if first == last else f"{kind}({first}..{last})")
            run.clear()

    for term in terms:
        found = re.fullmatch(r"([a-z_]+)\((\d+)\)", term)
        if found and run and run[-1][0] == found.group(1) and run[-1][1] + 1 == int(found.group(2)):
            run.append((found.group(1), int(found.group(2))))
            continue
        flush()
        if found:
            run.append((found.group(1), int(found.group(2))))
        else:
            out.append(term)
    flush()
    return out


def instance(rules: Rules) -> str:
    """The rule set as facts: board size, digits, cells, groups and their cells, pairs, cages, thermometers.

    >>> from sudokulab.core.grid import Shape
    >>> from sudokulab.core.rules import build
    >>> print(instance(build(Shape(1, 2), cages=[([0, 1], 3)])))
    size(2). digit(1..2). cell((1..2,1..2)).
    group(row(1..2)). group(column(1..2)). group(box(1..2)). group(cage(1)).
    in(row(1),(1,1..2)). in(row(2),(2,1..2)).
    in(column(1),(1..2,1)). in(column(2),(1..2,2)).
    in(box(1),(1,1..2)). in(box(2),(2,1..2)).
    in(cage(1),(1,1..2)).
    total(cage(1),3).
    <BLANKLINE>
    """
    n = rules.n
    terms = group_terms(rules)
    lines = [f"size({n}). digit(1..{n}). cell((1..{n},1..{n})).",
             " ".join(f"group({term})." for term in _pooled(terms))]
    by_kind: dict[str, list[str]] = {}
    for term, group in zip(terms, rules.groups):
        by_kind.setdefault(term.split("(", 1)[0], []).append(f"in({term},{_cells(group.cells, n)}).")
    for facts in by_kind.values():
        lines.extend(_wrapped(facts))
    by_cells = {group.cells: term for term, group in zip(terms, rules.groups)}
    for differ in rules.differ:
        if differ.pairs:
            lines.append(f"% {differ.name}")
            lines.extend(_wrapped(f"differ({cell_term(a, n)},{cell_term(b, n)})." for a, b in differ.pairs))
    totals = []
    for index, cage in enumerate(rules.cages):
        term = by_cells.get(cage.cells)
        if term is None:  # a cage with no group of its cells (never from ``rules.build``): cells of its own
            term = f"sum({index + 1})"
            lines.append(f"in({term},{_cells(cage.cells, n)}).")
        totals.append(f"total({term},{cage.total}).")
    lines.extend(_wrapped(totals))
    for thermo in rules.thermos:
        lines.append(f"% {thermo.name}")
        cells = thermo.cells
        lines.extend(_wrapped(f"step({cell_term(a, n)},{cell_term(b, n)})." for a, b in zip(cells, cells[1:])))
    return "\n".join(lines) + "\n"


def _wrapped(facts: Iterable[str], width: int = 100) -> list[str]:
    """Facts several to a line, lines under ``width`` characters."""
    lines: list[str] = []
    for fact in facts:
        if lines and len(lines[-1]) + 1 + len(fact) <= width:
            lines[-1] += " " + fact
        else:
            lines.append(fact)
    return lines


def given_facts(puzzle: Puzzle) -> str:
    """The givens as ``given((row,column),digit).`` facts, one board row a line."""
    n = puzzle.n
    lines = []
    for row in range(n):
        facts = [f"given({cell_term(cell, n)},{puzzle.givens[cell]})."
                 for cell in range(row * n, row * n + n) if puzzle.givens[cell]]
        if facts:
            lines.append(" ".join(facts))
    return "\n".join(lines) + ("\n" if lines else "")


def lowered_facts(rules: Rules) -> str:
    """The lowering's forms of a rule set as facts (``LOWERED`` reads them), or nothing when it has none."""
    forms = lower(rules, NATIVE)
    if not forms:
        return ""
    n = rules.n
    lines = ["% the forms of the shared lowering"]
    lines += _wrapped(f"out({cell_term(cell, n)},{digit})." for cell, digit in forms.ruled_out)
    lines += _wrapped(f"pair({cell_term(a, n)},{x},{cell_term(b, n)},{y})." for _, (a, x), (b, y) in forms.pairs)
    for k, allowed in enumerate(forms.sets, 1):
        lines.append(f"% {allowed.name}")
        lines += _wrapped(f"set_cell({k},{cell_term(cell, n)})." for cell in allowed.cells)
        lines += _wrapped(f"allowed({k},{i},{d})." for i, digits in enumerate(allowed.sets, 1) for d in digits)
    return "\n".join(lines) + "\n"


def program(rules: Rules) -> str:
    """The encoding and a rule set's facts: the ground program the solver keeps per rule set (with the
    lowering's rules and facts when the rule set has kinds stated through it)."""
    facts = lowered_facts(rules)
    return (ENCODING + (LOWERED if facts else "") + "\n% The instance: " + _about(rules) + "\n" + instance(rules)
            + facts)


def _about(rules: Rules) -> str:
    return str(rules.shape) if rules.is_standard else rules.describe()


def ground_size(text: str) -> tuple[int, int]:
    """(atoms, rules) of a program after grounding, as clingo's grounder hands it to the solver.

    Counted by an observer of the grounder, so nothing is solved; the rules are those the solver
    receives (normal, choice and weight rules), the atoms those they mention.
    """
    import clingo

    class Counter:
        def __init__(self) -> None:
            self.rules = 0
            self.atoms: set[int] = set()

        def rule(self, choice: bool, head: list[int], body: list[int]) -> None:
            self.rules += 1
            self.atoms.update(head)
            self.atoms.update(abs(lit) for lit in body)

        def weight_rule(self, choice: bool, head: list[int], lower_bound: int, body: list[tuple[int, int]]) -> None:
            self.rules += 1
            self.atoms.update(head)
            self.atoms.update(abs(lit) for lit, _ in body)

    counter = Counter()
    control = clingo.Control(["--warn=none"])
    control.register_observer(counter)
    control.add("base", [], text)
    control.ground([("base", [])])
    return len(counter.atoms), counter.rules


def to_asp(puzzle: Puzzle, **options: Any) -> str:
    """The puzzle's answer set program for ``sudokulab export --format asp``; run it with ``clingo FILE``.

    The header gives the size after grounding (atoms and rules, counted by clingo's grounder).

    >>> text = to_asp(Puzzle.empty(4))
    >>> text.splitlines()[1].startswith("% after grounding:"), "in(box(4),(3..4,3..4))." in text
    (True, True)
    """
    if options:
        raise UsageError(f"the asp format takes no option '{sorted(options)[0]}'; it has none")
    body = program(puzzle.rules) + given_facts(puzzle)
    atoms, rules = ground_size(body)
    import clingo

    header = (f"% sudokulab answer set program (clingo): {_about(puzzle.rules)}, "
              f"{puzzle.shape.cells - puzzle.blanks} givens\n"
              f"% after grounding: {atoms:,} atoms, {rules:,} rules (clingo {clingo.__version__})\n")
    return header + body

