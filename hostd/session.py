"""The transport-agnostic session handler: one client link, from hello to goodbye.

Owns, for one ``FrameLink``: parsing every frame (``parse_client``) into a message or a
stable code, the hello/welcome handshake, rate limiting, the garbage and silence rules,
routing requests to table runners, and the one sender task that writes the connection's
outbox to the link in order. TCP, WebSocket and Bluetooth all end here, so every transport
gets exactly the same checks.

Rules: a bad frame gets ``rejected`` with its code (and the frame's request id, when it had
one that could be read) and changes nothing; too many bad frames in a row, or silence beyond
``dead_after``, closes the link (with a ``bye`` saying why, when the peer still reads). A
connection faster than its rate is paced, not refused: the session stops reading it until
its token bucket refills, so TCP (or hypercorn's bounded queue) slows the sender and no
request is ever dropped unanswered. Bad frames are logged as one throttled line for the
whole daemon, never one per frame. Every error is caught here: one bad client never
affects another. A token is hashed on arrival and never logged or echoed.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
from collections.abc import Callable

import trio

from hostd import opening
from hostd.lograte import Throttled
from hostd.logs import get_logger
from hostd.protocol import codes
from hostd.protocol.framing import FrameError, parse_client
from hostd.protocol.messages import (
    EMOTES,
    MAX_FRAME,
    SUPPORTED_PROTOCOLS,
    ClientBye,
    ClientMessage,
    Games,
    Hello,
    History,
    HistoryRequest,
    Intent,
    Join,
    Leave,
    ListTables,
    Notice,
    Open,
    Ping,
    Pong,
    React,
    Rematch,
    Resume,
    Spectate,
    Sync,
    Tables,
    Text,
    Welcome,
)
from hostd.protocol.messages import encode as _encode
from hostd.store import StorageError
from hostd.tables import history
from hostd.tables.core import Reject, hash_token
from hostd.tables.hub import ConnHandle, Hub
from hostd.tables.runner import Request, ResumeMsg, TableRunner
from hostd.transports.base import FrameLink, LinkClosed
from hostd.update.version import version

# A history answer stays well inside a frame (its rows and names besides the entries).
HISTORY_BYTES = MAX_FRAME * 3 // 4
# Steps of a history replay between two yields to the loop: about 2-5 ms here (0.01-0.2 ms a
# step, by game), so a first ask in a long game delays other tables by one slice, not all.
HISTORY_SLICE = 32

log = get_logger(__name__)
# Garbage from anywhere, as one line a minute at most: a peer must not write our log.
refused_frames = Throttled(log, "frames_refused", every=60.0)

MAX_BAD_IN_A_ROW = 8  # consecutive bad frames before the link is closed
MAX_BAD_TOTAL = 64  # bad frames over a connection's life before it is closed
FLUSH_SECONDS = 2.0  # how long the goodbye may take to drain to a closing link
NOTABLE_CLOSES = frozenset({"bye.garbage", "bye.flood", "bye.slow"})  # logged at info
# Reactions a connection may send: a burst of REACT_BURST, then one each REACT_EVERY seconds.
# Beyond that each is refused (``rate_limited``): an emote is worth nothing late, so it is
# not queued, and the sender is told rather than left wondering.
REACT_BURST = 3
REACT_EVERY = 2.0

try:
    SERVER = "tablebox " + importlib.metadata.version("tablebox")
except importlib.metadata.PackageNotFoundError:  # pragma: no cover - running from a checkout
    SERVER = "tablebox"


class TokenBucket:
    """``rate`` frames a second on average, ``burst`` at once.

    ``take`` never refuses: it says how long to wait before serving the frame. The session
    waits that long *before reading the next one*, so the debt is never more than the one
    frame being served and a fast peer is slowed to the rate, never cut off.
    """

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = trio.current_time()

    def take(self) -> float:
        """Spend one frame; the seconds until the bucket has paid for it (0: at once)."""
        now = trio.current_time()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate) - 1
        self.stamp = now
        return -self.tokens / self.rate if self.tokens < 0 else 0.0


async def handle_link(hub: Hub, link: FrameLink) -> None:
    """Serve one link until it closes. Never raises (except Cancelled on shutdown)."""
    conn = hub.connect(link.transport, link.peer)
    direct_writer = getattr(link, "direct_writer", None)
    if direct_writer is not None:
        conn.direct = direct_writer()
    slot = getattr(link, "slot", None)
    if slot is not None:
        # The connection budget may close it to make room, only while it is at no table
        # (hostd.transports.admission); it then goes with a goodbye, like any close.
        slot.attach(lambda: bool(conn.tables), conn.close)
    clog = log.bind(conn=conn.id, transport=link.transport)
    # Connections are logged at debug: people at tables are logged by their seats, and a
    # crowd of idle connections must not flood the log (one budget line covers them).
    clog.debug("conn_opened", peer=link.peer)
    try:
        with trio.CancelScope() as scope:
            conn.scope = scope
            async with trio.open_nursery() as nursery:
                sent_all = trio.Event()
                nursery.start_soon(_send_loop, conn, link, scope, sent_all)
                abort = getattr(link, "abort", None)
                if abort is not None:
                    nursery.start_soon(_abort_if_stuck, abort, sent_all)
                with trio.CancelScope() as reader:
                    conn.reader = reader
                    try:
                        await Session(hub, conn, link).read_loop()
                    except LinkClosed:
                        conn.reason = conn.reason or "closed"
                # Stop taking frames: what is queued (a goodbye) still drains, bounded.
                if not conn.closed:
                    conn.closed = True
                    conn.outbox.close()
                nursery.cancel_scope.deadline = trio.current_time() + FLUSH_SECONDS
    except Exception:
        clog.exception("session_failed")
    finally:
        hub.disconnect(conn)
        with trio.CancelScope(shield=True), trio.move_on_after(1.0), \
                contextlib.suppress(Exception):
            await link.aclose()
        reason = conn.reason or "closed"
        # A peer the box threw out for misbehaving is worth a line; ordinary closes are not.
        (clog.info if reason in NOTABLE_CLOSES else clog.debug)("conn_closed", reason=reason)


async def _abort_if_stuck(abort: Callable[[], None], sent_all: trio.Event) -> None:
    """Cancelled (a drop, the goodbye's deadline) before the sender ended: abort the link.

    A link whose writes cannot be cancelled (hypercorn shields them) would otherwise keep
    the session, its socket and its seat for as long as the peer does not read.
    """
    try:
        await sent_all.wait()
    finally:
        if not sent_all.is_set():
            abort()


async def _send_loop(conn: ConnHandle, link: FrameLink, scope: trio.CancelScope,
                     sent_all: trio.Event) -> None:
    # A stream link can write what is queued in one call (one syscall for a broadcast's
    # notice and state); message links (WebSocket) send frame by frame.
    send_many = getattr(link, "send_many", None)
    try:
        async with conn.frames:
            async for frame in conn.frames:
                batch = [frame]
                while send_many is not None and len(batch) < 64:
                    try:
                        batch.append(conn.frames.receive_nowait())
                    except (trio.WouldBlock, trio.EndOfChannel):
                        break
                if len(batch) > 1 and send_many is not None:
                    await send_many(batch)
                else:
                    await link.send(frame)
                conn.queued -= len(batch)
    except LinkClosed:
        conn.reason = conn.reason or "closed"
        scope.cancel()
    finally:
        sent_all.set()


class Session:
    def __init__(self, hub: Hub, conn: ConnHandle, link: FrameLink) -> None:
        self.hub = hub
        self.conn = conn
        self.link = link
        self.hello = False
        self.bad_in_a_row = 0
        self.bad_total = 0
        s = hub.settings
        self.bucket = TokenBucket(s.rate, s.burst)
        self.reactions = TokenBucket(1.0 / REACT_EVERY, REACT_BURST)

    async def read_loop(self) -> None:
        dead_after = self.hub.settings.dead_after
        # One scope for the connection's life whose deadline each frame pushes back (cheaper
        # than a scope per frame); the loop's only wait is ``receive``, so only silence
        # can reach the deadline.
        with trio.CancelScope() as silence:
            await self._read_frames(silence, dead_after)
        if silence.cancelled_caught:
            self.conn.close("bye.silent", seconds=int(dead_after))

    async def _read_frames(self, silence: trio.CancelScope, dead_after: float) -> None:
        while True:
            silence.deadline = trio.current_time() + dead_after
            frame = await self.link.receive()
            wait = self.bucket.take()
            if wait > 0:
                # Backpressure: nothing more is read from this peer until the bucket has paid
                # for this frame (its socket buffer fills, and TCP slows it down). The wait is
                # ours, not the peer's silence.
                silence.deadline = trio.current_time() + wait + dead_after
                await trio.sleep(wait)
            if isinstance(frame, FrameError):
                if not self._bad(frame.code, frame.re):
                    return
                continue
            try:
                msg = parse_client(frame)
            except FrameError as e:
                if not self._bad(e.code, e.re):
                    return
                continue
            self.bad_in_a_row = 0
            if isinstance(msg, Open) and self.hello:
                # Awaited here, not posted: making a table writes to the database, and the
                # connection's next frame waits for it (frames are answered in order).
                await self.open_table(msg)
                continue
            if isinstance(msg, HistoryRequest) and self.hello:
                await self._history(msg)  # awaited for the same reason: answers stay in order
                continue
            if not self.dispatch(msg):
                return

    async def open_table(self, msg: Open) -> None:
        try:
            runner = await opening.open_table(self.hub, self.conn.id, msg, self.conn.tables)
        except Reject as r:
            self.conn.push(_encode(r.message(msg.id)))
            return
        except StorageError:
            self._reject(codes.STORAGE_FAILED, msg.id)
            return
        log.info("table_opened", table=runner.id, game=runner.core.meta.game,
                 conn=self.conn.id)

    def _bad(self, code: str, re: int | None = None) -> bool:
        """Answer a bad frame; False when this connection has sent too many."""
        self.bad_in_a_row += 1
        self.bad_total += 1
        self._reject(code, re)
        refused_frames.note(code, transport=self.link.transport)
        if self.bad_in_a_row >= MAX_BAD_IN_A_ROW or self.bad_total >= MAX_BAD_TOTAL:
            self.conn.close("bye.garbage")
            return False
        return True

    def _reject(self, code: str, re: int | None, **args: str | int) -> None:
        self.conn.push(_encode_reject(code, re, args))

    def dispatch(self, msg: ClientMessage) -> bool:
        """Handle one message; False to end the session."""
        conn, hub = self.conn, self.hub
        if isinstance(msg, Ping):
            conn.push(_encode(Pong(re=msg.id)))
            return True
        if isinstance(msg, ClientBye):
            conn.reason = "bye"
            return False
        if isinstance(msg, Hello):
            if msg.protocol not in SUPPORTED_PROTOCOLS:
                # args.supported: the versions this box speaks, comma-separated ("2").
                supported = ",".join(str(p) for p in SUPPORTED_PROTOCOLS)
                self._reject(codes.UNSUPPORTED_PROTOCOL, msg.id, supported=supported)
                conn.close("bye.unsupported_protocol", supported=supported)
                return False
            self.hello = True
            conn.push(_encode(Welcome(
                re=msg.id, server=SERVER, box=hub.config.box_name, ping_after=hub.settings.ping_after,
                dead_after=hub.settings.dead_after, join_urls=list(hub.join_urls),
                release=version(), wifi=hub.wifi())))
            return True
        if not self.hello:
            return self._bad(codes.HELLO_FIRST, msg.id)
        try:
            if isinstance(msg, ListTables):
                conn.push(_encode(Tables(re=msg.id, tables=hub.list_tables())))
            elif isinstance(msg, Games):
                conn.push(_encode(opening.catalogue(hub, msg.id)))
            elif isinstance(msg, Join):
                if hub.draining:
                    raise Reject(codes.DRAINING)
                hub.by_join_code(msg.code).post(Request(conn.id, "join", msg))
            elif isinstance(msg, Resume):
                token_hash = hash_token(msg.token)
                runner = hub.by_token(token_hash)
                if runner is None:
                    raise Reject(codes.BAD_TOKEN)
                runner.post(Request(conn.id, "resume", ResumeMsg(token_hash, msg.id)))
            elif isinstance(msg, Spectate):
                hub.find(msg.table).post(Request(conn.id, "spectate", msg))
            elif isinstance(msg, Intent):
                self._at(msg.table).post(Request(conn.id, "intent", msg))
            elif isinstance(msg, Leave):
                self._at(msg.table).post(Request(conn.id, "leave", msg))
            elif isinstance(msg, Rematch):
                self._at(msg.table).post(Request(conn.id, "rematch", msg))
            elif isinstance(msg, React):
                self._react(msg)
            # -- state patches: a full state for a client whose patches did not follow --
            elif isinstance(msg, Sync):
                self._at(msg.table).post(Request(conn.id, "sync", msg))
        except Reject as r:
            conn.push(_encode(r.message(msg.id)))
        return True

    # -- social: log, scores, reactions ---------------------------------------------------------
    # Served here, not through the table's inbox: both only read the table as it was last
    # committed (and so shown), which the trio thread guarantees between two of its steps.
    def _watching(self, table: str) -> tuple[TableRunner, int | None]:
        """The table and this connection's seat there (None: watching), else Reject."""
        runner = self.hub.tables.get(table)
        if runner is None:
            raise Reject(codes.UNKNOWN_TABLE)
        if self.conn.id not in runner.core.watchers:
            raise Reject(codes.NOT_SEATED)
        return runner, runner.core.watchers[self.conn.id]

    async def _history(self, msg: HistoryRequest) -> None:
        try:
            # The replay behind a first ask runs HISTORY_SLICE steps at a time with every
            # other task let run between slices (a whole Crazy Eights or Mastermind game was
            # 60-110 ms of the loop here). The table may move on meanwhile: each slice looks it
            # up again, and the answer is built in one go once the replay has caught up.
            while True:
                runner, seat = self._watching(msg.table)
                core = runner.core
                if history.advance(core.match, seat, core.base, HISTORY_SLICE):
                    break
                await trio.sleep(0)
        except Reject as r:
            self.conn.push(_encode(r.message(msg.id)))
            return
        entries, rows = history.account(core.match, seat, core.base)
        omitted = 0
        while True:
            frame = _encode(History(
                re=msg.id, table=core.id, game=core.meta.game, seat=seat, version=core.version,
                teams=list(core.match.teams()), entries=entries[omitted:], rows=rows,
                omitted=omitted))
            # A long game's log can outgrow a frame (a client refuses one over MAX_FRAME):
            # the oldest lines give way, and the answer says how many.
            if len(frame) <= HISTORY_BYTES or omitted >= len(entries):
                break
            omitted += max(1, (len(entries) - omitted) // 4)
        self.conn.push(frame)

    def _react(self, msg: React) -> None:
        runner, seat = self._watching(msg.table)
        if seat is None:
            raise Reject(codes.NOT_SEATED)  # reactions come from the seats, not the room
        if msg.emote not in EMOTES:
            raise Reject(codes.UNKNOWN_EMOTE, {"emotes": " ".join(EMOTES)})
        wait = self.reactions.take()
        if wait > 0:
            self.reactions.tokens += 1  # refused, so not spent
            raise Reject(codes.RATE_LIMITED, {"seconds": max(1, round(wait))})
        text = Text("notice.reaction", {"seat": seat, "emote": msg.emote})
        frame = _encode(Notice(re=None, table=runner.id, text=text))
        for conn in list(runner.core.watchers):
            if conn == self.conn.id:
                # The sender's copy answers its request (``re``): a client matching replies
                # to requests is not left waiting.
                self.conn.push(_encode(Notice(re=msg.id, table=runner.id, text=text)))
            else:
                self.hub.push(conn, frame)

    def _at(self, table: str) -> TableRunner:
        """A table this connection is at (by id), else Reject: no other table is affected."""
        runner = self.hub.tables.get(table)
        if runner is None:
            raise Reject(codes.UNKNOWN_TABLE)
        if table not in self.conn.tables:
            raise Reject(codes.NOT_SEATED)
        return runner


def _encode_reject(code: str, re: int | None, args: dict[str, str | int]) -> bytes:
    return _encode(Reject(code, args).message(re))
