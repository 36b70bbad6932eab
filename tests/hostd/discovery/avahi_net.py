"""Real avahi-daemons for the Avahi tests: one per network namespace, each on its own bus.

A host here is a network namespace (``bench.netns``) with a private ``dbus-daemon`` (the
Bluetooth tests' ``private_bus``) standing in for its system bus, and an ``avahi-daemon`` from
Debian's package talking to it (``DBUS_SYSTEM_BUS_ADDRESS``). avahi-daemon keeps its pid file
and its socket at a fixed path, ``/run/avahi-daemon``, so two on one machine would refuse to
start: each runs in a mount namespace of its own with a fresh tmpfs on ``/run``, which hides
nothing else it needs. Its configuration is ours: one allowed interface, IPv4 only (as the box
advertises), no reflector, no wide-area, a host name of the test's choosing.

Everything started here is killed, and every namespace removed, when the block ends.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import trio

from bench.netns import Netns, link, network_namespaces
from tests.hostd.discovery.bluez import private_bus

AVAHI_CONF = """[server]
host-name={host}
domain-name=local
use-ipv4=yes
use-ipv6=no
allow-interfaces={interface}
enable-dbus=yes
ratelimit-interval-usec=1000000
ratelimit-burst=1000
[wide-area]
enable-wide-area=no
[publish]
publish-hinfo=no
publish-workstation=no
[reflector]
enable-reflector=no
"""
STARTED = "Server startup complete"


@dataclass
class Host:
    """One namespace with its bus and (while ``start_avahi`` .. ``stop_avahi``) its
    avahi-daemon."""

    ns: Netns
    bus: str  # the D-Bus address of its system bus
    hostname: str  # without ".local"
    address: str  # its IPv4 address on the shared cable
    interface: str
    tmp: Path
    proc: subprocess.Popen[bytes] | None = None

    @property
    def log(self) -> Path:
        return self.tmp / f"avahi-{self.hostname}.log"

    def start_avahi(self) -> None:
        conf = self.tmp / f"avahi-{self.hostname}.conf"
        conf.write_text(AVAHI_CONF.format(host=self.hostname, interface=self.interface))
        with self.log.open("wb") as out:  # a fresh log: ``wait_started`` reads this start's
            self.proc = subprocess.Popen(self.ns.exec_args(
                "unshare", "--mount", "--propagation", "private", "sh", "-c",
                'mount -t tmpfs tmpfs /run && exec avahi-daemon -f "$0" --no-drop-root '
                "--no-chroot --no-rlimits --no-proc-title", str(conf)),
                env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "DBUS_SYSTEM_BUS_ADDRESS": self.bus},
                stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)

    def stop_avahi(self) -> None:
        """As ``systemctl stop avahi-daemon`` does: SIGTERM (Avahi sends its goodbyes)."""
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
            self.proc = None

    @property
    def env(self) -> dict[str, str]:
        return {"DBUS_SYSTEM_BUS_ADDRESS": self.bus}

    def browse(self) -> list[list[str]]:
        """``avahi-browse -arpkt`` on this host's Avahi: its resolved (``=``) lines, split."""
        out = subprocess.run(
            self.ns.exec_args("avahi-browse", "-arpkt"), env={**os.environ, **self.env},
            capture_output=True, text=True, timeout=20, check=False).stdout
        return [line.split(";") for line in out.splitlines() if line.startswith("=;")]


def unescape(name: str) -> str:
    r"""avahi-browse -p's escaping of an instance name (``\032`` for a space) undone."""
    return re.sub(r"\\(\d{3})", lambda m: chr(int(m.group(1))),
                  re.sub(r"\\([^0-9])", r"\1", name)).encode("latin-1").decode("utf-8")


def txt_of(field: str) -> dict[str, str]:
    """avahi-browse -p's TXT field (``"a=1" "b=2"``) as a dict."""
    return dict(item.partition("=")[::2] for item in re.findall(r'"((?:[^"\\]|\\.)*)"', field))


def avahi_missing() -> str | None:
    for exe in ("avahi-daemon", "avahi-browse", "dig", "unshare", "dbus-daemon"):
        if shutil.which(exe) is None:
            return f"the Avahi tests need {exe} (.ci/run installs avahi-daemon, avahi-utils, " \
                   "bind9-dnsutils, dbus)"
    return None


async def wait_started(*hosts: Host, timeout: float = 15.0) -> None:
    with trio.fail_after(timeout):
        for h in hosts:
            while STARTED not in (h.log.read_text(errors="replace") if h.log.exists() else ""):
                await trio.sleep(0.05)


@contextmanager
def avahi_hosts(names: tuple[str, ...] = ("boxa", "boxb"), *,
                avahi: bool = True) -> Iterator[list[Host]]:
    """Hosts joined by one veth cable (10.96.0.1, 10.96.0.2), each running avahi-daemon
    unless ``avahi`` is false. Wait for them with ``wait_started`` before use."""
    reason = avahi_missing()
    if reason:
        pytest.skip(reason)
    with ExitStack() as stack:
        nss = stack.enter_context(network_namespaces(len(names)))
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="tb-avahi-")))
        a, b = nss[0], nss[1]
        link(a, "tbx0", "10.96.0.1/24", b, "tbx1", "10.96.0.2/24")
        hosts = []
        for i, (ns, name) in enumerate(zip(nss, names, strict=True)):
            host = Host(ns, stack.enter_context(private_bus()), name, f"10.96.0.{i + 1}",
                        f"tbx{i}", tmp)
            stack.callback(host.stop_avahi)
            if avahi:
                host.start_avahi()
            hosts.append(host)
        yield hosts
