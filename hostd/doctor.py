"""``tablebox doctor``: checks that the box can serve, each with what to fix.

Owns the checks and their verdicts: the configuration, the daemon, both ports (free, or held
by our own daemon), network interfaces and the IP-literal join URLs, mDNS (a multicast-capable
interface, and who answers it: Avahi or tablebox's own responder), Bluetooth (socket support in this Python, the D-Bus system bus, BlueZ, an
adapter), disk space, the clock, the data directory (private modes, which daemon holds its
lock), the database (``PRAGMA integrity_check``), and the tables
whose stored events no longer replay (damaged: one line each, with what to do).

Every check only looks: it binds a port for an instant to see whether it is free, opens the
database read-only, asks D-Bus questions, and sends nothing on the network (mDNS is judged
by interface flags, never by a query). Nothing here raises to the caller: a check that cannot
run says so in its verdict.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from hostd import config as cfg

Status = Literal["ok", "warn", "fail"]
CLOCK_FLOOR = datetime(2025, 1, 1, tzinfo=UTC)  # older than this release: the clock is wrong
DISK_FAIL = 50 * 1024 * 1024
DISK_WARN = 500 * 1024 * 1024
IFF_UP, IFF_LOOPBACK, IFF_MULTICAST = 0x1, 0x8, 0x1000
TCP_LISTEN = "0A"


@dataclass(frozen=True)
class Check:
    name: str
    status: Status
    detail: str
    fix: str = ""


@dataclass(frozen=True)
class Context:
    """What the checks look at; ``daemon`` is the running daemon's status, if one answers."""

    config: cfg.Config
    file: Path | None
    daemon: dict[str, Any] | None
    daemon_error: str = ""
    now: datetime | None = None
    disk_fail: int = DISK_FAIL
    disk_warn: int = DISK_WARN
    unit: Path = cfg.SERVICE_UNIT
    control: Path | None = None  # the running daemon's control socket


# -- the daemon --------------------------------------------------------------------------------
def daemon_status(control: Path) -> tuple[dict[str, Any] | None, str]:
    from hostd import control as ctl

    try:
        result = ctl.request(control, "status", timeout=5.0)
    except ctl.ControlError as e:
        return None, str(e)
    except (OSError, ValueError) as e:
        return None, f"the control socket at {control} answered oddly: {e}"
    return (result if isinstance(result, dict) else None), ""


def check_daemon(ctx: Context) -> Iterator[Check]:
    if ctx.daemon is not None:
        s = ctx.daemon
        tables = s.get("tables", {})
        drain = "; draining" if s.get("draining") else ""
        yield Check("daemon", "ok",
                    f"running for {s.get('uptime', 0):.0f}s: {tables.get('playing', 0)} tables "
                    f"playing, {s.get('connections', 0)} connections{drain}")
    else:
        yield Check("daemon", "warn", ctx.daemon_error or "not running",
                    "start it: sudo systemctl start tablebox (or `tablebox serve`)")


# -- ports -------------------------------------------------------------------------------------
def _listeners(port: int) -> set[int]:
    """Socket inodes listening on TCP ``port`` (any address), from /proc/net."""
    inodes: set[int] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(table).read_text().splitlines()[1:]:
                fields = line.split()
                if len(fields) > 9 and fields[3] == TCP_LISTEN and \
                        int(fields[1].rsplit(":", 1)[1], 16) == port:
                    inodes.add(int(fields[9]))
    return inodes


def port_holder(port: int) -> tuple[int, str] | None:
    """(pid, command line) of a process listening on ``port``, if /proc lets us see it."""
    inodes = {f"socket:[{i}]" for i in _listeners(port)}
    if not inodes:
        return None
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            for fd in (proc / "fd").iterdir():
                with contextlib.suppress(OSError):
                    if os.readlink(fd) in inodes:
                        cmd = (proc / "cmdline").read_bytes().replace(b"\0", b" ").strip()
                        return int(proc.name), cmd.decode("utf-8", "replace")
    return None


