"""Forcing chains: every way something can go leads to the same fact.

A **cell forcing chain** assumes each digit of an open cell in turn and follows singles
(``implications.Trial``); a fact that every branch reaches holds, since the cell holds one of them.
A **region forcing chain** does the same with the places of a digit in a complete group. A
**dynamic forcing chain** assumes one candidate true and then false: a fact both reach holds; or
assumes it true and reaches a contradiction, so it is struck (SE's dynamic contradiction, rated as
the other dynamic chains; ``refutation`` finds it, and the Nishio and nested chains the same way).
A cell or region forcing chain's branches may not break. The step prints each
branch's chain, and its premises are the board facts the branches read plus why the branches
cover every case (the cell's struck digits, the group's other cells).

Difficulties follow Sudoku Explainer (``Chaining.getDifficulty``: 8.0 for cell and region forcing
chains, 8.5 for dynamic ones) plus its length bonus over every node of every branch
(``chains.length_difficulty``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..core.cells import cell_label
from .board import Board, Premises, make_step
from .candidates import digits_of
from .chains import length_difficulty
from .implications import Trial
from .steps import ChainNode, Fact, Step, chain_text

Branch = tuple[int, int, bool]
"""An assumption: a cell, a digit, and whether the digit holds there."""

_cache: dict[tuple, Trial] = {}


def trial(board: Board, branch: Branch) -> Trial:
    """The branch followed to its end, kept while the board stays the same (forcing chains and
    contradictions assume the same candidates)."""
    key = (*board.key(), branch)
    found = _cache.get(key)
    if found is None:
        if len(_cache) > 4000:
            _cache.clear()
        found = Trial(board)
        found.assume(*branch)
        found.run()
        _cache[key] = found
    return found


def _consequences(t: Trial, board: Board) -> dict[tuple[int, int, bool], int]:
    """What a branch settles that the board does not: each fact with the event that gives it."""
    found = {}
    for (cell, digit), index in t.on.items():
        if not board.placed[cell]:
            found[(cell, digit, True)] = index
    for (cell, digit), index in t.off.items():
        if board.marks[cell] >> (digit - 1) & 1 and not board.placed[cell]:
            found[(cell, digit, False)] = index
    return found


Follow = Callable[[Board, Branch], Trial]
"""How a branch is followed: ``trial`` (singles), or a nested trial of some level (``nested``)."""

Size = Callable[[Trial, list[int]], int]
"""A traced chain's length as it counts for the length bonus (a nested chain adds its inner chains)."""


def _length(t: Trial, traced: list[int]) -> int:
    return len(traced)


def _common(board: Board, branches: Sequence[Branch], cover: Callable[[Premises], None], name: str,
            difficulty: float, source: str, follow: Follow = trial, size: Size = _length) -> tuple[int, Step] | None:
    """The shortest fact every branch reaches, as a step; with its total chain length."""
    trials = [follow(board, b) for b in branches]
    if any(t.broken is not None for t in trials):
        return None
    reached = [_consequences(t, board) for t in trials]
    shared = set(reached[0]).intersection(*reached[1:])
    for branch in branches:
        shared.discard(branch)
    if not shared:
        return None

    def cost(fact: tuple[int, int, bool]) -> tuple[int, bool, int, int]:
        total = sum(size(t, t.trace(r[fact])) for t, r in zip(trials, reached, strict=True))
        return total, not fact[2], fact[0], fact[1]

    fact = min(shared, key=cost)
    n = board.n
    why = Premises()
    cover(why)
    nodes: list[ChainNode] = []
    lines = []
    for t, r in zip(trials, reached, strict=True):
        traced = t.trace(r[fact])
        t.premises(traced, why)
        branch = t.chain(traced)
        lines.append(chain_text(tuple(branch), n))
        offset = len(nodes)
        nodes += [ChainNode(node.cells, node.digit, node.holds, node.why,
                            None if node.source is None else node.source + offset) for node in branch]
    conclusion = Fact(fact[0], fact[1], fact[2])
    placed = [(fact[0], fact[1])] if fact[2] else []
    removed = [] if fact[2] else [(fact[0], fact[1])]
    text = (f"{conclusion.label(n).replace('=', ' = ').replace('≠', ' ≠ ')}: {name} from {source}: "
            + " | ".join(lines))
    total = cost(fact)[0]
    step = make_step(name, round(difficulty + length_difficulty(total), 1), placed, removed, why, text, nodes)
    return total, step


def _best(found: list[tuple[int, Step] | None]) -> Step | None:
    steps = [f for f in found if f is not None]
    return min(steps, key=lambda f: f[0])[1] if steps else None


def _open_cells(board: Board) -> list[int]:
    return sorted((c for c in range(len(board.marks)) if not board.placed[c]),
                  key=lambda c: (board.marks[c].bit_count(), c))


