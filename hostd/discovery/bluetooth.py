"""Play over Bluetooth: an RFCOMM serial-port profile registered with BlueZ over D-Bus.

Owns the profile's life: registering ``SERVICE_UUID`` with ``org.bluez.ProfileManager1`` (BlueZ
then publishes the SDP record and listens on ``RFCOMM_CHANNEL``), the ``org.bluez.Profile1``
object BlueZ calls (``NewConnection``, ``RequestDisconnection``, ``Release``), turning each
connection's file descriptor into a trio stream for ``handle_stream``, re-registering when
bluetoothd restarts, and unregistering on shutdown (shielded, bounded).

BlueZ accepts the connection, pairs and encrypts; the daemon only ever receives an already
connected socket, so it needs no AF_BLUETOOTH socket of its own and no capability. The
descriptor is AF_BLUETOOTH on a real box (and AF_UNIX in the tests' stand-in): the family is
read from the descriptor itself, never assumed.

Feature detection, never a crash: no D-Bus, no BlueZ, no adapter, or BlueZ refusing the
profile is one log line and the daemon carries on (a BlueZ that appears later is used then).
Must never accept a call from anyone but the current owner of ``org.bluez``, nor leak a
descriptor it was given: every one is either wrapped in a stream or closed.
"""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Awaitable, Callable
from typing import Any

import trio
from jeepney import DBusAddress, HeaderFields, MatchRule, MessageType, message_bus
from jeepney.fds import FileDescriptor
from jeepney.io.trio import DBusRouter, open_dbus_router
from jeepney.low_level import Message
from jeepney.wrappers import new_error, new_method_call, new_method_return

from hostd.config import Config
from hostd.discovery import RFCOMM_CHANNEL, RFCOMM_SERVICE_UUID, clean_name
from hostd.logs import get_logger

SERVICE_UUID = RFCOMM_SERVICE_UUID
PROFILE_PATH = "/org/tablebox/rfcomm"
BLUEZ = "org.bluez"
PROFILE_IFACE = "org.bluez.Profile1"
CALL_TIMEOUT = 5.0  # a BlueZ that does not answer within this is treated as absent
CLOSE_TIMEOUT = 2.0
CALL_BUFFER = 64  # jeepney drops messages on a full filter channel: keep it roomy

StreamHandler = Callable[[trio.abc.Stream, str], Awaitable[None]]

_INTROSPECT = f"""<!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
<node name="{PROFILE_PATH}">
 <interface name="{PROFILE_IFACE}">
  <method name="Release"/>
  <method name="NewConnection">
   <arg name="device" type="o" direction="in"/>
   <arg name="fd" type="h" direction="in"/>
   <arg name="fd_properties" type="a{{sv}}" direction="in"/>
  </method>
  <method name="RequestDisconnection">
   <arg name="device" type="o" direction="in"/>
  </method>
 </interface>
</node>
"""


class BluetoothUnavailable(Exception):
    """Why the profile is not registered, as one line for the log."""


def peer_of(device: str) -> str:
    """``/org/bluez/hci0/dev_AA_BB_CC_DD_EE_FF`` as ``bt:AA:BB:CC:DD:EE:FF`` (for logs)."""
    tail = device.rsplit("/", 1)[-1]
    if tail.startswith("dev_"):
        return "bt:" + tail[4:].replace("_", ":")
    return "bt:" + tail


def stream_from_fd(fd: FileDescriptor) -> trio.SocketStream:
    """Take ownership of ``fd`` as a trio stream; closes it and raises OSError/ValueError if
    it is not a connected stream socket.

    ``socket.socket(fileno=...)`` reads family, type and protocol from the descriptor, which
    works for AF_BLUETOOTH even on a Python built without it; the result is a plain
    ``socket.socket``, as ``trio.socket.from_stdlib_socket`` requires.
    """
    raw = fd.to_raw_fd()
    try:
        sock = socket.socket(fileno=raw)
    except OSError:
        socket.close(raw)
        raise
    try:
        return trio.SocketStream(trio.socket.from_stdlib_socket(sock))
    except (OSError, ValueError, TypeError):
        sock.close()
        raise


def _close_fds(msg: Message) -> None:
    for item in msg.body:
        if isinstance(item, FileDescriptor):
            with contextlib.suppress(Exception):
                item.close()


def _error_name(reply: Message) -> str:
    return str(reply.header.fields.get(HeaderFields.error_name, "?"))


def _error_text(reply: Message) -> str:
    detail = reply.body[0] if reply.body and isinstance(reply.body[0], str) else ""
    return f"{_error_name(reply)}: {detail}" if detail else _error_name(reply)


