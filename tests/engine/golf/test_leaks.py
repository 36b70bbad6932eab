"""Golf through the daemon's leak check (tests/hostd/test_leaks.py) on the layouts with secrets.

The registry-wide leak test plays every game at its default options (6-card Golf, four
players, two decks). Here the layouts whose secrets differ are played too: 4-card Golf, where
each seat peeked at its bottom row (known to that seat alone) and knocks end the hole; 9-card;
and 6-card with mandatory flips. One deck (three players or fewer), so a card code names one
card and the byte check is exact: every frame each client received (people on TCP and
WebSocket, and a spectator) is compared with the true state replayed from the record, the view
byte for byte, and no face-down card it has not seen, no peeked card of another seat and no
stock card reaches it.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.hostd.test_leaks import check_one_table

CASES = [(3, {"layout": "4", "holes": 2}), (3, {"layout": "9", "holes": 1}),
         (2, {"layout": "6", "holes": 2, "flip": "mandatory", "final_turn": False}),
         (3, {"layout": "8", "holes": 1, "knock_penalty": True, "end": "knock"})]


@pytest.mark.parametrize(("players", "options"), CASES,
                         ids=[str(o["layout"]) + "-" + str(p) for p, o in CASES])
async def test_no_face_down_or_peeked_card_reaches_a_client_that_may_not_know_it(
        players: int, options: dict[str, Any]) -> None:
    states = await check_one_table("golf", players, options)
    if options["layout"] == "4":  # the secret this file is about was really there
        assert any(any(p) for st in states for p in st.peeked)
