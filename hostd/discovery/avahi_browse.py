"""Browsing for boxes through avahi-daemon over D-Bus: the Avahi side of the clients' box finder.

``tablebox discover`` hands ``browse`` to ``clients.browse.open_browser`` when Avahi runs (the
clients never import ``hostd.discovery``; the umbrella CLI joins the two). Each service found is
resolved by an Avahi ``ServiceResolver``, which reports again whenever its records change, so a
new table's TXT reaches the finder without a new query; an item gone from every interface is
reported removed.

Everything a peer publishes is untrusted and passed on as raw TXT properties for
``clients.browse`` to parse; signals are accepted only from the current owner of
``org.freedesktop.Avahi``. Must never publish or answer anything: it only browses, and opens no
socket but its bus connection.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field

import trio
from jeepney import DBusAddress, HeaderFields
from jeepney.io.trio import DBusRouter, open_dbus_router
from jeepney.low_level import Message
from jeepney.wrappers import new_method_call

from hostd.discovery.avahi import (
    AVAHI,
    IF_UNSPEC,
    PROTO_INET,
    SERVER,
    TYPES,
    AvahiError,
    call,
    dns_sd_type,
    owner_of,
    subscribe,
)

BROWSER_IFACE = "org.freedesktop.Avahi.ServiceBrowser"
RESOLVER_IFACE = "org.freedesktop.Avahi.ServiceResolver"
SIGNAL_BUFFER = 4096  # jeepney drops messages on a full channel: keep it roomy
EVENT_BUFFER = 1024


@dataclass(frozen=True)
class Resolved:
    """One resolved service, in the shape ``clients.browse`` reads (as from zeroconf)."""

    name: str  # the full instance name: "Corner (2)._tablebox._tcp.local."
    server: str
    addresses: tuple[str, ...]
    port: int
    properties: dict[bytes, bytes | None]


BrowseEvent = tuple[str, str, Resolved | None]  # service type, instance name, None = removed


def _properties(txt: Sequence[bytes]) -> dict[bytes, bytes | None]:
    """TXT strings as ``key -> value`` (first occurrence wins, as in ``parse_txt_rdata``).
    Avahi hands them over in reverse order of the wire: read them back to front."""
    out: dict[bytes, bytes | None] = {}
    for item in reversed(list(txt)):
        key, eq, value = bytes(item).partition(b"=")
        if key and key.lower() not in out:
            out[key.lower()] = value if eq else None
    return out


@dataclass
class _Browse:
    router: DBusRouter
    owner: str
    send: trio.MemorySendChannel[BrowseEvent]
    browsers: dict[str, str] = field(default_factory=dict)  # browser path -> service type
    seen: dict[tuple[str, str], set[tuple[int, int]]] = field(default_factory=dict)
    resolvers: dict[str, tuple[str, str]] = field(default_factory=dict)  # path -> (type, name)
    by_item: dict[tuple[str, str], str] = field(default_factory=dict)  # (type, name) -> path

    async def handle(self, msg: Message) -> None:
        f = msg.header.fields
        if f.get(HeaderFields.sender) != self.owner:
            return
        path, iface, member = (str(f.get(HeaderFields.path)), f.get(HeaderFields.interface),
                               f.get(HeaderFields.member))
        if iface == BROWSER_IFACE and path in self.browsers and member in ("ItemNew",
                                                                           "ItemRemove"):
            index, proto, name, type_, domain, _flags = msg.body
            full = self.browsers[path]
            key = (full, f"{name}.{full}")
            where = self.seen.setdefault(key, set())
            if member == "ItemNew":
                where.add((index, proto))
                if key not in self.by_item:
                    (rpath,) = await call(self.router, new_method_call(
                        SERVER, "ServiceResolverNew", "iisssiu",
                        (index, proto, name, type_, domain, PROTO_INET, 0)))
                    self.resolvers[str(rpath)] = key
                    self.by_item[key] = str(rpath)
            else:
                where.discard((index, proto))
                if not where:
                    del self.seen[key]
                    rpath = self.by_item.pop(key, "")
                    self.resolvers.pop(rpath, None)
                    if rpath:
                        with contextlib.suppress(AvahiError, trio.TooSlowError):
                            await call(self.router, new_method_call(DBusAddress(
                                rpath, bus_name=AVAHI, interface=RESOLVER_IFACE), "Free"))
                    self._emit((*key, None))
        elif iface == RESOLVER_IFACE and member == "Found" and path in self.resolvers:
            (_i, _p, _name, _type, _domain, host, _ap, address, port, txt, _flags) = msg.body
            type_, name = self.resolvers[path]
            self._emit((type_, name, Resolved(name, str(host).rstrip(".") + ".",
                                              (str(address),) if address else (), int(port),
                                              _properties(txt))))

    def _emit(self, event: BrowseEvent) -> None:
        # Dropped when nobody reads fast enough: the next event for that name repairs it.
        with contextlib.suppress(trio.WouldBlock, trio.ClosedResourceError):
            self.send.send_nowait(event)


async def _start_browsing(router: DBusRouter, types: Sequence[str],
                          send: trio.MemorySendChannel[BrowseEvent]) -> tuple[
                              _Browse, trio.MemoryReceiveChannel[Message]]:
    owner = await owner_of(router)
    if owner is None:
        raise OSError("avahi-daemon is not on the D-Bus system bus")
    state = _Browse(router, owner, send)
    # One channel for both rules, so a resolver's Found never overtakes the ItemNew before it.
    sig_send, sig_recv = trio.open_memory_channel[Message](SIGNAL_BUFFER)
    await subscribe(router, BROWSER_IFACE, channel=sig_send)
    await subscribe(router, RESOLVER_IFACE, "Found", channel=sig_send)
    for type_ in types:
        # Signals are matched by interface, not path, so none is lost in the gap between
        # creating the browser and knowing its path.
        (path,) = await call(router, new_method_call(
            SERVER, "ServiceBrowserNew", "iissu",
            (IF_UNSPEC, PROTO_INET, dns_sd_type(type_), "", 0)))
        state.browsers[str(path)] = type_
    return state, sig_recv


@contextlib.asynccontextmanager
async def browse(types: Sequence[str] = TYPES, bus: str = "SYSTEM"
                 ) -> AsyncIterator[trio.MemoryReceiveChannel[BrowseEvent]]:
    """Browse ``types`` through avahi-daemon until the block ends: a channel of
    ``(type, name, Resolved)`` for a service found or changed, ``(type, name, None)`` for one
    gone. Raises OSError when Avahi is not there. Opens no socket but the bus connection;
    closing it frees every browser and resolver Avahi made for it."""
    async with contextlib.AsyncExitStack() as stack:
        send, recv = trio.open_memory_channel[BrowseEvent](EVENT_BUFFER)
        try:
            router = await stack.enter_async_context(open_dbus_router(bus))
            state, signals = await _start_browsing(router, types, send)
        except OSError:
            raise
        except (AvahiError, trio.TooSlowError) as e:
            raise OSError(f"avahi-daemon refused to browse: {e or 'no answer'}") from None
        except Exception as e:  # no bus socket, refused, bad address: all mean "no bus"
            raise OSError(f"no D-Bus system bus ({e})") from None

        async def pump() -> None:
            async with send:
                async for msg in signals:
                    # One bad item (or one Avahi refused) is simply not listed.
                    with contextlib.suppress(AvahiError, trio.TooSlowError, ValueError,
                                             TypeError):
                        await state.handle(msg)

        async with trio.open_nursery() as nursery:
            nursery.start_soon(pump)
            try:
                yield recv
            finally:
                nursery.cancel_scope.cancel()
