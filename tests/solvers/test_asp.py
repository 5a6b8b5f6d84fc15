"""Answer set programming: the program's text, the exported program run by clingo itself, and the
``asp`` solver's answers, counts, canonical answers, statuses, stats and options, against ``sat`` and
the baseline, on standard boards and every variant kind.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time

import clingo
import pytest

from sudokulab import Puzzle, Shape, Status, UsageError, is_solution, parse_puzzle, solvers
from sudokulab.core.rules import KINDS, build
from sudokulab.errors import UnsupportedFeature
from sudokulab.grading.contract import random_puzzle
from sudokulab.solvers import export
from sudokulab.solvers.asp.model import ENCODING, cell_index, cell_term, ground_size, instance, program, to_asp
from sudokulab.solvers.asp.solver import CONFIGURATIONS, HEURISTICS, AspSolver, statistics

from ..conftest import run_cli
from .test_cpsat import variant

CLASSIC = parse_puzzle("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
HARD = parse_puzzle("........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3")
"""The first puzzle of forum_hardest_1106."""


@pytest.fixture(scope="module")
def asp():
    with AspSolver() as solver:
        yield solver


def clingo_answers(text: str, limit: int = 0) -> list[tuple[int, ...]]:
    """The grids of a program's answer sets, by clingo alone (``limit`` 0: all of them)."""
    control = clingo.Control(["--warn=none", f"--models={limit}"])
    control.add("base", [], text)
    control.ground([("base", [])])
    found = []
    n = next(int(s.symbol.arguments[0].number) for s in control.symbolic_atoms.by_signature("size", 1))

    def keep(model: clingo.Model) -> None:
        grid = [0] * (n * n)
        for symbol in model.symbols(shown=True):
            cell, digit = symbol.arguments
            grid[cell_index(cell.arguments[0].number, cell.arguments[1].number, n)] = digit.number
        found.append(tuple(grid))

    control.solve(on_model=keep)
    return found


# --- the program ---------------------------------------------------------------------------------

