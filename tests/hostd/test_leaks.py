"""Leak check: every byte sent to every client during many random games, against the truth.

Each client records the raw bytes it received. After the games, the stored records (which
hold the seed and every deal) are replayed step by step, giving the true state at every
version, and each frame is checked against it:

- a ``state`` frame's view (and a ``patch`` frame's, applied to the state held) is exactly ``view(true state, that seat)`` (spectators: ``None``)
  and its ``legal`` exactly that seat's legal actions; no other seat's view or actions;
- no card another seat holds unseen (a card in another seat's view, not in this one's) and
  no card outside this seat's own view (undealt, buried) appears anywhere in the frame;
- the seed never appears, and no seat token but the client's own (once, in ``joined``).

For Sequence (two decks: every code is on the public board) the exact view equality is what
counts, with the engine's own view-invariance check (``resample_hidden``) behind it.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
import trio

from clients.client import Client, connect, connect_ws
from engine import registry
from engine.codec import to_data
from engine.game import Game
from engine.records import start_from
from hostd.protocol.patch import apply
from tests.hostd.helpers import GAMES, PLAYERS, play_to_end, running_daemon
from tests.hostd.test_daemon import ask

CARD = re.compile(r'"([A2-9TJQK][SHDC])"')
TABLES = {"toy": 6, "sequence": 1, "euchre": 2, "president": 2}


def cards(obj: Any) -> set[str]:
    return set(CARD.findall(json.dumps(obj)))


def true_states(record: dict[str, Any]) -> list[Any]:
    """The true state after each number of steps (version == steps in a table's first game)."""
    m = start_from(record)
    states = [m.state]
    for step in record["steps"]:
        if "chance" in step:
            m.apply_chance(m.game.chances.decode(step["chance"]))
        else:
            m.act(step["seat"], m.decode_action(step["action"]))
        states.append(m.state)
    return states


def check_bytes(game: Game[Any], players: int, states: list[Any], seat: int | None,
                raw: bytes, seed: int, my_token: str | None, other_tokens: set[str]) -> int:
    """Check every frame one client received; the number of state frames checked."""
    views: dict[int, list[tuple[Any, Any, Any]]] = {}

    def at(v: int) -> tuple[Any, Any, Any]:
        if v not in views:
            st = states[v]
            every = {s: to_data(game.view(st, s)) for s in range(players)}
            mine = to_data(game.view(st, seat))
            legal = [to_data(a) for a in game.legal_actions(st, seat)] if seat is not None else []
            visible = cards(mine) | cards(legal)
            others = set().union(*(cards(v_) for s, v_ in every.items() if s != seat))
            views[v] = [(mine, legal, (visible, others - visible))]
        return views[v][0]

    checked = 0
    version = 0
    token_seen = 0
    held: dict[str, Any] | None = None
    for line in raw.split(b"\n"):
        if not line:
            continue
        text = line.decode("utf-8")
        frame = json.loads(text)
        assert str(seed) not in text, "the seed left the host"
        for t in other_tokens:
            assert t not in text, "another seat's token was sent"
        if my_token is not None and my_token in text:
            assert frame["type"] == "joined", "a token is only ever in 'joined'"
            token_seen += 1
        if frame["type"] in ("state", "patch"):
            if frame["type"] == "state":
                held = frame
            else:
                # Protocol 2: a patch applies to the state this client holds, which must be
                # the one at its base; the state it gives is checked like a full one.
                assert held is not None and held["version"] == frame["base"], "patch out of step"
                held = {**apply(held, frame["ops"]), "version": frame["version"]}
            version = held["version"]
            mine, legal, _ = at(version)
            assert held["seat"] == seat
            assert held["view"] == mine, f"seat {seat} at version {version}: not its view"
            assert held["legal"] == legal, f"seat {seat} at version {version}: not its actions"
            checked += 1
        visible, hidden = at(version)[2]
        found = cards(frame)
        leaked = found & hidden
        assert not leaked, f"seat {seat} was sent {sorted(leaked)}, held unseen by another seat"
        outside = found - visible
        assert not outside, f"seat {seat} was sent {sorted(outside)}, which it cannot see"
    if my_token is not None:
        assert token_seen == 1
    return checked


@contextlib.asynccontextmanager
async def observed_table(d: Any, game: str, players: int | None = None,
                         **options: Any) -> AsyncIterator[tuple[dict[str, Any],
                                                                dict[int, Client], Client]]:
    """A table with people in every seat but the last (an AI), plus a recording spectator."""
    n = players or PLAYERS[game]
    t = await ask(d.control, "tables.new", game=game, players=n, ai="random",
                  **({"options": options} if options else {}))
    async with contextlib.AsyncExitStack() as stack:
        clients: dict[int, Client] = {}
        for seat in range(n - 1):
            if seat == 1 and d.http_port is not None:
                c = await stack.enter_async_context(
                    connect_ws(f"ws://127.0.0.1:{d.http_port}/ws", record=True))
            else:
                c = await stack.enter_async_context(connect(port=d.tcp_port, record=True))
            await c.join(t["code"], f"Player {seat}", seat)
            clients[seat] = c
        kiosk = await stack.enter_async_context(connect(port=d.tcp_port, record=True))
        await kiosk.spectate(t["id"])
        yield t, clients, kiosk


async def noisy_play(clients: dict[int, Client], table: str, rng: random.Random) -> None:
    """Random play, with seats now and then trying another seat's move (refused)."""

    async def noise() -> None:
        while True:
            await trio.sleep(0.005)
            latest = max((c.states[table] for c in clients.values() if table in c.states),
                         key=lambda s: s.version, default=None)
            if latest is None or latest.status != "playing":
                return
            idle = [(s, c) for s, c in clients.items() if not c.states[table].legal]
            acting = [c.states[table] for c in clients.values() if c.states[table].legal]
            if idle and acting and rng.random() < 0.5:
                seat, c = rng.choice(idle)
                with contextlib.suppress(Exception):
                    await c.intent(table, latest.version, rng.choice(acting[0].legal), seat=seat)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(noise)
        await play_to_end(clients, table, rng, timeout=120)


@pytest.mark.parametrize("game", GAMES)
async def test_no_byte_sent_to_any_client_leaks_hidden_information(game: str) -> None:
    g = registry.get(game)
    n = PLAYERS[game]
    async with running_daemon() as d, contextlib.AsyncExitStack() as stack:
        tables = [await stack.enter_async_context(observed_table(d, game))
                  for _ in range(TABLES.get(game, 2))]
        async with trio.open_nursery() as nursery:
            for i, (t, clients, _kiosk) in enumerate(tables):
                nursery.start_soon(noisy_play, clients, t["id"], random.Random(i))
        records = [await ask(d.control, "export", table=t["id"]) for t, _, _ in tables]
        for (t, clients, kiosk), record in zip(tables, records, strict=True):
            await check_every_client(g, n, t, clients, kiosk, record)


async def check_every_client(g: Any, n: int, t: dict[str, Any], clients: dict[int, Client],
                             kiosk: Client, record: dict[str, Any]) -> list[Any]:
    """Every byte each person and the spectator of table ``t`` received, against the true
    states replayed from its ``record``; the true states, for a caller's own checks."""
    await kiosk.wait_state(t["id"], lambda s: s.status == "finished")
    assert record["outcome"] is not None and "seed" in record
    states = true_states(record)
    tokens = {s: c.joined[t["id"]].token for s, c in clients.items()}
    checked = 0
    observers: list[tuple[int | None, Client]] = [*clients.items(), (None, kiosk)]
    for seat, c in observers:
        assert c.raw is not None
        mine = tokens.get(seat) if seat is not None else None
        checked += check_bytes(g, n, states, seat, bytes(c.raw), record["seed"], mine,
                               {tok for s, tok in tokens.items() if s != seat})
    assert checked > len(record["steps"]), "every client saw the game"
    return states


async def check_one_table(game: str, players: int, options: dict[str, Any]) -> list[Any]:
    """One table of ``game`` at ``options`` through the daemon, played noisily to the end,
    every client's bytes checked; the true states."""
    async with running_daemon() as d, \
            observed_table(d, game, players, **options) as (t, clients, kiosk):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(noisy_play, clients, t["id"], random.Random(players))
        record = await ask(d.control, "export", table=t["id"])
        assert {k: record["options"][k] for k in options} == options
        return await check_every_client(registry.get(game), players, t, clients, kiosk, record)
