"""The systemd service: the unit text, and the steps that install or remove it.

Owns ``render_unit`` (the one source of ``systemd/tablebox.service``: a test keeps the committed
file equal to it) and the plans behind ``tablebox service install`` / ``uninstall``: create the
``tablebox`` user and group, write the unit and a default config, enable and start it.

A plan is a list of ``Step``s, each a sentence and an action, so ``--dry-run`` prints exactly
what would run. With ``root`` set, every path is taken under that directory, the shadow tools
run with ``--prefix`` on its ``etc/`` files, and systemctl is skipped: that is how the tests
install into a scratch directory. This module never touches the system on import, never
removes the state directory unless asked to purge, and never prints: the CLI prints the plan.
"""

from __future__ import annotations

import functools
import grp
import os
import pwd
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from hostd import config as cfg
from hostd.hotspot import install as hotspot_install
from hostd.update import units as update_units

USER = GROUP = "tablebox"
UNIT_NAME = "tablebox.service"
UNIT_PATH = Path("/etc/systemd/system") / UNIT_NAME
CONFIG_PATH = cfg.SERVICE_CONFIG
STATE_PATH = Path("/var/lib/tablebox")
DEFAULT_EXEC = "/opt/tablebox/bin/tablebox serve"
BLUETOOTH_GROUP = "bluetooth"  # BlueZ's D-Bus policy lets this group talk to org.bluez
STOP_TIMEOUT = 20  # seconds: TimeoutStopSec; the daemon's shutdown deadline must fit inside
NOFILE = 4096  # LimitNOFILE: about 3,800 client connections, ~21 KB each (docs/operations.md)
# ProtectHome= hides these and PrivateTmp= replaces /tmp: code there cannot run as the service.
HIDDEN_FROM_SERVICE = (Path("/home"), Path("/root"), Path("/run/user"), Path("/tmp"),
                       Path("/var/tmp"))


class ServiceError(Exception):
    """Installing or removing the service cannot go on; ``str(e)`` is one line with the fix."""


_UNIT = """\
# tablebox: the game table host as a hardened systemd service.
# Written by `tablebox service install` (docs/operations.md); edit with
# `systemctl edit tablebox` so a reinstall does not overwrite your changes.
[Unit]
Description=tablebox card and board game table host
# Discovery wants addresses, BlueZ and Avahi up; none is required to start.
After=network-online.target bluetooth.target avahi-daemon.service
Wants=network-online.target bluetooth.target
# A daemon that fails five times in five minutes stays down until an operator looks.
StartLimitIntervalSec=300
StartLimitBurst=5

[Service]
# READY=1 comes only after every listener is up and every table is restored.
Type=notify
NotifyAccess=main
ExecStart={exec_start}
Restart=on-failure
RestartSec=2
# WATCHDOG=1 is sent from the event loop at half this interval: a stuck loop is restarted.
WatchdogSec=30
TimeoutStartSec=90
# SIGTERM: stop accepting, tell clients, commit the step in flight, exit well inside this.
TimeoutStopSec={stop_timeout}
# SIGTERM to the daemon only: it shuts its AI worker processes down itself (a worker killed
# mid-decision would only be noise); whatever is left after it exits gets SIGKILL.
KillMode=mixed
# Descriptors: both limits (soft and hard), since the system call filter below keeps the
# daemon from raising its own. Client connections get what is left after the database, the
# AI workers and a reserve that keeps the control socket and /healthz answering
# (max_connections, docs/operations.md "Connection limits").
LimitNOFILE={nofile}
User=tablebox
Group=tablebox
# Files are private to the service; the daemon opens the control socket to its group itself.
UMask=0077
# /var/lib/tablebox: database and the rotated log file, service only.
StateDirectory=tablebox
StateDirectoryMode=0700
# /run/tablebox: the control socket; members of the tablebox group may use it.
RuntimeDirectory=tablebox
RuntimeDirectoryMode=0750
# /etc/tablebox: config.toml, owned by root, readable by the tablebox group.
ConfigurationDirectory=tablebox

# Hardening: `systemd-analyze security tablebox` rates this unit OK (a test keeps it <= 2.0).
NoNewPrivileges=yes
ProtectSystem=strict
ProtectHome=yes
PrivateTmp=yes
PrivateDevices=yes
PrivateMounts=yes
{private_users}ProtectKernelTunables=yes
ProtectKernelModules=yes
ProtectKernelLogs=yes
ProtectControlGroups=yes
ProtectClock=yes
ProtectHostname=yes
ProtectProc=invisible
ProcSubset=pid
# AF_NETLINK: zeroconf lists interfaces and addresses over rtnetlink (getifaddrs).
# No AF_BLUETOOTH: BlueZ accepts each RFCOMM connection itself and hands the connected socket
# over D-Bus (Profile1.NewConnection). This filter only stops socket(2) from creating a new
# socket of another family; a socket received as a file descriptor works as any other.
RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK
RestrictNamespaces=yes
RestrictRealtime=yes
RestrictSUIDSGID=yes
LockPersonality=yes
# CPython, msgspec, zeroconf and ctypes (libffi's static trampolines) need no W+X memory.
MemoryDenyWriteExecute=yes
RemoveIPC=yes
SystemCallFilter=@system-service
SystemCallFilter=~@privileged @resources
SystemCallArchitectures=native
SystemCallErrorNumber=EPERM
{capabilities}
[Install]
WantedBy=multi-user.target
"""

