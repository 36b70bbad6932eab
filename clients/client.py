"""A small Python client library for the tablebox protocol, on trio.

Used by the tests, the benchmarks, the terminal client and the kiosk. It speaks NDJSON over
TCP (``connect``) or JSON text frames over WebSocket (``connect_ws``, when trio-websocket is
installed), matches each answer to its request by ``id``/``re``, keeps the latest ``state``
of every table it is at, and pings a link that has been idle (the protocol's heartbeat).

Patches (protocol 2) are applied as they come (``clients.patch``): callers only ever see full
``State`` messages, including as the answer to an intent. A patch that does not follow the
version held makes the client send ``sync`` (with the patch's ``re`` as its id, so a request
waiting for that answer gets the full state instead).

A client never decides what is legal: it chooses from the ``legal`` list the host sent.
It must never print or log a seat token; ``Joined.token`` is kept for ``resume`` only.
"""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from typing import Any, Protocol

import msgspec
import trio

from clients.patch import Follower
from hostd.protocol.framing import FrameError, NDJSONSplitter
from hostd.protocol.messages import (
    DEAD_AFTER,
    PING_AFTER,
    Catalogue,
    ClientBye,
    Games,
    Hello,
    History,
    HistoryRequest,
    HostBye,
    HostMessage,
    Intent,
    Join,
    Joined,
    Leave,
    ListTables,
    Notice,
    Open,
    Patch,
    Ping,
    Pong,
    React,
    Rejected,
    Rematch,
    Resume,
    Spectate,
    State,
    Sync,
    Tables,
    TableSummary,
    Welcome,
    encode,
    host_decoder,
)


class ClientError(Exception):
    """Base of this library's errors."""


class Refused(ClientError):
    """The host answered ``rejected``: ``code`` is stable, ``reply`` the whole message."""

    def __init__(self, reply: Rejected) -> None:
        super().__init__(f"{reply.code}: {reply.message.key}")
        self.code = reply.code
        self.reply = reply


class Disconnected(ClientError):
    """The link is gone (``bye`` holds the host's goodbye, if it said one)."""

    def __init__(self, message: str, bye: HostBye | None = None) -> None:
        super().__init__(message)
        self.bye = bye


class Transport(Protocol):
    async def send(self, frame: bytes) -> None: ...

    async def receive(self) -> bytes: ...

    async def aclose(self) -> None: ...


