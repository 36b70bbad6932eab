"""A load-generating client process: the four seats of some tables, playing on their own.

Run by ``bench.host`` as ``python -m bench.loadgen``; it is told what to do by one JSON line on
stdin (ports, tables with join codes and each seat's transport, the move delay), connects
and joins every seat (so no computer player moves), prints ``{"ready": ...}``, waits for
``{"start": T0, "end": T1}`` (``time.monotonic`` seconds, the same clock in every process on
Linux), plays until T1 and prints its samples as one JSON line.

Each seat moves ``delay`` seconds after its turn begins (0: at once), with a random legal
action, and asks for a rematch when a game ends, so tables play for as long as asked. A seat
that has heard nothing new for ``PING_EVERY`` seconds pings (the protocol's heartbeat). All
four seats of a table live in this process, so "intent -> the last seat's update" is
measured on one clock. A seat whose link fails is closed and counted in ``errors``; the
others play on. An intent (or rematch) refused ``rate_limited`` is sent again after
``RETRY_SECONDS``: a box that cannot serve a request for pace names it, and the seat would
otherwise wait for ever for an answer that will not come (a box that paces, as the daemon
does, never sends it; older ones did, without naming the request, and then every seat that
had just sent anything retries).

The whole process is one ``select.epoll`` loop over non-blocking sockets (``bench.lean``'s
``Conn``), with the paced moves in a heap of timers: the client must cost far less CPU per
move than the server it measures, and a framework's task switches cost more than the
bytes. Every wait is bounded (``SETUP_SECONDS`` to join, ``START_SECONDS`` for the start
line, the window plus ``TAIL_SECONDS`` to play); every socket is closed before the samples
are printed.
"""

from __future__ import annotations

import gc
import heapq
import json
import os
import random
import select
import sys
import time
from collections import deque
from collections.abc import Callable
from typing import Any

import msgspec

from bench import lean
from hostd.protocol.patch import PatchError, apply

PING_EVERY = 5.0  # the protocol's heartbeat: a seat that heard nothing this long pings
SETUP_SECONDS = 120.0  # joining every seat must finish within this
START_SECONDS = 120.0  # the start line must come within this after "ready"
TAIL_SECONDS = 1.0  # after the window, replies to intents sent inside it may still arrive
BEAT_SECONDS = 0.5  # how often seats are checked for the heartbeat
RETRY_SECONDS = 0.05  # a request refused for pace is sent again this long after
STDIN_LIMIT = 1 << 26  # the job line (every table's join code) is far smaller

MAX_EVENTS = 256  # per poll (Python allocates room for this many each call); more wait
DECODE = lean.decoder.decode
IN_EVENTS = select.EPOLLIN | select.EPOLLERR | select.EPOLLHUP
OUT_EVENTS = select.EPOLLOUT


class Table:
    """A table as its four seats here see it: when each seat first saw each version."""

    __slots__ = ("arrivals", "code", "id", "tid")

    def __init__(self, tid: str, code: str) -> None:
        self.id = tid
        self.tid = tid.encode()
        self.code = code
        # per seat: version -> when that seat first saw it
        self.arrivals: list[dict[int, float]] = [{} for _ in range(4)]


class Totals:
    """What this process measured, summed over its seats."""

    __slots__ = ("errors", "own", "patch_bytes", "patches", "pings", "rejects", "rematches",
                 "sent", "state_bytes", "states")

    def __init__(self) -> None:
        self.own: dict[str, list[float]] = {"tcp": [], "websocket": []}
        self.sent: list[tuple[Table, int, float]] = []  # (table, version, t)
        self.rejects: dict[str, int] = {}
        self.errors: list[str] = []
        self.states = 0
        self.state_bytes = 0
        self.patches = 0  # of ``states``, those that came as a patch (and their bytes)
        self.patch_bytes = 0
        self.rematches = 0
        self.pings = 0


