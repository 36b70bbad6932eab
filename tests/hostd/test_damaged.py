"""A table whose stored events no longer replay stays visible, refused and exportable.

The real thing end to end: a daemon in a subprocess with a real SQLite file plays two
tables; with the daemon stopped, one stored step of one table is made illegal by editing its
``events`` row (as a rules change or a bad disk would); the daemon is started again. Then
the other table plays on, and the damaged one is listed, refused to players with
``table_damaged``, exported with every stored step, reported by ``doctor`` with what to do,
warned about in one log line, and not one of its rows is changed or deleted.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import trio

from clients.client import Refused, connect
from engine import records
from hostd import doctor
from hostd.config import Config
from hostd.control import request
from tests.hostd.helpers import LAUNCH, ROOT, short_dir, start_process

SEED = 424242424242  # the damaged table's seed: it must never leave the host


def rows(db: Path) -> list[tuple[Any, ...]]:
    con = sqlite3.connect(db)
    try:
        return (con.execute("SELECT * FROM tables ORDER BY id").fetchall()
                + con.execute("SELECT * FROM events ORDER BY id").fetchall())
    finally:
        con.close()


def cli(control: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", LAUNCH, *args, "--control", str(control)],
                          cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)


def make_step_illegal(db: Path, table: str, index: int) -> dict[str, Any]:
    """Rewrite step ``index`` of ``table`` to play a card already played at step 1."""
    con = sqlite3.connect(db)
    try:
        steps = con.execute("SELECT id, data FROM events WHERE table_id = ? AND kind = 'step'"
                            " ORDER BY id", (int(table),)).fetchall()
        played = json.loads(steps[1][1])["action"]["card"]
        data = json.loads(steps[index][1])
        data["action"]["card"] = played
        with con:
            con.execute("UPDATE events SET data = ? WHERE id = ?",
                        (json.dumps(data), steps[index][0]))
        return data
    finally:
        con.close()


async def play_a_round(port: int, code: str, table: str) -> str:
    """Sit at seat 0, play one card; the three computer players answer. The seat's token."""
    async with connect(port=port) as c:
        joined = await c.join(code, "Ana", seat=0)
        s = await c.wait_state(table, lambda s: bool(s.legal))
        await c.intent(table, s.version, s.legal[0], seat=0)
        await c.wait_state(table, lambda s: s.version >= 5 and s.to_act == [0])
        return joined.token


