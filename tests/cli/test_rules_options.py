"""Variant rules through the real command: every solver on every preset solves (checked) or refuses.

Each command runs as a new process (``python -m sudokulab``), as a user would, except the solve
matrix, which calls ``cli.main`` (the console script's code, without an interpreter start per case:
its 324 processes were a fifth of the whole suite's time; the README's and docs' variant commands
and the other tests here run the real process). For every installed solver S and every variant (x,
windoku, anti-knight, anti-king, jigsaw with ``--regions``, killer with ``--cages``, thermo with
``--thermos``; on 9x9 and on 6x6): ``solve --solver S`` exits 0 with a grid that keeps every rule
(for x: both diagonals hold 1..n), and ``--canonical`` gives the one solution; or S refuses, as its
declared kinds predict, with exit 2 and exactly one line on stderr naming S and the kind. Then
compare, count, verify, bench, judge, export/decode and generate with rules.

The variant puzzles are made here, by a small search of this file's own (``search``: depth first,
fewest candidates first, independent of every solver): a solution under the rules, the variant's
data drawn from it (cages and thermometers follow its digits), then givens removed at random while
the search still counts exactly one solution.
"""

from __future__ import annotations

import functools
import json
import os
import random
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from sudokulab import solvers
from sudokulab.core.grid import Grid, Shape
from sudokulab.core.puzzle import Puzzle, is_solution
from sudokulab.core.rules import Rules, build

from ..conftest import ROOT, random_grid, run_cli

PYTHON = [sys.executable, "-m", "sudokulab"]
SOLVERS = [name for name in solvers.names() if solvers.installed(name)]
KIND_WORDS = {"differ": "differing pairs", "sum": "sum constraints", "increasing": "increasing thermometers"}


