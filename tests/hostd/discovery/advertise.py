"""A small advertiser for the mDNS tests: ``run_mdns`` driven by JSON lines on stdin.

    python -m tests.hostd.discovery.advertise --name NAME --data DIR [--port N]
        [--http-port N] [--interface IF]... [--blind-start] [--refresh S]

Each stdin line is a summary ``{"open_tables": 1, "free_seats": 3, "games": ["toy"]}``; end
of input shuts the advertiser down (goodbyes sent) and exits 0. Only ever run inside a
network namespace the test created.

``--blind-start`` makes the first registration miss any rival, as when two boxes boot at the
same moment: zeroconf skips its probing (its QU answers may land in another socket anyway)
and the first name is taken without looking. Only ``run_mdns``'s conflict rule can then
separate two boxes that announced the same name. ``--refresh`` re-reads the interfaces every
S seconds instead of every 15, so a test need not wait for an interface that comes up late.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
from pathlib import Path

import trio
import zeroconf

from hostd.config import Config
from hostd.discovery import BoxSummary, mdns
from hostd.discovery.mdns import run_mdns


async def main(config: Config) -> None:
    send, recv = trio.open_memory_channel[BoxSummary](64)
    async with trio.open_nursery() as nursery:
        await nursery.start(run_mdns, config, recv)
        print(json.dumps({"event": "started"}), flush=True)
        stdin = trio.lowlevel.FdStream(os.dup(0))
        buf = b""
        async with send, stdin:
            while chunk := await stdin.receive_some(65536):
                buf += chunk
                *lines, buf = buf.split(b"\n")
                for line in lines:
                    if line.strip():
                        d = json.loads(line)
                        await send.send(BoxSummary(d["open_tables"], d["free_seats"],
                                                   tuple(d.get("games", ()))))
        nursery.cancel_scope.cancel()
    print(json.dumps({"event": "stopped"}), flush=True)


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--name", required=True)
    p.add_argument("--data", type=Path, required=True)
    p.add_argument("--port", type=int, default=7420)
    p.add_argument("--http-port", type=int, default=8080)
    p.add_argument("--interface", action="append", default=[])
    p.add_argument("--blind-start", action="store_true")
    p.add_argument("--refresh", type=float, default=None)
    a = p.parse_args()
    if a.refresh is not None:
        mdns.INTERFACE_REFRESH = a.refresh
    if a.blind_start:
        zeroconf.Zeroconf.register_service = functools.partialmethod(  # type: ignore[method-assign,assignment]
            zeroconf.Zeroconf.register_service, cooperating_responders=True)
        looked = mdns.Advertiser.taken

        def blind_once(self: mdns.Advertiser, label: str) -> bool:
            if self.number == 1 and not getattr(self, "blinded", False):
                self.blinded = True  # type: ignore[attr-defined]
                return False
            return looked(self, label)

        mdns.Advertiser.taken = blind_once  # type: ignore[method-assign]
    trio.run(main, Config(box_name=a.name, data_dir=a.data, tcp_port=a.port,
                          http_port=a.http_port, mdns_interfaces=tuple(a.interface)))
