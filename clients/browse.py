"""Finding boxes over mDNS: a trio browser for ``_tablebox._tcp`` (and each box's
``_http._tcp`` web page), used by ``tablebox discover``, the kiosk and the terminal client to
pick a box. A client's module: the daemon advertises (``hostd.discovery``), it never browses.

Owns turning the network's records into ``FoundBox`` values and ``BoxEvent``s (added, updated,
removed), whoever resolved them: zeroconf here, or a ``source`` handed in (the system's
avahi-daemon, which ``tablebox discover`` passes when it runs, so that no second mDNS socket
opens beside Avahi's; this layer never imports the daemon's modules). Everything a peer sends is untrusted: TXT fields are parsed tolerantly and a box
that cannot be resolved is simply not listed. zeroconf's threaded API is called through
``trio.to_thread``; its callbacks come back through the trio token into a roomy channel, and
a full channel drops an event rather than blocking zeroconf's thread (the next event for
that name repairs it).

Must never answer queries or advertise anything: it only browses.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, suppress
from dataclasses import asdict, dataclass, replace
from typing import Any, Literal, Protocol

import ifaddr
import trio
from zeroconf import (
    DNSQuestionType,
    IPVersion,
    ServiceBrowser,
    ServiceInfo,
    ServiceStateChange,
    Zeroconf,
)

from hostd.protocol.discovery import HTTP_SERVICE_TYPE, SERVICE_TYPE, choose_among, decode_txt

RESOLVE_TIMEOUT_MS = 1500
CLOSE_TIMEOUT = 3.0
EVENT_BUFFER = 1024


@dataclass(frozen=True)
class FoundBox:
    """One box as its mDNS records describe it. Counts are None when the TXT lacks them."""

    instance: str  # the DNS-SD instance name, e.g. "Café Corner (2)"
    box_id: str
    name: str
    host: str
    addresses: tuple[str, ...]
    port: int
    http_port: int | None = None
    software: str = ""
    protocol: int | None = None
    open_tables: int | None = None
    free_seats: int | None = None
    games: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        """What identifies the box across renames: its id, else its instance name."""
        return self.box_id or self.instance

    def web_url(self) -> str | None:
        if self.http_port is None or not self.addresses:
            return None
        return f"http://{self.addresses[0]}:{self.http_port}/"

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["addresses"] = list(self.addresses)
        data["games"] = list(self.games)
        data["web"] = self.web_url()
        return data


@dataclass(frozen=True)
class BoxEvent:
    kind: Literal["added", "updated", "removed"]
    box: FoundBox


def _int(text: str | None) -> int | None:
    if text is None or not text.isascii() or not text.isdigit() or len(text) > 9:
        return None
    return int(text)


def _instance(name: str, type_: str) -> str:
    return name[: -len(type_) - 1] if name.lower().endswith("." + type_.lower()) else name


class Service(Protocol):
    """A resolved service as a browser backend hands it over: ``ZeroconfService`` here, or
    Avahi's ``Resolved`` (``tablebox discover`` passes that backend in)."""

    @property
    def name(self) -> str: ...  # the full instance name: "Corner._tablebox._tcp.local."

    @property
    def server(self) -> str | None: ...

    @property
    def addresses(self) -> Sequence[str]: ...  # IPv4

    @property
    def port(self) -> int | None: ...

    @property
    def properties(self) -> Mapping[bytes, bytes | None]: ...


@dataclass(frozen=True)
class ZeroconfService:
    name: str
    server: str | None
    addresses: tuple[str, ...]
    port: int | None
    properties: Mapping[bytes, bytes | None]

    @classmethod
    def of(cls, info: ServiceInfo) -> ZeroconfService:
        return cls(info.name, info.server, tuple(info.parsed_addresses(IPVersion.V4Only)),
                   info.port, info.properties)


# What a browser backend yields: (service type, instance name, the service or None if gone).
ServiceEvent = tuple[str, str, "Service | None"]
ServiceSource = Callable[[], AbstractAsyncContextManager[trio.MemoryReceiveChannel[ServiceEvent]]]