def sudokulab(*argv: str, stdin: str | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """The command as a new process (the console script's code), with this checkout's package."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run([*PYTHON, *argv], input=stdin, capture_output=True, text=True, timeout=600,
                          cwd=cwd or ROOT, env=env)


# --- an independent search: solutions of givens under rules -----------------------------------------

def search(rules: Rules, givens: Grid, *, limit: int = 2, rng: random.Random | None = None,
           budget: int = 200_000) -> list[Grid]:
    """Up to ``limit`` solutions (fewest candidates first; digits shuffled by ``rng``), or
    TimeoutError past ``budget`` nodes. Groups and pairs through ``rules.peers``; sums and
    thermometers through ``rules.first_conflict`` on the partial grid after each placement."""
    n = rules.n
    peers = [tuple(p) for p in rules.peers]
    extra = bool(rules.cages or rules.thermos)
    grid = list(givens)
    if rules.first_conflict(tuple(grid)):
        return []
    found: list[Grid] = []
    nodes = 0

    def options(cell: int) -> list[int]:
        used = {grid[p] for p in peers[cell]}
        return [d for d in range(1, n + 1) if d not in used]

    def descend() -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > budget:
            raise TimeoutError
        best: tuple[int, list[int]] | None = None
        for cell in range(n * n):
            if not grid[cell]:
                digits = options(cell)
                if best is None or len(digits) < len(best[1]):
                    best = (cell, digits)
                    if len(digits) <= 1:
                        break
        if best is None:
            found.append(tuple(grid))
            return len(found) >= limit
        cell, digits = best
        if rng is not None:
            rng.shuffle(digits)
        for digit in digits:
            grid[cell] = digit
            if (not extra or rules.first_conflict(tuple(grid)) is None) and descend():
                return True
        grid[cell] = 0
        return False

    descend()
    return found


def a_solution(rules: Rules, seed: int) -> Grid:
    """A random solution of the empty board under ``rules`` (restarts with fresh randomness)."""
    rng = random.Random(seed)
    for _ in range(50):
        try:
            found = search(rules, (0,) * rules.shape.cells, limit=1, rng=rng, budget=20_000)
        except TimeoutError:
            continue
        assert found, f"no grid keeps {rules.describe()}"
        return found[0]
    raise AssertionError(f"no solution found for {rules.describe()}")


def unique_puzzle(rules: Rules, solution: Grid, seed: int, floor: int) -> Puzzle:
    """Givens of ``solution``, removed at random while the search counts one solution (at least ``floor`` kept)."""
    rng = random.Random(seed)
    givens = list(solution)
    order = list(range(len(givens)))
    rng.shuffle(order)
    kept = len(givens)
    for cell in order:
        if kept <= floor:
            break
        givens[cell] = 0
        try:
            unique = len(search(rules, tuple(givens), limit=2)) == 1
        except TimeoutError:
            unique = False
        if unique:
            kept -= 1
        else:
            givens[cell] = solution[cell]
    puzzle = Puzzle(rules.shape, tuple(givens), rules)
    assert search(rules, puzzle.givens, limit=2) == [solution]
    return puzzle


# --- the variants --------------------------------------------------------------------------------

JIGSAW_9 = """
1 1 1 2 2 3 3 3 3
1 1 1 2 2 3 2 3 3
1 1 4 2 2 2 2 3 3
4 1 4 5 5 5 6 6 6
4 4 4 5 5 6 6 6 6
4 4 4 5 5 5 5 6 6
7 7 7 8 8 8 9 9 9
7 7 7 8 8 8 9 9 9
7 7 7 8 8 8 9 9 9
"""
JIGSAW_9_SOLUTION = "531864279972351486684792135345286917719435628826179543157643892298517364463928751"
"""A grid these regions hold (the regions were drawn from it: boxes with cells of equal digits swapped)."""
JIGSAW_6 = """
1 1 1 2 2 2
1 1 3 3 2 2
4 1 3 3 2 5
4 4 3 3 5 5
4 4 6 6 6 5
4 6 6 6 5 5
"""

BOARDS = {9: Shape(3, 3), 6: Shape(2, 3)}
PRESETS = ("x", "windoku", "anti-knight", "anti-king", "jigsaw", "killer", "thermo")
FLOOR = {9: 26, 6: 10}
"""Givens kept at least: enough for the classic backtracker to stay quick, few enough to need the rules."""


@dataclass(frozen=True)
class Variant:
    """A variant puzzle with its one solution, and the command-line options (and files) that declare its rules."""

    name: str
    puzzle: Puzzle
    solution: Grid
    options: tuple[tuple[str, str], ...]
    """(option, preset name or the text of its file)."""

    @property
    def rules(self) -> Rules:
        return self.puzzle.rules

    def argv(self, folder: Path) -> list[str]:
        """The puzzle file and rule options for the command, files written into ``folder``."""
        from sudokulab.formats.boj import format_puzzle

        puzzle = folder / f"{self.name}.txt"
        puzzle.write_text(format_puzzle(self.puzzle))
        argv = [str(puzzle)]
        for option, value in self.options:
            if option == "--rules":
                argv += [option, value]
            else:
                path = folder / f"{self.name}{option.replace('--', '-')}.txt"
                path.write_text(value)
                argv += [option, str(path)]
        return argv


def cell_word(cell: int, n: int) -> str:
    return f"r{cell // n + 1}c{cell % n + 1}"


def draw_cages(solution: Grid, shape: Shape, rng: random.Random, count: int) -> list[tuple[tuple[int, ...], int]]:
    """Cages of 2-4 orthogonally connected cells with different digits in ``solution``, and their sums."""
    n = shape.n
    taken: set[int] = set()
    cages = []
    while len(cages) < count:
        start = rng.randrange(n * n)
        if start in taken:
            continue
        cells = [start]
        for _ in range(rng.randrange(1, 4)):
            r, c = divmod(rng.choice(cells), n)
            steps = [(r + dr, c + dc) for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))]
            nexts = [rr * n + cc for rr, cc in steps if 0 <= rr < n and 0 <= cc < n]
            fresh = [x for x in nexts if x not in taken and x not in cells
                     and solution[x] not in {solution[y] for y in cells}]
            if fresh:
                cells.append(rng.choice(fresh))
        if len(cells) >= 2:
            taken.update(cells)
            cages.append((tuple(cells), sum(solution[x] for x in cells)))
    return cages


def draw_thermos(solution: Grid, shape: Shape, rng: random.Random, count: int) -> list[tuple[int, ...]]:
    """Thermometers of 3-5 cells along king moves on which ``solution``'s digits increase."""
    n = shape.n
    taken: set[int] = set()
    thermos: list[tuple[int, ...]] = []
    while len(thermos) < count:
        cell = rng.randrange(n * n)
        if cell in taken or solution[cell] > n // 2:
            continue
        path = [cell]
        while len(path) < 5:
            r, c = divmod(path[-1], n)
            nexts = [(r + dr) * n + c + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                     if (dr or dc) and 0 <= r + dr < n and 0 <= c + dc < n]
            higher = [x for x in nexts if x not in taken and x not in path and solution[x] > solution[path[-1]]]
            if not higher:
                break
            path.append(min(higher, key=lambda x: (solution[x], rng.random())))
        if len(path) >= 3:
            taken.update(path)
            thermos.append(tuple(path))
    return thermos


@functools.cache
def variant(preset: str, size: int) -> Variant:
    """The variant puzzle of a preset on a board of ``size`` (9 or 6), made once per test session."""
    shape = BOARDS[size]
    n = shape.n
    seed = size * 100 + PRESETS.index(preset)
    rng = random.Random(seed)
    if preset in ("x", "windoku", "anti-knight", "anti-king"):
        rules = build(shape, [preset])
        solution = a_solution(rules, seed)
        options: tuple[tuple[str, str], ...] = (("--rules", preset),)
    elif preset == "jigsaw":
        text = JIGSAW_9 if size == 9 else JIGSAW_6
        rules = build(shape, regions=[int(v) for v in text.split()])
        solution = tuple(map(int, JIGSAW_9_SOLUTION)) if size == 9 else a_solution(rules, seed)
        options = (("--regions", text.strip() + "\n"),)
    elif preset == "killer":
        solution = random_grid(shape, rng)
        cages = draw_cages(solution, shape, rng, count=8 if size == 9 else 5)
        rules = build(shape, cages=cages)
        text = "".join(f"{total}: {' '.join(cell_word(c, n) for c in cells)}\n" for cells, total in cages)
        options = (("--cages", text),)
    else:
        solution = random_grid(shape, rng)
        thermos = draw_thermos(solution, shape, rng, count=5 if size == 9 else 3)
        rules = build(shape, thermos=thermos)
        text = "".join(" ".join(cell_word(c, n) for c in cells) + "\n" for cells in thermos)
        options = (("--thermos", text),)
    assert rules.first_conflict(solution) is None
    puzzle = unique_puzzle(rules, solution, seed, FLOOR[size])
    return Variant(f"{preset}-{size}x{size}", puzzle, solution, options)


VARIANTS = [(preset, size) for size in (9, 6) for preset in PRESETS]


def grid_of(text: str, n: int) -> Grid:
    values = tuple(int(v) for v in text.split())
    assert len(values) == n * n, text
    return values


def refusal(solver: str, rules: Rules) -> str | None:
    """The words a solver's refusal must name (a kind, or the constraint its ``capabilities.refuses`` names:
    dlx's non-pairwise cage), or None when it honours every constraint of the rules."""
    capabilities = solvers.solver_class(solver).capabilities
    missing = sorted(rules.kinds - capabilities.honoured)
    if not missing:
        refused = capabilities.refuses(rules) if capabilities.refuses else None
        return refused.split(":")[0] if refused else None
    return KIND_WORDS.get(missing[0], missing[0])


# --- solve: every solver x every variant ----------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("preset, size", VARIANTS, ids=[f"{p}-{s}x{s}" for p, s in VARIANTS])
@pytest.mark.parametrize("solver", SOLVERS)
def test_solve_keeps_every_rule_or_refuses_in_one_line(tmp_path, capsys, solver, preset, size):
    case = variant(preset, size)
    argv = case.argv(tmp_path)
    kind = refusal(solver, case.rules)
    for canonical in (False, True):
        if canonical and kind is None and not solvers.solver_class(solver).capabilities.canonical:
            continue  # refused for want of canonical answers (tests/cli/test_commands.py), not for the rules
        code, out, err = run_cli(capsys, "solve", *argv, "--solver", solver, *(["--canonical"] if canonical else []))
        if kind is not None:
            assert (code, out) == (2, ""), err
            assert err.count("\n") == 1 and f"solver '{solver}' cannot honour {kind}" in err
            continue
        assert code == 0 and err == "", err
        grid = grid_of(out, size)
        assert is_solution(grid, case.puzzle)  # every rule, the variant's included
        if preset == "x":
            diagonals = [[grid[i * size + i] for i in range(size)],
                         [grid[i * size + size - 1 - i] for i in range(size)]]
            assert all(sorted(d) == list(range(1, size + 1)) for d in diagonals)
        assert grid == case.solution  # the puzzle has one solution: plain and canonical alike


def test_the_variants_need_their_rules():
    """Under standard rules no variant puzzle has its solution as the only one (jigsaw: under the
    boxes), so a solver that ignored the variant's rules would be caught by the checks above."""
    for preset, size in VARIANTS:
        case = variant(preset, size)
        plain = Puzzle(case.puzzle.shape, case.puzzle.givens)
        assert search(plain.rules, plain.givens, limit=2, budget=2_000_000) != [case.solution], case.name


@pytest.mark.slow
def test_a_standard_answer_to_an_x_puzzle_is_refused_naming_the_diagonal(tmp_path):
    case = variant("x", 9)
    plain = Puzzle(case.puzzle.shape, case.puzzle.givens)
    other = next(g for g in search(plain.rules, plain.givens, limit=2) if g != case.solution)
    answer = tmp_path / "answer.txt"
    from sudokulab.formats.boj import format_grid

    answer.write_text(format_grid(other, 9))
    argv = case.argv(tmp_path)
    done = sudokulab("verify", *argv, str(answer))
    assert done.returncode == 1
    first = done.stdout.splitlines()[0]
    assert first.startswith("wrong answer: diagonal ") and " twice " in first
    assert "solutions: exactly one (oracle: sat)" in done.stdout
    assert done.stderr.count("\n") == 1 and "wrong answer: diagonal" in done.stderr
    answer.write_text(format_grid(case.solution, 9))
    done = sudokulab("verify", *argv, str(answer))
    assert done.returncode == 0 and done.stdout.splitlines() == [
        "accepted", "solutions: exactly one (oracle: sat)", "canonical: yes, the answer is the lexicographically "
        "first solution"]
    # without the rules the same answer is a valid standard answer, of a puzzle with several solutions
    done = sudokulab("verify", str(tmp_path / "x-9x9.txt"), str(answer))
    assert done.returncode == 0 and "solutions: two or more" in done.stdout


# --- compare, count, bench, judge, generate, export/decode -----------------------------------------

@pytest.mark.slow
def test_compare_skips_solvers_that_cannot_honour_the_rules(tmp_path):
    case = variant("killer", 6)
    done = sudokulab("compare", *case.argv(tmp_path), "--json")
    document = json.loads(done.stdout)
    runs = {run["solver"]: run for run in document["runs"]}
    refusing = [name for name in SOLVERS if refusal(name, case.rules)]
    assert done.returncode == 0 and document["agreement"] == "agreed" and document["solutions"] == 1
    assert document["rules"] == ["standard", "killer"] and len(document["cages"]) == len(case.rules.cages)
    for name in SOLVERS:
        if name in refusing:
            words = refusal(name, case.rules)  # dlx: the cage its exact cover cannot say
            assert runs[name]["skipped"].startswith("cannot honour ") and words in runs[name]["skipped"]
            assert f"sudokulab: skipped {name}: cannot honour " in done.stderr and words in done.stderr
        else:
            assert runs[name]["agrees"] and grid_of(runs[name]["answer"], 6) == case.solution
    assert done.stderr.count("\n") == len(refusing)


@pytest.mark.slow
def test_compare_with_rules_agrees_on_the_one_answer(tmp_path):
    case = variant("anti-knight", 9)
    done = sudokulab("compare", *case.argv(tmp_path), "--solvers", "backtrack-fast,sat,cpsat,dlx", "--canonical")
    assert done.returncode == 0 and grid_of(done.stdout, 9) == case.solution
    assert "agreed: one answer; the puzzle has exactly one solution" in " ".join(done.stderr.split())


@pytest.mark.slow
@pytest.mark.parametrize("solver", [name for name in ("backtrack", "sat", "cpsat", "dlx", "mip") if name in SOLVERS])
def test_count_under_rules_matches_the_independent_search(tmp_path, solver):
    case = variant("x", 6)
    shape = case.puzzle.shape
    fewer = Puzzle(shape, tuple(v if i % 3 == 0 else 0 for i, v in enumerate(case.puzzle.givens)), case.rules)
    expected = len(search(case.rules, fewer.givens, limit=1000, budget=2_000_000))
    path = tmp_path / "fewer.txt"
    from sudokulab.formats.boj import format_puzzle

    path.write_text(format_puzzle(fewer))
    done = sudokulab("count", str(path), "--rules", "x", "--solver", solver, "--limit", "1000", "--json")
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert (document["count"], document["exact"], document["rules"]) == (expected, True, ["standard", "x"])
    assert expected > 1


def test_count_refuses_a_solver_that_cannot_honour_the_rules(tmp_path):
    case = variant("killer", 9)  # a cage that is not pairwise
    done = sudokulab("count", *case.argv(tmp_path), "--solver", "dlx")
    assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1
    refused = solvers.solver_class("dlx").capabilities.refuses(case.rules)
    assert f"solver 'dlx' cannot honour {refused}" in done.stderr


def test_solve_without_a_solver_picks_one_that_honours_the_rules(tmp_path):
    case = variant("killer", 9)
    done = sudokulab("solve", *case.argv(tmp_path), "--json")
    document = json.loads(done.stdout)
    assert done.returncode == 0 and tuple(v for row in document["grid"] for v in row) == case.solution
    assert document["rules"] == ["standard", "killer"]
    assert document["cages"][0] == {"cells": [cell_word(c, 9) for c in case.rules.cages[0].cells],
                                    "sum": case.rules.cages[0].total}


@pytest.mark.slow
def test_bad_rules_data_exit_2_in_one_line(tmp_path):
    case = variant("x", 9)
    argv = case.argv(tmp_path)
    regions = tmp_path / "regions.txt"
    regions.write_text(JIGSAW_6)
    for extra, words in ((["--rules", "x,nope"], "unknown rules 'nope'"), (["--regions", str(regions)], "regions"),
                         (["--rules", "killer"], "--cages")):
        done = sudokulab("solve", *argv, *extra)
        assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1, done.stderr
        assert words in done.stderr and done.stderr.startswith("sudokulab: error: ")


def test_givens_that_break_a_variant_rule_exit_1(tmp_path):
    puzzle = tmp_path / "p.txt"
    puzzle.write_text("1 0 0 0\n0 0 0 0\n0 0 1 0\n0 0 0 0\n")
    done = sudokulab("solve", str(puzzle), "--rules", "x")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == "sudokulab: no solution: the givens break a rule: diagonal 1 holds 1 twice " \
                          "(row 1 column 1 and row 3 column 3)\n"


def dataset(tmp_path: Path, cases: list[Variant]) -> Path:
    path = tmp_path / "set.txt"
    path.write_text("".join("".join(map(str, case.puzzle.givens)) + "\n" for case in cases))
    return path


@pytest.mark.slow
def test_bench_runs_under_the_rules_and_skips_who_cannot(tmp_path):
    case = variant("killer", 9)
    argv = case.argv(tmp_path)
    cages = argv[argv.index("--cages") + 1]
    data = dataset(tmp_path, [case, case])
    out, lines = tmp_path / "r.csv", tmp_path / "r.jsonl"
    done = sudokulab("bench", str(data), "--solvers", "backtrack-fast,sat,dlx", "--cages", cages, "--output", str(out),
                     "--output", str(lines), "--quiet")
    assert done.returncode == 0, done.stderr
    refused = solvers.solver_class("dlx").capabilities.refuses(case.rules)  # its cages are not all pairwise
    assert refused is not None and done.stderr == f"sudokulab: skipped dlx on set: cannot honour {refused}\n"
    assert f"note: dlx skipped on set: cannot honour {refused.split(':')[0]}" in " ".join(done.stdout.split())
    rows = [json.loads(line) for line in lines.read_text().splitlines()]
    assert {(r["solver"], r["status"]) for r in rows} == {("backtrack-fast", "solved"), ("sat", "solved"),
                                                          ("dlx", "skipped")}
    assert all(r["valid"] for r in rows if r["status"] == "solved")
    assert out.read_text().count(",skipped,") == 1
    from sudokulab.bench.results import read_rows

    assert sorted(r.solver for r in read_rows([out])) == ["backtrack-fast", "backtrack-fast", "sat", "sat"]


def test_bench_with_no_solver_that_can_run_exits_2(tmp_path):
    case = variant("killer", 9)  # a cage that is not pairwise: dlx refuses it
    argv = case.argv(tmp_path)
    done = sudokulab("bench", str(dataset(tmp_path, [case])), "--solvers", "dlx", "--cages",
                     argv[argv.index("--cages") + 1], "--quiet")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines()[-1].startswith("sudokulab: error: bench: no solver could run: dlx cannot honour "
                                                   "cage ")


def test_bench_catches_an_answer_that_breaks_the_rules(tmp_path):
    """The same puzzles without --rules: an x answer is still a standard answer; with the rules, a
    standard search's answer is not (checked by the vectorised checker in the worker)."""
    import numpy as np

    from sudokulab.solvers.batch import Batch, BatchResults
    from sudokulab.verdicts.checking import check_batch

    case = variant("x", 9)
    plain = Puzzle(case.puzzle.shape, case.puzzle.givens)
    other = next(g for g in search(plain.rules, plain.givens, limit=2) if g != case.solution)
    batch = Batch.of("d", [case.puzzle, case.puzzle])
    results = BatchResults("s", np.zeros(2, dtype=np.int8), np.array([case.solution, other], dtype=np.uint8),
                           np.zeros(2), np.zeros(2))
    (verdicts,) = check_batch(batch.givens, batch.shape, [results], batch.rules)
    assert list(verdicts.valid) == [True, False] and verdicts.problems[1].startswith("diagonal")
    (standard,) = check_batch(batch.givens, batch.shape, [results])
    assert list(standard.valid) == [True, True]


@pytest.mark.slow
def test_judge_under_the_rules(tmp_path):
    case = variant("anti-king", 6)
    data = dataset(tmp_path, [case])
    answer = " ".join(map(str, case.solution))
    lines = "\n".join(" ".join(answer.split()[r * 6:(r + 1) * 6]) for r in range(6))
    program = tmp_path / "answer.py"
    program.write_text(f"print({lines!r})\n")
    done = sudokulab("judge", str(data), "--rules", "anti-king", "--quiet", "--time-limit", "60", "--",
                     sys.executable, str(program))
    assert done.returncode == 0, done.stdout + done.stderr
    done = sudokulab("judge", str(data), "--quiet", "--time-limit", "60", "--", sys.executable, str(program))
    assert done.returncode == 0  # the anti-king answer is a standard answer too
    wrong = next(g for g in search(Puzzle(case.puzzle.shape, case.puzzle.givens).rules, case.puzzle.givens, limit=2)
                 if g != case.solution)
    text = "\n".join(" ".join(map(str, wrong[r * 6:(r + 1) * 6])) for r in range(6))
    program.write_text(f"print({text!r})\n")
    done = sudokulab("judge", str(data), "--rules", "anti-king", "--quiet", "--time-limit", "60", "--",
                     sys.executable, str(program))
    assert done.returncode == 1 and "wrong answer: anti-king" in done.stdout
    assert " ".join(map(str, case.solution[:6])) in done.stdout  # the oracle's answer beside it, under the rules


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["x", "anti-knight"])
def test_generate_unique_under_rules(tmp_path, preset):
    done = sudokulab("generate", "--size", "6", "--unique", "--count", "2", "--seed", "22", "--rules", preset)
    assert done.returncode == 0, done.stderr
    rules = build(Shape(2, 3), [preset])
    lines = done.stdout.split()
    assert len(lines) == 2
    for line in lines:
        givens = tuple(int(v) for v in line.replace(".", "0"))
        assert len(search(rules, givens, limit=2, budget=2_000_000)) == 1


