"""compare: every registered paradigm on one puzzle, agreement judged right, stdout kept BOJ."""

from __future__ import annotations

import json

import pytest

from sudokulab import Puzzle, parse_puzzle, solvers
from sudokulab.bench import compare as compare_module
from sudokulab.bench.compare import Agreement, compare, judge_results
from sudokulab.cli import main as cli
from sudokulab.core.puzzle import is_solution
from sudokulab.datasets.reading import parse_lines
from sudokulab.formats.boj import format_grid
from sudokulab.solvers.base import CountResult, SolverBase, SolveResult, Status

from ..conftest import EXAMPLES

SAMPLE = str(EXAMPLES / "boj2580-sample.txt")
MULTI = "..5.69.7.782....4..6.2.8.3....5.....8.4.1.5.6..6..7.1...7....8.....8195.....947.1"  # four solutions
UNSOLVABLE = "1 2 0 0\n0 0 3 0\n0 0 4 0\n0 0 0 0\n"  # no rule broken by the givens, yet no completion


# --- test-only solvers, registered for one test at a time ------------------------------------------


class _TestSolver(SolverBase):
    def count(self, puzzle: Puzzle, *, limit: int = 2, time_limit: float | None = None) -> CountResult:
        raise NotImplementedError("compare only solves")


class LastSolver(_TestSolver):
    """A correct solver that prints the lexicographically last solution (ignores ``canonical``)."""

    name = "test-last"

    def solve(self, puzzle: Puzzle, *, time_limit: float | None = None, canonical: bool = False) -> SolveResult:
        n = puzzle.n
        flipped = Puzzle(puzzle.shape, tuple(n + 1 - v if v else 0 for v in puzzle.givens))
        with solvers.get("backtrack-fast") as solver:
            result = solver.solve(flipped, canonical=True, time_limit=time_limit)
        grid = tuple(n + 1 - v for v in result.grid) if result.grid else None
        return SolveResult(self.name, result.status, grid, result.seconds, {"nodes": 1})


class WrongSolver(_TestSolver):
    """Solves, then changes the first blank: a bug for compare to find."""

    name = "test-wrong"

    def solve(self, puzzle: Puzzle, *, time_limit: float | None = None, canonical: bool = False) -> SolveResult:
        with solvers.get("backtrack") as solver:
            grid = list(solver.solve(puzzle).grid)
        cell = puzzle.givens.index(0)
        grid[cell] = grid[cell] % puzzle.n + 1
        return SolveResult(self.name, Status.SOLVED, tuple(grid), 0.001, {"nodes": 1})


class DenierSolver(_TestSolver):
    """Says every puzzle has no solution."""

    name = "test-denier"

    def solve(self, puzzle: Puzzle, *, time_limit: float | None = None, canonical: bool = False) -> SolveResult:
        return SolveResult(self.name, Status.NO_SOLUTION, None, 0.001, {"conflicts": 3})


class SlowSolver(_TestSolver):
    """Always reaches its time limit."""

    name = "test-slow"

    def solve(self, puzzle: Puzzle, *, time_limit: float | None = None, canonical: bool = False) -> SolveResult:
        return SolveResult(self.name, Status.TIME_LIMIT, None, time_limit or 0.0, {})


class SpendingSolver(_TestSolver):
    """Spends its whole time limit on every call, warm-up included, and notes each limit it was given."""

    name = "test-spending"
    limits: list = []

    def solve(self, puzzle: Puzzle, *, time_limit: float | None = None, canonical: bool = False) -> SolveResult:
        import time

        SpendingSolver.limits.append(time_limit)
        time.sleep(time_limit or 0.0)
        return SolveResult(self.name, Status.TIME_LIMIT, None, time_limit or 0.0, {})


@pytest.fixture(autouse=True)
def registry(monkeypatch) -> str:
    """The test solvers join the registry after the real ones; returns the real ones, comma-separated."""
    real = solvers.names()
    for cls in (LastSolver, WrongSolver, DenierSolver, SlowSolver, SpendingSolver):
        monkeypatch.setitem(solvers.REGISTRY, cls.name, f"{__name__}:{cls.__name__}")
    return ",".join(real)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# --- one limit per solver ----------------------------------------------------------------------------


def test_the_set_up_and_the_solve_share_one_limit(sample):
    """``--time-limit T`` is a solver's whole time once built: a first call that spends T leaves the puzzle's
    own call nothing, so it is not made (N solvers then end within about N x T, plus their start-up)."""
    SpendingSolver.limits.clear()
    result, setup = compare_module.run_solver("test-spending", sample, time_limit=0.1, canonical=False)
    assert SpendingSolver.limits == [0.1]  # the warm-up got the limit; nothing was left for a second call
    assert result.status is Status.TIME_LIMIT and setup is not None and setup >= 0.1
    large = Puzzle.empty(36)  # no first call above 25x25 under a limit: the solve holds the set-up too
    SpendingSolver.limits.clear()
    compare_module.run_solver("test-spending", large, time_limit=0.1, canonical=False)
    assert len(SpendingSolver.limits) == 1 and SpendingSolver.limits[0] <= 0.1


