"""Advertising the box over mDNS/DNS-SD: ``_tablebox._tcp`` (NDJSON) and ``_http._tcp`` (web).

Owns the box's two registrations: choosing a unique instance name (renaming to ``name (2)``
on a conflict), the TXT records (built in ``hostd.discovery``; counts only, never a secret),
coalescing TXT updates (a burst of table changes becomes one update, at most one a second),
following address changes, and unregistering on shutdown (shielded and bounded).

zeroconf's threaded ``Zeroconf`` runs its own asyncio loop in a thread; every blocking call
goes through ``trio.to_thread.run_sync`` from the one publisher task here, so calls never
overlap. Browser callbacks arrive on zeroconf's threads and come back into trio through the
trio token; they only set flags and wake the publisher, so nothing can block or overflow.

Why our own conflict handling: zeroconf probes with QU questions, whose unicast answers reach
only one of the sockets sharing UDP 5353 on a host, so two processes on one host (and a box
next to avahi) never saw each other's conflict. Here a browser watches both types from the
start, a name is chosen only among names no other box holds, and when two boxes still pick
the same name at once, the box with the greater id renames and the other re-announces.

Must never: block the trio loop, run when ``config.mdns`` is off, or take the daemon down:
every failure is one log line and the daemon carries on without mDNS.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass
from typing import Any

import trio
from zeroconf import (
    DNSQuestionType,
    IPVersion,
    NonUniqueNameException,
    ServiceBrowser,
    ServiceInfo,
    ServiceStateChange,
    Zeroconf,
    current_time_millis,
)

from hostd import __version__
from hostd.config import Config
from hostd.discovery import (
    HTTP_SERVICE_TYPE,
    SERVICE_TYPE,
    BoxSummary,
    Pending,
    box_id_for,
    decode_txt,
    http_txt,
    instance_label,
    netif,
    parse_txt_rdata,
    server_name,
    tablebox_txt,
)
from hostd.logs import get_logger
from hostd.protocol import PROTOCOL_VERSION

PRE_BROWSE = 1.5  # browse this long before choosing a name, so the cache knows the neighbours
INTERFACE_REFRESH = 15.0  # re-read interface addresses this often (DHCP, Wi-Fi coming up late)
REANNOUNCE_DELAY = 1.5  # after a rival's goodbye for a shared name, announce again
CLOSE_TIMEOUT = 3.0  # goodbyes and close must fit well inside the unit's stop timeout
MAX_RENAMES = 100

_TYPE_TXT = 16  # DNS resource record types and class (RFC 1035)
_CLASS_IN = 1
TYPES = (SERVICE_TYPE, HTTP_SERVICE_TYPE)


@dataclass(frozen=True)
class _Desired:
    label: str
    txt: tuple[tuple[str, str], ...]
    http_txt: tuple[tuple[str, str], ...]
    addresses: tuple[str, ...]


class Advertiser:
    """One box's two registrations. Only ``run`` (one task) calls zeroconf's blocking API."""

    def __init__(self, config: Config, box_id: str, zc: Zeroconf, ifs: netif.Interfaces) -> None:
        self.config = config
        self.box_id = box_id
        self.zc = zc
        self.ifs = ifs
        self.log = get_logger("hostd.discovery.mdns")
        self.pending = Pending()
        self.number = 1
        self.infos: dict[str, ServiceInfo] = {}  # service type -> what is registered
        self.published: _Desired | None = None
        self.reannounce_at: float | None = None
        self.next_refresh = trio.current_time() + INTERFACE_REFRESH
        self.wake = trio.Event()
        self.waiting_logged = False

    # -- called from trio (browser callbacks arrive through the trio token) ----------------
    def set_summary(self, summary: BoxSummary) -> None:
        if self.pending.change(summary, trio.current_time()):
            self.wake.set()

    def on_browse(self, service_type: str, name: str, change: ServiceStateChange) -> None:
        mine = self.infos.get(service_type)
        if mine is not None and name.lower() == mine.name.lower() \
                and change is ServiceStateChange.Removed:
            # A rival's goodbye for a name both announced also removed ours from every cache.
            self.reannounce_at = trio.current_time() + REANNOUNCE_DELAY
        self.wake.set()

    # -- what the network should see -------------------------------------------------------
    def desired(self) -> _Desired:
        label = instance_label(self.config.box_name, self.number)
        txt = tablebox_txt(box_id=self.box_id, name=self.config.box_name, software=__version__,
                           protocol=PROTOCOL_VERSION, summary=self.pending.summary)
        return _Desired(label, tuple(txt.items()),
                        tuple(http_txt(box_id=self.box_id, name=self.config.box_name).items()),
                        self.ifs.advertise)

    def _info(self, type_: str, d: _Desired) -> ServiceInfo:
        tablebox = type_ == SERVICE_TYPE
        return ServiceInfo(
            type_, f"{d.label}.{type_}",
            port=self.config.tcp_port if tablebox else self.config.http_port,
            properties=dict(d.txt if tablebox else d.http_txt),
            server=server_name(self.box_id),
            parsed_addresses=list(d.addresses),
        )

    def owners(self, label: str) -> tuple[set[str], bool]:
        """Box ids in the cached TXT records for ``label`` (either type; "" for a record that
        is not a tablebox's), and whether any record for it exists at all."""
        now = current_time_millis()
        ids: set[str] = set()
        seen = False
        for type_ in TYPES:
            name = f"{label}.{type_}"
            if self.zc.cache.current_entry_with_name_and_alias(type_, name) is not None:
                seen = True
            for rec in self.zc.cache.get_all_by_details(name, _TYPE_TXT, _CLASS_IN):
                if not rec.is_expired(now):
                    seen = True
                    ids.add(decode_txt(parse_txt_rdata(getattr(rec, "text", b""))).get("id", ""))
        return ids, seen

    def taken(self, label: str) -> bool:
        ids, seen = self.owners(label)
        return bool(ids - {self.box_id}) or (seen and not ids)

    # -- the publisher ---------------------------------------------------------------------
    def _timeout(self) -> float:
        now = trio.current_time()
        deadlines = [self.next_refresh]
        if (at := self.pending.due_at()) is not None:
            deadlines.append(at)
        if self.reannounce_at is not None:
            deadlines.append(self.reannounce_at)
        return max(0.0, min(deadlines) - now)

    async def run(self) -> None:
        await trio.sleep(PRE_BROWSE)
        while True:
            await self.step()
            with trio.move_on_after(self._timeout()):
                await self.wake.wait()
            self.wake = trio.Event()

    async def _call(self, fn: Any, *args: Any) -> None:
        await trio.to_thread.run_sync(fn, *args)

    async def step(self) -> None:
        now = trio.current_time()
        if now >= self.next_refresh:
            await self.refresh_interfaces()
        if not self.ifs.listen:
            if not self.waiting_logged:
                self.log.warning("mdns_waiting_for_interface",
                                 interfaces=list(self.config.mdns_interfaces))
                self.waiting_logged = True
            return
        if not self.infos:
            await self.register()
            return
        ids, _ = self.owners(self.published.label if self.published else "")
        rivals = ids - {self.box_id, ""}
        if rivals and min(rivals) < self.box_id:
            old = self.published.label if self.published else ""
            await self.unregister()
            self.number += 1
            self.log.warning("mdns_name_conflict", name=old, action="rename")
            self.wake.set()
            return
        if rivals and self.reannounce_at is None:
            self.reannounce_at = now + REANNOUNCE_DELAY  # we keep the name: reassert it
        d = self.desired()
        due = self.pending.due(now)
        moved = self.published is not None and d.addresses != self.published.addresses
        if d != self.published and (due or moved):
            await self.update(d)
        elif self.reannounce_at is not None and now >= self.reannounce_at:
            self.reannounce_at = None
            await self.update(d, force=True)

    async def register(self) -> None:
        for _ in range(MAX_RENAMES):
            while self.taken(instance_label(self.config.box_name, self.number)):
                self.number += 1
            d = self.desired()
            infos = {t: self._info(t, d) for t in TYPES}
            try:
                for t in TYPES:
                    await self._call(self.zc.register_service, infos[t])
                    self.infos[t] = infos[t]
            except NonUniqueNameException:
                await self.unregister()
                self.number += 1
                continue
            self.published = d
            self.pending.published(trio.current_time())
            self.log.info("mdns_registered", name=d.label, port=self.config.tcp_port,
                          http_port=self.config.http_port, addresses=list(d.addresses),
                          box_id=self.box_id)
            return
        self.log.error("mdns_no_free_name", name=self.config.box_name)

    async def update(self, d: _Desired, *, force: bool = False) -> None:
        assert self.published is not None
        for t in TYPES:
            before = self.published.txt if t == SERVICE_TYPE else self.published.http_txt
            after = d.txt if t == SERVICE_TYPE else d.http_txt
            if force or before != after or d.addresses != self.published.addresses:
                info = self._info(t, d)  # properties are read-only: a new ServiceInfo each time
                await self._call(self.zc.update_service, info)
                self.infos[t] = info
        self.published = d
        self.pending.published(trio.current_time())
        self.log.debug("mdns_updated", name=d.label, tables=self.pending.summary.open_tables,
                       free=self.pending.summary.free_seats)

    async def unregister(self) -> None:
        infos, self.infos = self.infos, {}
        self.published = None
        for info in infos.values():
            await self._call(self.zc.unregister_service, info)

    async def refresh_interfaces(self) -> None:
        self.next_refresh = trio.current_time() + INTERFACE_REFRESH
        ifs = netif.choose(self.config.mdns_interfaces, self.config.bind)
        if ifs.listen != self.ifs.listen and ifs.listen:
            update = getattr(self.zc, "update_interfaces", None)  # zeroconf >= 0.150 or so
            if update is None:
                self.log.warning("mdns_interfaces_changed", listen=list(ifs.listen),
                                 action="restart the daemon to follow them")
            else:
                await self._call(update, list(ifs.listen))
                self.log.info("mdns_interfaces_changed", listen=list(ifs.listen))
        if ifs.listen:
            self.waiting_logged = False
        self.ifs = ifs


async def run_mdns(config: Config, summaries: trio.MemoryReceiveChannel[BoxSummary], *,
                   task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
    """Advertise the box until cancelled; then say goodbye (shielded, bounded).

    ``config.tcp_port`` and ``config.http_port`` must be the ports actually bound (give a
    ``dataclasses.replace``-d config when listening on port 0). Each ``BoxSummary`` received
    replaces the advertised counts; a closed channel just means no more updates. Reports
    started once zeroconf is up (or once it is known that mDNS is off or unavailable), before
    the name is probed, so the daemon's readiness never waits for probing.
    """
    log = get_logger("hostd.discovery.mdns")
    if not config.mdns:
        task_status.started()
        return
    ifs = netif.choose(config.mdns_interfaces, config.bind)
    if ifs.missing:
        log.warning("mdns_interface_missing", interfaces=list(ifs.missing))
    listen = list(ifs.listen) or ["127.0.0.1"]  # wait for a real interface on loopback
    try:
        zc = await trio.to_thread.run_sync(
            lambda: Zeroconf(interfaces=listen, ip_version=IPVersion.V4Only))
    except (OSError, RuntimeError) as e:
        log.error("mdns_unavailable", error=str(e))
        task_status.started()
        return
    adv = Advertiser(config, box_id_for(config.data_dir, log), zc, ifs)
    token = trio.lowlevel.current_trio_token()

    def on_change(zeroconf: Zeroconf, service_type: str, name: str,
                  state_change: ServiceStateChange) -> None:
        with suppress(trio.RunFinishedError):  # the daemon is shutting down
            token.run_sync_soon(adv.on_browse, service_type, name, state_change)

    browser: ServiceBrowser | None = None
    try:
        # QM questions: answers to QU ones may land in another process's socket (see above).
        browser = await trio.to_thread.run_sync(lambda: ServiceBrowser(
            zc, list(TYPES), handlers=[on_change], question_type=DNSQuestionType.QM))
        task_status.started()
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_follow, summaries, adv)
            nursery.start_soon(adv.run)
    finally:
        with trio.CancelScope(shield=True), trio.move_on_after(CLOSE_TIMEOUT):
            await trio.to_thread.run_sync(_close, zc, browser, abandon_on_cancel=True)
            if adv.published is not None:
                log.info("mdns_unregistered", name=adv.published.label)


async def _follow(summaries: trio.MemoryReceiveChannel[BoxSummary], adv: Advertiser) -> None:
    async for summary in summaries:
        adv.set_summary(summary)


def _close(zc: Zeroconf, browser: ServiceBrowser | None) -> None:
    """Goodbyes for every registration, then close (runs in a worker thread)."""
    if browser is not None:
        browser.cancel()
    zc.unregister_all_services()
    zc.close()
