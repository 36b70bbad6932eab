"""The log pipeline end to end: JSON lines, journal priorities, the rotated file and redaction.

Every test logs through the real structlog + stdlib pipeline that ``configure`` builds and
reads what reached the stream and the file, as an operator (or a leak) would.
"""

from __future__ import annotations

import ast
import io
import json
import logging
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from hostd import logs

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "tok_Zq8v2LxR0mW4yT7u"  # shaped like a session token
HAND = ["AS", "KH", "7D", "TC"]
SEED = 982451653


@pytest.fixture(autouse=True)
def _reset() -> Iterator[None]:
    yield
    logs.reset()


def lines(text: str) -> list[dict]:
    return [json.loads(x) for x in text.splitlines() if x.strip()]


def test_json_lines_carry_timestamp_level_event_and_context(tmp_path: Path) -> None:
    out = io.StringIO()
    setup = logs.configure("info", mode="json", stream=out, file=tmp_path / "t.log")
    assert setup.mode == "json" and setup.file == tmp_path / "t.log"
    log = logs.get_logger("hostd.tables", table="t1")
    log.debug("ignored_below_level")
    log.info("table_created", game="sequence", seat=2)
    log.warning("seat_dropped", conn="c7")
    got = lines(out.getvalue())
    assert [e["event"] for e in got] == ["table_created", "seat_dropped"]
    first = got[0]
    assert list(first)[:4] == ["timestamp", "level", "event", "logger"]
    assert first["level"] == "info" and first["logger"] == "hostd.tables"
    assert first["table"] == "t1" and first["game"] == "sequence" and first["seat"] == 2
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z", first["timestamp"])
    # the file gets the same JSON events
    assert [e["event"] for e in lines((tmp_path / "t.log").read_text())] == [
        "table_created", "seat_dropped"]


def test_journal_lines_have_the_syslog_priority_prefix() -> None:
    out = io.StringIO()
    logs.configure("debug", mode="journal", stream=out)
    log = logs.get_logger("x")
    log.debug("a_debug")
    log.info("an_info")
    log.warning("a_warning")
    log.error("an_error")
    log.critical("a_critical")
    raw = out.getvalue().splitlines()
    assert [r[:3] for r in raw] == ["<7>", "<6>", "<4>", "<3>", "<2>"]
    assert [json.loads(r[3:])["event"] for r in raw] == [
        "a_debug", "an_info", "a_warning", "an_error", "a_critical"]


