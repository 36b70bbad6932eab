"""The kiosk's link to the box: find it, watch every table as a spectator, and come back by
itself whenever the daemon goes away.

Speaks the protocol through the Python client library (``clients.client``): hello, then
``list_tables`` every few seconds (new tables appear, closed ones go) and ``spectate`` for each
table, then every ``state`` the host pushes goes into the ``Model`` (whole: the client library
applies the host's patches, ``clients.patch``). It only ever spectates:
it never joins, so it only ever receives the public view. When the link drops (the daemon
restarting, a cable pulled, a silent host) the model is told, the screen says
"reconnecting", and the link is retried with a growing pause. Without ``--host`` the box is
found by mDNS (``clients.browse``), falling back to this machine.

Owns no drawing. Must never send an intent, a join or a token.
"""

from __future__ import annotations

import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import trio

from clients.client import Client, ClientError, Refused, connect
from clients.kiosk.model import Model
from hostd.protocol import codes
from hostd.protocol.messages import State

CLIENT_NAME = "tablebox-kiosk"
POLL_TABLES = 3.0  # seconds between table lists: how soon a new table shows up
FIRST_RETRY = 0.25
MAX_RETRY = 4.0
CONNECT_TIMEOUT = 5.0
LOOPBACK = "127.0.0.1"
REDISCOVER_AFTER = 5  # failed connections in a row before looking for the box again

Clock = Callable[[], float]
# Where the box finder browses from: the CLI's ``browse_source`` (Avahi's browser where
# avahi-daemon runs, None for the kiosk's own zeroconf), asked anew at each search since
# Avahi may start after the kiosk. The kiosk cannot ask itself: clients never import
# ``hostd.discovery``.
SourceFinder = Callable[[], Awaitable[Any]]


@dataclass
class Target:
    host: str
    port: int


async def locate(port: int, timeout: float = 3.0,
                 source_for: SourceFinder | None = None) -> Target | None:
    """The first box mDNS finds, or this machine if a daemon listens here, or None."""
    try:
        from clients.browse import discover

        source = await source_for() if source_for is not None else None
        boxes = await discover(timeout, source=source)
    except Exception:  # no network, no zeroconf: fall back to this machine
        boxes = []
    for box in boxes:
        if box.addresses:
            return Target(box.addresses[0], box.port)
    try:
        with trio.fail_after(1.0):
            stream = await trio.open_tcp_stream(LOOPBACK, port)
        await stream.aclose()
        return Target(LOOPBACK, port)
    except (OSError, trio.TooSlowError):
        return None


async def follow(model: Model, target: Target | None, port: int, *,
                 clock: Clock = time.monotonic, poll: float = POLL_TABLES,
                 source_for: SourceFinder | None = None) -> None:
    """Keep the model in step with the box, forever (cancel to stop).

    ``target`` None: find the box first (and again after repeated failures).
    """
    fixed = target is not None
    delay = FIRST_RETRY
    failures = 0
    while True:
        if target is None or (not fixed and failures >= REDISCOVER_AFTER):
            found = await locate(port, source_for=source_for)
            if found is not None:
                target, failures = found, 0
                model.host = found.host if found.port == port else f"{found.host}:{found.port}"
        if target is not None:
            connected = False
            try:
                connected = await _session(target, model, clock, poll)
            except* (ClientError, OSError, trio.TooSlowError):
                pass  # the daemon went away or never answered: say so, then try again
            if connected:
                delay, failures = FIRST_RETRY, 0
            else:
                failures += 1
        model.link_down(clock())
        await trio.sleep(delay)
        delay = min(MAX_RETRY, delay * 2)


async def _session(target: Target, model: Model, clock: Clock, poll: float) -> bool:
    """One connection, from hello until it drops; True if it got as far as the welcome."""
    with trio.CancelScope(deadline=trio.current_time() + CONNECT_TIMEOUT) as connecting:
        async with connect(target.host, target.port, client=CLIENT_NAME) as client:
            connecting.deadline = math.inf
            assert client.welcome is not None
            model.link_up(client.welcome, clock())
            try:
                await _watch(client, model, clock, poll)
            except* (ClientError, OSError):
                pass
            return True
    raise trio.TooSlowError  # the connect timed out


async def _watch(client: Client, model: Model, clock: Clock, poll: float) -> None:
    """One connection's life: list, spectate, absorb every state, until the link drops."""
    seen: dict[str, State] = {}
    watching: set[str] = set()
    notices = 0  # how many of the client's notices were looked at
    asking: set[str] = set()  # tables whose history is being asked for

    def absorb() -> None:
        nonlocal notices
        for table, state in list(client.states.items()):
            if seen.get(table) is not state and table in model.tables:
                seen[table] = state
                model.on_state(state, clock())
        for n in client.notices[notices:]:
            if n.text.key == "notice.reaction" and n.table is not None:
                model.on_reaction(n.table, n.text.args.get("seat"), n.text.args.get("emote"),
                                  clock())
        notices = len(client.notices)

    async def history(table: str) -> None:
        # The public log and score sheet; a table gone meanwhile is simply not told.
        try:
            model.on_history(await client.history(table))
        except Refused:
            pass
        finally:
            asking.discard(table)

    async def poll_tables() -> None:
        while True:
            model.on_tables(await client.list_tables(), clock())
            for table in [t for t in model.tables if t not in watching]:
                try:
                    await client.spectate(table)
                    watching.add(table)
                except Refused as e:
                    if e.code not in (codes.UNKNOWN_TABLE, codes.TABLE_CLOSED,
                                      codes.TABLE_DAMAGED):
                        raise
                    model.drop(table)
            for table in list(watching):
                if table not in model.tables:
                    watching.discard(table)
                    seen.pop(table, None)
                    client.states.pop(table, None)
            absorb()
            await trio.sleep(poll)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(poll_tables)
        while True:
            await client.changed()  # raises Disconnected once the link is gone
            absorb()
            for table in model.history_wanted - asking:
                asking.add(table)
                nursery.start_soon(history, table)
            model.history_wanted.clear()