def _unit_can_bind_low(unit: Path) -> bool:
    with contextlib.suppress(OSError):
        return "AmbientCapabilities=CAP_NET_BIND_SERVICE" in unit.read_text()
    return False


def check_port(ctx: Context, key: str, label: str) -> Check:
    c = ctx.config
    port: int = getattr(c, key)
    name = f"{label} port"
    if port == 0:
        return Check(name, "ok", "0: the system picks a free port at start")
    if ctx.daemon is not None:
        held = ctx.daemon.get("listening", {}).get(label.lower(), {})
        if isinstance(held, dict) and held.get("port") == port:
            return Check(name, "ok", f"{port} is held by the running tablebox daemon")
    family = socket.AF_INET6 if ":" in c.bind else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind((c.bind, port))
    except PermissionError:
        if _unit_can_bind_low(ctx.unit):
            return Check(name, "ok", f"{port} is below 1024; the installed unit grants "
                         "CAP_NET_BIND_SERVICE")
        return Check(name, "fail", f"{port} is below 1024 and needs CAP_NET_BIND_SERVICE",
                     f"run `sudo tablebox service install` again (it adds the capability for "
                     f"{key} < 1024), or set {key} to 1024 or more")
    except OSError as e:
        if e.errno == errno.EADDRNOTAVAIL:
            return Check(name, "fail", f"bind address {c.bind} is not on any interface",
                         'set bind = "0.0.0.0" (every interface) or an address of this box')
        if e.errno != errno.EADDRINUSE:
            return Check(name, "fail", f"cannot bind {c.bind}:{port}: {e.strerror}")
        holder = port_holder(port)
        if holder and any(k in holder[1] for k in ("tablebox serve", "hostd.cli serve")):
            return Check(name, "ok", f"{port} is held by tablebox (pid {holder[0]})")
        who = f"pid {holder[0]} ({holder[1][:60]})" if holder else (
            "another process (run as root to see which)")
        return Check(name, "fail", f"{port} is in use by {who}",
                     f"stop that process, or set {key} to a free port in "
                     f"{ctx.file or cfg.SERVICE_CONFIG}")
    return Check(name, "ok", f"{port} is free on {c.bind}")


def check_ports(ctx: Context) -> Iterator[Check]:
    yield check_port(ctx, "tcp_port", "TCP")
    yield check_port(ctx, "http_port", "HTTP")


# -- network -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Interface:
    name: str
    flags: int
    ipv4: tuple[str, ...]
    ipv6: tuple[str, ...]

    @property
    def up(self) -> bool:
        return bool(self.flags & IFF_UP)

    @property
    def loopback(self) -> bool:
        return bool(self.flags & IFF_LOOPBACK)

    @property
    def multicast(self) -> bool:
        return bool(self.flags & IFF_MULTICAST)


def interfaces() -> list[Interface]:
    import ifaddr

    found = []
    for a in ifaddr.get_adapters():
        try:
            flags = int(Path(f"/sys/class/net/{a.name}/flags").read_text().strip(), 16)
        except (OSError, ValueError):
            flags = IFF_UP | IFF_MULTICAST  # no sysfs (not Linux): assume the usual
        v4 = tuple(str(ip.ip) for ip in a.ips if ip.is_IPv4)
        v6 = tuple(ip.ip[0] for ip in a.ips if ip.is_IPv6 and isinstance(ip.ip, tuple))
        found.append(Interface(str(a.name), flags, v4, v6))
    return found


def join_url(address: str, port: int) -> str:
    return f"http://[{address}]:{port}/" if ":" in address else f"http://{address}:{port}/"


def lan_addresses(ifs: list[Interface], bind: str) -> list[str]:
    """IP literals a phone on the LAN can use: every up, non-loopback interface's IPv4 and
    global IPv6 (not link-local: a browser cannot take a zone), or just the bind address."""
    if bind not in ("0.0.0.0", "::"):
        return [bind]
    out: list[str] = []
    for i in ifs:
        if i.up and not i.loopback:
            out.extend(i.ipv4)
            if bind == "::":
                out.extend(a for a in i.ipv6 if not a.lower().startswith("fe80"))
    return out


