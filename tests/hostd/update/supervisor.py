"""A small stand-in for systemd's handling of ``tablebox.service``, for the update tests.

``supervisor.py --releases DIR --ctl SOCK --notify SOCK --log FILE -- SERVE-ARGS...`` starts
``DIR/current/venv/bin/tablebox serve SERVE-ARGS`` with ``$NOTIFY_SOCKET`` pointing at a real
datagram socket it hosts, and counts the start done when ``READY=1`` arrives (Type=notify).
Like ``Restart=on-failure`` it starts the daemon again when it exits non-zero. On its control
socket, ``restart`` stops the daemon with SIGTERM, starts a new one from the ``current`` link
as it is NOW, and answers ``ok`` once READY=1 came, else ``failed: why`` (so
``supervisor.py --restart SOCK`` behaves like ``systemctl restart tablebox``: it returns when
the new process is ready, non-zero when it is not). ``stop`` ends both.

Standard library only: it is run by the tests' Python, never by a release.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import threading
import time

START_TIMEOUT = 30.0


class Supervisor:
    def __init__(self, releases: str, notify: str, log: str, args: list[str]) -> None:
        self.releases, self.notify_path, self.args = releases, notify, args
        self.log = open(log, "ab")  # noqa: SIM115 - lives as long as the supervisor
        self.lock = threading.RLock()
        self.proc: subprocess.Popen[bytes] | None = None
        self.spawned: list[subprocess.Popen[bytes]] = []  # all of them, to end on `stop`
        self.stopping = False
        self.notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.notify.bind(notify)
        self.ready = threading.Event()
        threading.Thread(target=self._read_notify, daemon=True).start()
        threading.Thread(target=self._restart_on_failure, daemon=True).start()

    def _read_notify(self) -> None:
        while True:
            data = self.notify.recv(4096)
            if b"READY=1" in data.split(b"\n"):
                self.ready.set()

    def start(self) -> str:
        with self.lock:
            self.ready.clear()
            exe = os.path.join(self.releases, "current", "venv", "bin", "tablebox")
            env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
            env["NOTIFY_SOCKET"] = self.notify_path
            self.log.write(f"--- start {os.path.realpath(exe)}\n".encode())
            self.log.flush()
            self.proc = subprocess.Popen([exe, "serve", *self.args], env=env, stdout=self.log,
                                         stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
            proc = self.proc
            self.spawned.append(proc)
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.ready.wait(0.05):
                return ""
            if proc.poll() is not None:
                return f"exited with status {proc.returncode} before READY=1"
        return "no READY=1 in time"

    def stop(self) -> None:
        with self.lock:
            proc, self.proc = self.proc, None
        if proc is not None and proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    def _restart_on_failure(self) -> None:
        while True:
            time.sleep(0.3)
            with self.lock:  # a `restart` meanwhile waits: never two daemons at once
                proc = self.proc
                if proc is None or self.stopping or proc.poll() in (None, 0):
                    continue
                self.proc = None
                time.sleep(0.3)  # RestartSec
                self.start()

    def restart(self) -> str:
        with self.lock:
            self.stop()
            return self.start()


def serve(ns: argparse.Namespace) -> None:
    sup = Supervisor(ns.releases, ns.notify, ns.log, ns.args)
    why = sup.start()
    ctl = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    ctl.bind(ns.ctl)
    ctl.listen(4)
    print("started" if not why else f"failed: {why}", flush=True)
    while True:
        conn, _ = ctl.accept()
        with conn:
            cmd = conn.makefile().readline().strip()
            if cmd == "restart":
                why = sup.restart()
                conn.sendall(b"ok\n" if not why else f"failed: {why}\n".encode())
            elif cmd == "stop":
                sup.stopping = True
                sup.stop()
                for proc in sup.spawned:  # none should be left; if one is, end it too
                    if proc.poll() is None:
                        proc.kill()
                        proc.wait()
                conn.sendall(b"ok\n")
                return


def client(path: str, cmd: str) -> int:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    s.sendall(cmd.encode() + b"\n")
    reply = s.makefile().readline().strip()
    if reply != "ok":
        print(reply, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--restart", metavar="CTL")
    parser.add_argument("--stop", metavar="CTL")
    parser.add_argument("--releases")
    parser.add_argument("--ctl")
    parser.add_argument("--notify")
    parser.add_argument("--log")
    parser.add_argument("args", nargs="*")
    ns = parser.parse_args()
    if ns.restart:
        sys.exit(client(ns.restart, "restart"))
    if ns.stop:
        sys.exit(client(ns.stop, "stop"))
    serve(ns)
