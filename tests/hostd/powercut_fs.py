"""A filesystem that forgets everything never synced: the power cut of ``test_powercut``.

Owns one FUSE mount served from memory by its own process (``python -m
tests.hostd.powercut_fs MOUNT --control SOCK --image FILE``), a control socket and an image
file, both outside the mount, and ``Disk``, the tests' handle on that process. The program
under test (the daemon) is another process that makes real system calls on the mount:
``write``, ``pwrite``, ``ftruncate``, ``fsync``/``fdatasync``, ``rename``, ``unlink``,
``mmap`` of SQLite's ``-shm`` file, and the directory ``fsync`` SQLite makes after creating a
journal or WAL file.

The model is the weakest disk POSIX allows, with no cache that writes anything back on its
own. Every file has what processes see now and what is on the disk:

- a file's data reaches the disk only through ``fsync`` or ``fdatasync`` of that file (on
  any descriptor of it); both flush its data and size, nothing less, nothing more;
- a name (create, unlink, rename, mkdir, rmdir) reaches the disk only when its directory is
  ``fsync``-ed; a file's own ``fsync`` does not make its name durable (ext4 happens to, POSIX
  does not promise it), so a file never synced and never named on the disk vanishes, an
  unlinked or renamed-away name whose directory was not synced comes back, and a name synced
  whose file never was comes back as an empty file;
- at a cut (``Disk.cut``), under the filesystem's lock so that no operation is half done: the
  daemon gets SIGKILL, every operation after that fails with EIO (the power is off), what is
  on the disk is written to the image file and the process unmounts and exits. ``Disk.mount``
  then serves that image on a fresh mount, so no page the kernel cached survives either.

Modes, owners and times are kept as last set (they are not what this test is about), and
unsynced writes are all lost, never a torn part of them: SQLite's WAL checksums are what
cover a partly written tail, and that is SQLite's own tested ground. Reads and ``mmap`` go
through the kernel's page cache (no ``direct_io``), which is what lets SQLite map its ``-shm``
file; SQLite never syncs that file, so after a cut it is gone or empty and SQLite rebuilds it
from the WAL, as after any crash. Locks (``fcntl``, ``flock``) are the kernel's own: this
filesystem implements none, which is right on one host. A file unlinked while open is renamed
to ``.fuse_hidden*`` by libfuse until it is closed: directory changes like any other.

Must never: keep across a cut a byte or a name that was not synced; make durable anything the
program did not sync; answer an operation after a cut; touch anything outside its mount, its
control socket and its image; run in the test's own process (its callbacks would then stop
with the test's event loop).
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import errno
import json
import os
import pickle
import shutil
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

PAGE = 4096
ROOT = Path(__file__).resolve().parents[2]
F = TypeVar("F", bound=Callable[..., Any])


class Node:
    """A file or a directory: what processes see, and what is on the disk."""

    def __init__(self, mode: int, uid: int = 0, gid: int = 0) -> None:
        now = time.time_ns()
        self.mode = mode
        self.uid, self.gid = uid, gid
        self.atime = self.mtime = self.ctime = now
        # A file: its data now, the data on the disk (None: never synced), the pages written
        # since the last sync and the shortest length it had since then.
        self.data = bytearray()
        self.synced: bytearray | None = None
        self.dirty: set[int] = set()
        self.low = 0
        # A directory: its names now, and the names on the disk.
        self.entries: dict[str, Node] = {}
        self.synced_entries: dict[str, Node] = {}

    @property
    def is_dir(self) -> bool:
        return stat.S_ISDIR(self.mode)

    def unsynced(self) -> bool:
        if self.is_dir:
            return self.entries != self.synced_entries
        return self.synced is None or bool(self.dirty) or self.low != len(self.data) \
            or len(self.synced) != len(self.data)

    def write(self, offset: int, buf: bytes) -> None:
        end = offset + len(buf)
        if offset > len(self.data):
            self.data.extend(bytes(offset - len(self.data)))
        self.data[offset:end] = buf
        if buf:
            self.dirty.update(range(offset // PAGE, (end - 1) // PAGE + 1))

    def truncate(self, length: int) -> None:
        if length < len(self.data):
            del self.data[length:]
        else:
            self.data.extend(bytes(length - len(self.data)))
        self.low = min(self.low, length)

    def sync(self) -> None:
        """``fsync``: the disk gets this file's data and size as they are now."""
        if self.synced is None:
            self.synced = bytearray(self.data)
        else:
            # Bytes past the shortest length since the last sync were either written (in a
            # dirty page) or zeros; below it only written pages changed.
            del self.synced[self.low:]
            self.synced.extend(bytes(len(self.data) - len(self.synced)))
            for page in self.dirty:
                start = page * PAGE
                self.synced[start:start + PAGE] = self.data[start:start + PAGE]
            del self.synced[len(self.data):]
        self.dirty.clear()
        self.low = len(self.data)

    # -- the image: what is on the disk --------------------------------------------------------
    def durable(self) -> dict[str, Any]:
        if self.is_dir:
            return {"mode": self.mode, "uid": self.uid, "gid": self.gid,
                    "entries": {n: c.durable() for n, c in self.synced_entries.items()}}
        return {"mode": self.mode, "uid": self.uid, "gid": self.gid,
                "data": bytes(self.synced or b"")}

    @classmethod
    def restore(cls, image: dict[str, Any]) -> Node:
        node = cls(image["mode"], image["uid"], image["gid"])
        if "entries" in image:
            node.entries = {n: cls.restore(c) for n, c in image["entries"].items()}
            node.synced_entries = dict(node.entries)
        else:
            node.data = bytearray(image["data"])
            node.synced = bytearray(image["data"])
            node.low = len(node.data)
        return node


