"""A box and a phone in network namespaces, joined by a veth pair (the hotspot), and the box
on a second network (a café's, in a third namespace): what the hotspot tests run in.

Every process started in a namespace is killed when the block ends, and the namespaces are
deleted (``bench.netns``). Nothing here touches a real interface.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from bench.netns import ROOT, Netns, link, network_namespaces

BOX_HOTSPOT = "10.42.0.1"
PHONE = "10.42.0.50"
BOX_CAFE = "192.168.7.2"
CAFE = "192.168.7.1"


@dataclass
class Floor:
    box: Netns
    phone: Netns
    cafe: Netns
    procs: list[subprocess.Popen[str]]

    def start_in_box(self, code: str, ready: str) -> subprocess.Popen[str]:
        """Run Python ``code`` in the box's namespace; wait until it prints ``ready``."""
        proc = subprocess.Popen(self.box.exec_args(sys.executable, "-c", code), cwd=ROOT,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.procs.append(proc)
        assert proc.stdout is not None
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            if ready in line:
                return proc
        proc.kill()
        raise AssertionError(f"not ready: {proc.stderr.read() if proc.stderr else ''}")

    def run_in(self, ns: Netns, code: str, timeout: float = 20) -> str:
        out = subprocess.run(ns.exec_args(sys.executable, "-c", code), cwd=ROOT,
                             capture_output=True, text=True, timeout=timeout, check=False)
        assert out.returncode == 0, out.stderr
        return out.stdout


@contextmanager
def floor() -> Iterator[Floor]:
    with network_namespaces(3) as (box, phone, cafe):
        link(box, "hs0", f"{BOX_HOTSPOT}/24", phone, "wlan0", f"{PHONE}/24")
        link(box, "eth0", f"{BOX_CAFE}/24", cafe, "eth0", f"{CAFE}/24")
        f = Floor(box, phone, cafe, [])
        try:
            yield f
        finally:
            for p in f.procs:
                p.kill()
                p.wait(10)
                for s in (p.stdout, p.stderr):
                    if s is not None:
                        s.close()
