"""The places ``tablebox serve`` claims before it starts: the data directory and the control path.

Owns three things, done in this order on every start by ``claim``:

1. checks that write nothing: the data directory is a directory we may write (or can be
   made), the control path is free (nothing there, or a stale socket of a daemon that is gone);
2. the lock: ``fcntl.flock`` on ``tablebox.lock`` inside the data directory, taken before the
   database is read and held for the daemon's lifetime, so two daemons never share one game
   store. The lock file names its holder (pid, control socket) for the second one's error.
   Then the database is checked, still without a write: a readable, writable SQLite file (its
   header, then a read-only, immutable look at its schema). Each failure in 1 and 2 is a
   ``StartError``: ONE line naming the path and the fix, raised before anything it is about
   has been touched;
3. privacy: the directory is 0700 and every file the daemon keeps in it (the database and its
   ``-wal``/``-shm``, the lock, the logs) 0600 whatever the umask. The seeds are in there.

``loose_modes`` and ``lock_holder`` only look, for ``tablebox doctor``.

Never opens the database for writing, never deletes or rewrites a file it did not create,
never logs or prints (the caller does, once logging is set up), and imports only the standard
library so that the CLI can run it before anything else.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import socket
import sqlite3
import stat
import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hostd.config import Config

DIR_MODE = 0o700
FILE_MODE = 0o600
LOCK_NAME = "tablebox.lock"
# The names the daemon keeps in the data directory: the database (and SQLite's side files),
# the lock, the log file and its rotations. Nothing else there is ours to chmod.
OWNED_PREFIXES = ("tablebox.sqlite3", "tablebox.lock", "tablebox.log")
SQLITE_MAGIC = b"SQLite format 3\x00"
SUN_PATH_MAX = 107  # sockaddr_un.sun_path is 108 bytes with the NUL
DOCS = "docs/operations.md, When the daemon will not start"


class StartError(Exception):
    """The daemon cannot start with this directory or path. ``str(e)`` is one line for an
    operator: what is wrong, which path, and what to do."""


@dataclass
class Claim:
    """The data directory, held: the open, locked lock file. ``close`` releases it (the kernel
    does too when the process ends, however it ends: a stale lock file is never a problem)."""

    data_dir: Path
    lock_path: Path
    fd: int
    tightened: list[str] = field(default_factory=list)  # paths whose mode was made private

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def __enter__(self) -> Claim:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def claim(config: Config) -> Claim:
    """Check ``config``'s data directory, control path and database, lock the directory and
    make it private; a ``StartError`` (one line) on the first problem."""
    data_dir: Path = config.data_dir
    _check_dir(data_dir)
    check_control(config.control)
    _make_dir(data_dir)
    lock_path = data_dir / LOCK_NAME
    fd = _lock(lock_path)  # before the database is read: another daemon may be writing it
    held = Claim(data_dir, lock_path, fd)
    try:
        check_database(config.database)
        _record_owner(fd, config.control)
        held.tightened = _make_private(data_dir, config.database)
    except BaseException:
        held.close()
        raise
    return held


# -- checks: they write nothing ----------------------------------------------------------------
def _mode(st: os.stat_result) -> str:
    return f"{stat.S_IMODE(st.st_mode):04o}"


def _kind(st: os.stat_result) -> str:
    m = st.st_mode
    return ("a directory" if stat.S_ISDIR(m) else "a regular file" if stat.S_ISREG(m)
            else "a symlink" if stat.S_ISLNK(m) else "a socket" if stat.S_ISSOCK(m)
            else "a FIFO" if stat.S_ISFIFO(m)
            else "a device" if stat.S_ISCHR(m) or stat.S_ISBLK(m) else "not a file")


def _nearest_existing(path: Path) -> Path:
    while not os.path.lexists(path) and path != path.parent:
        path = path.parent
    return path


def _who() -> str:
    # What to put after chown: the user this process runs as (the service's user under systemd).
    try:
        import pwd

        return pwd.getpwuid(os.geteuid()).pw_name
    except (ImportError, KeyError):
        return str(os.geteuid())


def _read_only_fs(path: Path) -> bool:
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def _check_dir(data_dir: Path) -> None:
    try:
        st = data_dir.stat()
    except FileNotFoundError:
        # Made below: the nearest existing ancestor must be a directory we may write in.
        base = _nearest_existing(data_dir.parent)
        if not base.is_dir():
            raise StartError(f"cannot create data directory {data_dir}: {base} is not a "
                             f"directory; fix: set data_dir to a path under a directory") from None
        if not os.access(base, os.W_OK | os.X_OK):
            raise StartError(f"cannot create data directory {data_dir}: {base} is not writable "
                             f"by {_who()}; fix: sudo install -d -o {_who()} -m 0700 {data_dir}, "
                             f"or set data_dir to a directory you own") from None
        return
    except OSError as e:
        raise StartError(f"cannot use data directory {data_dir}: {e.strerror}; fix: check "
                         f"the path and its parents") from None
    if not stat.S_ISDIR(st.st_mode):
        raise StartError(f"data directory {data_dir} is {_kind(st)}, not a directory; fix: "
                         f"move it aside (mv {data_dir} {data_dir}.old) or set data_dir to "
                         f"another path")
    if _read_only_fs(data_dir):
        raise StartError(f"data directory {data_dir} is on a read-only file system; fix: "
                         f"remount it read-write (an SD card goes read-only after errors: see "
                         f"dmesg), or set data_dir to a writable disk")
    if not os.access(data_dir, os.W_OK | os.X_OK):
        raise StartError(f"data directory {data_dir} is not writable by {_who()} (owner uid "
                         f"{st.st_uid}, mode {_mode(st)}); fix: sudo chown -R {_who()} "
                         f"{data_dir} && sudo chmod 700 {data_dir}")


def check_control(path: Path) -> None:
    """The control path is free: nothing there, or a stale socket (``serve_control`` removes
    it). Connects to a socket there to tell a live daemon from a dead one; writes nothing."""
    if len(os.fsencode(path)) > SUN_PATH_MAX:
        raise StartError(f"control path {path} is longer than {SUN_PATH_MAX} bytes (a Unix "
                         f"socket limit); fix: set control to a shorter path")
    try:
        st = path.lstat()
    except FileNotFoundError:
        base = _nearest_existing(path.parent)
        if not base.is_dir() or not os.access(base, os.W_OK | os.X_OK):
            raise StartError(f"cannot create control socket {path}: {base} is not a writable "
                             f"directory; fix: set control to a path in a directory "
                             f"{_who()} may write") from None
        return
    except OSError as e:
        raise StartError(f"cannot use control path {path}: {e.strerror}; fix: set control "
                         f"to another path") from None
    if not stat.S_ISSOCK(st.st_mode):
        raise StartError(f"control path {path} exists and is {_kind(st)}, not a socket; "
                         f"fix: remove it if it is not needed (rm {path}) or set control to "
                         f"another path")
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.settimeout(1.0)
        probe.connect(str(path))
        pid = _peer_pid(probe)
    except PermissionError:
        raise StartError(f"control socket {path} belongs to another user (owner uid "
                         f"{st.st_uid}) and may be in use; fix: stop the daemon that owns it "
                         f"or set control to another path") from None
    except OSError:
        return  # nobody listens: a stale socket from a daemon that is gone
    finally:
        probe.close()
    who = f" (pid {pid})" if pid else ""
    raise StartError(f"another tablebox daemon{who} is listening on control socket {path}; "
                     f"fix: stop it first (tablebox drain, then sudo systemctl stop tablebox"
                     f"{f' or kill {pid}' if pid else ''}), or give this one another --control")


def _peer_pid(s: socket.socket) -> int | None:
    with contextlib.suppress(OSError, AttributeError):
        pid, _uid, _gid = struct.unpack("3i", s.getsockopt(
            socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i")))
        return int(pid) or None
    return None


def check_database(db: Path) -> None:
    """The database (if there is one yet) is a SQLite file this user may read and write.

    Reads only its first bytes and then its schema through an ``immutable`` read-only
    connection (which takes no lock and creates no ``-shm``), so a damaged file stays exactly
    as it was for the operator's recovery. Deeper damage shows when the store reads the tables.
    """
    try:
        st = db.lstat()
    except FileNotFoundError:
        return
    if not stat.S_ISREG(st.st_mode):
        raise StartError(f"database {db} is {_kind(st)}, not a regular file; fix: move it "
                         f"aside (mv {db} {db}.old) and start again")
    for path in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
        if path.exists() and not os.access(path, os.R_OK | os.W_OK):
            pst = path.stat()
            raise StartError(f"database file {path} is read-only for {_who()} (owner uid "
                             f"{pst.st_uid}, mode {_mode(pst)}); fix: sudo chown {_who()} "
                             f"{db}* && sudo chmod 600 {db}*, or remount the disk read-write")
    if st.st_size == 0:
        return  # an empty file is an empty database to SQLite
    bad = (f"fix: stop, move it aside (mv {db} {db}.bad) and restore a backup, or recover "
           f"what SQLite can ({DOCS})")
    with db.open("rb") as f:
        head = f.read(len(SQLITE_MAGIC))
    if head != SQLITE_MAGIC:
        raise StartError(f"database {db} is not a SQLite database (its first bytes are not "
                         f"the SQLite header); {bad}")
    uri = f"{db.absolute().as_uri()}?mode=ro&immutable=1"
    try:
        con = sqlite3.connect(uri, uri=True)
        try:
            con.execute("SELECT count(*) FROM sqlite_master").fetchone()
        finally:
            con.close()
    except sqlite3.DatabaseError as e:
        raise StartError(f"database {db} is damaged ({e}); {bad}") from None


def database_failure(db: Path, error: BaseException) -> str:
    """The one line for a database that the store refused after the checks passed (damage
    deeper in the file, a disk that went read-only)."""
    text = str(error)
    where = "" if str(db) in text else f"database {db}: "
    return (f"{where}{text}; fix: stop, keep a copy of {db.parent}, run tablebox doctor, then "
            f"restore a backup or recover what SQLite can ({DOCS})")


# -- the lock ----------------------------------------------------------------------------------
def _make_dir(data_dir: Path) -> None:
    try:
        data_dir.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
    except OSError as e:
        raise StartError(f"cannot create data directory {data_dir}: {e.strerror}; fix: sudo "
                         f"install -d -o {_who()} -m 0700 {data_dir}") from None


def _lock(lock_path: Path) -> int:
    try:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC,
                     FILE_MODE)
    except OSError as e:
        raise StartError(f"cannot open lock file {lock_path}: {e.strerror}; fix: sudo chown "
                         f"{_who()} {lock_path} && sudo chmod 600 {lock_path}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as e:
        os.close(fd)
        if e.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            raise StartError(f"cannot lock {lock_path}: {e.strerror}; fix: keep data_dir on "
                             f"a local disk") from None
        raise StartError(_in_use(lock_path)) from None
    return fd


def _in_use(lock_path: Path) -> str:
    pid, control = lock_holder(lock_path.parent)
    who = ", ".join(x for x in (f"pid {pid}" if pid else "",
                                f"control socket {control}" if control else "") if x)
    stop = f"sudo systemctl stop tablebox or kill {pid}" if pid else "sudo systemctl stop tablebox"
    return (f"data directory {lock_path.parent} is in use by another tablebox daemon"
            f"{f' ({who})' if who else ''}; fix: stop that daemon first (tablebox drain, then "
            f"{stop}), or give this one its own --data-dir")


def lock_holder(data_dir: Path) -> tuple[int | None, str | None]:
    """(pid, control socket) of the daemon holding ``data_dir``, or (None, None) when none
    does. Only reads (doctor uses it): a shared lock probe, released at once."""
    path = data_dir / LOCK_NAME
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None, None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            pass  # held
        else:
            return None, None  # nobody holds it: what it says is stale
        try:
            owner = json.loads(os.pread(fd, 4096, 0))
            return int(owner["pid"]), (str(owner["control"]) if owner.get("control") else None)
        except (ValueError, KeyError, TypeError):
            # Locked but not yet written (the other daemon is between its two steps).
            return _pid_from_proc_locks(os.fstat(fd).st_ino), None
    finally:
        os.close(fd)


def _pid_from_proc_locks(inode: int) -> int | None:
    # Lines look like "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF".
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in Path("/proc/locks").read_text().splitlines():
            fields = line.split()
            if fields[1] == "FLOCK" and int(fields[5].rsplit(":", 1)[1]) == inode:
                return int(fields[4])
    return None


def _record_owner(fd: int, control: Path) -> None:
    data = json.dumps({"pid": os.getpid(), "control": str(control)}).encode() + b"\n"
    os.ftruncate(fd, 0)
    os.pwrite(fd, data, 0)


# -- privacy -----------------------------------------------------------------------------------
def _owned(data_dir: Path) -> list[Path]:
    """The daemon's own regular files in ``data_dir`` (symlinks are skipped: chmod would
    follow them out of the directory)."""
    found = []
    with contextlib.suppress(OSError), os.scandir(data_dir) as it:
        for entry in it:
            if entry.name.startswith(OWNED_PREFIXES) and entry.is_file(follow_symlinks=False):
                found.append(Path(entry.path))
    return sorted(found)


def loose_modes(data_dir: Path) -> list[tuple[Path, int]]:
    """(path, mode) of the data directory and of each of the daemon's files in it that other
    users could read or write. Only looks."""
    loose = []
    for path in [data_dir, *_owned(data_dir)]:
        with contextlib.suppress(OSError):
            mode = stat.S_IMODE(path.lstat().st_mode)
            if mode & 0o077:
                loose.append((path, mode))
    return loose


def _make_private(data_dir: Path, db: Path) -> list[str]:
    # The database is created here, empty and 0600, rather than by SQLite under the umask:
    # SQLite gives its -wal and -shm files the database's own mode.
    with contextlib.suppress(FileExistsError):
        os.close(os.open(db, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, FILE_MODE))
    tightened = []
    for path, mode in loose_modes(data_dir):
        want = DIR_MODE if path == data_dir else FILE_MODE
        try:
            os.chmod(path, mode & want)
        except OSError as e:
            raise StartError(f"{path} is readable by other users (mode {mode:04o}) and cannot "
                             f"be made private: {e.strerror}; fix: sudo chown {_who()} {path} "
                             f"&& sudo chmod {want:o} {path}") from None
        tightened.append(str(path))
    return tightened
