"""The management door: a Unix socket (mode 0660) speaking one JSON object per line.

Owns both ends. The daemon side (``serve_control``) answers requests such as
``{"op": "tables.new", "game": "euchre"}`` with ``{"ok": true, "result": ...}`` or
``{"ok": false, "code": "...", "error": "one line"}``; every change goes through the table's
runner like any other. A request may carry an integer ``"id"``, echoed as ``"re"`` in its
answer, refusals included. A line that is not a request (not JSON, over ``MAX_REQUEST``, or
nested deeper than the protocol's ``nesting.MAX_DEPTH``) is answered ``bad_request`` and the
connection carries on. The client side (``request``) is plain blocking sockets for the CLI.

File permissions are the only access control, so there is no remote admin port, and
nothing secret is ever answered: no seat token (only hashes exist), and no seed or future
cards (exports of unfinished games leave them out). The one exception is deliberate: the
export of a damaged table holds the hand in play, a game that can no longer go on, because
the step that broke it is usually there (``hostd.tables.damage``).
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import stat
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import msgspec
import trio

from engine.codec import to_data
from engine.errors import EngineError, OptionError
from hostd.datadir import check_control
from hostd.logs import get_logger
from hostd.protocol import codes, nesting
from hostd.protocol.framing import NDJSONSplitter
from hostd.store import StorageError
from hostd.tables.core import Reject, TableMeta
from hostd.tables.damage import DamagedTable, replay
from hostd.tables.hub import Hub
from hostd.tables.runner import TableRunner
from hostd.transports.admission import CONTROL_SLOTS, Admission
from hostd.update.version import version

log = get_logger(__name__)

MAX_REQUEST = 64 * 1024
CONTROL_IDLE = 30.0  # seconds a control client may wait between requests before it is closed


class ControlError(Exception):
    """The daemon refused a request: ``code`` is stable, ``str(e)`` is one line for a person."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class DaemonUnavailable(ControlError):
    """Nothing answers on the control socket."""


# -- the daemon side ---------------------------------------------------------------------------
def _builtins(obj: Any) -> Any:
    return msgspec.to_builtins(obj)


