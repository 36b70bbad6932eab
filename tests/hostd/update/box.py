"""A box for the update tests: releases installed from real wheels, a feed on 127.0.0.1, a
supervisor standing in for systemd, and the daemon it runs from the ``current`` link.

Everything listens on loopback, and ``Box.close`` ends every process it started.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hostd.control import request
from hostd.update import install, switch, verify

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
# The release that fails its start: it exits before it reports ready.
BROKEN = {"hostd/daemon.py": ("    t0 = time.perf_counter()\n",
                              "    raise SystemExit('this release is broken on purpose')\n")}


class Feed:
    """A releases feed served from a folder on 127.0.0.1 (``feed.json`` and the assets)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        handler = functools.partial(_Quiet, directory=str(folder))
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def publish(self, releases: list[dict[str, Any]]) -> str:
        (self.folder / "feed.json").write_text(json.dumps(releases))
        return f"{self.url}/feed.json"

    def release(self, version: str, files: list[Path], notes: str = "") -> dict[str, Any]:
        """One release of the feed; its assets are copied under ``<version>/``."""
        where = self.folder / version
        where.mkdir(parents=True, exist_ok=True)
        assets = []
        for f in files:
            shutil.copy(f, where / f.name)
            assets.append({"name": f.name,
                           "browser_download_url": f"{self.url}/{version}/{f.name}"})
        return {"tag_name": f"v{version}", "name": f"tablebox {version}",
                "body": notes or f"Release {version}.", "draft": False, "prerelease": False,
                "assets": assets}

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@dataclass
class Box:
    root: Path
    key: Path  # the maintainer's private key
    public: Path  # what $TABLEBOX_UPDATE_KEY points at
    feed: Feed
    procs: list[subprocess.Popen[bytes]] = field(default_factory=list)

    @property
    def releases(self) -> Path:
        return self.root / "releases"

    @property
    def control(self) -> Path:
        return self.root / "c.sock"

    @property
    def ctl(self) -> Path:
        return self.root / "sup.sock"

    @property
    def config(self) -> Path:
        return self.root / "config.toml"

    def write_config(self, feed_url: str, **extra: Any) -> None:
        restart = f"{sys.executable} {HERE / 'supervisor.py'} --restart {self.ctl}"
        values = {"bind": "127.0.0.1", "tcp_port": 0, "http_port": 0,
                  "data_dir": str(self.root / "data"), "control": str(self.control),
                  "mdns": False, "bluetooth": False, "ai_speed": 0.0, "log_file": False,
                  "update": "off", "update_feed": feed_url,
                  "releases_dir": str(self.releases), "update_restart_command": restart,
                  "update_start_timeout": 20.0, "update_trial_seconds": 1.5, **extra}
        lines = [f"{k} = {json.dumps(v)}" if not isinstance(v, bool) else
                 f"{k} = {str(v).lower()}" for k, v in values.items()]
        self.config.write_text("\n".join(lines) + "\n")

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        env["TABLEBOX_UPDATE_KEY"] = str(self.public)
        return env

    def start(self) -> None:
        """The supervisor, which starts the daemon of the current release."""
        for p in (self.ctl, self.root / "notify.sock"):
            with contextlib.suppress(FileNotFoundError):
                p.unlink()
        proc = subprocess.Popen(
            [sys.executable, str(HERE / "supervisor.py"), "--releases", str(self.releases),
             "--ctl", str(self.ctl), "--notify", str(self.root / "notify.sock"),
             "--log", str(self.root / "daemon.log"), "--", "--config", str(self.config),
             "--no-mdns", "--no-bluetooth"],
            env=self.env(), stdout=subprocess.PIPE, stdin=subprocess.DEVNULL)
        self.procs.append(proc)
        assert proc.stdout is not None
        line = proc.stdout.readline().decode().strip()
        assert line == "started", line + "\n" + self.log()

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                with contextlib.suppress(OSError):
                    subprocess.run([sys.executable, str(HERE / "supervisor.py"), "--stop",
                                    str(self.ctl)], timeout=30, check=False)
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
            if proc.stdout is not None:
                proc.stdout.close()
        self.procs.clear()

    def log(self) -> str:
        path = self.root / "daemon.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def status(self) -> dict[str, Any]:
        return dict(request(self.control, "status", timeout=10))

    def version(self) -> str | None:
        """The running daemon's version, or None while none answers."""
        try:
            return str(self.status()["version"])
        except Exception:
            return None

    def tablebox(self, *args: str, timeout: float = 120, kill_at: str | None = None,
                 background: bool = False, config: bool = True) -> Any:
        """``tablebox ARGS`` from the current release, as an operator would run it."""
        exe = self.releases / "current" / "venv" / "bin" / "tablebox"
        env = self.env()
        if kill_at:
            env[switch.KILL_ENV] = kill_at
        cmd = [str(exe), *args, *(["--config", str(self.config)] if config else [])]
        if background:  # output to a file: a pipe nobody reads could block it
            with (self.root / "updater.out").open("wb") as out:
                return subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT)
        return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout,
                              check=False)

    def reset(self, version: str) -> None:
        """Back to running ``version`` alone, whatever a test left."""
        for name in ("previous", "current"):
            with contextlib.suppress(FileNotFoundError):
                (self.releases / name).unlink()
        switch.point(self.releases, "current", version)
        with contextlib.suppress(FileNotFoundError):
            (self.releases / switch.STATE).unlink()
        ok = subprocess.run([sys.executable, str(HERE / "supervisor.py"), "--restart",
                             str(self.ctl)], timeout=60, check=False)
        assert ok.returncode == 0, self.log()[-3000:]
        assert self.status()["version"] == version

    def close(self) -> None:
        self.stop()
        self.feed.close()
        shutil.rmtree(self.root, ignore_errors=True)


def short_dir() -> Path:
    return Path(tempfile.mkdtemp(prefix="tbu-"))


def make_box(wheel_dir: Path, base: Path) -> Box:
    """A box running release 1.0.0 (installed by the updater's own code) under a supervisor."""
    root = short_dir()
    (root / "feed").mkdir()
    key = root / "release.key"
    public_b64 = verify.keygen(key)
    public = root / "release.pub"
    public.write_text(public_b64 + "\n")
    box = Box(root, key, public, Feed(root / "feed"))
    install.install(base, box.releases)
    switch.switch(box.releases, "1.0.0")
    box.write_config(box.feed.publish([]))
    box.start()
    return box


def wait_for(predicate: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