def box_from_service(svc: Service) -> FoundBox | None:
    """A ``FoundBox`` from a resolved ``_tablebox._tcp`` service, or None if unusable."""
    if svc.port is None:
        return None
    txt = decode_txt(svc.properties)
    instance = _instance(svc.name, SERVICE_TYPE)
    games = tuple(g for g in txt.get("games", "").split(",") if g)
    return FoundBox(
        instance=instance,
        box_id=txt.get("id", ""),
        name=txt.get("name") or instance,
        host=svc.server or "",
        addresses=tuple(svc.addresses),
        port=svc.port,
        software=txt.get("ver", ""),
        protocol=_int(txt.get("proto")),
        open_tables=_int(txt.get("tables")),
        free_seats=_int(txt.get("free")),
        games=games,
    )


def box_from_info(info: ServiceInfo) -> FoundBox | None:
    """A ``FoundBox`` from a resolved zeroconf ``ServiceInfo``, or None if unusable."""
    return box_from_service(ZeroconfService.of(info))


class Browser:
    """Live view of the boxes on the network; see ``open_browser``."""

    def __init__(self, zc: Zeroconf | None) -> None:
        self.zc = zc  # None: another backend resolves (``open_browser(source=...)``)
        self.boxes: dict[str, FoundBox] = {}  # by tablebox instance name (lower case)
        self.http_ports: dict[str, int] = {}  # box id -> web port
        self._http_names: dict[str, str] = {}  # http instance name (lower) -> box id

    async def _resolve(self, type_: str, name: str) -> Service | None:
        info = await trio.to_thread.run_sync(
            lambda: self.zc.get_service_info(type_, name, RESOLVE_TIMEOUT_MS,
                                             question_type=DNSQuestionType.QM)
            if self.zc is not None else None, abandon_on_cancel=True)
        return ZeroconfService.of(info) if info is not None else None

    async def handle(self, type_: str, name: str, change: ServiceStateChange) -> list[BoxEvent]:
        """Events caused by one zeroconf notification."""
        svc = None if change is ServiceStateChange.Removed else await self._resolve(type_, name)
        if svc is None and change is not ServiceStateChange.Removed:
            return []  # not resolved: not listed (a removal is still a removal)
        return self.apply(type_, name, svc)

    def apply(self, type_: str, name: str, svc: Service | None) -> list[BoxEvent]:
        """Events caused by a service resolved (or changed), or gone (``svc`` None)."""
        key = name.lower()
        if type_ == HTTP_SERVICE_TYPE:
            return self._apply_http(key, svc)
        if svc is None:
            gone = self.boxes.pop(key, None)
            return [BoxEvent("removed", gone)] if gone else []
        found = box_from_service(svc)
        if found is None:
            return []
        found = replace(found, http_port=self.http_ports.get(found.box_id))
        before = self.boxes.get(key)
        self.boxes[key] = found
        if before is None:
            return [BoxEvent("added", found)]
        return [BoxEvent("updated", found)] if found != before else []

    def _apply_http(self, key: str, svc: Service | None) -> list[BoxEvent]:
        if svc is None:
            box_id = self._http_names.pop(key, None)
            if box_id is None:
                return []
            self.http_ports.pop(box_id, None)
        else:
            box_id = decode_txt(svc.properties).get("id", "")
            if not box_id or svc.port is None:
                return []  # somebody else's web server: not ours to list
            self._http_names[key] = box_id
            self.http_ports[box_id] = svc.port
        events = []
        for k, box in list(self.boxes.items()):
            if box.box_id == box_id and box.http_port != self.http_ports.get(box_id):
                self.boxes[k] = replace(box, http_port=self.http_ports.get(box_id))
                events.append(BoxEvent("updated", self.boxes[k]))
        return events

    def current(self) -> list[FoundBox]:
        return sorted(self.boxes.values(), key=lambda b: (b.name.casefold(), b.instance))


