"""The hotspot's subnet: the first of a few private /24s that overlaps nothing the box is
already on, so phones on the hotspot and the café's own network never see the same range.

Pure: it is given the networks in use (``ifaddr`` reads them in the caller), it never reads
the system itself.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

from hostd.hotspot import HotspotError

# NetworkManager's own default for shared connections comes first (what a Pi user may have
# seen before); then ranges home routers rarely use.
CANDIDATES = ("10.42.0.0/24", "10.43.0.0/24", "172.31.254.0/24", "192.168.254.0/24",
              "10.199.42.0/24")


def choose_subnet(in_use: Iterable[ipaddress.IPv4Network | str],
                  candidates: Iterable[str] = CANDIDATES) -> ipaddress.IPv4Interface:
    """The box's hotspot address with its prefix (the first host of the chosen /24)."""
    used = [ipaddress.ip_network(n, strict=False) for n in in_use]
    used4 = [n for n in used if isinstance(n, ipaddress.IPv4Network)]
    for text in candidates:
        net = ipaddress.IPv4Network(text)
        if not any(net.overlaps(u) for u in used4):
            return ipaddress.IPv4Interface(f"{next(net.hosts())}/{net.prefixlen}")
    raise HotspotError("every hotspot address range overlaps a network the box is on: set "
                       "hotspot_address in the config to a free one")


def networks_in_use(adapters: Iterable[object], skip: str = "") -> list[ipaddress.IPv4Network]:
    """The IPv4 networks on the box's interfaces (ifaddr adapters), but ``skip``'s (the
    hotspot interface itself, whose address is ours to choose)."""
    out = []
    for adapter in adapters:
        if getattr(adapter, "nice_name", "") == skip or getattr(adapter, "name", "") == skip:
            continue
        for ip in getattr(adapter, "ips", ()):
            if isinstance(ip.ip, str) and not ip.ip.startswith("127."):
                out.append(ipaddress.IPv4Network(f"{ip.ip}/{ip.network_prefix}", strict=False))
    return out
