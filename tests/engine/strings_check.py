"""The string-catalogue check for a game's package tests: every key the engine sends (captions,
the last move, reasons, phases, action types and refusal codes) is in its catalogue, in
English, French and Arabic, with the same placeholders as the English. Shared by the games
whose package tests call it (Golf, Crazy Eights)."""

from __future__ import annotations

import random
import re
from typing import Any

from clients.strings import catalogue, shell_strings
from engine.codec import tag_of
from engine.match import Match


def sent_keys(GAME_ID: str, GAME: Any, codes: tuple[str, ...]) -> set[str]:
    keys = {f"{GAME_ID}.name"}
    keys |= {f"{GAME_ID}.action.{tag_of(t)}" for t in GAME.action_types}
    # The host sends a refusal as error.<code> (hostd/protocol): the key has no game prefix.
    keys |= {f"error.{code}" for code in codes}
    for seed in range(6):
        m = Match.start(GAME, 3, {"holes": 1} if GAME_ID == "golf" else {"target": 20}, seed)
        rng = random.Random(seed)
        while True:
            for seat in (None, 0, 1, 2):
                c = GAME.common(m.view(seat))
                keys.add(f"{GAME_ID}.phase.{c.phase}")
                for cap in (*c.captions, *([c.last] if c.last else [])):
                    keys.add(cap.key)
                    keys |= {v for _, v in cap.args if isinstance(v, str)
                             and v.startswith(f"{GAME_ID}.")}
            o = m.outcome()
            if o is not None:
                keys.add(o.reason)
                break
            seat = m.to_act()[0]
            legal = m.legal(seat)
            m.act(seat, legal[rng.randrange(len(legal))])
            m.resolve_chance()
    return keys


def check_catalogue(GAME_ID: str, GAME: Any, codes: tuple[str, ...], lang: str) -> None:
    strings = catalogue(GAME_ID, lang)
    shared = shell_strings(lang)  # the refusals every game shares (error.not_in_hand...)
    assert sorted(k for k in sent_keys(GAME_ID, GAME, codes) if k not in strings and k not in shared) == []
    en = catalogue(GAME_ID, "en")
    assert set(strings) == set(en)
    for key, text in strings.items():
        assert set(re.findall(r"\{(\w+)\}", text)) == set(re.findall(r"\{(\w+)\}", en[key]))
