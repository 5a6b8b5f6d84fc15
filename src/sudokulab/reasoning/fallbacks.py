"""The fallbacks where no pattern or chain applies: assume a candidate and see it fail.

"contradiction" is Sudoku Explainer's Nishio: it follows the assumed digit alone
(``implications.DigitTrial``: struck from the peers, hidden singles of that digit) until a group has
no place for it, and prints that chain, each implication with the group that forces it; its
premises are the board facts the chain reads. Among the candidates of the cells with fewest digits
that fail so, the one with the shortest chain is shown (``forcing.refutation``). A contradiction by
singles of every digit is a dynamic forcing chain (``forcing``), as in SE. "search", the last
resort, comes after the nested forcing chains (``nested``) and splits once
more: after the assumption and its singles, some cell must hold one of its few digits left, and
each of them, followed by singles, breaks (the case split is printed, branch by branch). Where no
such split of depth ``SPLIT_DEPTH`` shows it, SAT shows the assumption has no solution, with
everything known as premises. With these every puzzle with one solution gets a full explanation.
"""

from __future__ import annotations

from .board import Board, Premises, make_step
from .candidates import digits_of
from .forcing import assumed, open_candidates, refutation, refutation_step, trial
from .implications import DigitTrial, Trial
from .step_check import checker
from .steps import ChainNode, Fact, Step, chain_text

SPLIT_DEPTH = 2
"""How many nested case splits ``search`` tries before it falls back to a SAT verdict."""

SPLIT_CELLS = 6
"""How many of a trial's fewest-candidate cells ``search`` tries to split on, per level."""


def contradiction(board: Board, difficulty: float) -> Step | None:
    """Assuming a candidate and following its digit alone (Sudoku Explainer's Nishio: struck from the
    peers, hidden singles of that digit) leaves a group with no place for it: in the cell of fewest
    digits where one fails, the shortest chain."""
    found = refutation(board, lambda cell, digit: DigitTrial.following(board, cell, digit))
    if found is None:
        return None
    size, cell, digit, t, traced = found
    return refutation_step(board, "contradiction", difficulty, cell, digit, t, traced, size,
                           f", following {digit} alone,")


def _refute(t: Trial, depth: int, why: Premises) -> list[tuple[Trial, list[int], int]] | None:
    """How a trial breaks: its contradiction, or a case split on a cell of few digits each of whose
    branches breaks (to ``depth`` splits); per branch its trial, its traced events and where it
    split from (the number of events before the branch's assumption)."""
    if t.broken is not None:
        return [(t, t.trace(t.broken), 0)]
    if not depth:
        return None
    cells = sorted((c for c in range(len(t.marks)) if not t.placed[c] and t.marks[c].bit_count() >= 2),
                   key=lambda c: (t.marks[c].bit_count(), c))[:SPLIT_CELLS]
    for cell in cells:
        found: list[tuple[Trial, list[int], int]] = []
        for digit in digits_of(t.marks[cell]):
            branch = t.fork()
            start = len(branch.events)
            branch.assume(cell, digit)
            branch.run()
            failed = _refute(branch, depth - 1, why)
            if failed is None:
                break
            found += [(b, traced, max(start, split)) for b, traced, split in failed]
        else:
            covering = t.cover(cell, why)
            return [(t, t.trace(*covering) if covering else [], 0), *found]
    return None


def search(board: Board, difficulty: float) -> Step | None:
    """Assuming a candidate leaves no solution (the last resort): a small case split shows it, or
    else a SAT search."""
    n = board.n
    candidates = open_candidates(board)
    for depth in range(1, SPLIT_DEPTH + 1):
        for cell, digit in candidates:
            t = trial(board, (cell, digit, True))
            why = Premises()
            failed = _refute(t, depth, why)
            if failed is None:
                continue
            lines, nodes = [], []
            for b, traced, split in failed:
                b.premises(traced, why)
                shown = [i for i in traced if i >= split] if split else traced
                branch = b.chain(shown)
                offset = len(nodes)
                nodes += [ChainNode(x.cells, x.digit, x.holds, x.why, None if x.source is None else x.source + offset)
                          for x in branch]
                if branch:
                    lines.append(chain_text(tuple(branch), n))
            text = f"{assumed(n, cell, digit)}, a case split breaks every branch: " + " | ".join(lines)
            return make_step("search", difficulty, [], [(cell, digit)], why, text, nodes)
    check = checker(board.cands.puzzle.rules)
    facts = board.facts()
    for cell, digit in candidates:
        if check.refutes(facts, Fact(cell, digit, True)):
            why = Premises(*board.tables.names)
            for fact in facts:
                why.add(fact)
            text = f"{assumed(n, cell, digit)} leaves no solution (a SAT search shows it)"
            return make_step("search", difficulty, [], [(cell, digit)], why, text)
    return None
