"""The daemon's effective configuration: one frozen ``Config``, its file, its checks, its sources.

Owns the names, types, defaults and allowed values of every setting (``KEYS``), where the
default paths come from (``$STATE_DIRECTORY`` / ``$RUNTIME_DIRECTORY`` under systemd, XDG
directories otherwise), which TOML file is read (``--config FILE``, ``$TABLEBOX_CONFIG``, or
``/etc/tablebox/config.toml`` under systemd), and a record of where each value came from.

Precedence, lowest first: default < environment < file < flag. The environment variables read
here are systemd's directory hints (``$STATE_DIRECTORY``...), not operator overrides, so a
``data_dir`` written in the file wins over them; a flag wins over everything.

Validation is strict: an unknown key, a wrong type or a value out of range raises
``ConfigError`` whose message is ONE line naming the key and what is allowed. This module never
logs, never prints and never exits: the CLI turns ``ConfigError`` into that one line. Other
modules only read ``Config`` fields and never parse files.
"""

from __future__ import annotations

import dataclasses
import difflib
import ipaddress
import json
import math
import os
import re
import sys
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

DEFAULT_TCP_PORT = 7420
DEFAULT_HTTP_PORT = 8080
SERVICE_CONFIG = Path("/etc/tablebox/config.toml")  # the unit's ConfigurationDirectory
SERVICE_CONTROL = Path("/run/tablebox/control.sock")  # the unit's RuntimeDirectory
SERVICE_UNIT = Path("/etc/systemd/system/tablebox.service")  # what `service install` writes
# The directories systemd gives the installed service (StateDirectory= and friends).
SERVICE_ENVIRON = {"STATE_DIRECTORY": "/var/lib/tablebox", "RUNTIME_DIRECTORY": "/run/tablebox",
                   "CONFIGURATION_DIRECTORY": "/etc/tablebox"}
LOG_LEVELS = ("debug", "info", "warning", "error")
UPDATE_MODES = ("off", "check", "apply-when-idle")
HOTSPOT_MODES = ("off", "on", "auto")
MDNS_BACKENDS = ("auto", "avahi", "zeroconf")
DEFAULT_FEED = "https://api.github.com/repos/tablebox/tablebox/releases"
DEFAULT_RELEASES = Path("/opt/tablebox/releases")


def _env(environ: Mapping[str, str] | None) -> Mapping[str, str]:
    return os.environ if environ is None else environ


def default_state_dir(environ: Mapping[str, str] | None = None) -> Path:
    """Where the database and log file live: systemd's StateDirectory, else XDG state home."""
    env = _env(environ)
    if env.get("STATE_DIRECTORY"):
        return Path(env["STATE_DIRECTORY"].split(":")[0])
    base = env.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "tablebox"


def default_runtime_dir(environ: Mapping[str, str] | None = None) -> Path:
    """Where the control socket lives: systemd's RuntimeDirectory, else XDG runtime dir."""
    env = _env(environ)
    if env.get("RUNTIME_DIRECTORY"):
        return Path(env["RUNTIME_DIRECTORY"].split(":")[0])
    if env.get("XDG_RUNTIME_DIR"):
        return Path(env["XDG_RUNTIME_DIR"]) / "tablebox"
    return default_state_dir(environ) / "run"


def default_control_path(environ: Mapping[str, str] | None = None) -> Path:
    env = _env(environ)
    return Path(env["TABLEBOX_CONTROL"]) if env.get("TABLEBOX_CONTROL") else (
        default_runtime_dir(environ) / "control.sock")


def client_control_path(config: Config, sources: Mapping[str, Source] | None = None) -> Path:
    """The control socket a CLI client should dial.

    An operator's shell has no ``$RUNTIME_DIRECTORY``, so its default path points into their
    own runtime directory; when nothing listens there but the installed service's socket
    exists, that is the daemon they mean. A path set by flag, file or environment is kept.
    """
    chosen = config.control
    defaulted = sources is None or sources.get("control", DEFAULT).kind == "default"
    if defaulted and not chosen.exists() and SERVICE_CONTROL.exists():
        return SERVICE_CONTROL
    return chosen


