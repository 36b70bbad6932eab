"""State patches through the real daemon: what each connection receives, and what it makes.

- For every registered game: a person (the test client) and computer players at a table, and
  a spectator, to the end. Every frame each received (full states and patches, raw bytes) is
  applied in order and each resulting view and legal list must be the one the record's replay
  gives for that seat at that version (``test_leaks.check_bytes``); patches did most of the
  work, and the state patches built is exactly the full state a ``sync`` then sends.
- A seat whose view did not change (Mastermind: the codemaker while the breaker sets pegs)
  receives nothing for that move, and the next patch it gets is based on the version it has.
- A patch that does not follow the version held makes the client ``sync``; the full state
  comes, and play carries on in patches.
- ``sync`` for a table the connection is not at is refused with a stable code.
"""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

import msgspec
import pytest
import trio

from clients.client import Refused, connect
from engine import registry
from hostd.protocol import codes
from hostd.protocol.messages import Patch, Pong, Rejected, State, Sync
from tests.hostd.helpers import GAMES, PLAYERS, play_to_end, running_daemon
from tests.hostd.test_daemon import ask
from tests.hostd.test_leaks import check_bytes, true_states

# What a sync's full state and a patched one may differ in: the answer's own fields.
OWN = ("re", "presentation")


def frames(raw: bytes) -> list[dict[str, Any]]:
    return [json.loads(line) for line in raw.split(b"\n") if line]


def comparable(state: State) -> dict[str, Any]:
    data: dict[str, Any] = msgspec.to_builtins(state)
    for k in OWN:
        data.pop(k)
    return data


@pytest.mark.parametrize("game", GAMES)
async def test_every_frame_a_seat_received_replays_to_the_record_views(game: str) -> None:
    g = registry.get(game)
    n = PLAYERS[game]
    async with running_daemon() as d, \
            connect(port=d.tcp_port, record=True) as person, \
            connect(port=d.tcp_port, record=True) as kiosk:
        t = await ask(d.control, "tables.new", game=game, players=n, ai="random")
        joined = await person.join(t["code"], "Ana", 0)
        await kiosk.spectate(t["id"])
        await play_to_end({0: person}, t["id"], random.Random(7), timeout=120)
        await kiosk.wait_state(t["id"], lambda s: s.status == "finished")
        record = await ask(d.control, "export", table=t["id"])
        states = true_states(record)
        for seat, c, token in ((0, person, joined.token), (None, kiosk, None)):
            assert c.raw is not None
            checked = check_bytes(g, n, states, seat, bytes(c.raw), record["seed"], token, set())
            kinds = [f["type"] for f in frames(bytes(c.raw))]
            assert checked == kinds.count("state") + kinds.count("patch")
            assert kinds.count("state") == 1, "one full state, then patches only"
            assert kinds.count("patch") >= 1 and c.syncs == 0
            # The state patches made is the whole state, field for field.
            held = c.states[t["id"]]
            full = await c.request(Sync(table=t["id"]))
            assert isinstance(full, State) and full.version == held.version
            assert comparable(full) == comparable(held)


async def _peg_phase(breaker: Any, table: str) -> State:
    return await breaker.wait_state(
        table, lambda s: any(a["type"] == "set_peg" for a in s.legal), timeout=20)