class TcpTransport:
    """NDJSON over a trio stream. ``raw`` keeps every byte received when ``record``."""

    def __init__(self, stream: trio.abc.Stream, *, record: bool = False) -> None:
        self.stream = stream
        self._split = NDJSONSplitter()
        self._frames: list[bytes] = []
        self.raw: bytearray | None = bytearray() if record else None

    async def send(self, frame: bytes) -> None:
        try:
            await self.stream.send_all(frame + b"\n")
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as e:
            raise Disconnected(str(e) or "closed") from None

    async def receive(self) -> bytes:
        while not self._frames:
            try:
                data = await self.stream.receive_some(65536)
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as e:
                raise Disconnected(str(e) or "closed") from None
            if not data:
                raise Disconnected("the host closed the connection")
            if self.raw is not None:
                self.raw += data
            for f in self._split.feed(bytes(data)):
                if isinstance(f, FrameError):
                    raise Disconnected(f"the host sent a bad frame ({f.code})")
                self._frames.append(f)
        return self._frames.pop(0)

    async def aclose(self) -> None:
        with suppress(trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            await self.stream.aclose()


class WsTransport:
    """One JSON object per WebSocket text frame (trio-websocket)."""

    def __init__(self, ws: Any, *, record: bool = False) -> None:
        self.ws = ws
        self.raw: bytearray | None = bytearray() if record else None

    async def send(self, frame: bytes) -> None:
        from trio_websocket import ConnectionClosed

        try:
            await self.ws.send_message(frame.decode("utf-8"))
        except ConnectionClosed as e:
            raise Disconnected(f"websocket closed ({e.reason})") from None

    async def receive(self) -> bytes:
        from trio_websocket import ConnectionClosed

        try:
            msg = await self.ws.get_message()
        except ConnectionClosed as e:
            raise Disconnected(f"websocket closed ({e.reason})") from None
        data = msg.encode("utf-8") if isinstance(msg, str) else bytes(msg)
        if self.raw is not None:
            self.raw += data + b"\n"
        return data

    async def aclose(self) -> None:
        await self.ws.aclose()


class Client:
    """One connection to a box. Create it with ``connect`` or ``connect_ws``."""

    def __init__(self, transport: Transport, *, record: bool = False) -> None:
        self.transport = transport
        self.welcome: Welcome | None = None
        self.states: dict[str, State] = {}
        self.follower = Follower()  # applies patches; knows which tables wait for a sync
        self.syncs = 0  # sync requests sent (a patch did not follow)
        self.joined: dict[str, Joined] = {}  # table -> the Joined that seated us (has the token)
        self.notices: list[Notice] = []
        self.messages: list[HostMessage] | None = [] if record else None
        self.bye: HostBye | None = None
        self.closed: Disconnected | None = None
        self._ids = itertools.count(1)
        self._waiting: dict[int, tuple[trio.Event, list[HostMessage]]] = {}
        self._changed = trio.Event()
        self.seq = 0  # messages received so far
        self._send_lock = trio.Lock()
        self._last_rx = trio.current_time()
        self._last_tx = trio.current_time()

    # -- plumbing ----------------------------------------------------------------------------
    @property
    def raw(self) -> bytearray | None:
        raw: bytearray | None = getattr(self.transport, "raw", None)
        return raw

    async def send(self, msg: msgspec.Struct) -> None:
        await self.send_raw(encode(msg))

    async def send_raw(self, frame: bytes) -> None:
        """Send one frame as is (tests use this to send garbage). Safe from many tasks."""
        if self.closed is not None:
            raise self.closed
        self._last_tx = trio.current_time()
        async with self._send_lock:  # whole frames, in order, whichever task sends
            await self.transport.send(frame)

    async def request(self, msg: msgspec.Struct, *, timeout: float = 10.0) -> HostMessage:
        """Send ``msg`` with a fresh id; the host's direct answer (``re`` == id)."""
        rid = next(self._ids)
        msg = msgspec.structs.replace(msg, id=rid)
        event: trio.Event = trio.Event()
        box: list[HostMessage] = []
        self._waiting[rid] = (event, box)
        try:
            await self.send(msg)
            with trio.fail_after(timeout):
                await event.wait()
        except trio.TooSlowError:
            raise ClientError(f"no answer to {type(msg).__name__} in {timeout} s") from None
        finally:
            self._waiting.pop(rid, None)
        if not box:
            raise self.closed or Disconnected("closed")
        return box[0]

    async def _reader(self) -> None:
        try:
            while True:
                frame = await self.transport.receive()
                self._last_rx = trio.current_time()
                msg = host_decoder.decode(frame)
                if isinstance(msg, Patch):
                    state, resync = self.follower.patch(msg)
                    if resync:
                        self.syncs += 1
                        with suppress(ClientError):
                            await self.send(Sync(table=msg.table, id=msg.re))
                    if state is None:
                        if self.messages is not None:
                            self.messages.append(msg)
                        continue  # the full state is on its way (answering msg.re, if any)
                    msg = state
                elif isinstance(msg, State):
                    self.follower.state(msg)
                self._dispatch(msg)
        except Disconnected as e:
            self.closed = Disconnected(str(e), self.bye)
        except msgspec.DecodeError as e:
            self.closed = Disconnected(f"the host sent an invalid message: {e}", self.bye)
        finally:
            if self.closed is None:
                self.closed = Disconnected("closed", self.bye)
            for event, _box in self._waiting.values():
                event.set()
            self._changed.set()

    def _dispatch(self, msg: HostMessage) -> None:
        if self.messages is not None:
            self.messages.append(msg)
        if isinstance(msg, State):
            self.states[msg.table] = msg
        elif isinstance(msg, Notice):
            self.notices.append(msg)
            if msg.text.key in ("notice.taken_over", "notice.kicked", "notice.table_closed") \
                    and msg.table is not None:
                self.joined.pop(msg.table, None)
        elif isinstance(msg, Joined) and msg.token:
            self.joined[msg.table] = msg
        elif isinstance(msg, HostBye):
            self.bye = msg
        self.seq += 1
        re = msg.re
        if re is not None and re in self._waiting:
            event, box = self._waiting[re]
            box.append(msg)
            event.set()
        self._changed.set()
        self._changed = trio.Event()

    async def _heartbeat(self, ping_after: float, dead_after: float) -> None:
        while self.closed is None:
            now = trio.current_time()
            if now - self._last_rx > dead_after:
                self.closed = Disconnected("the host went silent")
                await self.transport.aclose()
                return
            # The box's silence clock counts only what it hears from us: a spectator or a seat
            # waiting through a long run of computer moves receives all the time, and must
            # still say something every ``ping_after`` or be closed as silent.
            if now - self._last_tx >= ping_after:
                try:
                    await self.send(Ping())
                except ClientError:
                    return
            await trio.sleep(min(1.0, ping_after / 2))

    async def changed(self, since: int | None = None) -> None:
        """Wait until a message newer than number ``since`` arrived (default: the next one).

        Pass ``since=client.seq`` taken before starting other tasks, so a message that
        arrives while they start is not missed. Raises Disconnected once the link is gone.
        """
        since = self.seq if since is None else since
        while self.seq <= since:
            if self.closed is not None:
                raise self.closed
            await self._changed.wait()

    async def wait_state(self, table: str, until: Callable[[State], bool] | None = None, *,
                         timeout: float = 10.0) -> State:
        """The table's latest state once ``until`` holds for it (default: any state)."""
        with trio.fail_after(timeout):
            while True:
                s = self.states.get(table)
                if s is not None and (until is None or until(s)):
                    return s
                await self.changed()

    # -- the protocol ------------------------------------------------------------------------
    @staticmethod
    def _expect(reply: HostMessage, kind: type[Any]) -> Any:
        if isinstance(reply, Rejected):
            raise Refused(reply)
        if not isinstance(reply, kind):
            raise ClientError(f"expected {kind.__name__}, got {type(reply).__name__}")
        return reply

    async def hello(self, client: str = "tablebox-python", lang: str = "en") -> Welcome:
        welcome: Welcome = self._expect(await self.request(Hello(client=client, lang=lang)),
                                        Welcome)
        self.welcome = welcome
        return welcome

    async def list_tables(self) -> list[TableSummary]:
        tables: Tables = self._expect(await self.request(ListTables()), Tables)
        return list(tables.tables)

    async def join(self, code: str, name: str, seat: int | None = None) -> Joined:
        joined: Joined = self._expect(await self.request(Join(code=code, name=name, seat=seat)),
                                      Joined)
        return joined

    async def resume(self, token: str) -> Joined:
        joined: Joined = self._expect(await self.request(Resume(token=token)), Joined)
        old = self.joined.get(joined.table)
        if old is None or old.seat != joined.seat:
            self.joined[joined.table] = Joined(table=joined.table, seat=joined.seat, token=token)
        return joined

    async def spectate(self, table: str) -> State:
        state: State = self._expect(await self.request(Spectate(table=table)), State)
        return state

    async def intent(self, table: str, version: int, action: dict[str, Any],
                     seat: int | None = None) -> State:
        """Send an action; the new state, or Refused with the host's code."""
        state: State = self._expect(await self.request(
            Intent(table=table, version=version, action=action, seat=seat)), State)
        return state

    async def games(self) -> Catalogue:
        """What may be opened here (games, options, turn timers) and whether opening is on."""
        catalogue: Catalogue = self._expect(await self.request(Games()), Catalogue)
        return catalogue

    async def open(self, game: str, player: str, *, options: dict[str, Any] | None = None,
                   name: str = "", turn_timer: int | None = None,
                   players: int | None = None) -> Joined:
        """Open a table and take its first free seat (answered as a join); Refused else."""
        joined: Joined = self._expect(await self.request(Open(
            game=game, player=player, options=options or {}, name=name,
            turn_timer=turn_timer, players=players)), Joined)
        return joined

    async def leave(self, table: str) -> Notice:
        notice: Notice = self._expect(await self.request(Leave(table=table)), Notice)
        self.joined.pop(table, None)
        self.states.pop(table, None)
        self.follower.forget(table)
        return notice

    async def rematch(self, table: str) -> State | Notice:
        reply = await self.request(Rematch(table=table))
        if isinstance(reply, Rejected):
            raise Refused(reply)
        assert isinstance(reply, State | Notice)
        return reply

    # -- social: the log, the score sheet, reactions ---------------------------------------
    async def history(self, table: str) -> History:
        """This connection's own account of the game at ``table`` (its log and score sheet)."""
        reply: History = self._expect(await self.request(HistoryRequest(table=table)), History)
        return reply

    async def react(self, table: str, emote: str) -> Notice:
        """Show ``emote`` (one of ``EMOTES``) beside our seat; the notice everyone got."""
        notice: Notice = self._expect(await self.request(React(table=table, emote=emote)),
                                      Notice)
        return notice

    async def ping(self) -> Pong:
        pong: Pong = self._expect(await self.request(Ping()), Pong)
        return pong

    async def aclose(self) -> None:
        if self.closed is None:
            with suppress(ClientError):
                await self.send(ClientBye())
        await self.transport.aclose()


@asynccontextmanager
async def _running(transport: Transport, *, hello: bool, record: bool,
                   client: str) -> AsyncIterator[Client]:
    c = Client(transport, record=record)
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(c._reader)
            try:
                if hello:
                    w = await c.hello(client)
                    nursery.start_soon(c._heartbeat, w.ping_after, w.dead_after)
                else:
                    nursery.start_soon(c._heartbeat, PING_AFTER, DEAD_AFTER)
                yield c
            finally:
                with trio.CancelScope(shield=True), trio.move_on_after(2):
                    await c.aclose()
                nursery.cancel_scope.cancel()
    except BaseExceptionGroup as group:
        # Our tasks never raise: a group holds the caller's own error, given back unwrapped.
        if len(group.exceptions) == 1:
            raise group.exceptions[0] from None
        raise


@asynccontextmanager
async def connect(host: str = "127.0.0.1", port: int = 7420, *, hello: bool = True,
                  record: bool = False, client: str = "tablebox-python") -> AsyncIterator[Client]:
    """A client over NDJSON/TCP; says hello first unless ``hello=False``."""
    try:
        stream = await trio.open_tcp_stream(host, port)
    except OSError as e:
        raise Disconnected(f"cannot connect to {host}:{port}: {e.strerror or e}") from None
    async with _running(TcpTransport(stream, record=record), hello=hello, record=record,
                        client=client) as c:
        yield c


@asynccontextmanager
async def connect_stream(stream: trio.abc.Stream, *, hello: bool = True, record: bool = False,
                         client: str = "tablebox-python") -> AsyncIterator[Client]:
    """A client over any trio byte stream with NDJSON framing (Bluetooth RFCOMM, a pipe)."""
    async with _running(TcpTransport(stream, record=record), hello=hello, record=record,
                        client=client) as c:
        yield c


def rfcomm_address(address: str) -> str:
    """A Bluetooth device address ``AA:BB:CC:DD:EE:FF`` (any case), or ValueError."""
    parts = address.strip().split(":")
    if len(parts) != 6 or not all(len(p) == 2 and all(c in "0123456789abcdefABCDEF" for c in p)
                                  for p in parts):
        raise ValueError(f"{address!r} is not a Bluetooth address like AA:BB:CC:DD:EE:FF")
    return ":".join(parts).upper()


@asynccontextmanager
async def connect_bluetooth(address: str, channel: int | None = None, *, hello: bool = True,
                            record: bool = False, client: str = "tablebox-python",
                            timeout: float = 20.0) -> AsyncIterator[Client]:
    """A client over Bluetooth RFCOMM to the box at ``address`` (pair with it first).

    Needs a Python whose socket module has AF_BLUETOOTH (Linux with BlueZ headers: Debian's
    and Raspberry Pi OS's ``python3`` have it); elsewhere it raises Disconnected saying so.
    ``channel`` defaults to the box's fixed channel, so no SDP query is needed.
    """
    import socket

    from hostd.protocol.discovery import RFCOMM_CHANNEL

    try:
        addr = rfcomm_address(address)
    except ValueError as e:
        raise Disconnected(str(e)) from None
    if not (hasattr(socket, "AF_BLUETOOTH") and hasattr(socket, "BTPROTO_RFCOMM")):
        raise Disconnected("this Python has no Bluetooth sockets (socket.AF_BLUETOOTH); use "
                           "one built with Bluetooth support, such as Debian's /usr/bin/python3")
    chan = RFCOMM_CHANNEL if channel is None else channel
    try:
        sock = trio.socket.socket(socket.AF_BLUETOOTH, socket.SOCK_STREAM,
                                  socket.BTPROTO_RFCOMM)
    except OSError as e:
        raise Disconnected(f"this machine cannot open Bluetooth sockets ({e.strerror or e}); "
                           "is there an adapter, and is the kernel's bluetooth module loaded?"
                           ) from None
    try:
        with trio.fail_after(timeout):
            await sock.connect((addr, chan))
    except (OSError, trio.TooSlowError) as e:
        sock.close()
        why = getattr(e, "strerror", None) or "no answer"
        raise Disconnected(f"cannot connect to {addr} channel {chan} over Bluetooth: {why} "
                           "(is the box paired, in range, and running tablebox?)") from None
    async with _running(TcpTransport(trio.SocketStream(sock), record=record), hello=hello,
                        record=record, client=client) as c:
        yield c


@asynccontextmanager
async def connect_ws(url: str, *, hello: bool = True, record: bool = False,
                     client: str = "tablebox-python") -> AsyncIterator[Client]:
    """A client over WebSocket (``ws://host:port/ws``); needs trio-websocket."""
    from trio_websocket import open_websocket_url

    async with open_websocket_url(url, max_message_size=2**20) as ws, _running(
            WsTransport(ws, record=record), hello=hello, record=record, client=client) as c:
        yield c


__all__ = [
    "Client",
    "ClientError",
    "Disconnected",
    "Refused",
    "connect",
    "connect_bluetooth",
    "connect_stream",
    "connect_ws",
]
