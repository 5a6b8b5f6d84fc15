"""The at-most-one encodings of the SAT model shown: clauses, auxiliary variables, sizes, sources.

``solvers.sat.cnf`` passes every at-most-one (AMO) encoding by name (``-o amo=seqcounter``); this
module shows what a name stands for, over k literals x1..xk, so a lesson can print it: the clauses
in readable form (``¬x1 ∨ s1``), each auxiliary variable and what it means, the clause and variable
counts beside their closed form (where one exists), and the paper the encoding comes from. It uses
the clauses the model itself uses (``cnf_encodings.at_most_one``), so what is shown is what is
solved, and an auxiliary's meaning is computed by asking a SAT engine, not taken on trust.
``model_sizes`` gives the whole Sudoku model of a board per (encoding, AMO) pair, side by side;
``size`` one encoding's counts without the meanings (for tables over many k).

Each encoding shown, and how a meaning is computed: docs/encodings.md.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from ...errors import UsageError
from . import cnf
from .encodings import AMO_ENCODINGS, amo_cost, at_most_one
from .size import counts

MAX_LITERALS = 32
"""The largest k shown: beyond it the clause list is no lesson (and the networks run to thousands)."""


@dataclass(frozen=True)
class Source:
    """Where an encoding comes from, as ``pysat.card`` and the papers cite it."""

    name: str
    paper: str
    prefix: str
    """The letter of its auxiliary variables in the readable clauses."""


SOURCES: dict[str, Source] = {
    "pairwise": Source("pairwise (binomial, direct)",
                       "folklore; e.g. S. D. Prestwich, \"CNF Encodings\", Handbook of Satisfiability, 2009", "a"),
    "seqcounter": Source("sequential counter",
                         "C. Sinz, \"Towards an Optimal CNF Encoding of Boolean Cardinality Constraints\", CP 2005",
                         "s"),
    "ladder": Source("ladder (regular)",
                     "I. P. Gent and P. Nightingale, \"A New Encoding of AllDifferent into SAT\", ModRef 2004; "
                     "C. Ansótegui and F. Manyà, \"Mapping Problems with Finite-Domain Variables to Problems "
                     "with Boolean Variables\", SAT 2004", "y"),
    "bitwise": Source("bitwise (binary, logarithmic)",
                      "S. D. Prestwich, \"CNF Encodings\", Handbook of Satisfiability, 2009 (as pysat.card cites it)",
                      "b"),
    "totalizer": Source("totalizer",
                        "O. Bailleux and Y. Boufkhad, \"Efficient CNF Encoding of Boolean Cardinality "
                        "Constraints\", CP 2003", "t"),
    "mtotalizer": Source("modulo totalizer",
                         "T. Ogawa, Y. Liu, R. Hasegawa, M. Koshimura and H. Fujita, \"Modulo Based CNF Encoding "
                         "of Cardinality Constraints and Its Application to MaxSAT Solvers\", ICTAI 2013", "t"),
    "kmtotalizer": Source("modulo totalizer for k-cardinality",
                          "A. Morgado, A. Ignatiev and J. Marques-Silva, \"MSCG: Robust Core-Guided MaxSAT "
                          "Solving\", JSAT 9, 2015 (as pysat.card cites it)", "t"),
    "sortnetwrk": Source("sorting network",
                         "K. E. Batcher, \"Sorting Networks and Their Applications\", AFIPS 1968; as CNF: N. Eén "
                         "and N. Sörensson, \"Translating Pseudo-Boolean Constraints into SAT\", JSAT 2, 2006", "w"),
    "cardnetwrk": Source("cardinality network",
                         "R. Asín, R. Nieuwenhuis, A. Oliveras and E. Rodríguez-Carbonell, \"Cardinality Networks "
                         "and Their Applications\", SAT 2009 (and Constraints 16, 2011)", "w"),
}


def _totalizer_cost(k: int) -> tuple[int, int]:
    """pysat's totalizer of "at most one" over k >= 3 literals, by its tree: (clauses, auxiliaries).

    A node over a + b literals (a = k // 2 on the left) has a + b outputs (the unary count, not cut
    at the bound) and (a + 1)(b + 1) - 1 clauses "i from the left and j from the right imply
    output i + j"; a leaf is a literal. One unit clause more forbids output 2 of the root.
    """
    def node(size: int) -> tuple[int, int]:
        if size == 1:
            return 0, 0
        left, right = size // 2, size - size // 2
        (lc, lv), (rc, rv) = node(left), node(right)
        return lc + rc + (left + 1) * (right + 1) - 1, lv + rv + size

    clauses, aux = node(k)
    return clauses + 1, aux


@dataclass(frozen=True)
class Formula:
    """The closed form of an encoding's size over K literals (None where there is none here)."""

    clauses: str | None
    auxiliaries: str | None
    clauses_at_k: int | None
    auxiliaries_at_k: int | None
    note: str = ""


