"""Game clocks run by the host: the measuring (pure, with the time handed in), and a real
daemon on loopback running chess's clocks: each move stored with the time it used, both
clocks in every seat's view and the running one as the state's deadline, the flag falling at
zero, and a restarted daemon going on from the clocks in the record."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import pytest
import trio

from clients.client import Client, connect
from engine import registry
from engine.chess import GAME as CHESS
from engine.chess.state import HOST, Clock, Flag, MoveTo, Pick
from engine.codec import to_data
from engine.match import Match
from engine.records import replay
from hostd.protocol.messages import State
from hostd.tables import clocks
from tests.hostd.helpers import ask, running_daemon, short_dir


# -- measuring ---------------------------------------------------------------------------------
def test_a_turn_is_measured_from_its_start_and_paused_while_nobody_is_there() -> None:
    c = clocks.TurnClock()
    assert c.update(("g", 0), True, 10.0)  # a new turn, running: set the flag deadline
    assert not c.update(("g", 0), True, 12.5)  # the same turn (a piece picked): nothing new
    assert c.used(12.5) == 2.5
    assert c.update(("g", 0), False, 13.0)  # everybody left: the clock stops at 3 s
    assert c.used(100.0) == 3.0 and c.used_ms(100.0) == 3000
    assert c.update(("g", 0), True, 200.0)  # back: it goes on from 3 s
    assert c.used(201.0) == 4.0
    assert c.update(("g", 1), True, 202.0)  # the next turn starts at zero
    assert c.used(202.25) == 0.25
    assert c.update(None, False, 203.0) and c.used(500.0) == 0.0  # game over: no clock


def test_what_the_engine_exposes_drives_it_for_any_game_and_untimed_is_no_clock() -> None:
    timed = Match.start(CHESS, 2, {"clock": "3+2"}, 1)
    t = clocks.timing(CHESS, timed.state)
    assert t is not None and t.left == (180_000, 180_000) and t.running == 0 and t.owed == -1
    assert clocks.seconds_left(t, clocks.TurnClock(), 0.0) == 180.0
    for action in (Pick("e2"), MoveTo("e4")):
        timed.act(0, action)
    assert clocks.owed_steps(CHESS, timed.state, 4_321) == [(HOST, Clock(4_321))]
    assert clocks.timing(CHESS, timed.state).running == -1  # type: ignore[union-attr]
    assert clocks.flag_step(CHESS, 5) == (HOST, Flag(5))
    untimed = Match.start(CHESS, 2, {}, 1)
    assert clocks.timing(CHESS, untimed.state) is None
    assert clocks.owed_steps(CHESS, untimed.state, 10) == []
    toy = registry.get("toy")  # a game without clocks at all
    assert clocks.timing(toy, Match.start(toy, 2, None, 1).state) is None
    assert clocks.turn_key(1, None) is None


# -- a daemon running them -----------------------------------------------------------------------
@pytest.fixture
def chess_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GAME_MODULES, "chess", "engine.chess")


@contextlib.asynccontextmanager
async def both_seats(port: int, code: str) -> AsyncIterator[tuple[Client, Client]]:
    async with connect(port=port) as white, connect(port=port) as black:
        await white.join(code, "White", 0)
        await black.join(code, "Black", 1)
        yield white, black


async def move(c: Client, table: str, seat: int, frm: str, to: str) -> State:
    s = await c.wait_state(table, lambda s: s.to_act == [seat] and bool(s.legal))
    s = await c.intent(table, s.version, {"type": "pick", "square": frm}, seat=seat)
    return await c.intent(table, s.version, {"type": "move_to", "square": to}, seat=seat)


def clock_steps(record: dict[str, Any]) -> list[dict[str, Any]]:
    return [s for s in record["steps"] if s.get("seat") == HOST]


async def test_moves_are_stored_with_their_time_and_every_view_shows_both_clocks(
        chess_registered: None) -> None:
    async with running_daemon() as d:
        t = await ask(d.control, "tables.new", game="chess", options={"clock": "1+0"})
        table = t["id"]
        async with both_seats(d.tcp_port, t["code"]) as (white, black), \
                connect(port=d.tcp_port) as kiosk:
            await kiosk.spectate(table)
            s = await white.wait_state(table, lambda s: s.to_act == [0] and bool(s.legal))
            assert s.view["clocks"] == [60_000, 60_000]
            assert s.deadline is not None and 59.0 < s.deadline <= 60.0  # white's clock runs
            await trio.sleep(0.4)  # white thinks
            after = await move(white, table, 0, "e2", "e4")
            left = after.view["clocks"]
            assert 59_000 < left[0] <= 59_600 and left[1] == 60_000, left
            for c in (black, kiosk):  # every seat, and the spectator, sees both clocks
                seen = await c.wait_state(table, lambda s: s.version == after.version)
                assert seen.view["clocks"] == left
                assert seen.deadline is not None and 59.0 < seen.deadline <= 60.0  # black's
            await move(black, table, 1, "e7", "e5")
            s = await white.wait_state(table, lambda s: s.to_act == [0] and bool(s.legal))
            await white.intent(table, s.version, {"type": "resign"}, seat=0)
            record = await ask(d.control, "export", table=table)  # finished: every step
        steps = [s for s in record["steps"] if "action" in s]
        kinds = [(s["seat"], s["action"]["type"]) for s in steps]
        assert kinds == [(0, "pick"), (0, "move_to"), (HOST, "clock"),
                         (1, "pick"), (1, "move_to"), (HOST, "clock"), (0, "resign")]
        used = clock_steps(record)[0]["action"]["used_ms"]
        assert 400 <= used < 1000 and left[0] == 60_000 - used
        result = replay(record)
        assert result.valid, result.error


async def test_the_flag_falls_at_zero_and_a_restart_goes_on_from_the_record(
        chess_registered: None) -> None:
    data = short_dir() / "data"
    # A game where white has 0.6 s left, black 20 s, white to move: made by hand in the
    # store (the clock steps say what each move used), then the daemon restarted on it.
    async with running_daemon(data) as d:
        t = await ask(d.control, "tables.new", game="chess", options={"clock": "1+0"},
                      ai="random")
        table = t["id"]
        runner = d.hub.tables[table]
        events = [("step", {"seat": seat, "action": to_data(a)}) for seat, a in (
            (0, Pick("e2")), (0, MoveTo("e4")), (HOST, Clock(59_400)),
            (1, Pick("e7")), (1, MoveTo("e5")), (HOST, Clock(40_000)))]
        await d.hub.store.append(runner.db_id, events)
    async with running_daemon(data) as d:
        async with both_seats(d.tcp_port, t["code"]) as (white, black):
            s = await white.wait_state(table, lambda s: s.to_act == [0] and bool(s.legal))
            assert s.view["clocks"] == [600, 20_000]
            assert s.deadline is not None and s.deadline <= 0.6  # from the record, not anew
            with trio.fail_after(10):
                over = await black.wait_state(table, lambda s: s.status == "finished")
        assert over.outcome is not None and over.outcome["winners"] == [1]
        assert over.outcome["reason"] == "chess.time" and over.view["clocks"] == [0, 20_000]
        record = await ask(d.control, "export", table=table)
    last = record["steps"][-1]
    assert last["seat"] == HOST and last["action"]["type"] == "flag"
    assert 600 <= last["action"]["elapsed_ms"] < 3000
    assert replay(record).valid


async def test_an_untimed_game_has_no_clock_steps_and_no_deadline(chess_registered: None
                                                                  ) -> None:
    async with running_daemon() as d:
        t = await ask(d.control, "tables.new", game="chess")
        async with both_seats(d.tcp_port, t["code"]) as (white, black):
            after = await move(white, t["id"], 0, "d2", "d4")
            assert after.deadline is None and after.view["clocks"] is None
            s = await black.wait_state(t["id"], lambda s: s.to_act == [1] and bool(s.legal))
            await black.intent(t["id"], s.version, {"type": "resign"}, seat=1)
            record = await ask(d.control, "export", table=t["id"])
        assert len(record["steps"]) == 4  # the set-up, the pick, the landing, resigning
        assert clock_steps(record) == []