@dataclass(frozen=True)
class Config:
    box_name: str = "tablebox"
    bind: str = "0.0.0.0"
    tcp_port: int = DEFAULT_TCP_PORT
    http_port: int = DEFAULT_HTTP_PORT
    data_dir: Path = field(default_factory=default_state_dir)
    control: Path = field(default_factory=default_control_path)
    mdns: bool = True
    mdns_interfaces: tuple[str, ...] = ()  # empty: every interface
    mdns_backend: str = "auto"  # avahi-daemon where it runs, else python-zeroconf
    bluetooth: bool = True
    ai_speed: float = 1.0  # scales the AI's thinking delay; 1.0 is about a second a move, 0 instant
    grace_seconds: float = 20.0  # how long a dropped person's seat waits before the AI covers
    turn_timer: float = 0.0  # default per-table turn timer in seconds; 0 is off
    # Abandoned seats and tables (docs/operations.md, "Abandoned seats and tables"); 0: never.
    seat_release_after: float = 600.0  # an away person's seat returns to the computer for good
    archive_finished_after: float = 900.0  # a finished game without a rematch stays listed
    archive_abandoned_after: float = 3600.0  # a table nobody is connected to or watching
    # Players may open tables from their phones (hostd.opening), while fewer than
    # max_tables tables are open (however made; the operator's own are never refused).
    player_tables: bool = True
    max_tables: int = 12
    log_level: str = "info"
    log_file: bool = True  # also write a rotated JSON log file in data_dir
    log_file_bytes: int = 5 * 1024 * 1024  # rotate the log file at this size
    log_file_backups: int = 3  # rotated files kept besides the current one
    # fsync every commit before anyone is told: a power cut loses no move that was shown.
    # Group commit shares one flush between every table's steps, so this costs little.
    sync_commits: bool = True
    # Over-the-air updates (hostd.update; docs/operations.md, "Updates").
    update: str = "check"
    update_feed: str = DEFAULT_FEED
    update_interval: float = 86400.0
    releases_dir: Path = DEFAULT_RELEASES
    update_restart_command: str = "systemctl restart tablebox"
    update_apply_command: str = "systemctl start --no-block tablebox-update.service"
    update_start_timeout: float = 90.0
    update_trial_seconds: float = 60.0
    # Client connections at most (0: as many as the descriptor limit leaves room for, after a
    # reserve for the control socket and health checks), and from one address.
    max_connections: int = 0
    max_connections_per_address: int = 64
    # The box's own Wi-Fi (hostd.hotspot; docs/operations.md, "The box's own Wi-Fi").
    hotspot: str = "off"
    hotspot_interface: str = ""
    hotspot_ssid: str = ""
    hotspot_passphrase: str = ""
    hotspot_address: str = ""

    @property
    def database(self) -> Path:
        return self.data_dir / "tablebox.sqlite3"

    @property
    def log_path(self) -> Path:
        return self.data_dir / "tablebox.log"


# -- where a value came from -------------------------------------------------------------------
SourceKind = Literal["default", "environment", "file", "flag"]


@dataclass(frozen=True)
class Source:
    kind: SourceKind
    detail: str = ""  # the variable, file or flag: "$STATE_DIRECTORY", "/etc/...", "--tcp-port"

    def __str__(self) -> str:
        return f"{self.kind} ({self.detail})" if self.detail else self.kind


DEFAULT = Source("default")


class ConfigError(Exception):
    """An invalid configuration. ``str(e)`` is one line naming the key and what is allowed."""

    def __init__(self, message: str, key: str | None = None) -> None:
        super().__init__(message)
        self.key = key


# -- the keys: type, allowed values, help --------------------------------------------------------
class _Bad(ValueError):
    pass


@dataclass(frozen=True)
class Key:
    name: str
    type: str  # as an operator reads it in TOML: "string", "integer", "boolean", ...
    allowed: str  # what is allowed, in words: the tail of every error about this key
    help: str
    check: Callable[[Any], Any]  # returns the typed value or raises _Bad


def _integer(lo: int, hi: int) -> Callable[[Any], int]:
    def check(v: Any) -> int:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise _Bad
        return v
    return check


def _number(lo: float, hi: float) -> Callable[[Any], float]:
    def check(v: Any) -> float:
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
            raise _Bad
        if not lo <= v <= hi:
            raise _Bad
        return float(v)
    return check


def _boolean(v: Any) -> bool:
    if not isinstance(v, bool):
        raise _Bad
    return v


_CONTROL_CHARS = re.compile(r"[\x00-\x1f\x7f]")


