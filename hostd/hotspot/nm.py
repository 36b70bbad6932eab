"""NetworkManager over D-Bus (jeepney on trio): the hotspot connection's life.

Owns what tablebox asks of NetworkManager, and nothing else: find a Wi-Fi device that can be
an access point (``WirelessCapabilities`` has ``AP``), add or update the one connection named
``tablebox-hotspot`` (WPA2-PSK, CCMP only; IPv4 ``shared``, which makes NetworkManager hand
out addresses by DHCP on the chosen subnet; client isolation off, so phones reach the box),
activate it and wait until it is up, take it down, and say what state it is in.

Every failure is a ``HotspotError`` with one line for a person: NetworkManager not running,
no Wi-Fi device, no device that can be an access point, the named interface missing,
activation refused or failed. The passphrase is sent to NetworkManager and nowhere else: it
is never logged. Other connections and devices are never touched.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from typing import Any

import trio
from jeepney import DBusAddress, HeaderFields, MessageType, message_bus
from jeepney.io.trio import DBusRouter
from jeepney.low_level import Message
from jeepney.wrappers import new_method_call

from hostd.hotspot import HotspotError

NM = "org.freedesktop.NetworkManager"
NM_PATH = "/org/freedesktop/NetworkManager"
SETTINGS_PATH = "/org/freedesktop/NetworkManager/Settings"
PROPS = "org.freedesktop.DBus.Properties"
DEVICE = f"{NM}.Device"
WIRELESS = f"{NM}.Device.Wireless"
ACTIVE = f"{NM}.Connection.Active"
SETTINGS = f"{NM}.Settings"
SETTINGS_CONNECTION = f"{NM}.Settings.Connection"
CONNECTION_ID = "tablebox-hotspot"
DEVICE_TYPE_WIFI = 2  # NM_DEVICE_TYPE_WIFI
WIFI_CAP_AP = 0x40  # NM_WIFI_DEVICE_CAP_AP
# NMActiveConnectionState
ACTIVATING, ACTIVATED, DEACTIVATING, DEACTIVATED = 1, 2, 3, 4
STATE_NAMES = {0: "unknown", ACTIVATING: "starting", ACTIVATED: "on", DEACTIVATING: "stopping",
               DEACTIVATED: "off"}
CALL_TIMEOUT = 5.0
ACTIVATE_TIMEOUT = 30.0  # a Pi's radio takes a few seconds to start an access point


@dataclass(frozen=True)
class WifiDevice:
    path: str
    interface: str
    can_be_ap: bool


@dataclass(frozen=True)
class Status:
    state: str  # "on", "starting", "stopping", "off"
    interface: str = ""
    active_path: str = ""


def connection_settings(ssid: str, passphrase: str, interface: str,
                        address: ipaddress.IPv4Interface) -> dict[str, dict[str, tuple[str, Any]]]:
    """The hotspot connection as NetworkManager's ``a{sa{sv}}`` settings."""
    return {
        "connection": {"id": ("s", CONNECTION_ID), "type": ("s", "802-11-wireless"),
                       "autoconnect": ("b", False), "interface-name": ("s", interface)},
        "802-11-wireless": {"ssid": ("ay", ssid.encode()), "mode": ("s", "ap"),
                            "band": ("s", "bg"),
                            # NM_TERNARY_FALSE: phones must reach the box (docs/operations.md).
                            "ap-isolation": ("i", 0)},
        "802-11-wireless-security": {"key-mgmt": ("s", "wpa-psk"), "psk": ("s", passphrase),
                                     "proto": ("as", ["rsn"]), "pairwise": ("as", ["ccmp"]),
                                     "group": ("as", ["ccmp"])},
        "ipv4": {"method": ("s", "shared"),
                 "address-data": ("aa{sv}", [{"address": ("s", str(address.ip)),
                                              "prefix": ("u", address.network.prefixlen)}])},
        "ipv6": {"method": ("s", "ignore")},
    }


def _unwrap(value: Any) -> Any:
    return value[1] if isinstance(value, tuple) and len(value) == 2 and isinstance(
        value[0], str) else value


