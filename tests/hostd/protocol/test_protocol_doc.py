"""docs/protocol.md names every code, notice, goodbye and message type the box can send, and
host messages tolerate fields added later (additive changes within one protocol version)."""

from __future__ import annotations

import re
from pathlib import Path

import msgspec

from hostd.protocol import codes
from hostd.protocol.messages import CLIENT_TYPES, HostMessage, Notice, host_decoder

ROOT = Path(__file__).resolve().parents[3]
DOC = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")


def test_every_code_is_documented() -> None:
    for name in dir(codes):
        value = getattr(codes, name)
        if name.isupper() and isinstance(value, str):
            assert f"`{value}`" in DOC, f"docs/protocol.md does not explain {value}"


def test_every_notice_and_bye_key_is_documented() -> None:
    keys: set[str] = set()
    for path in (ROOT / "hostd").rglob("*.py"):
        keys |= set(re.findall(r'"((?:notice|bye)\.[a-z_]+)"', path.read_text(encoding="utf-8")))
    keys.discard("bye.slow")  # a drop without a goodbye: never sent
    assert keys, "no keys found"
    for key in sorted(keys):
        assert f"`{key}`" in DOC, f"docs/protocol.md does not explain {key}"


def test_every_message_type_is_documented() -> None:
    host_types = [t.__struct_config__.tag for t in HostMessage.__args__]
    for kind in (*CLIENT_TYPES, *host_types):
        assert re.search(rf"\b{kind}\b", DOC), kind


def test_host_messages_accept_fields_added_later() -> None:
    frame = b'{"type":"pong","re":3,"added_in_a_later_box":true}'
    msg = host_decoder.decode(frame)
    assert msg.re == 3
    notice = host_decoder.decode(
        b'{"type":"notice","table":"1","text":{"key":"notice.x","args":{},"more":1}}')
    assert isinstance(notice, Notice) and notice.text.key == "notice.x"
    assert msgspec.json.encode(msg)
