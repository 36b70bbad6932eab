"""The discovery protocol: service types, the TXT record format, the Bluetooth constants,
and which interfaces mDNS speaks on.

Shared by the daemon's advertisers (``hostd.discovery``) and the clients' browser
(``clients.browse``), so both read one definition of what goes on the air. Pure: the standard
library only, no sockets; the caller reads the network adapters (``ifaddr``) and passes them
in. It must never hold anything secret (see docs/operations.md for the TXT fields).

With no configured interfaces every interface is used except the ones that are container
bridges or VPN tunnels by name (``docker0``, ``veth*``, ``wg0``, ``tailscale0``, ...): a café
box must not announce itself into a VPN. A configured list (names like ``wlan0`` or IPv4
addresses) is used exactly. Only IPv4: every phone resolves mDNS over IPv4, and IPv6-only
café networks do not exist in practice.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

# Our own Bluetooth service class UUID (random, generated once for tablebox; never change it:
# phones and clients look the box up by it).
RFCOMM_SERVICE_UUID = "6e10ac05-659b-40a1-b767-e3402edfbe4c"
# A fixed RFCOMM channel, so a client can connect without an SDP query. Chosen clear of the
# channels BlueZ's own profiles default to (1, 3, 7, 9-17).
RFCOMM_CHANNEL = 22

SERVICE_TYPE = "_tablebox._tcp.local."  # the NDJSON port
HTTP_SERVICE_TYPE = "_http._tcp.local."  # the web page (DNS-SD's type for web servers)
TXT_VERSION = "1"


class Adapter(Protocol):
    """What ``choose_among`` reads of an ``ifaddr.Adapter``."""

    @property
    def name(self) -> str: ...

    @property
    def ips(self) -> Sequence[Any]: ...


def parse_txt_rdata(rdata: bytes) -> dict[bytes, bytes | None]:
    """TXT wire format (length-prefixed strings) as ``key -> value``; ``None`` for a bare key.

    Tolerant: peers on a café network may send anything, so a truncated string ends the
    parse instead of raising, and the first occurrence of a key wins (RFC 6763 section 6.4).
    """
    out: dict[bytes, bytes | None] = {}
    i = 0
    while i < len(rdata):
        n = rdata[i]
        item = rdata[i + 1 : i + 1 + n]
        i += 1 + n
        if len(item) < n:
            break
        key, eq, value = item.partition(b"=")
        key = key.lower()
        if key and key not in out:
            out[key] = value if eq else None
    return out


def decode_txt(props: Mapping[bytes, bytes | None]) -> dict[str, str]:
    """TXT properties as text; undecodable bytes are replaced, bare keys become ``""``."""
    return {
        k.decode("utf-8", "replace").lower(): (v or b"").decode("utf-8", "replace")
        for k, v in props.items()
    }


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


def choose_among(wanted: Sequence[str], bind: str, adapters: Iterable[Adapter]) -> Interfaces:
    """The interfaces for ``config.mdns_interfaces`` (``wanted``) and ``config.bind``, among
    ``adapters`` (``ifaddr.get_adapters()``: the caller reads them, so this stays pure)."""
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
