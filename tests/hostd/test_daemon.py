"""The daemon end to end on loopback: full games over TCP and WebSocket mixed, seats that
drop and come back, takeovers, turn timers, rematches, a database that refuses writes, and
a graceful SIGTERM."""

from __future__ import annotations

import contextlib
import random
import sqlite3
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
import trio

from clients.client import Client, Refused, connect, connect_ws
from engine.codec import to_data
from engine.records import replay
from hostd.control import request
from hostd.protocol import codes
from hostd.protocol.messages import Notice, State
from tests.hostd.helpers import (
    GAMES,
    PLAYERS,
    ask,
    daemon_process,
    play_to_end,
    running_daemon,
    short_dir,
)


@contextlib.asynccontextmanager
async def seated(d: Any, code: str, n: int, *, ws: bool = True,
                 record: bool = False) -> AsyncIterator[dict[int, Client]]:
    """``n`` clients at the table, alternating TCP and WebSocket when the web port is up."""
    async with contextlib.AsyncExitStack() as stack:
        clients: dict[int, Client] = {}
        for i in range(n):
            if ws and d.http_port is not None and i % 2 == 1:
                c = await stack.enter_async_context(
                    connect_ws(f"ws://127.0.0.1:{d.http_port}/ws", record=record))
            else:
                c = await stack.enter_async_context(connect(port=d.tcp_port, record=record))
            joined = await c.join(code, f"P{i}")
            clients[joined.seat] = c
        yield clients


def notices(c: Client, key: str) -> list[Notice]:
    return [n for n in c.notices if n.text.key == key]


async def wait_notice(c: Client, key: str, timeout: float = 5.0) -> Notice:
    with trio.fail_after(timeout):
        while not notices(c, key):
            await c.changed()
    return notices(c, key)[-1]


@pytest.mark.parametrize("game", GAMES)
async def test_four_clients_play_a_full_game_over_tcp_and_websocket(game: str) -> None:
    async with running_daemon() as d:
        assert d.http_port is not None, "the web port (WebSocket) is part of this test"
        t = await ask(d.control, "tables.new", game=game, players=PLAYERS[game])
        async with seated(d, t["code"], PLAYERS[game]) as clients:
            final = await play_to_end(clients, t["id"], random.Random(7), timeout=90)
            assert final.status == "finished" and final.outcome is not None
            for c in clients.values():
                await c.wait_state(t["id"], lambda s: s.status == "finished")
            transports = {c.transport.__class__.__name__ for c in clients.values()}
            assert transports == {"TcpTransport", "WsTransport"}
            record = await ask(d.control, "export", table=t["id"])
        assert "seed" in record, "a finished game's record is complete"
        result = replay(record)
        assert result.valid, result.error
        assert to_data(result.match.outcome()) == final.outcome
        assert result.steps == final.version
        for seat, c in clients.items():
            s = c.states[t["id"]]
            assert s.view == to_data(result.match.view(seat))


async def test_drop_grace_ai_covers_then_hands_the_seat_back() -> None:
    async with running_daemon(grace_seconds=0.3) as d:
        t = await ask(d.control, "tables.new", game="toy", players=4, ai="random")
        table = t["id"]
        async with connect(port=d.tcp_port) as b:
            async with connect(port=d.tcp_port) as a:
                ja = await a.join(t["code"], "Ana", seat=0)  # her turn: nobody moves
                jb = await b.join(t["code"], "Bo", seat=1)
                first = await a.wait_state(table, lambda s: s.seats[1].name == "Bo")
                assert first.to_act == [0] and first.legal
            # Ana is gone with her move to make: the seat waits for her...
            await wait_notice(b, "notice.disconnected")
            gone = await b.wait_state(table, lambda s: not s.seats[0].connected)
            assert gone.seats[0].controller == "human" and not gone.seats[0].covered
            # status counts the seats as tables list does (Ana still holds hers), and says
            # how many of those people are connected.
            status = await ask(d.control, "status")
            assert (status["seated"], status["seated_connected"]) == (2, 1)
            listed = await ask(d.control, "tables.list")
            mine = next(t for t in listed if str(t["id"]) == str(table))
            assert mine["players"] - mine["free_seats"] == status["seated"]
            t0 = trio.current_time()
            # ...then the AI plays for her, and only her one move: it is Bo's turn next.
            await wait_notice(b, "notice.ai_covering")
            assert trio.current_time() - t0 >= 0.2
            covered = await b.wait_state(table, lambda s: bool(s.legal))
            assert covered.seats[0].covered and covered.version == first.version + 1
            # Ana comes back with her token: the seat is hers again.
            async with connect(port=d.tcp_port) as a2:
                back = await a2.resume(ja.token)
                assert back.seat == 0 and back.token == ""
                await wait_notice(b, "notice.ai_returned")
                await b.intent(table, covered.version, covered.legal[0], seat=jb.seat)
                mine = await a2.wait_state(table, lambda s: bool(s.legal))
                assert not mine.seats[0].covered and mine.seats[0].connected
                await trio.sleep(0.3)
                assert a2.states[table].version == mine.version, "the AI left her move alone"
                done = await a2.intent(table, mine.version, mine.legal[0], seat=0)
                assert done.version == mine.version + 1


