"""Shared set-up for the daemon tests: a daemon on loopback in this process or a subprocess,
real TCP (and WebSocket) clients, and the games to run every check over.

Discovery and Bluetooth are always off here (they need a network namespace).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import trio

from clients.client import Client, Refused
from engine import registry
from hostd.config import Config
from hostd.control import request
from hostd.daemon import Started, serve
from hostd.protocol.messages import State
from hostd.tables.hub import HubSettings

ROOT = Path(__file__).resolve().parents[2]
TOY = ("toy", "tests.hostd.toy")
GAMES = ["toy", *registry.ids()]  # every registered game, plus the toy game
# Seats per game in the daemon tests: four where a game allows it (the most connections and
# views to check), else its largest count; a game added to the registry is included at once.
PLAYERS = {"toy": 4, **{g: 4 if 4 in registry.get(g).info.players
                        else max(registry.get(g).info.players) for g in registry.ids()}}


def register_toy() -> None:
    registry.GAME_MODULES.setdefault(*TOY)


def short_dir() -> Path:
    """A short directory: Unix socket paths must stay under 108 bytes."""
    return Path(tempfile.mkdtemp(prefix="tb-"))


def test_config(data: Path, control: Path, **overrides: Any) -> Config:
    values: dict[str, Any] = {
        "bind": "127.0.0.1", "tcp_port": 0, "http_port": 0, "data_dir": data,
        "control": control, "mdns": False, "bluetooth": False, "ai_speed": 0.0,
        "grace_seconds": 0.2,
        "update": "off",  # tests talk to no feed but their own on 127.0.0.1
    }
    values.update(overrides)
    return Config(**values)


@contextlib.asynccontextmanager
async def running_daemon(data: Path | None = None, *, settings: HubSettings | None = None,
                         web: bool = True, **overrides: Any) -> AsyncIterator[Started]:
    """The daemon in this process (trio), on loopback; stopped on exit. The toy game is
    registered while it runs and unregistered after, so a later test that walks the registry
    (every game's catalogue, the page's game list) sees only the shipped games."""
    added = TOY[0] not in registry.GAME_MODULES
    register_toy()
    tmp = short_dir()
    try:
        config = test_config(data or tmp / "data", tmp / "c.sock", **overrides)
        if settings is None:
            settings = HubSettings(ai_speed=config.ai_speed, grace_seconds=config.grace_seconds)
        async with trio.open_nursery() as nursery:
            started: Started = await nursery.start(
                lambda task_status: serve(config, ai_processes=0, settings=settings,
                                          handle_signals=False, web=web,
                                          task_status=task_status))
            try:
                yield started
            finally:
                started.stop()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        if added:
            registry.GAME_MODULES.pop(TOY[0], None)


async def ask(control: str | Path, op: str, **args: Any) -> Any:
    """One control-socket request from a trio test (the client blocks, so on a thread)."""
    return await trio.to_thread.run_sync(lambda: request(Path(control), op, **args))


async def any_changed(clients: Iterable[Client]) -> None:
    """Wait until any of ``clients`` hears from the host."""
    seen = [(c, c.seq) for c in clients]  # before any await: nothing can slip past
    async with trio.open_nursery() as nursery:
        async def one(c: Client, since: int) -> None:
            with contextlib.suppress(Exception):
                await c.changed(since)
            nursery.cancel_scope.cancel()

        for c, since in seen:
            nursery.start_soon(one, c, since)


async def play_to_end(clients: dict[int, Client], table: str, rng: random.Random, *,
                      max_moves: int = 5000, timeout: float = 60.0) -> State:
    """Each seated client moves (a random legal action) when its turn comes, to the end."""
    with trio.fail_after(timeout):
        for _ in range(max_moves):
            states = [c.states.get(table) for c in clients.values()]
            latest = max((s for s in states if s is not None), key=lambda s: s.version,
                         default=None)
            if latest is not None and latest.status != "playing":
                return latest
            moved = False
            for seat, c in clients.items():
                s = c.states.get(table)
                if s is not None and s.legal and latest is not None \
                        and s.version == latest.version:
                    try:
                        await c.intent(table, s.version, rng.choice(s.legal), seat=seat)
                    except Refused as e:  # possible while two seats act in one phase
                        if e.code != "stale_version":
                            raise
                    moved = True
                    break
            if not moved:
                await any_changed(clients.values())
        raise AssertionError("the game did not end")


# -- a daemon in a subprocess (for SIGKILL) ------------------------------------------------------
@dataclass
class DaemonProcess:
    proc: subprocess.Popen[bytes]
    control: Path
    tcp_port: int
    log: Path

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def terminate(self, timeout: float = 10.0) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout)

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")


LAUNCH = (
    "import sys; from engine import registry; "
    "registry.GAME_MODULES.setdefault('toy', 'tests.hostd.toy'); "
    "from hostd.cli import main; sys.argv[0] = 'tablebox'; main()"
)


def start_process(data: Path, control: Path, *extra: str, env: dict[str, str] | None = None,
                  timeout: float = 20.0, nofile: int | None = None) -> DaemonProcess:
    """``tablebox serve`` in a subprocess on loopback; waits until its control socket answers.

    Its output goes to a file next to ``data`` (a pipe nobody reads would fill and block it).
    ``nofile``: its descriptor limit (soft and hard), set in the child before it starts.
    """
    args = [sys.executable, "-c", LAUNCH, "serve", "--data", str(data), "--bind", "127.0.0.1",
            "--tcp-port", "0", "--http-port", "0", "--control", str(control), "--no-mdns",
            "--no-bluetooth", "--ai-speed", "0", "--no-log-file", "--update", "off",
            *extra]
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    log = data.parent / f"daemon-{time.monotonic_ns()}.log"
    data.parent.mkdir(parents=True, exist_ok=True)
    with log.open("wb") as out:
        limit = None if nofile is None else partial(_limit_nofile, nofile)
        proc = subprocess.Popen(args, cwd=ROOT, env=full_env, stdout=out,
                                stderr=subprocess.STDOUT, preexec_fn=limit)
    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None:
            raise AssertionError(f"daemon exited with {proc.returncode}:\n"
                                 + log.read_text(errors="replace"))
        try:
            status = request(control, "status", timeout=5)
            return DaemonProcess(proc, control, int(status["listening"]["tcp"]["port"]), log)
        except Exception:
            if time.monotonic() > deadline:
                proc.kill()
                proc.wait()
                raise
            time.sleep(0.05)


def _limit_nofile(n: int) -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (n, n))


@contextlib.contextmanager
def daemon_process(data: Path, control: Path, *extra: str) -> Iterator[DaemonProcess]:
    d = start_process(data, control, *extra)
    try:
        yield d
    finally:
        d.kill()


def record_of(control: Path, table: str) -> dict[str, Any]:
    rec: dict[str, Any] = request(control, "export", table=table)
    return json.loads(json.dumps(rec))