class Profile:
    """The ``org.bluez.Profile1`` object and its registration on one bus connection."""

    def __init__(self, router: DBusRouter, config: Config, handle_stream: StreamHandler,
                 handlers: trio.Nursery) -> None:
        self.router = router
        self.config = config
        self.handle_stream = handle_stream
        self.handlers = handlers
        self.log = get_logger("hostd.discovery.bluetooth")
        self.bluez_owner: str | None = None  # unique bus name of bluetoothd, when it runs
        self.registered = False
        self.streams: dict[str, set[trio.SocketStream]] = {}  # device path -> open streams
        self.changed = trio.Event()  # org.bluez came, went, or released us

    async def call(self, msg: Message) -> Message:
        with trio.fail_after(CALL_TIMEOUT):
            return await self.router.send_and_get_reply(msg)

    # -- registration --------------------------------------------------------------------
    async def refresh_owner(self) -> None:
        reply = await self.call(message_bus.GetNameOwner(BLUEZ))
        ok = reply.header.message_type == MessageType.method_return
        self.bluez_owner = str(reply.body[0]) if ok else None

    async def adapters(self) -> int:
        om = DBusAddress("/", bus_name=BLUEZ, interface="org.freedesktop.DBus.ObjectManager")
        reply = await self.call(new_method_call(om, "GetManagedObjects"))
        if reply.header.message_type != MessageType.method_return:
            return 0
        objects: dict[str, dict[str, Any]] = reply.body[0]
        return sum(1 for ifaces in objects.values() if "org.bluez.Adapter1" in ifaces)

    def options(self) -> dict[str, tuple[str, Any]]:
        return {
            "Name": ("s", clean_name(self.config.box_name)),
            "Role": ("s", "server"),
            "Channel": ("q", RFCOMM_CHANNEL),
            # Pairing is required (encrypted link); any paired device may then connect
            # without a per-connection prompt, which a headless box could not answer.
            "RequireAuthentication": ("b", True),
            "RequireAuthorization": ("b", False),
            "AutoConnect": ("b", False),
        }

    async def register(self) -> None:
        """Register the profile, or raise BluetoothUnavailable saying why not."""
        await self.refresh_owner()
        if self.bluez_owner is None:
            raise BluetoothUnavailable("BlueZ is not running (no org.bluez on the system bus)")
        adapters = await self.adapters()
        pm = DBusAddress("/org/bluez", bus_name=BLUEZ, interface="org.bluez.ProfileManager1")
        reply = await self.call(new_method_call(
            pm, "RegisterProfile", "osa{sv}", (PROFILE_PATH, SERVICE_UUID, self.options())))
        if reply.header.message_type == MessageType.error:
            raise BluetoothUnavailable(f"BlueZ refused the profile ({_error_text(reply)})")
        self.registered = True
        if adapters:
            self.log.info("bluetooth_ready", uuid=SERVICE_UUID, channel=RFCOMM_CHANNEL,
                          name=clean_name(self.config.box_name), adapters=adapters)
        else:
            # Registered anyway: BlueZ applies it to an adapter plugged in later.
            self.log.warning("bluetooth_no_adapter", uuid=SERVICE_UUID,
                             action="profile registered; waiting for an adapter")

    async def unregister(self) -> None:
        """Tell BlueZ we are going, without waiting for its answer: on shutdown the router's
        receiver is already cancelled, and closing the bus connection unregisters us anyway
        (BlueZ drops the profiles of a connection that leaves the bus)."""
        if not self.registered:
            return
        self.registered = False
        pm = DBusAddress("/org/bluez", bus_name=BLUEZ, interface="org.bluez.ProfileManager1")
        with contextlib.suppress(Exception):
            await self.router.send(new_method_call(pm, "UnregisterProfile", "o",
                                                   (PROFILE_PATH,)))

    async def keep_registered(self, *, task_status: trio.TaskStatus[None]) -> None:
        """Register now and again after every bluetoothd restart; one log line per outcome."""
        first = True
        last_reason = ""
        while True:
            if not self.registered:
                try:
                    await self.register()
                    last_reason = ""
                except (BluetoothUnavailable, trio.TooSlowError) as e:
                    reason = str(e) or "BlueZ did not answer"
                    if reason != last_reason:  # say it once, not on every retry
                        self.log.warning("bluetooth_unavailable", reason=reason)
                        last_reason = reason
            if first:
                task_status.started()
                first = False
            await self.changed.wait()
            self.changed = trio.Event()

    def on_owner_changed(self, new_owner: str) -> None:
        self.bluez_owner = new_owner or None
        if self.registered:
            # bluetoothd went away (or was replaced): its registrations went with it.
            self.registered = False
            self.log.warning("bluetooth_lost", action="waiting for BlueZ to come back")
        self.changed.set()

    # -- the Profile1 object ---------------------------------------------------------------
    async def serve_calls(self, calls: trio.MemoryReceiveChannel[Message]) -> None:
        async for msg in calls:
            try:
                await self.dispatch(msg)
            except Exception:
                _close_fds(msg)
                self.log.exception("bluetooth_call_failed")

    async def reply_error(self, msg: Message, name: str, text: str) -> None:
        _close_fds(msg)
        await self.router.send(new_error(msg, name, "s", (text,)))

    async def dispatch(self, msg: Message) -> None:
        f = msg.header.fields
        path, iface, member = (f.get(HeaderFields.path), f.get(HeaderFields.interface),
                               f.get(HeaderFields.member))
        if iface == "org.freedesktop.DBus.Introspectable" and member == "Introspect":
            await self.router.send(new_method_return(msg, "s", (_INTROSPECT,)))
            return
        if path != PROFILE_PATH or iface not in (PROFILE_IFACE, None):
            await self.reply_error(msg, "org.freedesktop.DBus.Error.UnknownMethod",
                                   f"no {iface}.{member} at {path}")
            return
        if f.get(HeaderFields.sender) != self.bluez_owner:
            # Only bluetoothd may hand us connections: anyone else on the bus is refused.
            await self.reply_error(msg, "org.freedesktop.DBus.Error.AccessDenied",
                                   "only BlueZ may call this profile")
            return
        if member == "NewConnection" and len(msg.body) == 3:
            await self.new_connection(msg)
        elif member == "RequestDisconnection" and len(msg.body) == 1:
            await self.disconnect(str(msg.body[0]))
            await self.router.send(new_method_return(msg))
        elif member == "Release":
            self.registered = False
            self.log.warning("bluetooth_released", action="waiting for BlueZ to come back")
            await self.router.send(new_method_return(msg))
        else:
            await self.reply_error(msg, "org.freedesktop.DBus.Error.UnknownMethod",
                                   f"no {member} on {PROFILE_IFACE}")

    async def new_connection(self, msg: Message) -> None:
        device, fd, _props = msg.body
        if not isinstance(fd, FileDescriptor):
            await self.reply_error(msg, "org.bluez.Error.Rejected", "no file descriptor")
            return
        try:
            stream = stream_from_fd(fd)
        except (OSError, ValueError, TypeError) as e:
            self.log.warning("bluetooth_bad_connection", error=str(e))
            await self.reply_error(msg, "org.bluez.Error.Rejected", "not a stream socket")
            return
        await self.router.send(new_method_return(msg))
        self.handlers.start_soon(self.run_stream, str(device), stream)

    async def run_stream(self, device: str, stream: trio.SocketStream) -> None:
        peer = peer_of(device)
        self.streams.setdefault(device, set()).add(stream)
        self.log.info("bluetooth_connected", peer=peer)
        try:
            await self.handle_stream(stream, peer)
        except Exception:
            # One bad connection must never take the profile (or the daemon) down.
            self.log.exception("bluetooth_stream_failed", peer=peer)
        finally:
            self.streams.get(device, set()).discard(stream)
            if not self.streams.get(device):
                self.streams.pop(device, None)
            with trio.CancelScope(shield=True), contextlib.suppress(Exception):
                await stream.aclose()
            self.log.info("bluetooth_disconnected", peer=peer)

    async def disconnect(self, device: str) -> None:
        for stream in list(self.streams.get(device, ())):
            with contextlib.suppress(Exception):
                await stream.aclose()


