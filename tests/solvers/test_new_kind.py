"""Rule kinds added by a test: registered as docs/rules.md says, honoured by every paradigm through the
lowering, removed after.

The fixture ``added`` registers two kinds the package does not know, each a frozen dataclass that
checks itself (``broken``) and a lowering (``solvers.lowering.register``), and takes both out again:

- ``whisper``: a line of cells, each a neighbour of the one before, along which neighbouring digits
  differ by at least ``gap`` (German whispers: gap 5 on 9x9). Lowered to forbidden pairs, and the
  digits with no partner at all ruled out (5 on a 9x9 whisper).
- ``parity``: cells whose digits differ and are all odd or all even. Lowered to allowed sets.

No paradigm states them natively and no solver module is edited for them. Every registered solver must
then honour them (lower case in ``sudokulab solvers``), answer puzzles that use them with grids the
checker accepts (it reads each constraint's own ``broken``, never the lowering), count them as the
brute force does on 4x4 boards and give the smallest solution as its canonical answer; and keep the
rules contract (``test_rules_contract.solves_or_refuses`` against its independent reference search)
and the solver contract (``contract.run``, what check-solver runs) with them registered.
"""

from __future__ import annotations

import json
import random
import sys
from dataclasses import dataclass, replace
from itertools import combinations

import pytest

from sudokulab import Puzzle, Shape, Status, is_solution, solution_error, solvers
from sudokulab.core.cells import cell_words
from sudokulab.core.grid import Grid
from sudokulab.core.rules import KINDS, Kind, Rules, kind_table, standard
from sudokulab.grading import contract
from sudokulab.solvers import lowering
from sudokulab.solvers.lowering import AllowedSets, Lowered

from ..conftest import FIXTURES, brute_force, run_cli
from .test_rules_contract import LIMIT, reference_solutions, solves_or_refuses

FAKE_SAT = FIXTURES / "programs" / "fake_sat.py"
WHISPER, PARITY = "whisper", "parity"


@dataclass(frozen=True)
class Whisper:
    """Neighbouring digits along ``cells`` differ by at least ``gap``."""

    name: str
    cells: tuple[int, ...]
    gap: int
    kind: str = WHISPER

    def broken(self, grid: Grid, n: int) -> str | None:
        for a, b in zip(self.cells, self.cells[1:]):
            if grid[a] and grid[b] and abs(grid[a] - grid[b]) < self.gap:
                return f"{self.name}: {cell_words(a, n)} holds {grid[a]}, {cell_words(b, n)} holds {grid[b]}"
        return None


@dataclass(frozen=True)
class Parity:
    """The digits of ``cells`` differ and are all odd or all even."""

    name: str
    cells: tuple[int, ...]
    kind: str = PARITY

    def broken(self, grid: Grid, n: int) -> str | None:
        placed = [grid[c] for c in self.cells if grid[c]]
        if len(set(placed)) < len(placed):
            return f"{self.name} holds a digit twice"
        if len({d % 2 for d in placed}) > 1:
            return f"{self.name} mixes odd and even digits"
        return None


def lower_whisper(whisper: Whisper, rules: Rules) -> Lowered:
    digits = range(1, rules.n + 1)
    alone = [x for x in digits if all(abs(x - y) < whisper.gap for y in digits)]
    steps = zip(whisper.cells, whisper.cells[1:])
    return Lowered(tuple((cell, x) for cell in whisper.cells for x in alone),
                   tuple((whisper.name, (a, x), (b, y)) for a, b in steps for x in digits for y in digits
                         if abs(x - y) < whisper.gap))


def lower_parity(parity: Parity, rules: Rules) -> Lowered:
    k = len(parity.cells)
    sets = [c for start in (1, 2) for c in combinations(range(start, rules.n + 1, 2), k)]
    return Lowered(sets=(AllowedSets(parity.name, parity.cells, tuple(sorted(sets))),))


@pytest.fixture(scope="module")
def added():
    """The two kinds and their lowerings, registered for this module and removed after it."""
    before = kind_table()
    lowering.register(Kind(WHISPER, "W", "whispers", "whispers (neighbours along a line differ by a gap)"),
                      lower_whisper, {lowering.RULED_OUT, lowering.PAIRS})
    lowering.register(Kind(PARITY, "P", "parity cages", "parity cages (all odd or all even)"), lower_parity,
                      {lowering.SETS})
    try:
        yield
    finally:
        lowering.unregister(WHISPER)
        lowering.unregister(PARITY)
    assert kind_table() == before and set(lowering.LOWERINGS) == {*KINDS, lowering.FORMS_KIND}


# --- Puzzles using them, read from a solution so that they hold. --------------------------------------