async def test_a_seat_whose_view_did_not_change_receives_nothing_for_that_move() -> None:
    async with running_daemon() as d, \
            connect(port=d.tcp_port, record=True) as breaker, \
            connect(port=d.tcp_port, record=True) as maker, \
            connect(port=d.tcp_port, record=True) as kiosk:
        t = await ask(d.control, "tables.new", game="mastermind", players=2, ai="random")
        await breaker.join(t["code"], "Breaker", 1)
        await maker.join(t["code"], "Maker", 0)
        await kiosk.spectate(t["id"])
        s = await _peg_phase(breaker, t["id"])
        watching = {"maker": maker, "kiosk": kiosk}
        assert all(c.raw is not None for c in watching.values())
        held = {k: c.states[t["id"]].version for k, c in watching.items()}
        before = {k: len(c.raw or b"") for k, c in watching.items()}
        moves = 0
        holes = sorted({a["hole"] for a in s.legal if a["type"] == "set_peg"})
        for hole in holes:  # one peg in each hole: then the guess can go in
            peg = next(a for a in s.legal if a["type"] == "set_peg" and a["hole"] == hole)
            s = await breaker.intent(t["id"], s.version, peg, seat=1)
            moves += 1
        for c in watching.values():
            assert isinstance(await c.ping(), Pong)  # behind anything the box had queued
        for k, c in watching.items():
            got = frames(bytes(c.raw or b"")[before[k]:])
            assert [f["type"] for f in got] == ["pong"], f"{k} was sent {got}"
            assert c.states[t["id"]].version == held[k]
        assert s.version >= held["kiosk"] + moves
        # The guess goes in: everyone sees it, as a patch from the version they hold.
        submit = next(a for a in s.legal if a["type"] == "submit")
        done = await breaker.intent(t["id"], s.version, submit, seat=1)
        for k, c in watching.items():
            after = await c.wait_state(t["id"], lambda x: x.version >= done.version)
            patches = [f for f in frames(bytes(c.raw or b"")[before[k]:]) if f["type"] == "patch"]
            assert patches and patches[0]["base"] == held[k], k
            full = await c.request(Sync(table=t["id"]))
            assert isinstance(full, State)
            assert c.syncs == 0 and after.view == full.view


async def test_a_patch_that_does_not_follow_brings_a_sync_and_a_full_state() -> None:
    async with running_daemon() as d, \
            connect(port=d.tcp_port, record=True) as person, \
            connect(port=d.tcp_port, record=True) as kiosk:
        t = await ask(d.control, "tables.new", game="euchre", players=4, ai="random")
        await person.join(t["code"], "Ana", 0)
        first = await kiosk.spectate(t["id"])
        # The spectator "missed" a frame: what it holds is not the version the box sent it.
        kiosk.follower._docs[t["id"]]["version"] = first.version - 1
        mark = len(kiosk.raw or b"")
        async with trio.open_nursery() as nursery:
            nursery.start_soon(play_to_end, {0: person}, t["id"], random.Random(3))
            await kiosk.wait_state(t["id"], lambda s: s.version > first.version, timeout=30)
            nursery.cancel_scope.cancel()
        got = frames(bytes(kiosk.raw or b"")[mark:])
        kinds = [f["type"] for f in got]
        assert kinds[0] == "patch" and kinds[0] != "state"
        assert kiosk.syncs == 1
        full = kinds.index("state")
        assert all(k == "patch" for k in kinds[:full]), "patches waiting for the state are ignored"
        # From the full state on, patches follow again; the held state is the box's.
        assert all(f["base"] == got[i - 1].get("version", f["base"])
                   for i, f in enumerate(got) if f["type"] == "patch" and i > full)
        assert isinstance(kiosk.messages, list)
        assert any(isinstance(m, Patch) for m in kiosk.messages), "the refused patch is kept"
        with trio.fail_after(10):
            while True:
                held = kiosk.states[t["id"]]
                fresh = await kiosk.request(Sync(table=t["id"]))
                assert isinstance(fresh, State)
                if fresh.version == held.version:
                    break
        assert comparable(fresh) == comparable(held) and kiosk.syncs == 1


async def test_sync_for_a_table_one_is_not_at_is_refused() -> None:
    async with running_daemon() as d, connect(port=d.tcp_port, record=True) as c:
        t = await ask(d.control, "tables.new", game="euchre", players=4, ai="random")
        for table, code in ((t["id"], codes.NOT_SEATED), ("nope", codes.UNKNOWN_TABLE)):
            reply = await c.request(Sync(table=table))
            assert isinstance(reply, Rejected) and reply.code == code
        with contextlib.suppress(Refused):
            await c.spectate(t["id"])
        assert isinstance(await c.request(Sync(table=t["id"])), State)
