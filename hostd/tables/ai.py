"""Computer players off the event loop: a small process pool (or worker threads).

A decision gets exactly what a client gets (the seat's view and legal actions) plus the
generator the table derived, and returns the index of the chosen legal action. It runs in a
worker process, so a long think holds another interpreter's GIL, never the event loop's: one
hard AI move never delays another table's messages. With ``processes=0`` decisions run on
worker threads instead (cheaper to start, for tests; a thread holds the loop's GIL while it
computes).

A decision that fails or outlives its wall-clock guard falls back to a uniformly random
legal action, so a table never stalls on a broken or slow player.

Each worker process puts Stockfish behind the chess levels when the box has it
(``hostd.tables.stockfish``: one engine per worker, started on its first chess decision,
killed with the worker); on worker threads the levels play on our own search.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
import random
import signal
import threading
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager, suppress
from typing import Any

import trio

from engine import ai, registry
from hostd.logs import get_logger
from hostd.tables import stockfish

log = get_logger(__name__)

GUARD_SECONDS = 30.0  # far above any level's budget: only a bug gets here


def _decide(game_id: str, module: str, level: str, view: Any, legal: Sequence[Any],
            rng: random.Random) -> int:
    """In a worker: the index in ``legal`` of the move ``level`` chooses."""
    registry.GAME_MODULES.setdefault(game_id, module)  # games registered at run time (tests)
    choice = ai.player(game_id, level).choose(view, legal, rng)
    return list(legal).index(choice)


def _orphan_guard(parent: int) -> None:
    """In a worker: exit as soon as the daemon is gone (even after a kill -9 of it).

    A Ctrl-C on the terminal reaches the whole process group; the daemon alone decides how
    its workers stop, so a worker ignores SIGINT instead of printing a traceback.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        stockfish.kill_all()  # os._exit runs no clean-up: the engine goes first
        os._exit(0)

    threading.Thread(target=watch, name="orphan-guard", daemon=True).start()


def _worker_start(parent: int) -> None:
    """A worker's initializer: the orphan guard, then Stockfish behind the chess levels."""
    _orphan_guard(parent)
    stockfish.install()


def _warm(game_ids: Sequence[tuple[str, str]]) -> int:
    for game_id, module in game_ids:
        registry.GAME_MODULES.setdefault(game_id, module)
        registry.get(game_id)
    return os.getpid()


class AIWorkers:
    def __init__(self, processes: int) -> None:
        self.processes = processes
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        if processes > 0:
            # spawn, not fork: forking a process that runs trio and sqlite threads is unsafe.
            ctx = multiprocessing.get_context("spawn")
            self._pool = concurrent.futures.ProcessPoolExecutor(
                processes, mp_context=ctx, initializer=_worker_start,
                initargs=(os.getpid(),))
        self.decisions = 0
        self.fallbacks = 0

    async def start(self) -> None:
        """Start the worker processes now (off the loop) rather than on the first move."""
        if self._pool is None:
            return
        pool = self._pool
        games = list(registry.GAME_MODULES.items())
        futures = [pool.submit(_warm, games) for _ in range(self.processes)]
        await trio.to_thread.run_sync(concurrent.futures.wait, futures)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    async def run(self, fn: Any, *args: Any) -> Any:
        """``fn(*args)`` in a worker (a thread without processes): what a worker has."""
        if self._pool is None:
            return await trio.to_thread.run_sync(fn, *args)
        return await self._in_pool(fn, *args)

    async def decide(self, game_id: str, level: str, view: Any, legal: Sequence[Any],
                     rng: random.Random) -> Any:
        """One of ``legal``, chosen by the computer player ``level`` of ``game_id``."""
        legal = tuple(legal)
        if len(legal) == 1:
            return legal[0]
        module = registry.GAME_MODULES[game_id]
        fallback = random.Random(rng.random())  # decided before the player consumes rng
        index: int | None = None
        with trio.move_on_after(GUARD_SECONDS):
            try:
                if self._pool is None:
                    index = await trio.to_thread.run_sync(
                        _decide, game_id, module, level, view, legal, rng)
                else:
                    index = await self._in_pool(_decide, game_id, module, level, view,
                                                legal, rng)
            except Exception:
                log.exception("ai_decision_failed", game=game_id, level=level)
        self.decisions += 1
        if index is None or not 0 <= index < len(legal):
            self.fallbacks += 1
            log.warning("ai_fallback_random", game=game_id, level=level)
            return legal[fallback.randrange(len(legal))]
        return legal[index]

    async def _in_pool(self, fn: Any, *args: Any) -> Any:
        assert self._pool is not None
        token = trio.lowlevel.current_trio_token()
        done = trio.Event()

        def wake(_: Any) -> None:
            with suppress(trio.RunFinishedError):
                token.run_sync_soon(done.set)

        fut = self._pool.submit(fn, *args)
        fut.add_done_callback(wake)
        try:
            await done.wait()
        except BaseException:
            fut.cancel()
            raise
        return fut.result()


@asynccontextmanager
async def open_ai(processes: int | None = None) -> AsyncIterator[AIWorkers]:
    """AI workers; ``None`` picks one process per spare core (at least one)."""
    n = max(1, (os.cpu_count() or 2) - 1) if processes is None else processes
    workers = AIWorkers(n)
    try:
        await workers.start()
        yield workers
    finally:
        workers.close()