async def run_bluetooth(config: Config, handle_stream: StreamHandler, *, bus: str = "SYSTEM",
                        handler_nursery: trio.Nursery | None = None,
                        task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
    """Offer play over Bluetooth until cancelled.

    ``handle_stream(stream, peer)`` runs once per connection (in ``handler_nursery`` when
    given, so the daemon can stop accepting and still say goodbye on open connections).
    ``bus`` is "SYSTEM" (honours ``DBUS_SYSTEM_BUS_ADDRESS``) or a D-Bus address. Reports
    started after the first registration attempt, whatever its outcome.
    """
    log = get_logger("hostd.discovery.bluetooth")
    if not config.bluetooth:
        task_status.started()
        return
    async with contextlib.AsyncExitStack() as stack:
        try:
            router = await stack.enter_async_context(open_dbus_router(bus, enable_fds=True))
        except Exception as e:  # no bus socket, refused, bad address: all mean "no D-Bus"
            log.warning("bluetooth_unavailable", reason=f"no D-Bus system bus ({e})")
            task_status.started()
            return
        nursery = await stack.enter_async_context(trio.open_nursery())
        profile = Profile(router, config, handle_stream, handler_nursery or nursery)
        # The filters are left to the router to close: jeepney's receiver iterates them while
        # it closes them, so removing one during a shared cancellation raises RuntimeError.
        calls = router.filter(MatchRule(type="method_call"), bufsize=CALL_BUFFER).receive_channel
        owner_rule = MatchRule(type="signal", sender="org.freedesktop.DBus",
                               interface="org.freedesktop.DBus", member="NameOwnerChanged",
                               path="/org/freedesktop/DBus")
        owner_rule.add_arg_condition(0, BLUEZ)
        owners = router.filter(owner_rule, bufsize=16).receive_channel
        try:
            await profile.call(message_bus.AddMatch(owner_rule))
        except trio.TooSlowError:
            log.warning("bluetooth_unavailable", reason="the D-Bus system bus does not answer")
            task_status.started()
            return

        async def follow_owner() -> None:
            async for sig in owners:
                profile.on_owner_changed(str(sig.body[2]))

        try:
            nursery.start_soon(profile.serve_calls, calls)
            nursery.start_soon(follow_owner)
            await nursery.start(profile.keep_registered)
            task_status.started()
            await trio.sleep_forever()
        finally:
            with trio.CancelScope(shield=True), trio.move_on_after(CLOSE_TIMEOUT):
                await profile.unregister()
            nursery.cancel_scope.cancel()
