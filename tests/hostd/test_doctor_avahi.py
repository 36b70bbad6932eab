"""``tablebox doctor`` says which mDNS backend is in use and why, asked of a real bus: a
private dbus-daemon with a real avahi-daemon on it (in a network namespace), the same bus
without Avahi, and no bus at all."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from hostd import config as cfg
from hostd import doctor
from tests.hostd.discovery.avahi_net import avahi_hosts, wait_started
from tests.hostd.discovery.bluez import private_bus

ROOT = Path(__file__).resolve().parents[2]


def backend_check(tmp_path: Path, bus: str, **over: Any) -> doctor.Check:
    c = doctor.Context(cfg.Config(data_dir=tmp_path / "state", control=tmp_path / "c.sock",
                                  **over), None, None, unit=tmp_path / "no.service")
    [check] = list(doctor.check_mdns_backend(c, bus))
    assert check.name == "mDNS backend"
    return check


async def test_avahi_on_the_bus_is_used_and_said(tmp_path: Path) -> None:
    with avahi_hosts() as [a, _b]:
        await wait_started(a)
        check = backend_check(tmp_path, a.bus)
        assert check.status == "ok" and check.detail.startswith("Avahi, because avahi-daemon")
        assert "no mDNS socket" in check.detail
        # Forced to zeroconf beside a running Avahi: allowed, with a warning saying the cost.
        forced = backend_check(tmp_path, a.bus, mdns_backend="zeroconf")
        assert forced.status == "warn" and "unicast" in forced.detail
        assert 'mdns_backend = "auto"' in forced.fix
        # The command itself, on the system bus its environment names.
        out = subprocess.run(
            [sys.executable, "-m", "hostd.cli", "doctor", "--json", "--no-bluetooth",
             "--data-dir", str(tmp_path / "state"), "--control", str(tmp_path / "c.sock")],
            cwd=ROOT, capture_output=True, text=True, check=False, timeout=60,
            env={**os.environ, "DBUS_SYSTEM_BUS_ADDRESS": a.bus})
        checks = {c["name"]: c for c in json.loads(out.stdout)["checks"]}
        assert checks["mDNS backend"]["status"] == "ok", checks["mDNS backend"]
        assert checks["mDNS backend"]["detail"].startswith("Avahi")


def test_without_avahi_zeroconf_is_used_unless_avahi_is_forced(tmp_path: Path) -> None:
    with private_bus() as bus:  # a bus, but nobody owns org.freedesktop.Avahi on it
        auto = backend_check(tmp_path, bus)
        assert auto.status == "ok" and "python-zeroconf" in auto.detail
        assert "avahi-daemon is not on the D-Bus system bus" in auto.detail
        forced = backend_check(tmp_path, bus, mdns_backend="avahi")
        assert forced.status == "fail" and 'mdns_backend = "avahi"' in forced.detail
        assert "apt install avahi-daemon" in forced.fix
    gone = backend_check(tmp_path, f"unix:path={tmp_path}/no-bus")
    assert gone.status == "ok" and "no D-Bus system bus" in gone.detail
    assert list(doctor.check_mdns_backend(doctor.Context(
        cfg.Config(mdns=False), None, None), "SYSTEM")) == []  # mDNS off: the mDNS check says so
