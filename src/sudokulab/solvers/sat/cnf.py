"""The CNF encodings of a puzzle's rules: clauses only, no solver.

One variable per (cell, digit), from the one map ``core.variables``; auxiliary variables after them
from one counter (``_Pool``). Encodings ``minimal``, ``efficient`` and ``extended`` (I. Lynce and J.
Ouaknine, "Sudoku as a SAT Problem", ISAIM 2006) and ``reduced`` (G. Kwon and H. Jain, "Optimized
CNF Encoding for Sudoku Puzzles", LPAR 2006); at-most-one pairwise or by any ``pysat.card``
encoding; anti-knight/king pairs, thermometers and killer cages (allowed digit sets) clause by
clause, other kinds through the shared lowering. Kept apart from the solver so a lesson can print
the clauses without an engine. Neighbours: ``encodings`` (names, at-most-one), ``size`` (how big,
before building), ``literals`` (tables, models read back), ``dimacs`` (text in and out).

Each encoding, each kind's clauses and why the allowed-set encoding of sums: docs/sat.md.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from ...core import variables
from ...core.grid import Grid, Shape
from ...core.puzzle import Puzzle
from ...core.rules import Cage, Rules, Thermo, standard
from ...errors import UsageError
from ..base import Deadline
from ..building import Kept
from ..lowering import Lowered, lower
from .encodings import NATIVE, Clause, amo_cost, at_most_one, check_options
from .literals import grid_from_model, literal_table
from .size import cage_combinations, reduced_group_sizes

# --- The literal map (``core.variables``) in (row, col) words. ---------------------------------

def literal(n: int, row: int, col: int, digit: int) -> int:
    """The variable true when the cell at 0-based (row, col) holds ``digit`` (1..n): ``variables.literal``.

    >>> literal(9, 0, 0, 1), literal(9, 0, 1, 1), literal(9, 8, 8, 9)
    (1, 10, 729)
    """
    return variables.literal(n, row * n + col, digit)


def decode_literal(n: int, lit: int) -> tuple[int, int, int]:
    """The (row, col, digit) a cell variable stands for; the inverse of ``literal``.

    >>> decode_literal(9, 10)
    (0, 1, 1)
    >>> decode_literal(9, literal(9, 8, 8, 9))
    (8, 8, 9)
    """
    if not 1 <= lit <= variables.count(n):
        raise ValueError(f"{lit} is not a cell variable of a {n}x{n} board (1..{n**3})")
    cell, digit = variables.cell_digit(n, lit - 1)
    row, col = divmod(cell, n)
    return row, col, digit


# --- Groups and at-most-one encodings (``cnf_encodings``). -----------------------------------------

class _Pool:
    """Where a formula's variables come from: the cells' (``core.variables``: 1..n**3), then every
    auxiliary variable from this one counter, as PySAT's ``IDPool`` hands out ids."""

    __slots__ = ("top",)

    def __init__(self, n: int):
        self.top = variables.count(n)

    def fresh(self) -> int:
        self.top += 1
        return self.top

    def at_most_one(self, lits: Sequence[int], amo: str) -> list[Clause]:
        clauses, self.top = at_most_one(lits, amo, self.top)
        return clauses


# --- The constraint kinds beyond all-different (docs/sat.md gives each encoding). -------

def differ_clauses(n: int, pairs: Sequence[tuple[int, int]]) -> list[Clause]:
    """Differing pairs: per pair and digit, (-a_d | -b_d): n clauses a pair."""
    lit = variables.literal
    return [[-lit(n, a, d), -lit(n, b, d)] for a, b in pairs for d in range(1, n + 1)]


def thermo_clauses(n: int, thermo: Thermo) -> list[Clause]:
    """A thermometer: the domain trimmed by position (L(L-1) units), then per consecutive cells
    (a, b) and digit d < n, (-a_d | b_{d+1} | ... | b_n): (L-1)(n-1) clauses."""
    lit = variables.literal
    cells = thermo.cells
    length = len(cells)
    clauses: list[Clause] = []
    for place, cell in enumerate(cells):
        low, high = place + 1, n - (length - 1 - place)
        clauses += [[-lit(n, cell, d)] for d in range(1, n + 1) if d < low or d > high]
    for a, b in zip(cells, cells[1:]):
        clauses += [[-lit(n, a, d)] + [lit(n, b, e) for e in range(d + 1, n + 1)] for d in range(1, n)]
    return clauses


