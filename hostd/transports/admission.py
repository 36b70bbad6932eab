"""The connection budget: how many client connections the daemon keeps, in all and per address.

Owns the caps and the table of admitted connections. The total cap comes from the process's
descriptor limit (``RLIMIT_NOFILE``) minus the descriptors in use at start (the database, the
log, the listeners, the AI workers' pipes) and a reserve kept back for what must always work:
the control socket (``tablebox status``), HTTP health checks, connections being closed, and
whatever a library opens later. ``max_connections`` may set it lower, never higher;
``max_connections_per_address`` caps one peer address.

Rules, in the order ``admit`` applies them to a new connection:

- under both caps: admitted;
- its address at its cap: the oldest idle connection *of that address* that is at no table
  is closed to make room; none: the new one is refused;
- the total at its cap: the oldest idle connection at no table, from any address, is closed
  to make room; none: refused.

"Idle" is heard from least recently, and not in the last ``IDLE_SECONDS``; "at a table" is a
seat or a spectator's place, as the session reports it. A seated player or a watching kiosk
is never closed to make room, whatever it costs the newcomer. A closed connection keeps its
place until its socket is really closed (its goodbye drains first), within a small allowance,
so descriptors in use never pass the budget. The transport says goodbye with its protocol's
way (``bye`` with ``bye.idle`` or ``bye.busy``; WebSocket close 1013 when refused; HTTP 503).

Every refusal, every closing to make room and every failed ``accept(2)`` (EMFILE and the
like, which trio's ``serve_listeners`` would log with a traceback ten times a second) is
counted, and logged as one warning line per ``LOG_EVERY`` seconds with the counts.

Never reads or writes a socket and never parses protocol: transports ask, the session tells
which connections are at a table, and the callbacks they give close what must go.
"""

from __future__ import annotations

import contextlib
import errno
import ipaddress
import logging
import os
import resource
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import trio

from hostd.logs import get_logger

log = get_logger(__name__)

IDLE_SECONDS = 1.0  # heard from this recently: not idle, never closed to make room
LOG_EVERY = 10.0  # seconds between two lines about the same condition
RAISE_TO = 4096  # the soft descriptor limit is raised to this when the hard limit allows
CONTROL_SLOTS = 8  # control-socket clients at once (outside the budget, in the reserve)
PROBE_SLOTS = 8  # HTTP requests answered while the budget is full (health checks)
ACCEPT_ERRNOS = {errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM}