def test_cells_are_1_based_row_column_terms():
    assert [cell_term(c, 4) for c in (0, 3, 4, 15)] == ["(1,1)", "(1,4)", "(2,1)", "(4,4)"]
    assert all(cell_index(c // 9 + 1, c % 9 + 1, 9) == c for c in range(81))


def test_the_encoding_states_each_kind_once_as_taught():
    assert "{ v(C,D) : digit(D) } = 1 :- cell(C)." in ENCODING
    assert ":- complete(G), digit(D), not #count{ C : in(G,C), v(C,D) } = 1." in ENCODING
    assert ":- group(G), not complete(G), digit(D), #count{ C : in(G,C), v(C,D) } > 1." in ENCODING
    assert ":- differ(A,B), v(A,D), v(B,D)." in ENCODING
    assert ":- total(K,T), not #sum{ D,C : in(K,C), v(C,D) } = T." in ENCODING
    assert ":- step(A,B), v(A,X), v(B,Y), Y <= X." in ENCODING


def test_the_instance_of_a_standard_4x4_is_what_a_person_writes():
    assert instance(build(Shape(2, 2))) == textwrap.dedent("""\
        size(4). digit(1..4). cell((1..4,1..4)).
        group(row(1..4)). group(column(1..4)). group(box(1..4)).
        in(row(1),(1,1..4)). in(row(2),(2,1..4)). in(row(3),(3,1..4)). in(row(4),(4,1..4)).
        in(column(1),(1..4,1)). in(column(2),(1..4,2)). in(column(3),(1..4,3)). in(column(4),(1..4,4)).
        in(box(1),(1..2,1..2)). in(box(2),(1..2,3..4)). in(box(3),(3..4,1..2)). in(box(4),(3..4,3..4)).
        """)


def test_variant_facts_name_their_cells_and_totals():
    shape = Shape(2, 2)
    rules = build(shape, ["x", "anti-knight"], cages=[([0, 1], 3), ([14, 15], 7)], thermos=[[4, 5, 6]])
    text = instance(rules)
    assert "group(diagonal(1..2)). group(cage(1..2))." in text
    assert "in(diagonal(1),(1,1;2,2;3,3;4,4)). in(diagonal(2),(1,4;2,3;3,2;4,1))." in text
    assert "in(cage(1),(1,1..2)). in(cage(2),(4,3..4))." in text
    assert "total(cage(1),3). total(cage(2),7)." in text
    assert "step((2,1),(2,2)). step((2,2),(2,3))." in text
    assert "% anti-knight\ndiffer((1,1),(2,3)). differ((1,1),(3,2))." in text


def test_jigsaw_regions_are_listed_cell_by_cell():
    rules = variant(Shape(2, 2), "jigsaw")
    assert "in(region(1),(1,1;1,2;1,3;2,2))." in instance(rules)


def test_export_header_gives_the_ground_size_counted_by_clingo():
    text = to_asp(CLASSIC)
    first, second = text.splitlines()[:2]
    assert first == "% sudokulab answer set program (clingo): 9x9 board with 3x3 boxes, 30 givens"
    atoms, rules = ground_size(text)
    assert second == f"% after grounding: {atoms:,} atoms, {rules:,} rules (clingo {clingo.__version__})"
    assert "given((1,1),5). given((1,2),3). given((1,5),7)." in text
    assert export(CLASSIC, "asp") == text
    with pytest.raises(UsageError, match="the asp format takes no option 'encoding'"):
        to_asp(CLASSIC, encoding="x")


@pytest.mark.parametrize("preset", ["x", "killer", "thermo", "jigsaw", "anti-knight", "windoku"])
def test_the_exported_program_run_by_clingo_gives_the_solutions(sat, preset):
    puzzle = random_puzzle(Shape(2, 3), 0.3, 5)[0].with_rules(variant(Shape(2, 3), preset))
    puzzle = Puzzle(puzzle.shape, (0,) * 36, puzzle.rules) if not sat.solve(puzzle).solved else puzzle
    answers = clingo_answers(to_asp(puzzle), limit=50)
    assert answers and all(is_solution(grid, puzzle) for grid in answers)
    assert len(answers) == sat.count(puzzle, limit=50).count


def test_export_command_writes_the_program(capsys, tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("\n".join(" ".join(map(str, CLASSIC.givens[r * 9:r * 9 + 9])) for r in range(9)) + "\n")
    code, out, err = run_cli(capsys, "export", str(path), "--format", "asp")
    assert code == 0 and err == ""
    assert out == to_asp(CLASSIC)
    assert clingo_answers(out) == [solvers.get("sat").solve(CLASSIC).grid]


# --- the solver ----------------------------------------------------------------------------------

def test_declares_every_kind_and_describes_its_engine():
    assert AspSolver.capabilities.kinds == frozenset(KINDS)
    assert AspSolver.capabilities.threads == "serialised"
    described = solvers.describe("asp")
    assert described["installed"] and described["extra"] == "asp"
    assert described["backend"] == f"clingo {clingo.__version__}"


@pytest.mark.slow
@pytest.mark.parametrize("shape, fraction, seed", [(Shape(2, 2), 0.3, 1), (Shape(2, 3), 0.35, 2),
                                                   (Shape(3, 3), 0.4, 3), (Shape(4, 4), 0.6, 4)])
def test_solves_and_counts_as_sat_does_on_every_size(asp, sat, shape, fraction, seed):
    puzzle = random_puzzle(shape, fraction, seed)[0]
    result = asp.solve(puzzle)
    assert result.status is Status.SOLVED and is_solution(result.grid, puzzle)
    limit = 20
    assert asp.count(puzzle, limit=limit).count == sat.count(puzzle, limit=limit).count


@pytest.mark.parametrize("n", [4, 6, 9])
@pytest.mark.parametrize("preset", ["x", "killer", "thermo", "jigsaw", "anti-knight"])
def test_variants_agree_with_sat_and_canonical_with_the_baseline(asp, sat, backtrack, n, preset):
    shape = {4: Shape(2, 2), 6: Shape(2, 3), 9: Shape(3, 3)}[n]
    rules = variant(shape, preset)
    truth = sat.solve(Puzzle.empty(shape).with_rules(rules))
    assert truth.solved
    keep = {4: 3, 6: 12, 9: 45}[n]
    givens = tuple(v if i % (shape.cells // keep) == 0 else 0 for i, v in enumerate(truth.grid))
    puzzle = Puzzle(shape, givens, rules)
    result = asp.solve(puzzle)
    assert result.status is Status.SOLVED and is_solution(result.grid, puzzle)
    assert asp.count(puzzle, limit=30).count == sat.count(puzzle, limit=30).count
    canonical = asp.solve(puzzle, canonical=True).grid
    assert canonical == sat.solve(puzzle, canonical=True).grid
    if preset not in ("killer", "thermo") and n < 9:  # backtrack honours groups and pairs only
        assert canonical == backtrack.solve(puzzle, canonical=True).grid


@pytest.mark.parametrize("shape, fraction", [(Shape(2, 2), 0.2), (Shape(2, 3), 0.25), (Shape(3, 3), 0.45)])
def test_canonical_equals_the_baselines_answer(asp, backtrack, shape, fraction):
    for seed in range(3):
        puzzle = random_puzzle(shape, fraction, seed)[0]
        expected = backtrack.solve(puzzle)
        assert asp.solve(puzzle, canonical=True).grid == expected.grid


def test_no_solution_and_broken_givens(asp):
    corner = Puzzle.from_rows([[1, 2, 0, 0], [0, 0, 3, 0], [0, 0, 4, 0], [0, 0, 0, 0]])
    assert asp.solve(corner).status is Status.NO_SOLUTION
    assert asp.count(corner).count == 0 and asp.count(corner).status is Status.NO_SOLUTION
    broken = Puzzle(Shape(3, 3), (1,) + (0,) * 6 + (1,) + (0,) * 73)
    assert asp.solve(broken, canonical=True).status is Status.NO_SOLUTION


def test_one_ground_program_per_rule_set_and_the_stats(asp):
    fresh = AspSolver()
    first = fresh.solve(HARD)
    again = fresh.solve(CLASSIC)
    assert first.solved and again.solved and len(fresh._programs) == 1
    assert first.stats["grounding_seconds"] > 0 and again.stats["grounding_seconds"] == 0
    for key in ("choices", "conflicts", "restarts", "atoms", "rules", "variables", "constraints", "calls"):
        assert isinstance(first.stats[key], int), key
    assert first.stats["choices"] > 0 and first.stats["calls"] == 1
    assert first.stats["atoms"] == again.stats["atoms"] > 9 ** 3
    assert (first.stats["atoms"], first.stats["rules"]) == ground_size(program(CLASSIC.rules))
    assert first.stats["configuration"] == "auto"


def test_statistics_read_value_by_value_equal_clingos_own_tree(asp):
    asp.solve(HARD)
    control = asp._programs[HARD.rules].control
    paths = [("solving", "solvers", "choices"), ("solving", "solvers", "conflicts"), ("problem", "lp", "rules")]
    tree = control.statistics
    assert statistics(control, paths) == [tree[a][b][c] for a, b, c in paths]


@pytest.mark.slow
def test_time_limit_returns_the_time_limit_status(asp):
    counted = asp.count(Puzzle.empty(9), limit=10**9, time_limit=0.3)
    assert counted.status is Status.TIME_LIMIT and 0 < counted.count < 10**9 and not counted.exact
    result = AspSolver().solve(Puzzle.empty(Shape(5, 5)), canonical=True, time_limit=0.5)
    assert result.status is Status.TIME_LIMIT and result.grid is None
    assert asp.solve(CLASSIC, time_limit=1e-6).status in (Status.TIME_LIMIT, Status.SOLVED)


@pytest.mark.slow
def test_a_board_that_grounds_for_seconds_is_grounded_in_a_child_the_limit_ends():
    """Grounding an empty 49x49 board takes seconds that clingo cannot cut short: under a short limit the
    call runs in a child process, ended at the deadline; nothing is kept here."""
    solver = AspSolver()
    started = time.perf_counter()
    result = solver.solve(Puzzle.empty(Shape(7, 7)), time_limit=0.5)
    assert time.perf_counter() - started < 30  # a hang guard; benchmarks/time_limits.py measures the overshoot
    assert result.status is Status.TIME_LIMIT and result.stats["child_process"] is True
    assert solver._programs == {}


def test_every_entry_point_checks_the_kinds_first():
    class Narrow(AspSolver):
        capabilities = AspSolver.capabilities.__class__(kinds=frozenset({"all-different"}))

    solver = Narrow()
    killer = Puzzle.empty(Shape(2, 2)).with_rules(variant(Shape(2, 2), "killer"))
    for call in (solver.solve, solver.count, solver.solutions):
        with pytest.raises(UnsupportedFeature, match="cannot honour sum constraints"):
            call(killer)
    assert solver._programs == {}


def test_solutions_lists_every_grid_once(asp, sat):
    puzzle = random_puzzle(Shape(2, 2), 0.2, 7)[0]
    listed = asp.solutions(puzzle, limit=100)
    assert listed.complete and len(listed.grids) == sat.count(puzzle, limit=200).count
    assert len(set(listed.grids)) == len(listed.grids) and all(is_solution(g, puzzle) for g in listed.grids)


@pytest.mark.parametrize("configuration", CONFIGURATIONS)
def test_every_configuration_solves(configuration):
    result = AspSolver(configuration=configuration, seed=3).solve(HARD)
    assert result.solved and is_solution(result.grid, HARD)
    assert result.stats["configuration"] == configuration


@pytest.mark.parametrize("heuristic", HEURISTICS)
def test_every_heuristic_solves(heuristic):
    assert AspSolver(heuristic=heuristic).solve(HARD).solved


def test_the_same_seed_gives_the_same_search():
    one, two = (AspSolver(seed=5).solve(HARD).stats for _ in range(2))
    assert (one["choices"], one["conflicts"]) == (two["choices"], two["conflicts"])


def test_bad_options_are_refused_in_one_line():
    with pytest.raises(UsageError, match="solver 'asp': unknown configuration 'fast'; choose one of: auto, frumpy"):
        solvers.get("asp", configuration="fast")
    with pytest.raises(UsageError, match="solver 'asp' option seed must be at least 0"):
        solvers.get("asp", seed=-1)
    with pytest.raises(UsageError, match="solver 'asp': unknown heuristic 'domain'"):
        solvers.get("asp", heuristic="domain")
    with pytest.raises(UsageError, match="solver 'asp' takes no option 'threads'"):
        solvers.get("asp", threads=2)
    assert solvers.get("asp", configuration=" Tweety ").configuration == "tweety"


CTRL_C = """
import json, os, signal, sys, threading, time
from sudokulab import Puzzle, parse_puzzle, solvers

solver = solvers.get("asp")
solver.solve(Puzzle.empty(9))  # grounded before the interrupt
threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
started = time.perf_counter()
try:
    solver.count(Puzzle.empty(9), limit=10**12)
    raised = False
except KeyboardInterrupt:
    raised = True
after = solver.solve(parse_puzzle(sys.argv[1]))
print(json.dumps({"raised": raised, "seconds": time.perf_counter() - started, "after": after.status.value}))
"""


@pytest.mark.slow
def test_ctrl_c_stops_a_search_and_leaves_the_solver_usable(tmp_path):
    script = tmp_path / "ctrl_c.py"
    script.write_text(CTRL_C)
    puzzle = "".join(str(d) if d else "." for d in CLASSIC.givens)
    done = subprocess.run([sys.executable, str(script), puzzle], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["raised"] and report["after"] == "solved"