def test_generate_refuses_bad_rules_before_any_output(tmp_path):
    done = sudokulab("generate", "--size", "9", "--rules", "killer", "--seed", "1")
    assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1
    assert "--cages" in done.stderr


@pytest.mark.slow
def test_export_and_decode_carry_the_rules(tmp_path):
    case = variant("windoku", 6)
    argv = case.argv(tmp_path)
    done = sudokulab("export", *argv, "--format", "dimacs", "--output", str(tmp_path / "f.cnf"))
    assert done.returncode == 0, done.stderr
    from sudokulab.core.variables import literal

    answer = tmp_path / "answer.txt"
    literals = [literal(6, cell, digit) for cell, digit in enumerate(case.solution)]
    answer.write_text("s SATISFIABLE\nv " + " ".join(map(str, literals)) + " 0\n")
    done = sudokulab("decode", str(answer), "--cnf", str(tmp_path / "f.cnf"))
    assert done.returncode == 0 and grid_of(done.stdout, 6) == case.solution, done.stderr
    # a model that keeps the boxes but not the windows is refused: its grid breaks a declared rule
    plain = Puzzle(case.puzzle.shape, case.puzzle.givens)
    other = next(g for g in search(plain.rules, plain.givens, limit=2) if g != case.solution)
    answer.write_text("v " + " ".join(str(literal(6, cell, digit)) for cell, digit in enumerate(other)) + " 0\n")
    done = sudokulab("decode", str(answer), "--cnf", str(tmp_path / "f.cnf"))
    assert done.returncode == 4 and done.stdout == "" and "window" in done.stderr
    done = sudokulab("decode", str(tmp_path / "windoku-6x6.txt"), str(answer), "--rules", "windoku")
    assert done.returncode == 4 and "window" in done.stderr
    killer = variant("killer", 6)
    done = sudokulab("export", *killer.argv(tmp_path), "--format", "lp")
    assert done.returncode == 0 and done.stdout, done.stderr


@pytest.mark.slow
def test_every_command_that_reads_puzzles_takes_the_rule_options():
    for command in ("solve", "count", "export", "compare", "verify", "judge", "bench", "generate", "decode"):
        done = sudokulab(command, "--help")
        assert done.returncode == 0
        for option in ("--rules", "--regions", "--cages", "--thermos"):
            assert option in done.stdout, (command, option)
