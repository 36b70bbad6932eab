"""Discovery: what the box tells the local network about itself, and the helpers shared by
the mDNS advertiser (``mdns``), the mDNS browser (``browse``) and the Bluetooth profile
(``bluetooth``).

Owns ``BoxSummary`` (the public counts the daemon hands to the advertiser), the stable box id
(generated once, kept in the data directory), the service types and the TXT record format.

Must never put anything secret on the air: no join code, token, seat name, hand or seed. A
``BoxSummary`` is built from counts and game ids only, so a secret cannot reach a TXT record
even by mistake. This module imports only the standard library: clients import the RFCOMM
constants from here without pulling in zeroconf or jeepney.
"""

from __future__ import annotations

import os
import re
import secrets
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

# Our own Bluetooth service class UUID (random, generated once for tablebox; never change it:
# phones and clients look the box up by it).
RFCOMM_SERVICE_UUID = "6e10ac05-659b-40a1-b767-e3402edfbe4c"
# A fixed RFCOMM channel, so a client can connect without an SDP query. Chosen clear of the
# channels BlueZ's own profiles default to (1, 3, 7, 9-17).
RFCOMM_CHANNEL = 22

SERVICE_TYPE = "_tablebox._tcp.local."  # the NDJSON port
HTTP_SERVICE_TYPE = "_http._tcp.local."  # the web page (DNS-SD's type for web servers)
TXT_VERSION = "1"
MAX_LABEL_BYTES = 63  # a DNS label, and so an instance name, is at most 63 bytes
MAX_GAMES_BYTES = 200  # the games= entry stays well inside one 255-byte TXT string
DEFAULT_BOX_NAME = "tablebox"
BOX_ID_FILE = "box-id"
_BOX_ID = re.compile(r"[0-9a-f]{16}")


class _TableLike(Protocol):
    """What ``BoxSummary.of_tables`` reads from a table: ``TableSummary`` has it."""

    @property
    def game(self) -> str: ...

    @property
    def free_seats(self) -> int: ...

    @property
    def status(self) -> str: ...


@dataclass(frozen=True)
class BoxSummary:
    """Public counts about the box's tables, as advertised in TXT records.

    ``games`` are the distinct game ids of the open tables, sorted. There is deliberately no
    field for a table id, a join code or a player's name.
    """

    open_tables: int = 0
    free_seats: int = 0
    games: tuple[str, ...] = ()

    @classmethod
    def of_tables(cls, tables: Iterable[_TableLike]) -> BoxSummary:
        """Summarize the daemon's tables; closed tables do not count as open."""
        open_ = [t for t in tables if t.status != "closed"]
        return cls(
            open_tables=len(open_),
            free_seats=sum(max(0, t.free_seats) for t in open_),
            games=tuple(sorted({t.game for t in open_})),
        )


def cut_utf8(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` UTF-8 bytes, never inside a character.

    A combining mark left dangling at the cut is dropped with its base, so a cut never
    leaves half of an accented letter.
    """
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text
    cut = data[:limit].decode("utf-8", "ignore")
    # Drop the last base character too if the cut separated it from its combining marks.
    while cut and len(cut) < len(text) and unicodedata.combining(text[len(cut)]):
        cut = cut[:-1]
    return cut


def clean_name(name: str) -> str:
    """A box name fit for the air: no control characters, single spaces, 63 bytes at most."""
    printable = "".join(" " if unicodedata.category(ch)[0] == "C" else ch for ch in name)
    collapsed = " ".join(printable.split())
    return cut_utf8(collapsed, MAX_LABEL_BYTES).rstrip() or DEFAULT_BOX_NAME


def instance_label(name: str, number: int = 1) -> str:
    """The DNS-SD instance name for the ``number``-th choice: ``name``, ``name (2)``, ...

    The suffix always fits: the name is cut to leave room for it. A dot becomes U+2024 (one
    dot leader): zeroconf writes names label by label without escaping, so "No.5" would
    otherwise turn into two labels.
    """
    base = clean_name(name.replace(".", "\u2024"))
    if number <= 1:
        return base
    suffix = f" ({number})"
    return cut_utf8(base, MAX_LABEL_BYTES - len(suffix)).rstrip() + suffix


def new_box_id() -> str:
    return secrets.token_hex(8)


def load_box_id(data_dir: Path) -> str:
    """The box's stable id, generated on first use and kept in ``data_dir/box-id``.

    The id is public (it only tells two boxes apart, and one box across restarts and
    renames). A file that is unreadable as an id is replaced. Raises OSError when the
    directory cannot be written.
    """
    path = data_dir / BOX_ID_FILE
    try:
        existing = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        existing = ""
    if _BOX_ID.fullmatch(existing):
        return existing
    box_id = new_box_id()
    data_dir.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{BOX_ID_FILE}.{os.getpid()}")
    tmp.write_text(box_id + "\n", encoding="ascii")
    os.replace(tmp, path)  # atomic: a crash never leaves half an id
    return box_id


def server_name(box_id: str) -> str:
    """The box's own mDNS host name: unique per box, so it never collides with the
    machine's avahi host name (``raspberrypi.local``) or with another box."""
    return f"tablebox-{box_id[:8]}.local."


def _games_field(games: Iterable[str]) -> str:
    out = ""
    for g in games:
        candidate = f"{out},{g}" if out else g
        if len(candidate.encode("utf-8")) > MAX_GAMES_BYTES:
            break  # a prefix of whole ids: never half a game id
        out = candidate
    return out


def tablebox_txt(*, box_id: str, name: str, software: str, protocol: int,
                 summary: BoxSummary) -> dict[str, str]:
    """The TXT record of the ``_tablebox._tcp`` service (see docs/operations.md)."""
    return {
        "txtvers": TXT_VERSION,
        "id": box_id,
        "name": clean_name(name),
        "ver": software,
        "proto": str(protocol),
        "tables": str(summary.open_tables),
        "free": str(summary.free_seats),
        "games": _games_field(summary.games),
    }


def http_txt(*, box_id: str, name: str) -> dict[str, str]:
    """The TXT record of the ``_http._tcp`` service: DNS-SD's ``path`` plus our id and name."""
    return {"txtvers": TXT_VERSION, "path": "/", "id": box_id, "name": clean_name(name)}


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
