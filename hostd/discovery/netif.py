"""Which network interfaces mDNS uses, and which addresses the box advertises.

Owns the choice only: a pure function over ``ifaddr`` adapters (read fresh each time, so a
Wi-Fi that comes up late is picked up on the next refresh). It never opens a socket.

With no configured interfaces every interface is used except the ones that are container
bridges or VPN tunnels by name (``docker0``, ``veth*``, ``wg0``, ``tailscale0``, ...): a café
box must not announce itself into a VPN. A configured list (names like ``wlan0`` or IPv4
addresses) is used exactly. Only IPv4: every phone resolves mDNS over IPv4, and IPv6-only
café networks do not exist in practice.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import ifaddr

# Name prefixes of container, VM and VPN interfaces, skipped unless named explicitly.
EXCLUDED_PREFIXES = (
    "docker", "br-", "veth", "virbr", "vnet", "lxc", "lxd", "cni", "flannel", "cali",
    "podman", "vmnet", "vboxnet", "tun", "tap", "wg", "tailscale", "zt", "ppp",
)
_WILDCARDS = {"", "0.0.0.0", "::", "*"}


@dataclass(frozen=True)
class Interfaces:
    listen: tuple[str, ...]  # IPv4 addresses whose interfaces the mDNS sockets join
    advertise: tuple[str, ...]  # IPv4 addresses put in the box's A records
    missing: tuple[str, ...]  # configured interfaces that have no IPv4 address right now


def _is_ipv4(text: str) -> bool:
    try:
        return ipaddress.ip_address(text).version == 4
    except ValueError:
        return False


def _is_loopback(addr: str) -> bool:
    return ipaddress.ip_address(addr).is_loopback


def choose(wanted: Sequence[str] = (), bind: str = "0.0.0.0",
           adapters: Iterable[ifaddr.Adapter] | None = None) -> Interfaces:
    """The interfaces for ``config.mdns_interfaces`` (``wanted``) and ``config.bind``."""
    if adapters is None:
        adapters = ifaddr.get_adapters()
    pairs = [(a.name, ip.ip) for a in adapters for ip in a.ips
             if ip.is_IPv4 and isinstance(ip.ip, str)]
    listen: list[str] = []
    missing: list[str] = []
    if wanted:
        for w in wanted:
            found = [addr for name, addr in pairs if (addr == w if _is_ipv4(w) else name == w)]
            if not found:
                missing.append(w)
            listen.extend(a for a in found if a not in listen)
    else:
        for name, addr in pairs:
            if not name.startswith(EXCLUDED_PREFIXES) and addr not in listen:
                listen.append(addr)
    if bind not in _WILDCARDS:
        # The daemon listens on one address only: advertise that one, if mDNS reaches it.
        advertise = [bind] if bind in listen else []
    else:
        advertise = [a for a in listen if not _is_loopback(a)]
        if not advertise:
            # Only loopback (an isolated box, or a test's network namespace): say so honestly.
            advertise = list(listen)
    return Interfaces(tuple(listen), tuple(advertise), tuple(missing))