def set_clauses(n: int, cells: Sequence[int], sets: Sequence[Sequence[int]], pool: _Pool, amo: str) -> list[Clause]:
    """The digits of ``cells`` form one of ``sets`` (docs/sat.md, "sum"): one selector per set,
    exactly one selector, a selector's digits all appear in the cells, and a cell's digit belongs to
    the chosen set. k cells and k digits that all appear: the cells hold exactly the chosen set.
    1 + AMO(m) + m*k + k*n clauses, m selectors (plus the AMO's)."""
    lit = variables.literal
    selectors = [pool.fresh() for _ in sets]
    clauses: list[Clause] = [list(selectors)]
    clauses += pool.at_most_one(selectors, amo)
    for selector, digits in zip(selectors, sets):
        clauses += [[-selector] + [lit(n, cell, d) for cell in cells] for d in digits]
    for cell in cells:
        for d in range(1, n + 1):
            clauses.append([-lit(n, cell, d)] + [s for s, digits in zip(selectors, sets) if d in digits])
    return clauses


def cage_clauses(n: int, cage: Cage, pool: _Pool, amo: str) -> list[Clause]:
    """A cage's sum by allowed combinations (docs/sat.md): ``set_clauses`` over the digit sets of
    its size summing to its total."""
    return set_clauses(n, cage.cells, cage_combinations(n, len(cage.cells), cage.total), pool, amo)


def form_clauses(n: int, forms: Lowered, pool: _Pool, amo: str) -> list[Clause]:
    """The lowering's forms (``solvers.lowering``): a unit (-x) per ruled-out placement, (-a_x | -b_y)
    per forbidden pair, ``set_clauses`` per allowed sets."""
    lit = variables.literal
    clauses: list[Clause] = [[-lit(n, cell, d)] for cell, d in forms.ruled_out]
    clauses += [[-lit(n, a, x), -lit(n, b, y)] for _, (a, x), (b, y) in forms.pairs]
    for allowed in forms.sets:
        clauses += set_clauses(n, allowed.cells, allowed.sets, pool, amo)
    return clauses


CageEncoder = Callable[[int, Cage, _Pool, str], list[Clause]]
"""How a cage's sum becomes clauses: ``cage_clauses`` here; ``benchmarks/sum_encodings.py`` passes others."""


def kind_clauses(rules: Rules, pool: _Pool, amo: str, cages: CageEncoder | None = None) -> list[Clause]:
    """The clauses of the differing pairs, thermometers and cage sums of a rule set, in that order, then
    the forms of every other kind (``form_clauses``)."""
    n = rules.n
    clauses = differ_clauses(n, rules.pairs)
    for thermo in rules.thermos:
        clauses += thermo_clauses(n, thermo)
    encode = cages or cage_clauses
    for cage in rules.cages:
        clauses += encode(n, cage, pool, amo)
    forms = lower(rules, NATIVE)
    if forms:
        clauses += form_clauses(n, forms, pool, amo)
    return clauses


# --- Formulas. ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Formula:
    """Clauses over the literal map plus auxiliary variables numbered from n**3 + 1 to ``top``.

    ``variables`` counts the variables that occur in some clause: ``top`` for the shape-wide
    encodings, fewer for ``reduced``, which leaves the decided cell variables out; its ``free``
    names the cell variables it keeps (None: all of them), the only ones a model may be read on.
    """

    rules: Rules
    encoding: str
    amo: str
    clauses: tuple[Sequence[int], ...]
    top: int
    variables: int
    free: frozenset[int] | None = None
    shape: Shape = field(init=False, repr=False, compare=False)
    """The rules' shape, kept as a field: solvers read it per puzzle."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "shape", self.rules.shape)

    @property
    def per_puzzle(self) -> bool:
        """True when the formula already holds one puzzle's givens (``reduced``): no assumptions."""
        return self.free is not None

    def assumptions(self, givens: Grid) -> list[int]:
        """The literals to assume for a puzzle's givens (none when the formula holds them)."""
        return [] if self.per_puzzle else literal_table(self.shape.n).assumptions(givens)

    def literal(self, cell: int, digit: int) -> int | None:
        """The literal of "cell holds digit", or None when the formula has decided it false."""
        n = self.shape.n
        lit = literal_table(n).given[cell * (n + 1) + digit]
        return lit if self.free is None or lit in self.free else None

    def decode(self, model: Sequence[int], givens: Grid) -> Grid:
        """The grid of a model of this formula (plus the givens' assumptions, if any)."""
        if self.free is None:
            grid = literal_table(self.shape.n).decode(model)
            if len(grid) == len(givens):
                return grid
        return grid_from_model(self.shape.n, model, givens, self.free)

    def blocking_clause(self, grid: Grid, givens: Grid) -> list[int]:
        """The clause that excludes this solution's digits in the blank cells (for counting)."""
        n = self.shape.n
        given = literal_table(n).given
        return [-given[cell * (n + 1) + grid[cell]] for cell, digit in enumerate(givens) if not digit]

    def settled_by(self, implied: Sequence[int]) -> bool:
        """Whether literals implied by propagation give every cell its digit (shape-wide formulas)."""
        cells = variables.count(self.shape.n)
        return sum(1 for lit in implied if 0 < lit <= cells) == self.shape.cells


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause the garbage collector: the 750,000 small lists of a 25x25 formula would otherwise set
    off collections that free nothing and cost twice the build itself."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _digit_groups(rules: Rules, groups: Sequence) -> list[list[int]]:
    """For each group and digit: the literals of that digit in the group's cells."""
    n = rules.n
    lit = variables.literal
    return [[lit(n, cell, d) for cell in group.cells] for group in groups for d in range(1, n + 1)]


