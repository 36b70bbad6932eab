"""The ``history`` request over the real daemon: each seat's own log and score sheet.

Every seat's account is built from its own views: a hidden Wizard bid is "has bid" in the
other seats' logs and a number in the bidder's; the score sheet gets a row per scored round.
The leak check replays every registered game's record and holds every entry and row of
every seat (and the spectator) against the true states, byte for byte.
"""

from __future__ import annotations

import contextlib
import random
import re
import time
from typing import Any

import msgspec
import pytest
import trio

from clients.client import Client, Refused, connect
from engine import registry
from engine.codec import to_data
from engine.game import Game
from hostd.protocol import codes
from hostd.protocol.messages import History, HistoryRequest, Rejected
from tests.hostd.helpers import PLAYERS, any_changed, running_daemon
from tests.hostd.test_daemon import ask
from tests.hostd.test_leaks import cards, check_every_client, noisy_play, observed_table


def entry_texts(h: History) -> dict[int, dict[str, Any]]:
    return {e.version: msgspec.to_builtins(e.text) for e in h.entries}


async def play_until(clients: dict[int, Client], table: str, rng: random.Random,
                     done: Any, timeout: float = 30.0) -> None:
    """Random legal moves by the seated clients until ``done(state)`` holds for seat 0."""
    with trio.fail_after(timeout):
        while not done(clients[0].states[table]):
            latest = max(c.states[table].version for c in clients.values())
            moved = False
            for seat, c in clients.items():
                s = c.states[table]
                if s.legal and s.version == latest:
                    with contextlib.suppress(Refused):
                        await c.intent(table, s.version, rng.choice(s.legal), seat=seat)
                    moved = True
                    break
            if not moved:
                await any_changed(clients.values())


async def test_each_seat_reads_the_game_in_its_own_words_and_the_sheet_fills() -> None:
    async with running_daemon() as d, contextlib.AsyncExitStack() as stack:
        t = await ask(d.control, "tables.new", game="wizard", players=3, ai="random",
                      options={"hidden_bids": True, "rounds": "5"})
        clients: dict[int, Client] = {}
        for seat in (0, 1):
            c = await stack.enter_async_context(connect(port=d.tcp_port))
            await c.join(t["code"], f"P{seat}", seat)
            clients[seat] = c
        kiosk = await stack.enter_async_context(connect(port=d.tcp_port))
        await kiosk.spectate(t["id"])
        await play_until(clients, t["id"], random.Random(5),
                         lambda s: len(s.view["sheet"]) >= 1 and s.view["phase"] != "deal")
        mine = {s: await c.history(t["id"]) for s, c in clients.items()}
        public = await kiosk.history(t["id"])
        assert [h.seat for h in mine.values()] == [0, 1] and public.seat is None
        bids = {s: {v: x for v, x in entry_texts(h).items() if x["key"].startswith(
            "wizard.last.bid")} for s, h in mine.items()}
        assert len(bids[0]) == 3 and bids[0].keys() == bids[1].keys()
        differ = [v for v in bids[0] if bids[0][v] != bids[1][v]]
        assert differ, "a hidden bid reads the same to every seat"
        for v in differ:
            for seat in (0, 1):
                x = bids[seat][v]
                own = x["args"]["seat"] == seat
                assert x["key"] == ("wizard.last.bid" if own else "wizard.last.bid_hidden")
                assert ("n" in x["args"]) == own
            assert entry_texts(public)[v]["key"] == "wizard.last.bid_hidden"
        plays = [x for x in entry_texts(mine[0]).values() if x["key"] == "wizard.last.play"]
        assert len(plays) == 3  # round one: one card each
        for s, c in clients.items():
            state = c.states[t["id"]]
            assert mine[s].version <= state.version
            assert len(mine[s].rows) == 1, "one row per scored round"
            assert state.common is not None
            assert mine[s].rows[0].scores == state.common["scores"]
            assert mine[s].teams == state.common["teams"]
            versions = [e.version for e in mine[s].entries]
            assert versions == sorted(set(versions))
        # Asked again after more moves, the account carries on where it was.
        await play_until(clients, t["id"], random.Random(6),
                         lambda s: len(s.view["sheet"]) >= 2)
        again = await clients[0].history(t["id"])
        assert again.entries[: len(mine[0].entries)] == mine[0].entries
        assert len(again.rows) == 2 and again.rows[0] == mine[0].rows[0]


