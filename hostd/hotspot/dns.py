"""A DNS responder for the hotspot: every name is the box.

A phone that joins the box's Wi-Fi gets this responder as its DNS server (DHCP option 6);
whatever it asks (its vendor's connectivity-check host, a `.local` name Android cannot
resolve, a typo) resolves to the box's hotspot address, so the captive-portal sheet opens
the box's page. It answers A queries of class IN with that one address (TTL 10 s, as RFC
8910's captive-portal advice and short DHCP leases suggest), AAAA and every other type with
no records (NOERROR: the name exists, only as IPv4), and anything it cannot read not at all.

It is bound to the hotspot address only: it never answers on another interface. It never
resolves anything upstream, keeps no state between queries, and logs nothing a query says
above debug.
"""

from __future__ import annotations

import ipaddress
import struct

import trio

from hostd.logs import get_logger

TTL = 10
MAX_QUERY = 512  # plain DNS over UDP; longer datagrams are not queries a phone sends
TYPE_A = 1
CLASS_IN = 1
_FLAGS_OK = 0x8400 | 0x0080  # response, authoritative, recursion available (a stub expects it)
_NOTIMP = 4
_FORMERR = 1


def _question_end(packet: bytes) -> int | None:
    """The offset just past the first question's name, or None if it cannot be read."""
    i = 12
    while i < len(packet):
        n = packet[i]
        if n == 0:
            return i + 1
        if n & 0xC0:  # a pointer has no place in a question's first name
            return None
        i += 1 + n
    return None


def answer(packet: bytes, address: ipaddress.IPv4Address) -> bytes | None:
    """The reply to one query datagram, or None to stay silent (not a query, unreadable)."""
    if len(packet) < 12 or len(packet) > MAX_QUERY:
        return None
    ident, flags, qdcount, ancount, nscount, _arcount = struct.unpack("!6H", packet[:12])
    if flags & 0x8000 or ancount or nscount:  # a response, or not a plain question
        return None
    opcode = (flags >> 11) & 0xF
    rd = flags & 0x0100
    if qdcount != 1 or opcode != 0:
        code = _NOTIMP if opcode else _FORMERR
        return struct.pack("!6H", ident, 0x8000 | (opcode << 11) | rd | code, 0, 0, 0, 0)
    end = _question_end(packet)
    if end is None or end + 4 > len(packet):
        return None
    qtype, qclass = struct.unpack("!2H", packet[end:end + 4])
    question = packet[12:end + 4]
    records = b""
    count = 0
    if qtype == TYPE_A and qclass == CLASS_IN:
        # The name as a pointer to the question (offset 12), then type, class, TTL, data.
        records = struct.pack("!HHHIH", 0xC00C, TYPE_A, CLASS_IN, TTL, 4) + address.packed
        count = 1
    header = struct.pack("!6H", ident, _FLAGS_OK | rd, 1, count, 0, 0)
    return header + question + records


async def serve_dns(address: str, port: int = 53, *,
                    task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
    """Answer queries on ``address``:``port`` until cancelled; reports the bound port."""
    log = get_logger("hostd.hotspot.dns")
    ip = ipaddress.IPv4Address(address)
    sock = trio.socket.socket(trio.socket.AF_INET, trio.socket.SOCK_DGRAM)
    with sock:
        await sock.bind((address, port))
        bound = sock.getsockname()[1]
        log.info("hotspot_dns_ready", address=address, port=bound)
        task_status.started(bound)
        while True:
            try:
                packet, peer = await sock.recvfrom(MAX_QUERY + 1)
            except OSError:  # an ICMP error from an earlier reply's peer: not ours to mind
                continue
            reply = answer(packet, ip)
            if reply is not None:
                try:
                    await sock.sendto(reply, peer)
                except OSError as e:
                    log.debug("hotspot_dns_send_failed", error=str(e))
