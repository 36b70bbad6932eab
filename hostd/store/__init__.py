"""SQLite persistence for tables: event sourcing with group commit.

Owns the database file and its schema. A table is a row in ``tables`` (what it is: game,
players, options, the seed, join code, status) and an ordered list of rows in ``events``
(what happened: each game step, each seat change, each rematch). Replaying a table's events
rebuilds it exactly; nothing else is stored, so there is one source of truth.

Writes go through one writer task that takes every job queued while the previous
transaction ran and commits them together in one transaction (group commit): many tables'
steps share one fsync, and every step is still durable before its ``append`` returns. A
batch runs in one transaction; if any job of it fails, it is rolled back and run again with
each job inside a savepoint, so one failing job fails alone. ``sqlite3`` blocks, so every
call runs on a worker thread (``trio.to_thread``), one at a time (a limiter of one), never on
the event loop.

Durability: with ``synchronous=FULL`` (``sync_commits``, the default) every commit is synced
before ``append`` returns. With ``NORMAL`` a commit is only in the operating system's hands,
and SQLite would sync it at its next checkpoint, which may be a thousand pages away; so a
flusher task syncs the WAL file (``fdatasync`` on a descriptor of its own, on a thread of its
own, so commits never wait for it) at most ``FLUSH_SECONDS`` after the first commit not
synced yet, and a power cut loses at most the commits of that last interval. On open, the
database's directory and those above it are synced, so that a data directory made just before
(``hostd.datadir``) and the database's own name are on the disk: POSIX makes a new name
durable only by syncing its directory (the flusher does the same for each new WAL file).

The seed lives here and in the daemon's memory only: it must never be sent to a client nor
logged. This module never logs what it stores.

Rows are only ever added (and a table's status set): nothing here deletes or rewrites an
event, so a table whose events no longer replay (``hostd.tables.damage``) keeps every row for
an export, a bug report or a later version that replays it again. A value that no longer
decodes is read back as ``{UNDECODABLE: text}`` rather than failing the whole load.
"""

from __future__ import annotations

import math
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
import trio

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    code TEXT NOT NULL,
    name TEXT NOT NULL,
    game TEXT NOT NULL,
    players INTEGER NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER NOT NULL,
    turn_timer REAL NOT NULL,
    status TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id INTEGER NOT NULL REFERENCES tables(id),
    kind TEXT NOT NULL,
    data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS events_by_table ON events (table_id, id);