def _reachable(url: str) -> str:
    try:
        with urllib.request.urlopen(url + "healthz", timeout=3) as r:
            return "" if r.status == 200 else f"HTTP {r.status}"
    except OSError as e:
        return str(getattr(e, "reason", e))


def check_network(ctx: Context, ifs: list[Interface]) -> Iterator[Check]:
    c = ctx.config
    lan = [i for i in ifs if i.up and not i.loopback and (i.ipv4 or i.ipv6)]
    if not lan:
        yield Check("interfaces", "fail", "no network interface is up with an address",
                    "connect Ethernet or Wi-Fi (sudo nmtui on Raspberry Pi OS)")
    else:
        yield Check("interfaces", "ok", ", ".join(
            f"{i.name} {' '.join(i.ipv4 + i.ipv6)}" for i in lan))
    if c.bind.startswith("127.") or c.bind == "::1":
        yield Check("join URLs", "warn", f"bind is {c.bind}: only this machine can join",
                    'set bind = "0.0.0.0" so phones on the network can join')
        return
    port = c.http_port
    if ctx.daemon is not None:
        port = ctx.daemon.get("listening", {}).get("http", {}).get("port") or port
    if not port:
        yield Check("join URLs", "ok", "http_port is 0: the port is chosen at start")
        return
    urls = [join_url(a, port) for a in lan_addresses(ifs, c.bind)]
    if not urls:
        yield Check("join URLs", "fail", "no address a phone could use",
                    "connect the box to the café network")
        return
    if ctx.daemon is None:
        yield Check("join URLs", "ok", " ".join(urls) + " (not tried: the daemon is not running)")
        return
    failed = {u: why for u in urls if (why := _reachable(u))}
    if failed:
        yield Check("join URLs", "fail", "; ".join(f"{u}: {w}" for u, w in failed.items()),
                    "check that bind covers these addresses and no firewall blocks the port")
    else:
        yield Check("join URLs", "ok", " ".join(urls) + " (each answered /healthz)")


def check_mdns(ctx: Context, ifs: list[Interface]) -> Iterator[Check]:
    c = ctx.config
    if not c.mdns:
        yield Check("mDNS", "ok", "off in the configuration")
        return
    by_name = {i.name: i for i in ifs}
    missing = [w for w in c.mdns_interfaces if w not in by_name
               and not any(w in i.ipv4 for i in ifs)]
    if missing:
        yield Check("mDNS", "fail", f"mdns_interfaces names what is not here: {', '.join(missing)}",
                    "list interfaces with `ip -br addr`; fix mdns_interfaces (or [] for all)")
        return
    chosen = [i for i in ifs if (not c.mdns_interfaces or i.name in c.mdns_interfaces
                                 or any(a in c.mdns_interfaces for a in i.ipv4))]
    usable = [i.name for i in chosen if i.up and i.multicast and not i.loopback and i.ipv4]
    if not usable:
        yield Check("mDNS", "fail", "no up, multicast-capable interface with an IPv4 address",
                    "connect a network; phones then find the box as <box name>.local")
        return
    yield Check("mDNS", "ok", f"multicast on {', '.join(usable)}")


