"""A property-based fuzz of frames over real TCP against a daemon subprocess.

Hypothesis sends random bytes, random JSON and mutations of valid messages from a seated
connection. Every frame that is not a valid message must get exactly one ``rejected`` with
the code and the request id ``parse_client`` (the reference) names; valid ones get some
answer; the link
carries on (a ping still answers); and at the end the table has not changed at all and the
other seat's connection was never disturbed.
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hostd.control import request
from hostd.protocol.framing import FrameError, parse_client
from hostd.protocol.messages import MAX_FRAME, PROTOCOL_VERSION, ClientBye, Hello
from tests.hostd.helpers import DaemonProcess, short_dir, start_process


class Line:
    """A blocking NDJSON connection (the fuzzer's side of the wire)."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        self.buf = b""
        self.next_id = 1000

    def send(self, frame: bytes) -> None:
        self.sock.sendall(frame + b"\n")

    def send_obj(self, obj: dict[str, Any]) -> None:
        self.send(json.dumps(obj).encode())

    def read(self) -> dict[str, Any] | None:
        while b"\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                return None
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        msg: dict[str, Any] = json.loads(line)
        return msg

    def until_pong(self) -> list[dict[str, Any]] | None:
        """Ping; everything that arrives before the pong (None if the link closed)."""
        self.next_id += 1
        self.send_obj({"type": "ping", "id": self.next_id})
        got: list[dict[str, Any]] = []
        while True:
            msg = self.read()
            if msg is None:
                return None
            if msg["type"] == "pong" and msg.get("re") == self.next_id:
                return got
            got.append(msg)

    def close(self) -> None:
        self.sock.close()


@pytest.fixture(scope="module")
def box() -> Iterator[dict[str, Any]]:
    tmp = short_dir()
    d: DaemonProcess = start_process(tmp / "data", tmp / "c.sock", "--ai-processes", "0")
    try:
        b = fuzz_table(d, Line(d.tcp_port))
        yield b
        b["holder"].close()
    finally:
        d.kill()


def fuzz_table(d: DaemonProcess, fuzzer: Line) -> dict[str, Any]:
    """A toy table: seat 0 held (over TCP) by a connection that never moves, seat 1 joined
    through ``fuzzer`` (then closed) so a fuzzing connection can resume it by token."""
    t = request(d.control, "tables.new", game="toy", players=2)
    holder = Line(d.tcp_port)  # seat 0, whose turn it is, never moves
    holder.send_obj({"type": "hello", "id": 1})
    holder.send_obj({"type": "join", "id": 2, "code": t["code"], "name": "Holder", "seat": 0})
    fuzzer.send_obj({"type": "hello", "id": 1})
    fuzzer.send_obj({"type": "join", "id": 2, "code": t["code"], "name": "Fuzz", "seat": 1})
    token = None
    while token is None:
        msg = fuzzer.read()
        assert msg is not None
        if msg["type"] == "joined":
            token = msg["token"]
    fuzzer.close()
    assert holder.until_pong() is not None
    version = request(d.control, "tables.show", table=t["id"])["version"]
    return {"d": d, "table": t, "token": token, "holder": holder, "version": version}


def valid_messages(table: str) -> list[dict[str, Any]]:
    return [
        {"type": "hello", "id": 3, "protocol": PROTOCOL_VERSION, "client": "fuzz", "lang": "en"},
        {"type": "list_tables", "id": 4},
        {"type": "join", "id": 5, "code": "ZZZZ", "name": "x", "seat": 1},
        {"type": "spectate", "id": 6, "table": table},
        {"type": "intent", "id": 7, "table": table, "version": 3,
         "action": {"type": "play", "card": "AS"}, "seat": 1},
        {"type": "ping", "id": 8},
    ]


def _nest(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    # A named function, not a lambda: hypothesis reads its source to check it recurses.
    return st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                         max_size=4)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False)
    | st.text(max_size=12),
    _nest,
    max_leaves=10,
)


