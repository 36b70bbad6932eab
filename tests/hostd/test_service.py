"""The systemd unit (its security rating, its syntax, MemoryDenyWriteExecute with our stack)
and `tablebox service install/uninstall` into a scratch root with the real shadow tools."""

from __future__ import annotations

import ctypes
import os
import platform
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from hostd import config as cfg
from hostd import service
from hostd.cli import main
from hostd.transports import admission
from hostd.update import units as update_units

ROOT = Path(__file__).resolve().parents[2]
ANALYZE = shutil.which("systemd-analyze")
needs_analyze = pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze not installed")
needs_root = pytest.mark.skipif(os.geteuid() != 0 or shutil.which("useradd") is None,
                                reason="the shadow tools need root, even with --prefix")


# The checkout may live anywhere (CI clones into any folder, /tmp included), where the sandboxed
# service could not read it: installs in tests name an ExecStart it could see.
EXEC = ("--exec-start", "/opt/tablebox/bin/tablebox serve")

def test_the_committed_unit_is_the_rendered_one() -> None:
    committed = (ROOT / "systemd" / "tablebox.service").read_text(encoding="utf-8")
    assert committed == service.render_unit(), (
        "regenerate: tablebox service unit > systemd/tablebox.service")


def test_the_unit_has_what_the_issue_lists() -> None:
    unit = service.render_unit()
    settings = [line for line in unit.splitlines() if line and not line.startswith("#")]
    for wanted in ("Type=notify", "WatchdogSec=30", "Restart=on-failure", "StartLimitBurst=5",
                   "User=tablebox", "Group=tablebox", "StateDirectory=tablebox",
                   "RuntimeDirectory=tablebox", "RuntimeDirectoryMode=0750",
                   "ConfigurationDirectory=tablebox", "NoNewPrivileges=yes",
                   "ProtectSystem=strict", "ProtectHome=yes", "PrivateTmp=yes",
                   "PrivateDevices=yes", "ProtectKernelTunables=yes", "ProtectKernelModules=yes",
                   "ProtectControlGroups=yes", "RestrictNamespaces=yes", "LockPersonality=yes",
                   "MemoryDenyWriteExecute=yes", "SystemCallFilter=@system-service",
                   "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK",
                   "CapabilityBoundingSet=",
                   "After=network-online.target bluetooth.target avahi-daemon.service",
                   "Wants=network-online.target bluetooth.target"):
        assert wanted in settings, wanted
    low = service.render_unit(low_port=True)
    assert "CapabilityBoundingSet=CAP_NET_BIND_SERVICE" in low
    assert "AmbientCapabilities=CAP_NET_BIND_SERVICE" in low
    assert "PrivateUsers=yes" not in low and "PrivateUsers=yes" in unit


def test_the_unit_raises_the_descriptor_limit_for_client_connections() -> None:
    """Issue 19: under the default 1024, idle connections locked everyone out. The unit sets
    both limits (the system call filter keeps the daemon from raising its own)."""
    for unit in (service.render_unit(), service.render_unit(low_port=True)):
        settings = [line for line in unit.splitlines() if line.startswith("LimitNOFILE=")]
        assert settings == [f"LimitNOFILE={service.NOFILE}"] and service.NOFILE >= 4096
    budget = admission.plan(0, 64, descriptors=service.NOFILE, in_use=40)
    assert budget.total >= 3000, budget


def _exposure(unit: Path) -> tuple[float, str, int]:
    out = subprocess.run([ANALYZE or "systemd-analyze", "security", "--offline=yes",
                          "--threshold=20", str(unit)],
                         capture_output=True, text=True, check=False, timeout=60)
    last = (out.stdout.strip().splitlines() or [""])[-1]
    m = re.search(r"Overall exposure level for \S+: (\d+\.\d+) (\w+)", last)
    assert m, out.stdout + out.stderr
    return float(m.group(1)), m.group(2), out.returncode


@needs_analyze
@pytest.mark.parametrize("low_port", [False, True])
def test_security_rating_is_ok(tmp_path: Path, low_port: bool) -> None:
    unit = tmp_path / "tablebox.service"
    unit.write_text(service.render_unit(low_port=low_port))
    exposure, verdict, rc = _exposure(unit)
    assert verdict == "OK" and exposure <= 2.0 and rc == 0, (exposure, verdict)


@needs_analyze
def test_systemd_reads_every_setting(tmp_path: Path) -> None:
    unit = tmp_path / "tablebox.service"
    unit.write_text(service.render_unit(f"{sys.executable} -m hostd.cli serve"))
    out = subprocess.run([ANALYZE or "systemd-analyze", "verify", str(unit)],
                         capture_output=True, text=True, check=False, timeout=60)
    assert out.returncode == 0 and "Unknown" not in out.stderr, out.stderr