def check_mdns_backend(ctx: Context, bus: str = "SYSTEM") -> Iterator[Check]:
    """Who answers mDNS for the box, and why: the system's avahi-daemon where it owns its
    name on the D-Bus system bus, else tablebox's own responder (asked of the bus only)."""
    c = ctx.config
    if not c.mdns:
        return
    from hostd.discovery import avahi

    running, why = avahi.avahi_running_blocking(bus)
    choice = avahi.decide(c.mdns_backend, running, why)
    if choice.backend is None:
        yield Check("mDNS backend", "fail", f"{choice.reason}: the box is not announced",
                    "sudo apt install avahi-daemon; sudo systemctl enable --now avahi-daemon "
                    '(or set mdns_backend = "auto")')
    elif choice.backend == "avahi":
        yield Check("mDNS backend", "ok", f"Avahi, because {choice.reason}; tablebox opens "
                    "no mDNS socket of its own")
    elif running:
        yield Check("mDNS backend", "warn", f"tablebox's own responder, because {choice.reason}, "
                    "beside a running avahi-daemon: unicast mDNS queries to this box reach "
                    "tablebox instead of Avahi", 'set mdns_backend = "auto"')
    else:
        yield Check("mDNS backend", "ok", f"tablebox's own responder (python-zeroconf), because "
                    f"{choice.reason}")


# -- Bluetooth ---------------------------------------------------------------------------------
def _dbus_call(conn: Any, dest: str, path: str, iface: str, method: str,
               sig: str = "", body: tuple[Any, ...] = ()) -> Any:
    from jeepney import DBusAddress, new_method_call

    msg = new_method_call(DBusAddress(path, bus_name=dest, interface=iface), method, sig, body)
    reply = conn.send_and_get_reply(msg, timeout=5)
    if reply.header.message_type.name == "error":
        raise OSError(str(reply.body[0] if reply.body else reply.header.fields))
    return reply.body


def check_bluetooth(ctx: Context) -> Iterator[Check]:
    if not ctx.config.bluetooth:
        yield Check("Bluetooth", "ok", "off in the configuration")
        return
    if hasattr(socket, "AF_BLUETOOTH"):
        yield Check("Bluetooth sockets", "ok", "this Python has AF_BLUETOOTH")
    else:
        yield Check("Bluetooth sockets", "fail",
                    "this Python was built without Bluetooth sockets (AF_BLUETOOTH)",
                    "make the venv from the system Python: /usr/bin/python3 -m venv "
                    "/opt/tablebox, then reinstall (or set bluetooth = false)")
    try:
        from jeepney.io.blocking import open_dbus_connection

        conn = open_dbus_connection(bus="SYSTEM")
    except (OSError, ValueError, KeyError) as e:
        yield Check("Bluetooth service", "fail", f"no D-Bus system bus: {e}",
                    "sudo apt install dbus; sudo systemctl start dbus")
        return
    with conn:
        try:
            (owned,) = _dbus_call(conn, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                  "org.freedesktop.DBus", "NameHasOwner", "s", ("org.bluez",))
        except OSError as e:
            yield Check("Bluetooth service", "fail", f"D-Bus did not answer: {e}")
            return
        if not owned:
            yield Check("Bluetooth service", "fail", "BlueZ (bluetoothd) is not running",
                        "sudo apt install bluez; sudo systemctl enable --now bluetooth")
            return
        yield Check("Bluetooth service", "ok", "BlueZ answers on the system bus")
        try:
            (objects,) = _dbus_call(conn, "org.bluez", "/",
                                    "org.freedesktop.DBus.ObjectManager", "GetManagedObjects")
        except OSError as e:
            yield Check("Bluetooth adapter", "fail", f"BlueZ refused to list adapters: {e}",
                        "add the service user to the bluetooth group (service install does)")
            return
    yield adapter_check(objects)


def adapter_check(objects: dict[str, dict[str, Any]]) -> Check:
    """The verdict on BlueZ's ``GetManagedObjects`` answer (path -> interface -> props)."""
    adapters = {p: ifaces["org.bluez.Adapter1"] for p, ifaces in objects.items()
                if "org.bluez.Adapter1" in ifaces}
    if not adapters:
        return Check("Bluetooth adapter", "fail", "BlueZ sees no adapter",
                     "check `bluetoothctl list`; on a Pi, `rfkill unblock bluetooth`")
    off = [p for p, props in adapters.items() if not props.get("Powered", ("b", False))[1]]
    names = ", ".join(p.rsplit("/", 1)[-1] for p in adapters)
    if len(off) == len(adapters):
        return Check("Bluetooth adapter", "warn", f"{names}: powered off",
                     "bluetoothctl power on (the daemon also powers it on at start)")
    return Check("Bluetooth adapter", "ok", f"{names}: powered")