def build_formula(rules_: Rules, encoding: str = "extended", amo: str = "pairwise",
                  cages: CageEncoder | None = None, deadline: Deadline | None = None) -> Formula:
    """The givens-free formula of a rule set, built now (``rules`` caches it; ``cages`` swaps the sum
    encoding, for ``benchmarks/sum_encodings.py``), under ``deadline`` when given (``TimeUp``)."""
    check_options(encoding, amo)
    if encoding == "reduced":
        raise UsageError("the reduced encoding depends on the givens: use reduced_formula(puzzle)")
    n = rules_.n
    lit = variables.literal
    cells = [[lit(n, cell, d) for d in range(1, n + 1)] for cell in range(n * n)]
    complete = _digit_groups(rules_, rules_.complete_groups)
    partial = _digit_groups(rules_, rules_.partial_groups)
    alo = cells + complete if encoding == "extended" else cells
    amo_groups = (complete if encoding == "minimal" else cells + complete) + partial
    pool = _Pool(n)
    clauses: list[Sequence[int]] = list(alo)
    with _collector_paused():
        for i, group in enumerate(amo_groups):
            if deadline is not None and not i & 255:
                deadline.check()
            clauses += pool.at_most_one(group, amo)
        clauses += kind_clauses(rules_, pool, amo, cages)
    return Formula(rules_, encoding, amo, tuple(clauses), pool.top, pool.top)


_FORMULAS: Kept[Formula] = Kept(64)


def rules(what: Shape | Rules, encoding: str = "extended", amo: str = "pairwise",
          deadline: Deadline | None = None) -> Formula:
    """The rules of a puzzle in one of the givens-free encodings (a shape means standard Sudoku);
    built once per (Rules, encoding, amo), the last 64 kept; under ``deadline`` when given (a build
    cut short is not kept: ``solvers.building``).

    Its size is the one ``size.counts`` computes without building (Lynce and Ouaknine's 11,988
    clauses for the 9x9 ``extended``):

    >>> from sudokulab.core.grid import Shape
    >>> from sudokulab.solvers.sat.size import counts
    >>> f = rules(Shape(3, 3), "extended")
    >>> f.variables, len(f.clauses), counts(9, "extended")
    (729, 11988, (729, 11988))
    """
    rules_ = standard(what) if isinstance(what, Shape) else what
    return _FORMULAS.get((rules_, encoding, amo), lambda: build_formula(rules_, encoding, amo, deadline=deadline))


def _free_literals(puzzle: Puzzle, deadline: Deadline | None = None) -> list[list[int]]:
    """Per cell, the digits the givens leave it: none for a given cell; otherwise those no peer
    (group mate or differing partner) is given."""
    givens = puzzle.givens
    n = puzzle.n
    everything = set(range(1, n + 1))
    found = []
    for cell, peers in enumerate(puzzle.rules.peers):
        if deadline is not None and not cell & 255:
            deadline.check()
        if givens[cell]:
            found.append([])
            continue
        taken = {givens[peer] for peer in peers}
        found.append(sorted(everything - taken))
    return found


