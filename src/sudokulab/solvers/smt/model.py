"""The SMT model of Sudoku, written as SMT-LIB 2 text: what the ``smt`` solver hands z3, and what ``export`` writes.

One constant per cell, named by its ``cell_label`` (``r1c1`` is the top-left corner), and one
assertion per rule, so the model's size follows a formula (``cells + groups + pairs + cages +
thermometers``, plus one per given and per lowered form): a domain per cell, ``distinct`` per group
and differing pair, a linear sum per cage, a chained ``<`` per thermometer, any other kind in the
forms of the shared lowering. Two theories state the same assertions: ``int`` (``QF_LIA``) and
``bitvector`` (``QF_BV``: ``n.bit_length()`` bits a cell, cages zero-extended so a sum cannot wrap).
The assertions depend on the rules only, so ``rules`` builds them once per ``Rules`` value and the
solver states the givens apart (as assumptions). This module writes text and imports no z3;
``sudokulab.solvers.smt.solver`` parses it with z3 and runs it.

Each assertion in both theories, and which z3 solves faster: docs/smt.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

from ...core.cells import cell_label
from ...core.grid import Shape
from ...core.puzzle import Puzzle
from ...core.rules import KINDS, Rules, standard
from ...errors import UsageError
from ..lowering import lower

THEORIES = ("int", "bitvector")
"""The theories a cell's value can live in: linear integer arithmetic, or fixed-size bit-vectors."""

LOGICS = {"int": "QF_LIA", "bitvector": "QF_BV"}
"""Each theory's SMT-LIB logic (``set-logic``)."""

CACHED = 32
"""Rule sets whose assertions stay built: standard shapes and the variants of a session."""

NATIVE = frozenset(KINDS)
"""The rule kinds the model states natively; any other comes in the lowering's forms."""


