"""The redaction check for trick-takers whose state keeps ``hands`` (Kaiser, Wizard): at every
decision of random games, no seat's encoded view (nor the spectator's) names a card still
held in another seat's hand, and each seat sees its own. Owns only these checks; it never
peeks at views through anything but Match.view.
"""

from __future__ import annotations

import json
import random
from typing import Any

from engine.codec import to_wire
from engine.game import Game
from engine.match import Match


def _encoded(m: Match, seat: int | None) -> str:
    return json.dumps(to_wire(m.view(seat)), separators=(",", ":"))


def check_other_hands_never_reach_a_view(GAME: Game[Any]) -> None:
    checked = 0
    for seed in range(3):
        m = Match.start(GAME, 4, {}, seed)
        m.resolve_chance()
        rng = random.Random(seed)
        while m.outcome() is None:
            hands = m.state.hands
            for seat in (None, *range(m.players)):
                text = _encoded(m, seat)
                for other, hand in enumerate(hands):
                    if other == seat:
                        continue
                    for card in hand:
                        # A card held elsewhere must never appear as a quoted token.
                        assert f'"{card}"' not in text, (seed, seat, other, card)
                        checked += 1
            seat = m.to_act()[0]
            legal = m.legal(seat)
            m.act(seat, legal[rng.randrange(len(legal))])
            m.resolve_chance()
    assert checked > 1000


def check_own_hand_is_visible(GAME: Game[Any]) -> None:
    m = Match.start(GAME, 4, {}, 4)
    m.resolve_chance()
    for seat in range(m.players):
        text = _encoded(m, seat)
        assert m.state.hands[seat]
        assert all(f'"{c}"' in text for c in m.state.hands[seat])
