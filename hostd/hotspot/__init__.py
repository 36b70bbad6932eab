"""The box's own Wi-Fi: an access point through NetworkManager, the Wi-Fi QR code, and the
pieces that make a phone joining it open the box's page by itself.

- ``wifiqr``: the ``WIFI:`` text phone cameras understand (escaping included).
- ``addresses``: a hotspot subnet that never collides with the networks the box is on.
- ``dns``: a tiny DNS responder answering every name with the box's hotspot address, bound
  to that address only, so it never answers on any other interface.
- ``portal``: the answers to the operating systems' connectivity checks that make a phone
  open its captive-portal sheet on the box's page, given only on the hotspot address.
- ``nm``: NetworkManager over D-Bus (jeepney): find a Wi-Fi device that can be an access
  point, add and activate the hotspot connection, take it down, report its state.

None of this decides anything about a table, and nothing here runs on an interface other
than the hotspot's.
"""

from __future__ import annotations


class HotspotError(Exception):
    """The hotspot cannot be brought up or down; ``str(e)`` is one line for a person."""