# -- the box's own Wi-Fi -----------------------------------------------------------------------
def check_hotspot(ctx: Context) -> Iterator[Check]:
    """The hotspot as the running daemon sees it; without a daemon, whether NetworkManager and
    an access-point-capable Wi-Fi device are there (asked, never changed)."""
    c = ctx.config
    if c.hotspot == "off":
        yield Check("hotspot", "ok", 'off in the configuration (hotspot = "on" or "auto" '
                    "lets phones join the box's own Wi-Fi)")
        return
    if ctx.daemon is not None:
        from hostd import control as ctl

        try:
            assert ctx.control is not None
            s = ctl.request(ctx.control, "hotspot.status", timeout=5.0)
        except (ctl.ControlError, OSError, ValueError) as e:
            yield Check("hotspot", "warn", f"the daemon did not say: {e}")
            return
        if s.get("state") == "on":
            yield Check("hotspot", "ok", f"on: {s.get('ssid')} on {s.get('interface')}, "
                        f"page {s.get('page')}")
        elif not s.get("fault"):
            yield Check("hotspot", "ok", f"{s.get('state')} (mode {s.get('mode')})"
                        + (f": {s['reason']}" if s.get("reason") else ""))
        else:
            yield Check("hotspot", "fail" if s.get("mode") == "on" else "warn",
                        f"{s.get('state')} (mode {s.get('mode')}): {s.get('reason') or '?'}",
                        _HOTSPOT_FIX)
        return
    import trio

    from hostd.hotspot import HotspotError
    from hostd.hotspot.nm import probe

    try:
        device = trio.run(probe, c.hotspot_interface)
    except HotspotError as e:
        yield Check("hotspot", "fail", str(e), _HOTSPOT_FIX)
        return
    yield Check("hotspot", "ok", f"NetworkManager answers; {device.interface} can be an access "
                "point (not started: the daemon is not running)")


_HOTSPOT_FIX = ("sudo apt install network-manager, then sudo tablebox service install "
                "(docs/operations.md, \"The box's own Wi-Fi\")")


# -- the machine -------------------------------------------------------------------------------
def _existing(path: Path) -> Path:
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def check_disk(ctx: Context) -> Iterator[Check]:
    where = _existing(ctx.config.data_dir)
    free = shutil.disk_usage(where).free
    mib = free // (1024 * 1024)
    if free < ctx.disk_fail:
        yield Check("disk", "fail", f"{mib} MiB free at {where}",
                    "free space: sudo apt clean; sudo journalctl --vacuum-size=50M")
    elif free < ctx.disk_warn:
        yield Check("disk", "warn", f"only {mib} MiB free at {where}",
                    "free space soon: sudo apt clean; sudo journalctl --vacuum-size=50M")
    else:
        yield Check("disk", "ok", f"{mib} MiB free at {where}")


def _ntp_synchronized() -> bool | None:
    if not Path("/run/systemd/system").is_dir() or not shutil.which("timedatectl"):
        return None
    out = subprocess.run(["timedatectl", "show", "--property=NTPSynchronized", "--value"],
                         capture_output=True, text=True, check=False, timeout=10)
    value = out.stdout.strip()
    return {"yes": True, "no": False}.get(value)


