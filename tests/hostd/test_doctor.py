"""`tablebox doctor` against real things: sockets holding ports, a process without
CAP_NET_BIND_SERVICE, an empty network namespace, SQLite files (sound and damaged), and a
private dbus-daemon with and without a stand-in BlueZ."""

from __future__ import annotations

import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import trio

from hostd import config as cfg
from hostd import doctor
from tests.hostd.discovery.bluez import private_bus, standin

ROOT = Path(__file__).resolve().parents[2]


def ctx(tmp_path: Path, **over: Any) -> doctor.Context:
    kw: dict[str, Any] = {"data_dir": tmp_path / "state", "control": tmp_path / "c.sock",
                          "bind": "127.0.0.1", "tcp_port": free_port(), "http_port": free_port()}
    kw.update(over)
    return doctor.Context(cfg.Config(**kw), None, None, unit=tmp_path / "no.service")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def by_name(checks: list[doctor.Check]) -> dict[str, doctor.Check]:
    return {c.name: c for c in checks}


def run_doctor(*args: str, prefix: tuple[str, ...] = (), env: dict[str, str] | None = None
               ) -> tuple[int, dict[str, Any]]:
    out = subprocess.run([*prefix, sys.executable, "-m", "hostd.cli", "doctor", "--json", *args],
                         cwd=ROOT, capture_output=True, text=True, check=False, timeout=60,
                         env={**os.environ, **(env or {})})
    return out.returncode, json.loads(out.stdout)


# -- ports -------------------------------------------------------------------------------------
def test_a_free_port_and_a_port_held_by_someone_else(tmp_path: Path) -> None:
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        c = ctx(tmp_path, tcp_port=port)
        tcp = doctor.check_port(c, "tcp_port", "TCP")
        assert tcp.status == "fail"
        assert f"{port} is in use by pid {os.getpid()}" in tcp.detail
        assert "set tcp_port to a free port" in tcp.fix
    assert doctor.check_port(c, "tcp_port", "TCP").status == "ok"
    assert doctor.check_port(c, "http_port", "HTTP").detail.endswith("is free on 127.0.0.1")


def test_a_bind_address_that_is_not_here(tmp_path: Path) -> None:
    check = doctor.check_port(ctx(tmp_path, bind="203.0.113.7"), "tcp_port", "TCP")
    assert check.status == "fail" and "203.0.113.7 is not on any interface" in check.detail


@pytest.mark.skipif(shutil.which("setpriv") is None, reason="util-linux setpriv missing")
def test_a_low_port_without_the_capability(tmp_path: Path) -> None:
    # root without CAP_NET_BIND_SERVICE is what the unit's empty capability set gives
    code, report = run_doctor("--bind", "127.0.0.1", "--http-port", "80", "--no-mdns",
                              "--no-bluetooth", "--data-dir", str(tmp_path),
                              "--control", str(tmp_path / "c.sock"),
                              prefix=("setpriv", "--bounding-set=-net_bind_service"))
    http = by_name([doctor.Check(**c) for c in report["checks"]])["HTTP port"]
    assert code == 1 and not report["ok"]
    assert http.status == "fail" and "needs CAP_NET_BIND_SERVICE" in http.detail
    assert "service install" in http.fix


# -- network -----------------------------------------------------------------------------------
@pytest.mark.skipif(shutil.which("unshare") is None or os.geteuid() != 0,
                    reason="needs root and unshare for a network namespace")
def test_an_empty_network_namespace_has_nothing_to_offer(tmp_path: Path) -> None:
    code, report = run_doctor("--no-bluetooth", "--data-dir", str(tmp_path),
                              "--control", str(tmp_path / "c.sock"),
                              prefix=("unshare", "--net"))
    checks = by_name([doctor.Check(**c) for c in report["checks"]])
    assert code == 1
    assert checks["interfaces"].status == "fail" and "connect" in checks["interfaces"].fix
    assert checks["mDNS"].status == "fail"
    assert checks["join URLs"].status == "fail"


