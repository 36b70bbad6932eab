"""Scoring is exactly the rule: black per right colour in the right hole, white per right
colour elsewhere, a colour counted at most as often as it is in the code. Checked against an
independent oracle that scores the way a person does at the table (take out the blacks, then
match each remaining guess peg to one remaining code peg of its colour), on every pair of a
small table and on many pairs of the largest, and on the cases implementations get wrong."""

from __future__ import annotations

import random

import pytest

from engine.mastermind.codes import BLANK, Table, all_codes, feedback, parse, score_key


def oracle(code: tuple[int, ...], guess: tuple[int, ...]) -> tuple[int, int]:
    """Pegs marked off one by one, as a codemaker answers by hand."""
    code_left = list(code)
    guess_left = list(guess)
    black = 0
    for i in range(len(code)):
        if code[i] == guess[i]:
            black += 1
            code_left[i] = guess_left[i] = None  # type: ignore[call-overload]
    white = 0
    for g in guess_left:
        if g is None:
            continue
        for j, c in enumerate(code_left):
            if c is not None and c == g:
                white += 1
                code_left[j] = None  # type: ignore[call-overload]
                break
    return black, white


@pytest.mark.parametrize(("code", "guess", "want"), [
    ("1122", "2211", (0, 4)),
    ("1234", "1111", (1, 0)),  # one 1 in the code: the other three 1s score nothing
    ("1111", "1234", (1, 0)),
    ("1122", "1112", (3, 0)),  # the third 1 finds no 1 left
    ("1123", "3111", (1, 2)),  # whites capped by the code's two 1s
    ("1213", "3111", (1, 2)),
    ("6543", "3456", (0, 4)),
    ("1234", "5656", (0, 0)),
    ("1155", "5511", (0, 4)),
    ("1223", "2232", (1, 2)),
    ("0102", "1020", (0, 4)),  # blanks count like one more colour
    ("0000", "0011", (2, 0)),
    ("1200", "0012", (0, 4)),
    ("1204", "1034", (2, 1)),
    ("12345", "54321", (1, 4)),
    ("11223", "22113", (1, 4)),
])
def test_tricky_cases(code: str, guess: str, want: tuple[int, int]) -> None:
    assert feedback(parse(code), parse(guess)) == want
    assert oracle(parse(code), parse(guess)) == want


def test_every_pair_of_a_small_table_with_blanks_matches_the_oracle() -> None:
    table = Table(holes=3, colours=6, blanks=True)  # 343 codes, 117,649 pairs
    codes = all_codes(table)
    for code in codes:
        for guess in codes:
            want = oracle(code, guess)
            assert feedback(code, guess) == want
            assert score_key(code, guess) == want[0] * 8 + want[1]


def test_many_pairs_of_the_largest_table_match_the_oracle() -> None:
    rng = random.Random(18)
    table = Table(holes=5, colours=8, blanks=True)
    for _ in range(30_000):
        code, guess = table.draw(rng), table.draw(rng)
        assert feedback(code, guess) == oracle(code, guess)


def test_the_standard_table_all_pairs_sampled_by_guess() -> None:
    codes = all_codes(Table())
    for guess in codes[::37]:
        for code in codes:
            assert feedback(code, guess) == oracle(code, guess)


@pytest.mark.parametrize(("table", "size"), [
    (Table(), 1296), (Table(colours=8), 4096), (Table(holes=5, colours=8), 32768),
    (Table(holes=3), 216), (Table(blanks=True), 2401), (Table(duplicates=False), 360),
    (Table(holes=5, colours=8, duplicates=False), 6720),
    (Table(blanks=True, duplicates=False), 840),
])
def test_tables_have_the_codes_they_should(table: Table, size: int) -> None:
    codes = all_codes(table)
    assert len(codes) == len(set(codes)) == table.size == size
    assert list(codes) == sorted(codes)
    assert all(table.problem(c) == "" for c in codes)


def test_malformed_codes_are_named() -> None:
    t = Table()
    assert "4 pegs" in t.problem((1, 2, 3))
    assert "colour" in t.problem((1, 2, 3, 7))
    assert "colour" in t.problem((1, 2, 3, BLANK))  # no blanks on this table
    assert "colour" in t.problem((1, 2, 3, True))
    assert "repeat" in Table(duplicates=False).problem((1, 2, 3, 1))
    assert Table(blanks=True).problem((0, 0, 1, 2)) == ""


def test_draws_are_well_formed_and_cover_the_table() -> None:
    rng = random.Random(3)
    for table in (Table(), Table(duplicates=False, holes=5, colours=6), Table(blanks=True)):
        seen = {table.draw(rng) for _ in range(20_000)}
        assert all(table.problem(c) == "" for c in seen)
        assert len(seen) > min(table.size, 20_000) * 0.5
