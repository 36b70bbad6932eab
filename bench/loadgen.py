"""A load-generating client process: the four seats of some tables, playing on their own.

Run by ``bench.host`` as ``python -m bench.loadgen``; it is told what to do by one JSON line on
stdin (ports, tables with join codes and each seat's transport, the move delay), connects
and joins every seat (so no computer player moves), prints ``{"ready": ...}``, waits for
``{"start": T0, "end": T1}`` (``time.monotonic`` seconds, the same clock in every process on
Linux), plays until T1 and prints its samples as one JSON line.

Each seat moves ``delay`` seconds after its turn begins (0: at once), with a random legal
action, and asks for a rematch when a game ends, so tables play for as long as asked. All four
seats of a table live in this process, so "intent -> the last seat's update" is measured on
one clock. Every wait is bounded; a seat whose link fails stops and is counted in ``errors``.
"""

from __future__ import annotations

import json
import random
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import msgspec
import trio

from bench import lean

PING_EVERY = 5.0  # the protocol's heartbeat: a link idle this long is pinged
SETUP_SECONDS = 120.0  # joining every seat must finish within this
TAIL_SECONDS = 1.0  # after the window, replies to intents sent inside it may still arrive


@dataclass
class Table:
    id: str
    code: str
    # per seat: version -> when that seat first saw it
    arrivals: list[dict[int, float]] = field(default_factory=lambda: [{} for _ in range(4)])