class NetworkManager:
    """One bus connection's view of NetworkManager."""

    def __init__(self, router: DBusRouter) -> None:
        self.router = router

    async def call(self, path: str, interface: str, member: str, signature: str | None = None,
                   body: tuple[Any, ...] = ()) -> tuple[Any, ...]:
        msg = new_method_call(DBusAddress(path, bus_name=NM, interface=interface), member,
                              signature, body)
        with trio.fail_after(CALL_TIMEOUT):
            reply: Message = await self.router.send_and_get_reply(msg)
        if reply.header.message_type == MessageType.error:
            name = str(reply.header.fields.get(HeaderFields.error_name, "?"))
            detail = reply.body[0] if reply.body and isinstance(reply.body[0], str) else ""
            raise HotspotError(f"NetworkManager refused {member}: {detail or name}")
        return tuple(reply.body)

    async def prop(self, path: str, interface: str, name: str) -> Any:
        (value,) = await self.call(path, PROPS, "Get", "ss", (interface, name))
        return _unwrap(value)

    async def running(self) -> bool:
        with trio.fail_after(CALL_TIMEOUT):
            reply = await self.router.send_and_get_reply(message_bus.GetNameOwner(NM))
        return bool(reply.header.message_type == MessageType.method_return)

    async def ensure_running(self) -> None:
        if not await self.running():
            raise HotspotError("NetworkManager is not running (no " + NM + " on the system "
                               "bus): the hotspot needs it (Raspberry Pi OS has it since "
                               "Bookworm; see tablebox doctor)")

    async def wifi_devices(self) -> list[WifiDevice]:
        (paths,) = await self.call(NM_PATH, NM, "GetDevices")
        out = []
        for path in paths:
            if await self.prop(path, DEVICE, "DeviceType") != DEVICE_TYPE_WIFI:
                continue
            caps = int(await self.prop(path, WIRELESS, "WirelessCapabilities"))
            out.append(WifiDevice(str(path), str(await self.prop(path, DEVICE, "Interface")),
                                  bool(caps & WIFI_CAP_AP)))
        return out

    async def choose_device(self, interface: str = "") -> WifiDevice:
        devices = await self.wifi_devices()
        if not devices:
            raise HotspotError("no Wi-Fi device: the hotspot needs one (a Pi 3, 4 or 5 has one "
                               "built in; a USB adapter must support access-point mode)")
        if interface:
            named = [d for d in devices if d.interface == interface]
            if not named:
                raise HotspotError(f"hotspot_interface {interface!r}: no such Wi-Fi device "
                                   f"(there is {', '.join(d.interface for d in devices)})")
            devices = named
        capable = [d for d in devices if d.can_be_ap]
        if not capable:
            raise HotspotError(f"{devices[0].interface} cannot be an access point (its driver "
                               "does not offer AP mode)")
        return capable[0]

    async def _our_connection(self) -> str | None:
        (paths,) = await self.call(SETTINGS_PATH, SETTINGS, "ListConnections")
        for path in paths:
            (settings,) = await self.call(path, SETTINGS_CONNECTION, "GetSettings")
            if _unwrap(settings.get("connection", {}).get("id")) == CONNECTION_ID:
                return str(path)
        return None

    async def _our_active(self) -> str | None:
        for path in await self.prop(NM_PATH, NM, "ActiveConnections"):
            if await self.prop(path, ACTIVE, "Id") == CONNECTION_ID:
                return str(path)
        return None

    async def start(self, ssid: str, passphrase: str, address: ipaddress.IPv4Interface,
                    interface: str = "", timeout: float = ACTIVATE_TIMEOUT) -> Status:
        """Bring the hotspot up (or update and restart it) and wait until it is on."""
        await self.ensure_running()
        device = await self.choose_device(interface)
        settings = connection_settings(ssid, passphrase, device.interface, address)
        existing = await self._our_connection()
        if existing is not None:
            await self.call(existing, SETTINGS_CONNECTION, "Update", "a{sa{sv}}", (settings,))
            (active,) = await self.call(NM_PATH, NM, "ActivateConnection", "ooo",
                                        (existing, device.path, "/"))
        else:
            _conn, active = await self.call(NM_PATH, NM, "AddAndActivateConnection",
                                            "a{sa{sv}}oo", (settings, device.path, "/"))
        with trio.move_on_after(timeout):
            while True:
                state = int(await self.prop(active, ACTIVE, "State"))
                if state == ACTIVATED:
                    return Status("on", device.interface, str(active))
                if state in (DEACTIVATING, DEACTIVATED):
                    raise HotspotError(f"NetworkManager could not start the hotspot on "
                                       f"{device.interface} (see journalctl -u NetworkManager)")
                await trio.sleep(0.1)
        raise HotspotError(f"the hotspot on {device.interface} was not up after {timeout:g} s")

    async def stop(self) -> Status:
        await self.ensure_running()
        active = await self._our_active()
        if active is not None:
            await self.call(NM_PATH, NM, "DeactivateConnection", "o", (active,))
        return Status("off")

    async def status(self) -> Status:
        await self.ensure_running()
        active = await self._our_active()
        if active is None:
            return Status("off")
        state = int(await self.prop(active, ACTIVE, "State"))
        devices = await self.prop(active, ACTIVE, "Devices")
        iface = str(await self.prop(devices[0], DEVICE, "Interface")) if devices else ""
        return Status(STATE_NAMES.get(state, "unknown"), iface, active)


async def probe(interface: str = "", bus: str = "SYSTEM") -> WifiDevice:
    """The Wi-Fi device the hotspot would use, asked of NetworkManager without changing
    anything (``tablebox doctor``); a ``HotspotError`` says why there is none."""
    from jeepney.io.trio import open_dbus_router

    try:
        router_cm = open_dbus_router(bus)
        router = await router_cm.__aenter__()
    except Exception as e:  # no bus socket, refused, bad address
        raise HotspotError(f"no D-Bus system bus ({e})") from None
    try:
        nm = NetworkManager(router)
        await nm.ensure_running()
        return await nm.choose_device(interface)
    finally:
        await router_cm.__aexit__(None, None, None)
