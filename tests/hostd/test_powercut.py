"""Power cuts, not only kill -9: what survives them with commits synced and with them not.

A process killed with SIGKILL leaves what it wrote in the page cache, and the kernel writes it
out later; a power cut takes the page cache too. Here the daemon's data directory is on
``powercut_fs``, a FUSE filesystem in a process of its own that holds every write in memory
until it is synced and, at a cut, kills the daemon and forgets everything that was not: each
file goes back to what it held at its last ``fsync``, each directory to its names at its last
``fsync``. The filesystem is then mounted again with what survived and the daemon started on
it, as after a reboot.

Every life seats people (this test's clients) in two seats of a table of every game, computer
players in the others, and records each move an intent had acknowledged and when. At a random
moment in play the power is cut. After each restart every table must come back (none damaged,
none gone), and:

- with ``sync_commits = true`` no acknowledged move is lost, nor any state anybody was shown;
- with ``sync_commits = false`` the moves lost are only ones acknowledged within the last
  ``FLUSH_SECONDS`` before the cut (the bound docs/operations.md states), plus scheduling
  slack; and some are lost, or the filesystem would not be forgetting anything.

A table whose game ended is checked and replaced by a new one, so that cuts keep landing in
play. After the last cut every game is played out: its record replays as valid, holds every
acknowledged move that survived, and every state any client was shown (on the surviving
timeline) is the replay's state at that version.

``make test`` cuts the power 3 times in each mode; ``make chaos`` (``-m slow``) 20 times.
"""

from __future__ import annotations

import contextlib
import ctypes.util
import importlib.util
import os
import random
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import trio

from clients.client import Client, ClientError, Refused, connect
from engine import registry
from engine.codec import to_data
from engine.records import replay
from hostd.control import ControlError, request
from hostd.store import FLUSH_SECONDS
from tests.hostd.helpers import GAMES, PLAYERS, DaemonProcess, short_dir, start_process
from tests.hostd.powercut_fs import Disk
from tests.hostd.test_kill9 import Seen
from tests.hostd.test_leaks import true_states

HUMANS = 2
# How much later than FLUSH_SECONDS after its acknowledgement an unsynced commit may still be
# unsynced: the sync's own time and two shared cores' scheduling.
SLACK = 0.5


def _fuse_missing() -> str | None:
    """Why no FUSE filesystem can be mounted here, or None."""
    if not os.path.exists("/dev/fuse"):
        return "no /dev/fuse (the kernel's fuse module)"
    if importlib.util.find_spec("mfusepy") is None:
        return "mfusepy is not installed (pip install -e '.[test]')"
    if ctypes.util.find_library("fuse3") is None and ctypes.util.find_library("fuse") is None:
        return "libfuse is not installed (apt-get install fuse3)"
    if os.geteuid() != 0 and shutil.which("fusermount3") is None:
        return "mounting needs root or fusermount3 (apt-get install fuse3)"
    return None


@pytest.fixture(autouse=True)
def _fuse() -> None:
    """Skipped where FUSE cannot work (a developer's container), never in CI: there a missing
    package is a failure, and .ci/run installs them all."""
    reason = _fuse_missing()
    if reason is not None:
        if os.environ.get("CI"):
            pytest.fail(f"the power-cut tests cannot run: {reason}")
        pytest.skip(reason)


@dataclass(frozen=True)
class Ack:
    """A move the host acknowledged: sent at ``sent``, the table at ``version`` after it."""

    table: str
    seat: int
    action: dict[str, Any]
    sent: int
    version: int
    at: float  # time.monotonic() when the acknowledgement arrived


@dataclass
class Figures:
    cuts: int = 0
    acked: int = 0  # moves acknowledged, over every life
    lost: int = 0  # acknowledged moves not there after a cut
    shown_lost: int = 0  # table versions some client was shown, not there after a cut
    worst_age: float = 0.0  # the oldest lost acknowledgement, in seconds before its cut
    unsynced_at_cut: set[str] = field(default_factory=set)  # files with unsynced data at a cut


