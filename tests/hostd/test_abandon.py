"""Abandoned seats and tables, over the real daemon on loopback (small timeouts by config).

An away person's seat returns to the computer after ``seat_release_after`` (notice, free
seat, dead token, free name), also across a restart; a table whose people are all away
pauses (no moves, turn timer and game clock stopped) and plays on when one is back; a
released seat lets a watched table play on; finished and abandoned tables are archived with
their records kept; 0 means never.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from typing import Any

import pytest
import trio

from clients.client import Refused, connect
from engine.codec import to_data
from engine.records import replay
from hostd.control import request
from hostd.protocol import codes
from hostd.protocol.messages import Notice, State
from tests.hostd.helpers import (
    LAUNCH,
    ROOT,
    ask,
    daemon_process,
    play_to_end,
    running_daemon,
    short_dir,
)
from tests.hostd.test_daemon import wait_notice


async def listed(control: Any, table: str) -> dict[str, Any] | None:
    return next((t for t in await ask(control, "tables.list") if str(t["id"]) == table), None)


async def test_an_away_persons_seat_returns_to_the_computer_for_good() -> None:
    async with running_daemon(seat_release_after=0.8) as d:
        t = await ask(d.control, "tables.new", game="toy", players=3, ai="random")
        table = t["id"]
        async with connect(port=d.tcp_port) as bo:
            await bo.join(t["code"], "Bo", seat=1)
            async with connect(port=d.tcp_port) as ana:
                ja = await ana.join(t["code"], "Ana", seat=0)
                await bo.wait_state(table, lambda s: s.seats[0].name == "Ana")
            gone_at = trio.current_time()
            await wait_notice(bo, "notice.disconnected")
            released = await wait_notice(bo, "notice.seat_released")
            assert trio.current_time() - gone_at >= 0.6
            assert released.text.args == {"seat": 0, "name": "Ana"}
            s = await bo.wait_state(table, lambda s: s.seats[0].controller == "ai")
            assert s.seats[0].name == "" and not s.seats[0].covered
            row = await listed(d.control, table)
            assert row is not None and row["free_seats"] == 2
            status = await ask(d.control, "status")
            assert (status["seated"], status["seated_connected"]) == (1, 1)
            # Her token stops working...
            async with connect(port=d.tcp_port) as back:
                with pytest.raises(Refused) as e:
                    await back.resume(ja.token)
                assert e.value.code == codes.BAD_TOKEN
                # ...her name is free (before, "ana" was her, and seat 2 not hers: name_taken)
                again = await back.join(t["code"], "ana", seat=2)
                assert again.seat == 2 and again.token != ja.token
                # ...and her old seat is free to take (before: table_full).
                async with connect(port=d.tcp_port) as cy:
                    assert (await cy.join(t["code"], "Cy")).seat == 0
                    async with connect(port=d.tcp_port) as dee:
                        with pytest.raises(Refused) as e:
                            await dee.join(t["code"], "Dee")
                        assert e.value.code == codes.TABLE_FULL


async def test_a_seat_is_released_after_a_restart_too() -> None:
    tmp = short_dir()
    try:
        data = tmp / "data"
        async with running_daemon(data, seat_release_after=0) as d:
            t = await ask(d.control, "tables.new", game="toy", players=2, ai="random")
            async with connect(port=d.tcp_port) as ana:
                token = (await ana.join(t["code"], "Ana", seat=0)).token
                await ana.wait_state(t["id"])
        # The box restarts while she is away: she counts as away from its start.
        async with running_daemon(data, seat_release_after=0.6) as d:
            row = await listed(d.control, t["id"])
            assert row is not None and row["free_seats"] == 1 and row["paused"]
            with trio.fail_after(5):
                while (row := await listed(d.control, t["id"])) and row["free_seats"] != 2:
                    await trio.sleep(0.1)
            assert row is not None and not row["paused"]
            async with connect(port=d.tcp_port) as back:
                with pytest.raises(Refused) as e:
                    await back.resume(token)
                assert e.value.code == codes.BAD_TOKEN
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


async def test_a_table_whose_people_are_all_away_waits_for_them() -> None:
    async with running_daemon(grace_seconds=0.2, seat_release_after=60) as d:
        t = await ask(d.control, "tables.new", game="toy", players=4, ai="random",
                      turn_timer=0.5)
        table = t["id"]
        async with connect(port=d.tcp_port) as kiosk:
            await kiosk.spectate(table)  # a watcher does not make the computers play for her
            async with connect(port=d.tcp_port) as ana:
                ja = await ana.join(t["code"], "Ana", seat=1)
                mine = await ana.wait_state(table, lambda s: bool(s.legal))  # seat 0 moved
                assert not mine.paused and mine.deadline is not None
            paused = await kiosk.wait_state(table, lambda s: s.paused)
            assert paused.version == mine.version and paused.deadline is None
            await wait_notice(kiosk, "notice.ai_covering")  # the grace ran out: covered...
            await trio.sleep(1.5)  # ...yet over three turn timers nothing moves
            assert kiosk.states[table].version == mine.version
            shown = await ask(d.control, "tables.show", table=table)
            assert shown["version"] == mine.version
            row = await listed(d.control, table)
            assert row is not None and row["paused"]
            # the operator's list says so in words too, not only in --json
            from click.testing import CliRunner

            from hostd.cli import main
            out = await trio.to_thread.run_sync(lambda: CliRunner().invoke(
                main, ["tables", "list", "--control", str(d.control)]))
            line = next(x for x in out.output.splitlines() if x.split()[:2] == [table, t["code"]])
            assert " paused " in line and "1/4 people" in line, out.output
            report = await ask(d.control, "drain", wait=False)
            assert (report["playing"], report["idle"]) == (0, 1), "a paused table is idle"
            # She comes back: the table plays on from where it stopped.
            async with connect(port=d.tcp_port) as ana2:
                await ana2.resume(ja.token)
                s = await ana2.wait_state(table, lambda s: bool(s.legal) and not s.paused)
                assert s.version == mine.version
                await ana2.intent(table, s.version, s.legal[0], seat=1)
                later = await kiosk.wait_state(table, lambda x: x.version >= s.version + 3)
                assert not later.paused


async def test_a_released_seat_lets_a_watched_table_play_on() -> None:
    async with running_daemon(grace_seconds=0.1, seat_release_after=0.6) as d:
        t = await ask(d.control, "tables.new", game="toy", players=3, ai="random")
        table = t["id"]
        async with connect(port=d.tcp_port) as kiosk:
            await kiosk.spectate(table)
            async with connect(port=d.tcp_port) as ana:
                await ana.join(t["code"], "Ana", seat=1)
                mine = await ana.wait_state(table, lambda s: bool(s.legal))
            await kiosk.wait_state(table, lambda s: s.paused)
            await trio.sleep(0.3)
            assert kiosk.states[table].version == mine.version, "paused while she is away"
            released = await wait_notice(kiosk, "notice.seat_released")
            assert released.text.args["name"] == "Ana"
            # Computers only now, and watched: the kiosk's demo plays to the end.
            end = await kiosk.wait_state(table, lambda s: s.status == "finished")
            assert all(s.controller == "ai" for s in end.seats) and not end.paused


def test_a_finished_table_is_archived_and_its_record_still_replays() -> None:
    tmp = short_dir()
    data, control = tmp / "data", tmp / "c.sock"
    exported = tmp / "archived.json"
    try:
        with daemon_process(data, control, "--ai-processes", "0",
                            "--archive-finished-after", "0.6") as proc:
            t = request(control, "tables.new", game="toy", players=2)
            table = t["id"]

            async def play() -> tuple[State, Notice, float]:
                async with connect(port=proc.tcp_port) as a, \
                        connect(port=proc.tcp_port) as b:
                    clients = {(await a.join(t["code"], "Ana")).seat: a,
                               (await b.join(t["code"], "Bo")).seat: b}
                    final = await play_to_end(clients, table, random.Random(5))
                    ended = trio.current_time()
                    closed = await wait_notice(a, "notice.table_closed")
                    return final, closed, trio.current_time() - ended

            final, closed, after = trio.run(play)
            assert closed.text.args == {"reason": "finished"} and after >= 0.4
            assert all(str(x["id"]) != table for x in request(control, "tables.list"))
            # `tablebox export` and `tablebox replay` work on it as on any closed table.
            assert tablebox("export", table, "-o", str(exported), "--control",
                            str(control)).returncode == 0
            log = proc.output()
        checked = tablebox("replay", "--json", str(exported))
        assert checked.returncode == 0, checked.stdout + checked.stderr
        assert json.loads(checked.stdout)["outcome"] == final.outcome
        result = replay(json.loads(exported.read_text(encoding="utf-8")))
        assert result.valid and to_data(result.match.outcome()) == final.outcome
        archived = [line for line in log.splitlines() if "table_archived" in line]
        assert len(archived) == 1 and "finished" in archived[0], log[-2000:]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def tablebox(*args: str) -> subprocess.CompletedProcess[str]:
    """The ``tablebox`` command, as an operator runs it."""
    return subprocess.run([sys.executable, "-c", LAUNCH, *args], cwd=ROOT, capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)


async def test_an_abandoned_table_is_archived_and_a_watched_one_is_not() -> None:
    async with running_daemon(archive_abandoned_after=0.6, grace_seconds=0.1) as d:
        empty = await ask(d.control, "tables.new", game="toy", players=2, ai="random")
        left = await ask(d.control, "tables.new", game="toy", players=2, ai="random")
        watched = await ask(d.control, "tables.new", game="toy", players=2, ai="random")
        async with connect(port=d.tcp_port) as kiosk:
            await kiosk.spectate(watched["id"])
            async with connect(port=d.tcp_port) as ana:
                token = (await ana.join(left["code"], "Ana", seat=0)).token
                await ana.wait_state(left["id"])
                await trio.sleep(0.8)  # connected: she keeps her table listed
                assert await listed(d.control, left["id"]) is not None
                assert await listed(d.control, empty["id"]) is None, "nobody ever came"
            with trio.fail_after(5):
                while await listed(d.control, left["id"]) is not None:
                    await trio.sleep(0.1)
            assert await listed(d.control, watched["id"]) is not None, "the kiosk watches it"
            async with connect(port=d.tcp_port) as back:
                with pytest.raises(Refused) as e:
                    await back.resume(token)
                assert e.value.code == codes.BAD_TOKEN
                with pytest.raises(Refused) as e:
                    await back.join(left["code"], "Ana")
                assert e.value.code == codes.UNKNOWN_TABLE
        record = await ask(d.control, "export", table=left["id"])
        assert record["game"] == "toy" and record["seats"][0]["name"] == "Ana"
        assert replay(record).valid, "its record is kept, and replays"


async def test_zero_means_never() -> None:
    async with running_daemon(seat_release_after=0, archive_finished_after=0,
                              archive_abandoned_after=0, grace_seconds=0.1) as d:
        t = await ask(d.control, "tables.new", game="toy", players=2)
        empty = await ask(d.control, "tables.new", game="toy", players=2)
        async with connect(port=d.tcp_port) as a, connect(port=d.tcp_port) as b:
            clients = {(await a.join(t["code"], "Ana")).seat: a,
                       (await b.join(t["code"], "Bo")).seat: b}
            await play_to_end(clients, t["id"], random.Random(2))
            token = b.joined[t["id"]].token
        await trio.sleep(1.0)
        for table in (t, empty):
            assert await listed(d.control, table["id"]) is not None
        async with connect(port=d.tcp_port) as back:
            assert (await back.resume(token)).table == t["id"]


async def test_a_paused_tables_game_clock_stands_still() -> None:
    async with running_daemon(grace_seconds=60, seat_release_after=60) as d:
        t = await ask(d.control, "tables.new", game="chess", players=2, ai="random",
                      options={"clock": "1+0"})
        table = t["id"]
        async with connect(port=d.tcp_port) as kiosk:
            await kiosk.spectate(table)
            async with connect(port=d.tcp_port) as ana:
                ja = await ana.join(t["code"], "Ana", seat=0)  # white: her clock runs
                first = await ana.wait_state(table, lambda s: s.deadline is not None)
                assert first.deadline is not None
            paused = await kiosk.wait_state(table, lambda s: s.paused)
            assert paused.deadline is None, "no clock is shown running while paused"
            await trio.sleep(1.5)
            async with connect(port=d.tcp_port) as ana2:
                await ana2.resume(ja.token)
                back = await ana2.wait_state(table, lambda s: not s.paused and bool(s.legal))
                assert back.deadline is not None and back.version == first.version
                # Her time away was not charged to her clock (before: 1.5 s more gone).
                assert back.deadline > first.deadline - 1.0, (first.deadline, back.deadline)
