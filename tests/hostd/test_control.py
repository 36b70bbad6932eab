"""The management door: the control socket (mode 0660, JSON lines) and the CLI commands that
use it, against a daemon subprocess; and a daemon that is not running."""

from __future__ import annotations

import json
import socket
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from engine.records import replay
from hostd.cli import main
from hostd.control import ControlError, DaemonUnavailable, request
from tests.hostd.helpers import DaemonProcess, short_dir, start_process


@pytest.fixture(scope="module")
def daemon() -> Iterator[DaemonProcess]:
    tmp = short_dir()
    d = start_process(tmp / "data", tmp / "c.sock", "--ai-processes", "0")
    try:
        yield d
    finally:
        d.kill()


def cli(d: DaemonProcess, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, [*args, "--control", str(d.control)])
    return result.exit_code, result.output


def test_control_socket_is_group_only(daemon: DaemonProcess) -> None:
    mode = daemon.control.stat().st_mode
    assert stat.S_ISSOCK(mode) and stat.S_IMODE(mode) == 0o660


def test_tables_new_list_show_close(daemon: DaemonProcess) -> None:
    code, out = cli(daemon, "tables", "new", "toy", "--players", "3", "--opt", "bonus=2",
                    "--ai", "random", "--name", "Corner", "--json")
    assert code == 0, out
    t = json.loads(out)
    assert (t["game"], t["players"], t["name"], t["free_seats"]) == ("toy", 3, "Corner", 3)
    assert len(t["code"]) == 4 and "seed" not in out
    code, out = cli(daemon, "tables")
    assert code == 0 and t["code"] in out and "Corner" in out
    code, out = cli(daemon, "tables", "list", "--json")
    assert any(x["id"] == t["id"] for x in json.loads(out)["tables"])
    code, out = cli(daemon, "tables", "show", t["id"], "--json")
    shown = json.loads(out)
    assert shown["options"] == {"bonus": 2} and shown["version"] == 1
    assert "seed" not in out
    code, out = cli(daemon, "tables", "show", t["code"])
    assert code == 0 and "seat 2" in out and "AI (random)" in out
    code, out = cli(daemon, "tables", "close", t["id"])
    assert code == 0 and "closed" in out
    code, out = cli(daemon, "tables", "show", t["id"])
    assert code == 1 and out.strip() == "Error: unknown table"
    code, out = cli(daemon, "export", t["id"])  # a closed table's record is still there
    assert code == 0 and json.loads(out)["players"] == 3


def test_seats_kick_and_ai(daemon: DaemonProcess) -> None:
    t = request(daemon.control, "tables.new", game="toy", players=2)
    code, out = cli(daemon, "seats", t["id"], "--json")
    assert code == 0 and [s["controller"] for s in json.loads(out)["seats"]] == ["ai", "ai"]
    code, out = cli(daemon, "seats", "ai", t["id"], "1", "hard")
    assert code == 0 and "AI (hard)" in out
    code, out = cli(daemon, "seats", "kick", t["id"], "0")
    assert code == 1 and "not seated" in out
    code, out = cli(daemon, "seats", "ai", t["id"], "1", "genius")
    assert code == 1 and "unknown AI level" in out and "Traceback" not in out
    code, out = cli(daemon, "seats", "kick", t["id"], "9")
    assert code == 1 and "no such seat" in out


def test_bad_requests_get_one_line_errors(daemon: DaemonProcess) -> None:
    for args, text in [
        (("tables", "new", "bridge"), "unknown game 'bridge'"),
        (("tables", "new", "toy", "--players", "9"), "cannot be played by 9"),
        (("tables", "new", "toy", "--opt", "bonus=99"), "option 'bonus'"),
        (("tables", "new", "toy", "--opt", "nonsense"), "expected KEY=VALUE"),
        (("export", "404"), "unknown table"),
    ]:
        code, out = cli(daemon, *args)
        assert code == 1, (args, out)
        assert text in out and len(out.strip().splitlines()) == 1, out
    with pytest.raises(ControlError) as e:
        request(daemon.control, "no.such.op")
    assert e.value.code == "unknown_op"
    with pytest.raises(ControlError) as e:
        request(daemon.control, "tables.show")
    assert e.value.code == "bad_request"
    s = socket.socket(socket.AF_UNIX)
    s.connect(str(daemon.control))
    s.sendall(b"not json\n")
    assert json.loads(s.recv(4096))["code"] == "bad_request"
    s.close()


def test_export_of_a_game_in_progress_has_no_seed_and_no_hand_in_play(
        daemon: DaemonProcess, tmp_path: Path) -> None:
    t = request(daemon.control, "tables.new", game="toy", players=2, seed=123456789)
    out_file = tmp_path / "rec.json"
    code, out = cli(daemon, "export", t["id"], "-o", str(out_file))
    assert code == 0 and "wrote" in out
    rec = json.loads(out_file.read_text())
    assert "seed" not in rec and rec["in_progress"] is True and rec["steps"] == []
    assert "123456789" not in out_file.read_text()
    assert replay(rec).valid


def test_status_and_drain(daemon: DaemonProcess) -> None:
    code, out = cli(daemon, "status", "--json")
    s = json.loads(out)
    assert code == 0 and s["listening"]["tcp"]["port"] == daemon.tcp_port
    code, out = cli(daemon, "status")
    assert code == 0 and "tables:" in out and "listening:" in out


def test_protocol_schema_lists_every_message() -> None:
    result = CliRunner().invoke(main, ["protocol", "schema"])
    schema = json.loads(result.output)
    text = json.dumps(schema)
    for kind in ("hello", "welcome", "intent", "state", "rejected", "notice", "joined", "bye"):
        assert f'"{kind}"' in text


def test_a_daemon_that_is_not_running_is_one_line() -> None:
    path = short_dir() / "nothing.sock"
    with pytest.raises(DaemonUnavailable):
        request(path, "status")
    for args in (["status"], ["tables"], ["tables", "new", "toy"], ["seats", "1"],
                 ["export", "1"], ["drain"]):
        result = CliRunner().invoke(main, [*args, "--control", str(path)])
        assert result.exit_code == 1, args
        assert result.output.startswith("Error: the tablebox daemon is not running")
        assert len(result.output.strip().splitlines()) == 1 and "Traceback" not in result.output
