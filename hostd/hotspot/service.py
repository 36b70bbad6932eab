"""The daemon's hotspot task: keeps the box's own Wi-Fi as configured (off, on, or on while
no other network is up), and while it is up serves the hotspot's DNS and captive portal.

``Hotspot`` owns the wanted state (the config's mode, which ``tablebox hotspot on|off``
overrides until the next start), the one NetworkManager connection, and the DNS and portal
tasks bound to the hotspot address. ``status()`` is what the control socket, the doctor and
the welcome read: the state, the network name, the address, the reason when it is not up,
and the Wi-Fi QR text while it is on. Failures are one log line and a reason in the status;
the daemon carries on serving every other interface. It never changes other connections.
"""

from __future__ import annotations

import contextlib
import ipaddress
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import ifaddr
import trio
from jeepney.io.trio import open_dbus_router

from hostd.hotspot import HotspotError, wifiqr
from hostd.hotspot.addresses import choose_subnet, networks_in_use
from hostd.hotspot.credentials import load_or_create
from hostd.hotspot.dns import serve_dns
from hostd.hotspot.nm import NM, NM_PATH, NetworkManager
from hostd.hotspot.portal import serve_portal
from hostd.logs import get_logger

MODES = ("off", "on", "auto")
AUTO_CHECK = 15.0  # seconds between looks at whether another network came up or went


@dataclass(frozen=True)
class Settings:
    mode: str = "off"
    interface: str = ""
    ssid: str = ""
    passphrase: str = ""
    address: str = ""  # "10.42.0.1/24"; empty: the first range free of the box's networks
    dns_port: int = 53
    portal_port: int = 80


