"""Difficulty ratings: the formula, the command, and the order of the shipped sets."""

from __future__ import annotations

import json
from collections import namedtuple

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sudokulab.datasets.reading import Dataset
from sudokulab.formats import documents
from sudokulab.formats.puzzle_files import read_puzzle
from sudokulab.reasoning.explain import explain
from sudokulab.reasoning.rating import Distribution, chosen_entries, rate, rate_entries, rating_of
from sudokulab.reasoning.techniques import TECHNIQUES

from ..conftest import EXAMPLES, dataset, run_cli

FakeStep = namedtuple("FakeStep", "technique difficulty")
DIFFICULTIES = sorted({t.difficulty for t in TECHNIQUES})
VALIDATOR = documents.validator("rate")


def test_the_catalogue_is_cheapest_first_at_sudoku_explainers_values():
    values = [t.difficulty for t in TECHNIQUES]
    assert values == sorted(values) and TECHNIQUES[-1].name == "search"  # SE's order: Nishio 7.5 before 8.0
    se = {"contradiction": 7.5, "region forcing chain": 8.0, "cell forcing chain": 8.0, "dynamic forcing chain": 8.5,
          "dynamic forcing chain (+)": 9.0, "nested forcing chain 2": 9.5, "nested forcing chain 3": 10.0,
          "nested forcing chain 4": 10.5, "search": 11.0,  # Chaining.getDifficulty; search: level 5's base
          "hidden single": 1.2, "naked single": 2.3, "locked candidates": 2.6, "naked pair": 3.0, "x-wing": 3.2,
          "hidden pair": 3.4, "naked triple": 3.6, "swordfish": 3.8, "hidden triple": 4.0, "XY-wing": 4.2,
          "XYZ-wing": 4.4, "unique rectangle": 4.5, "naked quad": 5.0, "jellyfish": 5.2, "hidden quad": 5.4,
          "BUG+1": 5.6}  # docs/rating.md cites the source of each
    assert {t.name: t.difficulty for t in TECHNIQUES if t.name in se} == se


@given(st.lists(st.sampled_from(DIFFICULTIES), min_size=1, max_size=40))
def test_a_rating_is_its_hardest_steps_difficulty(difficulties):
    steps = [FakeStep(f"t{d}", d) for d in difficulties]
    rating = rating_of(steps)
    hardest = max(difficulties)
    assert rating.rating == hardest and rating.difficulty == hardest  # no bonus for the count, as in SE
    assert rating.technique == f"t{hardest}" and rating.hardest_steps == difficulties.count(hardest)
    assert rating_of(steps + [FakeStep("again", hardest)]).rating == rating.rating


def test_the_boj_sample_needs_singles_only(sample):
    rating = rate(sample)
    assert rating.technique in ("hidden single", "naked single") and rating.rating < 2.4
    assert rating.steps == sample.blanks and not rating.stopped
    assert rating.rating == rating_of(explain(sample, minimal=False).steps).rating


def test_sampling_is_uniform_reproducible_and_in_file_order():
    dataset = Dataset.from_path(EXAMPLES / "puzzles-20.txt")
    first = chosen_entries(dataset, 5, seed=3)
    assert [e.index for e in first] == [e.index for e in chosen_entries(dataset, 5, seed=3)]
    assert len(first) == 5 and [e.index for e in first] == sorted(e.index for e in first)
    assert [e.index for e in chosen_entries(dataset, 50)] == list(range(20))  # a sample larger than the set
    assert {e.index for seed in range(30) for e in chosen_entries(dataset, 2, seed=seed)} - {0, 1}  # not the head
    same_lines = Dataset.from_path(EXAMPLES / "puzzles-20.txt", name="another set")
    draws = [[e.index for e in chosen_entries(d, 5, seed=seed)] for seed in range(5) for d in (dataset, same_lines)]
    assert draws[0::2] != draws[1::2]  # each set its own draw, not the same line numbers everywhere


@pytest.mark.slow
def test_rate_json_is_one_document_that_validates(capsys, tmp_path):
    plot = tmp_path / "ratings.png"
    code, out, err = run_cli(capsys, "rate", str(EXAMPLES / "puzzles-20.txt"), str(EXAMPLES / "boj2580-sample.txt"),
                             "--json", "--quiet", "--output", str(plot))
    assert code == 0, err
    document = json.loads(out)
    VALIDATOR.validate(document)
    assert [d["dataset"] for d in document["datasets"]] == ["puzzles-20", "boj2580-sample"]
    assert len(document["puzzles"]) == 21
    first = document["datasets"][0]
    assert first["rated"] == 20 and sum(t["puzzles"] for t in first["techniques"]) == 20
    ratings = sorted(p["rating"] for p in document["puzzles"] if p["dataset"] == "puzzles-20")
    assert first["max"] == ratings[-1] and first["q1"] <= first["median"] <= first["q3"]
    assert plot.read_bytes().startswith(b"\x89PNG")


def test_rate_rows_and_tables(capsys):
    code, out, err = run_cli(capsys, "rate", str(EXAMPLES / "puzzles-20.txt"), "--rows", "--sample", "4", "--seed", "7")
    assert code == 0, err
    rows = [line.split("\t") for line in out.splitlines() if "\t" in line]
    assert len(rows) == 4 and all(row[0].startswith("puzzles-20:") and float(row[1]) >= 1.2 for row in rows)
    assert "puzzles-20: 4 puzzles rated" in out and "rating: median" in out


@pytest.mark.parametrize("argv", [["--seed", "1"], ["--output", "x.txt"], ["--sample", "0"]])
def test_rate_refuses_bad_options(capsys, argv):
    code, out, err = run_cli(capsys, "rate", str(EXAMPLES / "puzzles-20.txt"), *argv)
    assert code == 2 and out == "" and err.startswith("sudokulab:") and len(err.splitlines()) == 1


def test_a_puzzle_without_solution_is_a_row_with_its_reason():
    dataset = Dataset.from_path(EXAMPLES / "no-solution.txt")
    (row,) = rate_entries("x", dataset.entries())
    assert row.rating is None and "no solution" in row.error
    assert Distribution.of("x", [row]).failed == 1


@pytest.mark.slow
def test_the_ratings_order_the_shipped_sets():
    """Medians on small samples: forum_hardest_1905_11plus > magictour_top1465 > 17_clue (of the whole
    sets where this machine has them, else of the slices shipped with the package), each rated to
    the end: no time limit, so a busy machine rates the same."""
    medians = []
    for name, size in (("forum_hardest_1905_11plus", 3), ("magictour_top1465", 6), ("17_clue", 6)):
        chosen = chosen_entries(Dataset.from_path(dataset(f"{name}.txt")), size, seed=1)
        rows = list(rate_entries(name, chosen))
        medians.append(Distribution.of(name, rows).median)
    assert medians[0] > medians[1] > medians[2], medians


@pytest.mark.slow
def test_rate_takes_variant_rules(capsys):
    """A killer puzzle rated through the command's --cages is the library's rating of that puzzle."""
    code, out, err = run_cli(capsys, "rate", str(EXAMPLES / "killer.txt"),
                             "--cages", str(EXAMPLES / "killer-cages.txt"), "--json", "--quiet")
    assert code == 0, err
    (row,) = json.loads(out)["puzzles"]
    puzzle = read_puzzle(EXAMPLES / "killer.txt", cages=EXAMPLES / "killer-cages.txt")
    assert puzzle.rules.cages and row["rating"] == rate(puzzle).rating and row["technique"] == rate(puzzle).technique
