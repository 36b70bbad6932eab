"""The Wi-Fi QR code's text: ``WIFI:T:WPA;S:<name>;P:<passphrase>;;``.

The format phone cameras read (Android since 10, iOS since 11): fields separated by ``;``,
with ``\\``, ``;``, ``,``, ``:`` and ``"`` escaped by a backslash in the name and the
passphrase. A name that looks like hexadecimal would be read as bytes by some readers, so it
is quoted. This module only builds text; it never draws and never reads the passphrase from
anywhere itself.
"""

from __future__ import annotations

import re

_SPECIAL = re.compile(r'([\\;,:"])')
_HEX = re.compile(r"[0-9A-Fa-f]+")


def escape(value: str) -> str:
    return _SPECIAL.sub(r"\\\1", value)


def payload(ssid: str, passphrase: str, *, hidden: bool = False) -> str:
    """The QR text for a WPA2-PSK network (an empty passphrase: an open network)."""
    name = escape(ssid)
    if _HEX.fullmatch(ssid):
        name = f'"{name}"'
    security = "WPA" if passphrase else "nopass"
    parts = [f"T:{security}", f"S:{name}"]
    if passphrase:
        parts.append(f"P:{escape(passphrase)}")
    if hidden:
        parts.append("H:true")
    return "WIFI:" + ";".join(parts) + ";;"


def parse(text: str) -> dict[str, str]:
    """The fields of a ``WIFI:`` text (the reader's side: tests and the doctor use it)."""
    if not text.startswith("WIFI:"):
        raise ValueError("not a WIFI: code")
    fields: dict[str, str] = {}
    key, value, escaped, in_key = "", "", False, True
    for ch in text[5:]:
        if escaped:
            value += ch
            escaped = False
        elif ch == "\\":
            escaped = True
        elif in_key and ch == ":":
            in_key = False
        elif ch == ";":
            if key:
                if len(value) >= 2 and value[0] == value[-1] == '"':
                    value = value[1:-1]
                fields[key] = value
            key, value, in_key = "", "", True
        elif in_key:
            key += ch
        else:
            value += ch
    return fields