_CLOSED: dict[str, tuple[str, str, str]] = {
    "pairwise": ("K(K - 1)/2", "0", "one clause per pair, no new variable"),
    "seqcounter": ("3K - 4", "K - 1", "Sinz's sequential counter for at most 1: s_i says \"at least one of x1..xi\""),
    "ladder": ("4K", "K + 1",
               "pysat's ladder: K rungs y1..yK (\"none of x1..xi is true\") with K - 1 rung clauses, 3 clauses "
               "per literal channelling it, and one more variable with 2 clauses standing for \"no literal "
               "true\"; Gent & Nightingale's ladder over the K + 1 values of a variable that may be unset"),
    "bitwise": ("K·⌈log2 K⌉", "⌈log2 K⌉", "each literal implies the ⌈log2 K⌉ bits of its index"),
    "kmtotalizer": ("4K - 4", "2K - 2", "as pysat builds it for bound 1 (unit clauses included)"),
    "totalizer": ("(a + 1)(b + 1) - 1 per tree node over a + b literals, plus 1", "a + b per tree node",
                  "pysat's totalizer counts up to K at every node (not cut at the bound 1), so it is "
                  "quadratic at the root (the paper's bounds: O(K log K) variables, O(K²) clauses)"),
}


def formula(amo: str, k: int) -> Formula:
    """The closed form of an AMO encoding's size, and its value at k (k >= 3; below, pysat writes the
    one binary clause whatever the encoding)."""
    if amo in ("mtotalizer", "sortnetwrk", "cardnetwrk"):
        return Formula(None, None, None, None,
                       "no closed form given here: the count is pysat's, measured (the networks grow as "
                       "K log² K for sorting networks; the modulo totalizer depends on the split of K)")
    clauses_text, aux_text, note = _CLOSED[amo]
    if k < 3 and amo != "pairwise":
        return Formula(clauses_text, aux_text, 1, 0, "below 3 literals pysat writes the one binary clause")
    clauses, aux = _totalizer_cost(k) if amo == "totalizer" else amo_cost(amo, k)
    return Formula(clauses_text, aux_text, clauses, aux, note)


@dataclass(frozen=True)
class Auxiliary:
    """One auxiliary variable: its number, its readable name and what it means."""

    variable: int
    name: str
    meaning: str


@dataclass(frozen=True)
class EncodingShown:
    """An at-most-one (or exactly-one) encoding over x1..xk: what ``encoding show`` prints."""

    amo: str
    k: int
    exactly_one: bool
    clauses: tuple[tuple[int, ...], ...]
    readable: tuple[str, ...]
    auxiliaries: tuple[Auxiliary, ...]
    formula: Formula
    source: Source

    @property
    def clause_count(self) -> int:
        return len(self.clauses)

    @property
    def auxiliary_count(self) -> int:
        return len(self.auxiliaries)

    @property
    def matches_formula(self) -> bool | None:
        """Whether the clauses built have the closed form's size (None: no closed form)."""
        if self.formula.clauses_at_k is None:
            return None
        extra = 1 if self.exactly_one else 0
        return (self.clause_count, self.auxiliary_count) == (self.formula.clauses_at_k + extra,
                                                            self.formula.auxiliaries_at_k)

    def to_json(self) -> dict:
        return {
            "amo": self.amo, "name": self.source.name, "literals": self.k, "exactly_one": self.exactly_one,
            "source": self.source.paper,
            "clauses": [list(c) for c in self.clauses], "readable": list(self.readable),
            "auxiliaries": [{"variable": a.variable, "name": a.name, "meaning": a.meaning} for a in self.auxiliaries],
            "counts": {"clauses": self.clause_count, "auxiliaries": self.auxiliary_count,
                       "formula_clauses": self.formula.clauses, "formula_auxiliaries": self.formula.auxiliaries,
                       "formula_clauses_at_k": self.formula.clauses_at_k,
                       "formula_auxiliaries_at_k": self.formula.auxiliaries_at_k,
                       "exactly_one_extra_clauses": 1 if self.exactly_one else 0,
                       "matches_formula": self.matches_formula, "note": self.formula.note},
        }


