"""Network namespaces and line-reading subprocesses for the mDNS tests and benchmarks.

Every namespace is created by the test (``tbx-<random>``), and teardown kills every process
left in it and deletes it, so mDNS traffic never reaches a real network. Where namespaces
cannot be created (not root, no ``ip``), the tests skip with a message; CI runs as root with
iproute2, so there they always run.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import pytest
import trio

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], capture_output=True, text=True, check=check)


class Netns:
    def __init__(self, name: str) -> None:
        self.name = name

    def run(self, *cmd: str) -> subprocess.CompletedProcess[str]:
        return _ip("netns", "exec", self.name, *cmd)

    def exec_args(self, *cmd: str) -> list[str]:
        return ["ip", "netns", "exec", self.name, *cmd]

    def kill_all(self) -> None:
        out = _ip("netns", "pids", self.name, check=False).stdout.split()
        for pid in out:
            with suppress(ProcessLookupError, ValueError):
                os.kill(int(pid), signal.SIGKILL)


def netns_unavailable() -> str | None:
    if shutil.which("ip") is None:
        return "mDNS tests need iproute2's `ip` to create network namespaces"
    if os.geteuid() != 0:
        return "mDNS tests need root to create network namespaces (CI runs them as root)"
    return None


@contextmanager
def network_namespaces(count: int = 1) -> Iterator[list[Netns]]:
    """``count`` fresh namespaces with loopback up; always removed afterwards."""
    reason = netns_unavailable()
    if reason:
        pytest.skip(reason)
    made: list[Netns] = []
    try:
        for _ in range(count):
            name = f"tbx-{secrets.token_hex(4)}"
            res = _ip("netns", "add", name, check=False)
            if res.returncode != 0:
                pytest.skip(f"cannot create a network namespace: {res.stderr.strip()}")
            ns = Netns(name)
            made.append(ns)
            ns.run("ip", "link", "set", "lo", "up")
        yield made
    finally:
        for ns in made:
            ns.kill_all()
            _ip("netns", "del", ns.name, check=False)


def link(a: Netns, a_if: str, a_addr: str, b: Netns, b_if: str, b_addr: str) -> None:
    """A veth cable between two namespaces (``a_addr`` like ``10.99.0.1/24``)."""
    a.run("ip", "link", "add", a_if, "type", "veth", "peer", "name", b_if, "netns", b.name)
    a.run("ip", "addr", "add", a_addr, "dev", a_if)
    b.run("ip", "addr", "add", b_addr, "dev", b_if)
    a.run("ip", "link", "set", a_if, "up")
    b.run("ip", "link", "set", b_if, "up")


class Proc:
    """A subprocess whose stdout is read as lines; stderr goes to a log file."""

    def __init__(self, process: trio.Process, log: Path) -> None:
        self.process = process
        self.log = log
        self._buf = b""
        self.lines: list[str] = []

    @classmethod
    async def start(cls, args: list[str], log: Path, *, env: dict[str, str] | None = None,
                    stdin: bool = False, read: bool = True) -> Proc:
        """``read=False`` sends stdout to the log file too (nothing to read, nothing fills)."""
        with log.open("wb") as err:
            process = await trio.lowlevel.open_process(
                args, stdout=subprocess.PIPE if read else err, stderr=err, cwd=ROOT,
                stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                env={**os.environ, **(env or {})})
        return cls(process, log)

    async def readline(self) -> str | None:
        assert self.process.stdout is not None
        while b"\n" not in self._buf:
            chunk = await self.process.stdout.receive_some(65536)
            if not chunk:
                return None
            self._buf += chunk
        line, _, self._buf = self._buf.partition(b"\n")
        text = line.decode("utf-8", "replace")
        self.lines.append(text)
        return text

    async def next_json(self, pred: Callable[[dict[str, Any]], bool],
                        timeout: float) -> dict[str, Any]:
        """The next JSON line satisfying ``pred``, or fail with what was seen."""
        with trio.move_on_after(timeout):
            while True:
                line = await self.readline()
                if line is None:
                    break
                try:
                    data = json.loads(line)
                except json.JSONDecodeError:
                    continue
                if isinstance(data, dict) and pred(data):
                    return data
        raise AssertionError(f"no matching line within {timeout}s; saw {self.lines[-20:]}; "
                             f"stderr: {self.log.read_text(errors='replace')[-3000:]}")

    async def expect_none(self, pred: Callable[[dict[str, Any]], bool], seconds: float) -> None:
        """Fail if a JSON line satisfying ``pred`` arrives within ``seconds``."""
        with trio.move_on_after(seconds):
            while (line := await self.readline()) is not None:
                try:
                    data = json.loads(line)
                except json.JSONDecodeError:
                    continue
                if isinstance(data, dict) and pred(data):
                    raise AssertionError(f"unexpected: {line}")

    async def output(self, timeout: float) -> str:
        """Everything the process writes until it exits."""
        with trio.fail_after(timeout):
            while await self.readline() is not None:
                pass
            await self.process.wait()
        return "\n".join(self.lines)

    async def send_line(self, data: Any) -> None:
        assert self.process.stdin is not None
        await self.process.stdin.send_all((json.dumps(data) + "\n").encode())

    async def close_stdin(self) -> None:
        assert self.process.stdin is not None
        await self.process.stdin.aclose()

    async def wait(self, timeout: float) -> int:
        with trio.fail_after(timeout):
            return await self.process.wait()

    async def stop(self) -> None:
        if self.process.returncode is None:
            self.process.kill()
            with trio.move_on_after(5):
                await self.process.wait()
        for stream in (self.process.stdout, self.process.stdin):
            if stream is not None:
                await stream.aclose()


class Procs:
    """Processes a test starts, all stopped when the block ends (even on failure)."""

    def __init__(self) -> None:
        self.procs: list[Proc] = []

    async def __aenter__(self) -> Procs:
        return self

    async def __aexit__(self, *exc: object) -> None:
        with trio.CancelScope(shield=True):
            for p in reversed(self.procs):
                await p.stop()

    async def start(self, args: list[str], log: Path, **kw: Any) -> Proc:
        proc = await Proc.start(args, log, **kw)
        self.procs.append(proc)
        return proc