def whispers(grid: tuple[int, ...], shape: Shape, rng: random.Random, count: int, gap: int) -> list[Whisper]:
    """Up to ``count`` lines of 2-4 neighbouring cells along which ``grid`` keeps the gap."""
    n, found = shape.n, []
    for _ in range(count * 20):
        if len(found) == count:
            break
        cells = [rng.randrange(shape.cells)]
        while len(cells) < rng.randint(2, 4):
            row, col = divmod(cells[-1], n)
            options = [r * n + c for r in range(row - 1, row + 2) for c in range(col - 1, col + 2)
                       if 0 <= r < n and 0 <= c < n and r * n + c not in cells
                       and abs(grid[r * n + c] - grid[cells[-1]]) >= gap]
            if not options:
                break
            cells.append(rng.choice(options))
        if len(cells) >= 2:
            found.append(Whisper(f"whisper {len(found) + 1}", tuple(cells), gap))
    return found


def parities(grid: tuple[int, ...], shape: Shape, rng: random.Random, count: int) -> list[Parity]:
    """``count`` cages of 2 or 3 cells holding different digits of one parity in ``grid``."""
    found: list[Parity] = []
    while len(found) < count:
        first = rng.randrange(shape.cells)
        mates = [c for c in range(shape.cells) if c != first and grid[c] != grid[first]
                 and grid[c] % 2 == grid[first] % 2]
        cells = (first, *rng.sample(mates, min(len(mates), rng.randint(1, 2))))
        if len({grid[c] for c in cells}) == len(cells):
            found.append(Parity(f"parity cage {len(found) + 1}", cells))
    return found


FOUR_GRID = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)


def four_by_four() -> list[tuple[str, Rules]]:
    """4x4 rule sets with whispers, parity cages, or both (each with fewer than 100 solutions)."""
    shape = Shape(2, 2)
    plain = standard(shape)
    whisper = Whisper("whisper 1", (0, 5), 2)  # 1 then 4 in FOUR_GRID
    parity = Parity("parity cage 1", (0, 2))  # 1 and 3
    return [("whisper", plain.with_constraints(whisper, Whisper("whisper 2", (12, 9, 4), 2))),  # 4, 1, 3
            ("parity", plain.with_constraints(parity, Parity("parity cage 2", (8, 10)))),  # 2 and 4
            ("both", plain.with_constraints(whisper, parity))]


# --- The kinds, honoured. --------------------------------------------------------------------------

CONFIGURED = [(name, {}) for name in solvers.names() if name != "dimacs"] + [
    ("dimacs", {"command": f"{sys.executable} {FAKE_SAT} sat"}),
]
SLOW = ("backtrack-jit", "mip", "minizinc", "cpmpy", "dimacs", "smt")
"""Solvers whose calls here take more than half a second (a program per call, a model per rule set)."""


@pytest.fixture(scope="module", params=[pytest.param(c, id=c[0], marks=[pytest.mark.slow] if c[0] in SLOW else [])
                                        for c in CONFIGURED])
def solver(request, added):
    name, options = request.param
    why = solvers.unavailable(name) if not options else None
    if why:
        pytest.skip(f"{name}: {why}")
    with solvers.get(name, **options) as instance:
        yield instance


def test_the_cases_hold_in_their_grid_and_leave_a_few_solutions(added):
    for label, rules in four_by_four():
        assert rules.first_conflict(FOUR_GRID) is None and rules.kinds - set(KINDS), label
        assert 1 <= len(brute_force(Puzzle.empty(rules.shape).with_rules(rules))) < 100
    broken = four_by_four()[0][1].with_constraints(Whisper("whisper 3", (0, 1), 2))
    assert broken.first_conflict(FOUR_GRID) == "whisper 3: row 1 column 1 holds 1, row 1 column 2 holds 2"


@pytest.mark.slow
def test_every_paradigm_honours_them_through_the_lowering_and_says_so(added, capsys):
    for name in solvers.names():
        described = solvers.describe(name)
        if not described["installed"]:
            continue
        capabilities = described["capabilities"]
        assert {WHISPER, PARITY} <= set(capabilities["lowered"]) and {WHISPER, PARITY} <= set(capabilities["kinds"])
        assert not {WHISPER, PARITY} & set(capabilities["native"]), name
    code, out, _ = run_cli(capsys, "solvers")
    assert code == 0
    rows = [line for line in out.splitlines() if line.split(" ", 1)[0] in solvers.names()]
    assert rows and all(line.rstrip().endswith(" w p") for line in rows), rows
    assert "W whispers (neighbours along a line differ by a gap), P parity cages" in " ".join(out.split())
    code, out, _ = run_cli(capsys, "solvers", "--json")
    assert code == 0 and all(s["capabilities"]["kinds"][-2:] == [WHISPER, PARITY]
                             for s in json.loads(out)["solvers"] if s["installed"])