_NO_CAPABILITIES = """\
# Ports 1024 and up need no capability at all.
CapabilityBoundingSet=
AmbientCapabilities=
"""
_BIND_CAPABILITY = """\
# A configured port below 1024 needs this one capability (and no PrivateUsers=, which would
# make the capability count only inside the service's own user namespace).
CapabilityBoundingSet=CAP_NET_BIND_SERVICE
AmbientCapabilities=CAP_NET_BIND_SERVICE
"""


def needs_bind_capability(config: cfg.Config) -> bool:
    """A configured port below 1024, or the hotspot (its DNS on 53, its portal on 80)."""
    return config.hotspot != "off" or any(
        0 < port < 1024 for port in (config.tcp_port, config.http_port))


def render_unit(exec_start: str = DEFAULT_EXEC, low_port: bool = False) -> str:
    """The unit file; ``low_port``: a configured port is below 1024."""
    return _UNIT.format(
        exec_start=exec_start,
        stop_timeout=STOP_TIMEOUT,
        nofile=NOFILE,
        private_users="" if low_port else "PrivateUsers=yes\n",
        capabilities=_BIND_CAPABILITY if low_port else _NO_CAPABILITIES,
    )


def this_exec_start() -> str:
    """ExecStart for the Python running now: its ``tablebox`` script, else ``-m hostd.cli``."""
    script = Path(sys.executable).parent / "tablebox"
    if script.is_file() and os.access(script, os.X_OK):
        return f"{script} serve"
    return f"{sys.executable} -m hostd.cli serve"


def check_runnable(exec_start: str) -> None:
    """Refuse code the sandboxed service could not even read."""
    program = Path(exec_start.split()[0]).absolute()
    for hidden in HIDDEN_FROM_SERVICE:
        if program == hidden or hidden in program.parents:
            raise ServiceError(
                f"{program} is under {hidden}, which the service cannot see (ProtectHome=, "
                "PrivateTmp=): make the venv outside it, e.g. `sudo python3 -m venv "
                "/opt/tablebox && sudo /opt/tablebox/bin/pip install tablebox`, then run "
                "`sudo /opt/tablebox/bin/tablebox service install`")


# -- plans ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Step:
    text: str
    run: Callable[[], None]


def _run(*cmd: str) -> None:
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=120)
    except FileNotFoundError:
        raise ServiceError(f"{cmd[0]} is not installed: it is needed to manage the service"
                           ) from None
    if out.returncode != 0:
        detail = (out.stderr or out.stdout).strip().splitlines()
        raise ServiceError(f"`{' '.join(cmd)}` failed: {detail[-1] if detail else out.returncode}")


class _Accounts:
    """Users and groups of the real system, or of ``root/etc`` for a scratch install."""

    def __init__(self, root: Path | None) -> None:
        self.root = root
        self.prefix = ("--prefix", str(root)) if root is not None else ()

    def _lines(self, name: str) -> list[list[str]]:
        assert self.root is not None
        path = self.root / "etc" / name
        if not path.exists():
            return []
        return [line.split(":") for line in path.read_text().splitlines() if line.strip()]

    def group(self, name: str) -> tuple[int, list[str]] | None:
        """(gid, members) of group ``name``, or None."""
        if self.root is None:
            try:
                g = grp.getgrnam(name)
            except KeyError:
                return None
            return g.gr_gid, list(g.gr_mem)
        for fields in self._lines("group"):
            if fields[0] == name:
                return int(fields[2]), [m for m in fields[3].split(",") if m]
        return None

    def user(self, name: str) -> int | None:
        if self.root is None:
            try:
                return pwd.getpwnam(name).pw_uid
            except KeyError:
                return None
        for fields in self._lines("passwd"):
            if fields[0] == name:
                return int(fields[2])
        return None


