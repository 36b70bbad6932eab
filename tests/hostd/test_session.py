"""The session handler over real TCP on loopback: handshake, bad frames, limits, intents.

Every bad frame gets ``rejected`` with its code, changes nothing, and never affects another
connection; garbage and silence close the link; a flood is paced, never refused.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import trio

from clients.client import Client, Disconnected, Refused, connect
from hostd.control import request
from hostd.protocol import codes
from hostd.protocol.messages import (
    HostBye,
    ListTables,
    Ping,
    Pong,
    Rejected,
    State,
    Welcome,
    encode,
)
from hostd.tables.hub import HubSettings
from tests.hostd.helpers import running_daemon


async def ask(control: str, op: str, **args: Any) -> Any:
    return await trio.to_thread.run_sync(lambda: request(Path(control), op, **args))


async def next_rejected(c: Client, after: int, timeout: float = 5.0) -> Rejected:
    assert c.messages is not None
    with trio.fail_after(timeout):
        while True:
            for m in c.messages[after:]:
                if isinstance(m, Rejected):
                    return m
            await c.changed()


async def send_bad(c: Client, frame: bytes) -> str:
    assert c.messages is not None
    n = len(c.messages)
    await c.send_raw(frame)
    return (await next_rejected(c, n)).code


async def wait_closed(c: Client, timeout: float = 5.0) -> None:
    with trio.fail_after(timeout):
        while c.closed is None:
            try:
                await c.changed()
            except Disconnected:
                return


async def test_hello_first_then_welcome() -> None:
    async with running_daemon() as d, connect(port=d.tcp_port, hello=False, record=True) as c:
        reply = await c.request(ListTables())
        assert isinstance(reply, Rejected) and reply.code == codes.HELLO_FIRST
        assert reply.message.key == "error.hello_first"
        assert isinstance(await c.ping(), Pong), "ping works before hello"
        w = await c.hello()
        assert isinstance(w, Welcome) and w.protocol == 2 and w.box == "tablebox"
        assert w.ping_after == 5.0 and w.dead_after == 25.0 and w.server.startswith("tablebox")
        assert await c.list_tables() == []


async def test_unsupported_protocol_is_refused_and_closed() -> None:
    async with running_daemon() as d, connect(port=d.tcp_port, hello=False, record=True) as c:
        await c.send_raw(b'{"type":"hello","id":1,"protocol":99}')
        await wait_closed(c)
        assert c.messages is not None
        assert [type(m).__name__ for m in c.messages] == ["Rejected", "HostBye"]
        assert c.messages[0].code == codes.UNSUPPORTED_PROTOCOL  # type: ignore[union-attr]


async def test_a_protocol_1_client_is_refused_with_the_versions_this_box_speaks() -> None:
    async with running_daemon() as d, connect(port=d.tcp_port, hello=False, record=True) as c:
        await c.send_raw(b'{"type":"hello","id":1,"protocol":1,"client":"old"}')
        await wait_closed(c)
        assert c.messages is not None
        rejected, bye = c.messages
        assert isinstance(rejected, Rejected) and rejected.re == 1
        assert rejected.code == codes.UNSUPPORTED_PROTOCOL
        assert rejected.message.args == {"supported": "2"}
        assert isinstance(bye, HostBye) and bye.reason.key == "bye.unsupported_protocol"
        assert bye.reason.args == {"supported": "2"}


BAD_FRAMES = [
    (b"{", codes.INVALID_JSON),
    (b"\xff\xfe{}", codes.INVALID_UTF8),
    (b'{"type":"nope"}', codes.UNKNOWN_TYPE),
    (b'{"type":"join"}', codes.BAD_MESSAGE),
    (b'{"type":"join","code":"X","name":"n","extra":1}', codes.BAD_MESSAGE),
    (b'{"type":"intent","table":"1","version":"x","action":{}}', codes.BAD_MESSAGE),
    (b"[1, 2]", codes.BAD_MESSAGE),
    (b"x" * (70 * 1024), codes.FRAME_TOO_LARGE),
]


async def test_every_bad_frame_gets_its_code_and_the_link_lives_on() -> None:
    async with running_daemon() as d, connect(port=d.tcp_port, record=True) as c:
        for frame, code in BAD_FRAMES:
            assert await send_bad(c, frame) == code, frame[:40]
            assert isinstance(await c.ping(), Pong)  # still alive (and the bad run is reset)
        assert c.closed is None


async def test_garbage_in_a_row_closes_the_link() -> None:
    async with running_daemon() as d, connect(port=d.tcp_port, record=True) as c:
        for _ in range(8):
            await c.send_raw(b"garbage")
        await wait_closed(c)
        assert isinstance(c.bye, HostBye) and c.bye.reason.key == "bye.garbage"
        assert c.messages is not None
        assert sum(isinstance(m, Rejected) for m in c.messages) == 8


async def test_a_flood_is_paced_not_refused() -> None:
    """Frames beyond the rate are read later, not dropped: every ping of a flood is answered
    (with its id, in order), none is refused, the link stays up, and the flood takes as long
    as the bucket says; another connection is answered at once meanwhile."""
    settings = HubSettings(ai_speed=0, grace_seconds=0.2, rate=20, burst=10)
    async with running_daemon(settings=settings) as d, \
            connect(port=d.tcp_port, record=True) as c, connect(port=d.tcp_port) as other:
        assert c.messages is not None
        start = trio.current_time()
        first = len(c.messages)
        for i in range(40):
            await c.send_raw(encode(Ping(id=100 + i)))
        with trio.fail_after(1.0):
            assert isinstance(await other.ping(), Pong), "another connection is unaffected"
        with trio.fail_after(10):
            while sum(isinstance(m, Pong) for m in c.messages[first:]) < 40:
                await c.changed()
        took = trio.current_time() - start
        got = c.messages[first:]
        assert [m.re for m in got] == list(range(100, 140)), got
        assert not any(isinstance(m, Rejected | HostBye) for m in got)
        assert took >= (40 - 10) / 20 * 0.8, f"not paced: {took:.2f} s"
        assert c.closed is None


async def test_a_silent_link_is_closed() -> None:
    settings = HubSettings(ai_speed=0, grace_seconds=0.2, dead_after=0.3)
    async with running_daemon(settings=settings) as d, connect(port=d.tcp_port) as c:
        assert c.welcome is not None and c.welcome.dead_after == 0.3
        await wait_closed(c)
        assert c.bye is not None and c.bye.reason.key == "bye.silent"


async def test_a_link_that_only_receives_still_pings_and_stays_open() -> None:
    """A spectator (or a seat waiting through computer moves) hears the box all the time but
    says nothing: its heartbeat must still speak, since the box's silence clock counts only
    what it hears."""
    settings = HubSettings(ai_speed=0, grace_seconds=0.2, dead_after=1.0, ping_after=0.2)
    async with running_daemon(settings=settings) as d:
        t = await ask(d.control, "tables.new", game="toy", players=2)
        async with connect(port=d.tcp_port, record=True) as watcher:
            assert watcher.welcome is not None and watcher.welcome.ping_after == 0.2
            await watcher.spectate(t["id"])
            seen = len(watcher.messages or [])
            end = trio.current_time() + 3 * settings.dead_after
            while trio.current_time() < end:  # seats taken and given back: states flow
                async with connect(port=d.tcp_port) as p:
                    await p.join(t["code"], "Ana", seat=0)
                    await p.leave(t["id"])
                await trio.sleep(0.05)
            got = (watcher.messages or [])[seen:]
            assert sum(isinstance(m, State) for m in got) >= 10, got
            assert watcher.closed is None and watcher.bye is None
            assert isinstance(await watcher.ping(), Pong)


async def test_the_descriptor_comes_once_per_connection_and_table() -> None:
    """The game's presentation descriptor never changes: a connection's first state of a table
    carries it (a seat, a spectator, a reconnection alike) and no later state repeats it."""
    async with running_daemon() as d:
        t = await ask(d.control, "tables.new", game="toy", players=2, ai="random")
        async with connect(port=d.tcp_port, record=True) as a, \
                connect(port=d.tcp_port, record=True) as watcher:
            await a.join(t["code"], "Ana", seat=0)
            await watcher.spectate(t["id"])
            for _ in range(3):  # a few moves, so each connection gets several states
                st = await a.wait_state(t["id"], lambda s: s.status == "finished" or bool(s.legal))
                if st.status == "finished":
                    break
                await a.intent(t["id"], st.version, st.legal[0], seat=0)
            await watcher.wait_state(t["id"], lambda s: s.version >= st.version)
            for c in (a, watcher):
                states = [m for m in c.messages or [] if isinstance(m, State)]
                assert len(states) >= 2
                assert states[0].presentation is not None
                assert states[0].presentation["family"] == "generic"
                assert all(s.presentation is None for s in states[1:])
        async with connect(port=d.tcp_port, record=True) as again:
            first = await again.spectate(t["id"])
            assert first.presentation is not None


async def test_refused_intents_change_nothing_and_touch_nobody_else() -> None:
    async with running_daemon() as d:
        t = await ask(d.control, "tables.new", game="toy", players=2)
        async with connect(port=d.tcp_port, record=True) as a, \
                connect(port=d.tcp_port, record=True) as b, \
                connect(port=d.tcp_port, record=True) as watcher:
            ja = await a.join(t["code"], "Ana", seat=0)
            jb = await b.join(t["code"], "Bo", seat=1)
            await watcher.spectate(t["id"])
            table = t["id"]
            sa = await a.wait_state(table, lambda s: s.seats[1].controller == "human")
            sb = await b.wait_state(table, lambda s: s.version == sa.version)
            assert sa.to_act == [0] and sb.legal == []
            v = sa.version
            mine = sa.legal[0]
            other_card = {"type": "play", "card": sb.view["hand"][0]}
            cases = [
                (b, v, other_card, None, codes.NOT_YOUR_TURN),
                (a, v + 1, mine, None, codes.STALE_VERSION),
                (a, v - 1, mine, None, codes.STALE_VERSION),
                (a, v, mine, 1, codes.WRONG_SEAT),
                (a, v, other_card, None, codes.ILLEGAL_ACTION),
                (a, v, {"type": "play"}, None, codes.BAD_ACTION),
                (a, v, {"type": "fly", "card": "AS"}, None, codes.BAD_ACTION),
                (watcher, v, mine, None, codes.NOT_SEATED),
            ]
            counts = {id(x): len(x.messages or []) for x in (a, b, watcher)}
            for client, version, action, seat, code in cases:
                with pytest.raises(Refused) as e:
                    await client.intent(table, version, action, seat=seat)
                assert e.value.code == code
            with pytest.raises(Refused) as e:
                await a.intent("999", v, mine)
            assert e.value.code == codes.UNKNOWN_TABLE
            shown = await ask(d.control, "tables.show", table=table)
            assert shown["version"] == v
            for x in (a, b, watcher):
                await x.ping()
                new = (x.messages or [])[counts[id(x)]:]
                assert not any(isinstance(m, State) for m in new), "nobody was sent a state"
            # and the seat still plays normally
            s = await a.intent(table, v, mine, seat=ja.seat)
            assert s.version == v + 1 and s.re is not None
            await b.wait_state(table, lambda s: s.version == v + 1 and bool(s.legal))
            assert jb.token and ja.token and ja.token != jb.token


async def test_join_refusals_over_the_wire() -> None:
    async with running_daemon() as d:
        t = await ask(d.control, "tables.new", game="toy", players=2)
        async with connect(port=d.tcp_port) as a, connect(port=d.tcp_port) as b:
            cases: list[tuple[str, str, int | None, str]] = [
                (t["code"], "   ", None, codes.BAD_NAME),
                ("ZZZZ", "Ana", None, codes.UNKNOWN_TABLE),
                (t["code"], "Ana", 5, codes.NO_SUCH_SEAT)]
            for code_, name, seat, code in cases:
                with pytest.raises(Refused) as e:
                    await a.join(code_, name, seat)
                assert e.value.code == code
            await a.join(t["code"].lower(), "Ana", 0)  # codes are case-insensitive
            with pytest.raises(Refused) as e:
                await b.join(t["code"], "Bo", 0)
            assert e.value.code == codes.SEAT_TAKEN
            with pytest.raises(Refused) as e:
                await a.join(t["code"], "Ana again")
            assert e.value.code == codes.ALREADY_SEATED
            with pytest.raises(Refused) as e:
                await b.resume("not-a-token")
            assert e.value.code == codes.BAD_TOKEN
            await ask(d.control, "drain", wait=False)
            with pytest.raises(Refused) as e:
                await b.join(t["code"], "Bo")
            assert e.value.code == codes.DRAINING
