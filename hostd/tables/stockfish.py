"""Stockfish for the chess levels, run by the host's AI worker processes over UCI.

Owns finding the binary (``locate``: ``$TABLEBOX_STOCKFISH``, then PATH, then where Debian
and Raspberry Pi OS put it, /usr/games, which is not on every PATH), asking its name and
version (``probe``, for ``tablebox doctor``), and one engine process per worker
(``Stockfish``): started on the first decision that needs it, started again if it died or
stopped answering, killed with its worker. ``install`` puts it behind this process's chess
levels (``engine.chess.ai.use_backend``); where Stockfish is absent, or it fails, the levels
play on our own search, so a table never waits on it.

It must never run in the daemon's own process (an engine is a CPU hog and the event loop's
process must stay light), never block without a deadline on the engine's pipe, and never
let the engine outlive its worker: the engine reads its commands from the worker's pipe and
quits when it closes, and the worker's orphan guard kills it first (``kill_all``).
"""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import subprocess
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # engine.chess loads python-chess (about 0.5 s): only where chess is played
    from engine.chess.uci import UciSettings

ENV = "TABLEBOX_STOCKFISH"  # a path to use, or "none" for our own search only
OFF = ("none", "off", "0")
PLACES = ("/usr/games/stockfish", "/usr/local/games/stockfish", "/usr/bin/stockfish")
START_SECONDS = 10.0  # for "uciok" and "readyok" (a Pi loads the NNUE net in about a second)
MOVE_SECONDS = 10.0  # for "bestmove": every level's node budget answers well within this
RETRY_SECONDS = 60.0  # after three failed starts in a row, wait this long before another


class EngineError(Exception):
    """The engine did not start, died, or did not answer in time (it is then killed)."""


@dataclass(frozen=True)
class Located:
    path: str | None
    why: str  # how it was found, or why there is none


def locate(env: dict[str, str] | None = None) -> Located:
    """Where this host's Stockfish is, or why it has none."""
    environ = os.environ if env is None else env
    chosen = environ.get(ENV, "").strip()
    if chosen.lower() in OFF:
        return Located(None, f"{ENV}={chosen} turns it off")
    if chosen:
        if os.access(chosen, os.X_OK):
            return Located(chosen, f"from {ENV}")
        return Located(None, f"{ENV}={chosen} is not an executable file")
    found = shutil.which("stockfish", path=environ.get("PATH", os.defpath))
    if found:
        return Located(found, "on PATH")
    for place in PLACES:
        if os.access(place, os.X_OK):
            return Located(place, "in " + os.path.dirname(place))
    return Located(None, "stockfish is not installed (not on PATH, nor in "
                         + ", ".join(sorted({os.path.dirname(p) for p in PLACES})) + ")")


