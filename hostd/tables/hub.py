"""The hub: every table runner and every connection of the daemon, and the indexes between them.

Owns the tables by id and join code, the seat-token index (hashes only), the connections
and their bounded outboxes, table creation and restore-by-replay on start, the drain flag,
and the counters ``status`` reports. It decides nothing about a table: it routes to the
table's runner, which is the only writer of its table.

A table whose log no longer replays is kept as a damaged entry (``hostd.tables.damage``):
no runner, its code and tokens still indexed so that it keeps its join code and anyone who
asks for it is refused with ``table_damaged``, listed for the operator (never in the
players' lobby), and never written to except to close it.

Never keeps a token, only its hash; never logs a seed, a hand or a token.
"""

from __future__ import annotations

import contextlib
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import msgspec
import trio

from engine import ai as engine_ai
from engine import registry
from engine.errors import OptionError
from hostd.config import Config
from hostd.logs import get_logger
from hostd.protocol import codes
from hostd.protocol.messages import PING_AFTER, HostBye, TableSummary, Text, encode
from hostd.store import Store
from hostd.tables.ai import AIWorkers
from hostd.tables.core import CODE_ALPHABET, Reject, TableCore, TableMeta, clean_name
from hostd.tables.damage import DamagedTable, replay
from hostd.tables.runner import Gone, TableRunner
from hostd.transports.base import LinkClosed

log = get_logger(__name__)

OUTBOX_FRAMES = 64  # frames queued for one connection before it counts as not reading


class ConnHandle:
    """One client connection as the tables see it: an id and a bounded outbox of frames.

    ``push`` never blocks. When the outbox is full the peer is not reading: the connection
    is dropped (its session's scope is cancelled), the table carries on. A link that can
    write without waiting (``direct``: a stream socket) is written at once while nothing
    is queued for it, which spares the sender task a wake-up and trio's send path per frame
    on every move; whatever the socket does not take at once is left to the sender, in order.
    """

    def __init__(self, conn_id: int, transport: str, peer: str,
                 buffer: int = OUTBOX_FRAMES) -> None:
        self.id = conn_id
        self.transport = transport
        self.peer = peer
        self.tables: set[str] = set()
        self.outbox, self.frames = trio.open_memory_channel[bytes](buffer)
        self.closed = False
        self.reason = ""
        self.scope: trio.CancelScope | None = None  # the whole session (drop)
        self.reader: trio.CancelScope | None = None  # the session's read loop (close)
        self.opened = time.monotonic()
        # Writes ``frame`` now if the socket takes all of it (True); else keeps the rest for
        # the sender's next write. Raises LinkClosed. Set by the session, for stream links.
        self.direct: Callable[[bytes], bool] | None = None
        self.queued = 0  # frames in the outbox or in the sender's hands

    def push(self, frame: bytes) -> None:
        if self.closed:
            return
        if self.direct is not None and self.queued == 0:
            try:
                if self.direct(frame):
                    return
            except LinkClosed:
                self.drop("closed")
                return
            frame = b""  # the rest of it waits in the link: an empty frame has it written
        try:
            self.outbox.send_nowait(frame)
            self.queued += 1
        except trio.WouldBlock:
            self.drop("bye.slow")
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            self.closed = True

    def close(self, key: str, **args: str | int) -> None:
        """Say ``bye`` (after what is queued), stop reading; the session then closes the link."""
        if self.closed:
            return
        self.reason = key
        with contextlib.suppress(trio.WouldBlock, trio.ClosedResourceError, trio.BrokenResourceError):
            self.outbox.send_nowait(encode(HostBye(reason=Text(key, dict(args)))))
            self.queued += 1
        self.closed = True
        self.outbox.close()
        if self.reader is not None:
            self.reader.cancel()

    def drop(self, key: str) -> None:
        """Close at once, without a goodbye (the peer is not reading anyway)."""
        self.reason = self.reason or key
        self.closed = True
        self.outbox.close()
        if self.scope is not None:
            self.scope.cancel()


@dataclass
class HubSettings:
    ai_speed: float = 1.0
    grace_seconds: float = 20.0
    rate: float = 100.0  # frames a second a connection may send, on average
    burst: float = 200.0  # and in a burst
    dead_after: float = 25.0  # a link silent this long is closed
    ping_after: float = PING_AFTER  # what Welcome tells clients: ping after this long unsent