def check_clock(ctx: Context) -> Iterator[Check]:
    now = ctx.now or datetime.now(UTC)
    if now < CLOCK_FLOOR:
        yield Check("clock", "fail", f"the clock says {now:%Y-%m-%d %H:%M} UTC, before this "
                    "release existed", "connect a network so NTP can set it (a Pi has no "
                    "clock battery): sudo timedatectl set-ntp true")
        return
    db = ctx.config.database
    with contextlib.suppress(OSError):
        mtime = datetime.fromtimestamp(db.stat().st_mtime, UTC)
        if mtime.timestamp() > now.timestamp() + 300:
            yield Check("clock", "warn", f"the database was written at {mtime:%Y-%m-%d %H:%M}"
                        " UTC, after now: the clock went backwards",
                        "wait for NTP (timedatectl) before starting games")
            return
    synced = _ntp_synchronized()
    if synced is False:
        yield Check("clock", "warn", f"{now:%Y-%m-%d %H:%M} UTC, not yet synchronized by NTP",
                    "sudo timedatectl set-ntp true, and check the network")
    else:
        yield Check("clock", "ok", f"{now:%Y-%m-%d %H:%M} UTC"
                    + (", synchronized" if synced else ""))


def _read_only(path: Path, immutable: bool) -> sqlite3.Connection:
    uri = f"{path.absolute().as_uri()}?mode=ro" + ("&immutable=1" if immutable else "")
    return sqlite3.connect(uri, uri=True, timeout=5)


def _integrity(path: Path, immutable: bool) -> list[str]:
    con = _read_only(path, immutable)
    try:
        return [str(r[0]) for r in con.execute("PRAGMA integrity_check(20)")]
    finally:
        con.close()


def check_database(ctx: Context) -> Iterator[Check]:
    db = ctx.config.database
    if not db.exists():
        yield Check("database", "ok", f"{db} not created yet (the first start creates it)")
        return
    if not os.access(db, os.R_OK):
        yield Check("database", "warn", f"cannot read {db}",
                    "run as root to check it: sudo tablebox doctor")
        return
    try:
        try:
            rows = _integrity(db, immutable=False)
        except sqlite3.OperationalError:
            if ctx.daemon is not None:
                raise
            # WAL without its -shm file, read-only: safe as immutable when no one writes
            rows = _integrity(db, immutable=True)
    except sqlite3.DatabaseError as e:
        yield Check("database", "fail", f"{db}: {e}",
                    "stop the service, move the file aside, and restore a backup")
        return
    if rows == ["ok"]:
        size = db.stat().st_size // 1024
        yield Check("database", "ok", f"{db} passes integrity_check ({size} KiB)")
    else:
        yield Check("database", "fail", f"{db}: " + "; ".join(rows[:3]),
                    "stop the service, keep a copy, then `sqlite3 FILE .recover` into a new "
                    "file (docs/operations.md)")


# -- the data directory: who may read it, who holds it -------------------------------------------
def _sudo(paths: list[Path]) -> str:
    mine = all(p.lstat().st_uid == os.geteuid() for p in paths if p.exists())
    return "" if mine else "sudo "


def check_data_dir(ctx: Context) -> Iterator[Check]:
    """Modes (the seeds are in the database: no one but the daemon's user may read it) and
    the lock (which daemon holds the directory). Only looks: ``datadir`` never writes here."""
    from hostd import datadir

    where = ctx.config.data_dir
    if not where.is_dir():
        yield Check("data directory", "ok", f"{where} not created yet (the first start "
                    "creates it, 0700)")
        return
    loose = datadir.loose_modes(where)
    if loose:
        shown = ", ".join(f"{p.name if p != where else p} {m:04o}" for p, m in loose)
        dirs = [p for p, _ in loose if p == where]
        files = [p for p, _ in loose if p != where]
        fixes = []
        if dirs:
            fixes.append(f"{_sudo(dirs)}chmod 700 {where}")
        if files:
            fixes.append(f"{_sudo(files)}chmod 600 " + " ".join(map(str, files)))
        fix = " && ".join(fixes)
        yield Check("data directory", "fail", f"other users can read the seeds: {shown} "
                    "(want the directory 0700, its files 0600)",
                    fix + " (a restart of the daemon also does it)")
    else:
        yield Check("data directory", "ok", f"{where} is private (0700, files 0600)")
    pid, control = datadir.lock_holder(where)
    if pid is not None or control is not None:
        who = f"pid {pid}" if pid else "a daemon"
        if ctx.daemon is not None:
            yield Check("data directory lock", "ok", f"held by the running daemon ({who})")
        else:
            yield Check("data directory lock", "warn", f"held by {who}, but its control socket "
                        f"{control or ctx.config.control} does not answer",
                        "stop it (sudo systemctl restart tablebox" + (
                            f", or kill {pid}" if pid else "") + ")")