def reserve_for(limit: int) -> int:
    """Descriptors kept back from client connections: the control socket and health checks
    (``CONTROL_SLOTS`` + ``PROBE_SLOTS``), connections whose goodbye is draining, mDNS and
    D-Bus sockets, SQLite's temporary files, a log file being rotated."""
    return max(64, min(256, limit // 8))


def descriptor_limit() -> int:
    """The soft RLIMIT_NOFILE (a large number when there is none)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return 1 << 20 if soft == resource.RLIM_INFINITY else int(soft)


def raise_descriptor_limit(target: int = RAISE_TO) -> int:
    """Raise the soft limit toward ``target`` as far as the hard limit allows; the soft limit.

    The default soft limit (1024) is a relic of select(2); trio uses epoll. Under the unit,
    ``LimitNOFILE=`` sets both limits and the system call filter refuses setrlimit(2): then
    there is nothing to raise, and a refusal is not an error.
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = target if hard == resource.RLIM_INFINITY else min(target, hard)
    if soft != resource.RLIM_INFINITY and soft < want:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    return descriptor_limit()


def open_descriptors() -> int:
    """Descriptors this process has open now (0 when the system does not say)."""
    for where in ("/proc/self/fd", "/dev/fd"):
        with contextlib.suppress(OSError):
            return max(0, len(os.listdir(where)) - 1)  # listdir's own descriptor
    return 0


@dataclass(frozen=True)
class Budget:
    descriptors: int  # the soft descriptor limit
    in_use: int  # descriptors open when the budget was made
    reserve: int  # kept back for the control socket, health checks and the rest
    total: int  # client connections at most, every address together
    per_address: int  # client connections at most from one address
    asked: int  # max_connections as configured (0: as many as the descriptors allow)

    def as_dict(self) -> dict[str, int]:
        return {"descriptors": self.descriptors, "in_use": self.in_use,
                "reserve": self.reserve, "total": self.total, "per_address": self.per_address}


def plan(max_connections: int = 0, max_per_address: int = 64, *, descriptors: int | None = None,
         in_use: int | None = None) -> Budget:
    """The budget for this process: see the module docstring."""
    limit = descriptor_limit() if descriptors is None else descriptors
    used = open_descriptors() if in_use is None else in_use
    reserve = reserve_for(limit)
    room = max(1, limit - used - reserve)
    total = room if max_connections <= 0 else min(max_connections, room)
    return Budget(limit, used, reserve, total, max(1, min(max_per_address, total)),
                  max_connections)


def address_of(peer: Any) -> str:
    """The address part of a socket address, IPv4-mapped IPv6 as IPv4 (one peer, one key)."""
    host = str(peer[0]) if isinstance(peer, tuple) and peer else str(peer)
    try:
        ip = ipaddress.ip_address(host.split("%")[0])
    except ValueError:
        return host or "?"
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ip)


class Slot:
    """One admitted connection's place in the budget.

    ``close(key)`` is what closes it to make room: at first the transport's (shut the socket
    down), then the session's once it runs (say ``bye`` with ``key``, then close). ``at_table``
    tells whether it holds a seat or watches a table.
    """

    __slots__ = ("_owner", "address", "at_table", "close", "heard", "id", "kind", "leaving")

    def __init__(self, owner: Admission, slot_id: int, address: str, kind: str,
                 close: Callable[[str], None], now: float) -> None:
        self._owner = owner
        self.id = slot_id
        self.address = address
        self.kind = kind  # "tcp", "http", "websocket": for the counts
        self.close = close
        self.at_table: Callable[[], bool] = _never
        self.heard = now
        self.leaving = False  # closed to make room; its socket is not closed yet

    def heard_from(self) -> None:
        """Bytes arrived: the connection is not idle (called by the transport on each read)."""
        self._owner._heard(self)

    def attach(self, at_table: Callable[[], bool], close: Callable[[str], None]) -> None:
        """The session runs on this connection: it knows whether it is at a table, and how to
        close it with a goodbye."""
        self.at_table = at_table
        self.close = close

    def release(self) -> None:
        """The socket is closed: its place is free (idempotent).

        Drops the session's callbacks too: they hold the connection, which holds its link,
        which holds this slot. Left as a cycle, every closed connection would wait for the
        once-a-minute garbage collection (``hostd.gcpolicy``) instead of being freed now.
        """
        self._owner._release(self)
        self.close = _ignore
        self.at_table = _never


def _never() -> bool:
    return False


def _ignore(key: str) -> None:
    pass


class _Condition:
    """Counts of something that happens in bursts, logged at most once per ``every`` seconds:
    the first occurrence at once, then what happened since, at the end of each interval."""

    def __init__(self, event: str, every: float, clock: Callable[[], float]) -> None:
        self.event = event
        self.every = every
        self.clock = clock
        self.counts: Counter[str] = Counter()  # since the last line
        self.totals: Counter[str] = Counter()  # since start
        self.last = -float("inf")  # when the last line was written
        self.first = 0.0  # when the first of ``counts`` happened

    def note(self, what: str, context: Callable[[], dict[str, Any]]) -> None:
        if not self.counts:
            self.first = self.clock()
        self.counts[what] += 1
        self.totals[what] += 1
        if self.clock() - self.last >= self.every:
            self.flush(context)

    def flush(self, context: Callable[[], dict[str, Any]]) -> None:
        """One line with the counts since the last one (``seconds``: the time they span)."""
        if not self.counts:
            return
        now = self.clock()
        log.warning(self.event, **dict(sorted(self.counts.items())), **context(),
                    seconds=round(now - self.first, 1))
        self.counts.clear()
        self.last = now


class Admission:
    """The budget in use: ``admit`` a connection or refuse it, close idle ones to make room."""

    def __init__(self, budget: Budget, *, clock: Callable[[], float] = time.monotonic,
                 log_every: float = LOG_EVERY) -> None:
        self.budget = budget
        self.clock = clock
        self.log_every = log_every
        self._order: OrderedDict[int, Slot] = OrderedDict()  # least recently heard first
        self._by_address: dict[str, OrderedDict[int, Slot]] = {}
        self._next = 0
        self.leaving = 0
        # Descriptors of connections closed to make room, not yet closed: beyond this many,
        # newcomers are refused until they are (the reserve holds them).
        self.leaving_allowance = max(8, budget.reserve // 4)
        self.control = 0
        self.probes = 0
        self._limited = _Condition("connections_limited", log_every, clock)
        self._accept = _Condition("accept_failed", log_every, clock)

    # -- asking for a place -------------------------------------------------------------------
    def admit(self, address: str, kind: str, close: Callable[[str], None]) -> Slot | None:
        """A place for a new connection from ``address``, or None: refuse it (say why)."""
        b = self.budget
        mine = self._by_address.get(address)
        victim: Slot | None = None
        if mine is not None and len(mine) - self._leaving_in(mine) >= b.per_address:
            victim = self._oldest_idle(mine)
            if victim is None:
                self._note("refused_address_full")
                return None
        elif len(self._order) - self.leaving >= b.total:
            victim = self._oldest_idle(self._order)
            if victim is None:
                self._note("refused_full")
                return None
        if victim is not None:
            if self.leaving >= self.leaving_allowance:
                self._note("refused_closing")  # the last ones are still closing
                return None
            self._evict(victim)
        now = self.clock()
        self._next += 1
        slot = Slot(self, self._next, address, kind, close, now)
        self._order[slot.id] = slot
        self._by_address.setdefault(address, OrderedDict())[slot.id] = slot
        return slot

    @contextlib.contextmanager
    def control_client(self) -> Iterator[bool]:
        """A control-socket client: True while it may be served (outside the budget)."""
        if self.control >= CONTROL_SLOTS:
            self._note("refused_control")
            yield False
            return
        self.control += 1
        try:
            yield True
        finally:
            self.control -= 1

    @contextlib.contextmanager
    def probe(self) -> Iterator[bool]:
        """An HTTP request while the budget is full (a health check): True if it may be read."""
        if self.probes >= PROBE_SLOTS:
            yield False
            return
        self.probes += 1
        try:
            yield True
        finally:
            self.probes -= 1

    # -- reporting ----------------------------------------------------------------------------
    @property
    def connections(self) -> int:
        return len(self._order)

    def report(self) -> dict[str, Any]:
        """For ``tablebox status``: the caps, what is used, and the counts since start."""
        return {**self.budget.as_dict(), "connections": len(self._order),
                "addresses": len(self._by_address), "closing": self.leaving,
                "since_start": dict(sorted((self._limited.totals + self._accept.totals).items()))}

    def accept_failed(self, code: int | None) -> None:
        """accept(2) failed for want of descriptors or memory (trio retries in 100 ms)."""
        self._accept.note(errno.errorcode.get(code or 0, "error"), self._context)

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """While the listeners run: failed accepts are counted (``quiet_accept_errors``), and
        what each interval counted is logged at its end (a burst's tail is not lost)."""
        with self.quiet_accept_errors():
            task_status.started()
            try:
                while True:
                    await trio.sleep(self.log_every)
                    self._flush()
            finally:
                self._flush()  # stopping: what the last interval counted is said too

    def _flush(self) -> None:
        self._limited.flush(self._context)
        self._accept.flush(self._context)

    @contextlib.contextmanager
    def quiet_accept_errors(self) -> Iterator[None]:
        """While in this block, trio's "accept returned EMFILE ..." error records (with their
        tracebacks, ten a second per listener) become counts in ``accept_failed`` lines."""
        target = logging.getLogger("trio.serve_listeners")
        f = _AcceptFilter(self)
        target.addFilter(f)
        try:
            yield
        finally:
            target.removeFilter(f)

    # -- inside ---------------------------------------------------------------------------------
    def _context(self) -> dict[str, Any]:
        busiest = max(self._by_address.items(), key=lambda kv: len(kv[1]), default=None)
        out: dict[str, Any] = {"connections": len(self._order), "limit": self.budget.total,
                               "per_address": self.budget.per_address,
                               "descriptors": self.budget.descriptors}
        if busiest is not None:
            out["busiest"] = busiest[0]
            out["busiest_connections"] = len(busiest[1])
        return out

    def _note(self, what: str) -> None:
        self._limited.note(what, self._context)

    def _heard(self, slot: Slot) -> None:
        slot.heard = self.clock()
        with contextlib.suppress(KeyError):
            self._order.move_to_end(slot.id)
            self._by_address[slot.address].move_to_end(slot.id)

    def _leaving_in(self, slots: OrderedDict[int, Slot]) -> int:
        return sum(1 for s in slots.values() if s.leaving) if self.leaving else 0

    def _oldest_idle(self, slots: OrderedDict[int, Slot]) -> Slot | None:
        """The least recently heard connection at no table and not heard for IDLE_SECONDS.

        ``slots`` is ordered by when each was last heard, so the walk stops at the first one
        heard too recently; it only steps over seated ones and ones already closing.
        """
        quiet_since = self.clock() - IDLE_SECONDS
        for slot in slots.values():
            if slot.heard > quiet_since:
                return None
            if slot.leaving or slot.at_table():
                continue
            return slot
        return None

    def _evict(self, slot: Slot) -> None:
        slot.leaving = True
        self.leaving += 1
        self._note(f"closed_idle_{slot.kind}")
        try:
            slot.close("bye.idle")
        except Exception:  # a close that fails must not refuse the newcomer
            log.exception("connection_close_failed")

    def _release(self, slot: Slot) -> None:
        if self._order.pop(slot.id, None) is None:
            return
        if slot.leaving:
            self.leaving -= 1
        mine = self._by_address.get(slot.address)
        if mine is not None:
            mine.pop(slot.id, None)
            if not mine:
                del self._by_address[slot.address]


class _AcceptFilter(logging.Filter):
    def __init__(self, admission: Admission) -> None:
        super().__init__()
        self.admission = admission

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, OSError) and exc.errno in ACCEPT_ERRNOS:
            self.admission.accept_failed(exc.errno)
            return False
        return True