@dataclass
class Tables:
    """The tables in play (by id) and what was acknowledged at each."""

    current: dict[str, dict[str, Any]] = field(default_factory=dict)
    done: list[dict[str, Any]] = field(default_factory=list)
    acks: dict[str, list[Ack]] = field(default_factory=dict)
    created: dict[str, float] = field(default_factory=dict)

    def open(self, control: Path, game: str) -> None:
        t = request(control, "tables.new", game=game, players=PLAYERS[game], ai="random")
        self.current[t["id"]] = t
        self.acks[t["id"]] = []
        self.created[t["id"]] = time.monotonic()


async def play_life(d: DaemonProcess, disk: Disk, tables: Tables, seen: Seen,
                    rng: random.Random, cut_after: float | None, synced: bool
                    ) -> tuple[float, dict[str, Any]] | None:
    """One life: seat everybody (resume, or join again where the seat's join was lost), play,
    and cut the power at ``cut_after``: (the moment just before the cut, the cut's figures)."""
    async with contextlib.AsyncExitStack() as stack:
        clients: dict[tuple[str, int], Client] = {}
        for tid, t in tables.current.items():
            for seat in range(HUMANS):
                c = await stack.enter_async_context(connect(port=d.tcp_port, record=True))
                key = (tid, seat)
                try:
                    if key not in seen.tokens:
                        raise LookupError
                    await c.resume(seen.tokens[key])
                except (LookupError, Refused):
                    if key in seen.tokens:
                        assert not synced, f"the join of {key} was lost with commits synced"
                    seen.tokens[key] = (await c.join(t["code"], f"P{seat}", seat)).token
                await c.wait_state(tid)
                clients[key] = c

        async def player(key: tuple[str, int], c: Client) -> None:
            table, seat = key
            with contextlib.suppress(ClientError):
                while True:
                    s = await c.wait_state(table, lambda s: bool(s.legal) or s.status != "playing",
                                           timeout=60)
                    if s.status != "playing":
                        return
                    await trio.sleep(rng.random() * 0.004)
                    action = rng.choice(s.legal)
                    try:
                        after = await c.intent(table, s.version, action, seat=seat)
                    except Refused:
                        await c.changed()  # a newer state is on its way
                        continue
                    tables.acks[table].append(
                        Ack(table, seat, action, s.version, after.version, time.monotonic()))

        cut: tuple[float, dict[str, Any]] | None = None
        async with trio.open_nursery() as nursery:
            for key, c in clients.items():
                nursery.start_soon(player, key, c)
            if cut_after is not None:
                await trio.sleep(cut_after)
                at = time.monotonic()
                stats = await trio.to_thread.run_sync(lambda: disk.cut(kill=d.proc.pid))
                cut = (at, stats)
                nursery.cancel_scope.cancel()
        for key, c in clients.items():
            seen.add(key[0], key[1], c)
    return cut


def restored(control: Path, tid: str) -> dict[str, Any] | None:
    try:
        show: dict[str, Any] = request(control, "tables.show", table=tid)
    except ControlError as e:
        if getattr(e, "code", None) == "unknown_table":
            return None
        raise
    return show