async def test_a_second_connection_takes_the_seat_over() -> None:
    async with running_daemon() as d:
        t = await ask(d.control, "tables.new", game="toy", players=2)
        table = t["id"]
        async with connect(port=d.tcp_port) as a, connect(port=d.tcp_port) as a2:
            ja = await a.join(t["code"], "Ana", seat=0)
            first = await a.wait_state(table)
            await a2.resume(ja.token)
            await wait_notice(a, "notice.taken_over")
            second = await a2.wait_state(table)
            assert second.seat == 0 and second.view == first.view
            with pytest.raises(Refused) as e:
                await a.intent(table, second.version, second.legal[0])
            assert e.value.code == codes.NOT_SEATED
            shown = await ask(d.control, "tables.show", table=table)
            assert shown["version"] == second.version


async def test_turn_timer_lets_the_ai_make_that_one_move() -> None:
    async with running_daemon() as d:
        t = await ask(d.control, "tables.new", game="toy", players=2, turn_timer=0.3)
        table = t["id"]
        async with connect(port=d.tcp_port) as a, connect(port=d.tcp_port) as b:
            await a.join(t["code"], "Ana", seat=0)
            await b.join(t["code"], "Bo", seat=1)
            s = await a.wait_state(table, lambda s: bool(s.legal) and s.seats[1].name == "Bo")
            assert s.deadline is not None and 0 < s.deadline <= 0.3
            t0 = trio.current_time()
            after = await a.wait_state(table, lambda x: x.version > s.version)
            assert trio.current_time() - t0 >= 0.2
            assert notices(a, "notice.turn_timeout")
            # the seat is still Ana's: a person again on the next turn
            assert after.seats[0].controller == "human" and not after.seats[0].covered


async def test_rematch_with_the_same_seats() -> None:
    async with running_daemon() as d:
        t = await ask(d.control, "tables.new", game="toy", players=2)
        table = t["id"]
        async with seated(d, t["code"], 2, ws=False) as clients:
            final = await play_to_end(clients, table, random.Random(1))
            with pytest.raises(Refused) as e:
                await clients[0].intent(table, final.version, {"type": "play", "card": "AS"})
            assert e.value.code == codes.GAME_OVER
            asked = await clients[0].rematch(table)
            assert isinstance(asked, Notice) and asked.text.key == "notice.rematch_asked"
            started = await clients[1].rematch(table)
            assert isinstance(started, State) and started.status == "playing"
            assert started.version > final.version
            second = await play_to_end(clients, table, random.Random(2))
            assert second.status == "finished"
        first_record = await ask(d.control, "export", table=table, game=1)
        assert replay(first_record).valid and to_data(
            replay(first_record).match.outcome()) == final.outcome


async def test_an_ai_only_table_plays_for_a_spectator() -> None:
    async with running_daemon() as d:
        t = await ask(d.control, "tables.new", game="toy", players=3, ai="random")
        await trio.sleep(0.1)
        assert (await ask(d.control, "tables.show", table=t["id"]))["version"] == 1, \
            "nobody is there: the table waits"
        async with connect(port=d.tcp_port) as kiosk:
            s = await kiosk.spectate(t["code"])
            assert s.seat is None and s.legal == []
            end = await kiosk.wait_state(t["id"], lambda s: s.status == "finished")
            assert end.outcome is not None


