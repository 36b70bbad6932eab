"""The host under load: paced latency, saturation, the floor, start-up (issue 10's figures).

Run: ``.venv/bin/python -m bench.host [--quick] [--tables 1,10,100,200,500] [--seconds S]
[--json FILE]`` (``python -m bench`` runs it with the engine benchmarks).

Everything runs on loopback in separate processes, so each process's CPU
(``/proc/PID/stat``) and memory (``VmRSS``) are its own:

- the daemon: ``tablebox serve --no-mdns --no-bluetooth --bind 127.0.0.1 --ai-speed 0`` on a
  fresh temporary data directory, with a real ``NOTIFY_SOCKET`` this module listens on, so
  launch -> ``READY=1`` is measured as systemd would see it;
- the floor (``bench.floor``): a bare trio server over the same transports and state size,
  doing nothing else, so every figure is also a ratio to what trio + msgspec + the
  transport cost;
- clients (``bench.loadgen``, a few processes): every seat of every table is a lean client
  (``bench.lean``), so no computer player moves.

Runs:

- *paced*: N tables of mixed games (the registry's games in turn), four seats each, seats 0
  and 2 over TCP and 1 and 3 over WebSocket; each seat moves a fixed 250 ms after its turn
  begins. Intent -> that client's state and intent -> the last seat's state (p50/p95/p99),
  the daemon's RSS and CPU, the clients' CPU.
- *saturation*: seats move the instant their turn begins; accepted (durable: each is
  committed before anybody is told) moves per second and the daemon's CPU per move. Over
  TCP (the target) and over WebSocket.
- *start-up*: launch -> READY on an empty database, and again after the N=500 paced run
  (the daemon killed with SIGKILL, so its 500 tables with their games in progress are
  restored by replay).

Every loop is bounded in count and time; every process started here is ended here.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import platform
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PACED_DELAY = 0.25
FULL_TABLES = (1, 10, 100, 200, 500)
QUICK_TABLES = (1, 10)
SATURATION_TABLES = 100
TARGETS = {
    "paced_200_p99_ms": 5.0,
    "saturation_tcp_moves_per_second": 4000,
    "rss_200_mb": 120,
    "rss_500_mb": 250,
    "ready_500_seconds": 2.0,
}
CLK_TCK = os.sysconf("SC_CLK_TCK")


# -- /proc ------------------------------------------------------------------------------------------
def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process (all its threads) so far."""
    with open(f"/proc/{pid}/stat", "rb") as f:
        fields = f.read().rsplit(b")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK  # utime, stime (fields 14, 15)


def status_kb(pid: int, key: str) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def rss_mb(pid: int) -> float:
    return round(status_kb(pid, "VmRSS") / 1024, 1)


def fd_count(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def machine() -> dict[str, Any]:
    model = "?"
    with contextlib.suppress(OSError), open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return {"cpus": os.cpu_count(), "cpu_model": model, "python": platform.python_version(),
            "nice": NICE,
            "platform": platform.platform(), "load_average": [round(x, 2) for x in os.getloadavg()]}


def pct(sorted_values: list[float], q: float) -> float:
    """The nearest-rank percentile ``q`` (0-100) of an ascending list, in milliseconds."""
    if not sorted_values:
        return float("nan")
    i = min(len(sorted_values) - 1, max(0, math.ceil(q / 100 * len(sorted_values)) - 1))
    return round(1000 * sorted_values[i], 3)


def dist(values: list[float]) -> dict[str, float]:
    v = sorted(values)
    return {"n": len(v), "p50": pct(v, 50), "p95": pct(v, 95), "p99": pct(v, 99)}


# -- servers ---------------------------------------------------------------------------------------
LAUNCH = "import sys; from hostd.cli import main; sys.argv[0] = 'tablebox'; main()"


@dataclass
class Server:
    """A server subprocess (the daemon or the floor) and where it listens."""

    proc: subprocess.Popen[bytes]
    tcp_port: int
    http_port: int
    control: Path | None = None
    ready_seconds: float = 0.0
    log: Path | None = None

    @property
    def pid(self) -> int:
        return self.proc.pid

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        if self.proc.stdout is not None:
            self.proc.stdout.close()


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


PY_SPY = Path(sys.executable).parent / "py-spy"  # the sampling profiler behind --profile
NICE = 0  # added to the niceness of every process measured (``--nice``; below 0 needs root)


def _niced() -> None:
    if NICE:
        os.nice(NICE)  # in the child before exec: its threads inherit it


def start_daemon(tmp: Path, *extra: str, timeout: float = 60.0) -> Server:
    """``tablebox serve`` on ``tmp/data``; returns once it sent READY=1 to our notify socket."""
    from hostd.control import request

    notify_path = tmp / "notify.sock"
    notify_path.unlink(missing_ok=True)
    control = tmp / "c.sock"
    log = tmp / "daemon.log"
    with contextlib.closing(socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)) as sock:
        sock.bind(str(notify_path))
        sock.settimeout(0.5)
        with log.open("ab") as out:
            t0 = time.monotonic()
            proc = subprocess.Popen(
                [sys.executable, "-c", LAUNCH, "serve", "--data", str(tmp / "data"),
                 "--bind", "127.0.0.1", "--tcp-port", "0", "--http-port", "0",
                 "--control", str(control), "--no-mdns", "--no-bluetooth", "--ai-speed", "0",
                 "--ai-processes", "0", "--no-log-file", "--log-level", "warning",
                 # Every client here comes from 127.0.0.1: the per-address cap (64 by
                 # default) would turn all but 16 of 200 tables away with bye.busy.
                 "--max-connections-per-address", "100000", *extra],
                cwd=ROOT, env={**env(), "NOTIFY_SOCKET": str(notify_path)}, stdout=out,
                stderr=subprocess.STDOUT, preexec_fn=_niced)
        ready = None
        while ready is None:
            if proc.poll() is not None:
                raise RuntimeError(f"the daemon exited ({proc.returncode}): see {log}")
            if time.monotonic() - t0 > timeout:
                proc.kill()
                proc.wait()
                raise RuntimeError("the daemon did not send READY=1")
            try:
                msg = sock.recv(4096)
            except TimeoutError:
                continue
            if b"READY=1" in msg.split(b"\n"):
                ready = time.monotonic() - t0
    status = request(control, "status", timeout=10)
    return Server(proc, int(status["listening"]["tcp"]["port"]),
                  int(status["listening"]["http"]["port"]), control, ready, log)


def start_floor(payload: int, *extra: str) -> Server:
    proc = subprocess.Popen([sys.executable, "-m", "bench.floor", "--payload", str(payload),
                             *extra],
                            cwd=ROOT, env=env(), stdout=subprocess.PIPE, preexec_fn=_niced)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line:
        proc.wait()
        raise RuntimeError("the floor server did not start")
    ports = json.loads(line)
    return Server(proc, int(ports["tcp"]), int(ports["http"]))


def new_tables(server: Server, n: int, games: list[str]) -> list[dict[str, str]]:
    """``n`` tables through the control socket (the daemon) or just join codes (the floor)."""
    if server.control is None:
        return [{"id": f"F{i}", "code": f"F{i}", "game": "floor"} for i in range(n)]
    from hostd.control import request

    out = []
    for i in range(n):
        game = games[i % len(games)]
        t = request(server.control, "tables.new", game=game, players=4, ai="random",
                    timeout=30)
        out.append({"id": t["id"], "code": t["code"], "game": game})
    return out


# -- clients ----------------------------------------------------------------------------------------
@dataclass
class Load:
    tables: list[dict[str, str]]
    transports: tuple[str, str, str, str]
    delay: float
    seconds: float
    warmup: float
    workers: int
    profile: Path | None = None  # py-spy's raw samples of the server over the window


def auto_workers(tables: int) -> int:
    return 1 if tables <= 10 else 2 if tables <= 100 else 3


def run_load(server: Server, load: Load) -> dict[str, Any]:
    """Play ``load`` against ``server``; latency, throughput, server and client CPU, RSS."""
    from hostd.control import request

    shares = [load.tables[i::load.workers] for i in range(load.workers)]
    shares = [s for s in shares if s]
    procs: list[subprocess.Popen[bytes]] = []
    try:
        for share in shares:
            p = subprocess.Popen([sys.executable, "-m", "bench.loadgen"], cwd=ROOT, env=env(),
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 preexec_fn=_niced)
            assert p.stdin is not None
            job = {"tcp_port": server.tcp_port, "http_port": server.http_port,
                   "delay": load.delay, "tables": [
                       {"id": t["id"], "code": t["code"], "transports": list(load.transports)}
                       for t in share]}
            p.stdin.write(json.dumps(job).encode() + b"\n")
            p.stdin.flush()
            procs.append(p)
        for p in procs:
            assert p.stdout is not None
            line = p.stdout.readline()
            if not line:
                raise RuntimeError("a client process failed while joining")
        before_status = request(server.control, "status") if server.control else None
        start = time.monotonic() + load.warmup
        end = start + load.seconds
        for p in procs:
            assert p.stdin is not None
            p.stdin.write(json.dumps({"start": start, "end": end}).encode() + b"\n")
            p.stdin.flush()
        time.sleep(max(0.0, start - time.monotonic()))
        spy = None
        if load.profile is not None:
            spy = subprocess.Popen(
                [str(PY_SPY), "record", "-p", str(server.pid),
                 "-d", str(int(load.seconds)), "-r", "250", "-f", "raw", "--nonblocking", "--threads",
                 "-o", str(load.profile)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        cpu0 = cpu_seconds(server.pid)
        client0 = [cpu_seconds(p.pid) for p in procs]
        rss_peak = 0.0
        while time.monotonic() < end:
            rss_peak = max(rss_peak, rss_mb(server.pid))
            time.sleep(min(0.5, max(0.0, end - time.monotonic())))
        cpu1 = cpu_seconds(server.pid)
        client1 = [cpu_seconds(p.pid) for p in procs]
        rss_end = rss_mb(server.pid)
        fds = fd_count(server.pid)
        after_status = request(server.control, "status") if server.control else None
        if spy is not None:
            spy.wait(60)
        outs = []
        for p in procs:
            assert p.stdout is not None
            line = p.stdout.readline()
            if not line:
                raise RuntimeError("a client process died")
            outs.append(json.loads(line))
            p.wait(30)
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
            for pipe in (p.stdin, p.stdout):
                if pipe is not None:
                    pipe.close()
    own: dict[str, list[float]] = {"tcp": [], "websocket": []}
    last: list[float] = []
    rejects: dict[str, int] = {}
    errors: list[str] = []
    states = state_bytes = missing = patches = patch_bytes = 0
    for o in outs:
        for k, v in o["own"].items():
            own[k] += v
        last += o["last"]
        missing += o["missing"]
        states += o["states"]
        state_bytes += o["state_bytes"]
        patches += o["patches"]
        patch_bytes += o["patch_bytes"]
        errors += o["errors"]
        for k, v in o["rejects"].items():
            rejects[k] = rejects.get(k, 0) + v
    moves = len(own["tcp"]) + len(own["websocket"])
    server_cpu = cpu1 - cpu0
    result: dict[str, Any] = {
        "tables": len(load.tables), "connections": 4 * len(load.tables),
        "delay_ms": round(1000 * load.delay), "seconds": load.seconds,
        "moves": moves, "moves_per_second": round(moves / load.seconds),
        "own_ms": dist(own["tcp"] + own["websocket"]),
        "own_tcp_ms": dist(own["tcp"]), "own_ws_ms": dist(own["websocket"]),
        "last_seat_ms": dist(last), "last_missing": missing,
        "server_cpu_percent": round(100 * server_cpu / load.seconds, 1),
        "server_cpu_us_per_move": round(1e6 * server_cpu / max(1, moves)),
        # Moves per second of the server's own CPU: what one core would carry if it had
        # nothing else to do (robust to a machine shared with other work, unlike moves/s).
        "server_capacity_moves_per_cpu_second": round(moves / max(server_cpu, 1e-9)),
        "client_cpu_percent": round(100 * sum(b - a for a, b in zip(client0, client1,
                                                                    strict=True)) / load.seconds, 1),
        "client_processes": len(procs),
        "rss_mb": rss_end, "rss_peak_mb": max(rss_peak, rss_end), "fds": fds,
        "state_bytes_mean": round(state_bytes / max(1, states)),
        # Of those frames, the full states and the patches apart (what the floor mimics).
        "full_bytes_mean": round((state_bytes - patch_bytes) / max(1, states - patches)),
        "patch_bytes_mean": round(patch_bytes / max(1, patches)), "patches": patches,
        "rejects": rejects, "errors": len(errors) + sum(o["error_count"] - len(o["errors"])
                                                         for o in outs),
        "error_samples": errors[:3],
        "load_average_1min": round(os.getloadavg()[0], 2),
    }
    if before_status is not None and after_status is not None:
        commits = after_status["commits"] - before_status["commits"]
        result["moves_per_commit"] = round(
            (after_status["moves"] - before_status["moves"]) / max(1, commits), 1)
    return result


# -- the runs -------------------------------------------------------------------------------------
@contextlib.contextmanager
def workdir() -> Iterator[Path]:
    tmp = Path(tempfile.mkdtemp(prefix="tbh-"))  # short: Unix socket paths are limited
    try:
        yield tmp
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def games() -> list[str]:
    from engine import registry

    return [g for g in registry.ids() if 4 in registry.get(g).info.players]


MIXED = ("tcp", "websocket", "tcp", "websocket")


def daemon_load(n: int, transports: tuple[str, str, str, str], delay: float, seconds: float,
                warmup: float, workers: int, *extra: str, keep: Path | None = None,
                profile: Path | None = None) -> dict[str, Any]:
    """A fresh daemon (``extra``: more ``serve`` flags) with ``n`` tables under a load.

    Its data is left in ``keep`` if given; it is stopped with SIGKILL, so what it leaves is
    what a restart after a crash restores (the start-up figure uses it).
    """
    with workdir() as tmp:
        daemon = start_daemon(keep or tmp, *extra)
        try:
            rss_idle = rss_mb(daemon.pid)
            tables = new_tables(daemon, n, games())
            rss_tables = rss_mb(daemon.pid)
            d = run_load(daemon, Load(tables, transports, delay, seconds, warmup, workers,
                                      profile))
            d.update({"ready_seconds": round(daemon.ready_seconds, 3), "rss_idle_mb": rss_idle,
                      "rss_tables_mb": rss_tables, "serve_flags": list(extra)})
            return d
        finally:
            daemon.stop(signal.SIGKILL)


def floor_load(n: int, transports: tuple[str, str, str, str], delay: float, seconds: float,
               warmup: float, workers: int, payload: int, patch: int = 0) -> dict[str, Any]:
    """The floor under the same load, sending full states of ``payload`` bytes first and then
    (``patch`` > 0) patches of ``patch`` bytes, as a protocol 2 daemon does."""
    floor = start_floor(payload, *(["--patch", str(patch)] if patch else []))
    try:
        return run_load(floor, Load(new_tables(floor, n, []), transports, delay, seconds,
                                    warmup, workers))
    finally:
        floor.stop(signal.SIGKILL)


def paced_pair(n: int, seconds: float, warmup: float, workers: int | None,
               keep: Path | None = None) -> dict[str, Any]:
    """The daemon then the floor, at ``n`` paced tables; the daemon's data kept in ``keep``."""
    w = workers or auto_workers(n)
    d = daemon_load(n, MIXED, PACED_DELAY, seconds, warmup, w, keep=keep)
    f = floor_load(n, MIXED, PACED_DELAY, seconds, warmup, w, *frame_sizes(d))
    return {"daemon": d, "floor": f}


def frame_sizes(d: dict[str, Any]) -> tuple[int, int]:
    """(full state, patch) mean bytes of a daemon run, for the floor to send the same."""
    return d["full_bytes_mean"], d["patch_bytes_mean"] if d["patches"] else 0


def saturation_pair(n: int, transport: str, seconds: float, warmup: float,
                    workers: int | None, payload: int, patch: int = 0,
                    profile: Path | None = None) -> dict[str, Any]:
    four = (transport,) * 4
    w = workers or 2
    d = daemon_load(n, four, 0.0, seconds, warmup, w, profile=profile)
    return {"daemon": d, "floor": floor_load(n, four, 0.0, seconds, warmup, w, payload, patch)}


def restart_figure(keep: Path) -> dict[str, Any]:
    """Launch -> READY on the data a killed daemon left (its tables restored by replay)."""
    from hostd.control import request

    daemon = start_daemon(keep)
    try:
        status = request(daemon.control, "status") if daemon.control else {}
        return {"tables": status.get("restored"), "ready_seconds": round(daemon.ready_seconds, 3),
                "restore_seconds": status.get("restore_seconds"),
                "rss_mb": rss_mb(daemon.pid)}
    finally:
        daemon.stop()


def ratio(a: float, b: float) -> str:
    if not b or math.isnan(a) or math.isnan(b):
        return "-"
    return f"{a / b:.1f}x"


def hot_spots(raw: Path, top: int = 25) -> list[tuple[int, str]]:
    """py-spy's raw samples (``--threads``) as (share of the event loop thread's samples
    in %, function), inclusive, most first. A sample is taken whenever the thread is not
    idle in epoll, so on a busy machine the shares include time spent waiting for a CPU."""
    total = 0
    inclusive: dict[str, int] = {}
    for line in raw.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        frames = stack.split(";")
        if not count.isdigit() or "MainThread" not in frames[0]:
            continue
        n = int(count)
        total += n
        for frame in set(frames[1:]):
            inclusive[frame] = inclusive.get(frame, 0) + n
    # Leave out the launch chain and trio's run loop (in nearly every sample).
    launch = ("click/", "<module>", "hostd/cli.py", "(hostd/daemon.py", "trio/_core/_run.py")
    ranked = sorted(((f, n) for f, n in inclusive.items()
                     if not any(x in f for x in launch)), key=lambda kv: -kv[1])
    return [(round(100 * n / max(1, total)), f) for f, n in ranked[:top]]


def run(tables: tuple[int, ...], seconds: float, warmup: float, sat_seconds: float,
        sat_tables: int, workers: int | None, profile: Path | None = None,
        full: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {"machine": machine(), "paced": [], "saturation": {}}
    with workdir() as keep:
        for n in tables:
            keep_here = keep if n == max(tables) else None
            pair = paced_pair(n, seconds, warmup, workers, keep_here)
            out["paced"].append(pair)
            print_paced(n, pair)
        payload, patch = frame_sizes(out["paced"][-1]["daemon"])
        for transport in ("tcp", "websocket"):
            pair = saturation_pair(sat_tables, transport, sat_seconds, warmup, workers, payload,
                                   patch, profile if transport == "tcp" else None)
            out["saturation"][transport] = pair
            print_saturation(transport, pair)
            if profile is not None and transport == "tcp" and profile.exists():
                print(f"where the daemon's time went (saturation over TCP; {profile}):")
                for share, frame in hot_spots(profile):
                    print(f"    {share:3d}%  {frame}")
        if full:
            # The same with commits not flushed to the disk (``sync_commits = false``):
            # what durability against a power cut costs. The floor is the one above.
            n = 200 if 200 in tables else max(tables)
            floor = next(p["floor"] for p in out["paced"] if p["floor"]["tables"] == n)
            d = daemon_load(n, MIXED, PACED_DELAY, seconds, warmup,
                            workers or auto_workers(n), "--no-sync-commits")
            out["no_sync"] = {"paced": {"daemon": d, "floor": floor}}
            print("with --no-sync-commits:", flush=True)
            print_paced(n, out["no_sync"]["paced"])
            tcp = out["saturation"]["tcp"]
            d = daemon_load(sat_tables, ("tcp",) * 4, 0.0, sat_seconds, warmup, workers or 2,
                            "--no-sync-commits")
            out["no_sync"]["saturation_tcp"] = {"daemon": d, "floor": tcp["floor"]}
            print_saturation("tcp (--no-sync-commits)", out["no_sync"]["saturation_tcp"])
        empty = [p["daemon"]["ready_seconds"] for p in out["paced"]]
        out["startup"] = {"empty_ready_seconds": sorted(empty)[len(empty) // 2],
                          "restored": restart_figure(keep)}
        print_startup(out["startup"])
    out["machine"]["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    out["targets"] = verdicts(out)
    print_targets(out["targets"])
    return out


def verdicts(out: dict[str, Any]) -> list[dict[str, Any]]:
    by_n = {p["daemon"]["tables"]: p["daemon"] for p in out["paced"]}
    rows: list[dict[str, Any]] = []

    def row(name: str, value: float | None, target: float, below: bool) -> None:
        if value is None:
            return
        ok = value < target if below else value >= target
        rows.append({"target": name, "value": value, "limit": target,
                     "pass": bool(ok and not math.isnan(value))})

    row("paced 200 tables: p99 intent -> last seat (ms) <",
        by_n[200]["last_seat_ms"]["p99"] if 200 in by_n else None,
        TARGETS["paced_200_p99_ms"], True)
    row("saturation over TCP: durable moves/s >=",
        out["saturation"]["tcp"]["daemon"]["moves_per_second"],
        TARGETS["saturation_tcp_moves_per_second"], False)
    row("RSS at 200 tables (MB) <", by_n[200]["rss_peak_mb"] if 200 in by_n else None,
        TARGETS["rss_200_mb"], True)
    row("RSS at 500 tables (MB) <", by_n[500]["rss_peak_mb"] if 500 in by_n else None,
        TARGETS["rss_500_mb"], True)
    no_sync = out.get("no_sync")
    if no_sync is not None:
        p = no_sync["paced"]["daemon"]
        if p["tables"] == 200:
            row("paced 200 tables, sync_commits off: p99 intent -> last seat (ms) <",
                p["last_seat_ms"]["p99"], TARGETS["paced_200_p99_ms"], True)
        row("saturation over TCP, sync_commits off: durable moves/s >=",
            no_sync["saturation_tcp"]["daemon"]["moves_per_second"],
            TARGETS["saturation_tcp_moves_per_second"], False)
    restored = out["startup"]["restored"]
    if restored.get("tables") == 500:
        row("READY with 500 tables to restore (s) <", restored["ready_seconds"],
            TARGETS["ready_500_seconds"], True)
    return rows


# -- printing ---------------------------------------------------------------------------------------
def print_paced(n: int, pair: dict[str, Any]) -> None:
    d, f = pair["daemon"], pair["floor"]
    print(f"paced {n} tables ({d['connections']} connections, {d['moves_per_second']} moves/s, "
          f"{d['state_bytes_mean']} B states):", flush=True)
    for label, key in (("own", "own_ms"), ("own tcp", "own_tcp_ms"), ("own ws", "own_ws_ms"),
                       ("last seat", "last_seat_ms")):
        a, b = d[key], f[key]
        print(f"    {label:>9}: p50 {a['p50']} / p95 {a['p95']} / p99 {a['p99']} ms"
              f"   floor {b['p50']} / {b['p95']} / {b['p99']}"
              f"   ratio {ratio(a['p50'], b['p50'])} / {ratio(a['p95'], b['p95'])}"
              f" / {ratio(a['p99'], b['p99'])}", flush=True)
    print(f"    daemon RSS {d['rss_peak_mb']} MB (idle {d['rss_idle_mb']}), CPU "
          f"{d['server_cpu_percent']}% ({d['server_cpu_us_per_move']} us/move), "
          f"{d.get('moves_per_commit', '-')} moves/commit; floor RSS {f['rss_peak_mb']} MB, CPU "
          f"{f['server_cpu_percent']}%; clients CPU {d['client_cpu_percent']}% in "
          f"{d['client_processes']} processes; rejects {d['rejects'] or 0}, errors "
          f"{d['errors']}; load average {d['load_average_1min']}", flush=True)


def print_saturation(transport: str, pair: dict[str, Any]) -> None:
    d, f = pair["daemon"], pair["floor"]
    print(f"saturation over {transport}, {d['tables']} tables: {d['moves_per_second']} durable "
          f"moves/s (floor {f['moves_per_second']}, "
          f"{ratio(d['moves_per_second'], f['moves_per_second'])}), daemon "
          f"{d['server_cpu_us_per_move']} us CPU/move (floor {f['server_cpu_us_per_move']}), "
          f"CPU {d['server_cpu_percent']}%, {d.get('moves_per_commit', '-')} moves/commit, "
          f"own p50/p99 {d['own_ms']['p50']}/{d['own_ms']['p99']} ms; capacity "
          f"{d['server_capacity_moves_per_cpu_second']} moves per daemon CPU-second (floor "
          f"{f['server_capacity_moves_per_cpu_second']}); clients CPU "
          f"{d['client_cpu_percent']}%; errors {d['errors']}; load average "
          f"{d['load_average_1min']}", flush=True)


def print_startup(s: dict[str, Any]) -> None:
    r = s["restored"]
    print(f"start-up: launch -> READY {s['empty_ready_seconds']} s empty; "
          f"{r['ready_seconds']} s with {r['tables']} tables restored "
          f"(restore {r['restore_seconds']} s, RSS {r['rss_mb']} MB)", flush=True)


def print_targets(rows: list[dict[str, Any]]) -> None:
    for r in rows:
        print(f"target {r['target']} {r['limit']}: {r['value']} "
              f"{'PASS' if r['pass'] else 'FAIL'}", flush=True)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(prog="bench.host", description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="a smoke run: 1 and 10 tables, short")
    ap.add_argument("--tables", help="paced table counts, comma-separated")
    ap.add_argument("--seconds", type=float, help="measured seconds per paced run")
    ap.add_argument("--warmup", type=float, help="seconds of play before measuring")
    ap.add_argument("--saturation-seconds", type=float)
    ap.add_argument("--saturation-tables", type=int)
    ap.add_argument("--workers", type=int, help="client processes (default: by table count)")
    ap.add_argument("--json", type=Path, help="also write every figure to this file")
    ap.add_argument("--nice", type=int, default=0,
                    help="niceness added to the daemon, the floor and the clients: on a "
                         "machine busy with other work, -10 (as root) measures them as if "
                         "they had it to themselves")
    ap.add_argument("--profile", type=Path,
                    help="record the daemon with py-spy during saturation over TCP (raw "
                         "samples to this file) and print where its time went")
    args = ap.parse_args(argv)
    if args.profile is not None and not PY_SPY.exists():
        # Not a dependency of the project: only this option needs it.
        ap.error(f"--profile needs py-spy beside this Python ({PY_SPY}): pip install py-spy")
    global NICE
    NICE = args.nice
    tables = tuple(int(x) for x in args.tables.split(",")) if args.tables else (
        QUICK_TABLES if args.quick else FULL_TABLES)
    quick = args.quick
    out = run(tables,
              args.seconds or (2.0 if quick else 10.0),
              args.warmup if args.warmup is not None else (0.5 if quick else 2.0),
              args.saturation_seconds or (2.0 if quick else 8.0),
              args.saturation_tables or (10 if quick else SATURATION_TABLES),
              args.workers, args.profile, full=not quick)
    print(f"machine: {out['machine']['cpus']} x {out['machine']['cpu_model']}, Python "
          f"{out['machine']['python']}, load average {out['machine']['load_average']} before, "
          f"{out['machine']['load_average_after']} after, measured processes at nice "
          f"{NICE:+d}", flush=True)
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))
    return out


if __name__ == "__main__":
    main()
