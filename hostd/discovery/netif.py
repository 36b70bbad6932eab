"""Which network interfaces the daemon's mDNS uses: ``hostd.protocol.discovery.choose`` over
the adapters ``ifaddr`` reads now (read fresh each time, so a Wi-Fi that comes up late is
picked up on the next refresh). It never opens a socket.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import ifaddr

from hostd.protocol.discovery import Interfaces, choose_among

__all__ = ["Interfaces", "choose"]


def choose(wanted: Sequence[str] = (), bind: str = "0.0.0.0",
           adapters: Iterable[ifaddr.Adapter] | None = None) -> Interfaces:
    """The interfaces for ``config.mdns_interfaces`` (``wanted``) and ``config.bind``."""
    return choose_among(wanted, bind, ifaddr.get_adapters() if adapters is None else adapters)