def test_join_urls_and_loopback_binding(tmp_path: Path) -> None:
    ifs = [doctor.Interface("lo", doctor.IFF_UP | doctor.IFF_LOOPBACK, ("127.0.0.1",), ("::1",)),
           doctor.Interface("wlan0", doctor.IFF_UP | doctor.IFF_MULTICAST, ("192.168.1.20",),
                            ("fe80::1", "2001:db8::20")),
           doctor.Interface("eth0", doctor.IFF_MULTICAST, ("10.0.0.5",), ())]  # down
    assert doctor.lan_addresses(ifs, "0.0.0.0") == ["192.168.1.20"]
    assert doctor.lan_addresses(ifs, "::") == ["192.168.1.20", "2001:db8::20"]
    assert doctor.join_url("2001:db8::20", 8080) == "http://[2001:db8::20]:8080/"
    checks = by_name(list(doctor.check_network(ctx(tmp_path, bind="0.0.0.0", http_port=8080),
                                               ifs)))
    assert checks["join URLs"].detail.startswith("http://192.168.1.20:8080/")
    checks = by_name(list(doctor.check_network(ctx(tmp_path), ifs)))
    assert checks["join URLs"].status == "warn" and "only this machine" in checks["join URLs"].detail
    mdns = by_name(list(doctor.check_mdns(ctx(tmp_path, mdns_interfaces=("eth0",)), ifs)))
    assert mdns["mDNS"].status == "fail"  # eth0 is down
    mdns = by_name(list(doctor.check_mdns(ctx(tmp_path, mdns_interfaces=("wlp9",)), ifs)))
    assert "names what is not here: wlp9" in mdns["mDNS"].detail
    mdns = by_name(list(doctor.check_mdns(ctx(tmp_path), ifs)))
    assert mdns["mDNS"].status == "ok" and "wlan0" in mdns["mDNS"].detail


# -- the machine -------------------------------------------------------------------------------
def _database(path: Path, rows: int = 2000) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    con = sqlite3.connect(path)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("CREATE TABLE steps (id INTEGER PRIMARY KEY, tbl TEXT, body TEXT)")
    con.execute("CREATE INDEX steps_tbl ON steps (tbl)")
    con.executemany("INSERT INTO steps (tbl, body) VALUES (?, ?)",
                    [(f"t{i % 7}", "x" * 200) for i in range(rows)])
    con.commit()
    con.close()


def test_database_sound_missing_damaged_and_not_a_database(tmp_path: Path) -> None:
    c = ctx(tmp_path)
    (missing,) = doctor.check_database(c)
    assert missing.status == "ok" and "not created yet" in missing.detail
    _database(c.config.database)
    (sound,) = doctor.check_database(c)
    assert sound.status == "ok" and "passes integrity_check" in sound.detail
    # damage index and table pages in the middle of the file
    with c.config.database.open("r+b") as f:
        for page in (3, 5, 8, 13):
            f.seek(page * 4096 + 100)
            f.write(os.urandom(600))
    (damaged,) = doctor.check_database(c)
    assert damaged.status == "fail", damaged
    assert "restore a backup" in damaged.fix or ".recover" in damaged.fix
    c.config.database.write_bytes(b"this is not sqlite" * 300)
    (garbage,) = doctor.check_database(c)
    assert garbage.status == "fail" and "not a database" in garbage.detail


def test_loose_modes_in_the_data_directory_are_flagged_with_the_chmod_fix(
        tmp_path: Path) -> None:
    c = ctx(tmp_path)
    data, db = c.config.data_dir, c.config.database
    (missing,) = doctor.check_data_dir(c)
    assert missing.status == "ok" and "not created yet" in missing.detail
    data.mkdir(mode=0o700)
    _database(db)
    os.chmod(db, 0o600)
    (other := data / "operator-notes.txt").write_text("not the daemon's")
    os.chmod(other, 0o644)  # not ours: neither flagged nor in the fix
    (private,) = doctor.check_data_dir(c)
    assert private.status == "ok" and "is private" in private.detail, private
    # what an older version, or a copy made under umask 022, leaves behind
    os.chmod(data, 0o755)
    os.chmod(db, 0o644)
    (data / "tablebox.log").write_text("{}\n")
    os.chmod(data / "tablebox.log", 0o640)
    (loose,) = doctor.check_data_dir(c)
    assert loose.status == "fail" and "other users can read the seeds" in loose.detail
    assert f"{data} 0755" in loose.detail and "tablebox.sqlite3 0644" in loose.detail
    assert "tablebox.log 0640" in loose.detail and "operator-notes" not in loose.detail
    assert f"chmod 700 {data}" in loose.fix
    assert f"chmod 600 {data / 'tablebox.log'} {db}" in loose.fix
    code, report = run_doctor("--bind", "127.0.0.1", "--no-mdns", "--no-bluetooth",
                              "--data-dir", str(data), "--control", str(tmp_path / "c.sock"),
                              "--tcp-port", str(free_port()), "--http-port", str(free_port()))
    line = by_name([doctor.Check(**x) for x in report["checks"]])["data directory"]
    assert code == 1 and line.status == "fail" and "chmod 700" in line.fix


def test_a_held_lock_without_an_answering_daemon_is_named(tmp_path: Path) -> None:
    import fcntl

    c = ctx(tmp_path)
    c.config.data_dir.mkdir(mode=0o700)
    with (c.config.data_dir / "tablebox.lock").open("w") as f:
        f.write(json.dumps({"pid": os.getpid(), "control": str(tmp_path / "gone.sock")}))
        f.flush()
        assert [x.name for x in doctor.check_data_dir(c)] == ["data directory"]  # not held
        fcntl.flock(f, fcntl.LOCK_EX)
        lock = by_name(list(doctor.check_data_dir(c)))["data directory lock"]
    assert lock.status == "warn" and f"pid {os.getpid()}" in lock.detail
    assert "gone.sock does not answer" in lock.detail


