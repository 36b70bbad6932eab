"""SIGKILL the daemon (a subprocess) at random moments during play; nothing shown is lost.

Tables of every game play with people (this test's clients) in two seats, AI in the rest. At a
random moment the daemon gets SIGKILL; it is restarted on the same data, every client
resumes its seat with its token, and each table must come back at (or, for a step that was
committed but not yet delivered when the kill came, just after) the last version anybody
saw. After a few kills the games are played to the end; the final records replay, and every
state any client was ever shown matches the replay at that version: nothing seen was lost
or rewritten.
"""

from __future__ import annotations

import contextlib
import random
from typing import Any

import trio

from clients.client import Client, ClientError, Refused, connect
from engine import registry
from engine.codec import to_data
from engine.records import replay
from hostd.control import request
from hostd.protocol.messages import State
from tests.hostd.helpers import GAMES, PLAYERS, DaemonProcess, short_dir, start_process
from tests.hostd.test_leaks import true_states

KILLS = 3
HUMANS = 2  # people in seats 0 and 1; computer players in the others (they move fastest)


class Seen:
    """Every state each (table, seat) was shown, across daemon lives."""

    def __init__(self) -> None:
        self.states: dict[tuple[str, int], list[State]] = {}
        self.tokens: dict[tuple[str, int], str] = {}

    def add(self, table: str, seat: int, c: Client) -> None:
        assert c.messages is not None
        self.states.setdefault((table, seat), []).extend(
            m for m in c.messages if isinstance(m, State) and m.table == table)
        c.messages.clear()

    def last_version(self, table: str) -> int:
        return max((s.version for (t, _), ss in self.states.items() if t == table for s in ss),
                   default=0)


async def play_life(d: DaemonProcess, tables: dict[str, dict[str, Any]], seen: Seen,
                    rng: random.Random, kill_after: float | None) -> dict[str, State]:
    """One daemon life: seat everybody (join or resume), play; kill at ``kill_after``.

    Returns, per table, the state each table was first shown at in this life.
    """
    first: dict[str, State] = {}
    async with contextlib.AsyncExitStack() as stack:
        clients: dict[tuple[str, int], Client] = {}
        for t in tables.values():
            for seat in range(HUMANS):
                c = await stack.enter_async_context(connect(port=d.tcp_port, record=True))
                key = (t["id"], seat)
                if key in seen.tokens:
                    await c.resume(seen.tokens[key])
                else:
                    joined = await c.join(t["code"], f"P{seat}", seat)
                    seen.tokens[key] = joined.token
                s = await c.wait_state(t["id"])
                first.setdefault(t["id"], s)
                first[t["id"]] = min(first[t["id"]], s, key=lambda x: x.version)
                clients[key] = c

        async def player(key: tuple[str, int], c: Client) -> None:
            table, seat = key
            with contextlib.suppress(ClientError):
                while True:
                    s = await c.wait_state(table, lambda s: bool(s.legal) or s.status != "playing",
                                           timeout=60)
                    if s.status != "playing":
                        return
                    await trio.sleep(rng.random() * 0.004)
                    try:
                        await c.intent(table, s.version, rng.choice(s.legal), seat=seat)
                    except Refused:
                        await c.changed()  # a newer state is on its way


        async with trio.open_nursery() as nursery:
            for key, c in clients.items():
                nursery.start_soon(player, key, c)
            if kill_after is not None:
                await trio.sleep(kill_after)
                await trio.to_thread.run_sync(d.kill)
                nursery.cancel_scope.cancel()
        for key, c in clients.items():
            seen.add(key[0], key[1], c)
    return first


def test_sigkill_at_random_moments_loses_nothing_anyone_saw() -> None:
    rng = random.Random(20240601)
    tmp = short_dir()
    data, control = tmp / "data", tmp / "c.sock"
    d = start_process(data, control, "--ai-processes", "0")
    seen = Seen()
    try:
        tables = {g: request(control, "tables.new", game=g, players=PLAYERS[g], ai="random")
                  for g in GAMES}
        trio.run(play_life, d, tables, seen, rng, 0.3 + rng.random() * 0.4)
        for life in range(1, KILLS + 1):
            before = {t["id"]: seen.last_version(t["id"]) for t in tables.values()}
            d = start_process(data, control, "--ai-processes", "0")
            kill_after = 0.2 + rng.random() * 0.5 if life < KILLS else None  # last: play out
            first = trio.run(play_life, d, tables, seen, rng, kill_after)
            for tid, version in before.items():
                assert first[tid].version >= version, (
                    f"table {tid} came back at {first[tid].version}, but {version} was shown")
        for game, t in tables.items():
            record = request(control, "export", table=t["id"])
            assert record["outcome"] is not None, f"{game} did not finish"
            result = replay(record)
            assert result.valid, result.error
            states = true_states(record)
            g = registry.get(game)
            checked = 0
            for (tid, seat), shown in seen.states.items():
                if tid != t["id"]:
                    continue
                for s in shown:
                    assert s.view == to_data(g.view(states[s.version], seat)), (
                        f"{game} seat {seat} was shown version {s.version} differently")
                    checked += 1
            assert checked > len(record["steps"])
    finally:
        d.kill()
