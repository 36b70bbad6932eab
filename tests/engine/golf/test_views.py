"""Golf views hold only what their seat may know, checked on the encoded bytes.

Face-down cards are hidden from everyone, their owner included; a peeked card (4-card Golf)
stays known to its owner alone; a stock card held is named only to its holder. Checked cell
by cell over random games of every layout, and by looking for the card codes in the JSON.
"""

from __future__ import annotations

import json
import random

import pytest

from engine.codec import to_data
from engine.golf import GAME
from engine.golf.state import DrawStock
from engine.match import Match
from tests.engine.golf.scenario import start


def encoded(m: Match, seat: int | None) -> str:
    return json.dumps(to_data(m.view(seat)))


@pytest.mark.parametrize("layout", ["4", "6", "8", "9"])
def test_face_down_and_peeked_cards_reach_nobody_who_may_not_know_them(layout: str) -> None:
    for seed in range(3):
        m = Match.start(GAME, 3, {"layout": layout, "holes": 1}, seed)
        rng = random.Random(seed)
        while m.outcome() is None:
            st = m.state
            if st.phase not in ("between", "over"):
                for owner in range(3):
                    for viewer in (None, 0, 1, 2):
                        cells = m.view(viewer).layouts[owner]
                        for i, c in enumerate(cells):
                            known = st.up[owner][i] or (viewer == owner and st.peeked[owner][i])
                            assert c.card == (st.layouts[owner][i] if known else "")
                            assert c.up == st.up[owner][i]
            seat = m.to_act()[0]
            legal = m.legal(seat)
            m.act(seat, legal[rng.randrange(len(legal))])
            m.resolve_chance()


def test_peeked_cards_are_absent_from_the_bytes_of_other_views() -> None:
    a = ["AS", "3S", "4S", "5S"]
    b = ["AH", "3H", "KH", "KD"]
    m = start([a, b], "9D", ["QC"], {"layout": "4"})
    assert '"4S"' in encoded(m, 0) and '"5S"' in encoded(m, 0)
    for other in (None, 1):
        text = encoded(m, other)
        assert all(f'"{c}"' not in text for c in a)
    # Nobody, the owner included, knows the far row.
    assert all(f'"{c}"' not in encoded(m, s) for c in ("AS", "3S", "AH", "3H")
               for s in (None, 0, 1))


def test_a_stock_card_held_is_named_to_its_holder_only() -> None:
    m = start([["AS", "3S", "4S", "5S", "6S", "7S"], ["AH", "3H", "4H", "5H", "6H", "7H"]],
              "9D", ["KC"])
    m.act(1, DrawStock())
    assert m.view(1).holding == "KC" and m.view(1).holding_from == "stock"
    for other in (None, 0):
        assert m.view(other).holding == "" and '"KC"' not in encoded(m, other)