@needs_analyze
def test_systemd_reads_the_updaters_units(tmp_path: Path) -> None:
    (tmp_path / "tablebox-update.service").write_text(
        update_units.render_service(f"{sys.executable} -m hostd.cli"))
    (tmp_path / "tablebox-update.timer").write_text(update_units.render_timer())
    out = subprocess.run([ANALYZE or "systemd-analyze", "verify",
                          str(tmp_path / "tablebox-update.timer"),
                          str(tmp_path / "tablebox-update.service")],
                         capture_output=True, text=True, check=False, timeout=60)
    assert out.returncode == 0 and "Unknown" not in out.stderr, out.stderr


def _mdwe_supported() -> bool:
    # PR_GET_MDWE exists from Linux 6.3; systemd 253+ uses the same kernel switch.
    libc = ctypes.CDLL(None, use_errno=True)
    return platform.system() == "Linux" and libc.prctl(66, 0, 0, 0, 0) >= 0


_MDWE_CHILD = """
import ctypes, mmap, sys
libc = ctypes.CDLL(None)
assert libc.prctl(66, 0, 0, 0, 0) & 1, "MDWE is not on"
try:
    mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    sys.exit("a writable executable mapping was allowed")
except OSError:
    pass
import msgspec, trio, zeroconf, ifaddr, structlog, hypercorn, starlette, jeepney, sqlite3, segno
import hostd.cli, hostd.logs, hostd.config
assert ifaddr.get_adapters()
con = sqlite3.connect(":memory:"); con.execute("create table t(x)"); con.close()
class M(msgspec.Struct):
    x: int
assert msgspec.json.decode(msgspec.json.encode(M(1)), type=M) == M(1)
async def main():
    await trio.sleep(0)
trio.run(main)
cb = ctypes.CFUNCTYPE(ctypes.c_int)(lambda: 7)  # a libffi closure
assert cb() == 7
print("ok")
"""


@pytest.mark.skipif(not _mdwe_supported(), reason="kernel without PR_SET_MDWE (< 6.3)")
def test_our_stack_runs_under_memory_deny_write_execute() -> None:
    # Turn MDWE on in a child (it is inherited across exec), then import and exercise the
    # daemon's libraries there: this is what MemoryDenyWriteExecute=yes does to the service.
    launcher = ("import ctypes, os, sys\n"
                "assert ctypes.CDLL(None).prctl(65, 1, 0, 0, 0) == 0\n"
                "os.execv(sys.executable, [sys.executable, '-c', sys.argv[1]])\n")
    out = subprocess.run([sys.executable, "-c", launcher, _MDWE_CHILD], cwd=ROOT,
                         capture_output=True, text=True, check=False, timeout=60)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


def test_code_the_service_cannot_see_is_refused() -> None:
    with pytest.raises(service.ServiceError, match="ProtectHome"):
        service.check_runnable("/home/pi/venv/bin/tablebox serve")
    with pytest.raises(service.ServiceError, match="/opt/tablebox"):
        service.check_runnable("/tmp/venv/bin/python -m hostd.cli serve")
    service.check_runnable("/opt/tablebox/bin/tablebox serve")


def _cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def _group(root: Path, name: str) -> list[str] | None:
    for line in (root / "etc" / "group").read_text().splitlines():
        fields = line.split(":")
        if fields[0] == name:
            return fields
    return None


def test_dry_run_changes_nothing(tmp_path: Path) -> None:
    code, out = _cli("service", "install", "--root", str(tmp_path), "--dry-run", *EXEC)
    assert code == 0
    assert "would create the system user tablebox" in out
    assert "would write /etc/systemd/system/tablebox.service" in out
    assert list(tmp_path.iterdir()) == []