def test_a_damaged_table_stays_visible_refused_exportable_and_whole() -> None:
    tmp = short_dir()
    data, control = tmp / "data", tmp / "c.sock"
    db = data / "tablebox.sqlite3"
    proc = start_process(data, control, "--ai-processes", "0")
    try:
        good = request(control, "tables.new", game="toy", players=4, name="Good one")
        bad = request(control, "tables.new", game="toy", players=4, name="Broken one",
                      seed=SEED)
        token = trio.run(play_a_round, proc.tcp_port, bad["code"], bad["id"])
        assert proc.terminate() == 0
    finally:
        proc.kill()
    assert db.exists()
    bad_step = make_step_illegal(db, bad["id"], 2)
    before = rows(db)

    proc = start_process(data, control, "--ai-processes", "0")
    try:
        # -- the daemon started, with the other table as it was ------------------------------
        listed = {t["id"]: t for t in request(control, "tables.list")}
        assert listed[good["id"]]["status"] == "playing"
        entry = listed[bad["id"]]
        assert entry["status"] == "damaged" and entry["code"] == bad["code"]
        assert entry["damage"] == {"code": "illegal_action", "game": 1, "step": 2, "event": 7}
        status = request(control, "status")
        assert status["restored"] == 1 and status["tables"]["damaged"] == 1

        # -- `tablebox tables list`: the line says where and why, never a secret -------------
        out = cli(control, "tables", "list")
        assert out.returncode == 0, out.stderr
        (line,) = [x for x in out.stdout.splitlines() if x.split()[0] == bad["id"]]
        assert "damaged" in line and "replay stopped at step 2 (illegal_action)" in line
        as_json = cli(control, "tables", "list", "--json")
        for text in (out.stdout, as_json.stdout):
            assert str(SEED) not in text and token not in text and "deck" not in text
        shown = cli(control, "tables", "show", bad["id"])
        assert shown.returncode == 0 and "tablebox export" in shown.stdout

        # -- players: refused with the stable code, the other table plays --------------------
        async def players() -> list[str]:
            refused = []
            async with connect(port=proc.tcp_port) as c:
                lobby = {t.id for t in await c.list_tables()}
                assert good["id"] in lobby and bad["id"] not in lobby
                for ask in (lambda: c.join(bad["code"], "Bo"), lambda: c.resume(token),
                            lambda: c.spectate(bad["id"])):
                    with pytest.raises(Refused) as e:
                        await ask()
                    refused.append(e.value.code)
                await c.join(good["code"], "Cy", seat=1)
                s = await c.wait_state(good["id"])
                assert s.status == "playing"
            return refused

        assert trio.run(players) == ["table_damaged"] * 3

        # -- `tablebox export`: every stored step, the broken one included, no seed ----------
        out = cli(control, "export", bad["id"], "-o", str(tmp / "bad.json"))
        assert out.returncode == 0, out.stderr
        assert "5 steps, damaged: replay stopped at step 2 (illegal_action)" in out.stdout
        rec = json.loads((tmp / "bad.json").read_text())
        assert rec["damaged"] == entry["damage"] and "seed" not in rec
        assert len(rec["steps"]) == 5 and rec["steps"][2] == {k: bad_step[k]
                                                               for k in ("seat", "action")}
        again = records.replay(rec)  # `tablebox replay` stops where the daemon did
        assert again.error is not None
        assert (again.error.index, again.error.code) == (2, "illegal_action")

        # -- `tablebox doctor`, the daemon running: one line for it, and what to do ----------
        config = Config(data_dir=data, control=control)
        checks = list(doctor.check_tables(doctor.Context(config, None, status)))
        assert [c.name for c in checks] == [f"table {bad['id']}"]
        assert checks[0].status == "warn" and "step 2 (illegal_action)" in checks[0].detail
        assert f"tablebox export {bad['id']}" in checks[0].fix
        assert str(SEED) not in json.dumps(doctor.report(checks))

        # -- nothing about it changed while it ran -------------------------------------------
        assert rows(db)[: len(before)] == before
        assert proc.terminate() == 0
    finally:
        proc.kill()
    after = rows(db)
    assert [r for r in after if r not in before and r[1:2] == (int(bad["id"]),)] == []
    assert all(r in after for r in before)

    # -- the log: one warning line for it, no traceback, no secret ---------------------------
    log = proc.output()
    warnings = [json.loads(x) for x in log.splitlines() if '"table_damaged"' in x]
    assert len(warnings) == 1 and warnings[0]["level"] == "warning"
    assert warnings[0]["table"] == bad["id"] and warnings[0]["code"] == "illegal_action"
    assert "Traceback" not in log and str(SEED) not in log and token not in log

    # -- doctor without a daemon: the same finding, from a read-only replay -------------------
    (offline,) = doctor.check_tables(doctor.Context(Config(data_dir=data, control=control),
                                                    None, None))
    assert offline.name == f"table {bad['id']}" and "step 2 (illegal_action)" in offline.detail
    assert rows(db) == after


def test_closing_a_damaged_table_keeps_its_rows_and_its_export() -> None:
    tmp = short_dir()
    data, control = tmp / "data", tmp / "c.sock"
    db = data / "tablebox.sqlite3"
    proc = start_process(data, control, "--ai-processes", "0")
    try:
        bad = request(control, "tables.new", game="toy", players=4)
        trio.run(play_a_round, proc.tcp_port, bad["code"], bad["id"])
        assert proc.terminate() == 0
    finally:
        proc.kill()
    make_step_illegal(db, bad["id"], 3)
    before = rows(db)
    proc = start_process(data, control, "--ai-processes", "0")
    try:
        assert request(control, "tables.close", table=bad["id"])["status"] == "closed"
        assert request(control, "tables.list") == []
        rec = request(control, "export", table=bad["id"])  # rebuilt from the store
        assert rec["damaged"]["step"] == 3 and len(rec["steps"]) == 5
    finally:
        proc.kill()
    after = rows(db)
    events = [r for r in before if len(r) == 4]  # (id, table_id, kind, data)
    assert all(r in after for r in events)
    (added,) = [r for r in after if r not in before and len(r) == 4]
    assert added[2:] == ("status", '{"status":"closed"}')
    (table_row,) = [r for r in after if len(r) > 4]  # only its status (and when) changed
    assert table_row[8] == "closed" and table_row[:8] == before[0][:8]