@st.composite
def mutated(draw: st.DrawFn, table: str) -> bytes:
    msg = dict(draw(st.sampled_from(valid_messages(table))))
    how = draw(st.sampled_from(["drop", "set", "add", "retag", "action"]))
    keys = [k for k in msg if k != "type"]
    if how == "drop" and keys:
        del msg[draw(st.sampled_from(keys))]
    elif how == "set" and keys:
        msg[draw(st.sampled_from(keys))] = draw(json_values)
    elif how == "add":
        msg[draw(st.text(min_size=1, max_size=6))] = draw(json_values)
    elif how == "retag":
        msg["type"] = draw(st.sampled_from(["intent", "join", "resume", "spectate", "nope",
                                            "Hello", "", "pong"]))
    elif how == "action" and "action" in msg:
        msg["action"] = draw(json_values)
    return json.dumps(msg).encode()


def frames(table: str) -> st.SearchStrategy[bytes]:
    return st.one_of(
        st.binary(max_size=120),
        json_values.map(lambda v: json.dumps(v).encode()),
        mutated(table),
        st.just(b"y" * (MAX_FRAME + 10)),
    ).map(lambda f: f.replace(b"\n", b" ").replace(b"\r", b" "))


def expected(frame: bytes) -> str | None:
    """The code a bad frame must get, or None for a valid message."""
    try:
        parse_client(frame)
    except FrameError as e:
        return e.code
    return None


def expected_re(frame: bytes) -> int | None:
    """The request id a bad frame's rejection must name (None: it had none to read)."""
    try:
        parse_client(frame)
    except FrameError as e:
        return e.re
    return None


def exchange(c: Line, batch: list[bytes],
             send: Callable[[bytes, str | None], str | None]) -> None:
    """Send each frame with ``send`` (given the code ``parse_client`` names, it returns the
    code the transport must answer with) and check the answers: exactly that ``rejected``
    for a bad frame, and the link still answering a ping after each (also used over
    WebSocket by ``test_chaos_fuzz_ws``)."""
    # A valid request goes to its table's task, which answers when it gets to it; the ping
    # is answered by the session at once. So a table's answer may come after the pong, in
    # the next frame's answers: it names its request (``re``), which tells it apart.
    asked: set[int] = set()
    for frame in batch:
        if not frame.strip():
            continue
        code = expected(frame)
        parsed_code = code
        if code is None:
            parsed = parse_client(frame)
            if isinstance(parsed, ClientBye) or (isinstance(parsed, Hello)
                                                 and parsed.protocol != PROTOCOL_VERSION):
                break  # the session ends, as asked
            request_id = getattr(parsed, "id", None)
            if request_id is not None:
                asked.add(request_id)
        code = send(frame, code)
        got = c.until_pong()
        assert got is not None, f"the link died after {frame[:60]!r}"
        if code is None and getattr(parse_client(frame), "id", None) is None:
            # A request without an id: its late answer could not be told apart, so give
            # its table the time to answer before the next frame.
            time.sleep(0.05)
            more = c.until_pong()
            assert more is not None, f"the link died after {frame[:60]!r}"
            got += more
        rejected = [m for m in got if m["type"] == "rejected"]
        if code is not None:
            # The transport may refuse a frame before it is read (binary over WebSocket):
            # then no id could be read either.
            want_re = expected_re(frame) if code == parsed_code else None
            if want_re is not None and want_re in asked:
                # A valid request had the same id: its late answer may come now as well.
                assert any(m["code"] == code and m["re"] == want_re for m in rejected), got
            else:
                mine = [m for m in rejected if m["re"] is None or m["re"] not in asked]
                assert [(m["code"], m["re"]) for m in mine] == [(code, want_re)], \
                    (frame[:80], got)
        for m in rejected:
            assert m["message"]["key"] == "error." + m["code"]


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_fuzzed_frames_are_answered_with_codes_and_change_nothing(
        box: dict[str, Any], data: st.DataObject) -> None:
    table = box["table"]["id"]
    batch = data.draw(st.lists(frames(table), min_size=1, max_size=5))
    c = Line(box["d"].tcp_port)
    try:
        c.send_obj({"type": "hello", "id": 1})
        c.send_obj({"type": "resume", "id": 2, "token": box["token"]})
        assert c.until_pong() is not None
        def send(frame: bytes, code: str | None) -> str | None:
            c.send(frame)
            return code

        exchange(c, batch, send)
    finally:
        c.close()
    shown = request(box["d"].control, "tables.show", table=table)
    assert shown["version"] == box["version"], "a fuzzed frame changed the table"
    holder = box["holder"]
    got = holder.until_pong()
    assert got is not None
    assert not [m for m in got if m["type"] in ("rejected", "bye")], got
