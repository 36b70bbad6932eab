"""Discovery: what the box tells the local network about itself, and the helpers shared by
the mDNS advertisers (``mdns`` through python-zeroconf, ``avahi`` through the system's
avahi-daemon), the Bluetooth profile (``bluetooth``).

Owns ``BoxSummary`` (the public counts the daemon hands to the advertiser), the stable box id
(generated once, kept in the data directory), the TXT records' contents, and how often they
may change (``Pending``); the service types and the TXT wire format are
``hostd.protocol.discovery``, shared with the clients' browser.

Must never put anything secret on the air: no join code, token, seat name, hand or seed. A
``BoxSummary`` is built from counts and game ids only, so a secret cannot reach a TXT record
even by mistake. This module imports only the standard library.
"""

from __future__ import annotations

import math
import os
import re
import secrets
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from hostd.protocol.discovery import (  # re-exported: hostd's modules use them from here
    HTTP_SERVICE_TYPE,
    RFCOMM_CHANNEL,
    RFCOMM_SERVICE_UUID,
    SERVICE_TYPE,
    TXT_VERSION,
    decode_txt,
    parse_txt_rdata,
)

MAX_LABEL_BYTES = 63  # a DNS label, and so an instance name, is at most 63 bytes
UPDATE_INTERVAL = 1.0  # at most one TXT update a second, whichever backend publishes
SETTLE = 0.2  # wait this long after a change, so a burst becomes one update
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


@dataclass
class Pending:
    """The counts to advertise and when they may next go out, whichever backend publishes:
    a burst of changes becomes one update, ``SETTLE`` after its first change and never sooner
    than ``UPDATE_INTERVAL`` after the last publish. The caller passes the clock."""

    summary: BoxSummary = field(default_factory=BoxSummary)
    dirty_since: float | None = None  # the first change not yet published
    last_publish: float = -math.inf

    def change(self, summary: BoxSummary, now: float) -> bool:
        """Take new counts; True if they differ from the ones held."""
        if summary == self.summary:
            return False
        self.summary = summary
        if self.dirty_since is None:
            self.dirty_since = now
        return True

    def due_at(self) -> float | None:
        """When the pending change may go out (None: nothing pending)."""
        if self.dirty_since is None:
            return None
        return max(self.dirty_since + SETTLE, self.last_publish + UPDATE_INTERVAL)

    def due(self, now: float) -> bool:
        """Nothing is held back: no change pending, or the pending one may go out now."""
        at = self.due_at()
        return at is None or now >= at

    def published(self, now: float) -> None:
        self.last_publish = now
        self.dirty_since = None


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


class _Warns(Protocol):
    def warning(self, event: str, **kw: Any) -> Any: ...


def box_id_for(data_dir: Path, log: _Warns) -> str:
    """The stable id (``load_box_id``), or a fresh one and a warning on ``log``: the box still
    advertises; its id just will not survive a restart."""
    try:
        return load_box_id(data_dir)
    except OSError as e:
        log.warning("box_id_not_saved", error=e.strerror or str(e))
        return new_box_id()


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


__all__ = [
    "HTTP_SERVICE_TYPE", "RFCOMM_CHANNEL", "RFCOMM_SERVICE_UUID", "SERVICE_TYPE", "SETTLE",
    "TXT_VERSION", "UPDATE_INTERVAL", "BoxSummary", "Pending", "box_id_for", "clean_name",
    "cut_utf8", "decode_txt", "http_txt", "instance_label", "load_box_id", "new_box_id",
    "parse_txt_rdata", "server_name", "tablebox_txt",
]
