"""The daemon's effective configuration: one frozen ``Config`` with embedded defaults.

Owns the names, types and defaults of every setting and where the default paths come from
(``$STATE_DIRECTORY`` / ``$RUNTIME_DIRECTORY`` under systemd, XDG directories otherwise).
Loading a TOML file, validating it and recording where each value came from is added here by
the operations work; other modules only read ``Config`` fields and never parse files.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_TCP_PORT = 7420
DEFAULT_HTTP_PORT = 8080


def default_state_dir() -> Path:
    """Where the database and log file live: systemd's StateDirectory, else XDG state home."""
    env = os.environ.get("STATE_DIRECTORY")
    if env:
        return Path(env.split(":")[0])
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "tablebox"


def default_runtime_dir() -> Path:
    """Where the control socket lives: systemd's RuntimeDirectory, else XDG runtime dir."""
    env = os.environ.get("RUNTIME_DIRECTORY")
    if env:
        return Path(env.split(":")[0])
    xdg = os.environ.get("XDG_RUNTIME_DIR")
    if xdg:
        return Path(xdg) / "tablebox"
    return default_state_dir() / "run"


def default_control_path() -> Path:
    env = os.environ.get("TABLEBOX_CONTROL")
    return Path(env) if env else default_runtime_dir() / "control.sock"


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
    bluetooth: bool = True
    ai_speed: float = 1.0  # scales the AI's thinking delay; 1.0 is about a second a move, 0 instant
    grace_seconds: float = 20.0  # how long a dropped person's seat waits before the AI covers
    turn_timer: float = 0.0  # default per-table turn timer in seconds; 0 is off
    log_level: str = "info"

    @property
    def database(self) -> Path:
        return self.data_dir / "tablebox.sqlite3"