def _box_name(v: Any) -> str:
    # The name is an mDNS instance label (at most 63 bytes of UTF-8) and a Bluetooth name.
    if not isinstance(v, str) or not v.strip() or _CONTROL_CHARS.search(v):
        raise _Bad
    if len(v.encode("utf-8")) > 63 or v != v.strip():
        raise _Bad
    return v


def _address(v: Any) -> str:
    if not isinstance(v, str):
        raise _Bad
    try:
        return str(ipaddress.ip_address(v))
    except ValueError:
        raise _Bad from None


def _path(v: Any) -> Path:
    if isinstance(v, Path):
        v = str(v)
    if not isinstance(v, str) or not v or "\0" in v:
        raise _Bad
    p = Path(v).expanduser()
    if not p.is_absolute():
        raise _Bad
    return p


_IFNAME = re.compile(r"[A-Za-z0-9_.:@-]{1,15}")  # Linux IFNAMSIZ is 16 with the NUL


def _interfaces(v: Any) -> tuple[str, ...]:
    if not isinstance(v, list | tuple) or not all(isinstance(x, str) for x in v):
        raise _Bad
    if not all(_IFNAME.fullmatch(x) for x in v) or len(set(v)) != len(v):
        raise _Bad
    return tuple(v)


def _update_mode(v: Any) -> str:
    if not isinstance(v, str) or v not in UPDATE_MODES:
        raise _Bad
    return v


def _choice(allowed: tuple[str, ...]) -> Callable[[Any], str]:
    def check(v: Any) -> str:
        if not isinstance(v, str) or v not in allowed:
            raise _Bad
        return v
    return check


def _ifname(v: Any) -> str:
    if not isinstance(v, str) or (v and not _IFNAME.fullmatch(v)):
        raise _Bad
    return v


def _ssid(v: Any) -> str:
    if not isinstance(v, str) or len(v.encode("utf-8")) > 32 or _CONTROL_CHARS.search(v):
        raise _Bad
    return v


def _passphrase(v: Any) -> str:
    if not isinstance(v, str) or (v and not (8 <= len(v) <= 63 and v.isascii()
                                             and v.isprintable())):
        raise _Bad
    return v


def _ipv4_interface(v: Any) -> str:
    if not isinstance(v, str):
        raise _Bad
    if not v:
        return v
    try:
        iface = ipaddress.IPv4Interface(v)
    except ValueError:
        raise _Bad from None
    if "/" not in v or iface.ip == iface.network.network_address or not iface.is_private:
        raise _Bad
    return str(iface)


def _feed_url(v: Any) -> str:
    if not isinstance(v, str) or not re.fullmatch(r"https?://\S+", v):
        raise _Bad
    return v


def _command(v: Any) -> str:
    if not isinstance(v, str) or not v.strip() or _CONTROL_CHARS.search(v):
        raise _Bad
    return v


def _level(v: Any) -> str:
    if not isinstance(v, str) or v not in LOG_LEVELS:
        raise _Bad
    return v