class Control:
    """The operations, each a coroutine taking the request's fields."""

    def __init__(self, hub: Hub, admission: Admission | None = None) -> None:
        self.hub = hub
        self.admission = admission
        self.ops: dict[str, Callable[..., Awaitable[Any]]] = {
            "status": self.status,
            "tables.list": self.tables_list,
            "tables.new": self.tables_new,
            "tables.show": self.tables_show,
            "tables.close": self.tables_close,
            "seats.list": self.seats_list,
            "seats.kick": self.seats_kick,
            "seats.ai": self.seats_ai,
            "export": self.export,
            "drain": self.drain,
            "hotspot.status": self.hotspot_status,
            "hotspot.set": self.hotspot_set,
        }

    async def handle(self, request: Any) -> dict[str, Any]:
        if not isinstance(request, dict) or not isinstance(request.get("op"), str):
            return _error("bad_request", 'a request is a JSON object with an "op"')
        args = {k: v for k, v in request.items() if k not in ("op", "id")}
        op = self.ops.get(request["op"])
        if op is None:
            return _error("unknown_op", f"unknown op {request['op']!r}; ops: "
                          + ", ".join(self.ops))
        try:
            return {"ok": True, "result": await op(**args)}
        except TypeError as e:
            return _error("bad_request", f"{request['op']}: {e}")
        except Reject as r:
            return _error(r.code, _describe(r))
        except ControlError as e:
            return _error(e.code, str(e))
        except OptionError as e:
            return _error("bad_option", str(e))
        except StorageError as e:
            return _error("storage_failed", f"the database refused it: {e}")
        except EngineError as e:
            return _error("bad_request", str(e))

    async def status(self) -> dict[str, Any]:
        status = self.hub.status()
        # The updater checks that a restart brought this release up, and that it stayed.
        status["version"] = version()
        status["pid"] = os.getpid()
        status["update"] = getattr(self.hub, "update_check", None)
        if self.admission is not None:
            status["connection_limits"] = self.admission.report()
        return status

    async def hotspot_status(self) -> dict[str, Any]:
        hotspot = self.hub.hotspot
        if hotspot is None and self.hub.config.hotspot != "off":
            # The control socket opens before the hotspot task (which needs the HTTP port).
            return {"state": "starting", "mode": self.hub.config.hotspot, "fault": False}
        if hotspot is None:
            return {"state": "off", "mode": "off", "fault": False, "reason": 'hotspot = "off" in the config '
                    "(set it to \"on\" or \"auto\" and restart, or run tablebox hotspot on)"}
        status: dict[str, Any] = hotspot.status()
        return status

    async def hotspot_set(self, mode: str) -> dict[str, Any]:
        if mode not in ("on", "off"):
            raise ControlError("bad_request", "hotspot.set: mode must be on or off")
        hotspot = self.hub.hotspot
        if hotspot is None and self.hub.config.hotspot != "off":
            raise ControlError("hotspot_starting", "the hotspot task is starting: try again in "
                               "a second")
        if hotspot is None:
            if mode == "off":
                return await self.hotspot_status()
            raise ControlError("hotspot_unavailable", 'the hotspot task is not running: set '
                               'hotspot = "on" or "auto" in the config and restart the daemon')
        status: dict[str, Any] = await hotspot.set_mode(mode)
        return status

    async def tables_list(self) -> list[Any]:
        # Damaged tables are listed too (status "damaged"), in id order with the others: the
        # operator must see them even though players do not.
        found = [_builtins(t) for t in self.hub.list_tables()] + self.hub.damaged_tables()
        return sorted(found, key=lambda t: (len(t["id"]), t["id"]))

    async def tables_new(self, game: str, players: int | None = None,
                         options: dict[str, Any] | None = None, ai: str | None = None,
                         name: str = "", turn_timer: float | None = None,
                         seed: int | None = None) -> Any:
        levels = [x for x in (ai or "").split(",") if x.strip()]
        runner = await self.hub.create_table(game, players=players, options=options,
                                             levels=levels, name=name, turn_timer=turn_timer,
                                             seed=seed)
        return _builtins(runner.core.summary())

    async def tables_show(self, table: str) -> Any:
        damaged = self.hub.find_damaged(str(table))
        if damaged is not None:
            return damaged.summary()  # no state to show: replay did not get there
        runner = self.hub.find(str(table))
        core = runner.core
        out = _builtins(core.summary())
        out.update({
            "version": core.version,
            "to_act": list(core.to_act()),
            "turn_timer": core.meta.turn_timer,
            "options": core.match.options,
            "game_number": core.game_no,
            "steps": len(core.match.steps),
            "watchers": len(core.watchers),
            "view": to_data(core.match.view(None)),
            "outcome": to_data(o) if (o := core.match.outcome()) is not None else None,
        })
        return out

    async def tables_close(self, table: str) -> Any:
        damaged = self.hub.find_damaged(str(table))
        if damaged is not None:
            return await self._close_damaged(damaged)
        runner = self.hub.find(str(table))
        await runner.call(lambda: runner.admin(runner.core.close()))
        runner.stop()
        log.info("table_closed", table=runner.id)
        return _builtins(runner.core.summary(seats=False))

    async def seats_list(self, table: str) -> list[Any]:
        return [_builtins(s) for s in self.hub.find(str(table)).core.seat_summaries()]

    async def seats_kick(self, table: str, seat: int) -> list[Any]:
        runner = self.hub.find(str(table))
        await runner.call(lambda: runner.admin(runner.core.kick(int(seat))))
        return [_builtins(s) for s in runner.core.seat_summaries()]

    async def seats_ai(self, table: str, seat: int, level: str) -> list[Any]:
        from engine import ai as engine_ai

        runner = self.hub.find(str(table))
        engine_ai.player(runner.core.meta.game, str(level))
        await runner.call(lambda: runner.admin(runner.core.set_level(int(seat), str(level))))
        return [_builtins(s) for s in runner.core.seat_summaries()]

    async def _close_damaged(self, damaged: DamagedTable) -> Any:
        """Stop listing a damaged table: one ``status`` event, like any close. Its rows stay
        (``export`` still rebuilds it); a later start no longer loads it."""
        await self.hub.store.append(int(damaged.id), [("status", {"status": "closed"})])
        self.hub.forget_damaged(damaged)
        log.info("table_closed", table=damaged.id, damaged=True)
        return {**damaged.summary(), "status": "closed"}

    async def export(self, table: str, game: int | None = None) -> Any:
        damaged = self.hub.find_damaged(str(table))
        if damaged is not None:
            return damaged.record(game=game)
        try:
            runner: TableRunner | None = self.hub.find(str(table))
        except Reject:
            runner = None
        if runner is not None:
            return runner.core.record(game=game)
        # A closed table is no longer in memory: rebuild it from the store.
        if not str(table).isdigit():
            raise Reject(codes.UNKNOWN_TABLE)
        logs = await self.hub.store.load(table_id=int(table))
        if not logs:
            raise Reject(codes.UNKNOWN_TABLE)
        row = logs[0].row
        meta = TableMeta(str(row.id), row.code, row.name, row.game, row.players, row.options,
                         row.seed, row.turn_timer)
        # Closed, and perhaps damaged too: either way its record is exported, never an error.
        return replay(meta, logs[0].events).record(game=game)

    async def drain(self, wait: bool = True, within: float | None = None) -> Any:
        report = await self.hub.drain(wait=bool(wait), timeout=within)
        return report.as_dict()


def _describe(r: Reject) -> str:
    text = r.code.replace("_", " ")
    if r.args_:
        text += " (" + ", ".join(f"{k} {v}" for k, v in r.args_.items()) + ")"
    return text


def _error(code: str, message: str) -> dict[str, Any]:
    return {"ok": False, "code": code, "error": message}


