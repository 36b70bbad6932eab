"""The hotspot's range never collides with a network the box is on."""

from __future__ import annotations

import ipaddress
from types import SimpleNamespace

import pytest

from hostd.hotspot import HotspotError
from hostd.hotspot.addresses import CANDIDATES, choose_subnet, networks_in_use


def test_the_first_free_range_is_chosen() -> None:
    assert str(choose_subnet([])) == "10.42.0.1/24"
    assert str(choose_subnet(["10.42.0.0/24"])) == "10.43.0.1/24"
    # A café on a /8 of 10.x rules out both 10.42 and 10.43.
    assert str(choose_subnet(["10.0.0.0/8"])) == "172.31.254.1/24"
    # Every private range in use but one /24 of 10.199 left free.
    busy = ["10.0.0.0/9", "10.128.0.0/10", "10.192.0.0/14", "10.196.0.0/15", "10.198.0.0/16",
            "172.16.0.0/12", "192.168.0.0/16"]
    assert str(choose_subnet(busy)) == "10.199.42.1/24"
    with pytest.raises(HotspotError, match="hotspot_address"):
        choose_subnet(CANDIDATES)


def test_networks_in_use_skip_loopback_ipv6_and_the_hotspot_interface() -> None:
    ip = SimpleNamespace
    adapters = [
        SimpleNamespace(name="lo", nice_name="lo", ips=[ip(ip="127.0.0.1", network_prefix=8)]),
        SimpleNamespace(name="eth0", nice_name="eth0", ips=[
            ip(ip="192.168.1.20", network_prefix=24), ip(ip=("fe80::1", 0, 2), network_prefix=64)]),
        SimpleNamespace(name="wlan0", nice_name="wlan0", ips=[ip(ip="10.42.0.1", network_prefix=24)]),
    ]
    assert networks_in_use(adapters, skip="wlan0") == [ipaddress.IPv4Network("192.168.1.0/24")]