_KEYS = [
    Key("box_name", "string", "a name of 1-63 bytes without control characters or edge spaces",
        "What phones, the kiosk and Bluetooth show for this box.", _box_name),
    Key("bind", "string", 'an IP address such as "0.0.0.0", "::" or "127.0.0.1"',
        "The address the TCP and HTTP listeners bind to.", _address),
    Key("tcp_port", "integer", "an integer 0-65535 (0: any free port)",
        "Port of the NDJSON protocol for terminals and the Python client.", _integer(0, 65535)),
    Key("http_port", "integer", "an integer 0-65535 (0: any free port)",
        "Port of the web page and its WebSocket; below 1024 needs CAP_NET_BIND_SERVICE "
        "(`tablebox service install` adds it).", _integer(0, 65535)),
    Key("data_dir", "string", "an absolute path",
        "Where the database and the log file live.", _path),
    Key("control", "string", "an absolute path",
        "The control socket that `tablebox status`, `drain` and friends talk to.", _path),
    Key("mdns", "boolean", "true or false",
        "Announce the box and its tables on the local network with mDNS.",
        _boolean),
    Key("mdns_interfaces", "array of strings", "a list of distinct interface names or IPv4 "
        'addresses such as ["wlan0"] ([] means every interface but VPNs and bridges)',
        "Limit mDNS to these network interfaces.", _interfaces),
    Key("mdns_backend", "string", "one of " + ", ".join(f'"{x}"' for x in MDNS_BACKENDS),
        "Who answers mDNS for the box: the system's avahi-daemon when it runs (auto), always "
        "Avahi, or tablebox's own responder (zeroconf).", _choice(MDNS_BACKENDS)),
    Key("bluetooth", "boolean", "true or false",
        "Offer tables over Bluetooth RFCOMM (needs BlueZ).", _boolean),
    Key("ai_speed", "number", "a number 0-10 (1 is about a second a move, 0 instant)",
        "Scales how long computer players think before they move.", _number(0, 10)),
    Key("grace_seconds", "number", "a number 0-3600",
        "How long a dropped person's seat waits before the AI covers it.", _number(0, 3600)),
    Key("turn_timer", "number", "a number 0-3600 (0: no timer)",
        "Default seconds a person has for a move before the AI plays it.", _number(0, 3600)),
    Key("seat_release_after", "number", "a number 0-604800 (seconds; 0: never)",
        "Seconds a person may be away (link dropped, no leave) before their seat returns to "
        "the computer for good: it is free to take, their token and name are released.",
        _number(0, 7 * 86400)),
    Key("archive_finished_after", "number", "a number 0-604800 (seconds; 0: never)",
        "Seconds a finished table without a rematch stays listed before it is archived "
        "(closed; its records are kept).", _number(0, 7 * 86400)),
    Key("archive_abandoned_after", "number", "a number 0-604800 (seconds; 0: never)",
        "Seconds a table may have no person connected, seated or watching before it is "
        "archived (closed; its records are kept).", _number(0, 7 * 86400)),
    Key("player_tables", "boolean", "true or false",
        "Let players open tables from their phones (off: the page offers only joining).",
        _boolean),
    Key("max_tables", "integer", "an integer 1-1000",
        "Players cannot open a table while this many tables are open, however they were made "
        "(`tablebox tables new` is never refused for it; closing finished tables makes room).",
        _integer(1, 1000)),
    Key("log_level", "string", "one of " + ", ".join(f'"{x}"' for x in LOG_LEVELS),
        "The least severe level that is logged.", _level),
    Key("log_file", "boolean", "true or false",
        "Also write a rotated JSON log file (tablebox.log) in data_dir.", _boolean),
    Key("log_file_bytes", "integer", "an integer 65536-1073741824",
        "Size at which the log file is rotated.", _integer(64 * 1024, 1024**3)),
    Key("log_file_backups", "integer", "an integer 0-20",
        "How many rotated log files are kept besides the current one.", _integer(0, 20)),
    Key("sync_commits", "boolean", "true or false",
        "Flush every commit to the disk before anyone is told (on by default: a power cut "
        "loses no move anyone saw). Off: a crash or kill -9 still loses nothing, but a power "
        "cut may lose the last second of play.", _boolean),
    Key("max_connections", "integer", "an integer 0-1000000 (0: as many as the descriptor "
        "limit allows)",
        "Client connections at most (TCP, web page, WebSocket); never more than the descriptor "
        "limit leaves room for. When full, the oldest idle connection at no table is closed "
        "to make room.", _integer(0, 1_000_000)),
    Key("max_connections_per_address", "integer", "an integer 1-100000",
        "Client connections at most from one IP address; past it, that address's oldest idle "
        "connection at no table is closed to make room.", _integer(1, 100_000)),
    Key("hotspot", "string", "one of " + ", ".join(f'"{x}"' for x in HOTSPOT_MODES),
        "The box's own Wi-Fi access point (through NetworkManager): off, on, or on while no "
        "other network is up (auto).", _choice(HOTSPOT_MODES)),
    Key("hotspot_interface", "string", 'a network interface name such as "wlan0" ("": the '
        "first Wi-Fi device that can be an access point)",
        "The Wi-Fi interface the hotspot uses.", _ifname),
    Key("hotspot_ssid", "string", 'a network name of 0-32 bytes ("": "tablebox <box_name>")',
        "The hotspot's network name.", _ssid),
    Key("hotspot_passphrase", "string", '8-63 printable ASCII characters ("": one is made '
        "on first use and kept in data_dir)",
        "The hotspot's WPA2 passphrase.", _passphrase),
    Key("hotspot_address", "string", 'the box\'s address with its prefix, such as '
        '"10.42.0.1/24" ("": the first of a few private ranges free of the box\'s networks)',
        "The box's address on the hotspot.", _ipv4_interface),
    Key("update", "string", "one of " + ", ".join(f'"{x}"' for x in UPDATE_MODES),
        "Over-the-air updates: off, check the feed daily, or also apply a new release when "
        "no one is playing.", _update_mode),
    Key("update_feed", "string", "an http:// or https:// URL",
        "The release feed (a code-hosting releases API listing): the only address the updater "
        "talks to.", _feed_url),
    Key("update_interval", "number", "a number 1-604800 (seconds)",
        "Seconds between the daemon's checks of the feed.", _number(1, 7 * 86400)),
    Key("releases_dir", "string", "an absolute path",
        "Where releases are installed side by side, with the current and previous links.",
        _path),
    Key("update_restart_command", "string", "a command line",
        "How the updater restarts the service after switching releases.", _command),
    Key("update_apply_command", "string", "a command line",
        "What the daemon runs to apply a release once idle, when update is apply-when-idle.",
        _command),
    Key("update_start_timeout", "number", "a number 1-3600 (seconds)",
        "How long a new release has to report ready before it is rolled back.",
        _number(1, 3600)),
    Key("update_trial_seconds", "number", "a number 0-3600 (seconds)",
        "A new release that exits within this many seconds of its start is rolled back.",
        _number(0, 3600)),
]
KEYS: dict[str, Key] = {k.name: k for k in _KEYS}
if set(KEYS) != {f.name for f in dataclasses.fields(Config)}:  # pragma: no cover - dev error
    raise RuntimeError("config.KEYS and Config fields differ")