def check_after_cut(control: Path, tables: Tables, seen: Seen, cut_at: float, synced: bool,
                    figures: Figures) -> None:
    """Every table is back, with what the mode promises; the ledger follows what survived."""
    for tid in list(tables.current):
        show = restored(control, tid)
        if show is None:
            assert not synced, f"table {tid} is gone after a cut with commits synced"
            age = cut_at - tables.created[tid]
            assert age < FLUSH_SECONDS + SLACK, f"table {tid}, made {age:.2f} s before, is gone"
            version = 0
        else:
            assert show["status"] in ("playing", "finished"), (tid, show["status"])
            version = int(show["version"])
        lost = [a for a in tables.acks[tid] if a.version > version]
        shown = seen.last_version(tid)
        figures.lost += len(lost)
        figures.shown_lost += max(0, shown - version)
        if synced:
            assert not lost, f"table {tid} came back at {version}, but {lost[0]} was acknowledged"
            assert version >= shown, f"table {tid} came back at {version}, {shown} was shown"
        for a in lost:
            age = cut_at - a.at
            figures.worst_age = max(figures.worst_age, age)
            assert age < FLUSH_SECONDS + SLACK, (
                f"a move acknowledged {age:.2f} s before the cut was lost: {a}")
        # The timeline goes on from what survived: what was lost was never shown, as far as
        # the final check is concerned.
        tables.acks[tid] = [a for a in tables.acks[tid] if a.version <= version]
        for (t, seat), states in seen.states.items():
            if t == tid:
                seen.states[(t, seat)] = [s for s in states if s.version <= version]
        if show is None:
            del tables.current[tid]
            for seat in range(HUMANS):
                seen.tokens.pop((tid, seat), None)


def check_record(control: Path, t: dict[str, Any], tables: Tables, seen: Seen) -> None:
    """A game played to its end replays, holds every acknowledged move, showed the replay."""
    record = request(control, "export", table=t["id"])
    assert record["outcome"] is not None, f"{t['id']} did not finish"
    result = replay(record)
    assert result.valid, (t["id"], result.error)
    steps = record["steps"]
    for a in tables.acks[t["id"]]:
        assert {"seat": a.seat, "action": a.action} in steps[a.sent:a.version], a
    states = true_states(record)
    game = registry.get(record["game"])
    for (tid, seat), shown in seen.states.items():
        if tid == t["id"]:
            for s in shown:
                assert s.view == to_data(game.view(states[s.version], seat)), (
                    f"{tid} seat {seat} was shown version {s.version} differently")


def power_cuts(cuts: int, seed: int, *, synced: bool) -> Figures:
    rng = random.Random(seed)
    cut_rng = random.Random(seed + 1)  # the moments of the cuts, whatever the play
    tmp = short_dir()
    disk = Disk(tmp / "fs")
    control = tmp / "c.sock"
    # ``--data-dir`` wins over start_process's ``--data``, whose parent gets the daemon's
    # output: that stays off the filesystem whose power is cut.
    args = ("--data-dir", str(disk.mount_point / "data"), "--ai-processes", "0",
            "--sync-commits" if synced else "--no-sync-commits")

    def start() -> DaemonProcess:
        return start_process(tmp / "out" / "data", control, *args)

    figures = Figures()
    seen = Seen()
    tables = Tables()
    d: DaemonProcess | None = None
    try:
        disk.mount()
        d = start()
        for game in GAMES:
            tables.open(control, game)
        for life in range(cuts + 1):
            # Every other life outlasts FLUSH_SECONDS and its slack, so that the bound itself
            # is put to the test; the others are cut soon, in the middle of seating and play.
            cut_after = (None if life == cuts else
                         FLUSH_SECONDS + SLACK + 0.3 + cut_rng.random() * 0.6 if life % 2
                         else 0.1 + cut_rng.random() * 0.9)
            cut = trio.run(play_life, d, disk, tables, seen, rng, cut_after, synced)
            if cut is None:
                break
            d.proc.wait(10)
            cut_at, stats = cut
            figures.cuts += 1
            figures.unsynced_at_cut.update(stats["unsynced"])
            disk.mount()
            d = start()
            check_after_cut(control, tables, seen, cut_at, synced, figures)
            for tid, t in list(tables.current.items()):
                if request(control, "tables.show", table=tid)["status"] == "finished":
                    check_record(control, t, tables, seen)
                    tables.done.append(t)
                    del tables.current[tid]
            for game in GAMES:  # a table in play of every game, for the next cut
                if not any(t["game"] == game for t in tables.current.values()):
                    tables.open(control, game)
        for t in [*tables.done, *tables.current.values()]:
            check_record(control, t, tables, seen)
        figures.acked = sum(len(a) for a in tables.acks.values()) + figures.lost
        assert d.terminate() == 0, d.output()
        d = None
    finally:
        if d is not None:
            d.kill()
        disk.close()
    shutil.rmtree(tmp, ignore_errors=True)  # kept when the test fails: the daemons' output
    return figures


