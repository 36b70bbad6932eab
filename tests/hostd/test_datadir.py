"""`tablebox serve` claiming its data directory, run as the real CLI in subprocesses: one
daemon per directory (the lock), private modes whatever the umask, and every start-up error an
operator can fix as ONE line on stderr naming the path, with nothing written before the check.

Discovery and Bluetooth are off; every process started here is ended here.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import socket
import stat
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from hostd.control import request
from tests.hostd.helpers import LAUNCH, ROOT, short_dir, start_process

DB = "tablebox.sqlite3"
LOCK_NAME = "tablebox.lock"  # the documented name (docs/operations.md)
ROOT_NEEDS_SETPRIV = os.geteuid() == 0 and shutil.which("setpriv") is None


@pytest.fixture
def tmp() -> Iterator[Path]:
    d = short_dir()  # Unix socket paths must stay short
    try:
        yield d
    finally:
        shutil.rmtree(d, ignore_errors=True)


def unprivileged() -> tuple[str, ...]:
    """A prefix that makes file modes count: root ignores them unless it drops the
    capabilities that override them (as a hardened unit's root would not have)."""
    if os.geteuid() != 0:
        return ()
    return ("setpriv", "--inh-caps=-all",
            "--bounding-set=-dac_override,-dac_read_search,-fowner")


def serve(data: Path, control: Path, *, prefix: tuple[str, ...] = (),
          umask: int = -1) -> subprocess.CompletedProcess[str]:
    """`tablebox serve` expected to refuse to start (a timeout here is a failure)."""
    args = [*prefix, sys.executable, "-c", LAUNCH, "serve", "--data-dir", str(data),
            "--control", str(control), "--bind", "127.0.0.1", "--tcp-port", "0",
            "--http-port", "0", "--no-mdns", "--no-bluetooth", "--ai-speed", "0",
            "--ai-processes", "0"]
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=60,
                          check=False, umask=umask,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


def assert_one_line(out: subprocess.CompletedProcess[str], *needles: str) -> str:
    assert out.returncode != 0, out
    lines = out.stderr.splitlines()
    assert len(lines) == 1, out.stderr
    assert "Traceback" not in out.stderr + out.stdout
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    assert "fix:" in lines[0]
    return lines[0]


def snapshot(*paths: Path) -> dict[str, object]:
    """Bytes, mode and mtime of every file under ``paths`` (and which names exist)."""
    seen: dict[str, object] = {}
    for top in paths:
        if not os.path.lexists(top):
            seen[str(top)] = None
            continue
        for p in [top, *sorted(top.rglob("*"))] if top.is_dir() else [top]:
            st = p.lstat()
            body = p.read_bytes() if stat.S_ISREG(st.st_mode) else b""
            seen[str(p)] = (body, st.st_mode, st.st_mtime_ns)
    return seen


def lock_holder(data: Path) -> dict[str, object] | None:
    """What the lock file says, if someone holds the lock (seen from outside, as an operator
    would: a shared lock that fails means it is held)."""
    with (data / LOCK_NAME).open("rb") as f:
        try:
            fcntl.flock(f, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            owner: dict[str, object] = json.loads(f.read())
            return owner
        return None


@contextlib.contextmanager
def umask(mask: int) -> Iterator[None]:
    """The daemon subprocess inherits the umask in force when it is started."""
    old = os.umask(mask)
    try:
        yield
    finally:
        os.umask(old)


def make_tables(data: Path, control: Path, n: int = 3) -> None:
    d = start_process(data, control)
    try:
        for _ in range(n):
            request(control, "tables.new", game="euchre")
    finally:
        d.terminate()


# -- 1. one daemon per data directory ----------------------------------------------------------
def test_a_second_daemon_on_the_same_data_directory_names_the_first(tmp: Path) -> None:
    data = tmp / "data"
    first = start_process(data, tmp / "a.sock")
    try:
        request(first.control, "tables.new", game="euchre")
        out = serve(data, tmp / "b.sock")  # another control socket: only the lock can tell
        line = assert_one_line(out, str(data), f"pid {first.proc.pid}",
                               f"control socket {tmp / 'a.sock'}", "--data-dir")
        assert "in use by another tablebox daemon" in line
        assert not (tmp / "b.sock").exists()
        assert request(first.control, "status")["tables"]["playing"] == 1  # untouched
        assert lock_holder(data) == {"pid": first.proc.pid, "control": str(tmp / "a.sock")}
    finally:
        first.terminate()
    assert lock_holder(data) is None  # released; what the file says is stale now
    second = start_process(data, tmp / "b.sock")  # and the directory is free again
    try:
        assert request(second.control, "status")["tables"]["playing"] == 1
    finally:
        second.terminate()


def test_the_lock_is_taken_before_the_database_is_read(tmp: Path) -> None:
    # A holder that is not a daemon at all, over a database that would fail its check: the
    # answer is about the lock, so the database was not looked at first.
    data = tmp / "data"
    data.mkdir(mode=0o700)
    (data / DB).write_bytes(b"not sqlite at all" * 100)
    with (data / LOCK_NAME).open("w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        f.write(json.dumps({"pid": os.getpid(), "control": "/run/elsewhere.sock"}))
        f.flush()
        before = snapshot(data / DB)
        out = serve(data, tmp / "c.sock")
        assert_one_line(out, str(data), f"pid {os.getpid()}", "/run/elsewhere.sock")
        assert snapshot(data / DB) == before


def test_a_second_daemon_on_the_same_control_socket_names_the_first(tmp: Path) -> None:
    first = start_process(tmp / "one", tmp / "c.sock")
    try:
        out = serve(tmp / "two", tmp / "c.sock")
        line = assert_one_line(out, str(tmp / "c.sock"), f"pid {first.proc.pid}", "--control")
        assert "another tablebox daemon" in line
        assert not (tmp / "two").exists()  # the check came before anything was made
        assert request(first.control, "status")["listening"]["control"] == str(tmp / "c.sock")
    finally:
        first.terminate()


# -- 2. private whatever the umask --------------------------------------------------------------
@pytest.mark.parametrize("mask", [0o022, 0o000], ids=["umask022", "umask000"])
def test_the_directory_and_every_file_in_it_are_private(tmp: Path, mask: int) -> None:
    data = tmp / "data"
    with umask(mask):
        d = start_process(data, tmp / "c.sock", "--log-file")
    try:
        request(d.control, "tables.new", game="euchre")  # the WAL and the log have content
        names = sorted(p.name for p in data.iterdir())
        assert {DB, f"{DB}-wal", f"{DB}-shm", LOCK_NAME, "tablebox.log"} <= set(names), names
        assert stat.S_IMODE(data.stat().st_mode) == 0o700
        for p in data.iterdir():
            assert stat.S_IMODE(p.lstat().st_mode) == 0o600, (p.name, oct(p.lstat().st_mode))
    finally:
        d.terminate()


def test_loose_modes_left_from_before_are_made_private_at_start(tmp: Path) -> None:
    data = tmp / "data"
    make_tables(data, tmp / "c.sock", n=1)
    os.chmod(data, 0o755)
    os.chmod(data / DB, 0o644)
    (data / "notes.txt").write_text("the operator's own file")
    os.chmod(data / "notes.txt", 0o644)
    d = start_process(data, tmp / "c.sock", "--log-file")
    try:
        assert stat.S_IMODE(data.stat().st_mode) == 0o700
        assert stat.S_IMODE((data / DB).stat().st_mode) == 0o600
        assert stat.S_IMODE((data / "notes.txt").stat().st_mode) == 0o644  # not ours
        log = (data / "tablebox.log").read_text()
        assert '"permissions_tightened"' in log and str(data / DB) in log
    finally:
        d.terminate()


# -- 3. errors an operator can fix: one line, the path, nothing written ------------------------
Setup = Callable[[Path], tuple[Path, Path, list[Path], str, tuple[str, ...]]]


def data_dir_is_a_file(tmp: Path) -> tuple[Path, Path, list[Path], str, tuple[str, ...]]:
    (tmp / "data").write_text("I am a file\n")
    return tmp / "data", tmp / "c.sock", [tmp / "data"], str(tmp / "data"), ()


def data_dir_not_writable(tmp: Path) -> tuple[Path, Path, list[Path], str, tuple[str, ...]]:
    (tmp / "data").mkdir(mode=0o555)
    os.chmod(tmp / "data", 0o555)
    return tmp / "data", tmp / "c.sock", [tmp / "data"], str(tmp / "data"), unprivileged()


def database_read_only(tmp: Path) -> tuple[Path, Path, list[Path], str, tuple[str, ...]]:
    make_tables(tmp / "data", tmp / "c.sock")
    os.chmod(tmp / "data" / DB, 0o444)
    return tmp / "data", tmp / "c.sock", [tmp / "data" / DB], str(tmp / "data" / DB), \
        unprivileged()


def database_is_garbage(tmp: Path) -> tuple[Path, Path, list[Path], str, tuple[str, ...]]:
    (tmp / "data").mkdir(mode=0o700)
    (tmp / "data" / DB).write_bytes(os.urandom(16384))
    return tmp / "data", tmp / "c.sock", [tmp / "data" / DB], str(tmp / "data" / DB), ()


def database_damaged_inside(tmp: Path) -> tuple[Path, Path, list[Path], str, tuple[str, ...]]:
    # A sound header and schema, garbage in the pages behind them: found when the tables are
    # read, after the checks, and still one line.
    make_tables(tmp / "data", tmp / "c.sock", n=30)
    db = tmp / "data" / DB
    with db.open("r+b") as f:
        for page in range(2, db.stat().st_size // 4096):
            f.seek(page * 4096 + 100)
            f.write(os.urandom(600))
    return tmp / "data", tmp / "c.sock", [db], str(db), ()


def control_is_a_file(tmp: Path) -> tuple[Path, Path, list[Path], str, tuple[str, ...]]:
    (tmp / "c.sock").write_text("not a socket\n")
    return tmp / "data", tmp / "c.sock", [tmp / "c.sock", tmp / "data"], str(tmp / "c.sock"), ()


def control_is_a_directory(tmp: Path) -> tuple[Path, Path, list[Path], str, tuple[str, ...]]:
    (tmp / "c.sock").mkdir()
    return tmp / "data", tmp / "c.sock", [tmp / "c.sock", tmp / "data"], str(tmp / "c.sock"), ()


@pytest.mark.skipif(ROOT_NEEDS_SETPRIV, reason="root without util-linux setpriv")
@pytest.mark.parametrize("setup", [
    data_dir_is_a_file, data_dir_not_writable, database_read_only, database_is_garbage,
    database_damaged_inside, control_is_a_file, control_is_a_directory,
], ids=lambda f: f.__name__)
def test_an_unusable_path_is_one_line_and_nothing_is_written(tmp: Path, setup: Setup) -> None:
    data, control, untouched, path, prefix = setup(tmp)
    before = snapshot(*untouched)
    out = serve(data, control, prefix=prefix)
    assert_one_line(out, path)
    assert snapshot(*untouched) == before
    assert not control.exists() or not stat.S_ISSOCK(control.lstat().st_mode)


def test_a_stale_control_socket_is_not_an_error(tmp: Path) -> None:
    # What a kill -9 leaves behind: a socket nobody listens on. It is replaced, not refused.
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(str(tmp / "c.sock"))
    s.close()
    d = start_process(tmp / "data", tmp / "c.sock")
    try:
        assert request(d.control, "status")["listening"]["control"] == str(tmp / "c.sock")
    finally:
        d.terminate()


def test_a_port_in_use_is_one_line_naming_the_ports(tmp: Path) -> None:
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        args = [sys.executable, "-c", LAUNCH, "serve", "--data-dir", str(tmp / "data"),
                "--control", str(tmp / "c.sock"), "--bind", "127.0.0.1", "--tcp-port",
                str(port), "--http-port", "0", "--no-mdns", "--no-bluetooth", "--ai-processes",
                "0", "--no-log-file"]
        out = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=60,
                             check=False, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert_one_line(out, f"tcp_port {port}", "tablebox doctor")
    assert not (tmp / "c.sock").exists()
