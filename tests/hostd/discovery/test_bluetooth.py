"""Play over Bluetooth against a stand-in BlueZ on a private dbus-daemon.

The profile registers with the stand-in exactly as with bluetoothd, and each connection is one
end of a real ``socketpair()`` handed over as a Unix fd in ``NewConnection``; the other end
speaks the protocol through the real daemon.
"""

from __future__ import annotations

import contextlib
import random
import socket
from collections.abc import AsyncIterator, Iterator, MutableMapping
from functools import partial
from typing import Any

import pytest
import trio
from structlog.testing import capture_logs

from clients.client import Client, Disconnected, connect, connect_bluetooth, connect_stream
from hostd.config import Config
from hostd.daemon import Started
from hostd.discovery.bluetooth import RFCOMM_CHANNEL, SERVICE_UUID, run_bluetooth
from tests.hostd.discovery.bluez import is_error, private_bus, standin
from tests.hostd.helpers import play_to_end, running_daemon

DEVICE = "/org/bluez/hci0/dev_AA_BB_CC_DD_EE_01"


@pytest.fixture
def bus() -> Iterator[str]:
    with private_bus() as address:
        yield address


@pytest.fixture
def system_bus(bus: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """The private bus stands in for the system bus of the daemon under test."""
    monkeypatch.setenv("DBUS_SYSTEM_BUS_ADDRESS", bus)
    return bus


def bt_events(logs: list[MutableMapping[str, Any]]) -> list[MutableMapping[str, Any]]:
    return [e for e in logs if str(e.get("event", "")).startswith("bluetooth_")
            and e.get("log_level") in ("warning", "error")]


@contextlib.asynccontextmanager
async def bluetooth_daemon(**overrides: Any) -> AsyncIterator[Started]:
    async with running_daemon(bluetooth=True, box_name="Salle Bleue", **overrides) as started:
        yield started


async def until_closed(c: Client, timeout: float = 10.0) -> None:
    with trio.fail_after(timeout):
        while c.closed is None:
            with contextlib.suppress(Disconnected):
                await c.changed()


async def echo(seen: list[str], stream: trio.abc.Stream, peer: str) -> None:
    seen.append(peer)
    while data := await stream.receive_some(1024):
        await stream.send_all(data.upper())


async def test_profile_registers_serves_and_unregisters(bus: str) -> None:
    peers: list[str] = []
    config = Config(box_name="Salle\tBleue", bluetooth=True)
    async with standin(bus) as bluez, trio.open_nursery() as nursery:
        scope = trio.CancelScope()

        async def run(task_status: trio.TaskStatus[None]) -> None:
            with scope:
                await run_bluetooth(config, partial(echo, peers), bus=bus, task_status=task_status)

        await nursery.start(run)
        reg = bluez.profile()
        assert reg.uuid == SERVICE_UUID
        assert reg.options == {"Name": "Salle Bleue", "Role": "server", "Channel": RFCOMM_CHANNEL,
                               "RequireAuthentication": True, "RequireAuthorization": False,
                               "AutoConnect": False}

        ours, reply = await bluez.connect(DEVICE)
        assert not is_error(reply)
        await ours.send_all(b"hello\n")
        assert await ours.receive_some(100) == b"HELLO\n"
        assert peers == ["bt:AA:BB:CC:DD:EE:01"]

        # BlueZ asks us to drop that device: the connection closes.
        assert not is_error(await bluez.request_disconnection(DEVICE))
        with trio.fail_after(5):
            assert await ours.receive_some(100) == b""
        await ours.aclose()

        scope.cancel()  # shutdown: the profile is unregistered
        await bluez.wait_for(lambda: not bluez.profiles)
        assert "UnregisterProfile" in bluez.calls


async def test_only_bluez_may_hand_over_connections(bus: str) -> None:
    from jeepney import DBusAddress
    from jeepney.io.trio import open_dbus_router
    from jeepney.wrappers import new_method_call

    peers: list[str] = []
    config = Config(bluetooth=True)
    async with standin(bus) as bluez, trio.open_nursery() as nursery:
        await nursery.start(partial(run_bluetooth, config, partial(echo, peers), bus=bus))
        reg = bluez.profile()
        async with open_dbus_router(bus, enable_fds=True) as intruder:
            ours, theirs = socket.socketpair()
            with ours, theirs:
                reply = await intruder.send_and_get_reply(new_method_call(
                    DBusAddress(reg.path, bus_name=reg.owner, interface="org.bluez.Profile1"),
                    "NewConnection", "oha{sv}", (DEVICE, theirs, {})))
                theirs.close()
                assert is_error(reply, "org.freedesktop.DBus.Error.AccessDenied")
                ours.settimeout(5)
                assert ours.recv(10) == b""  # the profile closed the fd it was given
        assert peers == []
        nursery.cancel_scope.cancel()


@pytest.mark.parametrize("kind", ["pipe", "datagram"])
async def test_a_descriptor_that_is_not_a_stream_socket_is_refused_and_closed(
        bus: str, kind: str) -> None:
    import os

    peers: list[str] = []
    async with standin(bus) as bluez, trio.open_nursery() as nursery:
        await nursery.start(partial(run_bluetooth, Config(bluetooth=True), partial(echo, peers),
                                    bus=bus))
        if kind == "pipe":
            keep, give = os.pipe()
            reply = await bluez.hand_over(give, DEVICE)
            os.close(give)
            assert os.read(keep, 10) == b""  # every copy of the write end is closed
            os.close(keep)
        else:
            a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
            with a, b:
                reply = await bluez.hand_over(b, DEVICE)
        assert is_error(reply, "org.bluez.Error.Rejected")
        assert peers == []
        nursery.cancel_scope.cancel()


async def test_a_full_game_over_bluetooth(system_bus: str) -> None:
    async with standin(system_bus) as bluez, bluetooth_daemon() as started:
        assert bluez.profile().options["Name"] == "Salle Bleue"
        runner = await started.hub.create_table("euchre", levels=["random"])
        code = runner.core.meta.code
        stream, reply = await bluez.connect(DEVICE)
        assert not is_error(reply)
        async with connect_stream(stream) as c:
            assert c.welcome is not None and c.welcome.box == "Salle Bleue"
            joined = await c.join(code, "Ana")
            final = await play_to_end({joined.seat: c}, joined.table, random.Random(7))
            assert final.status == "finished" and final.outcome is not None
            assert final.seats[joined.seat].name == "Ana"


async def test_the_daemon_carries_on_without_bluez_and_uses_it_once_it_appears(
        system_bus: str) -> None:
    with capture_logs() as logs:
        async with bluetooth_daemon() as started:
            # Nobody owns org.bluez: one clear line, and TCP works as ever.
            async with connect("127.0.0.1", started.tcp_port) as c:
                assert await c.list_tables() == []
            events = bt_events(logs)
            assert [e["event"] for e in events] == ["bluetooth_unavailable"]
            assert "BlueZ is not running" in events[0]["reason"]

            async with standin(system_bus) as bluez:  # bluetoothd starts late
                await bluez.wait_for(lambda: bool(bluez.profiles))
                stream, reply = await bluez.connect(DEVICE)
                assert not is_error(reply)
                async with connect_stream(stream) as c:
                    assert c.welcome is not None
                assert [e["event"] for e in bt_events(logs)] == ["bluetooth_unavailable"]
            # bluetoothd stops again: said once, and the daemon still runs.
            with trio.fail_after(5):
                while len(bt_events(logs)) < 2:
                    await trio.sleep(0.01)
            assert bt_events(logs)[1]["event"] == "bluetooth_lost"
            async with connect("127.0.0.1", started.tcp_port) as c:
                await c.ping()


@pytest.mark.parametrize("error", ["org.bluez.Error.AlreadyExists",
                                   "org.bluez.Error.NotPermitted"])
async def test_bluez_refusing_the_profile_is_one_line(system_bus: str, error: str) -> None:
    with capture_logs() as logs:
        async with standin(system_bus, refuse=error) as bluez, bluetooth_daemon() as started:
            assert "RegisterProfile" in bluez.calls
            assert not bluez.profiles
            async with connect("127.0.0.1", started.tcp_port) as c:
                await c.ping()
    events = bt_events(logs)
    assert len(events) == 1 and events[0]["event"] == "bluetooth_unavailable"
    assert error in events[0]["reason"]


async def test_no_dbus_at_all_is_one_line(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DBUS_SYSTEM_BUS_ADDRESS", f"unix:path={tmp_path}/no-such-socket")
    with capture_logs() as logs:
        async with bluetooth_daemon() as started, connect("127.0.0.1", started.tcp_port) as c:
            await c.ping()
    events = bt_events(logs)
    assert len(events) == 1 and "no D-Bus system bus" in events[0]["reason"]


async def test_no_adapter_is_one_line_and_the_profile_waits(system_bus: str) -> None:
    with capture_logs() as logs:
        async with standin(system_bus, adapters=0) as bluez, bluetooth_daemon():
            assert bluez.profiles  # registered anyway: an adapter plugged in later is used
    assert [e["event"] for e in bt_events(logs)] == ["bluetooth_no_adapter"]


async def test_bluetoothd_restarting_registers_again(system_bus: str) -> None:
    with capture_logs() as logs:
        async with bluetooth_daemon():
            async with standin(system_bus) as bluez:
                await bluez.wait_for(lambda: bool(bluez.profiles))
            async with standin(system_bus) as again:  # a new bluetoothd, no registrations
                await again.wait_for(lambda: bool(again.profiles))
                stream, reply = await again.connect(DEVICE)
                assert not is_error(reply)
                async with connect_stream(stream) as c:
                    await c.ping()
    assert "bluetooth_lost" in [e["event"] for e in bt_events(logs)]


async def test_a_connection_dropping_mid_game_is_covered_and_resumed(system_bus: str) -> None:
    async with standin(system_bus) as bluez, bluetooth_daemon(grace_seconds=0.3) as started:
        runner = await started.hub.create_table("toy", players=2)
        table, code = runner.core.id, runner.core.meta.code
        async with connect("127.0.0.1", started.tcp_port) as watcher:
            await watcher.spectate(table)
            stream, _ = await bluez.connect(DEVICE)
            async with connect_stream(stream) as c:
                joined = await c.join(code, "Ana")
                token = joined.token
                s = await c.wait_state(table, lambda s: bool(s.legal))
                s_after = await c.intent(table, s.version, s.legal[0])
                # The phone walks out of range: the RFCOMM link just dies, no bye.
                await stream.aclose()
                await until_closed(c)
            # Grace, then the AI covers the seat and the game goes on without the phone.
            covered = await watcher.wait_state(
                table, lambda s: s.seats[joined.seat].covered and s.version > s_after.version)
            assert not covered.seats[joined.seat].connected
            stream2, _ = await bluez.connect(DEVICE)
            async with connect_stream(stream2) as back:
                again = await back.resume(token)
                assert again.seat == joined.seat
                s = await watcher.wait_state(
                    table, lambda s: s.seats[joined.seat].connected
                    and not s.seats[joined.seat].covered)
                assert s.seats[joined.seat].name == "Ana"


async def test_shutdown_unregisters_and_says_goodbye_over_bluetooth(system_bus: str) -> None:
    async with standin(system_bus) as bluez, bluetooth_daemon() as started:
        stream, _ = await bluez.connect(DEVICE)
        async with connect_stream(stream) as c:
            started.stop()
            await until_closed(c)
            assert c.bye is not None and c.bye.reason.key == "bye.restarting"
        await bluez.wait_for(lambda: not bluez.profiles)


# -- the client side: `tablebox play --bluetooth ADDR` and connect_bluetooth -------------------
async def test_the_client_refuses_a_bad_address() -> None:
    with pytest.raises(Disconnected, match="not a Bluetooth address"):
        async with connect_bluetooth("11:22:33"):
            pass


async def test_the_client_without_bluetooth_sockets_says_so(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(socket, "AF_BLUETOOTH", raising=False)
    with pytest.raises(Disconnected, match="no Bluetooth sockets"):
        async with connect_bluetooth("00:11:22:33:44:55"):
            pass


async def test_the_client_reports_the_kernel_refusing(monkeypatch: pytest.MonkeyPatch) -> None:
    # Linux's numbers, so this Python asks the real kernel even if it was built without them;
    # a machine without Bluetooth refuses the socket, one with it finds no such box.
    monkeypatch.setattr(socket, "AF_BLUETOOTH", getattr(socket, "AF_BLUETOOTH", 31),
                        raising=False)
    monkeypatch.setattr(socket, "BTPROTO_RFCOMM", getattr(socket, "BTPROTO_RFCOMM", 3),
                        raising=False)
    with pytest.raises(Disconnected, match="Bluetooth"):
        async with connect_bluetooth("00:00:00:00:00:01", timeout=5):
            pass


def test_the_play_command_gives_one_line_for_a_bad_address() -> None:
    import subprocess
    import sys
    from pathlib import Path

    out = subprocess.run([str(Path(sys.executable).parent / "tablebox"), "play", "--bluetooth",
                          "11:22", "--code", "ABCD"], capture_output=True, text=True,
                         timeout=60, check=False)
    assert out.returncode == 1
    assert out.stderr.strip().splitlines() == [
        "Error: '11:22' is not a Bluetooth address like AA:BB:CC:DD:EE:FF"]