# --- agreement ------------------------------------------------------------------------------------


def test_every_registered_solver_agrees_on_the_sample(capsys, registry, sample_answer):
    code, out, err = run(capsys, "compare", SAMPLE, "--solvers", registry)
    assert code == 0
    assert out == sample_answer  # stdout reads as the BOJ output, nothing else
    for name in registry.split(","):
        assert name in err
    assert "agreed: one answer; the puzzle has exactly one solution" in " ".join(err.split())


def test_library_report_on_the_sample(sample, registry):
    comparison = compare(sample, registry.split(","))
    assert comparison.agreement is Agreement.AGREED and comparison.solutions == 1 and comparison.oracle == "sat"
    assert [run.solver for run in comparison.runs] == registry.split(",")
    for run in comparison.runs:
        assert run.valid and run.agrees and is_solution(run.result.grid, sample)
    assert comparison.answer == format_grid(comparison.runs[0].result.grid)


@pytest.fixture
def multi_file(tmp_path) -> str:
    path = tmp_path / "multi.txt"
    path.write_text(MULTI + "\n")
    return str(path)


@pytest.mark.slow
def test_several_solutions_different_valid_answers_agree(capsys, registry, multi_file):
    puzzle = parse_puzzle(MULTI)
    comparison = compare(puzzle, [*registry.split(","), "test-last"])
    assert comparison.agreement is Agreement.SEVERAL and comparison.agreed
    assert comparison.solutions == 2  # counted up to two: "two or more"
    assert "several solutions" in comparison.reason and comparison.answer is None
    code, out, err = run(capsys, "compare", multi_file, "--solvers", f"{registry},test-last")
    assert code == 0 and "agreed, answers differ" in err
    blocks = list(parse_lines(out.splitlines()))  # each answer once, labelled, read back as a dataset
    assert len(blocks) == len(comparison.answers) >= 2
    assert all(is_solution(block.puzzle.givens, puzzle) for block in blocks)
    labels = [line for line in out.splitlines() if line.startswith("# ")]
    assert "test-last" in labels[-1].removeprefix("# ").split(", ")  # another solver may give the same grid


@pytest.mark.slow
def test_canonical_answers_are_byte_identical(capsys, registry, multi_file):
    puzzle = parse_puzzle(MULTI)
    code, out, err = run(capsys, "compare", multi_file, "--solvers", registry, "--canonical")
    with solvers.get("backtrack") as classic:
        assert (code, out) == (0, format_grid(classic.solve(puzzle).grid))
    assert "canonical: all byte-identical" in " ".join(err.split())


@pytest.mark.slow
def test_canonical_catches_a_valid_but_not_first_answer(capsys, registry, multi_file):
    code, out, err = run(capsys, "compare", multi_file, "--solvers", f"{registry},test-last", "--canonical")
    assert code == 4
    assert "test-last did not give the lexicographically first of the answers" in " ".join(err.split())
    assert out.count("# ") == 2  # both answers shown, labelled


def test_json_document(capsys, registry, sample_answer):
    code, out, err = run(capsys, "compare", SAMPLE, "--solvers", registry, "--json")
    assert (code, err) == (0, "")
    document = json.loads(out)
    assert set(document) == {
        "puzzle", "size", "box", "rules", "canonical", "oracle", "solutions", "agreement", "agreed", "reason", "answer",
        "runs", "partial",
    }
    assert document["partial"] is False
    assert document["rules"] == ["standard"]
    assert document["agreement"] == "agreed" and document["agreed"] is True
    assert document["answer"] == sample_answer and document["solutions"] == 1 and document["box"] == [3, 3]
    assert [r["solver"] for r in document["runs"]] == registry.split(",")
    for r in document["runs"]:
        assert set(r) == {"solver", "status", "seconds", "setup_seconds", "stats", "answer", "valid", "problem",
                          "agrees", "skipped"}
        assert r["status"] == "solved" and r["answer"] == sample_answer and r["valid"] and r["agrees"]
        assert isinstance(r["stats"], dict) and r["seconds"] >= 0 and r["setup_seconds"] >= 0


def test_all_agree_there_is_no_solution(capsys, registry, tmp_path):
    for text, reason in (
        ("1 0 0 0\n0 0 0 0\n0 0 0 0\n1 0 0 0\n", "the givens break a rule: column 1 holds 1 twice (rows 1 and 4)"),
        (UNSOLVABLE, "no completion keeps the rules"),
    ):
        path = tmp_path / "puzzle.txt"
        path.write_text(text)
        code, out, err = run(capsys, "compare", str(path), "--solvers", registry)
        assert (code, out) == (1, "")
        assert f"agreed: no solution: {reason}" in " ".join(err.split())


# --- disagreement: a bug found ---------------------------------------------------------------------