async def test_history_is_refused_away_from_the_table_and_changes_nothing() -> None:
    async with running_daemon() as d, connect(port=d.tcp_port, record=True) as c, \
            connect(port=d.tcp_port, record=True) as other:
        t = await ask(d.control, "tables.new", game="golf", players=2, ai="random")
        await other.join(t["code"], "Ana", 0)
        with pytest.raises(Refused) as e:
            await c.history(t["id"])
        assert e.value.code == codes.NOT_SEATED
        with pytest.raises(Refused) as e:
            await c.history("no-such-table")
        assert e.value.code == codes.UNKNOWN_TABLE
        reply = await c.request(HistoryRequest(table=t["id"]))
        assert isinstance(reply, Rejected) and reply.code == codes.NOT_SEATED
        await c.send_raw(b'{"type":"history","table":"' + t["id"].encode() + b'","x":1}')
        await c.ping()
        assert c.messages is not None
        assert any(isinstance(m, Rejected) and m.code == codes.BAD_MESSAGE for m in c.messages)
        assert not any(isinstance(m, History) for m in c.messages)
        assert other.messages is not None  # the seated person was sent nothing of it
        assert not any(isinstance(m, History | Rejected) for m in other.messages)
        assert (await other.history(t["id"])).seat == 0


# Any card code in a message, quoted alone or inside a space-separated list ("JS QH").
CARD_IN_TEXT = re.compile(r"(?<![A-Za-z0-9])[A2-9TJQK][SHDC](?![A-Za-z0-9])")


def check_history(game: Game[Any], states: list[Any], seat: int | None, h: History) -> int:
    """Every entry and row of ``seat``'s account against the true states; entries checked.

    An entry is the game's own words for the step (exactly its caption in this seat's view
    after it), or the shell's line naming the mover and the action's type; either way, every
    card it names is in this seat's view just before or just after the step."""
    assert h.seat == seat and h.version == len(states) - 1
    last_version = 0
    for e in h.entries:
        v = e.version
        assert last_version < v <= h.version
        last_version = v
        after_view = game.view(states[v], seat)
        sent = msgspec.json.encode(e.text)
        if e.text.key.startswith("log."):
            assert e.text.key in ("log.action", "log.action_cards")
            assert str(e.text.args["action"]).startswith(f"{game.info.id}.log.")
        else:
            last = game.common(after_view).last
            assert last is not None
            want = msgspec.json.encode({"key": last.key, "args": dict(last.args)})
            assert sent == want, f"seat {seat} at {v}: {sent!r} is not its view's words"
        known = cards(to_data(game.view(states[v - 1], seat))) | cards(to_data(after_view))
        named = set(CARD_IN_TEXT.findall(sent.decode()))
        assert named <= known, f"seat {seat} at {v} was told {sorted(named - known)}"
    for row in h.rows:
        st = states[row.version]
        assert game.between_hands(st) or game.outcome(st) is not None
        assert row.scores == list(game.common(game.view(st, seat)).scores)
    assert h.rows, "a finished game has a score sheet"
    return len(h.entries)



def agrees_with_final(h: History, final: History) -> None:
    """An answer given as the game went names the same lines as the final one where the two
    overlap (a long game's answer leaves its oldest lines out to fit in a frame: ``omitted``
    says how many), and the same score rows so far."""
    start = max(h.omitted, final.omitted)
    end = h.omitted + len(h.entries)
    if end > start:  # else every line of it has since been left out of the final answer
        assert (final.entries[start - final.omitted: end - final.omitted]
                == h.entries[start - h.omitted:]), "a log answer the final one does not hold"
    assert final.rows[: len(h.rows)] == h.rows


