"""The hotspot through NetworkManager's D-Bus API, against a stand-in on a real dbus-daemon."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterator

import pytest
from jeepney.io.trio import open_dbus_router

from hostd.hotspot import HotspotError
from hostd.hotspot.nm import CONNECTION_ID, NetworkManager
from tests.hostd.discovery.bluez import private_bus
from tests.hostd.hotspot.nmstandin import Dev, standin_nm

ADDRESS = ipaddress.IPv4Interface("10.42.0.1/24")


@pytest.fixture
def bus() -> Iterator[str]:
    with private_bus() as address:
        yield address


async def test_on_asks_for_a_wpa2_access_point_and_off_takes_it_down(bus: str) -> None:
    async with standin_nm(bus) as fake, open_dbus_router(bus) as router:
        box = NetworkManager(router)
        assert (await box.status()).state == "off"
        status = await box.start("tablebox-Salle", "correct horse battery", ADDRESS)
        assert (status.state, status.interface) == ("on", "wlan0")
        asked = fake.asked[-1]
        assert asked["connection"]["id"] == ("s", CONNECTION_ID)
        assert asked["connection"]["interface-name"] == ("s", "wlan0")
        assert asked["connection"]["autoconnect"] == ("b", False)
        wifi = asked["802-11-wireless"]
        assert wifi["mode"] == ("s", "ap") and wifi["ssid"] == ("ay", b"tablebox-Salle")
        assert wifi["ap-isolation"] == ("i", 0)  # phones must reach the box
        sec = asked["802-11-wireless-security"]
        assert sec["key-mgmt"] == ("s", "wpa-psk") and sec["psk"] == ("s", "correct horse battery")
        assert sec["proto"] == ("as", ["rsn"]) and sec["pairwise"] == ("as", ["ccmp"])
        ipv4 = asked["ipv4"]
        assert ipv4["method"] == ("s", "shared")
        assert ipv4["address-data"] == ("aa{sv}", [{"address": ("s", "10.42.0.1"),
                                                    "prefix": ("u", 24)}])
        assert (await box.status()).state == "on"

        # On again: the one connection is updated and re-activated, never duplicated.
        await box.start("tablebox-Salle", "another passphrase", ADDRESS)
        assert len(fake.settings) == 1 and "Update" in fake.calls
        assert len(fake.active) == 1 and (await box.status()).state == "on"

        assert (await box.stop()).state == "off"
        assert (await box.status()).state == "off"
        assert (await box.stop()).state == "off"  # off twice is fine


@pytest.mark.parametrize(("devices", "interface", "message"), [
    ([Dev("eth0", kind=1, caps=0)], "", "no Wi-Fi device"),
    ([Dev("wlan0", caps=0x0F)], "", "wlan0 cannot be an access point"),
    ([Dev("wlan0")], "wlan1", "hotspot_interface 'wlan1': no such Wi-Fi device"),
])
async def test_missing_or_unable_devices_are_one_line(bus: str, devices: list[Dev],
                                                      interface: str, message: str) -> None:
    async with standin_nm(bus, devices=devices) as fake, open_dbus_router(bus) as router:
        with pytest.raises(HotspotError, match=message):
            await NetworkManager(router).start("n", "p" * 8, ADDRESS, interface)
        assert fake.asked == []  # nothing was asked of NetworkManager


async def test_an_activation_that_fails_is_reported(bus: str) -> None:
    async with standin_nm(bus, fail_activation=True), open_dbus_router(bus) as router:
        with pytest.raises(HotspotError, match="could not start the hotspot on wlan0"):
            await NetworkManager(router).start("n", "p" * 8, ADDRESS)


async def test_without_networkmanager_it_says_so(bus: str) -> None:
    async with open_dbus_router(bus) as router:
        with pytest.raises(HotspotError, match="NetworkManager is not running"):
            await NetworkManager(router).status()