def _show(value: Any) -> str:
    if isinstance(value, Path):
        value = str(value)
    if isinstance(value, tuple):
        value = list(value)
    try:
        text = json.dumps(value, ensure_ascii=False)
    except TypeError:
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def check(name: str, value: Any, where: str) -> Any:
    """``value`` checked and typed for key ``name``; ``where`` starts the error line."""
    key = KEYS.get(name)
    if key is None:
        hint = difflib.get_close_matches(name, KEYS, n=1)
        also = f" (did you mean {hint[0]!r}?)" if hint else ""
        raise ConfigError(f"{where}: unknown key {name!r}{also}; allowed keys: "
                          + ", ".join(KEYS), key=name)
    try:
        return key.check(value)
    except _Bad:
        raise ConfigError(f"{where}: {name} must be {key.allowed} (got {_show(value)})",
                          key=name) from None


# -- which file ---------------------------------------------------------------------------------
def under_systemd(environ: Mapping[str, str] | None = None) -> bool:
    """Started by systemd as a service (not merely from a shell inside a systemd user session).

    A shell in a desktop terminal also inherits ``$INVOCATION_ID`` from the terminal's unit, so
    that alone only counts when stdout is not a terminal.
    """
    env = _env(environ)
    if env.get("NOTIFY_SOCKET"):
        return True
    return bool(env.get("INVOCATION_ID")) and not sys.stdout.isatty()


def config_file(explicit: Path | None = None,
                environ: Mapping[str, str] | None = None) -> tuple[Path | None, bool]:
    """The file to read and whether it must exist (an explicit choice) or may be missing."""
    env = _env(environ)
    if explicit is not None:
        return explicit, True
    if env.get("TABLEBOX_CONFIG"):
        return Path(env["TABLEBOX_CONFIG"]), True
    if env.get("CONFIGURATION_DIRECTORY"):
        return Path(env["CONFIGURATION_DIRECTORY"].split(":")[0]) / "config.toml", False
    if under_systemd(env):
        return SERVICE_CONFIG, False
    return None, False


