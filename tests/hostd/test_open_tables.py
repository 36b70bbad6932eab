"""Players open tables over the protocol (``games``, ``open``), against the real daemon.

An open makes the table and seats the opener in one step, answered as a join; every refusal
has its stable code and arguments and leaves the box as it was (no table made, no seat
taken); the operator's ``player_tables`` and ``max_tables`` hold.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
import trio

from clients.client import Client, Refused, connect
from engine import registry
from hostd.protocol import codes
from hostd.protocol.messages import Catalogue, Joined, Notice, Rejected, State
from tests.hostd.helpers import ask, play_to_end, running_daemon


async def tables(d: Any) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = await ask(d.control, "tables.list")
    return result


async def refused(c: Client, code: str, **kw: Any) -> dict[str, str | int]:
    with pytest.raises(Refused) as e:
        await c.open(**kw)
    assert e.value.code == code, e.value.reply
    assert e.value.reply.message.key == f"error.{code}"
    return e.value.reply.message.args


async def test_games_lists_every_game_with_its_options_and_the_timers() -> None:
    async with running_daemon() as d, connect(port=d.tcp_port) as c:
        cat = await c.games()
        assert isinstance(cat, Catalogue) and cat.open and cat.refusal == ""
        assert [g.id for g in cat.games] == list(registry.ids())  # the toy game too, here
        golf = next(g for g in cat.games if g.id == "golf")
        layout = next(o for o in golf.options if o.name == "layout")
        assert layout.kind == "choice" and layout.default == "6" and "9" in layout.choices
        assert cat.turn_timers == [0, 30, 60, 120] and cat.turn_timer == 0
        assert cat.open_tables == 0 and cat.max_tables == 12


async def test_open_makes_the_table_with_its_options_and_timer_and_seats_the_opener() -> None:
    async with running_daemon() as d, connect(port=d.tcp_port, record=True) as c, \
            connect(port=d.tcp_port) as other:
        joined = await c.open("golf", "Ana", options={"layout": "4", "holes": 3},
                              name="Friday golf", turn_timer=60, players=3)
        assert isinstance(joined, Joined) and joined.token and joined.seat == 0
        state = await c.wait_state(joined.table)
        assert state.seat == 0 and state.name == "Friday golf"
        assert [s.controller for s in state.seats] == ["human", "ai", "ai"]
        assert state.seats[0].name == "Ana"
        shown = await ask(d.control, "tables.show", table=joined.table)
        assert shown["options"]["layout"] == "4" and shown["options"]["holes"] == 3
        assert shown["options"]["final_turn"] is True  # left out: its default
        assert shown["turn_timer"] == 60.0 and shown["players"] == 3
        # the timer runs for the opener's turn, as for a table the operator made
        s = await c.wait_state(joined.table, lambda s: 0 in s.to_act)
        assert s.deadline is not None and 55 < s.deadline <= 60
        # and the table is there for everyone else to join by its code
        listed = await other.list_tables()
        assert [(t.name, t.code, t.free_seats) for t in listed] == [
            ("Friday golf", state.code, 2)]
        second = await other.join(state.code, "Ben")
        assert second.seat == 1


async def test_the_default_name_is_the_games_title_and_the_default_timer_the_boxs() -> None:
    async with running_daemon(turn_timer=45.0) as d, connect(port=d.tcp_port) as c:
        cat = await c.games()
        assert cat.turn_timers == [0, 30, 45, 60, 120] and cat.turn_timer == 45
        joined = await c.open("mastermind", "Ana")
        shown = await ask(d.control, "tables.show", table=joined.table)
        assert shown["name"] == "Mastermind" and shown["turn_timer"] == 45.0


async def test_every_refusal_has_its_code_and_changes_nothing() -> None:
    async with running_daemon() as d, connect(port=d.tcp_port) as c:
        args = await refused(c, codes.UNKNOWN_GAME, game="poker", player="Ana")
        assert args == {"game": "poker"}
        args = await refused(c, codes.BAD_OPTION, game="golf", player="Ana",
                             options={"layout": "5"})
        assert args["option"] == "layout" and "9" in str(args["allowed"])
        args = await refused(c, codes.BAD_OPTION, game="golf", player="Ana",
                             options={"colour": True})
        assert args["option"] == "colour" and args["reason"] == "unknown option"
        args = await refused(c, codes.BAD_OPTION, game="golf", player="Ana",
                             options={"holes": 99})
        assert args["option"] == "holes"
        # a cross-option rule of the game itself, through the same check as tables new
        args = await refused(c, codes.BAD_OPTION, game="golf", player="Ana",
                             options={"flip": "mandatory", "end": "knock"})
        assert args["option"] in ("flip", "end")
        args = await refused(c, codes.BAD_OPTION, game="golf", player="Ana", players=9)
        assert args["option"] == "players"
        args = await refused(c, codes.BAD_TIMER, game="golf", player="Ana", turn_timer=7)
        assert args == {"allowed": "0, 30, 60, 120"}
        assert await refused(c, codes.BAD_NAME, game="golf", player=" \t ") == {
            "field": "player"}
        assert await refused(c, codes.BAD_NAME, game="golf", player="Ana",
                             name="\x01\x02 ") == {"field": "name"}
        # nothing was made, and the connection is fine
        assert await tables(d) == [] and await c.list_tables() == []
        joined = await c.open("golf", "Ana", options={"layout": "9"})
        assert joined.seat == 0 and len(await tables(d)) == 1


async def test_a_person_opens_one_table_at_a_time() -> None:
    async with running_daemon() as d, connect(port=d.tcp_port) as c:
        first = await c.open("golf", "Ana")
        args = await refused(c, codes.OPEN_LIMIT, game="mastermind", player="Ana")
        assert args == {"table": first.table}
        assert len(await tables(d)) == 1
        # Back on a new connection (a reload, a dropped link): the seat is still theirs.
        async with connect(port=d.tcp_port) as again:
            await again.resume(first.token)
            args = await refused(again, codes.OPEN_LIMIT, game="mastermind", player="Ana")
            assert args == {"table": first.table}
            # someone else seated at that table may open their own
            async with connect(port=d.tcp_port) as ben:
                code = (await ben.list_tables())[0].code
                await ben.join(code, "Ben")
                assert (await ben.open("mastermind", "Ben")).seat == 0
            await again.leave(first.table)  # left it: now another may be opened
            second = await again.open("mastermind", "Ana")
            assert second.table != first.table
        assert len(await tables(d)) == 3


async def test_the_cap_counts_every_open_table_and_refuses_past_it() -> None:
    async with running_daemon(max_tables=2) as d, connect(port=d.tcp_port) as a, \
            connect(port=d.tcp_port) as b:
        await ask(d.control, "tables.new", game="euchre")  # the operator's count too
        await a.open("golf", "Ana")
        cat = await b.games()
        assert not cat.open and cat.refusal == codes.TOO_MANY_TABLES and cat.open_tables == 2
        assert await refused(b, codes.TOO_MANY_TABLES, game="golf", player="Ben") == {"max": 2}
        assert len(await tables(d)) == 2
        # the operator is never refused for it; closing tables makes room again
        await ask(d.control, "tables.new", game="golf")
        for t in await tables(d):
            await ask(d.control, "tables.close", table=t["id"])
        assert (await b.open("golf", "Ben")).seat == 0


async def test_two_opens_at_once_do_not_pass_the_cap_together() -> None:
    async with running_daemon(max_tables=1) as d, connect(port=d.tcp_port) as a, \
            connect(port=d.tcp_port) as b:
        results: list[str] = []

        async def one(c: Client, name: str) -> None:
            try:
                await c.open("golf", name)
                results.append("joined")
            except Refused as e:
                results.append(e.code)

        async with trio.open_nursery() as n:
            n.start_soon(one, a, "Ana")
            n.start_soon(one, b, "Ben")
        assert sorted(results) == ["joined", codes.TOO_MANY_TABLES]
        assert len(await tables(d)) == 1


async def test_turned_off_in_the_config_opening_is_refused() -> None:
    async with running_daemon(player_tables=False) as d, connect(port=d.tcp_port) as c:
        cat = await c.games()
        assert not cat.open and cat.refusal == codes.OPEN_OFF
        assert await refused(c, codes.OPEN_OFF, game="golf", player="Ana") == {}
        assert await tables(d) == []
        # joining still works
        t = await ask(d.control, "tables.new", game="golf")
        assert (await c.join(t["code"], "Ana")).seat == 0


async def test_a_draining_box_refuses_to_open() -> None:
    async with running_daemon() as d, connect(port=d.tcp_port) as c:
        await ask(d.control, "drain", wait=False)
        cat = await c.games()
        assert not cat.open and cat.refusal == codes.DRAINING
        await refused(c, codes.DRAINING, game="golf", player="Ana")
        assert await tables(d) == []


async def test_open_before_hello_and_malformed_opens_are_refused() -> None:
    async with running_daemon() as d, connect(port=d.tcp_port, hello=False, record=True) as c:
        await c.send_raw(b'{"type":"open","id":5,"game":"golf","player":"Ana"}')
        with trio.fail_after(5):
            while not any(isinstance(m, Rejected) for m in c.messages or []):
                await c.changed()
        first = next(m for m in c.messages or [] if isinstance(m, Rejected))
        assert first.code == codes.HELLO_FIRST and first.re == 5
        await c.hello()
        for frame in (b'{"type":"open","id":6,"game":"golf"}',
                      b'{"type":"open","id":7,"game":"golf","player":"A","turn_timer":"x"}',
                      b'{"type":"open","id":8,"game":"golf","player":"A","options":[1]}'):
            await c.send_raw(frame)
        with trio.fail_after(5):
            while len([m for m in c.messages or [] if isinstance(m, Rejected)]) < 4:
                await c.changed()
        later = [m for m in c.messages or [] if isinstance(m, Rejected)][1:]
        assert [(m.code, m.re) for m in later] == [
            (codes.BAD_MESSAGE, 6), (codes.BAD_MESSAGE, 7), (codes.BAD_MESSAGE, 8)]
        assert await tables(d) == []


async def test_the_opener_plays_to_the_end_and_rematches() -> None:
    async with running_daemon() as d, connect(port=d.tcp_port, record=True) as c:
        joined = await c.open("mastermind", "Ana", options={"mode": "duel", "games": 1})
        final = await play_to_end({joined.seat: c}, joined.table, random.Random(3))
        assert isinstance(final, State) and final.status == "finished"
        await c.rematch(joined.table)
        s = await c.wait_state(joined.table, lambda s: s.status == "playing")
        assert s.seat == joined.seat
        assert c.messages is not None
        assert any(isinstance(m, Notice) and m.text.key == "notice.rematch"
                   for m in c.messages)
