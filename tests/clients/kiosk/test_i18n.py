"""The kiosk's words: complete in every language, faithful to the President ruleset's terms,
and covering every message key the games send."""

from __future__ import annotations

import re
from pathlib import Path
from string import Formatter

import pytest

from clients.kiosk.i18n import AR, CATALOGUES, EN, LANGUAGES, Translator
from engine import registry
from engine.president.state import titles

ROOT = Path(__file__).resolve().parents[3]


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(template) if name}


@pytest.mark.parametrize("lang", [x for x in LANGUAGES if x != "en"])
def test_every_key_is_translated_with_the_same_placeholders(lang: str) -> None:
    table = CATALOGUES[lang]
    # A language may only add card-face overrides (Arabic President uses V D R).
    assert {k for k in set(table) ^ set(EN) if not k.startswith("face.")} == set()
    for key, text in table.items():
        if key in EN:
            assert fields(text) == fields(EN[key]), key


def test_every_key_a_game_sends_has_words() -> None:
    sent = set()
    for game in registry.ids():
        for path in (ROOT / "engine" / game).rglob("*.py"):
            sent |= set(re.findall(rf'"({game}\.[a-z_.]+)"', path.read_text()))
    assert sent, "no message keys found in the engines"
    assert sorted(k for k in sent if k not in EN) == []
    for players in range(3, 7):
        for title in titles(players):
            assert f"president.title.{title}" in EN


def test_president_uses_the_rulesets_arabic_terms() -> None:
    assert AR["president.title.president"] == "الرئيس"
    assert AR["president.title.vice_president"] == "نائب الرئيس"
    assert AR["president.title.vice_scum"] == "نائب المؤخرة"
    assert AR["president.title.scum"] == "المؤخرة"
    assert "الثورة" in AR["president.revolution"] and "الثورة" in AR["president.revolution_banner"]


def test_french_and_arabic_card_faces_use_v_d_r() -> None:
    for lang in ("fr", "ar"):
        t = Translator(lang)
        assert [t.rank(r) for r in "TJQKA9"] == ["10", "V", "D", "R", "A", "9"]
        assert t.card("QH") == "D♥"
    en = Translator("en")
    assert [en.rank(r) for r in "TJQK"] == ["10", "J", "Q", "K"]


def test_text_never_raises() -> None:
    t = Translator("fr")
    assert t.t("kiosk.to_play", name="Zoé") == "À Zoé de jouer"
    assert t.t("kiosk.to_play") == "À {name} de jouer"  # a missing argument stays visible
    assert t.t("chess.won_by_mate") == "Won by mate"  # an unknown key, as words
    assert Translator("ar").rtl and not t.rtl
    with pytest.raises(ValueError, match="unknown language"):
        Translator("de")


def test_names_are_joined_in_the_language() -> None:
    assert Translator("en").join_names(["Ana", "Bo", "Cy"]) == "Ana, Bo & Cy"
    assert Translator("fr").join_names(["Ana", "Bo"]) == "Ana et Bo"
    assert Translator("ar").join_names(["Ana"]) == "Ana"
