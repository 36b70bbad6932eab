"""Names at a table, over the daemon with real sockets: one name, one person.

A second "Ana" while the first is connected is told to choose another name (``name_taken``)
and nothing changes; the same name while the first Ana is away is that Ana back, on her own
seat, not a second seat beside her covered ghost.
"""

from __future__ import annotations

import pytest
import trio

from clients.client import Refused, connect
from hostd.protocol import codes
from tests.hostd.helpers import ask, running_daemon


async def test_a_second_person_cannot_take_a_connected_persons_name() -> None:
    async with running_daemon() as d:
        t = await ask(d.control, "tables.new", game="toy", players=3)
        async with connect(port=d.tcp_port) as a, connect(port=d.tcp_port) as b:
            await a.join(t["code"], "Ana")
            before = await ask(d.control, "tables.show", table=t["id"])
            for name in ("Ana", "ANA", "  ana "):
                with pytest.raises(Refused) as e:
                    await b.join(t["code"], name)
                assert e.value.code == codes.NAME_TAKEN
            after = await ask(d.control, "tables.show", table=t["id"])
            assert after["seats"] == before["seats"]  # nothing changed
            joined = await b.join(t["code"], "Ana B")  # another name is fine
            assert joined.seat == 1


async def test_the_same_name_while_away_takes_the_same_seat_back() -> None:
    async with running_daemon(grace_seconds=0.2) as d:
        t = await ask(d.control, "tables.new", game="toy", players=3)
        async with connect(port=d.tcp_port) as a:
            first = await a.join(t["code"], "Ana")
        # Ana's phone died (no token on the new one): the AI covers her seat.
        with trio.fail_after(10):
            while True:
                shown = await ask(d.control, "tables.show", table=t["id"])
                seat = shown["seats"][first.seat]  # type: ignore[index]
                if seat["name"] == "Ana" and not seat["connected"]:
                    break
                await trio.sleep(0.05)
        async with connect(port=d.tcp_port) as a2:
            again = await a2.join(t["code"], "ana")
            assert again.seat == first.seat
            state = await a2.wait_state(t["id"])
            people = [s for s in state.seats if s.controller == "human"]
            assert len(people) == 1 and people[0].connected and people[0].seat == first.seat
            # The old phone's token no longer holds the seat.
            async with connect(port=d.tcp_port) as old:
                with pytest.raises(Refused) as e:
                    await old.resume(first.token)
                assert e.value.code == codes.BAD_TOKEN