@pytest.mark.parametrize("case", range(3), ids=["whisper", "parity", "both"])
def test_every_paradigm_solves_and_counts_them_as_the_brute_force(solver, case):
    _, rules = four_by_four()[case]
    puzzle = Puzzle.empty(rules.shape).with_rules(rules)
    truth = brute_force(puzzle)
    limit = {"time_limit": 60} if solver.capabilities.time_limit else {}
    result = solver.solve(puzzle, **limit)
    assert result.status is Status.SOLVED and is_solution(result.grid, puzzle), solution_error(result.grid, puzzle)
    if solver.capabilities.canonical:
        assert solver.solve(puzzle, canonical=True, **limit).grid == truth[0]
    if solver.capabilities.count:
        wanted = 3 if "count" in solver.capabilities.slow else len(truth) + 1
        assert solver.count(puzzle, limit=wanted, **limit).count == min(len(truth), wanted)


def larger_case(shape: Shape, seed: int) -> tuple[Puzzle, tuple[tuple[int, ...], ...]]:
    """A 6x6 or 9x9 puzzle with whispers and parity cages read from a random solution, part of that
    solution as givens, and its solutions by the rules contract's reference search."""
    rng = random.Random(seed)
    grid = reference_solutions(Puzzle.empty(shape), 1, rng)[0]
    gap = (shape.n + 1) // 2
    rules = standard(shape).with_constraints(*whispers(grid, shape, rng, 3, gap), *parities(grid, shape, rng, 2))
    keep = set(rng.sample(range(shape.cells), round({6: 0.3, 9: 0.45}[shape.n] * shape.cells)))
    puzzle = Puzzle(shape, tuple(v if i in keep else 0 for i, v in enumerate(grid)), rules)
    return puzzle, tuple(reference_solutions(puzzle, LIMIT + 1))


LARGER = [(Shape(2, 3), 6), (Shape(3, 3), 9)]


@pytest.mark.parametrize("shape, seed", LARGER, ids=["6x6", "9x9"])
def test_the_rules_contract_holds_with_them(solver, shape, seed):
    puzzle, truth = larger_case(shape, seed)
    assert truth and {WHISPER, PARITY} <= puzzle.rules.kinds
    if shape.n == 9:
        assert lowering.lower(puzzle.rules, KINDS).ruled_out  # 5 has no partner on a whisper of gap 5
    solves_or_refuses(solver, puzzle, truth)


def test_a_solver_that_states_no_forms_refuses_them_naming_the_kind(added):
    """The rules contract's other half: a solver with no forms (a student's class) refuses, before any
    work, in the kind's own words."""
    from .test_contract import FirstFound

    first = FirstFound()
    _, rules = four_by_four()[0]
    puzzle = Puzzle.empty(rules.shape).with_rules(rules)
    assert first.capabilities.unsupported(rules) == "whispers (whisper 1)"
    contract.check_refused(first, puzzle)
    wide = replace(first.capabilities, forms=lowering.FORMS)
    assert wide.unsupported(rules) is None and wide.lowered >= {WHISPER, PARITY}


@pytest.mark.slow
def test_the_solver_contract_holds_with_them(solver):
    """Registering kinds changes nothing a solver already did: check-solver's whole suite passes."""
    baseline = solvers.get("backtrack")
    for outcome in contract.run(solver, baseline):
        assert outcome.status in ("passed", "skipped"), outcome


@pytest.mark.slow
def test_the_recipe_names_what_this_test_does_and_every_paradigm_declares_its_native_kinds():
    """docs/rules.md and docs/design.md's "Adding a rule kind" name the places this module uses (each must
    exist), and every paradigm's ``NATIVE``, which its model passes to the lowering, is what its
    capabilities declare."""
    import importlib
    import pkgutil

    from sudokulab.core import rules as core_rules
    from sudokulab.solvers.base import Capabilities

    from ..conftest import ROOT

    rules_md = (ROOT / "docs" / "rules.md").read_text()
    recipe = rules_md[rules_md.index("## Adding a rule kind"):]
    design = (ROOT / "docs" / "design.md").read_text()
    named = {"`core/rules.py`": core_rules, "`Kind`": core_rules.Kind, "`BUILT_IN`": core_rules.BUILT_IN,
             "`register_kind`": core_rules.register_kind,
             "`Rules.constraints`": Rules.__dataclass_fields__["constraints"],
             "`Rules.with_constraints`": Rules.with_constraints, "`broken(grid, n)`": Whisper.broken,
             "`solvers/lowering.py`": lowering, "`LOWERINGS`": lowering.LOWERINGS,
             "`lowering.register`": lowering.register,
             "`Capabilities.forms`": Capabilities.__dataclass_fields__["forms"]}
    for words in named:
        assert words in recipe, words
    for words in ("`core/rules.py`", "`solvers/lowering.py`", "`LOWERINGS`", "`NATIVE`", "test_new_kind.py"):
        assert words in design[design.index("**Adding a rule kind**"):], words
    for name in solvers.names():
        cls = solvers.solver_class(name)
        package = cls.__module__.rsplit(".", 1)[0]
        natives = {getattr(importlib.import_module(f"{package}.{info.name}"), "NATIVE", None)
                   for info in pkgutil.iter_modules(importlib.import_module(package).__path__)} - {None}
        assert len(natives) == 1, (name, natives)
        assert cls.capabilities.kinds <= natives.pop(), name