_BUSY = (json.dumps({"ok": False, "code": "busy",
                    "error": f"the daemon is already serving {CONTROL_SLOTS} control clients; "
                             "try again"}).encode() + b"\n")


def _prepare(path: Path) -> None:
    """Refuse to start over a live daemon or a file that is not a socket (a one-line
    ``StartError``, the same check ``tablebox serve`` made before opening anything); make the
    directory; remove a stale socket."""
    check_control(path)  # again: another daemon may have started since
    path.parent.mkdir(mode=0o750, parents=True, exist_ok=True)
    with contextlib.suppress(FileNotFoundError):
        if stat.S_ISSOCK(path.lstat().st_mode):
            path.unlink()  # stale: check_control found nobody listening


async def serve_control(path: Path, hub: Hub, *, admission: Admission | None = None,
                        task_status: trio.TaskStatus[Path] = trio.TASK_STATUS_IGNORED) -> None:
    """Listen on the control socket until cancelled, then remove it.

    Its clients are outside the players' connection budget (``admission`` keeps descriptors
    back for them), so ``tablebox status`` answers however many players are connected; at
    most ``CONTROL_SLOTS`` are served at once, and a client silent for ``CONTROL_IDLE``
    seconds between requests is closed.
    """
    await trio.to_thread.run_sync(_prepare, path)
    sock = trio.socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old = os.umask(0o117)  # created 0660: never a moment when others could connect
    try:
        await sock.bind(str(path))
    finally:
        os.umask(old)
    os.chmod(path, 0o660)
    sock.listen(16)
    inode = path.stat().st_ino
    control = Control(hub, admission)
    log.info("control_listening", path=str(path))

    async def handler(stream: trio.SocketStream) -> None:
        try:
            with admission.control_client() if admission is not None \
                    else contextlib.nullcontext(True) as may:
                if may:
                    await _serve_client(stream, control)
                else:
                    with trio.move_on_after(1.0):
                        await stream.send_all(_BUSY)
        except Exception:
            log.exception("control_handler_failed")
        finally:
            with contextlib.suppress(Exception):
                await stream.aclose()

    try:
        async with trio.open_nursery() as nursery:
            await nursery.start(trio.serve_listeners, handler, [trio.SocketListener(sock)])
            task_status.started(path)
    finally:
        with contextlib.suppress(OSError):
            if path.stat().st_ino == inode:
                path.unlink()


async def _serve_client(stream: trio.SocketStream, control: Control) -> None:
    splitter = NDJSONSplitter(MAX_REQUEST)
    while True:
        data = b""
        with trio.move_on_after(CONTROL_IDLE):
            data = await stream.receive_some(65536)
        if not data:
            return
        for line in splitter.feed(data):
            if isinstance(line, bytes):
                response = await _answer(control, line)
            else:
                response = _error("bad_request", line.detail)
            await stream.send_all(json.dumps(response, ensure_ascii=False).encode() + b"\n")


async def _answer(control: Control, line: bytes) -> dict[str, Any]:
    """The response to one request line, with ``re`` when it had an id; never raises for
    what the line holds."""
    if nesting.exceeds(line):
        # json.loads would recurse into it and raise RecursionError: refuse it first.
        response = _error("bad_request", f"a request nests at most {nesting.MAX_DEPTH} levels")
        request_id = nesting.top_level_id(line)
    else:
        try:
            request = json.loads(line)
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
            return _error("bad_request", "a request is one JSON object per line")
        request_id = nesting.readable_id(request.get("id")) if isinstance(request, dict) \
            else None
        response = await control.handle(request)
    if request_id is not None:
        response["re"] = request_id
    return response


# -- the client side (blocking, for the CLI) ------------------------------------------------------
def request(path: Path, op: str, *, timeout: float | None = 30.0, **args: Any) -> Any:
    """Ask the daemon at ``path``; the result, or ControlError / DaemonUnavailable."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.settimeout(5.0)
        try:
            s.connect(str(path))
        except (FileNotFoundError, ConnectionRefusedError):
            raise DaemonUnavailable(
                "daemon_unavailable",
                f"the tablebox daemon is not running (no control socket at {path})") from None
        except PermissionError:
            raise DaemonUnavailable(
                "permission_denied",
                f"permission denied on {path} (join the tablebox group)") from None
        except OSError as e:
            raise DaemonUnavailable("daemon_unavailable",
                                    f"cannot reach the daemon at {path}: {e.strerror}") from None
        s.settimeout(timeout)
        s.sendall(json.dumps({"op": op, **args}).encode() + b"\n")
        buf = bytearray()
        while not buf.endswith(b"\n"):
            try:
                chunk = s.recv(65536)
            except TimeoutError:
                raise ControlError("timeout", f"the daemon did not answer {op!r} in time") from None
            if not chunk:
                raise ControlError("daemon_gone", "the daemon closed the connection")
            buf += chunk
    finally:
        s.close()
    response = json.loads(buf)
    if not response.get("ok"):
        raise ControlError(str(response.get("code")), str(response.get("error")))
    return response.get("result")