def test_journal_mode_is_picked_when_stdout_is_the_journal(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    with (tmp_path / "stream").open("w") as f:
        st = os.fstat(f.fileno())
        monkeypatch.setenv("JOURNAL_STREAM", f"{st.st_dev}:{st.st_ino}")
        assert logs.stdout_is_journal(f)
        assert logs.configure("info", stream=f).mode == "journal"
        monkeypatch.setenv("JOURNAL_STREAM", f"{st.st_dev}:{st.st_ino + 1}")
        assert not logs.stdout_is_journal(f)
        assert logs.configure("info", stream=f).mode == "json"


def test_library_records_go_through_the_same_pipeline() -> None:
    out = io.StringIO()
    logs.configure("info", mode="json", stream=out)
    logging.getLogger("hypercorn.error").warning("Running on %s", "http://127.0.0.1:1")
    logging.getLogger("zeroconf").info("chatter that stays out")
    (event,) = lines(out.getvalue())
    assert event["event"] == "Running on http://127.0.0.1:1"
    assert event["level"] == "warning" and event["logger"] == "hypercorn.error"


def test_console_renderer_is_readable() -> None:
    out = io.StringIO()
    logs.configure("info", mode="console", stream=out)
    logs.get_logger("x").info("table_created", table="t1")
    text = out.getvalue()
    assert "table_created" in text and "table=t1" in text and "[info" in text
    assert "\x1b[" not in text  # plain console: no colour codes off a terminal


def test_exceptions_are_dicts_without_frame_locals(tmp_path: Path) -> None:
    out = io.StringIO()
    logs.configure("info", mode="json", stream=out)

    def fail(token: str) -> None:
        secret_local = TOKEN  # noqa: F841 - must never appear: locals are not logged
        raise ValueError("boom")

    try:
        fail(TOKEN)
    except ValueError:
        logs.get_logger("x").exception("step_failed", table="t1")
    (event,) = lines(out.getvalue())
    assert event["level"] == "error" and event["event"] == "step_failed"
    (exc,) = event["exception"]
    assert exc["exc_type"] == "ValueError" and exc["exc_value"] == "boom"
    assert exc["frames"] and all("locals" not in fr or not fr["locals"] for fr in exc["frames"])
    assert TOKEN not in out.getvalue()


def _log_every_secret() -> None:
    log = logs.get_logger("hostd.session", table="t1")
    for level in ("debug", "info", "warning", "error"):
        emit = getattr(log, level)
        emit("seat_joined", seat=1, token=TOKEN, name="Ana")
        emit("hand_dealt", hand=HAND, seed=SEED)
        emit("cards_seen", stuff={"nested": {"deck": HAND}, "cards": list(HAND)})
        emit("unlabelled", picked=HAND, note="holding " + " ".join(HAND))
        emit(f"resume failed for token {TOKEN} with seed {SEED}")
        emit("join_failed", reason=f"token={TOKEN}", player_token=TOKEN)
        emit("view_sent", view={"hand": HAND}, state={"deck": HAND}, legal=[{"card": "AS"}])
    try:
        raise RuntimeError(f"cannot resume token {TOKEN}")
    except RuntimeError:
        log.exception("resume_crashed")
    # a library's stdlib record
    logging.getLogger("hypercorn.error").error("bad cookie token=%s", TOKEN)


def _hidden_strings() -> list[str]:
    return [" ".join(HAND), *(f'"{c}"' for c in HAND), str(SEED)]


@pytest.mark.parametrize("mode", ["json", "journal", "console"])
def test_no_token_hidden_card_or_seed_above_debug(tmp_path: Path, mode: logs.Mode) -> None:
    out = io.StringIO()
    log_file = tmp_path / "tablebox.log"
    logs.configure("info", mode=mode, stream=out, file=log_file)
    _log_every_secret()
    for where, text in (("stdout", out.getvalue()), ("file", log_file.read_text())):
        assert text.count("seat_joined") == 3, where  # info, warning, error got through
        assert TOKEN not in text, where
        for hidden in _hidden_strings():
            assert hidden not in text, (where, hidden)
        assert "Ana" in text and logs.REDACTED in text


def test_at_debug_hidden_cards_and_seeds_show_but_tokens_never(tmp_path: Path) -> None:
    out = io.StringIO()
    log_file = tmp_path / "tablebox.log"
    logs.configure("debug", mode="json", stream=out, file=log_file)
    _log_every_secret()
    debug = [e for e in lines(out.getvalue()) if e["level"] == "debug"]
    by_event = {e["event"]: e for e in debug}
    assert by_event["hand_dealt"]["hand"] == HAND and by_event["hand_dealt"]["seed"] == SEED
    assert by_event["unlabelled"]["picked"] == HAND
    assert by_event["seat_joined"]["token"] == logs.REDACTED
    assert TOKEN not in out.getvalue() and TOKEN not in log_file.read_text()
    info = [e for e in lines(out.getvalue()) if e["level"] == "info"]
    assert {e["event"]: e for e in info}["hand_dealt"]["hand"] == logs.REDACTED


def test_public_codes_are_not_mangled() -> None:
    out = io.StringIO()
    logs.configure("info", mode="json", stream=out)
    logs.get_logger("x").info("intent_rejected", code="bad_token", card="AS", version=3,
                              seats=[0, 1], tokens_issued=4, action="waiting for BlueZ")
    logs.get_logger("x").info("cards_passed", action={"type": "pass", "cards": ["AS", "KH"]})
    event, passed = lines(out.getvalue())
    assert event["action"] == "waiting for BlueZ"
    assert passed["action"] == {"type": "pass", "cards": logs.REDACTED}
    assert event["code"] == "bad_token" and event["card"] == "AS"
    assert event["seats"] == [0, 1] and event["tokens_issued"] == 4


def test_the_file_is_rotated_and_bounded(tmp_path: Path) -> None:
    log_file = tmp_path / "state" / "tablebox.log"
    logs.configure("info", mode="json", stream=io.StringIO(), file=log_file,
                   file_bytes=64 * 1024, file_backups=2)
    log = logs.get_logger("x")
    for i in range(3000):
        log.info("filler_logged", i=i, pad="x" * 80)
    files = sorted(p.name for p in log_file.parent.iterdir())
    assert files == ["tablebox.log", "tablebox.log.1", "tablebox.log.2"]
    assert all((log_file.parent / f).stat().st_size <= 64 * 1024 for f in files)
    last = lines(log_file.read_text())[-1]
    assert last["i"] == 2999  # the newest event is in the current file


def test_an_unwritable_log_file_is_reported_not_raised(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    setup = logs.configure("info", mode="json", stream=io.StringIO(),
                           file=blocker / "sub" / "t.log")
    assert setup.file is None and str(blocker) in setup.file_error


def _log_calls(tree: ast.AST) -> Iterator[tuple[int, str]]:
    methods = {"debug", "info", "warning", "error", "exception", "critical", "msg"}
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in methods and node.args
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
                and isinstance(node.func.value, ast.Name) and "log" in node.func.value.id):
            yield node.lineno, node.args[0].value


def test_daemon_events_are_snake_case_and_only_logs_configures_logging() -> None:
    bad = []
    for path in sorted((ROOT / "hostd").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        rel = path.relative_to(ROOT)
        for line, event in _log_calls(ast.parse(text)):
            if not re.fullmatch(r"[a-z][a-z0-9]*(_[a-z0-9]+)+|[a-z]+", event):
                bad.append(f"{rel}:{line}: event {event!r} is not a snake_case verb phrase")
        if rel.as_posix() != "hostd/logs.py" and re.search(
                r"structlog\.configure\(|logging\.basicConfig\(", text):
            bad.append(f"{rel}: configures logging; only hostd/logs.py may")
    assert not bad, "\n".join(bad)


def test_serve_on_a_terminal_says_its_own_lines_first_and_keeps_every_event_in_the_file(
        tmp_path: Path) -> None:
    """`make serve` on a terminal: the first lines a person reads are where to join, not seven
    start-up events; those are all in the log file (what `tablebox logs` reads)."""
    import pty
    import select
    import signal
    import subprocess
    import sys
    import time

    from tests.hostd.helpers import LAUNCH, short_dir

    control = short_dir() / "c.sock"
    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-c", LAUNCH, "serve", "--data-dir", str(tmp_path), "--control",
         str(control), "--bind", "127.0.0.1", "--tcp-port", "0", "--http-port", "0",
         "--no-mdns", "--no-bluetooth"],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm"},
        stdin=subprocess.DEVNULL, stdout=follower, stderr=follower)
    os.close(follower)
    seen = b""
    try:
        deadline = time.monotonic() + 60
        while b"tablebox logs -f" not in seen and time.monotonic() < deadline:
            if select.select([leader], [], [], 1.0)[0]:
                try:
                    seen += os.read(leader, 65536)
                except OSError:
                    break
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        os.close(leader)
    text = re.sub(r"\x1b\[[0-9;]*m", "", seen.decode(errors="replace"))
    said = [x for x in text.splitlines() if x.strip()]
    own = [x for x in said if x.startswith("tablebox: ")]
    assert own and own[0].startswith("tablebox: listening on tcp 127.0.0.1:"), said
    # before it, at most a warning that raced it (the updater's "no key in this build")
    before = said[:said.index(own[0])]
    assert all("warning" in x or "error" in x for x in before), said
    assert any(x.startswith("tablebox: join at http://") for x in said), said
    for event in ("config_loaded", "tables_restored", "tcp_listening", "daemon_ready"):
        assert event not in text, said
    # warnings still reach the terminal, as one line each, and nothing is lost from the file
    assert all(x.startswith("tablebox: ") or "warning" in x or "error" in x for x in said), said
    events = {e["event"] for e in lines((tmp_path / "tablebox.log").read_text())}
    assert {"config_loaded", "tables_restored", "tcp_listening", "daemon_ready"} <= events