def build(amo: str, k: int, exactly_one: bool = False) -> tuple[list[list[int]], int]:
    """The clauses over literals 1..k (auxiliaries from k + 1) and the top variable, as the model builds
    them: ``cnf_encodings.at_most_one``, with the at-least-one clause first for exactly-one (as ``cnf`` does)."""
    clauses, top = at_most_one(list(range(1, k + 1)), amo, k)
    return ([list(range(1, k + 1))] if exactly_one else []) + [list(c) for c in clauses], top


def size(amo: str, k: int, exactly_one: bool = False) -> tuple[int, int]:
    """(clauses, auxiliary variables) of the encoding over k literals as the model builds it, without
    the meanings (cheap: for tables over many k)."""
    check(amo, k)
    clauses, top = build(amo, k, exactly_one)
    return len(clauses), top - k


def check(amo: str, k: int) -> None:
    if amo not in AMO_ENCODINGS:
        raise UsageError(f"unknown at-most-one encoding '{amo}'; choose one of: {', '.join(AMO_ENCODINGS)}")
    if not 2 <= k <= MAX_LITERALS:
        raise UsageError(f"--literals must be between 2 and {MAX_LITERALS}, not {k}")


def show(amo: str, k: int, exactly_one: bool = False) -> EncodingShown:
    """An AMO (or exactly-one) encoding over k literals: clauses, auxiliaries with their meaning, sizes.

    >>> shown = show("seqcounter", 4)
    >>> shown.clause_count, shown.auxiliary_count, shown.formula.clauses, shown.formula.clauses_at_k
    (8, 3, '3K - 4', 8)
    >>> shown.readable[0]
    '¬x1 ∨ s1'
    """
    check(amo, k)
    clauses, top = build(amo, k, exactly_one)
    source = SOURCES[amo]
    first = 0 if amo == "ladder" else 1  # the ladder's extra "no literal" variable comes first: y0
    names = {v: f"x{v}" for v in range(1, k + 1)} | {
        v: f"{source.prefix}{v - k - 1 + first}" for v in range(k + 1, top + 1)}
    readable = tuple(" ∨ ".join(("¬" if lit < 0 else "") + names[abs(lit)] for lit in clause) for clause in clauses)
    behaviour = _behaviour(clauses, k, top)
    auxiliaries = tuple(
        Auxiliary(v, names[v], _meaning(amo, k, v - k, top - k, behaviour[v])) for v in range(k + 1, top + 1)
    )
    return EncodingShown(amo, k, exactly_one, tuple(map(tuple, clauses)), readable, auxiliaries, formula(amo, k),
                         source)


# --- What an auxiliary variable means, asked of a SAT engine. ----------------------------------------

State = int
"""A state of the literals: 0 for "none true", i for "x_i alone true"."""


def _behaviour(clauses: list[list[int]], k: int, top: int) -> dict[int, dict[State, str]]:
    """For each auxiliary and each possible state: "T" (must be true), "F" (must be false), "*" (either)."""
    from pysat.solvers import Solver

    from ..pysat_guard import guarded

    found: dict[int, dict[State, str]] = {v: {} for v in range(k + 1, top + 1)}
    with guarded(Solver(name="minisat22", bootstrap_with=clauses)) as engine:
        for state in range(k + 1):
            units = [v if v == state else -v for v in range(1, k + 1)]
            if not engine.solve(assumptions=units):
                continue  # impossible state (none true, under exactly-one)
            for v in found:
                can_true, can_false = engine.solve(assumptions=units + [v]), engine.solve(assumptions=units + [-v])
                found[v][state] = "*" if can_true and can_false else "T" if can_true else "F"
    return found


def _span(indices: Sequence[int]) -> str:
    """Literal indices as ranges: [1, 2, 3, 5] -> "x1..x3, x5"."""
    parts = []
    for _, run in itertools.groupby(enumerate(indices), lambda pair: pair[1] - pair[0]):
        values = [value for _, value in run]
        parts.append(f"x{values[0]}" if len(values) == 1 else
                     f"x{values[0]}, x{values[1]}" if len(values) == 2 else f"x{values[0]}..x{values[-1]}")
    return ", ".join(parts)


def _states(states: list[State], k: int) -> str:
    """A set of states in words: "one of x1..x3 is", "none is", "x2 is"."""
    literals = [s for s in states if s]
    said = []
    if literals:
        said.append(f"x{literals[0]} is" if len(literals) == 1 else f"one of {_span(literals)} is")
    if 0 in states:
        said.append("none is")
    return " or ".join(said)


