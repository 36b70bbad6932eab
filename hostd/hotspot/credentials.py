"""The hotspot's network name and passphrase: from the config when set, else generated on
first use and kept in the data directory (``hotspot.json``, mode 0600), so the Wi-Fi QR code
printed and stuck on a table stays right across restarts and updates.

The name is ``tablebox <box name>`` cut to SSID's 32 bytes; the passphrase is 12 letters
and digits from an alphabet with no look-alikes (no 0/O, 1/l/I), in groups of four, so a
person can type it when a camera cannot read the code (about 62 bits). This module reads and
writes only that one file; it never logs the passphrase.
"""

from __future__ import annotations

import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from hostd.discovery import clean_name, cut_utf8
from hostd.hotspot import HotspotError

FILE = "hotspot.json"
SSID_MAX = 32  # bytes (IEEE 802.11)
ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"
GROUPS = 3


@dataclass(frozen=True)
class Credentials:
    ssid: str
    passphrase: str


def default_ssid(box_name: str) -> str:
    return cut_utf8(f"tablebox {clean_name(box_name)}", SSID_MAX).rstrip()


def new_passphrase() -> str:
    return "-".join("".join(secrets.choice(ALPHABET) for _ in range(4)) for _ in range(GROUPS))


def check(ssid: str, passphrase: str) -> None:
    """One readable line for a name or passphrase WPA2 would refuse."""
    if not ssid or len(ssid.encode()) > SSID_MAX:
        raise HotspotError(f"hotspot_ssid must be 1-{SSID_MAX} bytes")
    if not 8 <= len(passphrase) <= 63 or not passphrase.isascii() or not passphrase.isprintable():
        raise HotspotError("hotspot_passphrase must be 8-63 printable ASCII characters (WPA2)")


def load_or_create(data_dir: Path, box_name: str, ssid: str = "",
                   passphrase: str = "") -> Credentials:
    """The credentials to use: the configured ones win; what is missing comes from the kept
    file, or is made now and kept."""
    path = data_dir / FILE
    kept: dict[str, str] = {}
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(raw, dict):
            kept = {k: v for k, v in raw.items() if isinstance(v, str)}
    except FileNotFoundError:
        pass
    except (OSError, ValueError) as e:
        raise HotspotError(f"{path} cannot be read ({e}): remove it to make new "
                           "credentials") from None
    creds = Credentials(ssid or kept.get("ssid") or default_ssid(box_name),
                        passphrase or kept.get("passphrase") or new_passphrase())
    check(creds.ssid, creds.passphrase)
    if kept != {"ssid": creds.ssid, "passphrase": creds.passphrase} and not (
            ssid and passphrase):
        tmp = path.with_name(FILE + ".new")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump({"ssid": creds.ssid, "passphrase": creds.passphrase}, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    return creds