async def test_between_hands_the_table_pauses() -> None:
    if "euchre" not in GAMES:
        pytest.skip("euchre is not registered")
    async with running_daemon(ai_speed=0.02) as d:
        t = await ask(d.control, "tables.new", game="euchre", ai="random")
        async with connect(port=d.tcp_port, record=True) as kiosk:
            await kiosk.spectate(t["id"])
            seen: list[tuple[float, State]] = []
            with trio.fail_after(30):
                while True:
                    await kiosk.changed()
                    s = kiosk.states[t["id"]]
                    if not seen or seen[-1][1].version != s.version:
                        seen.append((trio.current_time(), s))
                    paused = [i for i, (_, x) in enumerate(seen)
                              if not x.to_act and x.status == "playing" and i + 1 < len(seen)]
                    if paused:
                        break
            i = paused[0]
            gap = seen[i + 1][0] - seen[i][0]
            assert gap >= 3.0 * 0.02 * 0.8, gap  # HAND_PAUSE scaled by the AI speed
            assert seen[i + 1][1].view != seen[i][1].view


def test_sigterm_says_goodbye_and_a_restart_resumes() -> None:
    tmp = short_dir()
    data, control = tmp / "data", tmp / "c.sock"
    with daemon_process(data, control, "--ai-processes", "0") as proc:
        t = request(control, "tables.new", game="toy", players=2)

        async def client_side() -> tuple[str, State, str]:
            async with connect(port=proc.tcp_port) as a:
                ja = await a.join(t["code"], "Ana", seat=0)
                s = await a.wait_state(t["id"])
                t0 = time.monotonic()
                await trio.to_thread.run_sync(proc.proc.terminate)
                with trio.fail_after(10):
                    while a.closed is None:
                        with contextlib.suppress(Exception):
                            await a.changed()
                assert a.bye is not None, "the box said goodbye"
                assert time.monotonic() - t0 < 5
                return ja.token, s, a.bye.reason.key

        token, before, reason = trio.run(client_side)
        assert reason == "bye.restarting"
        assert proc.proc.wait(10) == 0
    with daemon_process(data, control, "--ai-processes", "0") as proc2:
        async def resume() -> State:
            async with connect(port=proc2.tcp_port) as a:
                await a.resume(token)
                return await a.wait_state(t["id"])

        after = trio.run(resume)
        assert (after.version, after.view, after.legal) == (before.version, before.view,
                                                            before.legal)


async def test_drain_refuses_new_tables_and_reports_when_games_end() -> None:
    async with running_daemon() as d:
        t = await ask(d.control, "tables.new", game="toy", players=2)
        await ask(d.control, "tables.new", game="toy", players=2)  # nobody there: it waits
        async with seated(d, t["code"], 2, ws=False) as clients:
            report = await ask(d.control, "drain", wait=False)
            assert report == {"playing": 1, "finished": 0, "idle": 1,
                              "waited": report["waited"], "done": False}
            with pytest.raises(Exception, match="draining"):
                await ask(d.control, "tables.new", game="toy")

            async def drain_wait() -> dict[str, Any]:
                return await ask(d.control, "drain", wait=True, within=20)

            result: dict[str, Any] = {}
            async with trio.open_nursery() as n:
                async def waiter() -> None:
                    result.update(await drain_wait())
                n.start_soon(waiter)
                await play_to_end(clients, t["id"], random.Random(3))
        assert result["done"] and result["finished"] == 1


async def test_a_database_that_refuses_writes_refuses_the_step_and_changes_nothing() -> None:
    async with running_daemon() as d:
        t = await ask(d.control, "tables.new", game="toy", players=2)
        table = t["id"]
        async with seated(d, t["code"], 2, ws=False) as clients:
            s = await clients[0].wait_state(table, lambda s: bool(s.legal)
                                            and s.seats[1].controller == "human")

            def refuse(on: bool) -> None:
                con = sqlite3.connect(d.hub.store.path)
                con.execute("CREATE TRIGGER full BEFORE INSERT ON events BEGIN "
                            "SELECT RAISE(ABORT, 'database or disk is full'); END" if on
                            else "DROP TRIGGER full")
                con.commit()
                con.close()

            await trio.to_thread.run_sync(refuse, True)
            with pytest.raises(Refused) as e:
                await clients[0].intent(table, s.version, s.legal[0], seat=0)
            assert e.value.code == codes.STORAGE_FAILED
            assert (await ask(d.control, "tables.show", table=table))["version"] == s.version
            assert clients[1].states[table].version == s.version, "nobody was told"
            await trio.to_thread.run_sync(refuse, False)
            after = await clients[0].intent(table, s.version, s.legal[0], seat=0)
            assert after.version == s.version + 1
