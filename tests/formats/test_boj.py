"""The BOJ adapter: every accepted spelling, every refusal with the place it names."""

from __future__ import annotations

import pytest

from sudokulab import Puzzle, PuzzleFormatError, Shape, UsageError, format_grid, parse_puzzle
from sudokulab.formats.boj import MAX_INPUT_BYTES, decode, format_line, format_puzzle, parse_box


def test_boj_form(sample_text, sample):
    assert sample.shape == Shape(3, 3)
    assert sample.givens[:9] == (0, 3, 5, 4, 6, 9, 2, 7, 8)
    assert sample.blanks == 14
    assert format_puzzle(sample) == sample_text


@pytest.mark.parametrize(
    "spell",
    [
        lambda t: t.replace("\n", "\r\n"),  # CRLF
        lambda t: t.replace(" ", "\t"),  # tabs
        lambda t: t.replace(" ", "   ") + "\n\n",  # extra spaces, trailing blank lines
        lambda t: t.rstrip("\n"),  # no final newline
        lambda t: " ".join(t.split()),  # all 81 on one line, as the statement shows them
        lambda t: "\n".join(t.split()),  # one number a line
        lambda t: "\n" + t.replace("\n", "\n\n"),  # blank lines between rows
        lambda t: "".join(t.split()),  # the 81-character one-line form
        lambda t: "".join(t.split()).replace("0", "."),  # ... with dots
        lambda t: "\n".join("".join(row.split()) for row in t.splitlines()),  # BOJ 2239 form
        lambda t: "\ufeff" + t,  # a byte-order mark from a Windows editor
    ],
)
def test_every_spelling_reads_the_same_puzzle(spell, sample_text, sample):
    assert parse_puzzle(spell(sample_text)) == sample
    assert parse_puzzle(spell(sample_text).encode()) == sample


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "the input is empty"),
        ("  \n\t\n", "the input is empty"),
        ("1 2 3 4 5 6 7 8 9\n" * 3 + "1 2 3 4 5 6 7 8\n" + "1 2 3 4 5 6 7 8 9\n" * 5,
         "line 4: expected 9 numbers, found 8"),
        ("0 " * 80, "81 numbers expected for a 9x9 board, found 80"),
        ("0 0 0 0 0 0 0 0 0\n0 0 0 0 12 0 0 0 0\n" + "0 0 0 0 0 0 0 0 0\n" * 7,
         "line 2, number 5: '12' is outside 0..9"),
        ("x 0 0 0 0 0 0 0 0\n" + "0 0 0 0 0 0 0 0 0\n" * 8, "line 1: 'x' is not a number"),
        ("0 0 0 -1\n" + "0 0 0 0\n" * 3, "line 1, number 4: '-1' is outside 0..4"),
        ("..5." + "." * 12, "line 1, column 3: '5' is outside 0..4"),
        ("...x" + "." * 77, "line 1, column 4: 'x' is not a digit or '.'"),
        # a line missing or too many: named as lines, not as the board size the count is nearest to
        ("0 0 0 0 0 0 0 0 0\n" * 8, "9 lines expected, found 8"),
        ("0 0 0 0 0 0 0 0 0\n" * 10, "9 lines expected, found 10"),
        ("0 0 0 0 0 0 0 0 0\n" * 7 + "0 0 0\n", "9 lines expected, found 8; line 8 has 3 numbers, the others 9"),
        ("53..7....\n" * 8, "9 lines expected, found 8"),
        ("530070000\n" * 4 + "53007000\n" + "530070000\n" * 4, "line 5: expected 9 digits, found 8"),
        ("0 " * 63, "64 numbers expected for an 8x8 board, found 63"),
    ],
)
def test_no_puzzle_gets_a_message_naming_the_place(text, message):
    with pytest.raises(PuzzleFormatError) as info:
        parse_puzzle(text)
    assert str(info.value).startswith(message)


def test_binary_junk_is_refused_with_its_offset():
    with pytest.raises(PuzzleFormatError, match=r"not text: byte 0xff at offset 2"):
        parse_puzzle(b"1 \xff 3")
    with pytest.raises(PuzzleFormatError, match=r"control character 0x00 at offset 1"):
        parse_puzzle(b"1\x002")


def test_absurdly_large_input_is_refused():
    with pytest.raises(PuzzleFormatError, match="larger than"):
        parse_puzzle("0 " * (MAX_INPUT_BYTES // 2 + 1))


def test_boards_of_other_sizes_and_boxes():
    four = parse_puzzle("1 0 0 0\n0 0 1 0\n0 1 0 0\n0 0 0 1")
    assert four.shape == Shape(2, 2)
    six = parse_puzzle(" ".join(["0"] * 36))
    assert six.shape == Shape(2, 3)
    assert parse_puzzle(" ".join(["0"] * 36), box=(3, 2)).shape == Shape(3, 2)
    sixteen = parse_puzzle("\n".join(" ".join(["16"] + ["0"] * 15) for _ in range(16)))
    assert sixteen.shape == Shape(4, 4) and sixteen.givens[0] == 16
    thirty_six = parse_puzzle(" ".join(["0"] * 36 * 36))
    assert thirty_six.shape == Shape(6, 6)
    with pytest.raises(UsageError, match="box 2x4 does not fit a 9x9 board"):
        parse_puzzle("0 " * 81, box=(2, 4))


def test_box_option_parsing():
    assert parse_box("2x3") == (2, 3)
    assert parse_box("3X4") == (3, 4)
    with pytest.raises(UsageError, match="not of the form RxC"):
        parse_box("2-3")


def test_format_is_exactly_the_boj_answer(sample_answer):
    grid = tuple(int(v) for v in sample_answer.split())
    assert format_grid(grid) == sample_answer
    assert format_grid(grid, compact=True).splitlines()[0] == "135469278"
    with pytest.raises(UsageError):
        format_grid(tuple(range(1, 17)) * 16, compact=True)


def test_one_line_form_round_trips(sample):
    assert parse_puzzle(format_line(sample)) == sample
    assert parse_puzzle(format_puzzle(Puzzle.empty(16))) == Puzzle.empty(16)


def test_only_ascii_digits_are_numbers():
    with pytest.raises(PuzzleFormatError, match="is not a number"):
        parse_puzzle("\uff13 " + "0 " * 80)  # a full-width 3


@pytest.mark.parametrize("n", [4, 9, 16, 25])
def test_a_board_missing_its_last_line_is_named_by_its_lines(n):
    """Whatever the size, a board with its last line gone is "n lines expected, found n - 1", in either
    spelling that has lines (a 'compact' line of digits exists up to 9x9 only)."""
    spelled = [" ".join(["0"] * n)] + (["0" * n] if n <= 9 else [])
    for line in spelled:
        with pytest.raises(PuzzleFormatError) as info:
            parse_puzzle((line + "\n") * (n - 1))
        assert str(info.value) == f"{n} lines expected, found {n - 1}"


@pytest.mark.parametrize("code", range(0x21))
def test_decode_refuses_exactly_the_control_characters_no_text_holds(code):
    """Below a space only tab, the line ends and form feed are text; the first other one is named with its offset."""
    data = b"1 2 3\n" + bytes([code]) + b"4\n"
    if chr(code) in " \t\n\r\f\v":
        assert decode(data) == data.decode()
    else:
        expected = rf"^input is not text: control character 0x{code:02x} at offset 6$"
        with pytest.raises(PuzzleFormatError, match=expected):
            decode(data)