def test_clock(tmp_path: Path) -> None:
    c = ctx(tmp_path)
    (past,) = doctor.check_clock(doctor.Context(c.config, None, None,
                                                now=datetime(1970, 1, 1, 0, 2, tzinfo=UTC)))
    assert past.status == "fail" and "NTP" in past.fix
    _database(c.config.database, rows=1)
    future = datetime.now(UTC).timestamp() + 86400
    os.utime(c.config.database, (future, future))
    (back,) = doctor.check_clock(c)
    assert back.status == "warn" and "went backwards" in back.detail


def test_disk(tmp_path: Path) -> None:
    c = ctx(tmp_path)
    (fine,) = doctor.check_disk(doctor.Context(c.config, None, None, disk_fail=0, disk_warn=0))
    assert fine.status == "ok" and "MiB free" in fine.detail
    (full,) = doctor.check_disk(doctor.Context(c.config, None, None, disk_fail=1 << 60))
    assert full.status == "fail" and "apt clean" in full.fix


# -- Bluetooth over a private dbus-daemon ------------------------------------------------------
async def _bluetooth(tmp_path: Path, address: str, monkeypatch: pytest.MonkeyPatch
                     ) -> dict[str, doctor.Check]:
    monkeypatch.setenv("DBUS_SYSTEM_BUS_ADDRESS", address)
    c = ctx(tmp_path)
    return by_name(await trio.to_thread.run_sync(lambda: list(doctor.check_bluetooth(c))))


async def test_bluetooth_without_bluez(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with private_bus() as address:
        checks = await _bluetooth(tmp_path, address, monkeypatch)
    sockets = checks["Bluetooth sockets"]
    assert sockets.status == ("ok" if hasattr(socket, "AF_BLUETOOTH") else "fail")
    service = checks["Bluetooth service"]
    assert service.status == "fail" and "bluetoothd" in service.detail
    assert "systemctl enable --now bluetooth" in service.fix


@pytest.mark.parametrize(("adapters", "status", "detail"), [
    (1, "ok", "hci0: powered"),
    (2, "ok", "hci0, hci1: powered"),
    (0, "fail", "BlueZ sees no adapter"),
])
async def test_bluetooth_with_a_stand_in_bluez(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               adapters: int, status: str, detail: str) -> None:
    with private_bus() as address:
        async with standin(address, adapters=adapters):
            checks = await _bluetooth(tmp_path, address, monkeypatch)
    assert checks["Bluetooth service"].status == "ok"
    adapter = checks["Bluetooth adapter"]
    assert adapter.status == status and detail in adapter.detail


def test_a_powered_off_adapter() -> None:
    off: dict[str, dict[str, Any]] = {"/org/bluez/hci0": {"org.bluez.Adapter1": {"Powered": ("b", False)}},
           "/org/bluez": {"org.bluez.AgentManager1": {}}}
    check = doctor.adapter_check(off)
    assert check.status == "warn" and "hci0: powered off" in check.detail
    assert "bluetoothctl power on" in check.fix


async def test_no_system_bus(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    service = (await _bluetooth(tmp_path, f"unix:path={tmp_path / 'nobus'}",
                                monkeypatch))["Bluetooth service"]
    assert service.status == "fail" and "no D-Bus system bus" in service.detail


# -- the command -------------------------------------------------------------------------------
def test_the_command_exits_zero_without_problems_and_one_with(tmp_path: Path) -> None:
    common = ("--bind", "127.0.0.1", "--no-mdns", "--no-bluetooth", "--data-dir", str(tmp_path),
              "--control", str(tmp_path / "c.sock"), "--tcp-port", str(free_port()),
              "--http-port", str(free_port()))
    code, report = run_doctor(*common)
    names = [c["name"] for c in report["checks"]]
    assert names[:4] == ["config", "daemon", "TCP port", "HTTP port"]
    assert {"disk", "clock", "database", "mDNS", "Bluetooth"} <= set(names)
    statuses = {c["name"]: c["status"] for c in report["checks"]}
    assert statuses["daemon"] == "warn" and "fail" not in statuses.values(), report
    assert code == 0 and report["ok"]
    bad = tmp_path / "bad.toml"
    bad.write_text("tcp_port = 123456\n")
    code, report = run_doctor("--config", str(bad), *common[:-4])
    assert code == 1 and report["checks"][0]["status"] == "fail"
    assert "tcp_port must be an integer" in report["checks"][0]["detail"]