def candidate_groups(puzzle: Puzzle, deadline: Deadline | None = None
                     ) -> tuple[list[list[int]], list[list[int]]] | None:
    """The groups of the reduced encoding, (exactly-one groups, at-most-one-only groups), or None
    when the givens break a rule.

    A literal is decided by the givens when its cell is given (true for the given digit, false for
    the others) or a peer is given its digit (false). What is left: for each blank cell, its
    candidate digits; for each complete group and digit not given in it, the cells that may take
    the digit (exactly one); for each partial group and digit not given in it, the same (at most one).
    """
    rules_ = puzzle.rules
    if rules_.first_conflict(puzzle.givens) is not None:
        return None
    n, givens = puzzle.n, puzzle.givens
    lit = variables.literal
    free = [set(digits) for digits in _free_literals(puzzle, deadline)]
    exactly = [[lit(n, cell, d) for d in sorted(free[cell])] for cell in range(n * n) if not givens[cell]]
    at_most: list[list[int]] = []
    for groups, target in ((rules_.complete_groups, exactly), (rules_.partial_groups, at_most)):
        for i, group in enumerate(groups):
            if deadline is not None and not i & 15:
                deadline.check()
            placed = {givens[cell] for cell in group.cells}
            target += [[lit(n, cell, d) for cell in group.cells if d in free[cell]]
                       for d in range(1, n + 1) if d not in placed]
    return exactly, at_most


def _substituted(clauses: Sequence[Sequence[int]], true: set[int], free: frozenset[int], top: int
                 ) -> list[Clause]:
    """Clauses with the decided cell literals substituted: a clause a decided literal satisfies is
    dropped, a decided-false literal is left out (Kwon & Jain's reduction, for any clause)."""
    found = []
    for clause in clauses:
        kept: list[int] = []
        for lit in clause:
            var = abs(lit)
            if var > top or var in free:
                kept.append(lit)
            elif (lit > 0) == (var in true):
                break  # satisfied
        else:
            found.append(kept)
    return found


def reduced_formula(puzzle: Puzzle, amo: str = "pairwise", deadline: Deadline | None = None) -> Formula:
    """The Kwon & Jain reduced encoding of one puzzle: the extended encoding minus what the givens decide.

    Every exactly-one group left gets one ALO clause and an AMO, a partial group's an AMO (an empty
    exactly-one group is the empty clause: no solution); the other kinds' clauses are built whole
    and the decided literals substituted. Givens that break a rule give the formula of one empty
    clause. Given cells have no variable in any clause, so decode with their givens (``grid_from_model``).
    """
    check_options("reduced", amo)
    groups = candidate_groups(puzzle, deadline)
    rules_ = puzzle.rules
    n = puzzle.n
    if groups is None:
        return Formula(rules_, "reduced", amo, ((),), variables.count(n), 0, frozenset())
    exactly, at_most = groups
    pool = _Pool(n)
    clauses: list[Sequence[int]] = list(exactly)
    free = frozenset(lit for group in exactly[: puzzle.blanks] for lit in group)
    with _collector_paused():
        for i, group in enumerate(exactly + at_most):
            if deadline is not None and not i & 255:
                deadline.check()
            clauses += pool.at_most_one(group, amo)
        if not rules_.is_standard:
            true = set(literal_table(n).assumptions(puzzle.givens))
            clauses += _substituted(kind_clauses(rules_, pool, amo), true, free, variables.count(n))
    return Formula(rules_, "reduced", amo, tuple(clauses), pool.top, len(free) + pool.top - variables.count(n), free)


def formula(puzzle: Puzzle, encoding: str = "extended", amo: str = "pairwise",
            deadline: Deadline | None = None) -> tuple[Formula, list[int]]:
    """The formula for a puzzle and the givens' literals to assume (none for ``reduced``), built under
    ``deadline`` when given."""
    if encoding == "reduced":
        return reduced_formula(puzzle, amo, deadline), []
    return rules(puzzle.rules, encoding, amo, deadline), literal_table(puzzle.n).assumptions(puzzle.givens)


def reduced_counts(puzzle: Puzzle, amo: str = "pairwise") -> tuple[int, int]:
    """(variables occurring, clauses) of ``reduced_formula``: per group of k, one ALO and an AMO of k,
    from the closed forms (``cnf_size``) for standard rules; other rules' measured from the built formula.
    """
    if not puzzle.rules.is_standard:
        built = reduced_formula(puzzle, amo)
        return built.variables, len(built.clauses)
    sizes = reduced_group_sizes(puzzle)
    if sizes is None:
        return 0, 1
    costs = [amo_cost(amo, k) for k in sizes]
    free = sum(sizes[: puzzle.blanks])  # each free literal is in exactly one cell group
    return free + sum(aux for _, aux in costs), len(sizes) + sum(clauses for clauses, _ in costs)