@asynccontextmanager
async def open_browser(interfaces: Sequence[str] = (), source: ServiceSource | None = None
                       ) -> AsyncIterator[tuple[Browser, trio.MemoryReceiveChannel[BoxEvent]]]:
    """Browse until the block ends: yields the ``Browser`` and a channel of ``BoxEvent``s.

    ``source``: another backend's resolved services (Avahi's, from ``tablebox discover``);
    without it, zeroconf browses on ``interfaces`` (names or IPv4 addresses as in
    ``config.mdns_interfaces``). Raises OSError when mDNS cannot be opened (no interface with
    IPv4, port refused, the other backend absent).
    """
    out_send, out_recv = trio.open_memory_channel[BoxEvent](EVENT_BUFFER)

    def emit(events: list[BoxEvent]) -> None:
        for event in events:
            # Nobody reading: dropped, and ``Browser.current()`` stays right.
            with suppress(trio.WouldBlock):
                out_send.send_nowait(event)

    if source is not None:
        browser = Browser(None)
        async with source() as services, out_send, trio.open_nursery() as nursery:
            async def pump_services() -> None:
                async for type_, name, svc in services:
                    emit(browser.apply(type_, name, svc))

            nursery.start_soon(pump_services)
            try:
                yield browser, out_recv
            finally:
                nursery.cancel_scope.cancel()
        return
    async with _zeroconf_browser(interfaces, emit, out_send) as browser:
        yield browser, out_recv


@asynccontextmanager
async def _zeroconf_browser(interfaces: Sequence[str], emit: Callable[[list[BoxEvent]], None],
                            out_send: trio.MemorySendChannel[BoxEvent]) -> AsyncIterator[Browser]:
    ifs = choose_among(interfaces, "0.0.0.0", ifaddr.get_adapters())
    if not ifs.listen:
        raise OSError("no network interface with an IPv4 address to browse on")
    zc = await trio.to_thread.run_sync(
        lambda: Zeroconf(interfaces=list(ifs.listen), ip_version=IPVersion.V4Only))
    browser = Browser(zc)
    token = trio.lowlevel.current_trio_token()
    raw_send, raw_recv = trio.open_memory_channel[tuple[str, str, ServiceStateChange]](
        EVENT_BUFFER)

    def push(item: tuple[str, str, ServiceStateChange]) -> None:
        # Dropped when full: a later notification for the same name repairs the view.
        with suppress(trio.WouldBlock, trio.ClosedResourceError):
            raw_send.send_nowait(item)

    def on_change(zeroconf: Zeroconf, service_type: str, name: str,
                  state_change: ServiceStateChange) -> None:
        with suppress(trio.RunFinishedError):
            token.run_sync_soon(push, (service_type, name, state_change))

    async def pump() -> None:
        async with out_send:
            async for type_, name, change in raw_recv:
                emit(await browser.handle(type_, name, change))

    sb: ServiceBrowser | None = None
    try:
        sb = await trio.to_thread.run_sync(lambda: ServiceBrowser(
            zc, [SERVICE_TYPE, HTTP_SERVICE_TYPE], handlers=[on_change],
            question_type=DNSQuestionType.QM))
        async with trio.open_nursery() as nursery:
            nursery.start_soon(pump)
            try:
                yield browser
            finally:
                nursery.cancel_scope.cancel()
    finally:
        raw_send.close()
        with trio.CancelScope(shield=True), trio.move_on_after(CLOSE_TIMEOUT):
            await trio.to_thread.run_sync(_close, zc, sb, abandon_on_cancel=True)


def _close(zc: Zeroconf, sb: ServiceBrowser | None) -> None:
    if sb is not None:
        sb.cancel()
    zc.close()


async def discover(timeout: float = 3.0, interfaces: Sequence[str] = (),
                   source: ServiceSource | None = None) -> list[FoundBox]:
    """Every box that answers within ``timeout`` seconds, sorted by name."""
    async with open_browser(interfaces, source) as (browser, _events):
        await trio.sleep(timeout)
        return browser.current()

