"""The store's syncs without ``synchronous=FULL``: the flusher syncs the WAL within its
interval of a commit, never more often than there are commits to sync, and never in FULL (where
SQLite syncs each commit itself). What a power cut then keeps is ``tests/hostd/test_powercut``'s.
"""

from __future__ import annotations

from pathlib import Path

import trio

from hostd.store import Store, open_store


async def _one_step(store: Store, table_id: int, n: int) -> None:
    await store.append(table_id, [("step", {"seat": 0, "action": {"type": "x", "n": n}})])


async def test_commits_not_synced_each_are_synced_within_the_interval(tmp_path: Path) -> None:
    async with open_store(tmp_path / "db.sqlite3", synchronous="NORMAL",
                          flush_seconds=0.05) as store:
        tid = await store.create_table(code="c", name="n", game="toy", players=2, options={},
                                       seed=1, turn_timer=0.0)
        for n in range(5):
            await _one_step(store, tid, n)
        await trio.sleep(0.3)
        assert store.flushes == 1, "one sync for the commits of one interval"
        await trio.sleep(0.2)
        assert store.flushes == 1, "no commit since: nothing to sync"
        await _one_step(store, tid, 5)
        await trio.sleep(0.3)
        assert (store.flushes, store.flush_errors) == (2, 0)


async def test_with_every_commit_synced_there_is_no_flusher(tmp_path: Path) -> None:
    async with open_store(tmp_path / "db.sqlite3", flush_seconds=0.05) as store:
        tid = await store.create_table(code="c", name="n", game="toy", players=2, options={},
                                       seed=1, turn_timer=0.0)
        await _one_step(store, tid, 0)
        await trio.sleep(0.2)
        assert store.flushes == 0
