"""The string-catalogue check for a game's package tests: every key the engine sends (captions,
the last move, seat notes, badges, the result between hands, reasons, phases, action types and refusal codes) is in its catalogue, in
English, French and Arabic, with the same placeholders as the English, and no key repeats one
of the shell's. Shared by the games whose package tests call it (Golf, Crazy Eights, Kaiser,
Wizard)."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Any

from clients.strings import catalogue, shell_strings
from engine.codec import tag_of
from engine.match import Match

Options = Sequence[dict[str, object]]


def _default_options(game_id: str) -> Options:
    return ({"holes": 1},) if game_id == "golf" else ({"target": 20},)


def sent_keys(GAME_ID: str, GAME: Any, codes: tuple[str, ...], *, players: int = 3,
              options: Options | None = None, seeds: int = 6, player: Any = None) -> set[str]:
    """Every key the engine sends in ``seeds`` whole games of ``players`` seats, cycling over
    ``options``; moves are random, or ``player``'s (a computer player) where random play would
    not reach every line."""
    option_sets = options or _default_options(GAME_ID)
    keys = {f"{GAME_ID}.name"}
    keys |= {f"{GAME_ID}.action.{tag_of(t)}" for t in GAME.action_types}
    # The host sends a refusal as error.<code> (hostd/protocol): the key has no game prefix.
    keys |= {f"error.{code}" for code in codes}

    def shown(m: Match) -> None:
        for seat in (None, *range(players)):
            c = GAME.common(m.view(seat))
            keys.add(f"{GAME_ID}.phase.{c.phase}")
            for cap in (*c.captions, *([c.last] if c.last else []), *c.result,
                        *(n for n in c.seat_notes if n), *(b for bs in c.badges for b in bs)):
                keys.add(cap.key)
                keys.update(v for _, v in cap.args if isinstance(v, str)
                            and v.startswith(f"{GAME_ID}."))

    for seed in range(seeds):
        m = Match.start(GAME, players, option_sets[seed % len(option_sets)], seed)
        rng = random.Random(seed)
        while (o := m.outcome()) is None:
            shown(m)
            seat = m.to_act()[0]
            legal = m.legal(seat)
            m.act(seat, legal[rng.randrange(len(legal))] if player is None
                  else player.choose(m.view(seat), legal, rng))
            shown(m)  # what an action leaves before the next deal (a scored hand)
            m.resolve_chance()
        shown(m)
        keys.add(o.reason)
    return keys


def check_catalogue(GAME_ID: str, GAME: Any, codes: tuple[str, ...], lang: str,
                    keys: set[str] | None = None) -> None:
    """``keys`` (default: ``sent_keys`` with its defaults) all translated in ``lang``."""
    strings = catalogue(GAME_ID, lang)
    shared = shell_strings(lang)  # the refusals every game shares (error.not_in_hand...)
    sent = sent_keys(GAME_ID, GAME, codes) if keys is None else keys
    assert sorted(k for k in sent if k not in strings and k not in shared) == []
    en = catalogue(GAME_ID, "en")
    assert set(strings) == set(en)
    for key, text in strings.items():
        assert set(re.findall(r"\{(\w+)\}", text)) == set(re.findall(r"\{(\w+)\}", en[key]))
    assert not set(strings) & set(shared)  # the shell's keys are never repeated in a game's
