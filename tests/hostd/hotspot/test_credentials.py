"""The hotspot's name and passphrase: made once, kept, configured ones win."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from hostd.hotspot import HotspotError
from hostd.hotspot.credentials import FILE, default_ssid, load_or_create


def test_made_once_kept_private_and_the_same_after_a_restart(tmp_path: Path) -> None:
    first = load_or_create(tmp_path, "Salle Bleue")
    assert first.ssid == "tablebox Salle Bleue"
    assert re.fullmatch(r"[a-km-np-z2-9]{4}-[a-km-np-z2-9]{4}-[a-km-np-z2-9]{4}", first.passphrase)
    kept = tmp_path / FILE
    assert kept.stat().st_mode & 0o777 == 0o600
    assert load_or_create(tmp_path, "Salle Bleue") == first
    assert load_or_create(tmp_path, "Renamed box") == first  # a printed code stays right


def test_configured_values_win_and_bad_ones_are_one_line(tmp_path: Path) -> None:
    got = load_or_create(tmp_path, "B", ssid="Café Wi-Fi", passphrase="12345678")
    assert (got.ssid, got.passphrase) == ("Café Wi-Fi", "12345678")
    with pytest.raises(HotspotError, match="8-63 printable ASCII"):
        load_or_create(tmp_path, "B", passphrase="short")
    with pytest.raises(HotspotError, match="1-32 bytes"):
        load_or_create(tmp_path, "B", ssid="x" * 33)
    (tmp_path / FILE).write_text("{not json")
    with pytest.raises(HotspotError, match="remove it to make new credentials"):
        load_or_create(tmp_path, "B")


def test_a_long_or_odd_box_name_still_makes_a_valid_ssid() -> None:
    ssid = default_ssid("Le très grand café\tdu coin de la rue")
    assert len(ssid.encode()) <= 32 and "\t" not in ssid and not ssid.endswith(" ")
    assert json.dumps(ssid)
