"""The daemon's collector policy: automatic collection off, cyclic garbage still collected on
the clock (and early past the pending bound), the default collector back when it ends."""

from __future__ import annotations

import gc
import weakref

import trio

from hostd import gcpolicy


class Node:
    def __init__(self) -> None:
        self.me = self  # a reference cycle: only the cyclic collector can free it


def _cycle() -> weakref.ref[Node]:
    return weakref.ref(Node())


async def test_cyclic_garbage_is_collected_on_the_clock_with_the_collector_off() -> None:
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(gcpolicy.collect_on_a_clock, 0.3, 0.05)
            await trio.sleep(0.01)
            assert not gc.isenabled()
            ref = _cycle()
            await trio.sleep(0.1)
            assert ref() is not None, "collected before the clock said so"
            with trio.fail_after(2):
                while ref() is not None:
                    await trio.sleep(0.05)
            nursery.cancel_scope.cancel()
        assert gc.isenabled()
    finally:
        gc.enable()
        gc.unfreeze()


async def test_too_many_pending_objects_collect_early() -> None:
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(gcpolicy.collect_on_a_clock, 3600.0, 0.05, 1000)
            await trio.sleep(0.01)
            ref = _cycle()
            keep: list[list[int]] = [[] for _ in range(5000)]  # net new tracked objects: over the bound
            with trio.fail_after(2):
                while ref() is not None:
                    await trio.sleep(0.05)
            del keep
            nursery.cancel_scope.cancel()
    finally:
        gc.enable()
        gc.unfreeze()