class Seat:
    """One seat of a table: its link and what it knows of the game."""

    __slots__ = (
        "acted",
        "alive",
        "conn",
        "doc",
        "joined",
        "last_wake",
        "latest",
        "own",
        "pending",
        "rematched",
        "rid",
        "rng",
        "seat",
        "table",
        "timer",
        "turn_began",
    )

    def __init__(self, table: Table, seat: int, conn: lean.Conn, totals: Totals) -> None:
        self.table = table
        self.seat = seat
        self.conn = conn
        self.own = totals.own[conn.transport]  # this seat's latency samples go here
        self.rng = random.Random(f"{table.id}:{seat}")
        self.latest: lean.Msg | None = None
        self.doc: dict[str, Any] | None = None  # the whole latest state, patches apply to it
        self.acted = -1  # the version this seat last sent an intent for
        self.turn_began: float | None = None
        self.pending: dict[int, float] = {}  # request id -> when the intent was written
        self.rid = 10
        self.rematched = -1
        self.joined = False
        self.alive = True
        self.timer = False  # a paced move is in the heap
        self.last_wake = 0.0


class Stdin:
    """Lines from fd 0 read without blocking the loop (after the first)."""

    def __init__(self) -> None:
        self.buf = b""
        self.eof = False

    def read(self) -> None:
        data = os.read(0, 65536)
        if not data:
            self.eof = True
        self.buf += data
        if len(self.buf) > STDIN_LIMIT:
            raise SystemExit("bench.loadgen: an endless line on stdin")

    def line(self) -> bytes | None:
        if b"\n" not in self.buf:
            return None
        line, self.buf = self.buf.split(b"\n", 1)
        return line

    def blocking_line(self) -> bytes:
        while (line := self.line()) is None and not self.eof:
            self.read()
        if line is None:
            raise SystemExit("bench.loadgen: stdin closed before a whole line")
        return line


