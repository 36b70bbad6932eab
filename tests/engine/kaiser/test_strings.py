"""Every key the Kaiser engine sends (captions, the last move, reasons, phases, action types
and refusal codes) is in its catalogue in English, French and Arabic, with the English
placeholders, and no key repeats one of the shell's.

tests/engine/strings_check.py does the same for three-seat games only (it starts every game
with three players), hence this four-seat walk; the checks on the collected keys are alike.
"""

from __future__ import annotations

import random
import re

import pytest

from clients.strings import LANGUAGES, catalogue, shell_strings
from engine.codec import tag_of
from engine.kaiser import GAME, PLAYERS
from engine.kaiser.rules import CODES
from engine.match import Match

OPTION_SETS: tuple[dict[str, object], ...] = (
    {}, {"misdeal": True, "no_trump": False, "restriction": "off"})


def _shown(m: Match, keys: set[str]) -> None:
    for seat in (None, 0, 1):
        c = GAME.common(m.view(seat))
        keys.add(f"kaiser.phase.{c.phase}")
        for cap in (*c.captions, *([c.last] if c.last else [])):
            keys.add(cap.key)
            keys |= {v for _, v in cap.args if isinstance(v, str) and v.startswith("kaiser.")}


def sent_keys() -> set[str]:
    keys = {"kaiser.name"} | {f"kaiser.action.{tag_of(t)}" for t in GAME.action_types}
    keys |= {f"error.{code}" for code in CODES}
    for seed in range(8):
        m = Match.start(GAME, 4, OPTION_SETS[seed % 2], seed)
        rng = random.Random(seed)
        while m.outcome() is None:
            _shown(m, keys)
            seat = m.to_act()[0]
            m.act(seat, PLAYERS["normal"].choose(m.view(seat), m.legal(seat), rng))
            _shown(m, keys)  # a scored hand is shown before the next deal
            m.resolve_chance()
        o = m.outcome()
        assert o is not None
        keys.add(o.reason)
    return keys


SENT = sent_keys()


def test_the_walk_sees_every_kind_of_key() -> None:
    for key in ("kaiser.last.bid", "kaiser.last.pass", "kaiser.last.play", "kaiser.last.trick",
                "kaiser.last.trump", "kaiser.last.made", "kaiser.last.failed", "kaiser.contract",
                "kaiser.phase.hand_over", "kaiser.phase.game_over", "kaiser.reached_target"):
        assert key in SENT, key


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_sent_key_is_translated(lang: str) -> None:
    strings = catalogue("kaiser", lang)
    shared = shell_strings(lang)
    assert sorted(k for k in SENT if k not in strings and k not in shared) == []
    en = catalogue("kaiser", "en")
    assert set(strings) == set(en)
    for key, text in strings.items():
        assert set(re.findall(r"\{(\w+)\}", text)) == set(re.findall(r"\{(\w+)\}", en[key]))
    assert not set(strings) & set(shared)  # the shell's keys are never repeated here
