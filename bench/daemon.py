"""A quick benchmark of the daemon: durable moves per second, intent latency, restore time.

Run: ``.venv/bin/python -m bench.daemon [--tables N] [--seconds S] [--restore N] [--json]``.

- *Saturation*: ``tablebox serve`` in a subprocess (loopback), N tables (Euchre by default)
  rematched forever, 4 TCP clients each that move the instant their turn begins. Every accepted move is committed before anyone is told, so
  moves/s are durable moves/s; ``jobs per commit`` shows group commit at work.
- *AI isolation*: ping round trips on one connection while hard computer players think
  at another table, with the AI on worker threads (``--ai-processes 0``) and in a worker
  process: a thread holds the event loop's GIL while it computes, a process does not.
- *Wire*: bytes the box sends each seat per move, for whole games of Euchre and Sequence with
  a person (a TCP client) in every seat: what was sent (a full state, then patches), against
  what full states would have cost (each patched state encoded whole, as protocol 1 sent it).
  ``--wire-only`` runs just this part.
- *Restore*: N tables with a game in progress written to a fresh database (through the real
  store), then the time from launch to the control socket answering, and the daemon's own
  restore figure.

The fuller load and chaos benchmarks of the host (paced clients, WebSocket, RSS, 500 tables)
belong to the benchmark suite of issue 10; this one is the daemon's own quick check.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import trio

ROOT = Path(__file__).resolve().parents[1]
LAUNCH = ("import sys; from engine import registry; "
          "registry.GAME_MODULES.setdefault('toy', 'tests.hostd.toy'); "
          "from hostd.cli import main; sys.argv[0] = 'tablebox'; main()")


def start(data: Path, control: Path, *extra: str) -> tuple[subprocess.Popen[bytes], int, float]:
    from hostd.control import request

    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", LAUNCH, "serve", "--data", str(data), "--bind", "127.0.0.1",
         "--tcp-port", "0", "--http-port", "0", "--control", str(control), "--no-mdns",
         "--no-bluetooth", "--ai-speed", "0", "--no-log-file", "--log-level", "warning",
         *extra],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)
    while True:
        try:
            status = request(control, "status", timeout=5)
            return proc, int(status["listening"]["tcp"]["port"]), time.perf_counter() - t0
        except Exception:
            if proc.poll() is not None:
                raise SystemExit("the daemon did not start") from None
            time.sleep(0.01)


async def saturate(port: int, codes: list[str], ids: list[str], seconds: float
                   ) -> dict[str, Any]:
    from clients.client import ClientError, connect

    latencies: list[float] = []
    moves = 0
    async with contextlib.AsyncExitStack() as stack:
        seats = []
        for code, tid in zip(codes, ids, strict=True):
            for seat in range(4):
                c = await stack.enter_async_context(connect(port=port))
                await c.join(code, f"b{seat}", seat)
                seats.append((tid, seat, c))

        async def player(tid: str, seat: int, c: Any, rng: random.Random) -> None:
            nonlocal moves
            while True:
                s = await c.wait_state(tid, lambda s: bool(s.legal) or s.status == "finished",
                                       timeout=30)
                try:
                    if s.status == "finished":
                        since = c.seq
                        await c.rematch(tid)  # every seat asks: the game starts again
                        await c.changed(since)
                        continue
                    t0 = time.perf_counter()
                    await c.intent(tid, s.version, rng.choice(s.legal), seat=seat)
                    latencies.append(time.perf_counter() - t0)
                    moves += 1
                except ClientError:
                    await c.changed()

        t0 = time.perf_counter()
        with trio.move_on_after(seconds):
            async with trio.open_nursery() as nursery:
                for i, (tid, seat, c) in enumerate(seats):
                    nursery.start_soon(player, tid, seat, c, random.Random(i))
        elapsed = time.perf_counter() - t0
    latencies.sort()
    return {
        "moves": moves, "seconds": round(elapsed, 2), "moves_per_second": round(moves / elapsed),
        "intent_ms_p50": round(1000 * statistics.median(latencies), 2),
        "intent_ms_p99": round(1000 * latencies[int(len(latencies) * 0.99)], 2),
    }


def bench_saturation(tables: int, seconds: float, sync: bool, game: str) -> dict[str, Any]:
    from hostd.control import request

    tmp = Path(tempfile.mkdtemp(prefix="tbb-"))
    extra = ["--ai-processes", "0", *(["--sync-commits"] if sync else [])]
    proc, port, _ = start(tmp / "data", tmp / "c.sock", *extra)
    try:
        made = [request(tmp / "c.sock", "tables.new", game=game, players=4)
                for _ in range(tables)]
        before = request(tmp / "c.sock", "status")
        result = trio.run(saturate, port, [t["code"] for t in made], [t["id"] for t in made],
                          seconds)
        after = request(tmp / "c.sock", "status")
        commits = after["commits"] - before["commits"]
        moves = max(1, after["moves"] - before["moves"])
        cpu = after["cpu_seconds"] - before["cpu_seconds"]
        result.update({"game": game, "tables": tables, "sync_commits": sync, "commits": commits,
                       "moves_per_commit": round(result["moves"] / max(1, commits), 1),
                       "server_cpu_us_per_move": round(1e6 * cpu / moves),
                       "server_cpu_bound_moves_per_second": round(moves / max(cpu, 1e-9))})
        return result
    finally:
        proc.kill()
        proc.wait()
        shutil.rmtree(tmp, ignore_errors=True)


async def _wire_game(port: int, code: str, tid: str, players: int, seed: int
                     ) -> tuple[int, int, int]:
    """One whole game with a client in every seat: (bytes of states and patches received,
    bytes the same states would have been as full states, moves), over every seat."""
    from clients.client import ClientError, connect
    from hostd.protocol.messages import State, encode

    async with contextlib.AsyncExitStack() as stack:
        clients = {}
        for seat in range(players):
            c = await stack.enter_async_context(connect(port=port, record=True))
            await c.join(code, f"w{seat}", seat)
            clients[seat] = c
        rng = random.Random(seed)

        async def player(seat: int, c: Any) -> None:
            while True:
                s = await c.wait_state(tid, lambda s: bool(s.legal) or s.status != "playing",
                                       timeout=60)
                if s.status != "playing":
                    return
                try:
                    await c.intent(tid, s.version, rng.choice(s.legal), seat=seat)
                except ClientError:  # stale while another seat moved: choose again
                    await c.changed()

        async with trio.open_nursery() as nursery:
            for seat, c in clients.items():
                nursery.start_soon(player, seat, c)
        end = clients[0].states[tid]
        sent = full = 0
        for c in clients.values():
            assert c.raw is not None and c.messages is not None
            sent += sum(len(line) + 1 for line in bytes(c.raw).split(b"\n")
                        if line.startswith((b'{"type":"state"', b'{"type":"patch"')))
            full += sum(len(encode(m)) + 1 for m in c.messages if isinstance(m, State))
        return sent, full, end.version


def bench_wire(game: str, games: int) -> dict[str, Any]:
    from hostd.control import request

    tmp = Path(tempfile.mkdtemp(prefix="tbb-"))
    proc, port, _ = start(tmp / "data", tmp / "c.sock", "--ai-processes", "0")
    try:
        sent = full = moves = 0
        players = 4
        for i in range(games):
            t = request(tmp / "c.sock", "tables.new", game=game, players=players)
            s, f, _ = trio.run(_wire_game, port, t["code"], t["id"], players, i)
            record = request(tmp / "c.sock", "export", table=t["id"])
            moves += sum(1 for step in record["steps"] if "action" in step)
            sent, full = sent + s, full + f
        per = players * max(1, moves)
        return {"game": game, "players": players, "games": games, "moves": moves,
                "full_bytes_per_move_per_seat": round(full / per),
                "sent_bytes_per_move_per_seat": round(sent / per),
                "reduction": round(full / max(1, sent), 1)}
    finally:
        proc.kill()
        proc.wait()
        shutil.rmtree(tmp, ignore_errors=True)


def bench_restore(tables: int, steps: int) -> dict[str, Any]:
    sys.path.insert(0, str(ROOT))
    from engine import registry

    registry.GAME_MODULES.setdefault("euchre", "engine.euchre")
    from hostd.control import request
    from hostd.store import open_store
    from hostd.tables.core import TableCore, TableMeta

    tmp = Path(tempfile.mkdtemp(prefix="tbr-"))

    async def fill() -> int:
        total = 0
        async with open_store(tmp / "data" / "tablebox.sqlite3") as store:
            for i in range(tables):
                meta = TableMeta("", f"R{i:03d}", "bench", "euchre", 4,
                                 registry.get("euchre").validate(4, {}), i)
                core, events = TableCore.create(meta, ["random"])
                rng = random.Random(i)
                for _ in range(steps):
                    seat = core.to_act()[0] if core.to_act() else None
                    if seat is None or core.status != "playing":
                        break
                    change = core.ai_step(seat, core.version, rng.choice(core.match.legal(seat)))
                    events += change.events
                    change.commit()
                    if core.chance_pending():
                        c2 = core.resolve_chance()
                        events += c2.events
                        c2.commit()
                total += len(events)
                await store.create_table(code=meta.code, name="bench", game="euchre",
                                         players=4, options=meta.options, seed=i,
                                         turn_timer=0.0, events=events)
        return total

    events = trio.run(fill)
    try:
        proc, _, ready = start(tmp / "data", tmp / "c.sock", "--ai-processes", "0")
        status = request(tmp / "c.sock", "status")
        proc.kill()
        proc.wait()
        proc0, _, ready0 = start(Path(tempfile.mkdtemp(prefix="tbe-")) / "data",
                                 tmp / "c0.sock", "--ai-processes", "0")
        proc0.kill()
        proc0.wait()
        return {"tables": status["restored"], "events": events,
                "restore_seconds": status["restore_seconds"],
                "launch_to_control_seconds": round(ready, 2),
                "empty_launch_to_control_seconds": round(ready0, 2)}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def bench_ai_isolation(processes: int, seconds: float, game: str) -> dict[str, Any]:
    """Ping round trips on one connection while hard AIs think at another table."""
    from clients.client import connect
    from hostd.control import request

    tmp = Path(tempfile.mkdtemp(prefix="tba-"))
    proc, port, _ = start(tmp / "data", tmp / "c.sock", "--ai-processes", str(processes))
    try:
        t = request(tmp / "c.sock", "tables.new", game=game, ai="hard")

        async def run() -> dict[str, Any]:
            rtts: list[float] = []
            async with connect(port=port) as kiosk, connect(port=port) as pinger:
                await kiosk.spectate(t["id"])  # somebody watches: the AIs play
                start_status = request(tmp / "c.sock", "status")
                with trio.move_on_after(seconds):
                    while True:
                        t0 = time.perf_counter()
                        await pinger.ping()
                        rtts.append(time.perf_counter() - t0)
                        await trio.sleep(0.01)
                end_status = request(tmp / "c.sock", "status")
            rtts.sort()
            return {"ai_processes": processes, "game": game, "level": "hard",
                    "ai_decisions": end_status["ai_decisions"] - start_status["ai_decisions"],
                    "pings": len(rtts), "ping_ms_p50": round(1000 * statistics.median(rtts), 2),
                    "ping_ms_p99": round(1000 * rtts[int(len(rtts) * 0.99)], 2),
                    "ping_ms_max": round(1000 * rtts[-1], 2)}

        return trio.run(run)
    finally:
        proc.kill()
        proc.wait()
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--restore", type=int, default=500)
    ap.add_argument("--steps", type=int, default=60, help="steps per restored table")
    ap.add_argument("--game", default="euchre", help="the game the saturated tables play")
    ap.add_argument("--ai-game", default="euchre", help="the game whose hard AIs think")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--wire-games", type=int, default=3, help="whole games per wire figure")
    ap.add_argument("--wire-only", action="store_true", help="only the bytes per move")
    args = ap.parse_args()
    machine = {"python": platform.python_version(), "cpus": os.cpu_count(),
               "platform": platform.platform(), "load_average": os.getloadavg()}
    wire = {f"wire_{g}": bench_wire(g, args.wire_games) for g in ("euchre", "sequence")}
    out = {"machine": machine, **wire} if args.wire_only else {
        "machine": machine, **wire,
        "saturation": bench_saturation(args.tables, args.seconds, False, args.game),
        "saturation_sync_commits": bench_saturation(args.tables, args.seconds, True, args.game),
        "restore": bench_restore(args.restore, args.steps),
        "ai_on_threads": bench_ai_isolation(0, args.seconds, args.ai_game),
        "ai_in_processes": bench_ai_isolation(1, args.seconds, args.ai_game),
    }
    machine["load_average_after"] = os.getloadavg()
    if args.json:
        print(json.dumps(out, indent=2))
        return
    for name, r in out.items():
        print(f"{name}: " + ", ".join(f"{k} {v}" for k, v in r.items()))


if __name__ == "__main__":
    main()