class Player:
    """Every seat of this process, and the one loop that drives them."""

    def __init__(self, job: dict[str, Any], stdin: Stdin) -> None:
        self.job = job
        self.delay = float(job["delay"])
        self.totals = Totals()
        self.window = (0.0, 0.0)
        self.go = False
        self.poller = select.epoll()
        self.by_fd: dict[int, Seat] = {}
        self.seats: list[Seat] = []
        self.joining = 0
        self.timers: list[tuple[float, int, Seat]] = []
        self.timer_seq = 0
        self.next_beat = 0.0
        self.stdin = stdin  # the start line comes here, read inside the loop
        self.stdin_watched = False

    # -- the loop ---------------------------------------------------------------------------
    def pump(self, until: float, done: Callable[[], bool] | None = None) -> None:
        """Serve every socket, timer and heartbeat until ``until`` or ``done()``."""
        poll = self.poller.poll
        by_fd = self.by_fd
        timers = self.timers
        monotonic = time.monotonic
        while True:
            now = monotonic()
            if now >= until or (done is not None and done()):
                return
            while timers and timers[0][0] <= now:
                s = heapq.heappop(timers)[2]
                s.timer = False
                if s.alive:
                    self.consider(s, now)
            if self.go and now >= self.next_beat:
                self.heartbeat(now)
            timeout = until - now
            if timers and timers[0][0] - now < timeout:
                timeout = timers[0][0] - now
            if self.go and self.next_beat - now < timeout:
                timeout = self.next_beat - now
            for fd, ev in poll(max(timeout, 0.0), MAX_EVENTS):
                seat = by_fd.get(fd)
                if seat is None:
                    if fd == 0:
                        self.stdin.read()
                        if self.stdin.eof:
                            self.poller.unregister(0)
                            self.stdin_watched = False
                    continue
                try:
                    if ev & OUT_EVENTS:
                        seat.conn.on_writable()
                    if ev & IN_EVENTS:
                        frames = seat.conn.receive()
                        if frames:
                            self.handle(seat, frames)
                except (lean.LinkError, OSError) as e:
                    self.fail(seat, f"{type(e).__name__}: {e}")

    def patched(self, s: Seat, line: bytes) -> lean.Msg | None:
        """The state a ``patch`` frame makes of the seat's, as the fields a player reads; None
        (and a ``sync`` sent) when it does not follow the version held."""
        p = msgspec.json.decode(line)
        doc = s.doc
        if doc is not None and doc.get("version") == p["base"]:
            try:
                doc = {**apply(doc, p["ops"]), "version": p["version"]}
            except PatchError:
                doc = None
            else:
                s.doc = doc
                return lean.Msg(type="state", re=p["re"], table=p["table"], version=p["version"],
                                seat=doc["seat"], status=doc["status"],
                                legal=[msgspec.Raw(msgspec.json.encode(a)) for a in doc["legal"]])
        if s.doc is not None:
            s.doc = None
            s.rid += 1
            s.conn.send(b'{"type":"sync","id":%d,"table":"%s"}' % (s.rid, p["table"].encode()))
        return None

    def handle(self, s: Seat, frames: list[bytes]) -> None:
        now = time.monotonic()
        table = s.table
        arrivals = table.arrivals[s.seat]
        totals = self.totals
        decode = DECODE
        tid = table.id
        wake = False
        for line in frames:
            try:
                m = decode(line)
            except msgspec.DecodeError as e:
                self.fail(s, f"DecodeError: {e}")
                return
            kind = m.type
            if kind == "state":
                s.doc = msgspec.json.decode(line)
            elif kind == "patch":
                # Protocol 2: the state this patch leads to (or, out of step, a sync for it).
                patched = self.patched(s, line)
                if patched is None:
                    continue
                m, kind = patched, "state"
                totals.patches += 1
                totals.patch_bytes += len(line)
            if kind == "state":
                if m.table != tid:
                    continue
                version = m.version
                if version not in arrivals:
                    arrivals[version] = now
                totals.states += 1
                totals.state_bytes += len(line)
                re = m.re
                if re is not None:
                    t = s.pending.pop(re, None)
                    if t is not None and self.window[0] <= t <= self.window[1]:
                        s.own.append(now - t)
                        totals.sent.append((table, version, t))
                latest = s.latest
                if latest is None or version >= latest.version:
                    s.latest = m
                    if m.legal and s.turn_began is None:
                        s.turn_began = now
                    wake = True
            elif kind == "rejected":
                if m.code == "rate_limited":
                    if m.re is not None:
                        s.pending.pop(m.re, None)
                    totals.rejects[m.code] = totals.rejects.get(m.code, 0) + 1
                    self.retry(s, now)
                elif m.re is not None and s.pending.pop(m.re, None) is not None:
                    totals.rejects[m.code] = totals.rejects.get(m.code, 0) + 1
                    wake = True
                elif not s.joined:
                    self.fail(s, f"join refused: {m.code}")
                    return
            elif kind == "joined":
                if not s.joined:
                    s.joined = True
                    self.joining -= 1
                    self.seats.append(s)
            elif kind == "bye":
                self.fail(s, "LinkGone: the host said bye")
                return
        if wake and self.go:
            s.last_wake = now
            latest = s.latest
            if latest is not None and (latest.legal or latest.status == "finished"):
                self.consider(s, now)  # else it has nothing to do

    def consider(self, s: Seat, now: float) -> None:
        """What the seat does on news: ask for a rematch, move now, or move later."""
        m = s.latest
        if m is None:
            return
        try:
            if m.status == "finished" and s.rematched != m.version:
                s.rematched = m.version
                self.totals.rematches += 1
                s.rid += 1
                s.conn.send(lean.rematch(s.table.id, s.rid))
                return
            if m.status != "playing" or not m.legal or m.version <= s.acted:
                return
            if self.delay > 0:
                began = s.turn_began if s.turn_began is not None else now
                due = began + self.delay
                if due > now:
                    if not s.timer:  # the timer looks at the latest state when it fires
                        s.timer = True
                        self.timer_seq += 1
                        heapq.heappush(self.timers, (due, self.timer_seq, s))
                    return
            s.rid += 1
            s.turn_began = None
            s.acted = m.version
            legal = m.legal
            action = bytes(legal[s.rng.randrange(len(legal))])
            frame = lean.intent(s.table.tid, m.version, s.seat, action, s.rid)
            s.pending[s.rid] = time.monotonic()
            s.conn.send(frame)
        except (lean.LinkError, OSError) as e:
            self.fail(s, f"{type(e).__name__}: {e}")

    def retry(self, s: Seat, now: float) -> None:
        """Send the seat's last request again (an intent for the latest state, or the
        rematch) ``RETRY_SECONDS`` from now; its move delay was already waited."""
        s.acted = -1
        s.rematched = -1
        s.turn_began = now - self.delay
        if self.go and not s.timer:
            s.timer = True
            self.timer_seq += 1
            heapq.heappush(self.timers, (now + RETRY_SECONDS, self.timer_seq, s))

    def heartbeat(self, now: float) -> None:
        self.next_beat = now + BEAT_SECONDS
        for s in self.seats:
            if s.alive and now - s.last_wake >= PING_EVERY:
                s.last_wake = now
                s.rid += 1
                self.totals.pings += 1
                try:
                    s.conn.send(lean.ping(s.rid))
                except (lean.LinkError, OSError) as e:
                    self.fail(s, f"{type(e).__name__}: {e}")

    def fail(self, s: Seat, why: str) -> None:
        if not s.alive:
            return
        s.alive = False
        if not s.joined:
            self.joining -= 1
        self.totals.errors.append(f"table {s.table.id} seat {s.seat}: {why}")
        self.by_fd.pop(s.conn.fd, None)
        s.conn.close()

    # -- the phases -------------------------------------------------------------------------
    def setup(self) -> int:
        """Connect and join every seat, a bounded number at a time; the seats joined."""
        job = self.job
        tables = [(Table(t["id"], t["code"]), t["transports"]) for t in job["tables"]]
        todo = deque((table, seat, transport)
                     for table, transports in tables for seat, transport in enumerate(transports))
        limit = int(job.get("connect_concurrency", 32))
        deadline = time.monotonic() + SETUP_SECONDS
        while todo or self.joining:
            while todo and self.joining < limit:
                table, seat, transport = todo.popleft()
                try:
                    conn = lean.open_conn(transport, self.poller, job["tcp_port"],
                                          job["http_port"])
                except OSError as e:
                    self.totals.errors.append(f"table {table.id} seat {seat}: OSError: {e}")
                    continue
                s = Seat(table, seat, conn, self.totals)
                self.by_fd[conn.fd] = s
                self.joining += 1
                conn.send(lean.hello())
                conn.send(lean.join(table.code, seat, 2))
            if time.monotonic() >= deadline:
                raise SystemExit(f"bench.loadgen: seats still joining after {SETUP_SECONDS} s")
            self.pump(deadline, lambda: (self.joining < limit and bool(todo))
                      or not self.joining)
        return len(self.seats)

    def wait_start(self) -> None:
        line = self.stdin.line()
        if line is None:
            self.poller.register(0, select.EPOLLIN)
            self.stdin_watched = True
            self.pump(time.monotonic() + START_SECONDS,
                      lambda: b"\n" in self.stdin.buf or self.stdin.eof)
            line = self.stdin.line()
        if line is None:
            raise SystemExit("bench.loadgen: no start line")
        times = json.loads(line)
        self.window = (float(times["start"]), float(times["end"]))

    def play(self) -> None:
        now = time.monotonic()
        self.go = True
        self.next_beat = now + BEAT_SECONDS
        for s in list(self.seats):
            s.last_wake = now
            if s.alive:
                self.consider(s, now)
        # Nothing made while playing holds a reference cycle, so reference counting frees
        # it all: the collector would only walk the samples, again and again.
        gc.freeze()
        gc.disable()
        try:
            self.pump(self.window[1] + TAIL_SECONDS)
        finally:
            gc.enable()

    def close(self) -> None:
        for s in list(self.by_fd.values()):
            s.conn.close()
        self.by_fd.clear()
        if self.stdin_watched:
            self.poller.unregister(0)
        self.poller.close()


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
            "patches": totals.patches, "patch_bytes": totals.patch_bytes,
            "rematches": totals.rematches, "pings": totals.pings}


def run(player: Player) -> dict[str, Any]:
    try:
        ready = player.setup()
        print(json.dumps({"ready": ready}), flush=True)
        player.wait_start()
        player.play()
    finally:
        player.close()
    return summary(player.totals)


def main() -> None:
    stdin = Stdin()
    job = json.loads(stdin.blocking_line())
    out = run(Player(job, stdin))
    sys.stdout.write(msgspec.json.encode(out).decode() + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