@dataclass
class Totals:
    own: dict[str, list[float]] = field(default_factory=lambda: {"tcp": [], "websocket": []})
    sent: list[tuple[Table, int, float]] = field(default_factory=list)  # (table, version, t)
    rejects: dict[str, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    states: int = 0
    state_bytes: int = 0
    rematches: int = 0


class Seat:
    def __init__(self, table: Table, seat: int, link: lean.Link, delay: float,
                 window: list[float], totals: Totals, rng: random.Random) -> None:
        self.table = table
        self.seat = seat
        self.link = link
        self.delay = delay
        self.window = window  # [start, end], shared, filled in when the run starts
        self.totals = totals
        self.rng = rng
        self.latest: lean.Msg | None = None
        self.acted = -1  # the version this seat last sent an intent for
        self.turn_began: float | None = None
        self.wake = trio.Event()
        self.joined = trio.Event()
        self.pending: dict[int, float] = {}
        self.rid = 10
        self.rematched = -1

    async def read(self) -> None:
        arrivals = self.table.arrivals[self.seat]
        totals = self.totals
        decode = lean.decoder.decode
        tid = self.table.id
        async for batch in self.link.frames():
            now = time.monotonic()
            wake = False
            for line in batch:
                m = decode(line)
                kind = m.type
                if kind == "state":
                    if m.table != tid:
                        continue
                    arrivals.setdefault(m.version, now)
                    totals.states += 1
                    totals.state_bytes += len(line)
                    if m.re is not None:
                        t = self.pending.pop(m.re, None)
                        if t is not None and self.window[0] <= t <= self.window[1]:
                            totals.own[self.link.transport].append(now - t)
                            totals.sent.append((self.table, m.version, t))
                    latest = self.latest
                    if latest is None or m.version >= latest.version:
                        self.latest = m
                        if m.legal and self.turn_began is None:
                            self.turn_began = now
                        wake = True
                elif kind == "rejected":
                    if m.re is not None and self.pending.pop(m.re, None) is not None:
                        totals.rejects[m.code] = totals.rejects.get(m.code, 0) + 1
                        wake = True
                    elif not self.joined.is_set():
                        totals.errors.append(f"join refused: {m.code}")
                elif kind == "joined":
                    self.joined.set()
                elif kind == "bye":
                    raise lean.LinkGone("the host said bye")
            if wake:
                self.wake.set()

    async def play(self, go: trio.Event) -> None:
        await go.wait()
        self.wake.set()
        while True:
            with trio.move_on_after(PING_EVERY) as idle:
                await self.wake.wait()
            if idle.cancelled_caught:
                self.rid += 1
                await self.link.send(lean.ping(self.rid))
                continue
            self.wake = trio.Event()
            m = self.latest
            if m is None:
                continue
            if m.status == "finished" and self.rematched != m.version:
                self.rematched = m.version
                self.totals.rematches += 1
                self.rid += 1
                await self.link.send(lean.rematch(self.table.id, self.rid))
                continue
            if m.status != "playing" or not m.legal or m.version <= self.acted:
                continue
            if self.delay > 0:
                began = self.turn_began if self.turn_began is not None else time.monotonic()
                wait = began + self.delay - time.monotonic()
                if wait > 0:
                    await trio.sleep(wait)
                m = self.latest
                if m is None or m.status != "playing" or not m.legal:
                    continue
            self.rid += 1
            self.turn_began = None
            self.acted = m.version
            action = bytes(m.legal[self.rng.randrange(len(m.legal))])
            self.pending[self.rid] = time.monotonic()
            await self.link.send(lean.intent(self.table.id, m.version, self.seat, action,
                                             self.rid))


async def setup_seat(job: dict[str, Any], table: Table, seat: int, transport: str,
                     window: list[float], totals: Totals,
                     limiter: trio.CapacityLimiter, nursery: trio.Nursery,
                     seats: list[Seat]) -> None:
    async with limiter:
        link = await lean.open_link(transport, job["tcp_port"], job["http_port"])
        s = Seat(table, seat, link, float(job["delay"]), window, totals,
                 random.Random(f"{table.id}:{seat}"))
        nursery.start_soon(guard, s, s.read, totals)
        await link.send(lean.hello())
        await link.send(lean.join(table.code, seat, 2))
        await s.joined.wait()
        seats.append(s)


async def guard(s: Seat, fn: Any, totals: Totals) -> None:
    try:
        await fn()
    except (lean.LinkGone, trio.BrokenResourceError, trio.ClosedResourceError, OSError,
            msgspec.DecodeError) as e:
        totals.errors.append(f"table {s.table.id} seat {s.seat}: {type(e).__name__}: {e}")


def summary(totals: Totals) -> dict[str, Any]:
    last: list[float] = []
    missing = 0
    for table, version, t in totals.sent:
        seen = [a.get(version) for a in table.arrivals]
        if any(x is None for x in seen):
            missing += 1
            continue
        last.append(max(x for x in seen if x is not None) - t)
    return {"own": totals.own, "last": last, "missing": missing, "rejects": totals.rejects,
            "errors": totals.errors[:20], "error_count": len(totals.errors),
            "states": totals.states, "state_bytes": totals.state_bytes,
            "rematches": totals.rematches}


async def run(job: dict[str, Any]) -> None:
    totals = Totals()
    window = [0.0, 0.0]
    tables = [Table(t["id"], t["code"]) for t in job["tables"]]
    seats: list[Seat] = []
    go = trio.Event()
    limiter = trio.CapacityLimiter(int(job.get("connect_concurrency", 32)))
    async with trio.open_nursery() as nursery:
        with trio.fail_after(SETUP_SECONDS):
            async with trio.open_nursery() as setup:
                for t, spec in zip(tables, job["tables"], strict=True):
                    for seat, transport in enumerate(spec["transports"]):
                        setup.start_soon(setup_seat, job, t, seat, transport, window, totals,
                                         limiter, nursery, seats)
        for s in seats:
            nursery.start_soon(guard, s, lambda s=s: s.play(go), totals)
        print(json.dumps({"ready": len(seats)}), flush=True)
        line = await trio.to_thread.run_sync(sys.stdin.readline)
        times = json.loads(line)
        window[0], window[1] = float(times["start"]), float(times["end"])
        go.set()
        await trio.sleep(max(0.0, window[1] + TAIL_SECONDS - time.monotonic()))
        nursery.cancel_scope.cancel()
    sys.stdout.write(msgspec.json.encode(summary(totals)).decode() + "\n")
    sys.stdout.flush()


def main() -> None:
    job = json.loads(sys.stdin.readline())
    trio.run(run, job)


if __name__ == "__main__":
    main()
