"""What the box's own Wi-Fi needs from the system, written by ``tablebox service install``
when the configuration turns the hotspot on: a polkit rule that lets the service user manage
NetworkManager's connections (and nothing else), and a drop-in that stops the dnsmasq that
NetworkManager runs for a shared connection from answering DNS, so that the hotspot's own
responder (hostd.hotspot.dns) can send every name to the box.

It only renders text and names paths; hostd.service writes and removes the files. It never
touches NetworkManager's other configuration.
"""

from __future__ import annotations

from pathlib import Path

POLKIT_PATH = Path("/etc/polkit-1/rules.d/50-tablebox-hotspot.rules")
DNSMASQ_PATH = Path("/etc/NetworkManager/dnsmasq-shared.d/tablebox.conf")

# Add (or update) one system connection, activate and deactivate it, share Wi-Fi with WPA2.
ACTIONS = (
    "org.freedesktop.NetworkManager.settings.modify.system",
    "org.freedesktop.NetworkManager.network-control",
    "org.freedesktop.NetworkManager.wifi.share.protected",
)

_POLKIT = """\
// tablebox: the daemon (user {user}) may add, update, start and stop NetworkManager
// connections, so that hotspot = "on" or "auto" can run the box's own Wi-Fi
// (docs/operations.md, "The box's own Wi-Fi"). Written by `tablebox service install` while
// the hotspot is configured; removed by `tablebox service uninstall`.
polkit.addRule(function (action, subject) {{
  if (subject.user == "{user}" && [{actions}].indexOf(action.id) >= 0) {{
    return polkit.Result.YES;
  }}
}});
"""

DNSMASQ = """\
# tablebox: NetworkManager's dnsmasq for a shared (hotspot) connection hands out addresses
# only; tablebox answers DNS on the hotspot address itself, with the box's address for every
# name, so a phone's captive-portal check lands on the table list. port=0 turns dnsmasq's DNS
# off; the option below still tells phones to ask the box (0.0.0.0: "this dnsmasq's address").
# Written by `tablebox service install`; removed by `tablebox service uninstall`.
port=0
dhcp-option=option:dns-server,0.0.0.0
"""


def render_polkit_rule(user: str) -> str:
    return _POLKIT.format(user=user, actions=", ".join(f'"{a}"' for a in ACTIONS))
