"""Reactions over the real daemon: a fixed set of emotes from the seats, to everyone at the
table (never free text), a few at once then one every couple of seconds per connection."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import pytest
import trio

from clients.client import Client, Refused, connect
from hostd.protocol import codes
from hostd.protocol.messages import EMOTES, Notice, Rejected
from hostd.session import REACT_BURST, REACT_EVERY
from tests.hostd.helpers import running_daemon
from tests.hostd.test_daemon import ask


@contextlib.asynccontextmanager
async def table() -> AsyncIterator[tuple[dict[str, Any], Client, Client, Client]]:
    """A Golf table with Ana (seat 0) and Ben (seat 1) and a watching kiosk."""
    async with running_daemon() as d, contextlib.AsyncExitStack() as stack:
        t = await ask(d.control, "tables.new", game="golf", players=3, ai="random")
        ana = await stack.enter_async_context(connect(port=d.tcp_port, record=True))
        ben = await stack.enter_async_context(connect(port=d.tcp_port, record=True))
        kiosk = await stack.enter_async_context(connect(port=d.tcp_port, record=True))
        await ana.join(t["code"], "Ana", 0)
        await ben.join(t["code"], "Ben", 1)
        await kiosk.spectate(t["id"])
        yield t, ana, ben, kiosk


def reactions(c: Client) -> list[dict[str, Any]]:
    return [dict(n.text.args) for n in c.notices if n.text.key == "notice.reaction"]


async def settle(*clients: Client) -> None:
    """Every frame already sent to these clients has arrived (a ping is answered after)."""
    for c in clients:
        await c.ping()


async def test_a_reaction_reaches_everyone_at_the_table_as_seat_and_emote() -> None:
    async with table() as (t, ana, ben, kiosk):
        answer = await ana.react(t["id"], "clap")
        assert isinstance(answer, Notice) and answer.table == t["id"]
        assert answer.text.key == "notice.reaction"
        assert dict(answer.text.args) == {"seat": 0, "emote": "clap"}
        await settle(ben, kiosk)
        for c in (ben, kiosk):
            assert reactions(c) == [{"seat": 0, "emote": "clap"}]
        assert reactions(ana) == [{"seat": 0, "emote": "clap"}]  # once: its own answer
        await ben.react(t["id"], EMOTES[-1])
        await settle(ana, kiosk)
        assert reactions(kiosk)[-1] == {"seat": 1, "emote": EMOTES[-1]}


async def test_too_many_reactions_are_refused_rate_limited_and_not_shown() -> None:
    async with table() as (t, ana, ben, kiosk):
        for _ in range(REACT_BURST):
            await ana.react(t["id"], "laugh")
        with pytest.raises(Refused) as e:
            await ana.react(t["id"], "laugh")
        assert e.value.code == codes.RATE_LIMITED
        assert int(e.value.reply.message.args["seconds"]) >= 1
        # Ben has his own allowance: Ana's flood does not silence him.
        await ben.react(t["id"], "wow")
        await settle(kiosk)
        assert [r["seat"] for r in reactions(kiosk)] == [0] * REACT_BURST + [1]
        await trio.sleep(REACT_EVERY + 0.2)
        await ana.react(t["id"], "laugh")  # one more once the allowance refilled


@pytest.mark.parametrize("emote", ["", "hello there", "<b>hi</b>", "CLAP", "clap " * 40])
async def test_anything_but_a_known_emote_is_refused_and_nothing_is_sent(emote: str) -> None:
    async with table() as (t, ana, ben, kiosk):
        with pytest.raises(Refused) as e:
            await ana.react(t["id"], emote)
        assert e.value.code == codes.UNKNOWN_EMOTE
        await ana.send_raw(b'{"type":"react","table":"%s","emote":"clap","text":"hi"}'
                           % t["id"].encode())
        await ana.ping()
        assert ana.messages is not None
        assert any(isinstance(m, Rejected) and m.code == codes.BAD_MESSAGE
                   for m in ana.messages)
        await settle(ben, kiosk)
        assert reactions(ben) == reactions(kiosk) == reactions(ana) == []
        await ana.react(t["id"], "thumbs_up")  # refusals did not spend the allowance
        await ana.react(t["id"], "thumbs_up")
        await ana.react(t["id"], "thumbs_up")


async def test_only_the_seats_react() -> None:
    async with table() as (t, ana, ben, kiosk):
        with pytest.raises(Refused) as e:
            await kiosk.react(t["id"], "clap")
        assert e.value.code == codes.NOT_SEATED
        await ana.leave(t["id"])
        with pytest.raises(Refused) as e:
            await ana.react(t["id"], "clap")
        assert e.value.code == codes.NOT_SEATED
        with pytest.raises(Refused) as e:
            await ben.react("nope", "clap")
        assert e.value.code == codes.UNKNOWN_TABLE
        await settle(ben, kiosk)
        assert reactions(ben) == reactions(kiosk) == []