class Hotspot:
    def __init__(self, settings: Settings, data_dir: Path, box_name: str, http_port: int,
                 bus: str = "SYSTEM") -> None:
        self.settings = settings
        self.data_dir = data_dir
        self.box_name = box_name
        self.http_port = http_port
        self.bus = bus
        self.mode = settings.mode
        self.log = get_logger("hostd.hotspot")
        self.nm: NetworkManager | None = None
        # "starting" until the first look at NetworkManager (the control socket answers
        # before this task has started: an operator asking then is told so, not "off").
        self.state = "starting" if settings.mode != "off" else "off"
        self.reason = "" if settings.mode != "off" else "hotspot = \"off\" in the config"
        # True while the reason is a failure (no NetworkManager, no device, refused), not a
        # choice ("turned off", "another network is up"): doctor reads it, not the words.
        self.fault = False
        self.interface = ""
        self.ssid = ""
        self.passphrase = ""
        self.address: ipaddress.IPv4Interface | None = None
        self.poke = trio.Event()
        self._serving: trio.CancelScope | None = None
        self._nursery: trio.Nursery | None = None
        self._lock = trio.Lock()

    def status(self) -> dict[str, Any]:
        out: dict[str, Any] = {"state": self.state, "mode": self.mode}
        if self.state == "on" and self.address is not None:
            out.update(ssid=self.ssid, address=str(self.address.ip), interface=self.interface,
                       page=self.page(), wifi=wifiqr.payload(self.ssid, self.passphrase))
        if self.reason:
            out["reason"] = self.reason
        out["fault"] = self.fault
        return out

    def page(self) -> str:
        ip = self.address.ip if self.address is not None else "0.0.0.0"
        return f"http://{ip}:{self.http_port}/"

    # -- what is wanted ----------------------------------------------------------------
    async def wanted(self) -> bool:
        if self.mode != "auto":
            return self.mode == "on"
        assert self.nm is not None
        # "When no other network is up": NetworkManager names no primary connection then
        # (our shared access point never becomes the primary one: it has no gateway).
        primary = await self.nm.prop(NM_PATH, NM, "PrimaryConnection")
        return str(primary) == "/"

    async def set_mode(self, mode: str) -> dict[str, Any]:
        """``tablebox hotspot on|off``: until the daemon restarts, this mode wins."""
        self.mode = mode
        await self._apply()
        return self.status()

    # -- bringing it up and down ---------------------------------------------------------
    async def _apply(self) -> None:
        async with self._lock:
            if self.nm is None:
                return
            try:
                await self.nm.ensure_running()
                want = await self.wanted()
                self.fault = False
                if want and self.state != "on":
                    await self._up()
                elif not want and self.state == "on":
                    await self._down()
                elif not want:
                    self.state = "off"
                    self.reason = ("another network is up (hotspot = \"auto\")"
                                   if self.mode == "auto" else "turned off")
            except (HotspotError, trio.TooSlowError) as e:
                reason = str(e) or "NetworkManager did not answer"
                if reason != self.reason:
                    self.log.warning("hotspot_unavailable", reason=reason)
                self.state, self.reason, self.fault = "off", reason, True

    def _choose_address(self) -> ipaddress.IPv4Interface:
        if self.settings.address:
            return ipaddress.IPv4Interface(self.settings.address)
        return choose_subnet(networks_in_use(ifaddr.get_adapters(), skip=self.interface))

    async def _up(self) -> None:
        assert self.nm is not None and self._nursery is not None
        creds = await trio.to_thread.run_sync(
            load_or_create, self.data_dir, self.box_name, self.settings.ssid,
            self.settings.passphrase)
        device = await self.nm.choose_device(self.settings.interface)
        self.interface = device.interface
        self.address = self._choose_address()
        status = await self.nm.start(creds.ssid, creds.passphrase, self.address,
                                     self.settings.interface)
        self.ssid, self.passphrase = creds.ssid, creds.passphrase
        self.state, self.reason, self.interface = "on", "", status.interface
        self._serving = await self._nursery.start(self._serve, str(self.address.ip))
        self.log.info("hotspot_on", ssid=self.ssid, interface=self.interface,
                      address=str(self.address.ip))

    async def _serve(self, address: str, *,
                     task_status: trio.TaskStatus[trio.CancelScope]) -> None:
        """The DNS responder and the portal on the hotspot address; either failing to bind
        (another DNS server there, no capability for a low port) is one line, not fatal."""
        with trio.CancelScope() as scope:
            async with trio.open_nursery() as nursery:
                for name, fn in (("dns", partial(serve_dns, address, self.settings.dns_port)),
                                 ("portal", partial(serve_portal, address, self.page(),
                                                    self.settings.portal_port))):
                    try:
                        await nursery.start(fn)
                    except OSError as e:
                        self.log.warning(f"hotspot_{name}_unavailable", address=address,
                                         error=str(e))
                task_status.started(scope)

    async def _down(self) -> None:
        assert self.nm is not None
        if self._serving is not None:
            self._serving.cancel()
            self._serving = None
        await self.nm.stop()
        self.state, self.reason = "off", "turned off"
        self.log.info("hotspot_off")

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Keep the hotspot as wanted until cancelled (then it is left as it is: phones stay
        on the box's network across a restart)."""
        if self.settings.mode == "off":
            task_status.started()
            await trio.sleep_forever()
        async with contextlib.AsyncExitStack() as stack:
            try:
                router = await stack.enter_async_context(open_dbus_router(self.bus))
            except Exception as e:  # no bus socket, refused, bad address: "no D-Bus"
                self.state, self.reason = "off", f"no D-Bus system bus ({e})"
                self.fault = True
                self.log.warning("hotspot_unavailable", reason=self.reason)
                task_status.started()
                await trio.sleep_forever()
            self.nm = NetworkManager(router)
            self._nursery = await stack.enter_async_context(trio.open_nursery())
            await self._apply()
            task_status.started()
            while True:
                with trio.move_on_after(AUTO_CHECK if self.mode == "auto" else 3600):
                    await self.poke.wait()
                self.poke = trio.Event()
                await self._apply()

