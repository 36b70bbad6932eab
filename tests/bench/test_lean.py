"""The lean benchmark client's framing: WebSocket frames cut and joined, and its non-blocking
links against real loopback peers (the upgrade, lines and frames in pieces, ping and close
answered, writes the kernel did not take flushed later, a peer that never reads given up).

The peer side is a plain blocking socket in the test; the client side is driven the way
``bench.loadgen`` drives it, by one epoll.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import select
import socket
import time
from collections.abc import Callable, Iterator

import pytest

from bench import lean

TEXT = b'{"type":"state","version":3}'


def server_frame(payload: bytes, opcode: int = 0x1, *, fin: bool = True, rsv: int = 0) -> bytes:
    return lean.ws_frame(payload, opcode, fin=fin, rsv=rsv, mask=False)


# -- WsParser ---------------------------------------------------------------------------------
@pytest.mark.parametrize("size", [0, 5, 125, 126, 65535, 65536, 70000])
def test_a_frame_of_every_length_form_comes_out_whole_even_a_byte_at_a_time(size: int) -> None:
    payload = bytes(i % 251 for i in range(size))
    data = server_frame(payload) + server_frame(b"next")
    whole = lean.WsParser().feed(data)
    assert whole == [(0x1, payload), (0x1, b"next")]
    p = lean.WsParser()
    got = []
    step = 1 if size < 200 else 997
    for i in range(0, len(data), step):
        got += p.feed(data[i:i + step])
    assert got == whole and not p.busy


def test_fragments_are_joined_and_control_frames_pass_between_them() -> None:
    data = (server_frame(b'{"a":', fin=False) + server_frame(b"ping!", 0x9)
            + server_frame(b"1", 0x0, fin=False) + server_frame(b"}", 0x0))
    p = lean.WsParser()
    assert p.feed(data[:-1]) == [(0x9, b"ping!")]
    assert p.busy
    assert p.feed(data[-1:]) == [(0x1, b'{"a":1}')]
    assert not p.busy


def test_a_masked_frame_is_unmasked_and_leftover_bytes_are_parsed_first() -> None:
    masked = lean.ws_frame(TEXT)
    assert masked[1] & 0x80 and TEXT not in masked
    p = lean.WsParser(masked[:3])
    assert p.feed(masked[3:]) == [(0x1, TEXT)]


@pytest.mark.parametrize("data", [
    server_frame(TEXT, rsv=4),
    server_frame(TEXT, 0x3),
    server_frame(b"x", 0xB),
    server_frame(b"x" * 126, 0x9),
    server_frame(b"x", 0x9, fin=False),
    server_frame(TEXT, 0x0),
    server_frame(b"a", fin=False) + server_frame(b"b"),
], ids=["reserved bit", "unknown data opcode", "unknown control opcode", "long control",
        "fragmented control", "continuation of nothing", "new message inside a fragmented one"])
def test_a_bad_frame_is_a_protocol_error(data: bytes) -> None:
    with pytest.raises(lean.ProtocolError):
        lean.WsParser().feed(data)


def test_a_message_over_the_limit_is_refused_before_it_is_buffered() -> None:
    p = lean.WsParser(max_message=100)
    with pytest.raises(lean.ProtocolError):
        p.feed(server_frame(b"x" * 101)[:10])
    p = lean.WsParser(max_message=100)
    with pytest.raises(lean.ProtocolError):
        p.feed(server_frame(b"x" * 60, fin=False) + server_frame(b"x" * 60, 0x0))


# -- Conn against a loopback peer ---------------------------------------------------------------
@contextlib.contextmanager
def listener(rcvbuf: int | None = None) -> Iterator[socket.socket]:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as ls:
        if rcvbuf is not None:
            ls.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        ls.bind(("127.0.0.1", 0))
        ls.listen(4)
        ls.settimeout(5)
        yield ls


def pump(poller: select.epoll, conn: lean.Conn, until: Callable[[list[bytes]], bool],
         seconds: float = 5.0) -> list[bytes]:
    """Drive ``conn`` as bench.loadgen does until ``until(frames so far)``."""
    frames: list[bytes] = []
    deadline = time.monotonic() + seconds
    while not until(frames):
        assert time.monotonic() < deadline, f"timed out with {frames!r}"
        for _, ev in poller.poll(0.05):
            if ev & select.EPOLLOUT:
                conn.on_writable()
            if ev & (select.EPOLLIN | select.EPOLLERR | select.EPOLLHUP):
                frames += conn.receive()
    return frames


def recv_exactly(peer: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = peer.recv(n - len(data))
        assert chunk, "the client closed"
        data += chunk
    return data


@contextlib.contextmanager
def tcp_link(*, first: bytes = b"", small: bool = False
             ) -> Iterator[tuple[select.epoll, lean.Conn, socket.socket]]:
    """An open NDJSON link and its peer; ``first`` was sent before it connected; ``small``
    buffers on both sides, so the kernel soon stops taking writes."""
    with listener(rcvbuf=4096 if small else None) as ls, \
            contextlib.closing(select.epoll()) as poller:
        conn = lean.open_conn("tcp", poller, ls.getsockname()[1], 0)
        try:
            if first:
                conn.send(first)  # queued until connected
            peer, _ = ls.accept()
            with peer:
                peer.settimeout(5)
                pump(poller, conn, lambda _: conn._state == lean.OPEN and not conn._out)
                if small:
                    conn.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
                yield poller, conn, peer
        finally:
            conn.close()


def test_ndjson_lines_cut_anywhere_come_out_whole() -> None:
    with tcp_link(first=b'{"type":"hello"}') as (poller, conn, peer):
        assert recv_exactly(peer, 17) == b'{"type":"hello"}\n'
        peer.sendall(b'{"a":1}\n{"b"')
        assert pump(poller, conn, lambda f: len(f) >= 1) == [b'{"a":1}']
        peer.sendall(b':2}\n{"c":3}\n')
        assert pump(poller, conn, lambda f: len(f) >= 2) == [b'{"b":2}', b'{"c":3}']
        conn.send(TEXT)
        assert recv_exactly(peer, len(TEXT) + 1) == TEXT + b"\n"
        peer.shutdown(socket.SHUT_WR)
        with pytest.raises(lean.LinkGone):
            pump(poller, conn, lambda _: False)


def test_writes_the_kernel_did_not_take_are_flushed_when_the_peer_reads() -> None:
    with tcp_link(small=True) as (poller, conn, peer):
        line = b"x" * 999
        for _ in range(300):
            conn.send(line)
        assert conn._out, "the kernel took 300 KB at once: the test proves nothing"
        got = b""
        peer.setblocking(False)
        deadline = time.monotonic() + 10
        while len(got) < 300_000:
            assert time.monotonic() < deadline
            with contextlib.suppress(BlockingIOError):
                got += peer.recv(65536)
            for _, ev in poller.poll(0.001):
                if ev & select.EPOLLOUT:
                    conn.on_writable()
        assert got == (line + b"\n") * 300
        pump(poller, conn, lambda _: not conn._out)


def test_a_peer_that_never_reads_is_given_up(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lean, "MAX_OUTBOX", 50_000)
    with tcp_link(small=True) as (_, conn, _peer), \
            pytest.raises(lean.LinkError, match="has not read"):
        for _ in range(10_000):
            conn.send(b"y" * 999)
    with pytest.raises(lean.LinkGone):
        conn.send(b"after close")


def accept_upgrade(peer: socket.socket, *, refuse: bool = False) -> None:
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = peer.recv(4096)
        assert chunk
        head += chunk
    key = next(line.split(b":", 1)[1].strip() for line in head.split(b"\r\n")
               if line.lower().startswith(b"sec-websocket-key:"))
    accept = base64.b64encode(hashlib.sha1(key + lean.WS_GUID).digest())
    if refuse:
        peer.sendall(b"HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n")
    else:
        # the first frame rides in the same segment as the answer
        peer.sendall(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                     b"Connection: Upgrade\r\nSec-WebSocket-Accept: " + accept + b"\r\n\r\n"
                     + server_frame(b'{"first":1}'))


def read_client_frame(peer: socket.socket) -> tuple[int, bytes]:
    """One frame from the client: it must be masked."""
    b0, b1 = recv_exactly(peer, 2)
    assert b1 & 0x80, "a client frame was not masked"
    n = b1 & 0x7F
    if n == 126:
        n = int.from_bytes(recv_exactly(peer, 2), "big")
    key = recv_exactly(peer, 4)
    return b0 & 0x0F, lean._mask(recv_exactly(peer, n), key)


def test_websocket_upgrade_frames_ping_and_close() -> None:
    with listener() as ls, contextlib.closing(select.epoll()) as poller:
        conn = lean.open_conn("websocket", poller, 0, ls.getsockname()[1])
        try:
            conn.send(b'{"type":"hello"}')  # queued until upgraded
            peer, _ = ls.accept()
            with peer:
                peer.settimeout(5)
                pump(poller, conn, lambda _: conn._state == lean.UPGRADING and not conn._out)
                accept_upgrade(peer)
                assert pump(poller, conn, lambda f: bool(f)) == [b'{"first":1}']
                assert read_client_frame(peer) == (0x1, b'{"type":"hello"}')
                big = b'{"pad":"' + b"p" * 2000 + b'"}'
                peer.sendall(server_frame(big))  # the 16-bit length form
                assert pump(poller, conn, lambda f: bool(f)) == [big]
                peer.sendall(server_frame(b"are you there", 0x9) + server_frame(TEXT[:5], fin=False))
                peer.sendall(server_frame(TEXT[5:], 0x0) + server_frame(b"bin", 0x2))
                assert pump(poller, conn, lambda f: bool(f)) == [TEXT]
                assert read_client_frame(peer) == (0xA, b"are you there")
                conn.send(TEXT)
                assert read_client_frame(peer) == (0x1, TEXT)
                peer.sendall(server_frame((1001).to_bytes(2, "big") + b"going away", 0x8))
                with pytest.raises(lean.LinkGone, match="close frame 1001"):
                    pump(poller, conn, lambda _: False)
                assert read_client_frame(peer) == (0x8, (1001).to_bytes(2, "big"))
        finally:
            conn.close()


def test_a_refused_upgrade_and_a_refused_connection_are_errors() -> None:
    with listener() as ls, contextlib.closing(select.epoll()) as poller:
        conn = lean.open_conn("websocket", poller, 0, ls.getsockname()[1])
        try:
            peer, _ = ls.accept()
            with peer:
                pump(poller, conn, lambda _: conn._state == lean.UPGRADING and not conn._out)
                accept_upgrade(peer, refuse=True)
                with pytest.raises(lean.LinkGone, match="403"):
                    pump(poller, conn, lambda _: False)
        finally:
            conn.close()
        port = ls.getsockname()[1]
    with contextlib.closing(select.epoll()) as poller:
        conn = lean.open_conn("tcp", poller, port, 0)  # nobody listens there any more
        try:
            with pytest.raises(ConnectionRefusedError):
                pump(poller, conn, lambda _: False)
        finally:
            conn.close()
