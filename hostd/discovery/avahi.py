"""Advertising the box through the system's avahi-daemon, over its D-Bus API.

Where Avahi runs (Raspberry Pi OS, Debian, most desktops) the box publishes through it rather
than beside it: a second responder on UDP 5353 would take every unicast query to that port
from Avahi (its socket, bound to the interface address, is more specific than Avahi's), and
would answer with its own deviations from RFC 6762. In this mode tablebox opens no mDNS socket.

Owns: which backend to use (``decide``: Avahi when ``org.freedesktop.Avahi`` is owned on the
system bus, else python-zeroconf; ``mdns_backend`` forces either), the two registrations
through Avahi (an entry group per service type, with the TXT records ``hostd.discovery``
builds; TXT changes coalesced as in ``mdns`` and sent with ``UpdateServiceTxt``, in place),
renaming on a collision by the same rule as the zeroconf path (``instance_label``: "name (2)",
"name (3)", ...), republishing after avahi-daemon restarts or its host name changes, freeing
the groups on exit so Avahi sends the goodbyes. The browser is ``avahi_browse``.

Signals are accepted only from the current owner of ``org.freedesktop.Avahi``. Must never put
a secret in a record (the TXT records are counts only), block the trio loop, or take the
daemon down: a missing or failing Avahi is one log line and the daemon carries on.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import trio
from jeepney import DBusAddress, HeaderFields, MatchRule, MessageType, message_bus
from jeepney.io.trio import DBusRouter, open_dbus_router
from jeepney.low_level import Message
from jeepney.wrappers import new_method_call

from hostd import __version__
from hostd.config import Config
from hostd.discovery import (
    HTTP_SERVICE_TYPE,
    SERVICE_TYPE,
    BoxSummary,
    Pending,
    box_id_for,
    http_txt,
    instance_label,
    server_name,
    tablebox_txt,
)
from hostd.logs import get_logger
from hostd.protocol import PROTOCOL_VERSION

AVAHI = "org.freedesktop.Avahi"
SERVER = DBusAddress("/", bus_name=AVAHI, interface="org.freedesktop.Avahi.Server")
GROUP_IFACE = "org.freedesktop.Avahi.EntryGroup"
COLLISION_ERROR = "org.freedesktop.Avahi.CollisionError"
# avahi-common/defs.h
IF_UNSPEC = -1
PROTO_INET, PROTO_UNSPEC = 0, -1
SERVER_REGISTERING, SERVER_RUNNING, SERVER_COLLISION = 1, 2, 3
GROUP_ESTABLISHED, GROUP_COLLISION, GROUP_FAILURE = 2, 3, 4
PUBLISH_NO_REVERSE = 16  # our own host name's address: Avahi already owns its reverse record

TYPES = (SERVICE_TYPE, HTTP_SERVICE_TYPE)
CALL_TIMEOUT = 5.0  # an avahi-daemon that does not answer within this is treated as absent
CLOSE_TIMEOUT = 3.0  # freeing the groups (Avahi's goodbyes) fits well inside the stop timeout
RETRY = 5.0  # after a group failure, try again this much later
INTERFACE_REFRESH = 15.0  # re-read configured interfaces this often (as the zeroconf path)
SIGNAL_BUFFER = 1024  # jeepney drops messages on a full filter channel: keep it roomy
MAX_RENAMES = 100

Backend = Literal["avahi", "zeroconf"]


class AvahiError(Exception):
    """Avahi refused a call or is not there; ``name`` is the D-Bus error name, if any."""

    def __init__(self, text: str, name: str = "") -> None:
        super().__init__(text)
        self.name = name


# -- which backend ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Choice:
    backend: Backend | None  # None: forced to Avahi, and Avahi is not there
    reason: str


def decide(setting: str, avahi_running: bool, why_not: str = "") -> Choice:
    """The backend for ``config.mdns_backend`` (``setting``), given whether avahi-daemon owns
    ``org.freedesktop.Avahi`` on the system bus (and, if not, why not)."""
    absent = why_not or "avahi-daemon is not on the D-Bus system bus"
    if setting == "zeroconf":
        return Choice("zeroconf", 'mdns_backend = "zeroconf"')
    if setting == "avahi":
        if avahi_running:
            return Choice("avahi", 'mdns_backend = "avahi"')
        return Choice(None, f'mdns_backend = "avahi" but {absent}')
    if avahi_running:
        return Choice("avahi", "avahi-daemon runs on the system bus (mdns_backend = \"auto\")")
    return Choice("zeroconf", f"{absent} (mdns_backend = \"auto\")")


async def avahi_running(bus: str = "SYSTEM") -> tuple[bool, str]:
    """Whether ``org.freedesktop.Avahi`` is owned on ``bus``; if not, why not (one line)."""
    try:
        async with open_dbus_router(bus) as router:
            with trio.fail_after(CALL_TIMEOUT):
                reply = await router.send_and_get_reply(message_bus.NameHasOwner(AVAHI))
    except trio.TooSlowError:
        return False, "the D-Bus system bus does not answer"
    except Exception as e:  # no socket, refused, bad address: all mean "no bus"
        return False, f"no D-Bus system bus ({e})"
    return _owned(reply)


def avahi_running_blocking(bus: str = "SYSTEM") -> tuple[bool, str]:
    """``avahi_running`` for synchronous callers (``tablebox doctor``)."""
    from jeepney.io.blocking import open_dbus_connection

    try:
        conn = open_dbus_connection(bus=bus)
    except Exception as e:
        return False, f"no D-Bus system bus ({e})"
    with conn:
        try:
            reply = conn.send_and_get_reply(message_bus.NameHasOwner(AVAHI),
                                            timeout=CALL_TIMEOUT)
        except (OSError, TimeoutError) as e:
            return False, f"the D-Bus system bus does not answer ({e})"
    return _owned(reply)


def _owned(reply: Message) -> tuple[bool, str]:
    if reply.header.message_type != MessageType.method_return:
        return False, f"the D-Bus system bus refused the question ({_error_name(reply)})"
    if not reply.body[0]:
        return False, "avahi-daemon is not on the D-Bus system bus"
    return True, ""


async def choose(config: Config, bus: str = "SYSTEM") -> Choice:
    if config.mdns_backend == "zeroconf":
        return decide("zeroconf", False)
    return decide(config.mdns_backend, *await avahi_running(bus))


# -- D-Bus helpers -----------------------------------------------------------------------------
def _error_name(reply: Message) -> str:
    return str(reply.header.fields.get(HeaderFields.error_name, "?"))


async def call(router: DBusRouter, msg: Message) -> tuple[Any, ...]:
    """The reply's body, or AvahiError (with the error's name) for an error reply."""
    with trio.fail_after(CALL_TIMEOUT):
        reply = await router.send_and_get_reply(msg)
    if reply.header.message_type == MessageType.error:
        detail = reply.body[0] if reply.body and isinstance(reply.body[0], str) else ""
        raise AvahiError(f"{_error_name(reply)}: {detail}" if detail else _error_name(reply),
                         _error_name(reply))
    return tuple(reply.body)


def dns_sd_type(service_type: str) -> str:
    """``_tablebox._tcp.local.`` as Avahi names it: ``_tablebox._tcp`` (domain apart)."""
    return service_type.removesuffix(".").removesuffix(".local")


def txt_array(txt: Sequence[tuple[str, str]]) -> list[bytes]:
    return [f"{k}={v}".encode() for k, v in txt]


async def subscribe(router: DBusRouter, interface: str, member: str | None = None, *,
                    channel: trio.MemorySendChannel[Message] | None = None
                    ) -> trio.MemoryReceiveChannel[Message] | None:
    """Avahi's signals on ``interface`` (``member``), into ``channel`` or a new one (returned).

    Asked of the bus with Avahi as the sender (the bus resolves the name), matched here
    without it: the messages carry Avahi's unique name, which each receiver checks against
    the current owner. The filter is left to the router to close (see ``bluetooth``).
    """
    handle = router.filter(MatchRule(type="signal", interface=interface, member=member),
                           channel=channel, bufsize=SIGNAL_BUFFER)
    await call(router, message_bus.AddMatch(
        MatchRule(type="signal", sender=AVAHI, interface=interface, member=member)))
    return handle.receive_channel


async def owner_of(router: DBusRouter) -> str | None:
    """The unique bus name of avahi-daemon, or None when it does not run."""
    reply = await router.send_and_get_reply(message_bus.GetNameOwner(AVAHI))
    return str(reply.body[0]) if reply.header.message_type == MessageType.method_return else None


def _owner_rule() -> MatchRule:
    rule = MatchRule(type="signal", sender="org.freedesktop.DBus",
                     interface="org.freedesktop.DBus", member="NameOwnerChanged",
                     path="/org/freedesktop/DBus")
    rule.add_arg_condition(0, AVAHI)
    return rule


# -- publishing --------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Desired:
    label: str
    txt: dict[str, tuple[tuple[str, str], ...]]  # service type -> TXT


@dataclass
class Publisher:
    """The box's two entry groups on one bus connection; only ``run`` (one task) calls Avahi,
    signals only set flags and wake it."""

    router: DBusRouter
    config: Config
    box_id: str
    log: Any = field(default_factory=lambda: get_logger("hostd.discovery.avahi"))
    pending: Pending = field(default_factory=Pending)
    number: int = 1
    owner: str | None = None  # Avahi's unique bus name, while it runs
    running: bool = False  # Avahi's server state is RUNNING
    groups: dict[str, str] = field(default_factory=dict)  # service type -> entry group path
    published: _Desired | None = None
    established: set[str] = field(default_factory=set)
    collided: bool = False
    indexes: list[int] = field(default_factory=list)  # the interfaces published on
    next_refresh: float | None = None  # when to re-read mdns_interfaces (only when set)
    retry_at: float | None = None
    waiting_logged: bool = False
    wake: trio.Event = field(default_factory=trio.Event)

    # -- what the network should see -----------------------------------------------------
    def desired(self) -> _Desired:
        c = self.config
        return _Desired(instance_label(c.box_name, self.number), {
            SERVICE_TYPE: tuple(tablebox_txt(box_id=self.box_id, name=c.box_name,
                                             software=__version__, protocol=PROTOCOL_VERSION,
                                             summary=self.pending.summary).items()),
            HTTP_SERVICE_TYPE: tuple(http_txt(box_id=self.box_id, name=c.box_name).items()),
        })

    def port(self, type_: str) -> int:
        return self.config.tcp_port if type_ == SERVICE_TYPE else self.config.http_port

    def own_address(self) -> str:
        """The one address to publish under the box's own host name when the daemon listens
        on one address only; "" (Avahi's host name and all its addresses) otherwise."""
        bind = self.config.bind
        if bind in ("", "0.0.0.0", "::") or bind.startswith("127.") or bind == "::1":
            return ""
        return bind

    def interfaces(self) -> list[int]:
        """Interface indexes for ``mdns_interfaces``; every interface Avahi uses when empty
        (Avahi then follows interfaces coming and going by itself)."""
        wanted = self.config.mdns_interfaces
        if not wanted:
            return [IF_UNSPEC]
        import ifaddr

        return sorted({a.index for a in ifaddr.get_adapters() if a.index is not None and (
            a.name in wanted or any(ip.is_IPv4 and ip.ip in wanted for ip in a.ips))})

    # -- signals (from the router's filters; they never call Avahi) ----------------------
    def on_signal(self, msg: Message) -> None:
        f = msg.header.fields
        iface, member = f.get(HeaderFields.interface), f.get(HeaderFields.member)
        if iface == "org.freedesktop.DBus":  # NameOwnerChanged for org.freedesktop.Avahi
            new = str(msg.body[2]) or None
            if new != self.owner:
                if self.owner is not None:
                    self.log.warning("mdns_avahi_lost", action="waiting for avahi-daemon")
                self.owner, self.running = new, False
                self.groups, self.established, self.published = {}, set(), None
            self.wake.set()
            return
        if f.get(HeaderFields.sender) != self.owner or self.owner is None:
            return  # only avahi-daemon may tell us about our groups
        state = int(msg.body[0])
        if iface == SERVER.interface and member == "StateChanged":
            self.running = state == SERVER_RUNNING
            if state in (SERVER_COLLISION, SERVER_REGISTERING):
                # Avahi's host name changed or is being probed: our records go with it.
                self.published, self.established = None, set()
        elif iface == GROUP_IFACE and member == "StateChanged":
            type_ = next((t for t, p in self.groups.items()
                          if p == f.get(HeaderFields.path)), None)
            if type_ is None:
                return
            if state == GROUP_COLLISION:
                self.collided = True
            elif state == GROUP_FAILURE:
                self.log.error("mdns_avahi_failed", service=type_, error=str(msg.body[1]))
                self.published = None
                self.retry_at = trio.current_time() + RETRY
            elif state == GROUP_ESTABLISHED and type_ not in self.established:
                self.established.add(type_)
                if self.established == set(TYPES) and self.published is not None:
                    self.log.info("mdns_registered", backend="avahi",
                                  name=self.published.label, port=self.config.tcp_port,
                                  http_port=self.config.http_port, box_id=self.box_id)
        self.wake.set()

    def set_summary(self, summary: BoxSummary) -> None:
        if self.pending.change(summary, trio.current_time()):
            self.wake.set()

    # -- the publisher -------------------------------------------------------------------
    async def run(self) -> None:
        last_error = ""
        while True:
            try:
                await self.step()
                last_error = ""
            except Exception as e:  # Avahi refusing, silent, or gone: never the daemon's end
                error = f"{type(e).__name__}: {e}" if str(e) else type(e).__name__
                if error != last_error:  # said once, not on every retry
                    self.log.warning("mdns_avahi_error", error=error,
                                     action=f"trying again every {RETRY:g} s")
                    last_error = error
                self.published = None
                self.retry_at = trio.current_time() + RETRY
            deadlines = [t for t in (self.retry_at, self.next_refresh, self.pending.due_at())
                         if t is not None]
            with trio.move_on_at(min(deadlines, default=math.inf)):
                await self.wake.wait()
            self.wake = trio.Event()

    async def step(self) -> None:
        now = trio.current_time()
        if self.owner is None:
            self.owner = await owner_of(self.router)
            if self.owner is None:
                return
        if not self.running:
            (state,) = await call(self.router, new_method_call(SERVER, "GetState"))
            self.running = state == SERVER_RUNNING
            if not self.running:
                return  # Server.StateChanged wakes us when it is
        if self.collided and await self.in_collision():
            old = self.published.label if self.published else ""
            self.number += 1
            self.published = None
            self.log.warning("mdns_name_conflict", name=old, action="rename", backend="avahi")
        self.collided = False
        if self.next_refresh is not None and now >= self.next_refresh:
            self.next_refresh = now + INTERFACE_REFRESH
            if self.published is not None and self.interfaces() != self.indexes:
                self.log.info("mdns_interfaces_changed", interfaces=list(
                    self.config.mdns_interfaces), backend="avahi")
                self.published = None
        if self.retry_at is not None:
            if now < self.retry_at:
                return
            self.retry_at = None
        if self.published is None:
            await self.publish()
            return
        if self.pending.due_at() is not None and self.pending.due(now):
            await self.update()

    async def in_collision(self) -> bool:
        """Whether a group is in collision now: a COLLISION signal may be stale, sent before
        the Reset of a rename that already dealt with it."""
        for path in self.groups.values():
            (state,) = await call(self.router, new_method_call(self._group(path), "GetState"))
            if state == GROUP_COLLISION:
                return True
        return False

    async def group(self, type_: str) -> str:
        """The entry group for ``type_``: reset and reused, or new."""
        path = self.groups.get(type_)
        if path is not None:
            await call(self.router, new_method_call(self._group(path), "Reset"))
            return path
        (path,) = await call(self.router, new_method_call(SERVER, "EntryGroupNew"))
        self.groups[type_] = str(path)
        return str(path)

    @staticmethod
    def _group(path: str) -> DBusAddress:
        return DBusAddress(path, bus_name=AVAHI, interface=GROUP_IFACE)

    async def publish(self) -> None:
        """Both services under the first free name (Avahi probes; a collision found while
        probing comes back as a StateChanged signal, one found locally as an error here)."""
        indexes = self.indexes = self.interfaces()
        if self.config.mdns_interfaces and self.next_refresh is None:
            self.next_refresh = trio.current_time() + INTERFACE_REFRESH
        if not indexes:
            if not self.waiting_logged:
                self.log.warning("mdns_waiting_for_interface", backend="avahi",
                                 interfaces=list(self.config.mdns_interfaces))
                self.waiting_logged = True
            self.retry_at = trio.current_time() + RETRY
            return
        self.waiting_logged = False
        address = self.own_address()
        host = server_name(self.box_id).removesuffix(".") if address else ""
        for _ in range(MAX_RENAMES):
            d = self.desired()
            self.established = set()
            try:
                for type_ in TYPES:
                    path = await self.group(type_)
                    g = self._group(path)
                    for index in indexes:
                        await call(self.router, new_method_call(
                            g, "AddService", "iiussssqaay",
                            (index, PROTO_UNSPEC, 0, d.label, dns_sd_type(type_), "", host,
                             self.port(type_), txt_array(d.txt[type_]))))
                        if address and type_ == SERVICE_TYPE:
                            await call(self.router, new_method_call(
                                g, "AddAddress", "iiuss",
                                (index, PROTO_UNSPEC, PUBLISH_NO_REVERSE, host, address)))
                    await call(self.router, new_method_call(g, "Commit"))
            except AvahiError as e:
                if e.name != COLLISION_ERROR:
                    raise
                self.number += 1  # a name another program on this host holds
                self.log.warning("mdns_name_conflict", name=d.label, action="rename",
                                 backend="avahi")
                continue
            self.published = d
            self.pending.published(trio.current_time())
            return
        self.log.error("mdns_no_free_name", name=self.config.box_name)
        self.retry_at = trio.current_time() + RETRY

    async def update(self) -> None:
        """The TXT records that changed, in place: no new probe, no goodbye."""
        assert self.published is not None
        d = self.desired()
        for type_ in TYPES:
            if d.txt[type_] != self.published.txt[type_]:
                for index in self.indexes:
                    await call(self.router, new_method_call(
                        self._group(self.groups[type_]), "UpdateServiceTxt", "iiusssaay",
                        (index, PROTO_UNSPEC, 0, d.label, dns_sd_type(type_), "",
                         txt_array(d.txt[type_]))))
        self.published = d
        self.pending.published(trio.current_time())
        self.log.debug("mdns_updated", name=d.label, tables=self.pending.summary.open_tables,
                       free=self.pending.summary.free_seats)

    async def free(self) -> None:
        """Free both groups; Avahi sends the goodbyes. Sent without waiting for answers: on
        shutdown the router's receiver is already cancelled, and the bus connection closing
        right after frees them anyway (Avahi drops the groups of a client that leaves)."""
        groups, self.groups = self.groups, {}
        for path in groups.values():
            with contextlib.suppress(Exception):
                await self.router.send(new_method_call(self._group(path), "Free"))
        if groups and self.published is not None:
            self.log.info("mdns_unregistered", name=self.published.label, backend="avahi")


async def run_avahi(config: Config, summaries: trio.MemoryReceiveChannel[BoxSummary], *,
                    bus: str = "SYSTEM",
                    task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
    """Advertise the box through avahi-daemon until cancelled; then free the groups (shielded,
    bounded). The same contract as ``mdns.run_mdns``: ``config``'s ports are the bound ones,
    each ``BoxSummary`` replaces the counts, started is reported before any name is probed.
    ``bus`` is "SYSTEM" (honours ``DBUS_SYSTEM_BUS_ADDRESS``) or a D-Bus address.
    """
    log = get_logger("hostd.discovery.avahi")
    if not config.mdns:
        task_status.started()
        return
    async with contextlib.AsyncExitStack() as stack:
        try:
            router = await stack.enter_async_context(open_dbus_router(bus))
        except Exception as e:
            log.error("mdns_unavailable", backend="avahi", error=f"no D-Bus system bus ({e})")
            task_status.started()
            return
        pub = Publisher(router, config, box_id_for(config.data_dir, log))
        owners = router.filter(_owner_rule(), bufsize=SIGNAL_BUFFER).receive_channel
        try:
            await call(router, message_bus.AddMatch(_owner_rule()))
            channels = [owners, *[await subscribe(router, iface, "StateChanged")
                                  for iface in (SERVER.interface, GROUP_IFACE)]]
        except (AvahiError, trio.TooSlowError) as e:
            log.error("mdns_unavailable", backend="avahi", error=str(e) or "no answer")
            task_status.started()
            return
        task_status.started()

        async def follow_signals(channel: trio.MemoryReceiveChannel[Message]) -> None:
            async for msg in channel:
                try:
                    pub.on_signal(msg)
                except (IndexError, TypeError, ValueError):  # a signal not shaped as documented
                    log.warning("mdns_avahi_bad_signal", member=str(
                        msg.header.fields.get(HeaderFields.member)))

        async def follow_summaries() -> None:
            async for summary in summaries:
                pub.set_summary(summary)

        try:
            async with trio.open_nursery() as nursery:
                for channel in channels:
                    if channel is not None:
                        nursery.start_soon(follow_signals, channel)
                nursery.start_soon(follow_summaries)
                nursery.start_soon(pub.run)
        finally:
            with trio.CancelScope(shield=True), trio.move_on_after(CLOSE_TIMEOUT):
                await pub.free()
