"""The hotspot's DNS responder: any name is the box, on the hotspot only."""

from __future__ import annotations

import ipaddress
import json
import struct

from hostd.hotspot.dns import TTL, answer
from tests.hostd.hotspot.netpair import BOX_CAFE, BOX_HOTSPOT, floor

BOX = ipaddress.IPv4Address(BOX_HOTSPOT)


def query(name: str, qtype: int = 1, ident: int = 0x1234, flags: int = 0x0100) -> bytes:
    labels = b"".join(bytes([len(p)]) + p.encode() for p in name.split(".")) + b"\0"
    return struct.pack("!6H", ident, flags, 1, 0, 0, 0) + labels + struct.pack("!2H", qtype, 1)


def test_an_a_query_for_any_name_is_the_box() -> None:
    for name in ("connectivitycheck.gstatic.com", "captive.apple.com", "tablebox.local", "x"):
        reply = answer(query(name), BOX)
        assert reply is not None
        ident, flags, qd, an, ns, ar = struct.unpack("!6H", reply[:12])
        assert (ident, qd, an, ns, ar) == (0x1234, 1, 1, 0, 0)
        assert flags & 0x8000 and flags & 0x000F == 0 and flags & 0x0100  # answer, NOERROR, RD
        ttl, length = struct.unpack("!IH", reply[-10:-4])
        assert (ttl, length) == (TTL, 4) and reply[-4:] == BOX.packed


def test_other_types_have_no_records_and_junk_gets_no_answer() -> None:
    reply = answer(query("captive.apple.com", qtype=28), BOX)  # AAAA
    assert reply is not None and struct.unpack("!6H", reply[:12])[3] == 0
    assert answer(b"", BOX) is None
    assert answer(b"\x00" * 11, BOX) is None
    assert answer(query("a.b", flags=0x8100), BOX) is None  # a response, not a query
    assert answer(query("a.b")[:-3], BOX) is None  # cut short
    assert answer(b"\x00" * 600, BOX) is None  # longer than any plain query
    # Two questions: refused as a format error rather than half answered.
    two = bytearray(query("a.b"))
    two[5] = 2
    bad = answer(bytes(two), BOX)
    assert bad is not None and struct.unpack("!6H", bad[:12])[1] & 0xF == 1


ASK = """
import socket, struct, sys, json
def ask(server, name):
    labels = b"".join(bytes([len(p)]) + p.encode() for p in name.split(".")) + b"\\0"
    q = struct.pack("!6H", 7, 0x0100, 1, 0, 0, 0) + labels + struct.pack("!2H", 1, 1)
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(1.5)
    try:
        s.sendto(q, (server, 53))
        r = s.recv(512)
        return socket.inet_ntoa(r[-4:])
    except OSError as e:
        return type(e).__name__
out = {n: ask(sys.argv[1], n) for n in sys.argv[2:]}
print(json.dumps(out))
"""


def test_over_a_real_network_on_the_hotspot_side_only() -> None:
    with floor() as f:
        f.start_in_box(
            "import trio\nfrom hostd.hotspot.dns import serve_dns\n"
            "async def main():\n"
            "    async with trio.open_nursery() as n:\n"
            f"        await n.start(serve_dns, {BOX_HOTSPOT!r}, 53)\n"
            "        print('ready', flush=True)\n"
            "trio.run(main)\n", "ready")
        names = ["connectivitycheck.gstatic.com", "captive.apple.com", "www.msftconnecttest.com",
                 "tablebox.local"]
        code = ASK.replace("sys.argv[1]", repr(BOX_HOTSPOT)).replace(
            "sys.argv[2:]", repr(names))
        got = json.loads(f.run_in(f.phone, code))
        assert got == {n: BOX_HOTSPOT for n in names}
        # From the café's side the box has no DNS server: the query is refused or unanswered.
        code = ASK.replace("sys.argv[1]", repr(BOX_CAFE)).replace("sys.argv[2:]", "['a.b']")
        assert json.loads(f.run_in(f.cafe, code))["a.b"] in ("ConnectionRefusedError",
                                                              "TimeoutError")
