"""Chaos: fuzzed and mangled frames over WebSocket (``test_fuzz`` covers NDJSON over TCP).

The same hypothesis strategies as ``test_fuzz`` (random bytes, random JSON, mutations of
valid messages), sent from a seated WebSocket connection as text frames (as binary frames
when the bytes are not UTF-8): every frame that is not a valid message gets exactly one
``rejected`` with the code ``parse_client`` names (``not_text`` for binary), and the link
carries on. Then frames broken at the WebSocket layer itself (reserved bits, no mask, unknown
opcodes, long or fragmented control frames, stray continuations, invalid UTF-8, a message
over the hard limit): the link is closed, and nothing else notices. Throughout, the table
never changes and the other seat's connection is never disturbed; the daemon never dies.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench import lean
from hostd.control import request
from hostd.transports.websocket import HARD_LIMIT
from tests.hostd.chaos import WsLine, http_port
from tests.hostd.helpers import DaemonProcess, short_dir, start_process
from tests.hostd.test_fuzz import exchange, frames, fuzz_table


@pytest.fixture(scope="module")
def ws_box() -> Iterator[dict[str, Any]]:
    tmp = short_dir()
    d: DaemonProcess = start_process(tmp / "data", tmp / "c.sock", "--ai-processes", "0")
    try:
        port = http_port(d)
        b = fuzz_table(d, WsLine(port))
        yield {**b, "port": port}
        b["holder"].close()
    finally:
        d.kill()


def seated(box: dict[str, Any]) -> WsLine:
    c = WsLine(box["port"])
    c.send_obj({"type": "hello", "id": 1})
    c.send_obj({"type": "resume", "id": 2, "token": box["token"]})
    while True:  # the seat is back once its state arrives (a pong may overtake it)
        msg = c.read()
        assert msg is not None, "resume failed"
        if msg["type"] == "state":
            return c


def nothing_changed(box: dict[str, Any]) -> None:
    shown = request(box["d"].control, "tables.show", table=box["table"]["id"])
    assert shown["version"] == box["version"], "a fuzzed frame changed the table"
    got = box["holder"].until_pong()
    assert got is not None, "the other seat's connection was closed"
    assert not [m for m in got if m["type"] in ("rejected", "bye")], got


@settings(max_examples=120, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_fuzzed_frames_over_websocket_get_codes_and_change_nothing(
        ws_box: dict[str, Any], data: st.DataObject) -> None:
    batch = data.draw(st.lists(frames(ws_box["table"]["id"]), min_size=1, max_size=5))
    c = seated(ws_box)

    def send(frame: bytes, code: str | None) -> str | None:
        try:
            frame.decode("utf-8")
        except UnicodeDecodeError:
            c.send_raw(lean.ws_frame(frame, opcode=0x2))  # not text: a binary frame
            return "not_text"
        c.send(frame)
        return code

    try:
        exchange(c, batch, send)
    finally:
        c.close()
    nothing_changed(ws_box)


PING = b'{"type":"ping","id":5}'
BROKEN = {
    "reserved bit": lean.ws_frame(PING, rsv=4),
    "unmasked": lean.ws_frame(PING, mask=False),
    "unknown opcode": lean.ws_frame(PING, opcode=0x3),
    "control frame over 125 bytes": lean.ws_frame(b"x" * 200, opcode=0x9),
    "fragmented control frame": lean.ws_frame(b"x", opcode=0x9, fin=False),
    "continuation with nothing to continue": lean.ws_frame(PING, opcode=0x0),
    "new message inside a fragmented one": lean.ws_frame(b'{"type":', fin=False)
    + lean.ws_frame(PING),
    "invalid UTF-8 in a text frame": lean.ws_frame(b'\xff\xfe{"type":"ping"}'),
    "close with a reserved code": lean.ws_frame(b"\x00\x05", opcode=0x8),
    "over the hard limit": lean.ws_frame(b"y" * (HARD_LIMIT + 10)),
}


@pytest.mark.parametrize("name", list(BROKEN))
def test_frames_broken_at_the_websocket_layer_close_only_their_link(
        ws_box: dict[str, Any], name: str) -> None:
    c = seated(ws_box)
    try:
        c.send_raw(BROKEN[name])
        for _ in range(20):  # bounded: a few answers at most, then the close
            if c.read() is None:
                break
        else:
            raise AssertionError(f"{name}: the link stayed open")
        if name == "over the hard limit":
            assert c.close_code == 1009
    finally:
        c.close()
    nothing_changed(ws_box)
    fresh = seated(ws_box)  # the port still serves
    fresh.close()


def test_a_fragmented_message_is_one_frame_and_a_binary_one_is_refused(
        ws_box: dict[str, Any]) -> None:
    c = seated(ws_box)
    try:
        c.send_raw(lean.ws_frame(b'{"type":"ping",', fin=False)
                   + lean.ws_frame(b'"id":7}', opcode=0x0))
        assert c.read() == {"type": "pong", "re": 7}  # the only answer: nothing else is due
        c.send_raw(lean.ws_frame(PING, opcode=0x2))
        got = c.until_pong()
        assert got is not None and [m["code"] for m in got] == ["not_text"]
    finally:
        c.close()
    nothing_changed(ws_box)
