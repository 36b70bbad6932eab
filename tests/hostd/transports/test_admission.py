"""The connection budget (hostd.transports.admission), on a clock the test turns by hand."""

from __future__ import annotations

import errno
import gc
import logging
import weakref
from collections.abc import Callable

import pytest
import trio
from structlog.testing import capture_logs

from hostd.transports import admission as adm
from hostd.transports.admission import Admission, Budget, Slot, address_of, plan


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def turn(self, seconds: float) -> None:
        self.now += seconds


class Conn:
    """A connection as the transport and the session see it."""

    def __init__(self) -> None:
        self.closed_with: str | None = None
        self.seated = False

    def close(self, key: str) -> None:
        self.closed_with = key


def budget(total: int, per_address: int, reserve: int = 64) -> Budget:
    return Budget(descriptors=1024, in_use=20, reserve=reserve, total=total,
                  per_address=per_address, asked=0)


def make(total: int = 4, per_address: int = 3) -> tuple[Admission, Clock]:
    clock = Clock()
    return Admission(budget(total, per_address), clock=clock), clock


def admit(a: Admission, address: str, kind: str = "tcp") -> tuple[Slot | None, Conn]:
    conn = Conn()
    slot = a.admit(address, kind, conn.close)
    if slot is not None:
        slot.attach(lambda: conn.seated, conn.close)
    return slot, conn


def test_the_plan_keeps_a_reserve_below_the_descriptor_limit() -> None:
    b = plan(0, 64, descriptors=128, in_use=12)
    assert (b.reserve, b.total, b.per_address) == (64, 52, 52)  # per address never above all
    b = plan(0, 64, descriptors=1024, in_use=30)
    assert (b.reserve, b.total, b.per_address) == (128, 866, 64)
    b = plan(0, 64, descriptors=8192, in_use=30)
    assert (b.reserve, b.total) == (256, 7906)
    assert plan(500, 64, descriptors=8192, in_use=30).total == 500  # lower: yes
    assert plan(50_000, 64, descriptors=8192, in_use=30).total == 7906  # higher: never
    assert plan(0, 64, descriptors=40, in_use=30).total == 1  # hopeless, but not negative


def test_addresses_are_keyed_without_port_and_ipv4_mapped_as_ipv4() -> None:
    assert address_of(("127.0.0.1", 5555)) == "127.0.0.1"
    assert address_of(("::ffff:192.168.1.20", 5555, 0, 0)) == "192.168.1.20"
    assert address_of(("fe80::1%wlan0", 5555, 0, 2)) == "fe80::1"


def test_an_address_at_its_cap_makes_room_from_its_own_oldest_idle_connection() -> None:
    a, clock = make(total=10, per_address=3)
    first = [admit(a, "10.0.0.1") for _ in range(3)]
    _, other_conn = admit(a, "10.0.0.2")
    clock.turn(5)
    first[1][0].heard_from()  # the second one spoke since: the first is the oldest idle
    slot, _ = admit(a, "10.0.0.1")
    assert slot is not None
    assert [c.closed_with for _, c in first] == ["bye.idle", None, None]
    assert other_conn.closed_with is None  # another address is never touched for this
    # The closed one keeps its place until its socket is closed.
    assert a.connections == 5
    first[0][0].release()  # type: ignore[union-attr]
    assert a.connections == 4


def test_the_total_at_its_cap_makes_room_from_the_oldest_idle_connection_anywhere() -> None:
    a, clock = make(total=3, per_address=3)
    _, c1 = admit(a, "10.0.0.1")
    _, c2 = admit(a, "10.0.0.2")
    _, c3 = admit(a, "10.0.0.3")
    clock.turn(5)
    assert admit(a, "10.0.0.4")[0] is not None
    assert (c1.closed_with, c2.closed_with, c3.closed_with) == ("bye.idle", None, None)
    assert admit(a, "10.0.0.5")[0] is not None
    assert c2.closed_with == "bye.idle"


def test_seated_and_recently_heard_connections_are_never_closed_to_make_room() -> None:
    a, clock = make(total=3, per_address=3)
    seated = [admit(a, "10.0.0.1") for _ in range(2)]
    for _, c in seated:
        c.seated = True
    lobby, lobby_conn = admit(a, "10.0.0.2")
    clock.turn(0.5)
    with capture_logs() as logs:
        assert admit(a, "10.0.0.3")[0] is None  # the lobby one was heard from 0.5 s ago
    assert lobby_conn.closed_with is None
    assert logs[0]["event"] == "connections_limited" and logs[0]["refused_full"] == 1
    clock.turn(1.0)
    newcomer, newcomer_conn = admit(a, "10.0.0.3")
    assert newcomer is not None  # now the lobby one is idle: it made room
    assert lobby_conn.closed_with == "bye.idle"
    newcomer_conn.seated = True
    lobby.release()  # type: ignore[union-attr]
    assert all(c.closed_with is None for _, c in seated)
    clock.turn(5)
    assert admit(a, "10.0.0.4")[0] is None  # the rest are all seated
    assert all(c.closed_with is None for _, c in seated)