def read_file(path: Path) -> dict[str, Any]:
    """The checked values in ``path`` (only the keys it sets)."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such file") from None
    except OSError as e:
        raise ConfigError(f"{path}: cannot read: {e.strerror}") from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML: {e}") from None
    return {name: check(name, value, str(path)) for name, value in data.items()}


# -- loading ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Loaded:
    config: Config
    sources: dict[str, Source]
    file: Path | None  # the file that was read, if any
    file_note: str = ""  # why no file was read, when one was looked for
    service_view: bool = False  # loaded as the installed service sees it (load_for_operator)

    def describe(self) -> list[dict[str, Any]]:
        """One row per key: name, effective value (TOML-ish), type, source."""
        rows = []
        for name, key in KEYS.items():
            value = getattr(self.config, name)
            shown: Any = str(value) if isinstance(value, Path) else (
                list(value) if isinstance(value, tuple) else value)
            src = self.sources[name]
            rows.append({"key": name, "value": shown, "type": key.type,
                         "source": src.kind, "from": src.detail})
        return rows


def flag_name(key: str) -> str:
    return "--" + key.replace("_", "-")


def _environment_values(env: Mapping[str, str]) -> dict[str, tuple[Any, str]]:
    out: dict[str, tuple[Any, str]] = {}
    if env.get("STATE_DIRECTORY"):
        out["data_dir"] = (default_state_dir(env), "$STATE_DIRECTORY")
    if env.get("TABLEBOX_CONTROL"):
        out["control"] = (default_control_path(env), "$TABLEBOX_CONTROL")
    elif env.get("RUNTIME_DIRECTORY"):
        out["control"] = (default_control_path(env), "$RUNTIME_DIRECTORY")
    return out


def load(path: Path | None = None, flags: Mapping[str, Any] | None = None,
         environ: Mapping[str, str] | None = None) -> Loaded:
    """The effective configuration: defaults, then environment, then the file, then ``flags``.

    ``flags`` maps key names to values given on the command line; ``None`` means "not given".
    Relative paths given as flags are taken from the current directory.
    """
    env = _env(environ)
    values: dict[str, Any] = {
        "data_dir": default_state_dir(env), "control": default_control_path(env)}
    sources: dict[str, Source] = dict.fromkeys(KEYS, DEFAULT)
    for name, (value, var) in _environment_values(env).items():
        values[name], sources[name] = value, Source("environment", var)

    chosen, required = config_file(path, env)
    note = ""
    read: Path | None = None
    if chosen is not None:
        if chosen.exists() or required:
            for name, value in read_file(chosen).items():
                values[name], sources[name] = value, Source("file", str(chosen))
            read = chosen
        else:
            note = f"{chosen} does not exist: defaults are used"

    for name, value in (flags or {}).items():
        if value is None:
            continue
        if isinstance(value, Path):
            value = value.expanduser().absolute()
        values[name] = check(name, value, flag_name(name))
        sources[name] = Source("flag", flag_name(name))

    config = Config(**values)
    _check_together(config, sources)
    return Loaded(config, sources, read, note)


def load_for_operator(path: Path | None = None, flags: Mapping[str, Any] | None = None,
                      environ: Mapping[str, str] | None = None,
                      unit: Path = SERVICE_UNIT) -> Loaded:
    """The configuration an operator's command (``config show``, ``doctor``, ``logs``) means.

    From a shell, with no file named and the service installed, that is the service's own:
    its config file and the directories systemd gives it, not the operator's XDG ones.
    """
    env = _env(environ)
    if (path is None and not env.get("TABLEBOX_CONFIG") and not under_systemd(env)
            and unit.exists()):
        loaded = load(None, flags, {**env, **SERVICE_ENVIRON})
        return dataclasses.replace(loaded, service_view=True)
    return load(path, flags, env)


def _check_together(config: Config, sources: Mapping[str, Source]) -> None:
    if config.tcp_port and config.tcp_port == config.http_port:
        where = next((str(sources[k].detail or sources[k].kind) for k in ("http_port", "tcp_port")
                      if sources[k].kind != "default"), "defaults")
        raise ConfigError(f"{where}: tcp_port and http_port must differ (both {config.tcp_port})",
                          key="http_port")


# -- the default file that `tablebox service install` writes ---------------------------------------
def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Path):
        value = str(value)
    if isinstance(value, tuple):
        return "[" + ", ".join(json.dumps(x) for x in value) + "]"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return repr(value)


def render_default_file(values: Mapping[str, Any] | None = None) -> str:
    """A commented config.toml: ``values`` are written as settings, every other key commented out.

    Path defaults are left out (they depend on where the process runs); ``service install``
    passes the service's own paths when it wants them pinned.
    """
    values = dict(values or {})
    base = Config(data_dir=Path("/var/lib/tablebox"), control=SERVICE_CONTROL)
    lines = ["# tablebox configuration (TOML). Every key, its type and allowed values:",
             "# docs/operations.md, or `tablebox config show`. Restart the service after editing:",
             "#   sudo systemctl restart tablebox   (or drain first: tablebox drain)", ""]
    for name, key in KEYS.items():
        lines.append(f"# {key.help}")
        lines.append(f"# {key.type}: {key.allowed}")
        if name in values:
            lines.append(f"{name} = {toml_value(check(name, values[name], 'default file'))}")
        else:
            lines.append(f"# {name} = {toml_value(getattr(base, name))}")
        lines.append("")
    return "\n".join(lines)