@dataclass(frozen=True)
class SmtModel:
    """The assertions of a rule set in one theory, as SMT-LIB text: one line per constant and assertion."""

    rules: Rules
    theory: str

    @property
    def n(self) -> int:
        return self.rules.n

    @property
    def logic(self) -> str:
        return LOGICS[self.theory]

    @property
    def width(self) -> int:
        """Bits of a cell's bit-vector (``bitvector``); 0 for integers."""
        return self.n.bit_length() if self.theory == "bitvector" else 0

    @cached_property
    def names(self) -> tuple[str, ...]:
        """Per cell, the name of its constant."""
        return tuple(cell_label(cell, self.n) for cell in range(self.rules.shape.cells))

    @property
    def sort(self) -> str:
        return "Int" if self.theory == "int" else f"(_ BitVec {self.width})"

    def value(self, number: int, width: int | None = None) -> str:
        """A number as a term of this theory (a bit-vector of ``width`` bits, a cell's by default)."""
        if self.theory == "int":
            return str(number)
        return f"(_ bv{number} {self.width if width is None else width})"

    def given(self, cell: int, digit: int) -> str:
        """The assertion that ``cell`` holds ``digit``."""
        return f"(assert (= {self.names[cell]} {self.value(digit)}))"

    @cached_property
    def declarations(self) -> tuple[str, ...]:
        sort = self.sort
        return tuple(f"(declare-const {name} {sort})" for name in self.names)

    @cached_property
    def sections(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """The assertions by kind, in this order: (kind, assertions), each assertion with its rule's name."""
        rules, names = self.rules, self.names
        one, last = self.value(1), self.value(self.n)
        if self.theory == "int":
            domains = tuple(f"(assert (<= {one} {name} {last}))" for name in names)
        else:
            domains = tuple(f"(assert (and (bvule {one} {name}) (bvule {name} {last})))" for name in names)
        groups = tuple(f"(assert (distinct {' '.join(names[c] for c in g.cells)})) ; {g.name}" for g in rules.groups)
        pairs = tuple(f"(assert (distinct {names[a]} {names[b]})) ; {d.name}"
                      for d in rules.differ for a, b in d.pairs)
        cages = tuple(f"(assert (= {self._sum(cage.cells)} {self._total(cage.total, len(cage.cells))})) ; {cage.name}"
                      for cage in rules.cages)
        thermos = tuple(f"(assert {self._increasing(t.cells)}) ; {t.name}" for t in rules.thermos)
        return (("domain", domains), ("all-different", groups), ("differ", pairs), ("sum", cages),
                ("increasing", thermos), ("lowered", self._lowered()))

    def _lowered(self) -> tuple[str, ...]:
        """The assertions of the lowering's forms (module docstring), each with its constraint's name."""
        forms, names, value = lower(self.rules, NATIVE), self.names, self.value
        out = [f"(assert (not (= {names[c]} {value(d)}))) ; ruled out" for c, d in forms.ruled_out]
        out += [f"(assert (not (and (= {names[a]} {value(x)}) (= {names[b]} {value(y)})))) ; {name}"
                for name, (a, x), (b, y) in forms.pairs]
        for allowed in forms.sets:
            def holds(cell: int, digits: tuple[int, ...]) -> str:
                equal = [f"(= {names[cell]} {value(d)})" for d in digits]
                return f"(or {' '.join(equal)})" if len(equal) > 1 else equal[0]
            each = [f"(and {' '.join(holds(c, digits) for c in allowed.cells)})" if len(allowed.cells) > 1
                    else holds(allowed.cells[0], digits) for digits in allowed.sets]
            one = f"(or {' '.join(each)})" if len(each) > 1 else (each[0] if each else "false")
            differ = f"(distinct {' '.join(names[c] for c in allowed.cells)}) " if len(allowed.cells) > 1 else ""
            out.append(f"(assert (and {differ}{one})) ; {allowed.name}")
        return tuple(out)

    @cached_property
    def assertions(self) -> tuple[str, ...]:
        return tuple(line for _, lines in self.sections for line in lines)

    @cached_property
    def text(self) -> str:
        """The declarations and assertions, without givens: what z3 parses once per rule set."""
        return "\n".join((*self.declarations, *self.assertions)) + "\n"

    def _sum_width(self, cells: int) -> int:
        return (self.n * cells).bit_length()

    def _sum(self, cells: tuple[int, ...]) -> str:
        names = [self.names[c] for c in cells]
        if self.theory == "int":
            return f"(+ {' '.join(names)})" if len(names) > 1 else names[0]
        extend = self._sum_width(len(cells)) - self.width
        terms = [f"((_ zero_extend {extend}) {name})" if extend else name for name in names]
        return f"(bvadd {' '.join(terms)})" if len(terms) > 1 else terms[0]

    def _total(self, total: int, cells: int) -> str:
        return self.value(total, None if self.theory == "int" else self._sum_width(cells))

    def _increasing(self, cells: tuple[int, ...]) -> str:
        names = [self.names[c] for c in cells]
        if self.theory == "int":
            return f"(< {' '.join(names)})"
        steps = [f"(bvult {a} {b})" for a, b in zip(names, names[1:])]
        return f"(and {' '.join(steps)})" if len(steps) > 1 else steps[0]

    def size(self, givens: int = 0) -> tuple[int, int]:
        """(constants, assertions), with ``givens`` given cells asserted too."""
        return len(self.names), len(self.assertions) + givens


def rules(what: Rules | Shape, theory: str = "int") -> SmtModel:
    """The model of a rule set (a ``Shape`` stands for its standard rules), built once per rule set and theory."""
    if theory not in THEORIES:
        raise UsageError(f"unknown theory '{theory}'; choose one of: {', '.join(THEORIES)}")
    return _model(standard(what) if isinstance(what, Shape) else what, theory)


@lru_cache(maxsize=CACHED)
def _model(rule_set: Rules, theory: str) -> SmtModel:
    return SmtModel(rule_set, theory)


def model_size(what: Rules | Shape, givens: int = 0) -> tuple[int, int]:
    """(constants, assertions) by formula: cells, and one assertion per cell, group, pair, cage,
    thermometer, given and lowered form (the same in both theories).

    >>> model_size(Shape(3, 3))
    (81, 108)
    """
    r = standard(what) if isinstance(what, Shape) else what
    cells = r.shape.cells
    forms = lower(r, NATIVE)
    lowered = len(forms.ruled_out) + len(forms.pairs) + len(forms.sets)
    return cells, (cells + len(r.groups) + sum(len(d.pairs) for d in r.differ) + len(r.cages) + len(r.thermos)
                   + lowered + givens)


def to_smtlib(puzzle: Puzzle, **options: Any) -> str:
    """The puzzle's model under its rules as an SMT-LIB 2 script, for ``sudokulab export --format smtlib``.

    Any SMT-LIB 2 solver reads it (``z3 model.smt2``, cvc5, ...): ``set-logic``, one ``declare-const``
    per cell, the assertions (each rule's name in a comment after it), the givens, then
    ``(check-sat)`` and ``(get-model)``. The option ``theory=bitvector`` writes bit-vector cells
    (``theory=int``, the default, integers). Comment lines at the top give the size.

    >>> text = to_smtlib(Puzzle.empty(4))
    >>> text.count("(declare-const "), text.count("(assert (distinct "), "(set-logic QF_LIA)" in text
    (16, 12, True)
    """
    unknown = sorted(set(options) - {"theory"})
    if unknown:
        raise UsageError(f"the smtlib format takes no option '{unknown[0]}'; its options: theory")
    theory = str(options.get("theory", "int")).strip().lower()
    if theory not in THEORIES:
        raise UsageError(f"option theory of the smtlib format cannot be '{theory}'; "
                         f"choose one of: {', '.join(THEORIES)}")
    model = rules(puzzle.rules, theory)
    givens = [model.given(cell, digit) for cell, digit in enumerate(puzzle.givens) if digit]
    constants, assertions = model.size(len(givens))
    about = str(puzzle.shape) if puzzle.rules.is_standard else puzzle.rules.describe()
    counts = ", ".join(f"{len(lines)} {kind}" for kind, lines in model.sections if lines)
    lines = [
        f"; sudokulab SMT model (SMT-LIB 2, theory {theory}): {about}, {len(givens)} givens",
        f"; {constants} constants, {assertions} assertions ({counts}, {len(givens)} givens)",
        f"(set-logic {model.logic})",
        *model.declarations,
        *model.assertions,
        *givens,
        "(check-sat)",
        "(get-model)",
    ]
    return "\n".join(lines) + "\n"
