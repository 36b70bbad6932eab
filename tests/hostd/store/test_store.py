"""The SQLite event store: durable appends, group commit across tables, failures that change
nothing, and loading what was stored."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
import trio

from hostd.store import UNDECODABLE, StorageError, Store, open_store


async def new_table(store: Store, code: str = "ABCD") -> int:
    return await store.create_table(code=code, name="n", game="toy", players=2,
                                    options={"bonus": 0}, seed=42, turn_timer=0.0,
                                    events=[("level", {"seat": 0, "level": "easy"})])


async def test_append_and_load_round_trip(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    async with open_store(db) as store:
        t1 = await new_table(store)
        t2 = await new_table(store, "WXYZ")
        await store.append(t1, [("step", {"seat": 0, "action": {"type": "play", "card": "AS"}})])
        await store.append(t2, [("status", {"status": "closed"})])
        await store.append(t1, [("status", {"status": "finished"})])
    async with open_store(db) as store:
        logs = await store.load()
        assert [tl.row.id for tl in logs] == [t1]
        row = logs[0].row
        assert (row.code, row.seed, row.options, row.status) == ("ABCD", 42, {"bonus": 0},
                                                                 "finished")
        assert [k for k, _ in logs[0].events] == ["level", "step", "status"]
        everything = await store.load(include_closed=True)
        assert [tl.row.id for tl in everything] == [t1, t2]
        only = await store.load(table_id=t2)
        assert only[0].events[-1] == ("status", {"status": "closed"})
        assert await store.integrity() == "ok"


async def test_concurrent_appends_share_commits(tmp_path: Path) -> None:
    """Group commit: many tables' steps queued together go in few transactions."""
    async with open_store(tmp_path / "db.sqlite3") as store:
        ids = [await new_table(store, f"C{i:03d}") for i in range(50)]
        before_commits, before_jobs = store.commits, store.jobs

        async def writer(tid: int) -> None:
            for n in range(10):
                await store.append(tid, [("step", {"n": n})])

        async with trio.open_nursery() as nursery:
            for tid in ids:
                nursery.start_soon(writer, tid)
        jobs = store.jobs - before_jobs
        commits = store.commits - before_commits
        assert jobs == 500
        assert commits < jobs / 4, (commits, jobs)
        logs = await store.load()
        assert all([d["n"] for _, d in tl.events[1:]] == list(range(10)) for tl in logs)


async def test_a_failing_job_fails_alone(tmp_path: Path) -> None:
    async with open_store(tmp_path / "db.sqlite3") as store:
        tid = await new_table(store)
        results: dict[str, object] = {}

        async def good() -> None:
            await store.append(tid, [("step", {"ok": True})])
            results["good"] = True

        async def bad() -> None:
            try:
                await store.append(999_999, [("step", {"ok": False})])  # no such table
            except StorageError as e:
                results["bad"] = e

        async with trio.open_nursery() as nursery:
            nursery.start_soon(good)
            nursery.start_soon(bad)
        assert results["good"] is True and isinstance(results["bad"], StorageError)
        logs = await store.load()
        assert logs[0].events[-1] == ("step", {"ok": True})


async def test_refused_write_changes_nothing(tmp_path: Path) -> None:
    """A database that refuses writes (here: a trigger) raises StorageError; nothing is kept."""
    db = tmp_path / "db.sqlite3"
    async with open_store(db) as store:
        tid = await new_table(store)
    con = sqlite3.connect(db)
    con.execute("CREATE TRIGGER full BEFORE INSERT ON events BEGIN "
                "SELECT RAISE(ABORT, 'database or disk is full'); END")
    con.commit()
    con.close()
    async with open_store(db) as store:
        with pytest.raises(StorageError, match="full"):
            await store.append(tid, [("step", {"x": 1})])
        logs = await store.load()
        assert [k for k, _ in logs[0].events] == ["level"]


async def test_closed_store_refuses(tmp_path: Path) -> None:
    async with open_store(tmp_path / "db.sqlite3") as store:
        pass
    with pytest.raises(StorageError):
        await store.append(1, [("step", {})])


async def test_a_value_that_no_longer_decodes_is_handed_back_not_raised(tmp_path: Path) -> None:
    # A damaged row must not keep every table from loading: its table's replay reports it.
    db = tmp_path / "db.sqlite3"
    async with open_store(db) as store:
        t1 = await new_table(store)
        t2 = await new_table(store, "WXYZ")
    con = sqlite3.connect(db)
    with con:
        con.execute("UPDATE events SET data = '{\"seat\": 0, \"lev' WHERE table_id = ?", (t1,))
        con.execute("UPDATE tables SET options = 'not json' WHERE id = ?", (t2,))
    con.close()
    async with open_store(db) as store:
        first, second = await store.load()
    assert first.events == [("level", {UNDECODABLE: '{"seat": 0, "lev'})]
    assert second.row.options == {UNDECODABLE: "not json"}
    assert second.events == [("level", {"seat": 0, "level": "easy"})]