class Stockfish:
    """One Stockfish process, an ``engine.chess.uci.UciBackend``. Thread-safe (a lock per
    engine), lazy, and self-healing: a dead or silent engine is killed, and the next
    decision starts a new one; meanwhile ``bestmove`` answers None (our own search)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.name = ""  # "Stockfish 15.1", from its "id name" once started
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self._buf = b""
        self._configured: tuple[UciSettings, bool] | None = None
        self._lock = threading.Lock()
        self._failures = 0
        self._resting_until = 0.0
        _LIVE.append(self)

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None and self.proc.poll() is None else None

    # -- the pipe ----------------------------------------------------------------------------
    def _send(self, line: str) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        try:
            self.proc.stdin.write(line.encode() + b"\n")
            self.proc.stdin.flush()
        except (OSError, ValueError) as e:
            raise EngineError(f"the engine's pipe is closed: {e}") from None

    def _until(self, word: str, seconds: float) -> str:
        """The first line starting with ``word``, read within ``seconds``."""
        assert self.proc is not None and self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + seconds
        while True:
            while b"\n" in self._buf:
                raw, self._buf = self._buf.split(b"\n", 1)
                line = raw.decode(errors="replace").strip()
                if line.split()[:1] == [word]:
                    return line
                if line.startswith("id name "):
                    self.name = line[len("id name "):]
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineError(f"no {word!r} within {seconds:g} s")
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise EngineError("the engine exited")
                self._buf += chunk

    # -- life ----------------------------------------------------------------------------------
    def _start(self) -> None:
        self.kill()
        self.starts += 1
        try:
            self.proc = subprocess.Popen([self.path], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                         close_fds=True)
        except OSError as e:
            raise EngineError(f"cannot start {self.path}: {e}") from None
        self._send("uci")
        self._until("uciok", START_SECONDS)

    def kill(self) -> None:
        """Stop the engine now (a kill, not a polite quit: nothing it holds is worth a wait)."""
        proc, self.proc = self.proc, None
        self._buf, self._configured = b"", None
        if proc is None:
            return
        with contextlib.suppress(OSError):
            proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=5)
        for pipe in (proc.stdin, proc.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()

    def _ask(self, fen: str, moves: Sequence[str], settings: UciSettings,
             chess960: bool) -> str | None:
        from engine.chess import uci

        if self.proc is None or self.proc.poll() is not None:
            self._start()
        if self._configured != (settings, chess960):
            for line in uci.setup_lines(settings, chess960):
                self._send(line)
            self._send("ucinewgame")
            self._send("isready")
            self._until("readyok", START_SECONDS)
            self._configured = (settings, chess960)
        for line in uci.go_lines(fen, moves, settings):
            self._send(line)
        return uci.parse_bestmove(self._until("bestmove", MOVE_SECONDS))

    def bestmove(self, fen: str, moves: Sequence[str], settings: UciSettings,
                 chess960: bool) -> str | None:
        """The engine's move, or None when it cannot answer now (our own search plays)."""
        with self._lock:
            if self._failures >= 3 and time.monotonic() < self._resting_until:
                return None
            for _attempt in (0, 1):  # a dead engine is started again once, at once
                try:
                    answer = self._ask(fen, moves, settings, chess960)
                except EngineError:
                    self.kill()
                    self._failures += 1
                    if self._failures >= 3:
                        self._resting_until = time.monotonic() + RETRY_SECONDS
                        return None
                    continue
                self._failures = 0
                return answer
            return None


_LIVE: list[Stockfish] = []  # this process's engines, for kill_all
_INSTALLED: list[Stockfish | None] = []  # what ``install`` put behind the levels, if it ran


def kill_all() -> None:
    """Kill every engine this process started (a worker's orphan guard, at exit)."""
    for engine in _LIVE:
        engine.kill()


def install(env: dict[str, str] | None = None) -> str:
    """In an AI worker: put Stockfish (if there is one) behind the chess levels, started on
    its first decision. Returns "stockfish" or "own", as ``use_backend`` does."""
    from engine.chess import ai as chess_ai

    found = locate(env)
    engine = Stockfish(found.path) if found.path else None
    _INSTALLED[:] = [engine]
    return chess_ai.use_backend(engine)


def status() -> dict[str, object]:
    """What this process's chess levels play on: "stockfish" (with the engine's path, its
    process id once started, and how many times it was started) or "own"."""
    engine = _INSTALLED[0] if _INSTALLED else None
    if engine is None:
        return {"backend": "own"}
    return {"backend": "stockfish", "path": engine.path, "pid": engine.pid,
            "starts": engine.starts}


def probe(path: str, seconds: float = START_SECONDS) -> str:
    """The engine's name and version ("Stockfish 15.1"), or EngineError."""
    engine = Stockfish(path)
    try:
        engine._start()
        return engine.name or os.path.basename(path)
    finally:
        engine.kill()
        _LIVE.remove(engine)


def describe(env: dict[str, str] | None = None) -> tuple[bool, str]:
    """(Stockfish usable, one line saying which chess engine the levels play on)."""
    found = locate(env)
    if found.path is None:
        return False, f"built-in search: {found.why}"
    try:
        name = probe(found.path)
    except EngineError as e:
        return False, f"built-in search: {found.path} does not answer UCI ({e})"
    return True, f"{name} at {found.path} ({found.why})"