# -- damaged tables ----------------------------------------------------------------------------
def _replay_offline(db: Path) -> tuple[int, list[dict[str, Any]]]:
    """(open tables, damaged ones' listing entries): what the daemon's start would find."""
    from hostd.store import read_tables
    from hostd.tables.core import TableMeta
    from hostd.tables.damage import DamagedTable, replay

    def read(immutable: bool) -> list[Any]:
        con = _read_only(db, immutable)
        try:
            return read_tables(con)
        finally:
            con.close()

    try:
        logs = read(immutable=False)
    except sqlite3.OperationalError:
        # WAL without its -shm file, read-only: safe as immutable when no one writes
        logs = read(immutable=True)
    damaged = []
    for tl in logs:
        r = tl.row
        found = replay(TableMeta(str(r.id), r.code, r.name, r.game, r.players, r.options,
                                 r.seed, r.turn_timer), tl.events)
        if isinstance(found, DamagedTable):
            damaged.append(found.summary())
    return len(logs), damaged


def damaged_check(t: dict[str, Any]) -> Check:
    """One damaged table's line: where replay stopped, and what to do about it."""
    d = t["damage"]
    game = f" of game {d['game']}" if d.get("game", 1) > 1 else ""
    return Check(f"table {t['id']}", "warn",
                 f"{t['game']} \"{t['name']}\" (code {t['code']}) is damaged: replay stopped "
                 f"at step {d['step']}{game} ({d['code']}); not playable, nothing deleted",
                 f"keep its events: tablebox export {t['id']} -o table-{t['id']}.json (attach it "
                 f"to a bug report); then tablebox tables close {t['id']}, or keep it until an "
                 "upgrade replays it (docs/operations.md, Damaged tables)")


def check_tables(ctx: Context) -> Iterator[Check]:
    """Damaged tables: the running daemon's list, else a read-only replay of the database."""
    if ctx.daemon is not None:
        damaged = list(ctx.daemon.get("damaged", []))
        summary = f"{ctx.daemon.get('restored', 0)} open tables restored by the daemon"
    else:
        db = ctx.config.database
        if not db.exists() or not os.access(db, os.R_OK):
            return  # the database check says why
        try:
            count, damaged = _replay_offline(db)
        except sqlite3.DatabaseError as e:
            yield Check("tables", "warn", f"cannot read the tables in {db}: {e}",
                        "see the database check above")
            return
        summary = f"{count - len(damaged)} of {count} open tables replay (read-only check)"
    if not damaged:
        yield Check("tables", "ok", summary + ", none damaged")
        return
    for t in damaged:
        yield damaged_check(t)


# -- updates -------------------------------------------------------------------------------------
def _when(ts: Any) -> str:
    try:
        return datetime.fromtimestamp(float(ts), UTC).strftime("%Y-%m-%d %H:%M UTC")
    except (TypeError, ValueError, OverflowError, OSError):
        return "?"