CREATE INDEX IF NOT EXISTS tables_by_status ON tables (status);
"""

Event = tuple[str, dict[str, Any]]  # (kind, data): "step", "seat", "status", "rematch", ...
# The key of the data (or options) read back for a stored value that no longer decodes.
UNDECODABLE = "undecodable"

# With commits not synced each (``synchronous=NORMAL``): the longest a commit waits for the
# sync that makes it survive a power cut (docs/operations.md states this bound).
FLUSH_SECONDS = 1.0

_enc = msgspec.json.Encoder()
_dec = msgspec.json.Decoder()


class StorageError(Exception):
    """A write or read the database refused (disk full, read-only, corrupt). Nothing changed."""


@dataclass(frozen=True)
class TableRow:
    id: int
    code: str
    name: str
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    turn_timer: float
    status: str
    created: float


@dataclass(frozen=True)
class TableLog:
    row: TableRow
    events: list[Event]


@dataclass
class _Job:
    run: Callable[[sqlite3.Connection], Any]
    done: trio.Event = field(default_factory=trio.Event)
    result: Any = None
    error: BaseException | None = None


class Store:
    """One database. Use ``open_store``; every method is async and runs off the event loop."""

    def __init__(self, path: Path, *, synchronous: str = "FULL",
                 flush_seconds: float = FLUSH_SECONDS) -> None:
        self.path = path
        self.synchronous = synchronous
        self.flush_seconds = flush_seconds
        self._unsynced = trio.Event()  # set by the first commit the flusher has not synced
        self._unsynced_since = math.inf  # when that commit was made (trio clock)
        self._flush_scope = trio.CancelScope()
        self._wal_ino: int | None = None  # the WAL file whose name was last synced
        self.flushes = 0  # WAL syncs made by the flusher (``synchronous`` below FULL)
        self.flush_errors = 0  # WAL syncs the disk refused
        self._con: sqlite3.Connection | None = None
        self._limiter = trio.CapacityLimiter(1)
        self._send, self._recv = trio.open_memory_channel[_Job](math.inf)
        self.commits = 0  # transactions committed (for status and benchmarks)
        self.jobs = 0  # jobs committed

    # -- lifecycle ----------------------------------------------------------------------
    def _open_sync(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        con = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            con.execute("PRAGMA journal_mode=WAL")
            # WAL + NORMAL: a commit is in the OS's hands when it returns, so a crash of this
            # process (kill -9) loses nothing, and the flusher syncs it within FLUSH_SECONDS;
            # FULL also fsyncs it before it returns, so a power cut loses nothing either
            # (``sync_commits``), at one disk flush per transaction (group commit shares it
            # between tables).
            con.execute(f"PRAGMA synchronous={self.synchronous}")
            con.execute("PRAGMA foreign_keys=ON")
            con.executescript(_SCHEMA)
            row = con.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            if row is None:
                con.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            elif row[0] != str(SCHEMA_VERSION):
                raise StorageError(f"database schema {row[0]} is not {SCHEMA_VERSION}")
            _sync_directories(self.path)
        except sqlite3.Error as e:
            con.close()
            raise StorageError(f"cannot open {self.path}: {e}") from None
        except BaseException:
            con.close()
            raise
        self._con = con

    def _close_sync(self) -> None:
        if self._con is not None:
            self._con.close()
            self._con = None

    async def _writer(self) -> None:
        async with self._recv:
            async for first in self._recv:
                # Let the tasks that are ready to run now run first: those that append too
                # join this batch instead of each paying a transaction of its own (at a
                # moderate load most batches would otherwise hold a job or two).
                await trio.lowlevel.cancel_shielded_checkpoint()
                batch = [first]
                while True:
                    try:
                        batch.append(self._recv.receive_nowait())
                    except (trio.WouldBlock, trio.EndOfChannel):
                        break
                commits = self.commits
                # Not abandoned on cancel: a transaction that started finishes (bounded).
                await trio.to_thread.run_sync(self._run_batch, batch, limiter=self._limiter)
                if self.commits != commits and not self._unsynced.is_set():
                    self._unsynced_since = trio.current_time()
                    self._unsynced.set()
                for job in batch:
                    job.done.set()
        # Every job is done: closing the connection checkpoints and syncs what is left.
        self._flush_scope.cancel()

    async def _flusher(self) -> None:
        """Without a sync per commit: sync the WAL at most ``flush_seconds`` after the first
        commit not synced yet. Every commit made before a sync starts is on the disk when it
        returns; one made during it waits for the next."""
        with self._flush_scope:
            while True:
                await self._unsynced.wait()
                await trio.sleep_until(self._unsynced_since + self.flush_seconds)
                self._unsynced = trio.Event()
                self._unsynced_since = math.inf
                # A thread of its own: the writer goes on committing meanwhile.
                try:
                    await trio.to_thread.run_sync(self._sync_wal)
                except OSError:
                    # The disk refused (EIO, gone): those commits stay unsynced, tried again
                    # an interval later; commits themselves report their own errors.
                    self.flush_errors += 1
                    if not self._unsynced.is_set():
                        self._unsynced_since = trio.current_time()
                        self._unsynced.set()
                else:
                    self.flushes += 1

    def _sync_wal(self) -> None:
        """``fdatasync`` the WAL file, and its directory the first time this file is seen
        (a new WAL's name is on the disk only then). Only the WAL is opened here: closing a
        descriptor of the database or its -shm file would drop SQLite's POSIX locks on it."""
        wal = self.path.with_name(self.path.name + "-wal")
        try:
            fd = os.open(wal, os.O_RDONLY)
        except FileNotFoundError:
            return  # no commit since the last close (which checkpointed and synced)
        try:
            os.fdatasync(fd)
            ino = os.fstat(fd).st_ino
        finally:
            os.close(fd)
        if ino != self._wal_ino:
            _sync_directories(self.path, up=False)
            self._wal_ino = ino

    def _run_batch(self, batch: list[_Job]) -> None:
        con = self._con
        if con is None:
            for job in batch:
                job.error = StorageError("the database is closed")
            return
        if len(batch) > 1 and self._run_together(con, batch):
            return
        try:
            con.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as e:
            for job in batch:
                job.error = StorageError(str(e))
            return
        for job in batch:
            try:
                con.execute("SAVEPOINT job")
                job.result = job.run(con)
                con.execute("RELEASE job")
            except sqlite3.Error as e:
                job.error = StorageError(str(e))
                try:
                    con.execute("ROLLBACK TO job")
                    con.execute("RELEASE job")
                except sqlite3.Error:
                    pass
        try:
            con.execute("COMMIT")
        except sqlite3.Error as e:
            with suppress(sqlite3.Error):
                con.execute("ROLLBACK")
            for job in batch:
                job.error = StorageError(str(e))
                job.result = None
            return
        self.commits += 1
        self.jobs += len(batch)

    def _run_together(self, con: sqlite3.Connection, batch: list[_Job]) -> bool:
        """The usual case, every job of the batch in one transaction without a savepoint
        each (two statements a job fewer); False, with nothing changed, if anything failed,
        and the batch is then run job by job so that the failing one fails alone."""
        try:
            con.execute("BEGIN IMMEDIATE")
            results = [job.run(con) for job in batch]
            con.execute("COMMIT")
        except sqlite3.Error:
            with suppress(sqlite3.Error):
                con.execute("ROLLBACK")
            return False
        for job, result in zip(batch, results, strict=True):
            job.result = result
        self.commits += 1
        self.jobs += len(batch)
        return True

    async def _submit(self, run: Callable[[sqlite3.Connection], Any]) -> Any:
        job = _Job(run)
        try:
            self._send.send_nowait(job)
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            raise StorageError("the database is closed") from None
        await job.done.wait()
        if job.error is not None:
            raise job.error
        return job.result

    async def _read(self, run: Callable[[sqlite3.Connection], Any]) -> Any:
        def go() -> Any:
            if self._con is None:
                raise StorageError("the database is closed")
            try:
                return run(self._con)
            except sqlite3.Error as e:
                raise StorageError(str(e)) from None

        return await trio.to_thread.run_sync(go, limiter=self._limiter)

    # -- writes ------------------------------------------------------------------------------
    async def create_table(self, *, code: str, name: str, game: str, players: int,
                           options: dict[str, Any], seed: int, turn_timer: float,
                           events: Sequence[Event] = ()) -> int:
        """Insert a table with its first events in one transaction; its id."""
        now = time.time()
        opts = _enc.encode(options).decode()
        rows = [(kind, _enc.encode(data).decode()) for kind, data in events]

        def run(con: sqlite3.Connection) -> int:
            cur = con.execute(
                "INSERT INTO tables (code, name, game, players, options, seed, turn_timer,"
                " status, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, 'playing', ?, ?)",
                (code, name, game, players, opts, seed, turn_timer, now, now))
            table_id = cur.lastrowid
            assert table_id is not None
            con.executemany("INSERT INTO events (table_id, kind, data) VALUES (?, ?, ?)",
                            [(table_id, k, d) for k, d in rows])
            return int(table_id)

        result: int = await self._submit(run)
        return result

    async def append(self, table_id: int, events: Sequence[Event]) -> None:
        """Make ``events`` durable (committed and synced) before returning, or StorageError.

        A ``("status", {"status": S})`` event also sets the table's status column.
        """
        rows = [(table_id, kind, _enc.encode(data).decode()) for kind, data in events]
        status = next((d["status"] for k, d in reversed(events) if k == "status"), None)

        def run(con: sqlite3.Connection) -> None:
            con.executemany("INSERT INTO events (table_id, kind, data) VALUES (?, ?, ?)", rows)
            if status is not None:
                con.execute("UPDATE tables SET status = ?, updated = ? WHERE id = ?",
                            (status, time.time(), table_id))

        await self._submit(run)

    # -- reads -------------------------------------------------------------------------------
    async def load(self, *, include_closed: bool = False,
                   table_id: int | None = None) -> list[TableLog]:
        """Tables (open ones, or every one, or just ``table_id``) with their events in order."""
        result: list[TableLog] = await self._read(
            lambda con: read_tables(con, include_closed=include_closed, table_id=table_id))
        return result

    async def integrity(self) -> str:
        """``PRAGMA integrity_check``: "ok" or the first problem."""
        result: str = await self._read(
            lambda con: con.execute("PRAGMA integrity_check").fetchone()[0])
        return result


def _sync_directories(db: Path, *, up: bool = True) -> None:
    """Sync the database's directory and (``up``) every one above it, best effort: one this
    user may not open is skipped. The names in them (the database's own, a WAL file's, a data
    directory made just before) survive a power cut only once their directory is synced."""
    for directory in (db.parent, *(db.parent.resolve().parents if up else ())):
        try:
            fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
        except OSError:
            continue
        try:
            os.fsync(fd)
        except OSError:
            pass
        finally:
            os.close(fd)


def _decode(text: str) -> Any:
    """A stored JSON value, or ``{UNDECODABLE: text}`` for one that no longer decodes (a bad
    disk sector, a hand edit): the table's replay then reports it as damaged, where raising
    here would keep the daemon (and every other table) from starting."""
    try:
        return _dec.decode(text)
    except (msgspec.DecodeError, UnicodeDecodeError):
        return {UNDECODABLE: text}


def read_tables(con: sqlite3.Connection, *, include_closed: bool = False,
                table_id: int | None = None) -> list[TableLog]:
    """``Store.load`` on a connection of the caller's (``tablebox doctor`` opens the file
    read-only): tables with their events in order. Reads only; raises ``sqlite3.Error``."""
    where, args = ("", ()) if include_closed else ("WHERE status != 'closed'", ())
    if table_id is not None:
        where, args = "WHERE id = ?", (table_id,)  # type: ignore[assignment]
    rows = con.execute(
        "SELECT id, code, name, game, players, options, seed, turn_timer, status, created"
        f" FROM tables {where} ORDER BY id", args).fetchall()
    out: dict[int, TableLog] = {}
    for r in rows:
        row = TableRow(r[0], r[1], r[2], r[3], r[4], _decode(r[5]), r[6], r[7], r[8], r[9])
        out[row.id] = TableLog(row, [])
    if not out:
        return []
    if table_id is not None:
        cur = con.execute("SELECT table_id, kind, data FROM events WHERE table_id = ?"
                          " ORDER BY id", (table_id,))
    elif include_closed:
        cur = con.execute("SELECT table_id, kind, data FROM events ORDER BY table_id, id")
    else:
        cur = con.execute(
            "SELECT e.table_id, e.kind, e.data FROM events e JOIN tables t"
            " ON t.id = e.table_id WHERE t.status != 'closed' ORDER BY e.table_id, e.id")
    for tid, kind, data in cur:
        log = out.get(tid)
        if log is not None:
            log.events.append((str(kind), _decode(data)))
    return list(out.values())


@asynccontextmanager
async def open_store(path: Path, *, synchronous: str = "FULL",
                     flush_seconds: float = FLUSH_SECONDS) -> AsyncIterator[Store]:
    """Open (creating if needed) the database; on exit, finish queued writes and close it."""
    store = Store(path, synchronous=synchronous, flush_seconds=flush_seconds)
    await trio.to_thread.run_sync(store._open_sync, limiter=store._limiter)
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(store._writer)
            if synchronous.upper() != "FULL":
                nursery.start_soon(store._flusher)
            try:
                yield store
            finally:
                # Queued jobs still commit: the writer drains the channel, then ends.
                store._send.close()
    except BaseExceptionGroup as group:
        # The writer never raises, so a group holds the caller's own error: give it back
        # as it was raised, not wrapped by our private nursery.
        if len(group.exceptions) == 1:
            raise group.exceptions[0] from None
        raise
    finally:
        with trio.CancelScope(shield=True):
            await trio.to_thread.run_sync(store._close_sync, limiter=store._limiter)