ACCOUNT_FILES = ("passwd", "group", "shadow", "gshadow")


def _touch_accounts(root: Path, names: list[str]) -> None:
    (root / "etc").mkdir(parents=True, exist_ok=True)
    for name in names:
        (root / "etc" / name).touch(mode=0o600 if "shadow" in name else 0o644)


def _under(root: Path | None, path: Path) -> Path:
    return path if root is None else root / path.relative_to("/")


def _write(path: Path, text: str, mode: int, gid: Callable[[], int | None] | None = None) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".new")
    tmp.write_text(text, encoding="utf-8")
    os.chmod(tmp, mode)
    group = gid() if gid else None
    if group is not None and os.geteuid() == 0:
        os.chown(tmp, 0, group)
    os.replace(tmp, path)


def _systemd_running() -> bool:
    return Path("/run/systemd/system").is_dir()


def _preflight(root: Path | None) -> None:
    if root is not None:
        return
    if os.geteuid() != 0:
        raise ServiceError("run as root: sudo tablebox service ... (or --root DIR to try it)")
    if not _systemd_running() or shutil.which("systemctl") is None:
        raise ServiceError("systemd is not running here; run `tablebox serve` under your own "
                           "supervisor instead (docs/operations.md)")


def plan_install(root: Path | None = None, exec_start: str | None = None,
                 operators: tuple[str, ...] = (), start: bool = True,
                 updates: bool = True) -> list[Step]:
    """Everything ``tablebox service install`` does, in order. Raises ServiceError early."""
    _preflight(root)
    exec_start = exec_start or this_exec_start()
    check_runnable(exec_start)
    accounts = _Accounts(root)
    steps: list[Step] = []
    pre = accounts.prefix

    if root is not None:
        missing = [n for n in ACCOUNT_FILES if not (root / "etc" / n).exists()]
        if missing:
            steps.append(Step(f"create empty {', '.join(missing)} under {root / 'etc'}",
                              functools.partial(_touch_accounts, root, missing)))
    if accounts.group(GROUP) is None:
        steps.append(Step(f"create the system group {GROUP}",
                          lambda: _run("groupadd", *pre, "--system", GROUP)))
    if accounts.user(USER) is None:
        steps.append(Step(
            f"create the system user {USER} (no login, home {STATE_PATH})",
            lambda: _run("useradd", *pre, "--system", "--gid", GROUP, "--home-dir",
                         str(STATE_PATH), "--no-create-home", "--shell", "/usr/sbin/nologin",
                         "--comment", "tablebox daemon", USER)))
    bt = accounts.group(BLUETOOTH_GROUP)
    if bt is not None and USER not in bt[1]:
        steps.append(Step(f"add {USER} to the {BLUETOOTH_GROUP} group (BlueZ over D-Bus)",
                          lambda: _run("usermod", *pre, "--append", "--groups",
                                       BLUETOOTH_GROUP, USER)))
    for op in operators:
        if accounts.user(op) is None:
            raise ServiceError(f"--operator {op}: no such user")
        members = (accounts.group(GROUP) or (0, []))[1]
        if op not in members:
            steps.append(Step(
                f"add {op} to the {GROUP} group (control socket; takes effect at next login)",
                functools.partial(_run, "usermod", *pre, "--append", "--groups", GROUP, op)))

    def gid() -> int | None:
        found = accounts.group(GROUP)
        return found[0] if found else None

    config_file = _under(root, CONFIG_PATH)
    if config_file.exists():
        try:
            effective = cfg.load(config_file, environ={}).config
        except cfg.ConfigError as e:
            raise ServiceError(f"fix the existing config first: {e}") from None
        steps.append(Step(f"keep the existing {CONFIG_PATH}", lambda: None))
    else:
        effective = cfg.Config(data_dir=STATE_PATH, control=cfg.SERVICE_CONTROL)
        steps.append(Step(
            f"write a default {CONFIG_PATH} (every key, commented; root:{GROUP} 0640)",
            lambda: _write(config_file, cfg.render_default_file(), 0o640, gid)))

    low = needs_bind_capability(effective)
    unit = render_unit(exec_start, low_port=low)
    unit_file = _under(root, UNIT_PATH)
    steps.append(Step(
        f"write {UNIT_PATH} (ExecStart={exec_start}"
        + ("; CAP_NET_BIND_SERVICE for a port below 1024" if low else "") + ")",
        lambda: _write(unit_file, unit, 0o644)))
    if updates:
        steps.extend(_plan_updater(root, exec_start))
    if effective.hotspot != "off":
        steps.extend(_plan_hotspot(root))

    if root is None:
        steps.append(Step("systemctl daemon-reload", lambda: _run("systemctl", "daemon-reload")))
        steps.append(Step(f"systemctl enable {UNIT_NAME}",
                          lambda: _run("systemctl", "enable", "--quiet", UNIT_NAME)))
        if updates:
            steps.append(Step(f"systemctl enable --now {update_units.TIMER_NAME} (a daily "
                              "check; it applies only with update = \"apply-when-idle\")",
                              lambda: _run("systemctl", "enable", "--now", "--quiet",
                                           update_units.TIMER_NAME)))
        if start:
            steps.append(Step(f"systemctl restart {UNIT_NAME} (starts it, or restarts it with "
                              "the new unit)",
                              lambda: _run("systemctl", "restart", UNIT_NAME)))
    else:
        steps.append(Step("skip systemctl (--root)", lambda: None))
    return steps