@dataclass
class DrainReport:
    playing: int  # games still running (somebody at the table)
    finished: int
    idle: int  # games nobody is at, or whose people are all away (they wait; no drain hold)
    waited: float
    done: bool

    def as_dict(self) -> dict[str, Any]:
        return {"playing": self.playing, "finished": self.finished, "idle": self.idle,
                "waited": round(self.waited, 3), "done": self.done}


@dataclass
class Hub:
    config: Config
    store: Store
    ai: AIWorkers
    settings: HubSettings = field(default_factory=HubSettings)
    join_urls: list[str] = field(default_factory=list)
    # The box's own Wi-Fi (hostd.hotspot.service.Hotspot), when the config turns it on.
    hotspot: Any = None

    def wifi(self) -> str:
        """The hotspot's ``WIFI:`` QR text while it is on, else ""."""
        if self.hotspot is None:
            return ""
        return str(self.hotspot.status().get("wifi", ""))

    def __post_init__(self) -> None:
        self.tables: dict[str, TableRunner] = {}
        self.damaged: dict[str, DamagedTable] = {}  # tables whose log no longer replays
        self.by_code: dict[str, str] = {}
        self.tokens: dict[str, str] = {}  # token hash -> table id
        self.conns: dict[int, ConnHandle] = {}
        self.draining = False
        self.moves = 0
        self.started = time.time()
        self.listening: dict[str, Any] = {}
        self._next_conn = 0
        self._nursery: trio.Nursery | None = None
        self._closing = trio.Event()
        self._changed = trio.Event()
        self.changes = 0  # counts table changes (moves, seats, status), for waiters
        self.restored = 0
        self.restore_seconds = 0.0

    @property
    def ai_speed(self) -> float:
        return self.settings.ai_speed

    @property
    def grace_seconds(self) -> float:
        return self.settings.grace_seconds

    # -- lifecycle ----------------------------------------------------------------------------
    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Restore every open table, report started, and run the tables until ``close``."""
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            await self.restore()
            task_status.started()
            await self._closing.wait()
            for runner in list(self.tables.values()):
                runner.stop()

    def close_tables(self) -> None:
        """Each runner finishes the command in hand (its step commits), then stops."""
        self._closing.set()

    async def restore(self) -> None:
        t0 = time.perf_counter()
        logs = await self.store.load()
        for tl in logs:
            row = tl.row
            meta = TableMeta(str(row.id), row.code, row.name, row.game, row.players,
                             row.options, row.seed, row.turn_timer)
            restored = replay(meta, tl.events)
            if isinstance(restored, DamagedTable):
                self._keep_damaged(restored)
                continue
            await self._start(restored, row.id)
        self.restored = len(self.tables)
        self.restore_seconds = time.perf_counter() - t0
        log.info("tables_restored", tables=self.restored, damaged=len(self.damaged),
                 seconds=round(self.restore_seconds, 3))

    def _keep_damaged(self, table: DamagedTable) -> None:
        self.damaged[table.id] = table
        # Its code stays taken (a new table must not answer to a code people still hold) and
        # its tokens stay known (a returning player is told why, and keeps the token).
        self.by_code[table.meta.code] = table.id
        for token_hash in table.tokens():
            self.tokens[token_hash] = table.id
        d = table.damage
        # One line per table, at warning: where and why, never the seed, a card or a token.
        log.warning("table_damaged", table=table.id, game=table.meta.game, code=d.code,
                    game_number=d.game, step=d.step, event_index=d.event,
                    fix=f"tablebox export {table.id} -o table-{table.id}.json")

    def forget_damaged(self, table: DamagedTable) -> None:
        """The operator closed it (its rows stay): it stops being listed and refused."""
        self.damaged.pop(table.id, None)
        if self.by_code.get(table.meta.code) == table.id:
            del self.by_code[table.meta.code]
        self.forget_tokens(table.tokens())
        self.tables_changed()

    def _refuse_damaged(self, table_id: str | None) -> None:
        if table_id is not None and table_id in self.damaged:
            raise Reject(codes.TABLE_DAMAGED)

    def find_damaged(self, ref: str) -> DamagedTable | None:
        """The damaged table with this id or join code, if there is one."""
        found = self.damaged.get(ref)
        if found is None:
            tid = self.by_code.get(ref.strip().upper())
            found = self.damaged.get(tid) if tid is not None else None
        return found

    async def _start(self, core: TableCore, db_id: int) -> TableRunner:
        runner = TableRunner(self, core, db_id)
        self.tables[core.id] = runner
        if core.status != "closed":
            self.by_code[core.meta.code] = core.id
        for token_hash in core.tokens():
            self.tokens[token_hash] = core.id
        assert self._nursery is not None
        await self._nursery.start(self._run_table, runner)
        self.tables_changed()
        return runner

    async def _run_table(self, runner: TableRunner, *,
                         task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        try:
            await runner.run(task_status=task_status)
        finally:
            if self.tables.get(runner.id) is runner and runner.core.status == "closed":
                self._forget_table(runner)

    def _forget_table(self, runner: TableRunner) -> None:
        self.tables.pop(runner.id, None)
        if self.by_code.get(runner.core.meta.code) == runner.id:
            del self.by_code[runner.core.meta.code]
        self.forget_tokens(runner.core.tokens())
        self.tables_changed()

    # -- tables ------------------------------------------------------------------------------
    def _new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(4))
            if code not in self.by_code:
                return code

    async def create_table(self, game: str, *, players: int | None = None,
                           options: dict[str, Any] | None = None,
                           levels: Iterable[str] = (), name: str = "",
                           turn_timer: float | None = None,
                           seed: int | None = None) -> TableRunner:
        """A new table with AI in every seat; OptionError or Reject for what is not allowed."""
        if self.draining:
            raise Reject(codes.DRAINING)
        g = registry.get(game)
        n = g.info.default_players if players is None else players
        validated = g.validate(n, options or {})
        level_list = [lvl.strip() for lvl in levels if lvl.strip()] or [default_level(game)]
        for lvl in level_list:
            engine_ai.player(game, lvl)
        timer = self.config.turn_timer if turn_timer is None else turn_timer
        if not 0 <= timer <= 3600:
            raise OptionError("turn_timer", "out of range", "0..3600 seconds")
        code = self._new_code()
        meta = TableMeta("", code, clean_name(name) or g.info.title, game, n, validated,
                         secrets.randbits(63) if seed is None else seed, float(timer))
        core, events = TableCore.create(meta, level_list)
        db_id = await self.store.create_table(
            code=code, name=meta.name, game=game, players=n, options=validated,
            seed=meta.seed, turn_timer=meta.turn_timer, events=events)
        meta.id = str(db_id)
        runner = await self._start(core, db_id)
        log.info("table_created", table=meta.id, game=game, players=n)
        return runner

    def find(self, ref: str) -> TableRunner:
        """A table by id or join code (codes are case-insensitive), or Reject(unknown_table)."""
        runner = self.tables.get(ref)
        if runner is None:
            tid = self.by_code.get(ref.strip().upper())
            runner = self.tables.get(tid) if tid is not None else None
        if runner is None or runner.core.status == "closed":
            damaged = self.find_damaged(ref)
            self._refuse_damaged(damaged.id if damaged is not None else None)
            raise Reject(codes.UNKNOWN_TABLE)
        return runner

    def by_join_code(self, code: str) -> TableRunner:
        """A table by its join code only (people join with the code, not the id)."""
        tid = self.by_code.get(code.strip().upper())
        runner = self.tables.get(tid) if tid is not None else None
        if runner is None or runner.core.status == "closed":
            self._refuse_damaged(tid)
            raise Reject(codes.UNKNOWN_TABLE)
        return runner

    def by_token(self, token_hash: str) -> TableRunner | None:
        """The table holding this seat token; Reject(table_damaged) for a damaged one."""
        tid = self.tokens.get(token_hash)
        self._refuse_damaged(tid)
        return self.tables.get(tid) if tid is not None else None

    def list_tables(self, *, seats: bool = True) -> list[TableSummary]:
        """The playable tables (the players' lobby, mDNS counts): damaged ones are not."""
        return [r.core.summary(seats=seats) for r in self.tables.values()
                if r.core.status != "closed"]

    def damaged_tables(self) -> list[dict[str, Any]]:
        """The damaged tables' listing entries, by id (for the operator: no secrets)."""
        return [self.damaged[k].summary() for k in sorted(self.damaged, key=_id_order)]

    def forget_tokens(self, hashes: Iterable[str]) -> None:
        for h in hashes:
            self.tokens.pop(h, None)

    def tables_changed(self) -> None:
        self.changes += 1
        self._changed.set()
        self._changed = trio.Event()  # replaced by the setter, so no waiter misses a change

    async def wait_changed(self, since: int | None = None) -> int:
        """Wait until a table changed after change number ``since`` (default: now)."""
        since = self.changes if since is None else since
        while self.changes <= since:
            await self._changed.wait()
        return self.changes

    async def drain(self, *, wait: bool, timeout: float | None = None) -> DrainReport:
        """Refuse new tables and joins; with ``wait``, return once no game is running.

        A running game is a table playing with somebody at it; a table nobody is at waits
        (its computer players do not play on alone), and so does a paused one (its people
        are all away), so neither holds a drain up.
        """
        self.draining = True
        log.info("drain_started")
        t0 = trio.current_time()

        def running() -> int:
            return sum(1 for r in self.tables.values()
                       if r.core.status == "playing" and r.core.attended()
                       and not r.core.paused())

        with trio.move_on_after(math_inf(timeout)):
            seen = self.changes
            while wait and running():
                seen = await self.wait_changed(seen)
        finished = sum(1 for r in self.tables.values() if r.core.status == "finished")
        idle = sum(1 for r in self.tables.values()
                   if r.core.status == "playing" and (not r.core.attended() or r.core.paused()))
        n = running()
        return DrainReport(n, finished, idle, trio.current_time() - t0, n == 0)

    # -- connections ---------------------------------------------------------------------------
    def connect(self, transport: str, peer: str) -> ConnHandle:
        self._next_conn += 1
        handle = ConnHandle(self._next_conn, transport, peer)
        self.conns[handle.id] = handle
        return handle

    def disconnect(self, handle: ConnHandle) -> None:
        """The link is gone: every table it watched forgets it (seats start their grace)."""
        self.conns.pop(handle.id, None)
        handle.closed = True
        for tid in handle.tables:
            runner = self.tables.get(tid)
            if runner is not None:
                runner.post(Gone(handle.id))
        handle.tables.clear()

    def push(self, conn: int, frame: bytes) -> None:
        handle = self.conns.get(conn)
        if handle is not None:
            handle.push(frame)

    def push_msg(self, conn: int, msg: msgspec.Struct) -> None:
        self.push(conn, encode(msg))

    def attached(self, conn: int, table: str, token_hash: str | None) -> None:
        handle = self.conns.get(conn)
        if handle is not None:
            handle.tables.add(table)
        if token_hash is not None:
            self.tokens[token_hash] = table

    def detached(self, conn: int, table: str) -> None:
        handle = self.conns.get(conn)
        if handle is not None:
            handle.tables.discard(table)

    def bye_all(self, key: str) -> None:
        for handle in list(self.conns.values()):
            handle.close(key)

    # -- reporting ------------------------------------------------------------------------------
    def status(self) -> dict[str, Any]:
        by_status: dict[str, int] = {"playing": 0, "finished": 0}
        for r in self.tables.values():
            by_status[r.core.status] = by_status.get(r.core.status, 0) + 1
        if self.damaged:
            by_status["damaged"] = len(self.damaged)
        transports: dict[str, int] = {}
        for h in self.conns.values():
            transports[h.transport] = transports.get(h.transport, 0) + 1
        return {
            "box": self.config.box_name,
            "uptime": round(time.time() - self.started, 1),
            "tables": by_status,
            "connections": len(self.conns),
            "transports": transports,
            # Counted as `tables list` counts them (a person away still holds the seat), and
            # how many of them are connected now.
            "seated": sum(1 for r in self.tables.values() for s in r.core.seats
                          if s.occupant is not None),
            "seated_connected": sum(1 for r in self.tables.values() for s in r.core.seats
                                    if s.occupant is not None and s.occupant.conn is not None),
            # Tables whose people are all away: they wait (docs/host.md, "Abandoned seats").
            "paused": sum(1 for r in self.tables.values() if r.core.paused()),
            "draining": self.draining,
            "moves": self.moves,
            "cpu_seconds": round(time.process_time(), 3),  # the daemon's CPU (all threads)
            "commits": self.store.commits,
            "ai_decisions": self.ai.decisions,
            "ai_processes": self.ai.processes,
            "ai_speed": self.ai_speed,
            "restored": self.restored,
            "damaged": self.damaged_tables(),
            "restore_seconds": round(self.restore_seconds, 3),
            "database": str(self.store.path),
            "listening": self.listening,
            "join_urls": self.join_urls,
        }


def default_level(game: str) -> str:
    """The level new seats get when none is asked for: "normal" where the game has it."""
    levels = list(registry.players_for(game))
    for preferred in ("normal", "easy", "hard", "random"):
        if preferred in levels:
            return preferred
    return levels[0]


def _id_order(table_id: str) -> tuple[int, str]:
    return (int(table_id), "") if table_id.isdigit() else (0, table_id)


def math_inf(timeout: float | None) -> float:
    return float("inf") if timeout is None else timeout
