"""Crazy Eights views hold only what their seat may know, checked on the encoded bytes.

Other hands never appear in another seat's view nor in the spectator's; a drawn card is named
to nobody but the drawer (whose hand shows it); the stock is a count.
"""

from __future__ import annotations

import json
import random

from engine.codec import to_data
from engine.crazy_eights import GAME
from engine.crazy_eights.state import DRAW
from engine.match import Match
from tests.engine.crazy_eights.scenario import start

H0 = ["2S", "3S", "4S", "5S", "6S", "7S", "9S"]
H1 = ["2H", "3H", "4H", "5H", "6H", "7H", "8H"]


def encoded(m: Match, seat: int | None) -> str:
    return json.dumps(to_data(m.view(seat)))


def test_other_hands_never_reach_another_seat_or_the_spectator() -> None:
    for seed in range(6):
        m = Match.start(GAME, 4, {"target": 30}, seed)
        rng = random.Random(seed)
        for _ in range(150):  # the first 150 steps of each game: draws, eights, reshuffles
            if m.outcome() is not None:
                break
            discard = set(m.state.discard)
            for seat in range(4):
                secret = set(m.state.hands[seat]) - discard
                for other in (None, *(s for s in range(4) if s != seat)):
                    text = encoded(m, other)
                    leaked = [c for c in secret if f'"{c}"' in text]
                    assert leaked == [], (seat, other, leaked)
                assert m.view(seat).hand == m.state.hands[seat]
            for c in m.state.stock[:5]:
                if c not in discard and not any(c in h for h in m.state.hands):
                    assert all(f'"{c}"' not in encoded(m, s) for s in (None, 0, 1, 2, 3))
            seat = m.to_act()[0]
            legal = m.legal(seat)
            m.act(seat, legal[rng.randrange(len(legal))])
            m.resolve_chance()


def test_a_drawn_card_is_named_to_the_drawer_only() -> None:
    m = start([H0, H1], ["9D", "KC", "QD"])
    m.act(1, DRAW)
    assert "KC" in m.view(1).hand
    assert '"KC"' not in encoded(m, 0) and '"KC"' not in encoded(m, None)
    last = m.view(0).last
    assert last is not None and last.kind == "draw" and last.card == ""
    assert m.view(0).hand_counts == (7, 8) and m.view(0).stock_count == m.view(1).stock_count


def test_spectator_sees_no_hand() -> None:
    m = start([H0, H1], ["9D"])
    v = m.view(None)
    assert v.hand == () and v.hand_counts == (7, 7) and v.discard == ("9D",)
    assert all(f'"{c}"' not in encoded(m, None) for c in H0 + H1)