def _plan_updater(root: Path | None, exec_start: str) -> list[Step]:
    """The updater's unit and timer beside the service, and the polkit rule that lets the
    daemon start that unit (and no other) when it finds a release while idle."""
    tablebox = update_units.tablebox_of(exec_start)
    files = (
        (update_units.SERVICE_PATH, update_units.render_service(tablebox),
         f"(ExecStart={tablebox} update --apply --auto)"),
        (update_units.TIMER_PATH, update_units.render_timer(), "(daily)"),
        (update_units.POLKIT_PATH, update_units.render_polkit_rule(USER),
         f"(the {USER} user may start {update_units.SERVICE_NAME}, nothing else)"),
    )
    return [Step(f"write {path} {why}",
                 functools.partial(_write, _under(root, path), text, 0o644))
            for path, text, why in files]


def _plan_hotspot(root: Path | None) -> list[Step]:
    """The polkit rule that lets the daemon run its one NetworkManager connection, and the
    drop-in that leaves DNS on the hotspot to the daemon (hostd.hotspot.install)."""
    files = (
        (hotspot_install.POLKIT_PATH, hotspot_install.render_polkit_rule(USER),
         f"(the {USER} user may manage NetworkManager connections: the hotspot)"),
        (hotspot_install.DNSMASQ_PATH, hotspot_install.DNSMASQ,
         "(NetworkManager's dnsmasq leaves DNS on the hotspot to tablebox)"),
    )
    return [Step(f"write {path} {why}",
                 functools.partial(_write, _under(root, path), text, 0o644))
            for path, text, why in files]


def plan_uninstall(root: Path | None = None, purge: bool = False) -> list[Step]:
    """Everything ``tablebox service uninstall`` does. Without ``purge`` the config, the state
    (every game) and the user stay, so a reinstall carries on where it stopped."""
    _preflight(root)
    accounts = _Accounts(root)
    pre = accounts.prefix
    steps: list[Step] = []
    if root is None:
        # An install from before the updater's units has no timer to disable.
        names = ([update_units.TIMER_NAME] if update_units.TIMER_PATH.exists() else []) + [
            UNIT_NAME]
        for name in names:
            steps.append(Step(f"systemctl disable --now {name}", functools.partial(
                _run, "systemctl", "disable", "--now", "--quiet", name)))
    for path in (UNIT_PATH, update_units.SERVICE_PATH, update_units.TIMER_PATH,
                 update_units.POLKIT_PATH, hotspot_install.POLKIT_PATH,
                 hotspot_install.DNSMASQ_PATH):
        target = _under(root, path)
        if target.exists():
            steps.append(Step(f"remove {path}",
                              functools.partial(target.unlink, missing_ok=True)))
    if root is None:
        steps.append(Step("systemctl daemon-reload", lambda: _run("systemctl", "daemon-reload")))
    if not purge:
        steps.append(Step(f"keep {CONFIG_PATH.parent}, {STATE_PATH} and the {USER} user "
                          "(--purge removes them)", lambda: None))
        return steps
    for path in (CONFIG_PATH.parent, STATE_PATH):
        target = _under(root, path)
        if target.exists():
            steps.append(Step(f"remove {path} and everything in it",
                              functools.partial(shutil.rmtree, target)))
    if accounts.user(USER) is not None:
        steps.append(Step(f"delete the user {USER}", lambda: _run("userdel", *pre, USER)))
    if accounts.group(GROUP) is not None:
        def delete_group() -> None:  # userdel may have removed it with its last member
            if accounts.group(GROUP) is not None:
                _run("groupdel", *pre, GROUP)
        steps.append(Step(f"delete the group {GROUP}", delete_group))
    return steps


def run(steps: list[Step], report: Callable[[str], None]) -> None:
    for step in steps:
        report(step.text)
        step.run()
