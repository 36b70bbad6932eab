"""How long a table change takes to reach the wire through Avahi (a measurement, not a test).

    nice -n 10 python -m tests.hostd.discovery.avahi_latency [--updates 30] [--gap 1.5]

Two namespaces with their own avahi-daemons (``avahi_net``); ``run_avahi`` in this process
publishes through host A's Avahi (over its bus, a Unix socket: no network of ours); a sniffer
in host B timestamps each multicast mDNS packet carrying the new ``tables=`` count. Both read
CLOCK_MONOTONIC, which namespaces share. The figure includes ``SETTLE`` (0.2 s): the box
waits that long on purpose so a burst of changes becomes one update. Root only (namespaces).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import trio

from bench.netns import BIN
from hostd.config import Config
from hostd.discovery import BoxSummary
from hostd.discovery.avahi import run_avahi
from tests.hostd.discovery.avahi_net import avahi_hosts, wait_started

SNIFFER = r"""
import socket, struct, sys, time, re
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
s.bind(("224.0.0.251", 5353))
s.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP,
             struct.pack("4s4s", socket.inet_aton("224.0.0.251"), socket.inet_aton(sys.argv[1])))
print("ready", flush=True)
while True:
    data = s.recv(9000)
    for m in re.finditer(rb"tables=(\d+)", data):
        print(int(m.group(1)), time.monotonic(), flush=True)
"""


async def measure(updates: int, gap: float) -> dict[str, float]:
    with avahi_hosts() as [a, b], tempfile.TemporaryDirectory() as tmp:
        await wait_started(a, b)
        sniff = subprocess.Popen(b.ns.exec_args(str(BIN / "python"), "-c", SNIFFER, b.address),
                                 stdout=subprocess.PIPE, text=True)
        assert sniff.stdout is not None and sniff.stdout.readline().strip() == "ready"
        seen: dict[int, float] = {}

        def read() -> None:
            assert sniff.stdout is not None
            for line in sniff.stdout:
                n, t = line.split()
                seen.setdefault(int(n), float(t))

        config = Config(box_name="Latency", data_dir=Path(tmp), tcp_port=7420, http_port=8080)
        send, recv = trio.open_memory_channel[BoxSummary](16)
        latencies: list[float] = []
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(lambda: trio.to_thread.run_sync(read, abandon_on_cancel=True))
                t_start = time.monotonic()
                await nursery.start(lambda task_status: run_avahi(
                    config, recv, bus=a.bus, task_status=task_status))
                with trio.fail_after(20):
                    while 0 not in seen:
                        await trio.sleep(0.01)
                first = seen[0] - t_start
                for i in range(1, updates + 1):
                    await trio.sleep(gap)
                    t0 = time.monotonic()
                    await send.send(BoxSummary(i, i, ("euchre",)))
                    with trio.fail_after(10):
                        while i not in seen:
                            await trio.sleep(0.005)
                    latencies.append(seen[i] - t0)
                nursery.cancel_scope.cancel()
        finally:
            sniff.kill()
            sniff.wait(5)
    q = statistics.quantiles(latencies, n=10)
    return {"updates": updates, "first_announcement_s": round(first, 3),
            "median_s": round(statistics.median(latencies), 3), "p90_s": round(q[-1], 3),
            "min_s": round(min(latencies), 3), "max_s": round(max(latencies), 3)}


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--updates", type=int, default=30)
    p.add_argument("--gap", type=float, default=1.5)
    args = p.parse_args()
    print(json.dumps(trio.run(measure, args.updates, args.gap)))
    sys.exit(0)
