"""The encodings shown: each at-most-one encoding's size against its closed form, its models over
x1..xK against the definition (the pairwise encoding's: at most one true), and the command."""

from __future__ import annotations

import itertools
import json

import pytest

from sudokulab.formats import documents
from sudokulab.solvers.sat import encoding_lesson as encoding_lab
from sudokulab.solvers.sat import encodings as cnf_encodings

from ...conftest import run_cli

KS = (3, 4, 5, 6, 9)


def definition(k: int, exactly_one: bool) -> set[tuple[int, ...]]:
    """The assignments of x1..xK with at most (exactly) one true, from the definition."""
    return {bits for bits in itertools.product((0, 1), repeat=k) if sum(bits) <= 1 and (sum(bits) or not exactly_one)}


@pytest.mark.parametrize("amo", cnf_encodings.AMO_ENCODINGS)
@pytest.mark.parametrize("k", KS)
def test_size_is_the_closed_form(amo, k):
    shown = encoding_lab.show(amo, k)
    clauses, top = cnf_encodings.at_most_one(list(range(1, k + 1)), amo, k)  # what the model solves
    assert shown.clause_count == len(clauses) and shown.auxiliary_count == top - k
    assert encoding_lab.size(amo, k) == (len(clauses), top - k)
    assert encoding_lab.size(amo, k, exactly_one=True) == (len(clauses) + 1, top - k)
    if amo in ("mtotalizer", "sortnetwrk", "cardnetwrk"):
        assert shown.formula.clauses is None and shown.matches_formula is None  # said, not fudged
    else:
        assert (shown.clause_count, shown.auxiliary_count) == (shown.formula.clauses_at_k,
                                                               shown.formula.auxiliaries_at_k)
        assert shown.matches_formula is True
        assert encoding_lab.show(amo, k, exactly_one=True).matches_formula is True


def test_closed_forms_by_hand():
    assert encoding_lab.formula("pairwise", 9).clauses_at_k == 36
    sinz = encoding_lab.formula("seqcounter", 9)
    assert (sinz.clauses_at_k, sinz.auxiliaries_at_k) == (3 * 9 - 4, 8)
    assert encoding_lab.formula("bitwise", 5).clauses_at_k == 15  # 5 literals x 3 bits
    assert encoding_lab.formula("totalizer", 4).clauses_at_k == 3 + 3 + 8 + 1


@pytest.mark.parametrize("amo", cnf_encodings.AMO_ENCODINGS)
@pytest.mark.parametrize("k", (2, 3, 4, 5, 7))
@pytest.mark.parametrize("exactly_one", (False, True))
def test_models_over_the_literals_are_the_pairwise_encodings(amo, k, exactly_one):
    clauses, _ = encoding_lab.build(amo, k, exactly_one)
    pairwise, _ = encoding_lab.build("pairwise", k, exactly_one)
    expected = definition(k, exactly_one)
    assert encoding_lab.projected_models(pairwise, k) == expected
    assert encoding_lab.projected_models(clauses, k) == expected


def test_readable_clauses_and_meanings_of_the_sequential_counter():
    shown = encoding_lab.show("seqcounter", 4)
    assert shown.readable[:3] == ("¬x1 ∨ s1", "¬s1 ∨ s2", "¬x2 ∨ ¬s1")
    s2 = shown.auxiliaries[1]
    assert s2.name == "s2" and "at least one of x1, x2 is true" in s2.meaning
    # what the engine found agrees with Sinz's reading of s2
    assert "true when one of x1, x2 is; false when one of x3, x4 is" in s2.meaning


def test_meanings_are_what_an_engine_finds():
    ladder = {a.name: a.meaning for a in encoding_lab.show("ladder", 4).auxiliaries}
    assert "none of x1..x3 is true" in ladder["y3"] and "[true when x4 is or none is; false when one of x1..x3 is]" \
        in ladder["y3"]
    bits = encoding_lab.show("bitwise", 5).auxiliaries
    assert bits[0].meaning.startswith("bit 2 ") and "true when x5 is" in bits[0].meaning  # x5 has index 4 = 100b
    exactly = encoding_lab.show("seqcounter", 4, exactly_one=True)
    assert exactly.readable[0] == "x1 ∨ x2 ∨ x3 ∨ x4" and "none is" not in exactly.auxiliaries[0].meaning


@pytest.mark.slow
def test_model_sizes_agree_with_the_closed_forms():
    rows = encoding_lab.model_sizes(9)
    assert len(rows) == len(cnf_encodings.AMO_ENCODINGS) * 3
    for row in rows:
        assert (row.variables, row.clauses) == row.closed_form
    extended = {r.amo: r.clauses for r in rows if r.encoding == "extended"}
    assert extended["pairwise"] == 11988 and extended["seqcounter"] == 7776  # Lynce & Ouaknine; notebook 02


def test_command_prints_clauses_meanings_and_counts(capsys):
    code, out, err = run_cli(capsys, "encoding", "show", "--amo", "seqcounter", "--literals", "4")
    assert code == 0 and not err
    assert "clauses: 8   formula: 3K - 4 = 8 at K = 4" in out
    assert "auxiliary variables: 3   formula: K - 1 = 3" in out
    assert "¬x1 ∨ s1" in out and "Sinz" in out


@pytest.mark.parametrize("argv", [
    ("encoding", "show", "--amo", "ladder", "--literals", "5", "--exactly-one", "--json"),
    ("encoding", "show", "--model", "--size", "4", "--json"),
])
def test_json_follows_the_schema(capsys, argv):
    code, out, _ = run_cli(capsys, *argv)
    assert code == 0
    document = json.loads(out)
    documents.validate("encoding-show", document)


@pytest.mark.parametrize("argv, words", [
    (("encoding", "show", "--amo", "seqcounter", "--literals", "99"), "between 2 and 32"),
    (("encoding", "show"), "give --amo"),
    (("encoding", "show", "--model", "--amo", "ladder"), "--model takes --size only"),
])
def test_bad_arguments_are_one_line(capsys, argv, words):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and not out and words in err and err.count("\n") == 1