def behaviour_words(behaviour: dict[State, str], k: int) -> str:
    """What the engine found in words: "true when ...; false when ...; either when ..."."""
    values = set(behaviour.values())
    if not behaviour:
        return "no state of the literals is possible"
    if values == {"T"}:
        return "always true"
    if values == {"F"}:
        return "always false"
    if values == {"*"}:
        return "not tied to the literals (either value in every state)"
    parts = []
    for mark, word in (("T", "true"), ("F", "false"), ("*", "either")):
        states = [s for s in sorted(behaviour) if behaviour[s] == mark]
        if states:
            parts.append(f"{word} when {_states(states, k)}")
    return "; ".join(parts)


def _role(amo: str, k: int, index: int, count: int) -> str:
    """The paper's name for the index-th auxiliary (1-based, of ``count``), where its position says
    which; the behaviour found by the engine is shown beside it, so a wrong name would show."""
    if amo == "seqcounter":
        which = "x1 is" if index == 1 else f"at least one of {_span(list(range(1, index + 1)))} is"
        return f"register s{index}: {which} true (Sinz's s_{index})"
    if amo == "ladder":
        if index == 1:
            return "no literal is true (the extra value of the ladder)"
        rung = index - 1
        which = "x1 is" if rung == 1 else f"none of {_span(list(range(1, rung + 1)))} is"
        return f"rung y{rung}: {which} true" if rung > 1 else "rung y1: x1 is not true"
    if amo == "bitwise":
        return f"bit {count - index} of the 0-based index of the true literal"
    if amo in ("sortnetwrk", "cardnetwrk"):
        return "a wire of the network (a comparator's output)"
    if amo in ("totalizer", "mtotalizer", "kmtotalizer"):
        return "a counter output of a tree node"
    return ""


def _meaning(amo: str, k: int, index: int, count: int, behaviour: dict[State, str]) -> str:
    role = _role(amo, k, index, count)
    found = behaviour_words(behaviour, k)
    return f"{role} [{found}]" if role else found


# --- Models over the literals (for the tests and the grader). -----------------------------------

def projected_models(clauses: Sequence[Sequence[int]], k: int, limit: int = 10_000) -> set[tuple[int, ...]]:
    """The assignments of x1..xk that extend to a model (auxiliaries projected out), as 0/1 tuples."""
    from pysat.solvers import Solver

    from ..pysat_guard import guarded

    found: set[tuple[int, ...]] = set()
    with guarded(Solver(name="minisat22", bootstrap_with=[list(c) for c in clauses])) as engine:
        while len(found) < limit and engine.solve():
            model = engine.get_model()
            values = tuple(1 if v <= len(model) and model[v - 1] > 0 else 0 for v in range(1, k + 1))
            found.add(values)
            engine.add_clause([-v if bit else v for v, bit in zip(range(1, k + 1), values)])
    return found


# --- The whole Sudoku model per encoding choice. ---------------------------------------------------

@dataclass(frozen=True)
class ModelSize:
    """One (encoding, AMO) model of the empty n x n board: built sizes and the closed form's."""

    encoding: str
    amo: str
    variables: int
    clauses: int
    closed_form: tuple[int, int]
    """``cnf_size.counts``: (variables, clauses) from the closed forms, nothing built."""


MODEL_ENCODINGS = ("minimal", "efficient", "extended")
"""The givens-free encodings; ``reduced`` depends on the givens (on an empty board it is ``extended``)."""


@cache
def model_sizes(size: int) -> tuple[ModelSize, ...]:
    """Every (encoding, AMO) model of the empty size x size board, built, with its closed-form size."""
    from ...core.grid import Shape
    from ...core.rules import standard

    if size not in (4, 9):
        raise UsageError(f"--size must be 4 or 9 (the boards a lesson shows), not {size}")
    shape = Shape.of_size(size)
    rows = []
    for amo in AMO_ENCODINGS:
        for encoding in MODEL_ENCODINGS:
            built = cnf.build_formula(standard(shape), encoding, amo)
            rows.append(ModelSize(encoding, amo, built.variables, len(built.clauses), counts(size, encoding, amo)))
    return tuple(rows)


# --- Documents (the text is the command's: cli/commands/encoding.py). ----------------------------

def sizes_json(size: int, rows: Sequence[ModelSize]) -> dict:
    return {"size": size, "rows": [
        {"encoding": r.encoding, "amo": r.amo, "variables": r.variables, "clauses": r.clauses,
         "closed_form_variables": r.closed_form[0], "closed_form_clauses": r.closed_form[1]} for r in rows]}