def open_candidates(board: Board) -> list[tuple[int, int]]:
    """Every candidate of an open cell, cells with fewest candidates first (the likeliest to fail fast)."""
    return [(c, d) for c in _open_cells(board) for d in digits_of(board.marks[c])]


def assumed(n: int, cell: int, digit: int) -> str:
    return f"{cell_label(cell, n)} ≠ {digit}: assuming {cell_label(cell, n)} = {digit}"


def refutation(board: Board, attempt: Callable[[int, int], Trial],
               size: Callable[[Trial, list[int]], int] = lambda t, traced: len(traced),
               candidates: Sequence[tuple[int, int]] | None = None,
               ) -> tuple[int, int, int, Trial, list[int]] | None:
    """The candidate whose trial (``attempt``) breaks, in the cell of fewest digits where one does (the
    strike most likely to settle it), of smallest ``size``: (size, cell, digit, trial, traced events).
    ``candidates``: the ones to try, in ``open_candidates`` order (default: all)."""
    best: tuple[int, int, int, Trial, list[int]] | None = None
    for cell, digit in open_candidates(board) if candidates is None else candidates:
        if best is not None and board.marks[cell].bit_count() > board.marks[best[1]].bit_count():
            break
        t = attempt(cell, digit)
        if t.broken is None:
            continue
        traced = t.trace(t.broken)
        cost = size(t, traced)
        if best is None or cost < best[0]:
            best = (cost, cell, digit, t, traced)
    return best


def refutation_step(board: Board, name: str, difficulty: float, cell: int, digit: int, t: Trial, traced: list[int],
                    size: int, how: str = "") -> Step:
    """The step striking ``digit`` from ``cell`` because assuming it breaks trial ``t``: the traced
    chain printed (``how``: what follows the assumption, when more than singles), its board facts as
    premises, rated ``difficulty`` plus the length bonus of ``size``."""
    n = board.n
    why = Premises()
    t.premises(traced, why)
    chain = t.chain(traced)
    text = f"{assumed(n, cell, digit)}{how} leads to a contradiction: {chain_text(tuple(chain), n)}"
    return make_step(name, round(difficulty + length_difficulty(size), 1), [], [(cell, digit)], why, text, chain)


def cell_forcing_chain(board: Board, difficulty: float, name: str = "cell forcing chain", follow: Follow = trial,
                       size: Size = _length) -> Step | None:
    """Each digit of a cell, assumed in turn, leads by singles (or ``follow``) to the same fact."""
    n = board.n
    found = []
    for cell in _open_cells(board):
        digits = digits_of(board.marks[cell])
        if len(digits) < 2:
            continue

        def cover(why: Premises, cell: int = cell) -> None:
            for digit in range(1, n + 1):
                if not board.marks[cell] >> (digit - 1) & 1:
                    why.why_not(board, cell, digit)

        source = f"{cell_label(cell, n)} {{{', '.join(map(str, digits))}}}"
        found.append(_common(board, [(cell, d, True) for d in digits], cover, name, difficulty, source, follow, size))
    return _best(found)


def region_forcing_chain(board: Board, difficulty: float, name: str = "region forcing chain", follow: Follow = trial,
                         size: Size = _length) -> Step | None:
    """Each place of a digit in a complete group, assumed in turn, leads by singles (or ``follow``) to
    the same fact."""
    found = []
    for group, digit, places in board.digit_places():
        if len(places) < 2:
            continue

        def cover(why: Premises, group=group, digit=digit, places=places) -> None:
            why.name(group.name)
            for other in group.cells:
                if other not in places:
                    why.why_not(board, other, digit)

        found.append(_common(board, [(c, digit, True) for c in places], cover, name, difficulty,
                             f"the places of {digit} in {group.name}", follow, size))
    return _best(found)


def dynamic_forcing_chain(board: Board, difficulty: float, contradiction_first: bool = False) -> Step | None:
    """A candidate assumed true, then false, leads by singles to the same fact either way; or assumed
    true, to a contradiction (Sudoku Explainer's dynamic contradiction: the same technique, one branch).
    The shortest of them all; with ``contradiction_first``, a contradiction wherever there is one (inside
    a nested trial, where following every candidate both ways at every point cost minutes)."""
    n = board.n
    found: list[tuple[int, Step] | None] = []
    broken = refutation(board, lambda cell, digit: trial(board, (cell, digit, True)))
    if broken is not None:
        size, cell, digit, t, traced = broken
        found.append((size, refutation_step(board, "dynamic forcing chain", difficulty, cell, digit, t, traced, size)))
        if contradiction_first:
            return found[0][1]
    for cell in _open_cells(board):
        for digit in digits_of(board.marks[cell]):
            found.append(_common(board, [(cell, digit, True), (cell, digit, False)], lambda why: None,
                                 "dynamic forcing chain", difficulty, f"{cell_label(cell, n)}={digit} either way"))
    return _best(found)
