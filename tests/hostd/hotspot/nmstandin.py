"""A stand-in NetworkManager on a private dbus-daemon, for the hotspot tests.

It holds ``org.freedesktop.NetworkManager`` and implements what tablebox uses, with the same
object paths, interfaces and signatures: ``GetDevices``, ``AddAndActivateConnection``,
``ActivateConnection``, ``DeactivateConnection``, ``Settings.ListConnections``,
``Settings.Connection.GetSettings``/``Update``, and ``Properties.Get`` of the devices, the
active connections and the manager. An activation goes "activating" then, a moment later,
"activated", or "deactivated" with ``fail_activation`` (what a radio that cannot start an
access point does). It records every settings dict it was given, to check what was asked.
A Wi-Fi radio cannot exist here; everything else is real (the bus, the messages).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import trio
from jeepney import HeaderFields, MatchRule, MessageType, message_bus
from jeepney.io.trio import DBusRouter, open_dbus_router
from jeepney.low_level import Message
from jeepney.wrappers import new_error, new_method_return

from hostd.hotspot import nm

UNKNOWN = "org.freedesktop.DBus.Error.UnknownMethod"


@dataclass
class Dev:
    interface: str
    kind: int = nm.DEVICE_TYPE_WIFI
    caps: int = nm.WIFI_CAP_AP | 0x0F


@dataclass
class StandInNM:
    router: DBusRouter
    devices: list[Dev] = field(default_factory=lambda: [Dev("eth0", kind=1, caps=0), Dev("wlan0")])
    fail_activation: bool = False
    primary: str = "/"  # PrimaryConnection: "/" when no other network is up
    settings: dict[str, dict[str, Any]] = field(default_factory=dict)  # path -> settings
    active: dict[str, dict[str, Any]] = field(default_factory=dict)  # path -> id/state/device
    asked: list[dict[str, Any]] = field(default_factory=list)
    calls: list[str] = field(default_factory=list)
    nursery: trio.Nursery | None = None
    _n: int = 0

    def dev_path(self, i: int) -> str:
        return f"/org/freedesktop/NetworkManager/Devices/{i + 1}"

    def _props(self, path: str, iface: str, name: str) -> tuple[str, Any] | None:
        if path == nm.NM_PATH and iface == nm.NM and name == "ActiveConnections":
            return ("ao", list(self.active))
        if path == nm.NM_PATH and iface == nm.NM and name == "PrimaryConnection":
            return ("o", self.primary)
        for i, d in enumerate(self.devices):
            if path == self.dev_path(i):
                if iface == nm.DEVICE and name == "DeviceType":
                    return ("u", d.kind)
                if iface == nm.DEVICE and name == "Interface":
                    return ("s", d.interface)
                if iface == nm.WIRELESS and name == "WirelessCapabilities" and d.kind == 2:
                    return ("u", d.caps)
        if path in self.active and iface == nm.ACTIVE:
            a = self.active[path]
            return {"Id": ("s", a["id"]), "State": ("u", a["state"]),
                    "Devices": ("ao", [a["device"]])}.get(name)
        return None

    async def _activate(self, conn: str, device: str) -> str:
        self._n += 1
        path = f"/org/freedesktop/NetworkManager/ActiveConnection/{self._n}"
        conn_id = self.settings[conn]["connection"]["id"][1]
        # Like NetworkManager: activating on a device replaces what was active on it.
        for old in [p for p, a in self.active.items() if a["device"] == device]:
            del self.active[old]
        self.active[path] = {"id": conn_id, "state": nm.ACTIVATING, "device": device}

        async def settle() -> None:
            await trio.sleep(0.2)
            self.active[path]["state"] = nm.DEACTIVATED if self.fail_activation else nm.ACTIVATED

        assert self.nursery is not None
        self.nursery.start_soon(settle)
        return path

    async def handle(self, msg: Message) -> None:
        f = msg.header.fields
        path, iface, member = (str(f.get(HeaderFields.path)), f.get(HeaderFields.interface),
                               str(f.get(HeaderFields.member)))
        self.calls.append(member)
        send = self.router.send
        if iface == nm.PROPS and member == "Get":
            value = self._props(path, *msg.body)
            if value is None:
                await send(new_error(msg, "org.freedesktop.DBus.Error.InvalidArgs", "s",
                                     (f"no property {msg.body[1]}",)))
            else:
                await send(new_method_return(msg, "v", (value,)))
        elif path == nm.NM_PATH and member == "GetDevices":
            await send(new_method_return(msg, "ao", ([self.dev_path(i) for i in
                                                      range(len(self.devices))],)))
        elif path == nm.NM_PATH and member == "AddAndActivateConnection":
            settings, device, _specific = msg.body
            self.asked.append(settings)
            conn = f"/org/freedesktop/NetworkManager/Settings/{len(self.settings) + 1}"
            self.settings[conn] = settings
            active = await self._activate(conn, device)
            await send(new_method_return(msg, "oo", (conn, active)))
        elif path == nm.NM_PATH and member == "ActivateConnection":
            conn, device, _specific = msg.body
            await send(new_method_return(msg, "o", (await self._activate(conn, device),)))
        elif path == nm.NM_PATH and member == "DeactivateConnection":
            self.active.pop(msg.body[0], None)
            await send(new_method_return(msg))
        elif path == nm.SETTINGS_PATH and member == "ListConnections":
            await send(new_method_return(msg, "ao", (list(self.settings),)))
        elif path in self.settings and member == "GetSettings":
            # NetworkManager never returns secrets from GetSettings.
            safe = {k: {n: v for n, v in g.items() if n != "psk"}
                    for k, g in self.settings[path].items()}
            await send(new_method_return(msg, "a{sa{sv}}", (safe,)))
        elif path in self.settings and member == "Update":
            self.asked.append(msg.body[0])
            self.settings[path] = msg.body[0]
            await send(new_method_return(msg))
        else:
            await send(new_error(msg, UNKNOWN, "s", (f"no {member} at {path}",)))


@asynccontextmanager
async def standin_nm(address: str, **kw: Any) -> AsyncIterator[StandInNM]:
    async with open_dbus_router(address) as router:
        reply = await router.send_and_get_reply(message_bus.RequestName(nm.NM))
        assert reply.header.message_type == MessageType.method_return and reply.body[0] == 1
        standin = StandInNM(router, **kw)
        calls = router.filter(MatchRule(type="method_call"), bufsize=64).receive_channel
        async with trio.open_nursery() as nursery:
            standin.nursery = nursery

            async def serve() -> None:
                async for msg in calls:
                    await standin.handle(msg)

            nursery.start_soon(serve)
            yield standin
            nursery.cancel_scope.cancel()