def test_a_wrong_answer_is_a_disagreement(capsys, registry):
    code, out, err = run(capsys, "compare", SAMPLE, "--solvers", f"{registry},test-wrong")
    assert code == 4
    flat = " ".join(err.split())
    assert "disagree: test-wrong gave a wrong answer (" in flat
    assert "# test-wrong (wrong: " in out and f"# {registry.replace(',', ', ')}\n" in out


def test_a_false_no_solution_is_a_disagreement(registry, sample):
    comparison = compare(sample, [*registry.split(","), "test-denier"])
    assert comparison.agreement is Agreement.DISAGREE
    assert comparison.runs[-1].agrees is False
    assert "test-denier disagrees (said no solution, but backtrack found a checked grid)" in comparison.reason


def test_json_on_disagreement_still_one_document_and_one_error_line(capsys, registry):
    code, out, err = run(capsys, "compare", SAMPLE, "--solvers", f"{registry},test-wrong", "--json")
    assert code == 4 and json.loads(out)["agreement"] == "disagree"
    assert err.startswith("sudokulab: disagree: ") and err.count("\n") == 1


def test_an_oracle_that_undercounts_is_caught():
    first = solvers.get("backtrack").solve(parse_puzzle(MULTI))
    other = LastSolver().solve(parse_puzzle(MULTI))
    comparison = judge_results(parse_puzzle(MULTI), [first, other], solutions=1, oracle="liar")
    assert comparison.agreement is Agreement.DISAGREE
    assert comparison.reason == "the oracle liar counts exactly one solution, but 2 valid answers differ"


# --- time limits -----------------------------------------------------------------------------------


def test_a_timed_out_solver_is_reported_not_counted(capsys, registry, sample_answer):
    code, out, err = run(capsys, "compare", SAMPLE, "--solvers", f"{registry},test-slow", "--time-limit", "1")
    assert (code, out) == (0, sample_answer)
    flat = " ".join(err.split())
    assert "not counted" in flat and "timed out, not counted: test-slow" in flat


def test_every_solver_timed_out_exits_3(capsys):
    code, out, err = run(capsys, "compare", SAMPLE, "--solvers", "test-slow", "--time-limit", "1")
    assert (code, out) == (3, "")
    assert "every solver timed out" in err


# --- bad input, as solve ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv, message",
    [
        (["compare", SAMPLE, "--solvers", "nope"], "unknown solver 'nope'; choose one of: backtrack"),
        (["compare", "/nonexistent.txt"], "cannot read '/nonexistent.txt'"),
        (["compare", SAMPLE, "--time-limit", "-1"], "not a positive number of seconds"),
        (["compare", SAMPLE, "--box", "2x3"], "box 2x3 does not fit a 9x9 board"),
    ],
)
def test_bad_input_exits_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "") and message in err


@pytest.mark.slow
@pytest.mark.parametrize("example, options", [
    ("boj2580-sample.txt", {}), ("16x16.txt", {}), ("jigsaw.txt", {"regions": "jigsaw-regions.txt"}),
    ("killer.txt", {"cages": "killer-cages.txt"}), ("thermo-6x6.txt", {"thermos": "thermo-6x6-thermos.txt"}),
])
def test_the_set_up_puzzle_keeps_board_and_rules_and_every_solver_refutes_it(example, options):
    """compare's set-up column times a first call on ``warm_up_puzzle``: the same board and rules (so
    the solver builds its model for them) with givens that break a rule, which every solver that
    honours the rules answers "no solution" without a search."""
    from sudokulab.bench.compare import warm_up_puzzle
    from sudokulab.core.puzzle import first_conflict
    from sudokulab.formats.puzzle_files import read_puzzle

    puzzle = read_puzzle(str(EXAMPLES / example), **{k: str(EXAMPLES / v) for k, v in options.items()})
    warm = warm_up_puzzle(puzzle)
    assert (warm.shape, warm.rules) == (puzzle.shape, puzzle.rules)
    assert first_conflict(warm.givens, warm.rules) is not None
    for name in solvers.names():
        if not solvers.installed(name) or solvers.solver_class(name).capabilities.lacks(rules=puzzle.rules) \
                or not solvers.solver_class(name).__module__.startswith("sudokulab."):  # this file's stand-ins
            continue
        with solvers.get(name) as solver:
            assert solver.solve(warm, time_limit=60).status is Status.NO_SOLUTION, name


def test_compare_reports_set_up_apart_from_the_solve(capsys):
    """Each run carries its set-up seconds beside the solve's; the table shows both columns."""
    comparison = compare(parse_puzzle(open(SAMPLE).read()), ["backtrack", "sat"], time_limit=60)
    for each in comparison.runs:
        assert each.setup_seconds is not None and each.setup_seconds >= 0 and each.result.solved
    code, out, err = run(capsys, "compare", SAMPLE, "--solvers", "backtrack,sat")
    header = next(line for line in err.splitlines() if line.startswith("solver"))
    assert code == 0 and header.split()[:4] == ["solver", "status", "set-up", "solve"]
