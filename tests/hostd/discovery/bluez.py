"""A private ``dbus-daemon`` and a stand-in ``org.bluez`` for the Bluetooth tests.

The stand-in implements what tablebox uses of BlueZ: ``ProfileManager1.RegisterProfile`` and
``UnregisterProfile`` on ``/org/bluez``, ``ObjectManager.GetManagedObjects`` on ``/`` (the
adapters), and calls the registered ``Profile1`` with ``NewConnection`` (one end of a real
``socketpair()`` passed as a Unix fd), ``RequestDisconnection`` and ``Release``, the way
bluetoothd does. The bus is a real dbus-daemon on a Unix socket in a temporary directory.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import trio
from jeepney import DBusAddress, HeaderFields, MatchRule, MessageType, message_bus
from jeepney.io.trio import DBusRouter, open_dbus_router
from jeepney.low_level import Message
from jeepney.wrappers import new_error, new_method_call, new_method_return

CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path={path}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""


@contextmanager
def private_bus() -> Iterator[str]:
    """A fresh dbus-daemon; yields its address. Killed and removed afterwards."""
    exe = shutil.which("dbus-daemon")
    if exe is None:
        pytest.skip("the Bluetooth tests need dbus-daemon (Debian package dbus)")
    tmp = Path(tempfile.mkdtemp(prefix="tb-bus-"))  # short: Unix socket paths < 108 bytes
    cfg = tmp / "bus.conf"
    cfg.write_text(CONFIG.format(path=tmp / "bus"))
    proc = subprocess.Popen([exe, f"--config-file={cfg}", "--nofork", "--print-address"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        address = proc.stdout.readline().strip()
        if not address:
            raise AssertionError(f"dbus-daemon did not start: {proc.stderr.read() if proc.stderr else ''}")
        yield address
    finally:
        proc.kill()
        proc.wait(10)
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
        shutil.rmtree(tmp, ignore_errors=True)


@dataclass
class Registration:
    owner: str
    path: str
    uuid: str
    options: dict[str, Any]


@dataclass
class StandIn:
    """bluetoothd as tablebox sees it. ``refuse`` makes RegisterProfile answer that error."""

    router: DBusRouter
    refuse: str | None = None
    adapters: int = 1
    profiles: dict[str, Registration] = field(default_factory=dict)
    calls: list[str] = field(default_factory=list)
    changed: trio.Event = field(default_factory=trio.Event)

    def _bump(self) -> None:
        self.changed.set()
        self.changed = trio.Event()

    async def wait_for(self, pred: Any, timeout: float = 10.0) -> None:
        with trio.fail_after(timeout):
            while not pred():
                await self.changed.wait()

    async def serve(self, calls: trio.MemoryReceiveChannel[Message]) -> None:
        async for msg in calls:
            await self._handle(msg)
            self._bump()

    async def _handle(self, msg: Message) -> None:
        f = msg.header.fields
        path, member = f.get(HeaderFields.path), f.get(HeaderFields.member)
        self.calls.append(str(member))
        sender = str(f.get(HeaderFields.sender))
        if path == "/org/bluez" and member == "RegisterProfile":
            obj, uuid, options = msg.body
            if self.refuse:
                await self.router.send(new_error(msg, self.refuse, "s", ("refused",)))
                return
            if obj in self.profiles:
                await self.router.send(new_error(msg, "org.bluez.Error.AlreadyExists", "s",
                                                 ("Already Exists",)))
                return
            self.profiles[obj] = Registration(sender, obj, uuid,
                                              {k: v[1] for k, v in options.items()})
            await self.router.send(new_method_return(msg))
        elif path == "/org/bluez" and member == "UnregisterProfile":
            self.profiles.pop(msg.body[0], None)
            await self.router.send(new_method_return(msg))
        elif path == "/" and member == "GetManagedObjects":
            objects = {f"/org/bluez/hci{i}": {"org.bluez.Adapter1": {
                "Address": ("s", f"00:1A:7D:DA:71:{i:02X}"), "Powered": ("b", True)}}
                for i in range(self.adapters)}
            await self.router.send(new_method_return(msg, "a{oa{sa{sv}}}", (objects,)))
        else:
            await self.router.send(new_error(msg, "org.freedesktop.DBus.Error.UnknownMethod",
                                             "s", (f"no {member}",)))

    def profile(self) -> Registration:
        assert len(self.profiles) == 1, self.profiles
        return next(iter(self.profiles.values()))

    def _at(self, reg: Registration) -> DBusAddress:
        return DBusAddress(reg.path, bus_name=reg.owner, interface="org.bluez.Profile1")

    async def connect(self, device: str = "/org/bluez/hci0/dev_AA_BB_CC_DD_EE_01"
                      ) -> tuple[trio.SocketStream, Message]:
        """A new RFCOMM connection as BlueZ hands it over: our end, and the profile's reply."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            reply = await self.router.send_and_get_reply(new_method_call(
                self._at(self.profile()), "NewConnection", "oha{sv}",
                (device, theirs, {"Version": ("q", 0x0102)})))
        finally:
            theirs.close()  # the profile holds its own duplicate now
        return trio.SocketStream(trio.socket.from_stdlib_socket(ours)), reply

    async def hand_over(self, fileobj: Any, device: str) -> Message:
        """``NewConnection`` with any descriptor (tests of what the profile refuses)."""
        return await self.router.send_and_get_reply(new_method_call(
            self._at(self.profile()), "NewConnection", "oha{sv}", (device, fileobj, {})))

    async def request_disconnection(self, device: str) -> Message:
        return await self.router.send_and_get_reply(new_method_call(
            self._at(self.profile()), "RequestDisconnection", "o", (device,)))

    async def release(self) -> Message:
        return await self.router.send_and_get_reply(new_method_call(
            self._at(self.profile()), "Release"))


@asynccontextmanager
async def standin(address: str, **kw: Any) -> AsyncIterator[StandIn]:
    """The stand-in holding ``org.bluez`` on the bus at ``address`` until the block ends."""
    async with open_dbus_router(address, enable_fds=True) as router:
        reply = await router.send_and_get_reply(message_bus.RequestName("org.bluez"))
        assert reply.header.message_type == MessageType.method_return and reply.body[0] == 1
        bluez = StandIn(router, **kw)
        # Left to the router to close (see hostd.discovery.bluetooth).
        calls = router.filter(MatchRule(type="method_call"), bufsize=64).receive_channel
        async with trio.open_nursery() as nursery:
            nursery.start_soon(bluez.serve, calls)
            yield bluez
            nursery.cancel_scope.cancel()


def is_error(reply: Message, name: str | None = None) -> bool:
    return reply.header.message_type == MessageType.error and (
        name is None or reply.header.fields.get(HeaderFields.error_name) == name)
