"""When the daemon's cyclic garbage collector runs: once a minute, not every few allocations.

CPython's collector runs whenever 700 more container objects have been made than freed. A
move makes thousands (every seat's view, its JSON, the frames), so it ran about twenty times
a second, and every tenth run also scanned the middle generation: 2-17 ms of CPU each, and
every suspended coroutine of every connection is scanned again each time. Those pauses were
the tail of the latency: 200 paced tables answered at p99 33-119 ms with the collector as
it is, 11-13 ms without it (docs/performance.md). Running the young collections less often
only makes each one longer (a second's worth took 4-47 ms), so it is no middle way.

Almost nothing the daemon makes is cyclic garbage (a few thousand objects in a minute of
full load; everything else is freed by reference counting the moment it is dropped). So
after start-up, whose objects are frozen out of every scan, the automatic collector is off
and this task runs a full collection once a minute, or as soon as a million more objects
than were freed have been made since the last one (a bound on what a leak could hold). One
pause a minute touches a few moves in tens of thousands.

Owns ``gc``'s settings for the daemon process only: ``hostd.daemon`` runs
``collect_on_a_clock`` once it is READY; the engine, the clients and the tests' own
processes keep the default collector.
"""

from __future__ import annotations

import gc

import trio

FULL_SECONDS = 60.0
CHECK_SECONDS = 1.0
MAX_PENDING = 1_000_000  # objects made (net) since the last collection before one is run early


def take_over() -> None:
    """Collect now, freeze what is alive (start-up's objects live as long as the daemon),
    and stop the automatic collector."""
    gc.collect()
    gc.freeze()
    gc.disable()


async def collect_on_a_clock(full_seconds: float = FULL_SECONDS,
                             check_seconds: float = CHECK_SECONDS,
                             max_pending: int = MAX_PENDING) -> None:
    """``take_over``, then collect every ``full_seconds`` (or early, see above) until
    cancelled; gives the collector back its automatic runs when it ends."""
    take_over()
    try:
        since = 0.0
        while True:
            await trio.sleep(check_seconds)
            since += check_seconds
            if since >= full_seconds or gc.get_count()[0] > max_pending:
                gc.collect()
                since = 0.0
    finally:
        gc.enable()