@needs_root
def test_install_and_uninstall_into_a_scratch_root(tmp_path: Path) -> None:
    root = tmp_path / "root"
    etc = root / "etc"
    etc.mkdir(parents=True)
    for name in service.ACCOUNT_FILES:
        (etc / name).touch()
    # an operator account and BlueZ's group already exist on a Pi
    subprocess.run(["useradd", "--prefix", str(root), "--no-create-home", "pi"], check=True)
    subprocess.run(["groupadd", "--prefix", str(root), "bluetooth"], check=True)

    code, out = _cli("service", "install", "--root", str(root), "--operator", "pi",
                     "--exec-start", "/opt/tablebox/bin/tablebox serve")
    assert code == 0, out
    passwd = (etc / "passwd").read_text()
    assert re.search(r"^tablebox:x:\d+:\d+:tablebox daemon:/var/lib/tablebox:/usr/sbin/nologin$",
                     passwd, re.M)
    group = _group(root, "tablebox")
    assert group is not None and "pi" in group[3].split(",")
    assert "tablebox" in (_group(root, "bluetooth") or ["", "", "", ""])[3].split(",")

    unit = root / "etc/systemd/system/tablebox.service"
    assert unit.read_text() == service.render_unit("/opt/tablebox/bin/tablebox serve")
    # The updater beside it: its unit runs the same release's tablebox, a daily timer, and a
    # polkit rule letting the daemon's user start that one unit.
    updater = root / "etc/systemd/system/tablebox-update.service"
    assert "ExecStart=/opt/tablebox/bin/tablebox update --apply --auto\n" in updater.read_text()
    timer = root / "etc/systemd/system/tablebox-update.timer"
    assert timer.read_text() == update_units.render_timer()
    rule = (root / "etc/polkit-1/rules.d/50-tablebox-update.rules").read_text()
    assert 'subject.user == "tablebox"' in rule and '"tablebox-update.service"' in rule
    assert 'action.lookup("verb") == "start"' in rule
    conf = root / "etc/tablebox/config.toml"
    assert conf.stat().st_mode & 0o777 == 0o640 and conf.stat().st_gid == int(group[2])
    assert tomllib.loads(conf.read_text()) == {}  # every key documented, none set
    assert "skip systemctl (--root)" in out

    # a port below 1024 in the kept config: the reinstall adds the one capability
    conf.write_text(conf.read_text() + "\nhttp_port = 80\n")
    code, out = _cli("service", "install", "--root", str(root),
                     "--exec-start", "/opt/tablebox/bin/tablebox serve")
    assert code == 0, out
    assert "create the system user" not in out and "keep the existing" in out
    assert "http_port = 80" in conf.read_text()
    assert "AmbientCapabilities=CAP_NET_BIND_SERVICE" in unit.read_text()
    assert not (root / "etc/polkit-1/rules.d/50-tablebox-hotspot.rules").exists()

    # the hotspot turned on: NetworkManager may be driven by the service user, and its
    # dnsmasq leaves DNS on the hotspot to the daemon
    conf.write_text(conf.read_text() + 'hotspot = "auto"\n')
    code, out = _cli("service", "install", "--root", str(root), *EXEC)
    assert code == 0, out
    hs_rule = (root / "etc/polkit-1/rules.d/50-tablebox-hotspot.rules").read_text()
    assert 'subject.user == "tablebox"' in hs_rule
    assert '"org.freedesktop.NetworkManager.network-control"' in hs_rule
    dnsmasq = (root / "etc/NetworkManager/dnsmasq-shared.d/tablebox.conf").read_text()
    assert "\nport=0\n" in dnsmasq and "dhcp-option=option:dns-server,0.0.0.0" in dnsmasq

    # a broken config stops the reinstall with the config's own one-line error
    conf.write_text("http_port = 99999\n")
    code, out = _cli("service", "install", "--root", str(root), *EXEC)
    assert code == 1 and "http_port must be an integer 0-65535" in out

    code, out = _cli("service", "uninstall", "--root", str(root))
    assert code == 0, out
    assert not unit.exists() and conf.exists() and "tablebox:" in (etc / "passwd").read_text()
    assert not updater.exists() and not timer.exists()
    assert not (root / "etc/polkit-1/rules.d/50-tablebox-update.rules").exists()
    assert not (root / "etc/polkit-1/rules.d/50-tablebox-hotspot.rules").exists()
    assert not (root / "etc/NetworkManager/dnsmasq-shared.d/tablebox.conf").exists()

    (root / "var/lib/tablebox").mkdir(parents=True)
    (root / "var/lib/tablebox/tablebox.sqlite3").write_bytes(b"")
    code, out = _cli("service", "uninstall", "--root", str(root), "--purge")
    assert code == 0, out
    assert not (root / "etc/tablebox").exists() and not (root / "var/lib/tablebox").exists()
    assert "tablebox:" not in (etc / "passwd").read_text()
    assert _group(root, "tablebox") is None
    assert "pi:" in (etc / "passwd").read_text()


def test_the_committed_updater_units_are_the_rendered_ones() -> None:
    assert (ROOT / "systemd" / "tablebox-update.service").read_text() == \
        update_units.render_service()
    assert (ROOT / "systemd" / "tablebox-update.timer").read_text() == update_units.render_timer()


def test_the_updater_runs_the_services_own_release() -> None:
    assert update_units.tablebox_of("/opt/x/bin/tablebox serve") == "/opt/x/bin/tablebox"
    assert update_units.tablebox_of("/usr/bin/python3 -m hostd.cli serve") == \
        "/usr/bin/python3 -m hostd.cli"


def test_no_updates_installs_no_updater(tmp_path: Path) -> None:
    code, out = _cli("service", "install", "--root", str(tmp_path), "--dry-run", "--no-updates",
                     *EXEC)
    assert code == 0, out
    assert "tablebox-update" not in out and "polkit" not in out
    code, out = _cli("service", "install", "--root", str(tmp_path), "--dry-run", *EXEC)
    assert "would write /etc/systemd/system/tablebox-update.timer" in out


def test_install_refuses_an_unknown_operator(tmp_path: Path) -> None:
    code, out = _cli("service", "install", "--root", str(tmp_path), "--operator", "nobody-here",
                     "--dry-run", *EXEC)
    assert code == 1 and "--operator nobody-here: no such user" in out


def test_needs_bind_capability() -> None:
    assert not service.needs_bind_capability(cfg.Config())
    assert service.needs_bind_capability(cfg.Config(http_port=80))
    assert not service.needs_bind_capability(cfg.Config(http_port=0, tcp_port=0))
    # the hotspot's DNS (53) and captive portal (80)
    assert service.needs_bind_capability(cfg.Config(hotspot="auto"))