def check_update(ctx: Context) -> Iterator[Check]:
    """The installed release, the feed and the last check (read from the daemon's status and
    the releases folder; the feed itself is never asked from here)."""
    from hostd.update import switch
    from hostd.update.version import version

    c = ctx.config
    releases = c.releases_dir
    running = (ctx.daemon or {}).get("version") or version()
    current = switch.linked(releases, "current")
    previous = switch.linked(releases, "previous")
    state = switch.read_state(releases)
    if current:
        where = (f"current -> {current}" + (f", previous -> {previous}" if previous else "")
                 + f" in {releases}")
    else:
        where = f"not managed by the updater ({releases} has no current release)"
    detail = f"running {running}; {where}"
    if state.get("trial"):
        t = state["trial"]
        yield Check("release", "warn", f"{detail}; {t.get('version')} has been on trial since "
                    f"{_when(t.get('since'))} and was never confirmed",
                    "tablebox update --apply again, or tablebox update --rollback")
    else:
        yield Check("release", "ok", detail)
    back = state.get("last_rollback")
    if back:
        yield Check("last rollback", "warn" if not back.get("by_hand") else "ok",
                    f"{_when(back.get('at'))}: {back.get('from')} -> {back.get('to')}: "
                    f"{back.get('reason')}",
                    "read the new release's log (journalctl -u tablebox) before trying again")
    mode = c.update
    yield Check("update feed", "ok", f"update = {mode}: {c.update_feed}"
                + (f", every {c.update_interval / 3600:g} h" if mode != "off" else ""))
    last = (ctx.daemon or {}).get("update") or state.get("last_check")
    if mode == "off" and not last:
        return
    if not last:
        yield Check("last check", "ok", "none yet (the daemon checks a minute after it starts)"
                    if ctx.daemon else "none recorded (the daemon is not running)")
    elif last.get("error"):
        yield Check("last check", "warn", f"{_when(last.get('checked_at'))}: {last['error']}",
                    "check the network and update_feed; tablebox update --check tries now")
    else:
        top = (last.get("newest") or {}).get("version")
        news = f"{top} is available (tablebox update --apply)" if last.get("available") \
            else f"up to date (newest {top})"
        yield Check("last check", "ok", f"{_when(last.get('checked_at'))}: {news}")


# -- the chess engine ---------------------------------------------------------------------------
def check_chess_engine(ctx: Context) -> Iterator[Check]:
    """Which engine the chess levels play on: Stockfish (found as the AI workers find it, and
    asked its version over UCI), or the built-in search and why."""
    from hostd.tables import stockfish

    usable, detail = stockfish.describe()
    yield Check("chess engine", "ok" if usable else "warn", detail,
                "" if usable else "apt install stockfish (normal and hard then play on it)")


# -- all of it ---------------------------------------------------------------------------------
def run_checks(ctx: Context) -> list[Check]:
    ifs = interfaces()
    groups: list[Callable[[], Iterator[Check]]] = [
        lambda: check_daemon(ctx), lambda: check_ports(ctx),
        lambda: check_network(ctx, ifs), lambda: check_mdns(ctx, ifs), lambda: check_mdns_backend(ctx),
        lambda: check_bluetooth(ctx), lambda: check_hotspot(ctx), lambda: check_disk(ctx), lambda: check_clock(ctx),
        lambda: check_data_dir(ctx), lambda: check_database(ctx), lambda: check_tables(ctx),
        lambda: check_update(ctx), lambda: check_chess_engine(ctx),
    ]
    checks: list[Check] = []
    for group in groups:
        try:
            checks.extend(group())
        except Exception as e:  # a check that breaks is a finding, not a crash
            checks.append(Check("doctor", "fail", f"a check failed to run: {e!r}"))
    return checks


def diagnose(loaded: cfg.Loaded | None, config_error: str = "", **kw: Any) -> list[Check]:
    """Every check for the configuration ``loaded`` (or its error: defaults are checked)."""
    if loaded is None:
        first = Check("config", "fail", config_error, "fix that key in the file")
        config, file = cfg.Config(), None
    else:
        config, file = loaded.config, loaded.file
        first = Check("config", "ok", f"{file}" if file else "defaults (no config file)")
    control = cfg.client_control_path(config, loaded.sources if loaded else None)
    daemon, why = daemon_status(control)
    ctx = Context(config, file, daemon, why, control=control, **kw)
    return [first, *run_checks(ctx)]


def report(checks: list[Check]) -> dict[str, Any]:
    return {"ok": not any(c.status == "fail" for c in checks),
            "checks": [asdict(c) for c in checks],
            "time": time.time()}


def to_json(checks: list[Check]) -> str:
    return json.dumps(report(checks), ensure_ascii=False, indent=2)
