"""Uniqueness techniques: unique rectangles (types 1 to 4) and BUG+1, for puzzles with one solution.

A *deadly pattern* is a set of open cells whose digits, if each kept only the pattern's digits,
could be swapped to give a second solution. A puzzle with one solution cannot end in one, so
whatever would complete the pattern is false. These steps do not follow from the rules alone: they
fire only when the puzzle has exactly one solution (``one_solution``, a SAT check with the first
solution blocked) and carry their pattern (``steps.Step.pattern``) so ``step_check`` certifies both
halves: the premises force the pattern unless the conclusion holds, and the puzzle's one solution
lies outside the pattern. ``unique_rectangle`` and ``bug_plus_one`` say what each pattern is.

Their ratings and where they apply: docs/explain.md.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from functools import lru_cache

from ..core.cells import cell_label
from ..core.puzzle import Puzzle
from ..core.rules import Rules
from .board import Board, Premises, cells_text, make_step, removed_text
from .candidates import digits_of
from .links import keep_marks, only_places, see_names, seeing_all
from .step_check import checker
from .steps import Fact, Step


@lru_cache(maxsize=64)
def one_solution(puzzle: Puzzle) -> bool:
    """True when the puzzle has exactly one solution: where uniqueness reasoning may be used."""
    givens = [Fact(cell, digit, True) for cell, digit in enumerate(puzzle.givens) if digit]
    return checker(puzzle.rules).solutions(givens) == 1


@lru_cache(maxsize=4096)
def _swappable(rules: Rules, corners: tuple[int, int, int, int]) -> bool:
    """True when swapping two digits over the rectangle keeps every rule: each constraint meets it in
    no cell, in two cells of one row or column (which hold different digits), or in all four."""
    n = rules.n
    inside = set(corners)

    def adjacent(a: int, b: int) -> bool:
        return a // n == b // n or a % n == b % n

    for group in rules.groups:
        met = [c for c in group.cells if c in inside]
        if len(met) == 1 or len(met) == 3 or (len(met) == 2 and not adjacent(*met)):
            return False
    for a, b in rules.pairs:
        if (a in inside) != (b in inside):
            return False
    return not any(inside & set(cage.cells) for cage in rules.cages) and not any(
        inside & set(thermo.cells) for thermo in rules.thermos)


def _rectangles(board: Board):
    """Every rectangle of four open cells sharing two digits, with the shared digits' mask."""
    n = board.n
    marks, placed = board.marks, board.placed
    rules = board.cands.puzzle.rules
    for r1, r2 in itertools.combinations(range(n), 2):
        for c1, c2 in itertools.combinations(range(n), 2):
            corners = (r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2)
            if any(placed[c] for c in corners):
                continue
            common = marks[corners[0]] & marks[corners[1]] & marks[corners[2]] & marks[corners[3]]
            if common.bit_count() < 2 or not _swappable(rules, corners):
                continue
            for a, b in itertools.combinations(digits_of(common), 2):
                yield corners, (1 << (a - 1)) | (1 << (b - 1))


def unique_rectangle(board: Board, difficulty: float) -> Step | None:
    """The first unique rectangle of types 1, 2, 4, 3 (types 1, 2 and 4 at ``difficulty``; type 3
    adds 0.1 per digit of its naked subset beyond one, as Sudoku Explainer does).

    Four open cells on two rows and two columns, all with digits {a, b}, such that swapping a and b
    keeps every rule: each group (and differing pair, cage, thermometer) meets the rectangle in no
    cell, in two cells of one row or column, or in all four (on standard rules: the rectangle lies
    in two boxes). Type 1: three corners are {a, b}, the fourth loses a and b. Type 2: the other two
    corners are {a, b, x}; x leaves the cells that see both. Type 3: the other two share a group and
    their extra digits make a naked subset there with other cells. Type 4: the other two share a
    group where a has no other place; b leaves them.
    """
    if not one_solution(board.cands.puzzle):
        return None
    found = None
    for corners, pair in _rectangles(board):
        found = _type_1(board, difficulty, corners, pair) or _type_2(board, difficulty, corners, pair) or \
            _type_4(board, difficulty, corners, pair)
        if found is not None:
            return found
    for corners, pair in _rectangles(board):
        found = _type_3(board, difficulty, corners, pair)
        if found is not None:
            return found
    return None


def _pattern(corners, pair: int) -> tuple[tuple[int, int], ...]:
    return tuple((c, pair) for c in corners)


def _name(board: Board, corners, pair: int) -> str:
    a, b = digits_of(pair)
    return f"{{{a}, {b}}} in {cells_text(corners, board.n)}"


def _split(board: Board, corners, pair: int) -> tuple[list[int], list[int]]:
    exact = [c for c in corners if board.marks[c] == pair]
    extra = [c for c in corners if board.marks[c] != pair]
    return exact, extra


def _type_1(board: Board, difficulty: float, corners, pair: int) -> Step | None:
    exact, extra = _split(board, corners, pair)
    if len(extra) != 1:
        return None
    (cell,) = extra
    why = Premises()
    for corner in exact:
        keep_marks(why, board, corner)
    for a, b in itertools.combinations(corners, 2):
        why.name(board.tables.link(a, b))
    removed = [(cell, d) for d in digits_of(pair)]
    text = (f"{removed_text(removed, board.n)}: unique rectangle type 1 {_name(board, corners, pair)}: "
            f"with {cell_label(cell, board.n)} kept to them, the digits could be swapped (two solutions)")
    return _step("unique rectangle", difficulty, removed, why, text, corners, pair)


