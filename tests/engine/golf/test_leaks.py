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

import random
from typing import Any

import pytest
import trio

from clients.client import Client
from engine.golf import GAME
from tests.hostd.helpers import running_daemon
from tests.hostd.test_daemon import ask
from tests.hostd.test_leaks import check_bytes, noisy_play, observed_table, true_states

CASES = [(3, {"layout": "4", "holes": 2}), (3, {"layout": "9", "holes": 1}),
         (2, {"layout": "6", "holes": 2, "flip": "mandatory", "final_turn": False}),
         (3, {"layout": "8", "holes": 1, "knock_penalty": True, "end": "knock"})]


@pytest.mark.parametrize(("players", "options"), CASES,
                         ids=[str(o["layout"]) + "-" + str(p) for p, o in CASES])
async def test_no_face_down_or_peeked_card_reaches_a_client_that_may_not_know_it(
        players: int, options: dict[str, Any]) -> None:
    async with running_daemon() as d, \
            observed_table(d, "golf", players, **options) as (t, clients, kiosk):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(noisy_play, clients, t["id"], random.Random(players))
        record = await ask(d.control, "export", table=t["id"])
        await kiosk.wait_state(t["id"], lambda s: s.status == "finished")
        assert record["options"]["layout"] == options["layout"]
        states = true_states(record)
        if options["layout"] == "4":  # the secret this file is about was really there
            assert any(any(p) for st in states for p in st.peeked)
        tokens = {s: c.joined[t["id"]].token for s, c in clients.items()}
        checked = 0
        observers: list[tuple[int | None, Client]] = [*clients.items(), (None, kiosk)]
        for viewer, c in observers:
            assert c.raw is not None
            mine = tokens.get(viewer) if viewer is not None else None
            checked += check_bytes(GAME, players, states, viewer, bytes(c.raw), record["seed"],
                                   mine, {tok for s, tok in tokens.items() if s != viewer})
        assert checked > len(record["steps"]), "every client saw the game"