def test_heard_from_moves_a_connection_to_the_back_of_the_queue() -> None:
    a, clock = make(total=3, per_address=3)
    slots = [admit(a, "10.0.0.1") for _ in range(3)]
    clock.turn(1.5)
    slots[0][0].heard_from()  # type: ignore[union-attr]
    clock.turn(1.5)
    admit(a, "10.0.0.1")
    admit(a, "10.0.0.1")
    assert [c.closed_with for _, c in slots] == [None, "bye.idle", "bye.idle"]


def test_too_many_still_closing_refuses_newcomers_until_their_sockets_close() -> None:
    clock = Clock()
    a = Admission(budget(2, 2, reserve=0), clock=clock)
    assert a.leaving_allowance == 8
    for _ in range(2):
        admit(a, "10.0.0.1")
    made: list[Slot] = []
    for _ in range(8):
        clock.turn(2)
        slot, _ = admit(a, "10.0.0.1")
        assert slot is not None
        made.append(slot)
    clock.turn(2)
    with capture_logs():
        assert admit(a, "10.0.0.1")[0] is None  # 8 closing: no more until one is closed
    assert a.report()["since_start"]["refused_closing"] == 1
    first_closed = next(s for s in a._order.values() if s.leaving)
    first_closed.release()
    assert admit(a, "10.0.0.1")[0] is not None


def test_the_condition_is_logged_once_per_interval_with_counts() -> None:
    a, clock = make(total=1, per_address=1)
    a.admit("10.0.0.1", "tcp", Conn().close)
    with capture_logs() as logs:
        for _ in range(500):
            assert a.admit("10.0.0.1", "tcp", Conn().close) is None
            clock.turn(0.001)
        assert len(logs) == 1 and logs[0]["refused_address_full"] == 1
        a._limited.flush(a._context)  # what the run task does at the end of an interval
        assert len(logs) == 2 and logs[1]["refused_address_full"] == 499
        assert logs[1]["busiest"] == "10.0.0.1" and logs[1]["limit"] == 1
        assert logs[1]["log_level"] == "warning"
        a._limited.flush(a._context)
        assert len(logs) == 2  # nothing new: no line
    assert a.report()["since_start"] == {"refused_address_full": 500}


def test_control_clients_have_their_own_few_places() -> None:
    a, _ = make(total=1, per_address=1)
    a.admit("10.0.0.1", "tcp", Conn().close)
    with capture_logs():
        entered = [a.control_client() for _ in range(adm.CONTROL_SLOTS + 1)]
        got = [cm.__enter__() for cm in entered]
    assert got == [True] * adm.CONTROL_SLOTS + [False]
    for cm in entered:
        cm.__exit__(None, None, None)
    with a.control_client() as may:
        assert may


class _FullListener(trio.abc.Listener[trio.SocketStream]):
    """A listener whose accept(2) fails with EMFILE: the process is out of descriptors."""

    def __init__(self, failures: int, done: trio.Event) -> None:
        self.failures = failures
        self.done = done

    async def accept(self) -> trio.SocketStream:
        if self.failures == 0:
            self.done.set()
            await trio.sleep_forever()
        self.failures -= 1
        raise OSError(errno.EMFILE, "Too many open files")

    async def aclose(self) -> None:
        pass


async def test_emfile_in_serve_listeners_is_counted_not_logged_with_a_traceback(
        caplog: pytest.LogCaptureFixture) -> None:
    a, _ = make()
    done = trio.Event()
    caplog.set_level(logging.ERROR, logger="trio.serve_listeners")
    handler: Callable[[trio.SocketStream], object] = lambda stream: None  # noqa: E731
    with capture_logs() as logs, a.quiet_accept_errors():
        async with trio.open_nursery() as nursery:
            nursery.start_soon(trio.serve_listeners, handler, [_FullListener(5, done)])
            await done.wait()
            nursery.cancel_scope.cancel()
        a._accept.flush(a._context)
    assert [r for r in caplog.records if r.name == "trio.serve_listeners"] == []
    assert [entry["EMFILE"] for entry in logs if entry["event"] == "accept_failed"] == [1, 4]
    assert a.report()["since_start"] == {"EMFILE": 5}
    # Outside the block, trio's own record is left alone (nothing else is hidden).
    other = logging.getLogger("trio.serve_listeners")
    assert not other.filters


def test_a_released_slot_lets_its_connection_go_without_the_garbage_collector() -> None:
    """The daemon collects cycles once a minute (hostd.gcpolicy): a connection must be freed
    by reference counting when it closes, or a crowd's churn piles up in memory."""
    a, _ = make()

    def connected() -> tuple[Slot, weakref.ref[Conn]]:
        slot, conn = admit(a, "10.0.0.1")
        assert slot is not None
        conn.slot = slot  # type: ignore[attr-defined]  # conn -> link -> slot -> conn
        return slot, weakref.ref(conn)

    gc.disable()
    try:
        slot, gone = connected()
        assert gone() is not None  # the cycle holds it
        slot.release()
        assert gone() is None
    finally:
        gc.enable()
