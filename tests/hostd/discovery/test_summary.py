"""The pure parts of discovery: names cut for the air, the box id, TXT records in and out,
and the choice of interfaces. No sockets here; the network tests are in test_mdns.py."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from pathlib import Path

import ifaddr
import pytest
from zeroconf import ServiceInfo

from clients.browse import box_from_info
from hostd.discovery import (
    MAX_LABEL_BYTES,
    SERVICE_TYPE,
    BoxSummary,
    clean_name,
    cut_utf8,
    decode_txt,
    instance_label,
    load_box_id,
    netif,
    parse_txt_rdata,
    tablebox_txt,
)
from hostd.protocol.messages import TableSummary


@pytest.mark.parametrize("text", ["tablebox", "Café Corner", "مقهى الزاوية " * 8,
                                  "咖啡角" * 30, "🂡🂱" * 40, "e\u0301" * 50, "x" * 80])
def test_cut_utf8_keeps_whole_characters(text: str) -> None:
    for limit in range(0, 70):
        cut = cut_utf8(text, limit)
        assert len(cut.encode()) <= limit
        assert text.startswith(cut)
        if len(cut) < len(text):
            # never a base letter torn from its accent
            assert not unicodedata.combining(text[len(cut)])
    assert cut_utf8(text, 10_000) == text


def test_names_for_the_air() -> None:
    assert clean_name("  Café\tCorner\n ") == "Café Corner"
    assert clean_name("\x00\x07") == "tablebox"
    assert instance_label("Corner") == "Corner"
    assert instance_label("Corner", 2) == "Corner (2)"
    assert instance_label("No.5") == "No\u20245"  # no dot: zeroconf would split the label
    long = "é" * 60
    for n in (1, 2, 10, 100):
        label = instance_label(long, n)
        assert len(label.encode()) <= MAX_LABEL_BYTES
        assert label.endswith(f" ({n})") or n == 1


def test_box_id_is_generated_once(tmp_path: Path) -> None:
    data = tmp_path / "state"
    first = load_box_id(data)
    assert len(first) == 16 and int(first, 16) >= 0
    assert load_box_id(data) == first
    (data / "box-id").write_text("not an id\n")
    replaced = load_box_id(data)
    assert replaced != first and load_box_id(data) == replaced
    assert [p.name for p in data.iterdir()] == ["box-id"]  # no temporary file left behind


def test_box_id_in_an_unwritable_place_raises(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(OSError):
        load_box_id(blocker / "state")


def test_summary_counts_never_carry_a_code() -> None:
    tables = [
        TableSummary(id="t1", code="ZX81QK", name="Ana's table", game="euchre", title="Euchre",
                     players=4, free_seats=2, status="playing"),
        TableSummary(id="t2", code="PQ77RM", name="x", game="sequence", title="Sequence",
                     players=2, free_seats=1, status="finished"),
        TableSummary(id="t3", code="AB12CD", name="y", game="president", title="President",
                     players=4, free_seats=4, status="closed"),
    ]
    s = BoxSummary.of_tables(tables)
    assert s == BoxSummary(open_tables=2, free_seats=3, games=("euchre", "sequence"))
    txt = tablebox_txt(box_id="0" * 16, name="Box", software="0.1.0", protocol=1, summary=s)
    blob = repr(txt)
    for secret in ("ZX81QK", "PQ77RM", "AB12CD", "t1", "Ana"):
        assert secret not in blob
    assert txt["tables"] == "2" and txt["free"] == "3" and txt["games"] == "euchre,sequence"
    assert next(iter(txt)) == "txtvers"
    assert all(len(f"{k}={v}".encode()) <= 255 for k, v in txt.items())


def test_many_games_are_cut_on_whole_ids() -> None:
    games = tuple(f"game{i:03d}" for i in range(100))
    txt = tablebox_txt(box_id="0" * 16, name="Box", software="0", protocol=1,
                       summary=BoxSummary(100, 100, games))
    listed = txt["games"].split(",")
    assert listed == list(games[: len(listed)]) and len(txt["games"]) <= 200


def test_txt_parsing_tolerates_garbage() -> None:
    raw = bytes([7]) + b"txtvers" + bytes([5]) + b"ID=ab" + bytes([5]) + b"id=zz" \
        + bytes([3]) + b"=no" + bytes([4]) + b"\xff\xfe=1" + bytes([40]) + b"short"
    props = parse_txt_rdata(raw)
    assert props[b"txtvers"] is None and props[b"id"] == b"ab"  # first occurrence wins
    assert b"" not in props
    text = decode_txt(props)
    assert text["txtvers"] == "" and text["id"] == "ab" and "\ufffd\ufffd" in text


def _info(props: Mapping[bytes, bytes | None] | Mapping[str, str], port: int | None = 7420
          ) -> ServiceInfo:
    return ServiceInfo(SERVICE_TYPE, f"Corner (2).{SERVICE_TYPE}", port=port, properties=dict(props),
                       server="tablebox-00000000.local.", parsed_addresses=["192.0.2.7"])


def test_found_box_from_records() -> None:
    box = box_from_info(_info({"txtvers": "1", "id": "ab" * 8, "name": "Corner", "ver": "0.1.0",
                               "proto": "1", "tables": "2", "free": "5", "games": "a,b"}))
    assert box is not None
    assert (box.instance, box.name, box.box_id, box.port) == ("Corner (2)", "Corner", "ab" * 8,
                                                              7420)
    assert (box.open_tables, box.free_seats, box.games, box.protocol) == (2, 5, ("a", "b"), 1)
    assert box.addresses == ("192.0.2.7",) and box.web_url() is None


def test_found_box_from_hostile_records() -> None:
    box = box_from_info(_info({b"tables": b"-1", b"free": b"\xd9\xa3", b"proto": b"9" * 40}))
    assert box is not None
    assert box.open_tables is None and box.free_seats is None and box.protocol is None
    assert box.name == "Corner (2)" and box.box_id == ""
    assert box_from_info(_info({}, port=None)) is None


def _adapter(name: str, *ips: str, index: int = 1) -> ifaddr.Adapter:
    return ifaddr.Adapter(name, name, [ifaddr.IP(ip, 24, name) for ip in ips], index)


ADAPTERS = [
    _adapter("lo", "127.0.0.1"),
    _adapter("eth0", "192.168.1.20"),
    _adapter("wlan0", "10.0.0.5"),
    _adapter("docker0", "172.17.0.1"),
    _adapter("wg0", "10.8.0.2"),
    _adapter("veth12ab", "169.254.3.3"),
]


def test_interfaces_default_skips_containers_and_vpns() -> None:
    ifs = netif.choose((), "0.0.0.0", ADAPTERS)
    assert ifs.listen == ("127.0.0.1", "192.168.1.20", "10.0.0.5")
    assert ifs.advertise == ("192.168.1.20", "10.0.0.5")
    assert ifs.missing == ()


def test_interfaces_configured_exactly() -> None:
    ifs = netif.choose(("wlan0", "wg0", "192.168.1.20", "eth9"), "0.0.0.0", ADAPTERS)
    assert ifs.listen == ("10.0.0.5", "10.8.0.2", "192.168.1.20")
    assert ifs.missing == ("eth9",)
    only_lo = netif.choose(("lo",), "0.0.0.0", ADAPTERS)
    assert only_lo.listen == ("127.0.0.1",) and only_lo.advertise == ("127.0.0.1",)


def test_interfaces_follow_a_specific_bind_address() -> None:
    assert netif.choose((), "10.0.0.5", ADAPTERS).advertise == ("10.0.0.5",)
    assert netif.choose((), "172.17.0.1", ADAPTERS).advertise == ()  # not on an mDNS interface

