"""Which network interfaces and addresses the daemon uses: for mDNS,
``hostd.protocol.discovery.choose`` over the adapters ``ifaddr`` reads now (read fresh each time,
so a Wi-Fi that comes up late is picked up on the next refresh); for the "join at" address
printed at start and put in QR codes, ``join_addresses``.

It never sends a packet: the default route's source address is read by connecting a UDP socket,
which only asks the kernel's routing table.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
from collections.abc import Callable, Iterable, Sequence

import ifaddr

from hostd.protocol.discovery import EXCLUDED_PREFIXES, Interfaces, choose_among

__all__ = ["Interfaces", "choose", "default_route_address", "join_addresses"]

# Tunnels: a default route through one of these is no address for a phone on the café's Wi-Fi.
_TUNNELS = ("tun", "tap", "wg", "tailscale", "zt", "ppp")
_WILDCARDS = ("", "0.0.0.0", "::")
_PROBES: dict[int, str] = {socket.AF_INET: "192.0.2.1", socket.AF_INET6: "2001:db8::1"}  # TEST-NET, never sent


def choose(wanted: Sequence[str] = (), bind: str = "0.0.0.0",
           adapters: Iterable[ifaddr.Adapter] | None = None) -> Interfaces:
    """The interfaces for ``config.mdns_interfaces`` (``wanted``) and ``config.bind``."""
    return choose_among(wanted, bind, ifaddr.get_adapters() if adapters is None else adapters)


def default_route_address(family: int = socket.AF_INET) -> str | None:
    """The source address of the default route for ``family``, or None without one."""
    with contextlib.suppress(OSError), socket.socket(family, socket.SOCK_DGRAM) as s:
        s.connect((_PROBES[family], 9))
        return str(s.getsockname()[0])
    return None


def _usable(addr: str) -> bool:
    ip = ipaddress.ip_address(addr.split("%")[0])
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified)


def join_addresses(bind: str, adapters: Iterable[ifaddr.Adapter] | None = None,
                   route: Callable[[int], str | None] = default_route_address) -> list[str]:
    """IP literals a phone can join at, best first (the kiosk's QR code uses the first).

    The bind address when the daemon listens on one. Otherwise the default route's interface
    (unless it is a tunnel), then every other LAN address (a hotspot's among them: a box with
    no uplink has no default route), IPv6 only when bound to ``::``; addresses of container
    bridges and VPNs only when there is nothing else, and loopback only when there is nothing
    at all.
    """
    if bind not in _WILDCARDS:
        return [bind]
    found = list(ifaddr.get_adapters() if adapters is None else adapters)
    pairs: list[tuple[str, str]] = []  # (interface, address)
    for a in found:
        for ip in a.ips:
            addr = ip.ip if isinstance(ip.ip, str) else ip.ip[0] if bind == "::" else ""
            if addr and _usable(addr):
                pairs.append((str(a.name), addr))
    of = {addr: name for name, addr in pairs}
    out: list[str] = []
    for family in (socket.AF_INET, *((socket.AF_INET6,) if bind == "::" else ())):
        src = route(family)
        if src and src in of and not of[src].startswith(_TUNNELS):
            out.append(src)
    out += [a for n, a in pairs if a not in out and not n.startswith(EXCLUDED_PREFIXES)]
    out += [a for _, a in pairs if a not in out]
    return out or ["127.0.0.1"]
