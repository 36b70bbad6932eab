"""Runs of one direction in visual order, as the kiosk's text layer draws them."""

from __future__ import annotations

from clients.kiosk.bidi import LRM, RLM, Run, isolate, runs


def visual(text: str, rtl: bool) -> list[tuple[str, bool]]:
    return [(r.text, r.rtl) for r in runs(text, rtl)]


def test_latin_is_one_run() -> None:
    assert runs("Ana to play", False) == [Run("Ana to play", False, False)]


def test_arabic_is_one_right_to_left_run_in_an_arabic_font() -> None:
    assert runs("الرئيس", True) == [Run("الرئيس", True, True)]


def test_a_latin_name_inside_arabic_sits_where_an_arabic_reader_expects() -> None:
    # read right to left: "دور" then "Ana" then "الآن"; drawn left to right: the reverse
    got = [r.text.strip() for r in runs("دور Ana الآن", True) if r.text.strip()]
    assert got == ["الآن", "Ana", "دور"]
    assert [r.rtl for r in runs("دور Ana الآن", True) if r.text.strip()] == [True, False, True]


def test_numbers_inside_arabic_keep_their_digit_order() -> None:
    got = [r.text.strip() for r in runs("الجولة 12 من 10", True) if r.text.strip()]
    assert got == ["10", "من", "12", "الجولة"]
    assert runs("النقاط: 12:30", True)[0] == Run("12:30", False, False)


def test_an_arabic_name_inside_english() -> None:
    got = visual("بلال to play", False)
    assert got[0] == ("بلال", True)
    assert got[-1][0].endswith("to play") and not got[-1][1]


def test_isolating_a_name_keeps_the_number_after_it_in_the_line_direction() -> None:
    # Without the mark, the number after an Arabic name joins it (UAX #9); with it, not.
    assert [t.strip() for t, _ in visual("بلال 12", False) if t.strip()] == ["12", "بلال"]
    assert [t.strip(LRM + " ") for t, _ in visual(isolate("بلال", False) + " 12", False)
            if t.strip(LRM + " ")] == ["بلال", "12"]
    assert isolate("Ana", True) == "Ana" + RLM


def test_suit_symbols_and_digits_never_need_the_arabic_font() -> None:
    for run in runs("10♠ والملك ♥", True):
        assert run.arabic == any("\u0600" <= ch <= "\u06ff" for ch in run.text)


def test_empty() -> None:
    assert runs("", True) == []
