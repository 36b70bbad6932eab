"""A client faster than its rate limit is slowed, never wedged (real sockets on loopback).

Four seats at one table (two over TCP, two over WebSocket), each sending intents as fast as
it can: on its turn a burst of stale copies and then the real intent, all at once, without
waiting for any answer, game after game. The limit is set low so every seat runs into it.
The games must all finish, every intent must be answered, and every ``rejected`` any seat
got must name the request it answers. (Before pacing, the frames past the bucket got
``rate_limited`` without an id, the real intent among them, and its seat waited for ever;
a longer burst was cut off with ``bye.flood``.)
"""

from __future__ import annotations

import contextlib
from functools import partial
from typing import Any

import trio

from clients.client import Client, connect, connect_ws
from hostd.protocol.messages import Intent, Rejected, State, encode
from hostd.tables.hub import HubSettings
from tests.hostd.helpers import ask, running_daemon

COPIES = 11  # stale intents sent ahead of each real one
GAMES = 3
RATE, BURST = 40.0, 12.0


class FastSeat:
    """One seat that never waits before sending: its ids start far above the client's own."""

    def __init__(self, client: Client, table: str, seat: int) -> None:
        self.c = client
        self.table = table
        self.seat = seat
        self.next_id = 1_000_000 * (seat + 1)
        self.sent: set[int] = set()
        self.acted = -1

    async def send(self, version: int, action: dict[str, Any]) -> int:
        self.next_id += 1
        self.sent.add(self.next_id)
        await self.c.send_raw(encode(Intent(id=self.next_id, table=self.table,
                                            version=version, action=action, seat=self.seat)))
        return self.next_id

    async def turn(self, s: State) -> None:
        """A burst: stale copies (refused), then the real intent; wait for its answer."""
        self.acted = s.version
        for _ in range(COPIES):
            await self.send(s.version + 1000, s.legal[0])  # never current: refused
        real = await self.send(s.version, s.legal[0])
        await answer(self.c, real)


async def answer(c: Client, re: int) -> Any:
    """The host's answer to request ``re`` (a stalled seat fails the test here)."""
    assert c.messages is not None
    with trio.fail_after(10):
        while True:
            for m in reversed(c.messages):
                if getattr(m, "re", None) == re:
                    return m
            await c.changed()


def next_game(ended: int, s: State) -> bool:
    return s.status == "playing" and s.version > ended


async def test_a_fast_client_at_one_table_finishes_and_every_rejection_names_its_id() -> None:
    settings = HubSettings(ai_speed=0, grace_seconds=5, rate=RATE, burst=BURST)
    async with running_daemon(settings=settings) as d, contextlib.AsyncExitStack() as stack:
        t = await ask(d.control, "tables.new", game="toy", players=4)
        seats: list[FastSeat] = []
        for i in range(4):
            c = await stack.enter_async_context(
                connect(port=d.tcp_port, record=True) if i % 2 == 0
                else connect_ws(f"ws://127.0.0.1:{d.http_port}/ws", record=True))
            await c.join(t["code"], f"P{i}", seat=i)
            seats.append(FastSeat(c, t["id"], i))
        finished = 0
        with trio.fail_after(60):
            while finished < GAMES:
                latest = max((x.c.states[t["id"]] for x in seats if t["id"] in x.c.states),
                             key=lambda s: s.version)
                if latest.status == "finished":
                    finished += 1
                    if finished < GAMES:
                        for x in seats:
                            await x.c.rematch(t["id"])
                        await seats[0].c.wait_state(t["id"], partial(next_game, latest.version))
                    continue
                mover = next((x for x in seats
                              if (s := x.c.states.get(t["id"])) is not None and s.legal
                              and s.version == latest.version and s.version > x.acted), None)
                if mover is None:
                    await trio.sleep(0.005)  # the state is on its way to some seat
                    continue
                await mover.turn(mover.c.states[t["id"]])
        for x in seats:
            assert x.c.messages is not None and x.c.bye is None and x.c.closed is None
            rejected = [m for m in x.c.messages if isinstance(m, Rejected)]
            assert rejected, "the stale copies were refused"
            assert all(m.re in x.sent for m in rejected), [m for m in rejected if m.re is None]
            assert {m.code for m in rejected} <= {"stale_version", "not_your_turn"}, rejected
            await answer(x.c, max(x.sent))  # the last burst was answered to its end