def report(mode: str, f: Figures) -> str:
    return (f"{mode}: {f.cuts} cuts, {f.acked} moves acknowledged, {f.lost} lost "
            f"(oldest {f.worst_age:.2f} s before its cut), {f.shown_lost} versions shown lost; "
            f"unsynced at the cuts: {', '.join(sorted(f.unsynced_at_cut))}")


def run_synced(cuts: int, seed: int) -> None:
    f = power_cuts(cuts, seed, synced=True)
    print(report("sync_commits = true", f))
    assert f.cuts == cuts and f.lost == 0 and f.shown_lost == 0
    assert f.acked > cuts * 10, "the cuts must land in play"


def run_unsynced(cuts: int, seed: int) -> None:
    f = power_cuts(cuts, seed, synced=False)
    print(report("sync_commits = false", f))
    assert f.cuts == cuts and f.worst_age < FLUSH_SECONDS + SLACK
    assert f.lost > 0, "nothing unsynced was lost: the filesystem is not cutting the power"


def test_the_filesystem_keeps_only_what_was_synced() -> None:
    """The model itself: synced data and names survive a cut, nothing else does."""
    disk = Disk(short_dir())
    try:
        disk.mount()
        m = disk.mount_point
        (m / "d").mkdir()
        with open(m / "d" / "kept", "wb") as f:
            f.write(b"a" * 10000)
            os.fsync(f.fileno())
            f.write(b"b" * 10)  # after the sync: lost
            f.seek(4096)
            f.write(b"c")  # an unsynced change inside the synced part: lost too
        with open(m / "d" / "named", "wb") as f:
            f.write(b"data never synced")
        (m / "d" / "gone").write_bytes(b"")
        for directory in (m, m / "d"):
            fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
            os.fsync(fd)
            os.close(fd)
        (m / "d" / "never").write_bytes(b"neither it nor its name synced: vanishes")
        (m / "d" / "gone").unlink()  # after the directory's sync: comes back
        (m / "d" / "kept").rename(m / "d" / "moved")  # likewise: the old name comes back
        with open(m / "later", "wb") as f:  # synced, but its name never was: vanishes
            f.write(b"x")
            os.fsync(f.fileno())
        stats = disk.cut()
        assert "/d/kept" in stats["unsynced"] or "/d/moved" in stats["unsynced"]
        disk.mount()
        assert sorted(os.listdir(m)) == ["d"]
        assert sorted(os.listdir(m / "d")) == ["gone", "kept", "named"]
        assert (m / "d" / "kept").read_bytes() == b"a" * 10000
        assert (m / "d" / "named").read_bytes() == b""  # the name was synced, its data not
        assert (m / "d" / "gone").read_bytes() == b""
        # After a cut the image is both what is seen and what is synced: a second cut with
        # no writes changes nothing.
        disk.cut()
        disk.mount()
        assert (m / "d" / "kept").read_bytes() == b"a" * 10000
    finally:
        disk.close()


def test_power_cuts_lose_no_acknowledged_move_with_commits_synced() -> None:
    run_synced(3, 20260301)


def test_power_cuts_lose_at_most_the_last_second_with_commits_unsynced() -> None:
    run_unsynced(3, 20260302)


@pytest.mark.slow
def test_twenty_power_cuts_with_commits_synced() -> None:
    run_synced(20, 20260320)


@pytest.mark.slow
def test_twenty_power_cuts_with_commits_unsynced() -> None:
    run_unsynced(20, 20260321)
