"""The daemon's hotspot task against the stand-in NetworkManager: modes, the override, the
DNS and portal it serves while up, and failures as one reason in the status."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
import trio

from hostd.hotspot import wifiqr
from hostd.hotspot.service import Hotspot, Settings
from tests.hostd.discovery.bluez import private_bus
from tests.hostd.hotspot.nmstandin import Dev, standin_nm
from tests.hostd.hotspot.test_dns import query

# A loopback address stands in for the one NetworkManager would put on the Wi-Fi interface.
ADDRESS = "127.42.0.1/24"


@pytest.fixture
def bus() -> Iterator[str]:
    with private_bus() as address:
        yield address


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.42.0.1", 0))
        return int(s.getsockname()[1])


async def ask_dns(port: int) -> bytes:
    sock = trio.socket.socket(trio.socket.AF_INET, trio.socket.SOCK_DGRAM)
    with sock:
        await sock.sendto(query("connectivitycheck.gstatic.com"), ("127.42.0.1", port))
        with trio.fail_after(3):
            data: bytes = await sock.recv(512)
            return data


async def get_portal(port: int) -> bytes:
    stream = await trio.open_tcp_stream("127.42.0.1", port)
    async with stream:
        await stream.send_all(b"GET /generate_204 HTTP/1.1\r\nHost: x\r\n\r\n")
        with trio.fail_after(3):
            data = b""
            while chunk := await stream.receive_some(4096):
                data += chunk
            return data


async def test_on_serves_dns_and_portal_and_off_stops_them(bus: str, tmp_path: Path) -> None:
    dns_port, portal_port = free_port(), free_port()
    settings = Settings(mode="on", address=ADDRESS, dns_port=dns_port, portal_port=portal_port)
    async with standin_nm(bus) as fake, trio.open_nursery() as nursery:
        hotspot = Hotspot(settings, tmp_path, "Salle Bleue", 8080, bus=bus)
        await nursery.start(hotspot.run)
        st = hotspot.status()
        assert (st["state"], st["ssid"], st["address"], st["interface"]) == (
            "on", "tablebox Salle Bleue", "127.42.0.1", "wlan0")
        assert st["page"] == "http://127.42.0.1:8080/"
        fields = wifiqr.parse(st["wifi"])
        assert fields["S"] == "tablebox Salle Bleue"
        assert fields["P"] == fake.asked[-1]["802-11-wireless-security"]["psk"][1]
        reply = await ask_dns(dns_port)
        assert reply[-4:] == socket.inet_aton("127.42.0.1")
        page = await get_portal(portal_port)
        assert page.startswith(b"HTTP/1.1 302") and b"Location: http://127.42.0.1:8080/" in page

        st = await hotspot.set_mode("off")
        assert st["state"] == "off" and "wifi" not in st and fake.active == {}
        with pytest.raises(OSError):
            await (await trio.open_tcp_stream("127.42.0.1", portal_port)).send_all(b"x")
        st = await hotspot.set_mode("on")
        assert st["state"] == "on" and len(fake.settings) == 1
        nursery.cancel_scope.cancel()


async def test_auto_follows_whether_another_network_is_up(bus: str, tmp_path: Path) -> None:
    settings = Settings(mode="auto", address=ADDRESS, dns_port=free_port(),
                        portal_port=free_port())
    async with standin_nm(bus, primary="/org/freedesktop/NetworkManager/ActiveConnection/99"
                          ) as fake, trio.open_nursery() as nursery:
        hotspot = Hotspot(settings, tmp_path, "B", 8080, bus=bus)
        await nursery.start(hotspot.run)
        assert hotspot.status()["state"] == "off"
        assert "another network is up" in hotspot.status()["reason"]
        assert hotspot.status()["fault"] is False  # a choice, not a failure: doctor says ok
        fake.primary = "/"  # the café's network went away
        hotspot.poke.set()
        with trio.fail_after(5):
            while hotspot.status()["state"] != "on":
                await trio.sleep(0.05)
        nursery.cancel_scope.cancel()


async def test_failures_are_a_reason_not_a_crash(bus: str, tmp_path: Path) -> None:
    async with standin_nm(bus, devices=[Dev("eth0", kind=1, caps=0)]), \
            trio.open_nursery() as nursery:
        hotspot = Hotspot(Settings(mode="on", address=ADDRESS), tmp_path, "B", 8080, bus=bus)
        await nursery.start(hotspot.run)
        assert hotspot.status() == {"state": "off", "mode": "on", "fault": True,
                                    "reason": hotspot.status()["reason"]}
        assert hotspot.status()["reason"].startswith("no Wi-Fi device")
        nursery.cancel_scope.cancel()
    # No NetworkManager at all, and no bus at all.
    async with trio.open_nursery() as nursery:
        hotspot = Hotspot(Settings(mode="on"), tmp_path, "B", 8080, bus=bus)
        await nursery.start(hotspot.run)
        assert "NetworkManager is not running" in hotspot.status()["reason"]
        assert hotspot.status()["fault"] is True
        hotspot2 = Hotspot(Settings(mode="on"), tmp_path, "B", 8080,
                           bus="unix:path=/nonexistent/bus")
        await nursery.start(hotspot2.run)
        assert hotspot2.status()["reason"].startswith("no D-Bus system bus")
        assert hotspot2.status()["fault"] is True
        nursery.cancel_scope.cancel()


def test_off_needs_nothing() -> None:
    hotspot = Hotspot(Settings(), Path("."), "B", 8080)
    assert hotspot.status() == {"state": "off", "mode": "off", "fault": False,
                                "reason": 'hotspot = "off" in the config'}