def _error(code: int) -> OSError:
    """What an operation raises to fail with ``code`` (mfusepy answers ``-errno``)."""
    return OSError(code, os.strerror(code))


def _locked(method: F) -> F:
    """Run one operation under the lock; after a cut every operation fails with EIO."""

    def run(self: PowerCutFS, *args: Any) -> Any:
        with self._mutex:
            if self.dead:
                raise _error(errno.EIO)
            self.ops += 1
            return method(self, *args)

    run.__name__ = method.__name__
    return run  # type: ignore[return-value]


class PowerCutFS:
    """The operations mfusepy calls (it sets up for libfuse only the ones defined here): a
    tree of ``Node``s, and the cut. mfusepy is imported only in the filesystem's process."""

    use_ns = True  # times in nanoseconds

    def __init__(self, image: dict[str, Any] | None, control: Path, image_path: Path) -> None:
        self.root = Node.restore(image) if image else Node(stat.S_IFDIR | 0o755)
        self.control = control
        self.image_path = image_path
        self._mutex = threading.Lock()
        self.dead = False
        self.handles: dict[int, Node] = {}
        self.next_fh = 1
        self.ops = self.writes = self.fsyncs = self.dirsyncs = 0
        self.main_thread = threading.get_ident()

    # -- lookups -----------------------------------------------------------------------------
    def _find(self, path: str) -> Node:
        node = self.root
        for part in path.strip("/").split("/"):
            if not part:
                continue
            if not node.is_dir or part not in node.entries:
                raise _error(errno.ENOENT)
            node = node.entries[part]
        return node

    def _parent(self, path: str) -> tuple[Node, str]:
        head, _, name = path.rstrip("/").rpartition("/")
        parent = self._find(head or "/")
        if not parent.is_dir:
            raise _error(errno.ENOTDIR)
        return parent, name

    def _node(self, path: str | None, fh: int | None) -> Node:
        if fh is not None and fh in self.handles:
            return self.handles[fh]
        assert path is not None
        return self._find(path)

    def _handle(self, node: Node) -> int:
        fh = self.next_fh
        self.next_fh += 1
        self.handles[fh] = node
        return fh

    # -- mount and control -------------------------------------------------------------------
    def init(self, path: str) -> None:
        threading.Thread(target=self._serve_control, daemon=True).start()

    def _serve_control(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.control.unlink()
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(str(self.control))
        server.listen(4)
        while True:
            conn, _ = server.accept()
            with conn:
                request = json.loads(conn.makefile("rb").readline())
                reply, then = self._command(request)
                conn.sendall(json.dumps(reply).encode() + b"\n")
            if then is not None:
                then()

    def _command(self, request: dict[str, Any]) -> tuple[dict[str, Any], Callable[[], None] | None]:
        if request["op"] == "status":
            with self._mutex:
                return self._stats(), None
        if request["op"] == "cut":
            with self._mutex:
                # The instant of the cut: no operation runs while the daemon dies.
                if request.get("kill"):
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(int(request["kill"]), signal.SIGKILL)
                self.dead = True
                stats = self._stats()
                image = self.root.durable()
            tmp = self.image_path.with_suffix(".tmp")
            tmp.write_bytes(pickle.dumps(image))
            tmp.replace(self.image_path)
            # The main thread serves FUSE: SIGTERM makes libfuse leave its loop and unmount.
            return stats, lambda: signal.pthread_kill(self.main_thread, signal.SIGTERM)
        return {"error": f"unknown op {request['op']!r}"}, None

    def _stats(self) -> dict[str, Any]:
        unsynced: list[str] = []

        def walk(node: Node, path: str) -> None:
            if node.unsynced():
                unsynced.append(path or "/")
            if node.is_dir:
                for name, child in node.entries.items():
                    walk(child, f"{path}/{name}")

        walk(self.root, "")
        return {"ops": self.ops, "writes": self.writes, "fsyncs": self.fsyncs,
                "dirsyncs": self.dirsyncs, "unsynced": sorted(unsynced)}

    # -- attributes --------------------------------------------------------------------------
    @_locked
    def getattr(self, path: str, fh: int | None = None) -> dict[str, Any]:
        node = self._node(path, fh)
        size = 4096 if node.is_dir else len(node.data)
        return {"st_mode": node.mode, "st_nlink": 2 if node.is_dir else 1, "st_size": size,
                "st_uid": node.uid, "st_gid": node.gid, "st_blocks": (size + 511) // 512,
                "st_atime": node.atime, "st_mtime": node.mtime, "st_ctime": node.ctime}

    @_locked
    def chmod(self, path: str, mode: int) -> int:
        node = self._find(path)
        node.mode = stat.S_IFMT(node.mode) | stat.S_IMODE(mode)
        return 0

    @_locked
    def chown(self, path: str, uid: int, gid: int) -> int:
        node = self._find(path)
        if uid != -1:
            node.uid = uid
        if gid != -1:
            node.gid = gid
        return 0

    @_locked
    def utimens(self, path: str, times: tuple[int, int] | None = None) -> int:
        node = self._find(path)
        node.atime, node.mtime = times or (time.time_ns(), time.time_ns())
        return 0

    @_locked
    def access(self, path: str, amode: int) -> int:
        self._find(path)
        return 0

    @_locked
    def statfs(self, path: str) -> dict[str, int]:
        return {"f_bsize": PAGE, "f_frsize": PAGE, "f_blocks": 1 << 20, "f_bfree": 1 << 19,
                "f_bavail": 1 << 19, "f_files": 1 << 16, "f_ffree": 1 << 15,
                "f_favail": 1 << 15, "f_namemax": 255}

    # -- names: each reaches the disk with its directory's fsync --------------------------------
    @_locked
    def mkdir(self, path: str, mode: int) -> int:
        parent, name = self._parent(path)
        if name in parent.entries:
            raise _error(errno.EEXIST)
        parent.entries[name] = Node(stat.S_IFDIR | stat.S_IMODE(mode), *self._owner())
        return 0

    @_locked
    def rmdir(self, path: str) -> int:
        parent, name = self._parent(path)
        node = self._find(path)
        if not node.is_dir:
            raise _error(errno.ENOTDIR)
        if node.entries:
            raise _error(errno.ENOTEMPTY)
        del parent.entries[name]
        return 0

    @_locked
    def create(self, path: str, mode: int, flags: int = 0) -> int:
        parent, name = self._parent(path)
        node = parent.entries.get(name)
        if node is None:
            node = Node(stat.S_IFREG | stat.S_IMODE(mode), *self._owner())
            parent.entries[name] = node
        return self._handle(node)

    @_locked
    def unlink(self, path: str) -> int:
        parent, name = self._parent(path)
        self._find(path)
        del parent.entries[name]
        return 0

    @_locked
    def rename(self, old: str, new: str) -> int:
        src, old_name = self._parent(old)
        dst, new_name = self._parent(new)
        node = self._find(old)
        target = dst.entries.get(new_name)
        if target is not None and target.is_dir and target.entries:
            raise _error(errno.ENOTEMPTY)
        del src.entries[old_name]
        dst.entries[new_name] = node
        return 0

    @_locked
    def link(self, target: str, source: str) -> int:
        raise _error(errno.EPERM)

    @_locked
    def opendir(self, path: str) -> int:
        return self._handle(self._find(path))

    @_locked
    def readdir(self, path: str, fh: int) -> list[str]:
        return [".", "..", *self._node(path, fh).entries]

    @_locked
    def releasedir(self, path: str, fh: int) -> int:
        self.handles.pop(fh, None)
        return 0

    @_locked
    def fsyncdir(self, path: str, datasync: int, fh: int) -> int:
        node = self._node(path, fh)
        node.synced_entries = dict(node.entries)
        self.dirsyncs += 1
        return 0

    # -- data: each file's reaches the disk with its own fsync -------------------------------
    @_locked
    def open(self, path: str, flags: int) -> int:
        return self._handle(self._find(path))

    @_locked
    def read(self, path: str, size: int, offset: int, fh: int) -> bytes:
        node = self._node(path, fh)
        return bytes(node.data[offset:offset + size])

    @_locked
    def write(self, path: str, data: bytes, offset: int, fh: int) -> int:
        node = self._node(path, fh)
        node.write(offset, data)
        node.mtime = time.time_ns()
        self.writes += 1
        return len(data)

    @_locked
    def truncate(self, path: str, length: int, fh: int | None = None) -> int:
        node = self._node(path, fh)
        node.truncate(length)
        node.mtime = time.time_ns()
        return 0

    @_locked
    def fallocate(self, path: str, mode: int, offset: int, size: int, fh: int) -> int:
        node = self._node(path, fh)
        if mode == 0 and offset + size > len(node.data):
            node.truncate(offset + size)
        elif mode != 0:
            raise _error(errno.EOPNOTSUPP)
        return 0

    @_locked
    def fsync(self, path: str, datasync: int, fh: int) -> int:
        self._node(path, fh).sync()
        self.fsyncs += 1
        return 0

    @_locked
    def flush(self, path: str, fh: int) -> int:
        return 0  # close(2) is not a sync

    @_locked
    def release(self, path: str, fh: int) -> int:
        self.handles.pop(fh, None)
        return 0

    def _owner(self) -> tuple[int, int]:
        from mfusepy import fuse_get_context

        uid, gid, _pid = fuse_get_context()
        return uid, gid


def serve(mount: Path, control: Path, image_path: Path) -> None:
    """Serve ``image_path`` (if it exists, else an empty disk) on ``mount`` until a cut or a
    SIGTERM. One thread serves FUSE, so operations run one at a time, in order."""
    import mfusepy

    image = pickle.loads(image_path.read_bytes()) if image_path.exists() else None
    fs = PowerCutFS(image, control, image_path)
    mfusepy.FUSE(fs, str(mount), foreground=True, nothreads=True, fsname="powercut",
                 subtype="powercut")


# -- the tests' side -----------------------------------------------------------------------------
@dataclass
class Disk:
    """A ``powercut_fs`` process serving ``mount``; ``cut`` it and ``mount`` it again."""

    root: Path  # a short directory of the test's: the mount point, control socket, image, log

    @property
    def mount_point(self) -> Path:
        return self.root / "disk"

    @property
    def control(self) -> Path:
        return self.root / "fs.sock"

    @property
    def image(self) -> Path:
        return self.root / "image.pickle"

    def __post_init__(self) -> None:
        self.proc: subprocess.Popen[bytes] | None = None
        self.mounts = 0

    def mount(self, timeout: float = 20.0) -> None:
        """Serve what is on the disk (nothing, the first time) and wait until it is mounted."""
        assert self.proc is None or self.proc.poll() is not None, "still mounted"
        self.mount_point.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileNotFoundError):
            self.control.unlink()
        log = self.root / f"fs-{self.mounts}.log"
        self.mounts += 1
        with log.open("wb") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "tests.hostd.powercut_fs", str(self.mount_point),
                 "--control", str(self.control), "--image", str(self.image)],
                cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=out,
                stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise AssertionError(f"the filesystem exited with {self.proc.returncode}:\n"
                                     + log.read_text(errors="replace"))
            with contextlib.suppress(OSError, ValueError):
                self.ask("status")
                if os.path.ismount(self.mount_point):
                    return
            if time.monotonic() > deadline:
                self.proc.kill()
                raise AssertionError("the filesystem did not mount:\n"
                                     + log.read_text(errors="replace"))
            time.sleep(0.02)

    def ask(self, op: str, **args: Any) -> dict[str, Any]:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(10)
            s.connect(str(self.control))
            s.sendall(json.dumps({"op": op, **args}).encode() + b"\n")
            reply: dict[str, Any] = json.loads(s.makefile("rb").readline())
        return reply

    def cut(self, kill: int | None = None, timeout: float = 20.0) -> dict[str, Any]:
        """The power goes off: ``kill`` (a pid) dies at that instant, nothing more is written,
        and what was never synced is gone. The filesystem unmounts; ``mount`` brings it back."""
        assert self.proc is not None
        stats = self.ask("cut", kill=kill)
        self.proc.wait(timeout)
        self._unmount()
        return stats

    def close(self) -> None:
        """Unmount for good (the end of a test, passed or not) and remove everything."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self._unmount()
        shutil.rmtree(self.root, ignore_errors=True)

    def _unmount(self) -> None:
        """Detach the mount if it is still there (a filesystem process that was killed)."""
        if not os.path.ismount(self.mount_point):
            with contextlib.suppress(OSError):
                os.stat(self.mount_point)
                return
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.umount2(str(self.mount_point).encode(), 2) != 0:  # MNT_DETACH
            subprocess.run(["fusermount3", "-u", "-z", str(self.mount_point)], check=False,
                           capture_output=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mount", type=Path)
    parser.add_argument("--control", type=Path, required=True)
    parser.add_argument("--image", type=Path, required=True)
    args = parser.parse_args(argv)
    serve(args.mount, args.control, args.image)


if __name__ == "__main__":
    main()