def _step(name: str, difficulty: float, removed, why: Premises, text: str, corners, pair: int) -> Step:
    return replace(make_step(name, difficulty, [], removed, why, text), pattern=_pattern(corners, pair))


def _type_2(board: Board, difficulty: float, corners, pair: int) -> Step | None:
    exact, extra = _split(board, corners, pair)
    if len(extra) != 2 or board.marks[extra[0]] != board.marks[extra[1]]:
        return None
    if (board.marks[extra[0]] & ~pair).bit_count() != 1:
        return None
    x = (board.marks[extra[0]] & ~pair).bit_length()
    targets = [t for t in seeing_all(board, x, extra) if t not in corners]
    if not targets:
        return None
    why = Premises()
    for corner in corners:
        keep_marks(why, board, corner)
    for a, b in itertools.combinations(corners, 2):
        why.name(board.tables.link(a, b))
    for target in targets:
        see_names(why, board, target, extra)
    removed = [(t, x) for t in targets]
    text = (f"{removed_text(removed, board.n)}: unique rectangle type 2 {_name(board, corners, pair)}: "
            f"{cells_text(extra, board.n)} cannot both lose {x} (two solutions), so one holds it")
    return _step("unique rectangle", difficulty, removed, why, text, corners, pair)


def _shared_groups(board: Board, cells):
    return [g for g in board.tables.complete if all(c in board.tables.cell_sets[g.name] for c in cells)]


def _type_4(board: Board, difficulty: float, corners, pair: int) -> Step | None:
    exact, extra = _split(board, corners, pair)
    if len(extra) != 2:
        return None
    for group in _shared_groups(board, extra):
        for keep in digits_of(pair):
            if sorted(board.places(group, keep)) != sorted(extra):
                continue
            other = (pair & ~(1 << (keep - 1))).bit_length()
            why = Premises()
            for corner in exact:
                keep_marks(why, board, corner)
            only_places(why, board, group, keep, extra)
            for a, b in itertools.combinations(corners, 2):
                why.name(board.tables.link(a, b))
            removed = [(c, other) for c in extra]
            text = (f"{removed_text(removed, board.n)}: unique rectangle type 4 {_name(board, corners, pair)}: "
                    f"{keep} must go in {cells_text(extra, board.n)} ({group.name}), so {other} there would "
                    f"complete the pattern")
            return _step("unique rectangle", difficulty, removed, why, text, corners, pair)
    return None


def _type_3(board: Board, difficulty: float, corners, pair: int) -> Step | None:
    n = board.n
    exact, extra = _split(board, corners, pair)
    if len(extra) != 2:
        return None
    extras = (board.marks[extra[0]] | board.marks[extra[1]]) & ~pair
    for group in _shared_groups(board, extra):
        others = [c for c in board.open_cells(group) if c not in extra]
        for size in range(1, 4):
            for cells in itertools.combinations(others, size):
                union = extras
                for cell in cells:
                    union |= board.marks[cell]
                if union.bit_count() != size + 1:
                    continue
                removed = [(c, d) for c in others if c not in cells for d in digits_of(board.marks[c] & union)]
                if not removed:
                    continue
                why = Premises(group.name)
                for corner in corners:
                    keep_marks(why, board, corner)
                for cell in cells:
                    keep_marks(why, board, cell)
                for a, b in itertools.combinations(corners, 2):
                    why.name(board.tables.link(a, b))
                digits = ", ".join(map(str, digits_of(union)))
                text = (f"{removed_text(removed, n)}: unique rectangle type 3 {_name(board, corners, pair)}: "
                        f"one of {cells_text(extra, n)} holds another digit, so with {cells_text(cells, n)} "
                        f"they make a naked subset {{{digits}}} in {group.name}")
                return _step("unique rectangle", round(difficulty + 0.1 * size, 1), removed, why, text, corners, pair)
    return None


def bug_plus_one(board: Board, difficulty: float) -> Step | None:
    """Every open cell has two digits but one with three, and each digit two places per group but
    the cell's one digit with three in its groups: that digit goes there (standard rules, where a
    bivalue universal grave is known to have no solution or at least two)."""
    puzzle = board.cands.puzzle
    if not puzzle.rules.is_standard:
        return None
    n = board.n
    open_cells = [c for c in range(n * n) if not board.placed[c]]
    big = [c for c in open_cells if board.marks[c].bit_count() != 2]
    if len(big) != 1 or board.marks[big[0]].bit_count() != 3:
        return None
    (cell,) = big
    chosen = None
    for group in board.tables.complete:
        for digit in range(1, n + 1):
            count = len(board.places(group, digit))
            if count in (0, 2):
                continue
            if count != 3 or cell not in group.cells or chosen not in (None, digit):
                return None
            chosen = digit
    if chosen is None or not one_solution(puzzle):
        return None
    why = Premises()
    for other in open_cells:
        keep_marks(why, board, other)
    pattern = tuple((c, board.marks[c] & ~(1 << (chosen - 1)) if c == cell else board.marks[c]) for c in open_cells)
    text = (f"{cell_label(cell, n)} = {chosen}: BUG+1: every other open cell has two digits and every digit "
            f"two places per group, so without {chosen} here the grid would have no solution or two")
    return replace(make_step("BUG+1", difficulty, [(cell, chosen)], [], why, text), pattern=pattern)