@pytest.mark.parametrize("game", registry.ids())
async def test_no_history_entry_says_more_than_that_seats_views(game: str) -> None:
    g = registry.get(game)
    n = PLAYERS[game]
    async with running_daemon() as d, observed_table(d, game) as (t, clients, kiosk):
        asked: list[History] = []

        async def ask_along() -> None:
            # Seat 0 asks as the game goes, so the carried-forward replay is checked too.
            while clients[0].states[t["id"]].status == "playing":
                asked.append(await clients[0].history(t["id"]))
                await trio.sleep(0.05)

        async with trio.open_nursery() as nursery:
            nursery.start_soon(ask_along)
            nursery.start_soon(noisy_play, clients, t["id"], random.Random(n))
        record = await ask(d.control, "export", table=t["id"])
        # Every other frame as the daemon-wide leak check reads them; the history answers
        # (which name cards of hands gone by) are held to their own versions below.
        for c in (*clients.values(), kiosk):
            assert c.raw is not None
            kept = [line for line in bytes(c.raw).split(b"\n") if b'"type":"history"' not in line]
            c.raw[:] = b"\n".join(kept)
        states = await check_every_client(g, n, t, clients, kiosk, record)
        entries = 0
        for seat, c in [*clients.items(), (None, kiosk)]:
            h = await c.history(t["id"])
            entries += check_history(g, states, seat, h)
        final = await clients[0].history(t["id"])
        for h in asked:
            agrees_with_final(h, final)
        assert entries > 0


def test_a_replay_carried_forward_in_slices_gives_the_same_account() -> None:
    """``advance`` moves a seat's replay on by at most its slice and says when it has caught
    up; the account it leaves is the one a single replay of the whole game gives."""
    from engine.match import Match
    from hostd.tables import history

    g = registry.get("crazy_eights")
    rng = random.Random(3)
    m = Match.start(g, 4, {}, seed=3)
    while m.outcome() is None:
        seat = m.to_act()[0]
        m.act(seat, rng.choice(m.legal(seat)))
        m.resolve_chance()
    whole = history.account(m, None, 0)
    sliced = Match.start(g, 4, {}, seed=3)  # a new match object: a replay of its own
    sliced.state, sliced.steps = m.state, list(m.steps)
    slices = 1
    while not history.advance(sliced, None, 0, 32):
        slices += 1
    assert slices == -(-len(m.steps) // 32) > 2
    assert history.account(sliced, None, 0) == whole
    assert history.advance(sliced, None, 0, 32)  # caught up: nothing left to replay


async def test_a_long_games_first_history_does_not_hold_the_loop() -> None:
    """The first ask in a long game replays every step: in slices, with the rest of the loop
    run between them, so no single step of any task is most of the wait (before, one task
    step was the whole replay, and every table and ping waited for it)."""
    longest = [0.0]

    class Steps(trio.abc.Instrument):
        t0 = 0.0  # added in the middle of a step: that step counts from when it was added

        def before_task_step(self, task: trio.lowlevel.Task) -> None:
            self.t0 = time.perf_counter()

        def after_task_step(self, task: trio.lowlevel.Task) -> None:
            longest[0] = max(longest[0], time.perf_counter() - self.t0)

    async with running_daemon() as d, connect(port=d.tcp_port) as c:
        t = await ask(d.control, "tables.new", game="crazy_eights", players=4, ai="random")
        await c.spectate(t["id"])
        state = await c.wait_state(t["id"], lambda s: s.status == "finished", timeout=60)
        assert state.version > 8 * 32  # many slices
        steps = Steps()
        steps.t0 = time.perf_counter()
        trio.lowlevel.add_instrument(steps)
        try:
            t0 = time.perf_counter()
            h = await c.history(t["id"])
            took = time.perf_counter() - t0
        finally:
            trio.lowlevel.remove_instrument(steps)
        assert h.version == state.version and h.entries and h.rows
        assert longest[0] < took / 2, f"one task step took {longest[0]:.4f} s of {took:.4f} s"
